"""Terminal play (agents.evaluation.play) driven by scripted input: solo games, and a seat of a multi-player game."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from agents.evaluation import play as play_module
from agents.evaluation.play import (
    HUMAN,
    INTERRUPTED_EXIT_CODE,
    ONLY_CHOICE,
    REPORT_INDENT,
    UNCHANGED_REST,
    UNCHANGED_VIEW,
    USAGE_EXIT_CODE,
    ViewWriter,
    choose_action,
    find_env_id,
    main,
    outcome_line,
    play,
    play_table,
    seat_table,
)
from agents.players.random_agent import RandomAgent
from envs import replay
from envs.core.game import CHANCE, Observer, State
from envs.core.registration import UnknownGameError
from envs.core.replays import read_record
from tests.training.training_support import DAMAGED_MODEL_REASONS

CARD_DUEL = "envs.toys:tabletop/card_duel_v0"
"""Card Duel's PettingZoo id, with the package that registers it."""


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


def counting_first(prompts: list[str]) -> Callable[[str], str]:
    """A read_line that always answers "1" (the first listed action) and collects the prompts it was asked."""

    def read_line(prompt: str) -> str:
        prompts.append(prompt)
        return "1"

    return read_line


def test_a_choice_with_one_legal_action_is_taken_without_asking_and_said_so() -> None:
    """The person is asked only when there is something to choose; a forced move is echoed with ONLY_CHOICE."""
    for arguments in (["unbroken", "--seed", "3"], [CARD_DUEL, "--seed", "2", "--opponent", "heuristic"]):
        prompts: list[str] = []
        written: list[str] = []
        assert main(arguments, counting_first(prompts), written.append) == 0
        moves = [line for line in written if line.startswith("> ")]
        forced = [line for line in moves if line.endswith(f"  {ONLY_CHOICE}")]
        assert forced, f"{arguments[0]}: no forced move in this game (pick a seed that has one)"
        assert len(prompts) == len(moves) - len(forced)
        for line in forced:  # nothing was listed to choose from right before a forced move
            assert not written[written.index(line) - 1].startswith("  [1] ")


def test_every_event_is_followed_by_what_the_observer_reports(monkeypatch: pytest.MonkeyPatch) -> None:
    """The generic hook: `Observer.report` lines are written, indented, under the event they describe: the
    person's own moves, the other seats' moves and chance outcomes alike."""
    table = seat_table(CARD_DUEL, {}, 0, ["random"])
    observer_class = type(table.game.observer(0))

    def report(self: Observer, before: State, player: int, action: int, after: State) -> list[str]:
        return [f"reported {player}:{action}"]

    monkeypatch.setattr(observer_class, "report", report)
    written: list[str] = []
    play_table(table, 5, None, always("1"), written.append)
    end = next(index for index, line in enumerate(written) if line.startswith("game over: "))
    reports = [index for index, line in enumerate(written) if line.startswith(f"{REPORT_INDENT}reported ")]
    events = [index for index, line in enumerate(written[:end]) if line.startswith(("> ", "  chance: ", "  seat "))]
    assert len(reports) == len(events) == len(table.env.history)
    for event, reported in zip(events, reports, strict=True):
        assert reported == event + 1  # right under its event


def test_unbroken_choices_are_listed_by_name_and_moves_report_what_happened() -> None:
    """A person who knows the rulebook sees each choice by its card's, skill's or attack's name, and after each
    move the roll and its row, and what was gained and lost."""
    written: list[str] = []
    assert main(["unbroken", "--seed", "3"], always("1"), written.append) == 0
    listed = [line for line in written if line.startswith("  [")]
    assert any(re.match(r"  \[1\] choose card 1: [^:]+: spend .* -> gain .*, costs \d+ time", line) for line in listed)
    assert any(re.match(r"  \[\d\] attack with Bare Hands: \d+ small effort -> \d+ wound", line) for line in listed)
    reports = [line.removeprefix(REPORT_INDENT) for line in written if line.startswith(REPORT_INDENT)]
    assert any(re.match(r"the monster's roll lands on row \d: ", line) for line in reports)
    assert any(re.match(r"small effort \d+ -> \d+", line) for line in reports)
    assert any(line.startswith("you lost: ") or line.startswith("you won: ") for line in reports)


def test_games_are_found_by_record_name_and_report_their_outcome_facts() -> None:
    assert find_env_id("Unbroken") == "tabletop/Unbroken-v0"
    assert find_env_id("card_duel") == "tabletop/card_duel_v0"  # a multi-player game: its PettingZoo id
    assert find_env_id(CARD_DUEL) == CARD_DUEL
    with pytest.raises(UnknownGameError, match=r"unknown game 'chess'; known games: .*\bunbroken\b"):
        find_env_id("chess")
    info = {"won": True, "score": 40, "title": "Nemesis", "level": 4, "end_reason": ""}
    assert outcome_line("tabletop/Unbroken-v0", info) == "game over: you won, score 40, title 'Nemesis', level 4"
    assert outcome_line("other/Game-v0", info) == "game over: you won, score 40"  # no record, no facts


def always(answer: str) -> Callable[[str], str]:
    """A read_line that answers `answer` at every prompt."""
    return lambda _: answer


def answers_then_first(answers: list[str]) -> Callable[[str], str]:
    """A read_line that gives `answers` in order, then always "1" (the first listed action)."""
    pending: Iterator[str] = iter(answers)
    return lambda _: next(pending, "1")


def test_a_seat_against_heuristic_opponents_plays_to_the_end(tmp_path: Path) -> None:
    """Seat 1 of 3 against the heuristic: the person sees their own view, every opponent decision and every chance
    outcome between their moves (Card Duel rule 2: chance draws who leads each trick), and every seat's rank.
    Rule 1, "Hands are private": the cards dealt to the other seats are never named."""
    written: list[str] = []
    table = seat_table(CARD_DUEL, {"num_players": 3}, 1, ["heuristic"])
    record_path = tmp_path / "game.json"
    info = play_table(table, 4, None, always("1"), written.append, record_path)
    assert info is not None and info["seat"] == 1
    assert written[0] == "you play seat 1 of 3: seat 0 heuristic, seat 1 human, seat 2 heuristic"
    assert all(line.startswith("card duel (seat 1)") for line in written if line.startswith("card duel ("))
    # What was told between the moves is exactly the recorded events of chance and of the other seats, in order.
    record = read_record(record_path)
    end = written.index(next(line for line in written if line.startswith("game over: you (seat 1) ")))
    told = [line for line in written[:end] if line.startswith(("  chance: ", "  seat "))]
    others = [(player, action) for player, action in record.events if player != 1]
    assert len(told) == len(others)
    for line, (player, action) in zip(told, others, strict=True):
        if player == CHANCE:
            assert re.fullmatch(
                r"  chance: (deal card \d+ \(rank \d+\) to seat 1|a card is dealt to seat [02]|seat \d leads)", line
            )
        else:
            label = table.game.action_label(action)
            assert line == f"  seat {player} (heuristic): {label}"
    moves = [line for line in written if line.startswith("> ")]
    assert len(moves) == sum(player == 1 for player, _ in record.events)
    # The end: the person's result, then every seat's result, score and rank.
    assert [line.split(":")[0] for line in written[end + 1 : end + 4]] == [
        "  seat 0 (heuristic)",
        "  seat 1 (human)",
        "  seat 2 (heuristic)",
    ]
    assert all(re.search(r"score \d+, rank [1-3]$", line) for line in written[end + 1 : end + 4])
    assert record.players == ["heuristic", HUMAN, "heuristic"] and record.result is not None
    assert record.result.terminal and replay.main([str(record_path), "--render", "none"]) == 0


def test_one_opponent_spec_per_other_seat_and_hints_read_the_live_state(capsys: pytest.CaptureFixture) -> None:
    """`--opponent` once per other seat, in seat order; the hint agent gets `state=` the live state (the Card Duel
    heuristic asserts it reads a CardDuelState)."""
    written: list[str] = []
    arguments = [CARD_DUEL, "--env-kwarg", "num_players=3", "--seat", "0", "--seed", "2", "--hint", "heuristic"]
    arguments += ["--opponent", "random", "--opponent", "heuristic"]
    assert main(arguments, answers_then_first(["h"]), written.append) == 0
    assert written[0] == "you play seat 0 of 3: seat 0 human, seat 1 random, seat 2 heuristic"
    assert any(line.startswith("hint: [") for line in written)
    assert any(line.startswith("game over: you (seat 0) ") for line in written)
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            [CARD_DUEL, "--env-kwarg", "num_players=3", "--seat", "5"],
            "--seat 5: card_duel with 3 players has seats 0..2",
        ),
        ([CARD_DUEL, "--seat", "-1"], "--seat -1: card_duel with 2 players has seats 0..1"),
        ([CARD_DUEL, "--opponent", "alphazero"], "unknown agent 'alphazero'"),
        ([CARD_DUEL, "--env-kwarg", "num_players=4", "--opponent", "random", "--opponent", "random"], "one per other"),
        (["unbroken", "--seat", "1"], "tabletop/Unbroken-v0 is a solo game: it has no seats to choose"),
        (["unbroken", "--opponent", "random"], "tabletop/Unbroken-v0 is a solo game"),
        (["chess"], "unknown game 'chess'"),
    ],
)
def test_bad_seats_and_opponents_are_refused_with_one_line(
    arguments: list[str], message: str, capsys: pytest.CaptureFixture
) -> None:
    written: list[str] = []
    assert main(arguments, always("1"), written.append) == USAGE_EXIT_CODE
    error = capsys.readouterr().err
    assert error.startswith("error: ") and message in error and error.count("\n") == 1
    assert written == []  # refused before the game starts


def test_ctrl_c_ends_with_one_line_and_status_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    def interrupt(*arguments: object) -> str:
        raise KeyboardInterrupt

    for arguments in ([CARD_DUEL, "--seat", "1"], ["unbroken"]):
        written: list[str] = []
        assert main(arguments, interrupt, written.append) == INTERRUPTED_EXIT_CODE
        assert written[-1] == "\ninterrupted"
        assert capsys.readouterr().err == ""
    # Ctrl-C while the game and its agents are set up (a model or a search agent may take a while to build).
    monkeypatch.setattr(play_module, "make_agent", interrupt)
    written = []
    assert main(["unbroken", "--hint", "mcts:50"], always("1"), written.append) == INTERRUPTED_EXIT_CODE
    assert written == ["\ninterrupted"] and capsys.readouterr().err == ""


@pytest.mark.parametrize("damage", sorted(DAMAGED_MODEL_REASONS))
def test_a_model_that_cannot_be_loaded_is_refused_with_one_line(
    damage: str, damaged_model_files: dict[str, Path], capsys: pytest.CaptureFixture
) -> None:
    model = damaged_model_files[damage]
    for arguments in (["unbroken", "--hint", str(model)], [CARD_DUEL, "--opponent", str(model)]):
        written: list[str] = []
        assert main(arguments, always("1"), written.append) == USAGE_EXIT_CODE
        error = capsys.readouterr().err
        assert error.startswith(f"error: cannot load {model}: {DAMAGED_MODEL_REASONS[damage]}")
        assert error.count("\n") == 1 and "weights_only" not in error
        assert written == []


def test_bad_mcts_specs_are_refused_naming_the_spec(capsys: pytest.CaptureFixture) -> None:
    for spec in ("mcts:0", "mcts:-3", "mcts:abc"):
        assert main(["unbroken", "--hint", spec], always("1"), [].append) == USAGE_EXIT_CODE
        error = capsys.readouterr().err
        assert error.startswith(f"error: agent '{spec}': mcts:N needs a whole number") and error.count("\n") == 1


def test_record_writes_a_replay_record_for_solo_and_multiplayer_games(tmp_path: Path) -> None:
    """`--record FILE` writes the rules-core replay record that `python -m envs.replay FILE` replays (exit 0)."""
    for name, arguments in (
        ("solo.json", ["unbroken", "--seed", "3"]),
        ("duel.json", ["card_duel", "--env-kwarg", "num_players=3", "--seat", "2", "--opponent", "heuristic"]),
        ("quit.json", [CARD_DUEL, "--seed", "1"]),
    ):
        path = tmp_path / name
        written: list[str] = []
        answers = ["1", "q"] if name == "quit.json" else []
        assert main([*arguments, "--record", str(path)], answers_then_first(answers), written.append) == 0
        assert written[-1] == f"record: {path} (replay: python -m envs.replay {path})"
        record = read_record(path)
        assert record.result is not None and record.result.terminal == (name != "quit.json")  # quitting: unfinished
        assert replay.main([str(path), "--render", "none"]) == 0
    assert read_record(tmp_path / "solo.json").players == [HUMAN]
    assert read_record(tmp_path / "duel.json").players == ["heuristic", "heuristic", HUMAN]


def test_terminal_play_writes_only_the_sections_of_the_table_that_changed() -> None:
    """Before a choice, terminal play writes the whole table the first time, then only the sections (a line at the
    margin with its indented lines) that changed since the last view, and one line when nothing changed."""
    written: list[str] = []
    views = iter(
        ["Title\nSeat 0\n  a\nSeat 1\n  b", "Title\nSeat 0\n  a2\nSeat 1\n  b", "Title\nSeat 0\n  a2\nSeat 1\n  b"]
    )
    show = ViewWriter(written.append, lambda: next(views))
    show(), show(), show()
    assert written == [
        "Title\nSeat 0\n  a\nSeat 1\n  b",
        f"Seat 0\n  a2\n{UNCHANGED_REST}",
        UNCHANGED_VIEW,
    ]
    show.view = lambda: "Title\nSeat 0\n  a2\nSeat 1\n  b"
    show(force=True)
    assert written[-1] == "Title\nSeat 0\n  a2\nSeat 1\n  b"
