"""Throughput of a game's envs under random legal play, against PettingZoo's connect_four_v3 in the same run.

Every step builds the observation and the mask, as a learner sees them. A Gymnasium env goes through gymnasium.make
(registered wrappers) and its step loop; a PettingZoo AEC env (the game's modules, or any module with `env(**kwargs)`
named by --pettingzoo-module, built with the --kwargs) goes through the same agent_iter/last loop as connect_four:
each step reads the observation dict's "observation" and "action_mask", plays a random legal action (None for an
agent that is done) and the env is reset between games.

Steps are counted alike for every AEC env, ours and connect_four: one `env.step` call is one step, the `env.step(None)`
of each agent that is done at the end of a game included. A Gymnasium step is one `env.step` call too (one decision).

The machines are shared and noisy, so the figure to compare is the ratio to connect_four measured alongside:
every env is timed in alternating rounds with connect_four and the medians reported.

    python -m benchmarks.throughput --game GAME [--seconds 5] [--rounds 3]
    python -m benchmarks.throughput --pettingzoo-module envs.toys.card_duel_v0 --kwargs num_players=4
"""

from __future__ import annotations

import argparse
import functools
import importlib
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import gymnasium as gym
import numpy as np
import yaml

from benchmarks.common import add_game_argument, record_from_args

if TYPE_CHECKING:
    from pettingzoo import AECEnv

STEPS_BETWEEN_CLOCK_READS = 200
"""Steps played between two reads of the clock (keeps timing overhead out of the measured loop)."""
TARGET_RATIO = 2.0
"""Throughput the suite aims for, as a multiple of connect_four_v3's."""
REFERENCE_NAME = "connect_four_v3"
"""How the reference env is named in the report."""

Timer = Callable[[float, int], tuple[float, float]]
"""Times one round: (seconds, seed) -> (steps/s, episodes or games/s)."""


def time_gym_env(
    env_id: str,
    seconds: float,
    seed: int,
    kwargs: dict[str, Any] | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[float, float]:
    """Steps/s and episodes/s of random legal play through a Gymnasium env (made with `kwargs`), timed by `clock`."""
    env = gym.make(env_id, **(kwargs or {}))
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


def make_connect_four() -> AECEnv:
    """connect_four_v3 through PettingZoo's registry where it has one (1.27+), else through its module."""
    import pettingzoo

    make = getattr(pettingzoo, "make", None)
    if make is not None:
        return make("aec", "classic/connect_four_v3")
    from pettingzoo.classic import connect_four_v3

    return connect_four_v3.env()


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


def time_connect_four(seconds: float, seed: int, clock: Callable[[], float] = time.perf_counter) -> float:
    """Steps/s of random legal play through connect_four_v3 with agent_iter/last, the AEC loop, timed by `clock`."""
    return time_aec_env(make_connect_four, seconds, seed, clock)[0]


def aec_env_factory(module_name: str, kwargs: dict[str, Any]) -> Callable[[], AECEnv]:
    """The `env(**kwargs)` of the module called `module_name`, bound to `kwargs` (ImportError if it has none)."""
    factory = getattr(importlib.import_module(module_name), "env", None)
    if not callable(factory):
        raise ImportError(f"module {module_name!r} has no env(**kwargs) function")
    return functools.partial(factory, **kwargs)


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


def aec_label(module_name: str, kwargs: dict[str, Any]) -> str:
    """How an AEC env is named in the report: its module, and its kwargs if any."""
    arguments = ", ".join(f"{key}={value!r}" for key, value in kwargs.items())
    return f"{module_name}({arguments})" if arguments else module_name


@dataclass
class Subject:
    """One env under test: its report label, the unit of its second rate, its timer and the rates of its rounds."""

    label: str
    unit: str
    timer: Timer
    step_rates: list[float] = field(default_factory=list)
    unit_rates: list[float] = field(default_factory=list)


def build_parser() -> argparse.ArgumentParser:
    """The command line of the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_game_argument(parser, required=False)
    parser.add_argument(
        "--pettingzoo-module",
        action="append",
        default=[],
        metavar="MODULE",
        help="dotted module with env(**kwargs) returning a PettingZoo AEC env, repeat for several",
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
    return parser


def subjects_from_args(parser: argparse.ArgumentParser, args: argparse.Namespace) -> list[Subject]:
    """The game's Gymnasium env and PettingZoo modules (--game), then the --pettingzoo-module envs, once each."""
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
            timer: Timer = functools.partial(time_gym_env, record.primary_env_id)
            subjects.append(Subject(record.primary_env_id, "episodes", timer))
        modules += record.pettingzoo_modules
    for module_name in dict.fromkeys([*modules, *args.pettingzoo_module]):
        try:
            make_env = aec_env_factory(module_name, kwargs)
            make_env().close()  # a bad kwarg or module stops here, with the parser's error, not mid-benchmark
        except (ImportError, TypeError, ValueError) as error:
            parser.error(f"--pettingzoo-module {module_name}: {error}")
        subjects.append(Subject(aec_label(module_name, kwargs), "games", functools.partial(time_aec_env, make_env)))
    return subjects


def main(argv: list[str] | None = None) -> int:
    """Time each env and connect_four in alternating rounds; print medians and the ratios."""
    parser = build_parser()
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    subjects = subjects_from_args(parser, args)
    reference_rates = []
    for round_index in range(args.rounds):
        seed = args.seed + round_index
        for subject in subjects:
            steps, units = subject.timer(args.seconds, seed)
            subject.step_rates.append(steps)
            subject.unit_rates.append(units)
        reference_rates.append(time_connect_four(args.seconds, seed))
    reference_rate = statistics.median(reference_rates)
    for subject in subjects:
        rate, unit_rate = statistics.median(subject.step_rates), statistics.median(subject.unit_rates)
        print(f"{subject.label}: {rate:,.0f} steps/s, {unit_rate:,.1f} {subject.unit}/s")
    print(f"{REFERENCE_NAME}: {reference_rate:,.0f} steps/s")
    for subject in subjects:
        name = "ratio" if len(subjects) == 1 else f"ratio {subject.label}"
        ratio = statistics.median(subject.step_rates) / reference_rate
        print(f"{name}: {ratio:.2f}x connect_four (target >= {TARGET_RATIO}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
