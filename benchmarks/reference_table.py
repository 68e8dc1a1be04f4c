"""Reference strength table of a game's agents: win rate (95% Wilson CI) and mean score per swept setting.

    python -m benchmarks.reference_table --game GAME --sweep KEY=V1,V2 --model runs/RUN/final_model.zip --workers 2

Rows: random, heuristic, mcts (--mcts-simulations) and, when --model is given, a trained MaskablePPO model, at each
combination of the swept env kwargs (default: every setting of the game's record). The env kwargs not swept and the
MCTS settings other than the simulation count come from the game's eval config (configs/<game>/eval.yaml), like
evaluate.py's. Episode i uses seed SEED + i for every agent, so all agents face the same deals. Writes
benchmarks/results/<game>_reference.json (every figure) and <game>_reference.md (the table for the README).
The full run takes long (MCTS dominates); --episodes and --mcts-episodes trade precision for time.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from agents.common.config import to_plain
from agents.evaluation.episodes import GroupResult, agent_label, build_groups, run_evaluation, sweep_combinations
from benchmarks.common import (
    RESULTS_DIR,
    add_game_argument,
    add_sweep_argument,
    game_eval_settings,
    primary_env_id,
    record_from_args,
    record_settings,
    sweep_from_args,
)

SUMMARY_COLUMNS = ("episodes", "win_rate", "win_rate_ci95", "mean_score")
"""Summary figures each row carries at its top level (the whole summary is under `summary`)."""


def build_parser() -> argparse.ArgumentParser:
    """The command line of the reference table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_game_argument(parser)
    add_sweep_argument(parser, "every value of the main setting of the game's record, the others at their defaults")
    parser.add_argument("--model", default=None, help="trained MaskablePPO model (.zip) or run directory")
    parser.add_argument("--episodes", type=int, default=1000, help="episodes per setting for random/heuristic/ppo")
    parser.add_argument("--mcts-episodes", type=int, default=200, help="episodes per setting for mcts")
    parser.add_argument("--mcts-simulations", type=int, default=200, help="simulations per MCTS decision")
    parser.add_argument("--model-budget", default="", help="how the model was trained (budget, wall time)")
    parser.add_argument("--seed", type=int, default=0, help="episode i uses seed SEED + i")
    parser.add_argument("--workers", type=int, default=1, help="worker processes")
    parser.add_argument("--out-dir", type=Path, default=RESULTS_DIR, help="where the .json and .md go")
    return parser


def markdown_table(rows: list[dict[str, Any]], sweep_keys: list[str]) -> str:
    """The results as a Markdown table, one line per (swept setting, agent)."""
    columns = [*sweep_keys, "agent", "episodes", "win rate", "95% CI", "mean score"]
    alignments = ["---"] * (len(sweep_keys) + 1) + ["---:", "---:", "---", "---:"]
    lines = [f"| {' | '.join(columns)} |", f"|{'|'.join(alignments)}|"]
    for row in rows:
        low, high = row["win_rate_ci95"]
        cells = [str(row[key]) for key in sweep_keys]
        cells += [
            row["agent"],
            str(row["episodes"]),
            f"{row['win_rate']:.1%}",
            f"[{low:.1%}, {high:.1%}]",
            f"{row['mean_score']:.2f}",
        ]
        lines.append(f"| {' | '.join(cells)} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Evaluate every agent at every swept setting and write the reference .json and .md."""
    parser = build_parser()
    arguments = sys.argv[1:] if argv is None else argv
    args = parser.parse_args(arguments)
    command = "python -m benchmarks.reference_table " + " ".join(arguments)
    record = record_from_args(parser, args)
    env_id = primary_env_id(record)
    sweep = sweep_from_args(parser, args.sweep, record_settings(record))
    eval_settings = game_eval_settings(record)
    mcts_settings = to_plain(eval_settings.mcts)
    agent_options = {"mcts": mcts_settings}
    mcts_spec = f"mcts:{args.mcts_simulations}"
    plans = [("random", args.episodes), ("heuristic", args.episodes), (mcts_spec, args.mcts_episodes)]
    if args.model:
        plans.append((args.model, args.episodes))
    start = time.monotonic()
    results: list[GroupResult] = []
    for agent, episodes in plans:
        groups = build_groups([agent], env_id, eval_settings.env.kwargs, sweep)
        results += run_evaluation(groups, episodes, args.seed, args.workers, agent_options)
        print(f"{agent_label(agent)}: done after {time.monotonic() - start:.0f}s", flush=True)
    order = [tuple(combination.items()) for combination in sweep_combinations(sweep)]
    rows = [
        {
            **result.group.sweep,
            "agent": agent_label(result.group.agent),
            "agent_spec": result.group.agent,
            **{key: result.summary[key] for key in SUMMARY_COLUMNS},
            "summary": result.summary,
        }
        for result in sorted(results, key=lambda result: order.index(tuple(result.group.sweep.items())))
    ]
    args.out_dir.mkdir(parents=True, exist_ok=True)
    document = {
        "command": command,
        "env_id": env_id,
        "env_kwargs": eval_settings.env.kwargs,
        "sweep": sweep,
        "seed": args.seed,
        "mcts": {**mcts_settings, "num_simulations": args.mcts_simulations},
        "created": datetime.now().isoformat(timespec="seconds"),
        "model": args.model,
        "model_budget": args.model_budget,
        "wall_seconds": round(time.monotonic() - start, 1),
        "workers": args.workers,
        "rows": rows,
    }
    json_path = args.out_dir / f"{record.name}_reference.json"
    json_path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    table = markdown_table(rows, list(sweep))
    header = (
        f"# {record.name} reference results\n\n`{command}` "
        f"(seed {args.seed}; episode i uses seed {args.seed} + i; MCTS with {args.mcts_simulations} simulations per "
        f"decision, rollout depth {mcts_settings['rollout_depth']}, prior {mcts_settings['prior']}, rollouts "
        f"{mcts_settings['rollout']}; {args.workers} worker(s), {time.monotonic() - start:.0f} s in all).\n\n"
    )
    if args.model:
        budget = f": {args.model_budget}" if args.model_budget else ""
        header += f"MaskablePPO model: `{args.model}`{budget}.\n\n"
    (args.out_dir / f"{record.name}_reference.md").write_text(header + table, encoding="utf-8")
    print(table)
    print(f"wrote {json_path} and .md in {time.monotonic() - start:.0f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
