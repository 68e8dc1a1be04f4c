"""Ratings from game results (agents/evaluation/ratings.py): Plackett-Luce on the Elo scale, reproducible,
order-independent."""

from __future__ import annotations

import math

import numpy as np
import pytest

from agents.evaluation.ratings import ELO_CENTRE, places_from_scores, rate


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
    table = {rating.agent: rating for rating in rate(results, seed=1, samples=60)}
    gap = table["strong"].rating - table["weak"].rating
    assert gap == pytest.approx(400 * math.log10(3), abs=5)
    assert table["strong"].low < table["strong"].rating < table["strong"].high
    assert table["weak"].high < table["strong"].low  # the intervals separate them
    assert (table["strong"].rating + table["weak"].rating) / 2 == pytest.approx(ELO_CENTRE)


def test_four_seat_ratings_order_the_agents_by_strength() -> None:
    """Plackett-Luce on 4-seat games ranks agents by their true strengths, within confidence intervals."""
    strengths = {"a": 8.0, "b": 4.0, "c": 2.0, "d": 1.0, "e": 1.0}
    table = rate(plackett_luce_games(strengths, seats=4, games=400, seed=2), seed=3, samples=30)
    assert [rating.agent for rating in table][:3] == ["a", "b", "c"]
    by_agent = {rating.agent: rating for rating in table}
    true_gap = 400 * math.log10(strengths["a"] / strengths["d"])
    measured = by_agent["a"].rating - by_agent["d"].rating
    assert abs(measured - true_gap) < 0.25 * true_gap


def test_ratings_do_not_depend_on_game_order_and_repeat_for_a_seed() -> None:
    """The same games in another order give the same table; the same seed gives the same intervals."""
    results = plackett_luce_games({"x": 3.0, "y": 2.0, "z": 1.0}, seats=3, games=90, seed=4)
    shuffled = [results[i] for i in np.random.default_rng(5).permutation(len(results))]
    assert rate(results, seed=6, samples=30) == rate(shuffled, seed=6, samples=30)
    assert rate(results, seed=6, samples=30) != rate(results, seed=7, samples=30)  # the seed drives the intervals


def test_ties_count_as_draws_and_all_tied_games_change_nothing() -> None:
    """A shared place is a draw between the tied agents; a game where everyone tied carries no information."""
    results = [[["p"], ["q"]]] * 20 + [[["q"], ["p"]]] * 20
    base = {r.agent: r.rating for r in rate(results, seed=0, samples=10)}
    with_draws = {r.agent: r.rating for r in rate(results + [[["p", "q"]]] * 30, seed=0, samples=10)}
    assert base["p"] == pytest.approx(base["q"]) and with_draws["p"] == pytest.approx(with_draws["q"])
    assert places_from_scores(["p", "q", "r"], [2.0, 5.0, 2.0]) == [["q"], ["p", "r"]]


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
    table = {rating.agent: rating for rating in rate(results, seed=9, samples=20)}
    gap = table["strong"].rating - table["weak"].rating
    assert gap == pytest.approx(400 * math.log10(4), rel=0.1)
    assert table["weak"].high < table["strong"].low
    self_play = [[["strong"], ["strong"], ["strong"]]] * 50
    with_self_play = {r.agent: r.rating for r in rate(results + self_play, seed=9, samples=20)}
    assert with_self_play["strong"] - with_self_play["weak"] == pytest.approx(gap)
    assert [(r.agent, r.rating, r.low, r.high) for r in rate(self_play, samples=5)] == [
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
