"""Gymnasium entry points of the two games of the package: a pitch alone, and the ridge."""

from __future__ import annotations

from envs.adapters.gym_env import make_gym_env
from tests.toys.ridge.pitch import PitchGame
from tests.toys.ridge.rules import RidgeGame

make_pitch_env = make_gym_env(PitchGame, "tabletop/Pitch-v0")
"""One pitch as a Gymnasium env."""
make_ridge_env = make_gym_env(RidgeGame, "tabletop/Ridge-v0")
"""The ridge as a Gymnasium env."""
