"""`RuneboundCombat-v0`'s state: one combat that is the whole game, the host of the combat's rules (combat.py).

`CombatState` holds the combat's fields and rules and plugs the combat's hooks to its game's settings: the hero is the
game's (or drawn at setup), it fights in seat 0 undamaged, carries its Act's loadout, holds no skill cards, and the
enemy's choices follow the game's `enemy_choice` preset. Its own frames are the setup draws of a random hero and enemy;
the end of the combat is the end of its game (`combat_over`), and what a flight returns is the game's `flight`.

The rules themselves are in combat.py; interpretations of the text are stated in RULES.md.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar

from envs.core.chance_labels import ChanceLabel
from envs.core.decisions import DecisionFrame
from envs.core.engine import Chance, FrameKind
from envs.runebound.combat import COMBAT_CHANCE_LABELS, COMBAT_FRAME_KINDS, CombatRules
from envs.runebound.state import CombatStateData, DrawKind, Outcome
from envs.runebound.symbols import ENEMY, HERO
from envs.runebound.validation import validate_state

if TYPE_CHECKING:
    from envs.runebound.game import RuneboundCombatGame

SEAT = 0
"""The one seat of `RuneboundCombat-v0`: the hero's."""


class CombatState(CombatStateData, CombatRules):
    """One combat as a whole game: the declared state (state.py), the combat's rules (combat.py) and the hooks that
    plug them to the game's settings."""

    game: RuneboundCombatGame

    FRAME_KINDS: ClassVar[Mapping[str, FrameKind]] = {
        DrawKind.PICK_HERO: Chance("_hero_outcomes", "_pick_hero"),
        DrawKind.PICK_ENEMY: Chance("_enemy_outcomes", "_pick_enemy"),
        **COMBAT_FRAME_KINDS,
    }
    """The setup draws, then every frame kind of the combat (envs/core/engine.py)."""
    CHANCE_LABELS: ClassVar[Mapping[Hashable, ChanceLabel]] = {
        DrawKind.PICK_HERO: ChanceLabel("the hero is {item.name}", items=attrgetter("game.cards.heroes")),
        DrawKind.PICK_ENEMY: ChanceLabel(
            "the enemy is {item.name} ({item.trait})", items=attrgetter("game.cards.enemies")
        ),
        **COMBAT_CHANCE_LABELS,
    }
    """The setup draws, and the face a cast token shows (envs/core/chance_labels.py)."""

    def validate(self) -> None:
        """Refuse every position that cannot happen, naming the field (validation.py)."""
        validate_state(self)

    # ------------------------------------------------------------------------------------------ the combat's hooks
    def combat_seat(self) -> int:
        """The hero's seat: the game's one seat."""
        return SEAT

    def combat_hero(self) -> int:
        """The game's hero (or the one drawn at setup)."""
        return self.hero

    def combat_hero_health(self) -> int:
        """The hero card's health."""
        return self.hero_card().health

    def combat_hero_wounds(self) -> int:
        """The hero starts the combat undamaged."""
        return 0

    def combat_weapon_tokens(self) -> tuple[int, ...]:
        """The tokens of the hero's loadout's weapons in the game's Act."""
        return self.game.loadout_tokens(self.hero)

    def combat_act(self) -> int:
        """The game's Act."""
        return self.game.act

    def combat_exert_ready(self) -> bool:
        """A combat alone holds no skill cards: exerting costs nothing more (RULES.md, "Exert")."""
        return True

    def combat_exert(self, slot: int, paid: bool) -> bool:
        """Nothing to spend: the ability goes on at once."""
        return True

    def combat_choice_as_damage(self) -> bool:
        """The game's `enemy_choice` preset."""
        return self.game.preset.choice_as_damage

    def combat_over(self, outcome: Outcome) -> None:
        """The combat is the whole game: its end ends the game (nothing else is pending)."""
        self.stack = ()

    # ------------------------------------------------------------------------------------------ the contract
    def returns(self) -> list[float]:
        """+1 when the enemy is defeated, -1 when the hero is, the game's `flight_return` for a flight, else 0."""
        if self.combat_outcome == Outcome.WON:
            return [1.0]
        if self.combat_outcome == Outcome.LOST:
            return [-1.0]
        if self.combat_outcome == Outcome.FLED:
            return [self.game.flight_return]
        return [0.0]

    def score(self) -> list[float]:
        """(damage on the enemy - damage on the hero) / the enemy's health (RULES.md, "Rewards")."""
        if self.enemy < 0:
            return [0.0]
        return [(self.combat_damage[ENEMY] - self.combat_damage[HERO]) / self.enemy_card().health]

    def episode_info(self, player: int = 0) -> dict[str, Any]:
        """Won, score, how the combat ended, its rounds and the damage on each side."""
        info = super().episode_info(player)
        info.update(
            outcome=self.combat_outcome.name.lower(),
            rounds=self.combat_round,
            hero_damage=self.combat_damage[HERO],
            enemy_damage=self.combat_damage[ENEMY],
        )
        return info

    # ------------------------------------------------------------------------------------------ engine hooks
    def _count_decision(self, frame: DecisionFrame) -> None:
        self.decisions += 1

    # ------------------------------------------------------------------------------------------ setup draws
    def _hero_outcomes(self, frame: DecisionFrame) -> Sequence[tuple[int, float]]:
        return self.game.hero_outcomes

    def _pick_hero(self, frame: DecisionFrame, hero: int) -> None:
        self.hero = hero

    def _enemy_outcomes(self, frame: DecisionFrame) -> Sequence[tuple[int, float]]:
        return self.game.enemy_outcomes

    def _pick_enemy(self, frame: DecisionFrame, enemy: int) -> None:
        self.enemy = enemy
