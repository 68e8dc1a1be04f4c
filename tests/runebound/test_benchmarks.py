"""The benchmarks read Runebound, a solo game with a Gymnasium env and no PettingZoo module (no timing asserted)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import step_cost


@pytest.mark.parametrize("clock", ["wall", "process"])
def test_step_cost_times_a_solo_game_through_its_gymnasium_env(tmp_path: Path, clock: str) -> None:
    stem = tmp_path / "report"
    arguments = ["--game", "runebound", "--seconds", "0.05", "--rounds", "1", "--clock", clock, "--out", str(stem)]
    assert step_cost.main(arguments) == 0
    document = json.loads(stem.with_suffix(".json").read_text(encoding="utf-8"))
    costs = document["us_per_decision"]
    assert list(costs) == ["rules", "mask", "observation", "adapter and loop"]
    assert document["clock"] == clock and "aec_step_us" not in document
    assert sum(costs.values()) == pytest.approx(document["gym_step_us"])
    markdown = stem.with_suffix(".md").read_text(encoding="utf-8")
    assert "| whole Gymnasium step |" in markdown
    assert ("--clock process" in markdown) == (clock == "process")
