"""Unearth's hidden information: what chance labels tell each seat, and `resample_hidden`'s redeal.

Rulebook (Unearth's): hidden Ruins are kept "hidden from the other players until the end of the
game", removed Ruins go "back into the game box without looking at them", Wonder tokens are "viewable only by their
owner"; RULES.md, "Hidden information", says what each seat may see and what `resample_hidden` redeals.
"""

from __future__ import annotations

import numpy as np
import pytest

from envs.core.game import CHANCE
from envs.core.replays import event_label
from envs.unearth.game import UnearthGame
from envs.unearth.rules import (
    CHOOSE_END_OF_AGE,
    CHOOSE_REMOVED,
    DEAL_DELVER,
    DEAL_HIDDEN_RUIN,
    DRAW_REMOVED,
    REMOVE_RUIN,
    UnearthState,
)
from envs.unearth.state import GREATER, LESSER, NAMED_BASE
from tests.unearth.scenarios import (
    BLACK,
    BLUE,
    D6_A,
    D8,
    RED,
    YELLOW,
    act,
    closer_cell,
    excavate,
    named_id,
    open_ring,
    place_stone,
    scenario,
    tableau_with_wonders,
    top_kind,
)

TABLE = ("peach 9", "green 13", "blue 15", "gray 17")
"""A 2-player table: claim values 9, 13, 15, 17."""
RESAMPLES = 30
"""Redeals per check: enough for a hidden hand to change at least once."""


# ---------------------------------------------------------------------------------------------- chance labels
def viewers(num_players: int) -> list[int | None]:
    """Every seat and the spectator (None)."""
    return [*range(num_players), None]


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_setup_labels_name_only_what_the_viewer_may_see(num_players: int) -> None:
    """ "You may look at your own card, but keep it hidden from the other players"; "Remove the top five cards ...
    without looking at them"; "Put the rest of the End of Age Cards back in the box without looking at them"; the
    Delver cards dealt are seen by their owner only."""
    game = UnearthGame(num_players)
    state = game.new_initial_state()
    rng = np.random.default_rng(7)
    checked = set()
    while state.current_player() == CHANCE:
        outcome = state.sample_chance(rng)
        kind, seat = top_kind(state), state.stack[-1].detail("seat")
        for viewer in viewers(num_players):
            label = state.chance_label_for(outcome, viewer)
            if kind == DEAL_DELVER:
                assert (game.cards.delvers[outcome].name in label) == (viewer == seat), label
            elif kind == DEAL_HIDDEN_RUIN:
                assert (game.ruins[outcome].name in label) == (viewer == seat), label
            elif kind == REMOVE_RUIN:
                assert game.ruins[outcome].name not in label
            elif kind == CHOOSE_END_OF_AGE:
                assert game.cards.end_of_age[outcome].name not in label
        checked.add(kind)
        state.apply_action(outcome)
    assert {DEAL_DELVER, DEAL_HIDDEN_RUIN, REMOVE_RUIN, CHOOSE_END_OF_AGE} <= checked


def test_a_delver_card_drawn_in_play_is_named_to_its_drawer_only() -> None:
    """ "draw cards from the Delver Deck": a hand is hidden from the other seats (RULES.md, Hidden information)."""
    state = scenario(2, table=TABLE, dice=[(1, D6_A, 0, 4)])
    excavate(state, D8, 0, 6)
    for outcome, _ in state.chance_outcomes():
        name = state.game.cards.delvers[outcome].name
        assert name in state.chance_label_for(outcome, 1)
        assert name not in state.chance_label_for(outcome, 0)
        assert name not in state.chance_label_for(outcome, None)


def test_a_removed_ruin_drawn_by_the_cenotaph_is_named_to_its_owner_only() -> None:
    """The Blackened Cenotaph adds a removed Ruin "to your hidden scoring": hidden from the others."""
    state = scenario(
        2,
        table=TABLE,
        tableaus={0: open_ring((RED, RED, YELLOW, YELLOW, BLUE))},
        stones={3: (0, 0, 1, 0)},
        named_in_play=["The Blackened Cenotaph"],
    )
    excavate(state, D6_A, 3, 1)
    place_stone(state, closer_cell())
    act(state, "build: The Blackened Cenotaph")
    assert top_kind(state) == DRAW_REMOVED
    for outcome, _ in state.chance_outcomes():
        name = state.game.ruins[outcome].name
        assert name in state.chance_label_for(outcome, 0)
        assert name not in state.chance_label_for(outcome, 1)
        assert name not in state.chance_label_for(outcome, None)


# ---------------------------------------------------------------------------------------------- resample_hidden
def mid_game(num_players: int, steps: int, seed: int) -> UnearthState:
    """A random game after `steps` actions and chance outcomes."""
    state = UnearthGame(num_players).new_initial_state()
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


PUBLIC_FIELDS = (
    "delver_discard",
    "discarded_ruins",
    "end_of_age_revealed",
    "roll_modifier",
    "table",
    "ruin_stones",
    "bag",
    "dice",
    "claimed",
    "tableaus",
    "named_built",
    "named_in_play",
    "removed_seen",
    "active",
    "turn",
    "stack",
)
"""State fields every seat sees: `resample_hidden` never changes them."""


def ruin_pool(state: UnearthState, player: int) -> list[int]:
    """The Ruins `player` cannot see: the deck, the removed ones and the other seats' hidden Ruins."""
    others = [r for seat, hidden in enumerate(state.hidden_ruins) if seat != player for r in hidden]
    return sorted([*state.ruin_deck, *state.removed, *others])


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_resample_hidden_keeps_what_the_seat_knows(num_players: int) -> None:
    """RULES.md, Hidden information: `resample_hidden(seat)` redeals "the Delver cards the seat cannot see over the
    other hands and the draw pile (sizes kept); the Ruins it cannot see over the deck, the removed pile ... and the
    other hidden Ruins"; the seat's own hand, hidden Ruins and token values and everything public stay."""
    state = mid_game(num_players, steps=120, seed=num_players)
    game = state.game
    for player in range(num_players):
        rng = np.random.default_rng(player)
        for _ in range(5):
            clone = state.resample_hidden(player, rng)
            assert clone.hands[player] == state.hands[player]
            assert clone.hidden_ruins[player] == state.hidden_ruins[player]
            assert clone.lesser_built[player] == state.lesser_built[player]
            assert clone.greater_built[player] == state.greater_built[player]
            assert [sum(h) for h in clone.hands] == [sum(h) for h in state.hands]
            assert [len(h) for h in clone.hidden_ruins] == [len(h) for h in state.hidden_ruins]
            assert sum(clone.delver_deck) == sum(state.delver_deck)
            assert clone.unseen_delvers(player) == state.unseen_delvers(player)
            assert len(clone.ruin_deck) == len(state.ruin_deck) and len(clone.removed) == len(state.removed)
            assert ruin_pool(clone, player) == ruin_pool(state, player)
            before, after = state.to_dict(), clone.to_dict()
            for name in PUBLIC_FIELDS:
                assert after[name] == before[name], name
            game.state_from_dict(after)  # every card and Stone is still somewhere exactly once


@pytest.mark.parametrize("num_players", [2, 3])
def test_a_resampled_state_offers_what_its_own_position_offers(num_players: int) -> None:
    """RULES.md, Hidden information: a redeal is a position of its own. The chance outcomes and legal actions it offers
    are those of the same position rebuilt from its dict (no cached outcome or action of the true deal survives), so
    every outcome it offers can be applied."""
    rng = np.random.default_rng(num_players)
    for seed in range(6):
        state = mid_game(num_players, steps=40 + 15 * seed, seed=seed)
        for player in range(num_players):
            clone = state.resample_hidden(player, rng)
            reloaded = state.game.state_from_dict(clone.to_dict())
            assert clone.chance_outcomes() == reloaded.chance_outcomes()
            assert clone.legal_actions() == reloaded.legal_actions()
            for outcome, _ in clone.chance_outcomes():
                clone.clone().apply_action(outcome)


def test_resample_hidden_changes_the_other_hands() -> None:
    """RULES.md: the other hands are redealt, so over many redeals they differ from the true ones."""
    state = scenario(
        3,
        table=("peach 9", "green 13", "blue 15", "gray 17", "purple 17"),
        hands={0: {"Forlorn": 1}, 1: {"Ancient Map": 2, "Expedition": 1}, 2: {"Restoration": 2}},
    )
    rng = np.random.default_rng(0)
    clones = [state.resample_hidden(0, rng) for _ in range(RESAMPLES)]
    assert any(clone.hands[1] != state.hands[1] for clone in clones)
    assert any(clone.hands[2] != state.hands[2] for clone in clones)
    assert all(clone.hands[0] == state.hands[0] for clone in clones)


def test_resample_hidden_keeps_own_token_values_and_redeals_the_others() -> None:
    """ "Greater and Lesser Wonders should be placed point value face down, viewable only by their owner": a seat
    knows its own tokens' values, not the other seats'."""
    state = scenario(
        2,
        table=TABLE,
        lesser_built=[[4], [2]],
        greater_built=[[8], [6]],
        tableaus={0: tableau_with_wonders(LESSER, GREATER), 1: tableau_with_wonders(LESSER, GREATER)},
        lesser_tokens=[2, 3, 3, 3, 3, 3, 3, 4],
        greater_tokens=[7, 7, 7, 7],
    )
    rng = np.random.default_rng(1)
    clones = [state.resample_hidden(0, rng) for _ in range(RESAMPLES)]
    assert all(c.lesser_built[0] == (4,) and c.greater_built[0] == (8,) for c in clones)
    assert all(len(c.lesser_built[1]) == 1 and len(c.greater_built[1]) == 1 for c in clones)
    assert any(c.lesser_built[1] != (2,) for c in clones)
    assert any(c.greater_built[1] != (6,) for c in clones)
    for c in clones:
        assert sorted((*c.lesser_tokens, *c.lesser_built[1])) == sorted((*state.lesser_tokens, 2))
        assert sorted((*c.greater_tokens, *c.greater_built[1])) == sorted((*state.greater_tokens, 6))


def test_resample_hidden_keeps_the_removed_ruins_a_seat_has_seen() -> None:
    """The Crumbling Memorial: "Look at the removed Ruins": a seat that looked knows them (RULES.md: "the removed
    pile (kept as it is if the seat looked at it)"); a seat that did not look has them redealt."""
    memorial = NAMED_BASE + named_id(UnearthGame(2), "The Crumbling Memorial")
    state = scenario(
        2,
        table=TABLE,
        removed_seen=[True, False],
        named_built={0: ["The Crumbling Memorial"]},
        tableaus={0: tableau_with_wonders(memorial)},
    )
    rng = np.random.default_rng(2)
    seen = [state.resample_hidden(0, rng) for _ in range(RESAMPLES)]
    assert all(clone.removed == state.removed for clone in seen)
    unseen = [state.resample_hidden(1, rng) for _ in range(RESAMPLES)]
    assert any(clone.removed != state.removed for clone in unseen)


def test_resample_hidden_redeals_the_face_down_end_of_age_card_only() -> None:
    """ "randomly choose one End of Age card, and place it on the bottom of the Ruins Deck" face down: unknown to
    every seat until revealed, then public."""
    hidden = scenario(2, table=TABLE)
    rng = np.random.default_rng(3)
    assert any(hidden.resample_hidden(0, rng).end_of_age != hidden.end_of_age for _ in range(RESAMPLES))
    revealed = scenario(
        2, table=TABLE, end_of_age="The Gathering", end_of_age_revealed=True, roll_modifier=-1, ruin_deck=[]
    )
    assert all(revealed.resample_hidden(0, rng).end_of_age == revealed.end_of_age for _ in range(RESAMPLES))


def test_the_removed_ruin_the_crumbling_memorial_takes_is_named_to_its_owner_only() -> None:
    """The Crumbling Memorial: "Look at the removed Ruins and choose 1 for your hidden scoring": the choice is hidden
    scoring, so the decision's label names the Ruin to its owner (and in the omniscient replay) only."""
    state = scenario(
        2,
        table=TABLE,
        tableaus={0: open_ring((BLACK,) * 5)},
        stones={3: (0, 0, 0, 0)[:BLACK] + (1,) + (0, 0, 0, 0)[BLACK + 1 :]},
        named_in_play=["The Crumbling Memorial"],
    )
    excavate(state, D6_A, 3, 1)
    place_stone(state, closer_cell())
    act(state, "build: The Crumbling Memorial")
    assert top_kind(state) == CHOOSE_REMOVED and state.current_player() == 0
    for action in state.legal_actions():
        name = state.game.action_label(action)
        assert name.startswith("removed ruin: ")
        assert state.action_label_for(action, 0) == name
        assert event_label(state, 0, action, view="omniscient") == name
        for viewer, view in ((1, "1"), (None, "public")):
            hidden = state.action_label_for(action, viewer)
            assert name.removeprefix("removed ruin: ") not in hidden
            assert event_label(state, 0, action, view=view) == hidden


def test_a_delver_phase_with_no_playable_card_is_still_asked() -> None:
    """RULES.md, The engine: the Delver Phase "is asked even with one option": its options depend on the hidden hand,
    and taking a lone "excavate" at once would tell the other seats the hand holds no playable card. Seat 0 holds a
    Restoration with no die placed anywhere (nothing to target): excavating is its only option, and it is asked."""
    state = scenario(2, table=TABLE, hands={0: {"Restoration": 1}})
    assert state.current_player() == 0 and top_kind(state) == "delver phase"
    assert [state.game.action_label(a) for a in state.legal_actions()] == ["excavate"]
