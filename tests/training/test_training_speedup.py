"""benchmarks.training_speedup trains a recipe at an earlier commit and at the checkout, each with its own code."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from benchmarks import training_speedup

TINY_RECIPE = "tests/training/card_duel_tiny_selfplay.yaml"
"""The toy's self-play recipe at a test's size (one rollout, one epoch), a committed file: both trees read it."""


def test_both_sides_train_with_their_own_trees_code_and_the_report_names_the_ratio(tmp_path: Path) -> None:
    """The baseline side runs in a worktree of the commit (its `agents` imported from there), the checkout's side here;
    each trains the same number of learner steps; the report's ratio is the medians' ratio."""
    head = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=training_speedup.REPO_ROOT, capture_output=True, text=True
    ).stdout.strip()
    stem = tmp_path / "speedup"
    arguments = ["--config", TINY_RECIPE, "--baseline", head, "--steps", "256", "--rounds", "1"]
    assert training_speedup.main([*arguments, "--out", str(stem)]) == 0
    document = json.loads(stem.with_suffix(".json").read_text(encoding="utf-8"))
    baseline, checkout = document["sides"]
    assert baseline["label"] == f"{head} (baseline)"
    for side in (baseline, checkout):
        assert side["steps"][0] >= 256 and side["wall_seconds"][0] > 0
    rates = [side["steps"][0] / side["wall_seconds"][0] for side in (baseline, checkout)]
    assert document["ratio"] == rates[1] / rates[0]
    assert f"**{document['ratio']:.2f}x**" in stem.with_suffix(".md").read_text(encoding="utf-8")
    worktrees = subprocess.run(
        ["git", "worktree", "list"], cwd=training_speedup.REPO_ROOT, capture_output=True, text=True
    ).stdout
    assert "training_speedup_" not in worktrees, "the baseline's worktree is removed afterwards"
