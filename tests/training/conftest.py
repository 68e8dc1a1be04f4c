"""Fixtures of the training/evaluation tests: repo root on sys.path, one tiny trained run per env id."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
for folder in (HERE.parents[1], HERE):  # the repo root (agents, envs) and the helper modules beside this file
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from agents.environment import tabletop_env_ids  # noqa: E402
from training_support import run_cli, tiny_training_config, write_yaml  # noqa: E402


@pytest.fixture(scope="session", params=tabletop_env_ids())
def trained_run(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """(env id, run directory) of one tiny `python train.py` run per registered tabletop env id."""
    env_id = request.param
    root = tmp_path_factory.mktemp("runs")
    config_path = write_yaml(root / "tiny.yaml", tiny_training_config(env_id, root / "runs"))
    result = run_cli("train.py", "--config", str(config_path), "--no-progress")
    assert result.returncode == 0, result.stderr
    (run_dir,) = (root / "runs").iterdir()
    return env_id, run_dir


@pytest.fixture
def copied_run(trained_run: tuple[str, Path], tmp_path: Path) -> tuple[str, Path]:
    """A private copy of the trained run (tests that resume or modify it)."""
    env_id, run_dir = trained_run
    copy = tmp_path / run_dir.name
    shutil.copytree(run_dir, copy)
    return env_id, copy
