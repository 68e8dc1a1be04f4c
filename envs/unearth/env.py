"""Gymnasium entry point for Unearth: the platform's opponent env (envs/adapters/opponents.py) over UnearthGame.

The learner plays its seat(s) and `opponents` (policies: callables or objects with `act`) the others, uniformly
random ones by default. agents/evaluation/environment.py builds this env from a config's `opponents` section (random,
heuristic, MCTS, saved models, self-play snapshots); this entry point is what `gymnasium.make` reaches.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from envs.adapters.opponents import OpponentEnv, Policy, RandomPolicy
from envs.core.keywords import keyword_checked
from envs.unearth.game import UnearthGame
from envs.unearth.rules import MAX_GAME_LENGTH

ENV_ID = "tabletop/Unearth-v0"
MAX_EPISODE_STEPS = MAX_GAME_LENGTH


@keyword_checked(ENV_ID)
def make_env(
    num_players: int = 2,
    opponents: Sequence[Policy] | None = None,
    weights: Sequence[float] | None = None,
    learner_seats: str | int = "rotate",
    env_index: int = 0,
    reward: str = "win",
    illegal_action: str = "raise",
    flat: bool = False,
    render_mode: str | None = None,
    card_directory: str | Path | None = None,
) -> OpponentEnv:
    """Unearth for 2-4 players as a single-agent env: the learner's seats against `opponents` (default random)."""
    from envs.unearth.render import render_rgb

    game = UnearthGame(num_players=num_players, card_directory=None if card_directory is None else str(card_directory))
    return OpponentEnv(
        game,
        list(opponents) if opponents is not None else [RandomPolicy()],
        weights=weights,
        learner_seats=learner_seats,
        env_index=env_index,
        reward=reward,
        illegal_action=illegal_action,
        flat=flat,
        render_mode=render_mode,
        rgb_renderer=render_rgb,
    )
