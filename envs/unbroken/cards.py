"""Unbroken card content: typed records loaded from data/*.yaml, validated by pydantic models (schema: CONTENT.md).

Each file is validated by its `...File` model (envs.core.data.load_document turns the first problem into a DataError
naming the file, the card and the field); the models then convert into the frozen records the rules engine reads.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

from pydantic import Discriminator, Field, Tag, ValidationInfo, field_validator, model_validator

from envs.core.data import (
    UNSET,
    DataError,
    Invalid,
    KeyedRecord,
    OneKey,
    Record,
    UniqueNames,
    load_document,
    required_keys,
)

PACKAGE = "envs.unbroken"

Resource = Literal[
    "small_effort", "medium_effort", "large_effort", "cunning", "food", "wood", "metal", "treasure", "time"
]
RESOURCES: tuple[str, ...] = get_args(Resource)
SMALL_EFFORT, MEDIUM_EFFORT, LARGE_EFFORT, CUNNING, FOOD, WOOD, METAL, TREASURE, TIME = range(9)
EFFORTS = (SMALL_EFFORT, MEDIUM_EFFORT, LARGE_EFFORT)
RESOURCE_INDEX = {name: index for index, name in enumerate(RESOURCES)}
Level = Literal[1, 2, 3, 4]
LEVELS: tuple[int, ...] = get_args(Level)
DieFace = Literal[1, 2, 3, 4, 5, 6]
MONSTERS_PER_LEVEL = 6
ENCOUNTER_CARDS = 88

Bag = tuple[tuple[int, int], ...]
"""A resource bag: ((resource index, amount), ...), sorted by resource index."""
Effect = tuple[str, Any]
"""One effect: (kind, argument), e.g. ("gain", bag) or ("wounds", 2)."""

MonsterEffectName = Literal[
    "miss", "lose", "lose_time", "condition", "regain_armor", "heal", "defend", "downgrade_weapon"
]
MONSTER_EFFECTS: tuple[str, ...] = get_args(MonsterEffectName)
MonsterModifier = Literal["wound_cap", "roll_modifier", "regen"]
MONSTER_MODIFIERS: tuple[str, ...] = get_args(MonsterModifier)
Timing = Literal["travel", "combat", "any"]
TIMINGS: tuple[str, ...] = get_args(Timing)
# ACTION_EFFECTS, PASSIVES and CONDITION_MODIFIERS are the field names of the schema models below.


@dataclass(frozen=True)
class Attack:
    """One way a weapon turns effort into wounds or broken armor."""

    cost: Bag
    wounds: int
    break_armor: int
    ignore_armor: bool


@dataclass(frozen=True)
class Upgrade:
    """A craft option: pay `cost` and `time` to lay weapon `to` on top of this one."""

    to: int
    cost: Bag
    time: int


@dataclass(frozen=True)
class Weapon:
    """A weapon sheet."""

    name: str
    kind: str
    attacks: tuple[Attack, ...]
    upgrades: tuple[Upgrade, ...]


@dataclass(frozen=True)
class ActionCard:
    """An activatable ability (character, skill or monster special): timing, cost, effects."""

    name: str
    timing: str
    cost: Bag
    effects: tuple[Effect, ...]
    once_per_level: bool


@dataclass(frozen=True)
class Character:
    """A character sheet with its ability bar abilities."""

    name: str
    abilities: tuple[ActionCard, ...]


@dataclass(frozen=True)
class CombatRow:
    """One row of a monster's combat action table; `alt` is the bracketed alternative."""

    effects: tuple[Effect, ...]
    alt: tuple[Effect, ...] | None


@dataclass(frozen=True)
class Monster:
    """A monster sheet."""

    name: str
    level: int
    number: int
    health: int
    armor: int
    trickery: Bag | None
    ambush: tuple[Effect, ...] | None
    attack_extra_cost: Bag
    special_name: str | None
    special_text: str
    modifiers: dict[str, int]
    special_action: ActionCard | None
    combat: tuple[CombatRow, ...]
    rewards: Bag


@dataclass(frozen=True)
class Encounter:
    """An encounter card type (with its number of copies in the deck)."""

    name: str
    spend: Bag
    gain: Bag
    time: int
    commit: bool
    copies: int


@dataclass(frozen=True)
class Skill:
    """A skill card: exactly one of passive, action or reaction."""

    name: str
    passive: dict[str, Any]
    action: ActionCard | None
    reaction_cost: Bag | None
    reaction_roll_modifier: int
    text: str = ""
    """The card's words, for people (the text view and the picture)."""


@dataclass(frozen=True)
class Condition:
    """A condition card with its modifiers."""

    name: str
    modifiers: dict[str, Any]
    text: str = ""
    """The card's words, for people (the text view and the picture)."""


@dataclass(frozen=True)
class GeneralActions:
    """The general actions sheet."""

    focus: ActionCard
    inspiration: ActionCard
    plan: ActionCard
    scout_cost_by_level: dict[int, Bag]
    orienteer_cost: Bag
    orienteer_reveal_bonus: int


@dataclass(frozen=True)
class Display:
    """The display sheets: bars, time skulls, score table, titles, difficulty settings."""

    bar_maximum: tuple[int, ...]
    time_skull: dict[int, int]
    score_points: tuple[int, ...]
    titles: tuple[tuple[str, int], ...]
    difficulty: dict[str, dict[str, Any]]
    easy_bonus_resource: dict[int, int]
    general: GeneralActions
    exploration_reveal: int
    skill_reveal: int


@dataclass(frozen=True)
class CardSet:
    """Every component of the game, as loaded and cross-checked."""

    display: Display
    characters: tuple[Character, ...]
    weapons: tuple[Weapon, ...]
    monsters: tuple[Monster, ...]
    encounters: tuple[Encounter, ...]
    skills: tuple[Skill, ...]
    conditions: tuple[Condition, ...]

    def monster_index(self, level: int, number: int) -> int:
        """Index of the monster of `level` with d6 number `number`."""
        return self._monster_lookup[(level, number)]

    @property
    def _monster_lookup(self) -> dict[tuple[int, int], int]:
        lookup = self.__dict__.get("_lookup")
        if lookup is None:
            lookup = {(m.level, m.number): i for i, m in enumerate(self.monsters)}
            object.__setattr__(self, "_lookup", lookup)
        return lookup


# ============================================================================ YAML schema (pydantic) -> records
Name = Annotated[str, Field(min_length=1)]
Resources = dict[Resource, Annotated[int, Field(ge=1, le=99)]] | None
"""A resource bag as written in YAML: {resource: 1..99}; null or omitted for nothing."""
Count = Annotated[int, Field(ge=1, le=10)]
Small = Annotated[int, Field(ge=-5, le=5)]


class Card(Record):
    """A named card or sheet, with its optional flavour text."""

    name: Name
    text: str = ""


def _bag(resources: Mapping[Resource, int] | None) -> Bag:
    return tuple(sorted((RESOURCE_INDEX[name], amount) for name, amount in (resources or {}).items()))


class ActionEffect(OneKey):
    """One ACTION EFFECT (abilities, skills, monster special actions)."""

    gain: Resources = None
    wounds: Count = UNSET
    wounds_ignore_armor: Count = UNSET
    break_armor: Count = UNSET
    extra_turn: Literal[True] = UNSET
    remove_condition: Literal[True] = UNSET
    reveal_monster: Literal[True] = UNSET
    reveal_bonus: Count = UNSET
    monster_health: Small = UNSET
    monster_armor: Small = UNSET

    def _effect(self) -> Effect:
        kind, value = self.item()
        return kind, _bag(value) if kind == "gain" else value


ACTION_EFFECTS: tuple[str, ...] = tuple(ActionEffect.model_fields)


class ConditionGain(Record):
    """A monster effect's `condition: {name, when, rounds}`; `name` is one of conditions.yaml's cards."""

    name: Name
    when: Literal["next_level", "now"]
    rounds: Count | None = None

    @field_validator("name")
    @classmethod
    def _known(cls, name: str, info: ValidationInfo) -> str:
        conditions = (info.context or {}).get("conditions")
        if conditions is not None and name not in conditions:
            raise ValueError(f"unknown condition {name!r}")
        return name

    @model_validator(mode="after")
    def _rounds_only_now(self) -> ConditionGain:
        if self.rounds is not None and self.when != "now":
            raise Invalid("rounds only apply to when: now", "rounds")
        return self


class DowngradeFor(Record):
    """`downgrade_weapon: {rounds: n}`: the weapon is set aside for n rounds."""

    rounds: Count


Downgrade = Annotated[
    Annotated[Literal["permanent"], Tag("permanent")] | Annotated[DowngradeFor, Tag("for rounds")],
    Discriminator(lambda value: "permanent" if isinstance(value, str) else "for rounds"),
]


class MonsterEffect(OneKey):
    """One MONSTER EFFECT (ambush, combat rows)."""

    miss: Literal[True] = UNSET
    lose: Resources = None
    lose_time: Count = UNSET
    condition: ConditionGain = UNSET
    regain_armor: Count = UNSET
    heal: Count = UNSET
    defend: Literal[True] = UNSET
    downgrade_weapon: Downgrade = UNSET

    @field_validator("lose")
    @classmethod
    def _no_time(cls, lose: dict[str, int] | None) -> dict[str, int] | None:
        if lose and "time" in lose:
            raise Invalid("use lose_time for time", "time")
        return lose

    def _effect(self, conditions: Mapping[str, int]) -> Effect:
        kind, value = self.item()
        if kind == "lose":
            return kind, _bag(value)
        if kind == "condition":
            return kind, (conditions[value.name], value.when, -1 if value.rounds is None else value.rounds)
        if kind == "downgrade_weapon":
            return kind, 0 if value == "permanent" else value.rounds
        return kind, value


def _effects(effects: list[MonsterEffect], conditions: Mapping[str, int]) -> tuple[Effect, ...]:
    return tuple(effect._effect(conditions) for effect in effects)


class ActionSpec(Record):
    """An activatable ability: a character's ability, a skill's action or a monster's special action."""

    name: Name | None = None
    timing: Timing = "combat"
    cost: Resources = None
    effects: list[ActionEffect]
    once_per_level: bool = False

    def _card(self, default_name: str) -> ActionCard:
        effects = tuple(effect._effect() for effect in self.effects)
        name = default_name if self.name is None else self.name
        return ActionCard(name, self.timing, _bag(self.cost), effects, self.once_per_level)


class ConditionModifiers(KeyedRecord):
    """CONDITION MODIFIERS: any of these keys."""

    rest_penalty: Small = UNSET
    reveal_modifier: Small = UNSET
    food_requirement: Small = UNSET
    weapon_extra_cost: Resources = None
    wound_penalty: Small = UNSET
    skip_turn: bool = UNSET
    no_weapon: bool = UNSET
    round_loss: Resources = None
    monster_roll_modifier: Small = UNSET
    start_time_penalty: Small = UNSET
    ability_uses_penalty: Small = UNSET
    general_action_extra_cost: Resources = None


CONDITION_MODIFIERS: tuple[str, ...] = tuple(ConditionModifiers.model_fields)


class ConditionCard(Card):
    """A condition card."""

    modifiers: ConditionModifiers

    def _record(self) -> Condition:
        given = self.modifiers.given().items()
        return Condition(self.name, {key: v if isinstance(v, int) else _bag(v) for key, v in given}, self.text)


class ConditionsFile(Record):
    """conditions.yaml: exactly 10 condition cards, in deck order."""

    conditions: Annotated[list[ConditionCard], Field(min_length=10, max_length=10), UniqueNames]


class AttackSpec(Record):
    """A weapon attack: exactly one of wounds / break_armor."""

    cost: Resources
    wounds: int = Field(0, ge=0, le=10)
    break_armor: int = Field(0, ge=0, le=10)
    ignore_armor: bool = False

    @model_validator(mode="after")
    def _wounds_or_break_armor(self) -> AttackSpec:
        if ("wounds" in self.model_fields_set) == ("break_armor" in self.model_fields_set):
            raise ValueError("exactly one of wounds / break_armor")
        return self


class UpgradeSpec(Record):
    """A craft option: `to` names another weapon (never Bare Hands)."""

    to: Name
    cost: Resources
    time: int = Field(0, ge=0, le=5)


class WeaponSheet(Card):
    """A weapon sheet."""

    kind: Literal["basic", "advanced"]
    attacks: list[AttackSpec] = Field(min_length=1, max_length=3)
    upgrades: Annotated[list[UpgradeSpec], Field(max_length=2)] | None = None


class WeaponsFile(Record):
    """weapons.yaml: exactly 7 weapons, Bare Hands first."""

    weapons: Annotated[list[WeaponSheet], Field(min_length=7, max_length=7), UniqueNames]

    @model_validator(mode="after")
    def _bare_hands_first_and_known_upgrades(self) -> WeaponsFile:
        names = [weapon.name for weapon in self.weapons]
        if names[0] != "Bare Hands":
            raise Invalid("the first weapon must be Bare Hands", "weapons", 0, "name")
        for i, weapon in enumerate(self.weapons):
            for j, upgrade in enumerate(weapon.upgrades or ()):
                if upgrade.to not in names[1:]:
                    raise Invalid(f"unknown weapon {upgrade.to!r}", "weapons", i, "upgrades", j, "to")
        return self

    def _records(self) -> tuple[Weapon, ...]:
        index = {weapon.name: i for i, weapon in enumerate(self.weapons)}
        return tuple(
            Weapon(
                name=weapon.name,
                kind=weapon.kind,
                attacks=tuple(Attack(_bag(a.cost), a.wounds, a.break_armor, a.ignore_armor) for a in weapon.attacks),
                upgrades=tuple(Upgrade(index[u.to], _bag(u.cost), u.time) for u in weapon.upgrades or ()),
            )
            for weapon in self.weapons
        )


class CharacterSheet(Card):
    """A character sheet: 1 or 2 abilities."""

    abilities: list[ActionSpec] = Field(min_length=1, max_length=2)

    def _record(self) -> Character:
        return Character(self.name, tuple(a._card(f"ability {j}") for j, a in enumerate(self.abilities)))


class CharactersFile(Record):
    """characters.yaml: exactly 4 characters."""

    characters: Annotated[list[CharacterSheet], Field(min_length=4, max_length=4), UniqueNames]


class SpecialSpec(Card):
    """A monster's special: modifiers and/or a combat action the player may take against this monster only."""

    modifiers: dict[MonsterModifier, Annotated[int, Field(ge=-5, le=10)]] | None = None
    action: ActionSpec | None = None


class CombatRowSpec(Record):
    """A combat table row; `alt` is the bracketed alternative."""

    effects: list[MonsterEffect]
    alt: list[MonsterEffect] | None = None


class MonsterSheet(Card):
    """A monster sheet (level IV monsters cannot be tricked)."""

    level: int = Field(ge=1, le=4)
    number: int = Field(ge=1, le=MONSTERS_PER_LEVEL)
    health: int = Field(ge=1, le=30)
    armor: int = Field(ge=0, le=10)
    trickery: Resources = None
    ambush: list[MonsterEffect] | None = None
    attack_extra_cost: Resources = None
    special: SpecialSpec | None = None
    combat: list[CombatRowSpec] = Field(min_length=6, max_length=6)
    rewards: Resources

    @model_validator(mode="after")
    def _level_four_cannot_be_tricked(self) -> MonsterSheet:
        if self.level == 4 and self.trickery is not None:
            raise Invalid("level IV monsters cannot be tricked (must be null)", "trickery")
        return self

    def _record(self, conditions: Mapping[str, int]) -> Monster:
        special = self.special
        return Monster(
            name=self.name,
            level=self.level,
            number=self.number,
            health=self.health,
            armor=self.armor,
            trickery=None if self.trickery is None else _bag(self.trickery),
            ambush=None if self.ambush is None else _effects(self.ambush, conditions),
            attack_extra_cost=_bag(self.attack_extra_cost),
            special_name=None if special is None else special.name,
            special_text="" if special is None else special.text,
            modifiers={} if special is None else {key: value for key, value in (special.modifiers or {}).items()},
            special_action=None if special is None or special.action is None else special.action._card(special.name),
            combat=tuple(
                CombatRow(_effects(row.effects, conditions), None if row.alt is None else _effects(row.alt, conditions))
                for row in self.combat
            ),
            rewards=_bag(self.rewards),
        )


class MonstersFile(Record):
    """monsters.yaml: exactly 24 monsters, one numbered 1..6 on each level I..IV."""

    monsters: Annotated[list[MonsterSheet], Field(min_length=24, max_length=24), UniqueNames]

    @model_validator(mode="after")
    def _one_per_level_and_number(self) -> MonstersFile:
        seen: set[tuple[int, int]] = set()
        for i, monster in enumerate(self.monsters):  # 24 sheets, no slot twice: every slot is filled
            if (monster.level, monster.number) in seen:
                message = f"a second level {monster.level} monster numbered {monster.number} (need one per number 1..6)"
                raise Invalid(message, "monsters", i, "number")
            seen.add((monster.level, monster.number))
        return self


class EncounterCard(Card):
    """An encounter card type; an encounter never spends time."""

    group: str = ""
    spend: Resources = None
    gain: Resources = None
    time: int = Field(ge=0, le=9)
    commit: bool = False
    copies: int = Field(1, ge=1, le=10)

    @field_validator("spend")
    @classmethod
    def _no_time(cls, spend: dict[str, int] | None) -> dict[str, int] | None:
        if spend and "time" in spend:
            raise Invalid("an encounter's time is its time value, not a spend", "time")
        return spend

    def _record(self) -> Encounter:
        return Encounter(self.name, _bag(self.spend), _bag(self.gain), self.time, self.commit, self.copies)


class EncountersFile(Record):
    """encounters.yaml: 88 cards in total (the sum of `copies`)."""

    encounters: Annotated[list[EncounterCard], UniqueNames]

    @model_validator(mode="after")
    def _deck_of_88(self) -> EncountersFile:
        total = sum(encounter.copies for encounter in self.encounters)
        if total != ENCOUNTER_CARDS:
            raise Invalid(f"the encounter deck has {ENCOUNTER_CARDS} cards, these entries make {total}", "encounters")
        return self


class WoundBonus(Record):
    """`wound_bonus: {kind, amount}`: weapon wound attacks of that kind inflict `amount` more."""

    kind: Literal["basic", "advanced", "any"]
    amount: int = Field(ge=1, le=5)


class PassiveSpec(KeyedRecord):
    """PASSIVES: any of these keys."""

    reveal_bonus: Small = UNSET
    skill_reveal_bonus: Small = UNSET
    rest_bonus: Small = UNSET
    food_requirement: Small = UNSET
    ignore: list[MonsterEffectName] = UNSET
    wound_bonus: WoundBonus = UNSET
    scout_discount: bool = UNSET

    def _record(self) -> dict[str, Any]:
        passive = self.given()
        if "ignore" in passive:
            passive["ignore"] = tuple(self.ignore)
        if "wound_bonus" in passive:
            passive["wound_bonus"] = (self.wound_bonus.kind, self.wound_bonus.amount)
        return passive


PASSIVES: tuple[str, ...] = tuple(PassiveSpec.model_fields)


class ReactionSpec(Record):
    """A reaction: after a monster's combat roll, pay `cost` to add `roll_modifier` (not 0) to the roll."""

    cost: Resources = None
    roll_modifier: int = Field(ge=-3, le=3)

    @field_validator("roll_modifier")
    @classmethod
    def _not_zero(cls, modifier: int) -> int:
        if modifier == 0:
            raise ValueError("must not be 0")
        return modifier


class SkillCard(Card):
    """A skill card: exactly one of passive / action / reaction."""

    passive: PassiveSpec = UNSET
    action: ActionSpec = UNSET
    reaction: ReactionSpec = UNSET

    @model_validator(mode="after")
    def _one_kind(self) -> SkillCard:
        if len(self.model_fields_set & {"passive", "action", "reaction"}) != 1:
            raise ValueError("a skill has exactly one of passive / action / reaction")
        return self

    def _record(self) -> Skill:
        passive = {} if self.passive is None else self.passive._record()
        action = None if self.action is None else self.action._card(self.name)
        if self.reaction is None:
            return Skill(self.name, passive, action, None, 0, self.text)
        return Skill(self.name, passive, action, _bag(self.reaction.cost), self.reaction.roll_modifier, self.text)


class SkillsFile(Record):
    """skills.yaml: exactly 24 skill cards."""

    skills: Annotated[list[SkillCard], Field(min_length=24, max_length=24), UniqueNames]


class TitleSpec(Record):
    """A title and the lowest score that earns it."""

    name: Name
    min_score: int = Field(ge=0)


class DifficultySpec(Record):
    """One difficulty setting (Appendix D)."""

    starting_small_effort: int = Field(ge=0)
    monster_first: bool
    bonus_resource: bool
    bonus_skill: bool


class GainAction(Record):
    """Focus, Inspiration, Plan: pay `cost`, gain `gain`."""

    timing: Timing = "any"
    cost: Resources
    gain: Resources

    def _card(self, name: str) -> ActionCard:
        return ActionCard(name, self.timing, _bag(self.cost), (("gain", _bag(self.gain)),), False)


class ScoutSpec(Record):
    """Scout: reveal this level's monster, at a cost that depends on the level."""

    timing: Timing = "travel"
    cost_by_level: Annotated[dict[Level, Resources], required_keys(*LEVELS)]


class OrienteerSpec(Record):
    """Orienteer: pay `cost`; the next exploration reveals `reveal_bonus` more cards."""

    timing: Timing = "travel"
    cost: Resources
    reveal_bonus: int = Field(ge=1, le=5)


class GeneralActionsSpec(Record):
    """The general actions sheet."""

    focus: GainAction
    inspiration: GainAction
    plan: GainAction
    scout: ScoutSpec
    orienteer: OrienteerSpec


class DisplayFile(Record):
    """display.yaml: bars, time skulls, score table, titles, difficulties, general actions."""

    bar_maximum: Annotated[dict[Resource, Annotated[int, Field(ge=1, le=99)]], required_keys(*RESOURCES)]
    time_skull: Annotated[dict[Level, Annotated[int, Field(ge=1)]], required_keys(*LEVELS)]
    starting_small_effort: int | None = Field(None, ge=0)
    score_points: dict[Resource, Annotated[int, Field(ge=0, le=99)]]
    titles: list[TitleSpec] = Field(min_length=6, max_length=6)
    difficulty: Annotated[
        dict[Literal["easy", "normal", "hard"], DifficultySpec], required_keys("easy", "normal", "hard")
    ]
    easy_bonus_resource: Annotated[dict[DieFace, Resource], required_keys(*get_args(DieFace))]
    general_actions: GeneralActionsSpec
    exploration_reveal: int = Field(ge=1, le=4)
    skill_reveal: int = Field(ge=1, le=4)

    @model_validator(mode="after")
    def _within_the_bars(self) -> DisplayFile:
        for level, time in self.time_skull.items():
            if time > self.bar_maximum["time"]:
                raise Invalid(f"{time} is outside [1, {self.bar_maximum['time']}] (the time bar)", "time_skull", level)
        for name, setting in self.difficulty.items():
            if setting.starting_small_effort > self.bar_maximum["small_effort"]:
                message = f"{setting.starting_small_effort} is outside [0, {self.bar_maximum['small_effort']}]"
                raise Invalid(f"{message} (the small effort bar)", "difficulty", name, "starting_small_effort")
        return self

    def _record(self) -> Display:
        general = self.general_actions
        resources: tuple[Resource, ...] = get_args(Resource)  # Literal-typed, to index the dicts above
        levels: tuple[Level, ...] = get_args(Level)
        return Display(
            bar_maximum=tuple(self.bar_maximum[r] for r in resources),
            time_skull={level: self.time_skull[level] for level in levels},
            score_points=tuple(self.score_points.get(r, 0) for r in resources),
            titles=tuple((title.name, title.min_score) for title in self.titles),
            difficulty={name: setting.model_dump() for name, setting in self.difficulty.items()},
            easy_bonus_resource={face: RESOURCE_INDEX[self.easy_bonus_resource[face]] for face in get_args(DieFace)},
            general=GeneralActions(
                focus=general.focus._card("focus"),
                inspiration=general.inspiration._card("inspiration"),
                plan=general.plan._card("plan"),
                scout_cost_by_level={level: _bag(general.scout.cost_by_level[level]) for level in levels},
                orienteer_cost=_bag(general.orienteer.cost),
                orienteer_reveal_bonus=general.orienteer.reveal_bonus,
            ),
            exploration_reveal=self.exploration_reveal,
            skill_reveal=self.skill_reveal,
        )


# ============================================================================================ loading
def load_display(directory: Path | None = None) -> Display:
    """Load and check display.yaml."""
    return load_document(DisplayFile, PACKAGE, "display.yaml", directory)._record()


_SHIPPED_CARDS: list[CardSet] = []


def load_cards(directory: str | Path | None = None) -> CardSet:
    """Load every Unbroken component from the package data (or a user's directory of the same files).

    The shipped cards are parsed once per process (a CardSet is immutable); a user's directory is read every call.
    """
    if directory is None:
        if not _SHIPPED_CARDS:
            _SHIPPED_CARDS.append(_load_cards(None))
        return _SHIPPED_CARDS[0]
    return _load_cards(Path(directory))


def _load_cards(directory: Path | None) -> CardSet:
    display = load_display(directory)
    conditions = load_document(ConditionsFile, PACKAGE, "conditions.yaml", directory).conditions
    index = {condition.name: i for i, condition in enumerate(conditions)}
    weapons = load_document(WeaponsFile, PACKAGE, "weapons.yaml", directory)._records()
    characters = load_document(CharactersFile, PACKAGE, "characters.yaml", directory).characters
    monsters = load_document(MonstersFile, PACKAGE, "monsters.yaml", directory, {"conditions": index}).monsters
    encounters = load_document(EncountersFile, PACKAGE, "encounters.yaml", directory).encounters
    skills = load_document(SkillsFile, PACKAGE, "skills.yaml", directory).skills
    return CardSet(
        display=display,
        characters=tuple(character._record() for character in characters),
        weapons=weapons,
        monsters=tuple(monster._record(index) for monster in monsters),
        encounters=tuple(encounter._record() for encounter in encounters),
        skills=tuple(skill._record() for skill in skills),
        conditions=tuple(condition._record() for condition in conditions),
    )


__all__ = ["CardSet", "DataError", "load_cards"]
