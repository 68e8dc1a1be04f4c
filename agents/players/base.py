"""The Agent protocol every policy implements, and small helpers to read a tabletop env (imports nothing from agents).

Agents are built from spec strings (`random`, `heuristic`, `mcts:200`, a model path) by agents/players/registry.py.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import gymnasium as gym
import numpy as np


@runtime_checkable
class Agent(Protocol):
    """A policy that picks a legal action id; `state` is the rules-core State, used by search agents."""

    name: str

    def reset(self, seed: int | None = None) -> None:
        """Start a new episode; reseed every source of randomness the agent has."""

    def act(self, observation: Any, action_mask: np.ndarray, state: Any | None = None) -> int:
        """Return a legal action id (action_mask[a] == 1) for the current decision."""


class BaseAgent:
    """Convenience base: a name and a no-op reset; subclasses implement act()."""

    name = "agent"

    def reset(self, seed: int | None = None) -> None:
        """Start a new episode (nothing to reset by default)."""

    def act(self, observation: Any, action_mask: np.ndarray, state: Any | None = None) -> int:
        """Return a legal action id for the current decision."""
        raise NotImplementedError


def game_of(env: gym.Env) -> Any:
    """The rules-core Game behind a Gymnasium env built by envs/ (env.unwrapped.game); TypeError for other envs."""
    game = getattr(env.unwrapped, "game", None)
    if game is None:
        raise TypeError(f"{env.unwrapped!r} has no rules-core `game` attribute; is it a tabletop env?")
    return game


def action_mask_of(env: gym.Env, observation: Any) -> np.ndarray:
    """The legal-action mask for the current decision: the Dict observation's mask, else env.action_masks()."""
    if isinstance(observation, dict) and "action_mask" in observation:
        return np.asarray(observation["action_mask"])
    return np.asarray(env.unwrapped.action_masks())  # type: ignore[attr-defined]
