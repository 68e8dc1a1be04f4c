"""Designed hex maps: cell and edge numbering, neighbours, distances with blocked edges and impassable cells, the
shortest-path tie-break, movement costs, the array view, and loading from a dict with errors naming the key."""

from __future__ import annotations

import doctest
import itertools
from typing import Any

import numpy as np
import pytest

import envs.core.hexmap as hexmap_module
from envs.core.hexgrid import DIRECTIONS, HexGrid, disc, distance, neighbour, ring
from envs.core.hexmap import NO_CELL, HexMap, HexMapError

E, NE, NW, W, SW, SE = range(6)

FLOWER = [(0, 0), *ring((0, 0), 1)]
"""A centre and its six neighbours, listed centre first (not in reading order)."""
PARALLELOGRAM = [(q, r) for r in range(3) for q in range(3)]
"""3x3 cells ``0 <= q, r <= 2``: ids 0-2 on row 0, 3-5 on row 1, 6-8 on row 2."""


def river_map_data() -> dict[str, Any]:
    """A 4x3 parallelogram cut by a river between columns q <= 1 and q >= 2, crossed by one bridge on the bottom row;
    a mountain at (0, 1) and forests on the right bank (the test's words, not core's)."""
    cells: list[dict[str, Any]] = []
    for r in range(3):
        for q in range(4):
            cell: dict[str, Any] = {"q": q, "r": r}
            if (q, r) == (0, 1):
                cell["terrain"] = "mountain"
            elif q >= 2:
                cell["terrain"] = "forest"
            cells.append(cell)
    river = [{"cell": [1, r], "side": "E", "attributes": ["river"]} for r in range(3)]
    river += [{"cell": [2, r], "side": "SW", "attributes": ["river"]} for r in range(2)]
    river[2]["attributes"] = ["river", "bridge"]  # the edge (1, 2)-(2, 2)
    return {"cells": cells, "edges": river}


def river_blocked(board: HexMap) -> frozenset[int]:
    return board.edges_with("river") - board.edges_with("bridge")


# Cells and neighbours.


def test_cell_ids_are_reading_order_whatever_the_listing_order() -> None:
    flower = HexMap(FLOWER)
    assert flower.hexes == ((0, -1), (1, -1), (-1, 0), (0, 0), (1, 0), (-1, 1), (0, 1))
    assert HexMap(reversed(FLOWER)).hexes == flower.hexes
    for cell, hex_ in enumerate(flower.hexes):
        assert flower.index(hex_) == cell
        assert flower.hex_at(cell) == hex_
    assert len(flower) == 7
    assert (0, 0) in flower and (2, 0) not in flower
    with pytest.raises(ValueError, match="not a cell"):
        flower.index((2, 0))
    with pytest.raises(ValueError, match="out of range 0..6"):
        flower.hex_at(7)


def test_neighbours_follow_directions_and_stop_at_the_map_edge() -> None:
    flower = HexMap(FLOWER)
    centre = flower.index((0, 0))
    assert flower.neighbours(centre) == tuple(flower.index(h) for h in ring((0, 0), 1))
    east = flower.index((1, 0))
    # (1, 0)'s E, NE and SE neighbours are off the map; the others are NW (1, -1), W (0, 0) and SW (0, 1).
    assert flower.neighbours(east) == (flower.index((1, -1)), centre, flower.index((0, 1)))
    assert flower.neighbour(east, W) == centre
    assert flower.neighbour(east, E) is None
    assert flower.neighbour_table[east][E] == NO_CELL
    for cell, hex_ in enumerate(flower.hexes):
        for direction in range(6):
            other = flower.neighbour(cell, direction)
            expected = neighbour(hex_, direction)
            assert other == (flower.index(expected) if expected in flower else None)
    with pytest.raises(ValueError, match="direction"):
        flower.neighbour(centre, 6)
    with pytest.raises(ValueError, match="cell id"):
        flower.neighbours(-1)


@pytest.mark.parametrize("radius", [0, 1, 2, 4])
def test_disc_matches_hexgrid_cells_neighbours_and_array_view(radius: int) -> None:
    board, grid = HexMap.disc(radius), HexGrid(radius)
    assert board.hexes == grid.hexes
    for cell, hex_ in enumerate(board.hexes):
        assert tuple(board.hex_at(n) for n in board.neighbours(cell)) == grid.neighbours(hex_)
        assert board.to_array_index(cell) == grid.to_array_index(hex_)
    assert board.array_shape == grid.array_shape
    assert (board.array_mask() == grid.array_mask()).all()
    values = np.arange(len(grid), dtype=np.float32) + 1
    assert (board.to_array(values, fill=-1) == grid.to_array(values, fill=-1)).all()
    with pytest.raises(ValueError, match="radius"):
        HexMap.disc(-1)


# Edges.


def test_parallelogram_edge_ids_follow_the_documented_order() -> None:
    board = HexMap(PARALLELOGRAM)
    # Inner edges: 2 E per row, 2 SW and 3 SE below each of the two upper rows.
    assert board.num_inner_edges == 3 * 2 + 2 * 2 + 2 * 3
    assert board.num_edges == board.num_inner_edges + 9 * 6 - 2 * board.num_inner_edges
    # Cell 0 numbers its E and SE edges (its SW neighbour is off the map), then cell 1 its E, SW, SE.
    assert board.edge_side(0) == (0, E) and board.edge_cells(0) == (0, 1)
    assert board.edge_side(1) == (0, SE) and board.edge_cells(1) == (0, 3)
    assert [board.edge_side(e) for e in (2, 3, 4)] == [(1, E), (1, SW), (1, SE)]
    # The first border edge: cell 0's lowest off-map direction, NE.
    first_border = board.num_inner_edges
    assert board.edge_side(first_border) == (0, NE)
    assert board.edge_cells(first_border) == (0,)
    assert board.is_border_edge(first_border) and not board.is_border_edge(first_border - 1)
    assert board.describe_edge(0) == "edge 0 between (0, 0) and (1, 0)"
    assert board.describe_edge(first_border) == f"edge {first_border} on the NE side of (0, 0)"


@pytest.mark.parametrize("cells", [FLOWER, PARALLELOGRAM, disc((3, -1), 2)], ids=["flower", "parallelogram", "disc"])
def test_edge_ids_are_symmetric_unique_and_cover_every_side(cells: list[tuple[int, int]]) -> None:
    board = HexMap(cells)
    sides_of: dict[int, set[tuple[int, int]]] = {}
    for cell in range(len(board)):
        for direction in range(6):
            edge = board.edge_id(cell, direction)
            sides_of.setdefault(edge, set()).add((cell, direction))
            other = board.neighbour(cell, direction)
            if other is not None:
                assert board.edge_id(other, (direction + 3) % 6) == edge
                assert set(board.edge_cells(edge)) == {cell, other}
                assert not board.is_border_edge(edge)
            else:
                assert board.edge_cells(edge) == (cell,)
                assert board.is_border_edge(edge)
    assert sorted(sides_of) == list(range(board.num_edges))
    # An inner edge is seen from its two cells, a border edge from its one; the numbering side is the lower cell.
    for edge, sides in sides_of.items():
        assert len(sides) == (1 if board.is_border_edge(edge) else 2)
        assert board.edge_side(edge) == min(sides)
    assert all(board.edge_cells(e)[0] < board.edge_cells(e)[1] for e in range(board.num_inner_edges))
    # Inner ids do not depend on the border: the same inner edges in the same order on any map containing them.
    assert board.num_inner_edges == sum(1 for sides in sides_of.values() if len(sides) == 2)
    with pytest.raises(ValueError, match="edge id"):
        board.edge_cells(board.num_edges)


def test_edge_attributes_are_reached_from_either_side() -> None:
    board = HexMap.from_dict(river_map_data())
    left, right = board.index((1, 2)), board.index((2, 2))
    bridge = board.edge_id(left, E)
    assert board.edge_id(right, W) == bridge
    assert board.edge_attributes(bridge) == {"river", "bridge"}
    assert board.edges_with("bridge") == {bridge}
    assert len(board.edges_with("river")) == 5
    assert board.edges_with("lava") == frozenset()
    assert board.edge_attributes(board.edge_id(left, W)) == frozenset()
    # Given from the SW side of (2, 0), read from the NE side of (1, 1).
    assert board.edge_attributes(board.edge_id(board.index((1, 1)), NE)) == {"river"}
    assert board.terrain(board.index((0, 1))) == "mountain"
    assert board.terrain(board.index((0, 0))) is None
    assert board.cells_with_terrain("forest") == tuple(board.index((q, r)) for r in range(3) for q in (2, 3))


# Distances and paths.


def test_distances_on_open_maps_are_hex_distances() -> None:
    for cells in (FLOWER, PARALLELOGRAM):
        board = HexMap(cells)
        for source, source_hex in enumerate(board.hexes):
            assert board.distances(source) == tuple(distance(source_hex, h) for h in board.hexes)


def test_impassable_cells_force_a_detour_and_can_cut_cells_off() -> None:
    flower = HexMap(FLOWER)
    centre, east, west = (flower.index(h) for h in [(0, 0), (1, 0), (-1, 0)])
    around = [cell for cell in range(len(flower)) if cell != centre]
    steps = flower.distances(east, passable=around)
    assert steps[west] == 3  # round the petals instead of through the centre
    assert steps[centre] is None
    # The source counts even when impassable: a piece may leave its cell.
    assert flower.distances(centre, passable=around)[east] == 1
    # Only the source and its east petal passable: everything else unreachable.
    lonely = flower.distances(east, passable=[east])
    assert [d is not None for d in lonely] == [cell == east for cell in range(len(flower))]


def test_river_blocks_crossings_except_at_the_bridge() -> None:
    board = HexMap.from_dict(river_map_data())
    blocked = river_blocked(board)
    start, goal = board.index((0, 0)), board.index((3, 0))
    assert board.distances(start)[goal] == 3
    # Each bank is convex, so the way round is: to the bridge's left end, over, then to the goal.
    via_bridge = distance((0, 0), (1, 2)) + 1 + distance((2, 2), (3, 0))
    assert board.distances(start, blocked_edges=blocked)[goal] == via_bridge == 6
    path = board.shortest_path(start, goal, blocked_edges=blocked)
    assert path is not None and len(path) == via_bridge + 1
    assert (board.index((1, 2)), board.index((2, 2))) in list(itertools.pairwise(path))
    # With the whole river blocked the right bank is unreachable.
    cut = board.distances(start, blocked_edges=board.edges_with("river"))
    assert [d is None for d in cut] == [q >= 2 for q, _ in board.hexes]
    assert board.shortest_path(start, goal, blocked_edges=board.edges_with("river")) is None
    # The mountain is impassable: from (0, 0) to (0, 2) the way goes round it through (1, 1).
    passable = [cell for cell in range(len(board)) if board.terrain(cell) != "mountain"]
    around = board.shortest_path(start, board.index((0, 2)), passable=passable, blocked_edges=blocked)
    assert around == tuple(board.index(h) for h in [(0, 0), (1, 0), (1, 1), (0, 2)])
    assert board.shortest_path(start, board.index((0, 1)), passable=passable) is None


def test_shortest_path_takes_the_lowest_direction_first() -> None:
    board = HexMap(PARALLELOGRAM)
    # (0, 0) -> (2, 2) is two E and two SE steps in any order; E comes first.
    assert board.shortest_path(0, 8) == (0, 1, 2, 5, 8)
    # With (2, 0) impassable: E, then SE (E would leave every shortest path), then E, SE.
    assert board.shortest_path(0, 8, passable=[c for c in range(9) if c != 2]) == (0, 1, 4, 5, 8)
    assert board.shortest_path(4, 4) == (4,)
    assert board.shortest_path(0, 2, passable=[0, 1]) is None  # the goal itself is impassable


def test_shortest_path_is_the_first_shortest_direction_sequence() -> None:
    """Brute force over every direction sequence, in dictionary order, on a map with blocked edges and a hole."""
    board = HexMap(PARALLELOGRAM)
    blocked = {board.edge_id(0, SE), board.edge_id(4, E), board.edge_id(7, NW)}
    hole = board.index((1, 0))
    passable = [cell for cell in range(len(board)) if cell != hole]
    for start in passable:
        steps = board.distances(start, passable=passable, blocked_edges=blocked)
        for goal in range(len(board)):
            path = board.shortest_path(start, goal, passable=passable, blocked_edges=blocked)
            count = steps[goal]
            if count is None:
                assert path is None
                continue
            expected = next(
                walk
                for directions in itertools.product(range(6), repeat=count)
                if (walk := _walk(board, start, directions, passable, blocked)) and walk[-1] == goal
            )
            assert path == expected


def _walk(
    board: HexMap, start: int, directions: tuple[int, ...], passable: list[int], blocked: set[int]
) -> tuple[int, ...] | None:
    """The cells visited stepping `directions` from `start` by hex arithmetic, None if a step leaves the rules."""
    cells = [start]
    for direction in directions:
        hex_ = neighbour(board.hex_at(cells[-1]), direction)
        if hex_ not in board or board.index(hex_) not in passable:
            return None
        if board.edge_id(cells[-1], direction) in blocked:
            return None
        cells.append(board.index(hex_))
    return tuple(cells)


def test_movement_costs_match_a_reference_relaxation() -> None:
    board = HexMap.from_dict(river_map_data())
    enter = {None: 1, "forest": 2, "mountain": None}
    enter_cost = [enter[board.terrain(cell)] for cell in range(len(board))]
    bridge = next(iter(board.edges_with("bridge")))
    edge_cost = {bridge: 3}
    blocked = river_blocked(board)
    for source in range(len(board)):
        costs = board.movement_costs(source, enter_cost, blocked_edges=blocked, edge_cost=edge_cost)
        assert costs == _relaxed_costs(board, source, enter_cost, blocked, edge_cost)
    # From (0, 0) to (3, 0): to (1, 2) costs 3, the bridge 2 + 3 into forest (2, 2), then two forests (2, 1), (3, 0).
    assert board.movement_costs(board.index((0, 0)), enter_cost, blocked, edge_cost)[board.index((3, 0))] == 12
    plain = board.movement_costs(0, [1] * len(board))
    assert plain == board.distances(0)


def _relaxed_costs(
    board: HexMap, source: int, enter_cost: list[int | None], blocked: frozenset[int], edge_cost: dict[int, int]
) -> tuple[int | None, ...]:
    """Bellman-Ford by hex arithmetic: relax every step until nothing changes."""
    best: list[int | None] = [None] * len(board)
    best[source] = 0
    changed = True
    while changed:
        changed = False
        for cell, hex_ in enumerate(board.hexes):
            here = best[cell]
            for direction, (dq, dr) in enumerate(DIRECTIONS):
                other_hex = (hex_[0] + dq, hex_[1] + dr)
                edge = board.edge_id(cell, direction)
                if here is None or other_hex not in board or edge in blocked:
                    continue
                other = board.index(other_hex)
                step = enter_cost[other]
                if step is None:
                    continue
                total = here + step + edge_cost.get(edge, 0)
                known = best[other]
                if known is None or total < known:
                    best[other] = total
                    changed = True
    return tuple(best)


def test_bad_distance_arguments_are_refused() -> None:
    board = HexMap(PARALLELOGRAM)
    with pytest.raises(ValueError, match="cell id 9"):
        board.distances(9)
    with pytest.raises(ValueError, match="cell id 12"):
        board.distances(0, passable=[12])
    with pytest.raises(ValueError, match="edge id -1"):
        board.shortest_path(0, 8, blocked_edges=[-1])
    with pytest.raises(ValueError, match="edge id '3'"):
        board.distances(0, blocked_edges=["3"])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="one per cell"):
        board.movement_costs(0, [1, 1])
    with pytest.raises(ValueError, match=r"enter_cost\[3\]"):
        board.movement_costs(0, [1, 1, 1, -1, 1, 1, 1, 1, 1])
    with pytest.raises(ValueError, match=r"edge_cost\[0\]"):
        board.movement_costs(0, [1] * 9, edge_cost={0: 1.5})  # type: ignore[dict-item]


# The array view.


def test_array_view_round_trip_and_fixed_neighbour_offsets() -> None:
    board = HexMap.from_dict(river_map_data())
    # Axial bounding box: rows r 0..2, columns q 0..3.
    assert board.array_shape == (3, 4)
    flower = HexMap(FLOWER)
    assert flower.array_shape == (3, 3)
    assert not flower.array_mask()[0, 0] and not flower.array_mask()[2, 2]
    for current in (board, flower):
        positions = [current.to_array_index(cell) for cell in range(len(current))]
        assert len(set(positions)) == len(current)
        rows, cols = current.array_indices()
        assert list(zip(rows.tolist(), cols.tolist(), strict=True)) == positions
        assert current.array_mask().sum() == len(current)
        for cell, (row, col) in enumerate(positions):
            assert current.from_array_index(row, col) == cell
            for direction, (dq, dr) in enumerate(DIRECTIONS):
                other = current.neighbour(cell, direction)
                if other is not None:
                    assert current.to_array_index(other) == (row + dr, col + dq)
        planes = np.arange(len(current) * 2, dtype=np.float32).reshape(len(current), 2)
        array = current.to_array(planes, fill=-1.0)
        assert array.shape == (*current.array_shape, 2) and array.dtype == np.float32
        assert (array[~current.array_mask()] == -1.0).all()
        assert (current.from_array(array) == planes).all()
    with pytest.raises(ValueError, match="not a cell"):
        flower.from_array_index(0, 0)
    with pytest.raises(ValueError, match="not a cell"):
        flower.from_array_index(5, 1)
    with pytest.raises(ValueError, match="one per cell"):
        flower.to_array([1.0, 2.0])
    with pytest.raises(ValueError, match="shape"):
        flower.from_array(np.zeros((2, 2)))


def test_draw_ascii_shows_labels_by_cell() -> None:
    flower = HexMap(FLOWER)
    assert flower.draw_ascii({flower.index((0, 0)): "o", flower.index((1, 0)): "E"}) == " . .\n. o E\n . ."
    with pytest.raises(ValueError, match="cell id 7"):
        flower.draw_ascii({7: "x"})


# Dicts and bad input.


def test_dict_round_trip_and_listing_order_does_not_matter() -> None:
    data = river_map_data()
    board = HexMap.from_dict(data)
    again = HexMap.from_dict(board.to_dict())
    assert again.to_dict() == board.to_dict()
    shuffled = {"cells": data["cells"][::-1], "edges": data["edges"][::-1]}
    assert HexMap.from_dict(shuffled).to_dict() == board.to_dict()
    # An edge given from the other side, with a side index, is the same edge.
    other_side = dict(data, edges=[{"cell": [2, 2], "side": W, "attributes": ["bridge", "river"]}])
    reread = HexMap.from_dict(other_side)
    assert reread.edges_with("bridge") == board.edges_with("bridge")
    assert reread.to_dict()["edges"] == [{"cell": [1, 2], "side": "E", "attributes": ["bridge", "river"]}]


def test_module_docstring_example_runs() -> None:
    assert doctest.testmod(hexmap_module, raise_on_error=True).attempted > 0


@pytest.mark.parametrize(
    ("cells", "key", "message"),
    [
        ([(0, 0), (1, 0), (0, 0)], "cells[2]", r"hex \(0, 0\) is already cells\[0\]"),
        ([(0, 0), (1, "a")], "cells[1]", "pair of integers"),
        ([(0, 0), (True, 0)], "cells[1]", "pair of integers"),
        ([(0, 0, 0)], "cells[0]", "pair of integers"),
        ([], "cells", "at least one cell"),
    ],
)
def test_bad_cells_name_the_entry(cells: list[Any], key: str, message: str) -> None:
    with pytest.raises(HexMapError, match=message) as caught:
        HexMap(cells)
    assert caught.value.key == key


@pytest.mark.parametrize(
    ("edges", "key", "message"),
    [
        ([((5, 5), E, ["wall"])], "edges[0]", r"hex \(5, 5\) is not a cell"),
        ([((0, 0), 6, ["wall"])], "edges[0]", "direction"),
        ([((0, 0), E, [])], "edges[0]", "one or more"),
        ([((0, 0), E, "wall")], "edges[0]", "collection of strings"),
        ([((0, 0), E, ["wall"]), ((1, 0), W, ["door"])], "edges[1]", r"between \(0, 0\) and \(1, 0\) is already"),
    ],
)
def test_bad_edges_name_the_entry(edges: list[Any], key: str, message: str) -> None:
    with pytest.raises(HexMapError, match=message) as caught:
        HexMap(PARALLELOGRAM, edges=edges)
    assert caught.value.key == key


def test_bad_terrain_names_the_hex() -> None:
    with pytest.raises(HexMapError, match=r"terrain\[\(9, 9\)\]: hex \(9, 9\) is not a cell"):
        HexMap(FLOWER, terrain={(9, 9): "hill"})
    with pytest.raises(HexMapError, match="non-empty string"):
        HexMap(FLOWER, terrain={(0, 0): ""})


@pytest.mark.parametrize(
    ("change", "key", "message"),
    [
        (lambda d: d.pop("cells"), "map.cells", "missing"),
        (lambda d: d.update(cels=[]), "map.cels", "did you mean 'cells'"),
        (lambda d: d["cells"][3].update(q="x"), "map.cells[3].q", "expected an integer"),
        (lambda d: d["cells"][3].pop("r"), "map.cells[3].r", "missing"),
        (lambda d: d["cells"][3].update(terain="hill"), "map.cells[3].terain", "did you mean 'terrain'"),
        (lambda d: d["cells"][3].update(terrain=7), "map.cells[3].terrain", "non-empty string"),
        (lambda d: d["cells"].append({"q": 0, "r": 0}), "map.cells[12]", r"already cells\[0\]"),
        (lambda d: d["edges"][1].update(side="N"), "map.edges[1].side", "one of"),
        (lambda d: d["edges"][1].update(cell=[9, 9]), "map.edges[1]", r"hex \(9, 9\) is not a cell"),
        (lambda d: d["edges"][1].update(cell="a"), "map.edges[1].cell", "pair of integers"),
        (lambda d: d["edges"][1].pop("attributes"), "map.edges[1].attributes", "missing"),
        (lambda d: d["edges"][1].update(attributes="river"), "map.edges[1].attributes", "expected a list"),
        (lambda d: d["edges"].append(dict(d["edges"][0])), "map.edges[5]", r"already edges\[0\]"),
        (lambda d: d.update(edges={}), "map.edges", "expected a list"),
    ],
)
def test_bad_dicts_name_the_key(change: Any, key: str, message: str) -> None:
    data = river_map_data()
    change(data)
    with pytest.raises(HexMapError, match=message) as caught:
        HexMap.from_dict(data)
    assert caught.value.key == key
    assert str(caught.value).startswith(f"{key}: ")


def test_a_dict_that_is_not_a_mapping_is_refused() -> None:
    with pytest.raises(HexMapError, match="a map is a mapping") as caught:
        HexMap.from_dict([], source="boards/first.yaml")  # type: ignore[arg-type]
    assert caught.value.key == "boards/first.yaml"
