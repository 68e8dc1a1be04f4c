"""benchmarks/reference_table.py with a tiny budget (the real run is long and done by hand)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from training_support import REPO_ROOT, TrainedRun


def load_reference_table() -> object:
    """Import the benchmark script as a module."""
    spec = importlib.util.spec_from_file_location("reference_table", REPO_ROOT / "benchmarks" / "reference_table.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_reference_table_writes_every_agent_at_every_difficulty(trained_run: TrainedRun, tmp_path: Path) -> None:
    if trained_run.env_id != "tabletop/Unbroken-v0":
        pytest.skip("the reference table is Unbroken's")
    reference_table = load_reference_table()
    arguments = ["--episodes", "2", "--mcts-episodes", "1", "--mcts-simulations", "3", "--out-dir", str(tmp_path)]
    assert reference_table.main([*arguments, "--model", str(trained_run.run_dir)]) == 0
    rows = json.loads((tmp_path / "unbroken_reference.json").read_text())["rows"]
    agents = ["random", "heuristic", "mcts:3", trained_run.run_dir.name]
    assert [(row["difficulty"], row["agent"]) for row in rows] == [
        (difficulty, agent) for difficulty in ("easy", "normal", "hard") for agent in agents
    ]
    assert [row["episodes"] for row in rows[:4]] == [2, 2, 1, 2]
    table_lines = [
        line for line in (tmp_path / "unbroken_reference.md").read_text().splitlines() if line.startswith("| ")
    ]
    assert len(table_lines) == 1 + len(rows)  # header + one line per row (the |---| line starts with "|-")


def test_mcts_curve_pairs_every_budget_with_the_heuristic_on_the_same_seeds(tmp_path: Path) -> None:
    """benchmarks/mcts_curve.py: one point per budget, paired win/loss counts against the heuristic's episodes."""
    spec = importlib.util.spec_from_file_location("mcts_curve", REPO_ROOT / "benchmarks" / "mcts_curve.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--simulations", "1", "2", "--episodes", "2", "--out-dir", str(tmp_path)]) == 0
    points = json.loads((tmp_path / "unbroken_mcts_curve.json").read_text())["points"]
    assert [(p["agent"], p["simulations"], p["episodes"]) for p in points] == [
        ("heuristic", 0, 2),
        ("mcts:1", 1, 2),
        ("mcts:2", 2, 2),
    ]
    assert points[0]["won_where_heuristic_lost"] == points[0]["lost_where_heuristic_won"] == 0
    for point in points[1:]:  # paired counts explain the difference in wins exactly
        wins_difference = round((point["win_rate"] - points[0]["win_rate"]) * 2)
        assert point["won_where_heuristic_lost"] - point["lost_where_heuristic_won"] == wins_difference
    assert "| mcts:2 | 2 | 2 |" in (tmp_path / "unbroken_mcts_curve.md").read_text()
