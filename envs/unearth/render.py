"""Unearth as text (`state_text`, the observers' and `debug_text`'s table) and as a picture (`render_rgb`).

Both show a seat only what it may see: its own hand, hidden Ruins and Wonder token values; the other seats' are
counted, face down. `state_text(..., omniscient=True)` shows everything, the decks and the End of Age card included
(debugging). The picture is the public view.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence

import numpy as np
from PIL import Image, ImageDraw

from envs.core.decisions import DecisionFrame
from envs.core.game import State
from envs.unearth.cards import UnearthCards
from envs.unearth.rules import GREATER, LESSER, NAMED_BASE, NOWHERE, PLACE_STONE, UnearthState
from envs.unearth.tableau import (
    COLOUR_LETTERS,
    COLOUR_NAMES,
    EMPTY_LETTER,
    UNCHOSEN_WONDER,
    UNCHOSEN_WONDER_LETTER,
    WONDER_LETTER,
    Tableau,
)

TABLEAU_MARGIN = 1
"""Rows and hexes of empty grid kept around a drawn tableau's stones."""
TABLEAU_CACHE = 256
"""Tableau drawings kept (`tableau_ascii`): a tableau changes only when a Stone is placed."""
TABLEAU_LEGEND = (
    "Tableaux: Stones "
    + ", ".join(f"{letter} {name}" for letter, name in zip(COLOUR_LETTERS, COLOUR_NAMES, strict=True))
    + f"; {WONDER_LETTER} Wonder ({UNCHOSEN_WONDER_LETTER}: not chosen yet); a b c ... legal cells"
)


# ============================================================================================ text
def state_text(state: UnearthState, player: int | None, omniscient: bool = False) -> str:
    """Everything seat `player` may see (None: the public view; `omniscient`: every hidden part too) as text."""
    n = state.num_players
    who = "omniscient view" if omniscient else "public view" if player is None else f"seat {player}'s view"
    lines = [f"Unearth, {n} players ({who})"]
    if state.over:
        totals = ", ".join(f"seat {seat} {points:g}" for seat, points in enumerate(state.score()))
        lines.append(f"Game over. Final points: {totals}")
    elif state.active == NOWHERE:
        lines.append("Setting up.")
    else:
        lines.append(f"Turn {state.turn}: seat {state.active}'s turn (first player: seat {state.first_player}).")
    frame = state.decision()
    if frame is not None:
        lines.append(f"Decision: {describe_decision(state, frame)}")
    lines.extend(_turn_lines(state))
    lines.append(_end_of_age_line(state, omniscient))
    bag = ", ".join(f"{name} {count}" for name, count in zip(COLOUR_NAMES, state.bag, strict=True))
    lines.append(
        f"Bag: {bag} | Wonder tokens left: {len(state.lesser_tokens)} Lesser, {len(state.greater_tokens)} Greater"
    )
    lines.extend(named_wonder_lines(state))
    discard = _card_counts(state, state.delver_discard)
    lines.append(f"Delver deck: {sum(state.delver_deck)} cards | discard: {discard or 'empty'}")
    if omniscient:
        lines.append(f"  [deck] {_card_counts(state, state.delver_deck) or 'empty'}")
        lines.append(f"  [Ruins deck] {_ruin_names(state, state.ruin_deck) or 'empty'}")
    if omniscient or (player is not None and state.removed_seen[player]):
        lines.append(f"Removed at setup: {_ruin_names(state, state.removed) or 'none'}")
    if state.discarded_ruins:
        lines.append(f"Back in the box after a tie: {_ruin_names(state, state.discarded_ruins)}")
    lines.append("Ruins on the table:")
    lines.extend(f"  {_place_line(state, place)}" for place in range(len(state.table)))
    lines.append(TABLEAU_LEGEND)
    for seat in range(n):
        # Hidden Ruins and Wonder tokens are revealed for the final scoring; hands never are.
        lines.extend(
            _seat_lines(state, seat, own=omniscient or seat == player, revealed=state.over, you=seat == player)
        )
    return "\n".join(lines)


def describe_decision(state: UnearthState, frame: DecisionFrame) -> str:
    """The pending decision in words: who decides, what, why, and on what (die, place, Stone, ring, card)."""
    cards = state.game.cards
    parts = [f"seat {frame.seat} decides: {frame.kind}"]
    if frame.reason:
        parts.append(f"({frame.reason})")
    seat, die = frame.detail("seat"), frame.detail("die")
    context = []
    if seat is not None and die is not None:
        context.append(f"seat {seat}'s die {die + 1} (d{cards.die_sides[die]})")
    place = frame.detail("place")
    if place is not None:
        context.append("the Underground Library draws" if place == NOWHERE else f"place {place + 1}")
    if frame.detail("colour") is not None:
        context.append(f"a {COLOUR_NAMES[frame.detail('colour')]} Stone")
    centre = frame.detail("centre")
    if centre is not None and seat is not None:
        ring = "".join(COLOUR_NAMES[c][0].upper() for c in state.tableaus[seat].ring_colours(centre) if c >= 0)
        context.append(f"the ring around {state.tableaus[seat].hex_at(centre)} ({ring})")
    if frame.detail("card") is not None:
        context.append(f"card {cards.delvers[frame.detail('card')].name}")
    if frame.detail("wonder") is not None:
        context.append(f"Wonder {cards.named_wonders[frame.detail('wonder')].name}")
    if context:
        parts.append("on " + ", ".join(context))
    return " ".join(parts)


FORMULA_LEGEND = (
    f"formula: a ring of 6 Stones; {' '.join(COLOUR_LETTERS)} a Stone of that colour, ? any colour, "
    "1 2 3 each a colour of its own"
)
"""How to read a Named Wonder's formula (`StoneFormula.notation`)."""
LEGAL_CELL_KEYS = "abcdefghijkmnopqrstuvxyz"
"""The letters that mark the legal cells of a tableau while a seat places a Stone, in cell order (no `l` or `w`,
which read as 1 or as an unchosen Wonder); cells beyond them are marked with `LEGAL_LETTER`."""


def named_wonder_lines(state: UnearthState) -> list[str]:
    """The Named Wonders in play, each with its formula, points and text, and how to read a formula."""
    named = state.game.cards.named_wonders
    if not state.named_in_play:
        return ["Named Wonders in play: none"]
    lines = [f"Named Wonders in play ({FORMULA_LEGEND}):"]
    for k in state.named_in_play:
        wonder = named[k]
        lines.append(f"  {wonder.name} [{wonder.formula.notation}], {wonder.points} points: {wonder.text}")
    return lines


def legal_cell_keys(tableau: Tableau) -> dict[int, str]:
    """The letter marking each legal cell of `tableau` (in cell order, so in the order of the place-stone ids)."""
    return {int(cell): key for cell, key in zip(tableau.legal_cells(), LEGAL_CELL_KEYS, strict=False)}


def _turn_lines(state: UnearthState) -> list[str]:
    """This turn's counters and the modifiers waiting to apply, when there are any."""
    counters = {
        "Ancient Map rerolls": state.map_rerolls,
        "extra dice": state.extra_dice,
        "Expeditions": state.expeditions,
        "Reading the Stones": state.reading,
        "Ancestral Claims": state.ancestral,
    }
    shown = ", ".join(f"{name} {count}" for name, count in counters.items() if count)
    lines = [f"This turn: {shown}"] if shown else []
    if state.modifiers:
        lines.append("Pending modifiers: " + ", ".join(f"{amount:+d}" for amount in state.modifiers))
    if state.library_draws:
        lines.append("Underground Library draws: " + ", ".join(COLOUR_NAMES[c] for c in state.library_draws))
    return lines


def _end_of_age_line(state: UnearthState, omniscient: bool) -> str:
    """The End of Age card: face down under the deck (its name only if omniscient), or revealed."""
    deck = f"{len(state.ruin_deck)} Ruins left in the deck, {len(state.removed)} removed"
    if state.end_of_age == NOWHERE:
        return f"End of Age: not chosen yet ({deck})"
    card = state.game.cards.end_of_age[state.end_of_age]
    if state.end_of_age_revealed:
        modifier = f"; every die rolled gets {state.roll_modifier:+d}" if state.roll_modifier else ""
        return f"End of Age: revealed, {card.name} ({card.text}){modifier} ({deck})"
    secret = f" [{card.name}]" if omniscient else ""
    return f"End of Age: face down under the Ruins deck{secret} ({deck})"


def _place_line(state: UnearthState, place: int) -> str:
    """One table place: its Ruin, claim value, Stones and dice with their total."""
    ruin_id = state.table[place]
    if ruin_id == NOWHERE:
        return f"place {place + 1}: (empty)"
    ruin = state.game.ruins[ruin_id]
    stones = _stone_counts(state.ruin_stones[place])
    dice = state.dice_on(place)
    shown = ", ".join(f"seat {die.owner} d{die.faces}={die.value}" for die in dice)
    total = sum(die.value for die in dice)
    points = f", {ruin.points:+d} points" if ruin.points else ""
    return (
        f"place {place + 1}: {_ruin_name(state, ruin_id)} (claim {ruin.claim}{points}) | Stones: {stones or 'none'}"
        f" | dice: {shown or 'none'} (total {total}/{ruin.claim})"
    )


def _seat_lines(state: UnearthState, seat: int, own: bool, revealed: bool, you: bool) -> list[str]:
    """One seat: its hand (if `own`), dice, hidden and claimed Ruins, Wonders (face down unless `own` or
    `revealed`) and tableau (with the legal cells while it places a Stone)."""
    cards = state.game.cards
    visible = own or revealed
    title = f"Seat {seat}{' (you)' if you else ''}"
    hand = f": {_card_counts(state, state.hands[seat]) or 'none'}" if own else ""
    lines = [f"{title}: {_count(sum(state.hands[seat]), 'Delver card')}{hand}"]
    if own:
        delvers = cards.delvers
        lines.extend(f"    {delvers[t].name}: {delvers[t].text}" for t, count in enumerate(state.hands[seat]) if count)
    pool = [f"d{cards.die_sides[die]}" for die, place in enumerate(state.die_place[seat]) if place == NOWHERE]
    placed = [
        f"d{cards.die_sides[die]}={state.die_value[seat][die]} at place {place + 1}"
        for die, place in enumerate(state.die_place[seat])
        if place != NOWHERE
    ]
    lines.append(f"  dice in the pool: {' '.join(pool) or 'none'} | on Ruins: {', '.join(placed) or 'none'}")
    hidden = state.hidden_ruins[seat]
    if visible:
        lines.append(f"  hidden Ruins: {_ruin_names(state, hidden) or 'none'}")
    else:
        lines.append(f"  hidden Ruins: {len(hidden)} face down")
    lines.append(f"  claimed: {_ruin_names(state, state.claimed[seat]) or 'none'}")
    lesser, greater = state.lesser_built[seat], state.greater_built[seat]
    wonders = []
    if lesser:
        wonders.append(f"Lesser {_token_values(lesser) if visible else f'x{len(lesser)} (face down)'}")
    if greater:
        wonders.append(f"Greater {_token_values(greater) if visible else f'x{len(greater)} (face down)'}")
    wonders.extend(cards.named_wonders[k].name for k in state.named_built[seat])
    lines.append(f"  Wonders: {', '.join(wonders) or 'none'}")
    tableau = state.tableaus[seat]
    stones = _stone_counts(tableau.stones_by_colour)
    lines.append(
        f"  tableau: {_count(tableau.stone_count, 'Stone')} ({stones or 'none'}), "
        f"{_count(tableau.wonder_count, 'Wonder')}"
    )
    frame = state.decision()
    placing = frame is not None and frame.kind == PLACE_STONE and frame.detail("seat") == seat
    if tableau.stone_count:
        lines.extend(f"    {row}" for row in tableau_ascii(tableau, placing).splitlines())
    if placing:
        lines.append("  place the Stone on a lettered cell (the choices name the letters)")
    return lines


@functools.lru_cache(maxsize=TABLEAU_CACHE)
def tableau_ascii(tableau: Tableau, show_legal: bool = False) -> str:
    """`Tableau.draw_ascii` cropped to the stones (`crop_ascii`), the legal cells lettered (`legal_cell_keys`) when
    `show_legal`; cached, as a tableau is immutable."""
    keys = legal_cell_keys(tableau) if show_legal else None
    return crop_ascii(tableau.draw_ascii(show_legal=show_legal, legal_keys=keys))


def crop_ascii(picture: str, margin: int = TABLEAU_MARGIN) -> str:
    """A `Tableau.draw_ascii` picture cut to its occupied rows and columns, with `margin` empty rows/hexes around."""
    rows = picture.splitlines()
    used = [i for i, row in enumerate(rows) if row.replace(EMPTY_LETTER, "").strip()]
    if not used:
        return ""
    top, bottom = max(0, used[0] - margin), min(len(rows), used[-1] + margin + 1)
    columns = [
        j for row in rows[used[0] : used[-1] + 1] for j, char in enumerate(row) if char not in (" ", EMPTY_LETTER)
    ]
    left = max(0, min(columns) - 2 * margin - 1)
    right = max(columns) + 2 * margin + 2
    return "\n".join(row[left:right].rstrip() for row in rows[top:bottom])


def _count(number: int, word: str) -> str:
    """'1 Stone', '3 Stones'."""
    return f"{number} {word}{'' if number == 1 else 's'}"


def _ruin_name(state: UnearthState, ruin_id: int) -> str:
    return state.game.ruins[ruin_id].name


def _ruin_names(state: UnearthState, ruin_ids: Iterable[int]) -> str:
    return ", ".join(_ruin_name(state, ruin_id) for ruin_id in ruin_ids)


def _card_counts(state: UnearthState, counts: Sequence[int]) -> str:
    """Delver cards as 'Name xN' for each type held."""
    delvers = state.game.cards.delvers
    return ", ".join(f"{delvers[t].name} x{count}" for t, count in enumerate(counts) if count)


def _stone_counts(counts: Sequence[int]) -> str:
    return ", ".join(f"{name} {count}" for name, count in zip(COLOUR_NAMES, counts, strict=True) if count)


def _token_values(values: Sequence[int]) -> str:
    return "(" + ", ".join(f"{value} pts" for value in values) + ")"


# ============================================================================================ picture
WIDTH, HEIGHT = 1280, 960
BACKGROUND = (34, 30, 26)
INK = (235, 225, 200)
DIM = (140, 128, 110)
CARD = (70, 60, 50)
EMPTY_CARD = (48, 42, 36)
STONE_RGB = {"red": (200, 50, 40), "yellow": (230, 195, 50), "blue": (50, 100, 210), "black": (20, 20, 20)}
"""Fill of each Stone colour (by name; an unknown colour name is drawn grey)."""
UNKNOWN_STONE = (128, 128, 128)
RUIN_RGB = {
    "peach": (240, 170, 130),
    "green": (90, 170, 90),
    "blue": (90, 140, 220),
    "purple": (160, 100, 190),
    "gray": (150, 150, 150),
}
"""Band colour of each Ruin colour (by name; End of Age Ruins and unknown names are gold)."""
END_OF_AGE_RGB = (215, 175, 60)
SEAT_RGB = ((240, 240, 240), (60, 200, 200), (240, 140, 40), (200, 90, 200))
"""Dice and panel colour of each seat (distinct from the Stone colours)."""
WONDER_RGB = (215, 175, 60)
GRID_RGB = (58, 52, 45)
STONE_OUTLINE = (150, 140, 120)
"""Edge of a Stone or Wonder hex (light, so that black Stones show on the dark background)."""
DIE_STEP, MIN_DIE_STEP = 40, 22
"""A die on a Ruin is a square every DIE_STEP pixels (three rows of five fit a card of 5 places), its value and size
written in it; more dice shrink the squares down to MIN_DIE_STEP, their value alone written."""
TABLE_TOP, TABLE_HEIGHT = 44, 196
PANELS_TOP = TABLE_TOP + TABLE_HEIGHT + 12
PANEL_TEXT = 78
"""Height of the text lines at the top of a seat's panel; its tableau is drawn below them."""
MAX_HEX = 26
"""Largest hex radius (pixels) of a tableau drawing; big tableaux shrink to fit their panel."""
SQRT3 = math.sqrt(3.0)


def render_rgb(state: State) -> np.ndarray:
    """An HxWx3 uint8 picture of the public view: the Ruins on the table with Stones and dice, and every tableau."""
    assert isinstance(state, UnearthState)
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((12, 10), _header(state), fill=INK)
    _draw_table(draw, state)
    n = state.num_players
    columns = 2
    rows = (n + columns - 1) // columns
    width = (WIDTH - 12 * (columns + 1)) // columns
    height = (HEIGHT - PANELS_TOP - 12 * rows) // rows
    for seat in range(n):
        row, column = divmod(seat, columns)
        x = 12 + column * (width + 12)
        y = PANELS_TOP + row * (height + 12)
        _draw_seat(draw, state, seat, (x, y, x + width, y + height))
    return np.asarray(image, dtype=np.uint8)


def _header(state: UnearthState) -> str:
    """The picture's top line: turn, pending decision, End of Age status, bag and Named Wonders in play."""
    if state.over:
        turn = "game over: " + ", ".join(f"seat {seat} {points:g}" for seat, points in enumerate(state.score()))
    elif state.active == NOWHERE:
        turn = "setting up"
    else:
        turn = f"turn {state.turn}, seat {state.active} to play"
    frame = state.decision()
    decision = f" | seat {frame.seat}: {frame.kind}" if frame is not None else ""
    if state.end_of_age_revealed:
        age = f"End of Age: {state.game.cards.end_of_age[state.end_of_age].name}"
    else:
        age = f"{len(state.ruin_deck)} Ruins in the deck"
    bag = " ".join(f"{name[0].upper()}{count}" for name, count in zip(COLOUR_NAMES, state.bag, strict=True))
    named = ", ".join(state.game.cards.named_wonders[k].name for k in state.named_in_play)
    return f"UNEARTH  {turn}{decision} | {age} | bag {bag}\nNamed Wonders in play: {named or 'none'}"


def _draw_table(draw: ImageDraw.ImageDraw, state: UnearthState) -> None:
    """One card per table place: name, claim, a Stone row, and each die on it (owner's colour, faces, value)."""
    places = len(state.table)
    gap = 12
    width = (WIDTH - gap * (places + 1)) // places
    ruins = state.game.ruins
    for place in range(places):
        x0 = gap + place * (width + gap)
        box = (x0, TABLE_TOP, x0 + width, TABLE_TOP + TABLE_HEIGHT)
        ruin_id = state.table[place]
        if ruin_id == NOWHERE:
            draw.rectangle(box, fill=EMPTY_CARD, outline=DIM)
            draw.text((x0 + 8, TABLE_TOP + 8), f"place {place + 1}: empty", fill=DIM)
            continue
        ruin = ruins[ruin_id]
        colour = END_OF_AGE_RGB if ruin.colour is None else RUIN_RGB.get(_ruin_colour(state, ruin.colour), DIM)
        draw.rectangle(box, fill=CARD, outline=colour, width=2)
        draw.rectangle((x0, TABLE_TOP, x0 + width, TABLE_TOP + 22), fill=colour)
        draw.text((x0 + 6, TABLE_TOP + 5), f"{place + 1}. {ruin.name}", fill=(20, 20, 20))
        dice = state.dice_on(place)
        total = sum(die.value for die in dice)
        points = f"  {ruin.points:+d} pts" if ruin.points else ""
        draw.text((x0 + 6, TABLE_TOP + 28), f"claim {ruin.claim}  dice {total}/{ruin.claim}{points}", fill=INK)
        # The Stones on the Ruin, as small hexes.
        stones = [c for c, count in enumerate(state.ruin_stones[place]) for _ in range(count)]
        for i, stone in enumerate(stones):
            _hexagon(draw, (x0 + 16 + i * 22, TABLE_TOP + 58), 10, _stone_rgb(stone))
        # The dice, as squares in their owner's colour with the value and the die's size.
        step = DIE_STEP
        while step > MIN_DIE_STEP and math.ceil(len(dice) / ((width - 8) // step)) * step > TABLE_HEIGHT - 80:
            step -= 2  # many dice on one Ruin: smaller squares, so that they stay on the card
        per_row = (width - 8) // step
        for i, die in enumerate(dice):
            row, column = divmod(i, per_row)
            dx, dy = x0 + 8 + column * step, TABLE_TOP + 76 + row * step
            draw.rectangle((dx, dy, dx + step - 4, dy + step - 4), fill=SEAT_RGB[die.owner], outline=(0, 0, 0))
            draw.text((dx + 4, dy + 2), str(die.value), fill=(0, 0, 0))
            if step == DIE_STEP:
                draw.text((dx + 4, dy + 20), f"d{die.faces} s{die.owner}", fill=(40, 40, 40))


def _draw_seat(draw: ImageDraw.ImageDraw, state: UnearthState, seat: int, box: tuple[int, int, int, int]) -> None:
    """A seat's panel: name, hand size, claimed Ruins, Wonders (token values face down), pool dice and tableau."""
    x0, y0, x1, y1 = box
    cards = state.game.cards
    draw.rectangle(box, outline=SEAT_RGB[seat], width=2)
    active = "  (to play)" if seat == state.active and not state.over else ""
    draw.text((x0 + 8, y0 + 6), f"seat {seat}{active}", fill=SEAT_RGB[seat])
    pool = " ".join(f"d{cards.die_sides[d]}" for d, place in enumerate(state.die_place[seat]) if place == NOWHERE)
    draw.text(
        (x0 + 130, y0 + 6),
        f"{_count(sum(state.hands[seat]), 'Delver card')}, {_count(len(state.hidden_ruins[seat]), 'hidden Ruin')}"
        f" | pool: {pool or '-'}",
        fill=INK,
    )
    claimed = ", ".join(_ruin_name(state, r) for r in state.claimed[seat])
    draw.text((x0 + 8, y0 + 24), _fit(f"claimed: {claimed or 'none'}", x1 - x0 - 16), fill=INK)
    lesser, greater = len(state.lesser_built[seat]), len(state.greater_built[seat])
    named = ", ".join(cards.named_wonders[k].name for k in state.named_built[seat])
    wonders = f"Wonders: {lesser} Lesser, {greater} Greater (face down)" + (f"; {named}" if named else "")
    draw.text((x0 + 8, y0 + 42), _fit(wonders, x1 - x0 - 16), fill=INK)
    stones = ", ".join(f"{c} {k}" for c, k in zip(COLOUR_NAMES, state.tableaus[seat].stones_by_colour, strict=True))
    draw.text((x0 + 8, y0 + 60), f"Stones: {stones}", fill=DIM)
    _draw_tableau(draw, cards, state.tableaus[seat], (x0 + 8, y0 + PANEL_TEXT, x1 - 8, y1 - 8))


def _draw_tableau(
    draw: ImageDraw.ImageDraw, cards: UnearthCards, tableau: Tableau, box: tuple[int, int, int, int]
) -> None:
    """The tableau's Stones as coloured hexes and its Wonders as gold hexes (`_wonder_label`), with the empty cells
    around them, scaled and centred to fit `box`."""
    stones = dict(tableau.stones())
    wonders = dict(tableau.wonders)
    occupied = [tableau.hex_at(cell) for cell in (*stones, *wonders)]
    if not occupied:
        return
    grid = tableau.grid
    shown = {
        hex_
        for q, r in occupied
        for hex_ in ((q + dq, r + dr) for dq in range(-1, 2) for dr in range(-1, 2) if abs(dq + dr) <= 1)
        if hex_ in grid
    }
    # Pointy-top hex centres for radius 1: x = sqrt(3) (q + r / 2), y = 1.5 r.
    xs = [SQRT3 * (q + r / 2) for q, r in shown]
    ys = [1.5 * r for _, r in shown]
    x0, y0, x1, y1 = box
    span_x = max(xs) - min(xs) + SQRT3
    span_y = max(ys) - min(ys) + 2.0
    size = min(MAX_HEX, (x1 - x0) / span_x, (y1 - y0) / span_y)
    offset_x = (x0 + x1) / 2 - size * (max(xs) + min(xs)) / 2
    offset_y = (y0 + y1) / 2 - size * (max(ys) + min(ys)) / 2
    for q, r in sorted(shown, key=lambda h: (h[1], h[0])):
        centre = (offset_x + size * SQRT3 * (q + r / 2), offset_y + size * 1.5 * r)
        cell = grid.index((q, r))
        if cell in stones:
            _hexagon(draw, centre, size - 1, _stone_rgb(stones[cell]))
        elif cell in wonders:
            _hexagon(draw, centre, size - 1, WONDER_RGB)
            label = _wonder_label(cards, wonders[cell])
            draw.text((centre[0] - 3 * len(label), centre[1] - 6), label, fill=(20, 20, 20))
        else:
            _hexagon(draw, centre, size - 1, None, outline=GRID_RGB)


def _wonder_label(cards: UnearthCards, wonder: int) -> str:
    """L (Lesser), G (Greater), a Named Wonder's initials (The Blackened Cenotaph: BC) or ? (not chosen yet)."""
    if wonder == LESSER:
        return "L"
    if wonder == GREATER:
        return "G"
    if wonder == UNCHOSEN_WONDER or wonder < NAMED_BASE:
        return "?"
    words = [word for word in cards.named_wonders[wonder - NAMED_BASE].name.split() if word[0].isupper()]
    return "".join(word[0] for word in words if word != "The")[:3]


def _hexagon(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    radius: float,
    fill: tuple[int, int, int] | None,
    outline: tuple[int, int, int] = STONE_OUTLINE,
) -> None:
    """A pointy-top hexagon of circumradius `radius` around `centre`."""
    x, y = centre
    corners = [
        (x + radius * math.cos(math.radians(60 * k + 30)), y + radius * math.sin(math.radians(60 * k + 30)))
        for k in range(6)
    ]
    draw.polygon(corners, fill=fill, outline=outline)


def _stone_rgb(colour: int) -> tuple[int, int, int]:
    return STONE_RGB.get(COLOUR_NAMES[colour], UNKNOWN_STONE)


def _ruin_colour(state: UnearthState, colour: int) -> str:
    return state.game.cards.ruin_colours[colour]


def _fit(text: str, width: int, char_width: int = 6) -> str:
    """`text` cut (with an ellipsis) to about `width` pixels of the default font."""
    most = max(4, width // char_width)
    return text if len(text) <= most else text[: most - 3] + "..."
