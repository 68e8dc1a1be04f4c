"""Where a step's time goes: the rules core, the legal mask, the observation and the adapter, beside connect_four.

`benchmarks.throughput` says how fast a game's PettingZoo env is against `connect_four_v3`; this one says why. In
alternating rounds it times, per decision of random legal play with chance sampled from a seeded generator:

- **rules**: the rules core alone (`legal_actions`, `apply_unchecked`, and every chance node between decisions,
  `sample_chance`), no adapter;
- **mask**: filling the int8 legal-action mask from the legal actions, as the driver does;
- **observation**: the acting seat's `Observer.tensor` (the observers keep whatever caches they keep between calls,
  as they do in an env);
- **env step**: one step of the game's first PettingZoo module through `agent_iter`/`last`, as
  `benchmarks.throughput` times it (the done agents' `step(None)` at the end of a game count as steps there, so this
  figure is a little lower than a decision's cost); a game without a PettingZoo module (a solo Gymnasium game) is
  timed through its first Gymnasium id instead, one `env.step` of random legal play per decision (`gymnasium.make`
  with the --kwargs, resets between games);
- **connect_four step**: the AEC loop over `connect_four_v3`.

The adapter and loop cost is the env step minus rules, mask and observation. The budget line answers: to reach the
throughput target (`TARGET_RATIO` x connect_four's steps/s), how many microseconds may the game's rules, mask and
observation take per decision, if the adapter and loop stay as measured.

    python -m benchmarks.step_cost --game GAME [--kwargs KEY=VALUE] [--seconds 3] [--rounds 3]
    python -m benchmarks.step_cost --game envs.toys:card_duel --kwargs num_players=2   # "package:name"
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from benchmarks.common import RESULTS_DIR, write_report
from benchmarks.throughput import (
    REFERENCE_NAME,
    STEPS_BETWEEN_CLOCK_READS,
    TARGET_RATIO,
    aec_env_factory,
    parse_kwargs,
    time_aec_env,
    time_connect_four,
)
from envs.core.game import CHANCE, TERMINAL, Game
from envs.core.registration import GameRecord, UnknownGameError, game_record, make_game, resolve_env_id

PARTS = ("rules", "mask", "observation")
"""The parts of a decision timed at the rules-core level, in the order they are added up."""


def time_core(game: Game, seconds: float, seed: int, parts: tuple[str, ...]) -> float:
    """Microseconds per decision of random legal play at the rules-core level, doing the given `parts` each step."""
    rng = np.random.default_rng(seed)
    observers = [game.observer(seat) for seat in range(game.spec.num_players)]
    with_mask, with_observation = "mask" in parts, "observation" in parts
    num_actions = game.spec.num_actions
    decisions = 0
    state = game.new_initial_state()
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
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
    return (time.perf_counter() - start) / decisions * 1e6


def time_gym_step(env_id: str, kwargs: dict[str, Any], seconds: float, seed: int) -> float:
    """Microseconds per `env.step` of random legal play through a Gymnasium id made with `kwargs`."""
    env = gym.make(env_id, **kwargs)
    rng = np.random.default_rng(seed)
    observation, _ = env.reset(seed=seed)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(STEPS_BETWEEN_CLOCK_READS):
            legal = np.flatnonzero(observation["action_mask"])
            observation, _, terminated, truncated, _ = env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
            if terminated or truncated:
                observation, _ = env.reset()
    elapsed = time.perf_counter() - start
    env.close()
    return elapsed / steps * 1e6


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
    parser.add_argument("--out", default=None, help="report path stem (default benchmarks/results/<game>_step_cost)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Time each part and the whole env step (AEC or Gymnasium) in alternating rounds; print and write the medians
    and the budget."""
    parser = build_parser()
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        record = record_of(args.game)
        kwargs = parse_kwargs(args.kwargs)
        game = make_game(record, kwargs)
    except (UnknownGameError, TypeError, ValueError) as error:
        parser.error(str(error))
    if record.pettingzoo_modules:
        make_env = aec_env_factory(record.pettingzoo_modules[0], kwargs)
        step_kind = "AEC"

        def time_step(seconds: float, seed: int) -> float:
            return 1e6 / time_aec_env(make_env, seconds, seed)[0]

    elif record.primary_env_id is not None:
        env_id = record.primary_env_id
        step_kind = "Gymnasium"

        def time_step(seconds: float, seed: int) -> float:
            return time_gym_step(env_id, kwargs, seconds, seed)

    else:
        parser.error(f"{record.name} has neither a PettingZoo module nor a Gymnasium id to time its env step")
    cumulative = [PARTS[: index + 1] for index in range(len(PARTS))]
    rounds: dict[str, list[float]] = {name: [] for name in (*PARTS, "env", "reference")}
    for round_index in range(args.rounds):
        seed = args.seed + round_index
        for parts in cumulative:
            rounds[parts[-1]].append(time_core(game, args.seconds, seed, parts))
        rounds["env"].append(time_step(args.seconds, seed))
        rounds["reference"].append(1e6 / time_connect_four(args.seconds, seed))
    medians = {name: statistics.median(values) for name, values in rounds.items()}
    # Each part's own cost: the cumulative timings' differences (rules; rules + mask; rules + mask + observation).
    costs = {"rules": medians["rules"]}
    costs["mask"] = medians["mask"] - medians["rules"]
    costs["observation"] = medians["observation"] - medians["mask"]
    costs["adapter and loop"] = medians["env"] - medians["observation"]
    target_step = medians["reference"] / TARGET_RATIO
    budget = target_step - costs["adapter and loop"]
    label = f"{record.name}({', '.join(f'{k}={v!r}' for k, v in kwargs.items())})"
    lines = [
        f"# Step cost of {label}",
        "",
        f"`python -m benchmarks.step_cost --game {args.game}"
        + "".join(f" --kwargs {flag}" for flag in args.kwargs)
        + f" --seconds {args.seconds:g} --rounds {args.rounds}` (medians of {args.rounds} alternating rounds)",
        "",
        "| part | us per decision |",
        "|---|---|",
        *(f"| {name} | {value:.1f} |" for name, value in costs.items()),
        f"| whole {step_kind} step | {medians['env']:.1f} |",
        f"| {REFERENCE_NAME} step | {medians['reference']:.1f} |",
        "",
        f"Throughput ratio: {medians['reference'] / medians['env']:.2f}x {REFERENCE_NAME} (target {TARGET_RATIO}x: "
        f"a step of {target_step:.1f} us). With the adapter and loop as measured, the game's rules, mask and "
        f"observation may take {budget:.1f} us per decision; they take "
        f"{medians['observation']:.1f} us.",
        "",
    ]
    markdown = "\n".join(lines)
    print(markdown)
    document: dict[str, Any] = {
        "game": record.name,
        "kwargs": kwargs,
        "seconds": args.seconds,
        "rounds": rounds,
        "us_per_decision": costs,
        "step_kind": step_kind,
        "step_us": medians["env"],
        **({"aec_step_us": medians["env"]} if step_kind == "AEC" else {}),
        "reference_step_us": medians["reference"],
        "target_ratio": TARGET_RATIO,
        "budget_us": budget,
    }
    suffix = "".join(f"_{key}{value}" for key, value in kwargs.items())
    stem = RESULTS_DIR / f"{record.name}{suffix}_step_cost" if args.out is None else Path(args.out)
    write_report(stem, markdown, document)
    return 0


if __name__ == "__main__":
    sys.exit(main())
