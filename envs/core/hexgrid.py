"""Hexagonal grids in axial coordinates: neighbours, distance, rings, discs, a bounded grid, ASCII drawing.

Model (one convention for every game):

- A hex is a plain tuple ``(q, r)`` of ints (the alias `Hex`): hashable, cheap, JSON-able as a 2-list, and what a
  state stores as is. The third cube coordinate is ``s = -q - r``.
- Layout is **pointy-top**: ``r`` counts rows going down the page, ``q`` counts columns going right along a row,
  and each row is shifted half a hex to the right of the row above it (the screen position of ``(q, r)`` is
  ``x = q + r / 2``, ``y = r``).
- The six neighbours come in the fixed order of `DIRECTIONS`: E, NE, NW, W, SW, SE (counter-clockwise on the
  page, starting East). Direction ``i`` and ``(i + 3) % 6`` are opposite.
- `ring` starts at the East corner and goes counter-clockwise, so ``ring(c, 1) == neighbours(c)``;
  `spiral` lists the centre, then ring 1, ring 2, ...; `disc` lists the same hexes in reading order
  (by row ``r``, then by ``q``), which is also the index order of `HexGrid`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TypeAlias

import numpy as np

Hex: TypeAlias = tuple[int, int]
"""Axial coordinates ``(q, r)`` of one hex."""

DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
"""Axial steps to the six neighbours, in order: E, NE, NW, W, SW, SE."""

DIRECTION_NAMES: tuple[str, ...] = ("E", "NE", "NW", "W", "SW", "SE")
"""Human names of `DIRECTIONS`, index for index."""

NUM_SIDES = 6


def neighbour(hex_: Hex, direction: int) -> Hex:
    """The hex next to `hex_` in direction index `direction` (see `DIRECTIONS`)."""
    dq, dr = DIRECTIONS[direction]
    return (hex_[0] + dq, hex_[1] + dr)


def neighbours(hex_: Hex) -> tuple[Hex, ...]:
    """The six hexes next to `hex_`, in `DIRECTIONS` order (E, NE, NW, W, SW, SE)."""
    q, r = hex_
    return tuple((q + dq, r + dr) for dq, dr in DIRECTIONS)


def distance(a: Hex, b: Hex) -> int:
    """Number of steps between two hexes (cube distance)."""
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def ring(center: Hex, radius: int) -> tuple[Hex, ...]:
    """Hexes at exactly `radius` steps from `center`: East corner first, then counter-clockwise (6 * radius hexes).

    ``ring(c, 0)`` is ``(c,)``; ``ring(c, 1)`` equals ``neighbours(c)``, in the same order."""
    if radius < 0:
        raise ValueError(f"ring radius must be >= 0, got {radius}")
    if radius == 0:
        return (center,)
    hex_ = (center[0] + radius * DIRECTIONS[0][0], center[1] + radius * DIRECTIONS[0][1])
    result: list[Hex] = []
    # From the East corner the edges run NW, W, SW, SE, E, NE: two sides past the start direction each time.
    for side in range(NUM_SIDES):
        direction = (side + 2) % NUM_SIDES
        for _ in range(radius):
            result.append(hex_)
            hex_ = neighbour(hex_, direction)
    return tuple(result)


def spiral(center: Hex, radius: int) -> tuple[Hex, ...]:
    """Hexes within `radius` of `center`, ring by ring: the centre, then ring 1, ring 2, ... (each in `ring` order)."""
    if radius < 0:
        raise ValueError(f"spiral radius must be >= 0, got {radius}")
    return tuple(hex_ for k in range(radius + 1) for hex_ in ring(center, k))


def disc(center: Hex, radius: int) -> tuple[Hex, ...]:
    """Hexes within `radius` of `center` in reading order: by row ``r``, then by ``q`` (3R(R+1)+1 hexes)."""
    if radius < 0:
        raise ValueError(f"disc radius must be >= 0, got {radius}")
    cq, cr = center
    result: list[Hex] = []
    for dr in range(-radius, radius + 1):
        for dq in range(max(-radius, -dr - radius), min(radius, -dr + radius) + 1):
            result.append((cq + dq, cr + dr))
    return tuple(result)


def closed_rings(occupied: Iterable[Hex]) -> tuple[Hex, ...]:
    """Empty hexes all six of whose neighbours are occupied, in reading order (by ``r``, then ``q``)."""
    taken = set(occupied)
    candidates = {n for hex_ in taken for n in neighbours(hex_)} - taken
    enclosed = [hex_ for hex_ in candidates if all(n in taken for n in neighbours(hex_))]
    return tuple(sorted(enclosed, key=reading_key))


def reading_key(hex_: Hex) -> tuple[int, int]:
    """Sort key for reading order: row ``r`` first, then ``q``."""
    return (hex_[1], hex_[0])


def to_offset(hex_: Hex) -> tuple[int, int]:
    """Axial ``(q, r)`` -> offset ``(col, row)`` in the "odd-r" layout (odd rows shoved half a hex right)."""
    q, r = hex_
    return (q + (r - (r & 1)) // 2, r)


def from_offset(col: int, row: int) -> Hex:
    """Offset ``(col, row)`` in the "odd-r" layout -> axial ``(q, r)``; inverse of `to_offset`."""
    return (col - (row - (row & 1)) // 2, row)


def draw_ascii(cells: Mapping[Hex, str]) -> str:
    """A pointy-top picture of `cells` (hex -> label) for a terminal: one text line per row ``r``.

    Labels are centred in a common odd width (the longest label's); neighbours along a row are one space apart
    and each row is shifted half a cell, so a hex sits between the two hexes it touches in the rows above and
    below. Hexes missing from `cells` are blank; trailing spaces are stripped. A ring of six around a centre::

         a b
        c o d
         e f
    """
    if not cells:
        return ""
    width = max(1, *(len(label) for label in cells.values()))
    if width % 2 == 0:
        width += 1  # an odd width makes the half-cell shift a whole number of characters
    half = (width + 1) // 2
    # Twice the screen x of a hex: 2q + r, an integer.
    min_x2 = min(2 * q + r for q, r in cells)
    by_row: dict[int, list[Hex]] = {}
    for hex_ in sorted(cells, key=reading_key):  # one pass: each row's hexes in reading order
        by_row.setdefault(hex_[1], []).append(hex_)
    lines: list[str] = []
    for row in range(min(by_row), max(by_row) + 1):
        line: list[str] = []
        for q, r in by_row.get(row, ()):
            start = (2 * q + r - min_x2) * half
            if len(line) < start:
                line.extend(" " * (start - len(line)))
            line[start:] = list(cells[(q, r)].center(width))
        lines.append("".join(line).rstrip())
    return "\n".join(lines)


class HexGrid:
    """A bounded hex grid: every hex within `radius` of ``(0, 0)``, with a stable index <-> hex mapping.

    Index order is reading order (by row ``r``, then ``q``), the order of `disc`. For array views (a CNN, an
    observer's named view) `to_array_index` places hex ``(q, r)`` at ``(row, col) = (r + R, q + R)`` in a
    ``(2R+1, 2R+1)`` array (`array_shape`): axial storage, where every neighbour is the same fixed array offset
    and the two unused corners are False in `array_mask`."""

    def __init__(self, radius: int) -> None:
        if radius < 0:
            raise ValueError(f"grid radius must be >= 0, got {radius}")
        self.radius = radius
        self.hexes: tuple[Hex, ...] = disc((0, 0), radius)
        self._index: dict[Hex, int] = {hex_: i for i, hex_ in enumerate(self.hexes)}

    def __len__(self) -> int:
        return len(self.hexes)

    def __contains__(self, hex_: object) -> bool:
        return hex_ in self._index

    def __repr__(self) -> str:
        return f"HexGrid(radius={self.radius})"

    def index(self, hex_: Hex) -> int:
        """Stable index of `hex_` (reading order); ValueError off the grid."""
        try:
            return self._index[hex_]
        except KeyError:
            raise ValueError(f"hex {hex_} is not on {self!r}") from None

    def hex_at(self, index: int) -> Hex:
        """The hex with stable index `index`; inverse of `index`."""
        if not 0 <= index < len(self.hexes):
            raise ValueError(f"hex index {index} out of range 0..{len(self.hexes) - 1}")
        return self.hexes[index]

    def neighbours(self, hex_: Hex) -> tuple[Hex, ...]:
        """The neighbours of `hex_` that lie on the grid, in `DIRECTIONS` order."""
        return tuple(n for n in neighbours(hex_) if n in self._index)

    @property
    def array_shape(self) -> tuple[int, int]:
        """Shape ``(2R+1, 2R+1)`` of the array view (see `to_array_index`)."""
        side = 2 * self.radius + 1
        return (side, side)

    def to_array_index(self, hex_: Hex) -> tuple[int, int]:
        """``(row, col)`` of `hex_` in the array view: ``(r + R, q + R)``; ValueError off the grid."""
        if hex_ not in self._index:
            raise ValueError(f"hex {hex_} is not on {self!r}")
        return (hex_[1] + self.radius, hex_[0] + self.radius)

    def from_array_index(self, row: int, col: int) -> Hex:
        """The hex at ``(row, col)`` of the array view; inverse of `to_array_index`."""
        hex_ = (col - self.radius, row - self.radius)
        if hex_ not in self._index:
            raise ValueError(f"array cell ({row}, {col}) is not a hex of {self!r}")
        return hex_

    def array_mask(self) -> np.ndarray:
        """Boolean array of `array_shape`: True where a cell is a hex of the grid."""
        mask = np.zeros(self.array_shape, dtype=bool)
        for hex_ in self.hexes:
            mask[self.to_array_index(hex_)] = True
        return mask

    def to_array(self, values: Sequence[float] | np.ndarray, fill: float = 0.0) -> np.ndarray:
        """Lay per-hex `values` (in index order) out as a float32 array of `array_shape`; off-grid cells get `fill`."""
        flat = np.asarray(values, dtype=np.float32)
        if flat.shape[:1] != (len(self.hexes),):
            raise ValueError(f"expected {len(self.hexes)} values (one per hex), got shape {flat.shape}")
        out = np.full(self.array_shape + flat.shape[1:], fill, dtype=np.float32)
        rows, cols = self.array_indices()
        out[rows, cols] = flat
        return out

    def array_indices(self) -> tuple[np.ndarray, np.ndarray]:
        """Row and column of every hex in the array view, in index order (computed once per grid; read-only)."""
        cached = self.__dict__.get("_array_index_cache")
        if cached is None:
            rows = np.fromiter((r + self.radius for _, r in self.hexes), dtype=np.intp, count=len(self.hexes))
            cols = np.fromiter((q + self.radius for q, _ in self.hexes), dtype=np.intp, count=len(self.hexes))
            rows.flags.writeable = cols.flags.writeable = False  # shared by every caller
            cached = (rows, cols)
            self.__dict__["_array_index_cache"] = cached
        return cached

    def draw_ascii(self, cells: Mapping[Hex, str], empty: str = ".") -> str:
        """`draw_ascii` of the whole grid: hexes missing from `cells` show `empty`; ValueError for off-grid cells."""
        outside = [hex_ for hex_ in cells if hex_ not in self._index]
        if outside:
            raise ValueError(f"hexes {sorted(outside, key=reading_key)} are not on {self!r}")
        return draw_ascii({hex_: cells.get(hex_, empty) for hex_ in self.hexes})
