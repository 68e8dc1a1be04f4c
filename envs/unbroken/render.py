"""rgb_array picture of the Unbroken display: the header (level, character, difficulty, printing, step), resource
bars and time track, weapon, character, conditions and skills on the left; the monster sheet (face down until
revealed) and the cards of the choice at hand (revealed encounters, the skill offer, the chosen card, the roll to
react to) on the right.

The picture is laid out as panels (`layout`): each column stacks its panels top-down, text is wrapped to its
panel's width and a column that would run off the picture is cut with "...", so no two panels overlap.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from PIL import Image, ImageDraw

from envs.core import picture
from envs.core.game import State
from envs.core.picture import Colour, font, pips, write_centred
from envs.unbroken.cards import FOOD, RESOURCES, TIME
from envs.unbroken.rules import UnbrokenState
from envs.unbroken.state import PHASE_NAMES, Outcome, Phase
from envs.unbroken.words import (
    RESOURCE_WORDS,
    ROMAN,
    action_card_text,
    attack_text,
    bag_text,
    battle_roll,
    effects_text,
    roll_text,
    rounds_left_text,
    row_text,
)

WIDTH, HEIGHT = 840, 660
"""The viewer shows a picture at most as wide as its board column, 848 pixels in a 1,280-pixel window
(agents/view/static/viewer.css): this one is shown at its own size, its text unscaled."""
MARGIN = 10
COLUMN_GAP = 20
COLUMN_WIDTH = (WIDTH - 2 * MARGIN - COLUMN_GAP) // 2
LEFT_X, RIGHT_X = MARGIN, MARGIN + COLUMN_WIDTH + COLUMN_GAP
HEADER_HEIGHT = 44
"""The two header lines above the columns."""
LINE = 16
"""Height of one line of text."""
PADDING = 6
"""Space inside a framed panel, around its items."""
PANEL_GAP = 8
"""Space between two panels of a column."""
PIP = 14
PIP_STEP = PIP + 2
BAR_LABEL_WIDTH = 110
"""Room for a bar's name left of its pips."""
SKULL_ROW = 14
"""Room under the time bar for its skull marks (I..IV)."""
CARDS_PER_ROW = 2
"""Revealed encounters and offered skills are drawn as cards, this many side by side."""
FONT_SIZE, TITLE_SIZE, MARK_SIZE = 12, 15, 11
"""Font sizes (pixels): text, the header, the skull marks under the time bar."""
BACKGROUND, INK, DIM = (32, 28, 24), (235, 225, 200), (150, 140, 120)
"""The background, the text and the secondary text (and a pip's outline)."""
BAR_COLOURS = {
    "small_effort": (200, 160, 60),
    "medium_effort": (220, 120, 40),
    "large_effort": (220, 60, 40),
    "cunning": (120, 90, 200),
    "food": (90, 170, 80),
    "wood": (150, 100, 60),
    "metal": (160, 170, 180),
    "treasure": (230, 200, 40),
    "time": (80, 150, 220),
}
WOUND_COLOUR, ARMOR_COLOUR = (200, 40, 40), (130, 130, 150)
"""The monster's wounds and armor bars; wounds also mark what hurts (a loss, a set-aside weapon, a roll's row)."""
FRAME, ENCOUNTER_FRAME, SKILL_FRAME, MONSTER_FRAME = (110, 100, 85), (170, 130, 80), (140, 110, 220), (200, 80, 60)
"""Frames of a panel, an encounter card, a skill card and the monster sheet."""


@dataclass(frozen=True)
class Text:
    """One line of text (already wrapped to its panel)."""

    words: str
    colour: Colour = INK


@dataclass(frozen=True)
class Pips:
    """A labelled bar of pips, `filled` of `total` coloured; `marks` are written under some pips (time skulls)."""

    label: str
    filled: int
    total: int
    colour: Colour
    marks: tuple[tuple[int, str], ...] = ()


Item = Text | Pips
Entry = tuple[str, Colour] | Pips
"""What a panel is given: a line of text to wrap (with its colour), or a bar."""


@dataclass
class Panel:
    """A block of the picture: its box (x0, y0, x1, y1) and items, framed in `frame` (None: no frame)."""

    box: tuple[int, int, int, int]
    items: list[Item] = field(default_factory=list)
    frame: Colour | None = None


def text_width(words: str, size: int = FONT_SIZE) -> float:
    """Width in pixels of `words` in the picture's font."""
    return picture.text_width(words, size)


def wrap(words: str, width: int, colour: Colour = INK, indent: str = "  ") -> list[Text]:
    """`words` as lines no wider than `width` (continuation lines indented, runs of spaces kept); no words still take
    a line."""
    return [Text(line, colour) for line in picture.wrap(words, width, FONT_SIZE, indent, keep_spaces=True) or [""]]


def item_height(item: Item) -> int:
    """Vertical room an item takes."""
    if isinstance(item, Pips):
        return PIP + 6 + (SKULL_ROW if item.marks else 0)
    return LINE


class Column:
    """Stacks panels top-down between `top` and the bottom margin, wrapping text to the column's width."""

    def __init__(self, x: int, top: int, width: int = COLUMN_WIDTH) -> None:
        self.x, self.y, self.width = x, top, width
        self.panels: list[Panel] = []
        self.full = False

    def add(self, entries: list[Entry], frame: Colour | None = None) -> None:
        """Add a panel of text lines (wrapped) and bars; what does not fit is cut, ending in '...'."""
        if self.full or not entries:
            return
        items = self._fit(self._items(entries, self.width, frame), frame)
        if items is None:
            return
        height = sum(map(item_height, items)) + 2 * _inset(frame)
        self.panels.append(Panel((self.x, self.y, self.x + self.width, self.y + height), items, frame))
        self.y += height + PANEL_GAP

    def add_cards(self, cards: list[list[Entry]], frame: Colour, per_row: int = CARDS_PER_ROW) -> None:
        """Add cards side by side, `per_row` to a row (each row as tall as its tallest card)."""
        width = (self.width - (per_row - 1) * PANEL_GAP) // per_row
        for start in range(0, len(cards), per_row):
            if self.full:
                return
            row = [self._items(card, width, frame) for card in cards[start : start + per_row]]
            tallest = max(sum(map(item_height, items)) for items in row) + 2 * _inset(frame)
            if self.y + tallest > HEIGHT - MARGIN:
                self.add([(f"... {len(cards) - start} more", DIM)])
                self.full = True
                return
            for index, items in enumerate(row):
                x = self.x + index * (width + PANEL_GAP)
                self.panels.append(Panel((x, self.y, x + width, self.y + tallest), items, frame))
            self.y += tallest + PANEL_GAP

    @staticmethod
    def _items(entries: list[Entry], width: int, frame: Colour | None) -> list[Item]:
        """The entries as items, text wrapped to `width` less the frame's padding."""
        inner = width - 2 * _inset(frame)
        items: list[Item] = []
        for entry in entries:
            items += [entry] if isinstance(entry, Pips) else wrap(entry[0], inner, entry[1])
        return items

    def _fit(self, items: list[Item], frame: Colour | None) -> list[Item] | None:
        """The items that fit above the bottom margin (cut with '...'); None when not even one does."""
        room = HEIGHT - MARGIN - self.y - 2 * _inset(frame)
        kept: list[Item] = []
        used = 0
        for index, item in enumerate(items):
            last = index == len(items) - 1
            if used + item_height(item) + (0 if last else LINE) > room:
                if used + LINE <= room:
                    kept.append(Text("...", DIM))
                self.full = True
                break
            kept.append(item)
            used += item_height(item)
        return kept or None


def _inset(frame: Colour | None) -> int:
    """Padding inside a panel: a framed one keeps its text off the frame."""
    return PADDING if frame is not None else 0


# ------------------------------------------------------------------------------------------------ layout
def layout(state: UnbrokenState) -> list[Panel]:
    """The panels of the picture of `state` (the header is drawn apart, above them)."""
    left = Column(LEFT_X, HEADER_HEIGHT)
    right = Column(RIGHT_X, HEADER_HEIGHT)
    _display(state, left)
    _monster(state, right)
    _choice(state, right)
    return left.panels + right.panels


def header_lines(state: UnbrokenState) -> tuple[str, str]:
    """The title line (level, character, difficulty, printing) and the step line (phase, round, last roll)."""
    s = state
    game = s.game
    character = s.cards.characters[s.character].name if s.character >= 0 else "?"
    title = (
        f"UNBROKEN   level {ROMAN[s.level]}   {character}   {game.difficulty} difficulty, {game.preset.name} printing"
    )
    step = PHASE_NAMES[s.phase]
    if s.round:
        roll = battle_roll(s)
        step += f"   combat round {s.round}" + (f", last roll {roll}" if roll else "")
    return title, step


def _display(state: UnbrokenState, column: Column) -> None:
    """Left column: bars, weapon, character, conditions, skills."""
    s = state
    cards = s.cards
    bars: list[Entry] = []
    for r, name in enumerate(RESOURCES):
        removed = r == TIME and s.time_token_removed
        amount = 0 if removed else s.resources[r]
        marks: tuple[tuple[int, str], ...] = ()
        if r == TIME:
            marks = tuple((skull, ROMAN[level]) for level, skull in cards.display.time_skull.items())
        total = cards.display.bar_maximum[r]
        label = f"{RESOURCE_WORDS[r]} {'-' if removed else amount}"
        bars.append(Pips(label, amount, total, BAR_COLOURS[name], marks))
    column.add(bars)
    weapon = cards.weapons[s.weapons[-1]]
    lines: list[Entry] = [(f"weapon: {weapon.name} ({weapon.kind})", INK)]
    if len(s.weapons) > 1:
        lines.append(("stack: " + " > ".join(cards.weapons[w].name for w in s.weapons), DIM))
    lines += [(f"attack {i + 1}: {attack_text(s, i)}", DIM) for i in range(len(weapon.attacks))]
    if s.aside_weapon >= 0:
        lines.append((f"set aside: {cards.weapons[s.aside_weapon].name} for {s.aside_rounds} rounds", WOUND_COLOUR))
    column.add(lines, FRAME)
    if s.character >= 0:
        character = cards.characters[s.character]
        lines = [(f"{character.name}: ability uses left {s.ability_uses}", INK)]
        lines += [(f"{ability.name}: {action_card_text(ability)}", DIM) for ability in character.abilities]
        column.add(lines, FRAME)
    lines = []
    for title, conditions in (("conditions", s.conditions_active), ("next level", s.conditions_next)):
        names = ", ".join(cards.conditions[c].name for c in conditions) or "-"
        lines.append((f"{title}: {names}", INK))
    now = ", ".join(f"{cards.conditions[c].name} ({rounds_left_text(r)})" for c, r in s.conditions_now.items())
    lines.append((f"immediate: {now or '-'}", WOUND_COLOUR if now else INK))
    column.add(lines, FRAME)
    skills = ", ".join(cards.skills[k].name for k in s.skills) or "-"
    column.add([(f"skills: {skills}", INK)], FRAME)


def _monster(state: UnbrokenState, column: Column) -> None:
    """Right column, top: the monster sheet once revealed (the face-down monster stays face down)."""
    s = state
    if not s.monster_revealed:
        column.add([(f"monster: face down (level {ROMAN[s.level]})", DIM)], MONSTER_FRAME)
        return
    cards = s.cards
    monster = cards.monsters[s.monster()]
    lines: list[Entry] = [
        (f"{monster.name} (level {ROMAN[monster.level]})" + ("   DEFENDING" if s.defending else ""), INK),
        Pips(f"wounds {s.wounds}/{s.monster_health()}", s.wounds, s.monster_health(), WOUND_COLOUR),
        Pips(f"armor {s.armor_broken}/{s.monster_armor()} broken", s.armor_broken, s.monster_armor(), ARMOR_COLOUR),
    ]
    trickery = "cannot be tricked" if monster.trickery is None else bag_text(monster.trickery)
    lines.append((f"trickery: {trickery}", DIM))
    if monster.attack_extra_cost:
        lines.append((f"each weapon attack also costs {bag_text(monster.attack_extra_cost)}", DIM))
    if monster.special_name:
        lines.append((f"special: {monster.special_name}: {monster.special_text}", DIM))
    lines.append((f"ambush: {effects_text(cards, monster.ambush) if monster.ambush else 'none'}", DIM))
    shift = s.roll_shift(monster)
    lines.append((f"combat table (d6{f', every roll {shift:+d}' if shift else ''}):", INK))
    for face, row in enumerate(monster.combat, start=1):
        colour = WOUND_COLOUR if battle_roll(s) and face == _row_of_last_roll(s) else DIM
        lines.append((f"{face}: {row_text(cards, row)}", colour))
    lines.append((f"rewards: {bag_text(monster.rewards)}", DIM))
    column.add(lines, MONSTER_FRAME)


def _row_of_last_roll(state: UnbrokenState) -> int:
    """The combat table row this battle's last roll landed on (with the modifiers in force now)."""
    monster = state.cards.monsters[state.monster()]
    return state.roll_on_table(state.last_roll, monster, state.reaction_modifier)


def _choice(state: UnbrokenState, column: Column) -> None:
    """Right column, below the monster: the cards and facts of the decision at hand, or the result."""
    s = state
    cards = s.cards
    phase = s.phase
    if s.is_terminal():
        won = s.outcome == Outcome.WON
        verdict = f"WON: score {s.final_score()} - {s.title()}" if won else f"LOST: {s.end_reason}"
        column.add([(verdict, BAR_COLOURS["treasure"] if won else WOUND_COLOUR)], FRAME)
        return
    if s.revealed_cards:
        column.add([(f"revealed encounters: choose one of {len(s.revealed_cards)}", INK)])
        column.add_cards(
            [_encounter_card(s, card, f"{i + 1}. ") for i, card in enumerate(s.revealed_cards)], ENCOUNTER_FRAME
        )
    if s.skill_offer:
        column.add([(f"skill offer: keep one of {len(s.skill_offer)}", INK)])
        offer: list[list[Entry]] = [
            [(f"{i + 1}. {cards.skills[k].name}", INK), (cards.skills[k].text, DIM)]
            for i, k in enumerate(s.skill_offer)
        ]
        column.add_cards(offer, SKILL_FRAME)
    if s.chosen_card >= 0:
        column.add([("chosen encounter: resolve it or rest", INK)])
        column.add_cards([_encounter_card(s, s.chosen_card, "")], ENCOUNTER_FRAME)
    if phase == Phase.DECIDE_TRAVEL:
        explore = "committed: the next exploration reveals one card" if s.committed else ""
        explore = explore or f"an exploration reveals {s.reveal_count()} cards"
        column.add([(f"travel: prepare, then explore or face the monster; {explore}", DIM)])
    elif phase == Phase.DECIDE_TRICKERY:
        monster = cards.monsters[s.monster()]
        column.add([(f"trickery step: pay {bag_text(monster.trickery or ())} to trick the monster, or fight", INK)])
    elif phase == Phase.DECIDE_REACTION:
        column.add([(f"the monster rolled {s.roll}: {roll_text(s, s.roll)}", WOUND_COLOUR), ("react or accept", DIM)])
    elif phase == Phase.DECIDE_HUNGER:
        requirement = s.food_requirement()
        column.add([(f"hunger step: eat {requirement} food (you have {s.resources[FOOD]})", INK)])


def _encounter_card(state: UnbrokenState, card: int, prefix: str) -> list[Entry]:
    """An encounter card's lines: name, spend, gain, time value (and what resting on it gains), commit."""
    encounter = state.cards.encounters[card]
    lines: list[Entry] = [
        (f"{prefix}{encounter.name}", INK),
        (f"spend {bag_text(encounter.spend)}", DIM),
        (f"gain {bag_text(encounter.gain)}", DIM),
        (f"time {encounter.time}; rest gains {state.rest_gain(card)}", DIM),
    ]
    if encounter.commit:
        lines.append(("commit to next encounter", WOUND_COLOUR))
    return lines


# ------------------------------------------------------------------------------------------------ drawing
def _draw_pips(draw: ImageDraw.ImageDraw, x: int, y: int, width: int, item: Pips) -> None:
    draw.text((x, y), item.label, fill=INK, font=font(FONT_SIZE))
    room = width - BAR_LABEL_WIDTH
    step = min(PIP_STEP, room // max(1, item.total))
    size = max(2, step - 2)
    left = x + BAR_LABEL_WIDTH
    pips(draw, (left, y), item.filled, item.total, item.colour, None, size=size, step=step, outline=DIM)
    for pip, mark in item.marks:
        write_centred(draw, left + (pip - 1) * step + size // 2, y + size + 1, mark, MARK_SIZE, DIM)


def render_rgb(state: State) -> np.ndarray:
    """An HxWx3 uint8 picture of what the player sees (the face-down monster stays face down)."""
    assert isinstance(state, UnbrokenState)
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    title, step = header_lines(state)
    draw.text((MARGIN, 6), title, fill=INK, font=font(TITLE_SIZE))
    draw.text((MARGIN, 6 + TITLE_SIZE + 5), f"[{step}]", fill=DIM, font=font(FONT_SIZE))
    for panel in layout(state):
        x0, y0, x1, y1 = panel.box
        inset = 0
        if panel.frame is not None:
            draw.rectangle(panel.box, outline=panel.frame)
            inset = PADDING
        y = y0 + inset
        for item in panel.items:
            if isinstance(item, Pips):
                _draw_pips(draw, x0 + inset, y, x1 - x0 - 2 * inset, item)
            else:
                draw.text((x0 + inset, y), item.words, fill=item.colour, font=font(FONT_SIZE))
            y += item_height(item)
    return np.asarray(image, dtype=np.uint8)
