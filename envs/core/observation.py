"""Layout of a flat float32 observation made of named views."""

from __future__ import annotations

import numpy as np


class ObservationLayout:
    """Named, contiguous views into one flat float32 vector; build once per game, reuse every step."""

    def __init__(self) -> None:
        self.views: dict[str, slice] = {}
        self.size = 0

    def add(self, name: str, length: int) -> slice:
        """Append a view of `length` floats and return its slice."""
        if name in self.views:
            raise ValueError(f"observation view {name!r} defined twice")
        view = slice(self.size, self.size + length)
        self.views[name] = view
        self.size += length
        return view

    def zeros(self) -> np.ndarray:
        """A fresh zero observation."""
        return np.zeros(self.size, dtype=np.float32)

    def describe(self) -> list[tuple[str, int, int]]:
        """(name, start, stop) of every view, in order: the documented layout."""
        return [(name, s.start, s.stop) for name, s in self.views.items()]
