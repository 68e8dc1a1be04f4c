"""Which frames may sit above which on a saved position's stack: every impossible order is refused naming the frame.

Setup runs in the rulebook's order: the market is filled ("Reveal the top 6 cards of the deck"), then "Starting
Hand: Draw 3 cards from your deck", then "Battlefield: Take 3 cards from your deck", and the card now on top of the
deck is the on-deck threat ("The threat that is now revealed on top of your deck becomes the new on-deck threat").
A turn runs its phases A. Upkeep to E. Cleanup in order. So the pending steps of setup and of the turn are the
bottom of the stack, the next one on top, and every frame a step or a card pushes sits above them.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from envs.core.game import StateFormatError
from envs.unstoppable.cards import MAX_LEVEL
from envs.unstoppable.state import MARKET_SIZE
from tests.unstoppable.scenarios import MAIN_PHASE_STACK, rules_game, scenario_dict

THREATS = ["Rust Golem", "Ash Wyrm", "Neon Cutthroat"]


def frame(kind: str, seat: int = -1, **details: Any) -> dict[str, Any]:
    """A saved frame (a chance event unless a seat is given)."""
    return {"seat": seat, "kind": kind, "reason": "", "details": details}


def setup_stack() -> list[dict[str, Any]]:
    """Setup's frames before its first draw, written out, bottom of the stack first (the next draw last)."""
    return [
        frame("start turn", seat=0),
        frame("reveal on-deck threat"),
        *(frame("deal", to="battlefield") for _ in range(3)),
        *(frame("deal", to="hand") for _ in range(3)),
        *(frame("reveal upgrade", slot=slot) for slot in reversed(range(MARKET_SIZE))),
        *(frame("reveal core", level=level) for level in reversed(range(1, MAX_LEVEL + 1))),
    ]


def before_setup(stack: list[dict[str, Any]]) -> dict[str, Any]:
    """The table before setup's first draw, with `stack` as its pending frames."""
    data: dict[str, Any] = json.loads(json.dumps(rules_game().new_initial_state().to_dict()))
    data["stack"] = stack
    return data


def refused_field(data: dict[str, Any]) -> str:
    """The field `state_from_dict` names in refusing `data`."""
    with pytest.raises(StateFormatError) as error:
        rules_game().state_from_dict(data)
    return error.value.field


def test_setup_written_out_in_the_rulebooks_order_is_accepted() -> None:
    """Setup's draws written by hand in the rulebook's order load as the game's own table before setup."""
    state = rules_game().state_from_dict(before_setup(setup_stack()))
    assert state.to_dict() == rules_game().new_initial_state().to_dict()


def test_the_on_deck_reveal_above_the_deals_is_refused() -> None:
    """The on-deck threat is the card on top once the hand and the battlefield are dealt: its reveal pending above a
    deal (which would then take the revealed card, leaving the deck without an on-deck threat) is refused, and so is
    a market slot revealed after the deals, naming the frame out of place."""
    stack = setup_stack()
    reveal, market = 1, 8  # the on-deck reveal; the market's last slot, just above the deals
    stack[reveal], stack[market] = stack[market], stack[reveal]
    assert refused_field(before_setup(stack)) == f"stack[{reveal}].kind"
    reveal_above_deals = setup_stack()
    reveal_above_deals.insert(8, reveal_above_deals.pop(reveal))
    assert refused_field(before_setup(reveal_above_deals)) == "stack[1].kind"


def test_a_setup_draw_outside_setup_is_refused() -> None:
    """A deal belongs to setup only: pending in the Main Phase of a turn it is refused, as a turn step is above a
    card's frames."""
    main_phase = scenario_dict(hand=["Strike"], battlefield=THREATS, deck=["Strike", "Strike"])
    dealt = json.loads(json.dumps(main_phase))
    dealt["stack"].insert(2, frame("deal", to="hand"))
    assert refused_field(dealt) == "stack[2].kind"
    step_on_top = json.loads(json.dumps(main_phase))
    step_on_top["stack"].append(frame("main start", seat=0))
    assert refused_field(step_on_top) == "stack[3].kind"


def test_a_turn_with_a_phase_missing_is_refused() -> None:
    """The Main Phase's turn still has its Threat and Cleanup Phases pending beneath it: one missing is refused."""
    main_phase = scenario_dict(hand=["Strike"], battlefield=THREATS, deck=["Strike", "Strike"])
    assert [frame["kind"] for frame in main_phase["stack"]] == [frame["kind"] for frame in MAIN_PHASE_STACK]
    no_threat_phase = json.loads(json.dumps(main_phase))
    del no_threat_phase["stack"][1]
    assert refused_field(no_threat_phase) == "stack[1].kind"


def test_an_on_deck_reveal_beneath_another_frame_is_refused() -> None:
    """A card leaving the top of the deck reveals the next at once ("The threat that is now revealed on top of your
    deck becomes the new on-deck threat"): that reveal pending beneath a decision is refused."""
    main_phase = scenario_dict(hand=["Strike"], battlefield=THREATS, deck=["Strike", "Strike"])
    data = json.loads(json.dumps(main_phase))
    deck = data["deck"]
    deck["unknown"], deck["top"] = sorted([*deck["unknown"], *deck["top"]]), []  # the next card not revealed yet
    data["stack"].insert(2, frame("reveal on-deck threat"))
    assert refused_field(data) == "stack[2].kind"
    shown = json.loads(json.dumps(main_phase))
    shown["stack"].append(frame("reveal on-deck threat"))
    assert refused_field(shown) == "deck"  # the deck shows its top card: there is nothing left to reveal
