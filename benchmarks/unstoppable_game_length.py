"""How many decisions whole Unstoppable games take, and the practical episode bound measured from them.

The bound the rules prove (`envs.unstoppable.game.proven_decision_bound`, RULES.md "Game length") is billions of
decisions: it shows every game ends, but it is no use to truncate an episode. This measures real games instead, against
every boss at every difficulty, under two policies that take no account of winning:

- **random**: a uniform choice among the legal actions;
- **greedy**: a uniform choice among the legal actions other than ending the Main Phase, forfeiting a card's
  remaining effects, declining a danger-track effect, eliminating nothing or stopping the market cycle, whenever
  there is one: it plays, exhausts, buys and resolves everything it can, which makes the longest turns a policy
  without a plan makes.

The practical bound is `FACTOR` times the longest game seen, rounded up to a multiple of `ROUNDING`; the report says
whether `MAX_GAME_LENGTH` (the env's `max_episode_steps`) is at least that:

    python -m benchmarks.unstoppable_game_length [--games 1000] [--seed 0]

Writes benchmarks/results/unstoppable_game_length.{json,md}.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from benchmarks.common import BOUND_FACTOR as FACTOR
from benchmarks.common import RESULTS_DIR, bound_sentence, practical_bound, write_report
from envs.core.game import CHANCE
from envs.unstoppable.actions import DECLINE, FORFEIT, NO_ELIMINATION, STOP_CYCLING
from envs.unstoppable.cards import DIFFICULTIES, load_unstoppable_cards
from envs.unstoppable.game import MAX_GAME_LENGTH, UnstoppableGame
from envs.unstoppable.rules import UnstoppableState

POLICIES = ("random", "greedy")
REPORT_STEM = "unstoppable_game_length"
"""File name (without suffix) of the reports under benchmarks/results/."""

Chooser = Callable[[UnstoppableState, np.random.Generator], int]


@dataclass
class LengthRow:
    """Decisions per game of one (boss, difficulty, policy) batch."""

    boss: str
    difficulty: str
    policy: str
    games: int
    longest: int
    p99: float
    mean: float
    longest_turns: int
    endings: dict[str, int]


def passive_actions(game: UnstoppableGame) -> frozenset[int]:
    """The ids that end or skip something: ending the Main Phase, forfeiting, declining, stopping."""
    actions = game.actions
    return frozenset(
        {
            actions.end_main,
            actions.done + FORFEIT,
            actions.done + NO_ELIMINATION,
            actions.done + STOP_CYCLING,
            actions.danger + DECLINE,
        }
    )


def chooser(game: UnstoppableGame, policy: str) -> Chooser:
    """The decision rule of `policy` ("random" or "greedy") for `game`."""
    if policy == "random":

        def random_choice(state: UnstoppableState, rng: np.random.Generator) -> int:
            legal = state.legal_actions()
            return legal[int(rng.integers(len(legal)))]

        return random_choice
    passive = passive_actions(game)

    def greedy_choice(state: UnstoppableState, rng: np.random.Generator) -> int:
        legal = state.legal_actions()
        active = [action for action in legal if action not in passive] or legal
        return active[int(rng.integers(len(active)))]

    return greedy_choice


def measure(difficulty: str, policy: str, games: int, seed: int, boss: str | None = None) -> LengthRow:
    """Play `games` seeded games of `policy` at `difficulty` against `boss` (the first by default); their decisions
    per game."""
    game = UnstoppableGame(difficulty=difficulty, boss=boss)
    choose = chooser(game, policy)
    rng = np.random.default_rng(seed)
    lengths: list[int] = []
    turns: list[int] = []
    endings: dict[str, int] = {}
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply_action(state.sample_chance(rng))
            else:
                state.apply_action(choose(state, rng))
        lengths.append(state.decisions)
        turns.append(state.turn)
        endings[state.ending()] = endings.get(state.ending(), 0) + 1
    return LengthRow(
        boss=game.boss.name,
        difficulty=difficulty,
        policy=policy,
        games=games,
        longest=max(lengths),
        p99=float(np.percentile(lengths, 99)),
        mean=float(np.mean(lengths)),
        longest_turns=max(turns),
        endings=dict(sorted(endings.items())),
    )


def build_parser() -> argparse.ArgumentParser:
    """The command line of the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="games per difficulty and policy")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None, help=f"report path stem (default benchmarks/results/{REPORT_STEM})")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Measure every difficulty under both policies; print and write the table and the bound."""
    args = build_parser().parse_args(sys.argv[1:] if argv is None else argv)
    start = time.perf_counter()
    batches = [(d, p) for d in DIFFICULTIES for p in POLICIES]
    bosses = load_unstoppable_cards().bosses.names
    rows = [
        measure(difficulty, policy, args.games, args.seed + number * len(batches) + index, boss)
        for number, boss in enumerate(bosses)
        for index, (difficulty, policy) in enumerate(batches)
    ]
    longest = max(row.longest for row in rows)
    bound = practical_bound(longest)
    command = f"python -m benchmarks.unstoppable_game_length --games {args.games} --seed {args.seed}"
    lines = [
        "# Decisions per game of Unstoppable (every boss)",
        "",
        f"`{command}` ({time.perf_counter() - start:.0f} s)",
        "",
        "| boss | difficulty | policy | games | longest | 99th percentile | mean | most turns | endings |",
        "|---|---|---|---:|---:|---:|---:|---:|---|",
        *(
            f"| {row.boss} | {row.difficulty} | {row.policy} | {row.games} | {row.longest} | {row.p99:.0f} | "
            f"{row.mean:.1f} | {row.longest_turns} | "
            f"{', '.join(f'{name} {count}' for name, count in row.endings.items())} |"
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
