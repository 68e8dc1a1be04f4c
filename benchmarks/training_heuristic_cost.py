"""CPU time of a game's heuristic per decision, as an opponent or teacher in training asks it, and where it goes.

Records the decisions of seeded games (the heuristic at every seat, a share of the moves random, as
tests/training/heuristic_choices.py plays them), then asks one agent per game setting about each recorded position in
order, game after game (its memos warm as an opponent's in training), and reports CPU µs per decision, the best of
`--rounds` (each with fresh agents). The games cycle through every combination of the record's settings:

    python -m benchmarks.training_heuristic_cost --game GAME [--games 20] [--rounds 3] [--profile 25]

`--profile N` also prints cProfile's N costliest functions (cumulative) over one round. The figure is for
comparing two versions of a heuristic on one machine: run both the same way, alternating, and compare.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import sys
import time
from typing import Any

import numpy as np

from envs.core.game import Game, State
from envs.core.registration import game_record, load_attribute, make_game

DEVIATION_SHARE = 0.3
"""Share of the recorded games' moves played uniformly at random (positions off the heuristic's own line)."""


def record_positions(game: Game, make_agent: Any, seed: int) -> list[State]:
    """A clone of every decision position of the game of `seed` (the heuristic at every seat, some moves random)."""
    rng = np.random.default_rng(seed)
    agent = make_agent(game)
    state = game.new_initial_state()
    positions = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_unchecked(state.sample_chance(rng))
            continue
        positions.append(state.clone())
        choice = int(agent.act(None, state.legal_actions_mask(), state=state))
        if rng.random() < DEVIATION_SHARE:
            legal = state.legal_actions()
            choice = legal[int(rng.integers(len(legal)))]
        state.apply_action(choice)
    return positions


def time_games(games: list[tuple[Game, list[State]]], make_agent: Any) -> tuple[float, int]:
    """CPU seconds for one agent per game setting (made afresh, then kept from game to game as an opponent env keeps
    it) to decide each recorded position in order, and the decisions asked."""
    masks = [[position.legal_actions_mask() for position in positions] for _, positions in games]
    agents = {id(game): make_agent(game) for game, _ in games}
    total = 0.0
    decisions = 0
    for (game, positions), game_masks in zip(games, masks, strict=True):
        agent = agents[id(game)]
        clones = [position.clone() for position in positions]
        start = time.process_time()
        for clone, mask in zip(clones, game_masks, strict=True):
            agent.act(None, mask, state=clone)
        total += time.process_time() - start
        decisions += len(positions)
    return total, decisions


def main(argv: list[str] | None = None) -> int:
    """Record the positions, time the heuristic on them, print one JSON line (and a profile when asked)."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", required=True, help="a registered game with a heuristic")
    parser.add_argument("--games", type=int, default=20, help="seeded games recorded")
    parser.add_argument("--rounds", type=int, default=3, help="timed rounds (the best is reported)")
    parser.add_argument("--profile", type=int, default=0, help="print cProfile's N costliest functions")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    record = game_record(args.game)
    if record.heuristic is None:
        parser.error(f"{record.name} has no heuristic")
    make_agent = load_attribute(record.heuristic)
    games_by_setting = [make_game(record, kwargs) for kwargs in record.setting_combinations()]
    games = []
    for seed in range(args.games):
        game = games_by_setting[seed % len(games_by_setting)]
        games.append((game, record_positions(game, make_agent, seed)))
    rounds = [time_games(games, make_agent) for _ in range(args.rounds)]
    seconds, decisions = min(rounds)
    print(
        json.dumps(
            {
                "game": record.name,
                "decisions": decisions,
                "cpu_seconds": round(seconds, 3),
                "microseconds_per_decision": round(1e6 * seconds / decisions, 1),
            }
        )
    )
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        time_games(games, make_agent)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(args.profile)
    return 0


if __name__ == "__main__":
    sys.exit(main())
