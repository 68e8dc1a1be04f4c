"""Ratings of agents from game results: a maximum-a-posteriori Plackett-Luce fit on the Elo scale, with Laplace
intervals.

A game result is the agents' finishing order, best first, where each place is a group of agents that tied (a
two-seat game is a pair of places unless drawn). Plackett-Luce reduces to Bradley-Terry for two seats. A tie is
entered as each tied pair beating each other once (a draw counts as one win each way), a game in which every agent
tied included: it is a draw between every pair, evidence that they are alike.

An agent may hold several seats of one game (the line-up heuristic, random, random of a tournament): each seat is
an entry of the finishing order with its agent's strength, which is exactly the Plackett-Luce likelihood of the
seats' order (a choice among seats that all hold one agent is certain and carries no information). A game whose
seats all hold one agent carries no information.

The model. A game's order is a sequence of choices: the first place is drawn from all seats with probability
proportional to each seat's strength exp(theta), the second from the rest, and so on. The log-strengths theta get
independent Gaussian priors of mean 0 and standard deviation `PRIOR_SD_ELO` Elo points (ln 10 nats): a typical agent
sits within a few hundred points of the table's mean, and a gap of 800 points (100:1 odds) between an agent and the
average is rare but allowed. That scale is weak against ordinary data (400 games at 3:1 odds move the gap by under 1
Elo point) and still keeps an agent that never loses (or never wins) at a finite rating with a finite interval.
The posterior mode is found by Newton's method on the exact gradient and Hessian of the log-posterior, which is
strictly concave (a log-sum-exp likelihood plus a Gaussian), so the mode is unique and found from equal strengths,
with step halving as a guard. Identical choices are counted once with their number, so the fit costs one pass over
the games and then work that grows with the number of distinct choices, not games; they are summed in a canonical
order, so the table does not depend on the order games were played in and is the same on every run.

The intervals come from the Laplace approximation: the posterior is taken as Gaussian around its mode with the
inverse of the negative Hessian as covariance. A rating is the agent's strength relative to the mean of the table
(centred on `ELO_CENTRE`), so its variance is the diagonal of the centred covariance (I - J/n) S (I - J/n): the
common shift of all strengths, which the results cannot see and only the prior bounds, does not widen the
intervals. A bootstrap over games cannot give these intervals: when every game has the same outcome every resample
is the same set of games and the interval has zero width, however few the games.

What an unbeaten record means. With one agent winning every game against one other, the winner's rating and
interval (`rate([[["a"], ["b"]]] * n)`) are 1796 [1528, 2063] at n = 10, 1960 [1738, 2181] at 100 and
2133 [1940, 2325] at 1000. The rating rises with n, and must: 1000 wins in 1000 games is far stronger evidence of a
large gap than 10 in 10 (a gap of 400 points explains 10 straight wins with probability 0.39 and 1000 with
probability 1e-42). A rating that stayed put would ignore that evidence. It rises only like the log of n (about
170 points per tenfold record here), because each further win adds less as the model already expects it, and the
prior sets its level; the width shrinks as the lower end rises (the games bound the gap from below, the prior from
above). The Laplace interval is symmetric while the exact posterior of an
unbeaten record is skewed toward larger gaps: there the exact 95% intervals are [1624, 2223], [1818, 2328] and
[2005, 2452], so at an unbeaten record the Laplace interval sits low, by 65 to 160 Elo points at its ends; with
mixed outcomes the posterior is close to Gaussian and the two agree (30 wins in 40: [1533, 1656] against the exact
[1537, 1663]).

A share (a win rate, a first-place share) gets the Wilson score interval (`wilson_interval`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

ELO_CENTRE = 1500.0
"""The mean rating of the agents in a table."""
ELO_PER_NAT = 400.0 / math.log(10.0)
"""Elo points per unit of Plackett-Luce log-strength."""
PRIOR_SD_ELO = 400.0
"""Standard deviation of the Gaussian prior on each agent's rating around the table's mean (see the module
docstring for why this scale)."""
PRIOR_SD = PRIOR_SD_ELO / ELO_PER_NAT
"""The prior's standard deviation in log-strength units (ln 10)."""
CONFIDENCE = 0.95
"""Coverage of the reported intervals."""
NEWTON_TOLERANCE = 1e-10
"""The fit stops when no log-strength moves by more than this in a Newton step."""
NEWTON_MAX_STEPS = 200
"""Newton steps allowed before the fit is declared not to converge (a strictly concave fit needs a few dozen)."""

WILSON_Z_95 = 1.959963984540054
"""Standard normal quantile of a two-sided 95% interval."""

Result = Sequence[Sequence[str]]
"""One game: its places best first, each place the agents that shared it (e.g. [["mcts"], ["random", "heuristic"]]);
an agent in several seats is listed once per seat."""


@dataclass(frozen=True)
class Rating:
    """One agent's rating with its Laplace confidence interval and the games behind it."""

    agent: str
    rating: float
    low: float
    high: float
    games: int


@dataclass(frozen=True)
class Choices:
    """The distinct Plackett-Luce choices of a set of games: in row k, `chosen[k]` took the best of the remaining
    seats, `remaining[k, a]` of which held agent a, and this happened `count[k]` times."""

    remaining: np.ndarray
    chosen: np.ndarray
    count: np.ndarray


def _rankings(result: Result, index: dict[str, int]) -> list[tuple[int, ...]]:
    """A game as one strict ranking (no ties) or as pairwise rankings (with ties: a draw is a win each way)."""
    places = [sorted(index[agent] for agent in place) for place in result if place]
    if all(len(place) == 1 for place in places):
        return [tuple(place[0] for place in places)] if len(places) > 1 else []
    pairs: list[tuple[int, ...]] = []
    for i, place in enumerate(places):
        for j, other in enumerate(places):
            for a in place:
                for b in other:
                    if i < j or (i == j and a != b):
                        pairs.append((a, b))
    return pairs


def choices(results: Sequence[Result], agents: Sequence[str]) -> Choices:
    """The results as distinct choices with their counts, in a canonical order (independent of the games' order);
    a choice among seats that all hold one agent is certain and left out."""
    index = {agent: i for i, agent in enumerate(agents)}
    games = Counter(tuple(tuple(sorted(place)) for place in result) for result in results)
    tally: Counter[tuple[int, tuple[int, ...]]] = Counter()
    for result, times in games.items():
        for ranking in _rankings(result, index):
            remaining = [0] * len(agents)
            for agent in ranking:
                remaining[agent] += 1
            for chosen in ranking:
                if sum(1 for seats in remaining if seats) < 2:
                    break  # every seat left holds one agent: the rest of the order is certain
                tally[chosen, tuple(remaining)] += times
                remaining[chosen] -= 1
    keys = sorted(tally)
    return Choices(
        remaining=np.array([key[1] for key in keys], dtype=np.float64).reshape(len(keys), len(agents)),
        chosen=np.array([key[0] for key in keys], dtype=np.int64),
        count=np.array([tally[key] for key in keys], dtype=np.float64),
    )


def log_posterior(strengths: np.ndarray, data: Choices) -> float:
    """The log-posterior of the log-strengths (up to a constant): Plackett-Luce likelihood plus the Gaussian prior."""
    shift = float(strengths.max())
    log_totals = np.log((data.remaining * np.exp(strengths - shift)).sum(axis=1)) + shift
    likelihood = float(data.count @ (strengths[data.chosen] - log_totals))
    return likelihood - float(strengths @ strengths) / (2.0 * PRIOR_SD**2)


def posterior_gradient_and_precision(strengths: np.ndarray, data: Choices) -> tuple[np.ndarray, np.ndarray]:
    """The gradient of `log_posterior` and its negative Hessian (the posterior precision) at `strengths`."""
    size = len(strengths)
    weights = data.remaining * np.exp(strengths - strengths.max())
    shares = weights / weights.sum(axis=1, keepdims=True)  # each choice's probabilities over the agents
    counted = shares * data.count[:, None]
    expected = counted.sum(axis=0)
    gradient = np.bincount(data.chosen, weights=data.count, minlength=size) - expected - strengths / PRIOR_SD**2
    precision = np.diag(expected) - shares.T @ counted + np.eye(size) / PRIOR_SD**2
    return gradient, precision


def fit(data: Choices, size: int) -> tuple[np.ndarray, np.ndarray]:
    """The posterior mode of `size` agents' log-strengths (mean 0) and the posterior precision there, by Newton's
    method with step halving."""
    strengths = np.zeros(size)
    current = log_posterior(strengths, data)
    for _ in range(NEWTON_MAX_STEPS):
        gradient, precision = posterior_gradient_and_precision(strengths, data)
        step = np.linalg.solve(precision, gradient)
        # Newton's full step can overshoot far from the mode (an unbeaten agent starts far below it); halving until
        # the posterior does not fall keeps every step an ascent.
        scale = 1.0
        while log_posterior(strengths + scale * step, data) < current:
            scale /= 2.0
            if scale < NEWTON_TOLERANCE:  # no step ascends: the mode, to rounding
                return strengths - strengths.mean(), precision
        strengths = strengths + scale * step
        current = log_posterior(strengths, data)
        if float(np.abs(scale * step).max()) <= NEWTON_TOLERANCE:
            return strengths - strengths.mean(), posterior_gradient_and_precision(strengths, data)[1]
    raise RuntimeError(f"the rating fit did not converge in {NEWTON_MAX_STEPS} Newton steps")


def centred_variances(precision: np.ndarray) -> np.ndarray:
    """Laplace variances of each log-strength less the mean of all: the diagonal of (I - J/n) S (I - J/n), with S
    the inverse of the posterior precision."""
    size = len(precision)
    centring = np.eye(size) - np.full((size, size), 1.0 / size)
    covariance = centring @ np.linalg.inv(precision) @ centring
    return np.clip(np.diag(covariance), 0.0, None)  # one agent: exactly 0, up to rounding


def rate(results: Sequence[Result]) -> list[Rating]:
    """Elo-scale ratings of every agent in `results`, best first, with Laplace confidence intervals (deterministic)."""
    agents = sorted({agent for result in results for place in result for agent in place})
    if not agents:
        return []
    strengths, precision = fit(choices(results, agents), len(agents))
    point = ELO_CENTRE + ELO_PER_NAT * strengths
    half_width = NormalDist().inv_cdf(0.5 + CONFIDENCE / 2.0) * ELO_PER_NAT * np.sqrt(centred_variances(precision))
    games = {agent: sum(any(agent in place for place in result) for result in results) for agent in agents}
    table = [
        Rating(agent, float(point[i]), float(point[i] - half_width[i]), float(point[i] + half_width[i]), games[agent])
        for i, agent in enumerate(agents)
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
