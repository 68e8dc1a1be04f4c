"""Ratings from game results (agents/evaluation/ratings.py): a maximum-a-posteriori Plackett-Luce fit on the Elo
scale with Laplace intervals, deterministic, order-independent, with intervals of honest width at unbeaten records."""

from __future__ import annotations

import math
from itertools import pairwise

import numpy as np
import pytest

import agents.evaluation.ratings as ratings_module
from agents.evaluation.ratings import (
    CONFIDENCE,
    ELO_CENTRE,
    ELO_PER_NAT,
    PRIOR_SD,
    choices,
    log_posterior,
    places_from_scores,
    posterior_gradient_and_precision,
    rate,
)
from tests.training.training_support import REPO_ROOT


def plackett_luce_games(strengths: dict[str, float], seats: int, games: int, seed: int) -> list[list[list[str]]]:
    """Games whose finishing orders are drawn from a Plackett-Luce model with the given strengths."""
    rng = np.random.default_rng(seed)
    names = sorted(strengths)
    results = []
    for _ in range(games):
        line_up = list(rng.choice(names, size=seats, replace=False))
        order = []
        while line_up:
            weights = np.array([strengths[name] for name in line_up])
            pick = int(rng.choice(len(line_up), p=weights / weights.sum()))
            order.append([str(line_up.pop(pick))])
        results.append(order)
    return results


def test_two_seat_ratings_recover_the_win_odds() -> None:
    """Bradley-Terry: an agent that finishes ahead 3 times in 4 is 400 * log10(3) = 191 Elo above its opponent."""
    results = [[["strong"], ["weak"]]] * 300 + [[["weak"], ["strong"]]] * 100
    table = {rating.agent: rating for rating in rate(results)}
    gap = table["strong"].rating - table["weak"].rating
    assert gap == pytest.approx(400 * math.log10(3), abs=5)
    assert table["strong"].low < table["strong"].rating < table["strong"].high
    assert table["weak"].high < table["strong"].low  # the intervals separate them
    assert (table["strong"].rating + table["weak"].rating) / 2 == pytest.approx(ELO_CENTRE)


def test_four_seat_ratings_order_the_agents_by_strength() -> None:
    """Plackett-Luce on 4-seat games ranks agents by their true strengths, within confidence intervals."""
    strengths = {"a": 8.0, "b": 4.0, "c": 2.0, "d": 1.0, "e": 1.0}
    table = rate(plackett_luce_games(strengths, seats=4, games=400, seed=2))
    assert [rating.agent for rating in table][:3] == ["a", "b", "c"]
    by_agent = {rating.agent: rating for rating in table}
    true_gap = 400 * math.log10(strengths["a"] / strengths["d"])
    measured = by_agent["a"].rating - by_agent["d"].rating
    assert abs(measured - true_gap) < 0.25 * true_gap


def test_ratings_do_not_depend_on_game_order_and_are_deterministic() -> None:
    """The same games in another order give exactly the same table, and so does a second fit: the Laplace intervals
    draw nothing at random."""
    results = plackett_luce_games({"x": 3.0, "y": 2.0, "z": 1.0}, seats=3, games=90, seed=4)
    shuffled = [results[i] for i in np.random.default_rng(5).permutation(len(results))]
    table = rate(results)
    assert rate(shuffled) == table
    assert rate(results) == table
    assert all(rating.low < rating.rating < rating.high for rating in table)


def test_ties_count_as_draws_between_every_tied_pair() -> None:
    """A shared place is a draw between the tied agents, a game where everyone tied included: draws keep equal agents
    equal and are evidence that they are alike (narrower intervals); a draw against a strong agent lifts the other."""
    results = [[["p"], ["q"]]] * 20 + [[["q"], ["p"]]] * 20
    base = {r.agent: r for r in rate(results)}
    with_draws = {r.agent: r for r in rate(results + [[["p", "q"]]] * 30)}
    assert base["p"].rating == pytest.approx(base["q"].rating) == pytest.approx(ELO_CENTRE)
    assert with_draws["p"].rating == pytest.approx(with_draws["q"].rating)
    assert with_draws["p"].high - with_draws["p"].low < base["p"].high - base["p"].low
    # r loses every game to p; q draws with p as often as it loses to p: q ends between the two.
    mixed = {r.agent: r.rating for r in rate([[["p"], ["r"]]] * 10 + [[["p"], ["q"]]] * 5 + [[["p", "q"]]] * 5)}
    assert mixed["p"] > mixed["q"] > mixed["r"]
    assert places_from_scores(["p", "q", "r"], [2.0, 5.0, 2.0]) == [["q"], ["p", "r"]]


def test_an_unbeaten_record_has_an_interval_that_narrows_with_the_games() -> None:
    """One agent wins every game: never a zero-width interval; the interval holds the rating, narrows as the games
    grow, and its lower end rises; the rating rises with the evidence, but like the log of the games: each tenfold
    record raises the gap by less than the 400 points (10:1 odds) that would make it ten times less surprising."""
    tables = {games: {r.agent: r for r in rate([[["ace"], ["duffer"]]] * games)} for games in (10, 100, 1000)}
    widths = [table["ace"].high - table["ace"].low for table in tables.values()]
    lows = [table["ace"].low for table in tables.values()]
    points = [table["ace"].rating for table in tables.values()]
    for table in tables.values():
        ace, duffer = table["ace"], table["duffer"]
        assert ace.low < ace.rating < ace.high and duffer.low < duffer.rating < duffer.high
        assert ace.rating - ELO_CENTRE == pytest.approx(ELO_CENTRE - duffer.rating)  # centred on the table's mean
        assert ace.low > ELO_CENTRE  # 10 straight wins already place it above the mean
    assert widths[0] > widths[1] > widths[2] > 0
    assert lows[0] < lows[1] < lows[2]
    assert points[0] < points[1] < points[2]
    # The gap between the two is twice the winner's distance from the centre.
    assert all(0 < 2 * (later - earlier) < 400 for earlier, later in pairwise(points))


def test_laplace_intervals_match_the_exact_posterior_at_mixed_outcomes() -> None:
    """Two agents, 30 wins to 10: the posterior of the gap is one-dimensional, so its exact quantiles (numerical
    integration over a fine grid) can be set beside the Laplace interval; they agree within a few Elo points."""
    wins, losses = 30, 10
    ace = next(r for r in rate([[["a"], ["b"]]] * wins + [[["b"], ["a"]]] * losses) if r.agent == "a")
    gap = np.linspace(-12.0, 12.0, 240001)
    # Each agent's prior has variance PRIOR_SD**2, so the gap's has twice that; a's rating is half the gap.
    log_density = -wins * np.logaddexp(0, -gap) - losses * np.logaddexp(0, gap) - gap**2 / (4 * PRIOR_SD**2)
    cumulative = np.cumsum(np.exp(log_density - log_density.max()))
    tail = (1 - CONFIDENCE) / 2
    quantiles = gap[np.searchsorted(cumulative / cumulative[-1], [tail, 1 - tail])]
    exact_low, exact_high = ELO_CENTRE + ELO_PER_NAT * quantiles / 2
    assert ace.low == pytest.approx(exact_low, abs=10) and ace.high == pytest.approx(exact_high, abs=10)
    assert ace.rating == pytest.approx(ELO_CENTRE + ELO_PER_NAT * gap[log_density.argmax()] / 2, abs=0.1)


def test_the_gradient_and_precision_are_those_of_the_log_posterior() -> None:
    """Newton's method and the intervals rest on the exact derivatives: they match central finite differences of the
    log-posterior, on games with ties and repeated seats."""
    results = plackett_luce_games({"a": 3.0, "b": 2.0, "c": 1.0, "d": 1.5}, seats=3, games=40, seed=11)
    results += [[["a", "b"], ["c"]], [["d"], ["a"], ["a"]], [["b", "b", "c"]]]
    data = choices(results, ["a", "b", "c", "d"])
    strengths = np.array([0.4, -0.2, 0.7, -0.1])
    gradient, precision = posterior_gradient_and_precision(strengths, data)
    step = 1e-5
    for k in range(4):
        offset = np.eye(4)[k] * step
        slope = (log_posterior(strengths + offset, data) - log_posterior(strengths - offset, data)) / (2 * step)
        assert gradient[k] == pytest.approx(slope, rel=1e-6, abs=1e-6)
        ahead = posterior_gradient_and_precision(strengths + offset, data)[0]
        behind = posterior_gradient_and_precision(strengths - offset, data)[0]
        np.testing.assert_allclose(-(ahead - behind) / (2 * step), precision[:, k], rtol=1e-6, atol=1e-6)


def test_an_agent_in_several_seats_is_rated_by_the_likelihood_of_the_seats_order() -> None:
    """Line-ups such as (strong, weak, weak): each seat is an entry of the Plackett-Luce order with its agent's
    strength, so the true strengths are recovered; a game whose seats all hold one agent changes nothing."""
    strengths = {"strong": 4.0, "weak": 1.0}
    rng = np.random.default_rng(8)
    results = []
    for game in range(600):
        line_up = ["strong", "weak", "weak"] if game % 2 else ["strong", "strong", "weak"]
        order = []
        while line_up:
            weights = np.array([strengths[name] for name in line_up])
            order.append([line_up.pop(int(rng.choice(len(line_up), p=weights / weights.sum())))])
        results.append(order)
    table = {rating.agent: rating for rating in rate(results)}
    gap = table["strong"].rating - table["weak"].rating
    assert gap == pytest.approx(400 * math.log10(4), rel=0.1)
    assert table["weak"].high < table["strong"].low
    self_play = [[["strong"], ["strong"], ["strong"]]] * 50
    with_self_play = {r.agent: r.rating for r in rate(results + self_play)}
    assert with_self_play["strong"] - with_self_play["weak"] == pytest.approx(gap)
    assert [(r.agent, r.rating, r.low, r.high) for r in rate(self_play)] == [
        ("strong", ELO_CENTRE, ELO_CENTRE, ELO_CENTRE)
    ]


def test_a_paired_difference_is_narrower_than_the_two_win_rates_apart() -> None:
    """Two agents on the same deals: the paired interval of the difference centres on the difference of the win rates
    and is narrower than the unpaired one when the deals themselves decide most outcomes."""
    from agents.evaluation.ratings import paired_difference

    rng = np.random.default_rng(3)
    easy = rng.random(400) < 0.3  # deals either agent wins
    first = (easy | (rng.random(400) < 0.08)).astype(float)
    second = easy.astype(float)
    mean, low, high = paired_difference(list(first), list(second))
    assert mean == pytest.approx(first.mean() - second.mean())
    unpaired = 1.96 * math.sqrt(first.var(ddof=1) / 400 + second.var(ddof=1) / 400)
    assert low < mean < high and (high - low) / 2 < unpaired
    assert paired_difference([1.0, 0.0], [1.0, 0.0]) == (0.0, 0.0, 0.0)
    with pytest.raises(ValueError, match="differ in number: 2 and 1"):
        paired_difference([1.0, 0.0], [1.0])


def test_the_published_unbeaten_record_figures_are_what_rate_gives() -> None:
    """The module docstring and docs/multiplayer.md quote the winner's rating and interval after 10, 100 and 1000
    straight wins: regenerated here, they must read the same."""
    multiplayer = (REPO_ROOT / "docs" / "multiplayer.md").read_text()
    for games in (10, 100, 1000):
        ace = next(r for r in rate([[["ace"], ["duffer"]]] * games) if r.agent == "ace")
        figure = f"{ace.rating:.0f} [{ace.low:.0f}, {ace.high:.0f}]"
        assert figure in " ".join((ratings_module.__doc__ or "").split()), figure
        assert figure in " ".join(multiplayer.split()), figure
