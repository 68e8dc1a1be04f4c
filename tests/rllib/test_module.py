"""The masked PPO RLModule: no illegal action is ever sampled or chosen, and the value path ignores the mask."""

from __future__ import annotations

import numpy as np
import torch
from gymnasium import spaces
from ray.rllib.core.columns import Columns

from agents.rllib.env import ACTION_MASK_KEY, OBSERVATIONS_KEY, TabletopMultiAgentEnv
from agents.rllib.module import MaskedPPOTorchRLModule

NUM_ACTIONS = 12
OBSERVATION_SIZE = 7
BATCH = 64


def make_module() -> MaskedPPOTorchRLModule:
    space = spaces.Dict(
        {
            OBSERVATIONS_KEY: spaces.Box(-1.0, 1.0, (OBSERVATION_SIZE,), np.float32),
            ACTION_MASK_KEY: spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
        }
    )
    torch.manual_seed(0)
    return MaskedPPOTorchRLModule(
        observation_space=space, action_space=spaces.Discrete(NUM_ACTIONS), model_config={"fcnet_hiddens": [16]}
    )


def make_batch(seed: int) -> tuple[dict[str, object], torch.Tensor]:
    generator = torch.Generator().manual_seed(seed)
    mask = (torch.rand(BATCH, NUM_ACTIONS, generator=generator) < 0.25).to(torch.int8)
    mask[torch.arange(BATCH), torch.randint(NUM_ACTIONS, (BATCH,), generator=generator)] = 1  # one legal at least
    observations = torch.rand(BATCH, OBSERVATION_SIZE, generator=generator) * 2 - 1
    return {Columns.OBS: {OBSERVATIONS_KEY: observations, ACTION_MASK_KEY: mask}}, mask


def test_no_illegal_action_is_ever_sampled_or_chosen() -> None:
    module = make_module()
    batch, mask = make_batch(seed=1)
    distribution_class = module.get_exploration_action_dist_cls()
    with torch.no_grad():
        exploration = module.forward_exploration(batch)[Columns.ACTION_DIST_INPUTS]
        inference = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
        train = module.forward_train(batch)[Columns.ACTION_DIST_INPUTS]
    for logits in (exploration, inference, train):
        assert torch.isfinite(logits).all()
        distribution = distribution_class.from_logits(logits)
        for _ in range(200):
            actions = distribution.sample()
            assert mask[torch.arange(BATCH), actions].all()
        probabilities = torch.softmax(logits, dim=-1)
        assert (probabilities[mask == 0] == 0).all()
        assert mask[torch.arange(BATCH), logits.argmax(dim=-1)].all()  # greedy picks stay legal
    assert batch[Columns.OBS][ACTION_MASK_KEY] is mask  # the caller's batch keeps its mask


def test_the_value_path_ignores_the_mask() -> None:
    module = make_module()
    batch, _ = make_batch(seed=2)
    other, _ = make_batch(seed=3)
    other[Columns.OBS][OBSERVATIONS_KEY] = batch[Columns.OBS][OBSERVATIONS_KEY]  # same observations, other masks
    with torch.no_grad():
        values = module.compute_values(batch)
        values_other_mask = module.compute_values(other)
        embeddings = module.forward_train(other)[Columns.EMBEDDINGS]
        from_embeddings = module.compute_values(other, embeddings)
    torch.testing.assert_close(values, values_other_mask)
    torch.testing.assert_close(values, from_embeddings)
    assert values.shape == (BATCH,)


def test_the_module_fits_the_adapter_observation_space() -> None:
    env = TabletopMultiAgentEnv({"env_id": "tabletop/Unbroken-v0", "kwargs": {}})
    space = env.observation_spaces["player_0"]
    module = MaskedPPOTorchRLModule(
        observation_space=space, action_space=env.action_spaces["player_0"], model_config={"fcnet_hiddens": [8]}
    )
    observations, _ = env.reset(seed=0)
    observation = observations["player_0"]
    batch = {Columns.OBS: {key: torch.as_tensor(value)[None] for key, value in observation.items()}}
    with torch.no_grad():
        logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
    assert observation[ACTION_MASK_KEY][int(logits.argmax())] == 1
    assert module.observation_space is space
