"""Runebound's map as data: terrain per hex, sites, adventure gems, roads, rivers and bridges (data/map.yaml), validated
on load and held on the core's `HexMap` (provenance of the shipped map: CONTENT.md, "The map").

The file, in axial ``[q, r]`` coordinates (`envs.core.hexgrid`: pointy-top, each row half a hex right of the one
above)::

    name: The Reach
    hexes:                                   # every hex of the map, each once, with its terrain
      - {at: [0, 0], terrain: plains}
    sites:                                   # at most one a hex, never on water; names unique over every kind
      - {kind: city, name: Tamalir, at: [0, 0]}
    gems:                                    # adventure gem spaces: on land, not on a site, at most one a hex
      - {colour: green, at: [1, 0]}
    roads:                                   # a road runs from hex centre to hex centre: each step one road edge
      - {through: [[0, 0], [1, 0], [2, 0]]}
    rivers:                                  # a river lies on the edge between two neighbouring hexes
      - {between: [[1, 0], [1, 1]], bridge: true}

Roads, rivers and bridges are edge attributes of the `HexMap` (`ROAD`, `RIVER`, `BRIDGE`): a bridge is a river edge
that a road crosses or that the file marks `bridge`. The map knows no movement rule and no die: the rules ask it
where things are. A user's `card_directory` replaces the file like the cards (`load_runebound_map`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Literal, get_args

from pydantic import Field, Strict, model_validator

from envs.core.data import DataError, DataRecord, Entries, NamedList, UniqueNames, load_content, load_document
from envs.core.hexgrid import DIRECTIONS, Hex, distance
from envs.core.hexmap import HexMap
from envs.core.schema import Invalid

PACKAGE = "envs.runebound"
MAP_FILE = "map.yaml"

Terrain = Literal["plains", "forest", "hills", "mountains", "water"]
TERRAINS: tuple[str, ...] = get_args(Terrain)
"""The terrain kinds of the terrain dice's faces (public facts 3.4)."""
WATER = "water"

SiteKind = Literal["city", "town", "stronghold", "shrine", "outlaw_glade"]
SITE_KINDS: tuple[str, ...] = get_args(SiteKind)
CIVILIZED_KINDS: tuple[str, ...] = ("city", "town", "stronghold", "shrine")
""""A hex is considered civilized when it contains a city, a town, a stronghold, or a shrine" (text, CIVILIZED HEX)."""
OUTLAW_GLADE = "outlaw_glade"

GemColour = Literal["red", "green", "yellow"]
GEM_COLOURS: tuple[str, ...] = get_args(GemColour)
GEM_DECKS: Mapping[str, str] = MappingProxyType({"red": "combat", "green": "exploration", "yellow": "social"})
"""The adventure deck a gem of each colour draws from ("draw from the matching-colour deck", public facts 3.3)."""

ROAD = "road"
RIVER = "river"
BRIDGE = "bridge"
"""Edge attribute names on the `HexMap`."""

_STEPS = {step: direction for direction, step in enumerate(DIRECTIONS)}
"""Axial step to a neighbour -> the direction it goes."""

Name = Annotated[str, Field(min_length=1)]
Coordinate = Annotated[tuple[int, int], Strict(False)]
"""A hex written ``[q, r]`` (two integers)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class MapHex(DataRecord):
    """One hex of the map and its terrain."""

    at: Coordinate
    terrain: Terrain


@dataclass(frozen=True, kw_only=True, slots=True)
class Site(DataRecord):
    """A site on a hex: a city (with its market), a town, a stronghold, a shrine or the Outlaw Glade."""

    kind: SiteKind
    name: Name
    at: Coordinate


@dataclass(frozen=True, kw_only=True, slots=True)
class Gem(DataRecord):
    """An adventure gem space: its colour names the deck it draws from (`GEM_DECKS`)."""

    colour: GemColour
    at: Coordinate


@dataclass(frozen=True, kw_only=True, slots=True)
class Road(DataRecord):
    """A road through hex centres, in order: each two consecutive hexes are neighbours and the edge between them is a
    road edge."""

    through: Annotated[Entries[Coordinate], Field(min_length=2)]


@dataclass(frozen=True, kw_only=True, slots=True)
class River(DataRecord):
    """A river on the edge between two neighbouring hexes; `bridge` marks a bridge where no road crosses."""

    between: Annotated[tuple[Coordinate, Coordinate], Strict(False)]
    bridge: bool = False


@dataclass(frozen=True, kw_only=True, slots=True)
class MapFile(DataRecord):
    """The whole map file, checked as a whole: every coordinate on the map, each hex and edge written once."""

    name: Name
    hexes: Annotated[Entries[MapHex], Field(min_length=1)]
    sites: Annotated[Entries[Site], UniqueNames] = ()
    gems: Entries[Gem] = ()
    roads: Entries[Road] = ()
    rivers: Entries[River] = ()

    @model_validator(mode="after")
    def _fits_the_map(self) -> MapFile:
        terrain: dict[Hex, str] = {}
        for index, entry in enumerate(self.hexes):
            if entry.at in terrain:
                first = next(k for k, other in enumerate(self.hexes) if other.at == entry.at)
                raise Invalid(f"hex {list(entry.at)} is listed twice (also hexes[{first}])", "hexes", index, "at")
            terrain[entry.at] = entry.terrain
        taken: dict[Hex, str] = {}
        for index, site in enumerate(self.sites):
            _on_land(terrain, site.at, f"site {site.name!r}", "sites", index, "at")
            if site.at in taken:
                raise Invalid(f"hex {list(site.at)} already holds {taken[site.at]}", "sites", index, "at")
            taken[site.at] = f"site {site.name!r}"
        glades = [index for index, site in enumerate(self.sites) if site.kind == OUTLAW_GLADE]
        if len(glades) > 1:
            raise Invalid(f"a map has at most one Outlaw Glade (also sites[{glades[0]}])", "sites", glades[1], "kind")
        for index, gem in enumerate(self.gems):
            _on_land(terrain, gem.at, "a gem", "gems", index, "at")
            if gem.at in taken:
                raise Invalid(f"hex {list(gem.at)} already holds {taken[gem.at]}", "gems", index, "at")
            taken[gem.at] = f"a gem (gems[{index}])"
        roads: dict[frozenset[Hex], str] = {}
        for index, road in enumerate(self.roads):
            for step, hex_ in enumerate(road.through):
                _on_land(terrain, hex_, "a road", "roads", index, "through", step)
                if step:
                    edge = _edge(road.through[step - 1], hex_, "roads", index, "through", step)
                    if edge in roads:
                        raise Invalid(f"the road edge is already {roads[edge]}", "roads", index, "through", step)
                    roads[edge] = f"roads[{index}].through[{step}]"
        rivers: dict[frozenset[Hex], int] = {}
        for index, river in enumerate(self.rivers):
            for side, hex_ in enumerate(river.between):
                if hex_ not in terrain:
                    raise Invalid(f"hex {list(hex_)} is not on the map", "rivers", index, "between", side)
            edge = _edge(*river.between, "rivers", index, "between", 1)
            if edge in rivers:
                raise Invalid(f"the river edge is already rivers[{rivers[edge]}]", "rivers", index, "between")
            rivers[edge] = index
        return self


def _on_land(terrain: Mapping[Hex, str], hex_: Hex, what: str, *where: str | int) -> None:
    """Invalid at `where` unless `hex_` is a hex of the map that is not water."""
    if hex_ not in terrain:
        raise Invalid(f"hex {list(hex_)} is not on the map", *where)
    if terrain[hex_] == WATER:
        raise Invalid(f"{what} cannot be on water (hex {list(hex_)})", *where)


def _edge(first: Hex, second: Hex, *where: str | int) -> frozenset[Hex]:
    """The edge between two neighbouring hexes; Invalid at `where` for two hexes that are not neighbours."""
    if distance(first, second) != 1:
        raise Invalid(
            f"hexes {list(first)} and {list(second)} are not neighbours (an edge lies between two neighbouring hexes)",
            *where,
        )
    return frozenset((first, second))


class RuneboundMap:
    """The loaded map: the core `HexMap` (terrain per cell, road/river/bridge edges), the sites by kind and name and
    the gems by colour, with the queries the rules ask. Cells are `hex_map`'s ids."""

    def __init__(self, document: MapFile) -> None:
        self.name = document.name
        """The map's name."""
        edges: dict[frozenset[Hex], set[str]] = {}
        for road in document.roads:
            for first, second in zip(road.through, road.through[1:], strict=False):
                edges.setdefault(frozenset((first, second)), set()).add(ROAD)
        for river in document.rivers:
            names = edges.setdefault(frozenset(river.between), set())
            names.add(RIVER)
            if river.bridge or ROAD in names:
                names.add(BRIDGE)
        sides = []
        for pair, names in edges.items():
            first, second = sorted(pair)
            sides.append((first, _direction(first, second), names))
        self.hex_map = HexMap(
            (entry.at for entry in document.hexes), {entry.at: entry.terrain for entry in document.hexes}, sides
        )
        """The board: terrain per cell, `ROAD`, `RIVER` and `BRIDGE` edge attributes."""
        self.sites: NamedList[Site] = NamedList(document.sites, "site")
        """Every site in the file's order, looked up by name."""
        self._site_cells = tuple(self.hex_map.index(site.at) for site in self.sites)
        self._site_by_cell = {cell: index for index, cell in enumerate(self._site_cells)}
        self._gem_by_cell = {self.hex_map.index(gem.at): gem.colour for gem in document.gems}
        self._sites_by_kind = {
            kind: tuple(sorted(c for c, site in zip(self._site_cells, self.sites, strict=True) if site.kind == kind))
            for kind in SITE_KINDS
        }
        self._civilized = tuple(sorted(cell for kind in CIVILIZED_KINDS for cell in self._sites_by_kind[kind]))
        self._gems_by_colour = {
            colour: tuple(sorted(cell for cell, gem in self._gem_by_cell.items() if gem == colour))
            for colour in GEM_COLOURS
        }
        self._road_cells = frozenset(
            cell for edge in self.hex_map.edges_with(ROAD) for cell in self.hex_map.edge_cells(edge)
        )

    def __repr__(self) -> str:
        return f"RuneboundMap({self.name!r}, {len(self.hex_map)} hexes, {len(self.sites)} sites)"

    # Cells.

    def cell(self, hex_: Hex) -> int:
        """The cell id of the hex ``(q, r)``; ValueError off the map."""
        return self.hex_map.index(hex_)

    def terrain(self, cell: int) -> str:
        """The terrain of `cell` (one of `TERRAINS`)."""
        terrain = self.hex_map.terrain(cell)
        assert terrain is not None  # the file gives every hex its terrain
        return terrain

    # Sites and gems.

    def sites_of(self, kind: str) -> tuple[int, ...]:
        """The cells holding a site of `kind` (one of `SITE_KINDS`), ascending."""
        if kind not in SITE_KINDS:
            raise ValueError(f"unknown site kind {kind!r} (kinds: {', '.join(SITE_KINDS)})")
        return self._sites_by_kind[kind]

    def site_at(self, cell: int) -> Site | None:
        """The site on `cell`, None where there is none."""
        index = self._site_by_cell.get(self._cell(cell))
        return None if index is None else self.sites[index]

    def site_cell(self, name: str) -> int:
        """The cell of the site named `name`; KeyError naming it and the known sites otherwise."""
        return self._site_cells[self.sites.index_of(name)]

    def civilized(self) -> tuple[int, ...]:
        """The civilized cells, ascending: those holding a city, a town, a stronghold or a shrine."""
        return self._civilized

    def gem_at(self, cell: int) -> str | None:
        """The colour of the adventure gem space on `cell` (`GEM_COLOURS`), None where there is none."""
        return self._gem_by_cell.get(self._cell(cell))

    def gems_of(self, colour: str) -> tuple[int, ...]:
        """The cells of the gem spaces of `colour`, ascending."""
        if colour not in GEM_COLOURS:
            raise ValueError(f"unknown gem colour {colour!r} (colours: {', '.join(GEM_COLOURS)})")
        return self._gems_by_colour[colour]

    # Roads, rivers and bridges.

    def has_road(self, cell: int, direction: int) -> bool:
        """Whether a road runs from `cell` across its side `direction` (`envs.core.hexgrid.DIRECTIONS`)."""
        return ROAD in self.hex_map.edge_attributes(self.hex_map.edge_id(cell, direction))

    def on_road(self, cell: int) -> bool:
        """Whether a road runs through `cell` (a road edge touches it)."""
        return self._cell(cell) in self._road_cells

    def river_between(self, first: int, second: int) -> bool:
        """Whether a river lies on the edge between two neighbouring cells (bridged or not)."""
        return RIVER in self.hex_map.edge_attributes(self._edge_between(first, second))

    def bridge_between(self, first: int, second: int) -> bool:
        """Whether a bridge crosses the river between two neighbouring cells."""
        return BRIDGE in self.hex_map.edge_attributes(self._edge_between(first, second))

    def _cell(self, cell: int) -> int:
        """`cell` as a plain int if it is a cell id of the map; ValueError otherwise."""
        return self.hex_map.index(self.hex_map.hex_at(cell))

    def _edge_between(self, first: int, second: int) -> int:
        """The edge id between two neighbouring cells; ValueError for cells that are not neighbours."""
        row = self.hex_map.neighbour_table[self._cell(first)]
        if self._cell(second) not in row:
            raise ValueError(f"cells {first} and {second} are not neighbours")
        return self.hex_map.edge_id(first, row.index(second))


def _direction(first: Hex, second: Hex) -> int:
    """The side of `first` that faces its neighbour `second`."""
    step = (second[0] - first[0], second[1] - first[1])
    return _STEPS[step]


def load_runebound_map(card_directory: str | Path | None = None) -> RuneboundMap:
    """Load the map from the package data (or `map.yaml` in a user's directory of content files), validated."""
    return load_content(_load_map, card_directory)


def _load_map(directory: Path | None) -> RuneboundMap:
    return RuneboundMap(load_document(MapFile, PACKAGE, MAP_FILE, directory))


__all__ = [
    "BRIDGE",
    "CIVILIZED_KINDS",
    "GEM_COLOURS",
    "GEM_DECKS",
    "RIVER",
    "ROAD",
    "SITE_KINDS",
    "TERRAINS",
    "DataError",
    "Gem",
    "MapFile",
    "MapHex",
    "River",
    "Road",
    "RuneboundMap",
    "Site",
    "load_runebound_map",
]
