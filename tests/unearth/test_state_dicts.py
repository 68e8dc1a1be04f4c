"""Unearth states are deterministic and survive `to_dict` / `state_from_dict` at every step; bad dicts are refused.

DESIGN.md ("Tests"): scenarios are set up from state dicts, so a saved state must rebuild into an equal one, and a
malformed dict must fail naming its field (StateFormatError.field).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from envs.core.game import CHANCE, StateFormatError
from envs.unearth.game import UnearthGame
from envs.unearth.rules import PRIVATE_OPTION_COUNT, UnearthState
from tests.unearth.scenarios import as_json, setup_dict

MAX_STEPS = 3000
"""Bound on a random game's actions and outcomes (measured games take about 500)."""


def random_game(num_players: int, seed: int, each_step: Callable[[UnearthState], None]) -> UnearthState:
    """Play a random game (chance by its probabilities, uniform legal decisions), calling `each_step` on each state."""
    state = UnearthGame(num_players).new_initial_state()
    rng = np.random.default_rng(seed)
    each_step(state)
    for _ in range(MAX_STEPS):
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
        each_step(state)
    assert state.is_terminal()
    return state


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_round_trip_at_every_step_of_a_random_game(num_players: int) -> None:
    """DESIGN.md: every state is "JSON-able dict and back": the rebuilt state equals the saved one and offers the same
    actions and chance outcomes."""
    game = UnearthGame(num_players)

    def check(state: UnearthState) -> None:
        """The state rebuilt from its JSON dict is the same state."""
        saved = json.loads(json.dumps(state.to_dict()))
        rebuilt = game.state_from_dict(saved)
        assert rebuilt.to_dict() == state.to_dict()
        assert rebuilt.current_player() == state.current_player()
        assert rebuilt.legal_actions() == state.legal_actions()
        assert rebuilt.chance_outcomes() == state.chance_outcomes()

    final = random_game(num_players, seed=10 + num_players, each_step=check)
    assert final.returns() == game.state_from_dict(final.to_dict()).returns()


@pytest.mark.parametrize("num_players", [2, 4])
def test_same_seed_and_actions_give_the_same_states(num_players: int) -> None:
    """A game is a function of its chance outcomes and decisions: two runs with one seed match at every step."""
    first: list[str] = []
    second: list[str] = []
    random_game(num_players, seed=5, each_step=lambda state: first.append(as_json(state)))
    random_game(num_players, seed=5, each_step=lambda state: second.append(as_json(state)))
    assert first == second


def bad(edit: Callable[[dict[str, Any]], None]) -> StateFormatError:
    """The error state_from_dict raises for the setup dict after `edit`."""
    data = setup_dict(2)
    edit(data)
    with pytest.raises(StateFormatError) as raised:
        UnearthGame(2).state_from_dict(data)
    return raised.value


def test_a_missing_field_is_named() -> None:
    """state_from_dict: "StateFormatError naming the first missing, unknown or malformed field"."""
    assert bad(lambda d: d.pop("bag")).field == "bag"
    assert bad(lambda d: d.pop("hands")).field == "hands"


def test_an_unknown_field_is_named() -> None:
    """state_from_dict refuses a field the state does not have, naming it."""
    assert bad(lambda d: d.update(score=3)).field == "score"


def test_a_hand_names_its_cards() -> None:
    """A hand is saved as copies per Delver card by name; an unknown card is refused, naming the card's entry."""
    error = bad(lambda d: d["hands"][0].update({"Ancient Mop": 1}))
    assert error.field == "hands[0].Ancient Mop"
    assert "Ancient Map" in str(error)


def test_delver_cards_that_do_not_add_up_are_refused() -> None:
    """ "Delver Deck of 38 mini-sized cards": a card counted twice is refused, naming the hands."""

    def extra_card(data: dict[str, Any]) -> None:
        """One more Ancient Map in seat 0's hand than the game has."""
        data["hands"][0]["Ancient Map"] = data["hands"][0].get("Ancient Map", 0) + 1

    error = bad(extra_card)
    assert error.field == "hands"
    assert "Ancient Map" in str(error)


def test_stones_that_do_not_add_up_are_refused() -> None:
    """ "Hexagonal Stone tokens (60 hexes; 15 of each color)": a Stone too many is refused, naming the bag."""

    def extra_stone(data: dict[str, Any]) -> None:
        """One more red Stone in the bag."""
        data["bag"]["red"] += 1

    assert bad(extra_stone).field == "bag"


def test_malformed_table_and_dice_are_named() -> None:
    """A table of the wrong size and a die on a place that does not exist are refused by field."""
    assert bad(lambda d: d["table"].append("peach 9")).field == "table"

    def far_die(data: dict[str, Any]) -> None:
        """Seat 1's first die on place 7 of a 4-place table."""
        data["dice"][1]["die 1 (d6)"]["place"] = 7

    assert bad(far_die).field == "dice[1].die 1 (d6).place"


def test_ruins_are_written_by_name() -> None:
    """A user who writes a Ruin by its card name is understood; an unknown name is refused listing the known ones."""
    data = setup_dict(2)
    first = data["table"][0]
    assert isinstance(first, str) and first in [ruin.name for ruin in UnearthGame(2).ruins]
    error = bad(lambda d: d["table"].__setitem__(0, "peach 10"))
    assert error.field == "table[0]"
    assert "peach 9" in str(error)


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_every_decision_asked_has_two_options_or_more(num_players: int) -> None:
    """RULES.md, The engine: "A decision with exactly one legal option is applied at once", except the Delver Phase,
    whose options depend on the hidden hand: "It is asked even with one option; every other decision an agent is
    asked has at least two"."""

    def check(state: UnearthState) -> None:
        """A seat that decides has a real choice, unless the number of its options is private (the Delver Phase)."""
        if state.current_player() >= 0:
            frame = state.decision()
            assert frame is not None
            minimum = 1 if frame.kind in PRIVATE_OPTION_COUNT else 2
            assert len(state.legal_actions()) >= minimum, frame

    random_game(num_players, seed=20 + num_players, each_step=check)


def test_a_tableau_is_on_the_one_grid() -> None:
    """Every tableau is the fixed grid of RULES.md ("The grid": radius 9): a saved tableau gives no radius (one is
    refused as an unknown field) and a Stone off the grid is refused, naming its entry."""
    assert bad(lambda d: d["tableaus"][1].update(radius=300)).field == "tableaus[1].radius"
    assert bad(lambda d: d["tableaus"][1].update(stones=[[40, 0, "red"]])).field.startswith("tableaus[1].stones[0]")


def _ruin_in_two_places(data: dict[str, Any]) -> None:
    """The Ruin face up at place 0 also in seat 0's hidden Ruins."""
    data["hidden_ruins"][0].append(data["table"][0])


def _d6_showing_seven(data: dict[str, Any]) -> None:
    """Seat 0's first d6 on place 0 showing 7."""
    data["dice"][0]["die 1 (d6)"].update(place=0, value=7, rolled=7)


def _lesser_tokens_without_wonders(data: dict[str, Any]) -> None:
    """Three Lesser Wonder tokens built by seat 0, whose tableau is empty."""
    taken = data["lesser_tokens"][:3]
    data["lesser_tokens"] = data["lesser_tokens"][3:]
    data["lesser_built"][0] = taken


def _named_built_and_in_play(data: dict[str, Any]) -> None:
    """A Named Wonder in play also listed as built by seat 1."""
    data["named_built"][1] = [data["named_in_play"][0]]


def _event_without_its_effect(data: dict[str, Any]) -> None:
    """The Gathering revealed (-1 to every die) with the roll modifier left at 0."""
    data.update(end_of_age="The Gathering", end_of_age_revealed=True, ruin_deck=[], roll_modifier=0)
    data["discarded_ruins"] = sorted({*data["discarded_ruins"], *setup_dict(2)["ruin_deck"]})


def _active_disagrees_with_the_stack(data: dict[str, Any]) -> None:
    """Seat 1 is active, but the Delver Phase on the stack is seat 0's."""
    data["active"] = 1 - data["stack"][-1]["seat"]


def _deal_to_a_third_seat(data: dict[str, Any]) -> None:
    """A pending deal to seat -1 (a third hand in a 2-player game)."""
    data["stack"].append({"seat": CHANCE, "kind": "deal delver", "reason": "setup", "details": {"seat": -1}})


def _modifier_of_zero(data: dict[str, Any]) -> None:
    """A gathered modifier of 0 (cards, Wonders and events give -2, -1, +1 or +2), with no roll to apply it to."""
    data["modifiers"] = [0]


def _end_of_age_forgotten(data: dict[str, Any]) -> None:
    """No End of Age card, though setup chose it and no draw for it is pending."""
    data["end_of_age"] = None


def _reveal_on_a_ruin(data: dict[str, Any]) -> None:
    """A Ruin to be revealed on place 0, which already holds one."""
    data["stack"].append({"seat": CHANCE, "kind": "reveal ruin", "reason": "claim", "details": {"place": 0}})


def _ancestral_claims_beyond_the_deck(data: dict[str, Any]) -> None:
    """More Ancestral Claims played this turn than the game has (4)."""
    data["ancestral"] = 5


def _named_wonder_missing(data: dict[str, Any]) -> None:
    """A 2-player game after setup with 3 Named Wonders in play and none built (setup draws players + 2)."""
    data["named_in_play"] = data["named_in_play"][:-1]


def _more_decisions_than_a_game_lasts(data: dict[str, Any]) -> None:
    """10**9 decisions taken, past the spec's max_game_length."""
    data["decisions"] = 10**9


def _a_turn_above_its_steps(data: dict[str, Any]) -> None:
    """A Delver Phase on top of a pending roll (a turn is pushed only on an emptied stack)."""
    roll = {"seat": CHANCE, "kind": "roll", "reason": "test", "details": {"seat": 0, "die": "die 1 (d6)"}}
    data["stack"].insert(0, roll)


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        (_ancestral_claims_beyond_the_deck, "ancestral"),
        (_a_turn_above_its_steps, "stack[1].kind"),
        (_modifier_of_zero, "modifiers[0]"),
        (_end_of_age_forgotten, "end_of_age"),
        (_reveal_on_a_ruin, "stack[1].details.place"),
        (_ruin_in_two_places, "hidden_ruins[0]"),
        (_d6_showing_seven, "dice[0].die 1 (d6).value"),
        (_lesser_tokens_without_wonders, "lesser_built[0]"),
        (_named_built_and_in_play, "named_in_play"),
        (_named_wonder_missing, "named_in_play"),
        (_more_decisions_than_a_game_lasts, "decisions"),
        (_event_without_its_effect, "roll_modifier"),
        (_active_disagrees_with_the_stack, "stack[0].seat"),
        (_deal_to_a_third_seat, "stack[1].details.seat"),
    ],
    ids=lambda value: value.__name__.strip("_") if callable(value) else value,
)
def test_impossible_positions_are_refused_naming_the_field(edit: Callable[[dict[str, Any]], None], field: str) -> None:
    """RULES.md, State dicts: positions no game reaches are refused by StateFormatError naming the field: "a Ruin in
    two places", "a die showing a face it does not have", "Wonder tokens built without their Wonders on the
    tableau", "a Named Wonder ... built and still in play", fewer or more Named Wonders than setup draws ("draw Wonder
    cards equal to the number of players plus 2"), more decisions than a game lasts, an End of Age event "revealed
    ... its event's roll modifier not set", "a turn's frame not the active seat's", "a ... out-of-range frame
    detail"."""
    assert bad(edit).field == field
