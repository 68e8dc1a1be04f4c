"""Unstoppable as text (`state_text`, the observers' and `ansi` view) and as a picture (`render_rgb`).

Both show only what the player may see: the threat side of a card only once the player has seen it (a drafted core
is sleeved "without viewing the threat side"), the on-deck threat but not the order below it, the face-up top card of
each core deck, the market, never a face-down deck's order. A solo game has no one else to hide from, so the
player's view is also the public one.

The picture (`WIDTH` x `HEIGHT`, as wide as the viewer shows it unscaled) is laid out in bands: the header; the
player mat (health, armor, credits, action points, level discs, boss damage) beside the core decks and the draft; the
danger track (each space's value, border colour and effect, the skipped spaces crossed out, the marker); then the
battlefield with the on-deck threat; the hand; the cards in play (exhausted allies marked); the market of upgrades.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from PIL import Image, ImageDraw

from envs.core.game import State
from envs.core.picture import Colour, fit, font, panel, pips, text_width, wrap_cut
from envs.unstoppable.cards import MAX_LEVEL, SKIPPED_BORDER, Core, Effect, Upgrade
from envs.unstoppable.effects import (
    boss_damage_words,
    card_effects,
    core_of,
    danger_level,
    on_deck,
    threat_attack,
    threat_health,
    threat_keywords,
    threat_of,
    upgrades_of,
)
from envs.unstoppable.rules import UnstoppableState
from envs.unstoppable.state import MAX_ACTION_POINTS, MAX_ARMOR, MAX_HEALTH, NONE, Kind

# ============================================================================================ text


def state_text(state: UnstoppableState) -> str:
    """A readable table of everything the player may see."""
    game = state.game
    cards = game.cards
    lines = [
        f"Unstoppable vs {game.boss.name} ({game.difficulty}) - turn {state.turn}, {state.phase.name.lower()}"
        + (f" - {state.ending()}" if state.over else ""),
        f"health {state.health}  armor {state.armor}  credits {state.credits}  action points "
        f"{state.action_points}  level {state.level} (drafting {state.small_level})  danger {danger_level(state)} "
        f"(space {state.danger}/{game.max_danger})  {boss_damage_words(state)}",
    ]
    top = on_deck(state)
    lines.append("battlefield: " + (", ".join(_card_words(state, s, True) for s in state.battlefield) or "-"))
    lines.append(f"on deck: {_card_words(state, top, True) if top != NONE else '-'}  ({len(state.deck)} in deck)")
    lines.append("hand: " + (", ".join(_card_words(state, s) for s in state.hand) or "-"))
    lines.append("in play: " + (", ".join(_card_words(state, s) for s in state.in_play) or "-"))
    lines.append(f"discard: {len(state.discard)}  eliminated: {len(state.eliminated)}")
    market = [cards.upgrades[u].name if u != NONE else "-" for u in state.market]
    lines.append("market: " + ", ".join(market))
    tops = []
    for level, deck in enumerate(state.core_decks, start=1):
        shown = core_deck_top(state, level)
        tops.append(f"L{level} {cards.cores[shown].name if shown != NONE else '-'} ({len(deck)})")
    lines.append("core decks: " + ", ".join(tops))
    if state.draft:
        lines.append("draft: " + ", ".join(cards.cores[c].name for c in state.draft))
    frame = state.decision()
    if frame is not None:
        lines.append(f"deciding: {frame.kind}")
        if frame.kind == Kind.EFFECT:
            lines.append(f"  resolving {_resolving(state)}")
    return "\n".join(lines)


def _card_words(state: UnstoppableState, sleeve: int, threat_side: bool = False) -> str:
    """One card in words: its threat side (attack/health, damage, keywords) or its core (cost, faction, type)."""
    record = state.sleeves[sleeve]
    if threat_side:
        keywords = threat_keywords(state, sleeve).text()
        words = (
            f"{threat_of(state, sleeve).name} {threat_attack(state, sleeve)}/{threat_health(state, sleeve)} "
            f"dmg {record.damage}" + (f" [{keywords}]" if keywords else "")
        )
    else:
        core = core_of(state, sleeve)
        words = f"{core.name} ({core.cost} AP, {core.faction} {core.type})"
        if sleeve in state.exhausted:
            words += " exhausted"
    ups = [upgrade.name for upgrade in upgrades_of(state, sleeve) if upgrade is not None]
    return f"#{sleeve + 1} {words}" + (f" +{'+'.join(ups)}" if ups else "")


def _resolving(state: UnstoppableState) -> str:
    """The card whose effects are being chosen, and its remaining effects."""
    frame = state.decision()
    assert frame is not None and frame.kind == Kind.EFFECT
    sleeve, mode = frame.detail("sleeve"), frame.detail("mode")
    effects = dict(card_effects(state, sleeve, mode))
    remaining = "; ".join(effects[slot].text() for slot in frame.detail("left"))
    return f"{core_of(state, sleeve).name}: {remaining or 'nothing left'}"


def core_deck_top(state: UnstoppableState, level: int) -> int:
    """The face-up top card of the level's core deck (NONE when it is empty or its top is not revealed yet)."""
    deck = state.core_decks[level - 1]
    if not len(deck) or (not deck.top and deck.unknown_size):
        return NONE
    return deck.draw_outcomes()[0][0]


# ============================================================================================ picture
WIDTH, HEIGHT = 840, 1076
"""The viewer shows a picture at most as wide as its board column, 848 pixels in a 1,280-pixel window
(agents/view/static/viewer.css): this one is shown at its own size, its text unscaled."""
MARGIN = 12
FONT_SIZE, SMALL_SIZE, TITLE_SIZE = 12, 11, 15
"""Font sizes (pixels): text, the smallest text (a card's rules, a label), the header."""
LINE = 14
"""Height of one line of card text."""
INK, DIM, DARK = (236, 232, 220), (140, 136, 150), (20, 20, 24)
"""The text, the secondary text (and a panel's frame), the text on a faction's band (and a pip's outline)."""
BACKGROUND, PANEL, CARD = (30, 28, 36), (46, 44, 56), (62, 60, 74)
"""Fills of the background, a band's panel and a card."""
EXHAUSTED_CARD, THREAT_CARD, EMPTY_PIP = (44, 42, 50), (78, 46, 46), (70, 68, 80)
"""Fills of an exhausted ally (and an empty market slot), a threat side and an empty pip."""
HEALTH_RGB, ARMOR_RGB, CREDIT_RGB, ACTION_RGB = (210, 60, 60), (90, 140, 220), (230, 195, 60), (90, 200, 120)
"""The player mat's health, armor, credits and action points, which also colour what spends or threatens them."""
BOSS_RGB, DAMAGE_RGB = (170, 90, 210), (240, 140, 40)
"""Damage dealt to the boss and to a threat."""
FACTION_RGB = {
    "council": (70, 120, 210),
    "junker": (200, 120, 50),
    "silver": (185, 190, 200),
    "viren": (80, 170, 90),
    "none": (120, 118, 128),
}
"""Name band of a core card by faction."""
BORDER_RGB = {"green": (80, 190, 90), "yellow": (230, 200, 60), "red": (220, 60, 60), "none": (110, 108, 120)}
"""Outline of a danger-track space by its border colour."""
SPACE_EFFECT_LETTER = {"eliminate": "ELIM", "market_cycle": "CYCLE", "none": ""}
TOP_BAND = (36, 244)
"""Vertical extent of the player mat, and beside it the core decks and the draft."""
DANGER_BAND = (252, 356)
BATTLEFIELD_BAND = (364, 574)
HAND_BAND = (582, 760)
PLAY_BAND = (768, 906)
MARKET_BAND = (914, HEIGHT - 12)
MAT_WIDTH = 400
ON_DECK_WIDTH = 160
"""Room right of the active threats for the on-deck threat and the deck."""
CORE_DECK_COLUMNS = 3
"""Core decks per row (two rows of three)."""
LEVEL_STEP = 36
"""Width of a level's box under the level discs."""
MAX_CARD_WIDTH = 172
MIN_CARD_WIDTH = 60


def _lines(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    texts: Sequence[tuple[str, Colour]],
    width: float,
    bottom: float,
    size: int = SMALL_SIZE,
) -> float:
    """Draw wrapped texts from (x, y) down to `bottom` (what does not fit becomes "..."); the next free y."""
    for words, colour in texts:
        for line in wrap_cut(words, width, size):
            if y + LINE > bottom:  # no room left: the card's text is cut, and says so
                draw.text((x + width - 14, y - LINE), "...", fill=DIM, font=font(size))
                return y
            draw.text((x, y), line, fill=colour, font=font(size))
            y += LINE
    return y


def render_rgb(state: State) -> np.ndarray:
    """An HxWx3 uint8 picture of what the player sees: mat, danger track, battlefield, hand, play and market."""
    assert isinstance(state, UnstoppableState)
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN, 10), _header(state), fill=INK, font=font(TITLE_SIZE))
    _draw_mat(draw, state, (MARGIN, TOP_BAND[0], MARGIN + MAT_WIDTH, TOP_BAND[1]))
    _draw_core_decks(draw, state, (MARGIN + MAT_WIDTH + 8, TOP_BAND[0], WIDTH - MARGIN, TOP_BAND[1]))
    _draw_danger_track(draw, state, (MARGIN, DANGER_BAND[0], WIDTH - MARGIN, DANGER_BAND[1]))
    _draw_battlefield(draw, state)
    _draw_row(draw, state, "Hand", state.hand, HAND_BAND)
    _draw_row(draw, state, "In play", state.in_play, PLAY_BAND)
    _draw_market(draw, state)
    return np.asarray(image, dtype=np.uint8)


def _header(state: UnstoppableState) -> str:
    """The picture's top line: boss, difficulty, character, turn and phase, and the pending decision or the end."""
    game = state.game
    words = f"UNSTOPPABLE  {game.character.name} vs {game.boss.name} ({game.difficulty})  |  turn {state.turn}"
    if state.over:
        return words + f"  |  game over: {'WON' if state.won else 'lost'} ({state.ending()})"
    words += f", {state.phase.name.lower()} phase"
    frame = state.decision()
    if frame is not None:
        words += f"  |  deciding: {frame.kind}"
        if frame.kind == Kind.EFFECT:
            words += f" ({_resolving(state)})"
    return fit(words, WIDTH - 2 * MARGIN, TITLE_SIZE)


def _panel(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], title: str) -> None:
    """A framed panel with its title."""
    panel(draw, box, title, FONT_SIZE, fill=PANEL, outline=DIM, ink=INK)


def _draw_mat(draw: ImageDraw.ImageDraw, state: UnstoppableState, box: tuple[int, int, int, int]) -> None:
    """The player mat: health, armor, credits, action points, the two level discs above levels 1-6, boss damage,
    and the card counts of the deck, discard pile and box."""
    game = state.game
    x0, y0, x1, _ = box
    _panel(draw, box, f"Player mat: {game.character.name}")
    label_x, pip_x = x0 + 10, x0 + 100
    y = y0 + 26
    rows = (
        ("health", state.health, MAX_HEALTH, HEALTH_RGB, False),
        ("armor", state.armor, MAX_ARMOR, ARMOR_RGB, False),
        ("action points", state.action_points, MAX_ACTION_POINTS, ACTION_RGB, True),
    )
    for name, value, total, colour, round_pips in rows:
        draw.text((label_x, y), f"{name} {value}", fill=colour, font=font(FONT_SIZE))
        pips(
            draw, (pip_x, y + 1), value, total, colour, EMPTY_PIP, size=12, step=15, outline=DARK, round_pips=round_pips
        )
        y += 20
    draw.text((label_x, y), f"credits {state.credits}", fill=CREDIT_RGB, font=font(FONT_SIZE))
    y += 22
    draw.text((label_x, y), "level discs", fill=INK, font=font(FONT_SIZE))
    for level in range(1, MAX_LEVEL + 1):
        lx = pip_x + (level - 1) * LEVEL_STEP
        draw.rectangle((lx, y - 2, lx + LEVEL_STEP - 6, y + 30), outline=DIM)
        draw.text((lx + 3, y - 1), f"L{level}", fill=DIM, font=font(SMALL_SIZE))
        if level == state.level:
            draw.ellipse(
                (lx + LEVEL_STEP - 21, y + 12, lx + LEVEL_STEP - 8, y + 25), fill=(230, 230, 240), outline=DARK
            )
        if level == state.small_level:
            draw.ellipse((lx + 4, y + 16, lx + 14, y + 26), fill=(160, 200, 250), outline=DARK)
    draw.text((pip_x + MAX_LEVEL * LEVEL_STEP + 2, y), "big: level", fill=DIM, font=font(SMALL_SIZE))
    draw.text((pip_x + MAX_LEVEL * LEVEL_STEP + 2, y + 14), "small: draft", fill=DIM, font=font(SMALL_SIZE))
    y += 38
    required = game.boss_damage_required
    words = boss_damage_words(state)  # the boss's damage by its win kind (a boss with members: each member's)
    if text_width(words, FONT_SIZE) > pip_x + 26 - label_x:
        draw.text((label_x, y), fit(words, x1 - label_x - 8, FONT_SIZE), fill=BOSS_RGB, font=font(FONT_SIZE))
        y += 16
    else:
        draw.text((label_x, y), words, fill=BOSS_RGB, font=font(FONT_SIZE))
    pips(draw, (pip_x + 30, y + 1), state.boss_damage, required, BOSS_RGB, EMPTY_PIP, size=10, step=13, outline=DARK)
    y += 22
    counts = f"deck {len(state.deck)}   discard {len(state.discard)}   eliminated {len(state.eliminated)}"
    draw.text((label_x, y), fit(counts, x1 - label_x - 8, FONT_SIZE), fill=DIM, font=font(FONT_SIZE))


def _draw_danger_track(draw: ImageDraw.ImageDraw, state: UnstoppableState, box: tuple[int, int, int, int]) -> None:
    """Every space of the boss mat's danger track: its value, border colour and optional effect; the spaces this
    difficulty skips crossed out; the marker's space highlighted; the last space is Maximum Danger."""
    game = state.game
    track = game.boss.danger_track
    skipped = SKIPPED_BORDER[game.difficulty]
    x0, y0, x1, y1 = box
    _panel(
        draw,
        box,
        f"Danger track: level {danger_level(state)} (marker on space {state.danger}); {game.difficulty} skips "
        f"{skipped}-bordered spaces",
    )
    step = (x1 - x0 - 16) / len(track)
    top, bottom = y0 + 26, y1 - 32
    for index, space in enumerate(track):
        sx = x0 + 8 + index * step
        cell = (sx + 2, top, sx + step - 2, bottom)
        here = index == state.danger
        draw.rectangle(cell, fill=(120, 40, 40) if here else CARD, outline=BORDER_RGB[space.border], width=3)
        last = index == len(track) - 1
        draw.text((sx + 7, top + 6), "MAX" if last else str(space.value), fill=INK, font=font(FONT_SIZE))
        effect = SPACE_EFFECT_LETTER[space.effect]
        if effect:
            draw.text((sx + 5, top + 24), effect, fill=CREDIT_RGB, font=font(SMALL_SIZE))
        if space.border == skipped:
            draw.line((cell[0], cell[1], cell[2], cell[3]), fill=DIM, width=2)
            draw.line((cell[0], cell[3], cell[2], cell[1]), fill=DIM, width=2)
        if here:
            draw.polygon(
                [(sx + step / 2 - 6, bottom + 11), (sx + step / 2 + 6, bottom + 11), (sx + step / 2, bottom + 2)],
                fill=HEALTH_RGB,
            )
    legend = "ELIM: pay 1 credit to eliminate a card   CYCLE: cycle the market   crossed out: skipped   MAX: lose"
    draw.text((x0 + 8, y1 - 16), legend, fill=DIM, font=font(SMALL_SIZE))


def _draw_core_decks(draw: ImageDraw.ImageDraw, state: UnstoppableState, box: tuple[int, int, int, int]) -> None:
    """The six face-up core decks (two rows of three): each top card and count, the small disc's deck marked; the
    draft's cores below them while the player drafts."""
    cores = state.game.cards.cores
    x0, y0, x1, y1 = box
    _panel(draw, box, "Core decks (face up)")
    width = (x1 - x0 - 16) / CORE_DECK_COLUMNS
    height = 40
    for level in range(1, MAX_LEVEL + 1):
        row, column = divmod(level - 1, CORE_DECK_COLUMNS)
        cx = x0 + 8 + column * width
        cy = y0 + 24 + row * (height + 6)
        cell = (cx + 2, cy, cx + width - 2, cy + height)
        marked = level == state.small_level
        draw.rectangle(cell, fill=CARD, outline=(160, 200, 250) if marked else DIM, width=2 if marked else 1)
        top = core_deck_top(state, level)
        name = cores[top].name if top != NONE else "-"
        draw.text((cx + 6, cy + 2), f"L{level} ({len(state.core_decks[level - 1])})", fill=DIM, font=font(SMALL_SIZE))
        if top != NONE:
            draw.rectangle((cx + 4, cy + 19, cx + width - 4, cy + height - 3), fill=FACTION_RGB[cores[top].faction])
        draw.text(
            (cx + 7, cy + 21),
            fit(name, width - 14, SMALL_SIZE),
            fill=DARK if top != NONE else DIM,
            font=font(SMALL_SIZE),
        )
    if state.draft:
        draft = "Draft: " + ", ".join(cores[c].name for c in state.draft)
        _lines(draw, x0 + 10, y0 + 24 + 2 * (height + 6) + 4, [(draft, INK)], x1 - x0 - 20, y1 - 4, FONT_SIZE)


def _card_widths(count: int, room: float) -> float:
    """The width of each of `count` cards side by side in `room` pixels."""
    if not count:
        return MAX_CARD_WIDTH
    return max(MIN_CARD_WIDTH, min(MAX_CARD_WIDTH, (room - 8 * (count - 1)) / count))


def _draw_battlefield(draw: ImageDraw.ImageDraw, state: UnstoppableState) -> None:
    """The active threats, then (apart) the on-deck threat and the deck under it."""
    y0, y1 = BATTLEFIELD_BAND
    box = (MARGIN, y0, WIDTH - MARGIN, y1)
    _panel(draw, box, f"Battlefield: {len(state.battlefield)} active threat(s)")
    room = WIDTH - 2 * MARGIN - ON_DECK_WIDTH - 24
    width = _card_widths(len(state.battlefield), room)
    x: float = MARGIN + 8
    for sleeve in state.battlefield:
        _draw_threat(draw, state, sleeve, (x, y0 + 24, x + width, y1 - 8))
        x += width + 8
    deck_x = WIDTH - MARGIN - ON_DECK_WIDTH
    draw.line((deck_x - 8, y0 + 6, deck_x - 8, y1 - 6), fill=DIM)
    top = on_deck(state)
    draw.text((deck_x, y0 + 5), f"On deck ({len(state.deck)} in deck)", fill=INK, font=font(FONT_SIZE))
    if top != NONE:
        _draw_threat(draw, state, top, (deck_x, y0 + 24, WIDTH - MARGIN - 8, y1 - 8))


def _draw_threat(
    draw: ImageDraw.ImageDraw, state: UnstoppableState, sleeve: int, box: tuple[float, float, float, float]
) -> None:
    """A threat side: name, attack and defense (health), damage taken as tokens on a health bar, keywords, the
    bonus for defeating it and its upgrades."""
    x0, y0, x1, y1 = box
    threat = threat_of(state, sleeve)
    attack, health = threat_attack(state, sleeve), threat_health(state, sleeve)
    damage = state.sleeves[sleeve].damage
    panel(draw, box, threat.name, FONT_SIZE, fill=THREAT_CARD, outline=HEALTH_RGB, ink=INK, inset=(5, 4), border=2)
    width = x1 - x0 - 10
    draw.text(
        (x0 + 5, y0 + 21),
        fit(f"ATK {attack}  DEF {health - attack}  HP {health}", width, FONT_SIZE),
        fill=INK,
        font=font(FONT_SIZE),
    )
    # The health bar: one segment per point of health, the damage taken in orange.
    bar_y = y0 + 39
    segment = width / max(1, health)
    bar = (max(1.0, segment - 2), 9)
    pips(draw, (x0 + 5, bar_y), damage, health, DAMAGE_RGB, EMPTY_PIP, size=bar, step=segment)
    draw.text((x0 + 5, bar_y + 12), f"damage {damage}/{health}", fill=DAMAGE_RGB, font=font(SMALL_SIZE))
    keywords = threat_keywords(state, sleeve).text()
    texts: list[tuple[str, Colour]] = []
    if keywords:
        texts.append((keywords.upper(), CREDIT_RGB))
    if threat.bonus:
        texts.append(("Bonus: " + "; ".join(effect.text() for effect in threat.bonus), INK))
    texts += _upgrade_lines(state, sleeve, threat_side=True)
    _lines(draw, x0 + 5, bar_y + 28, texts, width, y1 - 2)


def _upgrade_lines(state: UnstoppableState, sleeve: int, threat_side: bool) -> list[tuple[str, Colour]]:
    """The sleeve's upgrades by name, each with the modifier of the side shown."""
    lines = []
    for cutout, upgrade in zip(("top", "bottom"), upgrades_of(state, sleeve), strict=True):
        if upgrade is not None:
            lines.append((f"+{cutout}: {upgrade.name} ({_modifier(upgrade, threat_side)})", ARMOR_RGB))
    return lines


def _modifier(upgrade: Upgrade, threat_side: bool) -> str:
    """An upgrade's modifier on one side, in words."""
    if threat_side:
        parts = [f"+{upgrade.attack} ATK"] if upgrade.attack else []
        parts += [f"+{upgrade.defense} DEF"] if upgrade.defense else []
        keywords = upgrade.keywords.text()
        return ", ".join(parts + ([keywords] if keywords else [])) or "no threat modifier"
    parts = [f"play: {_effects(upgrade.on_play)}"] if upgrade.on_play else []
    parts += [f"exhaust: {_effects(upgrade.on_exhaust)}"] if upgrade.on_exhaust else []
    return "; ".join(parts) or "no core modifier"


def _effects(effects: Sequence[Effect]) -> str:
    return ", ".join(effect.text() for effect in effects)


def _draw_row(
    draw: ImageDraw.ImageDraw, state: UnstoppableState, title: str, sleeves: Sequence[int], band: tuple[int, int]
) -> None:
    """A row of core sides (the hand, the cards in play)."""
    y0, y1 = band
    _panel(draw, (MARGIN, y0, WIDTH - MARGIN, y1), f"{title}: {len(sleeves)} card(s)")
    width = _card_widths(len(sleeves), WIDTH - 2 * MARGIN - 16)
    x: float = MARGIN + 8
    for sleeve in sleeves:
        _draw_core(draw, state, sleeve, (x, y0 + 24, x + width, y1 - 8))
        x += width + 8


def _draw_core(
    draw: ImageDraw.ImageDraw, state: UnstoppableState, sleeve: int, box: tuple[float, float, float, float]
) -> None:
    """A core side: name on its faction's band, cost, type and faction, level, its effects (played, and each exhaust
    icon's), its upgrades; an exhausted ally is dimmed and marked."""
    x0, y0, x1, y1 = box
    core: Core = core_of(state, sleeve)
    exhausted = sleeve in state.exhausted
    draw.rectangle(box, fill=EXHAUSTED_CARD if exhausted else CARD, outline=DIM)
    band = FACTION_RGB[core.faction]
    draw.rectangle((x0, y0, x1, y0 + 18), fill=band)
    width = x1 - x0 - 10
    draw.text((x0 + 5, y0 + 3), fit(core.name, width, FONT_SIZE), fill=DARK, font=font(FONT_SIZE))
    faction = "factionless" if core.faction == "none" else core.faction
    draw.text(
        (x0 + 5, y0 + 21),
        fit(f"{core.cost} AP  {core.type}  {faction}  L{core.level}", width, SMALL_SIZE),
        fill=INK,
        font=font(SMALL_SIZE),
    )
    texts: list[tuple[str, Colour]] = []
    if exhausted:
        texts.append(("EXHAUSTED", HEALTH_RGB))
    if core.effects:
        texts.append(("Play: " + _effects(core.effects), INK))
    for icon, effects in enumerate(core.exhaust, start=1):
        texts.append((f"Exhaust {icon}: {_effects(effects)}", ACTION_RGB))
    texts += _upgrade_lines(state, sleeve, threat_side=False)
    _lines(draw, x0 + 5, y0 + 37, texts, width, y1 - 2)


def _draw_market(draw: ImageDraw.ImageDraw, state: UnstoppableState) -> None:
    """The market's upgrades: name, cost (and faction discount), cutout and requirement, both modifiers."""
    y0, y1 = MARKET_BAND
    upgrades = state.game.cards.upgrades
    _panel(draw, (MARGIN, y0, WIDTH - MARGIN, y1), f"Market ({len(state.upgrade_deck)} upgrades in the deck)")
    slots = len(state.market)
    width = (WIDTH - 2 * MARGIN - 16 - 8 * (slots - 1)) / slots
    for slot, index in enumerate(state.market):
        x = MARGIN + 8 + slot * (width + 8)
        box = (x, y0 + 22, x + width, y1 - 6)
        if index == NONE:
            panel(
                draw,
                box,
                f"slot {slot + 1}: empty",
                SMALL_SIZE,
                fill=EXHAUSTED_CARD,
                outline=DIM,
                ink=DIM,
                inset=(5, 4),
            )
            continue
        upgrade = upgrades[index]
        panel(draw, box, upgrade.name, FONT_SIZE, fill=CARD, outline=CREDIT_RGB, ink=INK, inset=(5, 3))
        inner = width - 10
        price = f"{upgrade.cost} credits"
        if upgrade.discount is not None:
            price += f" (-{upgrade.discount.amount} on {upgrade.discount.faction})"
        texts = [
            (f"{price}; {upgrade.cutout}, {upgrade.requirement}", CREDIT_RGB),
            (f"core: {_modifier(upgrade, threat_side=False)}", INK),
            (f"threat: {_modifier(upgrade, threat_side=True)}", HEALTH_RGB),
        ]
        _lines(draw, x + 5, y0 + 41, texts, inner, y1 - 6)
