"""The benchmarks read Runebound, a solo game with a Gymnasium env and no PettingZoo module (no timing asserted)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import learning_curve, step_cost
from tests.training.training_support import run_cli, tiny_training_config, write_yaml


@pytest.mark.parametrize("clock", ["wall", "process"])
def test_step_cost_times_a_solo_game_through_its_gymnasium_env(tmp_path: Path, clock: str) -> None:
    stem = tmp_path / "report"
    arguments = [
        "--game",
        "runebound_combat",
        "--seconds",
        "0.05",
        "--rounds",
        "1",
        "--clock",
        clock,
        "--out",
        str(stem),
    ]
    assert step_cost.main(arguments) == 0
    document = json.loads(stem.with_suffix(".json").read_text(encoding="utf-8"))
    costs = document["us_per_decision"]
    assert list(costs) == ["rules", "mask", "observation", "adapter and loop"]
    assert document["clock"] == clock and "aec_step_us" not in document
    assert sum(costs.values()) == pytest.approx(document["gym_step_us"])
    markdown = stem.with_suffix(".md").read_text(encoding="utf-8")
    assert "| whole Gymnasium step |" in markdown
    assert ("--clock process" in markdown) == (clock == "process")


def test_learning_curve_of_a_solo_run_reads_every_model_beside_the_reference(tmp_path: Path) -> None:
    """A tiny train.py run on the combat: the curve has the reference's row, then the checkpoints and the final model,
    each with a win rate and a mean return on the same seeded episodes."""
    config = tiny_training_config("tabletop/RuneboundCombat-v0", tmp_path / "runs")
    config["train"]["final_eval_episodes"] = 0
    result = run_cli("train.py", "--config", str(write_yaml(tmp_path / "tiny.yaml", config)), "--no-progress")
    assert result.returncode == 0, result.stderr
    (run_dir,) = (tmp_path / "runs").iterdir()
    stem = tmp_path / "curve"
    arguments = ["--run", str(run_dir), "--deals", "6", "--workers", "1", "--out", str(stem)]
    assert learning_curve.main(arguments) == 0
    document = json.loads(stem.with_suffix(".json").read_text(encoding="utf-8"))
    rows = document["rows"]
    assert [row["model"] for row in rows] == ["heuristic", "256 steps", "512 steps", "final"]
    for row in rows:
        assert row["games"] == 6
        low, high = row["return_ci95"]
        assert -1.0 <= low <= row["mean_return"] <= high
        assert row["ci95"][0] <= row["win_rate"] <= row["ci95"][1]
    assert document["command"].startswith("python -m benchmarks.learning_curve --run ")
    assert "| heuristic |" in stem.with_suffix(".md").read_text(encoding="utf-8")


def test_the_learning_curve_thins_the_checkpoints_keeping_the_last_the_pretrained_and_the_final(tmp_path: Path) -> None:
    """`--every 3` plays every third checkpoint counted back from the last, so the newest is always among them."""
    (tmp_path / "checkpoints").mkdir()
    for steps in range(1, 8):
        (tmp_path / "checkpoints" / f"model_{steps * 1000}_steps.zip").write_bytes(b"")
    for name in ("pretrained_model.zip", "final_model.zip"):
        (tmp_path / name).write_bytes(b"")
    labels = [label for label, _, _ in learning_curve.run_models(tmp_path, every=3)]
    assert labels == ["pretrained", "1000 steps", "4000 steps", "7000 steps", "final"]
    assert len(learning_curve.run_models(tmp_path)) == 9
