"""Win rate of MCTS against simulations per decision, beside the game's heuristic on the same deals.

    python -m benchmarks.mcts_curve --game GAME --simulations 4 16 32 --episodes 50 --workers 2

Episode i uses seed SEED + i for every agent (the same deals). The env kwargs and the MCTS settings other than the
simulation count come from the game's eval config (configs/<game>/eval.yaml; `--set KEY=VALUE` changes an env
kwarg; `--mcts KEY=VALUE` an MCTS setting). Writes benchmarks/results/<game>_mcts_curve.json and .md (the table for
the results page), with the wall time of each point on the machine that runs it and, with one worker, the CPU
seconds per game (the process's own clock: other work on the machine does not count).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from agents.common.config import ConfigError, parse_yaml, to_plain
from agents.evaluation.episodes import EvaluationGroup, run_evaluation, sweep_label
from benchmarks.common import RESULTS_DIR, add_game_argument, game_eval_settings, primary_env_id, record_from_args

HEURISTIC = "heuristic"
"""The reference agent every MCTS point is paired with."""


def build_parser() -> argparse.ArgumentParser:
    """The command line of the curve."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_game_argument(parser)
    parser.add_argument("--simulations", type=int, nargs="+", default=[4, 16, 32], help="points of the curve")
    parser.add_argument("--episodes", type=int, default=50, help="episodes per point")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="env kwarg (YAML scalar)")
    parser.add_argument("--mcts", action="append", default=[], metavar="KEY=VALUE", help="MCTS setting (YAML scalar)")
    parser.add_argument("--seed", type=int, default=0, help="episode i uses seed SEED + i")
    parser.add_argument("--workers", type=int, default=1, help="worker processes")
    parser.add_argument("--out-dir", type=Path, default=RESULTS_DIR, help="where the .json and .md go")
    return parser


def env_kwargs_from_flags(
    parser: argparse.ArgumentParser, base: dict[str, Any], flags: list[str], option: str = "--set"
) -> dict[str, Any]:
    """The eval config's env kwargs (or MCTS settings) with each `--set KEY=VALUE` (`option`) applied."""
    kwargs = dict(base)
    for flag in flags:
        key, separator, value = flag.partition("=")
        if not separator or not key:
            parser.error(f"{option} expects KEY=VALUE, got {flag!r}")
        try:
            kwargs[key] = parse_yaml(value, f"{option} {flag}")
        except ConfigError as error:
            parser.error(str(error))
    return kwargs


def main(argv: list[str] | None = None) -> int:
    """Evaluate the heuristic and MCTS at each budget on the same seeds; write the curve."""
    parser = build_parser()
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    record = record_from_args(parser, args)
    env_id = primary_env_id(record)
    eval_settings = game_eval_settings(record)
    mcts_settings = env_kwargs_from_flags(parser, to_plain(eval_settings.mcts), args.mcts, "--mcts")
    kwargs = env_kwargs_from_flags(parser, eval_settings.env.kwargs, args.set)
    points = []
    heuristic_wins: list[bool] = []
    for spec in [HEURISTIC, *(f"mcts:{n}" for n in args.simulations)]:
        start, cpu_start = time.monotonic(), time.process_time()
        (result,) = run_evaluation(
            [EvaluationGroup(spec, env_id, kwargs)], args.episodes, args.seed, args.workers, {"mcts": mcts_settings}
        )
        wins = [episode.won for episode in result.episodes]
        if spec == HEURISTIC:
            heuristic_wins = wins
        summary = result.summary
        point = {
            "agent": spec,
            "simulations": 0 if spec == HEURISTIC else int(spec.split(":")[1]),
            "episodes": summary["episodes"],
            "win_rate": summary["win_rate"],
            "win_rate_ci95": summary["win_rate_ci95"],
            "mean_score": summary["mean_score"],
            "won_where_heuristic_lost": sum(w and not h for w, h in zip(wins, heuristic_wins, strict=True)),
            "lost_where_heuristic_won": sum(h and not w for w, h in zip(wins, heuristic_wins, strict=True)),
            "wall_seconds": round(time.monotonic() - start, 1),
            "cpu_seconds_per_game": round((time.process_time() - cpu_start) / summary["episodes"], 2)
            if args.workers == 1
            else None,
        }
        points.append(point)
        print(json.dumps(point), flush=True)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    document = {
        "env_id": env_id,
        "env_kwargs": kwargs,
        "seed": args.seed,
        "workers": args.workers,
        "mcts": mcts_settings,
        "created": datetime.now().isoformat(timespec="seconds"),
        "points": points,
    }
    stem = args.out_dir / f"{record.name}_mcts_curve"
    stem.with_suffix(".json").write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    lines = [
        f"# MCTS on {record.name} ({sweep_label(kwargs)}): win rate against simulations per decision\n",
        f"`python -m benchmarks.mcts_curve --game {record.name} --simulations {' '.join(map(str, args.simulations))} "
        f"--episodes {args.episodes} --seed {args.seed} --workers {args.workers}"
        f"{''.join(f' --mcts {flag}' for flag in args.mcts)}` (episode i uses seed {args.seed} + i for every agent; "
        f"prior {mcts_settings['prior']}, rollouts {mcts_settings['rollout']} cut at {mcts_settings['rollout_depth']} "
        f"decisions, value at the cut {mcts_settings.get('value', 'none')}).\n",
        "| agent | simulations | episodes | win rate | 95% CI | mean score | won / lost vs heuristic (paired) "
        "| wall time | CPU s / game |",
        "|---|---:|---:|---:|---|---:|---|---:|---:|",
    ]
    for p in points:
        low, high = p["win_rate_ci95"]
        lines.append(
            f"| {p['agent']} | {p['simulations']} | {p['episodes']} | {p['win_rate']:.1%} | [{low:.1%}, {high:.1%}] "
            f"| {p['mean_score']:.2f} | +{p['won_where_heuristic_lost']} / -{p['lost_where_heuristic_won']} "
            f"| {p['wall_seconds']:.0f} s | {'-' if p['cpu_seconds_per_game'] is None else p['cpu_seconds_per_game']} |"
        )
    stem.with_suffix(".md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
