"""The rulebook's COMBAT EXAMPLE as a position: the round just cast as in the text (Eliam against the Sorcerer), on a
traced state that records each combat action with what it left behind (tests/runebound/test_combat_example.py checks
them against the text; other tests start from the same position)."""

from __future__ import annotations

from typing import Any

from envs.core.decisions import DecisionFrame
from envs.runebound.game import RuneboundCombatGame
from envs.runebound.rules import CombatState
from envs.runebound.state import Kind
from envs.runebound.symbols import ENEMY, HERO

from .scenarios import faces

Event = tuple[str, dict[str, Any]]


class TracedCombat(CombatState):
    """A combat that records every combat action (the hero's and the enemy's) with what it left behind."""

    trace: list[Event]

    def snapshot(self) -> dict[str, Any]:
        """What the example speaks of after an action."""
        return {
            "damage": self.combat_damage,
            "hero": faces(self, HERO),
            "enemy": faces(self, ENEMY),
            "stacks": {i: held.on for i, held in enumerate(self.combat_tokens[ENEMY]) if held.on >= 0},
            "sections": self.surge_sections(),
            "passed": self.passed,
            "triggered": tuple(self.has_triggered(ENEMY, slot) for slot in range(len(self.enemy_card().abilities))),
        }

    def _take_action(self, frame: DecisionFrame, action: int) -> None:
        super()._take_action(frame, action)
        self.trace.append(("hero " + self.game.action_label(action), self.snapshot()))

    def _resolve_damage(self, frame: DecisionFrame) -> None:
        super()._resolve_damage(frame)
        if self.trace:  # the damage belongs to the last action: its snapshot is taken again once it is dealt
            self.trace[-1] = (self.trace[-1][0], self.snapshot())

    def _enemy_action(self, frame: DecisionFrame) -> None:
        super()._enemy_action(frame)
        self.trace.append(("enemy", self.snapshot()))


def example_start() -> TracedCombat:
    """The round just cast as in the example, initiative still to take ("The hero wins initiative ties")."""
    game = RuneboundCombatGame(hero="Eliam", enemy="Sorcerer", act="I", weapons="any")  # the example: no weapon
    data = {
        "hero": "Eliam",
        "enemy": "Sorcerer",
        "combat_tokens": {
            "hero": [
                {"token": "Eliam 1", "face": "physical 1", "spent": False},
                {"token": "Eliam 2", "face": "physical 1", "spent": False},
                {"token": "Eliam 3", "face": "shield 1", "spent": False},
            ],
            "enemy": [
                {"token": "Mystic 1", "face": "tactics", "spent": False},
                {"token": "Mystic 2", "face": "double", "spent": False},
                {"token": "Mystic 3", "face": "surge 1", "spent": False},
                {"token": "Mystic 4", "face": "skull 1", "spent": False},
                {"token": "Mystic 5", "face": "skull 1", "spent": False},
            ],
        },
        "combat_damage": {"hero": 0, "enemy": 0},
        "combat_round": 1,
        "initiative": None,
        "passed": {"hero": False, "enemy": False},
        "charged": {"hero": False, "enemy": False},
        "silenced": {"hero": False, "enemy": False},
        "barrier": {"hero": 0, "enemy": 0},
        "combat_round_damage": {"hero": 0, "enemy": 0},
        "combat_triggered": {"hero": [], "enemy": []},
        "combat_outcome": "ONGOING",
        "decisions": 0,
        "stack": [{"seat": 0, "kind": Kind.COMBAT_INITIATIVE.value, "reason": "", "details": {}}],
    }
    state = TracedCombat.from_dict(game, data)
    state.trace = []
    state._run()
    return state
