"""Gymnasium entry points of the two games of the package: a pitch alone, and the ridge."""

from __future__ import annotations

from envs.adapters.gym_env import TabletopEnv
from envs.core.keywords import keyword_checked
from tests.toys.ridge.pitch import PitchGame
from tests.toys.ridge.pitch import render_rgb as draw_pitch
from tests.toys.ridge.rules import RidgeGame
from tests.toys.ridge.rules import render_rgb as draw_ridge


@keyword_checked("tabletop/Pitch-v0")
def make_pitch_env(
    reward: str = "win", illegal_action: str = "raise", flat: bool = False, render_mode: str | None = None
) -> TabletopEnv:
    """One pitch as a Gymnasium env."""
    return TabletopEnv(
        PitchGame(),
        reward=reward,
        illegal_action=illegal_action,
        flat=flat,
        render_mode=render_mode,
        rgb_renderer=draw_pitch,
    )


@keyword_checked("tabletop/Ridge-v0")
def make_ridge_env(
    reward: str = "win", illegal_action: str = "raise", flat: bool = False, render_mode: str | None = None
) -> TabletopEnv:
    """The ridge as a Gymnasium env."""
    return TabletopEnv(
        RidgeGame(),
        reward=reward,
        illegal_action=illegal_action,
        flat=flat,
        render_mode=render_mode,
        rgb_renderer=draw_ridge,
    )
