"""The observation space every adapter exposes: a seat's float Box and the action mask (or the Box alone)."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from envs.core.game import Observer


def observation_space(observer: Observer, num_actions: int, flat: bool = False) -> spaces.Space:
    """`Dict(observation=Box(float32), action_mask=Box(0, 1, (N,), int8))`, or with `flat` the float Box alone."""
    box = spaces.Box(low=observer.low, high=observer.high, shape=(observer.size,), dtype=np.float32)
    if flat:
        return box
    return spaces.Dict({"observation": box, "action_mask": spaces.Box(0, 1, shape=(num_actions,), dtype=np.int8)})
