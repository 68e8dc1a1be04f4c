"""Runebound on the board as a picture (`render_board_rgb`, the rgb_array view), one size for every position.

The top is the map (`MapLayout`: pointy-top hexes, envs/core/hexgrid.py): terrain colours, roads from hex centre to
hex centre, rivers on the edges between hexes with their bridges, the sites (a letter and the name), the gem spaces
(face up filled, taken hollow), scorched hexes darkened and crossed, the warbands (their units) and the hero. While a
fight is on, the combat's own picture (render.render_rgb, the same size as the map's area) takes the map's place.
Below it, always: a status line (the scenario, the time, what is being decided or how the game ended, the fight), the
hero's sheet, the time track with its story spaces and warband spawns, the warbands in play and the markets.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw

from envs.core.hexgrid import Hex
from envs.core.hexmap import NO_CELL
from envs.core.picture import Colour, fit, font, pips, text_width, wrap_cut, write, write_centred
from envs.runebound import render
from envs.runebound.board import BoardState
from envs.runebound.board_actions import BOARD_ACTIONS
from envs.runebound.board_cards import ASSET_TYPES, TROPHY_KINDS
from envs.runebound.board_map import BRIDGE, RIVER, ROAD, RuneboundMap
from envs.runebound.board_state import NONE, WARBAND_FIGHT, BoardKind, BoardOutcome
from envs.runebound.movement import FACE_NAMES

WIDTH = render.WIDTH
MAP_HEIGHT = render.HEIGHT
"""The map's area: the combat's picture takes it whole during a fight."""
PANEL_HEIGHT = 292
"""The status line and the three columns below the map."""
HEIGHT = MAP_HEIGHT + PANEL_HEIGHT
MARGIN = 12
FONT_SIZE = 13
"""As the combat's picture (render.FONT_SIZE): shown at 848 of 960 pixels in the viewer, 13 pixels read as 11.5."""
LINE = 16
COLUMNS = (MARGIN, 344, 654)
"""Left edges of the hero's sheet, the time track and warbands, the markets."""
COLUMN_WIDTH = (320, 298, WIDTH - MARGIN - 654)

BACKGROUND, INK, DIM, GOLD = render.BACKGROUND, render.INK, render.DIM, render.GOLD
HEALTH, WOUND = render.HEALTH, render.WOUND
SEA = (38, 44, 58)
"""Behind the map, where there are no hexes."""
HEX_EDGE = (40, 38, 34)
TERRAIN_RGB: dict[str, Colour] = {
    "plains": (178, 192, 116),
    "forest": (78, 128, 72),
    "hills": (176, 150, 100),
    "mountains": (132, 126, 122),
    "water": (78, 130, 196),
}
SCORCHED_KEEP = 0.4
"""A scorched hex keeps this share of its terrain's colour (the rest is black) and is crossed in `SCORCH`."""
SCORCH = (220, 90, 30)
COORDINATES_KEEP = 0.55
"""A plain hex's coordinates are written in its terrain's colour darkened to this share (on a scorched hex, in
`SCORCHED_COORDINATES`)."""
SCORCHED_COORDINATES = (120, 110, 100)
ROAD_RGB = (228, 204, 150)
RIVER_RGB = (40, 100, 225)
BRIDGE_RGB = (112, 74, 40)
GEM_RGB: dict[str, Colour] = {"red": (220, 50, 50), "green": (60, 205, 95), "yellow": (245, 215, 60)}
SITE_LETTERS = {"city": "C", "town": "T", "stronghold": "S", "shrine": "Sh", "outlaw_glade": "OG"}
"""A site's letter on its hex (the map file's key)."""
SITE_RGB: dict[str, Colour] = {
    "city": (245, 235, 205),
    "town": (215, 195, 150),
    "stronghold": (165, 165, 185),
    "shrine": (200, 180, 240),
    "outlaw_glade": (90, 30, 35),
}
HERO_RGB = (250, 200, 40)
"""The hero's marker."""
WARBAND_RGB = (140, 20, 35)
"""A warband's marker (its units written on it)."""
REACH_RGB = (255, 245, 200)
"""The outline of a hex a terrain die can step to now."""
QUEST_RGB = (255, 150, 230)
"""The outline of a quest's target."""
NAME_INK, NAME_STROKE = (250, 246, 235), (24, 22, 20)
"""Text on the map: light, outlined in dark, legible on every terrain."""
MARKER = 11
"""Half the width of the hero's and the warbands' markers."""


# ============================================================================================ the map's layout
@dataclass(frozen=True)
class MapLayout:
    """Where each cell of a map is drawn in the map's area: hex size (centre to corner) and centres."""

    size: float
    centres: tuple[tuple[float, float], ...]

    def corners(self, cell: int, shrink: float = 0.0) -> list[tuple[float, float]]:
        """The six corners of `cell`'s hexagon (pointy-top), `shrink` pixels inside."""
        x, y = self.centres[cell]
        radius = self.size - shrink
        return [
            (x + radius * math.cos(math.radians(60 * k - 30)), y + radius * math.sin(math.radians(60 * k - 30)))
            for k in range(6)
        ]

    def edge(self, cell: int, other: int) -> tuple[tuple[float, float], tuple[float, float]]:
        """The two ends of the side between two neighbouring cells."""
        (x1, y1), (x2, y2) = self.centres[cell], self.centres[other]
        mid_x, mid_y = (x1 + x2) / 2, (y1 + y2) / 2
        length = math.hypot(x2 - x1, y2 - y1)
        across_x, across_y = -(y2 - y1) / length * self.size / 2, (x2 - x1) / length * self.size / 2
        return (mid_x - across_x, mid_y - across_y), (mid_x + across_x, mid_y + across_y)

    def hero_spot(self, cell: int) -> tuple[float, float]:
        """The centre of the hero's marker on `cell` (low in the hex, left)."""
        x, y = self.centres[cell]
        return x - 0.3 * self.size, y + 0.55 * self.size

    def warband_spot(self, cell: int, index: int, count: int) -> tuple[float, float]:
        """The centre of the `index`-th of `count` warband markers on `cell` (low in the hex, right of the hero's)."""
        x, y = self.centres[cell]
        room = 0.65 * self.size - MARKER
        step = min(2 * MARKER + 2, room / (count - 1)) if count > 1 else 0.0
        return x + 0.05 * self.size + MARKER + index * step, y + 0.55 * self.size


@functools.cache
def map_layout(the_map: RuneboundMap) -> MapLayout:
    """The largest hexes that fit the whole map in the map's area, centred there."""
    hexes: Sequence[Hex] = the_map.hex_map.hexes
    across = [q + r / 2 for q, r in hexes]
    rows = [r for _, r in hexes]
    root3 = math.sqrt(3)
    size = min(
        (WIDTH - 2 * MARGIN) / (root3 * (max(across) - min(across) + 1)),
        (MAP_HEIGHT - 2 * MARGIN) / (1.5 * (max(rows) - min(rows)) + 2),
    )
    width = root3 * size * (max(across) - min(across) + 1)
    height = size * (1.5 * (max(rows) - min(rows)) + 2)
    left = (WIDTH - width) / 2 + root3 * size / 2
    top = (MAP_HEIGHT - height) / 2 + size
    return MapLayout(
        size=size,
        centres=tuple(
            (left + root3 * size * (a - min(across)), top + 1.5 * size * (r - min(rows)))
            for a, r in zip(across, rows, strict=True)
        ),
    )


def _shade(colour: Colour, keep: float) -> Colour:
    """`colour` darkened to `keep` of itself."""
    return (int(colour[0] * keep), int(colour[1] * keep), int(colour[2] * keep))


def _label(draw: ImageDraw.ImageDraw, centre: float, y: float, words: str) -> None:
    """Words on the map, centred on x = `centre`, light outlined in dark."""
    x = centre - text_width(words, FONT_SIZE) / 2
    draw.text((x, y), words, fill=NAME_INK, font=font(FONT_SIZE), stroke_width=2, stroke_fill=NAME_STROKE)


# ============================================================================================ the map
@functools.cache
def map_layers(the_map: RuneboundMap) -> tuple[Image.Image, Image.Image]:
    """The map's area as drawn from the map alone, once per map: every hex in its terrain's colour, roads, rivers and
    bridges, the sites and the plain hexes' coordinates; and the same with every hex scorched (darkened, crossed), to
    show through a scorched hex's outline."""
    layers = []
    for scorched in (False, True):
        image = Image.new("RGB", (WIDTH, MAP_HEIGHT), SEA)
        _draw_fixed(ImageDraw.Draw(image), the_map, scorched)
        layers.append(image)
    return layers[0], layers[1]


def _draw_fixed(draw: ImageDraw.ImageDraw, the_map: RuneboundMap, scorched: bool) -> None:
    """What the map alone shows, every hex scorched or none."""
    hex_map = the_map.hex_map
    layout = map_layout(the_map)
    for cell in range(len(hex_map)):
        colour = TERRAIN_RGB[the_map.terrain(cell)]
        draw.polygon(layout.corners(cell), fill=_shade(colour, SCORCHED_KEEP) if scorched else colour)
    for cell in range(len(hex_map)):
        draw.polygon(layout.corners(cell), outline=HEX_EDGE, width=1)
    for edge in hex_map.edges_with(ROAD):
        first, second = hex_map.edge_cells(edge)
        draw.line([layout.centres[first], layout.centres[second]], fill=ROAD_RGB, width=5)
    for edge in hex_map.edges_with(RIVER):
        first, second = hex_map.edge_cells(edge)
        draw.line(layout.edge(first, second), fill=RIVER_RGB, width=6)
        if BRIDGE in hex_map.edge_attributes(edge):
            _bridge(draw, layout, first, second)
    for cell in range(len(hex_map)):
        if scorched:
            corners = layout.corners(cell, shrink=layout.size * 0.3)
            draw.line([corners[0], corners[3]], fill=SCORCH, width=4)
            draw.line([corners[1], corners[4]], fill=SCORCH, width=4)
        site = the_map.site_at(cell)
        if site is not None:
            _site(draw, layout, cell, site.kind, site.name)
        else:
            x, y = layout.centres[cell]
            q, r = hex_map.hex_at(cell)
            ink = SCORCHED_COORDINATES if scorched else _shade(TERRAIN_RGB[the_map.terrain(cell)], COORDINATES_KEEP)
            write_centred(draw, x, y + 0.02 * layout.size, f"{q},{r}", FONT_SIZE, ink)


def _draw_map(image: Image.Image, state: BoardState) -> None:
    """The map's fixed layer with the scorched hexes through theirs; the quests' targets, the hexes a die reaches,
    the gems, the warbands and the hero on it."""
    the_map = state.game.board.map
    layout = map_layout(the_map)
    plain, scorched = map_layers(the_map)
    image.paste(plain, (0, 0))
    if state.scorched:
        mask = Image.new("L", plain.size, 0)
        outline = ImageDraw.Draw(mask)
        for cell in state.scorched:
            outline.polygon(layout.corners(cell), fill=255, outline=255)
        image.paste(scorched, (0, 0), mask)
    draw = ImageDraw.Draw(image)
    _reach(draw, state, layout)
    for quest in state.quests:
        cell = state.game.quest_cell[quest]
        if cell != NO_CELL:
            draw.polygon(layout.corners(cell, shrink=3), outline=QUEST_RGB, width=3)
    for cell in state.game.gem_cells:
        colour = the_map.gem_at(cell)
        assert colour is not None  # gem_cells are the map's gem spaces
        _gem(draw, layout, cell, GEM_RGB[colour], cell in state.gems)
    bands_at: dict[int, list[int]] = {}
    for band in state.warbands:
        bands_at.setdefault(band.cell, []).append(band.units)
    for cell, units in bands_at.items():
        for index, count in enumerate(units):
            x, y = layout.warband_spot(cell, index, len(units))
            draw.rectangle((x - MARKER, y - MARKER, x + MARKER, y + MARKER), fill=WARBAND_RGB, outline=NAME_INK)
            write_centred(draw, x, y - 8, str(count), FONT_SIZE, NAME_INK)
    if state.hero >= 0:
        x, y = layout.hero_spot(state.cell)
        draw.ellipse((x - MARKER, y - MARKER, x + MARKER, y + MARKER), fill=HERO_RGB, outline=NAME_STROKE, width=2)
        write_centred(draw, x, y - 8, state.board_hero().name[0], FONT_SIZE, NAME_STROKE)


def _bridge(draw: ImageDraw.ImageDraw, layout: MapLayout, first: int, second: int) -> None:
    """A plank across the river between two cells, along the way from one centre to the other."""
    (x1, y1), (x2, y2) = layout.centres[first], layout.centres[second]
    mid_x, mid_y = (x1 + x2) / 2, (y1 + y2) / 2
    length = math.hypot(x2 - x1, y2 - y1)
    along_x, along_y = (x2 - x1) / length, (y2 - y1) / length
    half_long, half_wide = layout.size * 0.22, layout.size * 0.12
    draw.polygon(
        [
            (mid_x + along_x * half_long - along_y * half_wide, mid_y + along_y * half_long + along_x * half_wide),
            (mid_x + along_x * half_long + along_y * half_wide, mid_y + along_y * half_long - along_x * half_wide),
            (mid_x - along_x * half_long + along_y * half_wide, mid_y - along_y * half_long - along_x * half_wide),
            (mid_x - along_x * half_long - along_y * half_wide, mid_y - along_y * half_long + along_x * half_wide),
        ],
        fill=BRIDGE_RGB,
        outline=NAME_STROKE,
    )


def _site(draw: ImageDraw.ImageDraw, layout: MapLayout, cell: int, kind: str, name: str) -> None:
    """A site: its letter on a badge high in the hex, its name (wrapped to the hex) across the middle."""
    x, y = layout.centres[cell]
    size = layout.size
    badge = (x - 13, y - 0.72 * size, x + 13, y - 0.72 * size + 20)
    draw.rounded_rectangle(badge, radius=5, fill=SITE_RGB[kind], outline=NAME_STROKE)
    ink = NAME_INK if sum(SITE_RGB[kind]) < 384 else NAME_STROKE
    write_centred(draw, x, badge[1] + 2, SITE_LETTERS[kind], FONT_SIZE, ink)
    lines = wrap_cut(name, 1.55 * size, FONT_SIZE, most=2)
    top = y - 0.28 * size
    for line in lines:
        _label(draw, x, top, line)
        top += LINE - 1


def _gem(draw: ImageDraw.ImageDraw, layout: MapLayout, cell: int, colour: Colour, face_up: bool) -> None:
    """A gem space: a diamond in its colour, filled while its gem is face up, hollow once taken."""
    x, y = layout.centres[cell]
    y -= 0.3 * layout.size
    half = 0.22 * layout.size
    diamond = [(x, y - half), (x + half, y), (x, y + half), (x - half, y)]
    if face_up:
        draw.polygon(diamond, fill=colour, outline=NAME_STROKE, width=2)
    else:
        draw.polygon(diamond, outline=colour, width=3)


def _reach(draw: ImageDraw.ImageDraw, state: BoardState, layout: MapLayout) -> None:
    """While the hero moves with terrain dice, the hexes a die can step to now, outlined."""
    frame = state.decision()
    if frame is None or frame.kind != BoardKind.MOVE_STEP:
        return
    row = state.game.board.map.hex_map.neighbour_table[state.cell]
    for action in state.legal_actions():
        if BOARD_ACTIONS.move <= action < BOARD_ACTIONS.stop:
            draw.polygon(layout.corners(row[BOARD_ACTIONS.move_of(action)[1]], shrink=3), outline=REACH_RGB, width=3)


# ============================================================================================ below the map
def _status(state: BoardState) -> str:
    """The scenario, the time and what is happening now."""
    scenario = state.game.board.scenario
    words = f"{scenario.name}   time {state.time}/{2 * scenario.act_length}   Act {'I' * state.act()}"
    if state.outcome != BoardOutcome.ONGOING:
        return f"{words}   game over: {state.outcome.name.lower().replace('_', ' ')}"
    if state.fighting():
        board = state.game.board
        if state.fight >= WARBAND_FIGHT:
            band = state.warbands[state.fight - WARBAND_FIGHT]
            words += f"   fighting the warband {board.warbands[band.card].name} ({band.units} units)"
        else:
            words += f"   fighting: {board.adventures[state.fight].name}"
    frame = state.decision()
    if frame is not None and not state.fighting():
        words += f"   deciding: {frame.kind}"
    return words


def _lines(draw: ImageDraw.ImageDraw, x: float, y: float, words: str, width: float, most: int, ink: Colour) -> float:
    """`words` wrapped into at most `most` lines `width` wide; the y below them."""
    for line in wrap_cut(words, width, FONT_SIZE, most=most):
        write(draw, (x, y), line, FONT_SIZE, ink)
        y += LINE
    return y


def _hero_sheet(draw: ImageDraw.ImageDraw, state: BoardState, top: float) -> None:
    """The hero: health, gold, actions, attributes, trophies, assets, hand, learned skills, quests, dice."""
    x, width = COLUMNS[0], COLUMN_WIDTH[0]
    if state.hero < 0:
        write(draw, (x, top), "the hero is not drawn yet", FONT_SIZE, DIM)
        return
    board = state.game.board
    hero = state.board_hero()
    write(draw, (x, top), fit(f"{hero.name} at {state.game.hex_name(state.cell)}", width, FONT_SIZE), FONT_SIZE, GOLD)
    y = top + LINE + 2
    health = state.max_health()
    write(draw, (x, y), f"health {health - state.wounds}/{health}", FONT_SIZE, INK)
    pips(draw, (x + 110, y + 3), state.wounds, health, WOUND, HEALTH, size=9, step=11)
    y += LINE
    words = f"gold {state.hero_gold}   actions left {state.actions_left}   prepare {state.prepare.name.lower()}"
    write(draw, (x, y), words, FONT_SIZE, INK)
    y += LINE
    attributes = "   ".join(f"{name} {state.attribute(name)}" for name in ("body", "mind", "spirit"))
    write(draw, (x, y), f"{attributes}   dice {state.dice_count()}", FONT_SIZE, INK)
    y += LINE
    trophies = "  ".join(f"{kind} {count}" for kind, count in zip(TROPHY_KINDS, state.trophies, strict=True))
    write(draw, (x, y), fit(f"trophies: {trophies}", width, FONT_SIZE), FONT_SIZE, INK)
    y += LINE + 4
    for kind, card in zip(ASSET_TYPES, state.assets, strict=True):
        held = board.assets[card].name if card != NONE else "-"
        write(draw, (x, y), f"{kind}:", FONT_SIZE, DIM)
        write(draw, (x + 58, y), fit(held, width - 58, FONT_SIZE), FONT_SIZE, INK)
        y += LINE
    y += 4
    hand = ", ".join(board.skills[skill].name for skill in state.hand) or "empty"
    y = _lines(draw, x, y, f"hand ({len(state.hand)}/{state.hand_size()}): {hand}", width, 2, INK)
    if state.learned:
        learned = ", ".join(board.skills[skill].name for skill in state.learned)
        y = _lines(draw, x, y, f"learned: {learned}", width, 2, INK)
    if state.quests:
        quests = "; ".join(f"{board.adventures[q].name} -> {board.adventures[q].target}" for q in state.quests)
        y = _lines(draw, x, y, f"quests: {quests}", width, 2, QUEST_RGB)
    if state.dice:
        _lines(draw, x, y, "terrain dice: " + ", ".join(FACE_NAMES[face] for face in state.dice), width, 2, GOLD)


TRACK_BOX = 20
"""A space of the time track, in pixels (with a pixel between spaces)."""
TRACK_PASSED = (70, 64, 58)
"""A space of the time track the token has passed."""


def _time_track(draw: ImageDraw.ImageDraw, state: BoardState, top: float) -> float:
    """The time track, an Act a row of spaces (Act I's row opens on the start): the spaces passed shaded, the time
    token's in gold, S a story card, W a warband's spawn, E the last space (the scenario is lost there); the y below
    it."""
    x = COLUMNS[1]
    scenario = state.game.board.scenario
    length = scenario.act_length
    spawns = set(scenario.warband_spaces)
    for act in (1, 2):
        y = top + (act - 1) * (TRACK_BOX + 3)
        write(draw, (x, y + 3), "I" * act, FONT_SIZE, DIM)
        for space in range(0 if act == 1 else 1, length + 1):
            position = (act - 1) * length + space
            left = x + 24 + space * (TRACK_BOX + 1)
            now = position == state.time
            fill = GOLD if now else TRACK_PASSED if position < state.time else None
            draw.rectangle((left, y, left + TRACK_BOX - 1, y + TRACK_BOX - 1), fill=fill, outline=render.FRAME)
            if position == 2 * length:
                marks = "E"
            else:
                marks = ("S" if space and space in scenario.story_spaces else "") + ("W" if position in spawns else "")
            if marks:
                write_centred(draw, left + TRACK_BOX / 2, y + 3, marks, FONT_SIZE, BACKGROUND if now else INK)
    y = top + 2 * (TRACK_BOX + 3)
    write(draw, (x, y), "S story  W warband spawns  E end  gold: now", FONT_SIZE, DIM)
    return y + LINE


def _place(state: BoardState, cell: int) -> str:
    """A cell in few words: its site's name, or its coordinates."""
    site = state.game.board.map.site_at(cell)
    if site is not None:
        return site.name
    q, r = state.game.board.map.hex_map.hex_at(cell)
    return f"({q}, {r})"


def _warband_list(draw: ImageDraw.ImageDraw, state: BoardState, top: float) -> None:
    """The warbands in play (units, where, where they head), the ones face down and defeated."""
    x, width = COLUMNS[1], COLUMN_WIDTH[1]
    board = state.game.board
    count = len(board.warbands)
    head = f"Warbands: defeated {len(state.defeated)}/{count}, face down {len(state.warband_pile)}"
    write(draw, (x, top), fit(head, width, FONT_SIZE), FONT_SIZE, INK)
    y = top + LINE
    for band in state.warbands:
        if y + 2 * LINE > HEIGHT:  # a content with more warbands than the column holds: the last ones left out
            write(draw, (x, y), "...", FONT_SIZE, DIM)
            return
        step = state.warband_step(band)
        heading = f" -> {_place(state, step[0])}" if step is not None and step[0] != band.cell else ""
        draw.rectangle((x, y + 1, x + 14, y + 15), fill=WARBAND_RGB, outline=NAME_INK)
        write_centred(draw, x + 7.5, y, str(band.units), FONT_SIZE, NAME_INK)
        words = f"{board.warbands[band.card].name}: {_place(state, band.cell)}{heading}"
        y = _lines(draw, x + 20, y, words, width - 20, 2, INK)
    if not state.warbands:
        write(draw, (x, y), "none in play", FONT_SIZE, DIM)


def _markets(draw: ImageDraw.ImageDraw, state: BoardState, top: float) -> None:
    """Each city's market: its assets with type and cost (a scorched city's market is closed)."""
    x, width = COLUMNS[2], COLUMN_WIDTH[2]
    game = state.game
    assets = game.board.assets
    y = top
    for city, market in zip(game.cities, state.markets, strict=True):
        if y + 2 * LINE > HEIGHT:
            return
        title = f"{_place(state, city)} market"
        if city in state.scorched:
            title += " (scorched: closed)"
        write(draw, (x, y), fit(title, width, FONT_SIZE), FONT_SIZE, GOLD)
        y += LINE
        for card in market:
            if y + LINE > HEIGHT:  # a content with more cities than the column holds: the last ones left out
                return
            asset = assets[card]
            cost = f"{asset.type} {asset.cost}g"
            name = fit(asset.name, width - 16 - text_width(cost, FONT_SIZE), FONT_SIZE)
            write(draw, (x + 8, y), name, FONT_SIZE, INK)
            write(draw, (x + width - text_width(cost, FONT_SIZE), y), cost, FONT_SIZE, DIM)
            y += LINE
        if not market:
            write(draw, (x + 8, y), "empty", FONT_SIZE, DIM)
            y += LINE
        y += 4


# ============================================================================================ the picture
def render_board_rgb(state: BoardState) -> np.ndarray:
    """The position as an RGB picture (HEIGHT x WIDTH x 3, uint8): the map, or the fight's combat picture while a fight
    is on, above the hero's sheet, the time track, the warbands and the markets."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    if state.fighting():
        image.paste(Image.fromarray(render.render_rgb(state)), (0, 0))
    else:
        _draw_map(image, state)
    draw.line((0, MAP_HEIGHT, WIDTH, MAP_HEIGHT), fill=render.FRAME, width=2)
    top = MAP_HEIGHT + 6
    write(draw, (MARGIN, top), fit(_status(state), WIDTH - 2 * MARGIN, FONT_SIZE), FONT_SIZE, GOLD)
    top += LINE + 8
    _hero_sheet(draw, state, top)
    below = _time_track(draw, state, top)
    _warband_list(draw, state, below + 6)
    _markets(draw, state, top)
    return np.asarray(image)


__all__ = ["HEIGHT", "WIDTH", "MapLayout", "map_layout", "render_board_rgb"]
