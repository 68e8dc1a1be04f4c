"""One generic Gymnasium env over any solo rules-core Game (nothing game-specific here).

Observation: Dict{"observation": Box(float32), "action_mask": Box(0, 1, (N,), int8)}, or with `flat=True` the
float Box alone (read the mask from `env.action_masks()` or `info["action_mask"]`). Chance nodes are sampled
inside `reset`/`step` from the generator seeded by `reset(seed=...)`, so the agent only sees its own decisions.
At a terminal step the action mask is all zeros (no action is legal after the game ends).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from envs.adapters.driver import (
    ILLEGAL_ACTION_MODES,
    ILLEGAL_ACTION_PENALTY,
    GameDriver,
    ReplayViews,
    action_index,
    require_bool,
    reset_start_state,
)
from envs.adapters.spaces import observation_space
from envs.core.game import Game, State

__all__ = ["ILLEGAL_ACTION_MODES", "ILLEGAL_ACTION_PENALTY", "TabletopEnv"]


class TabletopEnv(ReplayViews, gym.Env):
    """Gymnasium env for a single-player Game: masked Discrete actions, seeded chance, no hidden info leaks."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}

    def __init__(
        self,
        game: Game,
        reward: str = "win",
        illegal_action: str = "raise",
        flat: bool = False,
        render_mode: str | None = None,
        rgb_renderer: Callable[[State], np.ndarray] | None = None,
    ) -> None:
        if game.spec.num_players != 1:
            raise ValueError(f"{game.spec.name} has {game.spec.num_players} players; use the PettingZoo adapter")
        self._driver = GameDriver(game, reward=reward, illegal_action=illegal_action)
        flat = require_bool("flat", flat)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.game = game
        self.reward_mode = reward
        self.illegal_action = illegal_action
        self.flat = flat
        self.render_mode = render_mode
        self._rgb_renderer = rgb_renderer
        self.observer = game.observer(0)
        n = game.spec.num_actions
        self.action_space = spaces.Discrete(n)
        self.observation_space: spaces.Space = observation_space(self.observer, n, flat)

    @property
    def state(self) -> State | None:
        """The rules-core state being played (None before the first reset); search agents read it."""
        return self._driver.state

    # -------------------------------------------------------------- core loop
    def _observation(self) -> Any:
        tensor = self.observer.tensor(self._driver.live_state())
        if self.flat:
            return tensor
        return {"observation": tensor, "action_mask": self._driver.mask}

    def _info(self) -> dict[str, Any]:
        driver = self._driver
        info: dict[str, Any] = {"action_mask": driver.mask}
        if driver.live_state().is_terminal():
            info.update(driver.episode_info(0))
        return info

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Start a new game; `options={"state": dict}` starts from a given state instead of setup (another key is a
        ValueError naming it)."""
        start = reset_start_state(self.game, options)  # before anything changes: a refused reset changes nothing
        super().reset(seed=seed)
        driver = self._driver
        driver.rng = self.np_random  # chance is sampled from the generator Gymnasium seeded
        driver.reset(start)
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Apply one decision, sample the chance nodes that follow, return the usual five values."""
        driver = self._driver
        action = action_index(action, driver.num_actions)  # TypeError for 4.7, "4", None, True, a list
        if not driver.step(action):  # illegal under "penalize" ("raise" raised): the episode ends
            info: dict[str, Any] = {"action_mask": driver.mask, "illegal_action": action}
            return self._observation(), ILLEGAL_ACTION_PENALTY, True, False, info
        terminated = driver.live_state().is_terminal()
        reward = driver.rewards()[0] if terminated else 0.0
        return self._observation(), reward, terminated, False, self._info()

    def action_masks(self) -> np.ndarray:
        """Boolean mask of legal actions (MaskablePPO reads it from the env)."""
        return self._driver.mask.astype(bool)

    def render(self) -> Any:
        """'ansi': a text table of the visible state; 'rgb_array': a picture of the display."""
        if self.state is None:
            return None
        if self.render_mode == "ansi":
            return self.observer.text(self.state)
        if self.render_mode == "rgb_array":
            if self._rgb_renderer is None:
                raise NotImplementedError(f"{self.game.spec.name} has no rgb_array renderer")
            return self._rgb_renderer(self.state)
        return None
