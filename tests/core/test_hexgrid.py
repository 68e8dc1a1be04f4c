"""Hex grid geometry: neighbour order, distance, rings, discs, the bounded grid's index and array views, ASCII."""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest

from envs.core.hexgrid import (
    DIRECTIONS,
    HexGrid,
    closed_rings,
    disc,
    distance,
    draw_ascii,
    from_offset,
    neighbour,
    neighbours,
    ring,
    spiral,
    to_offset,
)

CENTER = (2, -1)


def bfs_distances(start: tuple[int, int], limit: int) -> dict[tuple[int, int], int]:
    seen = {start: 0}
    queue = deque([start])
    while queue:
        hex_ = queue.popleft()
        if seen[hex_] == limit:
            continue
        for n in neighbours(hex_):
            if n not in seen:
                seen[n] = seen[hex_] + 1
                queue.append(n)
    return seen


def test_neighbours_fixed_order_e_ne_nw_w_sw_se() -> None:
    assert neighbours((0, 0)) == ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
    assert neighbours((3, 4)) == ((4, 4), (4, 3), (3, 3), (2, 4), (2, 5), (3, 5))
    for direction in range(6):
        opposite = (direction + 3) % 6
        assert neighbour(neighbour(CENTER, direction), opposite) == CENTER
        assert neighbour(CENTER, direction) == neighbours(CENTER)[direction]


def test_distance_matches_breadth_first_steps() -> None:
    steps = bfs_distances(CENTER, 5)
    assert len(steps) == 3 * 5 * 6 + 1
    for hex_, d in steps.items():
        assert distance(CENTER, hex_) == d
        assert distance(hex_, CENTER) == d
    assert distance((0, 0), (3, -3)) == 3
    assert distance((0, 0), (3, 3)) == 6


@pytest.mark.parametrize("radius", [1, 2, 3, 4])
def test_ring_size_distance_and_walk(radius: int) -> None:
    hexes = ring(CENTER, radius)
    assert len(hexes) == 6 * radius
    assert len(set(hexes)) == len(hexes)
    assert all(distance(CENTER, h) == radius for h in hexes)
    # East corner first, then each hex touches the next, closing the loop.
    assert hexes[0] == (CENTER[0] + radius, CENTER[1])
    for a, b in zip(hexes, hexes[1:] + hexes[:1], strict=True):
        assert distance(a, b) == 1


def test_ring_one_is_neighbours_and_goes_counter_clockwise() -> None:
    assert ring(CENTER, 1) == neighbours(CENTER)
    assert ring(CENTER, 0) == (CENTER,)
    # Second hex of ring 2 lies between the East and North-East corners.
    assert ring((0, 0), 2)[:3] == ((2, 0), (2, -1), (2, -2))
    with pytest.raises(ValueError):
        ring(CENTER, -1)


@pytest.mark.parametrize("radius", [0, 1, 2, 3])
def test_disc_and_spiral_cover_the_same_hexes(radius: int) -> None:
    by_rows = disc(CENTER, radius)
    by_rings = spiral(CENTER, radius)
    assert len(by_rows) == 3 * radius * (radius + 1) + 1
    assert set(by_rows) == set(by_rings) == set(bfs_distances(CENTER, radius))
    assert len(set(by_rows)) == len(by_rows)
    assert list(by_rows) == sorted(by_rows, key=lambda h: (h[1], h[0]))
    assert by_rings[0] == CENTER
    assert [distance(CENTER, h) for h in by_rings] == sorted(distance(CENTER, h) for h in by_rings)


def test_offset_coordinates_round_trip_and_rows_are_contiguous() -> None:
    for hex_ in disc((0, 0), 4):
        col, row = to_offset(hex_)
        assert row == hex_[1]
        assert from_offset(col, row) == hex_
    # odd-r: the East neighbour is always the next column on the same row.
    assert to_offset((1, 1)) == (1, 1)
    assert to_offset((0, 2)) == (1, 2)
    assert to_offset((-1, 3)) == (0, 3)


def test_grid_index_is_a_stable_bijection_in_reading_order() -> None:
    grid = HexGrid(3)
    assert len(grid) == 37
    assert grid.hexes == disc((0, 0), 3)
    assert grid.hex_at(0) == (0, -3)
    assert grid.hex_at(36) == (0, 3)
    for i, hex_ in enumerate(grid.hexes):
        assert grid.index(hex_) == i
        assert grid.hex_at(i) == hex_
    assert (4, 0) not in grid
    with pytest.raises(ValueError, match="not on"):
        grid.index((4, 0))
    with pytest.raises(ValueError):
        grid.hex_at(37)


def test_grid_neighbours_stay_on_the_grid() -> None:
    grid = HexGrid(2)
    assert grid.neighbours((0, 0)) == neighbours((0, 0))
    assert grid.neighbours((2, 0)) == ((2, -1), (1, 0), (1, 1))  # NW, W, SW
    assert all(len(grid.neighbours(h)) in (3, 4, 6) for h in grid.hexes)


def test_array_view_places_each_hex_once_with_fixed_neighbour_offsets() -> None:
    grid = HexGrid(2)
    assert grid.array_shape == (5, 5)
    cells = [grid.to_array_index(h) for h in grid.hexes]
    assert len(set(cells)) == len(grid)
    mask = grid.array_mask()
    assert mask.sum() == len(grid)
    assert all(mask[cell] for cell in cells)
    assert not mask[0, 0] and not mask[4, 4]
    for hex_ in grid.hexes:
        assert grid.from_array_index(*grid.to_array_index(hex_)) == hex_
        row, col = grid.to_array_index(hex_)
        for (dq, dr), n in zip(DIRECTIONS, neighbours(hex_), strict=True):
            if n in grid:
                assert grid.to_array_index(n) == (row + dr, col + dq)
    with pytest.raises(ValueError):
        grid.from_array_index(0, 0)


def test_to_array_lays_values_out_by_hex() -> None:
    grid = HexGrid(1)
    values = np.arange(1, len(grid) + 1, dtype=np.float32)
    array = grid.to_array(values, fill=-1.0)
    assert array.dtype == np.float32
    for i, hex_ in enumerate(grid.hexes):
        assert array[grid.to_array_index(hex_)] == values[i]
    assert (array[~grid.array_mask()] == -1.0).all()
    planes = grid.to_array(np.ones((len(grid), 2)))
    assert planes.shape == (3, 3, 2)
    with pytest.raises(ValueError, match="one per hex"):
        grid.to_array([1.0, 2.0])


def test_draw_ascii_ring_of_six_around_a_centre() -> None:
    labels = dict(zip(ring((0, 0), 1), "ENnWsS", strict=True))
    labels[(0, 0)] = "o"
    assert draw_ascii(labels) == " n N\nW o E\n s S"


def test_draw_ascii_wide_labels_and_blanks() -> None:
    picture = draw_ascii({(0, 0): "10", (1, 0): "7", (0, 1): "x"})
    # Labels centred in width 3 (odd), one space apart; the row below is shifted half a cell (2 chars).
    assert picture.splitlines() == [" 10  7", "   x"]
    assert draw_ascii({}) == ""


def test_grid_draw_ascii_fills_empty_hexes() -> None:
    grid = HexGrid(1)
    assert grid.draw_ascii({(0, 0): "X"}) == " . .\n. X .\n . ."
    with pytest.raises(ValueError, match="not on"):
        grid.draw_ascii({(5, 5): "X"})


def test_closed_rings_finds_the_enclosed_empty_hex() -> None:
    stones = set(ring(CENTER, 1))
    assert closed_rings(stones) == (CENTER,)
    assert closed_rings(stones - {neighbours(CENTER)[3]}) == ()
    assert closed_rings(stones | {CENTER}) == ()


def test_closed_rings_needs_all_six_and_lists_in_reading_order() -> None:
    # Two adjacent empty hexes fenced in together: each sees an empty neighbour, so neither is closed.
    pair = {(0, 0), (1, 0)}
    fence = {n for h in pair for n in neighbours(h)} - pair
    assert closed_rings(fence) == ()
    # Two separate rings sharing stones.
    far = (2, 0)
    stones = (set(ring((0, 0), 1)) | set(ring(far, 1))) - {far, (0, 0)}
    assert closed_rings(stones) == ((0, 0), far)
