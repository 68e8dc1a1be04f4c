"""Gymnasium entry point for Runebound on the board, `tabletop/Runebound-v0`: the generic adapter over RuneboundGame."""

from __future__ import annotations

from envs.adapters.gym_env import make_gym_env
from envs.runebound.board_game import RuneboundGame
from envs.runebound.board_state import MAX_GAME_LENGTH

ENV_ID = "tabletop/Runebound-v0"
MAX_EPISODE_STEPS = MAX_GAME_LENGTH

make_env = make_gym_env(RuneboundGame, ENV_ID)
"""A solo game of Runebound (The Locust Swarm) as a Gymnasium env: RuneboundGame's keywords and TabletopEnv's."""
