"""MaskablePPOAgent: a saved MaskablePPO model played greedily with the action mask applied.

Its greedy moves come straight from the policy network (agents/players/forward_pass.py), as `predict` would choose
them but at the cost of a forward pass.
"""

from __future__ import annotations

import pickle
import zipfile
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from agents.common.run_dir import FINAL_MODEL_NAME, run_model
from agents.players.base import BaseAgent
from agents.players.forward_pass import masked_action_probabilities


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
