"""Scenario tests for resolving a claim on one Unearth Ruin (envs/unearth/claims.py), each quoting the rulebook.

Rulebook: Unearth's, "Resolving Claims to Ruins" and "Ties During Claims"; decisions in
envs/unearth/RULES.md, "Claims". Dice are written (owner seat, faces, value shown).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from envs.unearth.claims import ClaimResult, PlacedDie, resolve_claim, tie_break_key

RED, BLUE, YELLOW = 0, 1, 2
CLAIM = 13
"""A printed claim value (every colour has a 13)."""


def d4(owner: int, value: int) -> PlacedDie:
    """A four-sided die of `owner` showing `value`."""
    return PlacedDie(owner, 4, value)


def d6(owner: int, value: int) -> PlacedDie:
    """A six-sided die of `owner` showing `value`."""
    return PlacedDie(owner, 6, value)


def d8(owner: int, value: int) -> PlacedDie:
    """An eight-sided die of `owner` showing `value`."""
    return PlacedDie(owner, 8, value)


def test_claim_at_exactly_the_claim_value() -> None:
    """ "check to see if the total of all the dice on any Ruins Card is greater than or equal to the claim value of
    the Ruin. If it is, the Ruin is claimed by the player with the highest individual die result."
    """
    result = resolve_claim(CLAIM, [d6(RED, 6), d6(BLUE, 4), d4(BLUE, 3)])
    assert result.claimed
    assert result.winner == RED


def test_below_the_claim_value_nothing_happens() -> None:
    """ "check to see if the total of all the dice ... is greater than or equal to the claim value": a total one short
    claims nothing and nobody draws."""
    result = resolve_claim(CLAIM, [d6(RED, 6), d6(BLUE, 4), d4(BLUE, 2)])
    assert result == ClaimResult(claimed=False, winner=None, tied=(), delver_draws={})
    assert not result.unbreakable_tie


def test_highest_individual_die_wins_and_losers_draw_per_die() -> None:
    """ "The player(s) that did not claim the Ruin draw cards from the Delver Deck equal to the number of dice they
    had on that Ruin." Pictured: "Red wins the Ruin as their die has the highest value showing. Blue will draw two
    Delver cards in consolation, and Yellow one"."""
    result = resolve_claim(CLAIM, [d8(RED, 7), d6(BLUE, 5), d6(BLUE, 2), d6(YELLOW, 4)])
    assert result.winner == RED
    assert result.delver_draws == {BLUE: 2, YELLOW: 1}


def test_one_player_with_more_dice_still_loses_to_a_higher_die() -> None:
    """ "the Ruin is claimed by the player with the highest individual die result": the number of dice and their sum
    do not count, only the highest die."""
    result = resolve_claim(CLAIM, [d6(RED, 6), d6(BLUE, 5), d6(BLUE, 5), d8(BLUE, 5)])
    assert result.winner == RED
    assert result.delver_draws == {BLUE: 3}


def test_pictured_bigger_die_wins() -> None:
    """ "In the case of a tie when resolving a claim, the die with the higher number of faces (the "bigger die")
    wins." Pictured: "the red eight-sided die showing a 4 beats the blue six-sided die showing a 4.\""""
    result = resolve_claim(8, [d8(RED, 4), d6(BLUE, 4)])
    assert result.winner == RED
    assert result.delver_draws == {BLUE: 1}


def test_pictured_second_die_bigger_die_decides() -> None:
    """ "If the tied dice are the same dice type (i.e. both six-sided dice), then compare the second highest dice of
    each tied player". Pictured: "Red and Blue are both tied with 5's on their six-sided dice, so Blue's "bigger"
    eight-sided die showing a 4 will beat Red's six-sided die, also showing a 4, in the tiebreaker." The bigger-die
    rule applies again at the next-highest step."""
    result = resolve_claim(18, [d6(RED, 5), d6(RED, 4), d6(BLUE, 5), d8(BLUE, 4)])
    assert result.winner == BLUE
    assert result.delver_draws == {RED: 2}


def test_pictured_unbreakable_tie_everyone_draws() -> None:
    """ "If there is an unbreakable tie (e.g. only two opposing six-sided dice showing the same value), no one gets
    the Ruin Card (place it back into the box) and all players draw a Delver Card for each die they had on that
    Ruin.\""""
    result = resolve_claim(9, [d6(RED, 5), d6(BLUE, 5)])
    assert result.claimed
    assert result.winner is None
    assert result.unbreakable_tie
    assert result.tied == (RED, BLUE)
    assert result.delver_draws == {RED: 1, BLUE: 1}


def test_unbreakable_tie_third_player_also_draws_per_die() -> None:
    """ "no one gets the Ruin Card ... and all players draw a Delver Card for each die they had on that Ruin": a
    player who was not in the tie draws for each of their dice too."""
    result = resolve_claim(CLAIM, [d6(RED, 5), d4(RED, 2), d6(BLUE, 5), d4(BLUE, 2), d6(YELLOW, 1), d4(YELLOW, 1)])
    assert result.tied == (RED, BLUE)
    assert result.delver_draws == {RED: 2, BLUE: 2, YELLOW: 2}


def test_second_highest_value_decides() -> None:
    """ "compare the second highest dice of each tied player, continuing to compare "next highest dice" until the
    tie is broken." Red's second die (3) beats Blue's (2); Yellow, lower at the top, is out of the tie."""
    result = resolve_claim(CLAIM, [d6(RED, 5), d6(RED, 3), d6(BLUE, 5), d6(BLUE, 2), d6(YELLOW, 4)])
    assert result.winner == RED
    assert result.delver_draws == {BLUE: 2, YELLOW: 1}


def test_third_highest_die_decides() -> None:
    """ "continuing to compare "next highest dice" until the tie is broken": tied on the first and second dice, the
    third decides."""
    result = resolve_claim(CLAIM, [d6(RED, 4), d6(RED, 3), d6(RED, 1), d6(BLUE, 4), d6(BLUE, 3), d4(BLUE, 2)])
    assert result.winner == BLUE
    assert result.delver_draws == {RED: 3}


def test_missing_second_die_counts_as_zero() -> None:
    """ "If a player doesn't have a second die on the Ruin (or third, fourth, etc) then they are assumed to have a
    zero value for the tie breaker." Blue's second die showing 1 beats Red's missing second die."""
    result = resolve_claim(13, [d6(RED, 6), d6(BLUE, 6), d4(BLUE, 1)])
    assert result.winner == BLUE
    assert result.delver_draws == {RED: 1}


def test_bigger_die_within_a_player_sorts_first_on_equal_values() -> None:
    """ "the die with the higher number of faces (the "bigger die") wins": a player's highest die is, among equal
    values, their biggest, so Red's d8 and d6 both showing 5 meet Blue's d8 5 first, then Red's 5 beats Blue's 4."""
    assert tie_break_key([d6(RED, 5), d8(RED, 5)]) == ((5, 8), (5, 6))
    result = resolve_claim(CLAIM, [d6(RED, 5), d8(RED, 5), d8(BLUE, 5), d8(BLUE, 4)])
    assert result.winner == RED


def test_one_players_own_dice_never_compete() -> None:
    """ "the Ruin is claimed by the player with the highest individual die result": a lone player with two equal
    dice wins; their dice are never tied against each other."""
    result = resolve_claim(10, [d6(RED, 5), d6(RED, 5)])
    assert result.winner == RED
    assert result.delver_draws == {}


def test_a_die_that_cannot_show_its_value_is_rejected() -> None:
    """ "Delver cards and Named Wonder effects may never lower a die result lower than 1, nor may they raise the
    result higher than the highest value of that die.\""""
    with pytest.raises(ValueError, match="not a die"):
        resolve_claim(CLAIM, [PlacedDie(RED, 6, 7)])
    with pytest.raises(ValueError, match="not a die"):
        resolve_claim(CLAIM, [PlacedDie(RED, 4, 0)])


DIE = st.sampled_from((4, 6, 6, 6, 8)).flatmap(
    lambda faces: st.builds(PlacedDie, st.integers(0, 3), st.just(faces), st.integers(1, faces))
)


@given(dice=st.lists(DIE, min_size=1, max_size=12), claim=st.integers(1, 30), data=st.data())
def test_claim_properties(dice: list[PlacedDie], claim: int, data: st.DataObject) -> None:
    """The winner's highest die is the highest on the Ruin; any order of the dice gives the same result; every
    player but the winner draws one card per die; a claim happens exactly when the total reaches the claim value."""
    result = resolve_claim(claim, dice)
    assert result.claimed == (sum(die.value for die in dice) >= claim)
    shuffled = data.draw(st.permutations(dice))
    assert resolve_claim(claim, shuffled) == result
    if not result.claimed:
        assert result.delver_draws == {} and result.winner is None
        return
    if result.winner is not None:
        assert max(die.value for die in dice if die.owner == result.winner) == max(die.value for die in dice)
    else:
        assert len(result.tied) >= 2
        tied_keys = {tuple(sorted((d.value, d.faces) for d in dice if d.owner == seat)) for seat in result.tied}
        assert len(tied_keys) == 1
    expected = {die.owner: 0 for die in dice if die.owner != result.winner}
    for die in dice:
        if die.owner != result.winner:
            expected[die.owner] += 1
    assert result.delver_draws == expected
