"""Unearth positions that cannot happen, refused by `StateFormatError` naming the field.

`UnearthStateData.from_dict` decodes every field by its declaration (types, names, sizes); `validate_state` then
checks what a field alone cannot say: sizes that depend on the number of seats, every component somewhere exactly
once, dice within their faces, Wonders on the tableaus matching what each seat built, the End of Age card's effect,
and the decision stack (kinds, deciders, details and whose turn it is). A position a game can reach always passes;
tests/unearth/test_state_dicts.py plays random games and rebuilds every state from its dict.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from envs.core.decisions import DecisionFrame
from envs.core.game import CHANCE, StateFormatError
from envs.unearth import state as r
from envs.unearth.actions import MODIFIER_AMOUNTS
from envs.unearth.state import GREATER, LESSER, NAMED_BASE, NOWHERE, STEP_DONE, TABLE_SIZE
from envs.unearth.tableau import UNCHOSEN_WONDER

if TYPE_CHECKING:
    from envs.unearth.game import UnearthGame
    from envs.unearth.state import UnearthStateData


def validate_state(state: UnearthStateData) -> None:
    """Refuse a position no game reaches; StateFormatError names the first field found wrong."""
    _check_sizes(state)
    _check_ruins(state)
    _check_delvers_and_stones(state)
    _check_dice(state)
    _check_wonders(state)
    _check_end_of_age(state)
    _check_stack(state)
    _check_modifiers(state)
    _check_turn_counters(state)
    _check_decisions(state)


def _fail(field: str, message: str) -> StateFormatError:
    return StateFormatError(field, message)


def _check_sizes(state: UnearthStateData) -> None:
    n = state.game.spec.num_players
    size = TABLE_SIZE[n]
    if len(state.table) != size:
        raise _fail("table", f"a {n}-player game has {size} table places, got {len(state.table)}")
    if len(state.ruin_stones) != size:
        raise _fail("ruin_stones", f"expected one entry per table place ({size}), got {len(state.ruin_stones)}")
    for name in ("active", "first_player"):
        seat = getattr(state, name)
        if seat >= n:
            raise _fail(name, f"seat {seat} does not exist in a {n}-player game (seats 0..{n - 1})")
    if (state.active == NOWHERE) != (state.first_player == NOWHERE):
        raise _fail("active", "the first player and the active seat are chosen together at the end of setup")
    if state.active == NOWHERE and state.turn:
        raise _fail("turn", f"{state.turn} turns started before setup chose a first player")


def _check_ruins(state: UnearthStateData) -> None:
    """Every Ruin card of the deck is in exactly one place; an End of Age Ruin only once its card is revealed."""
    game = state.game
    names = state.name_tables().names["ruin"]
    deck_ruins = len(game.cards.ruins)
    places: dict[int, str] = {}

    def put(ruins: Iterable[int], field: str) -> None:
        for ruin in ruins:
            if ruin == NOWHERE:
                continue
            if ruin in places:
                raise _fail(field, f"Ruin {names[ruin]!r} is also in {places[ruin]} (every Ruin is in one place)")
            places[ruin] = field

    put(state.ruin_deck, "ruin_deck")
    put(state.removed, "removed")
    put(state.discarded_ruins, "discarded_ruins")
    put(state.table, "table")
    for seat in range(game.spec.num_players):
        put(state.hidden_ruins[seat], f"hidden_ruins[{seat}]")
        put(state.claimed[seat], f"claimed[{seat}]")
    for ruin, where in places.items():
        if ruin >= deck_ruins:
            owner = game.end_of_age_ruin.index(ruin)
            if not (state.end_of_age_revealed and state.end_of_age == owner):
                raise _fail(where, f"Ruin {names[ruin]!r} is an End of Age card that is not revealed")
            if where.split("[")[0] in ("ruin_deck", "removed", "hidden_ruins"):
                raise _fail(where, f"Ruin {names[ruin]!r} is an End of Age card: it is revealed on the table")
    missing = [names[ruin] for ruin in range(deck_ruins) if ruin not in places]
    if missing:
        raise _fail("ruin_deck", f"Ruins {missing} are nowhere (every Ruin card is in one place)")
    if state.end_of_age_revealed and state.end_of_age != NOWHERE:
        eoa_ruin = game.end_of_age_ruin[state.end_of_age]
        if eoa_ruin != NOWHERE and eoa_ruin not in places and not _pending(state, "stone to ruin"):
            raise _fail("table", f"the revealed End of Age Ruin {names[eoa_ruin]!r} is nowhere")
    seen = [seat for seat, flag in enumerate(state.removed_seen) if flag]
    for seat in seen:
        if not any(game.cards.named_wonders[k].effect.kind == "choose_removed_ruin" for k in state.named_built[seat]):
            raise _fail(f"removed_seen[{seat}]", "only a seat that built The Crumbling Memorial looked at them")


def _pending(state: UnearthStateData, kind: str) -> bool:
    return any(frame.kind == kind for frame in state.stack)


def _check_delvers_and_stones(state: UnearthStateData) -> None:
    """Every Delver card and Stone is somewhere exactly once."""
    game = state.game
    for t, delver in enumerate(game.cards.delvers):
        held = state.delver_deck[t] + state.delver_discard[t] + sum(hand[t] for hand in state.hands)
        if held != delver.count:
            raise _fail(
                "hands", f"{delver.name}: {held} copies in deck, discard and hands, the game has {delver.count}"
            )
    for c, colour in enumerate(game.cards.stone_colours):
        held = state.bag[c] + sum(stones[c] for stones in state.ruin_stones)
        held += sum(tableau.stones_by_colour[c] for tableau in state.tableaus)
        held += sum(1 for drawn in state.library_draws if drawn == c)
        held += sum(1 for frame in state.stack if frame.kind == "place stone" and frame.detail("colour") == c)
        if held != colour.count:
            raise _fail("bag", f"{colour.name} Stones: {held} in bag, Ruins and tableaus, the game has {colour.count}")
    for place, ruin in enumerate(state.table):
        if ruin == NOWHERE and any(state.ruin_stones[place]):
            raise _fail(f"ruin_stones[{place}]", "Stones on a table place without a Ruin")


def _check_dice(state: UnearthStateData) -> None:
    """A die shows a face it has; a die on a Ruin sits on a place that holds one and shows a result."""
    sides = state.game.cards.die_sides
    names = state.name_tables().names["die"]
    for seat in range(state.game.spec.num_players):
        for die, faces in enumerate(sides):
            where = f"dice[{seat}].{names[die]}"
            place, value, face = state.die_place[seat][die], state.die_value[seat][die], state.die_face[seat][die]
            for label, number in (("value", value), ("rolled", face)):
                if number > faces:
                    raise _fail(f"{where}.{label}", f"a d{faces} shows 1..{faces}, got {number}")
            if place == NOWHERE:
                continue
            if place >= len(state.table) or state.table[place] == NOWHERE:
                raise _fail(f"{where}.place", f"table place {place} holds no Ruin")
            rolling = any(f.kind == "roll" and (f.detail("seat"), f.detail("die")) == (seat, die) for f in state.stack)
            if (value < 1 or face < 1) and not rolling:
                raise _fail(f"{where}.value", "a die on a Ruin shows the result it was rolled for (1 or more)")


@functools.lru_cache(maxsize=8)
def named_wonders_drawn(game: UnearthGame) -> int:
    """The Named Wonders a game's setup draws ("draw Wonder cards equal to the number of players plus 2"): its
    pending draws of one (game.py pushes them)."""
    return sum(1 for frame in game.new_initial_state().stack if frame.kind == r.CHOOSE_NAMED)


def _check_wonders(state: UnearthStateData) -> None:
    """The Wonders on each tableau are the ones its seat built; tokens and Named Wonders are each in one place."""
    game = state.game
    n = game.spec.num_players
    named = state.name_tables().names["named_wonder"]
    built_named: dict[int, str] = {}
    for seat in range(n):
        for k in state.named_built[seat]:
            if k in built_named:
                raise _fail(f"named_built[{seat}]", f"{named[k]!r} is also built by {built_named[k]}")
            built_named[k] = f"seat {seat}"
    in_play = Counter(state.named_in_play)
    for k, copies in in_play.items():
        if copies > 1:
            raise _fail("named_in_play", f"{named[k]!r} is in play {copies} times")
        if k in built_named:
            raise _fail("named_in_play", f"{named[k]!r} is in play and built by {built_named[k]}")
    # Setup draws players + 2 Named Wonders, one chance event each; building one moves it from play to its seat.
    to_draw = sum(1 for frame in state.stack if frame.kind == r.CHOOSE_NAMED)
    setup_draws = named_wonders_drawn(game)
    if len(in_play) + len(built_named) + to_draw != setup_draws:
        raise _fail(
            "named_in_play",
            f"a {n}-player game draws {setup_draws} Named Wonders at setup, got {len(in_play)} in play, "
            f"{len(built_named)} built and {to_draw} still to draw",
        )
    pending = Counter(
        (frame.detail("seat"), frame.detail("centre")) for frame in state.stack if frame.kind in _BUILDING_KINDS
    )
    for seat in range(n):
        wonders = state.tableaus[seat].wonders
        kinds = Counter(wonder for _, wonder in wonders)
        where = f"tableaus[{seat}].wonders"
        for kind, built, label in ((LESSER, state.lesser_built, "Lesser"), (GREATER, state.greater_built, "Greater")):
            if kinds[kind] != len(built[seat]):
                attribute = "lesser_built" if kind == LESSER else "greater_built"
                raise _fail(
                    f"{attribute}[{seat}]",
                    f"{len(built[seat])} {label} Wonder tokens built, the tableau has {kinds[kind]} {label} Wonders",
                )
        on_tableau = sorted(wonder - NAMED_BASE for _, wonder in wonders if wonder >= NAMED_BASE)
        if on_tableau != sorted(state.named_built[seat]):
            raise _fail(f"named_built[{seat}]", "the Named Wonders built are not the ones on the tableau")
        for centre, wonder in wonders:
            if wonder == UNCHOSEN_WONDER and not pending[(seat, centre)]:
                raise _fail(where, f"the Wonder at {state.tableaus[seat].hex_at(centre)} is not being built")
    for size, stack_field, built_field, box in (
        ("Lesser", "lesser_tokens", "lesser_built", game.cards.lesser_tokens),
        ("Greater", "greater_tokens", "greater_built", game.cards.greater_tokens),
    ):
        stack = Counter(getattr(state, stack_field))
        held = stack + Counter(points for seat in getattr(state, built_field) for points in seat)
        boxed = Counter(box)
        extra_zeros = held[0] - boxed[0]
        if extra_zeros > 0 and sum(stack.values()) == 0:  # a ring closed with no token left is worth 0 (RULES.md)
            held[0] -= extra_zeros
        # A hand-written position may leave tokens out (built by no seat of the scenario: the stack ran out), but a
        # token never appears twice or from nowhere (RULES.md, "State dicts").
        if held - boxed:
            extra = sorted((held - boxed).elements())
            raise _fail(stack_field, f"{size} Wonder tokens {extra} are more than the box's {sorted(box)}")


def _check_end_of_age(state: UnearthStateData) -> None:
    """The End of Age card is revealed only once the Ruins deck is empty, and its event then holds."""
    cards = state.game.cards
    if state.end_of_age_revealed:
        if state.end_of_age == NOWHERE:
            raise _fail("end_of_age", "revealed, but no End of Age card was chosen")
        if state.ruin_deck:
            raise _fail("end_of_age_revealed", "the End of Age card is revealed only once the Ruins deck is empty")
    if state.end_of_age == NOWHERE and not any(frame.kind == r.CHOOSE_END_OF_AGE for frame in state.stack):
        raise _fail("end_of_age", "setup chose the End of Age card: it is null only while that draw is pending")
    card = cards.end_of_age[state.end_of_age] if state.end_of_age != NOWHERE else None
    expected = 0
    if state.end_of_age_revealed and card is not None and card.effect is not None:
        if card.effect.kind == "all_rolls_modifier":
            expected = card.effect.amount
    if state.roll_modifier != expected:
        why = f"the revealed {card.name!r}" if expected and card is not None else "no revealed End of Age event"
        raise _fail("roll_modifier", f"{why} sets it to {expected}, got {state.roll_modifier}")


# ---------------------------------------------------------------------------------------------- the stack
_BUILDING_KINDS = ("build wonder", "wonder token")
_TURN_BASE = (r.START_TURN, r.DELVER_PHASE, r.END_TURN)
"""Frames a turn stands on: each is pushed when nothing else is pending."""


def _detail_bounds(state: UnearthStateData) -> dict[str, tuple[int, int] | type]:
    game = state.game
    cells = state.tableaus[0].geometry.size if state.tableaus else 0
    return {
        "seat": (0, game.spec.num_players - 1),
        "die": (0, len(game.cards.die_sides) - 1),
        "place": (NOWHERE, len(state.table) - 1),
        "colour": (0, len(game.cards.stone_colours) - 1),
        "centre": (0, cells - 1),
        "card": (0, len(game.cards.delvers) - 1),
        "wonder": (0, len(game.cards.named_wonders) - 1),
        "step": (0, STEP_DONE),
        "greater": bool,
        "library": bool,
        "excavation": bool,
        "batch": bool,
        "edifice_used": bool,
        "reroll_of_excavation": bool,
    }


def _frame_kinds() -> dict[str, tuple[str, tuple[str, ...]]]:
    """Every frame kind: who decides it ("chance", "seat" or "turn": the active seat) and its required details."""
    roll = ("seat", "die")
    return {
        r.DELVER_PHASE: ("turn", ()),
        r.TARGET_DIE: ("turn", ("card",)),
        r.NAME_NUMBER: ("turn", ()),
        r.EXCAVATION_DIE: ("turn", ()),
        r.EXCAVATION_RUIN: ("turn", roll),
        r.READING_SIGN: ("turn", roll),
        r.WONDER_MODIFIER: ("seat", (*roll, "wonder")),
        r.MODIFIER_ORDER: ("turn", roll),
        r.MAP_REROLL: ("turn", (*roll, "step")),
        r.EDIFICE_REROLL: ("seat", (*roll, "step")),
        r.TAKE_STONE: ("seat", ("seat", "place")),
        r.PLACE_STONE: ("seat", ("seat", "colour")),
        r.BUILD_WONDER: ("seat", ("seat", "centre")),
        r.CHOOSE_REMOVED: ("seat", ("seat",)),
        r.DEAL_DELVER: ("chance", ("seat",)),
        r.DEAL_HIDDEN_RUIN: ("chance", ("seat",)),
        r.REMOVE_RUIN: ("chance", ()),
        r.CHOOSE_END_OF_AGE: ("chance", ()),
        r.REVEAL_RUIN: ("chance", ("place",)),
        r.STONE_TO_RUIN: ("chance", ("place",)),
        r.CHOOSE_NAMED: ("chance", ()),
        r.FIRST_PLAYER: ("chance", ()),
        r.DRAW_DELVER: ("chance", ("seat",)),
        r.ROLL: ("chance", roll),
        r.BAG_STONE: ("chance", ("seat", "library")),
        r.WONDER_TOKEN: ("chance", ("seat", "centre", "greater")),
        r.DRAW_REMOVED: ("chance", ("seat",)),
        r.START_TURN: ("turn", ()),
        r.END_TURN: ("turn", ()),
        r.EXCAVATE: ("turn", ()),
        r.RESOLVE_ROLL: ("seat", (*roll, "step")),
        r.APPLY_MODIFIERS: ("seat", roll),
        r.GAIN_STONE: ("seat", ("seat", "place")),
        r.CHECK_CLAIMS: ("turn", ()),
    }


TURN_COUNTERS = {
    "map_rerolls": "reroll_excavation",
    "extra_dice": "two_dice",
    "expeditions": "choose_ruin_after_roll",
    "reading": "next_roll_modifier",
    "ancestral": "next_d6_modifier",
}
"""Each counter of the turn and the Delver card effect that adds one to it."""


def _check_turn_counters(state: UnearthStateData) -> None:
    """A turn's counter counts cards played this turn: never more than the copies of its card in the game."""
    delvers = state.game.cards.delvers
    for name, effect in TURN_COUNTERS.items():
        copies = sum(delver.count for delver in delvers if delver.effect.kind == effect)
        value = getattr(state, name)
        if value > copies:
            raise _fail(name, f"counts cards played this turn, and the game has {copies} of them, got {value}")


def _check_decisions(state: UnearthStateData) -> None:
    bound = state.game.spec.max_game_length
    if state.decisions > bound:
        raise _fail(
            "decisions", f"a game lasts at most {bound} decisions (the spec's max_game_length), got {state.decisions}"
        )


def _check_modifiers(state: UnearthStateData) -> None:
    """Gathered modifiers are amounts a card, a Wonder or an event gives, waiting for a roll's modifiers step."""
    for i, amount in enumerate(state.modifiers):
        if amount not in MODIFIER_AMOUNTS:
            raise _fail(f"modifiers[{i}]", f"a modifier is one of {list(MODIFIER_AMOUNTS)}, got {amount}")
    if state.modifiers and not any(frame.kind in (r.APPLY_MODIFIERS, r.MODIFIER_ORDER) for frame in state.stack):
        raise _fail("modifiers", "modifiers are gathered only for a roll whose modifiers are still to be applied")


def _check_stack(state: UnearthStateData) -> None:
    """Known kinds, the right decider, every detail a frame needs and nothing it does not, in range."""
    if state.over and state.stack:
        raise _fail("stack", "the game is over: nothing is pending")
    if not state.over and not state.stack:
        raise _fail("stack", "the game is not over, so something must be pending (a decision, a draw or a step)")
    kinds = _frame_kinds()
    bounds = _detail_bounds(state)
    for i, frame in enumerate(state.stack):
        _check_frame(state, frame, f"stack[{i}]", kinds, bounds)
        # A turn's own frames are pushed on an emptied stack: everything of the turn happens above them.
        if i and frame.kind in _TURN_BASE:
            raise _fail(f"stack[{i}].kind", f"{frame.kind!r} is at the bottom of the stack, under the turn's steps")


def _check_frame(
    state: UnearthStateData,
    frame: DecisionFrame,
    where: str,
    kinds: dict[str, tuple[str, tuple[str, ...]]],
    bounds: dict[str, Any],
) -> None:
    if frame.kind not in kinds:
        raise _fail(f"{where}.kind", f"unknown kind {frame.kind!r} (kinds: {', '.join(kinds)})")
    decider, required = kinds[frame.kind]
    n = state.game.spec.num_players
    if decider == "chance" and frame.seat != CHANCE:
        raise _fail(f"{where}.seat", f"{frame.kind!r} is a chance event: its seat is CHANCE ({CHANCE})")
    if decider != "chance" and not 0 <= frame.seat < n:
        raise _fail(f"{where}.seat", f"{frame.kind!r} is decided by a seat 0..{n - 1}, got {frame.seat}")
    if decider == "turn" and frame.seat != state.active:
        raise _fail(
            f"{where}.seat", f"{frame.kind!r} belongs to the active seat's turn ({state.active}), got seat {frame.seat}"
        )
    if decider == "seat" and frame.detail("seat") is not None and frame.seat != frame.detail("seat"):
        raise _fail(f"{where}.seat", f"{frame.kind!r} is decided by its seat detail ({frame.detail('seat')})")
    keys = [key for key, _ in frame.details]
    for key in required:
        if key not in keys:
            raise _fail(f"{where}.details.{key}", f"missing ({frame.kind!r} needs {', '.join(required)})")
    for key, value in frame.details:
        bound = bounds.get(key)
        path = f"{where}.details.{key}"
        if bound is None:
            raise _fail(path, f"unknown detail (details: {', '.join(bounds)})")
        if bound is bool:
            if not isinstance(value, bool):
                raise _fail(path, f"expected true or false, got {value!r}")
        elif key == "step" and value is None:
            continue
        elif isinstance(value, bool) or not isinstance(value, int) or not bound[0] <= value <= bound[1]:
            raise _fail(path, f"expected an integer in {bound[0]}..{bound[1]}, got {value!r}")
    if frame.kind in (r.REVEAL_RUIN, r.STONE_TO_RUIN) and frame.detail("place") == NOWHERE:
        raise _fail(f"{where}.details.place", "a Ruin is revealed on a table place (0 or more)")
    if frame.kind == r.REVEAL_RUIN and state.table[frame.detail("place")] != NOWHERE:
        raise _fail(f"{where}.details.place", f"place {frame.detail('place')} already holds a Ruin")
