"""Win rate of MCTS on Unbroken against simulations per decision, beside the heuristic on the same deals.

    python benchmarks/mcts_curve.py --simulations 4 16 32 --episodes 50 --workers 2

Episode i uses seed SEED + i for every agent (the same deals). MCTS settings other than the simulation count come
from configs/unbroken/eval.yaml (heuristic prior and rollouts). Writes benchmarks/results/unbroken_mcts_curve.json
and .md (the table for the README), with the wall time of each point on this machine.
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
from agents.evaluation import EvaluationGroup, run_evaluation  # noqa: E402

ENV_ID = "tabletop/Unbroken-v0"
RESULTS_DIR = REPO_ROOT / "benchmarks" / "results"
EVAL_CONFIG = REPO_ROOT / "configs" / "unbroken" / "eval.yaml"


def parse_args(argv: list[str]) -> argparse.Namespace:
    """The command line of the curve."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--simulations", type=int, nargs="+", default=[4, 16, 32], help="points of the curve")
    parser.add_argument("--episodes", type=int, default=50, help="episodes per point")
    parser.add_argument("--difficulty", default="normal", choices=["easy", "normal", "hard"])
    parser.add_argument("--seed", type=int, default=0, help="episode i uses seed SEED + i")
    parser.add_argument("--workers", type=int, default=1, help="worker processes")
    parser.add_argument("--out-dir", type=Path, default=RESULTS_DIR, help="where the .json and .md go")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Evaluate the heuristic and MCTS at each budget on the same seeds; write the curve."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    mcts_settings = to_plain(load_eval_config(EVAL_CONFIG).mcts)
    kwargs = {"difficulty": args.difficulty}
    points = []
    heuristic_wins: list[bool] = []
    for spec in ["heuristic", *(f"mcts:{n}" for n in args.simulations)]:
        start = time.monotonic()
        (result,) = run_evaluation(
            [EvaluationGroup(spec, ENV_ID, kwargs, kwargs)],
            args.episodes,
            args.seed,
            args.workers,
            {"mcts": mcts_settings},
        )
        wins = [episode.won for episode in result.episodes]
        if spec == "heuristic":
            heuristic_wins = wins
        summary = result.summary
        point = {
            "agent": spec,
            "simulations": 0 if spec == "heuristic" else int(spec.split(":")[1]),
            "episodes": summary["episodes"],
            "win_rate": summary["win_rate"],
            "win_rate_ci95": summary["win_rate_ci95"],
            "mean_score": summary["mean_score"],
            "won_where_heuristic_lost": sum(w and not h for w, h in zip(wins, heuristic_wins, strict=True)),
            "lost_where_heuristic_won": sum(h and not w for w, h in zip(wins, heuristic_wins, strict=True)),
            "wall_seconds": round(time.monotonic() - start, 1),
        }
        points.append(point)
        print(json.dumps(point), flush=True)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    document = {
        "env_id": ENV_ID,
        "env_kwargs": kwargs,
        "seed": args.seed,
        "workers": args.workers,
        "mcts": mcts_settings,
        "created": datetime.now().isoformat(timespec="seconds"),
        "points": points,
    }
    (args.out_dir / "unbroken_mcts_curve.json").write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    lines = [
        f"# MCTS on Unbroken ({args.difficulty}): win rate against simulations per decision\n",
        f"`python benchmarks/mcts_curve.py --simulations {' '.join(map(str, args.simulations))} "
        f"--episodes {args.episodes} --workers {args.workers}` (episode i uses seed {args.seed} + i for every agent; "
        f"prior {mcts_settings['prior']}, rollouts {mcts_settings['rollout']}).\n",
        "| agent | simulations | episodes | win rate | 95% CI | mean score | won / lost vs heuristic (paired) "
        "| wall time |",
        "|---|---:|---:|---:|---|---:|---|---:|",
    ]
    for p in points:
        low, high = p["win_rate_ci95"]
        lines.append(
            f"| {p['agent']} | {p['simulations']} | {p['episodes']} | {p['win_rate']:.1%} | [{low:.1%}, {high:.1%}] "
            f"| {p['mean_score']:.2f} | +{p['won_where_heuristic_lost']} / -{p['lost_where_heuristic_won']} "
            f"| {p['wall_seconds']:.0f} s |"
        )
    (args.out_dir / "unbroken_mcts_curve.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
