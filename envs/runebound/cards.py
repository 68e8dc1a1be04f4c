"""Runebound combat content: the records the rules read, validated straight from data/*.yaml (provenance: CONTENT.md).

Each record is declared once, as a frozen dataclass that pydantic validates from the YAML (envs.core.data.DataRecord);
a field the YAML writes in another form says how it is read (`Written`: a face written "physical 2 gold" becomes a
`Face`, a symbol's name its `Symbol`). Each file is a list of named entries (envs.core.data.load_named_list: unique
names, looked up by name); `load_runebound_cards` then checks what spans files (a hero's token and weapon names, an
enemy's trait, the symbols a trait's board has spaces for) and reports the first problem as a DataError naming the
file, the entry and the field.

Files: tokens.yaml (every combat token: the heroes', the weapons', the four trait sets'), traits.yaml (each trait's
token set and combat board), enemies.yaml, heroes.yaml, weapons.yaml.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal, get_args

from pydantic import Field, model_validator

from envs.core.data import (
    DataError,
    DataRecord,
    Entries,
    KindRecord,
    NamedList,
    UniqueNames,
    data_file,
    load_content,
    load_named_list,
    referenced,
)
from envs.core.schema import Invalid, Written
from envs.runebound.symbols import (
    ENEMY,
    ENEMY_ONLY,
    HERO,
    HERO_ONLY,
    SYMBOL_BY_NAME,
    SYMBOL_NAMES,
    Symbol,
    face_text,
    parse_face_text,
    spendable_by,
)

PACKAGE = "envs.runebound"

MAX_HERO_TOKENS = 6
"""Most tokens a hero casts: the hero's own and one per weapon carried (the action space is sized for it)."""
MAX_ENEMY_TOKENS = 6
"""A trait's token set: "This expansion contains a six-token set for the Mystic trait ..."."""
ENEMY_BASE_TOKENS = 4
"""An enemy casts the first 4 + Act tokens of its trait's set (public facts: 5 in Act I, 6 in Act II)."""
ACTS = ("I", "II")
"""The two Acts of the time track, as the kwargs and data write them (Act k is the k-th)."""
MAX_HERO_ABILITIES = 3
"""Most abilities a hero has (the action space has one id per ability slot)."""
MAX_ENEMY_ABILITIES = 4
"""Most abilities an enemy card has (observation slots)."""
MAX_SPACES = 7
"""Most spaces on a combat board (one per symbol an enemy can show, blank excepted)."""
MAX_HEALTH = 20
"""Bound on a hero's or an enemy's health (content is checked against it; observations divide by it)."""

Name = Annotated[str, Field(min_length=1)]
Text = Annotated[str, Field(min_length=1)]
Amount = Annotated[int, Field(ge=1, le=9)]


def _symbol(name: str) -> Symbol:
    if name not in SYMBOL_BY_NAME:
        raise ValueError(f"unknown symbol {name!r} (symbols: {', '.join(SYMBOL_NAMES)})")
    return SYMBOL_BY_NAME[name]


SymbolField = Annotated[Symbol, Written(str, _symbol)]
"""A symbol, written by its name ("surge")."""


@dataclass(frozen=True, slots=True)
class Face:
    """One face of a token: its symbol, its value (1 for the symbols printed without a number, 0 for a blank) and
    whether it has a gold rim (which counts for initiative)."""

    symbol: Symbol
    value: int
    gold: bool

    @property
    def text(self) -> str:
        """The face as state dicts write it ("physical 2"; the rim is not part of it)."""
        return face_text(self.symbol, self.value)

    def __str__(self) -> str:
        return f"{self.text} (gold)" if self.gold else self.text


def _faces(written: Sequence[str]) -> tuple[Face, Face]:
    faces = []
    for text in written:
        symbol, value, gold = parse_face_text(text)
        faces.append(Face(symbol, value, gold))
    if faces[0].text == faces[1].text:
        raise ValueError(f"a token's two faces show different symbols or numbers, got {list(written)}")
    return faces[0], faces[1]


@dataclass(frozen=True, kw_only=True, slots=True)
class Token(DataRecord):
    """A two-sided combat token; its faces are written "<symbol> [<number>] [gold]" ("skull 2", "surge 1 gold")."""

    name: Name
    faces: Annotated[tuple[Face, Face], Written(Annotated[list[str], Field(min_length=2, max_length=2)], _faces)]


EffectKind = Literal[
    "damage",
    "heal",
    "reflect",
    "remove_shields",
    "remove_token",
    "recast_spent",
    "silence",
    "barrier",
    "flip_foe",
    "recast_foe",
    "prevent_flip",
]
EFFECT_KINDS: tuple[str, ...] = get_args(EffectKind)
EFFECT_PARAMETERS: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "damage": (("amount",), ("damage", "unblockable")),
    "heal": (("amount",), ()),
    "reflect": ((), ()),
    "remove_shields": ((), ()),
    "remove_token": (("symbol",), ()),
    "recast_spent": ((), ()),
    "silence": ((), ()),
    "barrier": (("amount",), ()),
    "flip_foe": ((), ()),
    "recast_foe": ((), ()),
    "prevent_flip": ((), ()),
}
"""Effect kind -> (required parameters, optional parameters); no other parameter may be written (RULES.md,
"Abilities", says what each kind does)."""
HERO_CHOICE_FREE = frozenset(EFFECT_KINDS) - {"remove_token", "recast_spent", "flip_foe", "recast_foe"}
"""Effect kinds a hero's ability may have: those that pick no token (a hero's choices are the action ids)."""
DAMAGE_KINDS = (Symbol.PHYSICAL, Symbol.MAGIC, Symbol.SKULL)


def _damage_kind(name: str) -> Symbol:
    symbol = _symbol(name)
    if symbol not in DAMAGE_KINDS:
        raise ValueError(f"damage is physical, magic or skull, got {name!r}")
    return symbol


@dataclass(frozen=True, kw_only=True, slots=True)
class Effect(KindRecord):
    """What an ability does, read by `kind` (EFFECT_PARAMETERS); parameters the kind does not take are neutral."""

    KIND_PARAMETERS = EFFECT_PARAMETERS

    kind: EffectKind
    amount: Annotated[int, Field(ge=0, le=9)] = 0
    damage: Annotated[Symbol, Written(str, _damage_kind)] = Symbol.SKULL
    """The kind of damage dealt (physical, magic or skull; shields block each alike)."""
    unblockable: bool = False
    symbol: SymbolField | None = None
    """The symbol of the foe's token a `remove_token` takes."""

    def check_kind(self) -> None:
        """A damage, heal or barrier effect has an amount of at least 1."""
        if self.kind in ("damage", "heal", "barrier") and self.amount < 1:
            raise Invalid(f"a {self.kind} effect has an amount of at least 1", "amount")


@dataclass(frozen=True, kw_only=True, slots=True)
class Cost(DataRecord):
    """What an ability spends: symbols worth `amount` of `symbol` (surges add their numbers), or with `tokens` that
    many tokens showing `symbol` ("remove 2 of your [physical] tokens")."""

    symbol: SymbolField
    amount: Amount
    tokens: bool = False


Timing = Literal["action", "prevent_flip"]
"""When an ability is used: as a combat action (a hero's; an enemy's on its board), or in response to the foe's
attempt to flip one of its tokens."""


@dataclass(frozen=True, kw_only=True, slots=True)
class HeroAbility(DataRecord):
    """A hero's combat ability: its cost, when it is used, its effect; once per combat round unless stated."""

    name: Name
    timing: Timing = "action"
    cost: Cost
    effect: Effect
    once_per_round: bool = True
    exert: bool = False
    """The text says "exert" (RULES.md, "Exert": the combat holds no skill cards, so it costs nothing more here)."""
    text: Text

    @model_validator(mode="after")
    def _hero_effects(self) -> HeroAbility:
        if self.effect.kind not in HERO_CHOICE_FREE:
            raise Invalid(f"a hero's ability picks no token: kinds are {sorted(HERO_CHOICE_FREE)}", "effect", "kind")
        if (self.timing == "prevent_flip") != (self.effect.kind == "prevent_flip"):
            raise Invalid("timing prevent_flip goes with the effect prevent_flip, and only with it", "timing")
        if self.cost.symbol in ENEMY_ONLY:
            raise Invalid("a hero cannot spend an enemy-only symbol", "cost", "symbol")
        return self


@dataclass(frozen=True, kw_only=True, slots=True)
class EnemyAbility(DataRecord):
    """An ability on an enemy card: a surge ability (cost in surges) or an agility ability (cost in agility)."""

    name: Name
    timing: Timing = "action"
    cost: Cost
    optional: bool = False
    """Written with "may": the enemy triggers it whenever possible (ENEMY CHOICES)."""
    effect: Effect
    text: Text

    @model_validator(mode="after")
    def _enemy_costs(self) -> EnemyAbility:
        if self.cost.symbol not in (Symbol.SURGE, Symbol.AGILITY) or self.cost.tokens:
            raise Invalid("an enemy ability costs surges or agility (by value)", "cost", "symbol")
        if self.timing == "prevent_flip" and (self.cost.symbol != Symbol.AGILITY or self.effect.kind != "prevent_flip"):
            raise Invalid("a prevent_flip ability costs agility and has the effect prevent_flip", "timing")
        if self.timing == "action" and self.effect.kind == "prevent_flip":
            raise Invalid("the effect prevent_flip is used with timing prevent_flip", "effect", "kind")
        if self.effect.kind == "reflect":
            raise Invalid("reflect is a hero's effect", "effect", "kind")
        return self

    @property
    def surge(self) -> bool:
        """Whether it is a surge ability (else an agility ability)."""
        return self.cost.symbol == Symbol.SURGE


Instruction = Literal["damage", "charge", "double", "surge", "copy", "flip_foe", "recast_foe", "block"]
"""What resolving a board space does (RULES.md, "Combat boards"); `block` marks the shields' space, never resolved
as an action (shields are spent in response to damage)."""
INSTRUCTION_SYMBOL: Mapping[str, tuple[Symbol, ...]] = {
    "damage": (Symbol.SKULL,),
    "charge": (Symbol.CHARGE,),
    "double": (Symbol.DOUBLE,),
    "surge": (Symbol.SURGE,),
    "copy": (Symbol.TACTICS,),
    "flip_foe": (Symbol.AGILITY,),
    "recast_foe": (Symbol.AGILITY,),
    "block": (Symbol.SHIELD,),
}
"""The symbol whose tokens a space of each instruction holds."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Space(DataRecord):
    """A space of a combat board: the symbol its tokens show, what resolving it does, an optional "+N" of its symbol,
    and for a double or copy space the symbols it doubles or copies, in order of preference."""

    symbol: SymbolField
    instruction: Instruction
    bonus: Annotated[int, Field(ge=0, le=3)] = 0
    priority: Entries[SymbolField] = ()
    text: Text

    @model_validator(mode="after")
    def _fits_its_instruction(self) -> Space:
        if self.symbol not in INSTRUCTION_SYMBOL[self.instruction]:
            wanted = SYMBOL_NAMES[INSTRUCTION_SYMBOL[self.instruction][0]]
            raise Invalid(f"a {self.instruction} space holds {wanted} tokens", "symbol")
        if self.bonus and self.instruction not in ("damage", "charge"):
            raise Invalid("only a damage or charge space has a +N", "bonus")
        if (self.instruction in ("double", "copy")) != bool(self.priority):
            raise Invalid("a double or copy space (and only one) lists the symbols it prefers", "priority")
        if self.instruction == "copy":
            for index, symbol in enumerate(self.priority):
                if symbol not in (Symbol.SKULL, Symbol.CHARGE, Symbol.AGILITY):
                    raise Invalid("an enemy's tactics copies skull, charge or agility as an action", "priority", index)
        return self


BoardAbilityKind = Literal["shield_bonus", "tactics_block_bonus", "wounded_damage_bonus", "recast_blanks"]


@dataclass(frozen=True, kw_only=True, slots=True)
class BoardAbility(DataRecord):
    """The ability printed under a combat board's title, always resolved against that trait (RULES.md)."""

    name: Name
    kind: BoardAbilityKind
    amount: Annotated[int, Field(ge=0, le=3)] = 0
    text: Text


@dataclass(frozen=True, kw_only=True, slots=True)
class Board(DataRecord):
    """A trait's combat board: its ability and its spaces, resolved from top to bottom."""

    ability: BoardAbility
    spaces: Annotated[Entries[Space], Field(min_length=1, max_length=MAX_SPACES)]

    @model_validator(mode="after")
    def _one_space_per_symbol(self) -> Board:
        seen: list[Symbol] = []
        for index, space in enumerate(self.spaces):
            if space.symbol in seen:
                raise Invalid(f"a second space for {SYMBOL_NAMES[space.symbol]}", "spaces", index, "symbol")
            seen.append(space.symbol)
        return self

    def space_of(self, symbol: Symbol) -> int:
        """The index of the space that holds tokens showing `symbol` (-1: none, a blank)."""
        for index, space in enumerate(self.spaces):
            if space.symbol == symbol:
                return index
        return -1


@dataclass(frozen=True, kw_only=True, slots=True)
class Trait(DataRecord):
    """An enemy trait: its token set (an enemy casts the first 4 + Act of them) and its combat board."""

    name: Name
    tokens: Annotated[Entries[Name], Field(min_length=ENEMY_BASE_TOKENS + 1, max_length=MAX_ENEMY_TOKENS)]
    board: Board
    text: Text


@dataclass(frozen=True, kw_only=True, slots=True)
class Enemy(DataRecord):
    """An enemy card: its name, trait, health and abilities (surge and agility)."""

    name: Name
    trait: Name
    health: Annotated[int, Field(ge=1, le=MAX_HEALTH)]
    abilities: Annotated[Entries[EnemyAbility], Field(max_length=MAX_ENEMY_ABILITIES), UniqueNames]
    text: Text


@dataclass(frozen=True, kw_only=True, slots=True)
class Weapon(DataRecord):
    """A weapon asset: buying it "gives you its combat token"."""

    name: Name
    token: Name
    text: Text


Stat = Annotated[int, Field(ge=0, le=5)]


@dataclass(frozen=True, kw_only=True, slots=True)
class Loadout(DataRecord):
    """The weapons a hero carries into a combat of each Act (designed: the combat env has no market)."""

    act_one: Annotated[Entries[Name], Field(validation_alias="I")] = ()
    """Weapons carried in Act I (written `I`)."""
    act_two: Annotated[Entries[Name], Field(validation_alias="II")] = ()
    """Weapons carried in Act II (written `II`)."""

    def weapons(self, act: int) -> tuple[str, ...]:
        """The weapons carried in Act `act` (1 or 2)."""
        return self.act_one if act == 1 else self.act_two


@dataclass(frozen=True, kw_only=True, slots=True)
class Hero(DataRecord):
    """A hero: health, the three attributes, hand size, the hero's combat tokens and abilities, and a loadout."""

    name: Name
    health: Annotated[int, Field(ge=1, le=MAX_HEALTH)]
    hand_size: Annotated[int, Field(ge=1, le=6)]
    body: Stat
    mind: Stat
    spirit: Stat
    tokens: Annotated[Entries[Name], Field(min_length=1, max_length=MAX_HERO_TOKENS)]
    abilities: Annotated[Entries[HeroAbility], Field(max_length=MAX_HERO_ABILITIES), UniqueNames]
    loadout: Loadout = Loadout()
    text: Text


@dataclass(frozen=True)
class RuneboundCards:
    """Every combat component, loaded and cross-checked; tokens, traits, enemies, heroes and weapons by index."""

    tokens: NamedList[Token]
    traits: NamedList[Trait]
    enemies: NamedList[Enemy]
    heroes: NamedList[Hero]
    weapons: NamedList[Weapon]

    @property
    def token_index(self) -> Mapping[str, int]:
        """Token name -> index."""
        return self.tokens.indices

    @functools.cached_property
    def enemy_trait(self) -> tuple[int, ...]:
        """Each enemy's trait index."""
        return tuple(self.traits.index_of(enemy.trait) for enemy in self.enemies)

    def hero_own_tokens(self, hero: int) -> tuple[int, ...]:
        """The tokens on hero `hero`'s own list (without weapons)."""
        return tuple(self.tokens.index_of(name) for name in self.heroes[hero].tokens)

    def hero_tokens(self, hero: int, act: int) -> tuple[int, ...]:
        """The tokens hero `hero` casts in Act `act`: its own, then its loadout's weapons' tokens."""
        record = self.heroes[hero]
        names = (*record.tokens, *(self.weapons.by_name(name).token for name in record.loadout.weapons(act)))
        return tuple(self.tokens.index_of(name) for name in names)

    def enemy_tokens(self, enemy: int, act: int) -> tuple[int, ...]:
        """The tokens enemy `enemy` casts in Act `act`: the first 4 + Act of its trait's set."""
        trait = self.traits[self.enemy_trait[enemy]]
        return tuple(self.tokens.index_of(name) for name in trait.tokens[: ENEMY_BASE_TOKENS + act])


# ============================================================================================ loading
def load_runebound_cards(card_directory: str | Path | None = None) -> RuneboundCards:
    """Load every combat component from the package data (or a user's directory of the same files), cross-checked."""
    return load_content(_load_cards, card_directory)


def _load_cards(directory: Path | None) -> RuneboundCards:
    cards = RuneboundCards(
        tokens=load_named_list(Token, PACKAGE, "tokens.yaml", directory),
        traits=load_named_list(Trait, PACKAGE, "traits.yaml", directory),
        enemies=load_named_list(Enemy, PACKAGE, "enemies.yaml", directory),
        heroes=load_named_list(Hero, PACKAGE, "heroes.yaml", directory),
        weapons=load_named_list(Weapon, PACKAGE, "weapons.yaml", directory, count=(0, None)),
    )
    _cross_check(cards, directory)
    return cards


def _cross_check(cards: RuneboundCards, directory: Path | None) -> None:
    """What spans files: every name a record gives exists, and every token fits the side that casts it."""

    def fail(filename: str, where: str, message: str) -> DataError:
        return DataError(data_file(PACKAGE, filename, directory), where, message)

    def token(name: str, filename: str, where: str, side: int) -> Token:
        record = referenced(cards.tokens, name, data_file(PACKAGE, filename, directory), where)
        forbidden = ENEMY_ONLY if side == HERO else HERO_ONLY
        for face in record.faces:
            if face.symbol in forbidden:
                who = "a hero" if side == HERO else "an enemy"
                raise fail(filename, where, f"token {name!r} shows {face.text}, which {who} cannot spend")
        return record

    for t, trait in enumerate(cards.traits):
        symbols: set[Symbol] = set()
        for k, name in enumerate(trait.tokens):
            symbols |= {
                face.symbol
                for face in token(name, "traits.yaml", f"traits[{t}] ({trait.name}).tokens[{k}]", ENEMY).faces
            }
        for symbol in sorted(symbols - {Symbol.BLANK}):
            if trait.board.space_of(symbol) < 0:
                where = f"traits[{t}] ({trait.name}).board.spaces"
                raise fail("traits.yaml", where, f"the set shows {SYMBOL_NAMES[symbol]}, which has no space")
        for s, space in enumerate(trait.board.spaces):
            if space.symbol not in spendable_by(ENEMY):
                where = f"traits[{t}] ({trait.name}).board.spaces[{s}].symbol"
                raise fail("traits.yaml", where, f"an enemy cannot spend {SYMBOL_NAMES[space.symbol]}")
    enemies_file = data_file(PACKAGE, "enemies.yaml", directory)
    for e, enemy in enumerate(cards.enemies):
        referenced(cards.traits, enemy.trait, enemies_file, f"enemies[{e}] ({enemy.name}).trait")
    for w, weapon in enumerate(cards.weapons):
        token(weapon.token, "weapons.yaml", f"weapons[{w}] ({weapon.name}).token", HERO)
    heroes_file = data_file(PACKAGE, "heroes.yaml", directory)
    for h, hero in enumerate(cards.heroes):
        for k, name in enumerate(hero.tokens):
            token(name, "heroes.yaml", f"heroes[{h}] ({hero.name}).tokens[{k}]", HERO)
        for act_index, act in enumerate(ACTS, start=1):
            carried = hero.loadout.weapons(act_index)
            for k, name in enumerate(carried):
                referenced(cards.weapons, name, heroes_file, f"heroes[{h}] ({hero.name}).loadout.{act}[{k}]")
            if len(hero.tokens) + len(carried) > MAX_HERO_TOKENS:
                where = f"heroes[{h}] ({hero.name}).loadout.{act}"
                raise fail("heroes.yaml", where, f"a hero casts at most {MAX_HERO_TOKENS} tokens")


__all__ = [
    "ACTS",
    "Board",
    "BoardAbility",
    "Cost",
    "DataError",
    "Effect",
    "Enemy",
    "EnemyAbility",
    "Face",
    "Hero",
    "HeroAbility",
    "RuneboundCards",
    "Space",
    "Token",
    "Trait",
    "Weapon",
    "load_runebound_cards",
]
