"""benchmarks/throughput.py: raw and wrapped envs beside connect_four and OpenSpiel, its report (timing itself is never
asserted; the step counting is, under a fake clock)."""

from __future__ import annotations

import json
import re
import sys
import types
from collections.abc import Callable, Iterator
from pathlib import Path

import gymnasium as gym
import pytest

from benchmarks import throughput

MODULE = "envs.toys.card_duel_v0"
RATE = r"([\d,.]+)"


def fake_clock(*readings: float) -> Callable[[], float]:
    """A clock returning `readings` in turn: the timing loops read it at start, before each batch and at the end."""
    values: Iterator[float] = iter(readings)
    return lambda: next(values)


class CountdownState:
    """A pyspiel-like state: a chance node picks the first player, then `length` decisions among 3 actions."""

    def __init__(self, game: CountdownGame, length: int) -> None:
        self.game = game
        self.first_player: int | None = None
        self.decisions_left = length

    def is_chance_node(self) -> bool:
        return self.first_player is None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(0, 0.25), (1, 0.75)]

    def is_terminal(self) -> bool:
        return self.first_player is not None and self.decisions_left == 0

    def legal_actions(self) -> list[int]:
        assert not self.is_chance_node() and not self.is_terminal(), "legal_actions asked off a decision node"
        return [0, 1, 2]

    def observation_tensor(self) -> list[float]:
        assert not self.is_chance_node() and not self.is_terminal(), "observation_tensor() off a decision node"
        self.game.observations += 1
        return [float(self.decisions_left)]

    def apply_action(self, action: int) -> None:
        if self.is_chance_node():
            assert action in (0, 1), f"chance outcome {action} not offered"
            self.first_player = action
            return
        assert action in self.legal_actions(), f"illegal action {action}"
        assert not isinstance(action, bool) and int(action) == action
        self.decisions_left -= 1


class CountdownGame:
    """A pyspiel-like game whose states last `length` decisions; counts the observation tensors read."""

    def __init__(self, length: int) -> None:
        self.length = length
        self.observations = 0

    def new_initial_state(self) -> CountdownState:
        return CountdownState(self, self.length)


def fake_pyspiel(game: CountdownGame) -> types.ModuleType:
    """A module object standing in for pyspiel: load_game("countdown") returns `game`."""
    module = types.ModuleType("pyspiel")

    def load_game(name: str) -> CountdownGame:
        assert name == "countdown", f"unknown game {name!r}"
        return game

    module.load_game = load_game  # type: ignore[attr-defined]
    return module


def test_throughput_times_a_pettingzoo_module_raw_and_wrapped_beside_connect_four(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel fails, as where OpenSpiel is not installed
    arguments = ["--pettingzoo-module", MODULE, "--kwargs", "num_players=3", "--seconds", "0.2", "--rounds", "1"]
    assert throughput.main(arguments) == 0
    output = capsys.readouterr().out
    labels = [f"{MODULE}.raw_env(num_players=3)", f"{MODULE}.env(num_players=3)"]
    references = ["connect_four_v3.raw_env()", "connect_four_v3.env()"]
    rates: list[str] = []
    for label in [*labels, *references]:
        line = re.search(rf"^{re.escape(label)}: {RATE} steps/s, {RATE} games/s$", output, re.M)
        assert line, (label, output)
        rates += line.groups()
    for label in [*labels, references[1]]:
        line = re.search(rf"^ratio {re.escape(label)}: (\d+\.\d+)x connect_four_v3\.raw_env\(\)$", output, re.M)
        assert line, (label, output)
        rates += line.groups()
    assert all(float(rate.replace(",", "")) > 0 for rate in rates), output
    assert re.search(r"^OpenSpiel not installed$", output, re.M), output
    assert "target" not in output


def test_throughput_needs_a_game_or_a_module(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        throughput.main(["--seconds", "0.1"])
    assert stop.value.code == 2
    assert "give --game, --pettingzoo-module or both" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("game", "expected"),
    [
        ("unbroken", ["tabletop/Unbroken-v0 unwrapped", "tabletop/Unbroken-v0 gym.make"]),
        (
            "unearth",
            [
                "tabletop/Unearth-v0 unwrapped",
                "tabletop/Unearth-v0 gym.make",
                "envs.unearth.unearth_v0.raw_env()",
                "envs.unearth.unearth_v0.env()",
            ],
        ),
    ],
)
def test_each_env_of_a_game_is_timed_raw_and_wrapped(game: str, expected: list[str]) -> None:
    parser = throughput.build_parser()
    subjects = throughput.subjects_from_args(parser, parser.parse_args(["--game", game]))
    assert [subject.label for subject in subjects] == expected
    for subject in subjects:
        # A raw env has no wrapper; a wrapped one has gymnasium.make's TimeLimit or PettingZoo classic's wrappers.
        assert subject.raw == (not subject.wrappers), subject
        assert subject.raw == ("unwrapped" in subject.label or ".raw_env(" in subject.label), subject
    wrapped = {subject.label: subject.wrappers for subject in subjects if not subject.raw}
    assert "TimeLimit" in wrapped[expected[1]]
    if game == "unearth":
        assert "OrderEnforcingWrapper" in wrapped[expected[3]]


def test_a_raw_gymnasium_env_steps_through_the_same_loop() -> None:
    env = throughput.make_gym_env("tabletop/Unbroken-v0", raw=True)
    assert not isinstance(env, gym.Wrapper) and throughput.wrapper_names(env) == ()
    assert throughput.wrapper_names(throughput.make_gym_env("tabletop/Unbroken-v0")) == ("TimeLimit",)
    # Start, one batch (the clock reads 0 before it), 2 s elapsed at the check and the end: one batch in 2 s.
    steps, episodes = throughput.time_gym_env("tabletop/Unbroken-v0", 1.0, 0, clock=fake_clock(0, 0, 2, 2), raw=True)
    assert steps == throughput.STEPS_BETWEEN_CLOCK_READS / 2
    assert episodes >= 0.5  # random Unbroken games last well under 200 decisions


def test_a_raw_aec_env_plays_a_whole_game_through_the_same_loop() -> None:
    make_env = throughput.aec_env_factory("envs.unearth.unearth_v0", {}, raw=True)
    assert throughput.wrapper_names(make_env()) == ()
    steps, games = throughput.time_aec_env(make_env, 1.0, 0, clock=fake_clock(0, 0, 1, 1))
    assert games == 1.0 and steps > 2  # one game in 1 s: its decisions and each seat's final None step


def test_openspiel_game_is_stepped_through_pyspiels_state_api() -> None:
    game = CountdownGame(length=4)
    clock = fake_clock(0, 0, 1, 1)
    steps, games = throughput.time_openspiel_game(fake_pyspiel(game), "countdown", 0.5, 0, clock)
    # One batch of decisions in 1 s: chance outcomes are not steps, every decision reads the observation tensor.
    assert steps == throughput.STEPS_BETWEEN_CLOCK_READS
    assert games == throughput.STEPS_BETWEEN_CLOCK_READS / game.length
    assert game.observations == throughput.STEPS_BETWEEN_CLOCK_READS


def test_report_files_hold_every_row_and_the_openspiel_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", fake_pyspiel(CountdownGame(length=4)))
    stem = tmp_path / "report"
    arguments = ["--pettingzoo-module", MODULE, "--seconds", "0.05", "--rounds", "2", "--openspiel-game", "countdown"]
    assert throughput.main([*arguments, "--out", str(stem)]) == 0
    assert "OpenSpiel countdown: " in capsys.readouterr().out
    document = json.loads(stem.with_suffix(".json").read_text(encoding="utf-8"))
    labels = [f"{MODULE}.raw_env()", f"{MODULE}.env()", "connect_four_v3.raw_env()", "connect_four_v3.env()"]
    assert [row["env"] for row in document["rows"]] == [*labels, "OpenSpiel countdown"]
    assert document["openspiel"] == {"installed": True, "game": "countdown"}
    reference, wrapped_reference = document["rows"][2], document["rows"][3]
    for row in document["rows"]:
        assert len(row["step_rates"]) == 2 and row["steps_per_s"] > 0
        assert row["ratio_to_connect_four_raw"] == pytest.approx(row["steps_per_s"] / reference["steps_per_s"])
        assert row["ratio_to_connect_four_wrapped"] == pytest.approx(
            row["steps_per_s"] / wrapped_reference["steps_per_s"]
        )
    markdown = stem.with_suffix(".md").read_text(encoding="utf-8")
    assert f"`python -m benchmarks.throughput {' '.join(arguments)} --out {stem}`" in markdown
    for row in document["rows"]:
        assert f"| {row['env']} |" in markdown
    assert "OpenSpiel not installed" not in markdown


def test_a_game_report_goes_to_the_results_name_and_says_when_openspiel_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    monkeypatch.setattr(throughput, "RESULTS_DIR", tmp_path)
    assert throughput.main(["--game", "unbroken", "--seconds", "0.05", "--rounds", "1"]) == 0
    markdown = (tmp_path / "unbroken_env_throughput.md").read_text(encoding="utf-8")
    document = json.loads((tmp_path / "unbroken_env_throughput.json").read_text(encoding="utf-8"))
    assert "`python -m benchmarks.throughput --game unbroken --seconds 0.05 --rounds 1`" in markdown
    assert "OpenSpiel not installed" in markdown and document["openspiel"]["installed"] is False
    raw_row, wrapped_row = document["rows"][:2]
    assert (raw_row["raw"], wrapped_row["raw"]) == (True, False)
    assert wrapped_row["wrappers"] == ["TimeLimit"] and raw_row["wrappers"] == []
