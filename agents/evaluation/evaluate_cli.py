"""Evaluate agents: `tabletop-evaluate [--game GAME | --config FILE] --agent heuristic --agent runs/RUN`.

`python evaluate.py ...` in a checkout is the same command (evaluate.py calls `main` here).

AGENT is random, heuristic, mcts (mcts:200 sets the simulations), a saved model (.zip) or a train.py run directory,
or rllib:<checkpoint or run directory> (an RLlib-trained policy; the `rllib` extra).
Every evaluation is a tournament, played by one game loop (agents/evaluation/tournament.py): on a Gymnasium id each
agent plays alone at the env's one seat, a row of the table per agent and setting. Episode (deal) i resets the env
with seed S+i and the agent at seat k with a seed of its own derived from S+i and k (`seat_seed`), so the same seed
gives identical results, also with --workers.
`--sweep KEY=V1,V2` evaluates every value of an env keyword argument (repeat it for several: every combination
is a group), as does `evaluation.sweep` in the config; `--sweep-settings` sweeps every setting the game's
registration record lists. Writes a table to the terminal (drawn by rich where it is installed) and results.json,
score_histograms.png (and win_rate_over_training.png for run directories; plots need matplotlib) to the output
folder; --record also writes every episode's (every game's) replay record for `python -m envs.replay` and
`tabletop-view`: under the output folder's recordings/ with --out, else, when an agent is a train.py run, under the
run's own recordings/<game>__<time>/ (so `tabletop-view runs/RUN/recordings/` shows them).

A multi-player game (its PettingZoo id, e.g. `envs.toys:tabletop/card_duel_v0`) is evaluated as a tournament per swept
setting (agents/evaluation/tournament.py): every line-up of the agents over the seats (or `evaluation.lineups`), every
seat rotation of each line-up on the same deals (--episodes deals per line-up, deal i seeded S+i), then ratings with
intervals, a pairwise table, seat advantage and per-seat results (team win rates for a cooperative game).

Progress (episodes or games done, rate, time left) goes to standard error: one redrawn line on a terminal, a plain
line per tenth otherwise; --no-progress turns it off. Ctrl-C while playing keeps what has finished: it is summarised
and written to results.json (meta: `interrupted`, the episodes or games finished and planned), worker processes are
stopped, and the command ends with one line and exit status 130.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Generator, Mapping
from contextlib import closing
from datetime import datetime
from pathlib import Path
from typing import Any

from agents.common.config import ConfigError, EnvConfig, EvalConfig, load_eval_config, to_plain
from agents.common.shipped_configs import CONFIGS_DIR, DEFAULTS_FILE, default_game
from agents.common.signals import sigterm_as_interrupt
from agents.evaluation.progress import Progress
from agents.evaluation.tables import ResultsConsole, TextTable
from agents.players.registry import AgentSpecError
from envs.core.registration import UnknownGameError, game_record, game_record_of_env_id

EVAL_CONFIG_NAME = "eval.yaml"
"""File name of a game's evaluation config in its configs folder."""
TOP_VALUES_SHOWN = 3
"""How many of the headline fact's most frequent values the table shows."""
USAGE_EXIT_CODE = 2
"""Exit status of a bad config, agent spec or model."""
INTERRUPTED_EXIT_CODE = 130
"""Exit status after Ctrl-C (128 + SIGINT), as shells report it."""
PLOTS_EXTRA = "pip install 'tabletop-gym[train]' installs it"
"""Where the plotting libraries come from."""
NO_EPISODES = "-"
"""What the table shows for a group's statistics when an interrupted evaluation played none of its episodes."""


def parse_args(argv: list[str]) -> argparse.Namespace:
    """The command line of evaluate.py."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    source = parser.add_mutually_exclusive_group()
    source.add_argument(
        "--config",
        type=Path,
        default=None,
        help=f"eval config (default: configs/GAME/{EVAL_CONFIG_NAME} of the game {DEFAULTS_FILE} names)",
    )
    source.add_argument("--game", default=None, help=f"use configs/GAME/{EVAL_CONFIG_NAME}")
    parser.add_argument("--agent", action="append", default=None, help="agent spec; repeat to compare agents")
    parser.add_argument(
        "--episodes",
        type=int,
        default=None,
        help="episodes per group (agent and swept setting); deals per line-up in a tournament",
    )
    parser.add_argument("--seed", type=int, default=None, help="episode (deal) i uses seed SEED + i")
    parser.add_argument("--workers", type=int, default=None, help="worker processes")
    parser.add_argument("--out", type=Path, default=None, help="output folder (default: a timestamped folder)")
    parser.add_argument(
        "--record", action="store_true", help="write each episode's (game's) replay record as JSON (envs.replay)"
    )
    parser.add_argument(
        "--no-progress", action="store_true", help="no progress on standard error (episodes done, rate, time left)"
    )
    parser.add_argument(
        "--sweep",
        action="append",
        default=[],
        metavar="KEY=V1,V2",
        help="evaluate every listed value of env kwarg KEY (values read as YAML scalars); repeat for several kwargs",
    )
    parser.add_argument(
        "--sweep-settings",
        action="store_true",
        help="also sweep every setting of the game's registration record that the sweep does not list",
    )
    parser.add_argument("overrides", nargs="*", metavar="key=value", help="dotted eval-config overrides")
    return parser.parse_args(argv)


def game_eval_config(game: str) -> Path:
    """configs/<game>/eval.yaml of a registered game (UnknownGameError lists the known games otherwise)."""
    return CONFIGS_DIR / game_record(game).name / EVAL_CONFIG_NAME


def config_path(args: argparse.Namespace) -> Path:
    """The eval config file of this invocation: --config, configs/<--game>/eval.yaml, the eval config of the game
    of the first run directory among the agents (if it has one), or the default."""
    if args.config is not None:
        return Path(args.config)
    if args.game is not None:
        return game_eval_config(args.game)
    run_env = first_run_env(args.agent or [])
    if run_env is not None:
        try:
            path = game_eval_config(game_record_of_env_id(run_env[1].id).name)
        except UnknownGameError:
            return default_config()
        return path if path.is_file() else default_config()
    return default_config()


def default_config() -> Path:
    """The eval config used without --game, --config or a run directory: that of the game configs/defaults.yaml
    names."""
    return CONFIGS_DIR / default_game() / EVAL_CONFIG_NAME


def first_run_env(agents: list[str]) -> tuple[Path, EnvConfig] | None:
    """The first agent that is a train.py run (its directory or one of its models) and the env it trained on."""
    from agents.common.config import read_yaml_file
    from agents.common.run_dir import CHECKPOINT_DIR_NAME, CONFIG_FILE_NAME, run_dir_of_model

    for agent in agents:
        name, colon, argument = agent.partition(":")
        path = Path(argument if colon and name == "rllib" else agent)
        if colon and name == "rllib" and not (path / CONFIG_FILE_NAME).is_file():
            path = path.parent.parent if path.parent.name == CHECKPOINT_DIR_NAME else path.parent  # a checkpoint
        run_dir = path if (path / CONFIG_FILE_NAME).is_file() else None
        if run_dir is None and path.suffix == ".zip" and path.is_file():
            run_dir = run_dir_of_model(path)
        if run_dir is not None:
            env = read_yaml_file(run_dir / CONFIG_FILE_NAME).get("env") or {}
            return run_dir, EnvConfig(id=env.get("id", ""), kwargs=env.get("kwargs") or {})
    return None


def blame_run_config(error: Exception, run_env: tuple[Path, EnvConfig] | None) -> Exception:
    """`error` re-blamed on the run's own config.yaml when its env (id or kwargs) came from there, not from the eval
    config."""
    from agents.common.run_dir import CONFIG_FILE_NAME

    if run_env is not None and isinstance(error, ConfigError) and error.key.startswith("env"):
        return ConfigError(f"{run_env[0] / CONFIG_FILE_NAME} (the env of that run)", error.key, error.reason)
    return error


def sweep_overrides(flags: list[str]) -> list[str]:
    """`--sweep KEY=V1,V2` flags -> dotted overrides of `evaluation.sweep.KEY` (values parsed as YAML scalars)."""
    from agents.evaluation.episodes import parse_sweep_flag

    overrides = []
    for flag in flags:
        key, values = parse_sweep_flag(flag)
        overrides.append(f"evaluation.sweep.{key}={json.dumps(values)}")
    return overrides


def resolve_settings(args: argparse.Namespace) -> EvalConfig:
    """The eval config with the command-line flags applied (flags win over the file).

    Without --config or --game, a run directory among the agents gives the env (id and kwargs) it trained on.
    """
    path = config_path(args)
    overrides = []
    run_env = first_run_env(args.agent or []) if args.config is None and args.game is None else None
    if run_env is not None:
        overrides += [f"env.id={json.dumps(run_env[1].id)}", f"env.kwargs={json.dumps(run_env[1].kwargs)}"]
    overrides += list(args.overrides)
    for flag, key in (("episodes", "episodes"), ("seed", "seed"), ("workers", "workers")):
        value = getattr(args, flag)
        if value is not None:
            overrides.append(f"evaluation.{key}={value}")
    if args.agent:
        overrides.append(f"evaluation.agents={json.dumps(args.agent)}")
    overrides += sweep_overrides(args.sweep)
    config = load_eval_config(path, overrides)
    if args.sweep_settings:
        try:
            settings = game_record_of_env_id(config.env.id).settings
        except UnknownGameError as error:
            raise ConfigError(str(path), "env.id", f"--sweep-settings needs a game's record: {error}") from None
        extra = {key: list(values) for key, values in settings.items() if key not in config.evaluation.sweep}
        overrides += [f"evaluation.sweep.{key}={json.dumps(values)}" for key, values in extra.items()]
        config = load_eval_config(path, overrides)
    return config


def results_table(results: list[Any], sweep_keys: list[str], headline_fact: str | None) -> TextTable:
    """The results table: one row per group, a column per swept kwarg, the headline fact's top values."""
    from agents.evaluation.episodes import agent_label

    table = TextTable("Evaluation")
    table.add_column("agent")
    for key in sweep_keys:
        table.add_column(key)
    for name in ("episodes", "win rate", "95% CI", "mean score", "mean length"):
        table.add_column(name, justify="right")
    if headline_fact is not None:
        table.add_column(f"top {headline_fact}")
    for result in results:
        summary = result.summary
        low, high = summary["win_rate_ci95"]
        row = [agent_label(result.group.agent)]
        row += [str(result.group.sweep.get(key, "")) for key in sweep_keys]
        row.append(str(summary["episodes"]))
        if summary["episodes"] == 0:
            row += [NO_EPISODES] * (len(table.columns) - len(row))
            table.add_row(*row)
            continue
        row += [
            f"{summary['win_rate']:.1%}",
            f"[{low:.1%}, {high:.1%}]",
            f"{summary['mean_score']:.2f} ± {summary['score_std']:.2f}",
            f"{summary['mean_length']:.1f}",
        ]
        if headline_fact is not None:
            counts = list(summary.get(f"{headline_fact}_distribution", {}).items())[:TOP_VALUES_SHOWN]
            row.append(", ".join(f"{value} {count}" for value, count in counts) or "-")
        table.add_row(*row)
    return table


RECORDINGS_DIR_NAME = "recordings"
"""The folder --record writes replay records into (see `recordings_folder` for where it lies)."""


def recordings_folder(args: argparse.Namespace, out_dir: Path) -> Path:
    """Where --record writes the replay records: `<--out>/recordings` when --out is given; else, when an agent is a
    train.py run, that run's `recordings/<this evaluation's folder name>` (so `tabletop-view runs/RUN/recordings/`
    shows every recorded evaluation of the run); else `<output folder>/recordings`."""
    if args.out is None:
        run = first_run_env(args.agent or [])
        if run is not None:
            return run[0] / RECORDINGS_DIR_NAME / out_dir.name
    return out_dir / RECORDINGS_DIR_NAME


def recordings_line(folder: Path) -> str:
    """The line that says where the recordings went and how to replay and watch them."""
    return f"recordings: {folder} (replay: python -m envs.replay FILE; watch: tabletop-view {folder})"


def write_outputs(
    config: EvalConfig, results: list[Any], out_dir: Path, recordings: Path | None, played: Mapping[str, Any]
) -> None:
    """results.json (its meta holds `played`: whether it was interrupted, episodes finished and planned), (with
    --record) one replayable JSON per episode under `recordings`, and the plots."""
    from agents.evaluation.episodes import group_folder, recording_document, results_document

    out_dir.mkdir(parents=True, exist_ok=True)
    meta = {"config": to_plain(config), "created": datetime.now().isoformat(timespec="seconds"), **played}
    document = results_document(results, meta)
    (out_dir / "results.json").write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    if recordings is not None:
        for result in results:
            folder = recordings / group_folder(result.group)
            folder.mkdir(parents=True, exist_ok=True)
            for episode in result.episodes:
                path = folder / f"episode_{episode.episode:05d}.json"
                path.write_text(json.dumps(recording_document(result.group, episode)) + "\n", encoding="utf-8")
        print(recordings_line(recordings))
    write_plots(config, results, out_dir)


def write_plots(config: EvalConfig, results: list[Any], out_dir: Path) -> None:
    """score_histograms.png, and win_rate_over_training.png for run directories; a note instead where matplotlib
    (or, for the curves, tensorboard) is not installed."""
    from agents.evaluation.episodes import (
        agent_label,
        plot_score_histograms,
        plot_training_win_rates,
        training_win_rates,
    )
    from agents.players.registry import is_model_path

    try:
        import matplotlib  # noqa: F401  (only asked whether it is there: the plots import it themselves)
    except ImportError:
        print(f"no plots: matplotlib is not installed ({PLOTS_EXTRA})")
        return
    plot_score_histograms(results, out_dir / "score_histograms.png")
    run_dirs = {
        agent: Path(agent) for agent in config.evaluation.agents if is_model_path(agent) and Path(agent).is_dir()
    }
    try:
        curves = {agent_label(agent): training_win_rates(path) for agent, path in run_dirs.items()}
    except ImportError:
        print(f"no win rate over training: tensorboard is not installed ({PLOTS_EXTRA})")
        return
    if plot_training_win_rates(curves, out_dir / "win_rate_over_training.png"):
        print(f"win rate over training: {out_dir / 'win_rate_over_training.png'}")


def main(argv: list[str] | None = None) -> int:
    """Validate the config and agents, play every episode, report and write the outputs.

    Ctrl-C (or SIGTERM) while playing keeps the finished episodes: they are summarised and written (marked
    interrupted), and the exit status is 130; Ctrl-C before or after that ends with one line and status 130.
    """
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        with sigterm_as_interrupt():  # a scheduler's or kill's stop keeps the finished games, as Ctrl-C does
            return evaluate(args)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return INTERRUPTED_EXIT_CODE


def collect(stream: Generator[tuple[int, Any], None, None], slots: list[list[Any]], progress: Progress) -> bool:
    """Put each (index, item) of `stream` into `slots[index]` as it comes; True when Ctrl-C stopped it (what came
    before is kept; the stream is closed, which stops its worker processes)."""
    try:
        with closing(stream):  # closing the generator stops its worker processes
            for index, item in stream:
                slots[index].append(item)
                progress.advance()
    except KeyboardInterrupt:
        return True
    finally:
        progress.close()
    return False


def played_meta(interrupted: bool, finished: int, planned: int, unit: str) -> dict[str, Any]:
    """What results.json's meta says about the run: whether Ctrl-C interrupted it, and how much of it was played."""
    return {"interrupted": interrupted, f"{unit}_finished": finished, f"{unit}_planned": planned}


def interrupted_line(finished: int, planned: int, unit: str, results_path: Path) -> str:
    """The one line an interrupted evaluation ends with."""
    return f"interrupted: {finished} of {planned} {unit} finished; their results: {results_path}"


def evaluate(args: argparse.Namespace) -> int:
    """The evaluation of a parsed command line (main without the outer Ctrl-C handling)."""
    from agents.evaluation.environment import probe_env
    from agents.evaluation.episodes import (
        build_groups,
        check_agents,
        group_results,
        headline_fact_of,
        stream_evaluation,
        sweep_combinations,
    )
    from agents.evaluation.tournament import plan_tournaments

    run_env = first_run_env(args.agent or []) if args.config is None and args.game is None else None
    try:
        config = resolve_settings(args)
        source = str(config_path(args))
        if run_env is not None:
            print(
                f"env of run {run_env[0]}: {config.env.id} {dict(config.env.kwargs)} (--config or env.X=... to change)"
            )
        tournaments = plan_tournaments(config, source)
    except (ConfigError, AgentSpecError, UnknownGameError) as error:
        print(f"error: {blame_run_config(error, run_env)}", file=sys.stderr)
        return USAGE_EXIT_CODE
    if tournaments is not None:
        return tournament_main(args, config, tournaments)
    try:
        settings = config.evaluation
        facts = probe_env(config.env, source)
        for combination in sweep_combinations(settings.sweep):
            if combination:  # every swept setting must build, before any episode is played
                probe_env(EnvConfig(id=config.env.id, kwargs={**config.env.kwargs, **combination}), source)
        groups = build_groups(settings.agents, config.env.id, config.env.kwargs, settings.sweep)
        agent_options = {"mcts": to_plain(config.mcts)}
        check_agents(settings.agents, config.env.id, dict(config.env.kwargs), agent_options)
    except (ConfigError, AgentSpecError, UnknownGameError) as error:
        print(f"error: {blame_run_config(error, run_env)}", file=sys.stderr)
        return USAGE_EXIT_CODE
    out_dir = args.out or Path(settings.out_dir) / f"{facts.game_name}__{datetime.now():%Y%m%d-%H%M%S}"
    sweep = f", sweeping {', '.join(settings.sweep)}" if settings.sweep else ""
    print(
        f"evaluating {', '.join(settings.agents)} on {config.env.id}{sweep}: {settings.episodes} episodes per group, "
        f"seeds {settings.seed}..{settings.seed + settings.episodes - 1}, {settings.workers} worker(s)",
        flush=True,
    )
    start = time.monotonic()
    planned = len(groups) * settings.episodes
    collected: list[list[Any]] = [[] for _ in groups]
    stream = stream_evaluation(
        groups, settings.episodes, settings.seed, settings.workers, agent_options, record=args.record
    )
    interrupted = collect(stream, collected, Progress(planned, "episodes", enabled=not args.no_progress))
    results = group_results(groups, collected)
    finished = sum(len(played) for played in collected)
    ResultsConsole().table(results_table(results, list(settings.sweep), headline_fact_of(config.env.id)))
    recordings = recordings_folder(args, out_dir) if args.record else None
    write_outputs(config, results, out_dir, recordings, played_meta(interrupted, finished, planned, "episodes"))
    if interrupted:
        print(interrupted_line(finished, planned, "episodes", out_dir / "results.json"), file=sys.stderr)
        return INTERRUPTED_EXIT_CODE
    print(f"done in {time.monotonic() - start:.1f}s; results: {out_dir / 'results.json'}")
    return 0


def tournament_main(args: argparse.Namespace, config: EvalConfig, tournaments: list[Any]) -> int:
    """A multi-player game: build every agent, play every tournament, print the tables and write results.json."""
    from agents.evaluation.tournament import (
        check_tournament_agents,
        games_planned,
        print_tournament,
        recording_document,
        recording_path,
        stream_tournaments,
        tournament_document,
        tournament_results,
    )

    settings = config.evaluation
    agent_options = {"mcts": to_plain(config.mcts)}
    try:
        check_tournament_agents(tournaments, agent_options)
    except AgentSpecError as error:
        print(f"error: {error}", file=sys.stderr)
        return USAGE_EXIT_CODE
    out_dir = args.out or Path(settings.out_dir) / f"{tournaments[0].game_name}__{datetime.now():%Y%m%d-%H%M%S}"
    agents = dict.fromkeys(agent for tournament in tournaments for agent in tournament.agents)
    sweep = f", sweeping {', '.join(settings.sweep)}" if settings.sweep else ""
    print(
        f"tournament of {', '.join(agents)} on {config.env.id}{sweep}: {settings.episodes} deals per line-up, each "
        f"played from every seat rotation, seeds {settings.seed}..{settings.seed + settings.episodes - 1}, "
        f"{settings.workers} worker(s)",
        flush=True,
    )
    start = time.monotonic()
    planned = games_planned(tournaments, settings.episodes)
    collected: list[list[Any]] = [[] for _ in tournaments]
    stream = stream_tournaments(
        tournaments, settings.episodes, settings.seed, settings.workers, agent_options, record=args.record
    )
    interrupted = collect(stream, collected, Progress(planned, "games", enabled=not args.no_progress))
    results = tournament_results(tournaments, collected)
    finished = sum(len(games) for games in collected)
    console = ResultsConsole()
    for result in results:
        print_tournament(result, console)
    out_dir.mkdir(parents=True, exist_ok=True)
    meta = {
        "config": to_plain(config),
        "created": datetime.now().isoformat(timespec="seconds"),
        **played_meta(interrupted, finished, planned, "games"),
    }
    document = tournament_document(results, meta)
    (out_dir / "results.json").write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    if args.record:
        recordings = recordings_folder(args, out_dir)
        for result in results:
            for game in result.games:
                path = recordings / recording_path(result.tournament, game)
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(json.dumps(recording_document(result.tournament, game)) + "\n", encoding="utf-8")
        print(recordings_line(recordings))
    if interrupted:
        print(interrupted_line(finished, planned, "games", out_dir / "results.json"), file=sys.stderr)
        return INTERRUPTED_EXIT_CODE
    print(f"done in {time.monotonic() - start:.1f}s; results: {out_dir / 'results.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
