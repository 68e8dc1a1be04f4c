"""Random-simulation checker on Unbroken: thousands of random legal games, invariants after every step."""

from __future__ import annotations

import numpy as np
import pytest

from envs.core.game import State
from envs.core.testing import random_simulation
from envs.unbroken.game import UnbrokenGame
from envs.unbroken.rules import UnbrokenState

GAMES_PER_SETTING = 170
"""6 settings (2 presets x 3 difficulties) x 170 = 1,020 games per CI run."""
SEEDS = {"easy": 11, "normal": 12, "hard": 13}


def state_invariants(state: State) -> None:
    """The position can happen (UnbrokenState.validate: bars, card conservation, monsters, battle figures...) and the
    state's caches agree with a fresh computation (state.py: caches check their sources by identity)."""
    assert isinstance(state, UnbrokenState)
    state.validate()
    fresh = state.clone()
    fresh.modifier_cache = fresh.deck_view_cache = None
    assert state.modifier_totals() == fresh.modifier_totals(), "stale modifier totals"
    if not state.is_terminal():
        observer = state.game.observer(0)
        assert np.array_equal(observer.tensor(state), observer.tensor(fresh)), "stale deck view"


@pytest.mark.parametrize("preset", ["english", "spanish"])
@pytest.mark.parametrize("difficulty", ["easy", "normal", "hard"])
def test_random_games_keep_invariants(preset: str, difficulty: str) -> None:
    """Every step of random play keeps the invariants; every game ends within the spec's maximum length."""
    game = UnbrokenGame(difficulty=difficulty, preset=preset)
    report = random_simulation(
        game,
        GAMES_PER_SETTING,
        seed=SEEDS[difficulty] + (100 if preset == "spanish" else 0),
        invariants=(state_invariants,),
        check_roundtrip_every=11,
    )
    assert report.games == GAMES_PER_SETTING
    assert report.longest <= game.spec.max_game_length
    assert set(report.returns) <= {-1.0, 1.0}
