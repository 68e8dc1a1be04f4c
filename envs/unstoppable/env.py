"""Gymnasium entry point for Unstoppable: the generic adapter over UnstoppableGame (solo)."""

from __future__ import annotations

from pathlib import Path

from envs.adapters.gym_env import TabletopEnv
from envs.core.keywords import keyword_checked
from envs.unstoppable.game import MAX_GAME_LENGTH, UnstoppableGame

ENV_ID = "tabletop/Unstoppable-v0"
MAX_EPISODE_STEPS = MAX_GAME_LENGTH


@keyword_checked(ENV_ID)
def make_env(
    boss: str | None = None,
    character: str | None = None,
    difficulty: str = "normal",
    reward: str = "win",
    illegal_action: str = "raise",
    flat: bool = False,
    render_mode: str | None = None,
    card_directory: str | Path | None = None,
) -> TabletopEnv:
    """Unstoppable as a Gymnasium env: one character against a boss (the Harbinger by default) at a difficulty; see
    its page on the documentation site for the kwargs, the observation layout and the action groups.

    A misspelled keyword (`dificulty="hard"`) raises TypeError naming it and listing the valid ones.
    """
    from envs.unstoppable.render import render_rgb

    game = UnstoppableGame(
        boss=boss,
        character=character,
        difficulty=difficulty,
        card_directory=None if card_directory is None else str(card_directory),
    )
    return TabletopEnv(
        game,
        reward=reward,
        illegal_action=illegal_action,
        flat=flat,
        render_mode=render_mode,
        rgb_renderer=render_rgb,
    )
