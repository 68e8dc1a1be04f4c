"""Evaluate agents: `python evaluate.py --config configs/unbroken/eval.yaml --agent heuristic --agent runs/RUN`.

AGENT is random, heuristic, mcts (mcts:200 sets the simulations), a saved model (.zip) or a train.py run directory.
Episode i uses seed S+i for the env and the agent, so the same seed gives identical results, also with --workers.
Writes a rich table to the terminal and results.json, score_histograms.png (and win_rate_over_training.png for
run directories) to the output folder; --record also writes every episode's actions for `python -m envs.replay`.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from agents.config import ConfigError, EnvConfig, EvalConfig, load_eval_config, to_plain
from agents.registry import AgentSpecError

DEFAULT_CONFIG = Path(__file__).resolve().parent / "configs" / "unbroken" / "eval.yaml"
"""The evaluation config used without --config."""
TABLE_WIDTH_OFF_TERMINAL = 160
"""Width of the results table when stdout is not a terminal."""


def parse_args(argv: list[str]) -> argparse.Namespace:
    """The command line of evaluate.py."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", type=Path, default=DEFAULT_CONFIG, help=f"eval config (default: {DEFAULT_CONFIG})")
    parser.add_argument("--agent", action="append", default=None, help="agent spec; repeat to compare agents")
    parser.add_argument("--episodes", type=int, default=None, help="episodes per agent (and difficulty)")
    parser.add_argument("--seed", type=int, default=None, help="episode i uses seed SEED + i")
    parser.add_argument("--workers", type=int, default=None, help="worker processes")
    parser.add_argument("--out", type=Path, default=None, help="output folder (default: a timestamped folder)")
    parser.add_argument("--record", action="store_true", help="write each episode's actions as replayable JSON")
    parser.add_argument("--by-difficulty", action="store_true", help="evaluate at every difficulty of the config")
    parser.add_argument("overrides", nargs="*", metavar="key=value", help="dotted eval-config overrides")
    return parser.parse_args(argv)


def resolve_settings(args: argparse.Namespace) -> EvalConfig:
    """The eval config with the command-line flags applied (flags win over the file)."""
    overrides = list(args.overrides)
    for flag, key in (("episodes", "episodes"), ("seed", "seed"), ("workers", "workers")):
        value = getattr(args, flag)
        if value is not None:
            overrides.append(f"evaluation.{key}={value}")
    if args.agent:
        overrides.append(f"evaluation.agents={json.dumps(args.agent)}")
    return load_eval_config(args.config, overrides)


def build_groups(config: EvalConfig, by_difficulty: bool) -> list[Any]:
    """One EvaluationGroup per agent (and per difficulty with --by-difficulty)."""
    from agents.evaluation import EvaluationGroup

    groups = []
    for agent in config.evaluation.agents:
        if by_difficulty:
            for difficulty in config.evaluation.difficulties:
                kwargs = {**config.env.kwargs, "difficulty": difficulty}
                groups.append(EvaluationGroup(agent, config.env.id, kwargs, difficulty))
        else:
            groups.append(EvaluationGroup(agent, config.env.id, dict(config.env.kwargs)))
    return groups


def print_table(results: list[Any], by_difficulty: bool) -> None:
    """The results as a rich table."""
    from rich.console import Console
    from rich.table import Table

    from agents.evaluation import agent_label

    table = Table(title="Evaluation")
    table.add_column("agent")
    if by_difficulty:
        table.add_column("difficulty")
    for name in ("episodes", "win rate", "95% CI", "mean score", "mean length", "top titles"):
        table.add_column(name, justify="left" if name == "top titles" else "right")
    for result in results:
        summary = result.summary
        low, high = summary["win_rate_ci95"]
        titles = ", ".join(f"{title} {count}" for title, count in list(summary["title_distribution"].items())[:3])
        row = [agent_label(result.group.agent)]
        if by_difficulty:
            row.append(str(result.group.difficulty))
        row += [
            str(summary["episodes"]),
            f"{summary['win_rate']:.1%}",
            f"[{low:.1%}, {high:.1%}]",
            f"{summary['mean_score']:.2f} ± {summary['score_std']:.2f}",
            f"{summary['mean_length']:.1f}",
            titles or "-",
        ]
        table.add_row(*row)
    console = Console()
    if not console.is_terminal:
        console = Console(width=TABLE_WIDTH_OFF_TERMINAL)  # logs and pipes: no wrapping at 80 columns
    console.print(table)


def write_outputs(config: EvalConfig, results: list[Any], out_dir: Path, args: argparse.Namespace) -> None:
    """results.json, plots and (with --record) one replayable JSON per episode."""
    from agents.evaluation import (
        agent_label,
        plot_score_histograms,
        plot_training_win_rates,
        recording_document,
        results_document,
        slug,
        training_win_rates,
    )
    from agents.registry import is_model_path

    out_dir.mkdir(parents=True, exist_ok=True)
    meta = {
        "config": to_plain(config),
        "by_difficulty": args.by_difficulty,
        "created": datetime.now().isoformat(timespec="seconds"),
    }
    document = results_document(results, meta)
    (out_dir / "results.json").write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    plot_score_histograms(results, out_dir / "score_histograms.png")
    run_dirs = {
        agent: Path(agent) for agent in config.evaluation.agents if is_model_path(agent) and Path(agent).is_dir()
    }
    curves = {agent_label(agent): training_win_rates(path) for agent, path in run_dirs.items()}
    if plot_training_win_rates(curves, out_dir / "win_rate_over_training.png"):
        print(f"win rate over training: {out_dir / 'win_rate_over_training.png'}")
    if args.record:
        for result in results:
            folder = out_dir / "recordings" / slug(result.group.agent)
            if result.group.difficulty:
                folder = folder / result.group.difficulty
            folder.mkdir(parents=True, exist_ok=True)
            for episode in result.episodes:
                path = folder / f"episode_{episode.episode:05d}.json"
                path.write_text(json.dumps(recording_document(result.group, episode)) + "\n", encoding="utf-8")
        print(f"recordings: {out_dir / 'recordings'} (replay: python -m envs.replay FILE --render ansi)")


def main(argv: list[str] | None = None) -> int:
    """Validate the config and agents, play every episode, report and write the outputs."""
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    from agents.environment import probe_env
    from agents.evaluation import check_agents, run_evaluation

    try:
        config = resolve_settings(args)
        facts = probe_env(config.env, str(args.config))
        groups = build_groups(config, args.by_difficulty)
        if args.by_difficulty:
            for difficulty in config.evaluation.difficulties:
                probe_env(EnvConfig(config.env.id, {**config.env.kwargs, "difficulty": difficulty}), str(args.config))
        agent_options = {"mcts": to_plain(config.mcts)}
        check_agents(config.evaluation.agents, config.env.id, dict(config.env.kwargs), agent_options)
    except (ConfigError, AgentSpecError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    settings = config.evaluation
    out_dir = args.out or Path(settings.out_dir) / f"{facts.game_name}__{datetime.now():%Y%m%d-%H%M%S}"
    print(
        f"evaluating {', '.join(settings.agents)} on {config.env.id}: {settings.episodes} episodes each, "
        f"seeds {settings.seed}..{settings.seed + settings.episodes - 1}, {settings.workers} worker(s)"
    )
    start = time.monotonic()
    results = run_evaluation(
        groups, settings.episodes, settings.seed, settings.workers, agent_options, record=args.record
    )
    print_table(results, args.by_difficulty)
    write_outputs(config, results, out_dir, args)
    print(f"done in {time.monotonic() - start:.1f}s; results: {out_dir / 'results.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
