"""Unstoppable's invariants of a position, for the random simulations and `benchmarks.state_fuzz --invariants`."""

from __future__ import annotations

import numpy as np

from envs.core.game import State
from envs.unstoppable.rules import UnstoppableState
from tests.unstoppable.reference_observer import ReferenceUnstoppableObserver


def state_invariants(state: State) -> None:
    """The position can happen (`validate`: every card once, every sleeve in one zone, the mat's ranges, the stack)
    and the fast observer's tensor equals the reference observer's (no cache outlives what it was built from)."""
    assert isinstance(state, UnstoppableState)
    state.validate()
    game = state.game
    fast = game.observer(0).tensor(state)
    assert np.array_equal(fast, ReferenceUnstoppableObserver(game).tensor(state)), "the observer's tensor is stale"
