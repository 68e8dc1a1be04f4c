"""Runebound board game content: heroes' board values, assets and twists, skills, adventures, story cards, warbands and
the scenario, validated straight from data/*.yaml (provenance: CONTENT.md, "The board game").

Each record is a frozen dataclass that pydantic validates from the YAML (envs.core.data.DataRecord); each file is a
named list (envs.core.data.load_named_list) but the scenario (one document). `load_board_cards` then checks what spans
files (a hero, weapon, enemy or site a card names; the scenario's warband spawns) and reports the first problem as a
DataError naming the file, the entry and the field.

Files: board_heroes.yaml, assets.yaml, twists.yaml, skills.yaml, adventures.yaml, story.yaml, warbands.yaml,
locust_swarm.yaml (the scenario), beside the combat's files (cards.py) and the map (board_map.py).

Board effects (`BoardEffect`) are records dispatched by `kind` (the rules' `BOARD_EFFECTS` table, board.py); the
kinds and their parameters are `BOARD_EFFECT_PARAMETERS`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal, get_args

from pydantic import Field, Strict, model_validator

from envs.core.data import (
    DataError,
    DataRecord,
    Entries,
    KindRecord,
    NamedList,
    data_file,
    load_content,
    load_document,
    load_named_list,
)
from envs.core.schema import Invalid
from envs.runebound.board_map import PACKAGE, RuneboundMap, load_runebound_map
from envs.runebound.cards import RuneboundCards, load_runebound_cards

Name = Annotated[str, Field(min_length=1)]
Text = Annotated[str, Field(min_length=1)]
Small = Annotated[int, Field(ge=0, le=9)]

Attribute = Literal["body", "mind", "spirit"]
ATTRIBUTES: tuple[str, ...] = get_args(Attribute)
"""The hero's three attributes (public facts 3.3), tested by exploration and social adventures."""
TrophyKind = Literal["combat", "exploration", "social"]
TROPHY_KINDS: tuple[str, ...] = get_args(TrophyKind)
"""Trophies come in three kinds, one per adventure deck (designed: a trophy is the card of a completed adventure)."""
AssetType = Literal["weapon", "armor", "trinket", "mount"]
ASSET_TYPES: tuple[str, ...] = get_args(AssetType)
"""Asset types ("Only 1 asset of each type may be held", public facts 3.3; the four types are designed)."""
AdventureKind = Literal["fight", "test", "quest"]
ADVENTURE_KINDS: tuple[str, ...] = get_args(AdventureKind)

BoardEffectKind = Literal[
    "gain_gold",
    "lose_gold",
    "heal",
    "damage",
    "gain_trophy",
    "draw_skill",
    "warbands_grow",
    "reveal_gems",
    "gain_prepare",
    "restock_markets",
]
BOARD_EFFECT_KINDS: tuple[str, ...] = get_args(BoardEffectKind)
BOARD_EFFECT_PARAMETERS: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "gain_gold": (("amount",), ()),
    "lose_gold": (("amount",), ()),
    "heal": (("amount",), ()),
    "damage": (("amount",), ()),
    "gain_trophy": (("trophy",), ("amount",)),
    "draw_skill": ((), ("amount",)),
    "warbands_grow": ((), ("amount",)),
    "reveal_gems": (("amount",), ()),
    "gain_prepare": ((), ()),
    "restock_markets": ((), ()),
}
"""Board effect kind -> (required parameters, optional parameters) (RULES.md, "Board effects", says what each does)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class BoardEffect(KindRecord):
    """One effect of a card on the board, read by `kind`; `amount` defaults to 1 where optional."""

    KIND_PARAMETERS = BOARD_EFFECT_PARAMETERS

    kind: BoardEffectKind
    amount: Annotated[int, Field(ge=1, le=9)] = 1
    trophy: TrophyKind | None = None


Effects = Annotated[Entries[BoardEffect], Field(max_length=4)]

HeroAbilityKind = Literal["setup_trophy", "extra_die", "rest_bonus", "test_bonus"]
HERO_ABILITY_KINDS: tuple[str, ...] = get_args(HeroAbilityKind)


@dataclass(frozen=True, kw_only=True, slots=True)
class BoardAbility(DataRecord):
    """A hero's ability on the board, read by `kind`: `setup_trophy` (gain `amount` trophies of `trophy` at setup),
    `extra_die` (roll `amount` more terrain dice), `rest_bonus` (heal `amount` more when resting), `test_bonus` (add
    `amount` to tests of `attribute`)."""

    kind: HeroAbilityKind
    amount: Annotated[int, Field(ge=1, le=3)] = 1
    trophy: TrophyKind | None = None
    attribute: Attribute | None = None
    text: Text

    @model_validator(mode="after")
    def _parameters(self) -> BoardAbility:
        if self.kind == "setup_trophy" and self.trophy is None:
            raise Invalid("a setup_trophy ability names its trophy kind", "trophy")
        if self.kind == "test_bonus" and self.attribute is None:
            raise Invalid("a test_bonus ability names its attribute", "attribute")
        if self.kind != "setup_trophy" and self.trophy is not None:
            raise Invalid(f"only a setup_trophy ability names a trophy kind (this one is {self.kind})", "trophy")
        if self.kind != "test_bonus" and self.attribute is not None:
            raise Invalid(f"only a test_bonus ability names an attribute (this one is {self.kind})", "attribute")
        return self


@dataclass(frozen=True, kw_only=True, slots=True)
class BoardHero(DataRecord):
    """A hero's board values beside its combat card (heroes.yaml, same name): speed (terrain dice rolled), starting
    gold, starting city and its board ability."""

    name: Name
    speed: Annotated[int, Field(ge=1, le=5)]
    gold: Small
    start: Name
    """The city the hero starts in (a site of the map)."""
    ability: BoardAbility


@dataclass(frozen=True, kw_only=True, slots=True)
class Asset(DataRecord):
    """An asset card of the market: its type and gold cost (it sells for the same), and what holding it gives."""

    name: Name
    type: AssetType
    cost: Annotated[int, Field(ge=1, le=9)]
    weapon: Name | None = None
    """A weapon's combat token comes from the weapon of this name (weapons.yaml); weapons only."""
    health: Small = 0
    """Armor: health added to the hero's."""
    speed: Small = 0
    """Mount: terrain dice added to a move."""
    attribute: Attribute | None = None
    """Trinket: the attribute whose tests it helps."""
    bonus: Small = 0
    """Trinket: what it adds to tests of its attribute."""
    other_hero: bool = False
    """The card refers to another hero (solo: discarded and replaced when drawn)."""
    text: Text

    @model_validator(mode="after")
    def _fits_its_type(self) -> Asset:
        if (self.type == "weapon") != (self.weapon is not None):
            raise Invalid("a weapon names its weapon (weapons.yaml), and only a weapon does", "weapon")
        if self.type == "armor" and self.health < 1:
            raise Invalid("armor adds at least 1 health", "health")
        if self.type == "mount" and self.speed < 1:
            raise Invalid("a mount adds at least 1 terrain die", "speed")
        if self.type == "trinket" and (self.attribute is None or self.bonus < 1):
            raise Invalid("a trinket names an attribute and a bonus of at least 1", "attribute")
        for owner, fields in _TYPE_FIELDS.items():
            for field in fields:
                if owner != self.type and getattr(self, field) not in (None, 0):
                    raise Invalid(f"only a {owner} has {field} (this asset is a {self.type})", field)
        return self


_TYPE_FIELDS: Mapping[str, tuple[str, ...]] = {
    "armor": ("health",),
    "mount": ("speed",),
    "trinket": ("attribute", "bonus"),
}
"""Asset type -> the fields only that type writes (a weapon's `weapon` is checked on its own)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Twist(DataRecord):
    """A twist card shuffled into the asset deck: resolved by the hero shopping when drawn (TWISTS)."""

    name: Name
    effects: Annotated[Entries[BoardEffect], Field(min_length=1, max_length=4)]
    other_hero: bool = False
    text: Text


@dataclass(frozen=True, kw_only=True, slots=True)
class Skill(DataRecord):
    """A skill card: drawn by training, learned by paying trophies (its `learned` effect stays), or exerted (discarded)
    to add `exert` to a test of its attribute."""

    name: Name
    attribute: Attribute
    cost: Annotated[dict[TrophyKind, Annotated[int, Field(ge=1, le=3)]], Field(min_length=1)]
    learned: Literal["body", "mind", "spirit", "health", "speed", "hand_size"]
    """What learning it raises by 1: an attribute, health, speed (terrain dice) or hand size."""
    exert: Annotated[int, Field(ge=1, le=4)] = 2
    other_hero: bool = False
    text: Text


@dataclass(frozen=True, kw_only=True, slots=True)
class Adventure(DataRecord):
    """An adventure card of one deck: a fight (an enemy, fought with the combat), a test (an attribute against a
    difficulty) or a quest (go to a site); `reward` on success, `failure` on a failed test."""

    name: Name
    deck: TrophyKind
    kind: AdventureKind
    enemy: Name | None = None
    attribute: Attribute | None = None
    difficulty: Annotated[int, Field(ge=2, le=12)] | None = None
    target: Name | None = None
    """A quest's site (a site of the map)."""
    reward: Effects = ()
    failure: Effects = ()
    other_hero: bool = False
    text: Text

    @model_validator(mode="after")
    def _fits_its_kind(self) -> Adventure:
        if (self.kind == "fight") != (self.enemy is not None):
            raise Invalid("a fight names its enemy (enemies.yaml), and only a fight does", "enemy")
        for field in ("attribute", "difficulty"):
            if (self.kind == "test") != (getattr(self, field) is not None):
                raise Invalid("a test names its attribute and difficulty, and only a test does", field)
        if (self.kind == "quest") != (self.target is not None):
            raise Invalid("a quest names its target site, and only a quest does", "target")
        if self.failure and self.kind != "test":
            raise Invalid("only a test has failure effects", "failure")
        return self


@dataclass(frozen=True, kw_only=True, slots=True)
class StoryCard(DataRecord):
    """A story card of the scenario's story deck, drawn at the track's story spaces."""

    name: Name
    effects: Annotated[Entries[BoardEffect], Field(min_length=1, max_length=4)]
    text: Text


@dataclass(frozen=True, kw_only=True, slots=True)
class Warband(DataRecord):
    """An Uthuk warband: the enemy fought for it at each unit count (1 to 4 units)."""

    name: Name
    enemies: Annotated[tuple[Name, Name, Name, Name], Strict(False)]
    text: Text


@dataclass(frozen=True, kw_only=True, slots=True)
class Scenario(DataRecord):
    """The Locust Swarm's numbers: the track, when story cards and warbands come, and the designed constants."""

    name: Name
    act_length: Annotated[int, Field(ge=4, le=20)]
    """Spaces of the time track in each Act (the token advances once per turn in solo)."""
    story_spaces: Annotated[Entries[Annotated[int, Field(ge=1, le=20)]], Field(min_length=1)]
    """Spaces of each Act where a story card is drawn."""
    warband_spaces: Annotated[Entries[Annotated[int, Field(ge=0, le=40)]], Field(min_length=1, max_length=5)]
    """Track positions (0: setup) where the next face-down warband flips and spawns at the Outlaw Glade."""
    start_units: Annotated[int, Field(ge=1, le=4)] = 1
    start_gold: Small = 0
    """Gold every hero gains at setup, beside its own (board_heroes.yaml)."""
    market_size: Annotated[int, Field(ge=1, le=4)] = 3
    max_quests: Annotated[int, Field(ge=1, le=4)] = 3
    rest_heal: Annotated[int, Field(ge=1, le=9)] = 2
    town_rest_heal: Annotated[int, Field(ge=1, le=20)] = 9
    train_draw: Annotated[int, Field(ge=1, le=3)] = 2
    text: Text

    @model_validator(mode="after")
    def _on_the_track(self) -> Scenario:
        for index, space in enumerate(self.story_spaces):
            if space > self.act_length:
                raise Invalid(f"space {space} is beyond the Act's {self.act_length} spaces", "story_spaces", index)
        for index, space in enumerate(self.warband_spaces):
            if space > 2 * self.act_length:
                raise Invalid(f"position {space} is beyond the track's two Acts", "warband_spaces", index)
        if list(self.warband_spaces) != sorted(self.warband_spaces):
            raise Invalid("warband spawns are listed in track order", "warband_spaces")
        return self


@dataclass(frozen=True)
class BoardCards:
    """Every board component (and the combat's cards and the map they refer to), loaded and cross-checked."""

    combat: RuneboundCards
    map: RuneboundMap
    heroes: NamedList[BoardHero]
    assets: NamedList[Asset]
    twists: NamedList[Twist]
    skills: NamedList[Skill]
    adventures: NamedList[Adventure]
    story: NamedList[StoryCard]
    warbands: NamedList[Warband]
    scenario: Scenario

    def deck(self, name: str) -> tuple[int, ...]:
        """The adventure cards of deck `name` (a trophy kind), by index."""
        return tuple(index for index, card in enumerate(self.adventures) if card.deck == name)


def load_board_cards(card_directory: str | Path | None = None) -> BoardCards:
    """Load every board component from the package data (or a user's directory of the same files), cross-checked."""
    return load_content(_load_board_cards, card_directory)


def _load_board_cards(directory: Path | None) -> BoardCards:
    cards = BoardCards(
        combat=load_runebound_cards(directory),
        map=load_runebound_map(directory),
        heroes=load_named_list(BoardHero, PACKAGE, "board_heroes.yaml", directory),
        assets=load_named_list(Asset, PACKAGE, "assets.yaml", directory),
        twists=load_named_list(Twist, PACKAGE, "twists.yaml", directory, count=(0, None)),
        skills=load_named_list(Skill, PACKAGE, "skills.yaml", directory),
        adventures=load_named_list(Adventure, PACKAGE, "adventures.yaml", directory),
        story=load_named_list(StoryCard, PACKAGE, "story.yaml", directory),
        warbands=load_named_list(Warband, PACKAGE, "warbands.yaml", directory),
        scenario=load_document(Scenario, PACKAGE, "locust_swarm.yaml", directory),
    )
    _cross_check(cards, directory)
    return cards


def _cross_check(cards: BoardCards, directory: Path | None) -> None:
    """What spans files: every hero, weapon, enemy and site a card names exists; a deck of each kind; warbands to
    spawn."""

    def fail(filename: str, where: str, message: str) -> DataError:
        return DataError(data_file(PACKAGE, filename, directory), where, message)

    combat = cards.combat
    hero_names = set(combat.heroes.names)
    enemy_names = set(combat.enemies.names)
    sites = {site.name: site for site in cards.map.sites}
    for index, hero in enumerate(cards.heroes):
        where = f"board_heroes[{index}] ({hero.name})"
        if hero.name not in hero_names:
            raise fail("board_heroes.yaml", f"{where}.name", f"no hero {hero.name!r} in heroes.yaml")
        if hero.start not in sites or sites[hero.start].kind != "city":
            raise fail("board_heroes.yaml", f"{where}.start", f"{hero.start!r} is not a city of the map")
    weapon_names = set(combat.weapons.names)
    for index, asset in enumerate(cards.assets):
        if asset.weapon is not None and asset.weapon not in weapon_names:
            where = f"assets[{index}] ({asset.name}).weapon"
            raise fail("assets.yaml", where, f"no weapon {asset.weapon!r} in weapons.yaml")
    for index, adventure in enumerate(cards.adventures):
        where = f"adventures[{index}] ({adventure.name})"
        if adventure.enemy is not None and adventure.enemy not in enemy_names:
            raise fail("adventures.yaml", f"{where}.enemy", f"no enemy {adventure.enemy!r} in enemies.yaml")
        if adventure.target is not None and adventure.target not in sites:
            raise fail("adventures.yaml", f"{where}.target", f"no site {adventure.target!r} on the map")
    for deck in TROPHY_KINDS:
        if not any(card.deck == deck and not card.other_hero for card in cards.adventures):
            raise fail("adventures.yaml", "adventures", f"the {deck} deck has no card a solo hero can draw")
    for index, warband in enumerate(cards.warbands):
        for slot, enemy in enumerate(warband.enemies):
            if enemy not in enemy_names:
                where = f"warbands[{index}] ({warband.name}).enemies[{slot}]"
                raise fail("warbands.yaml", where, f"no enemy {enemy!r} in enemies.yaml")
    if len(cards.scenario.warband_spaces) > len(cards.warbands):
        raise fail(
            "locust_swarm.yaml",
            "warband_spaces",
            f"{len(cards.scenario.warband_spaces)} spawns, but warbands.yaml holds {len(cards.warbands)} warbands",
        )
    if not any(site.kind == "outlaw_glade" for site in cards.map.sites):
        raise fail("map.yaml", "sites", "The Locust Swarm spawns warbands at the Outlaw Glade: the map has none")
