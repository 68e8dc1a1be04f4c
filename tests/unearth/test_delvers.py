"""Unearth rule scenarios for every Delver card: what it does, when it may be played, and the FAQ's rulings.

Card effects are the reference's (delvers.yaml, RULES.md "A turn"); rulings quoted from the rulebook's FAQ
(Unearth's). Scenarios are built from state dicts (tests/unearth/scenarios.py).
"""

from __future__ import annotations

import pytest

from envs.core.game import CHANCE
from envs.unearth.rules import (
    DELVER_PHASE,
    EXCAVATION_DIE,
    EXCAVATION_RUIN,
    MAP_REROLL,
    NAME_NUMBER,
    READING_SIGN,
    ROLL,
    TARGET_DIE,
    UnearthState,
)
from tests.unearth.scenarios import (
    D4,
    D6_A,
    D6_B,
    D6_C,
    D8,
    NO_STONES,
    act,
    declare,
    delver_type,
    die_label,
    end_delver_phase,
    excavate,
    labels,
    play_card,
    pool_dice,
    roll,
    ruin_id,
    scenario,
    settle,
    target_die,
    top_kind,
)

TABLE = ("peach 9", "green 13", "blue 15", "gray 17")
"""A 2-player table: claim values 9, 13, 15, 17."""


def placed(state: UnearthState, seat: int, die: int) -> tuple[int, int]:
    """(place, value) of a die."""
    return state.die_place[seat][die], state.die_value[seat][die]


# ---------------------------------------------------------------------------------------------- playing cards
def test_a_played_card_goes_to_the_discard_pile() -> None:
    """ "Delver cards are resolved immediately in the order they are played, and then discarded." """
    state = scenario(2, table=TABLE, hands={0: {"Ancient Map": 2}})
    map_type = delver_type(state.game, "Ancient Map")
    play_card(state, "Ancient Map")
    assert state.hands[0][map_type] == 1
    assert state.delver_discard[map_type] == 1
    assert top_kind(state) == DELVER_PHASE and state.current_player() == 0


def test_cards_acting_on_placed_dice_need_a_die_on_a_ruin() -> None:
    """RULES.md, A turn: "A card is playable only when it can act: Forlorn, A New Discovery, Lost in the Ruins and
    Forgotten Song need a die on a Ruin, Restoration one of the player's own dice on a Ruin." """
    every = {d.name: 1 for d in scenario(2).game.cards.delvers}
    state = scenario(2, table=TABLE, hands={0: every})
    assert labels(state) == [
        "play: Ancient Map",
        "play: Band of Delvers",
        "play: Ancestral Claim",
        "play: Reading the Stones",
        "play: Expedition",
        "excavate",
    ]


def test_restoration_needs_one_of_the_players_own_dice_on_a_ruin() -> None:
    """RULES.md, A turn: Restoration needs "one of the player's own dice on a Ruin"; another seat's dice there make
    the other cards playable but not it."""
    state = scenario(
        2, table=TABLE, dice=[(1, D6_A, 0, 3)], hands={0: {"Restoration": 1, "Forlorn": 1, "Forgotten Song": 1}}
    )
    assert "play: Restoration" not in labels(state)
    assert "play: Forlorn" in labels(state) and "play: Forgotten Song" in labels(state)
    own = scenario(2, table=TABLE, dice=[(0, D6_A, 0, 3)], hands={0: {"Restoration": 1}})
    assert "play: Restoration" in labels(own)


# ---------------------------------------------------------------------------------------------- Ancient Map
def test_ancient_map_rerolls_the_excavation_roll() -> None:
    """Ancient Map: "You may reroll your Excavation roll this turn"; the new roll stands and only it counts (FAQ:
    "only one of those rolls is counted"): a low first roll rerolled high gains no Stone."""
    state = scenario(2, table=TABLE, hands={0: {"Ancient Map": 1}}, stones={3: (2, 0, 0, 0)})
    play_card(state, "Ancient Map")
    excavate(state, D6_A, 3, 2)
    assert top_kind(state) == MAP_REROLL and state.current_player() == 0
    assert labels(state) == ["reroll: reroll", "reroll: keep"]
    act(state, "reroll: reroll")
    roll(state, 5)
    assert placed(state, 0, D6_A) == (3, 5)
    assert state.tableaus[0].stone_count == 0
    assert state.ruin_stones[3] == (2, 0, 0, 0)
    assert state.active == 1


def test_ancient_map_two_low_rolls_give_one_stone() -> None:
    """FAQ: "If I use Ancient Map on my Excavation roll and roll low both times, do I get 2 Stones? No, with Ancient
    Map, only one of those rolls is counted." """
    state = scenario(2, table=TABLE, hands={0: {"Ancient Map": 1}}, stones={3: (2, 0, 0, 0)})
    play_card(state, "Ancient Map")
    excavate(state, D6_A, 3, 2)
    act(state, "reroll: reroll")
    roll(state, 1)
    assert state.tableaus[0].stone_count == 1
    assert state.ruin_stones[3] == (1, 0, 0, 0)
    assert placed(state, 0, D6_A) == (3, 1)


def test_ancient_map_kept_roll_gains_its_stone_and_is_offered_once() -> None:
    """Ancient Map: "You may reroll" (optional): keeping the roll keeps its Stone; one Map gives one reroll only."""
    state = scenario(2, table=TABLE, hands={0: {"Ancient Map": 1}}, stones={3: (2, 0, 0, 0)})
    play_card(state, "Ancient Map")
    excavate(state, D6_A, 3, 2)
    act(state, "reroll: keep")
    assert state.tableaus[0].stone_count == 1
    assert state.active == 1
    rerolled = scenario(2, table=TABLE, hands={0: {"Ancient Map": 1}})
    play_card(rerolled, "Ancient Map")
    excavate(rerolled, D6_A, 3, 5)
    act(rerolled, "reroll: reroll")
    roll(rerolled, 4)
    assert top_kind(rerolled) != MAP_REROLL
    assert rerolled.active == 1


def test_ancient_map_does_not_reroll_a_rerolled_die() -> None:
    """Ancient Map rerolls "your Excavation roll" (RULES.md, Rolls: "Excavation rolls only"): a Lost in the Ruins
    reroll is not offered to it."""
    state = scenario(
        2, table=TABLE, hands={0: {"Ancient Map": 1, "Lost in the Ruins": 1}}, dice=[(1, D6_A, 3, 5), (1, D8, 2, 2)]
    )
    play_card(state, "Ancient Map")
    play_card(state, "Lost in the Ruins")
    target_die(state, 1, D6_A)
    roll(state, 6)
    assert top_kind(state) == DELVER_PHASE  # no Map decision: back to the Delver Phase, excavating its one option
    assert labels(state) == ["excavate"]
    assert state.map_rerolls == 1


def test_reading_the_stones_does_not_modify_the_map_reroll() -> None:
    """FAQ: "I just played Ancient Map and Reading the Stones before my roll. Do I get to keep the modifier to the
    die even if I choose to reroll it? You do not." """
    state = scenario(2, table=TABLE, hands={0: {"Ancient Map": 1, "Reading the Stones": 1}})
    play_card(state, "Reading the Stones")
    play_card(state, "Ancient Map")
    excavate(state, D6_A, 3, 4)
    assert top_kind(state) == READING_SIGN
    act(state, "modifier: +1")
    assert placed(state, 0, D6_A) == (3, 5)
    act(state, "reroll: reroll")
    roll(state, 4)
    assert top_kind(state) != READING_SIGN
    assert placed(state, 0, D6_A) == (3, 4)


# ---------------------------------------------------------------------------------------------- Band of Delvers
def test_band_of_delvers_gives_two_excavation_rolls() -> None:
    """Band of Delvers: "Roll 2 dice this Excavation; they may go to the same or different Ruins." """
    state = scenario(2, table=TABLE, hands={0: {"Band of Delvers": 1}})
    play_card(state, "Band of Delvers")
    excavate(state, D6_A, 3, 5)
    assert top_kind(state) == EXCAVATION_DIE and state.current_player() == 0
    assert f"roll die: {die_label(state.game, D6_A)}" not in labels(state)
    excavate(state, D6_B, 3, 6)
    assert placed(state, 0, D6_A) == (3, 5) and placed(state, 0, D6_B) == (3, 6)
    assert state.active == 1


def test_band_of_delvers_may_reuse_a_die_a_claim_returned() -> None:
    """FAQ: "Could I use the same die twice when playing Band of Delves? Yes, if your first roll results in a claimed
    Ruin, you could reuse that same die after everyone has collected their dice from that first Ruin." """
    state = scenario(2, table=TABLE, hands={0: {"Band of Delvers": 1}}, dice=[(1, D6_A, 0, 4)])
    play_card(state, "Band of Delvers")
    excavate(state, D8, 0, 6)
    assert state.claimed[0] == (ruin_id(state.game, "peach 9"),)
    settle(state)
    assert top_kind(state) == EXCAVATION_DIE and state.current_player() == 0
    assert f"roll die: {die_label(state.game, D8)}" in labels(state)
    excavate(state, D8, 1, 5)
    assert placed(state, 0, D8) == (1, 5)
    assert state.active == 1


# ---------------------------------------------------------------------------------------------- Restoration
def test_restoration_rerolls_all_own_dice_on_ruins() -> None:
    """Restoration: "Re-roll all of your dice" (RULES.md: your dice that are on Ruins); "Rerolled dice remain on the
    Ruin they were previously placed on." Other seats' dice are not rerolled."""
    dice = [(0, D6_A, 0, 2), (0, D8, 2, 7), (1, D6_A, 0, 3)]
    state = scenario(2, table=TABLE, dice=dice, hands={0: {"Restoration": 1, "Ancient Map": 1}})
    play_card(state, "Restoration")
    rerolled = []
    while top_kind(state) == ROLL:
        rerolled.append((state.stack[-1].detail("seat"), state.stack[-1].detail("die")))
        roll(state, 4)
    assert rerolled == [(0, D6_A), (0, D8)]
    assert placed(state, 0, D6_A) == (0, 4) and placed(state, 0, D8) == (2, 4)
    assert placed(state, 1, D6_A) == (0, 3)
    assert top_kind(state) == DELVER_PHASE


def test_restoration_reroll_of_one_to_three_gains_a_stone() -> None:
    """FAQ: "Anytime a die is rerolled and rolls a 1, 2, or 3, the die's owner gets another Stone, either off of
    the Ruin that die is on, or out of the bag if that Ruin is out of Stones." """
    state = scenario(2, table=TABLE, dice=[(0, D6_A, 1, 5)], hands={0: {"Restoration": 1}}, stones={1: (0, 0, 2, 0)})
    play_card(state, "Restoration")
    roll(state, 3)
    assert state.tableaus[0].stones_by_colour == (0, 0, 1, 0)
    assert state.ruin_stones[1] == (0, 0, 1, 0)


# ---------------------------------------------------------------------------------------------- Ancestral Claim
def test_ancestral_claim_adds_two_to_the_next_d6() -> None:
    """Ancestral Claim: "The next d6 rolled this turn gets +2." """
    state = scenario(2, table=TABLE, hands={0: {"Ancestral Claim": 1}})
    play_card(state, "Ancestral Claim")
    excavate(state, D6_C, 3, 3)
    assert placed(state, 0, D6_C) == (3, 5)
    assert state.die_face[0][D6_C] == 3


def test_ancestral_claim_is_not_used_by_a_d8_rolled_first() -> None:
    """Ancestral Claim: "The next d6 rolled this turn gets +2": a d8 rolled before it leaves it for the d6."""
    state = scenario(2, table=TABLE, hands={0: {"Ancestral Claim": 1, "Band of Delvers": 1}})
    play_card(state, "Ancestral Claim")
    play_card(state, "Band of Delvers")
    excavate(state, D8, 3, 5)
    assert placed(state, 0, D8) == (3, 5)
    excavate(state, D6_A, 2, 4)
    assert placed(state, 0, D6_A) == (2, 6)


def test_ancestral_claim_modifies_only_the_next_d6() -> None:
    """Ancestral Claim: "The next d6 rolled this turn gets +2": the d6 after it gets nothing."""
    state = scenario(2, table=TABLE, hands={0: {"Ancestral Claim": 1, "Band of Delvers": 1}})
    play_card(state, "Ancestral Claim")
    play_card(state, "Band of Delvers")
    excavate(state, D6_A, 3, 4)
    excavate(state, D6_B, 2, 4)
    assert placed(state, 0, D6_A) == (3, 6)
    assert placed(state, 0, D6_B) == (2, 4)


def test_ancestral_claim_before_a_reroll_modifies_that_reroll() -> None:
    """FAQ: "a Delver card may be used to modify Excavation rolls or rerolls during the Delver Phase" (RULES.md: the
    next d6 rolled, "whoever owns it"): a Lost in the Ruins reroll of another seat's d6 takes the +2."""
    state = scenario(
        2, table=TABLE, hands={0: {"Ancestral Claim": 1, "Lost in the Ruins": 1}}, dice=[(1, D6_B, 3, 6), (1, D4, 3, 1)]
    )
    play_card(state, "Ancestral Claim")
    play_card(state, "Lost in the Ruins")
    target_die(state, 1, D6_B)
    roll(state, 4)
    assert placed(state, 1, D6_B) == (3, 6)
    excavate(state, D6_A, 2, 4)
    assert placed(state, 0, D6_A) == (2, 4)


# ---------------------------------------------------------------------------------------------- Forgotten Song
def test_forgotten_song_rerolls_every_die_showing_the_number_and_owners_gain_stones() -> None:
    """Forgotten Song: "Name a number; re-roll all dice (anyone's) showing that number." FAQ: a rerolled die showing
    1, 2 or 3 gives "the die's owner" a Stone."""
    dice = [(0, D6_A, 0, 4), (1, D6_A, 1, 4), (1, D6_B, 1, 5), (0, D8, 2, 3)]
    state = scenario(2, table=TABLE, dice=dice, hands={0: {"Forgotten Song": 1}}, stones={1: (0, 1, 0, 0)})
    play_card(state, "Forgotten Song")
    assert top_kind(state) == NAME_NUMBER and state.current_player() == 0
    assert labels(state) == ["name: 3", "name: 4", "name: 5"]
    act(state, "name: 4")
    rerolled = []
    for face in (6, 2):
        rerolled.append((state.stack[-1].detail("seat"), state.stack[-1].detail("die")))
        roll(state, face)
    assert sorted(rerolled) == [(0, D6_A), (1, D6_A)]
    settle(state)
    assert placed(state, 0, D6_A)[0] == 0 and placed(state, 1, D6_A)[0] == 1
    assert {placed(state, 0, D6_A)[1], placed(state, 1, D6_A)[1]} == {6, 2}
    assert placed(state, 1, D6_B) == (1, 5) and placed(state, 0, D8) == (2, 3)
    owner_of_two = 0 if placed(state, 0, D6_A)[1] == 2 else 1
    assert state.tableaus[owner_of_two].stone_count == 1
    assert state.tableaus[1 - owner_of_two].stone_count == 0


# ---------------------------------------------------------------------------------------------- Forlorn
@pytest.mark.parametrize(("value", "result"), [(2, 1), (1, 1), (5, 3), (3, 1)])
def test_forlorn_lowers_a_placed_die_by_two_clamped_at_one_without_a_stone(value: int, result: int) -> None:
    """Forlorn: "Give -2 to any one die already on a Ruin." "may never lower a die result lower than 1". FAQ:
    "Changing a die to a 1, 2, or 3 with a modifier card does not result in a gained Stone." """
    state = scenario(2, table=TABLE, dice=[(1, D6_A, 1, value)], hands={0: {"Forlorn": 1}}, stones={1: (1, 0, 0, 0)})
    play_card(state, "Forlorn")
    assert placed(state, 1, D6_A) == (1, result)
    assert state.tableaus[1].stone_count == 0 and state.tableaus[0].stone_count == 0
    assert state.ruin_stones[1] == (1, 0, 0, 0)


def test_forlorn_targets_any_die_on_a_ruin() -> None:
    """Forlorn: "Give -2 to any one die already on a Ruin": the player picks among every die on a Ruin, its own
    included (RULES.md: "by seat relative to the player")."""
    state = scenario(2, table=TABLE, dice=[(1, D6_A, 1, 5), (0, D4, 2, 4)], hands={0: {"Forlorn": 1}})
    play_card(state, "Forlorn")
    assert top_kind(state) == TARGET_DIE and state.current_player() == 0
    assert labels(state) == ["target die: own die 4 (d4)", "target die: next die 1 (d6)"]
    target_die(state, 0, D4)
    assert placed(state, 0, D4) == (2, 2)
    assert placed(state, 1, D6_A) == (1, 5)


# ---------------------------------------------------------------------------------------------- A New Discovery
@pytest.mark.parametrize(("die", "value", "result"), [(D4, 3, 4), (D6_A, 5, 6), (D8, 5, 7), (D8, 8, 8)])
def test_a_new_discovery_raises_a_placed_die_by_two_clamped_at_its_highest(die: int, value: int, result: int) -> None:
    """A New Discovery: "Give +2 to any one die already on a Ruin." "nor may they raise the result higher than the
    highest value of that die." """
    state = scenario(2, table=TABLE, dice=[(1, die, 3, value)], hands={0: {"A New Discovery": 1}})
    play_card(state, "A New Discovery")
    assert placed(state, 1, die) == (3, result)
    assert state.die_face[1][die] == value


def test_a_new_discovery_can_complete_a_claim() -> None:
    """ "Whenever a die is rolled, rerolled, or a card is played, check to see if the total of all the dice on any
    Ruins Card is greater than or equal to the claim value": 5 + 2 = 7 with a 3 reaches peach 9."""
    state = scenario(2, table=TABLE, dice=[(0, D6_A, 0, 5), (1, D6_A, 0, 3)], hands={0: {"A New Discovery": 1}})
    play_card(state, "A New Discovery")
    target_die(state, 0, D6_A)
    assert state.claimed[0] == (ruin_id(state.game, "peach 9"),)
    assert state.table[0] == -1
    assert state.die_place[0][D6_A] == -1 and state.die_place[1][D6_A] == -1


# ---------------------------------------------------------------------------------------------- Lost in the Ruins
def test_lost_in_the_ruins_rerolls_any_die_and_its_owner_gains_the_stone() -> None:
    """Lost in the Ruins: "Re-roll any one die already on a Ruin." "The owner of a rerolled die always performs the
    reroll" and gains the Stone on 1-3 (FAQ); "Rerolled dice remain on the Ruin they were previously placed on." """
    state = scenario(
        2,
        table=TABLE,
        dice=[(1, D6_A, 1, 6), (0, D4, 2, 4)],
        hands={0: {"Lost in the Ruins": 1}},
        stones={1: (0, 2, 0, 0)},
    )
    play_card(state, "Lost in the Ruins")
    target_die(state, 1, D6_A)
    assert state.current_player() == CHANCE and top_kind(state) == ROLL
    assert state.stack[-1].detail("seat") == 1
    roll(state, 2)
    assert placed(state, 1, D6_A) == (1, 2)
    assert state.tableaus[1].stones_by_colour == (0, 1, 0, 0)
    assert state.tableaus[0].stone_count == 0
    assert state.ruin_stones[1] == (0, 1, 0, 0)


# ---------------------------------------------------------------------------------------------- Reading the Stones
@pytest.mark.parametrize(("sign", "result"), [("+1", 5), ("-1", 3)])
def test_reading_the_stones_sign_is_chosen_by_the_active_player(sign: str, result: int) -> None:
    """Reading the Stones: "The next die rolled this turn gets +1 or -1 (your choice)." """
    state = scenario(2, table=TABLE, hands={0: {"Reading the Stones": 1}})
    play_card(state, "Reading the Stones")
    excavate(state, D6_A, 3, 4)
    assert top_kind(state) == READING_SIGN and state.current_player() == 0
    assert labels(state) == ["modifier: +1", "modifier: -1"]
    act(state, f"modifier: {sign}")
    assert placed(state, 0, D6_A) == (3, result)


def test_reading_the_stones_before_lost_in_the_ruins_modifies_the_reroll() -> None:
    """FAQ: "if you play Reading the Stones before you play Lost in the Ruins, the +1/-1 would apply to the reroll
    granted by Lost in the Ruins." """
    state = scenario(
        2,
        table=TABLE,
        hands={0: {"Reading the Stones": 1, "Lost in the Ruins": 1}},
        dice=[(1, D6_A, 3, 6), (1, D4, 3, 1)],
    )
    play_card(state, "Reading the Stones")
    play_card(state, "Lost in the Ruins")
    target_die(state, 1, D6_A)
    roll(state, 5)
    assert top_kind(state) == READING_SIGN and state.current_player() == 0
    act(state, "modifier: -1")
    assert placed(state, 1, D6_A) == (3, 4)
    excavate(state, D6_A, 2, 5)
    assert top_kind(state) != READING_SIGN
    assert placed(state, 0, D6_A) == (2, 5)


def test_reading_the_stones_after_lost_in_the_ruins_modifies_the_excavation_roll() -> None:
    """FAQ: "If you played Lost in the Ruins first, you would perform your reroll, unmodified, then be able to
    modify your Excavation Phase roll for the turn." """
    state = scenario(
        2,
        table=TABLE,
        hands={0: {"Reading the Stones": 1, "Lost in the Ruins": 1}},
        dice=[(1, D6_A, 3, 6), (1, D4, 3, 1)],
    )
    play_card(state, "Lost in the Ruins")
    target_die(state, 1, D6_A)
    roll(state, 5)
    assert placed(state, 1, D6_A) == (3, 5)
    play_card(state, "Reading the Stones")
    excavate(state, D6_A, 2, 5)
    assert top_kind(state) == READING_SIGN
    act(state, "modifier: +1")
    assert placed(state, 0, D6_A) == (2, 6)


# ---------------------------------------------------------------------------------------------- Expedition
def test_expedition_chooses_the_ruin_after_rolling() -> None:
    """Expedition: "Choose which Ruin to place your Excavation die on after rolling." """
    state = scenario(2, table=TABLE, hands={0: {"Expedition": 1}})
    play_card(state, "Expedition")
    end_delver_phase(state)
    act(state, f"roll die: {die_label(state.game, D6_B)}")
    assert state.current_player() == CHANCE and top_kind(state) == ROLL  # no Ruin declared first
    roll(state, 5)
    assert top_kind(state) == EXCAVATION_RUIN and state.current_player() == 0
    assert labels(state) == [f"on ruin: place {p + 1}" for p in range(4)]
    act(state, "on ruin: place 2")
    assert placed(state, 0, D6_B) == (1, 5)
    assert state.active == 1


def test_expedition_low_roll_takes_the_stone_from_the_chosen_ruin() -> None:
    """Expedition, then "take a Stone of your choice from the Ruin you rolled on": the Ruin chosen after rolling."""
    state = scenario(2, table=TABLE, hands={0: {"Expedition": 1}}, stones={0: (2, 0, 0, 0), 2: (0, 0, 1, 0)})
    play_card(state, "Expedition")
    end_delver_phase(state)
    act(state, f"roll die: {die_label(state.game, D6_C)}")
    roll(state, 2)
    act(state, "on ruin: place 3")
    assert state.tableaus[0].stones_by_colour == (0, 0, 1, 0)
    assert state.ruin_stones[2] == NO_STONES
    assert state.ruin_stones[0] == (2, 0, 0, 0)


def test_expedition_covers_one_roll_of_band_of_delvers() -> None:
    """RULES.md, A turn: "Expedition: the next Excavation roll this turn is rolled first ... (each copy covers one
    roll)": the second Band of Delvers roll declares its Ruin first."""
    state = scenario(2, table=TABLE, hands={0: {"Expedition": 1, "Band of Delvers": 1}})
    play_card(state, "Expedition")
    play_card(state, "Band of Delvers")
    end_delver_phase(state)
    act(state, f"roll die: {die_label(state.game, D6_A)}")
    roll(state, 5)
    act(state, "on ruin: place 1")
    declare(state, D6_B, 2)
    roll(state, 4)
    assert placed(state, 0, D6_A) == (0, 5) and placed(state, 0, D6_B) == (2, 4)
    assert pool_dice(state, 0) == [D6_C, D4, D8]


# ---------------------------------------------------------------------------------------------- batches of rerolls
def test_several_rerolls_of_one_card_go_in_table_then_turn_order() -> None:
    """RULES.md, A turn: dice rerolled at once "are rerolled in a fixed order: table place 1 to 5, then seats in turn
    order from the active one, then die index"."""
    dice = [(0, D6_A, 0, 4), (2, D8, 0, 4), (1, D6_B, 0, 4), (1, D6_A, 0, 4), (0, D4, 2, 4)]
    table = ("gray 17", "green 13", "blue 15", "peach 17", "purple 17")
    state = scenario(3, active=1, table=table, dice=dice, hands={1: {"Forgotten Song": 1}})
    play_card(state, "Forgotten Song")
    order = []
    while top_kind(state) == ROLL:
        order.append((state.stack[-1].detail("seat"), state.stack[-1].detail("die")))
        roll(state, 4)
    assert order == [(1, D6_A), (1, D6_B), (2, D8), (0, D6_A), (0, D4)]


def test_claims_are_checked_once_after_a_batch_of_rerolls() -> None:
    """RULES.md, A turn: "Each reroll is resolved in full ... claims are checked once, after the last" (one card's
    single effect): a Ruin the first reroll would have given to seat 0 goes to seat 1 after the second."""
    dice = [(0, D6_A, 0, 1), (1, D6_A, 0, 1), (1, D6_B, 0, 4)]
    state = scenario(2, table=TABLE, dice=dice, hands={0: {"Forgotten Song": 1}}, stones={0: (0, 0, 0, 2)})
    play_card(state, "Forgotten Song")
    act(state, "name: 1")
    assert (state.stack[-1].detail("seat"), state.stack[-1].detail("die")) == (0, D6_A)
    roll(state, 6)  # 6 + 1 + 4 = 11 >= 9: seat 0's 6 would win now
    assert state.claimed == ((), ())
    roll(state, 6)  # 6 against 6, then seat 1's 4 against nothing: seat 1 wins
    assert state.claimed == ((), (ruin_id(state.game, "peach 9"),))


def test_ancestral_claim_does_not_modify_the_map_reroll() -> None:
    """FAQ: "Reading the Stones (and other modifiers) only applies to your first Excavation roll, not subsequent
    rerolls": Ancestral Claim's +2 is used by the first roll."""
    state = scenario(2, table=TABLE, hands={0: {"Ancient Map": 1, "Ancestral Claim": 1}})
    play_card(state, "Ancestral Claim")
    play_card(state, "Ancient Map")
    excavate(state, D6_A, 3, 4)
    assert placed(state, 0, D6_A) == (3, 6)
    act(state, "reroll: reroll")
    roll(state, 4)
    assert placed(state, 0, D6_A) == (3, 4)
