"""Gymnasium entry point for Unbroken: the generic adapter over UnbrokenGame."""

from __future__ import annotations

from pathlib import Path

from envs.adapters.gym_env import TabletopEnv
from envs.core.keywords import keyword_checked
from envs.unbroken.game import UnbrokenGame
from envs.unbroken.rules import MAX_GAME_LENGTH

ENV_ID = "tabletop/Unbroken-v0"
MAX_EPISODE_STEPS = MAX_GAME_LENGTH


@keyword_checked(ENV_ID)
def make_env(
    difficulty: str = "normal",
    preset: str = "english",
    character: str | int = "random",
    reward: str = "win",
    illegal_action: str = "raise",
    flat: bool = False,
    render_mode: str | None = None,
    card_directory: str | Path | None = None,
) -> TabletopEnv:
    """Unbroken as a Gymnasium env; see its page on the documentation site for the kwargs and the observation layout.

    A misspelled keyword (`flatt=True`) raises TypeError naming it and listing the valid ones.
    """
    from envs.unbroken.render import render_rgb

    game = UnbrokenGame(difficulty=difficulty, preset=preset, character=character, card_directory=card_directory)
    return TabletopEnv(
        game,
        reward=reward,
        illegal_action=illegal_action,
        flat=flat,
        render_mode=render_mode,
        rgb_renderer=render_rgb,
    )
