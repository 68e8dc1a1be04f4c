"""Unbroken card content: the records the rules read, validated straight from data/*.yaml (schema: CONTENT.md).

Each record is declared once, as a frozen dataclass that pydantic validates from the YAML (envs.core.data.DataRecord):
its fields carry their bounds, and a field the YAML writes in another form says how it is read (`Written`: a resource
mapping becomes a Bag, a list of effect mappings becomes (kind, argument) pairs). A card file is a list of named cards
(envs.core.data.load_named_list: the count, unique names, the file's own rules such as one monster per level and
number); the first problem becomes a DataError naming the file, the card and the field.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar, get_args

from pydantic import (
    ConfigDict,
    Discriminator,
    Field,
    ModelWrapValidatorHandler,
    Tag,
    ValidationInfo,
    field_validator,
    model_validator,
    with_config,
)
from typing_extensions import TypedDict

from envs.core.data import (
    UNSET,
    DataError,
    DataRecord,
    Entries,
    KeyedRecord,
    NamedList,
    NotZero,
    OneKey,
    Record,
    derived,
    load_content,
    load_document,
    load_named_list,
    required_keys,
    set_derived,
    sibling_entry,
    written_keys,
)
from envs.core.schema import Invalid, Written
from envs.unbroken.presets import DIFFICULTIES, Difficulty

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
DIE_FACES: tuple[int, ...] = get_args(DieFace)
MONSTERS_PER_LEVEL = 6
ENCOUNTER_CARDS = 88
CHARACTERS = 4
WEAPONS = 7
SKILL_CARDS = 24
CONDITION_CARDS = 10

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
# ACTION_EFFECTS, PASSIVES and CONDITION_MODIFIERS are the field names of the written forms below.


# ============================================================================================ written forms
Name = Annotated[str, Field(min_length=1)]
Resources = dict[Resource, Annotated[int, Field(ge=1, le=99)]] | None
"""A resource bag as written in YAML: {resource: 1..99}; null or omitted for nothing."""
Count = Annotated[int, Field(ge=1, le=10)]
Small = Annotated[int, Field(ge=-5, le=5)]


def _bag(resources: Mapping[Resource, int] | None) -> Bag:
    return tuple(sorted((RESOURCE_INDEX[name], amount) for name, amount in (resources or {}).items()))


def _bag_or_none(resources: Mapping[Resource, int] | None) -> Bag | None:
    return None if resources is None else _bag(resources)


Cost = Annotated[Bag, Written(Resources, _bag)]
"""A resource bag, written as Resources."""


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

    def effect(self) -> Effect:
        """The (kind, argument) pair the rules read."""
        kind, value = self.item()
        return kind, _bag(value) if kind == "gain" else value


ACTION_EFFECTS: tuple[str, ...] = tuple(ActionEffect.model_fields)


def _action_effects(effects: list[ActionEffect]) -> tuple[Effect, ...]:
    return tuple(effect.effect() for effect in effects)


ActionEffects = Annotated[tuple[Effect, ...], Written(list[ActionEffect], _action_effects)]


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

    def effect(self, conditions: Mapping[str, int]) -> Effect:
        """The (kind, argument) pair the rules read; a condition is named by its index in `conditions`."""
        kind, value = self.item()
        if kind == "lose":
            return kind, _bag(value)
        if kind == "condition":
            return kind, (conditions[value.name], value.when, -1 if value.rounds is None else value.rounds)
        if kind == "downgrade_weapon":
            return kind, 0 if value == "permanent" else value.rounds
        return kind, value


def _monster_effects(effects: list[MonsterEffect] | None, context: Mapping[str, Any]) -> tuple[Effect, ...] | None:
    return None if effects is None else tuple(effect.effect(context["conditions"]) for effect in effects)


MonsterEffects = Annotated[tuple[Effect, ...], Written(list[MonsterEffect], _monster_effects, context=True)]
"""Monster effects; validated with the context {"conditions": {condition name: index}}."""


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

    def modifiers(self) -> dict[str, Any]:
        """The modifiers written, a resource bag as a Bag."""
        return {key: value if isinstance(value, int) else _bag(value) for key, value in self.given().items()}


CONDITION_MODIFIERS: tuple[str, ...] = tuple(ConditionModifiers.model_fields)


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

    def passive(self) -> dict[str, Any]:
        """The passives written; `ignore` as a tuple, `wound_bonus` as (kind, amount)."""
        passive = self.given()
        if "ignore" in passive:
            passive["ignore"] = tuple(self.ignore)
        if "wound_bonus" in passive:
            passive["wound_bonus"] = (self.wound_bonus.kind, self.wound_bonus.amount)
        return passive


PASSIVES: tuple[str, ...] = tuple(PassiveSpec.model_fields)


def _or_empty(mapping: dict[str, int] | None) -> dict[str, int]:
    return {} if mapping is None else mapping


# ============================================================================================ records
@dataclass(frozen=True, kw_only=True, slots=True)
class ActionCard(DataRecord):
    """An activatable ability (character, skill or monster special): timing, cost, effects.

    Unnamed in the YAML, it takes a name from the card it is on (`ability 0`, the skill's or the special's name).
    """

    name: Annotated[str, Written(Name | None, lambda name: name or "")] = ""
    timing: Timing = "combat"
    cost: Cost = ()
    effects: ActionEffects
    once_per_level: bool = False


def _named(card: ActionCard, name: str) -> ActionCard:
    """`card`, named `name` unless the YAML named it."""
    return card if card.name else dataclasses.replace(card, name=name)


def _numbered(abilities: list[ActionCard]) -> tuple[ActionCard, ...]:
    return tuple(_named(ability, f"ability {j}") for j, ability in enumerate(abilities))


@dataclass(frozen=True, kw_only=True, slots=True)
class Character(DataRecord):
    """A character sheet with its ability bar abilities (1 or 2)."""

    name: Name
    text: str = ""
    abilities: Annotated[
        tuple[ActionCard, ...], Written(Annotated[list[ActionCard], Field(min_length=1, max_length=2)], _numbered)
    ]


@dataclass(frozen=True, kw_only=True, slots=True)
class Attack(DataRecord):
    """One way a weapon turns effort into wounds or broken armor: exactly one of wounds / break_armor."""

    cost: Cost
    wounds: Annotated[int, Field(ge=0, le=10)] = 0
    break_armor: Annotated[int, Field(ge=0, le=10)] = 0
    ignore_armor: bool = False

    @model_validator(mode="wrap")
    @classmethod
    def _wounds_or_break_armor(cls, data: Any, handler: ModelWrapValidatorHandler[Attack]) -> Attack:
        attack = handler(data)
        if len(written_keys(data) & {"wounds", "break_armor"}) != 1:
            raise ValueError("exactly one of wounds / break_armor")
        return attack


@dataclass(frozen=True, kw_only=True, slots=True)
class Upgrade(DataRecord):
    """A craft option: pay `cost` and `time` to lay weapon `to` (written as its name) on top of this one."""

    to: Annotated[int, sibling_entry("weapon")]
    cost: Cost
    time: Annotated[int, Field(ge=0, le=5)] = 0


def _upgrades(upgrades: tuple[Upgrade, ...] | None) -> tuple[Upgrade, ...]:
    return () if upgrades is None else upgrades


@dataclass(frozen=True, kw_only=True, slots=True)
class Weapon(DataRecord):
    """A weapon sheet."""

    name: Name
    text: str = ""
    kind: Literal["basic", "advanced"]
    attacks: Annotated[Entries[Attack], Field(min_length=1, max_length=3)]
    upgrades: Annotated[
        tuple[Upgrade, ...], Written(Annotated[Entries[Upgrade], Field(max_length=2)] | None, _upgrades)
    ] = ()


@dataclass(frozen=True, kw_only=True, slots=True)
class CombatRow(DataRecord):
    """One row of a monster's combat action table; `alt` is the bracketed alternative."""

    effects: MonsterEffects
    alt: Annotated[tuple[Effect, ...] | None, Written(list[MonsterEffect] | None, _monster_effects, context=True)] = (
        None
    )


@dataclass(frozen=True, kw_only=True, slots=True)
class MonsterSpecial(DataRecord):
    """A monster's special: modifiers and/or a combat action the player may take against this monster only."""

    name: Name
    text: str = ""
    modifiers: Annotated[
        dict[str, int], Written(dict[MonsterModifier, Annotated[int, Field(ge=-5, le=10)]] | None, _or_empty)
    ] = field(default_factory=dict)
    action: ActionCard | None = None

    @model_validator(mode="after")
    def _action_named(self) -> MonsterSpecial:
        return _action_named_after(self)


@dataclass(frozen=True, kw_only=True, slots=True)
class Monster(DataRecord):
    """A monster sheet (level IV monsters cannot be tricked); its special is also read flat (special_...)."""

    name: Name
    text: str = ""
    level: Annotated[int, Field(ge=1, le=4)]
    number: Annotated[int, Field(ge=1, le=MONSTERS_PER_LEVEL)]
    health: Annotated[int, Field(ge=1, le=30)]
    armor: Annotated[int, Field(ge=0, le=10)]
    trickery: Annotated[Bag | None, Written(Resources, _bag_or_none)] = None
    """The price of tricking it; None: it cannot be tricked."""
    ambush: Annotated[
        tuple[Effect, ...] | None, Written(list[MonsterEffect] | None, _monster_effects, context=True)
    ] = None
    attack_extra_cost: Cost = ()
    special: MonsterSpecial | None = None
    combat: Annotated[Entries[CombatRow], Field(min_length=6, max_length=6)]
    rewards: Cost
    special_name: str | None = derived()
    special_text: str = derived()
    modifiers: dict[str, int] = derived()
    special_action: ActionCard | None = derived()

    def __post_init__(self) -> None:
        special = self.special
        set_derived(
            self,
            special_name=None if special is None else special.name,
            special_text="" if special is None else special.text,
            modifiers={} if special is None else special.modifiers,
            special_action=None if special is None else special.action,
        )

    @model_validator(mode="after")
    def _level_four_cannot_be_tricked(self) -> Monster:
        if self.level == 4 and self.trickery is not None:
            raise Invalid("level IV monsters cannot be tricked (must be null)", "trickery")
        return self


@dataclass(frozen=True, kw_only=True, slots=True)
class Encounter(DataRecord):
    """An encounter card type (with its number of copies in the deck); an encounter never spends time."""

    name: Name
    text: str = ""
    group: str = ""
    spend: Cost = ()
    gain: Cost = ()
    time: Annotated[int, Field(ge=0, le=9)]
    commit: bool = False
    copies: Annotated[int, Field(ge=1, le=10)] = 1

    @field_validator("spend")
    @classmethod
    def _no_time(cls, spend: Bag) -> Bag:
        if any(resource == TIME for resource, _ in spend):
            raise Invalid("an encounter's time is its time value, not a spend", "time")
        return spend


@dataclass(frozen=True, kw_only=True, slots=True)
class Reaction(DataRecord):
    """A reaction: after a monster's combat roll, pay `cost` to add `roll_modifier` (not 0) to the roll."""

    cost: Cost = ()
    roll_modifier: Annotated[int, Field(ge=-3, le=3), NotZero]


@dataclass(frozen=True, kw_only=True, slots=True)
class Skill(DataRecord):
    """A skill card: exactly one of passive, action or reaction (the reaction is also read flat, reaction_...)."""

    name: Name
    text: str = ""
    """The card's words, for people (the text view and the picture)."""
    passive: Annotated[dict[str, Any], Written(PassiveSpec, PassiveSpec.passive)] = field(default_factory=dict)
    action: Annotated[ActionCard | None, Written(ActionCard)] = None
    reaction: Annotated[Reaction | None, Written(Reaction)] = None
    reaction_cost: Bag | None = derived()
    reaction_roll_modifier: int = derived()

    def __post_init__(self) -> None:
        reaction = self.reaction
        set_derived(
            self,
            reaction_cost=None if reaction is None else reaction.cost,
            reaction_roll_modifier=0 if reaction is None else reaction.roll_modifier,
        )

    @model_validator(mode="wrap")
    @classmethod
    def _one_kind(cls, data: Any, handler: ModelWrapValidatorHandler[Skill]) -> Skill:
        skill = handler(data)
        if len(written_keys(data) & {"passive", "action", "reaction"}) != 1:
            raise ValueError("a skill has exactly one of passive / action / reaction")
        return _action_named_after(skill)


CardWithAction = TypeVar("CardWithAction", MonsterSpecial, Skill)


def _action_named_after(card: CardWithAction) -> CardWithAction:
    """`card`, its action named after it unless the YAML named the action."""
    if card.action is None or card.action.name:
        return card
    return dataclasses.replace(card, action=_named(card.action, card.name))


@dataclass(frozen=True, kw_only=True, slots=True)
class Condition(DataRecord):
    """A condition card with its modifiers."""

    name: Name
    text: str = ""
    """The card's words, for people (the text view and the picture)."""
    modifiers: Annotated[dict[str, Any], Written(ConditionModifiers, ConditionModifiers.modifiers)]


class GainAction(Record):
    """Focus, Inspiration, Plan as written: pay `cost`, gain `gain`."""

    timing: Timing = "any"
    cost: Resources
    gain: Resources

    def card(self, name: str) -> ActionCard:
        """The action as the rules read it."""
        return ActionCard(name=name, timing=self.timing, cost=_bag(self.cost), effects=(("gain", _bag(self.gain)),))


def _by_level(values: Mapping[int, Any]) -> dict[int, Any]:
    return {level: values[level] for level in LEVELS}


@dataclass(frozen=True, kw_only=True, slots=True)
class Scout(DataRecord):
    """Scout: reveal this level's monster, at a cost that depends on the level."""

    timing: Timing = "travel"
    cost_by_level: Annotated[dict[int, Bag], Written(Annotated[dict[Level, Cost], required_keys(*LEVELS)], _by_level)]


@dataclass(frozen=True, kw_only=True, slots=True)
class Orienteer(DataRecord):
    """Orienteer: pay `cost`; the next exploration reveals `reveal_bonus` more cards."""

    timing: Timing = "travel"
    cost: Cost
    reveal_bonus: Annotated[int, Field(ge=1, le=5)]


@dataclass(frozen=True, kw_only=True, slots=True)
class GeneralActions(DataRecord):
    """The general actions sheet; Scout's and Orienteer's numbers are also read flat."""

    focus: Annotated[ActionCard, Written(GainAction, lambda action: action.card("focus"))]
    inspiration: Annotated[ActionCard, Written(GainAction, lambda action: action.card("inspiration"))]
    plan: Annotated[ActionCard, Written(GainAction, lambda action: action.card("plan"))]
    scout: Scout
    orienteer: Orienteer
    scout_cost_by_level: dict[int, Bag] = derived()
    orienteer_cost: Bag = derived()
    orienteer_reveal_bonus: int = derived()

    def __post_init__(self) -> None:
        set_derived(
            self,
            scout_cost_by_level=self.scout.cost_by_level,
            orienteer_cost=self.orienteer.cost,
            orienteer_reveal_bonus=self.orienteer.reveal_bonus,
        )


@with_config(ConfigDict(extra="forbid", strict=True))
class DifficultySetting(TypedDict):
    """One difficulty setting (Appendix D), read by key (`game.setting["monster_first"]`)."""

    starting_small_effort: Annotated[int, Field(ge=0)]
    monster_first: bool
    bonus_resource: bool
    bonus_skill: bool


class Title(Record):
    """A title and the lowest score that earns it."""

    name: Name
    min_score: int = Field(ge=0)


def _per_resource(amounts: Mapping[str, int]) -> tuple[int, ...]:
    return tuple(amounts.get(resource, 0) for resource in RESOURCES)


def _titles(titles: list[Title]) -> tuple[tuple[str, int], ...]:
    return tuple((title.name, title.min_score) for title in titles)


def _resource_by_face(resources: Mapping[int, str]) -> dict[int, int]:
    return {face: RESOURCE_INDEX[resources[face]] for face in DIE_FACES}


@dataclass(frozen=True, kw_only=True, slots=True)
class Display(DataRecord):
    """display.yaml: bars, time skulls, score table, titles, difficulty settings, general actions."""

    bar_maximum: Annotated[
        tuple[int, ...],
        Written(
            Annotated[dict[Resource, Annotated[int, Field(ge=1, le=99)]], required_keys(*RESOURCES)], _per_resource
        ),
    ]
    """By resource index."""
    time_skull: Annotated[
        dict[int, int], Written(Annotated[dict[Level, Annotated[int, Field(ge=1)]], required_keys(*LEVELS)], _by_level)
    ]
    starting_small_effort: Annotated[int, Field(ge=0)] | None = None
    """Unused: the difficulty settings give it."""
    score_points: Annotated[tuple[int, ...], Written(dict[Resource, Annotated[int, Field(ge=0, le=99)]], _per_resource)]
    """By resource index (0 for a resource the YAML leaves out)."""
    titles: Annotated[
        tuple[tuple[str, int], ...], Written(Annotated[list[Title], Field(min_length=6, max_length=6)], _titles)
    ]
    """(name, lowest score) pairs."""
    difficulty: Annotated[dict[Difficulty, DifficultySetting], required_keys(*DIFFICULTIES)]
    easy_bonus_resource: Annotated[
        dict[int, int], Written(Annotated[dict[DieFace, Resource], required_keys(*DIE_FACES)], _resource_by_face)
    ]
    """d6 face -> resource index."""
    general: Annotated[GeneralActions, Field(validation_alias="general_actions")]
    exploration_reveal: Annotated[int, Field(ge=1, le=4)]
    skill_reveal: Annotated[int, Field(ge=1, le=4)]

    @model_validator(mode="after")
    def _within_the_bars(self) -> Display:
        for level, time in self.time_skull.items():
            if time > self.bar_maximum[TIME]:
                raise Invalid(f"{time} is outside [1, {self.bar_maximum[TIME]}] (the time bar)", "time_skull", level)
        for name, setting in self.difficulty.items():
            if setting["starting_small_effort"] > self.bar_maximum[SMALL_EFFORT]:
                message = f"{setting['starting_small_effort']} is outside [0, {self.bar_maximum[SMALL_EFFORT]}]"
                raise Invalid(f"{message} (the small effort bar)", "difficulty", name, "starting_small_effort")
        return self


@dataclass(frozen=True)
class CardSet:
    """Every component of the game, as loaded and cross-checked; each card file's cards in the file's order."""

    display: Display
    characters: NamedList[Character]
    weapons: NamedList[Weapon]
    monsters: NamedList[Monster]
    encounters: NamedList[Encounter]
    skills: NamedList[Skill]
    conditions: NamedList[Condition]

    def monster_index(self, level: int, number: int) -> int:
        """Index of the monster of `level` with d6 number `number`."""
        return self._monster_lookup[(level, number)]

    @functools.cached_property
    def _monster_lookup(self) -> dict[tuple[int, int], int]:
        return {(monster.level, monster.number): index for index, monster in enumerate(self.monsters)}


# ============================================================================================ the files' own rules
def _bare_hands_first(weapons: Sequence[Weapon]) -> None:
    """weapons.yaml: Bare Hands first, and never an upgrade's target."""
    bare_hands = weapons[0].name
    if bare_hands != "Bare Hands":
        raise Invalid("the first weapon must be Bare Hands", 0, "name")
    for i, weapon in enumerate(weapons):
        for j, upgrade in enumerate(weapon.upgrades):
            if upgrade.to == 0:
                raise Invalid(f"unknown weapon {bare_hands!r}", i, "upgrades", j, "to")


def _one_per_level_and_number(monsters: Sequence[Monster]) -> None:
    """monsters.yaml: one monster numbered 1..6 on each level I..IV (24 sheets, no slot twice: every slot filled)."""
    seen: set[tuple[int, int]] = set()
    for i, monster in enumerate(monsters):
        if (monster.level, monster.number) in seen:
            message = f"a second level {monster.level} monster numbered {monster.number} (need one per number 1..6)"
            raise Invalid(message, i, "number")
        seen.add((monster.level, monster.number))


def _deck_of_88(encounters: Sequence[Encounter]) -> None:
    """encounters.yaml: 88 cards in total (the sum of `copies`)."""
    total = sum(encounter.copies for encounter in encounters)
    if total != ENCOUNTER_CARDS:
        raise Invalid(f"the encounter deck has {ENCOUNTER_CARDS} cards, these entries make {total}")


# ============================================================================================ loading
def load_cards(directory: str | Path | None = None) -> CardSet:
    """Load every Unbroken component from the package data (or a user's directory of the same files)."""
    return load_content(_load_cards, directory)


def _load_cards(directory: Path | None) -> CardSet:
    display = load_document(Display, PACKAGE, "display.yaml", directory)
    conditions = load_named_list(Condition, PACKAGE, "conditions.yaml", directory, count=CONDITION_CARDS)
    return CardSet(
        display=display,
        characters=load_named_list(Character, PACKAGE, "characters.yaml", directory, count=CHARACTERS),
        weapons=load_named_list(Weapon, PACKAGE, "weapons.yaml", directory, count=WEAPONS, check=_bare_hands_first),
        monsters=load_named_list(
            Monster,
            PACKAGE,
            "monsters.yaml",
            directory,
            count=MONSTERS_PER_LEVEL * len(LEVELS),
            check=_one_per_level_and_number,
            context={"conditions": conditions.indices},
        ),
        encounters=load_named_list(
            Encounter, PACKAGE, "encounters.yaml", directory, count=(0, None), check=_deck_of_88
        ),
        skills=load_named_list(Skill, PACKAGE, "skills.yaml", directory, count=SKILL_CARDS),
        conditions=conditions,
    )


__all__ = ["CardSet", "DataError", "load_cards"]
