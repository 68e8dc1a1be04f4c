"""MaskablePPO training from an ExperimentConfig: vec envs, logging, checkpoints, pretraining and resume.

The run directory's layout (file names, atomic writes, checkpoints) lives in agents/common/run_dir.py; what a checkpoint
holds so that a resumed run continues exactly as the uninterrupted one would have, in agents/training/resume.py.
Progress messages go to the `agents.training` loggers (train.py shows them on the console).
"""

from __future__ import annotations

import functools
import logging
import shutil
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import gymnasium as gym
import numpy as np

from agents.common.config import (
    ExperimentConfig,
    MaskablePPOHyperparameters,
    OpponentsConfig,
    dump_yaml,
    limit_openmp_spinning,
)
from agents.common.kernels import pin_cpu_kernels
from agents.common.run_dir import (
    BEST_MODEL_NAME,
    CHECKPOINT_DIR_NAME,
    EVALUATIONS_FILE_NAME,
    FINAL_MODEL_NAME,
    PRETRAIN_SCRATCH_DIR_NAME,
    PRETRAINED_MODEL_NAME,
    SNAPSHOT_DIR_NAME,
    TENSORBOARD_DIR_NAME,
    checkpoint_files,
    checkpoint_timesteps,
    create_run_dir,
    is_readable_model,
    remove_stray_temporaries,
    save_model_atomically,
    snapshot_paths,
    write_run_files,
)
from agents.evaluation.environment import EnvFacts, EpisodeOutcomeWrapper, make_env
from agents.training.resume import ResumableCallback, ResumableEnv, read_resume_state, restore_resume_state

if TYPE_CHECKING:
    from agents.training.callbacks import BoundaryCheckpointCallback

logger = logging.getLogger(__name__)

PRETRAIN_SEED_OFFSET = 2_000_000
"""Pretraining episodes are seeded away from the training and evaluation envs."""
DAGGER_SEED_STRIDE = 10_000_000
"""Each DAgger round plays fresh episodes this far from the previous round's seeds."""
EVAL_SEED_OFFSET = 1_000_000
"""Evaluation envs are seeded away from the training envs so they never replay training episodes."""


def create_experiment_run_dir(config: ExperimentConfig, facts: EnvFacts) -> Path:
    """A new run directory for this config (named after the game, the algorithm and the seed)."""
    return create_run_dir(config.logging.run_root, facts.game_name, config.algo.name, config.train.seed)


def write_experiment_files(run_dir: Path, config: ExperimentConfig, argv: list[str]) -> None:
    """Write the resolved config and the run information into the run directory."""
    write_run_files(run_dir, dump_yaml(config), argv)


def _make_monitored_env(
    env_id: str,
    kwargs: dict[str, Any],
    opponents: OpponentsConfig | None = None,
    env_index: int = 0,
    snapshot_dir: Path | None = None,
) -> gym.Env:
    """Env factory for vec envs: module-level so SubprocVecEnv can pickle it; checkpoints save its whole stack."""
    from stable_baselines3.common.monitor import Monitor

    env = make_env(env_id, kwargs, opponents=opponents, env_index=env_index, snapshot_dir=snapshot_dir)
    return ResumableEnv(Monitor(EpisodeOutcomeWrapper(env)))


def make_vec_env(
    config: ExperimentConfig,
    n_envs: int,
    vec_env: str,
    seed: int,
    opponents: OpponentsConfig | None = None,
    snapshot_dir: Path | None = None,
) -> Any:
    """A DummyVecEnv or SubprocVecEnv of monitored envs, seeded seed, seed+1, ... (masks via env_method).

    For a multi-player game each env is an OpponentEnv against `opponents` (default: the config's), env i with
    `env_index=i` so that rotating seats cover every seat across the envs. `batched`: a DummyVecEnv whose envs'
    snapshot decisions, when several wait at once, share a forward pass (a BatchedOpponentsVecEnv,
    agents/training/batched_vec_env.py; a DummyVecEnv when the envs play no snapshots).
    """
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv

    opponents = config.opponents if opponents is None else opponents
    factories: list[Callable[[], gym.Env]] = [
        functools.partial(_make_monitored_env, config.env.id, dict(config.env.kwargs), opponents, index, snapshot_dir)
        for index in range(n_envs)
    ]
    vectorized: VecEnv
    if vec_env == "subproc":
        vectorized = SubprocVecEnv(factories)
    elif vec_env == "batched" and snapshot_dir is not None and opponents.uses_snapshots:
        from agents.training.batched_vec_env import BatchedOpponentsVecEnv

        vectorized = BatchedOpponentsVecEnv(factories)
    else:
        vectorized = DummyVecEnv(factories)
    vectorized.seed(seed)
    return vectorized


def maskable_ppo_hyperparameters(config: ExperimentConfig) -> MaskablePPOHyperparameters:
    """The config's MaskablePPO hyperparameters (this module trains MaskablePPO only)."""
    hyperparameters = config.algo.hyperparameters
    if not isinstance(hyperparameters, MaskablePPOHyperparameters):
        raise TypeError(f"agents.training.maskable_ppo trains maskable_ppo; the config names {config.algo.name!r}")
    return hyperparameters


def policy_and_buffer(config: ExperimentConfig, observation_space: gym.Space) -> dict[str, Any]:
    """MaskablePPO's `policy` and `rollout_buffer_class` arguments for the config's `algo.policy`.

    auto: the lean classes of agents.common.lean_learner (the same numbers as sb3-contrib's, faster); an sb3 policy
    name: sb3-contrib's own policy and buffer.
    """
    policy = maskable_ppo_hyperparameters(config).policy
    if policy != "auto":
        return {"policy": policy, "rollout_buffer_class": None}
    from agents.common.lean_learner import lean_learner_classes

    policy_class, buffer_class = lean_learner_classes(isinstance(observation_space, gym.spaces.Dict))
    return {"policy": policy_class, "rollout_buffer_class": buffer_class}


def learner_kwargs(config: ExperimentConfig, observation_space: gym.Space) -> dict[str, Any]:
    """MaskablePPO's keyword arguments for the config (all but env, seed and logging): the policy and rollout buffer
    classes, the hyperparameters and the policy kwargs with the observer's views its extractor needs."""
    hyperparameters = maskable_ppo_hyperparameters(config)
    return {
        **policy_and_buffer(config, observation_space),
        **hyperparameters.sb3_kwargs(_view_shapes(config), _view_axes(config), _seats_present(config)),
    }


def _view_shapes(config: ExperimentConfig) -> dict[str, tuple[int, ...]] | None:
    """The observer's view shapes when the policy's features extractor needs them (else None)."""
    if maskable_ppo_hyperparameters(config).policy_kwargs.features_extractor == "flatten":
        return None
    from agents.evaluation.environment import observation_view_shapes

    return observation_view_shapes(config.env)


def _seats_present(config: ExperimentConfig) -> int | None:
    """The game's number of players when the policy's features extractor encodes the seats present only (else None)."""
    policy_kwargs = maskable_ppo_hyperparameters(config).policy_kwargs
    if policy_kwargs.features_extractor == "flatten" or policy_kwargs.encode_seats == "all":
        return None
    from agents.evaluation.environment import players_of

    return players_of(config.env)


def _view_axes(config: ExperimentConfig) -> dict[str, tuple[str, ...]] | None:
    """The roles of the axes of the observer's views when the policy's features extractor needs them (else None)."""
    if maskable_ppo_hyperparameters(config).policy_kwargs.features_extractor == "flatten":
        return None
    from agents.evaluation.environment import observation_view_axes

    return observation_view_axes(config.env)


def _callbacks(config: ExperimentConfig, run_dir: Path) -> tuple[list[Any], BoundaryCheckpointCallback]:
    """Episode statistics, self-play snapshots, masked evaluations and, last, the checkpoints at rollout boundaries.

    Returns the callbacks and the checkpoint callback (its `resumable` are the callbacks whose state it saves).
    """
    from agents.training.callbacks import (
        BoundaryCheckpointCallback,
        EpisodeStatsCallback,
        ResumableEvalCallback,
        SaveBestModelCallback,
    )

    callbacks: list[Any] = [EpisodeStatsCallback()]
    resumable: dict[str, ResumableCallback] = {}
    if config.opponents.uses_snapshots:
        from agents.training.selfplay import SnapshotCallback

        snapshots = config.opponents.snapshots
        resumable["snapshots"] = SnapshotCallback(
            run_dir / SNAPSHOT_DIR_NAME, snapshots.interval, snapshots.win_rate_to_freeze, snapshots.min_games
        )
        callbacks.append(resumable["snapshots"])
    if config.train.eval_interval > 0:
        # Several eval envs batch the policy's forward pass as the training envs do (sb3 splits the episodes evenly).
        eval_envs = min(config.train.n_envs, config.train.eval_episodes)
        eval_env = make_vec_env(
            config, eval_envs, "dummy", config.train.seed + EVAL_SEED_OFFSET, config.opponents.evaluation_opponents()
        )
        resumable["evaluation"] = ResumableEvalCallback(
            eval_env,
            n_eval_episodes=config.train.eval_episodes,
            eval_freq=max(config.train.eval_interval // config.train.n_envs, 1),
            log_path=str(run_dir),
            best_model_save_path=None,
            callback_on_new_best=SaveBestModelCallback(run_dir / BEST_MODEL_NAME),
            deterministic=True,
            use_masking=True,
            verbose=0,
        )
        callbacks.append(resumable["evaluation"])
    checkpoints = BoundaryCheckpointCallback(run_dir / CHECKPOINT_DIR_NAME, config.train.checkpoint_interval, resumable)
    callbacks.append(checkpoints)
    return callbacks, checkpoints


def _restore_evaluations(evaluation: Any, path: Path) -> None:
    """Carry evaluations.npz over into a run resumed from a checkpoint without resume state (an older run)."""
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


def _metrics_logger(config: ExperimentConfig, run_dir: Path) -> Any:
    """sb3's metrics logger: TensorBoard event files in the run directory, or nothing."""
    from stable_baselines3.common.logger import Logger, make_output_format

    if not config.logging.tensorboard:
        return Logger(folder=None, output_formats=[])
    folder = run_dir / TENSORBOARD_DIR_NAME
    folder.mkdir(exist_ok=True)
    return Logger(folder=str(folder), output_formats=[make_output_format("tensorboard", str(folder))])


@contextmanager
def unvalidated_distributions() -> Iterator[None]:
    """torch.distributions without argument checks while the block runs (the previous default after it).

    The learner builds a masked distribution at every rollout forward pass and every minibatch, and their checks
    (real logits, probabilities on the simplex) cost a sizeable share of a small network's time; they change no
    number.
    """
    from torch.distributions import Distribution

    previous = Distribution._validate_args
    Distribution.set_default_validate_args(False)
    try:
        yield
    finally:
        Distribution.set_default_validate_args(previous)


def train(config: ExperimentConfig, run_dir: Path, progress_bar: bool = True, resume_from: Path | None = None) -> Path:
    """Train MaskablePPO for the config's budget in `run_dir`, from scratch or continuing the checkpoint `resume_from`.

    Continuing a checkpoint gives exactly the run that would have happened without the interruption
    (agents.training.resume). On Ctrl-C the latest rollout boundary is saved as a checkpoint before KeyboardInterrupt
    propagates. Returns the path of the final model.
    """
    limit_openmp_spinning()  # train() called without train.py: effective if torch is not loaded yet
    if config.train.cpu_kernels == "portable":
        pin_cpu_kernels()
    import torch
    from sb3_contrib import MaskablePPO

    train_config = config.train
    started = time.monotonic()
    hyperparameters = maskable_ppo_hyperparameters(config)
    threads = train_config.resolved_torch_threads()
    torch.set_num_threads(threads)
    if train_config.torch_threads == "auto":
        logger.info(
            "torch threads: %d in pretraining and updates, 1 in rollouts (train.torch_threads: auto, the cores this "
            "process may use)",
            threads,
        )
    snapshot_dir = run_dir / SNAPSHOT_DIR_NAME
    vec_env = make_vec_env(
        config, train_config.n_envs, train_config.vec_env, train_config.seed, snapshot_dir=snapshot_dir
    )
    state = read_resume_state(resume_from) if resume_from is not None else None
    try:
        if resume_from is None:
            model = MaskablePPO(
                env=vec_env, seed=train_config.seed, verbose=0, **learner_kwargs(config, vec_env.observation_space)
            )
        else:
            # With a resume state the saved last observations stay: the restored envs continue from them.
            model = MaskablePPO.load(resume_from, env=vec_env, device=hyperparameters.device, force_reset=state is None)
            if state is None:
                logger.warning(
                    "%s holds no resume state (written by an older version): continuing from fresh envs, "
                    "not exactly the run an uninterrupted one would have been",
                    resume_from,
                )
                model.set_random_seed(train_config.seed + model.num_timesteps)
        model.set_logger(_metrics_logger(config, run_dir))
        if resume_from is None and config.pretrain.steps > 0:
            pretrain(model, config, run_dir, progress_bar=progress_bar)
        if config.opponents.uses_snapshots and not snapshot_paths(snapshot_dir):
            from agents.training.selfplay import freeze_learner

            freeze_learner(model, snapshot_dir, model.num_timesteps, vec_env)  # the pool is never empty
        callbacks, checkpoints = _callbacks(config, run_dir)
        if threads > 1:
            from agents.training.callbacks import UpdateThreadsCallback

            callbacks.insert(0, UpdateThreadsCallback(threads))
        budget = None
        if train_config.time_budget_minutes is not None:
            from agents.training.callbacks import TimeBudgetCallback

            minutes = train_config.time_budget_minutes
            budget = TimeBudgetCallback(started + 60.0 * minutes, minutes)
            callbacks.append(budget)
        if state is not None:
            restore_resume_state(model, state, checkpoints.resumable)  # last: it restores the generators
        elif resume_from is not None and "evaluation" in checkpoints.resumable:
            _restore_evaluations(checkpoints.resumable["evaluation"], run_dir / EVALUATIONS_FILE_NAME)
        remaining = train_config.total_timesteps - model.num_timesteps
        try:
            if remaining > 0:
                if progress_bar:
                    from agents.training.callbacks import RolloutProgressBar

                    callbacks.append(RolloutProgressBar())
                with unvalidated_distributions():
                    model.learn(total_timesteps=remaining, callback=callbacks, reset_num_timesteps=resume_from is None)
            if budget is not None and budget.stopped_at is not None:
                logger.info(
                    "time budget of %g minutes reached at %d steps: the model of the last update is final",
                    budget.minutes,
                    budget.stopped_at,
                )
            final_path = run_dir / FINAL_MODEL_NAME
            save_model_atomically(model, final_path)
        except KeyboardInterrupt:
            saved = checkpoints.save_boundary()
            if saved is not None:
                logger.info(
                    "interrupted at %d steps: saved the last rollout boundary, %s", model.num_timesteps, saved.name
                )
            raise
        model.logger.close()
    finally:
        vec_env.close()
    return final_path


def pretrain(model: Any, config: ExperimentConfig, run_dir: Path, progress_bar: bool = True) -> None:
    """Behaviour cloning (then DAgger rounds) from the config's teacher; saved as pretrained_model.zip.

    A run resumed before its first checkpoint reuses pretrained_model.zip instead of pretraining again. With
    `progress_bar`, each phase (recording the teacher's decisions, fitting them, each DAgger round's two) draws a
    progress bar as the PPO phase does.
    """
    from agents.training.callbacks import phase_progress_bar
    from agents.training.imitation import (
        CloneReport,
        Demonstrations,
        behaviour_clone,
        clone_batches,
        collect_demonstrations,
        save_student,
    )

    saved = run_dir / PRETRAINED_MODEL_NAME
    if saved.is_file():
        model.set_parameters(str(saved), device=maskable_ppo_hyperparameters(config).device)
        logger.info("pretraining: reusing %s", saved)
        return
    settings = config.pretrain
    gamma = maskable_ppo_hyperparameters(config).gamma
    env_id, env_kwargs, seed = config.env.id, dict(config.env.kwargs), config.train.seed + PRETRAIN_SEED_OFFSET
    metrics = model.logger

    def log(key: str, value: float, step: int) -> None:
        metrics.record(key, value)
        metrics.dump(step)

    def fit(data: Demonstrations, epochs: int, fit_seed: int, phase: str) -> CloneReport:
        batches = clone_batches(len(data), epochs, settings.batch_size)
        with phase_progress_bar(batches, f"{phase}: fitting", progress_bar) as advance:
            return behaviour_clone(
                model,
                data,
                epochs,
                settings.batch_size,
                settings.learning_rate,
                settings.value_coef,
                fit_seed,
                log,
                progress=advance,
            )

    start = time.monotonic()
    opponents = config.opponents
    cloning = "cloning"
    with phase_progress_bar(settings.steps, f"{cloning}: recording", progress_bar) as advance:
        data = collect_demonstrations(
            env_id,
            env_kwargs,
            settings.teacher,
            settings.steps,
            seed,
            gamma,
            settings.workers,
            opponents=opponents,
            progress=advance,
        )
    report = fit(data, settings.epochs, seed, cloning)
    logger.info(
        "pretraining: %d decisions of %s (%d episodes, %.1f%% won); agreement held out %.1f%% (%s)",
        len(data),
        settings.teacher,
        data.episodes,
        100 * report.teacher_win_rate,
        100 * report.held_out_accuracy,
        elapsed(start),
    )
    scratch = run_dir / PRETRAIN_SCRATCH_DIR_NAME
    scratch.mkdir(exist_ok=True)
    try:
        for round_index in range(settings.dagger_rounds):
            student = save_student(model, scratch)
            round_seed = seed + (round_index + 1) * DAGGER_SEED_STRIDE
            dagger = f"DAgger {round_index + 1}/{settings.dagger_rounds}"
            with phase_progress_bar(settings.dagger_steps, f"{dagger}: recording", progress_bar) as advance:
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
                    opponents=opponents,
                    progress=advance,
                )
            data = Demonstrations.concatenate([data, more])
            report = fit(data, settings.dagger_epochs, round_seed, dagger)
            logger.info(
                "pretraining: DAgger round %d: the student won %d/%d; %d decisions, agreement held out %.1f%% (%s)",
                round_index + 1,
                more.wins,
                more.episodes,
                len(data),
                100 * report.held_out_accuracy,
                elapsed(start),
            )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    save_model_atomically(model, saved)


@dataclass(frozen=True)
class ResumePlan:
    """What `train.py --resume` does with a run directory: the checkpoint it continues, and whether it trains."""

    summary: str
    """One line saying where the run continues from."""
    checkpoint: Path | None
    """The checkpoint to continue (None: start from scratch)."""
    work_left: bool
    """False when the run is finished: its budget reached and its final model written."""


class ResumeError(RuntimeError):
    """A run directory that cannot be resumed (every checkpoint unreadable); nothing in it was changed."""


def checkpoint_problem(checkpoint: Path) -> str | None:
    """Why `checkpoint` cannot be resumed (a damaged zip, weights or resume state), or None when it loads."""
    from sb3_contrib import MaskablePPO

    from agents.players.ppo import load_failure_reason

    if not is_readable_model(checkpoint):
        return "truncated or corrupt"
    try:
        MaskablePPO.load(checkpoint, device="cpu")
        read_resume_state(checkpoint)
    except Exception as error:  # a file from disk through torch, sb3 and pickle: any failure means no resume point
        return load_failure_reason(error)
    return None


def loadable_checkpoint(run_dir: Path) -> tuple[Path | None, list[tuple[Path, str]]]:
    """The checkpoint with the most timesteps that loads (weights and resume state), and the newer ones that do not,
    each with why."""
    damaged: list[tuple[Path, str]] = []
    for checkpoint in reversed(checkpoint_files(run_dir)):
        problem = checkpoint_problem(checkpoint)
        if problem is None:
            return checkpoint, damaged
        logger.warning("checkpoint %s is unreadable (%s): falling back to an earlier one", checkpoint, problem)
        damaged.append((checkpoint, problem))
    return None, damaged


def prepare_resume(run_dir: Path, total_timesteps: int) -> ResumePlan:
    """Remove the temp files of writes cut short, and plan the resume of `run_dir` for a budget of `total_timesteps`.

    The checkpoint resumed is the latest that loads: a damaged one (truncated, garbled weights, unreadable resume
    state) is passed over with a warning. A run whose checkpoints are all damaged is not started again from scratch
    over them: ResumeError names the files, and nothing is written. A run whose budget is reached but whose final
    model is missing (killed while saving it) is not finished: resuming writes its final model from its last
    checkpoint.
    """
    checkpoint, damaged = loadable_checkpoint(run_dir)
    if checkpoint is None and damaged:
        listed = "; ".join(f"{path} ({problem})" for path, problem in damaged)
        raise ResumeError(
            f"cannot resume {run_dir}: no checkpoint of it loads: {listed}. Nothing was changed; restore a "
            "checkpoint, or start a new run"
        )
    for path in remove_stray_temporaries(run_dir):
        logger.info("removed %s (a write cut short)", path)
    if checkpoint is None:
        return ResumePlan(f"{run_dir} has no checkpoint yet: training starts from scratch", None, True)
    done = checkpoint_timesteps(checkpoint)
    if done < total_timesteps:
        return ResumePlan(f"resuming {run_dir} from {checkpoint.name}", checkpoint, True)
    final = run_dir / FINAL_MODEL_NAME
    if final.is_file() and is_readable_model(final):
        summary = (
            f"{run_dir} already trained for {done} steps (budget {total_timesteps}); "
            "raise train.total_timesteps to continue"
        )
        return ResumePlan(summary, checkpoint, False)
    summary = f"{run_dir} trained for {done} steps but has no {FINAL_MODEL_NAME}: writing it from {checkpoint.name}"
    return ResumePlan(summary, checkpoint, True)


def elapsed(start: float) -> str:
    """Human-readable wall time since `start` (time.monotonic())."""
    seconds = time.monotonic() - start
    minutes, seconds = divmod(int(seconds), 60)
    return f"{minutes}m{seconds:02d}s"
