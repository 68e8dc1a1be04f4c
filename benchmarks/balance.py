"""Balance report of a game's content: random and heuristic win rates and outcome facts per setting.

Usage: python -m benchmarks.balance --game GAME [--games 1000] [--seed 0] [--jobs 1] [--sweep KEY=V1,V2]
       [--out benchmarks/results/<game>_balance.json]

(`--episodes` is another name for `--games`.) The report is the JSON file and, beside it, a Markdown file with the
table, the command that made it, and for each agent whether the win-rate intervals of consecutive settings (in the
record's order, e.g. the difficulties) are apart.

Every combination of the game's settings (its registration record; --sweep narrows them) is one row per agent.
Games are played directly on the rules core behind the game's Gymnasium env (`env.unwrapped.game`), without
building observations: chance nodes draw with `state.sample_chance(rng)`, decisions call
`agent.act(None, state.legal_actions_mask(), state)`. Game i of a setting uses the chance stream
`default_rng([seed, i])` whatever the agent, so both agents face the same deals. Each row counts the values of the
outcome facts the record lists.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from agents.evaluation.episodes import NO_VALUE, sweep_combinations, sweep_label, wilson_interval
from agents.players.base import Agent
from agents.players.random_agent import RandomAgent
from agents.players.registry import make_heuristic_agent
from benchmarks.common import (
    RESULTS_DIR,
    add_game_argument,
    add_sweep_argument,
    primary_env_id,
    record_from_args,
    record_settings,
    sweep_from_args,
    write_report,
)
from envs.core.registration import game_record

AGENTS = ("random", "heuristic")
TOP_VALUES_SHOWN = 3
"""Most frequent values of each outcome fact shown in the printed table (the JSON has them all)."""
RANDOM_AGENT_STREAM = 1
"""Third entry of the random agent's seed [seed, game, 1]: its moves never reuse the chance stream [seed, game]."""


@dataclass
class GameResult:
    """What one finished game reports: won, score and the game's outcome facts."""

    won: bool
    score: float
    facts: dict[str, Any]


@dataclass
class SettingResult:
    """Aggregates of one agent on one setting (a combination of env kwargs)."""

    agent: str
    setting: dict[str, Any]
    games: int = 0
    wins: int = 0
    scores_of_wins: list[float] = field(default_factory=list)
    facts: dict[str, Counter[str]] = field(default_factory=dict)
    seconds: float = 0.0

    def add(self, result: GameResult) -> None:
        """Count one game."""
        self.games += 1
        if result.won:
            self.wins += 1
            self.scores_of_wins.append(result.score)
        for fact, value in result.facts.items():
            self.facts.setdefault(fact, Counter())[NO_VALUE if value in (None, "") else str(value)] += 1

    def to_json(self) -> dict[str, Any]:
        """A JSON-able summary."""
        low, high = wilson_interval(self.wins, self.games)
        return {
            "agent": self.agent,
            "setting": self.setting,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.wins / max(1, self.games),
            "win_rate_ci95": [low, high],
            "mean_score_of_wins": float(np.mean(self.scores_of_wins)) if self.scores_of_wins else None,
            **{f"{fact}_distribution": dict(counts.most_common()) for fact, counts in self.facts.items()},
            "seconds": round(self.seconds, 2),
        }


def play_game(game: Any, agent: Agent, seed: int, index: int, facts: tuple[str, ...]) -> GameResult:
    """Play one seeded game to the end on the rules core; read its outcome facts from the final state."""
    rng = np.random.default_rng([seed, index])
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(agent.act(None, state.legal_actions_mask(), state))
    info = state.episode_info()
    return GameResult(bool(info["won"]), float(info["score"]), {fact: info.get(fact) for fact in facts})


def run_setting(game_name: str, agent_name: str, setting: dict[str, Any], games: int, seed: int) -> SettingResult:
    """Play `games` games of one agent on one setting (a worker's job: everything it needs is named)."""
    record = game_record(game_name)
    env = gym.make(primary_env_id(record), **setting)
    game = env.unwrapped.game  # type: ignore[attr-defined]
    result = SettingResult(agent_name, setting)
    start = time.perf_counter()
    heuristic = make_heuristic_agent(game) if agent_name == "heuristic" else None
    for index in range(games):
        agent = heuristic if heuristic is not None else RandomAgent(seed=[seed, index, RANDOM_AGENT_STREAM])
        result.add(play_game(game, agent, seed, index, record.outcome_facts))
    result.seconds = time.perf_counter() - start
    env.close()
    return result


def _top_values(counts: Counter[str], games: int) -> str:
    """`value 40%, value 30%`: the most frequent values of one fact."""
    return ", ".join(f"{value} {100 * count / games:.0f}%" for value, count in counts.most_common(TOP_VALUES_SHOWN))


def format_table(results: list[SettingResult]) -> str:
    """The report table: one row per agent x setting, with the most frequent values of every outcome fact."""
    header = f"{'agent':<10} {'setting':<34} {'games':>5} {'win rate':>8} {'95% CI':>15} {'score':>6}  outcome facts"
    lines = [header, "-" * len(header)]
    for r in results:
        low, high = wilson_interval(r.wins, r.games)
        score = f"{np.mean(r.scores_of_wins):6.1f}" if r.scores_of_wins else "     -"
        facts = "; ".join(f"{fact}: {_top_values(counts, r.games)}" for fact, counts in r.facts.items())
        lines.append(
            f"{r.agent:<10} {sweep_label(r.setting):<34} {r.games:>5} {100 * r.wins / r.games:7.1f}% "
            f"[{100 * low:5.1f}, {100 * high:5.1f}] {score}  {facts}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run every setting, print the table and write the JSON report."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_game_argument(parser)
    add_sweep_argument(parser, "every value of the main setting of the game's record, the others at their defaults")
    parser.add_argument("--games", "--episodes", type=int, default=1000, help="games per agent x setting")
    parser.add_argument("--seed", type=int, default=0, help="base seed of the chance streams")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (settings run in parallel)")
    parser.add_argument("--agents", nargs="+", default=list(AGENTS), choices=AGENTS, help="agents to play")
    parser.add_argument("--out", type=Path, default=None, help="JSON report (default: results/<game>_balance.json)")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    record = record_from_args(parser, args)
    sweep = sweep_from_args(parser, args.sweep, record_settings(record))
    plans = [
        (record.name, agent, setting, args.games, args.seed)
        for agent in args.agents
        for setting in sweep_combinations(sweep)
    ]
    start = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(run_setting, *zip(*plans, strict=True)))
    else:
        results = [run_setting(*plan) for plan in plans]
    table = format_table(results)
    seconds = time.perf_counter() - start
    print(table)
    print(f"\n{args.games} games per row, seed {args.seed}, {seconds:.0f}s")
    out = args.out or RESULTS_DIR / f"{record.name}_balance.json"
    command = "python -m benchmarks.balance " + " ".join(sys.argv[1:] if argv is None else argv)
    report = {
        "command": command,
        "game": record.name,
        "games_per_setting": args.games,
        "seed": args.seed,
        "results": [r.to_json() for r in results],
        "consecutive_settings": separations(results),
    }
    write_report(out.with_suffix(""), format_markdown(record.name, command, table, results, seconds), report)
    print(f"wrote {out} and {out.with_suffix('.md')}")
    return 0


def separations(results: list[SettingResult]) -> list[dict[str, Any]]:
    """For each agent, each pair of consecutive settings (in sweep order): whether the first's 95% win-rate interval
    lies above the second's, below it, or overlaps it."""
    pairs = []
    for agent in dict.fromkeys(r.agent for r in results):
        rows = [r for r in results if r.agent == agent]
        for first, second in zip(rows, rows[1:], strict=False):
            (low_a, high_a), (low_b, high_b) = (wilson_interval(r.wins, r.games) for r in (first, second))
            apart = "above" if low_a > high_b else "below" if high_a < low_b else "overlap"
            pairs.append({"agent": agent, "first": first.setting, "second": second.setting, "first_is": apart})
    return pairs


def format_markdown(game: str, command: str, table: str, results: list[SettingResult], seconds: float) -> str:
    """The Markdown report: the command, the table, and the intervals of consecutive settings compared."""
    lines = [
        f"# {game}: balance",
        "",
        f"Command: `{command}` ({seconds:.0f} s). Game i of a setting draws chance from `default_rng([seed, i])`",
        "for every agent; the random agent's moves from `[seed, i, 1]`. Win rates with Wilson 95% intervals.",
        "",
        "```",
        table,
        "```",
        "",
        "Consecutive settings (sweep order): is the first's interval above the second's, below it, or overlapping?",
        "",
        "| agent | first | second | first is |",
        "|---|---|---|---|",
    ]
    for pair in separations(results):
        lines.append(
            f"| {pair['agent']} | {sweep_label(pair['first'])} | {sweep_label(pair['second'])} | {pair['first_is']} |"
        )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
