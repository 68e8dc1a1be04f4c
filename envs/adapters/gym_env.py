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

from envs.core.game import CHANCE, REWARD_MODES, Game, IllegalActionError, State

ILLEGAL_ACTION_MODES = ("raise", "penalize")
ILLEGAL_ACTION_PENALTY = -1.0
"""Reward of an illegal action under illegal_action="penalize"; the episode then terminates."""


class TabletopEnv(gym.Env):
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
        if reward not in REWARD_MODES or (reward == "rank" and game.spec.num_players == 1):
            modes = [mode for mode in REWARD_MODES if mode != "rank" or game.spec.num_players > 1]
            raise ValueError(f"reward must be one of {modes}, got {reward!r}")
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTION_MODES}, got {illegal_action!r}")
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
        box = spaces.Box(low=self.observer.low, high=self.observer.high, shape=(self.observer.size,), dtype=np.float32)
        if flat:
            self.observation_space: spaces.Space = box
        else:
            self.observation_space = spaces.Dict(
                {"observation": box, "action_mask": spaces.Box(0, 1, shape=(n,), dtype=np.int8)}
            )
        self.state: State | None = None
        self._num_actions = n
        self._mask = np.zeros(n, dtype=np.int8)
        self._legal: list[int] = []
        self._ended = False

    # -------------------------------------------------------------- core loop
    def _live_state(self) -> State:
        if self.state is None:
            raise RuntimeError("call reset() before using the env")
        return self.state

    def _advance_chance(self) -> None:
        """Sample chance nodes until the player must decide or the game ends."""
        state = self._live_state()
        rng = self.np_random
        while state.current_player() == CHANCE:
            state.apply_unchecked(state.sample_chance(rng))

    def _refresh_mask(self) -> None:
        """A fresh mask array each step (the previous observation keeps its own), from the legal action ids."""
        mask = np.zeros(self._num_actions, dtype=np.int8)
        state = self._live_state()
        if state.is_terminal():
            self._legal = []
        else:
            self._legal = legal = state.legal_actions()
            for action in legal:  # a short list: item assignment beats a fancy-indexed store here
                mask[action] = 1
        self._mask = mask

    def _observation(self) -> Any:
        tensor = self.observer.tensor(self._live_state())
        if self.flat:
            return tensor
        return {"observation": tensor, "action_mask": self._mask}

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self._mask}
        state = self._live_state()
        if state.is_terminal():
            info.update(state.episode_info())
        return info

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Start a new game; `options={"state": dict}` starts from a given state instead of setup."""
        super().reset(seed=seed)
        if options and "state" in options:
            self.state = self.game.state_from_dict(options["state"])
        else:
            self.state = self.game.new_initial_state()
        self._ended = False
        self._advance_chance()
        self._refresh_mask()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Apply one decision, sample the chance nodes that follow, return the usual five values."""
        state = self._live_state()
        action = int(action)
        if self._ended or state.is_terminal():
            raise RuntimeError("the episode has ended; call reset()")
        if not (0 <= action < self._mask.size and self._mask[action]):
            labels = [(a, self.game.action_label(a)) for a in self._legal]
            label = self.game.action_label(action) if 0 <= action < self._mask.size else "out of range"
            if self.illegal_action == "raise":
                raise IllegalActionError(action, label, labels)
            self._ended = True
            self._mask = np.zeros(self._mask.size, dtype=np.int8)  # the episode is over: nothing is legal
            self._legal = []
            info = self._info()
            info["illegal_action"] = action
            return self._observation(), ILLEGAL_ACTION_PENALTY, True, False, info
        state.apply_unchecked(action)
        self._advance_chance()
        self._refresh_mask()
        terminated = state.is_terminal()
        reward = 0.0
        if terminated:
            reward = float(state.rewards(self.reward_mode)[0])
        return self._observation(), reward, terminated, False, self._info()

    def action_masks(self) -> np.ndarray:
        """Boolean mask of legal actions (MaskablePPO reads it from the env)."""
        return self._mask.astype(bool)

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
