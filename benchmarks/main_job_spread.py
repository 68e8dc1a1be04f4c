"""The main job's spread: its closing figures on several numerical kernel paths and seeds, each run end to end.

The main job's published figures hold deal by deal on every x86-64 CPU, whose torch kernels its config pins to the
portable path (agents.common.kernels). This benchmark measures what the figures would be on another path (one
that a machine without the pins, or with other libraries, takes) and with other seeds, by running
`python -m benchmarks.main_job` in a fresh process per case with the kernel variables set to another path: what a
user can rely on is what holds in every row, and `python -m benchmarks.main_job --check` asks exactly that where a
machine cannot take the portable path.

    python -m benchmarks.main_job_spread --seeds 0 1 --work runs/main_job_spread
    # writes benchmarks/results/<game>_main_job_spread.{md,json}; a case whose report is in --work is reused
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from agents.common.kernels import PINNED_KERNELS
from agents.common.shipped_configs import resolve_config_path
from agents.training.train_cli import DEFAULT_CONFIG
from benchmarks.common import RESULTS_DIR, write_report
from benchmarks.main_job import ppo_gain
from envs.core.registration import game_record_of_env_id

COMMAND = "python -m benchmarks.main_job_spread"
"""The command that writes the report (named in it)."""

KERNEL_PATHS: dict[str, dict[str, str]] = {
    "portable": {},
    "native": {"MKL_CBWR": "AUTO", "ATEN_CPU_CAPABILITY": "avx2", "ONEDNN_MAX_CPU_ISA": "ALL"},
    "scalar": {"ATEN_CPU_CAPABILITY": "default", "ONEDNN_MAX_CPU_ISA": "SSE41"},
}
"""The numerical paths measured, by name: the variables each sets over the config's pins. `portable` is the main
job's own (`train.cpu_kernels: portable`: the same on every x86-64 CPU); `native` takes MKL's branch for the CPU it
runs on (what an unpinned run gets); `scalar` keeps MKL portable but takes ATen's non-vectorised kernels: another
rounding of every activation, reduction and optimizer step."""


def case_stem(work: Path, path_name: str, seed: int) -> Path:
    """Where one case's main-job report goes under the work folder."""
    return work / f"{path_name}_seed{seed}"


def run_case(work: Path, path_name: str, seed: int) -> dict[str, Any]:
    """One main-job run on a kernel path with a seed (reused when its report is in `work`); its report."""
    stem = case_stem(work, path_name, seed)
    report = stem.with_suffix(".json")
    if not report.is_file():
        environment = {**os.environ, **KERNEL_PATHS[path_name]}
        command = [sys.executable, "-m", "benchmarks.main_job", "--out", str(stem), "--seed", str(seed)]
        print(f"running {path_name} seed {seed}: {' '.join(command[1:])}", flush=True)
        started = time.monotonic()
        subprocess.run(command, env=environment, check=True)
        print(f"  {time.monotonic() - started:.0f} s", flush=True)
    document: dict[str, Any] = json.loads(report.read_text(encoding="utf-8"))
    return document


def row(path_name: str, document: dict[str, Any]) -> dict[str, Any]:
    """One case's figures for the table: each agent's win rate and the PPO phase's gain with its paired interval."""
    mean, low, high = ppo_gain(document)
    rates = {agent["agent"]: agent["win_rate"] for agent in document["agents"]}
    return {
        "path": path_name,
        "kernel_path": document.get("kernel_path", ""),
        "seed": document.get("seed"),
        "episodes": document["agents"][0]["episodes"],
        "win_rates": rates,
        "ppo_gain": [mean, low, high],
    }


def markdown(rows: list[dict[str, Any]], config: str, command: str) -> str:
    """The report: one line per case, then what holds on every one."""
    lines = [
        f"# The main job's spread over kernel paths and seeds (`python train.py`, {config})",
        "",
        f"Written by `{command}`: each case is `python -m benchmarks.main_job --seed S` in a fresh process on a kernel "
        "path (`portable`: the main job's own, the same on every x86-64 CPU; `native`: MKL's branch for the CPU it ran "
        "on, as an unpinned run; `scalar`: ATen's non-vectorised kernels: benchmarks/main_job_spread.py).",
        "",
        "| path | seed | final model | pretrained model | heuristic | PPO phase's gain (paired 95% interval) |",
        "|---|---|---|---|---|---|",
    ]
    for case in rows:
        rates = case["win_rates"]
        mean, low, high = case["ppo_gain"]
        lines.append(
            f"| {case['path']} | {case['seed']} | {rates['final model']:.1%} | {rates['pretrained model']:.1%} "
            f"| {rates['heuristic']:.1%} | {100 * mean:+.1f} points [{100 * low:+.1f}, {100 * high:+.1f}] |"
        )
    lows = [case["ppo_gain"][1] for case in rows]
    finals = [case["win_rates"]["final model"] for case in rows]
    holds = "above zero in every case" if min(lows) > 0 else "NOT above zero in every case"
    lines += [
        "",
        f"Over the {len(rows)} cases ({rows[0]['episodes']} deals each): the final model wins {min(finals):.1%} to "
        f"{max(finals):.1%}; the low end of the PPO phase's paired interval is {100 * min(lows):+.1f} points at "
        f"worst: {holds}.",
        "",
        "Kernel paths as each run recorded them:",
        "",
    ]
    lines += sorted({f"- {case['path']}: {case['kernel_path']}" for case in rows})
    return "\n".join(lines) + "\n"


def build_parser() -> argparse.ArgumentParser:
    """The command's arguments."""
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1], help="train.seed values (default: 0 1)")
    parser.add_argument(
        "--paths", nargs="+", default=list(KERNEL_PATHS), choices=list(KERNEL_PATHS), help="kernel paths to measure"
    )
    parser.add_argument("--work", default="runs/main_job_spread", help="folder of the cases' reports (reused)")
    parser.add_argument(
        "--out", default=None, help="report path stem (default benchmarks/results/<game>_main_job_spread)"
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run (or reuse) every case and write the spread report."""
    args = build_parser().parse_args(argv)
    config_path = resolve_config_path(DEFAULT_CONFIG)
    from agents.common.config import load_experiment_config

    game = game_record_of_env_id(load_experiment_config(config_path).env.id).name
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    rows = [row(path, run_case(work, path, seed)) for path in args.paths for seed in args.seeds]
    stem = Path(args.out) if args.out else RESULTS_DIR / f"{game}_main_job_spread"
    config = f"{config_path.parent.name}/{config_path.name}"
    command = f"{COMMAND} --paths {' '.join(args.paths)} --seeds {' '.join(str(seed) for seed in args.seeds)}"
    document = {"command": command, "config": config, "pins": PINNED_KERNELS, "cases": rows}
    write_report(stem, markdown(rows, config, command), document)
    print(f"wrote {stem.with_suffix('.md')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
