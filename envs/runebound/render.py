"""Runebound combat as text (`state_text`: the ansi view and the observer's text) and as a picture (`render_rgb`: the
rgb_array view): both sides' cast tokens, the enemy's combat board with its tokens on their spaces (the surge space
in its three sections), health and damage, abilities, the round and what the hero is deciding.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from PIL import Image, ImageDraw

from envs.core.game import State
from envs.core.picture import Colour, font, panel, pips, wrap, write_centred
from envs.runebound.combat import CombatRules
from envs.runebound.state import NOT_CAST, NOWHERE, ROUND_CAP, Kind
from envs.runebound.symbols import ENEMY, HERO, SIDE_NAMES, Symbol

if TYPE_CHECKING:
    from envs.runebound.cards import Space

DECISION_WORDS: dict[str, str] = {
    Kind.HERO_COMBAT_ACTION: "the hero's combat action",
    Kind.COMBAT_GROUP: "tokens to add to the action, or strike",
    Kind.AGILITY: "the token the agility flips or recasts",
    Kind.COPY: "the symbol the tactics copies",
    Kind.COPIED_SURGE: "the ability the copied surges pay for",
    Kind.BLOCK: "whether to spend a tactics as a shield against the damage",
    Kind.PREVENT: "whether to prevent the enemy's flip",
    Kind.STAY: "whether to stay in the combat or flee",
}


def token_text(state: CombatRules, side: int, index: int) -> str:
    """One token as text: its place, name and face, and whether it is spent or stacked."""
    held = state.combat_tokens[side][index]
    name = state.game.cards.tokens[held.token].name
    if held.face == NOT_CAST:
        return f"{index + 1} {name}: not cast"
    text = f"{index + 1} {name}: {state.face(side, index)}"
    if held.spent:
        return f"{text} [spent]"
    if held.on != NOWHERE:
        return f"{text} [on {held.on + 1}]"
    return text


def space_text(state: CombatRules, number: int, space: Space) -> str:
    """A board space: its symbol and instruction, then the tokens on it (the surge space by section)."""
    tokens = [i for i in range(len(state.combat_tokens[ENEMY])) if state.space_of(i) == number]
    bonus = f" (+{space.bonus})" if space.bonus else ""
    head = f"  {number + 1}. {space.symbol.name.lower()}{bonus}: {space.text}"
    if not tokens:
        return f"{head}\n       -"
    if space.symbol == Symbol.SURGE:
        sections = state.surge_sections()
        parts = []
        for section in (1, 2, 3):
            inside = [i for i in tokens if sections.get(i) == section]
            if inside:
                parts.append(f"[{section}] " + ", ".join(_stack(state, i) for i in inside))
        return f"{head}\n       " + "  ".join(parts)
    return f"{head}\n       " + ", ".join(
        _stack(state, i) for i in tokens if state.combat_tokens[ENEMY][i].on == NOWHERE
    )


def _stack(state: CombatRules, index: int) -> str:
    double = state.double_on(ENEMY, index)
    text = f"token {index + 1} {state.face(ENEMY, index)}"
    return f"{text} + double (token {double + 1})" if double != NOWHERE else text


def state_text(state: CombatRules) -> str:
    """The whole combat as text (nothing in it is hidden)."""
    cards = state.game.cards
    lines = []
    if state.combat_hero() == NOWHERE or state.enemy == NOWHERE:
        return "Runebound combat: the hero and the enemy are still to be drawn."
    hero, enemy = state.hero_card(), state.enemy_card()
    initiative = "-" if state.initiative == NOWHERE else SIDE_NAMES[state.initiative]
    lines.append(
        f"Round {state.combat_round}/{ROUND_CAP}, Act {'I' * state.combat_act()}, initiative: {initiative}, outcome: "
        f"{state.combat_outcome.name.lower()}"
    )
    hero_health = state.combat_hero_health()
    for side, name, health in ((HERO, hero.name, hero_health), (ENEMY, f"{enemy.name} ({enemy.trait})", enemy.health)):
        flags = [
            word
            for word, on in (
                ("passed", state.passed[side]),
                ("charged: cannot block", state.charged[side]),
                ("silenced", state.silenced[side]),
                (f"barrier {state.barrier[side]}", state.barrier[side]),
            )
            if on
        ]
        extra = f" [{', '.join(flags)}]" if flags else ""
        lines.append(
            f"{name}: {health - state.combat_damage[side]}/{health} health ({state.combat_damage[side]} damage){extra}"
        )
        for slot, ability in enumerate(state.abilities(side)):
            mark = " [triggered]" if state.has_triggered(side, slot) else ""
            lines.append(f"  ability {slot + 1}: {ability.name}{mark}: {ability.text}")
        if side == HERO:
            lines.append(
                "  tokens: " + "; ".join(token_text(state, HERO, i) for i in range(len(state.combat_tokens[HERO])))
            )
    board = state.trait().board
    lines.append(f"{enemy.trait} board, {board.ability.name}: {board.ability.text}")
    lines.extend(space_text(state, number, space) for number, space in enumerate(board.spaces))
    lines.append(
        "  enemy tokens: " + "; ".join(token_text(state, ENEMY, i) for i in range(len(state.combat_tokens[ENEMY])))
    )
    frame = state.decision()
    if frame is not None:
        lines.append(f"Deciding: {DECISION_WORDS.get(frame.kind, frame.kind)}")
    del cards
    return "\n".join(lines)


# ============================================================================================ the picture
WIDTH, HEIGHT = 960, 600
MARGIN = 12
COLUMN = 470
"""The board's column starts here; the two sides, their abilities and the tokens off the board are left of it."""
LINE = 16
FONT_SIZE = 13
"""Font size (pixels): the viewer shows this picture at 848 of its 960 pixels in a 1,280-pixel window
(agents/view/static/viewer.css), so 13 pixels read as 11.5."""
LEFT_TEXT = COLUMN - MARGIN - 16
"""Width (pixels) of a wrapped line in the left column."""
SPACE_TEXT = 190
"""Width (pixels) of a board space's wrapped text, left of its tokens."""
BACKGROUND, INK, DIM, GOLD = (30, 28, 36), (235, 230, 215), (150, 145, 135), (225, 185, 60)
"""The background, the text, the secondary text, what is being decided (and a gold-rimmed token's ring)."""
FRAME, SPENT = (110, 105, 120), (90, 86, 80)
"""A board space's and a token's frame; a spent token's fill."""
HEALTH, WOUND = (80, 170, 90), (200, 50, 50)
"""A side's health bar: the health left and the damage taken."""
SYMBOL_COLOURS = {
    Symbol.PHYSICAL: (200, 200, 210),
    Symbol.MAGIC: (150, 110, 230),
    Symbol.SHIELD: (90, 140, 220),
    Symbol.AGILITY: (90, 200, 160),
    Symbol.DOUBLE: (230, 150, 60),
    Symbol.SURGE: (240, 220, 90),
    Symbol.CHARGE: (240, 110, 60),
    Symbol.TACTICS: (220, 120, 200),
    Symbol.SKULL: (220, 70, 70),
    Symbol.BLANK: (120, 115, 110),
}
SHORT = {
    Symbol.PHYSICAL: "phys",
    Symbol.MAGIC: "magic",
    Symbol.SHIELD: "shield",
    Symbol.AGILITY: "agility",
    Symbol.DOUBLE: "double",
    Symbol.SURGE: "surge",
    Symbol.CHARGE: "charge",
    Symbol.TACTICS: "tactic",
    Symbol.SKULL: "skull",
    Symbol.BLANK: "blank",
}
"""A symbol's word on a disc (short enough to fit it)."""
TOKEN = 50
"""A token's disc, in pixels (its symbol's word fits across it)."""
TOKEN_STEP = TOKEN + 12


def _text(draw: ImageDraw.ImageDraw, x: int, y: int, words: str, colour: Colour, width: int) -> int:
    """Draw `words` wrapped to `width` pixels; the y below them."""
    for line in wrap(words, width, FONT_SIZE):
        draw.text((x, y), line, fill=colour, font=font(FONT_SIZE))
        y += LINE
    return y


def _disc(draw: ImageDraw.ImageDraw, x: int, y: int, state: CombatRules, side: int, index: int) -> None:
    """A token as a disc: its symbol's colour and number, a gold ring for a gold rim, grey once spent; its place in
    its side's casting order under it."""
    held = state.combat_tokens[side][index]
    box = (x, y, x + TOKEN, y + TOKEN)
    write_centred(draw, x + TOKEN / 2, y + TOKEN + 1, str(index + 1), FONT_SIZE, DIM)
    if held.face == NOT_CAST:
        draw.ellipse(box, outline=DIM, width=2)
        return
    face = state.face(side, index)
    fill = SPENT if held.spent else SYMBOL_COLOURS[face.symbol]
    draw.ellipse(box, fill=fill, outline=GOLD if face.gold else FRAME, width=4 if face.gold else 2)
    word = SHORT[face.symbol]
    write_centred(draw, x + TOKEN / 2, y + 10, word, FONT_SIZE, (20, 20, 20))
    if face.symbol not in (Symbol.AGILITY, Symbol.DOUBLE, Symbol.TACTICS, Symbol.BLANK):
        write_centred(draw, x + TOKEN / 2, y + 26, str(face.value), FONT_SIZE, (20, 20, 20))


def render_rgb(state: State) -> np.ndarray:
    """The combat as an RGB picture (HEIGHT x WIDTH x 3, uint8): the hero, the enemy and the tokens off the board on
    the left, the enemy's combat board with its tokens on their spaces (surges by section) on the right."""
    assert isinstance(state, CombatRules)
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    face = font(FONT_SIZE)
    if state.combat_hero() == NOWHERE or state.enemy == NOWHERE:
        draw.text((MARGIN, MARGIN), "the hero and the enemy are still to be drawn", fill=INK, font=face)
        return np.asarray(image)
    hero, enemy = state.hero_card(), state.enemy_card()
    initiative = "-" if state.initiative == NOWHERE else SIDE_NAMES[state.initiative]
    header = f"Round {state.combat_round}/{ROUND_CAP}   Act {'I' * state.combat_act()}   initiative: {initiative}"
    draw.text((MARGIN, MARGIN), header, fill=INK, font=face)
    frame = state.decision()
    status = (
        "deciding: " + DECISION_WORDS.get(frame.kind, frame.kind)
        if frame is not None
        else state.combat_outcome.name.lower()
    )
    y = _text(draw, MARGIN, MARGIN + LINE, status, GOLD, LEFT_TEXT) + 6
    hero_health = state.combat_hero_health()
    for side, name, health in ((HERO, hero.name, hero_health), (ENEMY, f"{enemy.name} ({enemy.trait})", enemy.health)):
        flags = [word for word, on in (("passed", state.passed[side]), ("charged", state.charged[side]),
                                       ("silenced", state.silenced[side])) if on]  # fmt: skip
        if state.barrier[side]:
            flags.append(f"barrier {state.barrier[side]}")
        title = f"{name}  {health - state.combat_damage[side]}/{health}" + (f"  [{', '.join(flags)}]" if flags else "")
        draw.text((MARGIN, y), title, fill=INK, font=face)
        pips(draw, (MARGIN + 330, y + 3), state.combat_damage[side], health, WOUND, HEALTH, size=9, step=12)
        y += LINE + 2
        for slot, ability in enumerate(state.abilities(side)):
            mark = " (triggered)" if state.has_triggered(side, slot) else ""
            y = _text(draw, MARGIN + 8, y, f"{ability.name}{mark}: {ability.text}", DIM, LEFT_TEXT - 8)
        if side == HERO:
            y += 4
            for index in range(len(state.combat_tokens[HERO])):
                _disc(draw, MARGIN + index * TOKEN_STEP, y, state, HERO, index)
            y += TOKEN + LINE + 6
        y += 6
    board = state.trait().board
    y = _text(draw, MARGIN, y, f"{enemy.trait} board, {board.ability.name}: {board.ability.text}", INK, LEFT_TEXT)
    off = [
        i
        for i in range(len(state.combat_tokens[ENEMY]))
        if state.space_of(i) == NOWHERE and state.combat_tokens[ENEMY][i].on == NOWHERE
    ]
    if off:
        y += 4
        draw.text((MARGIN, y), "enemy tokens off the board (spent, blank):", fill=DIM, font=face)
        y += LINE
        for k, index in enumerate(off):
            _disc(draw, MARGIN + k * TOKEN_STEP, y, state, ENEMY, index)
    _board(draw, state)
    return np.asarray(image)


def _board(draw: ImageDraw.ImageDraw, state: CombatRules) -> None:
    """The enemy's combat board in the right column: one row per space, top to bottom, its tokens on it."""
    board = state.trait().board
    face = font(FONT_SIZE)
    row = (HEIGHT - 2 * MARGIN) // max(len(board.spaces), 1)
    sections = state.surge_sections()
    for number, space in enumerate(board.spaces):
        top = MARGIN + number * row
        bonus = f" +{space.bonus}" if space.bonus else ""
        title, colour = f"{space.symbol.name.lower()}{bonus}", SYMBOL_COLOURS[space.symbol]
        box = (COLUMN, top, WIDTH - MARGIN, top + row - 4)
        panel(draw, box, title, FONT_SIZE, fill=None, outline=FRAME, ink=colour, inset=(6, 4))
        _text(draw, COLUMN + 6, top + 4 + LINE, space.text, DIM, SPACE_TEXT)
        x = COLUMN + 200
        for index in range(len(state.combat_tokens[ENEMY])):
            if state.combat_tokens[ENEMY][index].on != NOWHERE or state.space_of(index) != number:
                continue
            if space.symbol == Symbol.SURGE:
                draw.text((x, top + 2), f"section {sections.get(index, 1)}", fill=DIM, font=face)
            _disc(draw, x, top + (LINE if space.symbol == Symbol.SURGE else 4), state, ENEMY, index)
            double = state.double_on(ENEMY, index)
            if double != NOWHERE:  # the stacked double, overlapping the token it doubles
                _disc(
                    draw, x + TOKEN // 2, top + (LINE if space.symbol == Symbol.SURGE else 4) + 6, state, ENEMY, double
                )
                x += TOKEN // 2
            x += TOKEN_STEP
