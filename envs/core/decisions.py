"""The pending-decision stack: who decides next, what kind of decision, and why.

Multi-player rules interleave decisions: a card played in a turn asks its target to choose, an effect asks another
seat to respond, a forced reroll's owner places a stone in the middle of someone else's turn. Games keep those
decisions as a stack of frames in their state. The frame on top says whose decision the state is waiting for
(`current_player()` returns its seat), what kind of decision it is (which action group `legal_actions()` offers)
and why (the card or rule that opened it, for labels, observations and debugging). A decision that falls to
another seat mid-turn is simply that seat acting: the adapters follow `current_player()`, so nothing else changes.

Resolving the top frame pops it; a rule that needs more decisions pushes frames (the last pushed is decided
first). The stack is a tuple of frozen frames, so a state that holds it clones by sharing it and saves it as a
list of dicts.

A response window (a chance for seats other than the acting one to react, e.g. to play a card in reply) is offered
only to seats that have a legal option other than passing (`response_window`): asking a seat that can only pass
would add decisions that carry no choice, lengthen episodes and teach learners nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from envs.core.game import CHANCE, StateFormatError


@dataclass(frozen=True)
class DecisionFrame:
    """One pending decision: the seat that decides, the kind of decision, why it was asked, and its details."""

    seat: int
    """The deciding seat, or `CHANCE` for a frame that waits for a chance outcome (a draw, a roll)."""
    kind: str
    """Which decision (the game's word, e.g. "choose a target", "place a stone"): picks the legal action group."""
    reason: str = ""
    """What opened it (a card, a rule), for labels and debugging."""
    details: tuple[tuple[str, Any], ...] = field(default=())
    """Game-specific arguments of the decision as (name, value) pairs (hashable, JSON-able values), kept sorted."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "details", tuple(sorted(self.details)))

    def detail(self, name: str, default: Any = None) -> Any:
        """One of the frame's details by name."""
        for key, value in reversed(self.details):  # a few pairs: a scan beats building a dict (the last pair wins)
            if key == name:
                return value
        return default

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict of the frame."""
        return {"seat": self.seat, "kind": self.kind, "reason": self.reason, "details": dict(self.details)}

    @classmethod
    def from_dict(cls, data: Any, field_name: str = "decisions") -> DecisionFrame:
        """A frame from `to_dict()` output; StateFormatError naming `field_name` when it is not one."""
        if not isinstance(data, Mapping) or set(data) - {"seat", "kind", "reason", "details"}:
            raise StateFormatError(field_name, f"a decision frame has seat, kind, reason and details, got {data!r}")
        seat, kind = data.get("seat"), data.get("kind")
        if isinstance(seat, bool) or not isinstance(seat, int) or (seat < 0 and seat != CHANCE):
            raise StateFormatError(f"{field_name}.seat", f"expected a seat number or CHANCE ({CHANCE}), got {seat!r}")
        if not isinstance(kind, str) or not kind:
            raise StateFormatError(f"{field_name}.kind", f"expected the kind of decision, got {kind!r}")
        reason = data.get("reason", "")
        if not isinstance(reason, str):
            raise StateFormatError(f"{field_name}.reason", f"expected the text of why it was asked, got {reason!r}")
        details = data.get("details", {})
        if not isinstance(details, Mapping):
            raise StateFormatError(f"{field_name}.details", f"expected a mapping, got {details!r}")
        for name in details:
            if not isinstance(name, str):
                raise StateFormatError(f"{field_name}.details", f"detail names are strings, got {name!r}")
        # JSON writes a tuple as a list: load lists back as tuples, so that the frame equals the one saved and hashes.
        loaded = tuple((name, _detail_value(value, f"{field_name}.details.{name}")) for name, value in details.items())
        return cls(seat, kind, reason, loaded)


def _detail_value(value: Any, field_name: str) -> Any:
    """A saved detail value with every list turned into a tuple (recursively); StateFormatError naming the field for
    a value that no frame holds (a mapping or an object that is not plain JSON, which would make the frame
    unhashable)."""
    if isinstance(value, list | tuple):
        return tuple(_detail_value(item, f"{field_name}[{i}]") for i, item in enumerate(value))
    if value is None or isinstance(value, bool | int | float | str):
        return value
    raise StateFormatError(field_name, f"expected a number, a string, null or a list of them, got {value!r}")


DecisionStack = tuple[DecisionFrame, ...]
"""Pending decisions, the one to decide now last."""


def push(stack: DecisionStack, *frames: DecisionFrame) -> DecisionStack:
    """The stack with `frames` added; the last one given is decided first."""
    return (*stack, *frames)


def pop(stack: DecisionStack) -> tuple[DecisionFrame, DecisionStack]:
    """The frame decided now and the stack without it."""
    if not stack:
        raise IndexError("no pending decision to resolve")
    return stack[-1], stack[:-1]


def deciding_seat(stack: DecisionStack) -> int | None:
    """The seat whose decision the stack waits for (None when nothing is pending)."""
    return stack[-1].seat if stack else None


def response_window(
    acting_seat: int, num_seats: int, has_option: Callable[[int], bool], kind: str, reason: str = ""
) -> list[DecisionFrame]:
    """Frames that ask the other seats, in turn order after the acting one, to respond, for those seats only that
    have a legal option besides passing (`has_option(seat)`). Push them reversed so the next seat answers first."""
    seats = [(acting_seat + offset) % num_seats for offset in range(1, num_seats)]
    return [DecisionFrame(seat, kind, reason) for seat in seats if has_option(seat)]


def stack_to_list(stack: Iterable[DecisionFrame]) -> list[dict[str, Any]]:
    """A JSON-able list of the frames, bottom first."""
    return [frame.to_dict() for frame in stack]


def stack_from_list(data: Any, field_name: str = "decisions") -> DecisionStack:
    """A stack from `stack_to_list()` output; StateFormatError naming the field on bad input."""
    if not isinstance(data, list):
        raise StateFormatError(field_name, f"expected a list of decision frames, got {data!r}")
    return tuple(DecisionFrame.from_dict(item, f"{field_name}[{i}]") for i, item in enumerate(data))
