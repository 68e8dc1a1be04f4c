"""MaskablePPO's training steps/s against the number of envs, the vec env and the rollout/batch sizes.

Every row builds the game's default training config (configs/<game>/maskable_ppo.yaml, pretraining off, one torch
thread as `train.torch_threads` sets it) with `n_envs` envs in a DummyVecEnv or a SubprocVecEnv, runs one rollout
and its update to warm up, then times `--steps` more training steps (rollouts and updates together, whole rollouts):

    python -m benchmarks.training_throughput [--game GAME] [--steps 16384] [--n-envs 1 2 4 8 16]

Then, with the fastest vec env and number of envs, the batch variants change `n_steps` (steps per env per rollout)
and `batch_size` together (BATCH_VARIANTS). Writes benchmarks/results/<game>_training_throughput.{json,md}.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from agents.common.shipped_configs import CONFIGS_DIR, default_game
from benchmarks.common import RESULTS_DIR, write_report

BATCH_VARIANTS = ((256, 64), (512, 128), (2048, 512))
"""(n_steps per env, batch_size) tried with the fastest vec env, beside the config's own (1024, 256)."""


@dataclass
class ThroughputRow:
    """One measured setting."""

    vec_env: str
    n_envs: int
    n_steps: int
    batch_size: int
    steps: int
    seconds: float
    steps_per_second: float


def measure(
    game: str, vec_env: str, n_envs: int, n_steps: int | None, batch_size: int | None, steps: int
) -> ThroughputRow:
    """Train the game's default config with these settings and time `steps` steps after one warm-up rollout."""
    import torch
    from sb3_contrib import MaskablePPO

    from agents.common.config import load_experiment_config
    from agents.training.maskable_ppo import make_vec_env, maskable_ppo_hyperparameters

    overrides = ["pretrain.steps=0"]
    if n_steps is not None:
        overrides.append(f"algo.n_steps={n_steps}")
    if batch_size is not None:
        overrides.append(f"algo.batch_size={batch_size}")
    config = load_experiment_config(CONFIGS_DIR / game / "maskable_ppo.yaml", overrides)
    hyperparameters = maskable_ppo_hyperparameters(config)
    torch.set_num_threads(config.train.resolved_torch_threads())
    envs = make_vec_env(config, n_envs, vec_env, config.train.seed)
    try:
        model = MaskablePPO("MultiInputPolicy", envs, seed=config.train.seed, verbose=0, **hyperparameters.sb3_kwargs())
        rollout = hyperparameters.n_steps * n_envs
        model.learn(total_timesteps=rollout)  # warm-up: one rollout and its update
        timed = max(1, round(steps / rollout)) * rollout
        start = time.perf_counter()
        model.learn(total_timesteps=timed, reset_num_timesteps=False)
        seconds = time.perf_counter() - start
    finally:
        envs.close()
    return ThroughputRow(
        vec_env=vec_env,
        n_envs=n_envs,
        n_steps=hyperparameters.n_steps,
        batch_size=hyperparameters.batch_size,
        steps=timed,
        seconds=round(seconds, 2),
        steps_per_second=round(timed / seconds, 1),
    )


def markdown(rows: list[ThroughputRow], command: str) -> str:
    """The rows as a Markdown table, fastest marked."""
    best = max(rows, key=lambda row: row.steps_per_second)
    lines = [
        f"`{command}`",
        "",
        "| vec env | n_envs | n_steps | batch_size | steps timed | seconds | steps/s |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        mark = " **(fastest)**" if row is best else ""
        lines.append(
            f"| {row.vec_env} | {row.n_envs} | {row.n_steps} | {row.batch_size} | {row.steps} | {row.seconds} | "
            f"{row.steps_per_second:,.0f}{mark} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Measure every setting and write the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--game",
        default=default_game(),
        help="a game with configs/<game>/maskable_ppo.yaml (default: configs/defaults.yaml's)",
    )
    parser.add_argument("--steps", type=int, default=16_384, help="training steps timed per setting")
    parser.add_argument("--n-envs", type=int, nargs="+", default=[1, 2, 4, 8, 16])
    parser.add_argument("--vec-envs", nargs="+", default=["dummy", "subproc"], choices=["dummy", "subproc"])
    parser.add_argument("--out", type=Path, default=None, help="path prefix of the .md and .json files")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    rows = []
    for vec_env in args.vec_envs:
        for n_envs in args.n_envs:
            rows.append(measure(args.game, vec_env, n_envs, None, None, args.steps))
            print(rows[-1], file=sys.stderr)
    fastest = max(rows, key=lambda row: row.steps_per_second)
    for n_steps, batch_size in BATCH_VARIANTS:
        rows.append(measure(args.game, fastest.vec_env, fastest.n_envs, n_steps, batch_size, args.steps))
        print(rows[-1], file=sys.stderr)
    command = "python -m benchmarks.training_throughput " + " ".join(sys.argv[1:] if argv is None else argv)
    report = markdown(rows, command)
    print(report)
    document = {"game": args.game, "rows": [asdict(row) for row in rows]}
    write_report(args.out or RESULTS_DIR / f"{args.game}_training_throughput", report, document)
    return 0


if __name__ == "__main__":
    sys.exit(main())
