"""A multi-player training run's strength against training time: every saved model of the run meets a reference agent.

For each model a run directory holds (the pretrained policy, every checkpoint, the final model) this plays a
two-agent tournament against the reference (the heuristic by default) on the run's own env settings: `--deals`
deals, each played with the seats rotated, the same deals for every model. It reports the model's share of games
placed above the reference (ties half) with its Wilson interval, the Elo difference that share implies
(400 log10(p / (1 - p))), and the wall time of training when the model was written (its file time minus the run's
start in run_info.json, pauses included):

    python -m benchmarks.learning_curve --run runs/RUN [--reference heuristic] [--deals 100] [--workers 2]

Writes benchmarks/results/<game>_learning_curve.{md,json} (or --out PREFIX).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import re
import sys
import time
from pathlib import Path
from typing import Any

from agents.common.config import load_experiment_config
from agents.common.run_dir import CONFIG_FILE_NAME
from agents.evaluation.environment import resolve_env_id
from agents.evaluation.tournament import Tournament, pairwise_table, run_tournaments
from benchmarks.common import RESULTS_DIR, write_report
from envs.core.registration import game_record_of_env_id

CHECKPOINT_STEPS = re.compile(r"model_(\d+)_steps\.zip$")
"""A checkpoint's file name and its training steps."""
ELO_CAP = 800.0
"""Elo differences are capped at +-this (a share of 0 or 1 implies an infinite one)."""


def run_models(run_dir: Path) -> list[tuple[str, int | None, Path]]:
    """(label, training steps or None, path) of every model in the run, in training order."""
    models: list[tuple[str, int | None, Path]] = []
    pretrained = run_dir / "pretrained_model.zip"
    if pretrained.is_file():
        models.append(("pretrained", 0, pretrained))
    checkpoints = []
    for path in (run_dir / "checkpoints").glob("model_*_steps.zip"):
        match = CHECKPOINT_STEPS.search(path.name)
        if match:
            checkpoints.append((int(match.group(1)), path))
    models.extend((f"{steps} steps", steps, path) for steps, path in sorted(checkpoints))
    final = run_dir / "final_model.zip"
    if final.is_file():
        models.append(("final", None, final))
    return models


def started_at(run_dir: Path) -> float:
    """The run's start time (run_info.json's `started`) as a POSIX timestamp."""
    info = json.loads((run_dir / "run_info.json").read_text())
    return dt.datetime.fromisoformat(info["started"]).timestamp()


def elo_difference(share: float) -> float:
    """The Elo difference a share of wins implies, capped at +-ELO_CAP."""
    if share <= 0.0:
        return -ELO_CAP
    if share >= 1.0:
        return ELO_CAP
    return max(-ELO_CAP, min(ELO_CAP, 400.0 * math.log10(share / (1.0 - share))))


def curve(run_dir: Path, reference: str, deals: int, seed: int, workers: int) -> list[dict[str, Any]]:
    """One row per model of the run: its share against `reference`, the interval, the Elo difference, wall time."""
    config = load_experiment_config(run_dir / CONFIG_FILE_NAME)
    env_id = resolve_env_id(config.env.id)
    record = game_record_of_env_id(env_id)
    num_players = int(config.env.kwargs.get("num_players", 2))
    start = started_at(run_dir)
    rows = []
    for label, steps, path in run_models(run_dir):
        began = time.perf_counter()
        tournament = Tournament(
            env_id=record.pettingzoo_ids[0] if record.pettingzoo_ids else env_id,
            env_kwargs=dict(config.env.kwargs),
            sweep={},
            game_name=record.name,
            num_players=num_players,
            cooperative=False,
            lineups=((str(path), reference) + (reference,) * (num_players - 2),),
        )
        (result,) = run_tournaments([tournament], deals, seed, workers=workers)
        pair = next(row for row in pairwise_table(result.games) if row["agent"] == str(path))
        rows.append(
            {
                "model": label,
                "steps": steps,
                "wall_minutes": round((path.stat().st_mtime - start) / 60.0, 1),
                "games": pair["games"],
                "share": pair["share"],
                "ci95": pair["ci95"],
                "elo": round(elo_difference(pair["share"]), 0),
                "eval_seconds": round(time.perf_counter() - began, 1),
            }
        )
        low, high = pair["ci95"]
        print(f"{label}: {pair['share']:.1%} [{low:.1%}, {high:.1%}] over {pair['games']} games", file=sys.stderr)
    return rows


def markdown(rows: list[dict[str, Any]], run_dir: Path, reference: str, command: str) -> str:
    """The curve as a Markdown table with the command that made it."""
    lines = [
        f"Run `{run_dir.name}` against `{reference}` (`{command}`):",
        "",
        f"| model | steps | training wall time | games | share above {reference} | 95% CI | Elo difference |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        low, high = row["ci95"]
        steps = "" if row["steps"] is None else f"{row['steps']:,}"
        lines.append(
            f"| {row['model']} | {steps} | {row['wall_minutes']} min | {row['games']} | {row['share']:.1%} | "
            f"[{low:.1%}, {high:.1%}] | {row['elo']:+.0f} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Command line: measure and write the curve of one run."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--run", type=Path, required=True, help="a train.py run directory")
    parser.add_argument("--reference", default="heuristic", help="the agent every model meets (default heuristic)")
    parser.add_argument("--deals", type=int, default=100, help="deals per model, each played at every seat")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=None, help="path prefix of the .md and .json files")
    args = parser.parse_args(argv)
    if not (args.run / CONFIG_FILE_NAME).is_file():
        parser.error(f"{args.run} is not a train.py run directory (no {CONFIG_FILE_NAME})")
    rows = curve(args.run, args.reference, args.deals, args.seed, args.workers)
    config = load_experiment_config(args.run / CONFIG_FILE_NAME)
    game = game_record_of_env_id(resolve_env_id(config.env.id)).name
    command = "python -m benchmarks.learning_curve " + " ".join(sys.argv[1:] if argv is None else argv)
    document = {"run": args.run.name, "reference": args.reference, "deals": args.deals, "rows": rows}
    write_report(
        args.out or RESULTS_DIR / f"{game}_learning_curve", markdown(rows, args.run, args.reference, command), document
    )
    print(markdown(rows, args.run, args.reference, command))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
