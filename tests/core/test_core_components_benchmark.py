"""benchmarks/core_components.py times every subject and finds the default sampler picking as the reference does."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks import core_components


def test_core_components_report_lists_every_subject_and_the_samplers_agree(tmp_path: Path) -> None:
    stem = tmp_path / "report"
    arguments = ["--card-ids", "20", "--number", "50", "--rounds", "1", "--out", str(stem)]
    assert core_components.main(arguments) == 0
    document = json.loads(stem.with_suffix(".json").read_text(encoding="utf-8"))
    figures = document["us_per_call"]
    assert set(figures) == {
        "draw (unknown part, 20 card ids)",
        "put_on_bottom (20 card ids)",
        "draw_outcomes (20 card ids)",
        "sample_chance (two outcomes)",
        "sample_chance (20 outcomes)",
    }
    assert all(value > 0 for calls in figures.values() for value in calls.values())
    assert document["samplers_agree"] is True
    assert "| sample_chance (two outcomes) |" in stem.with_suffix(".md").read_text(encoding="utf-8")
