"""Card Duel's cooperative variant as a PettingZoo AEC env: `env(num_players=3)` wrapped, `raw_env(...)` bare."""

from __future__ import annotations

from envs.adapters.pettingzoo_env import make_env_module
from envs.toys.card_duel import CardDuelCoopGame

env, raw_env = make_env_module(CardDuelCoopGame, "card_duel_coop_v0")

__all__ = ["env", "raw_env"]
