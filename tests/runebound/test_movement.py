"""Runebound's movement step (envs/runebound/movement.py) on the seven-hex map of test_map.py: the terrain die's faces
and chances, a step with a die along and off roads, across rivers and bridges, into towns and water, and the one hex
without dice.

Public facts: envs/runebound/REFERENCE.md (3.3 the move action, 3.4 the terrain die); readings: RULES.md, "Movement".
The seven hexes (directions E=0, NE=1, NW=2, W=3, SW=4, SE=5 from the centre): the centre (0, 0) plains with the city
Hub; E (1, 0) forest; NE (1, -1) hills with the town Ford; NW (0, -1) mountains; W (-1, 0) water; SW (-1, 1) plains;
SE (0, 1) forest. A road runs SW - centre - E; rivers lie on the centre's SE edge (unbridged), NE edge (a marked
bridge) and E edge (the road's bridge).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from envs.core.hexgrid import NUM_SIDES
from envs.runebound.board_map import TERRAINS, RuneboundMap, load_runebound_map
from envs.runebound.movement import (
    FACE_NAMES,
    FACE_PROBABILITIES,
    TERRAIN_DIE,
    WILD,
    TerrainFace,
    can_step,
    die_outcomes,
    plain_steps,
    step_options,
)
from tests.runebound.test_map import SEVEN_HEXES, write_map

E, NE, NW, W, SW, SE = range(NUM_SIDES)
PLAINS, PLAINS_FOREST, FOREST_HILLS, MOUNTAINS_WATER, HILLS_PLAINS = TERRAIN_DIE[1:]


def face(name: str) -> TerrainFace:
    """The die face labelled `name`."""
    return TERRAIN_DIE[FACE_NAMES.index(name)]


def seven_hexes(directory: Path, **changes: Any) -> RuneboundMap:
    """The seven-hex map, with top-level keys of its file replaced, loaded from `directory`."""
    return load_runebound_map(write_map(directory, {**SEVEN_HEXES, **changes}))


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> RuneboundMap:
    """The seven-hex map as test_map.py writes it."""
    return seven_hexes(tmp_path_factory.mktemp("seven_hexes"))


# ============================================================================================ the die
def test_the_die_has_the_sheets_six_faces_each_with_chance_one_sixth() -> None:
    """ "Six faces: wild, plains, plains/forest, forest/hills, mountains/water, hills/plains" (public facts 3.4),
    a fair die: the chances are exact and sum to 1, and the chance outcomes the frames roll agree with them."""
    assert FACE_NAMES == ("wild", "plains", "plains/forest", "forest/hills", "mountains/water", "hills/plains")
    assert [sorted(f.terrains) for f in TERRAIN_DIE[1:]] == [
        ["plains"],
        ["forest", "plains"],
        ["forest", "hills"],
        ["mountains", "water"],
        ["hills", "plains"],
    ]
    assert FACE_PROBABILITIES == (Fraction(1, 6),) * 6
    assert sum(FACE_PROBABILITIES) == 1
    assert die_outcomes() == [(index, float(Fraction(1, 6))) for index in range(6)]
    matching = {
        t: sum(p for f, p in zip(TERRAIN_DIE, FACE_PROBABILITIES, strict=True) if f.matches(t)) for t in TERRAINS
    }
    assert matching == {
        "plains": Fraction(4, 6),
        "forest": Fraction(3, 6),
        "hills": Fraction(3, 6),
        "mountains": Fraction(2, 6),
        "water": Fraction(2, 6),
    }


def test_the_wild_face_matches_every_terrain_and_steps_every_way(board: RuneboundMap) -> None:
    """ "Wild faces match any terrain" (public facts 3.3): from the centre a wild die enters the mountains, the water
    hex, and crosses the unbridged river; off the map is never a step."""
    assert all(WILD.matches(terrain) for terrain in TERRAINS)
    centre, east = board.cell((0, 0)), board.cell((1, 0))
    assert all(can_step(board, centre, direction, WILD) for direction in range(NUM_SIDES))
    assert not can_step(board, east, E, WILD)


# ============================================================================================ roads
def test_on_a_road_any_face_continues_along_it(board: RuneboundMap) -> None:
    """ "On a road, any die result continues along the road" (public facts 3.3): plains moves from the centre into
    the forest to the east along the road (crossing the road's bridge), forest/hills from the plains in the
    south-west into the plains centre, though neither face matches the hex entered."""
    centre, south_west = board.cell((0, 0)), board.cell((-1, 1))
    assert not PLAINS.matches(board.terrain(board.cell((1, 0))))
    assert can_step(board, centre, E, PLAINS)
    assert not FOREST_HILLS.matches(board.terrain(centre))
    assert can_step(board, south_west, NE, FOREST_HILLS)
    assert all(can_step(board, centre, SW, f) for f in TERRAIN_DIE)


def test_moving_onto_a_road_needs_a_face_matching_the_hex_entered(board: RuneboundMap) -> None:
    """ "Moving onto or off a road needs a matching terrain die" (public facts 3.3): from the forest in the
    south-east onto the road's forest hex to the north-east takes a forest face, not plains or mountains/water."""
    south_east = board.cell((0, 1))
    assert board.on_road(board.cell((1, 0))) and not board.on_road(south_east)
    assert can_step(board, south_east, NE, FOREST_HILLS)
    assert can_step(board, south_east, NE, PLAINS_FOREST)
    assert not can_step(board, south_east, NE, PLAINS)
    assert not can_step(board, south_east, NE, MOUNTAINS_WATER)


def test_moving_off_a_road_needs_a_face_matching_the_hex_entered(board: RuneboundMap) -> None:
    """ "Moving onto or off a road needs a matching terrain die" (public facts 3.3): from the road's east hex off it
    into the south-east forest, and from the road's centre off it into the mountains."""
    east, centre = board.cell((1, 0)), board.cell((0, 0))
    assert can_step(board, east, SW, PLAINS_FOREST)
    assert not can_step(board, east, SW, PLAINS)
    assert not can_step(board, east, SW, HILLS_PLAINS)
    assert can_step(board, centre, NW, MOUNTAINS_WATER)
    assert not can_step(board, centre, NW, PLAINS)
    assert not can_step(board, centre, NW, FOREST_HILLS)


# ============================================================================================ rivers and bridges
def test_crossing_a_river_needs_a_water_face(board: RuneboundMap) -> None:
    """ "Crossing a river or swamp needs a water die" (public facts 3.3): between the centre and the south-east
    forest (unbridged) a forest face does not cross, either way; mountains/water and wild do."""
    centre, south_east = board.cell((0, 0)), board.cell((0, 1))
    assert board.river_between(centre, south_east) and not board.bridge_between(centre, south_east)
    for f in (PLAINS, PLAINS_FOREST, FOREST_HILLS, HILLS_PLAINS):
        assert not can_step(board, centre, SE, f)
    assert not can_step(board, south_east, NW, PLAINS)
    assert can_step(board, centre, SE, MOUNTAINS_WATER)
    assert can_step(board, south_east, NW, MOUNTAINS_WATER)
    assert can_step(board, centre, SE, WILD)


def test_any_face_crosses_a_bridge(tmp_path: Path) -> None:
    """ "Any die can be used to cross a bridge" (public facts 3.3): without the town on the north-east hills, a
    plains face crosses the marked bridge there; the same edge unbridged takes only a water face; with no river, the
    hills take a matching face."""
    no_town = SEVEN_HEXES["sites"][:1]
    bridged = seven_hexes(tmp_path, sites=no_town)
    centre = bridged.cell((0, 0))
    assert all(can_step(bridged, centre, NE, f) for f in TERRAIN_DIE)
    unbridged = seven_hexes(tmp_path, sites=no_town, rivers=[{"between": [[0, 0], [1, -1]]}])
    assert not can_step(unbridged, centre, NE, FOREST_HILLS)
    assert can_step(unbridged, centre, NE, MOUNTAINS_WATER)
    dry = seven_hexes(tmp_path, sites=no_town, rivers=[])
    assert not can_step(dry, centre, NE, PLAINS)
    assert can_step(dry, centre, NE, FOREST_HILLS)


# ============================================================================================ towns and water
def test_a_town_is_entered_with_any_face(board: RuneboundMap, tmp_path: Path) -> None:
    """ "Towns are always enterable" (public facts 3.4): the town Ford on the hills is entered from the east forest
    and from the mountains with every face; the same hills without the town take a matching face. A town behind an
    unbridged river still needs a water face (RULES.md, "Movement")."""
    east, north_west = board.cell((1, 0)), board.cell((0, -1))
    assert all(can_step(board, east, NW, f) and can_step(board, north_west, E, f) for f in TERRAIN_DIE)
    no_town = seven_hexes(tmp_path, sites=SEVEN_HEXES["sites"][:1])
    assert not can_step(no_town, east, NW, PLAINS)
    assert can_step(no_town, east, NW, HILLS_PLAINS)
    behind_river = seven_hexes(tmp_path, rivers=[{"between": [[0, 0], [1, -1]]}])
    centre = behind_river.cell((0, 0))
    assert not can_step(behind_river, centre, NE, PLAINS)
    assert can_step(behind_river, centre, NE, MOUNTAINS_WATER)


def test_a_water_hex_is_entered_with_a_water_face(board: RuneboundMap) -> None:
    """ "Each die whose face matches a hex's terrain moves you into that hex" (public facts 3.3), water being one of
    the die's terrains (3.4): mountains/water enters the lake west of the centre, plains does not."""
    centre = board.cell((0, 0))
    assert board.terrain(board.cell((-1, 0))) == "water"
    assert can_step(board, centre, W, MOUNTAINS_WATER)
    assert not can_step(board, centre, W, PLAINS)
    assert not can_step(board, centre, W, HILLS_PLAINS)


# ============================================================================================ steps
def test_one_hex_without_dice_reaches_every_neighbour_on_the_map(board: RuneboundMap) -> None:
    """ "Either move 1 adjacent space without dice" (public facts 3.3): every neighbour on the map, across the
    unbridged river and into the water too; none off the map."""
    assert plain_steps(board, board.cell((0, 0))) == [E, NE, NW, W, SW, SE]
    assert plain_steps(board, board.cell((1, 0))) == [NW, W, SW]
    assert plain_steps(board, board.cell((0, 1))) == [NE, NW, W]


def test_step_options_list_exactly_the_legal_die_and_direction_pairs(board: RuneboundMap) -> None:
    """ "Each die whose face matches a hex's terrain moves you into that hex" (public facts 3.3): a hero on the east
    road hex holding forest/hills and plains may enter the town (NW) or follow the road (W) with either die, and the
    south-east forest (SW) with forest/hills only; once forest/hills is spent, plains keeps the town and the road."""
    east = board.cell((1, 0))
    assert step_options(board, east, [FOREST_HILLS, PLAINS]) == [(0, NW), (0, W), (0, SW), (1, NW), (1, W)]
    assert step_options(board, east, [PLAINS]) == [(0, NW), (0, W)]
    assert step_options(board, east, []) == []
    centre = board.cell((0, 0))
    assert step_options(board, centre, [PLAINS, face("mountains/water")]) == [
        (0, E),
        (0, NE),
        (0, SW),
        *((1, direction) for direction in range(NUM_SIDES)),
    ]


def test_a_step_refuses_a_direction_or_cell_that_does_not_exist(board: RuneboundMap) -> None:
    """Bad input raises naming it: a direction outside 0..5, a cell off the map."""
    with pytest.raises(ValueError, match="direction must be an int in 0..5, got 6"):
        can_step(board, 0, 6, WILD)
    with pytest.raises(ValueError, match="out of range"):
        can_step(board, 7, E, WILD)
    with pytest.raises(ValueError, match="out of range"):
        plain_steps(board, 7)
