"""How many decisions whole games of Runebound on the board take, under random and heuristic play, per hero, and the
practical episode bound measured from them.

Each game counts the hero's decisions (`state.decisions`: the board's and the fights' alike, not the steps the rules
take). Game i of a hero is played on the chance stream `default_rng([seed, i])` under both policies:

- **random**: a uniform choice among the legal actions;
- **heuristic**: the game's heuristic hero (agents/heuristics/runebound.py), the combat heuristic in its fights.

The practical bound is `FACTOR` times the longest game seen, rounded up to a multiple of `ROUNDING`; the report says
whether `MAX_GAME_LENGTH` (the env's `max_episode_steps`) is at least that:

    python -m benchmarks.runebound_game_length [--games 1000] [--seed 0]

Writes benchmarks/results/runebound_game_length.{json,md}.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from agents.heuristics.runebound import RuneboundBoardHeuristicAgent
from benchmarks.common import BOUND_FACTOR as FACTOR
from benchmarks.common import RESULTS_DIR, bound_sentence, practical_bound, write_report
from envs.core.game import CHANCE
from envs.runebound.board_game import RuneboundGame
from envs.runebound.board_state import MAX_GAME_LENGTH

POLICIES = ("random", "heuristic")
REPORT_STEM = "runebound_game_length"
"""File name (without suffix) of the reports under benchmarks/results/."""


@dataclass
class LengthRow:
    """Decisions per game of one (hero, policy) batch."""

    hero: str
    policy: str
    games: int
    median: float
    p95: float
    longest: int
    mean: float
    outcomes: dict[str, int]


def measure(hero: str, policy: str, games: int, seed: int) -> LengthRow:
    """Play `games` seeded games of `policy` with `hero`; their decisions per game."""
    game = RuneboundGame(hero=hero)
    agent = RuneboundBoardHeuristicAgent(game)
    lengths: list[int] = []
    outcomes: dict[str, int] = {}
    for index in range(games):
        rng = np.random.default_rng([seed, index])
        choices = np.random.default_rng([seed, index, 1])
        agent.reset(index)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply_action(state.sample_chance(rng))
            elif policy == "random":
                legal = state.legal_actions()
                state.apply_action(legal[int(choices.integers(len(legal)))])
            else:
                state.apply_action(agent.act(None, state.legal_actions_mask(), state=state))
        lengths.append(state.decisions)
        name = state.outcome.name.lower()
        outcomes[name] = outcomes.get(name, 0) + 1
    return LengthRow(
        hero=hero,
        policy=policy,
        games=games,
        median=float(np.median(lengths)),
        p95=float(np.percentile(lengths, 95)),
        longest=max(lengths),
        mean=float(np.mean(lengths)),
        outcomes=dict(sorted(outcomes.items())),
    )


def build_parser() -> argparse.ArgumentParser:
    """The command line of the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="games per hero and policy")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None, help=f"report path stem (default benchmarks/results/{REPORT_STEM})")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Measure every hero under both policies; print and write the table and the bound."""
    args = build_parser().parse_args(sys.argv[1:] if argv is None else argv)
    start = time.perf_counter()
    heroes = RuneboundGame().board.heroes.names
    rows = [measure(hero, policy, args.games, args.seed) for hero in heroes for policy in POLICIES]
    longest = max(row.longest for row in rows)
    bound = practical_bound(longest)
    command = f"python -m benchmarks.runebound_game_length --games {args.games} --seed {args.seed}"
    lines = [
        "# Decisions per game of Runebound on the board (The Locust Swarm, solo)",
        "",
        f"`{command}` ({time.perf_counter() - start:.0f} s)",
        "",
        "| hero | policy | games | median | 95th percentile | longest | mean | outcomes |",
        "|---|---|---:|---:|---:|---:|---:|---|",
        *(
            f"| {row.hero} | {row.policy} | {row.games} | {row.median:.0f} | {row.p95:.0f} | {row.longest} | "
            f"{row.mean:.1f} | {', '.join(f'{name} {count}' for name, count in row.outcomes.items())} |"
            for row in rows
        ),
        "",
        bound_sentence(longest, MAX_GAME_LENGTH),
        "",
    ]
    markdown = "\n".join(lines)
    print(markdown)
    document = {
        "arguments": vars(args),
        "rows": [asdict(row) for row in rows],
        "longest": longest,
        "factor": FACTOR,
        "practical_bound": bound,
        "max_game_length": MAX_GAME_LENGTH,
    }
    stem = RESULTS_DIR / REPORT_STEM if args.out is None else Path(args.out)
    write_report(stem, markdown, document)
    return 0


if __name__ == "__main__":
    sys.exit(main())
