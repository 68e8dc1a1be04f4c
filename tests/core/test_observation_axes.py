"""Axis roles of observation views (envs/core/observation.py): declared with the layout, checked, read generically."""

from __future__ import annotations

import math

import numpy as np
import pytest

from envs.core.game import Observer, State
from envs.core.observation import ENTITY, FEATURE, GRID, SEAT, ObservationLayout, observer_view_axes
from envs.unbroken.game import UnbrokenGame
from envs.unearth.game import UnearthGame


class UndeclaredObserver(Observer):
    """An observer that declares shapes but no axis roles."""

    def __init__(self) -> None:
        layout = ObservationLayout()
        layout.add("score", 3)
        layout.add("board", (2, 4, 5))
        self.size = layout.size
        self.views = layout.views
        self.view_shapes = layout.shapes

    def tensor(self, state: State) -> np.ndarray:
        """Unused here."""
        raise NotImplementedError

    def text(self, state: State) -> str:
        """Unused here."""
        raise NotImplementedError


def test_layout_records_each_views_axis_roles() -> None:
    """Roles given with the view are kept; a view given none is features only; slices are unchanged by roles."""
    layout = ObservationLayout()
    assert layout.add("score", 3) == slice(0, 3)
    assert layout.add("boards", (2, 3, 3, 4), (SEAT, GRID, GRID, FEATURE)) == slice(3, 75)
    assert layout.add("cards", (5, 6), [ENTITY, FEATURE]) == slice(75, 105)
    assert layout.add("dice", (2, 3, 4), (SEAT, ENTITY, FEATURE)) == slice(105, 129)
    assert layout.axes == {
        "score": (FEATURE,),
        "boards": (SEAT, GRID, GRID, FEATURE),
        "cards": (ENTITY, FEATURE),
        "dice": (SEAT, ENTITY, FEATURE),
    }


@pytest.mark.parametrize(
    ("shape", "axes", "message"),
    [
        ((2, 3), (SEAT,), "1 axis roles"),
        ((2, 3), (SEAT, "colour"), "unknown axis roles \\['colour'\\]"),
        ((2, 3), (FEATURE, SEAT), "the seat axis must be one and the first"),
        ((2, 3), (SEAT, SEAT), "the seat axis must be one and the first"),
        ((2, 3, 4), (SEAT, FEATURE, ENTITY), "the entity axis must be one and the first after the seat's"),
        ((2, 3), (ENTITY, ENTITY), "the entity axis must be one"),
    ],
)
def test_layout_refuses_roles_that_do_not_fit_the_shape(shape: tuple[int, ...], axes: tuple, message: str) -> None:
    with pytest.raises(ValueError, match=f"observation view 'x': {message}"):
        ObservationLayout().add("x", shape, axes)


def test_an_observer_without_roles_reads_as_features_only() -> None:
    assert observer_view_axes(UndeclaredObserver()) == {"score": (FEATURE,), "board": (FEATURE, FEATURE, FEATURE)}


def test_unearth_declares_its_seat_and_entity_views() -> None:
    """Per-seat blocks carry the seat axis, the table of Ruin places and each seat's dice the entity axis."""
    observer = UnearthGame(num_players=3).observer(1)
    axes = observer_view_axes(observer)
    assert axes["tableaus"] == (SEAT, GRID, GRID, FEATURE)
    assert axes["dice"] == (SEAT, ENTITY, FEATURE)
    assert axes["table"] == (ENTITY, FEATURE)
    assert axes["wonders"] == axes["claimed"] == (SEAT, FEATURE)
    assert axes["hand_sizes"] == axes["seats_present"] == (SEAT,)
    assert axes["hand"] == (FEATURE,)
    assert list(axes) == list(observer.views)


def test_unbroken_declares_its_card_tables_without_moving_a_view() -> None:
    """The revealed encounter cards and the skill offer are tables of entities; every view keeps its flat slice."""
    observer = UnbrokenGame().observer(0)
    axes = observer_view_axes(observer)
    assert axes["revealed_cards"] == axes["skill_offer"] == (ENTITY, FEATURE)
    assert {name: roles for name, roles in axes.items() if roles != (FEATURE,)} == {
        "revealed_cards": (ENTITY, FEATURE),
        "skill_offer": (ENTITY, FEATURE),
    }
    for name, part in observer.views.items():
        assert math.prod(observer.view_shapes[name]) == part.stop - part.start
