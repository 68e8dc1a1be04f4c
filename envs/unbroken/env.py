"""Gymnasium entry point for Unbroken: the generic adapter over UnbrokenGame."""

from __future__ import annotations

from envs.adapters.gym_env import make_gym_env
from envs.unbroken.game import UnbrokenGame
from envs.unbroken.rules import MAX_GAME_LENGTH

ENV_ID = "tabletop/Unbroken-v0"
MAX_EPISODE_STEPS = MAX_GAME_LENGTH

make_env = make_gym_env(UnbrokenGame, ENV_ID, leave_out=("cards",))
"""Unbroken as a Gymnasium env: UnbrokenGame's keywords (but `cards`, from Python only) and TabletopEnv's."""
