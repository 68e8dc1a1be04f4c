"""Unearth rule scenarios for Wonders: building one in a closed ring, the tokens, and every Named Wonder's effect.

Rulebook (Unearth's): "Building Wonders"; Named Wonder effects from the reference (named_wonders.yaml)
as RULES.md ("Wonders") decides them: which are automatic, which are their owner's optional choices.
"""

from __future__ import annotations

from typing import Any

import pytest

from envs.core.game import CHANCE
from envs.unearth.rules import (
    BUILD_WONDER,
    CHOOSE_REMOVED,
    DRAW_DELVER,
    DRAW_REMOVED,
    EDIFICE_REROLL,
    GREATER,
    LESSER,
    NAMED_BASE,
    PLACE_STONE,
    ROLL,
    TAKE_STONE,
    WONDER_MODIFIER,
    WONDER_TOKEN,
    UnearthState,
)
from tests.unearth.scenarios import (
    BLACK,
    BLUE,
    D4,
    D6_A,
    D6_B,
    D8,
    RED,
    RING_CLOSER,
    YELLOW,
    act,
    bag_stone,
    centre_cell,
    chance,
    closer_cell,
    draw,
    excavate,
    labels,
    named_id,
    open_ring,
    place_anywhere,
    place_stone,
    play_card,
    roll,
    ruin_id,
    scenario,
    take_stone,
    top_kind,
    with_wonder_ring,
)

TABLE = ("peach 9", "green 13", "blue 15", "gray 17")
"""A 2-player table: claim values 9, 13, 15, 17."""
TABLE_3P = ("peach 9", "green 13", "blue 15", "gray 17", "purple 17")
"""A 3-4 player table."""
MIXED_112233 = (RED, RED, YELLOW, YELLOW, BLUE)
"""Five Stones that, with a sixth blue one, fit 112233 (The Blackened Cenotaph) and no one-colour formula."""


def ring_scenario(ring: tuple[int, ...], closing: int, named_in_play: list[str], **fields: Any) -> UnearthState:
    """Seat 0 holds five Stones of a ring and rolls a 1 on a Ruin whose only Stones are of colour `closing`."""
    stones = [0, 0, 0, 0]
    stones[closing] = 1
    state = scenario(
        2, table=TABLE, tableaus={0: open_ring(ring)}, stones={3: tuple(stones)}, named_in_play=named_in_play, **fields
    )
    excavate(state, D6_A, 3, 1)
    assert top_kind(state) == PLACE_STONE and state.current_player() == 0
    place_stone(state, closer_cell())
    return state


# ---------------------------------------------------------------------------------------------- building
def test_a_closed_ring_offers_the_generic_wonder_and_every_fitting_named_wonder_in_play() -> None:
    """ "The Named Wonders in play may be placed instead of a Greater or Lesser Wonder, but each require a specific
    collection of Stones to be built." Six blue Stones fit BBB??? (College), ?????? (Library) and 111111 (Memorial),
    not 111222 (Palace: "3 Stones of one color and 3 Stones of another color"). A 2-player game has 4 Named Wonders
    in play ("number of players + 2")."""
    in_play = ["College of the Overseers", "Palace of Relics", "Underground Library", "The Crumbling Memorial"]
    state = ring_scenario((BLUE,) * 5, BLUE, in_play)
    assert top_kind(state) == BUILD_WONDER and state.current_player() == 0
    assert labels(state) == [
        "build: lesser or greater",
        "build: College of the Overseers",
        "build: Underground Library",
        "build: The Crumbling Memorial",
    ]


def test_building_a_named_wonder_takes_it_out_of_play() -> None:
    """ "The Named Wonders in play may be placed instead of a Greater or Lesser Wonder": the token goes into the ring,
    and the Wonder is no longer in play for anyone else (RULES.md: only one of each exists)."""
    state = ring_scenario((BLUE,) * 5, BLUE, ["College of the Overseers", "Underground Library"])
    act(state, "build: College of the Overseers")
    college = named_id(state.game, "College of the Overseers")
    assert state.named_built[0] == (college,)
    assert college not in state.named_in_play and named_id(state.game, "Underground Library") in state.named_in_play
    assert state.tableaus[0].wonder_at(centre_cell()) == NAMED_BASE + college


def test_a_one_colour_ring_builds_a_greater_wonder_token_drawn_at_random() -> None:
    """ "If the Stones used to make the Wonder are all the same color, fill the empty space with a randomly selected
    Greater Wonder." """
    state = ring_scenario((BLUE,) * 5, BLUE, [])
    assert state.current_player() == CHANCE and top_kind(state) == WONDER_TOKEN
    tokens = list(state.greater_tokens)
    outcomes = dict(state.chance_outcomes())
    assert set(outcomes) == set(tokens)
    assert outcomes[7] == pytest.approx(tokens.count(7) / len(tokens))
    chance(state, WONDER_TOKEN, 8)
    assert state.greater_built[0] == (8,)
    assert 8 not in state.greater_tokens and len(state.greater_tokens) == len(tokens) - 1
    assert state.tableaus[0].wonder_at(centre_cell()) == GREATER


def test_a_mixed_ring_builds_a_lesser_wonder() -> None:
    """ "If the Stones contain more than one color of Stones, place a Lesser Wonder in the empty space." A Named Wonder
    in play that the ring does not fit (BBB??? with two blue Stones) is not offered, so nothing is asked."""
    state = ring_scenario(MIXED_112233, BLUE, ["College of the Overseers"])
    assert top_kind(state) == WONDER_TOKEN
    assert set(dict(state.chance_outcomes())) == set(state.lesser_tokens)
    chance(state, WONDER_TOKEN, 3)
    assert state.lesser_built[0] == (3,)
    assert state.tableaus[0].wonder_at(centre_cell()) == LESSER
    assert named_id(state.game, "College of the Overseers") in state.named_in_play


def test_a_wonder_tokens_value_is_seen_by_its_owner_only() -> None:
    """ "Greater and Lesser Wonders should be placed point value face down, viewable only by their owner." """
    state = ring_scenario((BLUE,) * 5, BLUE, [])
    for outcome, _ in state.chance_outcomes():
        assert str(outcome) in state.chance_label_for(outcome, 0)
        for viewer in (1, None):
            assert str(outcome) not in state.chance_label_for(outcome, viewer)


# ---------------------------------------------------------------------------------------------- College, Columns
def test_college_of_the_overseers_may_add_one_to_its_owners_d8() -> None:
    """College of the Overseers: "When you roll your d8 you may give it +1." (RULES.md: optional, the owner
    decides.)"""
    state = scenario(2, table=TABLE, named_built={0: ["College of the Overseers"]})
    excavate(state, D8, 3, 5)
    assert top_kind(state) == WONDER_MODIFIER and state.current_player() == 0
    assert labels(state) == ["modifier: +1", "modifier: decline"]
    act(state, "modifier: +1")
    assert state.die_value[0][D8] == 6
    declined = scenario(2, table=TABLE, named_built={0: ["College of the Overseers"]})
    excavate(declined, D8, 3, 5)
    act(declined, "modifier: decline")
    assert declined.die_value[0][D8] == 5


def test_college_of_the_overseers_does_not_touch_other_dice() -> None:
    """College of the Overseers: "When you roll your d8": a d6 is not offered the +1."""
    state = scenario(2, table=TABLE, named_built={0: ["College of the Overseers"]})
    excavate(state, D6_B, 3, 5)
    assert top_kind(state) != WONDER_MODIFIER
    assert state.die_value[0][D6_B] == 5
    assert state.active == 1


def test_harmonious_columns_may_give_any_own_die_minus_one() -> None:
    """The Harmonious Columns: "You may give any die you roll -1." """
    state = scenario(2, table=TABLE, named_built={0: ["The Harmonious Columns"]})
    excavate(state, D4, 3, 4)
    assert top_kind(state) == WONDER_MODIFIER and state.current_player() == 0
    assert labels(state) == ["modifier: -1", "modifier: decline"]
    stones_before = state.tableaus[0].stone_count
    act(state, "modifier: -1")
    assert state.die_value[0][D4] == 3
    assert state.tableaus[0].stone_count == stones_before  # a modifier gives no Stone


def test_named_wonder_modifiers_apply_to_the_owner_only() -> None:
    """RULES.md, Wonders: "Named Wonders' abilities act from the moment they are built, for their owner only"."""
    state = scenario(2, table=TABLE, named_built={1: ["The Harmonious Columns"]})
    excavate(state, D6_A, 3, 5)
    assert state.die_value[0][D6_A] == 5
    assert state.active == 1


# ---------------------------------------------------------------------------------------------- Shattered Edifice
def test_shattered_edifice_may_reroll_a_four_or_five_once() -> None:
    """The Shattered Edifice: "You may re-roll your rolls of 4 and 5." (RULES.md: once per roll; the reroll's result
    stands.)"""
    state = scenario(2, table=TABLE, named_built={0: ["The Shattered Edifice"]})
    excavate(state, D6_A, 3, 4)
    assert top_kind(state) == EDIFICE_REROLL and state.current_player() == 0
    assert labels(state) == ["reroll: reroll", "reroll: keep"]
    act(state, "reroll: reroll")
    assert state.current_player() == CHANCE and top_kind(state) == ROLL
    roll(state, 5)
    assert top_kind(state) != EDIFICE_REROLL
    assert state.die_value[0][D6_A] == 5 and state.die_place[0][D6_A] == 3
    assert state.active == 1


@pytest.mark.parametrize(("die", "face"), [(D6_A, 3), (D6_A, 6), (D8, 6), (D4, 2)])
def test_shattered_edifice_is_not_offered_for_other_faces(die: int, face: int) -> None:
    """The Shattered Edifice: "your rolls of 4 and 5" only."""
    state = scenario(2, table=TABLE, named_built={0: ["The Shattered Edifice"]})
    excavate(state, die, 3, face)
    assert top_kind(state) != EDIFICE_REROLL


def test_shattered_edifice_kept_and_low_rerolls() -> None:
    """The Shattered Edifice: keeping the 4 keeps it; a reroll showing 1-3 gains a Stone (FAQ: "Anytime a die is
    rerolled and rolls a 1, 2, or 3, the die's owner gets another Stone")."""
    kept = scenario(2, table=TABLE, named_built={0: ["The Shattered Edifice"]})
    excavate(kept, D8, 3, 4)
    act(kept, "reroll: keep")
    assert kept.die_value[0][D8] == 4
    low = scenario(2, table=TABLE, named_built={0: ["The Shattered Edifice"]}, stones={3: (0, 0, 0, 1)})
    excavate(low, D8, 3, 5)
    act(low, "reroll: reroll")
    roll(low, 2)
    place_anywhere(low)
    assert low.tableaus[0].stones_by_colour == with_wonder_ring((0, 0, 0, 1))


# ---------------------------------------------------------------------------------------------- Cenotaph, Memorial
def test_blackened_cenotaph_adds_a_random_removed_ruin_to_the_hidden_ruins() -> None:
    """The Blackened Cenotaph: "Draw a random Ruin from those removed at setup and add it to your hidden scoring." """
    state = ring_scenario(MIXED_112233, BLUE, ["The Blackened Cenotaph"])
    assert labels(state) == ["build: lesser or greater", "build: The Blackened Cenotaph"]
    act(state, "build: The Blackened Cenotaph")
    assert state.current_player() == CHANCE and top_kind(state) == DRAW_REMOVED
    removed = state.removed
    outcomes = dict(state.chance_outcomes())
    assert sorted(outcomes) == sorted(removed)
    assert all(p == pytest.approx(1 / len(removed)) for p in outcomes.values())
    chance(state, DRAW_REMOVED, removed[3])
    assert removed[3] in state.hidden_ruins[0] and len(state.hidden_ruins[0]) == 2
    assert removed[3] not in state.removed
    assert not state.removed_seen[0]


def test_crumbling_memorial_chooses_a_removed_ruin_after_seeing_them_all() -> None:
    """The Crumbling Memorial: "Look at the removed Ruins and choose 1 for your hidden scoring." """
    state = ring_scenario((BLACK,) * 5, BLACK, ["The Crumbling Memorial"])
    act(state, "build: The Crumbling Memorial")
    assert top_kind(state) == CHOOSE_REMOVED and state.current_player() == 0
    assert state.removed_seen == (True, False)
    removed = state.removed
    assert labels(state) == [f"removed ruin: {state.game.ruins[r].name}" for r in sorted(removed)]
    act(state, f"removed ruin: {state.game.ruins[removed[0]].name}")
    assert removed[0] in state.hidden_ruins[0]
    assert removed[0] not in state.removed


# ---------------------------------------------------------------------------------------------- Eternal Flame
def flame_claim(flame_owner: int) -> UnearthState:
    """3 players: seat 1's d6 shows 4 on peach 9, seat 0 rolls its d8 there to 5 and claims it (5 + 4 = 9)."""
    state = scenario(3, table=TABLE_3P, dice=[(1, D6_A, 0, 4)], named_built={flame_owner: ["The Eternal Flame"]})
    excavate(state, D8, 0, 5)
    assert state.claimed[0] == (ruin_id(state.game, "peach 9"),)
    return state


def drawers(state: UnearthState) -> list[int]:
    """Seats of the Delver draws waiting on the stack, in the order they will be drawn."""
    return [frame.detail("seat") for frame in reversed(state.stack) if frame.kind == DRAW_DELVER]


def test_eternal_flame_draws_when_a_ruin_its_owner_had_no_dice_on_is_claimed() -> None:
    """The Eternal Flame: "When a Ruin you have no dice on is claimed, you may draw a Delver card." (RULES.md:
    automatic.)"""
    state = flame_claim(flame_owner=2)
    assert sorted(drawers(state)) == [1, 2]
    draw(state, "Forlorn")
    draw(state, "Expedition")
    assert sum(state.hands[2]) == 1 and sum(state.hands[1]) == 1


def test_eternal_flame_gives_nothing_to_an_owner_who_won_the_ruin() -> None:
    """The Eternal Flame: "When a Ruin you have no dice on is claimed": the winner had a die on it, so only the
    loser draws."""
    state = flame_claim(flame_owner=0)
    assert drawers(state) == [1]


def test_eternal_flame_gives_nothing_more_to_an_owner_who_lost_the_ruin() -> None:
    """The Eternal Flame: "When a Ruin you have no dice on is claimed": a loser draws per die only."""
    state = flame_claim(flame_owner=1)
    assert drawers(state) == [1]


def test_eternal_flame_draws_nothing_on_an_unbreakable_tie() -> None:
    """The Eternal Flame draws "When a Ruin you have no dice on is claimed"; on an unbreakable tie "no one gets the
    Ruin Card (place it back into the box)": nothing is claimed, so only the seats with dice on it draw."""
    state = scenario(3, table=TABLE_3P, dice=[(1, D6_A, 0, 5)], named_built={2: ["The Eternal Flame"]})
    excavate(state, D6_B, 0, 5)
    assert state.claimed == ((), (), ())
    assert state.discarded_ruins[-1] == ruin_id(state.game, "peach 9")
    assert sorted(drawers(state)) == [0, 1]


# ---------------------------------------------------------------------------------------------- Library
def test_underground_library_draws_two_from_the_bag_and_keeps_one() -> None:
    """Underground Library: "When drawing stones from the bag, draw 2 and keep 1." (RULES.md: the other goes back to
    the bag.)"""
    state = scenario(2, table=TABLE, named_built={0: ["Underground Library"]})
    bag = state.bag
    excavate(state, D6_A, 3, 1)
    bag_stone(state, RED)
    bag_stone(state, BLUE)
    assert top_kind(state) == TAKE_STONE and state.current_player() == 0
    assert labels(state) == ["take stone: red", "take stone: blue"]
    take_stone(state, BLUE)
    place_anywhere(state)
    assert state.tableaus[0].stones_by_colour == with_wonder_ring((0, 0, 1, 0))
    assert state.bag == (bag[0], bag[1], bag[2] - 1, bag[3])


def test_underground_library_two_draws_of_one_colour_keep_it_without_asking() -> None:
    """Underground Library: "draw 2 and keep 1": two Stones of one colour leave nothing to choose."""
    state = scenario(2, table=TABLE, named_built={0: ["Underground Library"]})
    bag = state.bag
    excavate(state, D6_A, 3, 2)
    bag_stone(state, YELLOW)
    bag_stone(state, YELLOW)
    place_anywhere(state)
    assert state.tableaus[0].stones_by_colour == with_wonder_ring((0, 1, 0, 0))
    assert state.bag == (bag[0], bag[1] - 1, bag[2], bag[3])
    assert state.active == 1


def test_underground_library_does_not_change_a_stone_taken_from_the_ruin() -> None:
    """Underground Library acts "when drawing stones from the bag": a Stone on the Ruin is taken as usual."""
    state = scenario(2, table=TABLE, named_built={0: ["Underground Library"]}, stones={3: (0, 0, 0, 1)})
    excavate(state, D6_A, 3, 2)
    place_anywhere(state)
    assert state.tableaus[0].stones_by_colour == with_wonder_ring((0, 0, 0, 1))


# ---------------------------------------------------------------------------------------------- Sanctuary
def test_sanctuary_of_the_builders_offers_plus_or_minus_one_on_a_matching_roll() -> None:
    """The Sanctuary of the Builders: "If your roll on a Ruin matches a number already on that Ruin, you may give
    your die +1 or -1." """
    state = scenario(2, table=TABLE, named_built={0: ["The Sanctuary of the Builders"]}, dice=[(1, D6_A, 3, 4)])
    excavate(state, D6_B, 3, 4)
    assert top_kind(state) == WONDER_MODIFIER and state.current_player() == 0
    assert labels(state) == ["modifier: +1", "modifier: -1", "modifier: decline"]
    act(state, "modifier: +1")
    assert state.die_value[0][D6_B] == 5


@pytest.mark.parametrize(("place", "face"), [(3, 5), (2, 4)])
def test_sanctuary_of_the_builders_needs_a_match_on_that_ruin(place: int, face: int) -> None:
    """The Sanctuary of the Builders: "matches a number already on that Ruin": another number, or the same number
    on another Ruin, offers nothing."""
    state = scenario(2, table=TABLE, named_built={0: ["The Sanctuary of the Builders"]}, dice=[(1, D6_A, 3, 4)])
    excavate(state, D6_B, place, face)
    assert top_kind(state) != WONDER_MODIFIER
    assert state.die_value[0][D6_B] == face


# ---------------------------------------------------------------------------------------------- end-game Wonders
def finished(**fields: Any) -> UnearthState:
    """A 2-player game over: no Ruin on the table, none in the deck, the End of Age card revealed."""
    state = scenario(
        2,
        table=(None, None, None, None),
        ruin_deck=[],
        end_of_age="Day of Rest",
        end_of_age_revealed=True,
        hidden_ruins={0: ["peach 9"], 1: ["green 9"]},
        **fields,
    )
    assert state.is_terminal()
    return state


def test_temple_points_are_scored_at_the_end_of_the_game() -> None:
    """Temple of Flames: "End: +1 point per red stone." ("Players score points for their Lesser, Greater, and (some)
    Named Wonders (as indicated on those cards or tokens).") The state's score is the standings' total."""
    plain = finished(tableaus={0: open_ring((RED, RED, RED, RED, BLUE))})
    temple_id = NAMED_BASE + named_id(plain.game, "Temple of Flames")
    ring = open_ring((RED, RED, RED, RED, BLUE))
    closed = ring.place(ring.index(RING_CLOSER), RED)
    temple = finished(
        tableaus={0: closed.tableau.with_wonder(closed.closed_centres[0], temple_id)},
        named_built={0: ["Temple of Flames"]},
        named_in_play=[],
    )
    assert temple.score()[0] == plain.score()[0] + 5  # five red Stones; the ring's Stones alone score nothing
    assert temple.score() == [float(total) for total in temple.standings().totals]


def test_named_wonder_printed_points_are_scored() -> None:
    """ "Players score points for their Lesser, Greater, and (some) Named Wonders": Palace of Relics is worth 6."""
    plain = finished()
    palace = finished(named_built={1: ["Palace of Relics"]}, named_in_play=[])
    assert palace.score()[1] == plain.score()[1] + 6
    assert palace.score()[0] == plain.score()[0]


def test_shattered_edifice_applies_to_an_ancient_map_reroll() -> None:
    """RULES.md, Rolls: the Ancient Map reroll "is a new roll (steps 1-6 again) ...; the End of Age event and the
    owner's Named Wonders apply to it": a Map reroll showing 4 may be rerolled by The Shattered Edifice."""
    state = scenario(2, table=TABLE, hands={0: {"Ancient Map": 1}}, named_built={0: ["The Shattered Edifice"]})
    play_card(state, "Ancient Map")
    excavate(state, D6_A, 3, 6)
    act(state, "reroll: reroll")
    roll(state, 4)
    assert top_kind(state) == EDIFICE_REROLL and state.current_player() == 0


def test_shattered_edifice_used_on_the_first_roll_still_applies_to_the_map_reroll() -> None:
    """RULES.md, Rolls: Edifice is "once per roll" and the Ancient Map reroll "is a new roll (steps 1-6 again)":
    using the Edifice on the Excavation roll leaves it for the Map's new roll."""
    state = scenario(2, table=TABLE, hands={0: {"Ancient Map": 1}}, named_built={0: ["The Shattered Edifice"]})
    play_card(state, "Ancient Map")
    excavate(state, D6_A, 3, 4)
    act(state, "reroll: reroll")  # The Shattered Edifice
    roll(state, 6)
    act(state, "reroll: reroll")  # Ancient Map
    roll(state, 5)
    assert top_kind(state) == EDIFICE_REROLL and state.current_player() == 0


def test_underground_library_with_one_stone_in_the_bag_draws_it() -> None:
    """RULES.md, Stones: "With one Stone in the bag, one is drawn as usual." """
    # Every Stone but one black is on the Ruin or in seat 0's tableau (one ring around its Underground Library).
    on_ruin = tuple(15 - ring for ring in with_wonder_ring((0, 0, 0, 1)))
    state = scenario(2, table=TABLE, named_built={0: ["Underground Library"]}, stones={1: on_ruin})
    assert state.bag == (0, 0, 0, 1)
    excavate(state, D6_A, 3, 1)
    assert state.chance_outcomes() == [(BLACK, 1.0)]
    assert state.stack[-1].detail("library") is False
    bag_stone(state, BLACK)
    place_anywhere(state)
    assert state.tableaus[0].stones_by_colour == with_wonder_ring((0, 0, 0, 1))
    assert sum(state.bag) == 0


def test_a_wonder_built_after_the_tokens_ran_out_is_worth_nothing() -> None:
    """RULES.md, Wonders: "Stacks running out ... the ring still holds a Wonder (it counts for "three or more
    Wonders") worth 0 points." """
    state = ring_scenario((BLUE,) * 5, BLUE, [], greater_tokens=[])
    assert state.greater_built[0] == (0,)
    assert state.tableaus[0].wonder_at(centre_cell()) == GREATER
    assert state.active == 1


def test_blackened_cenotaph_with_no_removed_ruin_adds_nothing() -> None:
    """RULES.md, Wonders: The Blackened Cenotaph takes a random removed Ruin; "none left, nothing"."""
    state = ring_scenario(MIXED_112233, BLUE, ["The Blackened Cenotaph"], removed=[])
    hidden = state.hidden_ruins[0]
    act(state, "build: The Blackened Cenotaph")
    assert state.hidden_ruins[0] == hidden
    assert state.active == 1
