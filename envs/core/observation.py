"""Layout of a flat float32 observation made of named views, each with a shape (a vector, a grid, a stack of planes)."""

from __future__ import annotations

import math

import numpy as np


def view_shape(length_or_shape: int | tuple[int, ...]) -> tuple[int, ...]:
    """A view's shape from an int (a vector of that length) or a tuple of positive dimensions."""
    shape = (length_or_shape,) if isinstance(length_or_shape, int) else tuple(length_or_shape)
    if not shape or any(isinstance(d, bool) or not isinstance(d, int) or d < 0 for d in shape):
        raise ValueError(f"a view's shape is a length or a tuple of lengths >= 0, got {length_or_shape!r}")
    return shape


class ObservationLayout:
    """Named, contiguous views into one flat float32 vector; build once per game, reuse every step.

    A view has a shape (`shapes[name]`): its flat length is the product of the dimensions, and `Observer.view`
    hands it back reshaped (e.g. a stack of tableau planes as `(seats, rows, cols, planes)`).
    """

    def __init__(self) -> None:
        self.views: dict[str, slice] = {}
        self.shapes: dict[str, tuple[int, ...]] = {}
        self.size = 0

    def add(self, name: str, length_or_shape: int | tuple[int, ...]) -> slice:
        """Append a view of `length_or_shape` (a length, or a shape whose product is the length); return its slice."""
        if name in self.views:
            raise ValueError(f"observation view {name!r} defined twice")
        shape = view_shape(length_or_shape)
        length = math.prod(shape)
        view = slice(self.size, self.size + length)
        self.views[name] = view
        self.shapes[name] = shape
        self.size += length
        return view

    def zeros(self) -> np.ndarray:
        """A fresh zero observation."""
        return np.zeros(self.size, dtype=np.float32)

    def split(self, observation: np.ndarray) -> dict[str, np.ndarray]:
        """Every view of a flat `observation` as a reshaped numpy view (writing to one writes the observation)."""
        return {name: observation[part].reshape(self.shapes[name]) for name, part in self.views.items()}

    def describe(self) -> list[tuple[str, int, int]]:
        """(name, start, stop) of every view, in order: the documented layout."""
        return [(name, s.start, s.stop) for name, s in self.views.items()]
