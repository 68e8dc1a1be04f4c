"""Ratings of agents from game results: Plackett-Luce strengths (choix's ILSR) on the Elo scale, with bootstrap CIs.

A game result is the agents' finishing order, best first, where each place is a group of agents that tied (a
two-seat game is a pair of places unless drawn). Plackett-Luce reduces to Bradley-Terry for two seats. A tie is
entered as each tied pair beating each other once (a draw counts as one win each way), and a game in which every
agent tied carries no information and is left out.

An agent may hold several seats of one game (the line-up heuristic, random, random of a tournament): each seat is
an entry of the finishing order with its agent's strength, which is exactly the Plackett-Luce likelihood of the
seats' order (choix's spectral fit handles repeated items: an agent "beating itself" cancels out). A game whose
seats all hold one agent carries no information.

Strengths are fitted by choix's iterative Luce spectral ranking with a small regularisation (`alpha`), which keeps
agents that never lose or never win finite. The fit depends only on the multiset of results: results are put in a
canonical order before fitting, so the table does not depend on the order games were played in. Ratings are on the
Elo scale (a 400-point gap means 10:1 odds of finishing ahead in a pairwise game), centred on `ELO_CENTRE`.
Confidence intervals come from a seeded bootstrap over games. A share (a win rate, a first-place share) gets the
Wilson score interval (`wilson_interval`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

ELO_CENTRE = 1500.0
"""The mean rating of the agents in a table."""
ELO_PER_NAT = 400.0 / math.log(10.0)
"""Elo points per unit of Plackett-Luce log-strength."""
REGULARISATION = 0.01
"""choix's alpha: a weak prior that keeps undefeated (or winless) agents' strengths finite."""
BOOTSTRAP_SAMPLES = 200
"""Bootstrap resamples of the games behind each confidence interval."""
CONFIDENCE = 0.95
"""Coverage of the reported intervals."""

WILSON_Z_95 = 1.959963984540054
"""Standard normal quantile of a two-sided 95% interval."""

Result = Sequence[Sequence[str]]
"""One game: its places best first, each place the agents that shared it (e.g. [["mcts"], ["random", "heuristic"]]);
an agent in several seats is listed once per seat."""


@dataclass(frozen=True)
class Rating:
    """One agent's rating with its bootstrap confidence interval and the games behind it."""

    agent: str
    rating: float
    low: float
    high: float
    games: int


def _comparisons(result: Result, index: dict[str, int]) -> tuple[list[tuple[int, ...]], list[tuple[int, int]]]:
    """A game as one strict ranking (no ties) or as pairwise comparisons (with ties: a draw is a win each way)."""
    places = [sorted(index[agent] for agent in place) for place in result if place]
    if all(len(place) == 1 for place in places):
        return ([tuple(place[0] for place in places)] if len(places) > 1 else []), []
    pairs: list[tuple[int, int]] = []
    for i, place in enumerate(places):
        for j, other in enumerate(places):
            for a in place:
                for b in other:
                    if i < j or (i == j and a != b):
                        pairs.append((a, b))
    return [], pairs


def _log_strengths(results: Sequence[Result], agents: Sequence[str], start: np.ndarray | None = None) -> np.ndarray:
    """Plackett-Luce log-strengths of `agents` (mean 0) from the results, independent of their order; the fit
    iterates from `start` (log-strengths) when given, else from equal strengths."""
    index = {agent: i for i, agent in enumerate(agents)}
    rankings: list[tuple[int, ...]] = []
    pairs: list[tuple[int, int]] = []
    for result in results:
        ranking, comparisons = _comparisons(result, index)
        rankings += ranking
        pairs += comparisons
    # Pairwise comparisons are rankings of two; canonical order makes the fit independent of game order.
    data: list[tuple[int, ...]] = sorted([*rankings, *pairs])
    if not data:
        return np.zeros(len(agents))
    import choix  # the train extra's: imported here, so evaluating solo games needs only the core dependencies

    fitted = choix.ilsr_rankings(len(agents), data, alpha=REGULARISATION, initial_params=start)
    strengths = np.asarray(fitted, dtype=np.float64)
    return strengths - strengths.mean()


def rate(results: Sequence[Result], seed: int = 0, samples: int = BOOTSTRAP_SAMPLES) -> list[Rating]:
    """Elo-scale ratings of every agent in `results`, best first, with seeded bootstrap confidence intervals."""
    agents = sorted({agent for result in results for place in result for agent in place})
    if not agents:
        return []
    # A canonical order of the games: the fit and the bootstrap then do not depend on the order they were played in.
    results = sorted(results, key=lambda result: [sorted(place) for place in result])
    fitted = _log_strengths(results, agents)
    point = ELO_CENTRE + ELO_PER_NAT * fitted
    rng = np.random.default_rng(seed)
    draws = np.empty((samples, len(agents)))
    for sample in range(samples):
        chosen = rng.integers(len(results), size=len(results))
        # Starting each resample's fit from the full fit converges in fewer iterations (to the same optimum).
        draws[sample] = ELO_CENTRE + ELO_PER_NAT * _log_strengths([results[i] for i in chosen], agents, fitted)
    tail = (1.0 - CONFIDENCE) / 2.0
    low, high = np.quantile(draws, [tail, 1.0 - tail], axis=0)
    games = {agent: sum(any(agent in place for place in result) for result in results) for agent in agents}
    table = [
        Rating(agent, float(point[i]), float(low[i]), float(high[i]), games[agent]) for i, agent in enumerate(agents)
    ]
    return sorted(table, key=lambda rating: (-rating.rating, rating.agent))


def places_from_scores(agents_by_seat: Sequence[str], scores: Sequence[float]) -> list[list[str]]:
    """A game result from each seat's agent and score (higher is better): places best first, ties grouped."""
    by_score: dict[float, list[str]] = {}
    for agent, score in zip(agents_by_seat, scores, strict=True):
        by_score.setdefault(score, []).append(agent)
    return [by_score[score] for score in sorted(by_score, reverse=True)]


def wilson_interval(successes: float, trials: int, z: float = WILSON_Z_95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion (95% by default); (0, 1) when there are no trials.

    `successes` may be fractional (a shared first place or a draw counted as a part of a success).
    """
    if trials == 0:
        return 0.0, 1.0
    proportion = successes / trials
    denominator = 1.0 + z * z / trials
    center = (proportion + z * z / (2 * trials)) / denominator
    half_width = z * math.sqrt(proportion * (1 - proportion) / trials + z * z / (4 * trials * trials)) / denominator
    # At 0 or `trials` successes the bound is exactly 0 or 1; the formula leaves rounding residue there.
    low = 0.0 if successes == 0 else max(0.0, center - half_width)
    high = 1.0 if successes == trials else min(1.0, center + half_width)
    return low, high


def paired_difference(
    first: Sequence[float], second: Sequence[float], z: float = WILSON_Z_95
) -> tuple[float, float, float]:
    """Mean of `first - second` over paired outcomes (the same deals) with its normal 95% interval.

    Pairing removes the deals' own spread (both agents lose the hopeless deals), so the interval of a difference is
    narrower than the two win rates' Wilson intervals side by side; it is the interval of McNemar's test.
    """
    if len(first) != len(second):
        raise ValueError(f"paired outcomes differ in number: {len(first)} and {len(second)}")
    if not first:
        return 0.0, -1.0, 1.0
    differences = np.asarray(first, dtype=float) - np.asarray(second, dtype=float)
    mean = float(differences.mean())
    spread = float(differences.std(ddof=1)) if len(differences) > 1 else 0.0
    half_width = z * spread / math.sqrt(len(differences))
    return mean, mean - half_width, mean + half_width
