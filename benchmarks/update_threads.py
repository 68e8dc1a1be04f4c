"""How long one PPO update takes on one or more torch threads, on idle cores and beside busy processes, with torch's
OpenMP threads spinning as long as libgomp's default or as long as train.py lets them (GOMP_SPINCOUNT).

Each measurement runs in a fresh process (OpenMP reads GOMP_SPINCOUNT once, when torch loads): it builds the config's
MaskablePPO learner (pretraining off), collects one rollout on one thread, then times `train()` on the rollout at the
thread count, `--repeats` times, and keeps the fastest. "Busy processes" are plain Python loops started beside it and
stopped after:

    python -m benchmarks.update_threads --config configs/GAME/RECIPE.yaml [--threads 1 2] [--loads 0 2]

Writes benchmarks/results/<game>_update_threads.{md,json}: seconds per update for every spin setting, load and thread
count.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from benchmarks.common import RESULTS_DIR, write_report

REPO_ROOT = Path(__file__).resolve().parent.parent
SPIN_SETTINGS = {"libgomp's default": None, "train.py's": "config"}
"""The spin settings compared: GOMP_SPINCOUNT unset, and the value train.py sets (OPENMP_SPIN_COUNT)."""
MEASURE_SNIPPET = """
import json, os, sys, time
import torch
from agents.common.config import load_experiment_config
from agents.training.maskable_ppo import learner_kwargs, make_vec_env, unvalidated_distributions
from sb3_contrib import MaskablePPO

config_path, threads, repeats = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
config = load_experiment_config(config_path, ["pretrain.steps=0"])
envs = make_vec_env(config, config.train.n_envs, "dummy", 0, opponents=config.opponents.evaluation_opponents())
model = MaskablePPO(env=envs, seed=0, **learner_kwargs(config, envs.observation_space))
with unvalidated_distributions():
    torch.set_num_threads(1)
    model.learn(total_timesteps=model.n_steps * config.train.n_envs)
    model._current_progress_remaining = 0.5
    torch.set_num_threads(threads)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        model.train()
        times.append(time.perf_counter() - start)
envs.close()
print(json.dumps({"seconds": min(times), "spincount": os.environ.get("GOMP_SPINCOUNT")}))
"""
BUSY_LOOP = "while True: pass"


@dataclass
class UpdateTiming:
    """One measurement: the spin setting, the busy processes beside it, torch's threads and the update's seconds."""

    spin: str
    gomp_spincount: str | None
    busy_processes: int
    threads: int
    seconds: float


def time_update(config: Path, threads: int, repeats: int, spin_count: str | None, busy: int) -> float:
    """The fastest of `repeats` updates in a fresh process, with `busy` busy-loop processes running beside it."""
    environment = {key: value for key, value in os.environ.items() if key != "GOMP_SPINCOUNT"}
    if spin_count is not None:
        environment["GOMP_SPINCOUNT"] = spin_count
    loops = [subprocess.Popen([sys.executable, "-c", BUSY_LOOP]) for _ in range(busy)]
    try:
        result = subprocess.run(
            [sys.executable, "-c", MEASURE_SNIPPET, str(config), str(threads), str(repeats)],
            cwd=REPO_ROOT,
            env=environment,
            capture_output=True,
            text=True,
            check=False,
        )
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()
    if result.returncode != 0:
        raise RuntimeError(f"the update measurement failed:\n{result.stderr[-3000:]}")
    timing = json.loads(result.stdout.strip().splitlines()[-1])
    if timing["spincount"] != spin_count:
        raise RuntimeError(f"the measuring process ran with GOMP_SPINCOUNT={timing['spincount']}, not {spin_count}")
    return float(timing["seconds"])


def markdown(timings: list[UpdateTiming], command: str) -> str:
    """The timings as a table: one row per spin setting and load, one column per thread count."""
    threads = sorted({timing.threads for timing in timings})
    lines = [
        f"`{command}`",
        "",
        "Seconds of one PPO update (the fastest of the repeats), each in a fresh process; busy processes are plain "
        "Python loops beside it.",
        "",
        "| OpenMP spin (GOMP_SPINCOUNT) | busy processes | " + " | ".join(f"{n} thread(s)" for n in threads) + " |",
        "|---|---:|" + "---:|" * len(threads),
    ]
    rows: dict[tuple[str, int], dict[int, float]] = {}
    for timing in timings:
        label = f"{timing.spin} ({timing.gomp_spincount or 'unset'})"
        rows.setdefault((label, timing.busy_processes), {})[timing.threads] = timing.seconds
    for (label, busy), seconds in rows.items():
        cells = " | ".join(f"{seconds[n]:.2f}" for n in threads)
        lines.append(f"| {label} | {busy} | {cells} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Measure every spin setting, load and thread count, and write the table."""
    from agents.common.config import OPENMP_SPIN_COUNT

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", type=Path, required=True, help="a training config (configs/<game>/<name>.yaml)")
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2], help="torch thread counts to time")
    parser.add_argument("--loads", type=int, nargs="+", default=[0, 2], help="numbers of busy processes beside it")
    parser.add_argument("--repeats", type=int, default=2, help="updates timed per measurement (the fastest kept)")
    parser.add_argument("--out", type=Path, default=None, help="path prefix of the .md and .json files")
    arguments = sys.argv[1:] if argv is None else argv
    args = parser.parse_args(arguments)
    if min(args.threads) < 1 or min(args.loads) < 0 or args.repeats < 1:
        parser.error("--threads and --repeats must be positive, --loads not negative")
    timings = []
    for spin, setting in SPIN_SETTINGS.items():
        spin_count = OPENMP_SPIN_COUNT if setting == "config" else None
        for busy in args.loads:
            for threads in args.threads:
                seconds = time_update(args.config, threads, args.repeats, spin_count, busy)
                timings.append(UpdateTiming(spin, spin_count, busy, threads, round(seconds, 3)))
                print(timings[-1], file=sys.stderr)
    command = "python -m benchmarks.update_threads " + " ".join(arguments)
    report = markdown(timings, command)
    print(report)
    game = args.config.parent.name
    document = {"command": command, "config": str(args.config), "timings": [asdict(each) for each in timings]}
    write_report(args.out or RESULTS_DIR / f"{game}_update_threads", report, document)
    return 0


if __name__ == "__main__":
    sys.exit(main())
