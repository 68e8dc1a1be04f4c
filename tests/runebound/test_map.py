"""Runebound's map as data: the shipped map (data/map.yaml) has what CONTENT.md ("The map") says and plays (every
hex reachable, roads between the cities and towns, a river with bridges, the Outlaw Glade far from the cities), a
small hand-written map loads with its queries, and malformed map files fail naming the file and the field.

Public facts: envs/runebound/REFERENCE.md (3.3 roads, rivers and bridges; 3.4 terrain; 3.7 The Locust Swarm).
Each malformed-file test writes a small map by hand to tmp_path.
"""

from __future__ import annotations

import re
from collections import Counter, deque
from pathlib import Path
from typing import Any

import pytest
import yaml

from envs.core.data import DataError
from envs.core.hexgrid import DIRECTIONS
from envs.runebound.board_map import (
    BRIDGE,
    CIVILIZED_KINDS,
    GEM_COLOURS,
    GEM_DECKS,
    RIVER,
    ROAD,
    SITE_KINDS,
    TERRAINS,
    RuneboundMap,
    load_runebound_map,
)

CONTENT = Path(__file__).resolve().parents[2] / "envs" / "runebound" / "CONTENT.md"
GLADE_DISTANCE = 5
"""Fewest steps from the Outlaw Glade to any city (CONTENT.md, "The map"): a warband needs 4 units to target a city
(public facts 3.7) and should not reach one in its first rounds."""

SEVEN_HEXES: dict[str, Any] = {
    "name": "Seven hexes",
    "hexes": [
        {"at": [0, 0], "terrain": "plains"},
        {"at": [1, 0], "terrain": "forest"},
        {"at": [1, -1], "terrain": "hills"},
        {"at": [0, -1], "terrain": "mountains"},
        {"at": [-1, 0], "terrain": "water"},
        {"at": [-1, 1], "terrain": "plains"},
        {"at": [0, 1], "terrain": "forest"},
    ],
    "sites": [{"kind": "city", "name": "Hub", "at": [0, 0]}, {"kind": "town", "name": "Ford", "at": [1, -1]}],
    "gems": [{"colour": "green", "at": [0, -1]}],
    "roads": [{"through": [[-1, 1], [0, 0], [1, 0]]}],
    "rivers": [
        {"between": [[0, 0], [0, 1]]},
        {"between": [[0, 0], [1, -1]], "bridge": True},
        {"between": [[0, 0], [1, 0]]},
    ],
}
"""A flower of seven hexes around a city: a road from SW through the centre to E, a river on three of the centre's
edges (SE unbridged, NE marked a bridge, E crossed by the road)."""


def shipped_counts() -> dict[str, int]:
    """The counts CONTENT.md's "The map" section gives (its `| kind | count | placement |` rows)."""
    section = CONTENT.read_text(encoding="utf-8").split("## The map", 1)[1].split("\n## ", 1)[0]
    return {name: int(count) for name, count in re.findall(r"^\| `?(\w+)`? \| (\d+) \|", section, flags=re.MULTILINE)}


def write_map(directory: Path, document: dict[str, Any]) -> Path:
    """`document` as `map.yaml` in `directory`, which then replaces the shipped map."""
    (directory / "map.yaml").write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    return directory


def refused(tmp_path: Path, document: dict[str, Any]) -> DataError:
    """The DataError loading `document` raises."""
    with pytest.raises(DataError) as failure:
        load_runebound_map(write_map(tmp_path, document))
    assert failure.value.file == str(tmp_path / "map.yaml")
    return failure.value


def road_reach(board: RuneboundMap, start: int) -> set[int]:
    """The cells a walk along road edges only reaches from `start`."""
    reached, queue = {start}, deque([start])
    while queue:
        cell = queue.popleft()
        for direction in range(len(DIRECTIONS)):
            other = board.hex_map.neighbour(cell, direction)
            if other is not None and other not in reached and board.has_road(cell, direction):
                reached.add(other)
                queue.append(other)
    return reached


# ============================================================================================ the shipped map
def test_the_shipped_map_loads_with_40_to_70_hexes_each_with_a_terrain_of_the_dice() -> None:
    """The issue: "one designed map of 40-70 hexes"; terrain kinds from the dice faces (public facts 3.4)."""
    board = load_runebound_map()
    assert 40 <= len(board.hex_map) <= 70
    assert len(board.hex_map) == shipped_counts()["hexes"]
    assert {board.terrain(cell) for cell in range(len(board.hex_map))} == set(TERRAINS)


def test_the_shipped_map_has_the_sites_and_gems_content_md_counts() -> None:
    """CONTENT.md, "The map": how many sites of each kind and gem spaces of each colour."""
    board = load_runebound_map()
    counts = shipped_counts()
    assert set(counts) == {"hexes", *SITE_KINDS, *GEM_COLOURS}
    assert {kind: len(board.sites_of(kind)) for kind in SITE_KINDS} == {kind: counts[kind] for kind in SITE_KINDS}
    assert {colour: len(board.gems_of(colour)) for colour in GEM_COLOURS} == {c: counts[c] for c in GEM_COLOURS}
    assert counts["outlaw_glade"] == 1
    assert Counter(site.kind for site in board.sites) == Counter({kind: counts[kind] for kind in SITE_KINDS})
    assert set(GEM_DECKS.values()) == {"combat", "exploration", "social"}


def test_every_hex_is_reachable_from_every_city_by_steps() -> None:
    """Every site and gem can be reached: "move 1 adjacent space without dice" (public facts 3.3) reaches any hex."""
    board = load_runebound_map()
    for city in board.sites_of("city"):
        assert None not in board.hex_map.distances(city)


def test_roads_join_every_city_and_town() -> None:
    """Design (CONTENT.md, "The map"): roads link the cities and the towns, so a hero travels between them on any
    face ("On a road, any die result continues along the road", public facts 3.3)."""
    board = load_runebound_map()
    cities, towns = board.sites_of("city"), board.sites_of("town")
    reached = road_reach(board, cities[0])
    assert set(cities) | set(towns) <= reached
    assert all(board.on_road(cell) for cell in (*cities, *towns))


def test_the_river_is_crossed_by_bridges_where_the_roads_meet_it() -> None:
    """ "Crossing a river or swamp needs a water die. Any die can be used to cross a bridge" (public facts 3.3): the
    map has a river and bridges, each bridge on a river edge, and every road crossing the river crosses a bridge."""
    board = load_runebound_map()
    rivers, bridges, roads = (board.hex_map.edges_with(name) for name in (RIVER, BRIDGE, ROAD))
    assert rivers and bridges
    assert bridges <= rivers
    assert roads & rivers == bridges
    for edge in bridges:
        first, second = board.hex_map.edge_cells(edge)
        assert board.river_between(first, second) and board.bridge_between(second, first)
    unbridged = next(iter(rivers - bridges))
    assert not board.bridge_between(*board.hex_map.edge_cells(unbridged))


def test_the_outlaw_glade_is_far_from_every_city() -> None:
    """The Locust Swarm spawns its first warband "at Outlaw Glade" (public facts 3.7); designed: at least
    GLADE_DISTANCE steps from every city, and on no civilized hex (text, CIVILIZED HEX: cities, towns, strongholds,
    shrines)."""
    board = load_runebound_map()
    (glade,) = board.sites_of("outlaw_glade")
    steps = board.hex_map.distances(glade)
    assert min(steps[city] or 0 for city in board.sites_of("city")) >= GLADE_DISTANCE
    assert glade not in board.civilized()
    assert len(board.civilized()) == sum(len(board.sites_of(kind)) for kind in CIVILIZED_KINDS)


def test_sites_and_gems_stand_on_land_one_feature_a_hex() -> None:
    """Design (CONTENT.md, "The map"): no site or gem on water, no hex with two of them."""
    board = load_runebound_map()
    for cell in range(len(board.hex_map)):
        if board.terrain(cell) == "water":
            assert board.site_at(cell) is None and board.gem_at(cell) is None
        assert board.site_at(cell) is None or board.gem_at(cell) is None
    assert board.site_at(board.site_cell("Tamalir")) == board.sites.by_name("Tamalir")


# ============================================================================================ a small hand-made map
def test_a_seven_hex_map_written_by_hand_loads_with_its_roads_rivers_and_bridges(tmp_path: Path) -> None:
    """The map a movement test uses: the road, the unbridged river, a marked bridge and a road's bridge."""
    board = load_runebound_map(write_map(tmp_path, SEVEN_HEXES))
    centre, east, north_east = board.cell((0, 0)), board.cell((1, 0)), board.cell((1, -1))
    south_east, south_west, north_west = board.cell((0, 1)), board.cell((-1, 1)), board.cell((0, -1))
    assert len(board.hex_map) == 7
    assert board.terrain(board.cell((-1, 0))) == "water"
    assert board.has_road(centre, 0) and board.has_road(centre, 4) and board.has_road(east, 3)
    assert not board.has_road(centre, 1)
    assert board.on_road(south_west) and board.on_road(centre) and not board.on_road(north_east)
    assert board.river_between(centre, south_east) and not board.bridge_between(centre, south_east)
    assert board.river_between(north_east, centre) and board.bridge_between(north_east, centre)
    assert board.river_between(centre, east) and board.bridge_between(east, centre)
    assert not board.river_between(centre, south_west)
    hub = board.site_at(centre)
    assert hub is not None and hub.name == "Hub" and hub.kind == "city"
    assert board.sites_of("city") == (centre,) and board.sites_of("town") == (north_east,)
    assert board.gem_at(north_west) == "green" and board.gems_of("green") == (north_west,)
    assert board.gem_at(centre) is None and board.sites_of("outlaw_glade") == ()


def test_queries_refuse_cells_that_are_not_neighbours_and_unknown_kinds(tmp_path: Path) -> None:
    """A query names its bad input: cells that share no edge, an unknown site kind or gem colour, an unknown site."""
    board = load_runebound_map(write_map(tmp_path, SEVEN_HEXES))
    with pytest.raises(ValueError, match="not neighbours"):
        board.river_between(board.cell((1, 0)), board.cell((-1, 0)))
    with pytest.raises(ValueError, match="unknown site kind 'castle'"):
        board.sites_of("castle")
    with pytest.raises(ValueError, match="unknown gem colour 'blue'"):
        board.gems_of("blue")
    with pytest.raises(KeyError, match="unknown site 'Nowhere'"):
        board.site_cell("Nowhere")
    with pytest.raises(ValueError, match="out of range"):
        board.on_road(7)


# ============================================================================================ malformed files
def with_change(**changes: Any) -> dict[str, Any]:
    """SEVEN_HEXES with top-level keys replaced."""
    return {**SEVEN_HEXES, **changes}


@pytest.mark.parametrize(
    ("document", "where", "message"),
    [
        (
            with_change(sites=[{"kind": "city", "name": "Hub", "at": [0, 0], "market": 4}]),
            "sites[0] (Hub).market",
            "unknown field",
        ),
        (with_change(hexes=[{"at": [0, 0], "terrain": "swamp"}]), "hexes[0].terrain", "swamp"),
        (
            with_change(hexes=[{"at": ["0", 0], "terrain": "plains"}], sites=[], gems=[], roads=[], rivers=[]),
            "hexes[0].at[0]",
            "expected an integer",
        ),
        (with_change(sites=[{"kind": "city", "name": "Far", "at": [5, 5]}]), "sites[0] (Far).at", "not on the map"),
        (with_change(gems=[{"colour": "red", "at": [0, 3]}]), "gems[0].at", "not on the map"),
        (with_change(roads=[{"through": [[0, 0], [1, 0], [2, 0]]}]), "roads[0].through[2]", "not on the map"),
        (with_change(rivers=[{"between": [[0, 0], [0, 2]]}]), "rivers[0].between[1]", "not on the map"),
        (
            with_change(hexes=[*SEVEN_HEXES["hexes"], {"at": [1, 0], "terrain": "hills"}]),
            "hexes[7].at",
            "listed twice (also hexes[1])",
        ),
        (with_change(sites=[{"kind": "town", "name": "Wet", "at": [-1, 0]}]), "sites[0] (Wet).at", "water"),
        (with_change(gems=[{"colour": "yellow", "at": [-1, 0]}]), "gems[0].at", "water"),
        (with_change(gems=[{"colour": "yellow", "at": [0, 0]}]), "gems[0].at", "already holds site 'Hub'"),
        (
            with_change(sites=[*SEVEN_HEXES["sites"], {"kind": "shrine", "name": "Two", "at": [0, 0]}]),
            "sites[2]",
            "holds",
        ),
        (with_change(roads=[{"through": [[0, 0], [-1, 0]]}]), "roads[0].through[1]", "water"),
        (with_change(roads=[{"through": [[-1, 1], [1, 0]]}]), "roads[0].through[1]", "not neighbours"),
        (with_change(roads=[{"through": [[0, 0], [1, 0], [0, 0]]}]), "roads[0].through[2]", "already roads[0]"),
        (with_change(rivers=[{"between": [[1, 0], [-1, 0]]}]), "rivers[0].between[1]", "not neighbours"),
        (
            with_change(rivers=[{"between": [[0, 0], [0, 1]]}, {"between": [[0, 1], [0, 0]]}]),
            "rivers[1].between",
            "already rivers[0]",
        ),
        (
            with_change(
                sites=[{"kind": "outlaw_glade", "name": name, "at": at} for name, at in (("A", [0, 1]), ("B", [1, 0]))]
            ),
            "sites[1] (B).kind",
            "at most one Outlaw Glade",
        ),
        (
            with_change(sites=[*SEVEN_HEXES["sites"], {"kind": "shrine", "name": "Hub", "at": [0, 1]}]),
            "sites[2]",
            "duplicate name",
        ),
        (with_change(colour="red"), "colour", "unknown field"),
    ],
    ids=[
        "unknown key",
        "unknown terrain",
        "coordinate not an integer",
        "site off the map",
        "gem off the map",
        "road off the map",
        "river off the map",
        "duplicate coordinate",
        "site on water",
        "gem on water",
        "gem on a site",
        "two sites on a hex",
        "road on water",
        "road between non-neighbours",
        "road edge twice",
        "river between non-neighbours",
        "river edge twice",
        "two outlaw glades",
        "two sites of one name",
        "unknown top-level key",
    ],
)
def test_a_malformed_map_is_refused_naming_the_file_and_the_field(
    tmp_path: Path, document: dict[str, Any], where: str, message: str
) -> None:
    """Map data is validated on load: the error names the file, the entry and the field (never a silent fix)."""
    error = refused(tmp_path, document)
    assert error.where.startswith(where), error
    assert message in str(error)
