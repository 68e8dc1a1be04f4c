"""A training recipe's learner steps per second against the same recipe at an earlier commit, in one run.

Each side trains its own tree's config (the checkout's, and the file of the same path at `--baseline REF`, checked out
into a temporary git worktree) with `train()` exactly as train.py runs it, pretraining off and the step budget fixed:
the rollouts, the opponents, the updates, and the evaluations, snapshots and checkpoints the config schedules. The
timed span is MaskablePPO's `learn` (building the model and the envs, pretraining and the final save left out).
Sides alternate, `--rounds` times each, each in a fresh process, and the medians are compared:

    python -m benchmarks.training_speedup --config configs/GAME/RECIPE.yaml --baseline COMMIT [--steps 57344]

Writes benchmarks/results/<config stem>_<game>_training_speedup.{md,json}: each side's steps/s (wall) and CPU seconds
per step, and the ratio. The machine's other load slows both sides alike only when it is steady: run it on an idle
machine.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path

from benchmarks.common import RESULTS_DIR, git_label, write_report

REPO_ROOT = Path(__file__).resolve().parent.parent
MEASURE_SNIPPET = """
import json, sys, tempfile, time
from pathlib import Path

import agents
import agents.common.config

if hasattr(agents.common.config, "limit_openmp_spinning"):  # as train.py does, before torch loads
    agents.common.config.limit_openmp_spinning()
import sb3_contrib
from agents.common.config import load_experiment_config
from agents.training.maskable_ppo import train

timed = []
learn = sb3_contrib.MaskablePPO.learn


def timed_learn(self, *args, **kwargs):
    steps, wall, cpu = self.num_timesteps, time.perf_counter(), time.process_time()
    try:
        return learn(self, *args, **kwargs)
    finally:
        timed.append((self.num_timesteps - steps, time.perf_counter() - wall, time.process_time() - cpu))


sb3_contrib.MaskablePPO.learn = timed_learn
config_path, steps = sys.argv[1], int(sys.argv[2])
with tempfile.TemporaryDirectory() as scratch:
    overrides = [
        "pretrain.steps=0", f"train.total_timesteps={steps}", "train.time_budget_minutes=null",
        "logging.tensorboard=false", f"logging.run_root={scratch}",
    ]
    config = load_experiment_config(config_path, overrides)
    run_dir = Path(scratch) / "run"
    run_dir.mkdir()
    train(config, run_dir, progress_bar=False)
learned, wall, cpu = timed[-1]
print(json.dumps({"steps": learned, "wall": wall, "cpu": cpu, "code": agents.__file__}))
"""
"""Runs in each side's tree (its own `agents`): trains the config for a fixed number of steps, times `learn`."""


@dataclass
class SideRounds:
    """One side's measured rounds."""

    label: str
    tree: str
    steps: list[int]
    wall_seconds: list[float]
    cpu_seconds: list[float]

    @property
    def steps_per_second(self) -> float:
        """Median learner steps per wall-clock second."""
        return statistics.median(s / w for s, w in zip(self.steps, self.wall_seconds, strict=True))

    @property
    def cpu_microseconds_per_step(self) -> float:
        """Median CPU microseconds (all threads) per learner step."""
        return statistics.median(1e6 * c / s for s, c in zip(self.steps, self.cpu_seconds, strict=True))


@contextmanager
def worktree_at(ref: str) -> Iterator[Path]:
    """A temporary git worktree of this repository at `ref` (removed afterwards)."""
    scratch = Path(tempfile.mkdtemp(prefix="training_speedup_"))
    tree = scratch / "tree"
    add = ["git", "worktree", "add", "--detach", str(tree), ref]
    subprocess.run(add, cwd=REPO_ROOT, check=True, capture_output=True)
    try:
        yield tree
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=REPO_ROOT, check=False)
        shutil.rmtree(scratch, ignore_errors=True)


def measure_once(tree: Path, config: Path, steps: int) -> dict[str, float | int | str]:
    """Train `config` of `tree` for `steps` steps in a fresh process running that tree's code; its timing."""
    environment = {**os.environ, "PYTHONPATH": str(tree)}
    result = subprocess.run(
        [sys.executable, "-c", MEASURE_SNIPPET, str(config), str(steps)],
        cwd=tree,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise RuntimeError(f"training in {tree} failed:\n{result.stderr[-3000:]}")
    timing = json.loads(result.stdout.strip().splitlines()[-1])
    if not str(timing["code"]).startswith(str(tree)):
        raise RuntimeError(f"the run in {tree} imported agents from {timing['code']}, not from its tree")
    return timing


def measure(
    config: Path, baseline: str, steps: int, rounds: int, checkout_config: bool = False
) -> tuple[SideRounds, SideRounds]:
    """The baseline's and the checkout's rounds, alternating, baseline first (`checkout_config`: both sides train the
    checkout's config file, which the baseline's code must be able to read)."""
    checkout = SideRounds(git_label(REPO_ROOT), str(REPO_ROOT), [], [], [])
    sides = (SideRounds(f"{baseline} (baseline)", "", [], [], []), checkout)
    with worktree_at(baseline) as baseline_tree:
        sides[0].tree = str(baseline_tree)
        if not (baseline_tree / config).is_file():
            raise SystemExit(f"{config} does not exist at {baseline}")
        for round_index in range(rounds):
            for side in sides:
                config_file = REPO_ROOT / config if checkout_config else config
                timing = measure_once(Path(side.tree), config_file, steps)
                side.steps.append(int(timing["steps"]))
                side.wall_seconds.append(round(float(timing["wall"]), 2))
                side.cpu_seconds.append(round(float(timing["cpu"]), 2))
                print(f"round {round_index + 1}: {side.label}: {timing}", file=sys.stderr)
    return sides


def markdown(config: Path, sides: tuple[SideRounds, SideRounds], command: str, checkout_config: bool) -> str:
    """The comparison as a Markdown section."""
    baseline, current = sides
    whose = (
        "Both sides train the checkout's config file (the baseline's code with today's settings)"
        if checkout_config
        else "Each side trains its own commit's config"
    )
    ratio = current.steps_per_second / baseline.steps_per_second
    lines = [
        f"# Training speed of {config}: {current.label} against {baseline.label}",
        "",
        f"`{command}`",
        "",
        f"{whose} for the same number of learner steps (pretraining off), alternating sides in fresh processes; "
        "medians of the rounds. Steps/s is wall-clock; CPU counts every thread.",
        "",
        "| code | rounds | steps per round | learner steps/s | CPU µs per step |",
        "|---|---:|---:|---:|---:|",
    ]
    for side in sides:
        lines.append(
            f"| {side.label} | {len(side.steps)} | {side.steps[0]:,} | {side.steps_per_second:,.0f} | "
            f"{side.cpu_microseconds_per_step:,.0f} |"
        )
    lines += ["", f"**{ratio:.2f}x** the baseline's learner steps per second."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Measure both sides and write the comparison."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", type=Path, required=True, help="the recipe, a path relative to the repository")
    parser.add_argument("--baseline", required=True, help="the git commit (or any ref) to compare against")
    parser.add_argument("--steps", type=int, default=57_344, help="learner steps per round (whole rollouts)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds per side")
    parser.add_argument(
        "--checkout-config",
        action="store_true",
        help="the baseline trains the checkout's config file too (the code's speed alone, settings held equal)",
    )
    parser.add_argument("--out", type=Path, default=None, help="path prefix of the .md and .json files")
    arguments = sys.argv[1:] if argv is None else argv
    args = parser.parse_args(arguments)
    if args.config.is_absolute():
        parser.error("--config: give the recipe's path relative to the repository (it is read in both trees)")
    sides = measure(args.config, args.baseline, args.steps, args.rounds, args.checkout_config)
    command = "python -m benchmarks.training_speedup " + " ".join(arguments)
    report = markdown(args.config, sides, command, args.checkout_config)
    print(report)
    game = args.config.parent.name
    document = {
        "config": str(args.config),
        "checkout_config": args.checkout_config,
        "sides": [{**asdict(side), "tree": None} for side in sides],
        "ratio": sides[1].steps_per_second / sides[0].steps_per_second,
    }
    suffix = "_same_config" if args.checkout_config else ""
    write_report(args.out or RESULTS_DIR / f"{game}_{args.config.stem}_training_speedup{suffix}", report, document)
    return 0


if __name__ == "__main__":
    sys.exit(main())
