"""Train an agent from a YAML config: `python train.py [--config FILE] [key=value ...]` or `--resume RUN_DIR`.

Installed, the same command is `tabletop-train`. With no argument it trains MaskablePPO on the default game of
configs/defaults.yaml with its configs/<game>/maskable_ppo.yaml (a few minutes on two CPU cores; the configs ship
inside the agents package).
`algo.name: rllib_ppo` trains on Ray RLlib instead (agents/rllib/training.py; the `rllib` extra).
Dotted overrides are YAML scalars: `python train.py algo.learning_rate=1e-4 env.num_players=3` (`env.X` is short
for `env.kwargs.X`). The config is validated (and the env built once) before any training starts; errors name the
file and the key.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from agents.common.config import (
    RLLIB_PPO,
    ConfigError,
    ExperimentConfig,
    blame_overrides,
    dump_yaml,
    limit_openmp_spinning,
    load_experiment_config,
    parse_override,
)
from agents.common.kernels import pin_cpu_kernels
from agents.common.run_dir import CONFIG_FILE_NAME, PRETRAINED_MODEL_NAME
from agents.common.shipped_configs import (
    CONFIGS_DIR,
    config_listing,
    config_not_found_hint,
    default_game,
    resolve_config_path,
)
from agents.common.signals import sigterm_as_interrupt
from agents.evaluation.environment import check_features_extractor, probe_env
from agents.training.console import log_to_console

DEFAULT_CONFIG = CONFIGS_DIR / default_game() / "maskable_ppo.yaml"
"""The config used when train.py is run without --config (the default game's, configs/defaults.yaml)."""
CONSOLE_SCRIPT = "tabletop-train"
"""The name of this command when installed (pyproject.toml's [project.scripts])."""
INTERRUPTED_EXIT_CODE = 130
"""Exit status after Ctrl-C (128 + SIGINT), as shells report it."""
RESUME_OVERRIDABLE_KEYS = {"train.total_timesteps", "train.final_eval_episodes"}
"""Keys a resumed run may change (extending the budget); everything else stays as the run was configured."""


def command_name() -> str:
    """How this command was run: `tabletop-train` when installed as a console script, else `python train.py`."""
    return CONSOLE_SCRIPT if Path(sys.argv[0]).stem == CONSOLE_SCRIPT else "python train.py"


def evaluate_command_name() -> str:
    """The evaluation command to suggest: `tabletop-evaluate` beside an installed `tabletop-train`, else
    `python evaluate.py` (there is no evaluate.py outside a checkout)."""
    return "tabletop-evaluate" if command_name() == CONSOLE_SCRIPT else "python evaluate.py"


def parse_args(argv: list[str]) -> argparse.Namespace:
    """The command line of train.py."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--resume", type=Path, default=None, metavar="RUN_DIR", help="continue a run directory")
    parser.add_argument(
        "--config",
        type=Path,
        default=None,
        help=f"YAML config: a file, or a shipped config's short name like <game>/selfplay (default: {DEFAULT_CONFIG})",
    )
    parser.add_argument("--list-configs", action="store_true", help="list the shipped configs and exit")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar (e.g. in CI logs)")
    parser.add_argument(
        "--show-config",
        action="store_true",
        help="print the resolved config (every default filled in, overrides applied) and exit without training",
    )
    parser.add_argument("overrides", nargs="*", metavar="key=value", help="dotted config overrides")
    return parser.parse_args(argv)


def load_config(args: argparse.Namespace) -> tuple[ExperimentConfig, str]:
    """The validated config of this invocation and the file it came from."""
    if args.resume is None:
        path = resolve_config_path(args.config or DEFAULT_CONFIG)
        try:
            return load_experiment_config(path, args.overrides), str(path)
        except ConfigError as error:
            if error.reason == "config file not found":
                raise ConfigError(error.source, "", f"config file not found ({config_not_found_hint(path)})") from None
            raise
    if args.config is not None:
        raise ConfigError("--resume", "", "a resumed run uses its own config.yaml; do not pass --config")
    if not args.resume.is_dir():
        raise ConfigError(str(args.resume), "", "run directory not found")
    for text in args.overrides:
        key = parse_override(text).dotted_key
        if key not in RESUME_OVERRIDABLE_KEYS:
            raise ConfigError(
                f"command-line override {text!r}",
                key,
                f"a resumed run keeps its config; only {', '.join(sorted(RESUME_OVERRIDABLE_KEYS))} may change",
            )
    path = args.resume / CONFIG_FILE_NAME
    return load_experiment_config(path, args.overrides), str(path)


def check_pretrain_teacher(config: ExperimentConfig, source: str) -> None:
    """Fail before training when pretrain.teacher names no agent this env can build: also with pretraining off
    (`steps: 0`), where a teacher other than the default is a mistake all the same (the unused default is not
    built, so a game without a heuristic trains without pretraining)."""
    from agents.common.config import PretrainConfig
    from agents.players.registry import AgentSpecError
    from agents.training.imitation import check_teacher

    if config.pretrain.steps == 0 and config.pretrain.teacher == PretrainConfig().teacher:
        return
    try:
        check_teacher(config.env.id, config.env.kwargs, config.pretrain.teacher, config.opponents)
    except AgentSpecError as error:
        raise ConfigError(source, "pretrain.teacher", str(error)) from None


def check_rllib_route(config: ExperimentConfig, source: str, resuming: bool) -> None:
    """Fail before Ray starts: the rllib extra is missing, an RLlib key is unknown, or the run would be resumed."""
    if resuming:
        raise ConfigError("--resume", "algo.name", f"{RLLIB_PPO} runs cannot be resumed yet; start a new run")
    try:
        from agents.rllib.training import check_rllib_config  # imports ray (not started): only on this route
    except ImportError as error:
        raise ConfigError(
            source, "algo.name", f"{RLLIB_PPO} needs Ray RLlib: pip install 'tabletop-gym[train,rllib]' ({error})"
        ) from None
    check_rllib_config(config, source)


def main(argv: list[str] | None = None) -> int:
    """Validate the config, create (or reopen) the run directory, train, and say where everything went.

    Ctrl-C while training saves the last rollout boundary and prints the resume command; Ctrl-C before (loading
    torch, building the envs) or after it (the final evaluation) ends with one line and status 130, no traceback.
    """
    limit_openmp_spinning()  # before anything imports torch
    try:
        return _main(sys.argv[1:] if argv is None else argv)
    except KeyboardInterrupt:
        print("\ninterrupted (outside training: nothing was being trained)", file=sys.stderr)
        return INTERRUPTED_EXIT_CODE


def _main(argv: list[str]) -> int:
    """`main` without its Ctrl-C handler."""
    args = parse_args(argv)
    if args.list_configs:
        print(config_listing())
        return 0
    try:
        config, source = load_config(args)
        if config.train.cpu_kernels == "portable":
            pin_cpu_kernels()  # before torch loads: the same weights on every x86-64 CPU (agents.common.kernels)
        if args.show_config:
            print(f"# {source}, resolved ({len(args.overrides)} overrides)")
            print(dump_yaml(config), end="")
            return 0
        facts = probe_env(config.env, source, config.opponents)
        check_features_extractor(config, source)
        check_pretrain_teacher(config, source)
        if config.algo.name == RLLIB_PPO:
            check_rllib_route(config, source, resuming=args.resume is not None)
    except ConfigError as error:
        print(f"error: {blame_overrides(error, args.overrides)}", file=sys.stderr)
        return 2

    from agents.training.callbacks import whole_rollouts
    from agents.training.maskable_ppo import (
        ResumeError,
        create_experiment_run_dir,
        elapsed,
        maskable_ppo_hyperparameters,
        prepare_resume,
        train,
        write_experiment_files,
    )

    log_to_console()
    resume_from = None
    if args.resume is None:
        run_dir = create_experiment_run_dir(config, facts)
        print(f"run directory: {run_dir}")
    else:
        run_dir = args.resume
        try:
            plan = prepare_resume(run_dir, config.train.total_timesteps)
        except ResumeError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        print(plan.summary)
        if not plan.work_left:
            return 0
        resume_from = plan.checkpoint
    write_experiment_files(run_dir, config, [command_name().removeprefix("python "), *argv])
    if config.algo.name == RLLIB_PPO:
        from agents.rllib.training import rllib_hyperparameters

        hyperparameters = rllib_hyperparameters(config)
        where = hyperparameters.ray.address or "a local Ray"
        parallel = (
            f"{hyperparameters.num_env_runners} env runners x {hyperparameters.num_envs_per_env_runner} envs on {where}"
        )
    else:
        parallel = f"{config.train.n_envs} {config.train.vec_env} envs"
        rollout = maskable_ppo_hyperparameters(config).n_steps * config.train.n_envs
        taken = whole_rollouts(config.train.total_timesteps, rollout)
        if taken != config.train.total_timesteps:
            parallel += f"; whole rollouts of {rollout} steps make it {taken}"
    print(
        f"training {config.algo.name} on {config.env.id} {config.env.kwargs} for "
        f"{config.train.total_timesteps} steps ({parallel}, seed {config.train.seed})"
    )
    start = time.monotonic()
    if config.algo.name == RLLIB_PPO:
        with sigterm_as_interrupt():
            return train_on_rllib(config, run_dir, facts.game_name, start, progress=not args.no_progress)
    try:
        with sigterm_as_interrupt():
            final_model = train(config, run_dir, progress_bar=not args.no_progress, resume_from=resume_from)
    except KeyboardInterrupt:
        from agents.common.run_dir import latest_checkpoint

        checkpoint = latest_checkpoint(run_dir)
        kept = (
            f"the latest checkpoint is {checkpoint.name} (taken between rollouts: the run continues exactly from it)"
            if checkpoint
            else "no checkpoint was written yet"
        )
        print(f"\ninterrupted after {elapsed(start)}; {kept}. Continue with: {command_name()} --resume {run_dir}")
        return INTERRUPTED_EXIT_CODE
    print(f"done in {elapsed(start)}; final model: {final_model}")
    if config.logging.tensorboard:
        print(f"TensorBoard: tensorboard --logdir {run_dir / 'tensorboard'}")
    if config.train.final_eval_episodes > 0:
        final_evaluation(run_dir, config, facts.game_name, progress=not args.no_progress)
    print(f"evaluate: {evaluate_command_name()} --agent {run_dir} --agent random")
    return 0


def train_on_rllib(config: ExperimentConfig, run_dir: Path, game_name: str, start: float, progress: bool) -> int:
    """The rllib_ppo route: train on Ray RLlib, then the same final evaluation as the SB3 route."""
    from agents.rllib.training import train_rllib
    from agents.training.maskable_ppo import elapsed

    try:
        final_checkpoint = train_rllib(config, run_dir)
    except KeyboardInterrupt:
        print(f"\ninterrupted after {elapsed(start)}; RLlib runs cannot be resumed yet (checkpoints: {run_dir})")
        return INTERRUPTED_EXIT_CODE
    print(f"done in {elapsed(start)}; final checkpoint: {final_checkpoint}")
    agent = f"rllib:{run_dir}"
    if config.train.final_eval_episodes > 0:
        final_evaluation(run_dir, config, game_name, progress=progress, agent=agent)
    print(f"evaluate: {evaluate_command_name()} --agent {agent} --agent random")
    return 0


FINAL_EVAL_SEED_OFFSET = 5_000_000
"""The final evaluation's deals are seeded this far from the training seed (never a training or eval-callback deal)."""
FINAL_EVAL_DIR_NAME = "final_evaluation"
"""Where the final evaluation's results.json and plots go, inside the run directory."""


def final_evaluation(
    run_dir: Path, config: ExperimentConfig, game_name: str, progress: bool = True, agent: str | None = None
) -> None:
    """evaluate.py on the run's own env: the final model (`agent`, default the run directory) beside the pretrained
    model before PPO (when the run pretrained), random and the game's heuristic, same deals."""
    from agents.evaluation import evaluate_cli as evaluate
    from envs.core.registration import game_record

    agents = [agent or str(run_dir)]
    pretrained = run_dir / PRETRAINED_MODEL_NAME
    if agent is None and pretrained.is_file():
        agents.append(str(pretrained))  # the cloned policy before PPO: what the PPO phase did, on the same deals
    agents.append("random")
    if game_record(game_name).heuristic is not None:
        agents.append("heuristic")
    arguments = [argument for agent in agents for argument in ("--agent", agent)]
    arguments += [
        "--episodes",
        str(config.train.final_eval_episodes),
        "--workers",
        str(config.train.final_eval_workers),
        "--seed",
        str(config.train.seed + FINAL_EVAL_SEED_OFFSET),
        "--out",
        str(run_dir / FINAL_EVAL_DIR_NAME),
        *(() if progress else ("--no-progress",)),
    ]
    print(f"final evaluation: {config.train.final_eval_episodes} deals, the model beside {', '.join(agents[1:])}")
    if evaluate.main(arguments) != 0:
        print("the final evaluation failed; the model is saved all the same", file=sys.stderr)
        return
    if len(agents) > 1 and agents[1] == str(pretrained):
        line = ppo_phase_line(run_dir / FINAL_EVAL_DIR_NAME / "results.json")
        if line:
            print(line)


def ppo_phase_line(results_path: Path) -> str | None:
    """What the PPO phase did: the final model's win rate against its pretrained start on the same deals, with the
    paired 95% interval of the difference (None when the results lack the two groups' episodes)."""
    import json

    try:
        groups = json.loads(results_path.read_text(encoding="utf-8"))["results"]
        final, pretrained = ([float(e["won"]) for e in group["episodes"]] for group in groups[:2])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if len(final) != len(pretrained) or not final:
        return None
    return ppo_phase_text(final, pretrained)


def ppo_phase_text(final: list[float], pretrained: list[float]) -> str:
    """The PPO phase's line from the final and pretrained models' outcomes (1 won, 0 not) on the same deals."""
    from agents.evaluation.ratings import paired_difference

    mean, low, high = paired_difference(final, pretrained)
    return (
        f"the PPO phase: {sum(final) / len(final):.1%} won against {sum(pretrained) / len(pretrained):.1%} before it, "
        f"on the same {len(final)} deals: {100 * mean:+.1f} points [{100 * low:+.1f}, {100 * high:+.1f}] "
        "(paired 95% interval)"
    )
