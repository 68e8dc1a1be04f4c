"""A training run's strength against training time: every saved model of the run beside a reference agent.

For each model a run directory holds (the pretrained policy, every checkpoint, the final model) this plays on the
run's own env settings, `--deals` deals, the same deals for every model, and reports the wall time of training when
the model was written (its file time minus the run's start in run_info.json, pauses included).

- A multi-player game: a two-agent tournament against the reference (the heuristic by default), each deal played
  with the seats rotated: the model's share of games placed above the reference (ties half) with its Wilson
  interval, and the Elo difference that share implies (400 log10(p / (1 - p))).
- A solo game (no PettingZoo env): each model and the reference play the same seeded episodes (episode i with seed
  SEED + i): the model's win rate with its Wilson interval and its mean return with a 95% normal interval, beside
  the reference's (one row of its own).

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
from agents.evaluation.episodes import GroupResult, build_groups, headline_fact_of, run_evaluation
from agents.evaluation.tournament import Tournament, pairwise_table, run_tournaments
from benchmarks.common import RESULTS_DIR, write_report
from envs.core.registration import game_record_of_env_id

CHECKPOINT_STEPS = re.compile(r"model_(\d+)_steps\.zip$")
"""A checkpoint's file name and its training steps."""
ELO_CAP = 800.0
"""Elo differences are capped at +-this (a share of 0 or 1 implies an infinite one)."""
NORMAL_Z_95 = 1.96
"""Half-width of a 95% normal interval of a mean, in standard errors."""


def run_models(run_dir: Path, every: int = 1) -> list[tuple[str, int | None, Path]]:
    """(label, training steps or None, path) of the run's models in training order: the pretrained policy, every
    `every`-th checkpoint (counting from the last, which is always kept) and the final model."""
    models: list[tuple[str, int | None, Path]] = []
    pretrained = run_dir / "pretrained_model.zip"
    if pretrained.is_file():
        models.append(("pretrained", 0, pretrained))
    checkpoints = []
    for path in (run_dir / "checkpoints").glob("model_*_steps.zip"):
        match = CHECKPOINT_STEPS.search(path.name)
        if match:
            checkpoints.append((int(match.group(1)), path))
    kept = sorted(checkpoints)[::-1][::every][::-1]
    models.extend((f"{steps} steps", steps, path) for steps, path in kept)
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


def is_solo_run(run_dir: Path) -> bool:
    """Whether the run trained on a solo game (its game has no PettingZoo env)."""
    config = load_experiment_config(run_dir / CONFIG_FILE_NAME)
    return not game_record_of_env_id(resolve_env_id(config.env.id)).pettingzoo_ids


def return_interval(result: GroupResult) -> tuple[float, float, float]:
    """Mean episode return of a group and its 95% normal interval."""
    returns = [episode.episode_return for episode in result.episodes]
    mean = sum(returns) / len(returns)
    spread = math.sqrt(sum((value - mean) ** 2 for value in returns) / max(1, len(returns) - 1))
    half = NORMAL_Z_95 * spread / math.sqrt(len(returns))
    return mean, mean - half, mean + half


def solo_row(label: str, steps: int | None, wall_minutes: float | None, result: GroupResult) -> dict[str, Any]:
    """One row of a solo curve: the agent's win rate and mean return over the episodes, with their intervals, and
    how its episodes ended (the game's headline outcome fact, if it names one)."""
    mean, low, high = return_interval(result)
    summary = result.summary
    fact = headline_fact_of(result.group.env_id)
    return {
        "model": label,
        "steps": steps,
        "wall_minutes": wall_minutes,
        "games": summary["episodes"],
        "win_rate": summary["win_rate"],
        "ci95": summary["win_rate_ci95"],
        "mean_return": mean,
        "return_ci95": [low, high],
        "outcomes": summary.get(f"{fact}_distribution", {}) if fact else {},
    }


def solo_curve(
    run_dir: Path, reference: str, episodes: int, seed: int, workers: int, every: int = 1
) -> list[dict[str, Any]]:
    """The reference's row, then one row per model of a solo run, all on the same seeded episodes."""
    config = load_experiment_config(run_dir / CONFIG_FILE_NAME)
    env_id = resolve_env_id(config.env.id)
    start = started_at(run_dir)
    (result,) = run_evaluation(build_groups([reference], env_id, config.env.kwargs, {}), episodes, seed, workers)
    rows = [solo_row(reference, None, None, result)]
    for label, steps, path in run_models(run_dir, every):
        began = time.perf_counter()
        (result,) = run_evaluation(build_groups([str(path)], env_id, config.env.kwargs, {}), episodes, seed, workers)
        row = solo_row(label, steps, round((path.stat().st_mtime - start) / 60.0, 1), result)
        rows.append({**row, "eval_seconds": round(time.perf_counter() - began, 1)})
        low, high = row["ci95"]
        print(f"{label}: {row['win_rate']:.1%} [{low:.1%}, {high:.1%}] over {row['games']} episodes", file=sys.stderr)
    return rows


def curve(run_dir: Path, reference: str, deals: int, seed: int, workers: int, every: int = 1) -> list[dict[str, Any]]:
    """One row per model of the run: its share against `reference`, the interval, the Elo difference, wall time."""
    config = load_experiment_config(run_dir / CONFIG_FILE_NAME)
    env_id = resolve_env_id(config.env.id)
    record = game_record_of_env_id(env_id)
    num_players = int(config.env.kwargs.get("num_players", 2))
    start = started_at(run_dir)
    rows = []
    for label, steps, path in run_models(run_dir, every):
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


def solo_markdown(rows: list[dict[str, Any]], run_dir: Path, reference: str, command: str) -> str:
    """A solo curve as a Markdown table (the reference's row first) with the command that made it."""
    lines = [
        f"Run `{run_dir.name}` beside `{reference}` on the same seeded episodes (`{command}`):",
        "",
        "| model | steps | training wall time | episodes | win rate | 95% CI | mean return | 95% CI | outcomes |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        low, high = row["ci95"]
        return_low, return_high = row["return_ci95"]
        steps = "" if row["steps"] is None else f"{row['steps']:,}"
        wall = "" if row["wall_minutes"] is None else f"{row['wall_minutes']} min"
        lines.append(
            f"| {row['model']} | {steps} | {wall} | {row['games']} | {row['win_rate']:.1%} | [{low:.1%}, {high:.1%}] "
            f"| {row['mean_return']:+.3f} | [{return_low:+.3f}, {return_high:+.3f}] | "
            f"{', '.join(f'{value} {count}' for value, count in row['outcomes'].items())} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Command line: measure and write the curve of one run."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--run", type=Path, required=True, help="a train.py run directory")
    parser.add_argument("--reference", default="heuristic", help="the agent every model meets (default heuristic)")
    parser.add_argument(
        "--deals", type=int, default=100, help="deals per model, each played at every seat (a solo game: episodes)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--every", type=int, default=1, help="play every N-th checkpoint only (the last, pretrained and final always)"
    )
    parser.add_argument("--out", type=Path, default=None, help="path prefix of the .md and .json files")
    args = parser.parse_args(argv)
    if args.every < 1:
        parser.error(f"--every must be a positive integer, got {args.every}")
    if not (args.run / CONFIG_FILE_NAME).is_file():
        parser.error(f"{args.run} is not a train.py run directory (no {CONFIG_FILE_NAME})")
    solo = is_solo_run(args.run)
    if solo:
        rows = solo_curve(args.run, args.reference, args.deals, args.seed, args.workers, args.every)
    else:
        rows = curve(args.run, args.reference, args.deals, args.seed, args.workers, args.every)
    config = load_experiment_config(args.run / CONFIG_FILE_NAME)
    game = game_record_of_env_id(resolve_env_id(config.env.id)).name
    command = "python -m benchmarks.learning_curve " + " ".join(sys.argv[1:] if argv is None else argv)
    document = {
        "command": command,
        "run": args.run.name,
        "reference": args.reference,
        "deals": args.deals,
        "seed": args.seed,
        "rows": rows,
    }
    table = (solo_markdown if solo else markdown)(rows, args.run, args.reference, command)
    write_report(args.out or RESULTS_DIR / f"{game}_learning_curve", table, document)
    print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
