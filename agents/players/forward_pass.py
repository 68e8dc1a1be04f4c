"""Moves of a saved MaskablePPO policy at the cost of a forward pass, and each saved policy loaded once per process.

`masked_action_probabilities` runs the features extractor, the actor's layers and the action net, masks the logits
and normalises them exactly as sb3-contrib's MaskableCategorical does (the same float32 operations, so the same
probabilities bit for bit), without building distribution objects, validating their arguments or deep-copying the
observation as `predict` does. `sample_index` draws from them as `Generator.choice` would. `cached_policy` loads a
saved model's policy once per process (keyed by path and modification time), however many envs of the process play
it, leaving the global generators as they were. The greedy MaskablePPOAgent (agents/players/ppo.py) and the self-play
snapshots (agents/players/snapshots.py) play through it.

`policy_probabilities` is one decision's row: a batch-1 forward pass, or, in a thread that a `ProbabilityBatcher`
serves (`serving_thread`), that batcher's answer, which may come from one forward pass over the pending decisions of
several envs (agents/training/batched_vec_env.py); `batch_probabilities` is that forward pass over stacked
observations. The policy is asked for by a function that returns it (`load_policy`, e.g. loading a snapshot the first
time): a batcher calls it where it runs its forward passes, so that torch, loading included, runs in one thread.
"""

from __future__ import annotations

import os
import threading
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

import gymnasium as gym
import numpy as np


def masked_action_probabilities(policy: Any, observation: Any, action_mask: np.ndarray) -> np.ndarray:
    """The masked action probabilities (float32, one row per observation) of an sb3 MaskableActorCriticPolicy.

    The same numbers as `policy.get_distribution(obs, action_masks).distribution.probs`: the softmax of
    `masked_log_probabilities` (agents.common.lean_learner), as MaskableCategorical computes them; the policy must
    be in evaluation mode (`policy.set_training_mode(False)`, as `predict` sets it).
    """
    import torch
    from stable_baselines3.common.preprocessing import preprocess_obs

    from agents.common.lean_learner import masked_log_probabilities

    with torch.inference_mode():  # no autograd bookkeeping at all (cheaper than no_grad for a batch of one)
        observations = preprocess_obs(
            _observation_batch(policy, observation), policy.observation_space, normalize_images=policy.normalize_images
        )
        features = policy.pi_features_extractor(observations)
        logits = policy.action_net(policy.mlp_extractor.forward_actor(features))
        log_probabilities, _ = masked_log_probabilities(logits, np.asarray(action_mask, dtype=bool))
        return torch.softmax(log_probabilities, dim=-1).numpy()


class ProbabilityBatcher(Protocol):
    """Answers the decisions of the envs it runs, gathering those of one policy into one forward pass."""

    def probabilities(
        self, player: Any, load_policy: Callable[[], Any], observation: Any, action_mask: np.ndarray
    ) -> np.ndarray:
        """The masked action probabilities (float32 row) of the policy `load_policy()` returns for one observation,
        asked by `player`."""
        ...


_SERVED = threading.local()
"""The ProbabilityBatcher serving the current thread (attribute `batcher`), if any."""


@contextmanager
def serving_thread(batcher: ProbabilityBatcher) -> Iterator[None]:
    """`policy_probabilities` calls of this thread go to `batcher` while the block runs (the previous one after)."""
    previous = getattr(_SERVED, "batcher", None)
    _SERVED.batcher = batcher
    try:
        yield
    finally:
        _SERVED.batcher = previous


def policy_probabilities(
    player: Any, load_policy: Callable[[], Any], observation: Any, action_mask: np.ndarray
) -> np.ndarray:
    """One observation's masked action probabilities (float32 row) of the policy `load_policy()` returns: the
    batcher's answer in a thread one serves, else a batch-1 forward pass. `player` is the agent asking (a batcher
    names its rows' players)."""
    batcher: ProbabilityBatcher | None = getattr(_SERVED, "batcher", None)
    if batcher is None:
        return masked_action_probabilities(load_policy(), observation, action_mask)[0]
    return batcher.probabilities(player, load_policy, observation, action_mask)


def batch_probabilities(policy: Any, observations: Sequence[Any], action_masks: Sequence[np.ndarray]) -> np.ndarray:
    """The masked action probabilities of several observations (one row each, in order) in one forward pass.

    A row may differ from the batch-1 pass's in the last bits of a float (the matrix products of a batch run other
    kernels); one observation alone is the batch-1 pass itself.
    """
    if len(observations) == 1:
        return masked_action_probabilities(policy, observations[0], action_masks[0])
    if isinstance(observations[0], dict):
        stacked: Any = {key: np.stack([each[key] for each in observations]) for key in observations[0]}
    else:
        stacked = np.stack([np.asarray(each) for each in observations])
    return masked_action_probabilities(policy, stacked, np.stack([np.asarray(mask) for mask in action_masks]))


def _observation_batch(policy: Any, observation: Any) -> Any:
    """The observation (one, or a batch) as the tensors `policy.obs_to_tensor` makes, without its deep copy."""
    import torch
    from stable_baselines3.common.preprocessing import is_image_space

    space = policy.observation_space
    if isinstance(space, gym.spaces.Dict):
        if any(is_image_space(sub) for sub in space.spaces.values()):
            return policy.obs_to_tensor(observation)[0]  # images are transposed there: the general route
        return {
            key: torch.as_tensor(np.asarray(value).reshape((-1, *(space[key].shape or ()))))
            for key, value in observation.items()
        }
    if is_image_space(space):
        return policy.obs_to_tensor(observation)[0]
    return torch.as_tensor(np.asarray(observation).reshape((-1, *(space.shape or ()))))


def sample_index(probabilities: np.ndarray, rng: np.random.Generator) -> int:
    """An index drawn with these probabilities (summing to 1): the draw `rng.choice(n, p=...)` makes, without its
    checks (the same index from the same generator state)."""
    cumulative = probabilities.cumsum()
    cumulative /= cumulative[-1]
    return int(cumulative.searchsorted(rng.random(), side="right"))


_POLICIES: weakref.WeakValueDictionary[tuple[str, int], Any] = weakref.WeakValueDictionary()
"""Loaded policies by (resolved path, modification time in ns); an entry lives while some player holds it."""


def cached_policy(path: str | Path) -> Any:
    """The policy of the MaskablePPO model saved at `path`, in evaluation mode, loaded once per process.

    Keyed by the file's path and modification time, so a file written anew is loaded anew. The cache holds policies
    weakly: a policy no player keeps is freed. Callers share the policy and must not train it. Loading leaves the
    global generators (torch's, numpy's, Python's) as they were, so when a load happens never changes a training run.
    """
    resolved = Path(path).resolve()
    key = (str(resolved), os.stat(resolved).st_mtime_ns)
    policy = _POLICIES.get(key)
    if policy is None:
        policy = _POLICIES[key] = load_policy_quietly(resolved)
    return policy


def load_policy_quietly(path: Path) -> Any:
    """The policy of the model at `path` in evaluation mode, the global generators restored after loading.

    sb3's `load` builds a fresh network (drawing initial weights from torch's generator) and reseeds torch, numpy and
    Python with the saved model's seed; a learner sampling from those generators must not see it.
    """
    import random

    import torch
    from sb3_contrib import MaskablePPO

    python_state, numpy_state = random.getstate(), np.random.get_state()
    try:
        with torch.random.fork_rng(devices=[]):
            policy = MaskablePPO.load(path, device="cpu").policy
    finally:
        random.setstate(python_state)
        np.random.set_state(numpy_state)
    policy.set_training_mode(False)
    return policy
