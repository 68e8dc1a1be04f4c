"""RLlibAgent: the learner module of an RLlib checkpoint played greedily with the action mask (agent spec
`rllib:<checkpoint or run directory>`).

Only the trained RLModule is loaded (no Ray cluster is started), so RLlib-trained and SB3-trained policies meet in
the same evaluations and tournaments. The agent reads the suite's own observations (Dict or flat), renames them
for the module and picks the most likely legal action.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from ray.rllib.core import COMPONENT_LEARNER, COMPONENT_LEARNER_GROUP, COMPONENT_RL_MODULE
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.rl_module import RLModule

from agents.common.run_dir import RLLIB_FINAL_CHECKPOINT_NAME, rllib_run_checkpoint
from agents.players.base import BaseAgent
from agents.players.ppo import ModelLoadError
from agents.rllib.env import ACTION_MASK_KEY, OBSERVATIONS_KEY
from agents.rllib.league import LEARNER_MODULE_ID

SPEC_PREFIX = "rllib"
"""The agent spec name: `rllib:<checkpoint or run directory>`."""


def learner_module_path(checkpoint: Path) -> Path:
    """Where an RLlib algorithm checkpoint keeps the learner module's own checkpoint."""
    return checkpoint / COMPONENT_LEARNER_GROUP / COMPONENT_LEARNER / COMPONENT_RL_MODULE / LEARNER_MODULE_ID


def resolve_checkpoint(spec: str | Path) -> Path:
    """The RLlib checkpoint a spec names: the checkpoint folder itself, or a run directory's final (else latest)."""
    path = Path(spec)
    if not path.is_dir():
        raise ModelLoadError(f"cannot load rllib:{spec}: no such RLlib checkpoint or run directory")
    if learner_module_path(path).is_dir():
        return path
    checkpoint = rllib_run_checkpoint(path)
    if checkpoint is None:
        raise ModelLoadError(
            f"cannot load rllib:{spec}: neither an RLlib checkpoint (no {learner_module_path(Path('.'))}) nor an "
            f"rllib_ppo run directory (no {RLLIB_FINAL_CHECKPOINT_NAME}/ nor checkpoints/rllib_*_steps/)"
        )
    return checkpoint


class RLlibAgent(BaseAgent):
    """Greedy masked inference with the learner RLModule of an RLlib checkpoint."""

    reads_observation = True

    def __init__(self, module: Any, name: str = SPEC_PREFIX) -> None:
        self.module = module
        self.name = name

    @classmethod
    def from_path(cls, spec: str | Path, env: gym.Env | None = None) -> RLlibAgent:
        """Load the learner module of a checkpoint or run directory; checks its spaces against `env` when given."""
        checkpoint = resolve_checkpoint(spec)
        try:
            # RLlib reads checkpoints through pyarrow, which wants an absolute path (a relative one has no scheme)
            module = RLModule.from_checkpoint(learner_module_path(checkpoint).resolve())
        except Exception as error:  # a user's folder through RLlib's unpickling: any failure means no usable module
            raise ModelLoadError(f"cannot load rllib:{spec}: {type(error).__name__}: {error}") from error
        module.eval()  # type: ignore[attr-defined]  # (a torch RLModule: torch.nn.Module's eval)
        if env is not None:
            _check_spaces(module, env, checkpoint)
        return cls(module, name=f"{SPEC_PREFIX}:{spec}")

    def act(self, observation: Any, action_mask: np.ndarray, state: Any | None = None) -> int:
        """The module's most likely action among the legal ones."""
        tensor = observation["observation"] if isinstance(observation, dict) else observation
        batch = {
            Columns.OBS: {
                OBSERVATIONS_KEY: torch.as_tensor(np.asarray(tensor, dtype=np.float32))[None],
                ACTION_MASK_KEY: torch.as_tensor(np.asarray(action_mask, dtype=np.int8))[None],
            }
        }
        with torch.no_grad():
            logits = self.module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
        return int(logits[0].argmax())


def _check_spaces(module: Any, env: gym.Env, checkpoint: Path) -> None:
    """Fail clearly when the module was trained on differently shaped observations or actions."""
    space = env.observation_space
    box = space["observation"] if isinstance(space, gym.spaces.Dict) else space
    trained = module.observation_space[OBSERVATIONS_KEY]
    if trained.shape != box.shape or module.action_space != env.action_space:
        raise ModelLoadError(
            f"{checkpoint} was trained on observations {trained.shape} and actions {module.action_space}, the env "
            f"gives {box.shape} and {env.action_space}; build the env with the kwargs of the training run"
        )
