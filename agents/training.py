"""MaskablePPO training from an ExperimentConfig: run directories, vec envs, logging, checkpoints and resume.

A run directory `runs/{game}__{algo}__{seed}__{timestamp}/` holds:

- `config.yaml`: the resolved config (every default filled in, overrides applied), the one to resume with;
- `run_info.json`: command line, start time, package versions;
- `tensorboard/`: event files (episode return, win rate, score, length, legal-action count, losses, evaluations);
- `checkpoints/model_<timesteps>_steps.zip`: periodic checkpoints, each written to a temp file then os.replace'd;
- `evaluations.npz`, `best_model.zip`: MaskableEvalCallback results and the best model by mean eval reward;
- `final_model.zip`: the model at the end of the budget.
"""

from __future__ import annotations

import functools
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from datetime import datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from agents.config import ExperimentConfig, dump_yaml
from agents.environment import EnvFacts, EpisodeOutcomeWrapper, make_env
from agents.ppo import CHECKPOINT_DIR_NAME, FINAL_MODEL_NAME, checkpoint_timesteps, latest_checkpoint

CONFIG_FILE_NAME = "config.yaml"
"""The resolved config inside a run directory."""
PRETRAINED_MODEL_NAME = "pretrained_model.zip"
"""The policy after behaviour cloning / DAgger, before PPO (kept in the run directory)."""
PRETRAIN_SEED_OFFSET = 2_000_000
"""Pretraining episodes are seeded away from the training and evaluation envs."""
DAGGER_SEED_STRIDE = 10_000_000
"""Each DAgger round plays fresh episodes this far from the previous round's seeds."""
EVAL_SEED_OFFSET = 1_000_000
"""Evaluation envs are seeded away from the training envs so they never replay training episodes."""


def create_run_dir(config: ExperimentConfig, facts: EnvFacts) -> Path:
    """Make `{run_root}/{game}__{algo}__{seed}__{timestamp}/` (a suffix keeps same-second runs apart)."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    base = Path(config.logging.run_root) / f"{facts.game_name}__{config.algo.name}__{config.train.seed}__{stamp}"
    run_dir, suffix = base, 1
    while True:
        try:
            run_dir.mkdir(parents=True, exist_ok=False)
            return run_dir
        except FileExistsError:
            suffix += 1
            run_dir = base.with_name(f"{base.name}_{suffix}")


def write_text_atomically(path: Path, text: str) -> None:
    """Write a file via a temp file and os.replace, so readers never see half of it."""
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


def save_model_atomically(model: Any, path: Path) -> None:
    """model.save to a temp file then os.replace: a crash mid-save never leaves a truncated checkpoint."""
    temporary = path.with_name(path.name + ".tmp")
    with temporary.open("wb") as handle:
        model.save(handle)
    os.replace(temporary, path)


def write_run_files(run_dir: Path, config: ExperimentConfig, argv: list[str]) -> None:
    """Write config.yaml (resolved) and run_info.json (command, time, versions) into the run directory."""
    write_text_atomically(run_dir / CONFIG_FILE_NAME, dump_yaml(config))
    versions = {}
    for package in ("gymnasium", "pettingzoo", "numpy", "torch", "stable_baselines3", "sb3_contrib"):
        try:
            versions[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            versions[package] = None
    info = {
        "command": [sys.executable, *argv],
        "started": datetime.now().isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "versions": versions,
    }
    write_text_atomically(run_dir / "run_info.json", json.dumps(info, indent=2) + "\n")


def _make_monitored_env(env_id: str, kwargs: dict[str, Any]) -> gym.Env:
    """Env factory for vec envs: module-level so SubprocVecEnv can pickle it."""
    from stable_baselines3.common.monitor import Monitor

    return Monitor(EpisodeOutcomeWrapper(make_env(env_id, kwargs)))


def make_vec_env(config: ExperimentConfig, n_envs: int, vec_env: str, seed: int) -> Any:
    """A DummyVecEnv or SubprocVecEnv of monitored envs, seeded seed, seed+1, ... (masks via env_method)."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    factories: list[Callable[[], gym.Env]] = [
        functools.partial(_make_monitored_env, config.env.id, dict(config.env.kwargs)) for _ in range(n_envs)
    ]
    vectorized = SubprocVecEnv(factories) if vec_env == "subproc" else DummyVecEnv(factories)
    vectorized.seed(seed)
    return vectorized


def _policy_name(config: ExperimentConfig, observation_space: gym.Space) -> str:
    policy = config.algo.hyperparameters.policy
    if policy == "auto":
        return "MultiInputPolicy" if isinstance(observation_space, gym.spaces.Dict) else "MlpPolicy"
    return policy


def _callbacks(config: ExperimentConfig, run_dir: Path, resumed: bool) -> list[Any]:
    """Episode statistics, atomic checkpoints and masked evaluations (intervals converted to vec-env calls)."""
    from sb3_contrib.common.maskable.callbacks import MaskableEvalCallback

    from agents.callbacks import AtomicCheckpointCallback, EpisodeStatsCallback, SaveBestModelCallback

    callbacks: list[Any] = [EpisodeStatsCallback()]
    if config.train.checkpoint_interval > 0:
        callbacks.append(AtomicCheckpointCallback(run_dir / CHECKPOINT_DIR_NAME, config.train.checkpoint_interval))
    if config.train.eval_interval > 0:
        eval_env = make_vec_env(config, 1, "dummy", config.train.seed + EVAL_SEED_OFFSET)
        evaluation = MaskableEvalCallback(
            eval_env,
            n_eval_episodes=config.train.eval_episodes,
            eval_freq=max(config.train.eval_interval // config.train.n_envs, 1),
            log_path=str(run_dir),
            best_model_save_path=None,
            callback_on_new_best=SaveBestModelCallback(run_dir / "best_model.zip"),
            deterministic=True,
            use_masking=True,
            verbose=0,
        )
        if resumed:
            _restore_evaluations(evaluation, run_dir / "evaluations.npz")
        callbacks.append(evaluation)
    return callbacks


def _restore_evaluations(evaluation: Any, path: Path) -> None:
    """Carry the evaluations of the interrupted run over, so evaluations.npz keeps the whole history."""
    if not path.is_file():
        return
    with np.load(path) as previous:
        evaluation.evaluations_timesteps = [int(t) for t in previous["timesteps"]]
        evaluation.evaluations_results = [list(row) for row in previous["results"]]
        evaluation.evaluations_length = [list(row) for row in previous["ep_lengths"]]
        if "successes" in previous:
            evaluation.evaluations_successes = [list(row) for row in previous["successes"]]
    if evaluation.evaluations_results:
        evaluation.best_mean_reward = max(float(np.mean(row)) for row in evaluation.evaluations_results)


def _logger(config: ExperimentConfig, run_dir: Path) -> Any:
    from stable_baselines3.common.logger import Logger, make_output_format

    if not config.logging.tensorboard:
        return Logger(folder=None, output_formats=[])
    folder = run_dir / "tensorboard"
    folder.mkdir(exist_ok=True)
    return Logger(folder=str(folder), output_formats=[make_output_format("tensorboard", str(folder))])


def train(config: ExperimentConfig, run_dir: Path, progress_bar: bool = True) -> Path:
    """Train MaskablePPO for the config's budget in `run_dir`; resumes from its latest checkpoint if it has one.

    Returns the path of the final model.
    """
    import torch
    from sb3_contrib import MaskablePPO

    train_config = config.train
    torch.set_num_threads(train_config.torch_threads)
    vec_env = make_vec_env(config, train_config.n_envs, train_config.vec_env, train_config.seed)
    checkpoint = latest_checkpoint(run_dir)
    try:
        if checkpoint is None:
            model = MaskablePPO(
                _policy_name(config, vec_env.observation_space),
                vec_env,
                seed=train_config.seed,
                verbose=0,
                **config.algo.hyperparameters.sb3_kwargs(),
            )
        else:
            model = MaskablePPO.load(checkpoint, env=vec_env, device=config.algo.hyperparameters.device)
            # Reseed from the checkpoint's step count: the continuation is reproducible from the checkpoint.
            model.set_random_seed(train_config.seed + model.num_timesteps)
        model.set_logger(_logger(config, run_dir))
        if checkpoint is None and config.pretrain.steps > 0:
            pretrain(model, config, run_dir)
        remaining = train_config.total_timesteps - model.num_timesteps
        if remaining > 0:
            model.learn(
                total_timesteps=remaining,
                callback=_callbacks(config, run_dir, resumed=checkpoint is not None),
                reset_num_timesteps=checkpoint is None,
                progress_bar=progress_bar,
            )
        final_path = run_dir / FINAL_MODEL_NAME
        save_model_atomically(model, final_path)
        model.logger.close()
    finally:
        vec_env.close()
    return final_path


def pretrain(model: Any, config: ExperimentConfig, run_dir: Path) -> None:
    """Behaviour cloning (then DAgger rounds) from the config's teacher; saved as pretrained_model.zip.

    A run resumed before its first checkpoint reuses pretrained_model.zip instead of pretraining again.
    """
    import shutil

    from agents.imitation import (
        CloneReport,
        Demonstrations,
        behaviour_clone,
        collect_demonstrations,
        save_student,
    )

    saved = run_dir / PRETRAINED_MODEL_NAME
    if saved.is_file():
        model.set_parameters(str(saved), device=config.algo.hyperparameters.device)
        print(f"pretraining: reusing {saved}", flush=True)
        return
    settings = config.pretrain
    gamma = config.algo.hyperparameters.gamma
    env_id, env_kwargs, seed = config.env.id, dict(config.env.kwargs), config.train.seed + PRETRAIN_SEED_OFFSET
    logger = model.logger

    def log(key: str, value: float, step: int) -> None:
        logger.record(key, value)
        logger.dump(step)

    def fit(data: Demonstrations, epochs: int, fit_seed: int) -> CloneReport:
        return behaviour_clone(
            model, data, epochs, settings.batch_size, settings.learning_rate, settings.value_coef, fit_seed, log
        )

    start = time.monotonic()
    data = collect_demonstrations(env_id, env_kwargs, settings.teacher, settings.steps, seed, gamma, settings.workers)
    report = fit(data, settings.epochs, seed)
    print(
        f"pretraining: {len(data)} decisions of {settings.teacher} ({data.episodes} episodes, "
        f"{report.teacher_win_rate:.1%} won); agreement held out {report.held_out_accuracy:.1%} ({elapsed(start)})",
        flush=True,
    )
    scratch = run_dir / "pretrain_scratch"
    scratch.mkdir(exist_ok=True)
    try:
        for round_index in range(settings.dagger_rounds):
            student = save_student(model, scratch)
            round_seed = seed + (round_index + 1) * DAGGER_SEED_STRIDE
            more = collect_demonstrations(
                env_id,
                env_kwargs,
                settings.teacher,
                settings.dagger_steps,
                round_seed,
                gamma,
                settings.workers,
                student_path=student,
                student_share=settings.student_share,
            )
            data = Demonstrations.concatenate([data, more])
            report = fit(data, settings.dagger_epochs, round_seed)
            print(
                f"pretraining: DAgger round {round_index + 1}: the student won {more.wins}/{more.episodes}; "
                f"{len(data)} decisions, agreement held out {report.held_out_accuracy:.1%} ({elapsed(start)})",
                flush=True,
            )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    save_model_atomically(model, saved)


def resume_summary(run_dir: Path, total_timesteps: int) -> tuple[str, bool]:
    """One line saying where a resumed run continues from, and whether there is anything left to train."""
    checkpoint = latest_checkpoint(run_dir)
    if checkpoint is None:
        return f"{run_dir} has no checkpoint yet: training starts from scratch", True
    done = checkpoint_timesteps(checkpoint)
    if done >= total_timesteps:
        return (
            f"{run_dir} already trained for {done} steps (budget {total_timesteps}); "
            "raise train.total_timesteps to continue",
            False,
        )
    return f"resuming {run_dir} from {checkpoint.name}", True


def elapsed(start: float) -> str:
    """Human-readable wall time since `start` (time.monotonic())."""
    seconds = time.monotonic() - start
    minutes, seconds = divmod(int(seconds), 60)
    return f"{minutes}m{seconds:02d}s"
