"""The main job's check (benchmarks/main_job.py): a regenerated closing table is compared with the shipped one deal by
deal, and every difference is named, so CI fails when the main job's published figures no longer hold."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from benchmarks.main_job import differences, figures, markdown


def closing_results(run_dir: Path, wins: dict[str, list[int]]) -> None:
    """A run directory's final_evaluation/results.json with the given agents' outcomes (final model first)."""
    groups = []
    for agent, won in wins.items():
        groups.append(
            {
                "agent": agent,
                "env_id": "tabletop/Example-v0",
                "summary": {
                    "episodes": len(won),
                    "win_rate": sum(won) / len(won),
                    "win_rate_ci95": [0.0, 1.0],
                    "mean_score": float(sum(won)),
                    "mean_length": 10.0,
                },
                "episodes": [{"won": bool(w)} for w in won],
            }
        )
    folder = run_dir / "final_evaluation"
    folder.mkdir(parents=True)
    (folder / "results.json").write_text(json.dumps({"results": groups}))


def document(run_dir: Path) -> dict[str, Any]:
    """The report's document as the benchmark builds it."""
    return {"config": "game/maskable_ppo.yaml", "seconds": 60.0, **figures(run_dir)}


def test_the_same_outcomes_on_every_deal_pass_and_one_changed_deal_is_named(tmp_path: Path) -> None:
    """Identical runs give no difference; one deal won by the final model in one run and lost in the other is named
    with the agent, the changed win rate and the deal."""
    wins = {"runs/r": [1, 0, 1, 1], "runs/r/pretrained_model.zip": [1, 0, 0, 1], "random": [0, 0, 0, 0]}
    closing_results(tmp_path / "a", wins)
    closing_results(tmp_path / "b", {**wins, "runs/r": [1, 0, 0, 1]})
    shipped, same, moved = document(tmp_path / "a"), document(tmp_path / "a"), document(tmp_path / "b")
    assert differences(shipped, same) == []
    problems = differences(shipped, moved)
    assert "final model.win_rate: shipped 0.75, regenerated 0.5" in problems
    assert "final model.won: 1 deals differ (first: deal 2)" in problems


def test_the_report_states_the_ppo_phase_against_the_pretrained_start(tmp_path: Path) -> None:
    """The report's closing table lists every agent and the paired difference of the final and pretrained models."""
    wins = {"runs/r": [1, 1, 0, 1], "runs/r/pretrained_model.zip": [1, 0, 0, 0], "heuristic": [1, 1, 1, 0]}
    closing_results(tmp_path / "a", wins)
    text = markdown(document(tmp_path / "a"))
    assert "| final model | 4 | 75.0% |" in text and "| pretrained model | 4 | 25.0% |" in text
    assert "| heuristic | 4 | 75.0% |" in text
    assert "+50.0 points" in text
