"""Feature extractors for the policies sb3 builds: the observation's shaped views used as what they are.

The default sb3 extractor flattens the observation, so with four 19 x 19 grids of 6 planes per seat (8,664 floats of
a 9,478-float observation) a first hidden layer of 256 units costs about 2.4 million multiply-adds per decision,
twice (policy and value networks), and is most of a training step's time. `SeatGridExtractor` encodes each seat's
grid view with one linear layer shared by every seat (the same weights read "my" grid and each opponent's), and
passes every other view, and the action mask, through flat: about four times fewer operations, and a grid encoder
that learns from every seat's grid at once. `EntityExtractor` also reads each table of like things (a card table:
one row per card) with one small network shared by the rows, pooled by mean and max, so the features do not depend
on the order of the rows.

Which view is which comes from the roles the game's observer declares for each view's axes
(envs/core/observation.py: `ObservationLayout.add(..., axes)`, `observer_view_axes`), passed as `view_axes` with the
view shapes by the training code, so the extractors need no game import and load from a saved model's policy kwargs:

- a **per-seat view** has the seat as its first axis and at least two more axes (a grid of cells, or entities with
  their features, for each seat): encoded per seat (`seat_view_names`);
- an **entity view** has an entity as its first axis (no seat axis): encoded per row and pooled (`entity_view_names`);
- every other view passes through flat, per-seat feature vectors `(seat, feature)` included (they are small).

A model saved before views declared axis roles has no `view_axes` in its kwargs: its views are read as they were
then (`axes_without_roles`: any view of three or more dimensions is per seat, seat first).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import gymnasium as gym
import torch
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from envs.core.observation import ENTITY, FEATURE, SEAT, view_axes

OBSERVATION_KEY = "observation"
"""Key of the observer's flat vector in a Dict observation."""
MASK_KEY = "action_mask"
"""Key of the action mask in a Dict observation."""
SEAT_VIEW_MIN_DIMENSIONS = 3
"""A view with the seat first and this many dimensions or more (a grid or entities per seat) is encoded per seat."""
ENTITY_HIDDEN = 64
"""Hidden units of the per-entity encoder (Linear, ReLU, Linear, ReLU)."""

ViewShapes = Mapping[str, Sequence[int]]
ViewAxes = Mapping[str, Sequence[str]]


def axes_without_roles(view_shapes: ViewShapes) -> dict[str, tuple[str, ...]]:
    """Roles as models saved before axis roles read views: 3 or more dimensions, seat first; else features."""
    axes = {}
    for name, shape in view_shapes.items():
        seat_first = len(shape) >= SEAT_VIEW_MIN_DIMENSIONS
        axes[name] = (SEAT, *(FEATURE,) * (len(shape) - 1)) if seat_first else (FEATURE,) * len(shape)
    return axes


def checked_view_axes(view_shapes: ViewShapes, view_axes_by_name: ViewAxes | None) -> dict[str, tuple[str, ...]]:
    """Every view's axis roles (`axes_without_roles` when None), checked against its shape (errors name the view)."""
    if view_axes_by_name is None:
        return axes_without_roles(view_shapes)
    strangers = sorted(set(view_axes_by_name) - set(view_shapes))
    if strangers:
        raise ValueError(f"view_axes names views {strangers} that view_shapes does not have")
    return {
        name: view_axes(name, tuple(int(d) for d in shape), view_axes_by_name.get(name))
        for name, shape in view_shapes.items()
    }


def seat_view_names(view_shapes: ViewShapes, view_axes_by_name: ViewAxes | None = None) -> list[str]:
    """The views encoded per seat: the seat axis first and at least SEAT_VIEW_MIN_DIMENSIONS dimensions."""
    axes = checked_view_axes(view_shapes, view_axes_by_name)
    return [
        name for name, shape in view_shapes.items() if axes[name][0] == SEAT and len(shape) >= SEAT_VIEW_MIN_DIMENSIONS
    ]


def entity_view_names(view_shapes: ViewShapes, view_axes_by_name: ViewAxes | None = None) -> list[str]:
    """The tables of like things: views whose first axis is an entity (one row per entity)."""
    axes = checked_view_axes(view_shapes, view_axes_by_name)
    return [name for name in view_shapes if axes[name][0] == ENTITY]


class SeatGridExtractor(BaseFeaturesExtractor):
    """Per-seat views through one shared linear layer each (ReLU); the other views and the mask flat.

    `seats`: encode only the first `seats` seats of each per-seat view (the seats of a game with fewer players than
    the views are sized for come first, seat-relative; the rest are always empty). None: every seat.

    Features: the flat views (layout order), then each per-seat view's seats encoded, then (`EntityExtractor`) each
    entity view pooled, then the mask.
    """

    def __init__(
        self,
        observation_space: gym.Space,
        view_shapes: ViewShapes,
        grid_features: int = 64,
        view_axes: ViewAxes | None = None,
        seats: int | None = None,
    ) -> None:
        self._build(observation_space, view_shapes, view_axes, grid_features, entity_features=None, seats=seats)
        if not self.grids:
            raise ValueError(
                f"no per-seat view (the seat axis first, {SEAT_VIEW_MIN_DIMENSIONS} or more dimensions) among "
                f"{sorted(view_shapes)}"
            )

    def _build(
        self,
        observation_space: gym.Space,
        view_shapes: ViewShapes,
        view_axes_by_name: ViewAxes | None,
        grid_features: int,
        entity_features: int | None,
        seats: int | None = None,
    ) -> None:
        """Lay out the views and make the encoders (`entity_features` None: entity views pass flat; `seats`: encode
        only the first `seats` seats of each per-seat view, None: all)."""
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
        if grid_features < 1:
            raise ValueError(f"grid_features must be a positive integer, got {grid_features}")
        if entity_features is not None and entity_features < 1:
            raise ValueError(f"entity_features must be a positive integer, got {entity_features}")
        grids = seat_view_names(view_shapes, view_axes_by_name)
        if seats is not None and not all(1 <= seats <= view_shapes[name][0] for name in grids):
            raise ValueError(
                f"seats must be between 1 and the seats of each per-seat view "
                f"({ {name: view_shapes[name][0] for name in grids} }), got {seats}"
            )
        entities = entity_view_names(view_shapes, view_axes_by_name) if entity_features is not None else []
        starts: dict[str, int] = {}
        offset = 0
        for name, length in lengths.items():
            starts[name] = offset
            offset += length
        encoded = set(grids) | set(entities)
        flat_index = [
            i for name in view_shapes if name not in encoded for i in range(starts[name], starts[name] + lengths[name])
        ]
        mask_size = math.prod(mask_space.shape or (0,)) if mask_space is not None else 0
        encoded_seats = {name: int(view_shapes[name][0]) if seats is None else seats for name in grids}
        grid_total = sum(encoded_seats[name] * grid_features for name in grids)
        entity_total = 2 * len(entities) * (entity_features or 0)  # mean and max
        super().__init__(observation_space, features_dim=len(flat_index) + grid_total + entity_total + mask_size)
        self.has_mask = mask_space is not None
        self.grids = [
            (starts[name], lengths[name] // int(view_shapes[name][0]) * encoded_seats[name], encoded_seats[name])
            for name in grids
        ]
        """(start, length encoded, seats encoded) of each per-seat view: its first seats, which are contiguous."""
        self.entities = [(starts[name], lengths[name], int(view_shapes[name][0])) for name in entities]
        """(start, length, rows) of each entity view."""
        self.register_buffer("flat_index", torch.tensor(flat_index, dtype=torch.long), persistent=False)
        self.encoders = nn.ModuleList(nn.Linear(length // seats, grid_features) for _, length, seats in self.grids)
        self.entity_encoders = nn.ModuleList(
            nn.Sequential(
                nn.Linear(length // rows, ENTITY_HIDDEN),
                nn.ReLU(),
                nn.Linear(ENTITY_HIDDEN, entity_features or 0),
                nn.ReLU(),
            )
            for _, length, rows in self.entities
        )

    def forward(self, observations: torch.Tensor | dict[str, torch.Tensor]) -> torch.Tensor:
        """Features of a batch: the flat views, each per-seat view encoded per seat, entity views pooled, the mask."""
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
        for (start, length, rows), entity_encoder in zip(self.entities, self.entity_encoders, strict=True):
            encoded = entity_encoder(vector[:, start : start + length].reshape(batch, rows, length // rows))
            parts.append(encoded.mean(dim=1))
            parts.append(encoded.amax(dim=1))
        if self.has_mask and mask is not None:
            parts.append(mask.flatten(1).float())
        return torch.cat(parts, dim=1)


class EntityExtractor(SeatGridExtractor):
    """Each entity view's rows through one shared small network, pooled by mean and max; per-seat views as
    `SeatGridExtractor` encodes them (if any); the other views and the mask flat."""

    def __init__(
        self,
        observation_space: gym.Space,
        view_shapes: ViewShapes,
        entity_features: int = 32,
        view_axes: ViewAxes | None = None,
        grid_features: int = 64,
        seats: int | None = None,
    ) -> None:
        self._build(observation_space, view_shapes, view_axes, grid_features, entity_features, seats=seats)
        if not self.entities:
            raise ValueError(f"no entity view (an entity axis first) among {sorted(view_shapes)}")


FEATURE_EXTRACTORS: dict[str, type[BaseFeaturesExtractor] | None] = {
    "flatten": None,
    "seat_grids": SeatGridExtractor,
    "entities": EntityExtractor,
}
"""Config name (`policy_kwargs.features_extractor`) -> extractor class (None: sb3's default, flatten everything)."""
