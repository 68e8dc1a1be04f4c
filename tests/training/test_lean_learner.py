"""The lean policy and rollout buffers train exactly the run sb3-contrib's own classes train, only faster.

agents/common/lean_learner.py promises sb3-contrib's numbers bit for bit: the same actions sampled from the same
generator, the same values and log-probabilities in the rollout, the same losses and gradients in the update. The
strongest check of that is the whole loop: two MaskablePPO learners, one with sb3-contrib's classes and one with the
lean ones, seeded alike, collect rollouts and update on Unearth (the self-play recipe's seat-grid extractor, Dict
observations) and on Unbroken (flat observations); afterwards every weight, every buffered action and every
log-probability is equal.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch

from agents.common.config import load_experiment_config
from agents.common.lean_learner import (
    LeanMaskableDictRolloutBuffer,
    LeanMaskableMultiInputPolicy,
    LeanMaskablePolicy,
    LeanMaskableRolloutBuffer,
    masked_log_probabilities,
)
from agents.training.maskable_ppo import learner_kwargs, make_vec_env, maskable_ppo_hyperparameters
from tests.training.training_support import REPO_ROOT

UNEARTH_SELFPLAY = REPO_ROOT / "configs" / "unearth" / "selfplay.yaml"
UNBROKEN_DEFAULT = REPO_ROOT / "configs" / "unbroken" / "maskable_ppo.yaml"
SMALL_RUN = ["pretrain.steps=0", "algo.n_steps=64", "algo.batch_size=32", "algo.n_epochs=2", "train.n_envs=2"]
"""Two rollouts of 128 steps and their updates (4 minibatches, 2 epochs each) keep the comparison quick."""


pytestmark = pytest.mark.usefixtures("one_torch_thread")
"""torch on one thread (tests/training/conftest.py), as training's rollouts run."""


def trained(config_path: Any, overrides: list[str], policy: str, rollouts: int = 2) -> Any:
    """A MaskablePPO learner of the config (`algo.policy` = policy) after `rollouts` rollouts and their updates."""
    from sb3_contrib import MaskablePPO

    config = load_experiment_config(config_path, [*SMALL_RUN, *overrides, f"algo.policy={policy}"])
    hyperparameters = maskable_ppo_hyperparameters(config)
    envs = make_vec_env(config, config.train.n_envs, "dummy", config.train.seed, opponents=config.opponents)
    model = MaskablePPO(env=envs, seed=0, **learner_kwargs(config, envs.observation_space))
    if rollouts:
        model.learn(total_timesteps=rollouts * hyperparameters.n_steps * config.train.n_envs)
    envs.close()
    return model


CASES = {
    "unearth (Dict observations, seat grids)": (
        UNEARTH_SELFPLAY,
        ["opponents.pool=[{agent: heuristic}]", "algo.policy_kwargs.net_arch=[32, 32]"],
        "MultiInputPolicy",
        (LeanMaskableMultiInputPolicy, LeanMaskableDictRolloutBuffer),
    ),
    "unbroken (flat observations)": (
        UNBROKEN_DEFAULT,
        ["env.kwargs.flat=true"],
        "MlpPolicy",
        (LeanMaskablePolicy, LeanMaskableRolloutBuffer),
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_lean_learner_trains_sb3_contribs_run_bit_for_bit(case: str) -> None:
    config_path, overrides, sb3_policy, lean_classes = CASES[case]
    stock = trained(config_path, overrides, sb3_policy)
    lean = trained(config_path, overrides, "auto")
    assert (type(lean.policy), type(lean.rollout_buffer)) == lean_classes
    assert type(stock.policy) not in lean_classes
    assert stock.num_timesteps == lean.num_timesteps > 0
    np.testing.assert_array_equal(lean.rollout_buffer.actions, stock.rollout_buffer.actions)
    np.testing.assert_array_equal(lean.rollout_buffer.log_probs, stock.rollout_buffer.log_probs)
    np.testing.assert_array_equal(lean.rollout_buffer.values, stock.rollout_buffer.values)
    stock_weights, lean_weights = stock.policy.state_dict(), lean.policy.state_dict()
    assert stock_weights.keys() == lean_weights.keys()
    changed = 0
    for name, weight in stock_weights.items():
        assert torch.equal(lean_weights[name], weight), f"{name} differs after the updates"
        changed += 1
    assert changed > 4
    initial = trained(config_path, overrides, "auto", rollouts=0)  # the updates did move the weights
    assert any(not torch.equal(initial.policy.state_dict()[name], w) for name, w in lean_weights.items())


def test_masked_actions_get_no_probability_and_the_rest_sum_to_one() -> None:
    """A masked action is never sampled: its log-probability is about -1e8, the legal ones' probabilities sum to 1."""
    logits = torch.tensor([[2.0, -1.0, 0.5, 3.0], [0.0, 0.0, 0.0, 0.0]])
    mask = np.array([[True, False, True, False], [False, False, False, True]])
    log_probabilities, bool_mask = masked_log_probabilities(logits, mask)
    probabilities = log_probabilities.exp()
    assert bool_mask.dtype == torch.bool and bool_mask.tolist() == mask.tolist()
    assert torch.all(log_probabilities[~bool_mask] < -1e7)
    assert torch.allclose(probabilities.sum(dim=1), torch.ones(2))
    assert probabilities[1, 3] == 1.0
    assert torch.isclose(probabilities[0, 0] / probabilities[0, 2], torch.exp(torch.tensor(1.5)))
