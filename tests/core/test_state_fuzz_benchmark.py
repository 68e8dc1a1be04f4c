"""benchmarks/state_fuzz.py classes mutated dicts right: planted loaders that crash, accept junk, refuse it cleanly or
take too long, and a run of the command line on a registered toy (no figure asserted)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from benchmarks import state_fuzz
from benchmarks.common import RESULTS_DIR
from envs.core.game import CHANCE, TERMINAL, Game, GameSpec, Observer, State, StateFormatError
from envs.core.registration import discovered_games, game_record

ROUNDS = 3
"""Rounds of the toy: roll a d3, then bank it or bank it doubled (a 1 or a 2 only)."""
BANKED_VALUES = {1, 2, 3, 4}
"""What the toy banks: a face 1-3, or a doubled 1 or 2."""
FIELDS = ("banked", "roll")
"""The fields of the toy's saved state."""


class DiceObserver(Observer):
    """The toy's observation: the banked total over 20."""

    size = 1
    views = {"total": slice(0, 1)}

    def tensor(self, state: State) -> np.ndarray:
        assert isinstance(state, DiceState)
        return np.array([sum(state.banked) / 20.0], dtype=np.float32)

    def text(self, state: State) -> str:
        assert isinstance(state, DiceState)
        return f"banked {state.banked}"


class DiceGame(Game):
    """A solo dice toy whose loader reads the dict unchecked (KeyError on a missing field, junk accepted)."""

    def __init__(self) -> None:
        self.spec = GameSpec(name="fuzz_dice_toy", num_players=1, num_actions=2, max_game_length=ROUNDS)

    def new_initial_state(self) -> DiceState:
        return DiceState(self)

    def state_from_dict(self, data: dict[str, Any]) -> DiceState:
        state = DiceState(self)
        state.banked, state.roll = list(data["banked"]), data["roll"]
        return state

    def action_label(self, action: int) -> str:
        return ("bank", "double")[action]

    def observer(self, player: int | None = 0) -> DiceObserver:
        return DiceObserver()


class DiceState(State):
    """Banked rolls and the pending roll (0 while a roll is due)."""

    game: DiceGame

    def __init__(self, game: DiceGame) -> None:
        self.game = game
        self.banked: list[int] = []
        self.roll = 0

    def current_player(self) -> int:
        if len(self.banked) >= ROUNDS:
            return TERMINAL
        return CHANCE if self.roll == 0 else 0

    def legal_actions(self) -> list[int]:
        return [0, 1] if self.current_player() == 0 else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(face, 1.0 / 3.0) for face in (1, 2, 3)] if self.current_player() == CHANCE else []

    def _apply(self, action: int) -> None:
        if self.current_player() == CHANCE:
            self.roll = action
        else:
            self.banked.append(self.roll * (2 if action == 1 and self.roll < 3 else 1))
            self.roll = 0

    def returns(self) -> list[float]:
        return [0.0] if not self.is_terminal() else [1.0 if sum(self.banked) >= 10 else -1.0]

    def score(self) -> list[float]:
        return [float(sum(self.banked))]

    def to_dict(self) -> dict[str, Any]:
        return {"banked": list(self.banked), "roll": self.roll}

    def clone(self) -> DiceState:
        other = DiceState(self.game)
        other.banked, other.roll = list(self.banked), self.roll
        return other

    def chance_label(self, outcome: int) -> str:
        return f"d3 = {outcome}"


class ValidatingDiceGame(DiceGame):
    """The dice toy with a loader that refuses every dict the rules cannot reach, naming the field."""

    def state_from_dict(self, data: dict[str, Any]) -> DiceState:
        """From to_dict(), every field checked."""
        if not isinstance(data, dict):
            raise StateFormatError("", f"expected a mapping of the fields banked and roll, got {data!r}")
        for key in data:
            if key not in FIELDS:
                raise StateFormatError(str(key), "unknown field (fields: banked, roll)")
        for key in FIELDS:
            if key not in data:
                raise StateFormatError(key, "missing field")
        banked, roll = data["banked"], data["roll"]
        if not isinstance(banked, list) or len(banked) > ROUNDS:
            raise StateFormatError("banked", f"expected a list of at most {ROUNDS} banked rolls, got {banked!r}")
        for index, value in enumerate(banked):
            if type(value) is not int or value not in BANKED_VALUES:
                raise StateFormatError(f"banked[{index}]", f"expected one of {sorted(BANKED_VALUES)}, got {value!r}")
        if type(roll) is not int or not 0 <= roll <= 3 or (roll and len(banked) == ROUNDS):
            raise StateFormatError("roll", f"expected a pending face 1-3 or 0 (none, and none after the end): {roll!r}")
        return super().state_from_dict(data)


class SlowDiceGame(ValidatingDiceGame):
    """Planted defect: a dict with a pending roll above 3 takes a long time to be refused."""

    def state_from_dict(self, data: dict[str, Any]) -> DiceState:
        """Slow on a roll above 3, then as the validating toy."""
        roll = data.get("roll")
        if type(roll) is int and roll > 3:
            time.sleep(0.2)
        return super().state_from_dict(data)


class NamelessDiceGame(ValidatingDiceGame):
    """Planted defect: a missing or unknown field is refused without naming it."""

    def state_from_dict(self, data: dict[str, Any]) -> DiceState:
        """As the validating toy, but a dict with other fields is refused as a whole."""
        if isinstance(data, dict) and set(data) != set(FIELDS):
            raise StateFormatError("", "expected the fields banked and roll")
        return super().state_from_dict(data)


class WordSizedDiceGame(ValidatingDiceGame):
    """Planted defect: the pending roll is taken as a machine word before it is checked (OverflowError past it)."""

    def state_from_dict(self, data: dict[str, Any]) -> DiceState:
        """The length of range(roll) first, then as the validating toy."""
        roll = data.get("roll") if isinstance(data, dict) else None
        if type(roll) is int:
            len(range(roll))
        return super().state_from_dict(data)


def test_a_loose_loader_raises_other_errors_and_accepts_junk() -> None:
    """The plain toy reads data["roll"] unchecked: a removed field raises KeyError (raised something else), and a
    roll written as a string is accepted and breaks the rules or the checks later (accepted though invalid)."""
    report = state_fuzz.fuzz_game(DiceGame(), seed=1, games=10, states=20, mutations=20, steps=10)
    assert report.mutated == 400 and sum(report.classes.values()) == 400
    assert report.classes["raised something else"] > 0 and report.failure_counts["raised KeyError"] > 0
    assert report.classes["accepted though invalid"] > 0
    assert report.control_failures == []


def test_a_strict_loader_refuses_every_impossible_dict() -> None:
    """With every field checked, each mutated dict is refused or is a position the toy can reach."""
    report = state_fuzz.fuzz_game(ValidatingDiceGame(), seed=1, games=10, states=20, mutations=20, steps=10)
    assert report.classes["raised something else"] == 0 and report.classes["accepted though invalid"] == 0
    assert report.classes["refused"] > 200 and report.classes["accepted, checks pass"] > 0


def test_a_refusal_naming_no_field_is_counted_as_another_error() -> None:
    """The promise is a refusal naming the field: a StateFormatError that names none is a failure of its own kind."""
    report = state_fuzz.fuzz_game(NamelessDiceGame(), seed=1, games=10, states=20, mutations=20, steps=10)
    assert report.failure_counts["StateFormatError naming no field"] > 0
    assert report.classes["raised something else"] == report.failure_counts["StateFormatError naming no field"]


def test_huge_integers_find_a_loader_that_overflows() -> None:
    """Integers past a machine word (10**40, 2**63) are among the mutations: a loader that takes one as a length
    raises OverflowError, counted as raising something else; the integers the mutations write include all four."""
    report = state_fuzz.fuzz_game(WordSizedDiceGame(), seed=1, games=10, states=20, mutations=20, steps=10)
    assert report.failure_counts["raised OverflowError"] > 0
    changes = dict(state_fuzz.mutations_of(5, [], np.random.default_rng(0)))
    assert {10**9, 10**40, -1, 2**63} <= {value for value in changes.values() if type(value) is int}
    assert "set to 10**40" in changes and "set to 2**63" in changes


def test_a_slow_dict_is_stopped_at_the_time_limit() -> None:
    """A dict that takes longer than the limit to load is counted as raising something else, and the fuzz goes on."""
    report = state_fuzz.fuzz_game(SlowDiceGame(), seed=2, games=10, states=20, mutations=20, steps=5, seconds=0.05)
    assert report.failure_counts["over the time limit (0.05 s)"] > 0
    assert report.mutated == 400


def test_command_line_writes_the_report(tmp_path: Path) -> None:
    """The command line fuzzes a registered game at every setting of its record and writes both report files."""
    stem = tmp_path / "fuzz"
    arguments = ["--game", "envs.toys:card_duel", "--states", "6", "--mutations", "5", "--steps", "10"]
    assert state_fuzz.main([*arguments, "--memory-gb", "0", "--out", str(stem)]) == 0
    document = json.loads(stem.with_suffix(".json").read_text(encoding="utf-8"))
    assert list(document["settings"]) == [f"card_duel(num_players={count})" for count in (2, 3, 4)]
    for setting in document["settings"].values():
        assert setting["mutated"] == 30 == sum(setting["classes"].values())
        assert setting["control_failures"] == []
    assert "| card_duel(num_players=3) | 30 |" in stem.with_suffix(".md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", sorted(discovered_games()))
def test_every_registered_game_has_a_state_fuzz_report(name: str) -> None:
    """benchmarks/results/<game>_state_fuzz.{md,json} exist for every game under envs/, written by the command they
    quote with this fuzzer's mutations (huge integers among them), the game's own invariants and every setting of
    its record: a new game, or a fuzzer changed without its reports run again, fails here."""
    stem = RESULTS_DIR / f"{name}_state_fuzz"
    document = json.loads(stem.with_suffix(".json").read_text(encoding="utf-8"))
    assert document["game"] == name
    assert document["huge_integers"] == [state_fuzz.huge_text(huge) for huge in state_fuzz.HUGE_INTEGERS]
    assert document["arguments"]["invariants"], "fuzzed without the game's invariants"
    record = game_record(name)
    settings = [state_fuzz.setting_label(record, kwargs) for kwargs in record.setting_combinations()]
    assert list(document["settings"]) == settings
    markdown = stem.with_suffix(".md").read_text(encoding="utf-8")
    assert f"`python -m benchmarks.state_fuzz --game {name} " in markdown
