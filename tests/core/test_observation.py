"""ObservationLayout and Observer.view: views carry a shape; observers that declare none keep flat vectors."""

from __future__ import annotations

import numpy as np
import pytest

from envs.core.game import Observer, State
from envs.core.observation import ObservationLayout
from envs.toys.card_duel import CardDuelGame


class GridObserver(Observer):
    """An observer with a vector view and a stack of planes, laid out by ObservationLayout."""

    def __init__(self) -> None:
        layout = ObservationLayout()
        layout.add("score", 3)
        layout.add("board", (2, 4, 5))
        self.layout = layout
        self.size = layout.size
        self.views = layout.views
        self.view_shapes = layout.shapes

    def tensor(self, state: State) -> np.ndarray:
        """Unused here."""
        raise NotImplementedError

    def text(self, state: State) -> str:
        """Unused here."""
        raise NotImplementedError


def test_layout_records_shapes_and_flat_lengths() -> None:
    """An int is a vector; a tuple is a shape whose product is the flat length; views stay contiguous."""
    layout = ObservationLayout()
    assert layout.add("a", 4) == slice(0, 4)
    assert layout.add("grid", (3, 2, 2)) == slice(4, 16)
    assert layout.add("b", (1,)) == slice(16, 17)
    assert layout.size == 17
    assert layout.shapes == {"a": (4,), "grid": (3, 2, 2), "b": (1,)}
    assert layout.describe() == [("a", 0, 4), ("grid", 4, 16), ("b", 16, 17)]


@pytest.mark.parametrize("bad", [(), (2, -1), (2.0, 3), -1, (True, 2)])
def test_layout_refuses_bad_shapes(bad: object) -> None:
    """A shape is a length or a non-empty tuple of ints >= 0."""
    with pytest.raises(ValueError, match="shape"):
        ObservationLayout().add("x", bad)  # type: ignore[arg-type]


def test_layout_refuses_a_name_twice() -> None:
    """Each view name is defined once."""
    layout = ObservationLayout()
    layout.add("x", 2)
    with pytest.raises(ValueError, match="defined twice"):
        layout.add("x", (1, 2))


def test_split_writes_through_the_names() -> None:
    """`split` gives reshaped views of the flat vector: writing a view writes the observation."""
    layout = ObservationLayout()
    layout.add("v", 2)
    layout.add("m", (2, 3))
    obs = layout.zeros()
    parts = layout.split(obs)
    parts["m"][1, 2] = 1.0
    parts["v"][0] = 0.5
    assert obs.tolist() == [0.5, 0, 0, 0, 0, 0, 0, 1.0]


def test_observer_view_reshapes_to_the_view_shape() -> None:
    """`Observer.view` returns the named part with its shape, for one observation or a batch."""
    observer = GridObserver()
    obs = np.arange(observer.size, dtype=np.float32)
    board = observer.view(obs, "board")
    assert board.shape == (2, 4, 5)
    assert board[1, 0, 0] == 3 + 20
    assert observer.view(obs, "score").tolist() == [0.0, 1.0, 2.0]
    batch = np.stack([obs, obs + 100])
    assert observer.view(batch, "board").shape == (2, 2, 4, 5)
    assert observer.view(batch, "board")[1, 1, 0, 0] == 123


def test_observers_without_shapes_keep_flat_views() -> None:
    """An observer that declares no shapes (the toy's hand-made `views`) gets each view as a vector."""
    observer = CardDuelGame(num_players=3).observer(1)
    assert observer.view_shapes["trick"] == (observer.views["trick"].stop - observer.views["trick"].start,)
    obs = np.zeros(observer.size, dtype=np.float32)
    assert observer.view(obs, "hand").shape == (20,)
