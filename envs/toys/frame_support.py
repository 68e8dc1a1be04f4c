"""What the frame-engine toys (tug, party, spellbook) share: codecs for their fields and a small observer.

The toys declare their state on `StateRecord` like the games do, with the record module's codecs (`INTS`,
`INT_ROWS` and `DecisionStackCodec` for their frame stacks).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from envs.core.game import Observer, State, StateFormatError
from envs.core.record import IntCodec, ListOf, NameTables

NO_NAMES = NameTables({})
"""The toys index no named content."""


INTS = ListOf(IntCodec())
"""A tuple of integers, saved as a list (envs.core.record)."""
INT_ROWS = ListOf(ListOf(IntCodec()))
"""A tuple of tuples of integers, saved as nested lists."""


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
