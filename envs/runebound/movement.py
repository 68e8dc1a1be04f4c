"""Runebound's movement step: the terrain die as data and the rule of one step, as pure queries over the map.

No game state and no frames: the board's movement frames roll the dice (`die_outcomes`), then ask for the next step
only (`step_options` with the dice still unspent, or `plain_steps` for the one hex without dice). Public facts:
REFERENCE.md 3.3 (the move action) and 3.4 (the terrain die's faces, towns always enterable); every reading where
they are silent is in RULES.md, "Movement (envs/runebound/movement.py)".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from envs.core.components import uniform_outcomes
from envs.core.hexgrid import NUM_SIDES
from envs.runebound.board_map import BRIDGE, RIVER, ROAD, TERRAINS, WATER, RuneboundMap

TOWN = "town"
"""The site kind any face enters ("Towns are always enterable", public facts 3.4)."""


@dataclass(frozen=True, slots=True)
class TerrainFace:
    """One face of the terrain die: its label and the terrains it matches (a wild face matches every terrain)."""

    name: str
    terrains: frozenset[str]

    def matches(self, terrain: str) -> bool:
        """Whether this face moves a hero into a hex of `terrain` (or across a river, for `water`)."""
        return terrain in self.terrains


def _face(*terrains: str) -> TerrainFace:
    """The face matching `terrains`, named after them ("plains/forest")."""
    return TerrainFace("/".join(terrains), frozenset(terrains))


WILD = TerrainFace("wild", frozenset(TERRAINS))
"""The wild face: "Wild faces match any terrain" (public facts 3.3), water included."""

TERRAIN_DIE: tuple[TerrainFace, ...] = (
    WILD,
    _face("plains"),
    _face("plains", "forest"),
    _face("forest", "hills"),
    _face("mountains", "water"),
    _face("hills", "plains"),
)
"""The six faces of a terrain die, in the fact sheet's order (public facts 3.4); a rolled die is an index here."""

FACE_NAMES: tuple[str, ...] = tuple(face.name for face in TERRAIN_DIE)
"""The faces' labels, index for index."""

FACE_PROBABILITIES: tuple[Fraction, ...] = tuple(Fraction(1, len(TERRAIN_DIE)) for _ in TERRAIN_DIE)
"""The exact chance of each face: a fair d6."""


def die_outcomes() -> list[tuple[int, float]]:
    """The chance outcomes of rolling one terrain die: (face index into `TERRAIN_DIE`, probability) pairs."""
    return uniform_outcomes(range(len(TERRAIN_DIE)))


def can_step(board: RuneboundMap, cell: int, direction: int, face: TerrainFace) -> bool:
    """Whether spending a die showing `face` moves a hero from `cell` to its neighbour in `direction`.

    Along a road edge any face continues; across a river edge only a water face (or wild) unless a bridge crosses it,
    where any face does; otherwise the face must match the terrain of the hex entered, or that hex holds a town. A
    direction off the map is never a step; a direction outside 0..5 or a cell off the map raises ValueError.
    """
    target = board.hex_map.neighbour(cell, direction)
    if target is None:
        return False
    edge = board.hex_map.edge_attributes(board.hex_map.edge_id(cell, direction))
    if ROAD in edge or BRIDGE in edge:
        return True
    if RIVER in edge:
        return face.matches(WATER)
    site = board.site_at(target)
    if site is not None and site.kind == TOWN:
        return True
    return face.matches(board.terrain(target))


def step_options(board: RuneboundMap, cell: int, faces: Sequence[TerrainFace]) -> list[tuple[int, int]]:
    """The (die index into `faces`, direction) pairs a hero on `cell` holding the unspent `faces` may take next.

    Each die moves one hex and is spent: the caller removes it from `faces` before asking again. Ordered by die, then
    direction."""
    return [
        (index, direction)
        for index, face in enumerate(faces)
        for direction in range(NUM_SIDES)
        if can_step(board, cell, direction, face)
    ]


def plain_steps(board: RuneboundMap, cell: int) -> list[int]:
    """The directions of the one hex a hero on `cell` may move without dice: every neighbour on the map.

    "Move 1 adjacent space without dice" (public facts 3.3) names no terrain, road or river: rivers and water hexes
    do not stop it (RULES.md, "Movement")."""
    return [direction for direction in range(NUM_SIDES) if board.hex_map.neighbour(cell, direction) is not None]


__all__ = [
    "FACE_NAMES",
    "FACE_PROBABILITIES",
    "TERRAIN_DIE",
    "TOWN",
    "WILD",
    "TerrainFace",
    "can_step",
    "die_outcomes",
    "plain_steps",
    "step_options",
]
