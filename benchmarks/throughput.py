"""Throughput of a game's envs, raw and wrapped, under random legal play, against raw envs of other libraries.

Every step builds the observation and the mask, as a learner sees them. In alternating rounds of the same run, with
medians reported, it times:

- each of the game's Gymnasium envs **raw** (`env.unwrapped`: without `gymnasium.make`'s wrappers, which for the
  suite's ids are `TimeLimit` only, the env checker and order enforcing being disabled at registration) and
  **wrapped** (as `gymnasium.make` returns it), through a `reset`/`step` loop (one `env.step` call is one step);
- each PettingZoo module's `raw_env(**kwargs)` (the bare `TabletopAECEnv` for the game modules) when the module has
  one, and its `env(**kwargs)` (wrapped as PettingZoo classic does), built with the --kwargs, through the
  agent_iter/last loop: each step reads the observation dict's "observation" and "action_mask", plays a random
  legal action (None for an agent that is done) and the env is reset between games;
- the reference: PettingZoo's `connect_four_v3.raw_env()` through the same AEC loop, and its wrapped `env()`
  (OrderEnforcing, AssertOutOfBounds, TerminateIllegal), the reference of the former "2x connect_four" figures;
- when `import pyspiel` works, OpenSpiel's C++ `connect_four` (--openspiel-game) through pyspiel's state API: random
  legal actions, the acting player's `observation_tensor()` read every step, a new initial state after each game.

Steps are counted alike for every AEC env, ours and connect_four: one `env.step` call is one step, the `env.step(None)`
of each agent that is done at the end of a game included. A Gymnasium step is one `env.step` call (one decision), an
OpenSpiel step one player's `apply_action` (chance outcomes are sampled between decisions and not counted); its
games/s compares with connect_four's directly.

The machines are shared and noisy, so the figures to compare are the ratios to connect_four's raw_env measured
alongside. The report (`--out`, by default `benchmarks/results/<game>_env_throughput` with --game) is written as .md
and .json.

    python -m benchmarks.throughput --game GAME [--seconds 5] [--rounds 3]
    python -m benchmarks.throughput --pettingzoo-module envs.toys.card_duel_v0 --kwargs num_players=4
"""

from __future__ import annotations

import argparse
import functools
import importlib
import shlex
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import gymnasium as gym
import numpy as np
import yaml

from benchmarks.common import RESULTS_DIR, add_game_argument, record_from_args, write_report

if TYPE_CHECKING:
    from pettingzoo import AECEnv

STEPS_BETWEEN_CLOCK_READS = 200
"""Steps played between two reads of the clock (keeps timing overhead out of the measured loop)."""
REFERENCE_NAME = "connect_four_v3"
"""How the reference env is named in the report."""
RAW_REFERENCE_LABEL = f"{REFERENCE_NAME}.raw_env()"
"""Report label of connect_four's bare env, the reference every ratio is taken to."""
WRAPPED_REFERENCE_LABEL = f"{REFERENCE_NAME}.env()"
"""Report label of connect_four's wrapped env, the reference of the former figures."""
OPENSPIEL_GAME = "connect_four"
"""The OpenSpiel game timed beside the references when pyspiel is importable."""
OPENSPIEL_MISSING = "OpenSpiel not installed"
"""What the report says in place of the OpenSpiel row when `import pyspiel` fails."""
REPORT_NAME = "env_throughput"
"""The report's file name after the game (and kwargs): benchmarks/results/<game>_env_throughput.{md,json}."""

Timer = Callable[[float, int], tuple[float, float]]
"""Times one round: (seconds, seed) -> (steps/s, episodes or games/s)."""


def make_gym_env(env_id: str, kwargs: dict[str, Any] | None = None, raw: bool = False) -> gym.Env:
    """The Gymnasium env `env_id` made with `kwargs` by `gymnasium.make`, or its unwrapped env if `raw`."""
    env = gym.make(env_id, **(kwargs or {}))
    return env.unwrapped if raw else env


def time_gym_env(
    env_id: str,
    seconds: float,
    seed: int,
    kwargs: dict[str, Any] | None = None,
    clock: Callable[[], float] = time.perf_counter,
    *,
    raw: bool = False,
) -> tuple[float, float]:
    """Steps/s and episodes/s of random legal play through a Gymnasium env (made with `kwargs`; unwrapped if `raw`),
    timed by `clock`."""
    env = make_gym_env(env_id, kwargs, raw)
    rng = np.random.default_rng(seed)
    observation, _ = env.reset(seed=seed)
    steps = episodes = 0
    start = clock()
    while clock() - start < seconds:
        for _ in range(STEPS_BETWEEN_CLOCK_READS):
            legal = np.flatnonzero(observation["action_mask"])
            observation, _, terminated, truncated, _ = env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
            if terminated or truncated:
                episodes += 1
                observation, _ = env.reset()
    elapsed = clock() - start
    env.close()
    return steps / elapsed, episodes / elapsed


def make_connect_four(raw: bool = False) -> AECEnv:
    """connect_four_v3 wrapped, or its bare `raw_env` if `raw`: through PettingZoo's registry where it has one (1.27+,
    the bare env as the made env's `unwrapped`, since importing the module warns there), else through its module."""
    import pettingzoo

    make = getattr(pettingzoo, "make", None)
    if make is not None:
        env: AECEnv = make("aec", "classic/connect_four_v3")
        return env.unwrapped if raw else env
    from pettingzoo.classic import connect_four_v3

    return connect_four_v3.raw_env() if raw else connect_four_v3.env()


def time_aec_env(
    make_env: Callable[[], AECEnv], seconds: float, seed: int, clock: Callable[[], float] = time.perf_counter
) -> tuple[float, float]:
    """Steps/s and games/s of random legal play through a PettingZoo AEC env with agent_iter/last (a step: env.step),
    timed by `clock`."""
    env = make_env()
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = games = 0
    start = clock()
    while clock() - start < seconds:
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            _features, mask = observation["observation"], observation["action_mask"]
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(mask)
                action = int(legal[rng.integers(len(legal))])
            env.step(action)
            steps += 1
        games += 1
        env.reset()
    elapsed = clock() - start
    env.close()
    return steps / elapsed, games / elapsed


def time_connect_four(
    seconds: float, seed: int, clock: Callable[[], float] = time.perf_counter, raw: bool = False
) -> float:
    """Steps/s of random legal play through connect_four_v3 (wrapped; bare if `raw`) with agent_iter/last, the AEC
    loop, timed by `clock`."""
    return time_aec_env(functools.partial(make_connect_four, raw), seconds, seed, clock)[0]


def load_pyspiel() -> ModuleType | None:
    """OpenSpiel's `pyspiel` module, or None where it is not installed."""
    try:
        return importlib.import_module("pyspiel")
    except ImportError:
        return None


def sample_openspiel_chance(state: Any, rng: np.random.Generator) -> Any:
    """Play an OpenSpiel state's chance outcomes, drawn by their probabilities from `rng`, until a player acts or the
    game ends; returns the state (chance is part of a step, as in our envs, and never counted as one)."""
    while state.is_chance_node():
        outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(outcomes[rng.choice(len(outcomes), p=probabilities)])
    return state


def time_openspiel_game(
    pyspiel: ModuleType,
    game_name: str,
    seconds: float,
    seed: int,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[float, float]:
    """Steps/s and games/s of random legal play through OpenSpiel's `game_name` with pyspiel's state API, the acting
    player's observation tensor read every step (a step: one player's apply_action), timed by `clock`."""
    game = pyspiel.load_game(game_name)
    rng = np.random.default_rng(seed)
    state = sample_openspiel_chance(game.new_initial_state(), rng)
    steps = games = 0
    start = clock()
    while clock() - start < seconds:
        for _ in range(STEPS_BETWEEN_CLOCK_READS):
            _features = state.observation_tensor()
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
            steps += 1
            sample_openspiel_chance(state, rng)
            if state.is_terminal():
                games += 1
                state = sample_openspiel_chance(game.new_initial_state(), rng)
    elapsed = clock() - start
    return steps / elapsed, games / elapsed


def aec_env_factory(module_name: str, kwargs: dict[str, Any], raw: bool = False) -> Callable[[], AECEnv]:
    """The `env(**kwargs)` (`raw_env(**kwargs)` if `raw`) of the module called `module_name`, bound to `kwargs`
    (ImportError if it has none)."""
    name = "raw_env" if raw else "env"
    factory = getattr(importlib.import_module(module_name), name, None)
    if not callable(factory):
        raise ImportError(f"module {module_name!r} has no {name}(**kwargs) function")
    return functools.partial(factory, **kwargs)


def has_raw_env(module_name: str) -> bool:
    """Whether the module called `module_name` defines a `raw_env(**kwargs)` factory."""
    return callable(getattr(importlib.import_module(module_name), "raw_env", None))


def wrapper_names(env: Any) -> tuple[str, ...]:
    """The wrappers around a Gymnasium or PettingZoo env, outermost first (none for a bare env)."""
    from pettingzoo.utils.wrappers import BaseWrapper

    names: list[str] = []
    while isinstance(env, (gym.Wrapper, BaseWrapper)):
        names.append(type(env).__name__)
        env = env.env
    return tuple(names)


def parse_kwargs(flags: list[str]) -> dict[str, Any]:
    """`KEY=VALUE` flags as a mapping, each value a YAML scalar (ValueError naming a malformed flag)."""
    kwargs: dict[str, Any] = {}
    for flag in flags:
        key, separator, text = flag.partition("=")
        if not separator or not key:
            raise ValueError(f"--kwargs expects KEY=VALUE, got {flag!r}")
        try:
            value = yaml.safe_load(text)
        except yaml.YAMLError as error:
            raise ValueError(f"--kwargs {flag}: not valid YAML ({error})") from error
        if not (value is None or isinstance(value, (str, int, float, bool))):
            raise ValueError(f"--kwargs {flag}: {text!r} is not a YAML scalar")
        kwargs[key] = value
    return kwargs


def aec_label(module_name: str, kwargs: dict[str, Any], raw: bool = False) -> str:
    """How an AEC env is named in the report: its module's factory (`raw_env` if `raw`, else `env`) and kwargs."""
    arguments = ", ".join(f"{key}={value!r}" for key, value in kwargs.items())
    return f"{module_name}.{'raw_env' if raw else 'env'}({arguments})"


@dataclass
class Subject:
    """One env under test: its report label, the unit of its second rate, whether it is raw, its wrappers (outermost
    first), its timer and the rates of its rounds."""

    label: str
    unit: str
    raw: bool
    wrappers: tuple[str, ...]
    timer: Timer
    step_rates: list[float] = field(default_factory=list)
    unit_rates: list[float] = field(default_factory=list)

    @property
    def step_rate(self) -> float:
        """The median steps/s of the rounds."""
        return statistics.median(self.step_rates)

    @property
    def unit_rate(self) -> float:
        """The median episodes or games per second of the rounds."""
        return statistics.median(self.unit_rates)


def build_parser() -> argparse.ArgumentParser:
    """The command line of the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_game_argument(parser, required=False)
    parser.add_argument(
        "--pettingzoo-module",
        action="append",
        default=[],
        metavar="MODULE",
        help="dotted module with env(**kwargs) (and raw_env(**kwargs)) returning a PettingZoo AEC env, repeatable",
    )
    parser.add_argument(
        "--kwargs",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="kwarg (YAML scalar) of the AEC env factories, repeat for several (not passed to the Gymnasium env)",
    )
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per timing round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--openspiel-game", default=OPENSPIEL_GAME, help="OpenSpiel game timed when pyspiel is importable"
    )
    parser.add_argument(
        "--out",
        default=None,
        help=f"report path stem (default with --game: benchmarks/results/<game>_<kwargs>_{REPORT_NAME}; "
        "without --game no report unless given)",
    )
    return parser


def gym_subjects(env_id: str) -> list[Subject]:
    """The Gymnasium env `env_id` raw (unwrapped) and as `gymnasium.make` returns it."""
    made = gym.make(env_id)
    wrappers = wrapper_names(made)
    made.close()
    return [
        Subject(f"{env_id} unwrapped", "episodes", True, (), functools.partial(time_gym_env, env_id, raw=True)),
        Subject(f"{env_id} gym.make", "episodes", False, wrappers, functools.partial(time_gym_env, env_id)),
    ]


def aec_subjects(parser: argparse.ArgumentParser, module_name: str, kwargs: dict[str, Any]) -> list[Subject]:
    """The module's `raw_env(**kwargs)` (where it has one) and `env(**kwargs)`; a bad module or kwarg is a parser
    error here, not mid-benchmark."""
    subjects: list[Subject] = []
    try:
        for raw in (True, False) if has_raw_env(module_name) else (False,):
            make_env = aec_env_factory(module_name, kwargs, raw)
            probe = make_env()
            wrappers = wrapper_names(probe)
            probe.close()
            label = aec_label(module_name, kwargs, raw)
            subjects.append(Subject(label, "games", raw, wrappers, functools.partial(time_aec_env, make_env)))
    except (ImportError, TypeError, ValueError) as error:
        parser.error(f"--pettingzoo-module {module_name}: {error}")
    return subjects


def subjects_from_args(parser: argparse.ArgumentParser, args: argparse.Namespace) -> list[Subject]:
    """The game's Gymnasium env and PettingZoo modules (--game), then the --pettingzoo-module envs, once each, each
    raw then wrapped."""
    if args.game is None and not args.pettingzoo_module:
        parser.error("give --game, --pettingzoo-module or both")
    try:
        kwargs = parse_kwargs(args.kwargs)
    except ValueError as error:
        parser.error(str(error))
    subjects: list[Subject] = []
    modules: list[str] = []
    if args.game is not None:
        record = record_from_args(parser, args, require_gym_env=False)
        if record.primary_env_id is not None:
            subjects += gym_subjects(record.primary_env_id)
        modules += record.pettingzoo_modules
    for module_name in dict.fromkeys([*modules, *args.pettingzoo_module]):
        subjects += aec_subjects(parser, module_name, kwargs)
    return subjects


def reference_subjects(pyspiel: ModuleType | None, openspiel_game: str) -> list[Subject]:
    """connect_four_v3's raw_env() (the ratios' reference) and env(), and OpenSpiel's game when pyspiel is given."""
    wrapped = make_connect_four()
    wrappers = wrapper_names(wrapped)
    wrapped.close()
    make_raw = functools.partial(make_connect_four, True)
    subjects = [
        Subject(RAW_REFERENCE_LABEL, "games", True, (), functools.partial(time_aec_env, make_raw)),
        Subject(WRAPPED_REFERENCE_LABEL, "games", False, wrappers, functools.partial(time_aec_env, make_connect_four)),
    ]
    if pyspiel is not None:
        timer = functools.partial(time_openspiel_game, pyspiel, openspiel_game)
        subjects.append(Subject(f"OpenSpiel {openspiel_game}", "games", True, (), timer))
    return subjects


def report_rows(subjects: list[Subject], references: list[Subject]) -> list[dict[str, Any]]:
    """Every subject's and reference's medians, rounds and ratios to connect_four's raw_env() and env()."""
    raw_rate, wrapped_rate = references[0].step_rate, references[1].step_rate
    return [
        {
            "env": subject.label,
            "raw": subject.raw,
            "wrappers": list(subject.wrappers),
            "steps_per_s": subject.step_rate,
            "unit": subject.unit,
            "units_per_s": subject.unit_rate,
            "ratio_to_connect_four_raw": subject.step_rate / raw_rate,
            "ratio_to_connect_four_wrapped": subject.step_rate / wrapped_rate,
            "step_rates": subject.step_rates,
            "unit_rates": subject.unit_rates,
        }
        for subject in (*subjects, *references)
    ]


def report_markdown(title: str, command: str, rows: list[dict[str, Any]], openspiel_installed: bool) -> str:
    """The report's tables: every env raw and wrapped, its rates and ratios, the command that wrote it."""
    lines = [
        f"# Env throughput: {title}",
        "",
        f"`{command}` (random legal play, observation and mask every step; medians of alternating rounds: the "
        "rates move with the machine and its load, the ratios measured alongside much less)",
        "",
        f"| env | wrappers | steps/s | episodes or games/s | ratio to {RAW_REFERENCE_LABEL} "
        f"| ratio to {WRAPPED_REFERENCE_LABEL} |",
        "|---|---|---|---|---|---|",
    ]
    for row in rows:
        wrappers = ", ".join(row["wrappers"]) if row["wrappers"] else "none (raw)"
        lines.append(
            f"| {row['env']} | {wrappers} | {row['steps_per_s']:,.0f} | {row['units_per_s']:,.1f} {row['unit']} "
            f"| {row['ratio_to_connect_four_raw']:.2f}x | {row['ratio_to_connect_four_wrapped']:.2f}x |"
        )
    if not openspiel_installed:
        lines += ["", f"{OPENSPIEL_MISSING}: no OpenSpiel row (`import pyspiel` failed)."]
    lines += [
        "",
        "The wrapped rows are the envs as timed before (`gymnasium.make`, `env()`) and their ratio to "
        f"{WRAPPED_REFERENCE_LABEL} the former figure, beside the raw rows: the wrappers' cost is their difference. "
        "An AEC step includes each done agent's `step(None)` at the end of a game; Gymnasium and OpenSpiel steps "
        "are decisions only, so games/s compares those with connect_four directly.",
        "",
    ]
    return "\n".join(lines)


def report_stem(out: str | None, game_name: str | None, kwargs: dict[str, Any]) -> Path | None:
    """Where the report goes: `out`, else benchmarks/results/<game>_<kwargs>_env_throughput for a game, else None."""
    if out is not None:
        return Path(out)
    if game_name is None:
        return None
    suffix = "".join(f"_{key}{value}" for key, value in kwargs.items())
    return RESULTS_DIR / f"{game_name}{suffix}_{REPORT_NAME}"


def main(argv: list[str] | None = None) -> int:
    """Time each env, raw and wrapped, and the references in alternating rounds; print medians and the ratios to
    connect_four's raw_env, and write the report."""
    parser = build_parser()
    arguments = sys.argv[1:] if argv is None else argv
    args = parser.parse_args(arguments)
    subjects = subjects_from_args(parser, args)
    pyspiel = load_pyspiel()
    references = reference_subjects(pyspiel, args.openspiel_game)
    for round_index in range(args.rounds):
        seed = args.seed + round_index
        for subject in (*subjects, *references):
            steps, units = subject.timer(args.seconds, seed)
            subject.step_rates.append(steps)
            subject.unit_rates.append(units)
    for subject in (*subjects, *references):
        print(f"{subject.label}: {subject.step_rate:,.0f} steps/s, {subject.unit_rate:,.1f} {subject.unit}/s")
    if pyspiel is None:
        print(OPENSPIEL_MISSING)
    reference_rate = references[0].step_rate
    for subject in (*subjects, *references[1:]):
        print(f"ratio {subject.label}: {subject.step_rate / reference_rate:.2f}x {RAW_REFERENCE_LABEL}")
    kwargs = parse_kwargs(args.kwargs)
    game_name = None if args.game is None else record_from_args(parser, args, require_gym_env=False).name
    stem = report_stem(args.out, game_name, kwargs)
    if stem is not None:
        command = shlex.join(["python", "-m", "benchmarks.throughput", *arguments])
        title = game_name if game_name is not None else ", ".join(args.pettingzoo_module)
        rows = report_rows(subjects, references)
        document = {
            "command": command,
            "game": game_name,
            "pettingzoo_modules": args.pettingzoo_module,
            "kwargs": kwargs,
            "seconds": args.seconds,
            "rounds": args.rounds,
            "seed": args.seed,
            "reference": RAW_REFERENCE_LABEL,
            "openspiel": {"installed": pyspiel is not None, "game": args.openspiel_game},
            "rows": rows,
        }
        write_report(stem, report_markdown(title, command, rows, pyspiel is not None), document)
        print(f"wrote {stem.with_suffix('.md')} and .json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
