"""Toy games on the rules-core contract, small enough to show and measure the platform on; registered only on request.

Card Duel (a 2-4 seat trick game with private hands, a chance-drawn leader and an out-of-turn blame) is the
multi-player example of the docs and of the self-play configs (configs/card_duel/); Tug, Party and Spellbook are
the frame engine's patterns (envs/core/engine.py), timed by benchmarks/frame_engine.py.

They are not among the suite's games: `import envs` finds no `GAME` record here, so nothing of them is registered
with Gymnasium or PettingZoo until asked for, by `register_games()` or by an env id or game spec that names this
package first (`"envs.toys:tabletop/card_duel_v0"` in a config, `--game envs.toys:card_duel` for a benchmark), which
calls it. They register through the same `GameRecord` as the games under `envs/` (with `register_game`, since they
are not discovered), so every generic tool reaches them by env id once registered.
"""

from __future__ import annotations

from envs.core.registration import GameRecord, register_game

CARD_DUEL = GameRecord(
    name="card_duel",
    description="Card Duel: a 2-4 player trick game with private hands, a chance-drawn leader and blame.",
    game="envs.toys.card_duel:CardDuelGame",
    pettingzoo_modules=("envs.toys.card_duel_v0",),
    heuristic="envs.toys.card_duel_heuristic:CardDuelHeuristic",
    settings={"num_players": (2, 3, 4)},
)
"""The competitive Card Duel."""
CARD_DUEL_COOP = GameRecord(
    name="card_duel_coop",
    description="Card Duel's cooperative variant: the team wins by taking enough strong tricks.",
    game="envs.toys.card_duel:CardDuelCoopGame",
    pettingzoo_modules=("envs.toys.card_duel_coop_v0",),
    heuristic="envs.toys.card_duel_heuristic:CardDuelHeuristic",
    settings={"num_players": (2, 3, 4)},
)
"""The cooperative Card Duel."""
RECORDS = (CARD_DUEL, CARD_DUEL_COOP)
"""The toys with a registration record (the frame-engine toys are used as rules cores only)."""


def register_games() -> tuple[GameRecord, ...]:
    """Register the toys' records and their PettingZoo ids (again: nothing changes); returns the records."""
    return tuple(register_game(record) for record in RECORDS)
