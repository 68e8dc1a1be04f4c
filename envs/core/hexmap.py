"""Designed hex boards: any finite set of cells, numbered edges with caller-named attributes, graph distance over
passable cells, a rectangular array view, and loading from a plain dict (a YAML document).

Geometry is `envs.core.hexgrid`'s: axial ``(q, r)`` hexes, pointy-top, directions in `DIRECTIONS` order
(0 E, 1 NE, 2 NW, 3 W, 4 SW, 5 SE; ``d`` and ``(d + 3) % 6`` are opposite).

Numbering (stable: it depends only on the set of cells, never on the order they are listed in):

- **Cells** ``0..n-1`` in reading order: by row ``r``, then by ``q`` (`reading_key`), the order of `HexGrid`, so
  ``HexMap.disc(R)`` numbers its cells as ``HexGrid(R)`` does.
- **Inner edges** (between two cells of the map) ``0..num_inner_edges-1``: cells in id order, and for each the
  edges towards its E, SW and SE neighbours that are on the map (in reading order those are exactly the
  neighbours with a higher id, so each inner edge is numbered once, from its lower cell).
- **Border edges** (between a cell and a hex off the map) ``num_inner_edges..num_edges-1``: cells in id order, and
  for each its off-map directions in `DIRECTIONS` order. Inner ids do not depend on the border ones.

``edge_id(cell, d) == edge_id(neighbour(cell, d), (d + 3) % 6)``: an edge has one id from both sides.

The map knows no game words: a cell may carry a terrain name and an edge a set of attribute names, both plain
strings chosen by the caller; a game turns them into passable cells and blocked edges for `distances`.

A small map as a dict (`HexMap.from_dict`; `to_dict` writes the same form)::

    >>> board = HexMap.from_dict({
    ...     "cells": [{"q": 0, "r": 0, "terrain": "plain"}, {"q": 1, "r": 0}, {"q": 0, "r": 1, "terrain": "hill"}],
    ...     "edges": [{"cell": [0, 0], "side": "E", "attributes": ["wall"]}],
    ... })
    >>> board.edge_attributes(board.edge_id(1, 3))
    frozenset({'wall'})
    >>> board.distances(0, blocked_edges=board.edges_with("wall"))
    (0, 2, 1)
"""

from __future__ import annotations

import difflib
import heapq
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from envs.core.hexgrid import DIRECTION_NAMES, DIRECTIONS, NUM_SIDES, Hex, disc, draw_ascii, reading_key

NO_CELL = -1
"""Entry of `HexMap.neighbour_table` for a neighbour off the map."""

CELL_KEYS = ("q", "r", "terrain")
"""Keys of one cell entry of a map dict (`terrain` optional)."""
EDGE_KEYS = ("cell", "side", "attributes")
"""Keys of one edge entry of a map dict (all required)."""
MAP_KEYS = ("cells", "edges")
"""Top-level keys of a map dict (`edges` optional)."""


class HexMapError(ValueError):
    """A map that cannot be built; `key` names the bad entry (`cells[3].q`, `edges[1]`)."""

    def __init__(self, key: str, message: str) -> None:
        self.key = key
        self.detail = message
        super().__init__(f"{key}: {message}")


class HexMap:
    """A fixed board of hex cells with stable cell and edge ids, terrain names and edge attribute sets.

    `cells` lists the hexes in any order (each a ``(q, r)`` pair of ints, no duplicates); `terrain` names some of
    them; `edges` lists ``(hex, direction, attributes)`` entries, one per edge that carries attributes, from either
    side (a border edge from its map cell). Errors are `HexMapError`s naming the entry (`cells[2]`, `edges[0]`).
    The map is immutable; numbering is in the module docstring."""

    def __init__(
        self,
        cells: Iterable[Hex],
        terrain: Mapping[Hex, str] | None = None,
        edges: Iterable[tuple[Hex, int, Iterable[str]]] = (),
    ) -> None:
        first_seen: dict[Hex, int] = {}
        for position, raw in enumerate(cells):
            hex_ = _hex(raw, f"cells[{position}]")
            if hex_ in first_seen:
                raise HexMapError(f"cells[{position}]", f"hex {hex_} is already cells[{first_seen[hex_]}]")
            first_seen[hex_] = position
        if not first_seen:
            raise HexMapError("cells", "a map needs at least one cell")
        self.hexes: tuple[Hex, ...] = tuple(sorted(first_seen, key=reading_key))
        """Hex of each cell id (reading order)."""
        self._index: dict[Hex, int] = {hex_: cell for cell, hex_ in enumerate(self.hexes)}
        self.neighbour_table: tuple[tuple[int, ...], ...] = tuple(
            tuple(self._index.get((q + dq, r + dr), NO_CELL) for dq, dr in DIRECTIONS) for q, r in self.hexes
        )
        """Cell -> its six neighbours in `DIRECTIONS` order, `NO_CELL` where the neighbour is off the map."""
        self._on_map_neighbours = tuple(tuple(n for n in row if n != NO_CELL) for row in self.neighbour_table)
        self._number_edges()
        self._terrain = self._read_terrain(terrain or {})
        self._attributes = self._read_edges(edges)
        self._edges_with: dict[str, frozenset[int]] = {}
        for edge, names in self._attributes.items():
            for name in names:
                self._edges_with[name] = self._edges_with.get(name, frozenset()) | {edge}
        rows, cols = zip(*((r, q) for q, r in self.hexes), strict=True)
        self._origin = (min(rows), min(cols))
        self._array_shape = (max(rows) - self._origin[0] + 1, max(cols) - self._origin[1] + 1)
        self._array_rows = np.array(rows, dtype=np.intp) - self._origin[0]
        self._array_cols = np.array(cols, dtype=np.intp) - self._origin[1]
        self._array_rows.flags.writeable = self._array_cols.flags.writeable = False  # shared by every caller

    def _number_edges(self) -> None:
        """Give every edge its id (module docstring): inner edges from their lower cell, then border edges."""
        ids = [[NO_CELL] * NUM_SIDES for _ in self.hexes]
        sides: list[tuple[int, int]] = []
        for cell, row in enumerate(self.neighbour_table):
            for direction, other in enumerate(row):
                if other > cell:
                    ids[cell][direction] = ids[other][(direction + 3) % NUM_SIDES] = len(sides)
                    sides.append((cell, direction))
        self.num_inner_edges = len(sides)
        """Edges between two cells of the map: ids ``0..num_inner_edges-1``."""
        for cell, row in enumerate(self.neighbour_table):
            for direction, other in enumerate(row):
                if other == NO_CELL:
                    ids[cell][direction] = len(sides)
                    sides.append((cell, direction))
        self.edge_table: tuple[tuple[int, ...], ...] = tuple(tuple(row) for row in ids)
        """Cell -> the ids of its six edges in `DIRECTIONS` order."""
        self._edge_sides = tuple(sides)

    def _read_terrain(self, terrain: Mapping[Hex, str]) -> tuple[str | None, ...]:
        """Terrain name of each cell id (None where `terrain` names none)."""
        names: list[str | None] = [None] * len(self.hexes)
        for hex_, name in terrain.items():
            key = f"terrain[{hex_!r}]"
            cell = self._index.get(_hex(hex_, key))
            if cell is None:
                raise HexMapError(key, f"hex {hex_} is not a cell of the map")
            if not isinstance(name, str) or not name:
                raise HexMapError(key, f"a terrain is a non-empty string, got {name!r}")
            names[cell] = name
        return tuple(names)

    def _read_edges(self, edges: Iterable[tuple[Hex, int, Iterable[str]]]) -> dict[int, frozenset[str]]:
        """Attribute set of each edge that has one, by edge id; each edge given at most once."""
        attributes: dict[int, frozenset[str]] = {}
        given_at: dict[int, int] = {}
        for position, entry in enumerate(edges):
            key = f"edges[{position}]"
            if not isinstance(entry, (tuple, list)) or len(entry) != 3:
                raise HexMapError(key, f"an edge is (hex, direction, attributes), got {entry!r}")
            raw_hex, direction, names = entry
            hex_ = _hex(raw_hex, key)
            if hex_ not in self._index:
                raise HexMapError(key, f"hex {hex_} is not a cell of the map")
            if isinstance(direction, bool) or not isinstance(direction, int) or not 0 <= direction < NUM_SIDES:
                raise HexMapError(key, f"direction must be an int in 0..{NUM_SIDES - 1}, got {direction!r}")
            if isinstance(names, str) or not isinstance(names, Iterable):
                raise HexMapError(key, f"attributes are a collection of strings, got {names!r}")
            name_set = frozenset(names)
            if not name_set or any(not isinstance(name, str) or not name for name in name_set):
                raise HexMapError(key, f"attributes are one or more non-empty strings, got {sorted(name_set, key=str)}")
            edge = self.edge_table[self._index[hex_]][direction]
            if edge in given_at:
                raise HexMapError(key, f"{self.describe_edge(edge)} is already edges[{given_at[edge]}]")
            given_at[edge] = position
            attributes[edge] = name_set
        return attributes

    @classmethod
    def disc(cls, radius: int) -> HexMap:
        """Every hex within `radius` of ``(0, 0)``: the cells of ``HexGrid(radius)``, with the same ids."""
        if isinstance(radius, bool) or not isinstance(radius, int) or radius < 0:
            raise ValueError(f"disc radius must be an integer >= 0, got {radius!r}")
        return cls(disc((0, 0), radius))

    def __len__(self) -> int:
        return len(self.hexes)

    def __contains__(self, hex_: object) -> bool:
        return hex_ in self._index

    def __repr__(self) -> str:
        return f"HexMap({len(self.hexes)} cells, {self.num_inner_edges} inner edges)"

    # Cells and neighbours.

    def index(self, hex_: Hex) -> int:
        """Cell id of `hex_`; ValueError off the map."""
        try:
            return self._index[hex_]
        except (KeyError, TypeError):
            raise ValueError(f"hex {hex_!r} is not a cell of {self!r}") from None

    def hex_at(self, cell: int) -> Hex:
        """The hex of cell id `cell`; inverse of `index`."""
        return self.hexes[self._cell(cell)]

    def terrain(self, cell: int) -> str | None:
        """The terrain name of `cell`, None if the map gives it none."""
        return self._terrain[self._cell(cell)]

    def cells_with_terrain(self, name: str) -> tuple[int, ...]:
        """Ids of the cells whose terrain is `name`, ascending."""
        return tuple(cell for cell, terrain in enumerate(self._terrain) if terrain == name)

    def neighbour(self, cell: int, direction: int) -> int | None:
        """The cell next to `cell` in `direction` (see `DIRECTIONS`), None off the map."""
        other = self.neighbour_table[self._cell(cell)][self._direction(direction)]
        return None if other == NO_CELL else other

    def neighbours(self, cell: int) -> tuple[int, ...]:
        """The neighbours of `cell` that are on the map, in `DIRECTIONS` order."""
        return self._on_map_neighbours[self._cell(cell)]

    # Edges.

    @property
    def num_edges(self) -> int:
        """Every edge of the map, inner and border: ids ``0..num_edges-1``."""
        return len(self._edge_sides)

    def edge_id(self, cell: int, direction: int) -> int:
        """Id of the edge of `cell` on side `direction`; the neighbour's opposite side has the same id."""
        return self.edge_table[self._cell(cell)][self._direction(direction)]

    def edge_cells(self, edge: int) -> tuple[int, ...]:
        """The cells an edge touches: two for an inner edge (lower id first), one for a border edge."""
        cell, direction = self.edge_side(edge)
        other = self.neighbour_table[cell][direction]
        return (cell,) if other == NO_CELL else (cell, other)

    def edge_side(self, edge: int) -> tuple[int, int]:
        """``(cell, direction)`` that numbers `edge`: its lower cell's side for an inner edge, its cell's for a border
        edge (module docstring)."""
        if isinstance(edge, bool) or not isinstance(edge, (int, np.integer)) or not 0 <= edge < len(self._edge_sides):
            raise ValueError(f"edge id {edge!r} out of range 0..{len(self._edge_sides) - 1}")
        return self._edge_sides[edge]

    def is_border_edge(self, edge: int) -> bool:
        """Whether `edge` lies between a cell and a hex off the map."""
        self.edge_side(edge)
        return edge >= self.num_inner_edges

    def edge_attributes(self, edge: int) -> frozenset[str]:
        """The attribute names the map gives `edge` (empty if none)."""
        self.edge_side(edge)
        return self._attributes.get(edge, frozenset())

    def edges_with(self, attribute: str) -> frozenset[int]:
        """Ids of the edges whose attributes include `attribute`."""
        return self._edges_with.get(attribute, frozenset())

    def describe_edge(self, edge: int) -> str:
        """An edge in words for messages: ``edge 4 between (0, 0) and (1, 0)`` or ``edge 9 on the NW side of (0,
        0)``."""
        cell, direction = self.edge_side(edge)
        other = self.neighbour_table[cell][direction]
        if other == NO_CELL:
            return f"edge {edge} on the {DIRECTION_NAMES[direction]} side of {self.hexes[cell]}"
        return f"edge {edge} between {self.hexes[cell]} and {self.hexes[other]}"

    # Distances and paths.

    def distances(
        self, source: int, passable: Iterable[int] | None = None, blocked_edges: Iterable[int] = ()
    ) -> tuple[int | None, ...]:
        """Steps from `source` to every cell (by cell id), None where unreachable.

        A step crosses one edge not in `blocked_edges` into a cell of `passable` (None: every cell). The source
        itself is at 0 even when it is not passable: a piece may always leave the cell it stands on."""
        return self._breadth_first(self._cell(source), self._passable(passable), self._blocked(blocked_edges))

    def shortest_path(
        self, start: int, goal: int, passable: Iterable[int] | None = None, blocked_edges: Iterable[int] = ()
    ) -> tuple[int, ...] | None:
        """The cells of a shortest path from `start` to `goal`, both included; None if `goal` is unreachable.

        Steps as in `distances`. Tie-break: from each cell the path takes the lowest direction (E, NE, NW, W, SW,
        SE) that stays on a shortest path, so of all shortest paths it is the one whose directions come first in
        dictionary order."""
        start, goal = self._cell(start), self._cell(goal)
        allowed = self._passable(passable)
        blocked = self._blocked(blocked_edges)
        if start == goal:
            return (start,)
        if not allowed[goal]:
            return None
        # Steps to the goal, walked backwards; the start may be impassable, and a shortest path never re-enters it.
        allowed[start] = True
        to_goal = self._breadth_first(goal, allowed, blocked)
        remaining = to_goal[start]
        if remaining is None:
            return None
        path = [start]
        cell = start
        while cell != goal:
            cell = next(
                other
                for other, edge in zip(self.neighbour_table[cell], self.edge_table[cell], strict=True)
                if other != NO_CELL and edge not in blocked and to_goal[other] == remaining - 1
            )
            remaining -= 1
            path.append(cell)
        return tuple(path)

    def movement_costs(
        self,
        source: int,
        enter_cost: Sequence[int | None],
        blocked_edges: Iterable[int] = (),
        edge_cost: Mapping[int, int] | None = None,
    ) -> tuple[int | None, ...]:
        """Cheapest total cost from `source` to every cell (by cell id), None where unreachable (Dijkstra).

        A step into cell ``c`` costs ``enter_cost[c]`` (None: the cell cannot be entered) plus ``edge_cost[e]`` for
        the edge ``e`` it crosses (missing: 0); steps never cross `blocked_edges`. Costs are integers >= 0; the
        source costs 0 whatever its own enter cost."""
        source = self._cell(source)
        if len(enter_cost) != len(self.hexes):
            raise ValueError(f"expected {len(self.hexes)} enter costs (one per cell), got {len(enter_cost)}")
        for cell, cost in enumerate(enter_cost):
            if cost is not None and not _non_negative_int(cost):
                raise ValueError(f"enter_cost[{cell}] must be an integer >= 0 or None, got {cost!r}")
        extra = dict(edge_cost or {})
        for edge, cost in extra.items():
            self.edge_side(edge)
            if not _non_negative_int(cost):
                raise ValueError(f"edge_cost[{edge}] must be an integer >= 0, got {cost!r}")
        blocked = self._blocked(blocked_edges)
        best: list[int | None] = [None] * len(self.hexes)
        best[source] = 0
        frontier = [(0, source)]
        while frontier:
            cost, cell = heapq.heappop(frontier)
            if cost != best[cell]:
                continue  # a cheaper route to this cell was already settled
            for other, edge in zip(self.neighbour_table[cell], self.edge_table[cell], strict=True):
                step = enter_cost[other] if other != NO_CELL else None
                if step is None or edge in blocked:
                    continue
                total = cost + step + extra.get(edge, 0)
                known = best[other]
                if known is None or total < known:
                    best[other] = total
                    heapq.heappush(frontier, (total, other))
        return tuple(best)

    def _breadth_first(self, source: int, allowed: list[bool], blocked: frozenset[int]) -> tuple[int | None, ...]:
        """Steps from `source` over `allowed` cells without crossing `blocked` edges."""
        steps: list[int | None] = [None] * len(self.hexes)
        steps[source] = 0
        queue = deque([source])
        while queue:
            cell = queue.popleft()
            reached = steps[cell]
            assert reached is not None  # only reached cells are queued
            for other, edge in zip(self.neighbour_table[cell], self.edge_table[cell], strict=True):
                if other != NO_CELL and steps[other] is None and allowed[other] and edge not in blocked:
                    steps[other] = reached + 1
                    queue.append(other)
        return tuple(steps)

    def _passable(self, passable: Iterable[int] | None) -> list[bool]:
        """`passable` cell ids as one flag per cell (every cell for None)."""
        if passable is None:
            return [True] * len(self.hexes)
        flags = [False] * len(self.hexes)
        for cell in passable:
            flags[self._cell(cell)] = True
        return flags

    def _blocked(self, blocked_edges: Iterable[int]) -> frozenset[int]:
        """`blocked_edges` as a set of valid edge ids."""
        blocked = frozenset(blocked_edges)
        for edge in blocked:
            self.edge_side(edge)
        return frozenset(int(edge) for edge in blocked)

    # The array view.

    @property
    def array_shape(self) -> tuple[int, int]:
        """``(rows, cols)`` of the array view: the axial bounding box of the map (see `to_array_index`)."""
        return self._array_shape

    def to_array_index(self, cell: int) -> tuple[int, int]:
        """``(row, col)`` of `cell` in the array view: ``(r - min r, q - min q)`` over the map's hexes.

        Axial storage, as `HexGrid`'s: row is the hex row, column the axial ``q``, so every neighbour lies at the
        same array offset ``(dr, dq)`` of `DIRECTIONS` and a convolution sees hex adjacency as a fixed pattern.
        Array cells that are not map cells are False in `array_mask`."""
        cell = self._cell(cell)
        return (int(self._array_rows[cell]), int(self._array_cols[cell]))

    def from_array_index(self, row: int, col: int) -> int:
        """The cell at ``(row, col)`` of the array view; ValueError where there is none. Inverse of `to_array_index`."""
        hex_ = (col + self._origin[1], row + self._origin[0])
        if not (0 <= row < self._array_shape[0] and 0 <= col < self._array_shape[1]) or hex_ not in self._index:
            raise ValueError(f"array cell ({row}, {col}) is not a cell of {self!r}")
        return self._index[hex_]

    def array_indices(self) -> tuple[np.ndarray, np.ndarray]:
        """Row and column of every cell in the array view, in cell id order (read-only intp arrays)."""
        return self._array_rows, self._array_cols

    def array_mask(self) -> np.ndarray:
        """Boolean array of `array_shape`: True where an array cell is a map cell."""
        mask = np.zeros(self._array_shape, dtype=bool)
        mask[self._array_rows, self._array_cols] = True
        return mask

    def to_array(self, values: Sequence[float] | np.ndarray, fill: float = 0.0) -> np.ndarray:
        """Per-cell `values` (cell id order, any trailing plane axes) as a float32 array of ``array_shape + planes``;
        array cells off the map get `fill`."""
        flat = np.asarray(values, dtype=np.float32)
        if flat.shape[:1] != (len(self.hexes),):
            raise ValueError(f"expected {len(self.hexes)} values (one per cell), got shape {flat.shape}")
        out = np.full(self._array_shape + flat.shape[1:], fill, dtype=np.float32)
        out[self._array_rows, self._array_cols] = flat
        return out

    def from_array(self, array: np.ndarray) -> np.ndarray:
        """The per-cell values of an array view (cell id order, trailing plane axes kept); inverse of `to_array`."""
        if array.shape[:2] != self._array_shape:
            raise ValueError(f"expected an array of shape {self._array_shape} + planes, got {array.shape}")
        return array[self._array_rows, self._array_cols]

    # Text and dicts.

    def draw_ascii(self, labels: Mapping[int, str] | None = None, empty: str = ".") -> str:
        """`draw_ascii` of the map: cell id -> label, cells without a label show `empty`."""
        labels = labels or {}
        for cell in labels:
            self._cell(cell)
        return draw_ascii({hex_: labels.get(cell, empty) for cell, hex_ in enumerate(self.hexes)})

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str = "map") -> HexMap:
        """Build a map from the plain form of the module docstring (what a YAML file holds).

        ``cells``: a list of ``{q, r[, terrain]}``; ``edges`` (optional): a list of ``{cell: [q, r], side, attributes}``
        with `side` a direction name (``E``, ``NE``, ...) or index and `attributes` a list of strings. Errors are
        `HexMapError`s whose key starts with `source` (``map.cells[3].q``)."""
        if not isinstance(data, Mapping):
            raise HexMapError(source, f"a map is a mapping with keys {list(MAP_KEYS)}, got {type(data).__name__}")
        _no_unknown_keys(data, MAP_KEYS, source)
        if "cells" not in data:
            raise HexMapError(f"{source}.cells", "missing: a map lists its cells")
        cells: list[Hex] = []
        terrain: dict[Hex, str] = {}
        for position, entry in enumerate(_list(data["cells"], f"{source}.cells")):
            key = f"{source}.cells[{position}]"
            if not isinstance(entry, Mapping):
                raise HexMapError(key, f"a cell is a mapping with keys {list(CELL_KEYS)}, got {entry!r}")
            _no_unknown_keys(entry, CELL_KEYS, key)
            hex_ = (_int_field(entry, "q", key), _int_field(entry, "r", key))
            cells.append(hex_)
            if "terrain" in entry:
                name = entry["terrain"]
                if not isinstance(name, str) or not name:
                    raise HexMapError(f"{key}.terrain", f"a terrain is a non-empty string, got {name!r}")
                terrain.setdefault(hex_, name)  # a duplicate cell is reported by the constructor, naming both
        edges: list[tuple[Hex, int, Iterable[str]]] = []
        for position, entry in enumerate(_list(data.get("edges", []), f"{source}.edges")):
            key = f"{source}.edges[{position}]"
            if not isinstance(entry, Mapping):
                raise HexMapError(key, f"an edge is a mapping with keys {list(EDGE_KEYS)}, got {entry!r}")
            _no_unknown_keys(entry, EDGE_KEYS, key)
            for field in EDGE_KEYS:
                if field not in entry:
                    raise HexMapError(f"{key}.{field}", "missing")
            hex_ = _hex(entry["cell"], f"{key}.cell")
            names = _list(entry["attributes"], f"{key}.attributes")
            edges.append((hex_, _direction_field(entry["side"], f"{key}.side"), names))
        try:
            return cls(cells, terrain, edges)
        except HexMapError as error:
            raise HexMapError(f"{source}.{error.key}", error.detail) from None

    def to_dict(self) -> dict[str, Any]:
        """The plain form `from_dict` reads: cells in id order, edges with attributes in edge id order."""
        cells: list[dict[str, Any]] = []
        for (q, r), name in zip(self.hexes, self._terrain, strict=True):
            cells.append({"q": q, "r": r} if name is None else {"q": q, "r": r, "terrain": name})
        edges = []
        for edge in sorted(self._attributes):
            cell, direction = self._edge_sides[edge]
            edges.append(
                {
                    "cell": list(self.hexes[cell]),
                    "side": DIRECTION_NAMES[direction],
                    "attributes": sorted(self._attributes[edge]),
                }
            )
        return {"cells": cells, "edges": edges}

    # Argument checks.

    def _cell(self, cell: int) -> int:
        """`cell` if it is a cell id of the map; ValueError otherwise."""
        if isinstance(cell, bool) or not isinstance(cell, (int, np.integer)) or not 0 <= cell < len(self.hexes):
            raise ValueError(f"cell id {cell!r} out of range 0..{len(self.hexes) - 1}")
        return int(cell)

    @staticmethod
    def _direction(direction: int) -> int:
        """`direction` if it indexes `DIRECTIONS`; ValueError otherwise."""
        if isinstance(direction, bool) or not isinstance(direction, (int, np.integer)):
            raise ValueError(f"direction must be an int in 0..{NUM_SIDES - 1}, got {direction!r}")
        if not 0 <= direction < NUM_SIDES:
            raise ValueError(f"direction must be an int in 0..{NUM_SIDES - 1}, got {direction!r}")
        return int(direction)


def _non_negative_int(value: object) -> bool:
    """Whether `value` is an integer (not a bool) >= 0."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool) and bool(value >= 0)


def _hex(raw: object, key: str) -> Hex:
    """`raw` as a hex: a pair (tuple or list) of ints; HexMapError naming `key` otherwise."""
    if (
        not isinstance(raw, (tuple, list))
        or len(raw) != 2
        or any(isinstance(c, bool) or not isinstance(c, int) for c in raw)
    ):
        raise HexMapError(key, f"a hex is a pair of integers (q, r), got {raw!r}")
    return (raw[0], raw[1])


def _list(value: object, key: str) -> list[Any]:
    """`value` if it is a list; HexMapError naming `key` otherwise."""
    if not isinstance(value, list):
        raise HexMapError(key, f"expected a list, got {value!r}")
    return value


def _int_field(entry: Mapping[str, Any], field: str, key: str) -> int:
    """The required integer `field` of `entry`; HexMapError naming ``key.field`` otherwise."""
    if field not in entry:
        raise HexMapError(f"{key}.{field}", "missing")
    value = entry[field]
    if isinstance(value, bool) or not isinstance(value, int):
        raise HexMapError(f"{key}.{field}", f"expected an integer, got {value!r}")
    return value


def _direction_field(value: object, key: str) -> int:
    """A direction given by name (`DIRECTION_NAMES`) or index; HexMapError naming `key` otherwise."""
    if isinstance(value, str) and value in DIRECTION_NAMES:
        return DIRECTION_NAMES.index(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < NUM_SIDES:
        return value
    raise HexMapError(key, f"a side is one of {list(DIRECTION_NAMES)} or 0..{NUM_SIDES - 1}, got {value!r}")


def _no_unknown_keys(entry: Mapping[Any, Any], known: Sequence[str], key: str) -> None:
    """HexMapError naming the first key of `entry` not in `known`, and the known key it resembles."""
    for name in entry:
        if name not in known:
            close = difflib.get_close_matches(name, known, n=1) if isinstance(name, str) else []
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise HexMapError(f"{key}.{name}", f"unknown key{hint}; known keys are {list(known)}")
