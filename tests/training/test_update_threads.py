"""benchmarks.update_threads times a PPO update per spin setting, load and thread count, each in a fresh process."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from agents.common.config import OPENMP_SPIN_COUNT
from benchmarks import update_threads
from tests.training.training_support import REPO_ROOT, write_yaml

TINY_UPDATE = {"n_steps": 64, "batch_size": 64, "n_epochs": 1, "policy_kwargs": {"net_arch": [16]}}
"""A rollout and an update of a fraction of a second: the test checks which process measured what, not the times."""


def test_each_spin_setting_reaches_its_measuring_process_and_the_table_lists_them(tmp_path: Path) -> None:
    """The default spin (GOMP_SPINCOUNT unset) and train.py's are timed apart; a busy process runs beside one load."""
    stem = tmp_path / "threads"
    recipe = yaml.safe_load((REPO_ROOT / "configs" / "card_duel" / "selfplay.yaml").read_text(encoding="utf-8"))
    recipe["algo"].update(TINY_UPDATE)
    config = write_yaml(tmp_path / "selfplay.yaml", recipe)
    arguments = ["--config", str(config), "--threads", "1", "--loads", "0", "1", "--repeats", "1", "--out", str(stem)]
    assert update_threads.main(arguments) == 0
    document = json.loads(stem.with_suffix(".json").read_text(encoding="utf-8"))
    settings = [(t["gomp_spincount"], t["busy_processes"], t["threads"]) for t in document["timings"]]
    assert settings == [(None, 0, 1), (None, 1, 1), (OPENMP_SPIN_COUNT, 0, 1), (OPENMP_SPIN_COUNT, 1, 1)]
    assert all(timing["seconds"] > 0 for timing in document["timings"])
    markdown = stem.with_suffix(".md").read_text(encoding="utf-8")
    assert "| libgomp's default (unset) | 1 |" in markdown and f"| train.py's ({OPENMP_SPIN_COUNT}) | 0 |" in markdown
