"""Terminal play (agents.play) driven by scripted input."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from agents.play import choose_action, find_env_id, outcome_line, play
from agents.random_agent import RandomAgent


def scripted(answers: list[str]) -> tuple[Callable[[str], str], list[str]]:
    """A read_line that returns `answers` in order, and the list that collects written lines."""
    pending = iter(answers)
    written: list[str] = []

    def read_line(prompt: str) -> str:
        return next(pending)

    return read_line, written


def test_choose_action_insists_on_a_listed_number_and_gives_hints() -> None:
    read_line, written = scripted(["x", "0", "4", "h", "2"])
    action = choose_action([5, 9, 12], ["a", "b", "c"], read_line, written.append, hint=lambda: 12)
    assert action == 9
    assert written.count("please type a number from 1 to 3") == 3
    assert "hint: [3] c" in written
    assert "  [2] b  (action 9)" in written
    read_line, written = scripted(["q"])
    assert choose_action([5], ["a"], read_line, written.append, hint=None) is None


def test_play_runs_a_whole_game_with_labels_and_render() -> None:
    answers = iter(lambda: "1", None)  # always the first listed action
    written: list[str] = []
    info = play(
        find_env_id("unbroken"),
        {},
        seed=3,
        hint_agent=RandomAgent(),
        read_line=lambda _: next(answers),
        write=written.append,
    )
    assert info is not None and "won" in info
    assert written[-1].startswith("game over: you ")
    assert any(line.startswith("> ") for line in written)  # the chosen action's label is echoed
    assert find_env_id("tabletop/Unbroken-v0") == "tabletop/Unbroken-v0"


def test_games_are_found_by_record_name_and_report_their_outcome_facts() -> None:
    assert find_env_id("Unbroken") == "tabletop/Unbroken-v0"
    with pytest.raises(SystemExit, match=r"unknown game 'chess'; known games: .*\bunbroken\b"):
        find_env_id("chess")
    info = {"won": True, "score": 40, "title": "Nemesis", "level": 4, "end_reason": ""}
    assert outcome_line("tabletop/Unbroken-v0", info) == "game over: you won, score 40, title 'Nemesis', level 4"
    assert outcome_line("other/Game-v0", info) == "game over: you won, score 40"  # no record, no facts
