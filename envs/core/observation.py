"""Layout of a flat float32 observation made of named views, each with a shape (a vector, a grid, a stack of planes)
and a role for each axis of the shape (what the axis counts: seats, entities such as cards, grid cells, features).

Axis roles tell generic encoders how to read a view without knowing the game: a view whose first axis is the seat
holds one block per seat (encoded by weights shared by the seats); a view whose first axis is an entity is a table
of like things, one row each (cards on a table, dice), which an encoder may read in any order; grid axes index cells
of a board; feature axes are plain values. A view declared without roles is features only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from envs.core.game import Observer

SEAT = "seat"
"""An axis over the seats: one block per seat (seat-relative or absolute, as the observer documents)."""
ENTITY = "entity"
"""An axis over like things read the same way (cards, dice, table places): one row per thing, order not meant."""
GRID = "grid"
"""An axis over the cells of a board (a 2-D board has two: rows and columns)."""
FEATURE = "feature"
"""An axis over plain values (one-hot slots, counts, fractions)."""
AXIS_ROLES = (SEAT, ENTITY, GRID, FEATURE)
"""Every role an axis of a view may have."""


def view_shape(length_or_shape: int | tuple[int, ...]) -> tuple[int, ...]:
    """A view's shape from an int (a vector of that length) or a tuple of positive dimensions."""
    shape = (length_or_shape,) if isinstance(length_or_shape, int) else tuple(length_or_shape)
    if not shape or any(isinstance(d, bool) or not isinstance(d, int) or d < 0 for d in shape):
        raise ValueError(f"a view's shape is a length or a tuple of lengths >= 0, got {length_or_shape!r}")
    return shape


def view_axes(name: str, shape: tuple[int, ...], axes: Sequence[str] | None) -> tuple[str, ...]:
    """The roles of the axes of view `name` (all FEATURE when None); ValueError naming the view when they do not fit.

    One role per axis, each one of AXIS_ROLES; the seat axis, if any, comes first (each seat's block contiguous) and
    the entity axis, if any, first after it (each entity's row contiguous); at most one of each.
    """
    if axes is None:
        return (FEATURE,) * len(shape)
    roles = tuple(axes)
    if len(roles) != len(shape):
        raise ValueError(f"observation view {name!r}: {len(roles)} axis roles {roles} for the shape {shape}")
    unknown = [role for role in roles if role not in AXIS_ROLES]
    if unknown:
        raise ValueError(f"observation view {name!r}: unknown axis roles {unknown}; roles are {AXIS_ROLES}")
    if roles.count(SEAT) > 1 or (SEAT in roles and roles[0] != SEAT):
        raise ValueError(f"observation view {name!r}: the seat axis must be one and the first, got {roles}")
    first_after_seat = 1 if roles[0] == SEAT else 0
    if roles.count(ENTITY) > 1 or (ENTITY in roles and roles.index(ENTITY) != first_after_seat):
        raise ValueError(
            f"observation view {name!r}: the entity axis must be one and the first after the seat's, got {roles}"
        )
    return roles


class ObservationLayout:
    """Named, contiguous views into one flat float32 vector; build once per game, reuse every step.

    A view has a shape (`shapes[name]`): its flat length is the product of the dimensions, and `Observer.view`
    hands it back reshaped (e.g. a stack of board planes as `(seats, rows, cols, planes)`), and a role per axis
    (`axes[name]`, e.g. `(SEAT, GRID, GRID, FEATURE)`). An observer passes both on as `view_shapes` and `view_axes`.
    """

    def __init__(self) -> None:
        self.views: dict[str, slice] = {}
        self.shapes: dict[str, tuple[int, ...]] = {}
        self.axes: dict[str, tuple[str, ...]] = {}
        self.size = 0

    def add(self, name: str, length_or_shape: int | tuple[int, ...], axes: Sequence[str] | None = None) -> slice:
        """Append a view of `length_or_shape` (a length, or a shape whose product is the length) whose axes have the
        roles `axes` (see `view_axes`; None: features only); return its slice."""
        if name in self.views:
            raise ValueError(f"observation view {name!r} defined twice")
        shape = view_shape(length_or_shape)
        roles = view_axes(name, shape, axes)
        length = math.prod(shape)
        view = slice(self.size, self.size + length)
        self.views[name] = view
        self.shapes[name] = shape
        self.axes[name] = roles
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


def observer_view_axes(observer: Observer) -> dict[str, tuple[str, ...]]:
    """The axis roles of every view of an observer (`view_shapes` order): its `view_axes` where it declares them
    (observers built on an ObservationLayout pass on `layout.axes`), else features only; checked as `view_axes`."""
    declared: dict[str, Sequence[str]] = getattr(observer, "view_axes", None) or {}
    return {name: view_axes(name, shape, declared.get(name)) for name, shape in observer.view_shapes.items()}
