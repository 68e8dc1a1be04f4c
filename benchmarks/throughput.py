"""Throughput of the Gymnasium envs under random legal play, against PettingZoo's connect_four_v3 in the same run.

Every step builds the observation and the mask, as a learner sees them (gymnasium.make, default wrappers).
The machines are shared and noisy, so the figure to compare is the ratio to connect_four measured alongside:
the two are timed in alternating rounds and the medians reported.

    python benchmarks/throughput.py [--seconds 5] [--rounds 3] [--env tabletop/Unbroken-v0]
"""

from __future__ import annotations

import argparse
import statistics
import time

import gymnasium as gym
import numpy as np

import envs  # noqa: F401  (registers the ids)


def time_gym_env(env_id: str, seconds: float, seed: int) -> tuple[float, float]:
    """Steps/s and episodes/s of random legal play through a Gymnasium env."""
    env = gym.make(env_id)
    rng = np.random.default_rng(seed)
    observation, _ = env.reset(seed=seed)
    steps = episodes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(200):
            legal = np.flatnonzero(observation["action_mask"])
            observation, _, terminated, truncated, _ = env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
            if terminated or truncated:
                episodes += 1
                observation, _ = env.reset()
    elapsed = time.perf_counter() - start
    env.close()
    return steps / elapsed, episodes / elapsed


def time_connect_four(seconds: float, seed: int) -> float:
    """Steps/s of random legal play through connect_four_v3 with agent_iter/last, the AEC loop."""
    from pettingzoo.classic import connect_four_v3

    env = connect_four_v3.env()
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


def main() -> None:
    """Time the env and connect_four in alternating rounds; print medians and the ratio."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--env", default="tabletop/Unbroken-v0")
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per timing round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    env_rates, episode_rates, reference_rates = [], [], []
    for round_index in range(args.rounds):
        steps, episodes = time_gym_env(args.env, args.seconds, args.seed + round_index)
        env_rates.append(steps)
        episode_rates.append(episodes)
        reference_rates.append(time_connect_four(args.seconds, args.seed + round_index))
    env_rate, reference_rate = statistics.median(env_rates), statistics.median(reference_rates)
    print(f"{args.env}: {env_rate:,.0f} steps/s, {statistics.median(episode_rates):,.1f} episodes/s")
    print(f"connect_four_v3: {reference_rate:,.0f} steps/s")
    print(f"ratio: {env_rate / reference_rate:.2f}x connect_four (target >= 2.0x)")


if __name__ == "__main__":
    main()
