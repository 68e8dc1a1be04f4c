"""The features extractors (agents.common.extractors): per-seat views through one shared layer, entity tables pooled."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch
from gymnasium import spaces

from agents.common.extractors import (
    EntityExtractor,
    SeatGridExtractor,
    axes_without_roles,
    entity_view_names,
    seat_view_names,
)
from envs.core.game import Observer, State
from envs.core.observation import ENTITY, FEATURE, GRID, SEAT, ObservationLayout, observer_view_axes

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


def test_per_seat_views_are_those_with_the_seat_first_and_two_more_dimensions() -> None:
    """Keyed on the declared seat axis: a card table of three dimensions is no seat's view."""
    axes = {"hand": (FEATURE,), "grids": (SEAT, GRID, GRID, FEATURE), "turn": (FEATURE,)}
    assert seat_view_names(VIEWS, axes) == ["grids"]
    cards = {"cards": [10, 2, 3], "scores": [4, 5]}
    card_axes = {"cards": (ENTITY, FEATURE, FEATURE), "scores": (SEAT, FEATURE)}
    assert seat_view_names(cards, card_axes) == []  # per-seat feature vectors pass flat
    assert entity_view_names(cards, card_axes) == ["cards"]
    # Without declared roles (a model saved before them) every view of 3 or more dimensions is read seat first.
    assert seat_view_names(cards) == ["cards"] and seat_view_names(VIEWS) == ["grids"]
    assert axes_without_roles({"a": [4], "b": [4, 5], "c": [2, 3, 4]}) == {
        "a": (FEATURE,),
        "b": (FEATURE, FEATURE),
        "c": (SEAT, FEATURE, FEATURE),
    }


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
        assert torch.allclose(features[:, 8 + 6 * seat : 8 + 6 * (seat + 1)], expected, atol=1e-6)
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
    assert torch.allclose(features[:, 8:12], features_swapped[:, 12:16], atol=1e-6)
    assert torch.allclose(features[:, 12:16], features_swapped[:, 8:12], atol=1e-6)


def test_encoding_the_seats_present_drops_only_the_empty_seats_features() -> None:
    """`seats=2`: the first two seats' grids through the same encoder, the two seats after them left out."""
    every_seat = SeatGridExtractor(_space(), VIEWS, grid_features=6)
    two_seats = SeatGridExtractor(_space(), VIEWS, grid_features=6, seats=2)
    assert two_seats.features_dim == every_seat.features_dim - 2 * 6
    two_seats.load_state_dict(every_seat.state_dict())  # one encoder per view, whatever the seats: the same weights
    batch = _batch(2)
    features, fewer = every_seat(batch), two_seats(batch)
    assert torch.equal(fewer[:, : 8 + 2 * 6], features[:, : 8 + 2 * 6])
    assert torch.equal(fewer[:, -MASK:], features[:, -MASK:])


def test_the_seats_beyond_a_two_player_unearth_game_are_empty() -> None:
    """Unearth's per-seat views are sized for 4 players, seat-relative: at 2 players seats 3 and 4 hold nothing, so
    `encode_seats: present` loses no information."""
    import gymnasium as gym

    from agents.common.config import EnvConfig
    from agents.evaluation.environment import observation_view_axes, observation_view_shapes, players_of

    env_config = EnvConfig(id="tabletop/Unearth-v0", kwargs={"num_players": 2})
    shapes, axes = observation_view_shapes(env_config), observation_view_axes(env_config)
    assert players_of(env_config) == 2
    starts = dict(zip(shapes, np.cumsum([0, *(int(np.prod(shape)) for shape in shapes.values())]), strict=False))
    env = gym.make(env_config.id, **env_config.kwargs)
    observation, info = env.reset(seed=4)
    rng = np.random.default_rng(4)
    nonempty = {name: 0.0 for name in seat_view_names(shapes, axes)}
    for _ in range(150):
        for name in nonempty:
            seats = observation["observation"][starts[name] : starts[name] + int(np.prod(shapes[name]))]
            seats = seats.reshape(shapes[name][0], -1)
            assert not seats[2:].any(), f"{name}: an absent seat holds something"
            nonempty[name] += float(seats[:2].any())
        legal = np.flatnonzero(info["action_mask"])
        observation, _, terminated, truncated, info = env.step(int(rng.choice(legal)))
        if terminated or truncated:
            observation, info = env.reset()
    assert all(count > 0 for count in nonempty.values()), "the present seats' views should hold something"


def test_seats_beyond_a_views_seats_are_refused() -> None:
    with pytest.raises(ValueError, match="seats must be between 1 and the seats of each per-seat view"):
        SeatGridExtractor(_space(), VIEWS, seats=5)


@pytest.mark.parametrize(
    ("views", "message"),
    [
        ({"hand": [3], "grids": [4, 2, 2, 3]}, "cover 51 floats, the observation has 56"),
        ({"hand": [8], "flat": [48]}, "no per-seat view"),
    ],
)
def test_views_that_do_not_fit_the_observation_are_refused(views: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SeatGridExtractor(_space(), views)


@pytest.mark.parametrize(
    ("env_id", "kwargs", "extractor", "extractor_class"),
    [
        ("tabletop/Unearth-v0", {"num_players": 2}, "seat_grids", SeatGridExtractor),
        ("tabletop/Unbroken-v0", {}, "entities", EntityExtractor),
    ],
    ids=["unearth_seat_grids", "unbroken_entities"],
)
def test_a_model_with_the_extractor_saves_and_loads(
    tmp_path: Path, env_id: str, kwargs: dict, extractor: str, extractor_class: type
) -> None:
    """The policy kwargs (view shapes and axis roles included) are saved with the model: a reloaded model predicts
    the same."""
    import gymnasium as gym
    from sb3_contrib import MaskablePPO

    from agents.common.config import EnvConfig, PolicyKwargs
    from agents.evaluation.environment import observation_view_axes, observation_view_shapes

    env_config = EnvConfig(id=env_id, kwargs=kwargs)
    env = gym.make(env_config.id, **env_config.kwargs)
    policy_kwargs = PolicyKwargs(net_arch=[16], features_extractor=extractor, grid_features=4, entity_features=5)
    model = MaskablePPO(
        "MultiInputPolicy",
        env,
        n_steps=16,
        batch_size=16,
        seed=0,
        policy_kwargs=policy_kwargs.to_sb3(observation_view_shapes(env_config), observation_view_axes(env_config)),
    )
    assert type(model.policy.features_extractor) is extractor_class
    observation, _ = env.reset(seed=3)
    mask = observation["action_mask"].astype(bool)
    before = model.predict(observation, action_masks=mask, deterministic=True)[0]
    model.save(tmp_path / "model.zip")
    loaded = MaskablePPO.load(tmp_path / "model.zip", device="cpu")
    assert type(loaded.policy.features_extractor) is extractor_class
    assert loaded.predict(observation, action_masks=mask, deterministic=True)[0] == before
    assert mask[int(before)]


class ToyTableObserver(Observer):
    """A toy observer: a flat score, a board per seat (seat axis) and a table of cards (entity axis)."""

    def __init__(self) -> None:
        layout = ObservationLayout()
        layout.add("score", 2)
        layout.add("boards", (3, 2, 2, 2), (SEAT, GRID, GRID, FEATURE))
        layout.add("cards", (5, 4), (ENTITY, FEATURE))
        layout.add("stakes", (3, 2), (SEAT, FEATURE))
        self.size = layout.size
        self.views = layout.views
        self.view_shapes = layout.shapes
        self.view_axes = layout.axes

    def tensor(self, state: State) -> np.ndarray:
        """Unused: the tests write observations directly."""
        raise NotImplementedError

    def text(self, state: State) -> str:
        """Unused."""
        raise NotImplementedError


TOY_SIZE = 2 + 24 + 20 + 6
BOARDS, CARDS, STAKES = slice(2, 26), slice(26, 46), slice(46, 52)


def _toy_space() -> spaces.Dict:
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, (TOY_SIZE,), np.float32),
            "action_mask": spaces.Box(0, 1, (MASK,), np.int8),
        }
    )


def _toy_extractor(entity_features: int = 3, grid_features: int = 4) -> EntityExtractor:
    observer = ToyTableObserver()
    torch.manual_seed(0)
    return EntityExtractor(
        _toy_space(),
        observer.view_shapes,
        entity_features=entity_features,
        view_axes=observer_view_axes(observer),
        grid_features=grid_features,
    )


def _toy_batch(seed: int, batch: int = 4) -> dict[str, torch.Tensor]:
    rng = np.random.default_rng(seed)
    return {
        "observation": torch.tensor(rng.random((batch, TOY_SIZE)), dtype=torch.float32),
        "action_mask": torch.tensor(rng.integers(0, 2, (batch, MASK)), dtype=torch.float32),
    }


def test_each_view_goes_to_the_encoder_its_axes_declare() -> None:
    """The seat-axis board per seat through the grid encoder, the entity-axis card table row by row through the
    entity encoder (mean, then max), the per-seat feature vector and the score flat, the mask last."""
    extractor = _toy_extractor()
    assert extractor.features_dim == (2 + 6) + 3 * 4 + 2 * 3 + MASK
    assert len(extractor.encoders) == 1 and len(extractor.entity_encoders) == 1
    batch = _toy_batch(0)
    observation = batch["observation"]
    features = extractor(batch)
    assert torch.equal(features[:, :8], torch.cat([observation[:, :2], observation[:, STAKES]], dim=1))
    boards = observation[:, BOARDS].reshape(4, 3, 8)
    expected_boards = torch.relu(extractor.encoders[0](boards)).reshape(4, -1)
    assert torch.allclose(features[:, 8:20], expected_boards)
    rows = extractor.entity_encoders[0](observation[:, CARDS].reshape(4, 5, 4))
    assert torch.allclose(features[:, 20:23], rows.mean(dim=1))
    assert torch.allclose(features[:, 23:26], rows.amax(dim=1))
    assert torch.equal(features[:, -MASK:], batch["action_mask"])
    # The seat extractor on the same views reads the card table flat.
    observer = ToyTableObserver()
    flat_cards = SeatGridExtractor(_toy_space(), observer.view_shapes, 4, observer_view_axes(observer))
    assert flat_cards.features_dim == (2 + 20 + 6) + 3 * 4 + MASK


def test_permuting_the_entities_leaves_the_features_unchanged() -> None:
    """One encoder for every row, pooled: the card table's order does not matter (the seats' order does)."""
    extractor = _toy_extractor()
    batch = _toy_batch(1)
    permuted = {key: value.clone() for key, value in batch.items()}
    cards = batch["observation"][:, CARDS].reshape(4, 5, 4)
    permuted["observation"][:, CARDS] = cards[:, [3, 0, 4, 2, 1]].reshape(4, 20)
    assert torch.allclose(extractor(batch), extractor(permuted), atol=1e-6)
    swapped = {key: value.clone() for key, value in batch.items()}
    boards = batch["observation"][:, BOARDS].reshape(4, 3, 8)
    swapped["observation"][:, BOARDS] = boards[:, [1, 0, 2]].reshape(4, 24)
    assert not torch.allclose(extractor(batch), extractor(swapped))


def test_unearth_reads_as_before_axis_roles_were_declared() -> None:
    """With Unearth's declared axes the seat extractor encodes the same views (tableaus and dice, per seat) as it
    did from the shapes alone: same features size, same parameter count, the same features with the same weights."""
    from envs.unearth.game import UnearthGame

    observer = UnearthGame(num_players=2).observer(0)
    shapes, axes = observer.view_shapes, observer_view_axes(observer)
    assert seat_view_names(shapes, axes) == seat_view_names(shapes) == ["tableaus", "dice"]
    assert entity_view_names(shapes, axes) == ["table"]
    space = spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, (observer.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (MASK,), np.int8),
        }
    )
    declared = SeatGridExtractor(space, shapes, grid_features=8, view_axes=axes)
    legacy = SeatGridExtractor(space, shapes, grid_features=8)
    assert declared.features_dim == legacy.features_dim
    count = sum(parameter.numel() for parameter in declared.parameters())
    assert count == sum(parameter.numel() for parameter in legacy.parameters())
    legacy.load_state_dict(declared.state_dict())
    rng = np.random.default_rng(2)
    batch = {
        "observation": torch.tensor(rng.random((3, observer.size)), dtype=torch.float32),
        "action_mask": torch.ones((3, MASK)),
    }
    assert torch.equal(declared(batch), legacy(batch))


@pytest.mark.parametrize(
    ("axes", "message"),
    [
        ({"cards": ("entity", "feature", "feature")}, "view_axes names views \\['cards'\\]"),
        ({"grids": ("seat", "grid", "grid")}, "3 axis roles"),
        ({"grids": ("grid", "seat", "grid", "feature")}, "the seat axis must be one and the first"),
        ({"grids": ("seat", "grid", "grid", "colour")}, "unknown axis roles \\['colour'\\]"),
    ],
)
def test_axis_roles_that_do_not_fit_the_views_are_refused(axes: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SeatGridExtractor(_space(), VIEWS, view_axes=axes)


def test_the_entity_extractor_needs_an_entity_view() -> None:
    axes = {"hand": (FEATURE,), "grids": (SEAT, GRID, GRID, FEATURE), "turn": (FEATURE,)}
    with pytest.raises(ValueError, match="no entity view"):
        EntityExtractor(_space(), VIEWS, view_axes=axes)
