"""Uniformly random legal play, seeded: the floor every other agent is compared with."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from agents.players.base import BaseAgent


class RandomAgent(BaseAgent):
    """Picks uniformly among the legal actions with its own seeded generator."""

    name = "random"
    reads_observation = False
    """Opponent envs need not build its observation (it reads the mask only)."""

    def __init__(self, seed: int | Sequence[int] | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        """Reseed the generator (a None seed draws fresh entropy)."""
        self.rng = np.random.default_rng(seed)

    def act(self, observation: Any, action_mask: np.ndarray, state: Any | None = None) -> int:
        """A uniformly drawn legal action."""
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("the action mask has no legal action")
        return int(legal[self.rng.integers(legal.size)])
