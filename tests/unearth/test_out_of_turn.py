"""Unearth decisions that fall to a seat other than the active one: one scenario per row of RULES.md's table.

RULES.md, "Decisions out of turn": a die of another seat rerolled by the active seat's card (Lost in the Ruins,
Forgotten Song) hands that seat its own choices. The rulebook: "The owner of a rerolled die always performs the
reroll, even if forced to do that reroll by another player", and the FAQ: "Anytime a die is rerolled and rolls a 1,
2, or 3, the die's owner gets another Stone".
"""

from __future__ import annotations

from typing import Any

from envs.unearth.rules import (
    BUILD_WONDER,
    CHOOSE_REMOVED,
    EDIFICE_REROLL,
    PLACE_STONE,
    TAKE_STONE,
    WONDER_MODIFIER,
    UnearthState,
)
from tests.unearth.scenarios import (
    BLUE,
    D4,
    D6_A,
    D8,
    RED,
    act,
    bag_stone,
    closer_cell,
    open_ring,
    place_stone,
    play_card,
    roll,
    scenario,
    tableau_of,
    take_stone,
    target_die,
    top_kind,
)

TABLE = ("peach 9", "green 13", "blue 15", "gray 17")
"""A 2-player table: claim values 9, 13, 15, 17."""


def lost_in_the_ruins(die: int = D6_A, face: int = 2, **fields: Any) -> UnearthState:
    """Seat 0 (active) plays Lost in the Ruins on seat 1's `die` (on gray 17, place 4) and it rolls `face`."""
    state = scenario(
        2, table=TABLE, hands={0: {"Lost in the Ruins": 1, "Ancient Map": 1}}, dice=[(1, die, 3, 1)], **fields
    )
    play_card(state, "Lost in the Ruins")  # the only die on a Ruin: the target is taken by the rules
    roll(state, face)
    return state


def assert_out_of_turn(state: UnearthState, kind: str, seat: int = 1) -> None:
    """The state waits for `seat`'s decision of `kind` while seat 0 is the active seat."""
    assert top_kind(state) == kind
    assert state.current_player() == seat
    assert state.active == 0


def test_take_stone_after_lost_in_the_ruins() -> None:
    """RULES.md: `take stone` out of turn when "a die of theirs rerolled by another player's card ... shows 1-3 on a
    Ruin with Stones of two or more colours"."""
    state = lost_in_the_ruins(stones={3: (1, 0, 1, 0)})
    assert_out_of_turn(state, TAKE_STONE)
    take_stone(state, BLUE, seat=1)
    assert state.tableaus[1].stones_by_colour == (0, 0, 1, 0)
    assert state.current_player() == 0  # back to the active seat's Delver Phase


def test_take_stone_after_forgotten_song() -> None:
    """RULES.md: `take stone` out of turn after Forgotten Song rerolls another seat's die to 1-3."""
    state = scenario(2, table=TABLE, hands={0: {"Forgotten Song": 1}}, dice=[(1, D6_A, 3, 5)], stones={3: (1, 1, 0, 0)})
    play_card(state, "Forgotten Song")
    roll(state, 3)
    assert_out_of_turn(state, TAKE_STONE)


def test_take_stone_of_underground_library_draws() -> None:
    """RULES.md: `take stone` out of turn when "Underground Library's two draws differ"."""
    state = lost_in_the_ruins(face=1, named_built={1: ["Underground Library"]})
    bag_stone(state, RED)
    bag_stone(state, BLUE)
    assert_out_of_turn(state, TAKE_STONE)


def test_place_stone_gained_on_such_a_reroll() -> None:
    """RULES.md: `place stone` out of turn for "any Stone they gain on such a reroll"."""
    state = lost_in_the_ruins(stones={3: (1, 0, 0, 0)}, tableaus={1: tableau_of([((0, 0), BLUE)])})
    assert_out_of_turn(state, PLACE_STONE)


def test_build_when_that_stone_closes_a_ring_a_named_wonder_fits() -> None:
    """RULES.md: `build` out of turn when "that Stone closes a ring that a Named Wonder in play fits"."""
    state = lost_in_the_ruins(
        stones={3: (0, 0, 1, 0)}, tableaus={1: open_ring((BLUE,) * 5)}, named_in_play=["The Crumbling Memorial"]
    )
    assert_out_of_turn(state, PLACE_STONE)
    place_stone(state, closer_cell(), seat=1)
    assert_out_of_turn(state, BUILD_WONDER)


def test_removed_ruin_when_that_wonder_is_the_crumbling_memorial() -> None:
    """RULES.md: `removed ruin` out of turn when "that Wonder is The Crumbling Memorial"."""
    state = lost_in_the_ruins(
        stones={3: (0, 0, 1, 0)}, tableaus={1: open_ring((BLUE,) * 5)}, named_in_play=["The Crumbling Memorial"]
    )
    place_stone(state, closer_cell(), seat=1)
    act(state, "build: The Crumbling Memorial", seat=1)
    assert_out_of_turn(state, CHOOSE_REMOVED)
    assert state.removed_seen == (False, True)


def test_modifier_of_college_of_the_overseers_on_a_rerolled_d8() -> None:
    """RULES.md: `modifier` out of turn when "College of the Overseers ... applies to the rerolled die"."""
    state = lost_in_the_ruins(die=D8, face=6, named_built={1: ["College of the Overseers"]})
    assert_out_of_turn(state, WONDER_MODIFIER)
    act(state, "modifier: +1", seat=1)
    assert state.die_value[1][D8] == 7


def test_modifier_of_the_harmonious_columns_on_a_rerolled_die() -> None:
    """RULES.md: `modifier` out of turn when "The Harmonious Columns ... applies to the rerolled die"."""
    state = lost_in_the_ruins(face=5, named_built={1: ["The Harmonious Columns"]})
    assert_out_of_turn(state, WONDER_MODIFIER)


def test_modifier_of_the_sanctuary_of_the_builders_on_a_rerolled_die() -> None:
    """RULES.md: `modifier` out of turn when "The Sanctuary of the Builders applies to the rerolled die" (it matches
    a number on its Ruin)."""
    state = scenario(
        2,
        table=TABLE,
        hands={0: {"Lost in the Ruins": 1}},
        dice=[(1, D6_A, 3, 6), (0, D4, 3, 4)],
        named_built={1: ["The Sanctuary of the Builders"]},
    )
    play_card(state, "Lost in the Ruins")
    target_die(state, 1, D6_A)
    roll(state, 4)
    assert_out_of_turn(state, WONDER_MODIFIER)


def test_reroll_of_the_shattered_edifice_on_a_rerolled_four_or_five() -> None:
    """RULES.md: `reroll` (The Shattered Edifice) out of turn when "the rerolled die shows 4 or 5"."""
    state = lost_in_the_ruins(face=4, named_built={1: ["The Shattered Edifice"]})
    assert_out_of_turn(state, EDIFICE_REROLL)
    act(state, "reroll: keep", seat=1)
    assert state.current_player() == 0
