"""rgb_array picture of the Unbroken display: resource bars, time track, weapon, monster sheet, conditions."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from envs.core.game import State
from envs.unbroken.cards import RESOURCES, TIME
from envs.unbroken.rules import UnbrokenState
from envs.unbroken.state import PHASE_NAMES

WIDTH, HEIGHT = 720, 420
BACKGROUND = (32, 28, 24)
INK = (235, 225, 200)
DIM = (120, 110, 95)
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
WOUND_COLOUR = (200, 40, 40)
ARMOR_COLOUR = (130, 130, 150)
PIP = 14


def _pips(draw: ImageDraw.ImageDraw, x: int, y: int, filled: int, total: int, colour: tuple[int, int, int]) -> None:
    for i in range(total):
        box = (x + i * (PIP + 2), y, x + i * (PIP + 2) + PIP, y + PIP)
        draw.rectangle(box, fill=colour if i < filled else None, outline=DIM)


def render_rgb(state: State) -> np.ndarray:
    """An HxWx3 uint8 picture of what the player sees (the face-down monster stays face down)."""
    assert isinstance(state, UnbrokenState)
    s = state
    cards = s.cards
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    character = cards.characters[s.character].name if s.character >= 0 else "?"
    draw.text((10, 8), f"UNBROKEN  level {s.level}  {character}  [{PHASE_NAMES[s.phase]}]", fill=INK)
    y = 34
    for r, name in enumerate(RESOURCES):
        draw.text((10, y), name.replace("_", " "), fill=INK)
        amount = 0 if (r == TIME and s.time_token_removed) else s.resources[r]
        _pips(draw, 120, y, amount, cards.display.bar_maximum[r], BAR_COLOURS[name])
        if r == TIME:
            for level, skull in cards.display.time_skull.items():
                skull_x = 120 + (skull - 1) * (PIP + 2) + PIP // 2
                draw.text((skull_x - 3, y + PIP + 1), "IVX"[0] * level if level < 4 else "IV", fill=DIM)
        y += PIP + 8 if r != TIME else PIP + 20
    weapon = cards.weapons[s.weapons[-1]]
    draw.text((10, y), f"weapon: {weapon.name} ({weapon.kind})", fill=INK)
    y += 16
    for attack in weapon.attacks:
        effect = f"{attack.wounds} wounds" if attack.wounds else f"break {attack.break_armor} armor"
        cost = " + ".join(f"{a} {RESOURCES[r]}" for r, a in attack.cost)
        draw.text((20, y), f"{cost} -> {effect}", fill=DIM)
        y += 14
    draw.text((10, y + 4), f"ability uses: {s.ability_uses}", fill=INK)
    # Monster sheet (right side)
    x0 = 420
    draw.rectangle((x0, 30, WIDTH - 10, 250), outline=INK)
    if s.monster_revealed:
        monster = cards.monsters[s.monster()]
        draw.text((x0 + 8, 36), f"{monster.name} (level {monster.level})", fill=INK)
        draw.text((x0 + 8, 56), "health", fill=INK)
        _pips(draw, x0 + 70, 56, s.wounds, s.monster_health(), WOUND_COLOUR)
        draw.text((x0 + 8, 76), "armor", fill=INK)
        _pips(draw, x0 + 70, 76, s.armor_broken, s.monster_armor(), ARMOR_COLOUR)
        trick = (
            " + ".join(f"{a} {RESOURCES[r]}" for r, a in monster.trickery) if monster.trickery else "cannot be tricked"
        )
        draw.text((x0 + 8, 98), f"trickery: {trick}", fill=DIM)
        if monster.special_name:
            draw.text((x0 + 8, 114), f"special: {monster.special_name}", fill=DIM)
        if s.defending:
            draw.text((x0 + 8, 130), "DEFENDING", fill=WOUND_COLOUR)
        if s.last_roll:
            draw.text((x0 + 8, 146), f"last roll: {s.last_roll}", fill=INK)
    else:
        draw.text((x0 + 8, 36), "monster: face down", fill=DIM)
    # Conditions
    y = 262
    for title, conditions in (("conditions", s.conditions_active), ("next level", s.conditions_next)):
        names = ", ".join(cards.conditions[c].name for c in conditions) or "-"
        draw.text((x0, y), f"{title}: {names}", fill=INK)
        y += 16
    now = ", ".join(cards.conditions[c].name for c in s.conditions_now) or "-"
    draw.text((x0, y), f"immediate: {now}", fill=INK)
    y += 16
    skills = ", ".join(cards.skills[k].name for k in s.skills[-4:]) or "-"
    draw.text((x0, y), f"skills: {skills}", fill=INK)
    if s.is_terminal():
        verdict = f"WON: score {s.final_score()} - {s.title()}" if s.outcome == 1 else f"LOST: {s.end_reason}"
        draw.text((10, HEIGHT - 24), verdict, fill=WOUND_COLOUR if s.outcome < 0 else BAR_COLOURS["treasure"])
    return np.asarray(image, dtype=np.uint8)
