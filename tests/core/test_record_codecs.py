"""The record codecs multi-seat games declare their states with: per-seat values, bounded lists and integers,
ordered decks, the decision stack, parallel fields saved together, and values on hex-map cells.

A toy state uses each once; every test saves it, goes through JSON and loads it back, or shows the error a bad dict
gets (naming the field, as DESIGN.md asks of every bad input).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Annotated, Any

import pytest

from envs.core.components import Deck
from envs.core.decisions import DecisionFrame, DecisionStack
from envs.core.game import CHANCE, StateFormatError
from envs.core.hexmap import HexMap
from envs.core.record import (
    CACHE,
    BoundedInt,
    CountsOf,
    DecisionStackCodec,
    DeckOf,
    HexCellsOf,
    IntCodec,
    ListOf,
    NameOf,
    NameTables,
    PerSeat,
    SavedTogether,
    StateRecord,
)

CARDS = ("Ace", "Bow", "Cup")
PIECES = ("die a", "die b")


class ToyGame:
    """Just what a record needs of its game: the name tables (2 seats, one 7-cell hex map)."""

    def __init__(self) -> None:
        self.name_tables = NameTables({"card": CARDS, "piece": PIECES}, num_seats=2, hex_maps={"board": HexMap.disc(1)})


@dataclass(eq=False)
class ToyState(StateRecord):
    """One field per codec under test."""

    game: Any
    hands: Annotated[tuple[tuple[int, ...], ...], PerSeat(CountsOf("card"))] = ((0, 0, 0), (0, 0, 0))
    scores: Annotated[tuple[int, ...], ListOf(IntCodec(), max_length=4)] = ()
    leader: Annotated[int, BoundedInt(0, 1, null_as=-1)] = -1
    deck: Annotated[Deck, DeckOf("card")] = field(default_factory=lambda: Deck.from_counts((1, 1, 1)))
    place: Annotated[tuple[tuple[int, ...], ...], SavedTogether("pieces", "place", "piece", BoundedInt(-1, 5, -1))] = (
        (-1, -1),
        (-1, -1),
    )
    shown: Annotated[tuple[tuple[int, ...], ...], SavedTogether("pieces", "shown", "piece", BoundedInt(0, 6))] = (
        (0, 0),
        (0, 0),
    )
    tokens: Annotated[dict[int, int], HexCellsOf("board", NameOf("card"))] = field(default_factory=dict)
    stack: Annotated[DecisionStack, DecisionStackCodec(10, details={"card": NameOf("card")})] = ()
    cache: Any = field(default=None, metadata=CACHE)


def round_trip(state: ToyState) -> ToyState:
    """The state saved, through JSON, and loaded again."""
    return ToyState.from_dict(state.game, json.loads(json.dumps(state.to_dict())))


def a_state() -> ToyState:
    """A state with something in every field."""
    board = HexMap.disc(1)
    return ToyState(
        game=ToyGame(),
        hands=((1, 0, 0), (0, 0, 1)),
        scores=(3, 4),
        leader=1,
        deck=Deck(unknown=(0, 1, 0), top=(2,), bottom=(0,)),
        place=((2, -1), (-1, 0)),
        shown=((5, 0), (0, 6)),
        tokens={board.index((0, 0)): 1, board.index((1, -1)): 2},
        stack=(DecisionFrame(0, "pick", "test", (("card", 2), ("path", (1, 2)))),),
    )


def bad(edit: Any) -> StateFormatError:
    """The error for `a_state()`'s dict after `edit(dict)`."""
    state = a_state()
    data = json.loads(json.dumps(state.to_dict()))
    edit(data)
    with pytest.raises(StateFormatError) as raised:
        ToyState.from_dict(state.game, data)
    return raised.value


def test_every_codec_survives_json() -> None:
    """Saved and loaded through JSON, the state is the same state (tuples stay tuples, frames stay hashable)."""
    state = a_state()
    again = round_trip(state)
    assert again == state
    assert again.hands == ((1, 0, 0), (0, 0, 1)) and isinstance(again.hands[0], tuple)
    assert again.stack == state.stack and hash(again.stack[0])


def test_a_saved_state_reads_by_names_and_coordinates() -> None:
    """Cards by name, a deck by its parts, parallel fields as one record per piece, board values by (q, r)."""
    saved = json.loads(json.dumps(a_state().to_dict()))
    assert saved["hands"] == [{"Ace": 1}, {"Cup": 1}]
    assert saved["deck"] == {"unknown": {"Bow": 1}, "top": ["Cup"], "bottom": ["Ace"]}
    assert saved["pieces"][0] == {"die a": {"place": 2, "shown": 5}, "die b": {"place": None, "shown": 0}}
    assert "place" not in saved and "shown" not in saved
    assert saved["tokens"] == [[1, -1, "Cup"], [0, 0, "Bow"]]  # in cell (reading) order: row r = -1 first
    assert saved["stack"][0]["details"] == {"card": "Cup", "path": [1, 2]}
    assert "cache" not in saved


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        (lambda d: d["hands"].pop(), "hands"),  # one entry per seat
        (lambda d: d["scores"].extend([1, 2, 3]), "scores"),  # at most 4
        (lambda d: d.update(leader=2), "leader"),  # 0..1 or null
        (lambda d: d["deck"]["top"].append("Dart"), "deck.top[1]"),
        (lambda d: d["pieces"][1].pop("die b"), "pieces[1].die b"),
        (lambda d: d["pieces"][0]["die a"].update(shown=7), "pieces[0].die a.shown"),
        (lambda d: d["tokens"].append([5, 5, "Ace"]), "tokens[2]"),  # off the map
        (lambda d: d["tokens"].append(list(d["tokens"][0])), "tokens[2]"),  # a cell given twice
        (lambda d: d["stack"][0]["details"].update(card="Dart"), "stack[0].details.card"),
        (lambda d: d["hands"][0].update(Ace=10**40), "hands[0].Ace"),  # past MAX_COPIES (and a machine word)
        (lambda d: d["deck"]["unknown"].update(Bow=2**63), "deck.unknown.Bow"),
    ],
)
def test_a_bad_value_is_refused_naming_the_field(edit: Any, field: str) -> None:
    """Each codec refuses what it cannot read, naming the field (and the entry inside it)."""
    assert bad(edit).field == field


def test_drop_caches_resets_the_cache_fields() -> None:
    """`drop_caches` puts every CACHE field back to its default (a redeal must not keep the true deal's caches)."""
    state = a_state()
    state.cache = "stale"
    state.drop_caches()
    assert state.cache is None


def test_a_chance_frame_keeps_its_seat() -> None:
    """A chance frame's seat (CHANCE) and plain details go through unchanged."""
    state = a_state()
    state.stack = (DecisionFrame(CHANCE, "draw", "", (("seat", 1),)),)
    assert round_trip(state).stack == state.stack
