"""The benchmarks (run as modules, `python -m benchmarks.X --game GAME`) with tiny budgets; real runs are by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import balance, mcts_curve, reference_table, throughput
from envs.core.registration import discovered_games, game_record
from tests.training.training_support import REPO_ROOT, TrainedRun, run_cli

DIFFICULTY_SWEEP = ["--sweep", "difficulty=easy,normal,hard"]


@pytest.mark.parametrize("trained_run", ["tabletop/Unbroken-v0"], indirect=True)  # the reference table is Unbroken's
def test_reference_table_writes_every_agent_at_every_difficulty(trained_run: TrainedRun, tmp_path: Path) -> None:
    arguments = ["--episodes", "2", "--mcts-episodes", "1", "--mcts-simulations", "3", "--out-dir", str(tmp_path)]
    arguments += ["--game", "unbroken", *DIFFICULTY_SWEEP]
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
    arguments = ["--game", "unbroken", "--simulations", "1", "2", "--episodes", "2", "--out-dir", str(tmp_path)]
    assert mcts_curve.main(arguments) == 0
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


def test_balance_sweeps_the_records_main_setting_and_counts_outcome_facts(tmp_path: Path) -> None:
    """Issue 33: balance sweeps are declared per record, "the main axis in full, the others at their default"."""
    out = tmp_path / "balance.json"
    assert balance.main(["--game", "unbroken", "--games", "3", "--out", str(out)]) == 0
    report = json.loads(out.read_text())
    record = game_record("unbroken")
    assert record.main_setting == "difficulty" and len(record.settings) > 1  # a setting is left at its default
    settings = [row["setting"] for row in report["results"]]
    expected = [{"difficulty": difficulty} for difficulty in record.settings["difficulty"]]
    assert settings == expected * 2  # random, then heuristic
    assert [row["agent"] for row in report["results"]] == ["random"] * 3 + ["heuristic"] * 3
    for row in report["results"]:
        assert row["games"] == 3
        for fact in record.outcome_facts:
            assert sum(row[f"{fact}_distribution"].values()) == 3


def test_balance_sweep_narrows_the_settings_and_repeats_per_seed(tmp_path: Path) -> None:
    runs = []
    for name in ("a.json", "b.json"):
        arguments = ["--game", "unbroken", "--games", "4", "--agents", "heuristic", "--sweep", "difficulty=easy"]
        assert balance.main([*arguments, "--out", str(tmp_path / name)]) == 0
        runs.append(json.loads((tmp_path / name).read_text())["results"])
    assert [row["setting"] for row in runs[0]] == [{"difficulty": "easy"}]
    strip = [{key: value for key, value in row.items() if key != "seconds"} for row in runs[0]]
    assert strip == [{key: value for key, value in row.items() if key != "seconds"} for row in runs[1]]


def test_benchmarks_run_as_modules_and_name_unknown_games(tmp_path: Path) -> None:
    out = ["--out", str(tmp_path / "throughput")]  # never over the committed results
    result = run_cli("-m", "benchmarks.throughput", "--game", "unbroken", "--seconds", "0.05", "--rounds", "1", *out)
    assert result.returncode == 0, result.stderr
    assert "tabletop/Unbroken-v0 unwrapped:" in result.stdout and "connect_four_v3.raw_env():" in result.stdout
    result = run_cli("-m", "benchmarks.balance", "--game", "monopoly")
    assert result.returncode == 2
    known = ", ".join(sorted(discovered_games()))
    assert f"unknown game 'monopoly'; known games: {known}" in result.stderr
    assert throughput.main(["--game", "unbroken", "--seconds", "0.02", "--rounds", "1", *out]) == 0
    assert (REPO_ROOT / "benchmarks" / "__init__.py").is_file()
