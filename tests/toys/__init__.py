"""The toys only the tests use; importing this package registers them, and the shipped toys of `envs.toys` too.

The shipped toys (Card Duel, the frame-engine toys) live in `envs/toys/`, where benchmarks and docs reach them; the
ones here test a shape of the platform that nothing shipped needs. They are registered through the same
`GameRecord` as the games under `envs/` (with `register_game`), so every generic tool reaches them by env id:
`tests.toys:tabletop/Summit-v0` imports this package first. tests/conftest.py imports it, so in a test session
every toy is among the registered games and every per-game check runs on them too.
"""

from envs.core.registration import GameRecord, GymEnvRecord, register_game, register_package
from envs.toys import register_games as register_shipped_toys
from tests.toys import ridge

register_shipped_toys()

SUMMIT = register_game(
    GameRecord(
        name="summit",
        description="Summit: climb against the clock, solo (a Gymnasium id) or as a team of 2-3 (PettingZoo).",
        game="tests.toys.summit:SummitGame",
        gym_envs=(
            GymEnvRecord(id="tabletop/Summit-v0", entry_point="tests.toys.summit:make_env", max_episode_steps=20),
        ),
        pettingzoo_modules=("tests.toys.summit_coop_v0",),
        heuristic="tests.toys.summit:SummitHeuristic",
        picture="tests.toys.summit:render_rgb",
    )
)
"""Summit: one record with a solo Gymnasium id (one seat) and a co-operative PettingZoo module (2-3 seats), the
shape of a game whose solo and co-op modes share its rules; routing decides by the id and the built game's seats."""
RIDGE_AND_PITCH = register_package(ridge)
"""Ridge and Pitch: two records of one package (its `GAMES`), a game and the part it is built on."""
