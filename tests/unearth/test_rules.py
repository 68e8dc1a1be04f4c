"""Unearth rule scenarios: setup, the turn, Stones, claims in play and roll modifiers.

Each test quotes the rulebook (Unearth's) or the decision it checks in envs/unearth/RULES.md, and
sets its scenario up from a state dict (tests/unearth/scenarios.py).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from envs.core.game import CHANCE
from envs.unearth.game import UnearthGame
from envs.unearth.rules import (
    DELVER_PHASE,
    DRAW_DELVER,
    EXCAVATION_DIE,
    EXCAVATION_RUIN,
    FIRST_PLAYER,
    MODIFIER_ORDER,
    REVEAL_RUIN,
    ROLL,
    STONE_TO_RUIN,
    TAKE_STONE,
)
from envs.unearth.tableau import Tableau
from tests.unearth.scenarios import (
    BLUE,
    D4,
    D6_A,
    D6_B,
    D6_C,
    D8,
    NO_STONES,
    RED,
    YELLOW,
    act,
    bag_stone,
    chance,
    declare,
    delver_type,
    die_label,
    draw,
    excavate,
    labels,
    play_card,
    pool_dice,
    roll,
    ruin_id,
    scenario,
    settle,
    setup_state,
    take_stone,
    target_die,
    top_kind,
)
from tests.unearth.test_tableau import NO_LEGAL_CELL_RADIUS_2

TABLE = ("peach 9", "green 13", "blue 15", "gray 17")
"""A 2-player table: claim values 9, 13, 15, 17."""
EVERY_CARD_BUT_EXPEDITION_AND_LOST = {
    "Ancient Map": 5,
    "Band of Delvers": 2,
    "Restoration": 2,
    "Ancestral Claim": 4,
    "Forgotten Song": 3,
    "Forlorn": 3,
    "Reading the Stones": 5,
    "A New Discovery": 5,
}
"""Every Delver card but the 5 Expeditions and 4 Lost in the Ruins (delvers.yaml counts)."""
TABLE_3P = ("peach 9", "green 13", "blue 15", "gray 17", "purple 17")
"""A 3-4 player table."""


# ---------------------------------------------------------------------------------------------- setup
@pytest.mark.parametrize(("num_players", "on_table", "removed"), [(2, 4, 10), (3, 5, 5), (4, 5, 5)])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_setup_deals_and_reveals_by_player_count(num_players: int, on_table: int, removed: int, seed: int) -> None:
    """ "Deal each player two Delver Cards." "deal one Ruins card facedown to each player." "Remove the top five
    cards" ("remove 10 Ruins Cards ... and reveal only 4 Ruins Cards" with 2 players); "Reveal five Ruins cards";
    "draw Wonder cards equal to the number of players plus 2"; "randomly choose one End of Age card"."""
    state = setup_state(num_players, seed)
    game = state.game
    assert len(state.table) == on_table
    assert all(r != -1 for r in state.table)
    assert len(state.removed) == removed
    assert all(sum(hand) == 2 for hand in state.hands)
    assert all(len(hidden) == 1 for hidden in state.hidden_ruins)
    assert len(state.named_in_play) == num_players + 2
    assert len(set(state.named_in_play)) == num_players + 2
    assert 0 <= state.end_of_age < len(game.cards.end_of_age)
    assert not state.end_of_age_revealed
    deck_ruins = len(game.cards.ruins)
    assert len(state.ruin_deck) == deck_ruins - on_table - removed - num_players
    every_ruin = [*state.table, *state.removed, *state.ruin_deck, *(r for h in state.hidden_ruins for r in h)]
    assert sorted(every_ruin) == list(range(deck_ruins))
    assert sum(state.delver_deck) == sum(d.count for d in game.cards.delvers) - 2 * num_players


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_setup_places_each_ruins_stones_value_from_the_bag(num_players: int) -> None:
    """ "Randomly draw Stones from the bag and place a number of them on each Ruin as indicated by the hex-shaped
    icon in the bottom right corner of each Ruin." """
    state = setup_state(num_players, seed=5)
    for place, ruin in enumerate(state.table):
        assert sum(state.ruin_stones[place]) == state.game.ruins[ruin].stones
    placed = np.sum(np.array(state.ruin_stones), axis=0)
    assert (placed + np.array(state.bag)).tolist() == [c.count for c in state.game.cards.stone_colours]


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_first_player_is_rolled_for_fairly(num_players: int) -> None:
    """ "Roll to see who goes first." Every seat may go first, with equal chance (RULES.md, Setup: "a fair pick")."""
    state = UnearthGame(num_players).new_initial_state()
    rng = np.random.default_rng(3)
    while top_kind(state) != FIRST_PLAYER:
        state.apply_action(state.sample_chance(rng))
    outcomes = state.chance_outcomes()
    assert [seat for seat, _ in outcomes] == list(range(num_players))
    assert all(p == pytest.approx(1 / num_players) for _, p in outcomes)
    for seat in range(num_players):
        first = state.clone()
        first.apply_action(seat)
        assert first.active == seat
        assert first.current_player() == seat


# ---------------------------------------------------------------------------------------------- the turn
def test_excavation_declares_die_then_ruin_then_rolls() -> None:
    """ "You must declare which die you will roll and which specific Ruin you will roll on before you roll the die." """
    state = scenario(2, hands={0: {"Ancient Map": 1}}, table=TABLE)
    act(state, "excavate")
    assert top_kind(state) == EXCAVATION_DIE and state.current_player() == 0
    assert labels(state) == [f"roll die: {die_label(state.game, d)}" for d in range(5)]
    act(state, f"roll die: {die_label(state.game, D8)}")
    assert top_kind(state) == EXCAVATION_RUIN and state.current_player() == 0
    assert labels(state) == [f"on ruin: place {p + 1}" for p in range(4)]
    act(state, "on ruin: place 3")
    assert state.current_player() == CHANCE and top_kind(state) == ROLL
    assert state.die_place[0][D8] == 2  # declared before the roll
    assert [face for face, _ in state.chance_outcomes()] == list(range(1, 9))


def test_a_delver_phase_with_no_card_is_asked_with_excavate_alone() -> None:
    """ "Delver Phase: You may play any number of Delver Cards" (optional); with no card to play, excavating is the
    only option, and it is still asked (RULES.md, "Single options are taken by the rules, where the number of options
    is public": the other seats must not learn that the hand holds no playable card)."""
    state = scenario(2, table=TABLE)
    assert top_kind(state) == DELVER_PHASE and state.current_player() == 0
    assert labels(state) == ["excavate"]
    act(state, "excavate")
    assert top_kind(state) == EXCAVATION_DIE


def test_low_roll_takes_a_stone_of_the_players_choice() -> None:
    """ "When you roll a 1, 2, or 3 during either phase, immediately take a Stone of your choice from the Ruin you
    rolled on and add it to your tableau." """
    state = scenario(2, table=TABLE, stones={1: (1, 1, 0, 0)})
    excavate(state, D6_A, 1, 2)
    assert top_kind(state) == TAKE_STONE and state.current_player() == 0
    assert labels(state) == ["take stone: red", "take stone: yellow"]
    take_stone(state, YELLOW)
    assert state.ruin_stones[1] == (1, 0, 0, 0)
    assert state.tableaus[0].stones_by_colour == (0, 1, 0, 0)


def test_low_roll_on_a_ruin_with_one_colour_takes_it_without_asking() -> None:
    """ "take a Stone of your choice from the Ruin": with Stones of one colour there is no choice to ask."""
    state = scenario(2, table=TABLE, stones={0: (0, 0, 2, 0)})
    excavate(state, D6_A, 0, 3)
    assert state.ruin_stones[0] == (0, 0, 1, 0)
    assert state.tableaus[0].stones_by_colour == (0, 0, 1, 0)


@pytest.mark.parametrize("face", [1, 2, 3])
def test_low_roll_on_an_empty_ruin_draws_from_the_bag(face: int) -> None:
    """ "If there are no Stones on the Ruin, you must draw a random Stone from the cloth bag and add it to your
    tableau." """
    state = scenario(2, table=TABLE, stones={1: (2, 0, 0, 0)})
    bag = state.bag
    excavate(state, D6_B, 0, face)
    assert state.current_player() == CHANCE and top_kind(state) == "bag stone"
    outcomes = dict(state.chance_outcomes())
    assert outcomes[BLUE] == pytest.approx(bag[BLUE] / sum(bag))
    bag_stone(state, BLUE)
    assert state.bag[BLUE] == bag[BLUE] - 1
    assert state.tableaus[0].stones_by_colour == (0, 0, 1, 0)
    assert state.ruin_stones[1] == (2, 0, 0, 0)


def test_low_roll_with_an_empty_bag_gains_nothing() -> None:
    """FAQ: "once all Stones have been depleted, they are gone and rolls of 1, 2, or 3 will not result in a gained
    Stone." (Every Stone lies on another Ruin here.)"""
    state = scenario(2, table=TABLE, stones={1: (15, 15, 15, 15)})
    assert sum(state.bag) == 0
    excavate(state, D6_A, 0, 1)
    assert state.tableaus[0].stone_count == 0
    assert state.active == 1 and state.current_player() == 1


@pytest.mark.parametrize(("die", "face"), [(D6_A, 4), (D6_A, 5), (D6_A, 6), (D4, 4), (D8, 7), (D8, 8)])
def test_a_roll_of_four_or_more_gains_no_stone(die: int, face: int) -> None:
    """ "Roll a 1, 2, or 3 with any die, and you get to take a Stone from the Ruin": higher rolls take none."""
    state = scenario(2, table=TABLE, stones={2: (1, 1, 1, 0)})
    excavate(state, die, 2, face)
    assert state.tableaus[0].stone_count == 0
    assert state.ruin_stones[2] == (1, 1, 1, 0)


def test_the_die_stays_on_the_ruin_and_play_passes_left() -> None:
    """ "roll one of the dice from your pool and place it on a Ruins Cards" ... "After your Excavation Roll, play
    passes to the person to your left." (RULES.md: seat + 1.)"""
    state = scenario(3, active=2, table=TABLE_3P, hands={0: {"Forlorn": 1}})
    excavate(state, D6_C, 4, 5)
    assert state.die_place[2][D6_C] == 4
    assert state.die_value[2][D6_C] == 5
    assert state.active == 0
    assert state.current_player() == 0 and top_kind(state) == DELVER_PHASE
    assert state.turn == 2


def test_no_die_in_the_pool_picks_one_up_from_a_ruin() -> None:
    """FAQ: "If all of your dice are already on Ruins Cards and it is your turn, you must choose one of your dice
    currently on a Ruin and roll it on any Ruin (including the one it was just removed from)." """
    dice = [(0, D6_A, 3, 1), (0, D6_B, 3, 1), (0, D6_C, 2, 1), (0, D4, 2, 1), (0, D8, 1, 1)]
    state = scenario(2, table=TABLE, dice=dice)
    assert pool_dice(state, 0) == []
    act(state, "excavate")
    assert top_kind(state) == EXCAVATION_DIE
    assert labels(state) == [f"roll die: {die_label(state.game, d)}" for d in range(5)]
    declare(state, D8, 1)  # back onto the Ruin it came from
    assert state.die_place[0][D8] == 1
    roll(state, 6)
    assert state.die_place[0][D8] == 1 and state.die_value[0][D8] == 6
    assert sum(1 for p in state.die_place[0] if p != -1) == 5


def test_picked_up_die_may_go_to_another_ruin() -> None:
    """FAQ: "choose one of your dice currently on a Ruin and roll it on any Ruin": it leaves its old Ruin."""
    dice = [(0, D6_A, 3, 1), (0, D6_B, 3, 1), (0, D6_C, 2, 1), (0, D4, 2, 1), (0, D8, 1, 1)]
    state = scenario(2, table=TABLE, dice=dice)
    excavate(state, D6_A, 0, 5)
    assert state.die_place[0][D6_A] == 0
    assert [p for p in state.die_place[0]].count(3) == 1


# ---------------------------------------------------------------------------------------------- claims in play
def test_claim_goes_to_the_highest_die_and_losers_draw_per_die() -> None:
    """ "check to see if the total of all the dice on any Ruins Card is greater than or equal to the claim value of
    the Ruin. If it is, the Ruin is claimed by the player with the highest individual die result." "The player(s)
    that did not claim the Ruin draw cards from the Delver Deck equal to the number of dice they had on that Ruin."
    """
    state = scenario(2, table=TABLE, dice=[(1, D6_A, 0, 4), (1, D4, 0, 1), (1, D6_B, 1, 6)])
    excavate(state, D8, 0, 5)  # 4 + 1 + 5 = 10 >= 9: the 5 is highest
    assert state.claimed[0] == (ruin_id(state.game, "peach 9"),)
    assert state.current_player() == CHANCE
    assert top_kind(state) == DRAW_DELVER
    draw(state, "Forlorn")
    draw(state, "Expedition")
    assert top_kind(state) == REVEAL_RUIN
    assert state.hands[1][delver_type(state.game, "Forlorn")] == 1
    assert sum(state.hands[1]) == 2
    assert sum(state.hands[0]) == 0


def test_below_the_claim_value_nothing_is_claimed() -> None:
    """ "greater than or equal to the claim value": a total one short of it claims nothing."""
    state = scenario(2, table=TABLE, dice=[(1, D6_A, 0, 4)])
    excavate(state, D8, 0, 4)  # 8 < 9
    assert state.claimed == ((), ())
    assert state.die_place[0][D8] == 0 and state.die_place[1][D6_A] == 0
    assert state.active == 1


def test_claimed_ruin_returns_dice_and_stones_then_a_new_ruin_is_revealed_with_stones() -> None:
    """ "Once the Ruin is claimed, return all dice to their owners and return all Stones remaining on the Ruin to the
    cloth bag. Then flip up a new card from the Ruins Deck and place it in the space vacated by the just claimed
    card. Place Stones on the new Ruin, as indicated by the value in the bottom right hexagon on the Ruin." """
    state = scenario(2, table=TABLE, stones={0: (0, 2, 0, 0)}, dice=[(1, D6_A, 0, 4), (1, D6_B, 1, 6)])
    bag = state.bag
    excavate(state, D8, 0, 6)
    assert state.die_place[0][D8] == -1 and state.die_place[1][D6_A] == -1
    assert state.die_place[1][D6_B] == 1  # a die on another Ruin stays
    assert state.ruin_stones[0] == NO_STONES
    assert state.bag[YELLOW] == bag[YELLOW] + 2
    assert state.table[0] == -1
    draw(state, "Forlorn")  # seat 1's consolation
    assert top_kind(state) == REVEAL_RUIN
    new_ruin = ruin_id(state.game, state.game.ruins[state.ruin_deck[0]].name)
    deck = state.ruin_deck
    assert [r for r, _ in state.chance_outcomes()] == sorted(set(deck))
    chance(state, REVEAL_RUIN, new_ruin)
    assert state.table[0] == new_ruin
    assert new_ruin not in state.ruin_deck
    for _ in range(state.game.ruins[new_ruin].stones):
        chance(state, STONE_TO_RUIN, RED)
    assert state.ruin_stones[0] == (state.game.ruins[new_ruin].stones, 0, 0, 0)
    assert state.current_player() == 1 and state.active == 1


def test_unbreakable_tie_puts_the_ruin_in_the_box_and_everyone_draws() -> None:
    """ "If there is an unbreakable tie (e.g. only two opposing six-sided dice showing the same value), no one gets
    the Ruin Card (place it back into the box) and all players draw a Delver Card for each die they had on that
    Ruin." """
    state = scenario(2, table=TABLE, dice=[(1, D6_A, 0, 5)])
    excavate(state, D6_B, 0, 5)
    peach_9 = ruin_id(state.game, "peach 9")
    assert state.claimed == ((), ())
    assert state.discarded_ruins == (peach_9,)
    assert state.table[0] == -1
    drawers = [frame.detail("seat") for frame in reversed(state.stack) if frame.kind == DRAW_DELVER]
    assert sorted(drawers) == [0, 1]
    settle(state)
    assert sum(state.hands[0]) == 1 and sum(state.hands[1]) == 1


def test_delver_deck_reshuffles_the_discard_pile_when_empty() -> None:
    """ "Reshuffle the discard pile to make a new Delver Deck if the draw pile is empty." """
    state = scenario(
        2,
        table=TABLE,
        dice=[(1, D6_A, 0, 4)],
        hands={0: EVERY_CARD_BUT_EXPEDITION_AND_LOST},
        deck={},
    )
    # Seat 0 holds every other card (it plays none); the discard pile holds Expeditions and Lost in the Ruins.
    assert sum(state.delver_deck) == 0
    excavate(state, D8, 0, 6)
    assert top_kind(state) == DRAW_DELVER
    outcomes = dict(state.chance_outcomes())
    assert set(outcomes) == {delver_type(state.game, "Expedition"), delver_type(state.game, "Lost in the Ruins")}
    draw(state, "Expedition")
    assert sum(state.delver_discard) == 0
    assert sum(state.delver_deck) == 8
    assert state.hands[1][delver_type(state.game, "Expedition")] == 1


# ---------------------------------------------------------------------------------------------- modifiers
def gathering(**fields: Any) -> dict[str, Any]:
    """Fields of a game whose End of Age event, The Gathering, is revealed (-1 to every die rolled)."""
    return {"end_of_age": "The Gathering", "end_of_age_revealed": True, "roll_modifier": -1, "ruin_deck": [], **fields}


def festival(**fields: Any) -> dict[str, Any]:
    """Fields of a game whose End of Age event, Festival of Reclamation, is revealed (+1 to every die rolled)."""
    return {
        "end_of_age": "Festival of Reclamation",
        "end_of_age_revealed": True,
        "roll_modifier": 1,
        "ruin_deck": [],
        **fields,
    }


@pytest.mark.parametrize(("first", "result"), [("-1", 3), ("+2", 2)])
def test_gathering_and_ancestral_claim_order_is_chosen_by_the_active_player(first: str, result: int) -> None:
    """FAQ: "The Gathering event is in play, reducing my die rolls by 1, and I play Ancestral Claim to give my next
    D6 +2. If I roll a 1 on the die ... the player whose turn it is may decide in which order they are applied";
    each step is clamped ("may never lower a die result lower than 1"): -1 then +2 gives 3, +2 then -1 gives 2."""
    state = scenario(2, table=TABLE, hands={0: {"Ancestral Claim": 1}}, stones={1: (0, 0, 0, 1)}, **gathering())
    play_card(state, "Ancestral Claim")
    excavate(state, D6_A, 1, 1)
    assert top_kind(state) == MODIFIER_ORDER and state.current_player() == 0
    assert labels(state) == ["apply next: -1", "apply next: +2"]
    act(state, f"apply next: {first}")
    assert state.die_value[0][D6_A] == result
    assert state.die_face[0][D6_A] == 1


def test_modifier_order_is_asked_of_the_active_player_even_for_another_seats_die() -> None:
    """FAQ: the player whose turn it is decides the order "(even if they're forcing someone else to reroll)"."""
    state = scenario(
        2,
        table=TABLE,
        hands={0: {"Ancestral Claim": 1, "Lost in the Ruins": 1}},
        dice=[(1, D6_A, 3, 5), (1, D8, 2, 2)],
        **gathering(),
    )
    play_card(state, "Ancestral Claim")
    play_card(state, "Lost in the Ruins")
    target_die(state, 1, D6_A)
    roll(state, 1)
    assert top_kind(state) == MODIFIER_ORDER
    assert state.current_player() == 0


def test_no_order_is_asked_when_every_order_gives_the_same_result() -> None:
    """RULES.md, Modifiers: "when every order gives the same result they are applied at once" (3 -1 +2 = 4 either
    way)."""
    state = scenario(2, table=TABLE, hands={0: {"Ancestral Claim": 1}}, **gathering())
    play_card(state, "Ancestral Claim")
    excavate(state, D6_A, 3, 3)
    assert state.die_value[0][D6_A] == 4
    assert top_kind(state) != MODIFIER_ORDER


@pytest.mark.parametrize(
    ("fields", "die", "face", "value"),
    [
        (gathering(), D6_A, 1, 1),
        (gathering(), D4, 1, 1),
        (festival(), D6_A, 6, 6),
        (festival(), D4, 4, 4),
        (festival(), D8, 8, 8),
        (festival(), D8, 7, 8),
        (gathering(), D8, 8, 7),
    ],
)
def test_modified_results_stay_within_the_die(fields: dict[str, Any], die: int, face: int, value: int) -> None:
    """ "Delver cards and Named Wonder effects may never lower a die result lower than 1, nor may they raise the
    result higher than the highest value of that die." """
    state = scenario(2, table=TABLE, **fields)
    excavate(state, die, 3, face)
    settle(state)
    assert state.die_value[0][die] == value


def test_ancestral_claim_on_a_six_is_clamped_at_six() -> None:
    """ "nor may they raise the result higher than the highest value of that die": a d6 showing 5 with +2 shows 6."""
    state = scenario(2, table=TABLE, hands={0: {"Ancestral Claim": 1}})
    play_card(state, "Ancestral Claim")
    excavate(state, D6_A, 3, 5)
    assert state.die_value[0][D6_A] == 6


def test_a_four_modified_to_three_gives_no_stone() -> None:
    """FAQ: "Changing a die to a 1, 2, or 3 with a modifier card does not result in a gained Stone." (RULES.md,
    Rolls: "The face decides, not the modified value".)"""
    state = scenario(2, table=TABLE, stones={3: (1, 0, 0, 0)}, **gathering())
    excavate(state, D6_A, 3, 4)
    assert state.die_value[0][D6_A] == 3
    assert state.tableaus[0].stone_count == 0
    assert state.ruin_stones[3] == (1, 0, 0, 0)


def test_a_four_lowered_by_reading_the_stones_gives_no_stone() -> None:
    """FAQ: "Changing a die to a 1, 2, or 3 with a modifier card does not result in a gained Stone." """
    state = scenario(2, table=TABLE, hands={0: {"Reading the Stones": 1}}, stones={3: (1, 0, 0, 0)})
    play_card(state, "Reading the Stones")
    excavate(state, D6_A, 3, 4)
    act(state, "modifier: -1")
    assert state.die_value[0][D6_A] == 3
    assert state.tableaus[0].stone_count == 0


def test_a_three_raised_to_four_still_gives_a_stone() -> None:
    """RULES.md, Rolls: "The face decides, not the modified value: modifiers neither give (FAQ) nor take away a
    Stone." """
    state = scenario(2, table=TABLE, stones={3: (1, 0, 0, 0)}, **festival())
    excavate(state, D6_A, 3, 3)
    assert state.die_value[0][D6_A] == 4
    assert state.tableaus[0].stone_count == 1
    assert state.ruin_stones[3] == NO_STONES


def test_modified_value_counts_for_the_claim() -> None:
    """ "When the total of all dice on the Ruin equals or exceeds this value": the total is of the results shown,
    modifiers included (Festival: 4 + 1 with a 4 already there reaches 9)."""
    state = scenario(2, table=TABLE, dice=[(1, D6_A, 0, 4)], **festival())
    excavate(state, D6_A, 0, 4)
    assert state.claimed[0] == (ruin_id(state.game, "peach 9"),)


def test_no_card_is_drawn_when_the_draw_and_discard_piles_are_empty() -> None:
    """ "Reshuffle the discard pile to make a new Delver Deck if the draw pile is empty": with both empty there is
    nothing to draw (RULES.md, Claims in play: "with both empty, nothing is drawn")."""
    every = {d.name: d.count for d in UnearthGame(2).cards.delvers}
    state = scenario(2, table=TABLE, dice=[(1, D6_A, 0, 4)], hands={0: every})
    assert sum(state.delver_deck) == 0 and sum(state.delver_discard) == 0
    excavate(state, D8, 0, 6)
    assert state.claimed[0] == (ruin_id(state.game, "peach 9"),)
    assert top_kind(state) == REVEAL_RUIN
    assert sum(state.hands[1]) == 0


def test_no_card_may_be_played_during_the_excavation_phase() -> None:
    """ "Only you may play cards during your Delver Phase and cards may not be played by anyone during the Excavation
    Phase": between two Band of Delvers rolls only dice are offered."""
    state = scenario(2, table=TABLE, hands={0: {"Band of Delvers": 1, "Ancient Map": 2, "Expedition": 1}})
    play_card(state, "Band of Delvers")
    excavate(state, D6_A, 3, 5)
    assert top_kind(state) == EXCAVATION_DIE
    assert all(label.startswith("roll die: ") for label in labels(state))


def test_a_stone_with_no_legal_cell_goes_back_to_the_bag() -> None:
    """RULES.md, Stones: "If no cell is legal (only the grid's edge can cause this ...), the Stone goes back to the
    bag." (A radius-2 tableau with no legal cell, from test_tableau.py, stands for a full one.)"""
    full = Tableau.from_dict(NO_LEGAL_CELL_RADIUS_2)
    assert not full.has_legal_cell
    state = scenario(2, table=TABLE, stones={3: (1, 0, 0, 0)})
    state.tableaus = (full, *state.tableaus[1:])  # set directly: state dicts hold only the game's radius-9 grid
    bag = state.bag
    excavate(state, D6_A, 3, 1)
    assert state.ruin_stones[3] == NO_STONES
    assert state.bag == (bag[RED] + 1, *bag[1:])
    assert state.tableaus[0] == full
    assert state.active == 1
