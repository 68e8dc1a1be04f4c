"""Balance report for Unbroken's card content: random and heuristic win rates per preset and difficulty.

Usage: python benchmarks/balance.py [--games 1000] [--seed 0] [--jobs 1]
       [--out benchmarks/results/unbroken_balance.json]

Plays seeded games directly on the rules core (UnbrokenGame): chance nodes draw with `state.sample_chance(rng)`,
decisions call `agent.act(None, state.legal_actions_mask(), state)`. Game i of a setting uses the chance stream
`default_rng([seed, i])` whatever the agent, so both agents face the same characters and monster decks.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agents.evaluation import wilson_interval  # noqa: E402
from agents.heuristics.unbroken import UnbrokenHeuristicAgent  # noqa: E402
from envs.unbroken.game import UnbrokenGame  # noqa: E402
from envs.unbroken.rules import UnbrokenState  # noqa: E402

PRESETS = ("english", "spanish")
DIFFICULTIES = ("easy", "normal", "hard")
AGENTS = ("random", "heuristic")
DEFAULT_OUT = Path(__file__).resolve().parent / "results" / "unbroken_balance.json"


class UniformRandomAgent:
    """Uniform over the legal actions, with its own seeded numpy generator."""

    name = "random"

    def __init__(self, seed: int | list[int]) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation: Any, action_mask: np.ndarray, state: Any | None = None) -> int:
        """A uniformly random legal action."""
        return int(self.rng.choice(np.flatnonzero(action_mask)))


@dataclass
class GameResult:
    """What one finished game reports."""

    won: bool
    score: int
    level: int
    end_reason: str
    monster: str


@dataclass
class SettingResult:
    """Aggregates of one agent x preset x difficulty."""

    agent: str
    preset: str
    difficulty: str
    games: int = 0
    wins: int = 0
    scores: list[int] = field(default_factory=list)
    levels: Counter = field(default_factory=Counter)
    causes: Counter = field(default_factory=Counter)
    killers: Counter = field(default_factory=Counter)
    seconds: float = 0.0

    def add(self, result: GameResult) -> None:
        """Count one game."""
        self.games += 1
        if result.won:
            self.wins += 1
            self.scores.append(result.score)
            self.levels["won"] += 1
        else:
            self.levels[f"died {'I' * result.level if result.level < 4 else 'IV'}"] += 1
            self.causes[f"L{result.level} {short_reason(result.end_reason)}"] += 1
            if result.monster:
                self.killers[result.monster] += 1

    def to_json(self) -> dict[str, Any]:
        """A JSON-able summary."""
        low, high = wilson_interval(self.wins, self.games)
        return {
            "agent": self.agent,
            "preset": self.preset,
            "difficulty": self.difficulty,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.wins / max(1, self.games),
            "win_rate_ci95": [low, high],
            "mean_score_of_wins": float(np.mean(self.scores)) if self.scores else None,
            "level_reached": dict(sorted(self.levels.items())),
            "death_causes": dict(self.causes.most_common()),
            "deadliest_monsters": dict(self.killers.most_common(6)),
            "seconds": round(self.seconds, 2),
        }


def short_reason(reason: str) -> str:
    """A short label for an end reason."""
    if "starvation" in reason:
        return "starved"
    if "condition" in reason:
        return "condition drain"
    if "time lost" in reason:
        return "time drain"
    if "monster" in reason:
        return "monster attack"
    return reason


def play_game(game: UnbrokenGame, agent: Any, seed: int, index: int) -> GameResult:
    """Play one seeded game to the end on the rules core."""
    rng = np.random.default_rng([seed, index])
    state: UnbrokenState = game.new_initial_state()
    while not state.is_terminal():
        if state.current_player() < 0:
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(agent.act(None, state.legal_actions_mask(), state))
    monster = ""
    if state.outcome != 1 and (state.monster_revealed or state.round) and state.monster() >= 0:
        monster = game.cards.monsters[state.monster()].name
    return GameResult(state.outcome == 1, state.final_score(), state.level, state.end_reason, monster)


def run_setting(agent_name: str, preset: str, difficulty: str, games: int, seed: int) -> SettingResult:
    """Play `games` games of one agent on one preset and difficulty."""
    game = UnbrokenGame(difficulty=difficulty, preset=preset)
    result = SettingResult(agent_name, preset, difficulty)
    start = time.perf_counter()
    heuristic = UnbrokenHeuristicAgent(game)
    for index in range(games):
        agent: Any = heuristic if agent_name == "heuristic" else UniformRandomAgent([seed, index, 1])
        result.add(play_game(game, agent, seed, index))
    result.seconds = time.perf_counter() - start
    return result


def format_table(results: list[SettingResult]) -> str:
    """The report table: one row per agent x preset x difficulty."""
    header = (
        f"{'agent':<10} {'preset':<8} {'difficulty':<10} {'games':>5} {'win rate':>8} {'95% CI':>15} "
        f"{'score':>6}  {'level reached (died I/II/III/IV, won)':<38} main death causes"
    )
    lines = [header, "-" * len(header)]
    for r in results:
        low, high = wilson_interval(r.wins, r.games)
        score = f"{np.mean(r.scores):6.1f}" if r.scores else "     -"
        levels = "/".join(str(r.levels.get(k, 0)) for k in ("died I", "died II", "died III", "died IV", "won"))
        causes = ", ".join(f"{k} {100 * v / r.games:.0f}%" for k, v in r.causes.most_common(3))
        lines.append(
            f"{r.agent:<10} {r.preset:<8} {r.difficulty:<10} {r.games:>5} {100 * r.wins / r.games:7.1f}% "
            f"[{100 * low:5.1f}, {100 * high:5.1f}] {score}  {levels:<38} {causes}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run every setting, print the table and write the JSON report."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="games per agent x preset x difficulty")
    parser.add_argument("--seed", type=int, default=0, help="base seed of the chance streams")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (settings run in parallel)")
    parser.add_argument("--agents", nargs="+", default=list(AGENTS), choices=AGENTS, help="agents to play")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where to write the JSON report")
    args = parser.parse_args(argv)
    plans = [(a, p, d, args.games, args.seed) for a in args.agents for p in PRESETS for d in DIFFICULTIES]
    start = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(run_setting, *zip(*plans, strict=True)))
    else:
        results = [run_setting(*plan) for plan in plans]
    print(format_table(results))
    print(f"\n{args.games} games per row, seed {args.seed}, {time.perf_counter() - start:.0f}s")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    report = {
        "games_per_setting": args.games,
        "seed": args.seed,
        "results": [r.to_json() for r in results],
    }
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
