"""MaskablePPOAgent: a saved MaskablePPO model played greedily with the action mask applied.

Its moves, and a self-play snapshot's (agents/players/snapshots.py), come straight from the policy network:
`masked_action_probabilities` runs the features extractor, the actor's layers and the action net, masks the logits
and normalises them exactly as sb3-contrib's MaskableCategorical does (the same float32 operations, so the same
probabilities bit for bit), without building distribution objects, validating their arguments or deep-copying the
observation as `predict` does: a decision costs a forward pass. `cached_policy` loads a saved model's policy once per
process (keyed by path and modification time), however many envs of the process play it.
"""

from __future__ import annotations

import os
import pickle
import weakref
import zipfile
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from agents.common.run_dir import FINAL_MODEL_NAME, run_model
from agents.players.base import BaseAgent


class ModelLoadError(ValueError):
    """A model path that does not exist, cannot be loaded, or was trained for differently shaped spaces."""


MISSING_TRAIN_EXTRA = "saved models need the train extra: pip install 'tabletop-gym[train]'"
"""Why a model cannot be loaded where stable-baselines3 (or torch) is not installed."""
TORCH_ADVICE_LINES = ("Weights only load failed", "Please file an issue", "Check the documentation")
"""Lines of torch's unpickling errors that are advice (re-run with weights_only=False, file an issue), not the
reason."""


def load_failure_reason(error: BaseException) -> str:
    """Why a model file could not be loaded, in words for its user (never torch's advice to unpickle anyway)."""
    message = str(error)
    if isinstance(error, zipfile.BadZipFile) or "wasn't a zip-file" in message:
        return "not a zip file (a model is the .zip that train.py or MaskablePPO.save writes)"
    if isinstance(error, AssertionError) and "No data found" in message:
        return "the zip holds no 'data' entry (not a model saved by stable-baselines3)"
    if isinstance(error, pickle.UnpicklingError):
        lines = [line.strip() for line in message.splitlines() if line.strip()]
        details = [line for line in lines if not line.startswith(TORCH_ADVICE_LINES) and "weights_only" not in line]
        detail = f" (torch: {details[0]})" if details else ""
        return f"its weights are damaged or hold more than tensors, and only tensors are loaded{detail}"
    if isinstance(error, ImportError):
        return f"{MISSING_TRAIN_EXTRA} ({error})"
    first_line = message.strip().splitlines()[0] if message.strip() else ""
    return f"{type(error).__name__}: {first_line}" if first_line else type(error).__name__


def resolve_model_path(spec: str | Path) -> Path:
    """A .zip model file from a spec: the file itself, or a run dir's final model (else its latest checkpoint)."""
    path = Path(spec)
    if path.is_dir():
        model = run_model(path)
        if model is None:
            raise ModelLoadError(
                f"cannot load {path}: the run directory holds neither {FINAL_MODEL_NAME} nor any checkpoint"
            )
        return model
    if path.is_file():
        return path
    if path.with_suffix(".zip").is_file():
        return path.with_suffix(".zip")
    raise ModelLoadError(f"cannot load {path}: no such model file (.zip) or run directory")


HUGE_NEGATIVE_LOGIT = -1e8
"""The logit sb3-contrib's MaskableCategorical gives a masked action (its HUGE_NEG)."""


def masked_action_probabilities(policy: Any, observation: Any, action_mask: np.ndarray) -> np.ndarray:
    """The masked action probabilities (float32, one row per observation) of an sb3 MaskableActorCriticPolicy.

    The same numbers as `policy.get_distribution(obs, action_masks).distribution.probs`: the logits are normalised,
    masked to HUGE_NEGATIVE_LOGIT and normalised again, then softmaxed, as MaskableCategorical does; the policy must
    be in evaluation mode (`policy.set_training_mode(False)`, as `predict` sets it).
    """
    import torch
    from stable_baselines3.common.preprocessing import preprocess_obs

    with torch.inference_mode():  # no autograd bookkeeping at all (cheaper than no_grad for a batch of one)
        observations = preprocess_obs(
            _observation_batch(policy, observation), policy.observation_space, normalize_images=policy.normalize_images
        )
        features = policy.pi_features_extractor(observations)
        logits = policy.action_net(policy.mlp_extractor.forward_actor(features))
        logits = logits.view(-1, logits.shape[-1])
        logits = logits - logits.logsumexp(dim=-1, keepdim=True)
        mask = torch.as_tensor(np.asarray(action_mask, dtype=bool)).reshape(logits.shape)
        masked = torch.where(mask, logits, torch.tensor(HUGE_NEGATIVE_LOGIT, dtype=logits.dtype))
        masked = masked - masked.logsumexp(dim=-1, keepdim=True)
        return torch.softmax(masked, dim=-1).numpy()


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


class MaskablePPOAgent(BaseAgent):
    """Greedy (deterministic) masked inference with a MaskablePPO model."""

    def __init__(self, model: Any, name: str = "maskable_ppo", deterministic: bool = True) -> None:
        self.model = model
        self.name = name
        self.deterministic = deterministic

    @classmethod
    def from_path(cls, spec: str | Path, env: gym.Env | None = None) -> MaskablePPOAgent:
        """Load a model from a .zip or a run directory; checks its spaces against `env` when given.

        Whatever goes wrong while loading is a ModelLoadError of one line, "cannot load MODEL: reason".
        """
        model_path = resolve_model_path(spec)
        try:
            from sb3_contrib import MaskablePPO
        except ImportError as error:
            raise ModelLoadError(f"cannot load {model_path}: {MISSING_TRAIN_EXTRA} ({error})") from None
        try:
            model = MaskablePPO.load(model_path, device="cpu")
        except Exception as error:  # a user's file through torch and sb3: any failure means it is no usable model
            raise ModelLoadError(f"cannot load {model_path}: {load_failure_reason(error)}") from error
        if env is not None:
            _check_spaces(model, env, model_path)
        return cls(model, name=str(spec))

    def act(self, observation: Any, action_mask: np.ndarray, state: Any | None = None) -> int:
        """The model's most likely action among the legal ones (`deterministic=False`: sampled by sb3 from torch's
        global generator)."""
        if not self.deterministic:
            action, _ = self.model.predict(
                observation, action_masks=np.asarray(action_mask, dtype=bool), deterministic=False
            )
            return int(action)
        policy = self.model.policy
        if policy.training:  # what predict() ensures at every call
            policy.set_training_mode(False)
        return int(np.argmax(masked_action_probabilities(policy, observation, action_mask)[0]))


def _check_spaces(model: Any, env: gym.Env, model_path: Path) -> None:
    """Fail clearly when a model was trained on differently shaped observations or actions."""
    if model.action_space != env.action_space:
        raise ModelLoadError(
            f"{model_path} was trained with action space {model.action_space}, the env has {env.action_space}"
        )
    if _space_shapes(model.observation_space) != _space_shapes(env.observation_space):
        raise ModelLoadError(
            f"{model_path} was trained on observations {model.observation_space}, the env gives "
            f"{env.observation_space}; build the env with the kwargs of the training run (see its config.yaml)"
        )


def _space_shapes(space: gym.Space) -> Any:
    if isinstance(space, gym.spaces.Dict):
        return {key: _space_shapes(sub) for key, sub in space.spaces.items()}
    return getattr(space, "shape", None)
