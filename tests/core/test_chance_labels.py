"""Chance labels by table (envs/core/chance_labels.py), on Tug (envs/toys/tug.py) with its coin given a table: a
template, the words a seat that may not see the outcome reads, a function, and a kind the table does not know."""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Mapping
from operator import attrgetter
from typing import Any, ClassVar

import pytest

from envs.core.chance_labels import ChanceLabel, ChanceLabels, FrameChanceLabels, UnknownChanceKindError
from envs.core.decisions import DecisionFrame
from envs.core.engine import new_frame
from envs.core.game import CHANCE
from envs.toys.tug import Kind, TugGame, TugState

COIN = ChanceLabel(
    "seat {outcome} ({item}) takes the initiative, drawn for seat {seat}",
    items=attrgetter("game.seat_names"),
    hidden="a seat takes the initiative, drawn for seat {seat}",
    seen_by="seat",
)
"""The coin of a round: the full words name the seat and its name; only the frame's `seat` sees them."""


class LabelledTug(FrameChanceLabels, TugState):
    """Tug whose chance labels come from a table."""

    CHANCE_LABELS: ClassVar[Mapping[Hashable, ChanceLabel]] = {Kind.ROUND: COIN}


class HiddenTugGame(TugGame):
    """Tug with named seats, as a game with hidden information (or not), whose first coin is drawn for seat 1."""

    seat_names = ("North", "South")

    def __init__(self, information: str = "imperfect", state_class: type[TugState] = LabelledTug) -> None:
        super().__init__()
        self.spec = dataclasses.replace(self.spec, information=information)
        self.state_class = state_class

    def new_initial_state(self) -> TugState:
        """Round one's coin, drawn for seat 1."""
        state = self.state_class(game=self)
        state._push(new_frame(CHANCE, Kind.ROUND, seat=1), new_frame(0, Kind.END_ROUND))
        state._run()
        return state


def test_a_template_reads_the_outcome_its_item_and_the_frame_details() -> None:
    state = HiddenTugGame().new_initial_state()
    assert state.chance_label(0) == "seat 0 (North) takes the initiative, drawn for seat 1"
    assert state.chance_label(1) == "seat 1 (South) takes the initiative, drawn for seat 1"


def test_the_hidden_words_are_what_a_seat_other_than_the_one_seen_by_reads() -> None:
    state = HiddenTugGame().new_initial_state()
    assert state.chance_label_for(0, 1) == "seat 0 (North) takes the initiative, drawn for seat 1"
    assert state.chance_label_for(0, 0) == "a seat takes the initiative, drawn for seat 1"
    assert state.chance_label_for(0, None) == "a seat takes the initiative, drawn for seat 1"


def test_a_game_without_hidden_information_shows_every_seat_the_full_label() -> None:
    state = HiddenTugGame(information="perfect").new_initial_state()
    for player in (0, 1, None):
        assert state.chance_label_for(1, player) == "seat 1 (South) takes the initiative, drawn for seat 1"


def _coin_words(state: TugState, frame: DecisionFrame, outcome: int) -> str:
    return f"round {state.round + 1}: seat {outcome} pulls first (drawn for seat {frame.detail('seat')})"


def _coin_unseen(state: TugState, frame: DecisionFrame, outcome: int) -> str:
    return f"round {state.round + 1}: the coin lands unseen"


class FunctionTug(FrameChanceLabels, TugState):
    """Tug whose coin is worded by functions, hidden from every seat (no `seen_by`)."""

    CHANCE_LABELS: ClassVar[Mapping[Hashable, ChanceLabel]] = {
        Kind.ROUND: ChanceLabel(_coin_words, hidden=_coin_unseen)
    }


def test_functions_word_the_outcome_and_with_no_seen_by_every_seat_reads_the_hidden_words() -> None:
    state = HiddenTugGame(state_class=FunctionTug).new_initial_state()
    assert state.chance_label(1) == "round 1: seat 1 pulls first (drawn for seat 1)"
    for player in (0, 1, None):
        assert state.chance_label_for(1, player) == "round 1: the coin lands unseen"


class RoundTug(ChanceLabels, TugState):
    """Tug labelled by its round number (a state that names its own node, as a game keyed by phase does)."""

    CHANCE_LABELS: ClassVar[Mapping[Hashable, ChanceLabel]] = {
        0: ChanceLabel("first round: seat {outcome} starts"),
        1: ChanceLabel("second round: seat {outcome} starts"),
    }

    def _chance_node(self) -> tuple[Hashable, Any]:
        return self.round, self.round


def test_a_state_keyed_by_its_own_node_reads_its_entry_and_an_unknown_kind_is_an_error_naming_it() -> None:
    state = HiddenTugGame(state_class=RoundTug).new_initial_state()
    assert state.chance_label(0) == "first round: seat 0 starts"
    state.round = 2
    with pytest.raises(
        UnknownChanceKindError, match=r"RoundTug.CHANCE_LABELS has no entry for chance kind 2; its kinds"
    ):
        state.chance_label(0)
    with pytest.raises(UnknownChanceKindError, match=r"kind 2; its kinds are \[0, 1\]"):
        state.chance_label_for(0, 0)


def test_a_frame_state_whose_table_misses_a_chance_kind_or_labels_another_kind_is_refused_when_made() -> None:
    with pytest.raises(TypeError, match=r"Unlabelled.CHANCE_LABELS: the chance kinds \['round start'\] of its"):

        class Unlabelled(FrameChanceLabels, TugState):
            CHANCE_LABELS: ClassVar[Mapping[Hashable, ChanceLabel]] = {}

    with pytest.raises(TypeError, match=r"Overlabelled.CHANCE_LABELS: 'initiative' is not a chance kind"):

        class Overlabelled(FrameChanceLabels, TugState):
            CHANCE_LABELS: ClassVar[Mapping[Hashable, ChanceLabel]] = {Kind.ROUND: COIN, Kind.INITIATIVE: COIN}

    with pytest.raises(TypeError, match=r"seen_by='seat' needs the hidden words"):
        ChanceLabel("seat {outcome}", seen_by="seat")


def test_a_hidden_template_cannot_read_the_outcome_it_hides() -> None:
    class Leaky(FrameChanceLabels, TugState):
        CHANCE_LABELS: ClassVar[Mapping[Hashable, ChanceLabel]] = {
            Kind.ROUND: ChanceLabel("seat {outcome}", hidden="seat {outcome} (hidden)")
        }

    state = HiddenTugGame(state_class=Leaky).new_initial_state()
    assert state.chance_label(1) == "seat 1"
    with pytest.raises(KeyError, match=r"the template 'seat \{outcome\} \(hidden\)' reads 'outcome'"):
        state.chance_label_for(1, 0)


def test_an_outcome_the_node_does_not_list_is_a_value_error() -> None:
    state = HiddenTugGame().new_initial_state()
    for query in (lambda: state.chance_label(999), lambda: state.chance_label_for(999, 0)):
        with pytest.raises(ValueError, match=r"chance_label(_for)?\(999\): not an outcome of this chance node of tug"):
            query()
