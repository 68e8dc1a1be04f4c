"""What the frame-engine toys (tug, party, spellbook) share: codecs for their fields and a small observer.

The toys declare their state on `StateRecord` like the games do; these codecs cover the two field shapes they use
that the record module leaves to games: nested tuples of integers and the frame stack.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from envs.core.decisions import stack_from_list, stack_to_list
from envs.core.game import Observer, State, StateFormatError
from envs.core.record import FieldCodec, NameTables

NO_NAMES = NameTables({})
"""The toys index no named content."""


class IntTuples(FieldCodec):
    """Integers nested `depth` levels deep in tuples (depth 1: a tuple of ints), saved as nested lists."""

    def __init__(self, depth: int = 1) -> None:
        self.depth = depth

    def encode(self, value: Any, tables: NameTables) -> Any:
        """Nested lists of the integers."""
        return _lists(value, self.depth)

    def decode(self, value: Any, tables: NameTables, field: str) -> Any:
        """Nested tuples of the integers; StateFormatError naming the entry that is not one."""
        return _tuples(value, self.depth, field)


def _lists(value: Any, depth: int) -> Any:
    return [int(item) if depth == 1 else _lists(item, depth - 1) for item in value]


def _tuples(value: Any, depth: int, field: str) -> Any:
    if not isinstance(value, list | tuple):
        raise StateFormatError(field, f"expected a list, got {value!r}")
    if depth > 1:
        return tuple(_tuples(item, depth - 1, f"{field}[{i}]") for i, item in enumerate(value))
    for i, item in enumerate(value):
        if isinstance(item, bool) or not isinstance(item, int):
            raise StateFormatError(f"{field}[{i}]", f"expected an integer, got {item!r}")
    return tuple(value)


class StackCodec(FieldCodec):
    """The frame stack, saved as a list of frame dicts (bottom first)."""

    def encode(self, value: Any, tables: NameTables) -> Any:
        """A list of frame dicts."""
        return stack_to_list(value)

    def decode(self, value: Any, tables: NameTables, field: str) -> Any:
        """The frames; StateFormatError naming the frame that is not one."""
        return stack_from_list(value, field)


def check_per_seat(values: Sequence[Any], num_seats: int, field: str) -> None:
    """One entry per seat; StateFormatError naming the field otherwise."""
    if len(values) != num_seats:
        raise StateFormatError(field, f"expected one entry per seat ({num_seats}), got {len(values)}")


def check_range(value: int, low: int, high: int, field: str) -> None:
    """`low <= value <= high`; StateFormatError naming the field otherwise."""
    if not low <= value <= high:
        raise StateFormatError(field, f"expected {low}..{high}, got {value}")


Features = Callable[[State, int | None], Mapping[str, Sequence[float]]]
"""The values of each view for one seat (None: the public view)."""


class FeatureObserver(Observer):
    """An observer over named views of fixed widths, filled by the toy's `features` function; its text lists them."""

    def __init__(
        self, player: int | None, layout: Sequence[tuple[str, int]], features: Features, high: float = 10.0
    ) -> None:
        self.player = player
        self.features = features
        self.high = high
        self.low = -high
        self.views = {}
        start = 0
        for name, width in layout:
            self.views[name] = slice(start, start + width)
            start += width
        self.size = start

    def tensor(self, state: State) -> np.ndarray:
        """The views written by name."""
        out = np.zeros(self.size, dtype=np.float32)
        for name, values in self.features(state, self.player).items():
            part = self.views[name]
            out[part.start : part.start + len(values)] = values
        return out

    def text(self, state: State) -> str:
        """One line per view: its name and values."""
        who = "public" if self.player is None else f"seat {self.player}"
        lines = [f"{who}:"]
        lines += [f"  {name}: {list(values)}" for name, values in self.features(state, self.player).items()]
        return "\n".join(lines)
