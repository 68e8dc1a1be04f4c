"""Unstoppable's invariants of a position, for the random simulations and `benchmarks.state_fuzz --invariants`."""

from __future__ import annotations

import numpy as np

from envs.core.game import State
from envs.unstoppable.cards import SKIPPED_BORDER
from envs.unstoppable.effects import threat_health
from envs.unstoppable.rules import UnstoppableState
from envs.unstoppable.state import Kind, Phase
from tests.unstoppable.reference_observer import ReferenceUnstoppableObserver


def state_invariants(state: State) -> None:
    """The position can happen (`validate`: every card once, every sleeve in one zone, the mat's ranges, the stack),
    and, checked here apart from `validate`, the danger marker stands where the turns played put it, no threat in
    view carries the damage that defeats it without its defeat pending, the game is within its maximum length; and
    the fast observer's tensor equals the reference observer's (no cache outlives what it was built from)."""
    assert isinstance(state, UnstoppableState)
    state.validate()
    game = state.game
    assert state.danger == marker_space(state), f"danger {state.danger} on turn {state.turn} ({state.phase.name})"
    defeating = {frame.detail("sleeve") for frame in state.stack if frame.kind == Kind.DEFEAT}
    for sleeve in (*state.battlefield, *state.deck.top):
        damage = state.sleeves[sleeve].damage
        lethal = damage > 0 and damage >= threat_health(state, sleeve)
        assert not lethal or sleeve in defeating, f"sleeve {sleeve} carries lethal damage and is not being defeated"
    assert state.decisions <= game.spec.max_game_length, f"{state.decisions} decisions"
    fast = game.observer(0).tensor(state)
    assert np.array_equal(fast, ReferenceUnstoppableObserver(game).tensor(state)), "the observer's tensor is stale"


def marker_space(state: UnstoppableState) -> int:
    """Where the danger marker stands: advanced 1 space, skipping the difficulty's border, in each Cleanup Phase of
    the turns played (this turn's once its advance has left the stack)."""
    advanced_now = state.phase == Phase.CLEANUP and all(frame.kind != Kind.ADVANCE_DANGER for frame in state.stack)
    advances = 0 if state.phase == Phase.SETUP else state.turn - (0 if advanced_now else 1)
    track, skipped = state.game.boss.danger_track, SKIPPED_BORDER[state.game.difficulty]
    space = 0
    for _ in range(advances):
        space += 1
        while space < len(track) and track[space].border == skipped:
            space += 1
    return space
