"""The training benchmarks' own logic: exclusive section times, the breakdown of a short self-play run, its file."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from benchmarks import training_breakdown
from benchmarks.training_breakdown import SectionClock, keep_run, measure
from tests.training.training_support import REPO_ROOT

TOY_SELFPLAY = REPO_ROOT / "configs" / "card_duel" / "selfplay.yaml"


def test_a_nested_section_counts_for_itself_only(monkeypatch: pytest.MonkeyPatch) -> None:
    ticks = itertools.count(0, 10)
    monkeypatch.setattr(training_breakdown.time, "process_time_ns", lambda: next(ticks))
    clock = SectionClock()  # reads 0
    clock.enter("outer")  # 10: nothing open yet
    clock.enter("inner")  # 20: outer 10
    clock.leave()  # 30: inner 10
    clock.enter("inner")  # 40: outer 10 more
    clock.leave()  # 50: inner 10 more
    clock.leave()  # 60: outer 10 more
    assert clock.nanoseconds == {"outer": 30, "inner": 20}
    assert clock.calls == {"outer": 1, "inner": 2}


def test_a_self_play_run_is_split_into_every_part_and_kept_by_label(tmp_path: Path) -> None:
    settings = ["algo.n_steps=128", "algo.batch_size=64", "algo.n_epochs=1"]
    run, game = measure(TOY_SELFPLAY, 256, 0, "label", "command", settings)
    assert game == "card_duel" and run.steps == 256
    rows = {row.part: row for row in run.rows}
    for part in ("rules", "observation", "env glue", "rollout forward", "PPO update", "opponent: heuristic"):
        assert rows[part].calls > 0 and rows[part].cpu_seconds >= 0, part
    assert rows["PPO update"].calls == 1  # one rollout of 2 envs x 128 steps, one update
    assert "opponent: snapshot" in rows
    assert sum(row.share for row in run.rows) == pytest.approx(1.0, abs=0.01)
    stem = tmp_path / "card_duel_training_breakdown"
    assert len(keep_run(stem, run, game)) == 1
    assert len(keep_run(stem, run, game)) == 1  # the same label and command: replaced
    other = measure(TOY_SELFPLAY, 256, 1, "other label", "command", settings)[0]
    assert [kept.label for kept in keep_run(stem, other, game)] == ["label", "other label"]
    assert "## other label" in stem.with_suffix(".md").read_text(encoding="utf-8")
