"""Feature extractors for the policies sb3 builds: the observation's shaped views used as what they are.

The default sb3 extractor flattens the observation, so with four 19 x 19 grids of 6 planes per seat (8,664 floats of
a 9,478-float observation) a first hidden layer of 256 units costs about 2.4 million multiply-adds per decision,
twice (policy and value networks), and is most of a training step's time. `SeatGridExtractor` encodes each seat's
grid view with one linear layer shared by every seat (the same weights read "my" grid and each opponent's), and
passes every other view, and the action mask, through flat: about four times fewer operations, and a grid encoder
that learns from every seat's grid at once.

A grid view is a view of three or more dimensions whose first is the seat (`(seats, rows, cols, planes)`); the
views come from the game's observer (`Observer.view_shapes`, in layout order), passed as `view_shapes` by the
training code, so the extractor needs no game import and loads from a saved model's policy kwargs.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import gymnasium as gym
import torch
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

OBSERVATION_KEY = "observation"
"""Key of the observer's flat vector in a Dict observation."""
MASK_KEY = "action_mask"
"""Key of the action mask in a Dict observation."""
GRID_MIN_DIMENSIONS = 3
"""A view with this many dimensions or more (seat first) is a per-seat grid."""


def grid_view_names(view_shapes: Mapping[str, Sequence[int]]) -> list[str]:
    """The views encoded per seat: those with at least GRID_MIN_DIMENSIONS dimensions, the seat first."""
    return [name for name, shape in view_shapes.items() if len(shape) >= GRID_MIN_DIMENSIONS]


class SeatGridExtractor(BaseFeaturesExtractor):
    """Per-seat grid views through one shared linear layer each (ReLU); the other views and the mask flat."""

    def __init__(
        self,
        observation_space: gym.Space,
        view_shapes: Mapping[str, Sequence[int]],
        grid_features: int = 64,
    ) -> None:
        if isinstance(observation_space, gym.spaces.Dict):
            vector_space = observation_space[OBSERVATION_KEY]
            mask_space = observation_space.spaces.get(MASK_KEY)
        else:
            vector_space, mask_space = observation_space, None
        size = math.prod(vector_space.shape or (0,))
        lengths = {name: math.prod(shape) for name, shape in view_shapes.items()}
        if sum(lengths.values()) != size:
            raise ValueError(
                f"view_shapes cover {sum(lengths.values())} floats, the observation has {size}: they are not this "
                "env's views"
            )
        grids = grid_view_names(view_shapes)
        if not grids:
            raise ValueError(f"no grid view (3 or more dimensions, seat first) among {sorted(view_shapes)}")
        if grid_features < 1:
            raise ValueError(f"grid_features must be a positive integer, got {grid_features}")
        starts: dict[str, int] = {}
        offset = 0
        for name, length in lengths.items():
            starts[name] = offset
            offset += length
        flat_index = [
            i for name in view_shapes if name not in grids for i in range(starts[name], starts[name] + lengths[name])
        ]
        mask_size = math.prod(mask_space.shape or (0,)) if mask_space is not None else 0
        grid_total = sum(view_shapes[name][0] * grid_features for name in grids)
        super().__init__(observation_space, features_dim=len(flat_index) + grid_total + mask_size)
        self.has_mask = mask_space is not None
        self.grids = [(starts[name], lengths[name], int(view_shapes[name][0])) for name in grids]
        self.register_buffer("flat_index", torch.tensor(flat_index, dtype=torch.long), persistent=False)
        self.encoders = nn.ModuleList(nn.Linear(length // seats, grid_features) for _, length, seats in self.grids)

    def forward(self, observations: torch.Tensor | dict[str, torch.Tensor]) -> torch.Tensor:
        """Features of a batch: the flat views, each grid view encoded per seat, then the mask."""
        if isinstance(observations, dict):
            vector = observations[OBSERVATION_KEY]
            mask = observations.get(MASK_KEY)
        else:
            vector, mask = observations, None
        vector = vector.flatten(1)
        batch = vector.shape[0]
        flat_index: torch.Tensor = self.flat_index  # type: ignore[assignment]  # a registered buffer
        parts = [vector.index_select(1, flat_index)]
        for (start, length, seats), encoder in zip(self.grids, self.encoders, strict=True):
            grid = vector[:, start : start + length].reshape(batch, seats, length // seats)
            parts.append(torch.relu(encoder(grid)).reshape(batch, -1))
        if self.has_mask and mask is not None:
            parts.append(mask.flatten(1).float())
        return torch.cat(parts, dim=1)


FEATURE_EXTRACTORS: dict[str, type[BaseFeaturesExtractor] | None] = {"flatten": None, "seat_grids": SeatGridExtractor}
"""Config name (`policy_kwargs.features_extractor`) -> extractor class (None: sb3's default, flatten everything)."""
