"""Unbroken's state, declared once: every field with its type; clone, to_dict and from_dict derive from it.

`UnbrokenStateData` holds what changes during a game as plain ints, lists and tuples (cheap to clone). Content
indices (characters, weapons, monsters, encounters, skills, conditions, ability actions) are declared with their
table, so a saved state names the cards (`{"monsters": ["Kobold", null, ...]}`) and survives a reordering of the
YAML files. The rules (`rules.UnbrokenState`) subclass it; validation of positions is in `validation.py`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any

from envs.core.record import CACHE, CountsOf, IntsByName, NameOf, NamesOf, StateRecord, ValuesOf

if TYPE_CHECKING:
    from envs.unbroken.game import UnbrokenGame

FINAL_LEVEL = 4
"""Levels I to IV; the game is won after level IV's Hunger step."""
MAX_REVEAL = 6
"""Most encounter cards one exploration can reveal (2 + bonuses; more are not revealed)."""
MAX_SKILL_OFFER = 4
"""Most skill cards one Rewards step can reveal."""


class Phase(enum.IntEnum):
    """Where the game stands: chance nodes first, then decision nodes, then the end (order is relied on)."""

    CHANCE_CHARACTER = 0
    CHANCE_SETUP_MONSTER = 1
    CHANCE_BONUS_RESOURCE = 2
    CHANCE_SKILL_DRAW = 3
    CHANCE_ENCOUNTER_DRAW = 4
    CHANCE_MONSTER_REVEAL = 5
    CHANCE_MONSTER_ROLL = 6
    DECIDE_SKILL = 7
    DECIDE_TRAVEL = 8
    DECIDE_CARD = 9
    DECIDE_ENCOUNTER_OR_REST = 10
    DECIDE_TRICKERY = 11
    DECIDE_PLAYER_TURN = 12
    DECIDE_REACTION = 13
    DECIDE_HUNGER = 14
    GAME_OVER = 15


FIRST_DECISION = Phase.DECIDE_SKILL
"""Phases below this one are chance nodes."""
PHASE_NAMES = (
    "setup: character",
    "setup: monster deck",
    "setup: easy bonus resource",
    "skill draw",
    "exploration: reveal",
    "monster reveal (d6)",
    "monster combat roll",
    "choose a skill card",
    "travel: preparation and decision",
    "exploration: choose a card",
    "exploration: encounter or rest",
    "trickery step",
    "battle: player turn",
    "battle: react to the roll",
    "hunger step",
    "game over",
)
"""Readable name of each phase, indexed by Phase."""
BATTLE_PHASES = frozenset({Phase.CHANCE_MONSTER_ROLL, Phase.DECIDE_PLAYER_TURN, Phase.DECIDE_REACTION})
"""Phases of the battle step, when a monster is being fought."""


class AfterSkill(enum.IntEnum):
    """Where play continues once a skill card has been taken."""

    TRAVEL = 0
    HUNGER = 1


class RevealFor(enum.IntEnum):
    """Why this level's monster is being revealed (where play continues)."""

    SCOUT = 0
    AMBUSH = 1
    TRICKERY = 2


class Outcome(enum.IntEnum):
    """The result of the game: false (0) while it goes on."""

    LOST = -1
    ONGOING = 0
    WON = 1


Indices = list[int]


@dataclass(eq=False)
class UnbrokenStateData(StateRecord):
    """Everything that changes during a game of Unbroken (the game's configuration is `game`).

    Tuples are never edited in place (a change replaces them), so caches can check them by identity; the same holds
    for `conditions_now`, which is replaced whenever a condition starts or ends (its rounds count down in place).
    """

    game: UnbrokenGame
    phase: Phase = Phase.CHANCE_CHARACTER
    level: int = 1
    resources: Annotated[Indices, ValuesOf("resource")] = field(default_factory=list)
    character: Annotated[int, NameOf("character", optional=True)] = -1
    ability_uses: int = 1
    weapons: Annotated[Indices, NamesOf("weapon")] = field(default_factory=lambda: [0])
    """The weapon stack, bottom (Bare Hands) first; the top one is equipped."""
    aside_weapon: Annotated[int, NameOf("weapon", optional=True)] = -1
    aside_rounds: int = 0
    monsters: Annotated[Indices, NamesOf("monster", optional=True)] = field(default_factory=lambda: [-1] * FINAL_LEVEL)
    """The monster of each level (null until drawn); hidden from the player until `monster_revealed`."""
    monster_revealed: bool = False
    wounds: int = 0
    armor_broken: int = 0
    health_delta: int = 0
    armor_delta: int = 0
    defending: bool = False
    encounter_deck: Annotated[tuple[int, ...], CountsOf("encounter")] = ()
    encounter_discard: Annotated[Indices, CountsOf("encounter")] = field(default_factory=list)
    revealed_cards: Annotated[Indices, NamesOf("encounter")] = field(default_factory=list)
    reveal_target: int = 0
    chosen_card: Annotated[int, NameOf("encounter", optional=True)] = -1
    committed: bool = False
    committed_now: bool = False
    reveal_bonus: int = 0
    skill_deck: Annotated[tuple[int, ...], CountsOf("skill")] = ()
    skill_discard: Annotated[Indices, CountsOf("skill")] = field(default_factory=list)
    skills: Annotated[tuple[int, ...], NamesOf("skill")] = ()
    skill_offer: Annotated[Indices, NamesOf("skill")] = field(default_factory=list)
    skill_target: int = 0
    after_skill: AfterSkill = AfterSkill.TRAVEL
    used_once: Annotated[Indices, NamesOf("action")] = field(default_factory=list)
    """Once-per-level abilities and skills used this level, by action label."""
    conditions_active: Annotated[tuple[int, ...], NamesOf("condition")] = ()
    conditions_next: Annotated[Indices, NamesOf("condition")] = field(default_factory=list)
    conditions_now: Annotated[dict[int, int], IntsByName("condition")] = field(default_factory=dict)
    """Immediate conditions -> rounds left (-1: until the battle ends)."""
    ambushed: bool = False
    reveal_context: RevealFor = RevealFor.SCOUT
    round: int = 0
    extra_turn: bool = False
    roll: int = 0
    reaction_used: bool = False
    reaction_modifier: int = 0
    outcome: Outcome = Outcome.ONGOING
    end_reason: str = ""
    tricked: bool = False
    time_token_removed: bool = False
    setup_level: int = 1
    last_roll: int = 0
    modifier_cache: Any = field(default=None, repr=False, metadata=CACHE)
    """(skills, conditions_active, conditions_now, totals): see economy.modifier_totals."""
    deck_view_cache: Any = field(default=None, repr=False, metadata=CACHE)
    """(encounter_deck, skill_deck, scaled counts): see the observer."""

    def __post_init__(self) -> None:
        game = self.game
        self.cards = game.cards
        self.preset = game.preset
        self.ids = game.actions
        self.bar_maximum = game.cards.display.bar_maximum

    def monster(self) -> int:
        """Index of this level's monster (-1 if not drawn yet); check `monster_revealed` before showing it."""
        return self.monsters[self.level - 1]


__all__ = [
    "BATTLE_PHASES",
    "FINAL_LEVEL",
    "FIRST_DECISION",
    "MAX_REVEAL",
    "MAX_SKILL_OFFER",
    "PHASE_NAMES",
    "AfterSkill",
    "Outcome",
    "Phase",
    "RevealFor",
    "UnbrokenStateData",
]
