"""benchmarks/card_duel_best_response.py: the exact best response to Card Duel's heuristic at 2 seats."""

from __future__ import annotations

from fractions import Fraction

from benchmarks.card_duel_best_response import Solver, exact_value, hands_of_size, heuristic_follow, simulate


def test_hands_are_weighted_by_their_card_level_deals() -> None:
    """Two copies of each rank: a pair is one deal, two distinct ranks four; the weights count every deal."""
    hands = dict(hands_of_size(2))
    assert hands[(3, 3)] == 1 and hands[(3, 4)] == 4
    assert sum(hands.values()) == 190  # C(20, 2)


def test_the_heuristic_follows_with_its_cheapest_winner_counting_blame() -> None:
    """Rule 3: the highest rank wins, a blamed seat's card one rank lower, ties to the card played first."""
    assert heuristic_follow((2, 5, 7), led=4, leader_blamed=False, me_blamed=False) == 5
    assert heuristic_follow((2, 5, 7), led=4, leader_blamed=False, me_blamed=True) == 7  # 5 counts 4: a tie
    assert heuristic_follow((2, 5, 7), led=5, leader_blamed=True, me_blamed=False) == 5  # the led 5 counts 4
    assert heuristic_follow((2, 5, 7), led=9, leader_blamed=False, me_blamed=False) == 2


def test_the_heuristic_against_itself_is_exactly_even() -> None:
    assert exact_value(Solver("heuristic", hand_size=3), 3) == (Fraction(0), Fraction(1, 2))


def test_a_single_card_leaves_nothing_to_choose() -> None:
    assert exact_value(Solver("best", hand_size=1), 1)[0] == 0


def test_choosing_in_more_tricks_is_never_worse() -> None:
    """The best response in the first trick only, then in every trick: each at least the heuristic's value."""
    values = [exact_value(Solver("best", tricks, hand_size=3), 3)[0] for tricks in (0, 1, 2, None)]
    assert values == sorted(values) and values[0] == 0 and values[-1] > 0


def test_the_best_response_plays_whole_games_on_the_rules_core() -> None:
    """Its information set, rebuilt from the public history, agrees with the state (blame, points) at every move."""
    results = simulate(Solver("best"), 20, 0, 4)
    assert set(results) == {0, 1}
    for share, low, high in results.values():
        assert 0.0 <= low <= share <= high <= 1.0
