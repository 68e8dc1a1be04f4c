"""MaskablePPOAgent: a saved MaskablePPO model played greedily with the action mask applied."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from agents.base import BaseAgent
from agents.run_dir import FINAL_MODEL_NAME, run_model


class ModelLoadError(ValueError):
    """A model path that does not exist, cannot be loaded, or was trained for differently shaped spaces."""


def resolve_model_path(spec: str | Path) -> Path:
    """A .zip model file from a spec: the file itself, or a run dir's final model (else its latest checkpoint)."""
    path = Path(spec)
    if path.is_dir():
        model = run_model(path)
        if model is None:
            raise ModelLoadError(f"run directory {path} holds neither {FINAL_MODEL_NAME} nor any checkpoint")
        return model
    if path.is_file():
        return path
    if path.with_suffix(".zip").is_file():
        return path.with_suffix(".zip")
    raise ModelLoadError(f"model file {path} not found")


class MaskablePPOAgent(BaseAgent):
    """Greedy (deterministic) masked inference with a MaskablePPO model."""

    def __init__(self, model: Any, name: str = "maskable_ppo", deterministic: bool = True) -> None:
        self.model = model
        self.name = name
        self.deterministic = deterministic

    @classmethod
    def from_path(cls, spec: str | Path, env: gym.Env | None = None) -> MaskablePPOAgent:
        """Load a model from a .zip or a run directory; checks its spaces against `env` when given."""
        from sb3_contrib import MaskablePPO

        model_path = resolve_model_path(spec)
        try:
            model = MaskablePPO.load(model_path, device="cpu")
        except (OSError, ValueError, KeyError) as error:
            raise ModelLoadError(f"cannot load a MaskablePPO model from {model_path}: {error}") from error
        if env is not None:
            _check_spaces(model, env, model_path)
        return cls(model, name=str(spec))

    def act(self, observation: Any, action_mask: np.ndarray, state: Any | None = None) -> int:
        """The model's most likely action among the legal ones."""
        action, _ = self.model.predict(
            observation, action_masks=np.asarray(action_mask, dtype=bool), deterministic=self.deterministic
        )
        return int(action)


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
