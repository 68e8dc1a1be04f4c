"""Seconds of one core per game for an agent (MCTS above all), on the game's eval env and MCTS settings.

    python -m benchmarks.mcts_game_time --game GAME --agent mcts:100 --episodes 5

Episode i uses seed SEED + i. Each game is timed by the process's CPU clock (`time.process_time`, one core: other
work on the machine does not count) and by the wall clock; `--mcts KEY=VALUE` changes an MCTS setting of the eval
config (e.g. `--mcts rollout=heuristic --mcts rollout_depth=300`). Nothing is written: the table goes to stdout.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Any

from agents.common.config import ConfigError, parse_yaml, to_plain
from agents.evaluation.environment import make_env
from agents.evaluation.episodes import play_episode
from agents.players.registry import make_agent
from benchmarks.common import add_game_argument, game_eval_settings, primary_env_id, record_from_args


def build_parser() -> argparse.ArgumentParser:
    """The command line of the timing."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_game_argument(parser)
    parser.add_argument("--agent", default="mcts:100", help="agent spec (default mcts:100)")
    parser.add_argument("--episodes", type=int, default=5, help="games to time")
    parser.add_argument("--seed", type=int, default=0, help="episode i uses seed SEED + i")
    parser.add_argument("--mcts", action="append", default=[], metavar="KEY=VALUE", help="MCTS setting (YAML scalar)")
    return parser


def mcts_settings_from_flags(parser: argparse.ArgumentParser, base: dict[str, Any], flags: list[str]) -> dict[str, Any]:
    """The eval config's MCTS settings with each `--mcts KEY=VALUE` applied."""
    settings = dict(base)
    for flag in flags:
        key, separator, value = flag.partition("=")
        if not separator or key not in settings:
            parser.error(f"--mcts expects KEY=VALUE with KEY one of {sorted(settings)}, got {flag!r}")
        try:
            settings[key] = parse_yaml(value, f"--mcts {flag}")
        except ConfigError as error:
            parser.error(str(error))
    return settings


def main(argv: list[str] | None = None) -> int:
    """Play and time the games; print one line per game and the means."""
    parser = build_parser()
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    record = record_from_args(parser, args)
    eval_settings = game_eval_settings(record)
    mcts = mcts_settings_from_flags(parser, to_plain(eval_settings.mcts), args.mcts)
    env = make_env(primary_env_id(record), eval_settings.env.kwargs)
    agent = make_agent(args.agent, env, {"mcts": mcts})
    print(f"{args.agent} on {record.name} {eval_settings.env.kwargs}, mcts settings {mcts}")
    cpu_times, wall_times = [], []
    for episode in range(args.episodes):
        cpu, wall = time.process_time(), time.perf_counter()
        result = play_episode(env, agent, episode, args.seed + episode)
        cpu_times.append(time.process_time() - cpu)
        wall_times.append(time.perf_counter() - wall)
        print(
            f"seed {args.seed + episode}: {cpu_times[-1]:.1f} s of CPU ({wall_times[-1]:.1f} s wall), "
            f"{result.length} decisions, {'won' if result.won else 'lost'}, score {result.score:g}",
            flush=True,
        )
    print(
        f"mean over {args.episodes} games: {statistics.mean(cpu_times):.2f} s of CPU per game "
        f"(min {min(cpu_times):.1f}, max {max(cpu_times):.1f}; wall {statistics.mean(wall_times):.2f} s)"
    )
    env.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
