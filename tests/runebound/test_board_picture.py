"""Runebound board game's picture (`render_board_rgb`): one size for every position, the map's pixels show what the
state says (scorched hexes, gems, the hero, the warbands, the hexes a die reaches, the quests' targets), a fight shows
the combat's own picture, every text reads in the viewer, and seeded random games draw at every step."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from envs.core.game import CHANCE
from envs.runebound.board import BoardState
from envs.runebound.board_actions import BOARD_ACTIONS, FIGHT_WARBAND, MOVE
from envs.runebound.board_game import RuneboundGame
from envs.runebound.board_map import GEM_COLOURS
from envs.runebound.board_picture import (
    GEM_RGB,
    HEIGHT,
    HERO_RGB,
    MAP_HEIGHT,
    MARKER,
    QUEST_RGB,
    REACH_RGB,
    WARBAND_RGB,
    WIDTH,
    map_layout,
    render_board_rgb,
)
from envs.runebound.board_state import BoardKind
from envs.runebound.render import render_rgb
from tests.pictures import MIN_READABLE_PX, display_scale, drawn


def _settle(state: BoardState, rng: np.random.Generator) -> BoardState:
    """`state` with its chance events drawn until a decision (or the end)."""
    while state.current_player() == CHANCE:
        state.apply_action(state.sample_chance(rng))
    return state


def _first_turn(hero: str = "Eliam", seed: int = 0) -> BoardState:
    """The hero's first decision, after setup (the markets dealt, the first warband at the Outlaw Glade)."""
    return _settle(RuneboundGame(hero=hero).new_initial_state(), np.random.default_rng(seed))


def _edited(state: BoardState, **changes: Any) -> BoardState:
    """`state` saved, its fields changed, loaded back."""
    data = state.to_dict()
    data.update(changes)
    return state.game.state_from_dict(data)


def _cell(state: BoardState, q: int, r: int) -> int:
    return state.game.board.map.cell((q, r))


def _hex_pixels(picture: np.ndarray, state: BoardState, cell: int) -> np.ndarray:
    """The pixels of the square inside `cell`'s hexagon (half its size across), as rows of RGB."""
    layout = map_layout(state.game.board.map)
    x, y = layout.centres[cell]
    half = int(layout.size / 2)
    return picture[int(y) - half : int(y) + half, int(x) - half : int(x) + half].reshape(-1, 3)


def _count(picture: np.ndarray, state: BoardState, cell: int, colour: tuple[int, int, int]) -> int:
    """How many pixels inside `cell`'s hexagon (pointy-top: |dx| <= sqrt(3)/2 size, |dy| <= size - |dx|/sqrt(3),
    a pixel in from its sides) are exactly `colour`."""
    layout = map_layout(state.game.board.map)
    x, y = layout.centres[cell]
    size = layout.size - 1
    top, left = int(y - size), int(x - size)
    box = picture[top : int(y + size) + 1, left : int(x + size) + 1]
    rows, columns = np.mgrid[top : top + box.shape[0], left : left + box.shape[1]]
    dx, dy = np.abs(columns - x), np.abs(rows - y)
    inside = (dx <= np.sqrt(3) / 2 * size) & (dy <= size - dx / np.sqrt(3))
    return int(np.all(box[inside] == colour, axis=1).sum())


def _random_game(seed: int, hero: str = "random") -> list[BoardState]:
    """Every position of a seeded random game, the last one at its end."""
    rng = np.random.default_rng(seed)
    state = RuneboundGame(hero=hero).new_initial_state()
    positions = [state.clone()]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
        positions.append(state.clone())
    return positions


def _fight(state: BoardState) -> BoardState:
    """The hero on the Outlaw Glade with the warband spawned there, fighting it (its setup drawn)."""
    glade = state.game.glade
    assert [band.cell for band in state.warbands] == [glade]
    q, r = state.game.board.map.hex_map.hex_at(glade)
    state = _edited(state, cell=[q, r])
    state.apply_action(BOARD_ACTIONS.action + FIGHT_WARBAND)
    return _settle(state, np.random.default_rng(1))


def _moving(state: BoardState) -> BoardState:
    """The hero's move action taken, its terrain dice rolled: the first step to choose."""
    state.apply_action(BOARD_ACTIONS.action + MOVE)
    state = _settle(state, np.random.default_rng(3))
    frame = state.decision()
    assert frame is not None and frame.kind == BoardKind.MOVE_STEP and state.dice
    return state


def test_the_picture_keeps_one_size_from_setup_to_the_end() -> None:
    """Before the hero is drawn, on its first turn, mid-move, in a fight and at the game's end: HEIGHT x WIDTH x 3,
    uint8."""
    setup = RuneboundGame(hero="random").new_initial_state()
    assert setup.hero < 0
    first = _first_turn()
    end = _random_game(seed=2, hero="Tatianna")[-1]
    assert end.is_terminal()
    for state in (setup, first, _moving(first.clone()), _fight(first.clone()), end):
        picture = render_board_rgb(state)
        assert picture.shape == (HEIGHT, WIDTH, 3) and picture.dtype == np.uint8


def test_a_scorched_hex_is_darker_than_unscorched() -> None:
    """A hex the state lists as scorched is drawn darker than the same hex unscorched (most of its pixels at under half
    the brightness); the other hexes not at all."""
    state = _first_turn()
    millford = _cell(state, 1, 4)
    before = render_board_rgb(state)
    after = render_board_rgb(_edited(state, scorched=[[1, 4]]))
    brightness = [np.median(_hex_pixels(picture, state, millford).sum(axis=1)) for picture in (before, after)]
    assert brightness[1] < 0.5 * brightness[0]
    tamalir = _cell(state, 0, 3)
    assert np.array_equal(_hex_pixels(after, state, tamalir), _hex_pixels(before, state, tamalir))


def test_the_hero_is_drawn_at_its_cell() -> None:
    """The hero's marker is at the cell the state says, and nowhere else once it is moved there."""
    state = _first_turn()
    layout = map_layout(state.game.board.map)
    start, elsewhere = state.cell, _cell(state, 4, 4)
    moved = _edited(state, cell=[4, 4])
    for shown, hidden, picture in (
        (start, elsewhere, render_board_rgb(state)),
        (elsewhere, start, render_board_rgb(moved)),
    ):
        x, y = layout.hero_spot(shown)
        assert tuple(picture[int(y) + MARKER - 4, int(x)]) == HERO_RGB
        x, y = layout.hero_spot(hidden)
        assert tuple(picture[int(y) + MARKER - 4, int(x)]) != HERO_RGB


def test_gems_face_up_are_filled_and_taken_ones_hollow() -> None:
    """A gem space with a face-up gem is a diamond filled in its colour; once the gem is taken, the diamond's middle
    shows the terrain."""
    state = _first_turn()
    the_map = state.game.board.map
    layout = map_layout(the_map)
    cell = the_map.gems_of(GEM_COLOURS[0])[0]
    assert cell in state.gems
    taken = _edited(state, gems=[list(the_map.hex_map.hex_at(c)) for c in state.gems if c != cell])
    x, y = layout.centres[cell]
    middle = (int(y - 0.3 * layout.size), int(x))
    assert tuple(render_board_rgb(state)[middle]) == GEM_RGB[GEM_COLOURS[0]]
    assert tuple(render_board_rgb(taken)[middle]) != GEM_RGB[GEM_COLOURS[0]]


def test_each_warband_is_drawn_on_its_cell() -> None:
    """A warband's marker is on its cell; a second warband on the same cell gets a marker of its own."""
    state = _first_turn()
    glade = state.game.glade
    layout = map_layout(state.game.board.map)
    picture = render_board_rgb(state)
    x, y = layout.warband_spot(glade, 0, 1)
    assert tuple(picture[int(y + MARKER - 3), int(x - MARKER + 3)]) == WARBAND_RGB
    one = _count(picture, state, glade, WARBAND_RGB)
    q, r = state.game.board.map.hex_map.hex_at(glade)
    second, *pile = state.to_dict()["warband_pile"]
    rows = [*state.to_dict()["warbands"], {"warband": second, "at": [q, r], "units": 3}]
    two = render_board_rgb(_edited(state, warbands=rows, warband_pile=pile))
    assert _count(two, state, glade, WARBAND_RGB) > 1.5 * one


def test_the_hexes_a_die_reaches_and_the_quests_targets_are_outlined() -> None:
    """Mid-move, the hexes a terrain die can step to now are outlined, the others not; a quest's target site is
    outlined in the quests' colour."""
    state = _moving(_first_turn())
    row = state.game.board.map.hex_map.neighbour_table[state.cell]
    reached = {row[BOARD_ACTIONS.move_of(a)[1]] for a in state.legal_actions() if a != BOARD_ACTIONS.stop}
    assert reached
    picture = render_board_rgb(state)
    for cell in range(len(state.game.board.map.hex_map)):
        assert (_count(picture, state, cell, REACH_RGB) > 0) == (cell in reached), cell
    quest = "A Letter for Millford"
    millford = _cell(state, 1, 4)
    assert _count(picture, state, millford, QUEST_RGB) == 0
    deck = [name for name in state.to_dict()["adventure_deck"] if name != quest]
    with_quest = render_board_rgb(_edited(state, quests=[quest], adventure_deck=deck))
    assert _count(with_quest, state, millford, QUEST_RGB) > 0


def test_a_fight_shows_the_combat_picture_in_the_maps_place() -> None:
    """While a fight is on, the map's area is the combat's own picture (render.render_rgb), the panel below still the
    board's; after the fight the map is back."""
    state = _fight(_first_turn())
    assert state.fighting()
    picture = render_board_rgb(state)
    assert np.array_equal(picture[:MAP_HEIGHT], render_rgb(state))
    assert not np.array_equal(render_board_rgb(_first_turn())[:MAP_HEIGHT], picture[:MAP_HEIGHT])


def test_every_text_reads_in_the_viewer() -> None:
    """Issue 32's check for this picture (registered games get it in tests/test_pictures.py): through setup, a move, a
    fight and the end, no text is under MIN_READABLE_PX once the viewer scales the picture, and every text lies
    inside it."""
    first = _first_turn()
    states = [RuneboundGame(hero="random").new_initial_state(), first, _moving(first.clone()), _fight(first.clone())]
    states.append(_random_game(seed=1, hero="Master Thorn")[-1])
    for state in states:
        picture, texts = drawn(render_board_rgb, state)
        scale = display_scale(picture)
        assert texts
        for text in texts:
            assert text.size * scale >= MIN_READABLE_PX, text
            left, top, right, bottom = text.box
            assert 0 <= left and 0 <= top and right <= WIDTH and bottom <= HEIGHT, text


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 7])
def test_seeded_random_games_draw_at_every_step(seed: int) -> None:
    """Every position of a seeded random game draws, at one size, fights included (the first game from `seed` on
    whose random hero fights: random play fights in about one game in three)."""
    games = (_random_game(first) for first in range(seed, seed + 30))
    positions = next(game for game in games if any(state.fighting() for state in game))
    for state in positions:
        assert render_board_rgb(state).shape == (HEIGHT, WIDTH, 3)
