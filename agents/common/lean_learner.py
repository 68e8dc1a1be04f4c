"""MaskablePPO's policy and rollout buffers without per-call overhead: the same numbers, fewer operations around them.

sb3-contrib's `MaskableActorCriticPolicy` builds a `MaskableCategorical` at every rollout forward pass and every
minibatch: three log-sum-exps (normalise the logits, normalise again with no mask, mask and normalise), a
broadcast for the log-probability, and distribution objects around them; its rollout buffers copy every minibatch's
arrays into tensors (`torch.tensor`) although indexing the buffer has made fresh arrays already. For a small network
these wrappers cost a sizeable share of the network's own time.

`LeanMaskablePolicy` (flat observations) and `LeanMaskableMultiInputPolicy` (Dict observations) override `forward`
and `evaluate_actions` with the operations that change numbers and nothing else: the logits normalised, masked to
HUGE_NEGATIVE_LOGIT and normalised again (`masked_log_probabilities`), actions drawn by `torch.multinomial` from the
softmax as `Categorical.sample` draws them (the same generator calls), the log-probability gathered, the entropy
summed over the legal actions. Every output equals sb3-contrib's bit for bit (tests/training/test_lean_learner.py
trains both from one seed and compares the weights). `LeanMaskableRolloutBuffer` and `LeanMaskableDictRolloutBuffer`
hand minibatch arrays to torch without a second copy.

Saved models name these classes (sb3 pickles the policy and buffer classes by module path): this module's path is
part of the saved-model format.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from sb3_contrib.common.maskable.buffers import MaskableDictRolloutBuffer, MaskableRolloutBuffer
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy, MaskableMultiInputActorCriticPolicy

HUGE_NEGATIVE_LOGIT = -1e8
"""The logit sb3-contrib's MaskableCategorical gives a masked action (its HUGE_NEG)."""


def masked_log_probabilities(logits: torch.Tensor, action_masks: Any) -> tuple[torch.Tensor, torch.Tensor]:
    """The masked log-probabilities of a batch of action logits, and the boolean mask shaped as they are.

    The float32 operations of sb3-contrib's MaskableCategorical: the logits normalised (log-softmax by log-sum-exp),
    masked actions set to HUGE_NEGATIVE_LOGIT, normalised again; so the same numbers bit for bit.
    """
    logits = logits.view(-1, logits.shape[-1])
    logits = logits - logits.logsumexp(dim=-1, keepdim=True)
    mask = torch.as_tensor(action_masks, dtype=torch.bool, device=logits.device).reshape(logits.shape)
    masked = torch.where(mask, logits, torch.tensor(HUGE_NEGATIVE_LOGIT, dtype=logits.dtype, device=logits.device))
    return masked - masked.logsumexp(dim=-1, keepdim=True), mask


class _LeanForward:
    """`forward` and `evaluate_actions` of a MaskableActorCriticPolicy in the operations that change numbers only."""

    def _latents(self, obs: Any) -> tuple[torch.Tensor, torch.Tensor]:
        """The actor's and the critic's latent vectors of a batch of observations."""
        policy: Any = self
        features = policy.extract_features(obs)
        if policy.share_features_extractor:
            return policy.mlp_extractor(features)
        pi_features, vf_features = features
        return policy.mlp_extractor.forward_actor(pi_features), policy.mlp_extractor.forward_critic(vf_features)

    def forward(
        self, obs: Any, deterministic: bool = False, action_masks: np.ndarray | None = None
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Actions (sampled, or the most likely), values and the actions' log-probabilities, as sb3-contrib's."""
        policy: Any = self
        if action_masks is None:
            return super().forward(obs, deterministic, action_masks)  # type: ignore[misc]
        latent_pi, latent_vf = self._latents(obs)
        values = policy.value_net(latent_vf)
        log_probabilities, _ = masked_log_probabilities(policy.action_net(latent_pi), action_masks)
        probabilities = torch.softmax(log_probabilities, dim=-1)
        if deterministic:
            actions = probabilities.argmax(dim=1)
        else:
            actions = torch.multinomial(probabilities, 1, True).T.reshape(-1)  # Categorical.sample's draw
        log_prob = log_probabilities.gather(-1, actions.unsqueeze(-1)).squeeze(-1)
        return actions.reshape((-1, *policy.action_space.shape)), values, log_prob

    def evaluate_actions(
        self, obs: Any, actions: torch.Tensor, action_masks: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor | None]:
        """Values, the actions' log-probabilities and the distributions' entropies, as sb3-contrib's."""
        policy: Any = self
        if action_masks is None:
            return super().evaluate_actions(obs, actions, action_masks)  # type: ignore[misc]
        latent_pi, latent_vf = self._latents(obs)
        log_probabilities, mask = masked_log_probabilities(policy.action_net(latent_pi), action_masks)
        log_prob = log_probabilities.gather(-1, actions.long().view(-1, 1)).squeeze(-1)
        p_log_p = log_probabilities * torch.softmax(log_probabilities, dim=-1)
        entropy = -torch.where(mask, p_log_p, torch.tensor(0.0, device=p_log_p.device)).sum(-1)
        return policy.value_net(latent_vf), log_prob, entropy


class LeanMaskablePolicy(_LeanForward, MaskableActorCriticPolicy):
    """sb3-contrib's MlpPolicy for MaskablePPO (flat observations) with the lean forward pass and evaluation."""


class LeanMaskableMultiInputPolicy(_LeanForward, MaskableMultiInputActorCriticPolicy):
    """sb3-contrib's MultiInputPolicy for MaskablePPO (Dict observations) with the lean forward pass and evaluation."""


class LeanMaskableRolloutBuffer(MaskableRolloutBuffer):
    """sb3-contrib's rollout buffer handing each minibatch's fresh arrays to torch without copying them again."""

    def to_torch(self, array: np.ndarray, copy: bool = False) -> torch.Tensor:
        """The array as a tensor, sharing its memory (indexing the buffer made it a fresh copy already)."""
        return torch.as_tensor(array, device=self.device)


class LeanMaskableDictRolloutBuffer(MaskableDictRolloutBuffer):
    """sb3-contrib's Dict rollout buffer handing each minibatch's fresh arrays to torch without copying them again."""

    def to_torch(self, array: np.ndarray, copy: bool = False) -> torch.Tensor:
        """The array as a tensor, sharing its memory (indexing the buffer made it a fresh copy already)."""
        return torch.as_tensor(array, device=self.device)


def lean_learner_classes(dict_observations: bool) -> tuple[type[MaskableActorCriticPolicy], type[Any]]:
    """The lean policy class and rollout buffer class for Dict (True) or flat observations."""
    if dict_observations:
        return LeanMaskableMultiInputPolicy, LeanMaskableDictRolloutBuffer
    return LeanMaskablePolicy, LeanMaskableRolloutBuffer
