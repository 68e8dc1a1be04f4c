"""Helpers for Unearth rule scenarios: states built from dicts, chance events driven by hand, actions by label.

A scenario starts from a real state after setup (`setup_state`: seeded chance outcomes until the first decision),
edits its dict (`scenario`) and rebuilds it with `UnearthGame.state_from_dict`, which checks that every Delver card
and Stone is somewhere exactly once: `scenario` moves them (cards from the draw pile to the hands, Stones from the
bag to the Ruins) rather than inventing them. Chance events are then applied one by one with the outcome a test
wants (`roll`, `draw`, `bag_stone`, `chance`), and decisions are taken by their action labels (`act`), each helper
checking that the state waits for what the test expects.

Dice are named by their index in a seat's set (dice.yaml order: three d6, a d4, a d8): `D6_A`, `D6_B`, `D6_C`, `D4`,
`D8`. Stone colours by their index in stones.yaml: `RED`, `YELLOW`, `BLUE`, `BLACK`. Ruins by their card names
("peach 9", "City of Gold"), Delver cards, Named Wonders and End of Age cards by their names.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from envs.core.decisions import DecisionFrame, stack_from_list, stack_to_list
from envs.core.game import CHANCE, TERMINAL
from envs.core.hexgrid import Hex
from envs.core.record import freeze
from envs.unearth.game import UnearthGame
from envs.unearth.rules import DELVER_PHASE, EXCAVATION_DIE, EXCAVATION_RUIN, PLACE_STONE, ROLL, UnearthState
from envs.unearth.state import GREATER, LESSER, NAMED_BASE
from envs.unearth.tableau import COLOUR_NAMES, Tableau

D6_A, D6_B, D6_C, D4, D8 = range(5)
"""A seat's dice by index (dice.yaml: d6, d6, d6, d4, d8)."""
RED, YELLOW, BLUE, BLACK = (COLOUR_NAMES.index(name) for name in ("red", "yellow", "blue", "black"))
"""Stone colours by index (stones.yaml)."""
NO_STONES = (0, 0, 0, 0)
"""Stones on a Ruin with none, per colour."""

RING_START: tuple[Hex, ...] = ((0, 0), (1, -1), (2, -1), (2, 0), (1, 1))
"""Five Stones of a ring around (1, 0), in an order every tableau accepts (the first on the centre cell)."""
RING_CLOSER: Hex = (0, 1)
"""The sixth cell of that ring: a Stone placed there closes it."""
RING_CENTRE: Hex = (1, 0)
"""The centre of that ring, where its Wonder goes."""
FILLER_NAMED = (
    "Temple of Fate",
    "Temple of Flames",
    "Temple of Prosperity",
    "The Shattered Edifice",
    "The Harmonious Columns",
    "The Eternal Flame",
)
"""Named Wonders that make up the players + 2 in play when a scenario names fewer: their formulas (four or three
black, red or yellow Stones) fit none of the scenarios' rings, so they offer no build."""


# ---------------------------------------------------------------------------------------------- names and ids
def ruin_id(game: UnearthGame, name: str) -> int:
    """The Ruin id of the card called `name` ("peach 9", "City of Gold")."""
    names = [ruin.name for ruin in game.ruins]
    assert name in names, f"no Ruin named {name!r} (there are {names})"
    return names.index(name)


def delver_type(game: UnearthGame, name: str) -> int:
    """The index of the Delver card type called `name`."""
    names = [delver.name for delver in game.cards.delvers]
    assert name in names, f"no Delver card named {name!r} (there are {names})"
    return names.index(name)


def named_id(game: UnearthGame, name: str) -> int:
    """The index of the Named Wonder called `name`."""
    names = [wonder.name for wonder in game.cards.named_wonders]
    assert name in names, f"no Named Wonder named {name!r} (there are {names})"
    return names.index(name)


def end_of_age_index(game: UnearthGame, name: str) -> int:
    """The index of the End of Age card called `name`."""
    names = [card.name for card in game.cards.end_of_age]
    assert name in names, f"no End of Age card named {name!r} (there are {names})"
    return names.index(name)


def die_label(game: UnearthGame, die: int) -> str:
    """How action labels name a seat's die `die` ("die 1 (d6)")."""
    return f"die {die + 1} (d{game.cards.die_sides[die]})"


def hand_of(state: UnearthState, seat: int) -> dict[str, int]:
    """Seat `seat`'s Delver cards by name (types it holds only)."""
    cards = state.game.cards.delvers
    return {cards[t].name: count for t, count in enumerate(state.hands[seat]) if count}


# ---------------------------------------------------------------------------------------------- setup states
@functools.cache
def _setup_json(num_players: int, seed: int) -> str:
    """The dict of the state after setup (seeded), as JSON so each caller gets a fresh copy."""
    return json.dumps(setup_state(num_players, seed).to_dict())


def setup_state(num_players: int = 2, seed: int = 0) -> UnearthState:
    """A new game with its setup's chance events drawn from a seeded generator, up to the first decision."""
    state = UnearthGame(num_players=num_players).new_initial_state()
    rng = np.random.default_rng(seed)
    while state.current_player() == CHANCE:
        state.apply_action(state.sample_chance(rng))
    return state


def setup_dict(num_players: int = 2, seed: int = 0) -> dict[str, Any]:
    """A fresh copy of the dict of `setup_state(num_players, seed)`."""
    data: dict[str, Any] = json.loads(_setup_json(num_players, seed))
    return data


def tableau_of(stones: Iterable[tuple[Hex, int]]) -> Tableau:
    """A tableau with Stones (hex, colour) placed in order, each placement legal."""
    tableau = Tableau()
    for hex_, colour in stones:
        tableau = tableau.place(tableau.index(hex_), colour).tableau
    return tableau


SECOND_RING: tuple[Hex, ...] = ((-1, 0), (-2, 1), (-2, 2), (-1, 2))
"""Four Stones that, after the first ring is closed, close a second ring around (-1, 1)."""


def tableau_with_wonders(*wonders: int) -> Tableau:
    """A tableau with one or two closed rings, the Wonder ids given on their centres (LESSER, GREATER, ...): what a
    seat that built those Wonders has (state dicts refuse a built Wonder token without its Wonder)."""
    assert 1 <= len(wonders) <= 2
    tableau = open_ring((RED, YELLOW, BLUE, BLACK, RED))
    placement = tableau.place(tableau.index(RING_CLOSER), YELLOW)
    tableau = placement.tableau.with_wonder(placement.closed_centres[0], wonders[0])
    if len(wonders) == 2:
        for hex_ in SECOND_RING:
            placement = tableau.place(tableau.index(hex_), BLUE)
            tableau = placement.tableau
        tableau = tableau.with_wonder(placement.closed_centres[0], wonders[1])
    return tableau


def with_wonder_ring(stones: Sequence[int]) -> tuple[int, ...]:
    """Stones per colour of a tableau that `scenario` drew with one Wonder ring (`tableau_with_wonders`), plus
    `stones`: what a test of a seat that built one Named Wonder expects after it gains `stones`."""
    ring = tableau_with_wonders(LESSER).stones_by_colour
    return tuple(a + b for a, b in zip(ring, stones, strict=True))


def open_ring(colours: Sequence[int]) -> Tableau:
    """A tableau of five Stones of the given colours around `RING_CENTRE`: a Stone on `RING_CLOSER` closes it."""
    assert len(colours) == len(RING_START)
    return tableau_of(zip(RING_START, colours, strict=True))


def closer_cell() -> int:
    """The cell index of `RING_CLOSER`."""
    return Tableau().index(RING_CLOSER)


def centre_cell() -> int:
    """The cell index of `RING_CENTRE`."""
    return Tableau().index(RING_CENTRE)


def _ruin_ids(game: UnearthGame, names: Iterable[str | int]) -> list[int]:
    """Ruin ids of names (ids pass through)."""
    return [name if isinstance(name, int) else ruin_id(game, name) for name in names]


def _per_type(game: UnearthGame, cards: Mapping[str, int]) -> list[int]:
    """Copies per Delver type of a {name: copies} mapping."""
    counts = [0] * len(game.cards.delvers)
    for name, copies in cards.items():
        counts[delver_type(game, name)] += copies
    return counts


def scenario(
    num_players: int = 2,
    *,
    seed: int = 0,
    active: int = 0,
    hands: Mapping[int, Mapping[str, int]] | None = None,
    deck: Mapping[str, int] | None = None,
    discard: Mapping[str, int] | None = None,
    table: Sequence[str | None] | None = None,
    stones: Mapping[int, Sequence[int]] | None = None,
    dice: Iterable[tuple[int, int, int, int]] = (),
    hidden_ruins: Mapping[int, Sequence[str | int]] | None = None,
    removed: Sequence[str | int] | None = None,
    claimed: Mapping[int, Sequence[str | int]] | None = None,
    ruin_deck: Sequence[str | int] | None = None,
    named_built: Mapping[int, Sequence[str]] | None = None,
    named_in_play: Sequence[str] | None = None,
    tableaus: Mapping[int, Tableau] | None = None,
    end_of_age: str | None = None,
    stack: list[dict[str, Any]] | None = None,
    **fields: Any,
) -> UnearthState:
    """A state after setup (`num_players`, `seed`) with the given parts replaced, rebuilt by `state_from_dict`.

    - `hands`: seat -> {card name: copies}; seats left out hold nothing. The cards come from the draw pile; with
      `deck` ({name: copies}) given the rest go to the discard pile, with `discard` given the rest to the draw pile.
    - `table`: Ruin names per place (None: empty); `stones`: place -> Stones per colour (places left out: none);
      the bag holds every Stone not on a Ruin or in a tableau.
    - `dice`: (seat, die, place, value) of each die on a Ruin (its face is the value); the others are in the pools.
    - Ruins: `table`, `hidden_ruins`, `removed`, `claimed` and `ruin_deck` when given; a Ruin they take is taken out
      of the setup's hidden and removed Ruins (refilled from the unused Ruins to keep their sizes), and the deck is
      every Ruin of the 25 found nowhere else unless `ruin_deck` is given (then those are put back in the box, in
      `discarded_ruins`, as after unbreakable ties: every Ruin card is somewhere).
    - `named_built`: seat -> Named Wonder names; `named_in_play` defaults to the setup's less the built ones (when
      given with fewer than players + 2 less the built ones, `FILLER_NAMED` make up the rest).
    - `tableaus`: seat -> Tableau; `end_of_age`: the End of Age card's name.
    - `stack`: the frames (default: the Delver Phase of `active`); `fields`: any other dict field as is.
    """
    game = UnearthGame(num_players=num_players)
    data = runtime_fields(setup_state(num_players, seed))
    n = num_players
    data["active"] = data["first_player"] = active
    data["stack"] = (
        stack if stack is not None else [{"seat": active, "kind": DELVER_PHASE, "reason": "", "details": {}}]
    )
    _set_delvers(game, data, hands or {}, deck, discard)
    _set_ruins(game, data, table, hidden_ruins, removed, claimed, ruin_deck)
    # Tableaus and Stones: the bag holds what is not on a Ruin or in a tableau.
    if tableaus is not None:
        data["tableaus"] = [tableaus.get(seat) or Tableau() for seat in range(n)]
    built_tableaus = list(data["tableaus"])
    table_size = len(data["table"])
    ruin_stones = [list(stones.get(place, NO_STONES)) if stones else list(NO_STONES) for place in range(table_size)]
    data["ruin_stones"] = ruin_stones
    totals = [colour.count for colour in game.cards.stone_colours]
    data["bag"] = [
        totals[c] - sum(s[c] for s in ruin_stones) - sum(t.stones_by_colour[c] for t in built_tableaus)
        for c in range(len(totals))
    ]
    # Dice.
    dice_count = len(game.cards.die_sides)
    data["die_place"] = [[-1] * dice_count for _ in range(n)]
    data["die_value"] = [[0] * dice_count for _ in range(n)]
    data["die_face"] = [[0] * dice_count for _ in range(n)]
    for seat, die, place, value in dice:
        data["die_place"][seat][die] = place
        data["die_value"][seat][die] = value
        data["die_face"][seat][die] = value
    # Named Wonders.
    if named_built is not None:
        data["named_built"] = [[named_id(game, name) for name in named_built.get(seat, ())] for seat in range(n)]
    built = {k for seat in data["named_built"] for k in seat}
    if named_in_play is not None:
        # Setup draws players + 2 Named Wonders (validation counts them): fillers that fit no ring make up the rest.
        chosen = [named_id(game, name) for name in named_in_play]
        fillers = [named_id(game, name) for name in FILLER_NAMED if named_id(game, name) not in {*chosen, *built}]
        data["named_in_play"] = sorted([*chosen, *fillers][: max(len(chosen), n + 2 - len(built))])
    else:
        # The Named Wonders in play and built number players + 2: a built one leaves the setup's in-play ones.
        in_play = [k for k in data["named_in_play"] if k not in built]
        data["named_in_play"] = in_play[: max(0, n + 2 - len(built))]
    if end_of_age is not None:
        data["end_of_age"] = end_of_age_index(game, end_of_age)
    for name, value in fields.items():
        assert name in data, f"no state field {name!r}"
        data[name] = value
    # A seat that built Wonders has them on its tableau: one is drawn for it unless the test gave its tableau.
    for seat in range(n):
        wonders = [
            *([LESSER] * len(data["lesser_built"][seat])),
            *([GREATER] * len(data["greater_built"][seat])),
            *(NAMED_BASE + k for k in data["named_built"][seat]),
        ]
        if wonders and not data["tableaus"][seat].wonder_count and (tableaus is None or seat not in tableaus):
            data["tableaus"][seat] = tableau_with_wonders(*wonders)
    if "bag" not in fields:  # the bag holds every Stone not on a Ruin or in a tableau
        data["bag"] = [
            totals[c] - sum(s[c] for s in ruin_stones) - sum(t.stones_by_colour[c] for t in data["tableaus"])
            for c in range(len(totals))
        ]
    return from_runtime_fields(game, data)


def runtime_fields(state: UnearthState) -> dict[str, Any]:
    """The state's saved fields as the rules hold them (indices, not names), as lists a test can edit."""
    data = {name: _editable(getattr(state, f"{name}")) for name in state.field_names()}
    data["stack"] = stack_to_list(state.stack)
    return data


def from_runtime_fields(game: UnearthGame, data: Mapping[str, Any]) -> UnearthState:
    """The state of `runtime_fields`-shaped values, checked as a user's dict is: through its named dict form."""
    values = {name: freeze(value) for name, value in data.items()}
    values["tableaus"] = tuple(data["tableaus"])
    values["stack"] = stack_from_list(list(data["stack"]))
    unchecked = UnearthState(game=game, **values)
    return game.state_from_dict(json.loads(json.dumps(unchecked.to_dict())))


def _editable(value: Any) -> Any:
    """Tuples as lists, recursively (tableaus and frames kept)."""
    if isinstance(value, tuple) and not isinstance(value, DecisionFrame):
        return [_editable(item) for item in value]
    return value


def _set_delvers(
    game: UnearthGame,
    data: dict[str, Any],
    hands: Mapping[int, Mapping[str, int]],
    deck: Mapping[str, int] | None,
    discard: Mapping[str, int] | None,
) -> None:
    """Deal the hands from the Delver cards; the rest to the draw pile and the discard pile as asked."""
    assert deck is None or discard is None, "give the draw pile or the discard pile, the other is the rest"
    n = len(data["hands"])
    data["hands"] = [_per_type(game, hands.get(seat, {})) for seat in range(n)]
    totals = [delver.count for delver in game.cards.delvers]
    rest = [totals[t] - sum(hand[t] for hand in data["hands"]) for t in range(len(totals))]
    if deck is not None:
        data["delver_deck"] = _per_type(game, deck)
        data["delver_discard"] = [r - d for r, d in zip(rest, data["delver_deck"], strict=True)]
    else:
        data["delver_discard"] = _per_type(game, discard or {})
        data["delver_deck"] = [r - d for r, d in zip(rest, data["delver_discard"], strict=True)]


def _set_ruins(
    game: UnearthGame,
    data: dict[str, Any],
    table: Sequence[str | None] | None,
    hidden_ruins: Mapping[int, Sequence[str | int]] | None,
    removed: Sequence[str | int] | None,
    claimed: Mapping[int, Sequence[str | int]] | None,
    ruin_deck: Sequence[str | int] | None,
) -> None:
    """Place the Ruins asked for; the setup's hidden and removed Ruins give up any they take (refilled)."""
    n = len(data["hands"])
    if table is not None:
        data["table"] = [-1 if name is None else ruin_id(game, name) for name in table]
    if claimed is not None:
        data["claimed"] = [_ruin_ids(game, claimed.get(seat, ())) for seat in range(n)]
    taken = {r for r in data["table"] if r != -1} | {r for seat in data["claimed"] for r in seat}
    taken |= set(data["discarded_ruins"])
    if hidden_ruins is not None:
        data["hidden_ruins"] = [_ruin_ids(game, hidden_ruins.get(seat, ())) for seat in range(n)]
        taken |= {r for seat in data["hidden_ruins"] for r in seat}
    if removed is not None:
        data["removed"] = sorted(_ruin_ids(game, removed))
        taken |= set(data["removed"])
    deck_ruins = range(len(game.cards.ruins))
    spare = [r for r in deck_ruins if r not in taken and r not in data["removed"]]
    spare = [r for r in spare if all(r not in seat for seat in data["hidden_ruins"])]
    if hidden_ruins is None:
        for seat in range(n):
            mine = data["hidden_ruins"][seat]
            data["hidden_ruins"][seat] = [r if r not in taken else spare.pop(0) for r in mine]
        taken |= {r for seat in data["hidden_ruins"] for r in seat}
    if removed is None:
        data["removed"] = sorted(r if r not in taken else spare.pop(0) for r in data["removed"])
        taken |= set(data["removed"])
    if ruin_deck is not None:
        data["ruin_deck"] = sorted(_ruin_ids(game, ruin_deck))
        # Every Ruin card is somewhere: those the scenario leaves out were put back in the box after ties.
        taken |= set(data["ruin_deck"])
        data["discarded_ruins"] = sorted({*data["discarded_ruins"], *(r for r in deck_ruins if r not in taken)})
    else:
        data["ruin_deck"] = [r for r in deck_ruins if r not in taken]


# ---------------------------------------------------------------------------------------------- driving a state
def top_kind(state: UnearthState) -> str:
    """The kind of the frame on top of the stack ("" when none)."""
    return state.stack[-1].kind if state.stack else ""


def chance(state: UnearthState, kind: str, outcome: int) -> None:
    """Apply `outcome` to the chance event on top, which must be of `kind`."""
    assert state.current_player() == CHANCE, f"expected a chance event {kind!r}, the state waits for {describe(state)}"
    assert top_kind(state) == kind, f"expected a chance event {kind!r}, got {top_kind(state)!r}"
    outcomes = [o for o, _ in state.chance_outcomes()]
    assert outcome in outcomes, f"{kind}: outcome {outcome} is not possible (outcomes {outcomes})"
    state.apply_action(outcome)


def roll(state: UnearthState, face: int) -> None:
    """The die being rolled shows `face`."""
    chance(state, ROLL, face)


def rolls(state: UnearthState, *faces: int) -> None:
    """Several rolls in a row (a batch of rerolls), with nothing to decide between them."""
    for face in faces:
        roll(state, face)


def outcome_where(state: UnearthState, wanted: str) -> int:
    """The chance outcome whose omniscient label contains `wanted`."""
    matches = [o for o, _ in state.chance_outcomes() if wanted in state.chance_label(o)]
    labels = [state.chance_label(o) for o, _ in state.chance_outcomes()]
    assert len(matches) == 1, f"{wanted!r} names {len(matches)} outcomes of {labels}"
    return matches[0]


def draw(state: UnearthState, card: str) -> None:
    """The Delver card drawn (or dealt) now is `card`."""
    chance(state, "draw delver", delver_type(state.game, card))


def bag_stone(state: UnearthState, colour: int) -> None:
    """The Stone drawn from the bag now is of `colour`."""
    chance(state, "bag stone", colour)


def settle(state: UnearthState, seed: int = 0) -> list[str]:
    """Resolve chance events at random until a decision or the end; the labels of the outcomes drawn."""
    rng = np.random.default_rng(seed)
    labels = []
    while state.current_player() == CHANCE:
        outcome = state.sample_chance(rng)
        labels.append(state.chance_label(outcome))
        state.apply_action(outcome)
    return labels


def place_anywhere(state: UnearthState) -> None:
    """Place the Stone the state waits to place on the first legal cell (a tableau with Stones offers several)."""
    assert top_kind(state) == PLACE_STONE, top_kind(state)
    state.apply_action(state.legal_actions()[0])


def labels(state: UnearthState) -> list[str]:
    """Labels of the legal actions."""
    return [state.game.action_label(a) for a in state.legal_actions()]


def describe(state: UnearthState) -> str:
    """Who decides what now, in words (for failure messages)."""
    player = state.current_player()
    if player == TERMINAL:
        return "nothing (the game is over)"
    if player == CHANCE:
        return f"chance event {top_kind(state)!r}"
    return f"seat {player}: {top_kind(state)!r} among {labels(state)}"


def act(state: UnearthState, label: str, seat: int | None = None) -> None:
    """Take the decision labelled `label` (by seat `seat` when given), which must be legal now."""
    assert state.current_player() >= 0, f"expected a decision {label!r}, the state waits for {describe(state)}"
    if seat is not None:
        assert state.current_player() == seat, f"expected seat {seat} to decide {label!r}: {describe(state)}"
    action = state.game.action_id(label)
    assert action in state.legal_actions(), f"{label!r} is not legal: {describe(state)}"
    state.apply_action(action)


def play_card(state: UnearthState, name: str) -> None:
    """The active seat plays the Delver card `name` in its Delver Phase."""
    assert top_kind(state) == DELVER_PHASE, f"expected a Delver Phase: {describe(state)}"
    act(state, f"play: {name}")


def target_die(state: UnearthState, seat: int, die: int) -> None:
    """The decider targets die `die` of seat `seat` (a card acting on a die on a Ruin)."""
    decider = state.current_player()
    action = state.game.actions.target((seat - decider) % state.num_players, die)
    act(state, state.game.action_label(action))


def end_delver_phase(state: UnearthState) -> None:
    """End the Delver Phase if it waits for a decision (with no card left to play the rules ended it already)."""
    if top_kind(state) == DELVER_PHASE:
        act(state, "excavate")


def declare(state: UnearthState, die: int, place: int) -> None:
    """End the Delver Phase if it is on, then declare die `die` and the Ruin at `place` for the Excavation roll."""
    end_delver_phase(state)
    seat = state.active
    if top_kind(state) == EXCAVATION_DIE:
        act(state, f"roll die: {die_label(state.game, die)}")
    if top_kind(state) == EXCAVATION_RUIN:
        act(state, f"on ruin: place {place + 1}")
    # A single option is taken by the rules: check it was the one asked for.
    assert top_kind(state) == ROLL and state.stack[-1].detail("die") == die, describe(state)
    assert state.die_place[seat][die] == place, f"die {die} of seat {seat} is not on place {place}"


def excavate(state: UnearthState, die: int, place: int, face: int) -> None:
    """A whole Excavation roll: declare die and Ruin, then the die shows `face`."""
    declare(state, die, place)
    roll(state, face)


def take_stone(state: UnearthState, colour: int, seat: int | None = None) -> None:
    """Take a Stone of `colour` (from the Ruin, or of Underground Library's draws)."""
    act(state, f"take stone: {COLOUR_NAMES[colour]}", seat)


def place_stone(state: UnearthState, cell: int, seat: int | None = None) -> None:
    """Place the Stone gained on tableau cell `cell`."""
    act(state, f"place stone: cell {cell}", seat)


def pool_dice(state: UnearthState, seat: int) -> list[int]:
    """Seat `seat`'s dice in its pool."""
    return [die for die, place in enumerate(state.die_place[seat]) if place == -1]


def stones_gained(before: UnearthState, after: UnearthState, seat: int) -> int:
    """Stones seat `seat` added to its tableau between two states."""
    return after.tableaus[seat].stone_count - before.tableaus[seat].stone_count


def any_seat_draws(state: UnearthState) -> list[int]:
    """Seats of the Delver draws waiting on the stack, top first."""
    return [frame.detail("seat") for frame in reversed(state.stack) if frame.kind == "draw delver"]


def as_json(state: UnearthState) -> str:
    """The state's dict as canonical JSON."""
    return json.dumps(state.to_dict(), sort_keys=True)


def seats(state: UnearthState) -> range:
    """The seats of the game."""
    return range(state.num_players)


def stone_total(state: UnearthState) -> np.ndarray:
    """Stones per colour in the bag, on the Ruins and in the tableaus together."""
    total = np.array(state.bag) + np.sum(np.array(state.ruin_stones), axis=0)
    for tableau in state.tableaus:
        total = total + np.array(tableau.stones_by_colour)
    return np.asarray(total)
