"""Where a step's time goes: the rules core, the legal mask, the observation and the adapter, beside connect_four.

`benchmarks.throughput` says how fast a game's PettingZoo env is against `connect_four_v3`; this one says why. In
alternating rounds it times, per decision of random legal play with chance sampled from a seeded generator:

- **rules**: the rules core alone (`legal_actions`, `apply_unchecked`, and every chance node between decisions,
  `sample_chance`), no adapter;
- **mask**: filling the int8 legal-action mask from the legal actions, as the driver does;
- **observation**: the acting seat's `Observer.tensor` (the observers keep whatever caches they keep between calls,
  as they do in an env);
- **AEC step**: one step of the game's first PettingZoo module through `agent_iter`/`last`, as
  `benchmarks.throughput` times it (the done agents' `step(None)` at the end of a game count as steps there, so this
  figure is a little lower than a decision's cost); a game without a PettingZoo module (a solo game) is timed through
  its Gymnasium env instead (**Gymnasium step**: `gym.make` with the kwargs, its wrappers, `step` and `reset`);
- **connect_four step**: the same loop over `connect_four_v3`.

The adapter and loop cost is the whole step minus rules, mask and observation; the table gives each part's share of
the whole step. The ratio to connect_four's wrapped step is a diagnostic, not a target: PettingZoo's wrappers are
about half of that step, so `benchmarks.throughput`'s raw-env comparison is the env-speed reference.

`--clock process` times every part by the process's CPU clock instead of the wall clock: on a machine shared with
other jobs the wall clock also counts the time the benchmark waits for a core, which the CPU clock leaves out
(connect_four's step, timed alike, shows how busy the machine was).

    python -m benchmarks.step_cost --game GAME [--kwargs KEY=VALUE] [--seconds 3] [--rounds 3] [--clock process]
    python -m benchmarks.step_cost --game envs.toys:card_duel --kwargs num_players=2   # "package:name"
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.common import RESULTS_DIR, write_report
from benchmarks.throughput import (
    REFERENCE_NAME,
    STEPS_BETWEEN_CLOCK_READS,
    aec_env_factory,
    parse_kwargs,
    time_aec_env,
    time_connect_four,
    time_gym_env,
)
from envs.core.game import CHANCE, TERMINAL, Game
from envs.core.registration import GameRecord, UnknownGameError, game_record, make_game, resolve_env_id

PARTS = ("rules", "mask", "observation")
"""The parts of a decision timed at the rules-core level, in the order they are added up."""
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "process": time.process_time}
"""The clocks a timing may use: wall time, or the process's CPU time (what it computed, not what it waited)."""


def time_core(
    game: Game, seconds: float, seed: int, parts: tuple[str, ...], clock: Callable[[], float] = time.perf_counter
) -> float:
    """Microseconds per decision of random legal play at the rules-core level, doing the given `parts` each step,
    timed by `clock`."""
    rng = np.random.default_rng(seed)
    observers = [game.observer(seat) for seat in range(game.spec.num_players)]
    with_mask, with_observation = "mask" in parts, "observation" in parts
    num_actions = game.spec.num_actions
    decisions = 0
    state = game.new_initial_state()
    start = clock()
    while clock() - start < seconds:
        target = decisions + STEPS_BETWEEN_CLOCK_READS
        while decisions < target:
            player = state.current_player()
            if player == TERMINAL:
                state = game.new_initial_state()
                continue
            if player == CHANCE:
                state.apply_unchecked(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            if with_mask:
                mask = np.zeros(num_actions, dtype=np.int8)
                for action in legal:
                    mask[action] = 1
            if with_observation:
                observers[player].tensor(state)
            state.apply_unchecked(legal[int(rng.integers(len(legal)))])
            decisions += 1
    return (clock() - start) / decisions * 1e6


def record_of(name: str) -> GameRecord:
    """The record of game `name`, or of "package:name" after importing the package (which registers its games)."""
    return game_record(resolve_env_id(name))


def build_parser() -> argparse.ArgumentParser:
    """The command line of the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", required=True, help='registered game, or "package:name" for one registered there')
    parser.add_argument(
        "--kwargs", action="append", default=[], metavar="KEY=VALUE", help="game kwarg (YAML scalar), repeatable"
    )
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per timing of each part per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--clock", choices=list(CLOCKS), default="wall", help="wall (default) or process CPU time")
    parser.add_argument(
        "--out", default=None, help="report path stem (default benchmarks/results/<game>_<kwargs>_step_cost)"
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    """Time each part and the whole step (AEC, or Gymnasium for a solo game) in alternating rounds; print and write
    the medians and each part's share."""
    parser = build_parser()
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        record = record_of(args.game)
        kwargs = parse_kwargs(args.kwargs)
        game = make_game(record, kwargs)
    except (UnknownGameError, TypeError, ValueError) as error:
        parser.error(str(error))
    clock = CLOCKS[args.clock]
    if record.pettingzoo_modules:
        make_env = aec_env_factory(record.pettingzoo_modules[0], kwargs)
        step_name = "AEC"

        def time_step(seed: int) -> float:
            return time_aec_env(make_env, args.seconds, seed, clock)[0]

    elif record.primary_env_id is not None:
        env_id = record.primary_env_id
        step_name = "Gymnasium"

        def time_step(seed: int) -> float:
            return time_gym_env(env_id, args.seconds, seed, kwargs, clock)[0]

    else:
        parser.error(f"{record.name} has neither a PettingZoo module nor a Gymnasium env to time its step")
    cumulative = [PARTS[: index + 1] for index in range(len(PARTS))]
    rounds: dict[str, list[float]] = {name: [] for name in (*PARTS, "step", "reference")}
    for round_index in range(args.rounds):
        seed = args.seed + round_index
        for parts in cumulative:
            rounds[parts[-1]].append(time_core(game, args.seconds, seed, parts, clock))
        rounds["step"].append(1e6 / time_step(seed))
        rounds["reference"].append(1e6 / time_connect_four(args.seconds, seed, clock))
    medians = {name: statistics.median(values) for name, values in rounds.items()}
    # Each part's own cost: the cumulative timings' differences (rules; rules + mask; rules + mask + observation).
    costs = {"rules": medians["rules"]}
    costs["mask"] = medians["mask"] - medians["rules"]
    costs["observation"] = medians["observation"] - medians["mask"]
    costs["adapter and loop"] = medians["step"] - medians["observation"]
    label = f"{record.name}({', '.join(f'{k}={v!r}' for k, v in kwargs.items())})"
    clock_flag = "" if args.clock == "wall" else f" --clock {args.clock}"
    clock_words = "wall clock" if args.clock == "wall" else "the process's CPU clock"
    lines = [
        f"# Step cost of {label}",
        "",
        f"`python -m benchmarks.step_cost --game {args.game}"
        + "".join(f" --kwargs {flag}" for flag in args.kwargs)
        + f" --seconds {args.seconds:g} --rounds {args.rounds}{clock_flag}` (medians of {args.rounds} alternating "
        f"rounds, {clock_words})",
        "",
        "| part | us per decision | share of the step |",
        "|---|---|---|",
        *(f"| {name} | {value:.1f} | {value / medians['step']:.0%} |" for name, value in costs.items()),
        f"| whole {step_name} step | {medians['step']:.1f} | 100% |",
        f"| {REFERENCE_NAME} step | {medians['reference']:.1f} | |",
        "",
        f"Steps per second: {medians['reference'] / medians['step']:.2f}x {REFERENCE_NAME}'s wrapped `env()` (a "
        "diagnostic: `benchmarks.throughput` compares the raw envs).",
        "",
    ]
    markdown = "\n".join(lines)
    print(markdown)
    rounds["aec" if step_name == "AEC" else "gym"] = rounds.pop("step")
    document: dict[str, Any] = {
        "game": record.name,
        "kwargs": kwargs,
        "seconds": args.seconds,
        "clock": args.clock,
        "rounds": rounds,
        "us_per_decision": costs,
        f"{'aec' if step_name == 'AEC' else 'gym'}_step_us": medians["step"],
        "reference_step_us": medians["reference"],
    }
    suffix = "".join(f"_{key}{value}" for key, value in kwargs.items()) + ("" if args.clock == "wall" else "_cpu")
    stem = RESULTS_DIR / f"{record.name}{suffix}_step_cost" if args.out is None else Path(args.out)
    write_report(stem, markdown, document)
    return 0


if __name__ == "__main__":
    sys.exit(main())
