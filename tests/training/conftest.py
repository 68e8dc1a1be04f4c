"""Fixtures of the training/evaluation tests: one tiny trained run per env id."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from agents.evaluation.environment import solo_env_ids
from envs.core.registration import discovered_games, game_record_of_env_id
from tests.training.training_support import TrainedRun, damaged_models, run_cli, tiny_training_config, write_yaml

SOLO_ENV_IDS_UNDER_ENVS = [
    env_id for env_id in solo_env_ids() if game_record_of_env_id(env_id).name in discovered_games()
]
"""The solo Gymnasium ids of the games under envs/, which a fresh train.py process finds by `import envs` (the toys'
solo id needs its package named first: test_solo_coop_routing.py trains on it)."""


@pytest.fixture
def one_torch_thread() -> Iterator[None]:
    """torch on one thread, as training's rollouts run (a test that compares operations, not thread scheduling)."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.fixture(scope="session", params=SOLO_ENV_IDS_UNDER_ENVS)
def trained_run(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> TrainedRun:
    """One tiny `python train.py` run per solo game's env id under envs/ (shared by the tests that read it;
    multi-player training is tested from its own configs in test_selfplay.py)."""
    env_id = request.param
    root = tmp_path_factory.mktemp("runs")
    config_path = write_yaml(root / "tiny.yaml", tiny_training_config(env_id, root / "runs"))
    result = run_cli("train.py", "--config", str(config_path), "--no-progress")
    assert result.returncode == 0, result.stderr
    (run_dir,) = (root / "runs").iterdir()
    return TrainedRun(env_id, run_dir, result.stdout)


@pytest.fixture
def copied_run(trained_run: TrainedRun, tmp_path: Path) -> TrainedRun:
    """A private copy of the trained run, for tests that resume or change it."""
    copy = tmp_path / trained_run.run_dir.name
    shutil.copytree(trained_run.run_dir, copy)
    return TrainedRun(trained_run.env_id, copy, trained_run.stdout)


@pytest.fixture(scope="session")
def damaged_model_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Model files that cannot be loaded, by what is wrong with them (training_support.damaged_models)."""
    return damaged_models(tmp_path_factory.mktemp("damaged_models"))
