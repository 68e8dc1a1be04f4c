"""Random-simulation checker on Unbroken: thousands of random legal games, invariants after every step."""

from __future__ import annotations

import numpy as np
import pytest

from envs.core.game import State
from envs.core.testing import check_no_leak, check_resample_keeps_own_view, random_simulation
from envs.unbroken.game import UnbrokenGame
from envs.unbroken.observer import UnbrokenObserver
from envs.unbroken.rules import UnbrokenState
from envs.unbroken.state import Phase

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


class LeakyObserver(UnbrokenObserver):
    """Planted defect: shows this level's monster even while it is face down."""

    def tensor(self, state: State) -> np.ndarray:
        """The honest tensor plus the face-down monster's one-hot."""
        observation = super().tensor(state)
        assert isinstance(state, UnbrokenState)
        if state.monster() >= 0:
            observation[self.o_monster + state.monster()] = 1.0
        return observation


class ClairvoyantResampleState(UnbrokenState):
    """Planted defect: resampling also redraws the monster the player has already seen."""

    def resample_hidden(self, player: int, rng: np.random.Generator) -> UnbrokenState:
        """Redraw every level's monster, revealed or not."""
        other = self.clone()
        if self.phase not in (Phase.CHANCE_CHARACTER, Phase.CHANCE_SETUP_MONSTER):
            for level in range(1, len(other.monsters) + 1):
                other.monsters[level - 1] = self.cards.monster_index(level, int(rng.integers(1, 7)))
        return other


def test_leak_checker_catches_a_leaky_observer(monkeypatch: pytest.MonkeyPatch) -> None:
    """envs.core.testing.check_no_leak fails on an observer that shows the face-down monster (Setup 6: "face
    down")."""
    game = UnbrokenGame(preset="english")
    game._observer = LeakyObserver(game)
    with pytest.raises(AssertionError, match="observation changed when hidden information was redrawn"):
        check_no_leak(game, seed=1)


def test_resample_checker_catches_a_clairvoyant_resample(monkeypatch: pytest.MonkeyPatch) -> None:
    """envs.core.testing.check_resample_keeps_own_view fails when resampling changes a monster the player has seen."""
    game = UnbrokenGame(preset="english")
    monkeypatch.setattr(UnbrokenState, "resample_hidden", ClairvoyantResampleState.resample_hidden)
    with pytest.raises(AssertionError, match="own view changed"):
        check_resample_keeps_own_view(game, seed=1, games=6)
