"""Unearth states from their dict form (`UnearthState.to_dict`), refusing anything malformed by field name."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from envs.core.decisions import stack_from_list
from envs.core.game import StateFormatError
from envs.unearth.tableau import TABLEAU_RADIUS, Tableau

if TYPE_CHECKING:
    from envs.unearth.game import UnearthGame
    from envs.unearth.rules import UnearthState


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(item) for item in value)
    return value


def _int(value: Any, field: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise StateFormatError(field, f"expected an integer in {low}..{high}, got {value!r}")
    return value


def _ints(value: Any, field: str, low: int, high: int, length: int | None = None) -> tuple[int, ...]:
    if not isinstance(value, (list, tuple)):
        raise StateFormatError(field, f"expected a list of integers, got {value!r}")
    if length is not None and len(value) != length:
        raise StateFormatError(field, f"expected {length} entries, got {len(value)}")
    return tuple(_int(item, f"{field}[{i}]", low, high) for i, item in enumerate(value))


def _per_seat(value: Any, field: str, seats: int) -> list[Any]:
    if not isinstance(value, (list, tuple)) or len(value) != seats:
        raise StateFormatError(field, f"expected one entry per seat ({seats}), got {value!r}")
    return list(value)


def state_from_dict(game: UnearthGame, data: dict[str, Any]) -> UnearthState:
    """Rebuild a state; StateFormatError names the first missing, unknown or malformed field."""
    from envs.unearth.rules import NOWHERE, UnearthState, state_fields

    if not isinstance(data, dict):
        raise StateFormatError("", f"expected a mapping of fields, got {type(data).__name__}")
    names = state_fields()
    missing = [name for name in names if name not in data and name != "decisions"]
    if missing:
        raise StateFormatError(missing[0], "missing")
    unknown = sorted(set(data) - set(names))
    if unknown:
        raise StateFormatError(unknown[0], f"unknown field (the fields are {names})")
    n = game.spec.num_players
    cards = game.cards
    types = len(cards.delvers)
    ruin_ids = len(game.ruins)
    dice = len(cards.die_sides)
    colours = len(cards.stone_colours)
    table_size = len(game.new_table())
    values: dict[str, Any] = {}
    values["hands"] = tuple(
        _ints(hand, f"hands[{seat}]", 0, 99, types) for seat, hand in enumerate(_per_seat(data["hands"], "hands", n))
    )
    values["delver_deck"] = _ints(data["delver_deck"], "delver_deck", 0, 99, types)
    values["delver_discard"] = _ints(data["delver_discard"], "delver_discard", 0, 99, types)
    for name in ("ruin_deck", "removed", "discarded_ruins"):
        values[name] = _ints(data[name], name, 0, ruin_ids - 1)
    seen = _per_seat(data["removed_seen"], "removed_seen", n)
    if not all(isinstance(flag, bool) for flag in seen):
        raise StateFormatError("removed_seen", f"expected one true/false per seat, got {seen!r}")
    values["removed_seen"] = tuple(seen)
    values["end_of_age"] = _int(data["end_of_age"], "end_of_age", NOWHERE, len(cards.end_of_age) - 1)
    for name in ("end_of_age_revealed", "over"):
        if not isinstance(data[name], bool):
            raise StateFormatError(name, f"expected true or false, got {data[name]!r}")
        values[name] = data[name]
    values["roll_modifier"] = _int(data["roll_modifier"], "roll_modifier", -5, 5)
    values["table"] = _ints(data["table"], "table", NOWHERE, ruin_ids - 1, table_size)
    stones = data["ruin_stones"]
    if not isinstance(stones, list) or len(stones) != table_size:
        raise StateFormatError("ruin_stones", f"expected one entry per table place ({table_size}), got {stones!r}")
    values["ruin_stones"] = tuple(_ints(s, f"ruin_stones[{i}]", 0, 60, colours) for i, s in enumerate(stones))
    values["bag"] = _ints(data["bag"], "bag", 0, 60, colours)
    values["die_place"] = tuple(
        _ints(p, f"die_place[{seat}]", NOWHERE, table_size - 1, dice)
        for seat, p in enumerate(_per_seat(data["die_place"], "die_place", n))
    )
    for name in ("die_value", "die_face"):
        values[name] = tuple(
            _ints(v, f"{name}[{seat}]", 0, max(cards.die_sides), dice)
            for seat, v in enumerate(_per_seat(data[name], name, n))
        )
    for name in ("hidden_ruins", "claimed"):
        values[name] = tuple(
            _ints(r, f"{name}[{seat}]", 0, ruin_ids - 1) for seat, r in enumerate(_per_seat(data[name], name, n))
        )
    values["tableaus"] = tuple(
        Tableau.from_dict(t, f"tableaus[{seat}]") for seat, t in enumerate(_per_seat(data["tableaus"], "tableaus", n))
    )
    for seat, tableau in enumerate(values["tableaus"]):
        if tableau.radius != TABLEAU_RADIUS:
            raise StateFormatError(
                f"tableaus[{seat}].radius", f"every tableau is a grid of radius {TABLEAU_RADIUS}, got {tableau.radius}"
            )
    for name in ("lesser_built", "greater_built"):
        values[name] = tuple(
            _ints(v, f"{name}[{seat}]", 0, 20) for seat, v in enumerate(_per_seat(data[name], name, n))
        )
    values["named_built"] = tuple(
        _ints(v, f"named_built[{seat}]", 0, len(cards.named_wonders) - 1)
        for seat, v in enumerate(_per_seat(data["named_built"], "named_built", n))
    )
    for name in ("lesser_tokens", "greater_tokens"):
        values[name] = _ints(data[name], name, 0, 20)
    values["named_in_play"] = _ints(data["named_in_play"], "named_in_play", 0, len(cards.named_wonders) - 1)
    values["active"] = _int(data["active"], "active", NOWHERE, n - 1)
    values["first_player"] = _int(data["first_player"], "first_player", NOWHERE, n - 1)
    for name in ("turn", "map_rerolls", "extra_dice", "expeditions", "reading", "ancestral"):
        values[name] = _int(data[name], name, 0, 100_000)
    values["decisions"] = _int(data.get("decisions", 0), "decisions", 0, 10**9)
    values["modifiers"] = _ints(data["modifiers"], "modifiers", -5, 5)
    values["library_draws"] = _ints(data["library_draws"], "library_draws", 0, colours - 1)
    values["stack"] = stack_from_list(data["stack"], "stack")
    _check_conservation(game, values)
    state = UnearthState(game=game, **values)
    state._run()  # a hand-written scenario may start on an automatic step (a saved state never does)
    return state


def _check_conservation(game: UnearthGame, values: dict[str, Any]) -> None:
    """Every Delver card and Stone is somewhere exactly once."""
    for t, delver in enumerate(game.cards.delvers):
        held = values["delver_deck"][t] + values["delver_discard"][t] + sum(hand[t] for hand in values["hands"])
        if held != delver.count:
            raise StateFormatError(
                "hands", f"{delver.name}: {held} copies in deck, discard and hands, the game has {delver.count}"
            )
    for c, colour in enumerate(game.cards.stone_colours):
        held = values["bag"][c] + sum(s[c] for s in values["ruin_stones"])
        held += sum(t.stones_by_colour[c] for t in values["tableaus"])
        held += sum(1 for d in values["library_draws"] if d == c)
        held += sum(1 for f in values["stack"] if f.kind == "place stone" and f.detail("colour") == c)
        if held != colour.count:
            raise StateFormatError(
                "bag", f"{colour.name} Stones: {held} in bag, Ruins and tableaus, the game has {colour.count}"
            )
