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
from envs.core.picture import Colour, fit, panel, text_width, wrap_cut, write, write_centred
from envs.unearth.cards import NamedWonder, UnearthCards
from envs.unearth.claims import PlacedDie
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
WIDTH = 840
"""Width of the picture: the viewer shows a picture at most as wide as its board column, 848 pixels in a 1,280-pixel
window (agents/view/static/viewer.css), so this one is shown at its own size, its text unscaled."""
MARGIN, GAP = 12, 8
TITLE_SIZE, FONT_SIZE, SMALL_SIZE = 16, 13, 12
"""Font sizes (pixels) of the header, the text and the smallest text (a die's size, a card's rules text)."""
LINE = 16
"""Height of a line of text at FONT_SIZE or SMALL_SIZE."""
INK, DIM, DARK = (235, 225, 200), (160, 148, 128), (20, 20, 20)
"""The text, the secondary text (and an empty place's frame), the text on a Ruin's band or a die."""
BACKGROUND, PANEL, CARD, EMPTY_CARD = (34, 30, 26), (44, 39, 34), (70, 60, 50), (48, 42, 36)
"""Fills of the background, a seat's panel, a card (a Ruin, a Named Wonder) and an empty table place."""
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
GRID_RGB = (70, 63, 55)
LEGAL_RGB = (120, 200, 120)
"""Outline and letter of a legal cell while its seat places a Stone."""
STONE_OUTLINE = (150, 140, 120)
"""Edge of a Stone or Wonder hex (light, so that black Stones show on the dark background)."""
HEADER_HEIGHT = 50
WONDER_TEXT_TOP = 42
"""Where a Named Wonder's text starts on its card, below its name, formula and points."""
FORMULA_HEX = 8
"""Radius of a hex of a Named Wonder's formula."""
TABLE_HEIGHT = 156
"""A Ruin's card on the table: name, dice total and claim, Stones, and two rows of dice (three when shrunk)."""
DIE_STEP, MIN_DIE_STEP = 36, 26
"""A die on a Ruin is a square every DIE_STEP pixels, its value and size written in it; more dice than three rows hold
shrink the squares down to MIN_DIE_STEP, their value alone written."""
RUIN_STONE = 8
"""Radius of a Stone's hex on a Ruin's card."""
SEAT_HEIGHT = 200
SEAT_TEXT_WIDTH = 196
"""A seat's panel: its words in a column on the left, its tableau beside them."""
MAX_HEX, MIN_LABEL_HEX = 17, 9
"""Largest hex radius of a tableau (small tableaux are not blown up); a hex smaller than MIN_LABEL_HEX carries no
letter (a Wonder's kind, a legal cell's key)."""
SQRT3 = math.sqrt(3.0)


def picture_size(num_players: int) -> tuple[int, int]:
    """(width, height) of the picture of a game of `num_players`: the same throughout the game."""
    return WIDTH, _seats_top(num_players) + _seat_rows(num_players) * (SEAT_HEIGHT + GAP) + MARGIN - GAP


def _wonder_columns(num_players: int) -> int:
    """Named Wonder cards per row: two rows of the Wonders set out at the start (one per seat, and two)."""
    return math.ceil((num_players + 2) / 2)


def _wonder_text_lines(num_players: int) -> int:
    """Lines of a Named Wonder's text its card holds: the longest text takes 2 lines of a half-width card, 3 of a
    third."""
    return 2 if _wonder_columns(num_players) <= 2 else 3


def _wonder_card_height(num_players: int) -> int:
    return WONDER_TEXT_TOP + _wonder_text_lines(num_players) * (LINE - 1) + 6


def _wonders_top() -> int:
    return HEADER_HEIGHT


def _table_top(num_players: int) -> int:
    rows = math.ceil((num_players + 2) / _wonder_columns(num_players))
    return _wonders_top() + LINE + 6 + rows * (_wonder_card_height(num_players) + GAP) + 4


def _seats_top(num_players: int) -> int:
    return _table_top(num_players) + TABLE_HEIGHT + 12


def _seat_rows(num_players: int) -> int:
    return math.ceil(num_players / 2)


def render_rgb(state: State) -> np.ndarray:
    """An HxWx3 uint8 picture of the public view (`picture_size`): the header, the Named Wonders in play, the Ruins
    on the table with their Stones and dice, and each seat's panel with its tableau."""
    assert isinstance(state, UnearthState)
    n = state.num_players
    image = Image.new("RGB", picture_size(n), BACKGROUND)
    draw = ImageDraw.Draw(image)
    _draw_header(draw, state)
    _draw_named_wonders(draw, state, _wonders_top())
    _draw_table(draw, state, _table_top(n))
    width = (WIDTH - 2 * MARGIN - GAP) // 2
    for seat in range(n):
        row, column = divmod(seat, 2)
        x = MARGIN + column * (width + GAP)
        y = _seats_top(n) + row * (SEAT_HEIGHT + GAP)
        _draw_seat(draw, state, seat, (x, y, x + width, y + SEAT_HEIGHT))
    return np.asarray(image, dtype=np.uint8)


def _draw_header(draw: ImageDraw.ImageDraw, state: UnearthState) -> None:
    """Two lines: turn and who is to play (or the final points) and the pending decision; the End of Age card (or the
    Ruins left in the deck), the bag's Stones and the Wonder tokens left."""
    if state.over:
        turn = "game over: " + ", ".join(f"seat {seat} {points:g}" for seat, points in enumerate(state.score()))
    elif state.active == NOWHERE:
        turn = "setting up"
    else:
        turn = f"turn {state.turn}, seat {state.active} to play"
    frame = state.decision()
    decision = f"  |  seat {frame.seat} decides: {frame.kind}" if frame is not None else ""
    write(draw, (MARGIN, 8), fit(f"UNEARTH  {turn}{decision}", WIDTH - 2 * MARGIN, TITLE_SIZE), TITLE_SIZE, INK)
    if state.end_of_age_revealed:
        age = f"End of Age: {state.game.cards.end_of_age[state.end_of_age].name}"
    else:
        age = f"{len(state.ruin_deck)} Ruins in the deck"
    x = float(MARGIN)
    y = 8 + TITLE_SIZE + 8
    words = f"{age}  |  bag:"
    write(draw, (x, y), words, FONT_SIZE, DIM)
    x += text_width(words, FONT_SIZE) + 6
    for colour, count in enumerate(state.bag):
        _hexagon(draw, (x + 7, y + 7), 7, _stone_rgb(colour))
        write(draw, (x + 17, y), str(count), FONT_SIZE, INK)
        x += 17 + text_width(str(count), FONT_SIZE) + 8
    tokens = f"  |  Wonder tokens left: {len(state.lesser_tokens)} Lesser, {len(state.greater_tokens)} Greater"
    write(draw, (x, y), fit(tokens, WIDTH - MARGIN - x, FONT_SIZE), FONT_SIZE, DIM)


def _draw_named_wonders(draw: ImageDraw.ImageDraw, state: UnearthState, top: int) -> None:
    """The Named Wonders in play (not built yet): name, formula as a row of Stone hexes (? any colour, a digit one
    colour per group), points and text."""
    named = state.game.cards.named_wonders
    built = sum(len(wonders) for wonders in state.named_built)
    title = f"Named Wonders in play: {len(state.named_in_play)}" + (f" ({built} built)" if built else "")
    write(draw, (MARGIN, top), title, FONT_SIZE, INK)
    columns = _wonder_columns(state.num_players)
    width = (WIDTH - 2 * MARGIN - GAP * (columns - 1)) / columns
    height = _wonder_card_height(state.num_players)
    lines = _wonder_text_lines(state.num_players)
    for index, k in enumerate(state.named_in_play):
        row, column = divmod(index, columns)
        x0 = MARGIN + column * (width + GAP)
        y0 = top + LINE + 6 + row * (height + GAP)
        _draw_named_wonder(draw, named[k], (x0, y0, x0 + width, y0 + height), lines)


def _draw_named_wonder(
    draw: ImageDraw.ImageDraw, wonder: NamedWonder, box: tuple[float, float, float, float], lines: int
) -> None:
    """A Named Wonder's card: its name, its formula's six symbols (a Stone hex in the colour it names, or ? or a
    group's digit), its points and `lines` lines of its text."""
    x0, y0, x1, _ = box
    panel(draw, box, wonder.name, FONT_SIZE, fill=CARD, outline=WONDER_RGB, ink=WONDER_RGB, inset=(6, 4))
    inner = x1 - x0 - 12
    letters = dict(zip(COLOUR_LETTERS, range(len(COLOUR_LETTERS)), strict=True))
    y = y0 + 22 + FORMULA_HEX
    x = x0 + 6 + FORMULA_HEX
    for symbol in wonder.formula.notation:
        colour = letters.get(symbol)
        _hexagon(draw, (x, y), FORMULA_HEX, None if colour is None else _stone_rgb(colour))
        if colour is None:  # any colour (?) or a group's digit
            write_centred(draw, x, y - 7, symbol, SMALL_SIZE, INK)
        x += 2 * FORMULA_HEX + 3
    write(draw, (x + 6, y - 8), _count(wonder.points, "point"), FONT_SIZE, INK)
    for line, words in enumerate(wrap_cut(wonder.text, inner, SMALL_SIZE, lines)):
        write(draw, (x0 + 6, y0 + WONDER_TEXT_TOP + line * (LINE - 1)), words, SMALL_SIZE, DIM)


def _draw_table(draw: ImageDraw.ImageDraw, state: UnearthState, top: int) -> None:
    """One card per table place: name, claim and points, the dice's total, a Stone row, each die on it (a square in
    its owner's colour, its value and size)."""
    places = len(state.table)
    width = (WIDTH - 2 * MARGIN - GAP * (places - 1)) / places
    ruins = state.game.ruins
    for place in range(places):
        x0 = MARGIN + place * (width + GAP)
        box = (x0, top, x0 + width, top + TABLE_HEIGHT)
        ruin_id = state.table[place]
        if ruin_id == NOWHERE:
            panel(
                draw, box, f"place {place + 1}: empty", FONT_SIZE, fill=EMPTY_CARD, outline=DIM, ink=DIM, inset=(6, 6)
            )
            continue
        ruin = ruins[ruin_id]
        colour = END_OF_AGE_RGB if ruin.colour is None else RUIN_RGB.get(_ruin_colour(state, ruin.colour), DIM)
        draw.rectangle(box, fill=CARD, outline=colour, width=2)
        draw.rectangle((x0, top, x0 + width, top + 21), fill=colour)
        write(draw, (x0 + 6, top + 3), fit(f"{place + 1}. {ruin.name}", width - 12, FONT_SIZE), FONT_SIZE, DARK)
        dice = state.dice_on(place)
        total = sum(die.value for die in dice)
        points = f", {ruin.points:+d} pts" if ruin.points else ""
        write(
            draw,
            (x0 + 6, top + 25),
            fit(f"dice {total} of {ruin.claim}{points}", width - 12, FONT_SIZE),
            FONT_SIZE,
            INK,
        )
        stones = [c for c, count in enumerate(state.ruin_stones[place]) for _ in range(count)]
        for i, stone in enumerate(stones):
            _hexagon(draw, (x0 + 6 + RUIN_STONE + i * (2 * RUIN_STONE + 4), top + 52), RUIN_STONE, _stone_rgb(stone))
        _draw_dice(draw, dice, (x0 + 6, top + 66, x0 + width - 2, top + TABLE_HEIGHT - 4))


def _draw_dice(draw: ImageDraw.ImageDraw, dice: Sequence[PlacedDie], box: tuple[float, float, float, float]) -> None:
    """Dice as squares in their owner's colour, in rows filling `box` (smaller squares when many)."""
    x0, y0, x1, y1 = box
    step = DIE_STEP
    while step > MIN_DIE_STEP and math.ceil(len(dice) / max(1, int((x1 - x0) // step))) * step > y1 - y0:
        step -= 2
    per_row = max(1, int((x1 - x0) // step))
    for i, die in enumerate(dice):
        row, column = divmod(i, per_row)
        dx, dy = x0 + column * step, y0 + row * step
        if dy + step - 4 > y1:
            break  # more dice than any game places on one Ruin
        draw.rectangle((dx, dy, dx + step - 4, dy + step - 4), fill=SEAT_RGB[die.owner], outline=DARK)
        write(draw, (dx + 3, dy + 1), str(die.value), FONT_SIZE, DARK)
        if step == DIE_STEP:
            write(draw, (dx + 3, dy + 16), f"d{die.faces}", SMALL_SIZE, (60, 60, 60))


def _draw_seat(draw: ImageDraw.ImageDraw, state: UnearthState, seat: int, box: tuple[int, int, int, int]) -> None:
    """A seat's panel: its words (hand and hidden Ruins counted, pool dice, claimed Ruins, Wonders with token values
    face down, Stones by colour) in a column, its tableau beside them."""
    x0, y0, x1, y1 = box
    cards = state.game.cards
    active = " (to play)" if seat == state.active and not state.over else ""
    rgb = SEAT_RGB[seat]
    panel(draw, box, f"seat {seat}{active}", TITLE_SIZE, fill=PANEL, outline=rgb, ink=rgb, inset=(8, 6), border=2)
    pool = " ".join(f"d{cards.die_sides[d]}" for d, place in enumerate(state.die_place[seat]) if place == NOWHERE)
    claimed = ", ".join(_ruin_name(state, r) for r in state.claimed[seat])
    built_names = {cards.named_wonders[k].name for k in state.named_built[seat]}
    lesser, greater = len(state.lesser_built[seat]), len(state.greater_built[seat])
    texts = [
        (f"{_count(sum(state.hands[seat]), 'Delver card')}, {_count(len(state.hidden_ruins[seat]), 'hidden Ruin')}", 1),
        (f"pool: {pool or '-'}", 1),
        (f"claimed: {claimed or 'none'}", 3),
        (f"Wonders: {lesser} Lesser, {greater} Greater (face down)", 2),
        *((cards.named_wonders[k].name, 1) for k in state.named_built[seat]),
    ]
    x, y = x0 + 8, y0 + 30
    for colour, count in enumerate(state.tableaus[seat].stones_by_colour):
        _hexagon(draw, (x + 7, y + 8), 7, _stone_rgb(colour))
        write(draw, (x + 17, y), str(count), FONT_SIZE, INK)
        x += 44
    y += LINE + 4
    lines = [line for words, most in texts for line in wrap_cut(words, SEAT_TEXT_WIDTH, FONT_SIZE, most)]
    room = (y1 - 4 - y) // LINE
    if len(lines) > room:  # more than a panel holds (many Named Wonders built): the last line says so
        lines = [*lines[: room - 1], "..."]
    for line in lines:
        write(draw, (x0 + 8, y), line, FONT_SIZE, WONDER_RGB if line in built_names else INK)
        y += LINE
    frame = state.decision()
    placing = frame is not None and frame.kind == PLACE_STONE and frame.detail("seat") == seat
    tableau_box = (x0 + SEAT_TEXT_WIDTH + 16, y0 + 8, x1 - 8, y1 - 8)
    _draw_tableau(draw, cards, state.tableaus[seat], tableau_box, placing)


def _draw_tableau(
    draw: ImageDraw.ImageDraw, cards: UnearthCards, tableau: Tableau, box: tuple[int, int, int, int], placing: bool
) -> None:
    """The tableau's Stones as coloured hexes and its Wonders as gold hexes (`_wonder_label`), with the empty cells
    around them (and, while its seat places a Stone, the legal cells with the letters the choices name), scaled and
    centred to fit `box`."""
    stones = dict(tableau.stones())
    wonders = dict(tableau.wonders)
    keys = legal_cell_keys(tableau) if placing else {}
    grid = tableau.grid
    occupied = [tableau.hex_at(cell) for cell in (*stones, *wonders, *keys)]
    if not occupied:
        write(draw, (box[0], box[1]), "no Stones yet", FONT_SIZE, DIM)
        return
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
        label, ink = "", DARK
        if cell in stones:
            _hexagon(draw, centre, size - 1, _stone_rgb(stones[cell]))
        elif cell in wonders:
            _hexagon(draw, centre, size - 1, WONDER_RGB)
            label = _wonder_label(cards, wonders[cell])
        elif cell in keys:
            _hexagon(draw, centre, size - 1, None, outline=LEGAL_RGB)
            label, ink = keys[cell], LEGAL_RGB
        else:
            _hexagon(draw, centre, size - 1, None, outline=GRID_RGB)
        if label and size >= MIN_LABEL_HEX:
            write_centred(draw, centre[0], centre[1] - 8, label, SMALL_SIZE, ink)


def _wonder_label(cards: UnearthCards, wonder: int) -> str:
    """L (Lesser), G (Greater), a Named Wonder's initials (The Blackened Cenotaph: BC) or ? (not chosen yet)."""
    if wonder == LESSER:
        return "L"
    if wonder == GREATER:
        return "G"
    if wonder == UNCHOSEN_WONDER or wonder < NAMED_BASE:
        return "?"
    words = [word for word in cards.named_wonders[wonder - NAMED_BASE].name.split() if word[0].isupper()]
    return "".join(word[0] for word in words if word != "The")[:2]


def _hexagon(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    radius: float,
    fill: Colour | None,
    outline: Colour = STONE_OUTLINE,
) -> None:
    """A pointy-top hexagon of circumradius `radius` around `centre`."""
    x, y = centre
    corners = [
        (x + radius * math.cos(math.radians(60 * k + 30)), y + radius * math.sin(math.radians(60 * k + 30)))
        for k in range(6)
    ]
    draw.polygon(corners, fill=fill, outline=outline)


def _stone_rgb(colour: int) -> Colour:
    return STONE_RGB.get(COLOUR_NAMES[colour], UNKNOWN_STONE)


def _ruin_colour(state: UnearthState, colour: int) -> str:
    return state.game.cards.ruin_colours[colour]
