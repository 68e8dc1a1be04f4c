"""Unearth's tableau: where a stone may go, the rings it closes, the edge, saved tableaux.

Each scenario quotes the rulebook sentence it checks (Unearth's, "BUILDING WONDERS" and the FAQ);
the rules chosen where the rulebook is silent (first stone, blocking, edge) are in envs/unearth/tableau.py's docstring.
"""

from __future__ import annotations

import copy
import json
import pickle
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from envs.core.game import StateFormatError
from envs.core.hexgrid import Hex, HexGrid, closed_rings, neighbours, ring
from envs.unearth.tableau import (
    CENTRE_HEX,
    COLOUR_NAMES,
    NO_NEIGHBOUR,
    NO_STONE,
    NUM_COLOURS,
    PLANE_NAMES,
    TABLEAU_RADIUS,
    UNCHOSEN_WONDER,
    IllegalPlacementError,
    Tableau,
    tableau_geometry,
)

RED, YELLOW, BLUE, BLACK = (COLOUR_NAMES.index(name) for name in ("red", "yellow", "blue", "black"))

# Radius 2: eleven stones and two wonders leave no legal cell (found by random play; drawn in test_edge_no_legal_cell).
NO_LEGAL_CELL_RADIUS_2 = {
    "radius": 2,
    "stones": [
        [1, -2, RED],
        [2, -2, RED],
        [0, -1, BLUE],
        [2, -1, BLUE],
        [-1, 0, YELLOW],
        [0, 0, RED],
        [1, 0, RED],
        [-2, 1, YELLOW],
        [0, 1, YELLOW],
        [-2, 2, BLUE],
        [-1, 2, BLACK],
    ],
    "wonders": [[-1, 1, None], [1, -1, None]],
}


def place_all(tableau: Tableau, stones: Iterable[tuple[Hex, int]]) -> tuple[Tableau, list[tuple[Hex, ...]]]:
    """Place stones (hex, colour) in order; the tableau and, per stone, the hexes of the rings it closed."""
    closed_per_stone = []
    for hex_, colour in stones:
        tableau, closed = tableau.place(tableau.index(hex_), colour)
        closed_per_stone.append(tuple(tableau.hex_at(c) for c in closed))
    return tableau, closed_per_stone


def hexes(tableau: Tableau, cells: Iterable[int]) -> set[Hex]:
    return {tableau.hex_at(int(c)) for c in cells}


def order_connected(cells: Iterable[Hex], start: Hex = CENTRE_HEX) -> list[Hex]:
    """`cells` in an order where each is next to an earlier one, from `start` (breadth first)."""
    remaining = set(cells)
    assert start in remaining
    order = [start]
    remaining.discard(start)
    while remaining:
        nxt = min((h for h in remaining if any(n in order for n in neighbours(h))), key=lambda h: (h[1], h[0]))
        order.append(nxt)
        remaining.discard(nxt)
    return order


# ------------------------------------------------------------------------------------------ first stone, connection
def test_first_stone_goes_on_the_centre_cell() -> None:
    """ "...must immediately place it in their tableau connected to any previously placed Stones."

    The first stone has nothing to connect to: it goes on the centre cell (0, 0), the only legal cell."""
    tableau = Tableau()
    assert tableau.radius == TABLEAU_RADIUS and len(tableau.grid) == 3 * TABLEAU_RADIUS * (TABLEAU_RADIUS + 1) + 1
    assert tableau.stone_count == 0 and tableau.has_legal_cell
    assert hexes(tableau, tableau.legal_cells()) == {CENTRE_HEX}
    with pytest.raises(IllegalPlacementError, match="first stone goes on the centre"):
        tableau.place(tableau.index((1, 0)), BLACK)
    placed, closed = tableau.place(tableau.index(CENTRE_HEX), RED)
    assert closed == ()
    assert placed.stone_count == 1 and placed.colour_at(placed.index(CENTRE_HEX)) == RED
    assert tableau.stone_count == 0, "place returns a new tableau; the old one is unchanged"


def test_later_stones_go_next_to_a_stone() -> None:
    """ "...must immediately place it in their tableau connected to any previously placed Stones."""
    tableau, _ = place_all(Tableau(), [(CENTRE_HEX, BLACK)])
    assert hexes(tableau, tableau.legal_cells()) == set(neighbours(CENTRE_HEX))
    with pytest.raises(IllegalPlacementError, match="not next to a stone"):
        tableau.place(tableau.index((2, 0)), BLACK)
    with pytest.raises(IllegalPlacementError, match="already holds a black stone"):
        tableau.place(tableau.index(CENTRE_HEX), BLACK)
    tableau, _ = place_all(tableau, [((1, 0), BLUE)])
    assert (2, 0) in hexes(tableau, tableau.legal_cells())
    assert tableau.why_illegal(tableau.index((2, 0))) is None
    assert all(tableau.stones_next_to(cell) > 0 for cell in tableau.legal_cells())


# ------------------------------------------------------------------------------------------ rings and wonders
def test_rulebook_example_three_wonders_share_stones() -> None:
    """ "...the player has previously built a Greater Wonder using 6 black Stones. They've added to two of the stones
    from the Greater Wonder to build a Named Wonder, and are now finishing a third Wonder attached to the first two."

    Also: "Stones may be used in multiple Wonders". The Named Wonder's ring is 3 black + 3 red ("3 Stones of one
    color and 3 Stones of another"); the third ring mixes colours (a Lesser Wonder)."""
    greater, named, third = (-1, 0), (1, -1), (0, 1)
    tableau, closed = place_all(Tableau(), [(hex_, BLACK) for hex_ in ring(greater, 1)])  # starts at (0, 0)
    assert closed == [(), (), (), (), (), (greater,)]
    centre = tableau.index(greater)
    assert tableau.is_wonder(centre) and tableau.wonder_at(centre) == UNCHOSEN_WONDER
    assert tableau.ring_colours(centre) == (BLACK,) * 6
    tableau = tableau.with_wonder(centre, 0)

    shared_with_greater = set(ring(named, 1)) & set(ring(greater, 1))
    assert shared_with_greater == {(0, 0), (0, -1)}
    tableau, closed = place_all(tableau, [((1, 0), RED), ((2, -1), RED), ((2, -2), BLACK), ((1, -2), RED)])
    assert closed[-1] == (named,) and not any(closed[:-1])
    assert sorted(tableau.ring_colours(tableau.index(named))) == sorted([BLACK] * 3 + [RED] * 3)
    tableau = tableau.with_wonder(tableau.index(named), 1)

    assert set(ring(third, 1)) & set(ring(greater, 1)) == {(0, 0), (-1, 1)}
    assert set(ring(third, 1)) & set(ring(named, 1)) == {(0, 0), (1, 0)}
    tableau, closed = place_all(tableau, [((1, 1), BLUE), ((0, 2), YELLOW), ((-1, 2), RED)])
    assert closed == [(), (), (third,)]
    assert len(set(tableau.ring_colours(tableau.index(third)))) > 1
    assert tableau.stone_count == 6 + 4 + 3
    assert [tableau.stones_by_colour[c] for c in (BLACK, RED, BLUE, YELLOW)] == [7, 4, 1, 1]
    assert [tableau.hex_at(c) for c in tableau.wonder_centres()] == [greater, named, third]
    assert tableau.wonders[:2] == ((centre, 0), (tableau.index(named), 1))
    assert tableau.unchosen_wonder_centres() == (tableau.index(third),)
    # (0, 0) belongs to all three rings.
    assert all(CENTRE_HEX in ring(wonder, 1) for wonder in (greater, named, third))


@pytest.mark.parametrize(
    ("centres", "last"),
    [
        (((-1, 0), (1, -1)), (0, -1)),  # two rings sharing two stones, closed by the second shared one
        (((2, 0), (1, -1), (0, 1)), (1, 0)),  # three rings around one cell: the most one stone can close
    ],
    ids=["two-rings", "three-rings"],
)
def test_one_stone_closes_several_rings_at_once(centres: tuple[Hex, ...], last: Hex) -> None:
    """ "Stones may be used in multiple Wonders": the stone shared by rings that lack only it closes them all."""
    ring_cells = set().union(*(ring(c, 1) for c in centres))
    tableau, closed = place_all(Tableau(), [(h, YELLOW) for h in order_connected(ring_cells - {last})])
    assert not any(closed)
    assert all(tableau.stones_next_to(tableau.index(c)) == 5 for c in centres)
    tableau, closed_cells = tableau.place(tableau.index(last), RED)
    assert hexes(tableau, closed_cells) == set(centres)
    assert list(closed_cells) == sorted(closed_cells)
    assert set(tableau.wonder_centres()) == set(closed_cells)
    assert all(RED in tableau.ring_colours(c) for c in closed_cells)


def test_a_closed_ring_centre_is_never_filled() -> None:
    """ "...hexagonal rings of Stones with an empty space in the center": the centre holds a wonder, never a stone."""
    centre_hex = (-1, 0)
    tableau, _ = place_all(Tableau(), [(h, BLUE) for h in ring(centre_hex, 1)])
    centre = tableau.index(centre_hex)
    assert tableau.is_wonder(centre) and not tableau.is_legal(centre)
    assert centre not in tableau.legal_cells()
    with pytest.raises(IllegalPlacementError, match="centre of a closed ring"):
        tableau.place(centre, BLUE)
    chosen = tableau.with_wonder(centre, 7)
    assert chosen.wonder_at(centre) == 7 and tableau.wonder_at(centre) == UNCHOSEN_WONDER
    with pytest.raises(ValueError, match="already holds wonder 7"):
        chosen.with_wonder(centre, 8)
    with pytest.raises(ValueError, match="not the centre of a closed ring"):
        chosen.with_wonder(tableau.index((5, 0)), 1)
    with pytest.raises(IllegalPlacementError):
        chosen.place(centre, BLUE)
    assert chosen.colour_at(centre) == NO_STONE


# ------------------------------------------------------------------------------------------ blocking
def test_blocking_refuses_the_last_space_of_a_stone() -> None:
    """FAQ: "You do need to make sure that all rings are attached, and each ring has space for a Wonder to be placed
    within it in the future."

    The centre stone has five stone neighbours and one space, (1, 0): a stone there is refused (the centre stone
    could never be in a ring), a stone next to the space is allowed, and the space later becomes a wonder."""
    five_around = [h for h in neighbours(CENTRE_HEX) if h != (1, 0)]
    tableau, _ = place_all(Tableau(), [(CENTRE_HEX, BLACK), *((h, RED) for h in five_around)])
    centre = tableau.index(CENTRE_HEX)
    assert tableau.spaces_next_to(centre) == 1
    space = tableau.index((1, 0))
    assert not tableau.is_legal(space)
    assert (
        tableau.why_illegal(space) == f"cell {space} (1, 0) is the last space for a wonder next to the stone at (0, 0)"
    )
    with pytest.raises(IllegalPlacementError, match="last space for a wonder"):
        tableau.place(space, BLUE)
    assert tableau.is_legal(tableau.index((2, -1)))
    tableau, closed = place_all(tableau, [((2, -1), BLUE), ((2, 0), BLUE), ((1, 1), BLUE)])
    assert closed[-1] == ((1, 0),)
    assert tableau.is_wonder(space) and tableau.spaces_next_to(centre) == 1


# ------------------------------------------------------------------------------------------ the edge
def test_edge_cells_beyond_the_radius_do_not_exist() -> None:
    """The tableau is a fixed grid: cells beyond its radius do not exist (an edge the rulebook's table lacks)."""
    tableau = Tableau()
    with pytest.raises(ValueError, match="not on"):
        tableau.index((TABLEAU_RADIUS + 1, 0))
    with pytest.raises(IllegalPlacementError, match="off the grid"):
        tableau.place(len(tableau.grid), BLACK)
    geometry = tableau_geometry()
    corner, side = geometry.grid.index((TABLEAU_RADIUS, 0)), geometry.grid.index((TABLEAU_RADIUS, -1))
    west, south_west = (TABLEAU_RADIUS - 1, 0), (TABLEAU_RADIUS - 1, 1)  # on the grid: NW, W and SW of the corner
    assert geometry.neighbour_table[corner] == (
        NO_NEIGHBOUR,
        NO_NEIGHBOUR,
        geometry.grid.index((TABLEAU_RADIUS, -1)),
        geometry.grid.index(west),
        geometry.grid.index(south_west),
        NO_NEIGHBOUR,
    )
    assert geometry.neighbour_table[side].count(NO_NEIGHBOUR) == 2
    assert not geometry.interior[corner] and not geometry.interior[side] and geometry.interior[geometry.centre]
    assert sum(geometry.interior) == len(HexGrid(TABLEAU_RADIUS - 1))


def test_edge_refuses_a_stone_with_no_space_on_the_grid() -> None:
    """ "...each ring has space for a Wonder": a wonder needs its whole ring on the grid, so an edge cell is no space.

    On radius 2, (2, 0) touches only the stone at (1, 0) and edge cells: the stone there could never be in a ring."""
    tableau, _ = place_all(Tableau(2), [(CENTRE_HEX, BLACK), ((1, 0), BLACK)])
    assert tableau.why_illegal(tableau.index((2, 0))) == (
        "cell 11 (2, 0) has no neighbouring space for a wonder: the stone could never be part of a ring"
    )
    assert tableau.is_legal(tableau.index((2, -1)))  # next to (1, -1), an interior empty cell


def test_edge_no_legal_cell() -> None:
    """When no cell is legal (only the edge can cause it), legal_cells is empty and place says "no legal cell"."""
    tableau = Tableau.from_dict(NO_LEGAL_CELL_RADIUS_2)
    assert tableau.draw_ascii() == "  . R R\n . B w B\n. Y R R .\n Y w Y .\n  B L ."
    assert len(tableau.legal_cells()) == 0 and not tableau.has_legal_cell
    assert not tableau.legal_mask().any()
    with pytest.raises(IllegalPlacementError, match="no legal cell"):
        tableau.place(tableau.index((0, -2)), BLACK)


# ------------------------------------------------------------------------------------------ queries and views
def test_queries_and_views_of_a_small_tableau() -> None:
    """Stones by colour, ring colours and progress, the array planes and the drawing agree with the stones."""
    tableau, _ = place_all(Tableau(3), [(CENTRE_HEX, BLACK), ((1, 0), RED), ((0, 1), BLUE)])
    between = tableau.index((1, 1))  # next to (1, 0) and (0, 1)
    assert [tableau.stones_by_colour[c] for c in (BLACK, RED, BLUE, YELLOW)] == [
        1,
        1,
        1,
        0,
    ] and tableau.stone_count == 3
    assert tableau.stone_cells() == tuple(sorted(tableau.index(h) for h in [CENTRE_HEX, (1, 0), (0, 1)]))
    assert tableau.stone_cells(RED) == (tableau.index((1, 0)),)
    assert tableau.stones() == tuple((c, tableau.colour_at(c)) for c in tableau.stone_cells())
    # Around (1, -1) in E, NE, NW, W, SW, SE order: (2, -1) (2, -2) (1, -2) (0, -1) (0, 0) (1, 0).
    assert tableau.ring_colours(tableau.index((1, -1))) == (NO_STONE, NO_STONE, NO_STONE, NO_STONE, BLACK, RED)
    progress = tableau.ring_progress()
    assert progress[between] == 2 and progress[tableau.index(CENTRE_HEX)] == 0
    assert progress[tableau.index((1, -1))] == 2 and progress[tableau.index((3, 0))] == 0
    colours = tableau.colours()
    assert colours[tableau.index((0, 1))] == BLUE and colours[between] == NO_STONE
    planes = tableau.to_array()
    assert planes.shape == (7, 7, len(PLANE_NAMES)) and planes.dtype == np.float32
    row, col = tableau.grid.to_array_index((1, 0))
    assert planes[row, col, PLANE_NAMES.index("stone red")] == 1.0
    row, col = tableau.grid.to_array_index((1, 1))
    assert planes[row, col, PLANE_NAMES.index("ring progress")] == pytest.approx(2 / 6)
    assert planes[row, col, PLANE_NAMES.index("legal")] == 1.0
    assert planes[..., PLANE_NAMES.index("on grid")].sum() == len(tableau.grid)
    assert planes[0, 0].sum() == 0.0  # an off-grid corner of the array
    assert tableau.draw_ascii(show_legal=True).splitlines() == [
        "   . . . .",
        "  . . . . .",
        " . . + + + .",
        ". . + L R + .",
        " . . + B + .",
        "  . . + + .",
        "   . . . .",
    ]
    assert tableau.draw_ascii().splitlines()[3] == ". . . L R . ."


def test_immutable_equal_hashable_picklable() -> None:
    """A tableau is a value: no attribute can be set, equal tableaux hash alike, pickling keeps it."""
    tableau, _ = place_all(Tableau(), [(CENTRE_HEX, BLACK), ((1, 0), RED)])
    with pytest.raises(AttributeError, match="immutable"):
        tableau._cells = b""
    again, _ = place_all(Tableau(), [(CENTRE_HEX, BLACK), ((1, 0), RED)])
    assert again == tableau and hash(again) == hash(tableau)
    assert tableau != place_all(Tableau(), [(CENTRE_HEX, BLACK), ((1, 0), BLUE)])[0]
    restored = pickle.loads(pickle.dumps(tableau))
    assert restored == tableau and restored.geometry is tableau.geometry
    assert np.array_equal(restored.legal_cells(), tableau.legal_cells())
    assert copy.deepcopy(tableau) == tableau


# ------------------------------------------------------------------------------------------ saving
def test_to_dict_round_trip_through_json() -> None:
    """to_dict names cells by axial coordinates; from_dict(json) gives back an equal tableau, counts and all."""
    tableau, _ = place_all(Tableau(), [(h, BLACK) for h in ring((-1, 0), 1)])
    tableau = tableau.with_wonder(tableau.index((-1, 0)), 3)
    tableau, _ = place_all(tableau, [((1, 0), RED), ((2, -1), YELLOW)])
    data = json.loads(json.dumps(tableau.to_dict()))
    assert data["radius"] == TABLEAU_RADIUS
    assert data["wonders"] == [[-1, 0, 3]]
    assert [0, 0, BLACK] in data["stones"] and [2, -1, YELLOW] in data["stones"]
    loaded = Tableau.from_dict(data)
    assert loaded == tableau
    assert np.array_equal(loaded.legal_cells(), tableau.legal_cells())
    assert np.array_equal(loaded.ring_progress(), tableau.ring_progress())
    assert loaded.stones_by_colour == tableau.stones_by_colour
    assert Tableau.from_dict(Tableau(4).to_dict()) == Tableau(4)
    assert Tableau.from_dict(NO_LEGAL_CELL_RADIUS_2).to_dict()["wonders"] == [[-1, 1, None], [1, -1, None]]


def closed_ring_dict(**changes: Any) -> dict[str, Any]:
    """A valid saved tableau (a ring of six around (-1, 0) with its wonder) with some fields replaced."""
    data: dict[str, Any] = {
        "radius": TABLEAU_RADIUS,
        "stones": [[q, r, BLACK] for q, r in ring((-1, 0), 1)],
        "wonders": [[-1, 0, 2]],
    }
    data.update(changes)
    return data


FULL_RING = [[q, r, BLACK] for q, r in ring((-1, 0), 1)]


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        pytest.param(["not", "a", "dict"], "tableau", "a tableau is a mapping", id="not-a-mapping"),
        pytest.param(closed_ring_dict(extra=1), "tableau.extra", "unknown field", id="unknown-field"),
        pytest.param({"radius": 7, "stones": []}, "tableau.wonders", "missing field", id="missing-field"),
        pytest.param(closed_ring_dict(radius=1), "tableau.radius", "expected >= 2", id="radius-too-small"),
        pytest.param(closed_ring_dict(radius=True), "tableau.radius", "expected an integer", id="radius-not-int"),
        pytest.param(
            closed_ring_dict(stones=[[0, 0, 0], [TABLEAU_RADIUS + 1, 0, 1]]),
            "tableau.stones[1]",
            "off the grid",
            id="stone-off-grid",
        ),
        pytest.param(
            closed_ring_dict(stones=[[0, 0]]), "tableau.stones[0]", r"expected \[q, r, value\]", id="stone-short"
        ),
        pytest.param(closed_ring_dict(stones=[[0, 0, 4]]), "tableau.stones[0][2]", "expected 0..3", id="bad-colour"),
        pytest.param(
            closed_ring_dict(stones=[*FULL_RING, [0, 0, 1]]), "tableau.stones[6]", "two stones", id="two-stones"
        ),
        pytest.param(
            closed_ring_dict(stones=[[0, 0, 0], [2, 0, 1]], wonders=[]),
            "tableau.stones[1]",
            "not connected",
            id="stone-not-connected",
        ),
        pytest.param(
            closed_ring_dict(stones=[[1, 0, 0]], wonders=[]),
            "tableau.stones",
            "no stone on the centre cell",
            id="no-centre-stone",
        ),
        pytest.param(
            closed_ring_dict(stones=[*FULL_RING, [-1, 0, 1]], wonders=[]),
            "tableau.stones[6]",
            "fills the centre",
            id="stone-inside-ring-centre",
        ),
        pytest.param(
            closed_ring_dict(wonders=[]),
            "tableau.wonders",
            r"closed ring around \(-1, 0\) has no wonder",
            id="closed-ring-without-wonder",
        ),
        pytest.param(
            closed_ring_dict(wonders=[[-1, 0, 2], [3, 0, 1]]),
            "tableau.wonders[1]",
            "not inside a closed ring",
            id="wonder-outside-ring",
        ),
        pytest.param(
            closed_ring_dict(wonders=[[-1, 0, 2], [-1, 0, 1]]), "tableau.wonders[1]", "two wonders", id="two-wonders"
        ),
        pytest.param(
            closed_ring_dict(wonders=[[0, 0, 2]]), "tableau.wonders[0]", "a stone and a wonder", id="wonder-on-stone"
        ),
        pytest.param(
            closed_ring_dict(wonders=[[-1, 0, -3]]), "tableau.wonders[0][2]", "expected >= 0", id="bad-wonder-id"
        ),
        pytest.param(
            closed_ring_dict(wonders=[[-1, TABLEAU_RADIUS + 1, 1]]),
            "tableau.wonders[0]",
            "off the grid",
            id="wonder-off-grid",
        ),
        pytest.param(
            {"radius": 2, "stones": [[0, 0, 0], [1, 0, 0], [2, 0, 0]], "wonders": []},
            "tableau.stones[2]",
            "no neighbouring space for a wonder",
            id="stone-without-space",
        ),
    ],
)
def test_from_dict_refuses_bad_tableaux_naming_the_field(data: Any, field: str, message: str) -> None:
    """A saved tableau that no play can reach is refused with a ValueError naming the bad field."""
    with pytest.raises(StateFormatError, match=message) as error:
        Tableau.from_dict(data)
    assert error.value.field == field
    assert isinstance(error.value, ValueError)


def test_from_dict_names_the_enclosing_field() -> None:
    """A state that holds tableaux passes its own path, so errors read `state.tableaux[1].stones[0]: ...`."""
    with pytest.raises(StateFormatError, match=r"^state\.tableaux\[1\]\.stones\[1\]: "):
        Tableau.from_dict(closed_ring_dict(stones=[[0, 0, 0], [2, 0, 1]], wonders=[]), field="tableaux[1]")


# ------------------------------------------------------------------------------------------ random play (property)
def is_space(hex_: Hex, grid: HexGrid, stones: set[Hex], wonders: set[Hex]) -> bool:
    """A cell that holds a wonder or is empty with its whole ring on the grid (the module's definition, from hexes)."""
    if hex_ in wonders:
        return True
    return hex_ in grid and hex_ not in stones and all(n in grid for n in neighbours(hex_))


def brute_force_legal(grid: HexGrid, stones: set[Hex], wonders: set[Hex]) -> set[Hex]:
    """Legal cells straight from the rules' words, recomputed from scratch with hexes (no tables, no counts)."""
    if not stones:
        return {CENTRE_HEX}
    legal = set()
    for hex_ in grid.hexes:
        if hex_ in stones or hex_ in wonders or not any(n in stones for n in neighbours(hex_)):
            continue
        after = stones | {hex_}
        new_wonders = wonders | {c for c in closed_rings(after) if c in grid}
        affected = [hex_, *(n for n in neighbours(hex_) if n in stones)]
        if all(any(is_space(n, grid, after, new_wonders) for n in neighbours(s)) for s in affected):
            legal.add(hex_)
    return legal


def check_invariants(tableau: Tableau, reported: Sequence[int]) -> None:
    """Every invariant of a tableau reached by legal play."""
    grid = tableau.grid
    stone_colour = {tableau.hex_at(cell): colour for cell, colour in tableau.stones()}
    stones = set(stone_colour)
    wonders = hexes(tableau, tableau.wonder_centres())
    # Stones connected (through the centre stone).
    if stones:
        assert order_connected(stones)
    # Every stone has a space: an empty interior neighbour or a wonder.
    for stone in stones:
        assert any(is_space(n, grid, stones, wonders) for n in neighbours(stone)), stone
    # Each reported ring is closed, and the wonders are exactly the closed rings.
    for centre in reported:
        assert tableau.is_wonder(centre)
        assert all(n in stones for n in neighbours(tableau.hex_at(centre)))
    assert wonders == set(closed_rings(stones))
    assert not wonders & stones
    # Legal cells: the brute-force rule, each next to a stone, the mask agrees.
    legal = hexes(tableau, tableau.legal_cells())
    assert legal == brute_force_legal(grid, stones, wonders)
    if stones:
        assert all(any(n in stones for n in neighbours(h)) for h in legal)
    assert tableau.has_legal_cell == bool(legal)
    assert hexes(tableau, np.flatnonzero(tableau.legal_mask())) == legal
    # Counts agree with the stones.
    assert tableau.stones_by_colour == tuple(list(stone_colour.values()).count(c) for c in range(NUM_COLOURS))
    progress = tableau.ring_progress()
    for cell, hex_ in enumerate(grid.hexes):
        expected = sum(n in stones for n in neighbours(hex_)) if hex_ not in stones | wonders else 0
        assert progress[cell] == expected
    # The incremental tableau equals one rebuilt from its saved dict.
    loaded = Tableau.from_dict(tableau.to_dict())
    assert loaded == tableau
    assert np.array_equal(loaded.legal_cells(), tableau.legal_cells())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(radius=st.sampled_from([2, 3, 4, TABLEAU_RADIUS]), stones=st.integers(1, 45), data=st.data())
def test_random_legal_placements_keep_every_invariant(radius: int, stones: int, data: st.DataObject) -> None:
    """Random legal placements keep the stones connected, a space next to every stone and every ring closed.

    "...connected to any previously placed Stones"; "each ring has space for a Wonder"; legal cells are exactly the
    rules' (recomputed from scratch) and never include a cell that is not next to a stone."""
    tableau = Tableau(radius)
    check_invariants(tableau, ())
    for _ in range(stones):
        legal = tableau.legal_cells()
        if len(legal) == 0:
            break
        cell = int(legal[data.draw(st.integers(0, len(legal) - 1), label="cell")])
        colour = data.draw(st.integers(0, NUM_COLOURS - 1), label="colour")
        tableau, closed = tableau.place(cell, colour)
        check_invariants(tableau, closed)
