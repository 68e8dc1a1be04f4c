"""Reference strength table of Unbroken agents: win rate (95% Wilson CI) and mean score per difficulty.

    python benchmarks/reference_table.py --model runs/unbroken__maskable_ppo__0__.../final_model.zip --workers 2

Rows: random, heuristic, mcts (--mcts-simulations) and, when --model is given, a trained MaskablePPO model, at each
difficulty. Episode i uses seed SEED + i for every agent, so all agents face the same deals. Writes
benchmarks/results/unbroken_reference.json (every figure) and unbroken_reference.md (the table for the README).
The full run takes long (MCTS dominates); --episodes and --mcts-episodes trade precision for time.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import datetime
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from agents.config import load_eval_config, to_plain  # noqa: E402
from agents.evaluation import EvaluationGroup, GroupResult, agent_label, run_evaluation  # noqa: E402

ENV_ID = "tabletop/Unbroken-v0"
DIFFICULTIES = ("easy", "normal", "hard")
RESULTS_DIR = REPO_ROOT / "benchmarks" / "results"
EVAL_CONFIG = REPO_ROOT / "configs" / "unbroken" / "eval.yaml"
"""MCTS settings other than the simulation count come from the eval config, like evaluate.py's."""


def parse_args(argv: list[str]) -> argparse.Namespace:
    """The command line of the reference table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default=None, help="trained MaskablePPO model (.zip) or run directory")
    parser.add_argument("--episodes", type=int, default=1000, help="episodes per difficulty for random/heuristic/ppo")
    parser.add_argument("--mcts-episodes", type=int, default=200, help="episodes per difficulty for mcts")
    parser.add_argument("--mcts-simulations", type=int, default=200, help="simulations per MCTS decision")
    parser.add_argument("--model-budget", default="", help="how the model was trained (budget, wall time)")
    parser.add_argument("--seed", type=int, default=0, help="episode i uses seed SEED + i")
    parser.add_argument("--workers", type=int, default=1, help="worker processes")
    parser.add_argument("--out-dir", type=Path, default=RESULTS_DIR, help="where the .json and .md go")
    return parser.parse_args(argv)


def markdown_table(rows: list[dict]) -> str:
    """The results as a Markdown table, one line per (difficulty, agent)."""
    lines = [
        "| difficulty | agent | episodes | win rate | 95% CI | mean score |",
        "|---|---|---:|---:|---|---:|",
    ]
    for row in rows:
        low, high = row["win_rate_ci95"]
        lines.append(
            f"| {row['difficulty']} | {row['agent']} | {row['episodes']} | {row['win_rate']:.1%} "
            f"| [{low:.1%}, {high:.1%}] | {row['mean_score']:.2f} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Evaluate every agent at every difficulty and write the reference .json and .md."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    mcts_spec = f"mcts:{args.mcts_simulations}"
    mcts_settings = to_plain(load_eval_config(EVAL_CONFIG).mcts)
    agent_options = {"mcts": mcts_settings}
    plans = [("random", args.episodes), ("heuristic", args.episodes), (mcts_spec, args.mcts_episodes)]
    if args.model:
        plans.append((args.model, args.episodes))
    start = time.monotonic()
    results: list[GroupResult] = []
    for agent, episodes in plans:
        groups = [EvaluationGroup(agent, ENV_ID, {"difficulty": d}, {"difficulty": d}) for d in DIFFICULTIES]
        results += run_evaluation(groups, episodes, args.seed, args.workers, agent_options)
        print(f"{agent_label(agent)}: done after {time.monotonic() - start:.0f}s", flush=True)
    rows = [
        {
            "difficulty": result.group.sweep["difficulty"],
            "agent": agent_label(result.group.agent),
            "agent_spec": result.group.agent,
            **{key: result.summary[key] for key in ("episodes", "win_rate", "win_rate_ci95", "mean_score")},
            "summary": result.summary,
        }
        for result in results
    ]
    rows.sort(key=lambda row: DIFFICULTIES.index(row["difficulty"]))
    args.out_dir.mkdir(parents=True, exist_ok=True)
    document = {
        "env_id": ENV_ID,
        "seed": args.seed,
        "mcts": {**mcts_settings, "num_simulations": args.mcts_simulations},
        "created": datetime.now().isoformat(timespec="seconds"),
        "model": args.model,
        "model_budget": args.model_budget,
        "wall_seconds": round(time.monotonic() - start, 1),
        "workers": args.workers,
        "rows": rows,
    }
    (args.out_dir / "unbroken_reference.json").write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    table = markdown_table(rows)
    header = (
        f"# Unbroken reference results\n\n`python benchmarks/reference_table.py` (seed {args.seed}; episode i uses "
        f"seed {args.seed} + i; MCTS with {args.mcts_simulations} simulations per decision, rollout depth "
        f"{mcts_settings['rollout_depth']}, prior {mcts_settings['prior']}, rollouts {mcts_settings['rollout']}; "
        f"{args.workers} worker(s), {time.monotonic() - start:.0f} s in all).\n\n"
    )
    if args.model:
        budget = f": {args.model_budget}" if args.model_budget else ""
        header += f"MaskablePPO model: `{args.model}`{budget}.\n\n"
    (args.out_dir / "unbroken_reference.md").write_text(header + table, encoding="utf-8")
    print(table)
    print(f"wrote {args.out_dir / 'unbroken_reference.json'} and .md in {time.monotonic() - start:.0f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
