"""The main job's published figures, regenerated: `python train.py` (the README's first command) run end to end, its
closing evaluation written as a results file, or checked against the shipped one.

The main job is deterministic (one seed, one thread, dummy envs, seeded pretraining workers, and torch's portable
kernels, the same numerical path on every x86-64 CPU: `train.cpu_kernels: portable`, agents.common.kernels), so its
closing table is a fixed function of the code and the config: `--check` runs it again and fails, naming each
difference, unless every agent's outcome on every deal equals the shipped one. CI runs the check (`.ci/run`), so a
change that moves the main job's figures must regenerate them in the same commit. On a machine whose kernels cannot
take the shipped path (not x86-64, or a user's own kernel settings), the outcomes cannot match deal by deal: the check
then asks what holds on every path measured (benchmarks/main_job_spread.py): the PPO phase's gain above zero with its
paired interval.

    python -m benchmarks.main_job            # writes benchmarks/results/<game>_main_job.{md,json}
    python -m benchmarks.main_job --check    # exit 1 when the regenerated figures differ from the shipped ones
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from agents.common.config import load_experiment_config
from agents.common.kernels import kernel_path, pin_cpu_kernels
from agents.common.shipped_configs import resolve_config_path
from agents.evaluation.ratings import paired_difference
from agents.training.train_cli import DEFAULT_CONFIG, FINAL_EVAL_DIR_NAME, ppo_phase_text
from agents.training.train_cli import main as train_main
from benchmarks.common import RESULTS_DIR, write_report
from envs.core.registration import game_record_of_env_id

COMMAND = "python -m benchmarks.main_job"
"""The command that writes the report (named in it)."""


def run_main_job(run_root: Path, seed: int | None = None) -> tuple[Path, float]:
    """`python train.py` with the default config (`seed`: its train.seed instead of the config's), its runs under
    `run_root`; the run directory and the seconds."""
    started = time.monotonic()
    overrides = [f"train.seed={seed}"] if seed is not None else []
    status = train_main(["--no-progress", f"logging.run_root={run_root}", *overrides])
    if status != 0:
        raise SystemExit(f"train.py exited with status {status}")
    runs = sorted(path for path in run_root.iterdir() if path.is_dir())
    if len(runs) != 1:
        raise SystemExit(f"expected one run directory under {run_root}, found {[path.name for path in runs]}")
    return runs[0], time.monotonic() - started


def figures(run_dir: Path) -> dict[str, Any]:
    """The closing evaluation's figures: per agent (in the table's order) its summary and its outcome on each deal."""
    results = json.loads((run_dir / FINAL_EVAL_DIR_NAME / "results.json").read_text(encoding="utf-8"))
    agents = []
    for position, group in enumerate(results["results"]):
        summary = group["summary"]
        role = ("final model", "pretrained model")[position] if position < 2 and "/" in group["agent"] else None
        agents.append(
            {
                "agent": role or group["agent"],
                "episodes": summary["episodes"],
                "win_rate": summary["win_rate"],
                "win_rate_ci95": summary["win_rate_ci95"],
                "mean_score": summary["mean_score"],
                "mean_length": summary["mean_length"],
                "won": [bool(episode["won"]) for episode in group["episodes"]],
            }
        )
    return {"env_id": results["results"][0]["env_id"], "agents": agents}


def markdown(document: dict[str, Any]) -> str:
    """The report: the closing table and what the PPO phase did, with the command and the config."""
    lines = [
        f"# The main job: `python train.py` ({document['config']})",
        "",
        f"`{COMMAND}` runs it end to end ({document['seconds'] / 60:.1f} minutes) and writes this file; "
        f"`{COMMAND} --check` (run by CI) fails unless a new run gives the same outcome on every deal.",
        "",
        f"Seed {document.get('seed', 0)}; torch's kernels: {document.get('kernel_path', 'not recorded')} "
        "(agents/common/kernels.py).",
        "",
        f"The closing evaluation on {document['env_id']}: each agent on the same "
        f"{document['agents'][0]['episodes']} deals.",
        "",
        "| agent | episodes | win rate | 95% CI | mean score | mean length |",
        "|---|---|---|---|---|---|",
    ]
    for agent in document["agents"]:
        low, high = agent["win_rate_ci95"]
        lines.append(
            f"| {agent['agent']} | {agent['episodes']} | {agent['win_rate']:.1%} | [{low:.1%}, {high:.1%}] "
            f"| {agent['mean_score']:.2f} | {agent['mean_length']:.1f} |"
        )
    final, pretrained = document["agents"][0], document["agents"][1]
    if pretrained["agent"] == "pretrained model":
        text = ppo_phase_text([float(w) for w in final["won"]], [float(w) for w in pretrained["won"]])
        lines += [
            "",
            f"The closing line, {text}: the final model against its pretrained start (behaviour cloning and DAgger).",
        ]
    return "\n".join(lines) + "\n"


def ppo_gain(document: dict[str, Any]) -> tuple[float, float, float]:
    """The PPO phase's gain in a report: the final model's win rate less its pretrained start's, with the paired 95%
    interval, on the same deals."""
    final, pretrained = document["agents"][0], document["agents"][1]
    return paired_difference([float(w) for w in final["won"]], [float(w) for w in pretrained["won"]])


def same_kernel_path(shipped: dict[str, Any], regenerated: dict[str, Any]) -> bool:
    """Whether two reports were computed on the same numerical path (machine kind, ATen's kernels, the pins)."""
    return bool(shipped.get("kernel_path")) and shipped.get("kernel_path") == regenerated.get("kernel_path")


def differences(shipped: dict[str, Any], regenerated: dict[str, Any]) -> list[str]:
    """Every figure of the regenerated run that differs from the shipped one, named."""
    problems = []
    if shipped.get("env_id") != regenerated["env_id"]:
        problems.append(f"env_id: shipped {shipped.get('env_id')!r}, regenerated {regenerated['env_id']!r}")
    old = {agent["agent"]: agent for agent in shipped.get("agents", [])}
    new = {agent["agent"]: agent for agent in regenerated["agents"]}
    if list(old) != list(new):
        problems.append(f"agents: shipped {list(old)}, regenerated {list(new)}")
    for name in old.keys() & new.keys():
        for key in ("episodes", "win_rate", "mean_score", "mean_length"):
            if old[name][key] != new[name][key]:
                problems.append(f"{name}.{key}: shipped {old[name][key]}, regenerated {new[name][key]}")
        changed = [i for i, (a, b) in enumerate(zip(old[name]["won"], new[name]["won"], strict=False)) if a != b]
        if changed:
            problems.append(f"{name}.won: {len(changed)} deals differ (first: deal {changed[0]})")
    return problems


def build_parser() -> argparse.ArgumentParser:
    """The command's arguments."""
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the shipped report instead of writing it")
    parser.add_argument("--out", default=None, help="report path stem (default benchmarks/results/<game>_main_job)")
    parser.add_argument("--seed", type=int, default=None, help="train.seed of the run (default: the config's)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the main job; write its report, or with --check compare it with the shipped one (1 on a difference)."""
    args = build_parser().parse_args(argv)
    config_path = resolve_config_path(DEFAULT_CONFIG)
    config = load_experiment_config(config_path)
    if config.train.cpu_kernels == "portable":
        pin_cpu_kernels()  # before torch loads (train.py would too; here the report names the path taken)
    game = game_record_of_env_id(config.env.id).name
    stem = Path(args.out) if args.out else RESULTS_DIR / f"{game}_main_job"
    with tempfile.TemporaryDirectory(prefix="main_job_") as root:
        run_dir, seconds = run_main_job(Path(root), args.seed)
        document = {
            "config": f"{config_path.parent.name}/{config_path.name}",
            "seed": config.train.seed if args.seed is None else args.seed,
            "kernel_path": kernel_path(),
            "seconds": seconds,
            **figures(run_dir),
        }
    if not args.check:
        write_report(stem, markdown(document), document)
        print(f"wrote {stem.with_suffix('.md')}")
        return 0
    shipped_path = stem.with_suffix(".json")
    if not shipped_path.is_file():
        print(f"no shipped report at {shipped_path}: run {COMMAND} first", file=sys.stderr)
        return 1
    shipped = json.loads(shipped_path.read_text(encoding="utf-8"))
    if not same_kernel_path(shipped, document):
        return check_on_another_path(shipped, document, shipped_path)
    problems = differences(shipped, document)
    if problems:
        print(f"the main job's figures differ from {shipped_path} (run {COMMAND} to regenerate):", file=sys.stderr)
        for problem in problems:
            print(f"  {problem}", file=sys.stderr)
        return 1
    print(f"the main job's figures equal {shipped_path} on every deal")
    return 0


def check_on_another_path(shipped: dict[str, Any], document: dict[str, Any], shipped_path: Path) -> int:
    """The check where the kernels took another path than the shipped run's: outcomes cannot match deal by deal, so
    it asks what the spread of paths and seeds shows (benchmarks/main_job_spread.py): the PPO phase's gain above zero
    with its paired interval. 0 when it holds, 1 otherwise."""
    mean, low, high = ppo_gain(document)
    print(
        f"this machine's kernel path ({document['kernel_path']}) is not the shipped run's "
        f"({shipped.get('kernel_path', 'not recorded')}): outcomes are compared by what every path gives, "
        "not deal by deal",
        file=sys.stderr,
    )
    gain = f"{100 * mean:+.1f} points [{100 * low:+.1f}, {100 * high:+.1f}]"
    if low <= 0:
        print(f"the PPO phase's gain {gain} does not stay above zero with its interval", file=sys.stderr)
        return 1
    print(f"the PPO phase's gain {gain} stays above zero with its paired interval (shipped: {shipped_path})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
