"""Gymnasium entry point for a Runebound combat, `tabletop/RuneboundCombat-v0`: the generic adapter over
RuneboundCombatGame, with the combat's picture for `rgb_array`."""

from __future__ import annotations

from envs.adapters.gym_env import make_gym_env
from envs.runebound.game import RuneboundCombatGame
from envs.runebound.state import MAX_GAME_LENGTH

ENV_ID = "tabletop/RuneboundCombat-v0"
MAX_EPISODE_STEPS = MAX_GAME_LENGTH

make_env = make_gym_env(RuneboundCombatGame, ENV_ID, leave_out=("cards",))
"""One Runebound combat as a Gymnasium env: RuneboundCombatGame's keywords (but `cards`, from Python only) and
TabletopEnv's."""
