"""Summit for a team of 2-3 as a PettingZoo AEC env: `env(num_players=3)` wrapped, `raw_env(...)` bare."""

from __future__ import annotations

from envs.adapters.pettingzoo_env import make_env_module
from tests.toys.summit import SummitCoopGame

env, raw_env = make_env_module(SummitCoopGame, "summit_coop_v0")

__all__ = ["env", "raw_env"]
