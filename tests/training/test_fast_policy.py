"""Saved policies played at the speed of a forward pass choose exactly what sb3's distribution objects chose.

`masked_action_probabilities` (agents/players/forward_pass.py) skips sb3's `predict` and MaskableCategorical; the
agents that use it (MaskablePPOAgent, the self-play SnapshotPool) must keep every choice. Here both routes read
thousands of decisions of Unearth (2 players, the self-play recipe's seat-grid policy) and Unbroken (its default
policy), with the action nets scaled up so that the distributions are far from uniform: the probabilities are equal
bit for bit, the greedy choice is `predict`'s, and a snapshot samples what the former code sampled from the same
generator.
"""

from __future__ import annotations

import copy
import os
import pickle
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from agents.common.config import load_experiment_config
from agents.common.run_dir import snapshot_file_name
from agents.evaluation.environment import make_env
from agents.players.forward_pass import cached_policy, masked_action_probabilities, sample_index
from agents.players.ppo import MaskablePPOAgent
from agents.players.snapshots import SnapshotPool
from agents.training.maskable_ppo import learner_kwargs
from tests.training.training_support import REPO_ROOT

CONFIGS = {
    "unearth": REPO_ROOT / "configs" / "unearth" / "selfplay.yaml",
    "unbroken": REPO_ROOT / "configs" / "unbroken" / "maskable_ppo.yaml",
}
"""The policies compared: each game's shipped recipe (Unearth's with its seat-grid features extractor)."""
DECISIONS = 1500
"""Decisions compared per game (thousands over the two games)."""
LOGIT_SCALE = 300.0
"""Factor on the fresh action net's weights: peaked distributions, as a trained policy's are."""


pytestmark = pytest.mark.usefixtures("one_torch_thread")
"""torch on one thread (tests/training/conftest.py), as training's rollouts run."""


def fresh_model(game: str) -> tuple[Any, Any]:
    """A MaskablePPO model of the game's recipe (seeded), its action net scaled up, and the env it plays on."""
    import torch
    from sb3_contrib import MaskablePPO

    config = load_experiment_config(CONFIGS[game], ["pretrain.steps=0", "algo.policy=MultiInputPolicy"])
    env = make_env(config.env.id, dict(config.env.kwargs), opponents=config.opponents)
    model = MaskablePPO(env=env, seed=0, **learner_kwargs(config, env.observation_space))
    action_net: Any = model.policy.action_net
    with torch.no_grad():
        action_net.weight.mul_(LOGIT_SCALE)
    return model, env


def distribution_probabilities(policy: Any, observation: Any, mask: np.ndarray) -> np.ndarray:
    """The masked probabilities through sb3's own route (obs_to_tensor, get_distribution, MaskableCategorical)."""
    import torch

    observation_tensor, _ = policy.obs_to_tensor(observation)
    with torch.no_grad():
        distribution = policy.get_distribution(observation_tensor, action_masks=mask[None])
        return distribution.distribution.probs[0].cpu().numpy()


def former_snapshot_choice(policy: Any, observation: Any, mask: np.ndarray, rng: np.random.Generator) -> int:
    """What SnapshotPool.act chose before the forward-pass route: sb3's probabilities, `rng.choice` with its checks."""
    probabilities = np.where(mask, distribution_probabilities(policy, observation, mask).astype(np.float64), 0.0)
    total = probabilities.sum()
    if not total > 0:
        probabilities, total = mask.astype(np.float64), float(mask.sum())
    return int(rng.choice(len(probabilities), p=probabilities / total))


@pytest.mark.parametrize("game", sorted(CONFIGS))
def test_forward_pass_choices_equal_the_distribution_objects_choices(game: str, tmp_path: Path) -> None:
    model, env = fresh_model(game)
    path = tmp_path / snapshot_file_name(0)
    model.save(path)
    policy = model.policy
    policy.set_training_mode(False)
    greedy = MaskablePPOAgent(model)
    snapshots = SnapshotPool(tmp_path, max_kept=1, latest_share=1.0)
    compared = differing_samples = 0
    peaks = []
    seed = 0
    while compared < DECISIONS:
        observation, info = env.reset(seed=seed)
        snapshots.reset(seed)
        former_rng = copy.deepcopy(snapshots._rng)  # the former code drew from the same generator, the same state
        terminated = False
        while not terminated and compared < DECISIONS:
            mask = np.asarray(info["action_mask"], dtype=bool)
            expected = distribution_probabilities(policy, observation, mask)
            peaks.append(expected.max())
            assert np.array_equal(masked_action_probabilities(policy, observation, mask)[0], expected)
            predicted, _ = model.predict(observation, action_masks=mask, deterministic=True)
            assert greedy.act(observation, mask) == int(predicted)
            sampled = snapshots.act(observation, mask)
            assert sampled == former_snapshot_choice(policy, observation, mask, former_rng)
            differing_samples += sampled != int(predicted)
            compared += 1
            observation, _, terminated, _, info = env.step(sampled)
        seed += 1
    assert np.mean(peaks) > 0.5, "the distributions should be peaked, as a trained policy's are"
    assert differing_samples > 0.05 * compared, "the sampled choices should not all be the greedy ones"


def test_sample_index_draws_what_generator_choice_draws() -> None:
    rng = np.random.default_rng(5)
    for trial in range(2000):
        probabilities = rng.random(int(rng.integers(1, 200))) ** 3
        probabilities[rng.random(len(probabilities)) < 0.5] = 0.0
        probabilities[int(rng.integers(len(probabilities)))] += 0.1
        probabilities /= probabilities.sum()
        ours, numpy_choice = np.random.default_rng(trial), np.random.default_rng(trial)
        for _ in range(3):
            assert sample_index(probabilities, ours) == int(numpy_choice.choice(len(probabilities), p=probabilities))


def test_a_process_loads_each_snapshot_once_and_a_rewritten_file_anew(tmp_path: Path) -> None:
    model, env = fresh_model("unbroken")
    path = tmp_path / snapshot_file_name(0)
    model.save(path)
    first, second = SnapshotPool(tmp_path, 1, 1.0), SnapshotPool(tmp_path, 1, 1.0)
    observation, info = env.reset(seed=0)
    for pool in (first, second):
        pool.reset(0)
        pool.act(observation, info["action_mask"])
    assert first._policies[path] is second._policies[path] is cached_policy(path)
    assert not cached_policy(path).training
    stamp = path.stat().st_mtime_ns
    model.save(path)
    os.utime(path, ns=(stamp + 10**9, stamp + 10**9))  # a file written anew (its time may not tick on fast disks)
    assert cached_policy(path) is not first._policies[path]


def test_loading_a_snapshot_leaves_the_global_generators_as_they_were(tmp_path: Path) -> None:
    """sb3's load reseeds torch, numpy and Python and draws fresh weights: a learner must not see when a pool loads."""
    import random

    import torch

    model, _ = fresh_model("unbroken")
    path = tmp_path / snapshot_file_name(0)
    model.save(path)

    def draws() -> tuple[list[float], float, float]:
        return torch.rand(3).tolist(), float(np.random.random()), random.random()

    torch.manual_seed(11), np.random.seed(11), random.seed(11)
    expected = draws()
    torch.manual_seed(11), np.random.seed(11), random.seed(11)
    policy = cached_policy(path)
    assert draws() == expected
    assert not policy.training


def test_a_pickled_pool_drops_its_policies_and_plays_the_same(tmp_path: Path) -> None:
    """A checkpoint pickles the envs at every rollout: the pool's policies reload from their files instead."""
    model, env = fresh_model("unbroken")
    model.save(tmp_path / snapshot_file_name(0))
    pool = SnapshotPool(tmp_path, 1, 1.0)
    observation, info = env.reset(seed=3)
    pool.reset(3)
    pool.act(observation, info["action_mask"])
    twin = pickle.loads(pickle.dumps(pool))
    assert pool._policies and not twin._policies
    choices = [pool.act(observation, info["action_mask"]) for _ in range(20)]
    assert [twin.act(observation, info["action_mask"]) for _ in range(20)] == choices
    assert len(pickle.dumps(pool)) < 10_000


def test_sample_index_reads_one_number_from_the_generator() -> None:
    rng, twin = np.random.default_rng(1), np.random.default_rng(1)
    sample_index(np.array([0.25, 0.75]), rng)
    twin.random()
    assert rng.random() == twin.random()


def test_self_play_training_runs_without_distribution_checks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The learner's hot path (rollouts and updates) builds distributions unchecked; the default returns after."""
    from sb3_contrib import MaskablePPO
    from torch.distributions import Distribution

    from agents.training.maskable_ppo import train

    checked: list[bool] = []
    collect_rollouts, update = MaskablePPO.collect_rollouts, MaskablePPO.train

    def recording_rollouts(self: Any, *args: Any, **kwargs: Any) -> Any:
        checked.append(Distribution._validate_args)
        return collect_rollouts(self, *args, **kwargs)

    def recording_update(self: Any) -> None:
        checked.append(Distribution._validate_args)
        update(self)

    monkeypatch.setattr(MaskablePPO, "collect_rollouts", recording_rollouts)
    monkeypatch.setattr(MaskablePPO, "train", recording_update)
    before = Distribution._validate_args
    overrides = [
        "algo.n_steps=64",
        "algo.batch_size=64",
        "algo.n_epochs=1",
        "train.total_timesteps=128",
        "train.eval_interval=0",
        "train.checkpoint_interval=0",
        f"logging.run_root={tmp_path}",
    ]
    config = load_experiment_config(REPO_ROOT / "configs" / "card_duel" / "selfplay.yaml", overrides)
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    train(config, run_dir, progress_bar=False)
    assert len(checked) >= 2 and not any(checked)
    assert Distribution._validate_args == before
