"""Unearth as a PettingZoo AEC env: `env(num_players=2..4, reward=, illegal_action=, render_mode=)` wrapped as
PettingZoo classic does, `raw_env(...)` bare."""

from __future__ import annotations

from envs.adapters.pettingzoo_env import make_env_module
from envs.unearth.game import UnearthGame

env, raw_env = make_env_module(UnearthGame, "unearth_v0")

__all__ = ["env", "raw_env"]
