"""Exact resume: what a checkpoint holds beyond model.save, taken between rollouts (after the update).

A checkpoint (`checkpoints/model_<timesteps>_steps.zip`) is sb3's model zip (policy, optimizer, num_timesteps, the
last observations and episode starts) with one more member, `resume_state.pkl`: the global RNG states (python,
numpy, torch) that sb3 samples actions and minibatch orders from, the pickled training envs (each env's game,
generator and episode in progress, and the vec env's pending reset seeds), and the state of the callbacks that
carry something from one rollout to the next (the evaluations so far and the eval env; self-play results).
sb3 ignores the extra member, so a checkpoint still loads wherever a model does.

Checkpoints are taken only between rollouts, after the update: there the run is exactly this state, and a resumed
run restores it and calls learn, running the same code the uninterrupted run runs next, so it ends with the same
weights bit for bit (on CPU; GPU kernels need not be deterministic).
"""

from __future__ import annotations

import copy
import io
import pickle
import random
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import gymnasium as gym
import numpy as np

RESUME_STATE_MEMBER = "resume_state.pkl"
"""The member of a checkpoint zip that holds its ResumeState (sb3 reads only its own members)."""
RESUME_STATE_VERSION = 1
"""Bumped when ResumeState changes shape: an older state is then ignored (with a warning) instead of misread."""


class ResumableEnv(gym.Wrapper):
    """The outermost wrapper of a training env: its whole stack pickled and restored through `env_method`."""

    def get_resume_state(self) -> bytes:
        """The pickled env stack under this wrapper (game, generator, episode in progress, episode statistics)."""
        return pickle.dumps(self.env)

    def set_resume_state(self, state: bytes) -> None:
        """Replace the env stack under this wrapper with a pickled one from get_resume_state."""
        self.env = pickle.loads(state)


class ResumableCallback(Protocol):
    """A callback whose state carries across rollouts: it travels with each checkpoint."""

    def resume_state(self) -> Any:
        """The callback's state at a rollout boundary (picklable)."""

    def restore_resume_state(self, state: Any) -> None:
        """Set the state a resume_state call returned."""


@dataclass(frozen=True)
class VecEnvState:
    """A vec env's envs (pickled through ResumableEnv) and the seeds and options of its next reset()."""

    envs: list[bytes]
    seeds: list[int | None]
    options: list[dict[str, Any]]


def vec_env_state(vec_env: Any) -> VecEnvState:
    """The state of a vec env of ResumableEnvs (DummyVecEnv or SubprocVecEnv)."""
    # sb3 keeps the seeds and options of the next reset() in these attributes and offers no accessor.
    return VecEnvState(
        list(vec_env.env_method("get_resume_state")), list(vec_env._seeds), copy.deepcopy(vec_env._options)
    )


def set_vec_env_state(vec_env: Any, state: VecEnvState) -> None:
    """Restore a vec env of ResumableEnvs to a vec_env_state."""
    if len(state.envs) != vec_env.num_envs:
        raise ValueError(f"the checkpoint holds {len(state.envs)} envs, the vec env has {vec_env.num_envs}")
    for index, env_state in enumerate(state.envs):
        vec_env.env_method("set_resume_state", env_state, indices=[index])
    vec_env._seeds = list(state.seeds)
    vec_env._options = copy.deepcopy(state.options)


@dataclass(frozen=True)
class RandomStates:
    """The global generators sb3 draws from: python's random, numpy's legacy global one, torch's (and CUDA's)."""

    python: Any
    numpy: Any
    torch: Any
    cuda: Any

    @classmethod
    def capture(cls) -> RandomStates:
        """The generators' states now."""
        import torch

        cuda = torch.cuda.get_rng_state_all() if torch.cuda.is_available() else None
        return cls(random.getstate(), np.random.get_state(), torch.get_rng_state(), cuda)

    def restore(self) -> None:
        """Put the generators back in these states."""
        import torch

        random.setstate(self.python)
        np.random.set_state(self.numpy)
        torch.set_rng_state(self.torch)
        if self.cuda is not None and torch.cuda.is_available():
            torch.cuda.set_rng_state_all(self.cuda)


@dataclass(frozen=True)
class ResumeState:
    """Everything beyond model.save that continuing a run bit-exactly needs, taken at a rollout boundary."""

    version: int
    timesteps: int
    random_states: RandomStates
    train_envs: VecEnvState
    callbacks: dict[str, Any]


def capture_checkpoint(model: Any, callbacks: Mapping[str, ResumableCallback]) -> bytes:
    """The bytes of a checkpoint zip of `model` now: model.save plus the ResumeState member."""
    state = ResumeState(
        RESUME_STATE_VERSION,
        int(model.num_timesteps),
        RandomStates.capture(),
        vec_env_state(model.get_env()),
        {name: callback.resume_state() for name, callback in callbacks.items()},
    )
    buffer = io.BytesIO()
    model.save(buffer)
    with zipfile.ZipFile(buffer, mode="a") as archive:
        archive.writestr(RESUME_STATE_MEMBER, pickle.dumps(state))
    return buffer.getvalue()


def read_resume_state(checkpoint: Path) -> ResumeState | None:
    """The ResumeState of a checkpoint, or None when it has none (written before exact resume, or another version)."""
    with zipfile.ZipFile(checkpoint) as archive:
        if RESUME_STATE_MEMBER not in archive.namelist():
            return None
        try:
            state = pickle.loads(archive.read(RESUME_STATE_MEMBER))
        except (ModuleNotFoundError, AttributeError):
            # The state names its envs', wrappers' and agents' classes by module path: one written by a version
            # whose classes lived in other modules cannot be read back, and the run resumes as from an older version.
            return None
    if not isinstance(state, ResumeState) or state.version != RESUME_STATE_VERSION:
        return None
    return state


def restore_resume_state(model: Any, state: ResumeState, callbacks: Mapping[str, ResumableCallback]) -> None:
    """Put the training envs, the callbacks and the global generators back as they were at the checkpoint.

    Call it last before learn: the generators are restored here, and anything drawing from them afterwards (building
    an env, a policy) would shift the continuation.
    """
    if model.num_timesteps != state.timesteps:
        raise ValueError(f"the resume state is of {state.timesteps} steps, the model of {model.num_timesteps}")
    set_vec_env_state(model.get_env(), state.train_envs)
    missing = set(callbacks) - set(state.callbacks)
    if missing:
        raise ValueError(f"the resume state has no state for the callbacks {sorted(missing)}")
    for name, callback in callbacks.items():
        callback.restore_resume_state(state.callbacks[name])
    state.random_states.restore()
