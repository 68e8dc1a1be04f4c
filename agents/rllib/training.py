"""PPO on Ray RLlib (new API stack) from an ExperimentConfig whose `algo.name` is `rllib_ppo`.

`check_rllib_config` runs before Ray starts: it checks `algo.training` against the keywords of RLlib's
`PPOConfig.training`, `algo.model` against `DefaultModelConfig`'s fields, builds the env adapter once and lets RLlib
validate the whole algorithm config; every failure is a ConfigError naming the file and the dotted key.
`train_rllib` then starts a local Ray (or joins `algo.ray.address`), trains until `train.total_timesteps` env steps
are sampled, writes checkpoints into the run directory (agents/common/run_dir.py names them) and returns the final one.

Seats (agents/rllib/league.py): a solo game, a cooperative game or `opponents.learner_seats: all` map every agent
of the env (agents/rllib/env.py) to the one learner module (`LEARNER_MODULE_ID`): a solo game trains as usual, a
cooperative game has one team policy, and a competitive game is shared-policy self-play. With
`opponents.pool: [{agent: snapshot}]` the learner plays one seat per episode against its league of frozen copies.
`train.time_budget_minutes` ends the run at the first iteration past it, as on the SB3 route.
"""

from __future__ import annotations

import contextlib
import dataclasses
import inspect
import json
import logging
import time
from pathlib import Path
from typing import Any

from ray.rllib.algorithms.algorithm_config import AlgorithmConfig
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec

from agents.common.config import ConfigError, ExperimentConfig, RLlibPPOHyperparameters
from agents.common.run_dir import (
    CHECKPOINT_DIR_NAME,
    RLLIB_FINAL_CHECKPOINT_NAME,
    RLLIB_PROGRESS_FILE_NAME,
    TENSORBOARD_DIR_NAME,
    rllib_checkpoint_dir_name,
)
from agents.rllib.env import TabletopMultiAgentEnv
from agents.rllib.league import (
    LEAGUE_FILE_NAME,
    LEARNER_MODULE_ID,
    League,
    LeagueMapping,
    LeagueResults,
    SeatRoles,
    seat_roles,
    train_only_the_learner,
)
from agents.rllib.module import MaskedPPOTorchRLModule

logger = logging.getLogger("agents.training")


def rllib_hyperparameters(config: ExperimentConfig) -> RLlibPPOHyperparameters:
    """The config's RLlib hyperparameters (TypeError for another algorithm)."""
    hyperparameters = config.algo.hyperparameters
    if not isinstance(hyperparameters, RLlibPPOHyperparameters):
        raise TypeError(f"agents.rllib.training trains rllib_ppo; the config names {config.algo.name!r}")
    return hyperparameters


def training_keywords() -> list[str]:
    """Every keyword `PPOConfig.training` takes (PPO's own and AlgorithmConfig's common ones)."""
    names: set[str] = set()
    for method in (PPOConfig.training, AlgorithmConfig.training):
        for name, parameter in inspect.signature(method).parameters.items():
            if name != "self" and parameter.kind not in (parameter.VAR_KEYWORD, parameter.VAR_POSITIONAL):
                names.add(name)
    return sorted(names)


def model_keywords() -> list[str]:
    """Every field of RLlib's DefaultModelConfig (what `algo.model` may set)."""
    return sorted(field.name for field in dataclasses.fields(DefaultModelConfig))


def check_rllib_config(config: ExperimentConfig, source: str) -> None:
    """Fail before Ray starts on an unknown RLlib key, an env the adapter refuses, or an invalid PPO config."""
    hyperparameters = rllib_hyperparameters(config)
    for section, known in (("training", training_keywords()), ("model", model_keywords())):
        for key in getattr(hyperparameters, section):
            if key not in known:
                what = "PPOConfig.training keyword" if section == "training" else "DefaultModelConfig field"
                raise ConfigError(source, f"algo.{section}.{key}", f"not a {what} of RLlib (valid: {', '.join(known)})")
    try:
        env = TabletopMultiAgentEnv(env_config(config))
    except (TypeError, ValueError, KeyError) as error:
        raise ConfigError(source, "env.kwargs", f"the RLlib adapter rejects {config.env.id} {error}") from None
    spec = env.game.spec
    seat_roles(config, spec.num_players, spec.cooperative, source)
    try:
        algorithm_config(config).validate()
    except Exception as error:  # RLlib raises ValueError or its own errors for inconsistent settings
        raise ConfigError(source, "algo.training", f"RLlib refuses these PPO settings: {error}") from None


def env_config(config: ExperimentConfig) -> dict[str, Any]:
    """The env_config RLlib hands TabletopMultiAgentEnv: the config's env id and kwargs."""
    return {"env_id": config.env.id, "kwargs": dict(config.env.kwargs)}


def run_seat_roles(config: ExperimentConfig) -> SeatRoles:
    """The seat roles of a config already checked by check_rllib_config."""
    spec = TabletopMultiAgentEnv(env_config(config)).game.spec
    return seat_roles(config, spec.num_players, spec.cooperative, "the config")


def learner_module_spec(config: ExperimentConfig) -> RLModuleSpec:
    """The masked PPO module of the learner (league members copy the learner's built spec)."""
    return RLModuleSpec(module_class=MaskedPPOTorchRLModule, model_config=dict(rllib_hyperparameters(config).model))


def algorithm_config(config: ExperimentConfig) -> PPOConfig:
    """The RLlib PPOConfig of an rllib_ppo experiment (new API stack, masked module, the learner and its league)."""
    hyperparameters = rllib_hyperparameters(config)
    roles = run_seat_roles(config)
    mapping = LeagueMapping(roles, (), config.opponents.snapshots.latest_share, config.train.seed)
    algorithm = (
        PPOConfig()
        # RLlib's env check steps random actions of the whole space, ignoring the mask: the rules refuse them.
        .environment(env=TabletopMultiAgentEnv, env_config=env_config(config), disable_env_checking=True)
        .env_runners(
            num_env_runners=hyperparameters.num_env_runners,
            num_envs_per_env_runner=hyperparameters.num_envs_per_env_runner,
        )
        .learners(num_learners=hyperparameters.num_learners, num_gpus_per_learner=hyperparameters.num_gpus_per_learner)
        .training(**hyperparameters.training)
        .multi_agent(policies={LEARNER_MODULE_ID}, policy_mapping_fn=mapping, policies_to_train=train_only_the_learner)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={LEARNER_MODULE_ID: learner_module_spec(config)}))
        # An error in the env is a bug of the rules or the adapter: fail the run rather than restart its runners.
        .fault_tolerance(restart_failed_env_runners=False, ignore_env_runner_failures=False)
        .debugging(seed=config.train.seed, log_level="WARN")
    )
    return algorithm.callbacks(LeagueResults) if roles.league else algorithm


def start_ray(config: ExperimentConfig) -> bool:
    """Join `algo.ray.address`, or start a local Ray for the run; True when this call started it."""
    import ray

    if ray.is_initialized():
        return False
    settings = rllib_hyperparameters(config).ray
    if settings.address:
        ray.init(address=settings.address, logging_level=logging.WARNING)
    else:
        # "local": always a new Ray of its own, even where `ray start` left this node an (old) cluster address
        ray.init(address="local", num_cpus=settings.num_cpus, include_dashboard=False, logging_level=logging.WARNING)
    return True


def _metric(result: dict[str, Any], *path: str) -> Any:
    """A nested entry of an RLlib result dict, or None where RLlib did not report it (yet)."""
    node: Any = result
    for key in path:
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    return node


def _plain(value: Any) -> Any:
    """Numbers as rounded Python floats (RLlib reports numpy scalars), inside mappings too."""
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return round(float(value), 4) if isinstance(value, int | float) else value


def iteration_summary(iteration: int, result: dict[str, Any], seconds: float) -> dict[str, Any]:
    """The few numbers of one training iteration the run keeps (rllib_progress.jsonl) and prints."""
    return {
        "iteration": iteration,
        "env_steps": int(_metric(result, "num_env_steps_sampled_lifetime") or 0),
        "episodes": _plain(_metric(result, "env_runners", "num_episodes_lifetime")),
        "episode_return_mean": _plain(_metric(result, "env_runners", "agent_episode_returns_mean")),
        "episode_length_mean": _plain(_metric(result, "env_runners", "episode_len_mean")),
        "seconds": round(seconds, 2),
    }


LEARNER_TAGS = {
    "policy_loss": "train/policy_loss",
    "vf_loss": "train/value_loss",
    "entropy": "train/entropy",
    "mean_kl_loss": "train/approx_kl",
    "vf_explained_var": "train/explained_variance",
}
"""RLlib learner statistic of the learner module -> TensorBoard tag (the SB3 route's names where they exist)."""


def tensorboard_scalars(result: dict[str, Any], summary: dict[str, Any], previous_steps: int) -> dict[str, float]:
    """The scalars of one iteration for TensorBoard: the learner's return and statistics, lengths, speed, league."""
    scalars: dict[str, float] = {}
    learner_return = _metric(result, "env_runners", "module_episode_returns_mean", LEARNER_MODULE_ID)
    if learner_return is not None:
        scalars["episode/return"] = float(learner_return)
    if summary["episode_length_mean"] is not None:
        scalars["episode/length"] = float(summary["episode_length_mean"])
    for key, tag in LEARNER_TAGS.items():
        value = _metric(result, "learners", LEARNER_MODULE_ID, key)
        if value is not None:
            scalars[tag] = float(value)
    if summary["seconds"] > 0:
        scalars["time/env_steps_per_second"] = (summary["env_steps"] - previous_steps) / summary["seconds"]
    check = summary.get("league_check")
    if check is not None and check["learner_score"] is not None:
        scalars["league/learner_score"] = float(check["learner_score"])
    return scalars


def train_rllib(config: ExperimentConfig, run_dir: Path) -> Path:
    """Train PPO on RLlib for `train.total_timesteps` env steps; checkpoints into `run_dir`; the final checkpoint."""
    import ray

    began = time.monotonic()  # the time budget counts Ray's start and the algorithm's build too
    started = start_ray(config)
    try:
        algorithm = algorithm_config(config).build_algo()
        league = League(
            roles=run_seat_roles(config),
            settings=config.opponents.snapshots,
            seed=config.train.seed,
            path=run_dir / LEAGUE_FILE_NAME,
        )
        try:
            league.start(algorithm)
            return _train_loop(config, run_dir, algorithm, league, began)
        finally:
            algorithm.stop()
            remove_empty_logdir(algorithm)
    finally:
        if started:
            ray.shutdown()


def remove_empty_logdir(algorithm: Any) -> None:
    """Remove the folder Ray makes for every algorithm under ~/ray_results when it stayed empty (the run directory
    holds everything this route writes)."""
    logdir = getattr(algorithm, "logdir", None)
    if logdir:
        with contextlib.suppress(OSError):  # not empty, or gone: leave it
            Path(logdir).rmdir()


def _train_loop(config: ExperimentConfig, run_dir: Path, algorithm: Any, league: League, began: float) -> Path:
    """Iterate until the budget is sampled (or the time budget passed), checkpointing at each interval crossed."""
    interval = config.train.checkpoint_interval
    progress_path = run_dir / RLLIB_PROGRESS_FILE_NAME
    steps, iteration, next_checkpoint = 0, 0, interval
    minutes = config.train.time_budget_minutes
    deadline = began + 60.0 * minutes if minutes is not None else None
    writer = _tensorboard_writer(config, run_dir)
    try:
        while steps < config.train.total_timesteps:
            start = time.monotonic()
            result = algorithm.train()
            iteration += 1
            summary = iteration_summary(iteration, result, time.monotonic() - start)
            previous_steps, steps = steps, summary["env_steps"]
            check = league.after_iteration(algorithm, result, steps)
            if check is not None:
                summary["league_check"] = check
                _log_league_check(check)
            with progress_path.open("a", encoding="utf-8") as handle:
                handle.write(json.dumps(summary) + "\n")
            if writer is not None:
                for tag, value in tensorboard_scalars(result, summary, previous_steps).items():
                    writer.add_scalar(tag, value, steps)
                writer.flush()
            logger.info(
                "iteration %d: %d env steps, episode return %s, %.1fs",
                iteration,
                steps,
                summary["episode_return_mean"],
                summary["seconds"],
            )
            if interval and steps >= next_checkpoint and steps < config.train.total_timesteps:
                checkpoint = run_dir / CHECKPOINT_DIR_NAME / rllib_checkpoint_dir_name(steps)
                algorithm.save_to_path(str(checkpoint.resolve()))
                logger.info("checkpoint: %s", checkpoint)
                next_checkpoint = (steps // interval + 1) * interval
            if deadline is not None and time.monotonic() >= deadline:
                logger.info("time budget of %g minutes reached at %d env steps", minutes, steps)
                break
    finally:
        if writer is not None:
            writer.close()
    final = run_dir / RLLIB_FINAL_CHECKPOINT_NAME
    algorithm.save_to_path(str(final.resolve()))
    return final


def _tensorboard_writer(config: ExperimentConfig, run_dir: Path) -> Any:
    """A TensorBoard writer into the run's tensorboard/ folder (as the SB3 route's), or None when turned off."""
    if not config.logging.tensorboard:
        return None
    from torch.utils.tensorboard import SummaryWriter

    return SummaryWriter(str(run_dir / TENSORBOARD_DIR_NAME))


def _log_league_check(check: dict[str, Any]) -> None:
    """One line on a league check: the learner's score and whether a member joined."""
    logger.info(
        "league: learner scored %s in %d games since the last check; %s",
        "-" if check["learner_score"] is None else f"{100 * check['learner_score']:.1f}%",
        check["games"],
        f"froze {check['member']}" if check["frozen"] else "no new member",
    )
