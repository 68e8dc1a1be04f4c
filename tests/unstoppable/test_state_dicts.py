"""Positions written by hand with card names, and every position of random games, through `state_from_dict`.

The rulebook's components fix what can be where: every card is somewhere once, the character deck is the one the
player built ("Construct your 10-card character deck"), a drafted core is a levelled core sleeved with a threat of
the threat deck, an upgrade fits its cutout and requirement. A position that breaks one is refused naming the field.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from envs.core.game import StateFormatError
from envs.core.testing import check_json_round_trip
from envs.unstoppable.effects import threat_health
from envs.unstoppable.game import UnstoppableGame
from envs.unstoppable.validation import danger_spaces
from tests.unstoppable.golden_cases import seeded_policy
from tests.unstoppable.scenarios import act, rules_game, scenario, scenario_dict


def test_every_position_of_random_games_survives_its_dict() -> None:
    """Every state of seeded random games rebuilds equal from its JSON dict, offering the same choices."""
    game = rules_game()
    rng = np.random.default_rng(3)
    checked = 0
    for _ in range(8):
        state = game.new_initial_state()
        while not state.is_terminal():
            check_json_round_trip(game, state)
            checked += 1
            if state.current_player() < 0:
                state.apply_action(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])
    assert checked > 100


def refusal(edit: Callable[[dict[str, Any]], object], **kwargs: Any) -> StateFormatError:
    """The error `state_from_dict` raises for a scenario dict changed by `edit`."""
    data = json.loads(json.dumps(scenario_dict(**kwargs)))
    edit(data)
    with pytest.raises(StateFormatError) as error:
        rules_game().state_from_dict(data)
    return error.value


def test_a_sleeve_in_two_zones_is_refused() -> None:
    """Each card is in exactly one place."""
    error = refusal(
        lambda d: d["hand"].append(d["battlefield"][0]), hand=["Strike"], battlefield=["Rust Golem"], deck=["Ash Wyrm"]
    )
    assert error.field in ("hand", "battlefield") and "also in" in str(error)


def test_a_character_deck_that_is_not_the_characters_is_refused() -> None:
    """ "Construct your 10-card character deck": the sleeve table starts with it."""
    error = refusal(lambda d: d["sleeves"][0].update(core="Spare Credits"), hand=["Strike"], deck=["Ash Wyrm"])
    assert error.field == "sleeves[0]"


def test_a_card_that_is_in_two_places_of_the_content_is_refused() -> None:
    """A drafted core also left in its core deck exists twice."""

    def edit(data: dict[str, Any]) -> None:
        data["core_decks"][1]["unknown"]["Five Meters Under"] = 1

    error = refusal(edit, hand=["Five Meters Under"], battlefield=["Rust Golem"], deck=["Ash Wyrm"])
    assert error.field == "core_decks" and "Five Meters Under" in str(error)


def test_an_upgrade_in_the_wrong_cutout_is_refused() -> None:
    """ "Each card can have up to 2 upgrades: 1 top and 1 bottom"; an upgrade fits its own cutout."""
    error = refusal(
        lambda d: d["sleeves"][0].update(top=d["sleeves"][0].pop("bottom")),
        hand=["Strike"],
        deck=["Ash Wyrm"],
        upgrades={"Strike": {"bottom": "Frenzy Serum"}},
    )
    assert error.field == "sleeves[0].top" and "bottom cutout" in str(error)


def test_an_unknown_card_name_is_refused_with_a_suggestion() -> None:
    """Names are checked against the content, with a 'did you mean'."""
    error = refusal(lambda d: d["sleeves"][0].update(core="Strik"), hand=["Strike"], deck=["Ash Wyrm"])
    assert error.field == "sleeves[0].core" and "did you mean 'Strike'" in str(error)


def test_damage_on_a_card_that_is_no_threat_is_refused() -> None:
    """ "Damage dealt to threats persists": only while the card is a threat (a defeated one leaves its tokens)."""
    error = refusal(lambda d: None, hand=["Strike"], deck=["Ash Wyrm"], damage={"Strike": 1})
    assert error.field == "sleeves[0].damage"


def test_a_hidden_on_deck_threat_is_refused() -> None:
    """The deck is "threat side up": its top card is always seen."""

    def edit(data: dict[str, Any]) -> None:
        data["deck"]["unknown"] = sorted(data["deck"]["unknown"] + data["deck"]["top"])
        data["deck"]["top"] = []

    error = refusal(edit, hand=["Strike"], deck=["Ash Wyrm", "Rust Golem"])
    assert error.field == "deck"


def test_a_phase_of_turn_zero_is_refused() -> None:
    """Turn 0 is the setup: the first Upkeep Phase starts turn 1, so a Main Phase of turn 0 cannot happen."""
    error = refusal(lambda d: d.update(turn=0), hand=["Strike"], battlefield=["Rust Golem"], deck=["Ash Wyrm"])
    assert error.field == "turn" and "turns count from 1" in str(error)


def test_every_position_of_greedy_games_on_the_shipped_content_survives_its_dict() -> None:
    """Greedy play (every card played, exhausted and bought that can be) reaches bonuses interrupted by targets,
    level-ups, refills and the danger track's effects: each of its states rebuilds equal from its JSON dict."""
    game = UnstoppableGame(difficulty="hard")
    rng = np.random.default_rng(8)
    kinds: set[str] = set()
    for seed in range(4):
        policy = seeded_policy(game, "greedy", seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            check_json_round_trip(game, state)
            kinds.update(frame.kind for frame in state.stack)
            state.apply_action(state.sample_chance(rng) if state.current_player() < 0 else policy(state))
    assert {"bonus", "boss level up", "reshuffle", "refill", "choose target", "danger effect", "rage"} <= kinds


def test_a_pending_frame_with_wrong_details_is_refused() -> None:
    """A pending frame carries its kind's details and names what exists: an effect slot the card lacks, an unknown or
    missing detail, a mode the card has no icon for, a draft from another deck are refused naming the detail."""
    state = scenario(
        hand=["Five Meters Under"], battlefield=["Rust Golem", "Ash Wyrm", "Neon Cutthroat"], deck=["Strike"]
    )
    act(state, "play: drafted card 1 (Five Meters Under)")
    saved = state.to_dict()
    index = next(i for i, frame in enumerate(saved["stack"]) if frame["kind"] == "choose effect")
    cases = {
        "left": lambda details: details.update(left=[0, 7]),
        "mode": lambda details: details.update(mode=2),
        "colour": lambda details: details.update(colour=1),
        "sleeve": lambda details: details.pop("sleeve"),
    }
    for key, edit in cases.items():
        data = json.loads(json.dumps(saved))
        edit(data["stack"][index]["details"])
        with pytest.raises(StateFormatError) as error:
            rules_game().state_from_dict(data)
        assert error.value.field == f"stack[{index}].details.{key}", (key, str(error.value))


def test_a_reordered_boss_deck_or_turn_is_refused() -> None:
    """The Harbinger's boss deck keeps the mat's order ("#00 on top"), and the steps of a turn run in the rulebook's
    order (A. Upkeep ... E. Cleanup): a saved position with either reordered is refused naming the field."""
    game = UnstoppableGame()
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    while state.current_player() < 0:
        state.apply_action(state.sample_chance(rng))
    saved = state.to_dict()
    swapped = json.loads(json.dumps(saved))
    top = swapped["boss_deck"]["top"]
    top[0], top[1] = top[1], top[0]
    with pytest.raises(StateFormatError, match="keeps the mat's order") as error:
        game.state_from_dict(swapped)
    assert error.value.field == "boss_deck"
    reordered = json.loads(json.dumps(saved))
    kinds = [frame["kind"] for frame in reordered["stack"]]
    cleanup, threat = kinds.index("cleanup"), kinds.index("threat phase")
    stack = reordered["stack"]
    stack[cleanup], stack[threat] = stack[threat], stack[cleanup]
    with pytest.raises(StateFormatError, match="are the bottom of the stack in this order") as error:
        game.state_from_dict(reordered)
    assert error.value.field == f"stack[{min(cleanup, threat)}].kind"


def test_a_setup_stack_out_of_order_or_missing_a_reveal_is_refused() -> None:
    """Setup's steps are pending in the rulebook's order under the turn's first step: a deal moved below the first
    turn, or a core deck whose top is unknown with no reveal of its own pending, is refused naming the field."""
    game = UnstoppableGame()
    saved = game.new_initial_state().to_dict()
    assert [frame["kind"] for frame in saved["stack"][:3]] == ["start turn", "reveal on-deck threat", "deal"]
    swapped = json.loads(json.dumps(saved))
    swapped["stack"][0], swapped["stack"][2] = swapped["stack"][2], swapped["stack"][0]
    with pytest.raises(StateFormatError, match="are the bottom of the stack in this order") as error:
        game.state_from_dict(swapped)
    assert error.value.field == "stack[0].kind"
    shortened = json.loads(json.dumps(saved))
    level = shortened["stack"].pop()["details"]["level"]
    with pytest.raises(StateFormatError, match="shows its top card") as error:
        game.state_from_dict(shortened)
    assert error.value.field == f"core_decks[{level - 1}]"


def position_of_a_random_game(turn: int, seed: int = 0) -> dict[str, Any]:
    """The saved Main Phase decision of turn `turn` of a seeded random game on the shipped content (the battlefield
    holds threats then), as JSON gives it back."""
    game = UnstoppableGame()
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while not (state.turn == turn and state.current_player() == 0 and state.decision().kind == "main phase"):
        assert not state.is_terminal(), f"the game ended before turn {turn}"
        legal = state.legal_actions()
        state.apply_action(state.sample_chance(rng) if state.current_player() < 0 else legal[0])
    data: dict[str, Any] = json.loads(json.dumps(state.to_dict()))
    return data


def refused_field(data: dict[str, Any]) -> str:
    """The field `state_from_dict` names refusing `data` (StateFormatError, never another error)."""
    with pytest.raises(StateFormatError) as error:
        UnstoppableGame().state_from_dict(data)
    return error.value.field


def test_a_threat_with_lethal_damage_and_no_defeat_pending_is_refused() -> None:
    """ "the threat is defeated once its damage reaches its health" (rules.py `_deal_damage`; the defeat is an
    automatic step that resolves at once): a battlefield threat carrying its health in damage, with no defeat of it
    pending, cannot happen."""
    data = position_of_a_random_game(turn=2)
    state = UnstoppableGame().state_from_dict(data)
    sleeve = state.battlefield[0]
    assert data["sleeves"][sleeve]["damage"] == 0
    data["sleeves"][sleeve]["damage"] = threat_health(state, sleeve)
    assert refused_field(data) == f"sleeves[{sleeve}].damage"
    data["sleeves"][sleeve]["damage"] = threat_health(state, sleeve) - 1  # one short of it: a position play reaches
    assert UnstoppableGame().state_from_dict(data).sleeves[sleeve].damage == threat_health(state, sleeve) - 1


def test_a_danger_marker_that_disagrees_with_the_turn_is_refused() -> None:
    """ "Advance the danger marker 1 space on the danger track" in each Cleanup Phase, skipping the difficulty's
    spaces: in the Main Phase of turn 3 the marker has advanced twice. Another space, or another turn with the same
    space, is refused naming the danger."""
    data = position_of_a_random_game(turn=3)
    spaces = danger_spaces(UnstoppableGame())
    assert data["danger"] == spaces[2]
    for edit in ({"danger": spaces[3]}, {"danger": spaces[1]}, {"turn": 4}, {"turn": 2}):
        assert refused_field({**data, **edit}) == "danger", edit


def test_more_decisions_than_a_game_lasts_is_refused() -> None:
    """A game lasts at most the spec's `max_game_length` decisions (RULES.md, "State dicts"): a count of 10**9 is
    refused naming it; the bound itself is accepted."""
    data = position_of_a_random_game(turn=2)
    assert refused_field({**data, "decisions": 10**9}) == "decisions"
    bound = UnstoppableGame().spec.max_game_length
    assert UnstoppableGame().state_from_dict({**data, "decisions": bound}).decisions == bound


def test_a_card_count_past_a_machine_word_is_refused_naming_it() -> None:
    """A core deck holding 10**40 copies of a card is refused naming that count (it raised OverflowError when the
    deck's size was taken)."""
    data = position_of_a_random_game(turn=2)
    name = next(iter(data["core_decks"][0]["unknown"]))
    for count in (10**40, 2**63):
        data["core_decks"][0]["unknown"][name] = count
        assert refused_field(data) == f"core_decks[0].unknown.{name}"
