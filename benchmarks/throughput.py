"""Throughput of a game's Gymnasium env under random legal play, against PettingZoo's connect_four_v3 in the same run.

Every step builds the observation and the mask, as a learner sees them (gymnasium.make, registered wrappers).
The machines are shared and noisy, so the figure to compare is the ratio to connect_four measured alongside:
the two are timed in alternating rounds and the medians reported.

    python -m benchmarks.throughput --game GAME [--seconds 5] [--rounds 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Any

import gymnasium as gym
import numpy as np

from benchmarks.common import add_game_argument, primary_env_id, record_from_args

STEPS_BETWEEN_CLOCK_READS = 200
"""Steps played between two reads of the clock (keeps timing overhead out of the measured loop)."""
TARGET_RATIO = 2.0
"""Throughput the suite aims for, as a multiple of connect_four_v3's."""


def time_gym_env(env_id: str, seconds: float, seed: int) -> tuple[float, float]:
    """Steps/s and episodes/s of random legal play through a Gymnasium env."""
    env = gym.make(env_id)
    rng = np.random.default_rng(seed)
    observation, _ = env.reset(seed=seed)
    steps = episodes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(STEPS_BETWEEN_CLOCK_READS):
            legal = np.flatnonzero(observation["action_mask"])
            observation, _, terminated, truncated, _ = env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
            if terminated or truncated:
                episodes += 1
                observation, _ = env.reset()
    elapsed = time.perf_counter() - start
    env.close()
    return steps / elapsed, episodes / elapsed


def make_connect_four() -> Any:
    """connect_four_v3 through PettingZoo's registry where it has one (1.27+), else through its module."""
    import pettingzoo

    make = getattr(pettingzoo, "make", None)
    if make is not None:
        return make("aec", "classic/connect_four_v3")
    from pettingzoo.classic import connect_four_v3

    return connect_four_v3.env()


def time_connect_four(seconds: float, seed: int) -> float:
    """Steps/s of random legal play through connect_four_v3 with agent_iter/last, the AEC loop."""
    env = make_connect_four()
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(observation["action_mask"])
                action = int(legal[rng.integers(len(legal))])
            env.step(action)
            steps += 1
        env.reset()
    return steps / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    """Time the game's env and connect_four in alternating rounds; print medians and the ratio."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_game_argument(parser)
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per timing round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    env_id = primary_env_id(record_from_args(parser, args))
    env_rates, episode_rates, reference_rates = [], [], []
    for round_index in range(args.rounds):
        steps, episodes = time_gym_env(env_id, args.seconds, args.seed + round_index)
        env_rates.append(steps)
        episode_rates.append(episodes)
        reference_rates.append(time_connect_four(args.seconds, args.seed + round_index))
    env_rate, reference_rate = statistics.median(env_rates), statistics.median(reference_rates)
    print(f"{env_id}: {env_rate:,.0f} steps/s, {statistics.median(episode_rates):,.1f} episodes/s")
    print(f"connect_four_v3: {reference_rate:,.0f} steps/s")
    print(f"ratio: {env_rate / reference_rate:.2f}x connect_four (target >= {TARGET_RATIO}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
