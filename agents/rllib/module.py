"""A PPO RLModule (RLlib's new API stack, torch) that masks illegal actions in every pass and keeps the mask out
of the value path.

The env (agents/rllib/env.py) gives `{"observations": Box, "action_mask": Box(0, 1, (N,))}`. The networks are built
for the "observations" Box alone (RLlib's default PPO encoder, pi and value heads, sized by `model_config`); the
mask is split off the batch (without changing the caller's batch) before every pass, and every illegal action's
logit is replaced by the smallest float in the inference, exploration and training passes, so no illegal action is
ever sampled or chosen greedily, and the training loss sees the same distribution the actions were drawn from. The
value function reads the observations only. (RLlib's `action_masking_rlm.py` example shows the idea; this module
replaces the logits rather than adding log(mask), so a large negative logit cannot overflow to -inf.)
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import torch
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.utils.torch_utils import FLOAT_MIN

from agents.rllib.env import ACTION_MASK_KEY, OBSERVATIONS_KEY


def split_mask(batch: dict[str, Any]) -> tuple[torch.Tensor, dict[str, Any]]:
    """The batch's action mask and a shallow copy of the batch whose observations are the "observations" alone."""
    observations = batch[Columns.OBS]
    if not isinstance(observations, dict) or ACTION_MASK_KEY not in observations:
        raise ValueError(
            f"the masked module needs observations of the form {{{OBSERVATIONS_KEY!r}: ..., {ACTION_MASK_KEY!r}: ...}}"
            " (agents.rllib.env.TabletopMultiAgentEnv gives them)"
        )
    stripped = dict(batch)
    stripped[Columns.OBS] = observations[OBSERVATIONS_KEY]
    return observations[ACTION_MASK_KEY], stripped


def mask_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """`logits` with every action the mask forbids set to the smallest float (probability 0, no -inf, no NaN)."""
    return torch.where(mask > 0, logits, torch.full_like(logits, FLOAT_MIN))


class MaskedPPOTorchRLModule(DefaultPPOTorchRLModule):
    """RLlib's default PPO torch module over the "observations" Box, with the action mask applied to the logits."""

    def __init__(self, *, observation_space: gym.Space | None = None, **kwargs: Any) -> None:
        if not isinstance(observation_space, gym.spaces.Dict) or set(observation_space.spaces) != {
            OBSERVATIONS_KEY,
            ACTION_MASK_KEY,
        }:
            raise ValueError(
                f"the masked module needs a Dict observation space with keys {OBSERVATIONS_KEY!r} and "
                f"{ACTION_MASK_KEY!r}, got {observation_space}"
            )
        self.observation_space_with_mask = observation_space
        super().__init__(observation_space=observation_space[OBSERVATIONS_KEY], **kwargs)

    def setup(self) -> None:
        """Build the networks for the observations alone, then show the env's space (mask included) to RLlib."""
        super().setup()
        self.observation_space = self.observation_space_with_mask

    def _forward_inference(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, stripped = split_mask(batch)
        return self._masked(super()._forward_inference(stripped, **kwargs), mask)

    def _forward_exploration(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, stripped = split_mask(batch)
        return self._masked(super()._forward_exploration(stripped, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, stripped = split_mask(batch)
        return self._masked(super()._forward_train(stripped, **kwargs), mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any | None = None) -> Any:
        """The value of each observation: the mask is stripped first and never reaches the value network."""
        if isinstance(batch[Columns.OBS], dict):
            batch = split_mask(batch)[1]
        return super().compute_values(batch, embeddings)

    @staticmethod
    def _masked(outputs: dict[str, Any], mask: torch.Tensor) -> dict[str, Any]:
        outputs[Columns.ACTION_DIST_INPUTS] = mask_logits(outputs[Columns.ACTION_DIST_INPUTS], mask)
        return outputs
