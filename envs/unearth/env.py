"""Gymnasium entry point for Unearth: the platform's opponent env (envs/adapters/opponents.py) over UnearthGame.

The learner plays its seat(s) and `opponents` (policies: callables or objects with `act`) the others, uniformly
random ones by default. agents/evaluation/environment.py builds this env from a config's `opponents` section (random,
heuristic, MCTS, saved models, self-play snapshots); this entry point is what `gymnasium.make` reaches.
"""

from __future__ import annotations

from envs.adapters.gym_env import make_gym_env
from envs.adapters.opponents import OpponentEnv
from envs.unearth.game import UnearthGame
from envs.unearth.rules import MAX_GAME_LENGTH

ENV_ID = "tabletop/Unearth-v0"
MAX_EPISODE_STEPS = MAX_GAME_LENGTH

make_env = make_gym_env(UnearthGame, ENV_ID, adapter=OpponentEnv)
"""Unearth for 2-4 players as a single-agent env: UnearthGame's keywords and OpponentEnv's (the learner's seats
against `opponents`, default random)."""
