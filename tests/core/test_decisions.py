"""The pending-decision stack pattern (envs/core/decisions.py): who decides, in which order, and response windows.

The multi-player platform issue: "A documented pending-decision stack pattern (each frame says who decides, what kind
of decision and why), with a response window that is offered to a non-acting seat only when it has a legal option
other than passing."
"""

from __future__ import annotations

import json

import pytest

from envs.core.decisions import (
    DecisionFrame,
    deciding_seat,
    pop,
    push,
    response_window,
    stack_from_list,
    stack_to_list,
)
from envs.core.game import CHANCE, StateFormatError


def test_the_last_pushed_frame_is_decided_first() -> None:
    """A rule that needs several decisions pushes them; the seat to act is the top frame's, mid-turn included."""
    stack = push((), DecisionFrame(0, "play a card", "turn"))
    stack = push(stack, DecisionFrame(2, "place a stone", "forced reroll", (("die", 4),)))
    assert deciding_seat(stack) == 2
    frame, stack = pop(stack)
    assert (frame.seat, frame.kind, frame.detail("die")) == (2, "place a stone", 4)
    assert deciding_seat(stack) == 0
    _, stack = pop(stack)
    assert deciding_seat(stack) is None
    with pytest.raises(IndexError):
        pop(stack)


def test_response_window_asks_only_seats_with_a_real_option() -> None:
    """Seats are asked in turn order after the acting seat, and only those that can do more than pass."""
    can_respond = {0: True, 1: False, 2: True, 3: True}
    frames = response_window(2, 4, lambda seat: can_respond[seat], "respond", "card played")
    assert [frame.seat for frame in frames] == [3, 0]
    assert response_window(1, 3, lambda seat: False, "respond") == []


def test_stack_saves_as_json_and_loads_back() -> None:
    """A state holding the stack saves it as a list of dicts and rebuilds the same frames (details kept sorted)."""
    stack = (DecisionFrame(1, "choose", "card", (("b", 2), ("a", (1, 2)))),)
    data = json.loads(json.dumps(stack_to_list(stack)))
    again = stack_from_list(data)
    assert again == stack
    assert again[0].seat == 1 and again[0].detail("b") == 2 and again[0].detail("a") == (1, 2)


def test_tuples_in_details_survive_json() -> None:
    """Issue 19, "Frames survive JSON": JSON writes a tuple as a list; the loaded frame holds tuples again (nested
    ones too), so it equals the saved frame and hashes (frames are cached and compared by value)."""
    frame = DecisionFrame(CHANCE, "roll", "expedition", (("dice", ((0, 3), (1, 5))), ("seat", 2), ("none", None)))
    saved = json.loads(json.dumps(frame.to_dict()))
    assert saved["details"]["dice"] == [[0, 3], [1, 5]]  # what JSON gives back
    loaded = DecisionFrame.from_dict(saved)
    assert loaded == frame and hash(loaded) == hash(frame)
    assert loaded.detail("dice") == ((0, 3), (1, 5)) and type(loaded.detail("dice")[0]) is tuple
    assert stack_from_list(json.loads(json.dumps(stack_to_list((frame, frame))))) == (frame, frame)


@pytest.mark.parametrize(
    ("details", "field"),
    [
        ({"card": {"name": "x"}}, r"decisions\[0\]\.details\.card"),
        ({"dice": [1, {"die": 2}]}, r"decisions\[0\]\.details\.dice\[1\]"),
        ({3: "x"}, r"decisions\[0\]\.details"),
    ],
)
def test_unhashable_details_name_the_field(details: dict, field: str) -> None:
    """A detail that no frame can hold (a mapping: the frame would not hash) or a name that is not a string raises
    StateFormatError naming the detail."""
    with pytest.raises(StateFormatError, match=field):
        stack_from_list([{"seat": 0, "kind": "k", "details": details}])


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"decisions": "x"}, "decisions"),
        ({"decisions": [{"seat": -3, "kind": "k"}]}, r"decisions\[0\].seat"),
        ({"decisions": [{"seat": 0, "kind": ""}]}, r"decisions\[0\].kind"),
        ({"decisions": [{"seat": 0, "kind": "k", "why": "?"}]}, r"decisions\[0\]"),
        ({"decisions": [{"seat": 0, "kind": "k", "reason": None}]}, r"decisions\[0\].reason"),
    ],
)
def test_bad_frames_name_the_field(data: dict, field: str) -> None:
    """A bad saved stack raises StateFormatError naming the frame's field."""
    with pytest.raises(StateFormatError, match=field):
        stack_from_list(data["decisions"])
