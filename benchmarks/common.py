"""What the benchmarks share: the --game and --sweep arguments, the game's record and eval config, the results dir."""

from __future__ import annotations

import argparse
import json
import math
import subprocess
from pathlib import Path
from typing import Any

from agents.common.config import ConfigError, EvalConfig, load_eval_config
from agents.evaluation.episodes import parse_sweep_flag
from agents.evaluation.evaluate_cli import game_eval_config
from envs.core.registration import GameRecord, UnknownGameError, game_record, registered_games

RESULTS_DIR = Path(__file__).resolve().parent / "results"
"""Where benchmarks write their reports by default (`<game>_<benchmark>.json` and `.md`)."""


BOUND_FACTOR = 10
"""A practical episode bound is this many times the longest measured game (the game-length benchmarks)."""
BOUND_ROUNDING = 500
"""A practical episode bound is rounded up to a multiple of this."""


def practical_bound(longest: int) -> int:
    """BOUND_FACTOR times the longest game, rounded up to a multiple of BOUND_ROUNDING."""
    return math.ceil(BOUND_FACTOR * longest / BOUND_ROUNDING) * BOUND_ROUNDING


def bound_sentence(longest: int, max_game_length: int) -> str:
    """The game-length reports' last line: the longest game, the practical bound it implies, and whether the game's
    `MAX_GAME_LENGTH` covers it."""
    bound = practical_bound(longest)
    verdict = " (covers it)." if max_game_length >= bound else " (BELOW it: raise MAX_GAME_LENGTH)."
    return (
        f"Longest game: {longest} decisions. Practical bound ({BOUND_FACTOR}x, rounded up to a multiple of "
        f"{BOUND_ROUNDING}): {bound}. `MAX_GAME_LENGTH` (the env's `max_episode_steps`): {max_game_length}{verdict}"
    )


def write_report(stem: Path, markdown: str, document: Any) -> None:
    """Write a benchmark's report as `stem`.md (the tables) and `stem`.json (every figure), creating the folder."""
    stem.parent.mkdir(parents=True, exist_ok=True)
    stem.with_suffix(".json").write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    stem.with_suffix(".md").write_text(markdown, encoding="utf-8")


def add_game_argument(parser: argparse.ArgumentParser, required: bool = True) -> None:
    """--game NAME: the registered game to benchmark (`required=False`: the benchmark has other subjects)."""
    parser.add_argument("--game", required=required, help=f"registered game ({', '.join(registered_games())})")


def add_sweep_argument(parser: argparse.ArgumentParser, default_help: str) -> None:
    """--sweep KEY=V1,V2 (repeatable): the env settings to measure; `default_help` says what is swept without it."""
    parser.add_argument(
        "--sweep",
        action="append",
        default=[],
        metavar="KEY=V1,V2",
        help=f"env kwarg and the values to measure, repeat for several (default: {default_help})",
    )


def record_from_args(
    parser: argparse.ArgumentParser, args: argparse.Namespace, require_gym_env: bool = True
) -> GameRecord:
    """The record of --game; an unknown game, or one without a Gymnasium env if `require_gym_env`, is a parser error."""
    try:
        record = game_record(args.game)
    except UnknownGameError as error:
        parser.error(str(error))
    if require_gym_env and record.primary_env_id is None:
        parser.error(f"{record.name} has no Gymnasium env to benchmark")
    return record


def primary_env_id(record: GameRecord) -> str:
    """The game's primary Gymnasium id (record_from_args has checked that there is one)."""
    assert record.primary_env_id is not None
    return record.primary_env_id


def sweep_from_args(
    parser: argparse.ArgumentParser, flags: list[str], default: dict[str, list[Any]]
) -> dict[str, list[Any]]:
    """The --sweep flags as a mapping env kwarg -> values, or `default` when none is given."""
    try:
        sweep = dict(parse_sweep_flag(flag) for flag in flags)
    except ConfigError as error:
        parser.error(str(error))
    return sweep or default


def record_settings(record: GameRecord) -> dict[str, list[Any]]:
    """The record's balance sweep as a sweep flag gives it: every value of its main setting (`balance_sweep`)."""
    return {key: list(values) for key, values in record.balance_sweep.items()}


def game_eval_settings(record: GameRecord) -> EvalConfig:
    """The game's evaluation config (configs/<game>/eval.yaml): base env kwargs and MCTS defaults."""
    return load_eval_config(game_eval_config(record.name))


def git_label(repository: Path | None = None) -> str:
    """The checked-out commit's short hash (of `repository`, default the current folder's), with "+changes" when
    tracked files differ from it; "unknown commit" outside a git checkout."""
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=repository, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(["git", "diff", "--quiet", "HEAD"], cwd=repository, check=False).returncode != 0
    except (OSError, subprocess.CalledProcessError):
        return "unknown commit"
    return f"{commit}+changes" if dirty else commit
