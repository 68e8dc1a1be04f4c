"""Toy games on the rules-core contract, small enough to test the platform on; importing this package registers them.

They are registered through the same `GameRecord` as the games under `envs/` (with `register_game`, since they
live outside it), so every generic tool reaches them by env id: `tests.toys:tabletop/card_duel_v0` in a config
or on a command line imports this package first. tests/conftest.py imports it, so in a test session the toys are
among the registered games and every per-game check runs on them too.
"""

from envs.core.registration import GameRecord, GymEnvRecord, register_game

CARD_DUEL = register_game(
    GameRecord(
        name="card_duel",
        description="Card Duel: a 2-4 player trick game with private hands, a chance-drawn leader and blame.",
        game="tests.toys.card_duel:CardDuelGame",
        pettingzoo_modules=("tests.toys.card_duel_v0",),
        heuristic="tests.toys.card_duel_heuristic:CardDuelHeuristic",
        settings={"num_players": (2, 3, 4)},
    )
)
"""The competitive Card Duel."""
CARD_DUEL_COOP = register_game(
    GameRecord(
        name="card_duel_coop",
        description="Card Duel's cooperative variant: the team wins by taking enough strong tricks.",
        game="tests.toys.card_duel:CardDuelCoopGame",
        pettingzoo_modules=("tests.toys.card_duel_coop_v0",),
        heuristic="tests.toys.card_duel_heuristic:CardDuelHeuristic",
        settings={"num_players": (2, 3, 4)},
    )
)
"""The cooperative Card Duel."""
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
    )
)
"""Summit: one record with a solo Gymnasium id (one seat) and a co-operative PettingZoo module (2-3 seats), the
shape of a game whose solo and co-op modes share its rules; routing decides by the id and the built game's seats."""
