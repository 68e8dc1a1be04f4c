"""One player's Unearth tableau: stones on a fixed hex grid, rings of six stones, wonders in the rings' centres.

No rules of turns live here (who gains a stone, which wonder is built): only where a stone may go and what a
placement builds. The rules, as decided (copied into the game's RULES.md):

- **The grid.** A tableau is the fixed hex grid of radius `TABLEAU_RADIUS` (9: 271 cells, axial ``(q, r)`` with
  ``|q|, |r|, |q + r| <= 9``; `envs.core.hexgrid.HexGrid`, cells indexed in reading order). Cells beyond it do not
  exist. A fixed grid keeps one action space ("place the stone on cell k") and one observation shape. A cell holds
  nothing, one stone of a colour (0..3 in data/stones.yaml's order: red, yellow, blue, black) or one wonder.
- **The first stone** goes on the centre cell ``(0, 0)``: it is the only legal cell of an empty tableau. The
  rulebook sets no place for the first stone and nothing in a tableau depends on where it lies, so every first cell
  is the same position moved; one fixed cell removes the duplicate first actions (270 of them), and the centre leaves
  the most room before the edge in every direction.
- **Connection.** Every later stone goes on an empty cell next to (sharing a side with) a stone ("place it in their
  tableau connected to any previously placed Stones"). Stones never move, so a tableau's stones are always one
  connected group ("all rings are attached").
- **Rings and wonders.** An empty cell whose six neighbours all hold stones is a closed ring ("hexagonal rings of
  Stones with an empty space in the center"). The placement that closes it reports its centre (one stone can close
  up to three rings at once) and the centre becomes a wonder at once; the rules choose which wonder (`with_wonder`).
  A wonder's cell never takes a stone. A stone may belong to several rings ("Stones may be used in multiple
  Wonders"). A wonder needs its whole ring on the grid, so only an *interior* cell (all six neighbours on the grid,
  at most ``TABLEAU_RADIUS - 1`` steps from the centre) can become one.
- **Space for a wonder (blocking).** Every stone keeps at least one *space*: a neighbouring cell that holds a
  wonder or is an empty interior cell. A stone may not be placed on a cell if (a) the new stone would have no space,
  or (b) the cell is the last space of a stone next to it. Why: the FAQ says "You do need to make sure that ... each
  ring has space for a Wonder to be placed within it in the future"; a stone with no space around it can never be
  part of a ring around a wonder (stones never move and a wonder only goes into an empty cell), so putting one there,
  or taking a neighbour's last space, is what that sentence forbids. The check is local: a placement changes only
  its cell and its six neighbours, so only cells within two steps can change legality. It is a necessary
  condition, not a proof that every space can still be closed into a ring (that would need a search of the future
  placements); an empty cell is never next to a wonder (a wonder appears only when all its neighbours are stones), so
  a stone next to a wonder always has its space.
- **The edge.** On an unbounded table the rules above always leave a legal cell (the cell beyond the outermost
  stone), so a tableau with no legal cell is an effect of the grid's edge alone: then `legal_cells()` is empty,
  `has_legal_cell` is False and `place` raises `IllegalPlacementError` saying "no legal cell"; the rules return the
  stone to the bag. The radius is chosen by measurement (benchmarks/unearth_tableau_edge.py, 10,000 games a row):
  with 20 stones, radius 9 removed a cell that an unbounded table allows in 0.14% of random-placement games and in
  none of the ring-seeking ones (radius 7: 8.0% and 5.5%; radius 8: 1.3% and 0%), and in no game at radius 5 to 9
  with up to 30 stones did a stone find no legal cell.

Representation: a `Tableau` is **immutable**: `place` and `with_wonder` return a new tableau, so a game state's
`clone()` shares tableaux by reference like its tuples (the state record copies only lists and dicts), undo is
free, and one tableau can sit in many search nodes. Its cells and per-cell counts are `bytes` of one byte per cell
(stone neighbours, spaces around, legal flag): a placement copies them (four copies of 271 bytes, C speed) and
updates only the cell, its neighbours and the legality of the cells within two steps, with lookups in the
`TableauGeometry` tables built once per radius; no placement scans the grid.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from envs.core.game import StateFormatError
from envs.core.hexgrid import NUM_SIDES, Hex, HexGrid, disc, neighbours
from envs.unearth.cards import load_unearth_cards

TABLEAU_RADIUS = 9
"""Radius of every tableau's grid (271 cells); chosen from benchmarks/unearth_tableau_edge.py (module docstring)."""
MIN_RADIUS = 2
"""Smallest grid with room for a ring around a wonder next to the centre stone."""
CENTRE_HEX: Hex = (0, 0)
"""Where the first stone of every tableau goes."""
_STONE_COLOURS = load_unearth_cards().stone_colours
NUM_COLOURS = len(_STONE_COLOURS)
"""Stone colours (four in the game, 15 stones of each): their order is data/stones.yaml's."""
COLOUR_NAMES = tuple(colour.name for colour in _STONE_COLOURS)
"""Name of each stone colour, by colour index (the content's words, read from data/stones.yaml)."""
COLOUR_LETTERS = tuple(colour.letter for colour in _STONE_COLOURS)
"""One letter per stone colour for `Tableau.draw_ascii`: the colour's formula letter (L for black)."""
WONDER_LETTER = "W"
"""`Tableau.draw_ascii` label of a wonder."""
UNCHOSEN_WONDER_LETTER = "w"
"""`Tableau.draw_ascii` label of a closed ring whose wonder the rules have not chosen yet."""
LEGAL_LETTER = "+"
"""`Tableau.draw_ascii` label of a legal empty cell (when asked to show them)."""
EMPTY_LETTER = "."
"""`Tableau.draw_ascii` label of an empty cell."""
RING_SIZE = NUM_SIDES
"""Stones in a ring around a wonder."""
NO_STONE = -1
"""Colour reported for a cell without a stone (`Tableau.colour_at`, `Tableau.ring_colours`)."""
UNCHOSEN_WONDER = -1
"""Wonder id of a closed ring whose wonder the rules have not chosen yet."""
NO_NEIGHBOUR = -1
"""Entry of `TableauGeometry.neighbour_table` for a neighbour off the grid."""

PLANE_NAMES = (*(f"stone {name}" for name in COLOUR_NAMES), "wonder", "ring progress", "legal", "on grid")
"""Planes of `Tableau.to_array`, in order (ring progress: stones around an empty cell / 6)."""

_EMPTY = 0
"""Cell code of an empty cell; a stone of colour c is ``c + 1``."""
_WONDER = NUM_COLOURS + 1
"""Cell code of a wonder (a closed ring's centre)."""


def _cell_planes() -> np.ndarray:
    """The `to_array` planes of a cell by its key ((code * (RING_SIZE + 1) + stones around it) * 2 + legal), and a
    last row of zeros for the array cells off the grid (`_OFF_GRID_KEY`)."""
    codes, nears = NUM_COLOURS + 2, RING_SIZE + 1
    table = np.zeros((codes * nears * 2 + 1, len(PLANE_NAMES)), dtype=np.float32)
    ring_fraction = (np.arange(nears) / RING_SIZE).astype(np.float32)  # stones around an empty cell / RING_SIZE
    for code in range(codes):
        for near in range(nears):
            for legal in (0, 1):
                row = table[(code * nears + near) * 2 + legal]
                if code != _EMPTY:
                    row[code - 1] = 1.0  # a stone's colour plane, or the wonder plane (code _WONDER)
                else:
                    row[NUM_COLOURS + 1] = ring_fraction[near]
                row[NUM_COLOURS + 2] = legal
                row[NUM_COLOURS + 3] = 1.0
    table.flags.writeable = False
    return table


_CELL_PLANES = _cell_planes()
"""A cell's key -> its `to_array` planes (read-only)."""
_OFF_GRID_KEY = len(_CELL_PLANES) - 1
"""The key of an array cell off the grid: zero in every plane."""


@functools.lru_cache(maxsize=16)
def plane_table(planes: tuple[int, ...] | None = None) -> np.ndarray:
    """Planes of a cell by its key (`Tableau.plane_keys`), the last row for array cells off the grid: every plane of
    `PLANE_NAMES`, or only `planes` (indices into it) in that order (read-only)."""
    if planes is None:
        return _CELL_PLANES
    table = np.ascontiguousarray(_CELL_PLANES[:, list(planes)])
    table.flags.writeable = False
    return table


class IllegalPlacementError(ValueError):
    """A stone placed on a cell where the tableau's rules do not allow it (the message says why)."""


class Placement(NamedTuple):
    """What `Tableau.place` returns: the new tableau and the centres of the rings the stone closed."""

    tableau: Tableau
    closed_centres: tuple[int, ...]


class TableauGeometry:
    """The grid of one radius and its lookup tables, built once per radius and shared by every tableau."""

    def __init__(self, radius: int) -> None:
        if isinstance(radius, bool) or not isinstance(radius, int) or radius < MIN_RADIUS:
            raise ValueError(f"tableau radius must be an integer >= {MIN_RADIUS}, got {radius!r}")
        self.radius = radius
        self.grid = HexGrid(radius)
        self.size = len(self.grid)
        self.centre = self.grid.index(CENTRE_HEX)
        index = self.grid.index
        self.neighbour_table: tuple[tuple[int, ...], ...] = tuple(
            tuple(index(n) if n in self.grid else NO_NEIGHBOUR for n in neighbours(hex_)) for hex_ in self.grid.hexes
        )
        """Cell -> its six neighbours in `DIRECTIONS` order (E, NE, NW, W, SW, SE), `NO_NEIGHBOUR` off the grid."""
        self.on_grid_neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple(n for n in row if n != NO_NEIGHBOUR) for row in self.neighbour_table
        )
        """Cell -> its neighbours that are on the grid."""
        self.interior = bytes(NO_NEIGHBOUR not in row for row in self.neighbour_table)
        """1 for a cell whose six neighbours are on the grid: the only cells that can hold a wonder."""
        self.nearby: tuple[tuple[int, ...], ...] = tuple(
            tuple(index(h) for h in disc(hex_, 2) if h in self.grid) for hex_ in self.grid.hexes
        )
        """Cell -> the cells within two steps: those whose legality a stone on the cell can change."""
        self.neighbour_array = np.array(self.neighbour_table, dtype=np.int16)
        """`neighbour_table` as an int16 array of shape (cells, 6), for vectorised queries (read-only)."""
        self.on_grid_mask = self.grid.array_mask()
        """Boolean (2R+1, 2R+1) mask of the array view: True on the grid's cells (read-only)."""
        rows, cols = self.grid.array_indices()
        self.array_cells = rows * self.grid.array_shape[1] + cols
        self.array_cells_size = self.grid.array_shape[0] * self.grid.array_shape[1]
        """Cells of the array view, the off-grid corners included."""
        """Cell -> its position in the flattened array view (`to_array`), as an intp array (read-only)."""
        self.array_cells.flags.writeable = False
        self.neighbour_array.flags.writeable = False  # shared by every tableau of the radius
        self.on_grid_mask.flags.writeable = False
        self.empty_tableau_parts = _derived(self, bytes(self.size), ())
        """The contents of an empty tableau (shared by every new `Tableau`: they are immutable)."""

    def __repr__(self) -> str:
        return f"TableauGeometry(radius={self.radius})"


@functools.cache
def tableau_geometry(radius: int = TABLEAU_RADIUS) -> TableauGeometry:
    """The shared `TableauGeometry` of a radius (built on first use)."""
    return TableauGeometry(radius)


def _placement_allowed(
    geometry: TableauGeometry,
    cells: bytes | bytearray,
    spaces: bytes | bytearray,
    stones_next: bytes | bytearray,
    x: int,
) -> bool:
    """Whether a stone may go on cell `x` of a tableau that already has a stone (connection and blocking rules)."""
    if cells[x] != _EMPTY or stones_next[x] == 0 or spaces[x] == 0:
        return False
    if geometry.interior[x]:
        # x is a space of each neighbour: a stone next to it with one space has x as its last one.
        for n in geometry.on_grid_neighbours[x]:
            if spaces[n] == 1 and _EMPTY < cells[n] < _WONDER:
                return False
    return True


class Tableau:
    """One player's stones and wonders on the fixed hex grid; immutable (`place` returns a new tableau)."""

    __slots__ = ("geometry", "_cells", "_stones_next", "_spaces", "_legal", "_wonders", "_colour_counts")

    geometry: TableauGeometry
    _cells: bytes
    _stones_next: bytes
    _spaces: bytes
    _legal: bytes
    _wonders: tuple[tuple[int, int], ...]
    _colour_counts: tuple[int, ...]

    def __init__(self, radius: int = TABLEAU_RADIUS) -> None:
        geometry = tableau_geometry(radius)
        self._set(geometry, *geometry.empty_tableau_parts)

    def _set(
        self,
        geometry: TableauGeometry,
        cells: bytes,
        stones_next: bytes,
        spaces: bytes,
        legal: bytes,
        wonders: tuple[tuple[int, int], ...],
        colour_counts: tuple[int, ...],
    ) -> None:
        setattr_ = object.__setattr__  # past the guard of __setattr__: only construction writes the slots
        setattr_(self, "geometry", geometry)
        setattr_(self, "_cells", cells)
        setattr_(self, "_stones_next", stones_next)
        setattr_(self, "_spaces", spaces)
        setattr_(self, "_legal", legal)
        setattr_(self, "_wonders", wonders)
        setattr_(self, "_colour_counts", colour_counts)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a Tableau is immutable (set {name!r}): place and with_wonder return a new one")

    @classmethod
    def _from_parts(
        cls,
        geometry: TableauGeometry,
        cells: bytes,
        stones_next: bytes,
        spaces: bytes,
        legal: bytes,
        wonders: tuple[tuple[int, int], ...],
        colour_counts: tuple[int, ...],
    ) -> Tableau:
        tableau = object.__new__(cls)
        tableau._set(geometry, cells, stones_next, spaces, legal, wonders, colour_counts)
        return tableau

    # ------------------------------------------------------------------------------------------ placing
    def place(self, cell: int, colour: int) -> Placement:
        """Put a stone of `colour` on `cell`: the new tableau and the centres of the rings it closed (now wonders)."""
        if not 0 <= colour < NUM_COLOURS:
            raise ValueError(f"stone colour must be 0..{NUM_COLOURS - 1}, got {colour}")
        if not 0 <= cell < self.geometry.size or not self._legal[cell]:
            raise IllegalPlacementError(self._refusal(cell))
        geometry = self.geometry
        neighbours_of = geometry.on_grid_neighbours
        interior = geometry.interior
        cells = bytearray(self._cells)
        stones_next = bytearray(self._stones_next)
        spaces = bytearray(self._spaces)
        legal = bytearray(self._legal)
        cells[cell] = colour + 1
        takes_a_space = interior[cell]  # an empty interior cell was a space of each neighbour
        closed: list[int] = []
        for n in neighbours_of[cell]:
            stones_next[n] += 1
            if takes_a_space:
                spaces[n] -= 1
            if stones_next[n] == RING_SIZE and cells[n] == _EMPTY:
                cells[n] = _WONDER  # still a space of its neighbours: a wonder counts as one
                closed.append(n)
        # The legality of the cells within two steps, as in _placement_allowed (inlined: this is the hot loop).
        for x in geometry.nearby[cell]:
            if cells[x] != _EMPTY or not stones_next[x] or not spaces[x]:
                legal[x] = 0
                continue
            allowed = 1
            if interior[x]:
                for n in neighbours_of[x]:
                    if spaces[n] == 1 and _EMPTY < cells[n] < _WONDER:
                        allowed = 0
                        break
            legal[x] = allowed
        counts = list(self._colour_counts)
        counts[colour] += 1
        wonders = self._wonders
        if closed:
            closed.sort()
            wonders += tuple((centre, UNCHOSEN_WONDER) for centre in closed)
        tableau = Tableau._from_parts(
            geometry, bytes(cells), bytes(stones_next), bytes(spaces), bytes(legal), wonders, tuple(counts)
        )
        return Placement(tableau, tuple(closed))

    def with_wonder(self, centre: int, wonder: int) -> Tableau:
        """A copy with wonder id `wonder` (the rules' numbering, >= 0) on the closed ring `centre` awaiting one."""
        if isinstance(wonder, bool) or not isinstance(wonder, int) or wonder < 0:
            raise ValueError(f"a wonder id is an integer >= 0, got {wonder!r}")
        for i, (built, chosen) in enumerate(self._wonders):
            if built != centre:
                continue
            if chosen != UNCHOSEN_WONDER:
                raise ValueError(f"the ring around {self.hex_at(centre)} already holds wonder {chosen}")
            wonders = (*self._wonders[:i], (centre, wonder), *self._wonders[i + 1 :])
            return Tableau._from_parts(
                self.geometry,
                self._cells,
                self._stones_next,
                self._spaces,
                self._legal,
                wonders,
                self._colour_counts,
            )
        raise ValueError(f"cell {centre} is not the centre of a closed ring")

    # ------------------------------------------------------------------------------------------ legality
    def legal_cells(self) -> np.ndarray:
        """Indices of the cells where the next stone may go, ascending (empty only when no cell is legal)."""
        return np.flatnonzero(np.frombuffer(self._legal, dtype=np.uint8))

    def legal_mask(self) -> np.ndarray:
        """Boolean array over the cells: True where the next stone may go."""
        return np.frombuffer(self._legal, dtype=np.uint8).astype(bool)

    def is_legal(self, cell: int) -> bool:
        """Whether the next stone may go on `cell`."""
        return 0 <= cell < self.geometry.size and bool(self._legal[cell])

    @property
    def legal_count(self) -> int:
        """How many cells the next stone may go on."""
        return self._legal.count(1)

    @property
    def has_legal_cell(self) -> bool:
        """Whether any cell can take the next stone (False only at the grid's edge: the stone goes back to the bag)."""
        return 1 in self._legal

    def why_illegal(self, cell: int) -> str | None:
        """Why a stone may not go on `cell` (None when it may)."""
        return None if self.is_legal(cell) else self._refusal(cell)

    def _refusal(self, cell: int) -> str:
        """The reason a stone may not go on `cell` (which is not legal)."""
        geometry = self.geometry
        if not 0 <= cell < geometry.size:
            return f"cell {cell} is off the grid (cells 0..{geometry.size - 1})"
        where = f"cell {cell} {self.hex_at(cell)}"
        if not self.has_legal_cell:
            return f"no legal cell: {where} and every other cell are refused (the stone goes back to the bag)"
        code = self._cells[cell]
        if code == _WONDER:
            return f"{where} is the centre of a closed ring: it holds a wonder, never a stone"
        if code != _EMPTY:
            return f"{where} already holds a {COLOUR_NAMES[code - 1]} stone"
        if self.stone_count == 0:
            return f"{where}: the first stone goes on the centre cell {CENTRE_HEX}"
        if self._stones_next[cell] == 0:
            return f"{where} is not next to a stone (stones are placed connected to the others)"
        if self._spaces[cell] == 0:
            return f"{where} has no neighbouring space for a wonder: the stone could never be part of a ring"
        for n in geometry.on_grid_neighbours[cell]:
            if self._spaces[n] == 1 and _EMPTY < self._cells[n] < _WONDER:
                return f"{where} is the last space for a wonder next to the stone at {self.hex_at(n)}"
        raise AssertionError(f"{where} is refused for no known reason")  # the legal flags are out of date

    # ------------------------------------------------------------------------------------------ queries
    @property
    def radius(self) -> int:
        """Radius of the grid."""
        return self.geometry.radius

    @property
    def grid(self) -> HexGrid:
        """The grid (index <-> axial hex, array view, drawing)."""
        return self.geometry.grid

    def hex_at(self, cell: int) -> Hex:
        """Axial ``(q, r)`` of cell index `cell`."""
        return self.geometry.grid.hex_at(cell)

    def index(self, hex_: Hex) -> int:
        """Cell index of axial `hex_`; ValueError off the grid."""
        return self.geometry.grid.index(hex_)

    @property
    def stone_count(self) -> int:
        """Stones on the tableau."""
        return sum(self._colour_counts)

    @property
    def stones_by_colour(self) -> tuple[int, ...]:
        """Stones of each colour, by colour index."""
        return self._colour_counts

    def colour_at(self, cell: int) -> int:
        """Colour of the stone on `cell`, `NO_STONE` when it holds none."""
        code = self._cells[cell]
        return code - 1 if _EMPTY < code < _WONDER else NO_STONE

    def stones(self) -> tuple[tuple[int, int], ...]:
        """``(cell, colour)`` of every stone, in cell order."""
        return tuple((cell, code - 1) for cell, code in enumerate(self._cells) if _EMPTY < code < _WONDER)

    def stone_cells(self, colour: int | None = None) -> tuple[int, ...]:
        """Cells holding a stone (of `colour`, or of any colour), ascending."""
        if colour is None:
            return tuple(cell for cell, code in enumerate(self._cells) if _EMPTY < code < _WONDER)
        return tuple(cell for cell, code in enumerate(self._cells) if code == colour + 1)

    def colours(self) -> np.ndarray:
        """int8 array over the cells: the stone's colour, `NO_STONE` for an empty cell or a wonder."""
        codes = np.frombuffer(self._cells, dtype=np.uint8).astype(np.int8) - 1
        codes[codes == _WONDER - 1] = NO_STONE
        return codes

    @property
    def wonders(self) -> tuple[tuple[int, int], ...]:
        """``(centre, wonder id)`` of every wonder in the order built (`UNCHOSEN_WONDER` until the rules choose)."""
        return self._wonders

    @property
    def wonder_count(self) -> int:
        """Wonders built (closed rings)."""
        return len(self._wonders)

    def wonder_centres(self) -> tuple[int, ...]:
        """Cells of the wonders, in the order built."""
        return tuple(centre for centre, _ in self._wonders)

    def unchosen_wonder_centres(self) -> tuple[int, ...]:
        """Closed rings whose wonder the rules have not chosen yet, in the order built."""
        return tuple(centre for centre, wonder in self._wonders if wonder == UNCHOSEN_WONDER)

    def is_wonder(self, cell: int) -> bool:
        """Whether `cell` is a wonder (the centre of a closed ring)."""
        return self._cells[cell] == _WONDER

    def wonder_at(self, centre: int) -> int:
        """Wonder id on `centre` (`UNCHOSEN_WONDER` until chosen); ValueError if it is not a closed ring's centre."""
        for built, wonder in self._wonders:
            if built == centre:
                return wonder
        raise ValueError(f"cell {centre} is not the centre of a closed ring")

    def ring_colours(self, centre: int) -> tuple[int, ...]:
        """Colours of the six cells around `centre` in `DIRECTIONS` order; `NO_STONE` where there is no stone."""
        return tuple(
            NO_STONE if n == NO_NEIGHBOUR else self.colour_at(n) for n in self.geometry.neighbour_table[centre]
        )

    def stones_next_to(self, cell: int) -> int:
        """How many of the six neighbours of `cell` hold a stone."""
        return self._stones_next[cell]

    def ring_progress(self) -> np.ndarray:
        """int8 array over the cells: for an empty cell, how many of its 6 neighbours are stones; 0 elsewhere."""
        progress = np.frombuffer(self._stones_next, dtype=np.uint8).astype(np.int8)
        progress[np.frombuffer(self._cells, dtype=np.uint8) != _EMPTY] = 0
        return progress

    def spaces_next_to(self, cell: int) -> int:
        """How many neighbours of `cell` are spaces for a wonder (an empty interior cell or a wonder)."""
        return self._spaces[cell]

    # ------------------------------------------------------------------------------------------ views
    def to_array(self, planes: Sequence[int] | None = None) -> np.ndarray:
        """float32 planes of shape (2R+1, 2R+1, len(PLANE_NAMES)) in the grid's axial array layout (`PLANE_NAMES`);
        with `planes` (indices into `PLANE_NAMES`) only those, in that order (off-grid cells are 0 in every plane).

        One table lookup per array cell (`plane_keys`, `plane_table`): an observer builds the planes of every new
        tableau."""
        geometry = self.geometry
        keys = np.full(geometry.array_cells_size, _OFF_GRID_KEY, dtype=np.uint8)
        keys[geometry.array_cells] = self.plane_keys()
        table = plane_table(None if planes is None else tuple(planes))
        rows, cols = geometry.grid.array_shape
        return table.take(keys, axis=0).reshape(rows, cols, table.shape[1])

    def plane_keys(self) -> np.ndarray:
        """uint8 key of each cell's planes, in cell order: the row of `plane_table` that holds them (two cells with
        equal keys have equal planes)."""
        codes = np.frombuffer(self._cells, dtype=np.uint8)
        near = np.frombuffer(self._stones_next, dtype=np.uint8)
        legal = np.frombuffer(self._legal, dtype=np.uint8)
        return (codes * (RING_SIZE + 1) + near) * 2 + legal

    def draw_ascii(self, show_legal: bool = False, legal_keys: Mapping[int, str] | None = None) -> str:
        """The whole grid as text: a letter per stone colour (`COLOUR_LETTERS`), W per wonder (w: not chosen yet);
        with `show_legal`, each legal cell marked by its `legal_keys` entry (by cell), else `LEGAL_LETTER`."""
        labels: dict[Hex, str] = {}
        unchosen = set(self.unchosen_wonder_centres())
        for cell, code in enumerate(self._cells):
            if code == _WONDER:
                labels[self.hex_at(cell)] = UNCHOSEN_WONDER_LETTER if cell in unchosen else WONDER_LETTER
            elif code != _EMPTY:
                labels[self.hex_at(cell)] = COLOUR_LETTERS[code - 1]
            elif show_legal and self._legal[cell]:
                labels[self.hex_at(cell)] = legal_keys.get(cell, LEGAL_LETTER) if legal_keys else LEGAL_LETTER
        return self.geometry.grid.draw_ascii(labels, empty=EMPTY_LETTER)

    # ------------------------------------------------------------------------------------------ saving
    def to_dict(self) -> dict[str, Any]:
        """JSON-able dict: the radius, stones ``[q, r, colour]`` in cell order, wonders ``[q, r, id]`` in build order.

        A wonder not chosen yet has id None."""
        return {
            "radius": self.radius,
            "stones": [[*self.hex_at(cell), colour] for cell, colour in self.stones()],
            "wonders": [
                [*self.hex_at(centre), None if wonder == UNCHOSEN_WONDER else wonder]
                for centre, wonder in self._wonders
            ],
        }

    @classmethod
    def from_dict(cls, data: Any, field: str = "tableau") -> Tableau:
        """A tableau from `to_dict` output; StateFormatError (a ValueError) naming the bad field under `field`."""
        return _tableau_from_dict(data, field)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Tableau)
            and self.geometry.radius == other.geometry.radius
            and self._cells == other._cells
            and self._wonders == other._wonders
        )

    def __hash__(self) -> int:
        return hash((self.geometry.radius, self._cells, self._wonders))

    def __repr__(self) -> str:
        return (
            f"Tableau(radius={self.radius}, stones={self.stone_count}, wonders={self.wonder_count}, "
            f"legal={self.legal_count})"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        # The geometry is rebuilt from the radius on unpickling (it is shared, never pickled).
        return (
            _unpickle_tableau,
            (
                self.geometry.radius,
                self._cells,
                self._stones_next,
                self._spaces,
                self._legal,
                self._wonders,
                self._colour_counts,
            ),
        )


def _unpickle_tableau(
    radius: int,
    cells: bytes,
    stones_next: bytes,
    spaces: bytes,
    legal: bytes,
    wonders: tuple[tuple[int, int], ...],
    colour_counts: tuple[int, ...],
) -> Tableau:
    """A pickled tableau, with its radius's shared geometry."""
    return Tableau._from_parts(tableau_geometry(radius), cells, stones_next, spaces, legal, wonders, colour_counts)


def _derived(
    geometry: TableauGeometry, cells: bytes, wonders: tuple[tuple[int, int], ...]
) -> tuple[bytes, bytes, bytes, bytes, tuple[tuple[int, int], ...], tuple[int, ...]]:
    """Every count of a tableau computed from its cells at once (new and loaded tableaux; placements update them)."""
    stones_next = bytearray(geometry.size)
    spaces = bytearray(geometry.size)
    counts = [0] * NUM_COLOURS
    for cell, code in enumerate(cells):
        if _EMPTY < code < _WONDER:
            counts[code - 1] += 1
        is_space = code == _WONDER or (code == _EMPTY and geometry.interior[cell])
        for n in geometry.on_grid_neighbours[cell]:
            stones_next[n] += _EMPTY < code < _WONDER
            spaces[n] += is_space
    if sum(counts) == 0:
        legal = bytearray(geometry.size)
        legal[geometry.centre] = 1
    else:
        legal = bytearray(_placement_allowed(geometry, cells, spaces, stones_next, x) for x in range(geometry.size))
    return (cells, bytes(stones_next), bytes(spaces), bytes(legal), wonders, tuple(counts))


def _expect_int(value: Any, field: str, low: int | None = None, high: int | None = None) -> int:
    """`value` as an int in ``low..high`` (either bound optional); StateFormatError naming `field` otherwise."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise StateFormatError(field, f"expected an integer, got {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = (
            f"{low}..{high}"
            if low is not None and high is not None
            else f">= {low}"
            if low is not None
            else f"<= {high}"
        )
        raise StateFormatError(field, f"expected {bounds}, got {value}")
    return value


def _expect_list(value: Any, field: str) -> list[Any]:
    if not isinstance(value, list | tuple):
        raise StateFormatError(field, f"expected a list, got {value!r}")
    return list(value)


def _cell_of(entry: Any, grid: HexGrid, field: str) -> tuple[int, Any]:
    """The cell index of a ``[q, r, value]`` entry and its value; StateFormatError for a bad or off-grid hex."""
    items = _expect_list(entry, field)
    if len(items) != 3:
        raise StateFormatError(field, f"expected [q, r, value], got {entry!r}")
    q = _expect_int(items[0], f"{field}[0]")
    r = _expect_int(items[1], f"{field}[1]")
    if (q, r) not in grid:
        raise StateFormatError(field, f"hex {(q, r)} is off the grid of radius {grid.radius}")
    return grid.index((q, r)), items[2]


def _tableau_from_dict(data: Any, field: str) -> Tableau:
    """`Tableau.from_dict`: parse, then check what every reachable tableau satisfies, naming the bad field."""
    if not isinstance(data, Mapping):
        raise StateFormatError(field, f"a tableau is a mapping with radius, stones and wonders, got {data!r}")
    keys = ("radius", "stones", "wonders")
    for key in data:
        if key not in keys:
            raise StateFormatError(f"{field}.{key}", f"unknown field (fields: {', '.join(keys)})")
    for key in keys:
        if key not in data:
            raise StateFormatError(f"{field}.{key}", "missing field")
    radius = _expect_int(data["radius"], f"{field}.radius", MIN_RADIUS)
    geometry = tableau_geometry(radius)
    grid = geometry.grid
    cells = bytearray(geometry.size)
    stone_entry: dict[int, int] = {}  # cell -> position in the stones list (for error paths)
    for i, entry in enumerate(_expect_list(data["stones"], f"{field}.stones")):
        path = f"{field}.stones[{i}]"
        cell, colour = _cell_of(entry, grid, path)
        _expect_int(colour, f"{path}[2]", 0, NUM_COLOURS - 1)
        if cell in stone_entry:
            raise StateFormatError(path, f"hex {grid.hex_at(cell)} holds two stones")
        cells[cell] = colour + 1
        stone_entry[cell] = i
    wonders: list[tuple[int, int]] = []
    for i, entry in enumerate(_expect_list(data["wonders"], f"{field}.wonders")):
        path = f"{field}.wonders[{i}]"
        cell, wonder = _cell_of(entry, grid, path)
        wonder_id = UNCHOSEN_WONDER if wonder is None else _expect_int(wonder, f"{path}[2]", 0)
        if cells[cell] == _WONDER:
            raise StateFormatError(path, f"hex {grid.hex_at(cell)} holds two wonders")
        if cells[cell] != _EMPTY:
            raise StateFormatError(path, f"hex {grid.hex_at(cell)} holds a stone and a wonder")
        missing = [n for n in geometry.neighbour_table[cell] if n == NO_NEIGHBOUR or not _EMPTY < cells[n] < _WONDER]
        if missing:
            raise StateFormatError(path, f"wonder at {grid.hex_at(cell)} is not inside a closed ring of six stones")
        cells[cell] = _WONDER
        wonders.append((cell, wonder_id))
    if stone_entry:
        if geometry.centre not in stone_entry:
            raise StateFormatError(f"{field}.stones", f"no stone on the centre cell {CENTRE_HEX} (the first stone's)")
        _check_connected(geometry, cells, stone_entry, field)
    for cell, code in enumerate(cells):
        if code == _EMPTY and geometry.interior[cell]:
            if all(_EMPTY < cells[n] < _WONDER for n in geometry.on_grid_neighbours[cell]):
                raise StateFormatError(
                    f"{field}.wonders", f"the closed ring around {grid.hex_at(cell)} has no wonder in its centre"
                )
    tableau = Tableau._from_parts(geometry, *_derived(geometry, bytes(cells), tuple(wonders)))
    for cell, i in sorted(stone_entry.items(), key=lambda item: item[1]):
        if tableau.spaces_next_to(cell) == 0:
            around = geometry.on_grid_neighbours[cell]
            if len(around) == RING_SIZE and all(_EMPTY < cells[n] < _WONDER for n in around):
                reason = "fills the centre of a closed ring of six stones"
            else:
                reason = "has no neighbouring space for a wonder (an empty interior cell or a wonder)"
            raise StateFormatError(f"{field}.stones[{i}]", f"stone at {grid.hex_at(cell)} {reason}")
    return tableau


def _check_connected(geometry: TableauGeometry, cells: bytearray, stone_entry: dict[int, int], field: str) -> None:
    """StateFormatError naming the first listed stone that is not connected to the centre stone."""
    reached = {geometry.centre}
    frontier = [geometry.centre]
    while frontier:
        cell = frontier.pop()
        for n in geometry.on_grid_neighbours[cell]:
            if n not in reached and _EMPTY < cells[n] < _WONDER:
                reached.add(n)
                frontier.append(n)
    stray = [i for cell, i in stone_entry.items() if cell not in reached]
    if stray:
        i = min(stray)
        cell = next(cell for cell, position in stone_entry.items() if position == i)
        raise StateFormatError(
            f"{field}.stones[{i}]",
            f"stone at {geometry.grid.hex_at(cell)} is not connected to the other stones (through the centre stone)",
        )
