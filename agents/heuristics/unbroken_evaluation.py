"""Unbroken's evaluation for search agents: how good a position is for the player, from what the player may see.

`evaluate(state, seat)` is the record's `evaluation` (the lookahead agent, agents/players/lookahead.py, scores
positions by it), in small-effort equivalents:

- **Progress**: `LEVEL_WORTH` per level reached, and in a battle a share of it for the wounds landed on the monster
  (revealed by then) out of its health (`UnbrokenEconomy.monster_health`).
- **Means**: every resource at its worth in `RESOURCE_WORTH` (the bars' contents; time only counts while
  travelling, since it resets at the battle), `WEAPON_STEP_WORTH` per weapon crafted on the stack and
  `SKILL_WORTH` per skill held; the first `SMALL_EFFORT_RESERVE` small efforts are worth `RESERVE_WORTH` more
  each (a payment the player cannot make defeats it).
- **At the end**: a win is worth `WIN_WORTH` plus the final score (`UnbrokenEconomy.final_score`); a defeat
  `-WIN_WORTH` plus the levels reached, so a defeat later beats a defeat sooner.

It never reads the face-down monster nor the decks: only the resources, weapons, skills, level and a revealed
monster's figures.
"""

from __future__ import annotations

from envs.unbroken.cards import (
    CUNNING,
    FOOD,
    LARGE_EFFORT,
    MEDIUM_EFFORT,
    METAL,
    SMALL_EFFORT,
    TIME,
    TREASURE,
    WOOD,
)
from envs.unbroken.rules import UnbrokenState
from envs.unbroken.state import BATTLE_PHASES, Outcome

RESOURCE_WORTH = {
    SMALL_EFFORT: 1.0,
    MEDIUM_EFFORT: 2.5,
    LARGE_EFFORT: 4.0,
    CUNNING: 1.5,
    FOOD: 1.5,
    WOOD: 2.0,
    METAL: 2.5,
    TREASURE: 1.0,
    TIME: 0.5,
}
"""Small-effort equivalents of one unit of each resource (a medium effort pays for more than a small one, ...)."""
SMALL_EFFORT_RESERVE = 6
"""Small effort below which each unit is dear: a payment the player cannot make defeats it."""
RESERVE_WORTH = 2.0
"""Extra worth of each small effort below SMALL_EFFORT_RESERVE."""
LEVEL_WORTH = 20.0
"""Worth of reaching the next level (the fight won and the Hunger step paid)."""
WEAPON_STEP_WORTH = 6.0
"""Worth of each weapon crafted on the stack (an upgrade costs about 3-5 worth of materials and time)."""
SKILL_WORTH = 3.0
"""Worth of a skill card held."""
WIN_WORTH = 100.0
"""Worth of the win (the final score is added); a defeat is worth its negative."""


def evaluate(state: UnbrokenState, seat: int) -> float:
    """The player's position in small-effort equivalents: progress and means; at the end, the result."""
    progress = LEVEL_WORTH * (state.level - 1)
    if state.outcome == Outcome.WON:
        return WIN_WORTH + state.final_score()
    if state.outcome == Outcome.LOST:
        return -WIN_WORTH + progress
    if state.phase in BATTLE_PHASES and state.monster_revealed:
        progress += LEVEL_WORTH * min(1.0, state.wounds / state.monster_health())
    in_travel = state.phase not in BATTLE_PHASES
    means = sum(
        amount * RESOURCE_WORTH[resource]
        for resource, amount in enumerate(state.resources)
        if resource != TIME or in_travel
    )
    means += RESERVE_WORTH * min(state.resources[SMALL_EFFORT], SMALL_EFFORT_RESERVE)
    means += WEAPON_STEP_WORTH * (len(state.weapons) - 1) + SKILL_WORTH * len(state.skills)
    return progress + means


__all__ = ["LEVEL_WORTH", "RESOURCE_WORTH", "SKILL_WORTH", "WEAPON_STEP_WORTH", "WIN_WORTH", "evaluate"]
