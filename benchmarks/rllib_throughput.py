"""Env steps/s of training on Ray RLlib with 1 and 2 env runners, beside the SB3 route's, on the same game and network.

    python -m benchmarks.rllib_throughput --config configs/GAME/RLLIB_CONFIG.yaml [--env-runners 1 2]
        [--iterations 3] [--batch 4000]

RLlib rows: the config's PPO (its env, league and model) with `num_env_runners` = N (one env each, a local Ray of
2 CPUs), `train_batch_size_per_learner` = --batch; one warm-up iteration, then --iterations timed ones. Sampling
steps/s is the env steps over the time RLlib's env runners spent sampling (its `env_runner_sampling_timer`); training
steps/s is the env steps over the whole iterations (sampling, the learner's update, the weight sync).

The SB3 row trains MaskablePPO on the same env (for a league config its opponent env: the learner against a frozen
copy of itself, as RLlib's first league member) with the same network (`fcnet_hiddens` as `net_arch`), 2 dummy envs,
a rollout of --batch steps and the same minibatch and epochs; sampling steps/s is over the rollouts alone (timed
by a callback), training over everything. Steps/s count the learner's steps, the decisions that train it: with a
league on RLlib the league's own decisions are sampled too but train nothing (the table shows both).
Both routes run in this one process, one after the other, so a busy machine slows them alike.
Writes benchmarks/results/<game>_rllib_throughput.{json,md}.
"""

from __future__ import annotations

import argparse
import logging
import shutil
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from agents.common.config import ExperimentConfig, RLlibPPOHyperparameters, load_experiment_config, validate_config
from benchmarks.common import RESULTS_DIR, write_report
from envs.core.registration import game_record_of_env_id, resolve_env_id


@dataclass
class RouteRow:
    """One measured route and setting; steps are the learner's (the decisions that train it)."""

    route: str
    env_runners: int
    learner_steps: int
    decisions: int | None
    """Every seat's decisions played (RLlib's env steps; the SB3 opponent env does not count its opponents')."""
    sampling_seconds: float
    total_seconds: float
    sampling_steps_per_second: float
    training_steps_per_second: float


def rllib_row(config: ExperimentConfig, env_runners: int, iterations: int) -> RouteRow:
    """Time `iterations` RLlib training iterations after a warm-up one, with `env_runners` env runners."""
    from ray.rllib.utils.metrics import ENV_RUNNER_SAMPLING_TIMER, NUM_ENV_STEPS_SAMPLED_LIFETIME, TIMERS

    from agents.rllib.league import LEAGUE_FILE_NAME, League
    from agents.rllib.training import algorithm_config, remove_empty_logdir, run_seat_roles

    algorithm = algorithm_config(config).build_algo()
    try:
        with tempfile.TemporaryDirectory() as folder:
            league_file = Path(folder) / LEAGUE_FILE_NAME
            league = League(run_seat_roles(config), config.opponents.snapshots, config.train.seed, league_file)
            league.start(algorithm)  # the league's first member, as in a run
            warm_up = algorithm.train()
            sampling = total = 0.0
            for _ in range(iterations):
                start = time.perf_counter()
                result = algorithm.train()
                total += time.perf_counter() - start
                sampling += float(result[TIMERS][ENV_RUNNER_SAMPLING_TIMER])
    finally:
        algorithm.stop()
        remove_empty_logdir(algorithm)
    steps = _learner_steps(result) - _learner_steps(warm_up)
    decisions = int(result[NUM_ENV_STEPS_SAMPLED_LIFETIME]) - int(warm_up[NUM_ENV_STEPS_SAMPLED_LIFETIME])
    runners = f"{env_runners} env runner{'s' if env_runners > 1 else ''}"
    return _row(f"RLlib PPO, {runners}", env_runners, steps, decisions, sampling, total)


def _learner_steps(result: dict[str, Any]) -> int:
    """The learner module's steps sampled in the algorithm's lifetime, from a training result."""
    from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_MODULE_STEPS_SAMPLED_LIFETIME

    from agents.rllib.league import LEARNER_MODULE_ID

    return int(result[ENV_RUNNER_RESULTS][NUM_MODULE_STEPS_SAMPLED_LIFETIME][LEARNER_MODULE_ID])


def _row(route: str, env_runners: int, steps: int, decisions: int | None, sampling: float, total: float) -> RouteRow:
    """A row from the learner's steps, the decisions, and the seconds of sampling and of the whole."""
    return RouteRow(
        route=route,
        env_runners=env_runners,
        learner_steps=steps,
        decisions=decisions,
        sampling_seconds=round(sampling, 2),
        total_seconds=round(total, 2),
        sampling_steps_per_second=round(steps / sampling, 1),
        training_steps_per_second=round(steps / total, 1),
    )


def sb3_row(config: ExperimentConfig, batch: int, iterations: int) -> RouteRow:
    """Time MaskablePPO on the same env and network: `iterations` rollouts of `batch` steps after a warm-up one."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    from agents.training.maskable_ppo import make_vec_env, maskable_ppo_hyperparameters

    hyperparameters = config.algo.hyperparameters
    assert isinstance(hyperparameters, RLlibPPOHyperparameters)
    training, model = hyperparameters.training, hyperparameters.model
    data = {
        "env": {"id": config.env.id, "kwargs": dict(config.env.kwargs)},
        "algo": {
            "name": "maskable_ppo",
            "n_steps": batch // 2,
            "batch_size": int(training.get("minibatch_size", 128)),
            "n_epochs": int(training.get("num_epochs", 4)),
            "policy_kwargs": {"net_arch": list(model.get("fcnet_hiddens", [256, 256]))},
        },
        "train": {"n_envs": 2, "seed": config.train.seed},
        "opponents": {"pool": [{"agent": "snapshot"}]} if config.opponents.pool else {},
    }
    sb3_config = validate_config(ExperimentConfig, data, "the SB3 counterpart")

    class RolloutTimer(BaseCallback):
        """Adds up the time spent collecting rollouts."""

        seconds = 0.0

        def _on_rollout_start(self) -> None:
            self._start = time.perf_counter()

        def _on_rollout_end(self) -> None:
            RolloutTimer.seconds += time.perf_counter() - self._start

        def _on_step(self) -> bool:
            return True

    from agents.training.selfplay import freeze_learner

    torch.set_num_threads(1)
    folder = Path(tempfile.mkdtemp())
    envs = make_vec_env(sb3_config, 2, "dummy", sb3_config.train.seed, snapshot_dir=folder)
    try:
        ppo = MaskablePPO(
            "MultiInputPolicy",
            envs,
            seed=sb3_config.train.seed,
            verbose=0,
            **maskable_ppo_hyperparameters(sb3_config).sb3_kwargs(),
        )
        if sb3_config.opponents.uses_snapshots:
            freeze_learner(ppo, folder, 0, envs)  # the opponent: a frozen copy, as RLlib's league member
        ppo.learn(total_timesteps=batch)  # warm-up
        timer = RolloutTimer()
        RolloutTimer.seconds = 0.0
        start = time.perf_counter()
        ppo.learn(total_timesteps=iterations * batch, reset_num_timesteps=False, callback=timer)
        total = time.perf_counter() - start
    finally:
        envs.close()
        shutil.rmtree(folder, ignore_errors=True)
    return _row("SB3 MaskablePPO, 2 dummy envs", 0, iterations * batch, None, RolloutTimer.seconds, total)


def markdown(rows: list[RouteRow], command: str, facts: str) -> str:
    """The rows as a Markdown table."""
    lines = [
        f"`{command}`",
        "",
        facts,
        "",
        "| route | learner steps | all seats' decisions | sampling s | total s | sampling steps/s | training steps/s |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        decisions = "–" if row.decisions is None else f"{row.decisions:,}"
        lines.append(
            f"| {row.route} | {row.learner_steps:,} | {decisions} | {row.sampling_seconds} | {row.total_seconds} | "
            f"{row.sampling_steps_per_second:,.0f} | {row.training_steps_per_second:,.0f} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Measure the RLlib rows and the SB3 row and write the table."""
    import ray

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", type=Path, required=True, help="an rllib_ppo training config (a league's, say)")
    parser.add_argument("--env-runners", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--iterations", type=int, default=3, help="timed iterations (rollouts) per row")
    parser.add_argument("--batch", type=int, default=4000, help="env steps per iteration (rollout)")
    parser.add_argument("--out", type=Path, default=None, help="path prefix of the .md and .json files")
    arguments = sys.argv[1:] if argv is None else argv
    args = parser.parse_args(arguments)
    rows: list[RouteRow] = []
    ray.init(address="local", num_cpus=2, include_dashboard=False, logging_level=logging.ERROR)
    try:
        for runners in args.env_runners:
            config = load_experiment_config(
                args.config,
                [
                    f"algo.num_env_runners={runners}",
                    "algo.num_envs_per_env_runner=1",
                    f"algo.training.train_batch_size_per_learner={args.batch}",
                ],
            )
            rows.append(rllib_row(config, runners, args.iterations))
            print(rows[-1], file=sys.stderr)
    finally:
        ray.shutdown()
    config = load_experiment_config(args.config)
    rows.append(sb3_row(config, args.batch, args.iterations))
    print(rows[-1], file=sys.stderr)
    facts = f"{config.env.id} {dict(config.env.kwargs)}; `{args.config}`; {args.batch} env steps per iteration."
    report = markdown(rows, " ".join(["python -m benchmarks.rllib_throughput", *arguments]), facts)
    print(report)
    game = game_record_of_env_id(resolve_env_id(config.env.id)).name
    document = {"config": str(args.config), "batch": args.batch, "rows": [asdict(row) for row in rows]}
    write_report(args.out or RESULTS_DIR / f"{game}_rllib_throughput", report, document)
    return 0


if __name__ == "__main__":
    sys.exit(main())
