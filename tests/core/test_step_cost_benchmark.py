"""benchmarks/step_cost.py runs on a game registered outside envs/, and its parts add up (no timing asserted)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import step_cost


def test_step_cost_parts_add_up_to_the_timed_aec_step(tmp_path: Path) -> None:
    stem = tmp_path / "report"
    arguments = ["--game", "envs.toys:card_duel", "--kwargs", "num_players=3", "--seconds", "0.2", "--rounds", "1"]
    assert step_cost.main([*arguments, "--out", str(stem)]) == 0
    document = json.loads(stem.with_suffix(".json").read_text(encoding="utf-8"))
    costs = document["us_per_decision"]
    assert list(costs) == ["rules", "mask", "observation", "adapter and loop"]
    assert costs["rules"] > 0 and document["reference_step_us"] > 0
    assert sum(costs.values()) == pytest.approx(document["aec_step_us"])
    table = stem.with_suffix(".md").read_text(encoding="utf-8")
    assert f"| whole AEC step | {document['aec_step_us']:.1f} | 100% |" in table
    share = costs["rules"] / document["aec_step_us"]
    assert f"| rules | {costs['rules']:.1f} | {share:.0%} |" in table


def test_step_cost_names_an_unknown_game(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        step_cost.main(["--game", "no_such_game", "--seconds", "0.1"])
    assert stop.value.code == 2
    assert "unknown game 'no_such_game'" in capsys.readouterr().err
