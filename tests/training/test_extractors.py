"""The `seat_grids` features extractor (agents.extractors): per-seat grid views through one shared layer."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch
from gymnasium import spaces

from agents.extractors import SeatGridExtractor, grid_view_names

VIEWS = {"hand": [3], "grids": [4, 2, 2, 3], "turn": [5]}
"""A small layout in the shape of Unearth's: a flat view, a per-seat grid (seats, rows, cols, planes), a flat view."""
SIZE = 3 + 4 * 12 + 5
MASK = 7


def _space() -> spaces.Dict:
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, (SIZE,), np.float32),
            "action_mask": spaces.Box(0, 1, (MASK,), np.int8),
        }
    )


def _batch(seed: int, batch: int = 5) -> dict[str, torch.Tensor]:
    rng = np.random.default_rng(seed)
    return {
        "observation": torch.tensor(rng.random((batch, SIZE)), dtype=torch.float32),
        "action_mask": torch.tensor(rng.integers(0, 2, (batch, MASK)), dtype=torch.float32),
    }


def test_grid_views_are_those_with_a_seat_and_two_more_dimensions() -> None:
    assert grid_view_names(VIEWS) == ["grids"]
    assert grid_view_names({"a": [4], "b": [4, 5]}) == []


def test_features_are_flat_views_then_each_seat_encoded_by_one_shared_layer_then_the_mask() -> None:
    """Flat views pass unchanged, every seat's grid goes through the same weights, the mask comes last."""
    extractor = SeatGridExtractor(_space(), VIEWS, grid_features=6)
    assert extractor.features_dim == 3 + 5 + 4 * 6 + MASK
    batch = _batch(0)
    features = extractor(batch)
    observation = batch["observation"]
    flat = torch.cat([observation[:, :3], observation[:, 51:]], dim=1)
    assert torch.equal(features[:, :8], flat)
    encoder = extractor.encoders[0]
    for seat in range(4):
        grid = observation[:, 3 + 12 * seat : 3 + 12 * (seat + 1)]
        expected = torch.relu(encoder(grid))
        assert torch.allclose(features[:, 8 + 6 * seat : 8 + 6 * (seat + 1)], expected)
    assert torch.equal(features[:, -MASK:], batch["action_mask"])


def test_swapping_two_seats_grids_swaps_their_features() -> None:
    """One encoder for all seats: the features of a seat's grid do not depend on where it sits."""
    extractor = SeatGridExtractor(_space(), VIEWS, grid_features=4)
    batch = _batch(1)
    swapped = {key: value.clone() for key, value in batch.items()}
    first, second = slice(3, 15), slice(15, 27)
    swapped["observation"][:, first], swapped["observation"][:, second] = (
        batch["observation"][:, second],
        batch["observation"][:, first],
    )
    features, features_swapped = extractor(batch), extractor(swapped)
    assert torch.allclose(features[:, 8:12], features_swapped[:, 12:16])
    assert torch.allclose(features[:, 12:16], features_swapped[:, 8:12])


@pytest.mark.parametrize(
    ("views", "message"),
    [
        ({"hand": [3], "grids": [4, 2, 2, 3]}, "cover 51 floats, the observation has 56"),
        ({"hand": [8], "flat": [48]}, "no grid view"),
    ],
)
def test_views_that_do_not_fit_the_observation_are_refused(views: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SeatGridExtractor(_space(), views)


def test_a_model_with_the_extractor_saves_and_loads(tmp_path: Path) -> None:
    """The policy kwargs (view shapes included) are saved with the model: a reloaded model predicts the same."""
    import gymnasium as gym
    from sb3_contrib import MaskablePPO

    from agents.config import EnvConfig, PolicyKwargs
    from agents.environment import observation_view_shapes

    env_config = EnvConfig(id="tabletop/Unearth-v0", kwargs={"num_players": 2})
    env = gym.make(env_config.id, **env_config.kwargs)
    policy_kwargs = PolicyKwargs(net_arch=[16], features_extractor="seat_grids", grid_features=4)
    model = MaskablePPO(
        "MultiInputPolicy",
        env,
        n_steps=16,
        batch_size=16,
        seed=0,
        policy_kwargs=policy_kwargs.to_sb3(observation_view_shapes(env_config)),
    )
    assert isinstance(model.policy.features_extractor, SeatGridExtractor)
    observation, _ = env.reset(seed=3)
    mask = observation["action_mask"].astype(bool)
    before = model.predict(observation, action_masks=mask, deterministic=True)[0]
    model.save(tmp_path / "model.zip")
    loaded = MaskablePPO.load(tmp_path / "model.zip", device="cpu")
    assert isinstance(loaded.policy.features_extractor, SeatGridExtractor)
    assert loaded.predict(observation, action_masks=mask, deterministic=True)[0] == before
    assert mask[int(before)]
