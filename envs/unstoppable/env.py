"""Gymnasium entry point for Unstoppable: the generic adapter over UnstoppableGame (solo)."""

from __future__ import annotations

from envs.adapters.gym_env import make_gym_env
from envs.unstoppable.game import MAX_GAME_LENGTH, UnstoppableGame

ENV_ID = "tabletop/Unstoppable-v0"
MAX_EPISODE_STEPS = MAX_GAME_LENGTH

make_env = make_gym_env(UnstoppableGame, ENV_ID)
"""Unstoppable as a Gymnasium env: one character against a boss (the Harbinger by default) at a difficulty;
UnstoppableGame's keywords and TabletopEnv's."""
