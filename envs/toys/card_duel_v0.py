"""Card Duel as a PettingZoo AEC env: `env(num_players=3)` wrapped, `raw_env(...)` bare (the module factory)."""

from __future__ import annotations

from envs.adapters.pettingzoo_env import make_env_module
from envs.toys.card_duel import CardDuelGame

env, raw_env = make_env_module(CardDuelGame, "card_duel_v0")

__all__ = ["env", "raw_env"]
