"""The benchmarks on Unstoppable run and report sound figures (no timing asserted): the step cost of a solo
Gymnasium game, the state fuzz with the game's invariants, and the game-length measurement behind the episode bound."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import state_fuzz, step_cost, unstoppable_game_length
from envs.unstoppable.cards import load_unstoppable_cards
from envs.unstoppable.game import MAX_GAME_LENGTH


def test_step_cost_times_the_gymnasium_step_of_a_game_without_pettingzoo(tmp_path: Path) -> None:
    """A solo game has no PettingZoo module: its env step is a Gymnasium `env.step`, and the parts add up to it."""
    stem = tmp_path / "report"
    arguments = ["--game", "unstoppable", "--kwargs", "difficulty=hard", "--seconds", "0.2", "--rounds", "1"]
    assert step_cost.main([*arguments, "--out", str(stem)]) == 0
    document = json.loads(stem.with_suffix(".json").read_text(encoding="utf-8"))
    assert "gym_step_us" in document and "aec_step_us" not in document
    costs = document["us_per_decision"]
    assert list(costs) == ["rules", "mask", "observation", "adapter and loop"]
    assert sum(costs.values()) == pytest.approx(document["gym_step_us"])
    assert "| whole Gymnasium step |" in stem.with_suffix(".md").read_text(encoding="utf-8")


def test_state_fuzz_refuses_or_accepts_soundly_with_the_games_invariants(tmp_path: Path) -> None:
    """Mutated saved states are refused naming a field, or accepted as positions that pass every check: nothing
    raises another error, nothing accepted is invalid, and every unmutated state passes (the control)."""
    stem = tmp_path / "fuzz"
    arguments = ["--game", "unstoppable", "--kwargs", "difficulty=expert", "--games", "2", "--states", "15"]
    arguments += ["--mutations", "8", "--steps", "15", "--invariants", "tests.unstoppable.invariants:state_invariants"]
    assert state_fuzz.main([*arguments, "--out", str(stem)]) == 0
    (setting,) = json.loads(stem.with_suffix(".json").read_text(encoding="utf-8"))["settings"].values()
    assert setting["mutated"] == 120 and setting["control_states"] == 15 and not setting["control_failures"]
    assert setting["classes"]["raised something else"] == 0 and setting["classes"]["accepted though invalid"] == 0
    assert setting["classes"]["refused"] > 80


def test_game_length_report_states_the_bound(tmp_path: Path) -> None:
    """The measurement writes every (boss, difficulty, policy) row and compares the bound it implies with
    MAX_GAME_LENGTH."""
    stem = tmp_path / "length"
    assert unstoppable_game_length.main(["--games", "5", "--out", str(stem)]) == 0
    document = json.loads(stem.with_suffix(".json").read_text(encoding="utf-8"))
    bosses = load_unstoppable_cards().bosses.names
    rows = {(row["boss"], row["difficulty"], row["policy"]) for row in document["rows"]}
    assert len(rows) == len(document["rows"]) == len(bosses) * 3 * 2 and {row[0] for row in rows} == set(bosses)
    assert document["max_game_length"] == MAX_GAME_LENGTH
    assert document["practical_bound"] == unstoppable_game_length.practical_bound(document["longest"])
    assert document["practical_bound"] >= unstoppable_game_length.FACTOR * document["longest"]
