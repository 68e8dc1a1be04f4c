"""A toy package that holds two games, as Runebound's holds its combat and its board game: `pitch` (one climb, the
part, pitch.py) and `ridge` (three pitches, the game built on it, rules.py); tests/toys/__init__.py registers both
with `register_package`, which reads `GAMES` as discovery does under envs/."""

from envs.core.registration import GameRecord, GymEnvRecord

RIDGE = GameRecord(
    name="ridge",
    description="Ridge: three pitches in a row, each climbed by the pitch's rules.",
    game="tests.toys.ridge.rules:RidgeGame",
    gym_envs=(
        GymEnvRecord(id="tabletop/Ridge-v0", entry_point="tests.toys.ridge.env:make_ridge_env", max_episode_steps=24),
    ),
    picture="tests.toys.ridge.rules:render_rgb",
    heuristic="tests.toys.ridge.pitch:PitchHeuristic",
    outcome_facts=("pitches",),
)
"""The game built on the part."""
PITCH = GameRecord(
    name="pitch",
    description="Pitch: one climb against the turns.",
    game="tests.toys.ridge.pitch:PitchGame",
    gym_envs=(
        GymEnvRecord(id="tabletop/Pitch-v0", entry_point="tests.toys.ridge.env:make_pitch_env", max_episode_steps=8),
    ),
    picture="tests.toys.ridge.pitch:render_rgb",
    heuristic="tests.toys.ridge.pitch:PitchHeuristic",
    outcome_facts=("height",),
)
"""The part, as a game of its own."""
GAMES = (RIDGE, PITCH)
"""The package's games."""
