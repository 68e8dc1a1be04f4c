"""Unstoppable content: the records the rules read, validated straight from data/*.yaml.

A sleeved card is a core (a player card: cost, faction, tactic or ally, effects, level), a threat on its back
(attack, defense, bonus, keywords) and up to two upgrades slid in between (a top and a bottom cutout), each adding a
core-side and a threat-side modifier. The content is five files, each a list of records declared once here as frozen
dataclasses that pydantic validates from the YAML (envs.core.data.DataRecord); every field's docstring is its
documentation:

| file | records |
|---|---|
| `cores.yaml` | `Core`: the 126 core cards (levels 1-6 form the core decks; level 0 are starting and character cards) |
| `threats.yaml` | `Threat`: the 111 threat cards (starting threats, world threats, boss cards, minions) |
| `upgrades.yaml` | `Upgrade`: the 36 upgrade cards |
| `bosses.yaml` | `Boss`: each boss mat (danger track, level-up effects, boss damage), its boss deck and threat deck |
| `characters.yaml` | `Character`: each character's three cards; `starting_deck`: the cards every character deck holds |

Effects are one vocabulary, read from the rulebook's icons (`Effect`): deal damage, gain credits, action points,
health or armor, train, eliminate a card, refresh an ally, deal boss damage; with the conditions and faction keywords
that qualify them (Level X+, Bargain, Conspire, Focus, Unite). A threat's keywords (Crazed X, Fast, Rage, Taunt,
Terror) are counted in instances, because upgrades stack them (`Keywords`).

`load_unstoppable_cards` reads a directory of the five files (the shipped data, or a user's own cards in the same
schema) and checks the names one file gives another (a character's cards, a boss's decks). The first problem becomes
a DataError naming the file, the card and the field.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

from pydantic import Field, ModelWrapValidatorHandler, model_validator

from envs.core.data import (
    DataError,
    DataRecord,
    Entries,
    KindRecord,
    NamedList,
    Record,
    UniqueNames,
    data_file,
    derived,
    load_content,
    load_document,
    load_named_list,
    referenced,
    set_derived,
    written_keys,
)
from envs.core.schema import Invalid, Written

PACKAGE = "envs.unstoppable"

FactionName = Literal["council", "junker", "silver", "viren", "none"]
"""A core card's faction; `none` for a factionless card (the starting cards), which faction keywords ignore."""
FACTION_NAMES: tuple[str, ...] = get_args(FactionName)
FACTIONS: tuple[str, ...] = FACTION_NAMES[:-1]
"""The four factions ("There are 4 factions now"), in the order the rules index them."""
NO_FACTION = "none"
CardType = Literal["tactic", "ally"]
"""Tactics are discarded after use; allies stay in play and are exhausted for their effects."""
Group = Literal["starting", "threat", "boss"]
"""A threat's row in the sleeving guide: sleeved with a starting or character core before play (`starting`), a
threat card sleeved alone whose core is added when drafted (`threat`), or a boss card or minion (`boss`)."""
World = Literal["ceres_ii", "virenos", "mithras", "none"]
"""A threat's world (Ceres II, Virenos, Mithras); `none` for boss cards and minions, which belong to no world."""
WORLDS: tuple[str, ...] = get_args(World)[:-1]
Cutout = Literal["top", "bottom"]
"""Which of a sleeve's two upgrade places an upgrade takes ("1 top and 1 bottom")."""
Requirement = Literal["tactic", "ally", "any"]
"""Which type of card an upgrade can be added to."""
Border = Literal["none", "green", "yellow", "red"]
"""A danger-track space's border: Normal skips green spaces, Hard yellow, Expert red."""
SpaceEffect = Literal["none", "eliminate", "market_cycle"]
"""A danger-track space's optional effect: spend 1 credit to eliminate a card, or cycle the upgrade market."""
Difficulty = Literal["normal", "hard", "expert"]
DIFFICULTIES: tuple[str, ...] = get_args(Difficulty)
SKIPPED_BORDER: Mapping[str, str] = {"normal": "green", "hard": "yellow", "expert": "red"}
"""Rulebook, Skipped Spaces: "NORMAL: Skip all spaces with a green border. HARD: ... yellow ... EXPERT: ... red"."""

MAX_LEVEL = 6
"""Core decks are levels 1-6; starting and character cards are level 0."""
MAX_COST = 6
"""A card's cost in action points can never exceed the 6 action points a player may hold."""
MAX_EFFECTS = 4
"""Effects one effect list holds (a card's play effects, one exhaust icon's, a bonus, an upgrade's)."""
MAX_UPGRADE_EFFECTS = 2
"""Effects one upgrade adds on play, or on exhaust."""
MAX_EXHAUST_ICONS = 3
"""Exhaust icons one ally has ("Most allies have only 1 exhaust icon, but some have multiple")."""
MAX_AMOUNT = 10
"""The largest X of an effect icon (10 is the health and armor cap)."""
MAX_INSTANCES = 5
"""The most separate instances one damage icon deals (before Focus or Unite scale them)."""
MAX_KEYWORD_INSTANCES = 3
"""The most instances of one threat keyword on a card or an upgrade (upgrades stack them on a threat)."""
MAX_COPIES = 13
"""The most copies of one card in the box (13 threats of a world; 12 Strike / Ceresan Thief)."""
DANGER_DEFENSE = -1
"""`Threat.defense` of a threat whose defense is the skull: the current danger level."""
CHARACTER_CARDS = 3
"""Character Card A, B and C."""

IconName = Literal[
    "damage", "credits", "action_points", "health", "armor", "train", "eliminate", "refresh", "boss_damage"
]
ICONS: tuple[str, ...] = get_args(IconName)
"""The effect icons, each an `Effect` key: what the effect does (exactly one per effect)."""
Scaling = Literal["amount", "instances"]
"""What a Focus or Unite X multiplies: the icon's amount ("deal X damage") or its instances ("X instances of 2")."""
KEYWORDS: tuple[str, ...] = ("bargain", "conspire", "focus", "unite")
"""The faction keywords: at most one per effect."""
MANDATORY_KEYWORDS: frozenset[str] = frozenset({"conspire", "focus", "unite"})
"""Keywords whose effects are mandatory (Bargain's are optional, like every effect without a keyword)."""

Name = Annotated[str, Field(min_length=1)]
Amount = Annotated[int, Field(ge=1, le=MAX_AMOUNT)]


# ============================================================================================ effects
@dataclass(frozen=True, kw_only=True, slots=True)
class Effect(DataRecord):
    """One effect: exactly one icon key with its X (`{damage: 2}`, `{credits: 1}`, `{train: 1}`), qualified by at
    most one faction keyword and an optional Level X+ condition. Without a Conspire, Focus or Unite keyword an effect
    is optional: the player may forfeit it."""

    damage: Amount | None = None
    """Deal X damage to one target: any active threat or the on-deck threat ("All damage from each instance of this
    icon must be dealt to a single threat")."""
    credits: Amount | None = None
    """Gain X credits."""
    action_points: Amount | None = None
    """Gain X action points (never above 6)."""
    health: Amount | None = None
    """Gain X health (never above 10)."""
    armor: Amount | None = None
    """Gain X armor (never above 10)."""
    train: Amount | None = None
    """Train X levels: advance the small level disc X levels (never beyond level 6)."""
    eliminate: Amount | None = None
    """Eliminate X cards, one at a time, each from your hand, your discard pile or play (back to the box)."""
    refresh: Amount | None = None
    """Refresh X exhausted allies in play (rotate them upright: they can be exhausted again)."""
    boss_damage: Amount | None = None
    """Deal X boss damage (the boss is defeated when its boss damage reaches the boss mat's requirement)."""
    instances: Annotated[int, Field(ge=1, le=MAX_INSTANCES)] = 1
    """Damage only: separate instances of the damage, each dealt to one target of its own ("2 separate instances")."""
    ignore_taunt: bool = False
    """Damage only: the damage may target any threat although a Taunt threat is visible (Scrap Hunter)."""
    level: Annotated[int, Field(ge=0, le=MAX_LEVEL)] = 0
    """Level X+: the effect only resolves if your large level disc is at level X or higher (0: no condition)."""
    bargain: Annotated[int | None, Field(ge=0, le=MAX_AMOUNT)] = None
    """Bargain N: an optional cost of N credits, less 1 for each card of this card's faction in your hand and/or in
    play (itself included), never below 0; a factionless card pays N."""
    conspire: bool = False
    """Conspire: mandatory; resolves only if at least 1 other card of this card's faction is in your hand or in
    play (never on a factionless card)."""
    focus: Scaling | None = None
    """Focus: mandatory; X is the number of cards of this card's faction in your hand and/or in play (itself
    included, so at least 1); X multiplies the `amount` or the `instances`. Never resolves on a factionless card."""
    unite: Scaling | None = None
    """Unite: mandatory; X is the number of different factions among the cards in your hand and/or in play (this
    card's included); X multiplies the `amount` or the `instances`. On a factionless card, X counts the others."""
    kind: str = derived()
    """The icon (one of ICONS)."""
    amount: int = derived()
    """The icon's X."""

    def __post_init__(self) -> None:
        for icon in ICONS:
            value = getattr(self, icon)
            if value is not None:
                set_derived(self, kind=icon, amount=value)
                return
        raise ValueError("an effect needs one icon key")  # only a record built in code can lack one

    @model_validator(mode="wrap")
    @classmethod
    def _one_icon_and_one_keyword(cls, data: Any, handler: ModelWrapValidatorHandler[Effect]) -> Effect:
        given = written_keys(data)
        if isinstance(data, Mapping):
            icons = [key for key in ICONS if key in given]
            if len(icons) != 1:
                found = ", ".join(icons) or "none"
                raise Invalid(f"an effect has exactly one icon key (one of {', '.join(ICONS)}); found {found}")
        effect = handler(data)
        keywords = [key for key in KEYWORDS if key in given and getattr(effect, key) not in (None, False)]
        if len(keywords) > 1:
            raise Invalid(f"an effect has at most one faction keyword, found {', '.join(keywords)}", keywords[1])
        if effect.kind != "damage":
            for key in ("instances", "ignore_taunt"):
                if key in given:
                    raise Invalid(f"only a damage effect has {key} (this is a {effect.kind} effect)", key)
            for key in ("focus", "unite"):
                if getattr(effect, key) == "instances":
                    raise Invalid(f"{key}: instances scales damage only (this is a {effect.kind} effect)", key)
        return effect

    @property
    def keyword(self) -> str | None:
        """The faction keyword qualifying the effect (bargain, conspire, focus, unite), or None."""
        if self.bargain is not None:
            return "bargain"
        if self.conspire:
            return "conspire"
        if self.focus is not None:
            return "focus"
        if self.unite is not None:
            return "unite"
        return None

    @property
    def mandatory(self) -> bool:
        """Whether the effect cannot be forfeited (Conspire, Focus, Unite: "which are mandatory")."""
        return self.keyword in MANDATORY_KEYWORDS

    @property
    def scaling(self) -> str | None:
        """What the Focus or Unite X multiplies ("amount" or "instances"), or None."""
        return self.focus or self.unite

    def text(self) -> str:
        """The effect in words ("Focus: deal X x 1 damage", "Level 2+: gain 2 health")."""
        words = {
            "damage": "deal {} damage",
            "credits": "gain {} credits",
            "action_points": "gain {} action points",
            "health": "gain {} health",
            "armor": "gain {} armor",
            "train": "train {}",
            "eliminate": "eliminate {} card(s)",
            "refresh": "refresh {} ally(ies)",
            "boss_damage": "deal {} boss damage",
        }
        amount = f"X x {self.amount}" if self.scaling == "amount" else str(self.amount)
        text = words[self.kind].format(amount)
        if self.kind == "damage":
            instances = "X" if self.scaling == "instances" else str(self.instances)
            if instances != "1":
                text = f"{instances} instances: {text}"
            if self.ignore_taunt:
                text += " (ignoring Taunt)"
        keyword = self.keyword
        if keyword == "bargain":
            text = f"Bargain {self.bargain}: {text}"
        elif keyword is not None:
            text = f"{keyword.capitalize()}: {text}"
        if self.level:
            text = f"Level {self.level}+: {text}"
        return text


EffectList = Annotated[Entries[Effect], Field(max_length=MAX_EFFECTS)]
"""A list of effects, resolved in the order the player chooses."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Keywords(DataRecord):
    """Threat keywords by instances (a threat and its upgrades' threat sides add up: "Multiple instances of the same
    keyword can stack on a single threat"; Crazed, Rage and Terror resolve once per instance, Fast and Taunt once)."""

    crazed: Annotated[
        tuple[int, ...],
        Written(
            Annotated[int, Field(ge=1, le=MAX_AMOUNT)]
            | Annotated[list[Annotated[int, Field(ge=1, le=MAX_AMOUNT)]], Field(max_length=MAX_KEYWORD_INSTANCES)],
            lambda value: (value,) if isinstance(value, int) else tuple(value),
        ),
    ] = ()
    """Crazed X, written as X or a list of X (one per instance): when the threat is revealed and your health is X or
    lower, it deals itself 2 damage (per instance)."""
    fast: Annotated[int, Field(ge=0, le=MAX_KEYWORD_INSTANCES)] = 0
    """Fast: does not count toward the 3 active threats (refill goes on past it)."""
    rage: Annotated[int, Field(ge=0, le=MAX_KEYWORD_INSTANCES)] = 0
    """Rage: in the Threat Phase you discard 1 ally from play per instance."""
    taunt: Annotated[int, Field(ge=0, le=MAX_KEYWORD_INSTANCES)] = 0
    """Taunt: while it is on the battlefield or on top of your deck, damage must target a Taunt threat."""
    terror: Annotated[int, Field(ge=0, le=MAX_KEYWORD_INSTANCES)] = 0
    """Terror: each damage instance dealt to it costs 1 action point per instance (ignored at 0 action points)."""

    def plus(self, other: Keywords) -> Keywords:
        """Both sets of keywords stacked (a threat with its upgrades' keywords)."""
        return Keywords(
            crazed=self.crazed + other.crazed,
            fast=self.fast + other.fast,
            rage=self.rage + other.rage,
            taunt=self.taunt + other.taunt,
            terror=self.terror + other.terror,
        )

    def text(self) -> str:
        """The keywords in words ("Crazed 5, Taunt")."""
        words = [f"Crazed {x}" for x in self.crazed]
        for name in ("fast", "rage", "taunt", "terror"):
            words += [name.capitalize()] * getattr(self, name)
        return ", ".join(words)


NO_KEYWORDS = Keywords()
"""A threat with no keyword."""


# ============================================================================================ cards
@dataclass(frozen=True, kw_only=True, slots=True)
class Core(DataRecord):
    """A core card: the player's side of a sleeve."""

    name: Name
    """The card's name (unique among cores)."""
    level: Annotated[int, Field(ge=0, le=MAX_LEVEL)]
    """The core deck it comes from (1-6); 0 for starting cards and character cards, which are in no core deck."""
    cost: Annotated[int, Field(ge=0, le=MAX_COST)]
    """Action points spent to play it."""
    faction: FactionName
    """council, junker, silver, viren, or none (factionless: ignored by faction keywords)."""
    type: CardType
    """tactic (discarded in the Cleanup Phase after use) or ally (stays in play until you level up)."""
    effects: EffectList = ()
    """Effects resolved when the card is played, in the order the player chooses."""
    exhaust: Annotated[
        Entries[Annotated[Entries[Effect], Field(min_length=1, max_length=MAX_EFFECTS)]],
        Field(max_length=MAX_EXHAUST_ICONS),
    ] = ()
    """Allies only: the effects after each exhaust icon; exhausting the ally resolves those of one icon."""
    copies: Annotated[int, Field(ge=1, le=MAX_COPIES)] = 1
    """Copies in the box."""
    text: str = ""
    """Flavour or rules text shown with the card (the effects above are what the rules read)."""

    @model_validator(mode="after")
    def _exhaust_icons_on_allies(self) -> Core:
        if self.type == "tactic" and self.exhaust:
            raise Invalid("a tactic has no exhaust icon (only allies are exhausted)", "exhaust")
        if self.type == "ally" and not self.exhaust:
            raise Invalid("an ally has at least one exhaust icon", "exhaust")
        return self


def _defense(value: int | str) -> int:
    return DANGER_DEFENSE if value == "danger" else int(value)


@dataclass(frozen=True, kw_only=True, slots=True)
class Threat(DataRecord):
    """A threat card: the back of a sleeve, an enemy while it is on the battlefield or on top of your deck."""

    name: Name
    """The card's name (unique among threats)."""
    group: Group
    """starting, threat or boss: its row in the sleeving guide (which decks may hold it)."""
    world: World = "none"
    """ceres_ii, virenos, mithras, or none (boss cards and minions)."""
    kind: str = ""
    """What the threat is (Human, Bug, ...): flavour for now, no rule reads it."""
    attack: Annotated[int, Field(ge=0, le=MAX_AMOUNT)]
    """Damage it deals you in each Threat Phase while active; part of its health."""
    defense: Annotated[int, Written(Annotated[int, Field(ge=0, le=MAX_AMOUNT)] | Literal["danger"], _defense)]
    """Extra damage needed to defeat it (health = attack + defense); `danger` (the skull): the current danger level,
    kept as DANGER_DEFENSE."""
    bonus: EffectList = ()
    """Effects you gain when you defeat it: mandatory, resolved at once, after it goes to your hand."""
    keywords: Keywords = NO_KEYWORDS
    """Its threat keywords."""
    copies: Annotated[int, Field(ge=1, le=MAX_COPIES)] = 1
    """Copies in the box."""
    text: str = ""
    """Flavour text."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Discount(DataRecord):
    """An upgrade's discount when it is added to a card of one faction."""

    faction: Literal["council", "junker", "silver", "viren"]
    """The faction of the card the upgrade must go on for the discount."""
    amount: Annotated[int, Field(ge=1, le=MAX_AMOUNT)]
    """Credits off the cost (never below 0)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Upgrade(DataRecord):
    """An upgrade card: slid into a sleeve between core and threat, modifying both sides."""

    name: Name
    """The card's name (unique among upgrades)."""
    cost: Annotated[int, Field(ge=0, le=MAX_AMOUNT)]
    """Credits spent to buy it."""
    cutout: Cutout
    """top or bottom: the place it takes in a sleeve (each sleeve holds one of each)."""
    requirement: Requirement = "any"
    """tactic, ally or any: the type of card it may be added to."""
    discount: Discount | None = None
    """A discount when added to a card of one faction (None: no discount)."""
    on_play: Annotated[Entries[Effect], Field(max_length=MAX_UPGRADE_EFFECTS)] = ()
    """Core side: effects added to the card's effects when it is played."""
    on_exhaust: Annotated[Entries[Effect], Field(max_length=MAX_UPGRADE_EFFECTS)] = ()
    """Core side: effects added when the card is exhausted (whichever icon is used)."""
    attack: Annotated[int, Field(ge=0, le=MAX_AMOUNT)] = 0
    """Threat side: attack added to the threat (it deals more and has more health)."""
    defense: Annotated[int, Field(ge=0, le=MAX_AMOUNT)] = 0
    """Threat side: defense added to the threat."""
    keywords: Keywords = NO_KEYWORDS
    """Threat side: keywords added to the threat (stacking with its own)."""
    copies: Annotated[int, Field(ge=1, le=MAX_COPIES)] = 1
    """Copies in the box."""
    text: str = ""
    """Flavour text."""

    @model_validator(mode="after")
    def _exhaust_effects_need_an_ally(self) -> Upgrade:
        if self.on_exhaust and self.requirement == "tactic":
            raise Invalid(
                "an upgrade for tactics has no on_exhaust effects (tactics are never exhausted)", "on_exhaust"
            )
        return self


# ============================================================================================ bosses
@dataclass(frozen=True, kw_only=True, slots=True)
class DangerSpace(DataRecord):
    """One space of a boss mat's danger track."""

    value: Annotated[int, Field(ge=0, le=MAX_AMOUNT)]
    """The danger level while the marker is here (the skull defense of some threats)."""
    border: Border = "none"
    """green, yellow or red: skipped on Normal, Hard or Expert; none: never skipped."""
    effect: SpaceEffect = "none"
    """An optional effect when the marker reaches the space (not when the space is skipped)."""


WinKind = Literal["boss_damage", "members"]
"""How a boss is defeated (the boss mat's end condition): `boss_damage`, its boss damage per player reaches `amount`;
`members`, each of its `members` (named beside the mat) takes `amount` boss damage per player."""
WIN_PARAMETERS: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "boss_damage": (("amount",), ()),
    "members": (("amount", "members"), ()),
}
"""Each win kind's (required, optional) parameters."""
LevelUpKind = Literal["boss_cards"]
"""A boss mat's level-up effect (level-up step 4): `boss_cards`, shuffle the top `amount` cards of the boss deck into
the threat deck (fewer if the boss deck runs out)."""
LEVEL_UP_PARAMETERS: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = {"boss_cards": (("amount",), ())}
"""Each level-up kind's (required, optional) parameters."""
BossDamageKind = Literal["defeat"]
"""A source of boss damage a boss mat names: `defeat`, `amount` boss damage when a threat named `threat` enters your
hand upon defeat (to the `member` it names, on a boss with members). (A boss card's own boss damage is its bonus: the
`boss_damage` effect icon.)"""
MAX_MEMBERS = 4
"""The most members a boss has beside its mat (the Triumvirate: 3)."""
BOSS_DAMAGE_PARAMETERS: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "defeat": (("threat",), ("amount", "member"))
}
"""Each boss-damage source kind's (required, optional) parameters."""
DeckPartKind = Literal["world", "threat"]
"""A part of the threat deck a boss mat constructs: `world`, every threat card of that world's `threat` group (all
copies); `threat`, `copies` of the threat named `threat` (minions, say)."""
DECK_PART_PARAMETERS: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "world": (("world",), ()),
    "threat": (("threat",), ("copies",)),
}
"""Each threat-deck part kind's (required, optional) parameters."""


@dataclass(frozen=True, kw_only=True, slots=True)
class BossWin(KindRecord):
    """What defeats the boss, read by `kind` (WIN_PARAMETERS)."""

    KIND_PARAMETERS = WIN_PARAMETERS

    kind: WinKind
    amount: Annotated[int, Field(ge=1, le=99)] = 1
    """The boss damage per player that defeats the boss (`boss_damage`: the Harbinger's 12) or each member
    (`members`)."""
    members: Annotated[Entries[Name], Field(max_length=MAX_MEMBERS)] = ()
    """`members`: the members' names (threats.yaml), in the mat's order."""

    def check_kind(self) -> None:
        """A boss with members names at least 2, each once."""
        if self.kind == "members" and (len(self.members) < 2 or len(set(self.members)) < len(self.members)):
            raise Invalid("a boss with members names at least 2, each once", "members")


@dataclass(frozen=True, kw_only=True, slots=True)
class LevelUpEffect(KindRecord):
    """An effect printed on a boss mat that resolves when you level up, read by `kind` (LEVEL_UP_PARAMETERS)."""

    KIND_PARAMETERS = LEVEL_UP_PARAMETERS

    kind: LevelUpKind
    amount: Annotated[int, Field(ge=1, le=MAX_AMOUNT)] = 1
    """`boss_cards`: how many cards of the boss deck join the threat deck."""


@dataclass(frozen=True, kw_only=True, slots=True)
class BossDamageSource(KindRecord):
    """A way the boss mat deals boss damage, read by `kind` (BOSS_DAMAGE_PARAMETERS)."""

    KIND_PARAMETERS = BOSS_DAMAGE_PARAMETERS

    kind: BossDamageKind
    threat: Name = ""
    """`defeat`: the threat's name (threats.yaml)."""
    amount: Annotated[int, Field(ge=1, le=MAX_AMOUNT)] = 1
    """Boss damage dealt."""
    member: str = ""
    """On a boss with members: the member that takes it (one of `win.members`)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class CardCount(DataRecord):
    """Copies of one threat card in a deck a boss mat constructs."""

    threat: Name
    """The threat's name (threats.yaml)."""
    copies: Annotated[int, Field(ge=1, le=MAX_COPIES)] = 1
    """How many copies go into the deck."""


@dataclass(frozen=True, kw_only=True, slots=True)
class ThreatDeckPart(KindRecord):
    """A part of the threat deck a boss mat constructs (shuffled, threat side down), read by `kind`
    (DECK_PART_PARAMETERS)."""

    KIND_PARAMETERS = DECK_PART_PARAMETERS

    kind: DeckPartKind
    world: Literal["ceres_ii", "virenos", "mithras"] | None = None
    """`world`: the world whose threats join."""
    threat: Name = ""
    """`threat`: the threat's name (threats.yaml)."""
    copies: Annotated[int, Field(ge=1, le=MAX_COPIES)] = 1
    """`threat`: how many copies join."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Boss(DataRecord):
    """A boss mat: what defeats the boss, its danger track and level-up effects, and the decks it sets up."""

    name: Name
    """The boss's name."""
    win: BossWin
    """What defeats the boss (the end condition; rules.WIN_RULES by kind)."""
    danger_track: Annotated[Entries[DangerSpace], Field(min_length=2, max_length=60)]
    """The spaces in order; the marker starts on the first, and the last is Maximum Danger (you lose there). A
    space's effect is read by its kind (rules.DANGER_EFFECTS)."""
    level_up: Entries[LevelUpEffect] = ()
    """Effects that resolve when you level up (level-up step 4; rules.LEVEL_UP_EFFECTS by kind)."""
    boss_damage_sources: Entries[BossDamageSource] = ()
    """The boss mat's ways to deal boss damage (the Harbinger's minions; effects.BOSS_DAMAGE_SOURCES by kind)."""
    boss_deck: Entries[CardCount] = ()
    """The boss deck's cards."""
    boss_deck_shuffled: bool = True
    """Whether the boss deck is shuffled (false: its cards stay in the listed order, the first on top)."""
    threat_deck: Annotated[Entries[ThreatDeckPart], Field(min_length=1)]
    """How the threat deck is constructed, part by part (`UnstoppableCards.threat_deck`)."""
    text: str = ""
    """Rules text of the boss mat, as a reader would print it."""

    @model_validator(mode="after")
    def _track(self) -> Boss:
        if self.danger_track[0].value != 0:
            raise Invalid('the marker starts on the first "0" space: the first space has value 0', "danger_track", 0)
        last = self.danger_track[-1]
        if last.border != "none" or last.effect != "none":
            raise Invalid(
                "Maximum Danger, the last space, is never skipped and has no effect",
                "danger_track",
                len(self.danger_track) - 1,
            )
        return self


# ============================================================================================ characters
@dataclass(frozen=True, kw_only=True, slots=True)
class SleevePair(DataRecord):
    """A core and a threat sleeved back to back before the game."""

    core: Name
    """The core's name (cores.yaml, level 0)."""
    threat: Name
    """The threat's name (threats.yaml)."""
    copies: Annotated[int, Field(ge=1, le=MAX_COPIES)] = 1
    """How many such sleeves."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Character(DataRecord):
    """A character: its portrait and its three character cards, each sleeved with its threat."""

    name: Name
    """The character's name."""
    cards: Annotated[Entries[SleevePair], Field(min_length=CHARACTER_CARDS, max_length=CHARACTER_CARDS)]
    """Character Card A, B and C with their threats (one copy each)."""
    text: str = ""
    """The portrait's text."""


# ============================================================================================ the content
class CharactersFile(Record):
    """characters.yaml: the starting cards every character deck holds, and the characters."""

    starting_deck: Annotated[Entries[SleevePair], Field(min_length=1)]
    """The sleeves every character deck holds besides its character cards (6 Strike / Ceresan Thief, 1 Spare
    Credits / Virenian Doe)."""
    characters: Annotated[list[Character], Field(min_length=1), UniqueNames]


@dataclass(frozen=True)
class UnstoppableCards:
    """Every Unstoppable component, as loaded and cross-checked; cards are indexed by their position in their file
    and looked up by name (`cards.bosses.by_name("The Harbinger")`, `cards.cores.index_of("Strike")`)."""

    cores: NamedList[Core]
    threats: NamedList[Threat]
    upgrades: NamedList[Upgrade]
    bosses: NamedList[Boss]
    starting_deck: tuple[SleevePair, ...]
    characters: NamedList[Character]

    def core_index(self, name: str) -> int:
        """A core's index by name; KeyError naming it otherwise."""
        return self.cores.index_of(name)

    def threat_index(self, name: str) -> int:
        """A threat's index by name; KeyError naming it otherwise."""
        return self.threats.index_of(name)

    def upgrade_index(self, name: str) -> int:
        """An upgrade's index by name; KeyError naming it otherwise."""
        return self.upgrades.index_of(name)

    def boss(self, name: str) -> Boss:
        """The boss of that name; KeyError naming the known ones otherwise."""
        return self.bosses.by_name(name)

    def character(self, name: str) -> Character:
        """The character of that name; KeyError naming the known ones otherwise."""
        return self.characters.by_name(name)

    def character_deck(self, character: Character) -> tuple[tuple[int, int], ...]:
        """The (core, threat) index pairs of a character deck, one per sleeve: the starting deck, then its cards."""
        pairs = [*self.starting_deck, *character.cards]
        return tuple(
            (self.core_index(pair.core), self.threat_index(pair.threat)) for pair in pairs for _ in range(pair.copies)
        )

    def threat_deck(self, boss: Boss) -> tuple[int, ...]:
        """Copies per threat index of the threat deck the boss mat constructs."""
        copies = [0] * len(self.threats)
        for part in boss.threat_deck:
            for index, count in DECK_PARTS[part.kind](self, part):
                copies[index] += count
        return tuple(copies)

    def boss_deck(self, boss: Boss) -> tuple[int, ...]:
        """The boss deck's threat indices in listed order (one entry per copy)."""
        return tuple(self.threat_index(entry.threat) for entry in boss.boss_deck for _ in range(entry.copies))


def _world_part(cards: UnstoppableCards, part: ThreatDeckPart) -> list[tuple[int, int]]:
    """A world's threats: (index, copies) of every threat of the `threat` group from `part.world`."""
    return [
        (index, threat.copies)
        for index, threat in enumerate(cards.threats)
        if threat.group == "threat" and threat.world == part.world
    ]


def _threat_part(cards: UnstoppableCards, part: ThreatDeckPart) -> list[tuple[int, int]]:
    """Copies of one named threat."""
    return [(cards.threat_index(part.threat), part.copies)]


DECK_PARTS: Mapping[str, Callable[[UnstoppableCards, ThreatDeckPart], list[tuple[int, int]]]] = {
    "world": _world_part,
    "threat": _threat_part,
}
"""A threat-deck part's kind -> the (threat index, copies) it adds."""


# ============================================================================================ loading
def load_unstoppable_cards(card_directory: str | Path | None = None) -> UnstoppableCards:
    """Load every Unstoppable component from the package data (or a user's directory of the same five files)."""
    return load_content(_load_cards, card_directory)


def _load_cards(directory: Path | None) -> UnstoppableCards:
    characters = load_document(CharactersFile, PACKAGE, "characters.yaml", directory)
    cards = UnstoppableCards(
        cores=load_named_list(Core, PACKAGE, "cores.yaml", directory),
        threats=load_named_list(Threat, PACKAGE, "threats.yaml", directory),
        upgrades=load_named_list(Upgrade, PACKAGE, "upgrades.yaml", directory),
        bosses=load_named_list(Boss, PACKAGE, "bosses.yaml", directory),
        starting_deck=characters.starting_deck,
        characters=NamedList(characters.characters, "character"),
    )
    _check_names(cards, directory)
    return cards


def _check_names(cards: UnstoppableCards, directory: Path | None) -> None:
    """Every name one file gives another exists, and sleeved starting cards are level-0 cores; DataError otherwise."""
    characters_file = data_file(PACKAGE, "characters.yaml", directory)
    sleeves = [(f"starting_deck[{index}]", pair) for index, pair in enumerate(cards.starting_deck)]
    for c, character in enumerate(cards.characters):
        sleeves += [
            (f"characters[{c}] ({character.name}).cards[{index}]", pair) for index, pair in enumerate(character.cards)
        ]
    for where, pair in sleeves:
        core = referenced(cards.cores, pair.core, characters_file, f"{where}.core")
        if core.level != 0:
            raise DataError(
                characters_file,
                f"{where}.core",
                f"{pair.core!r} is a level-{core.level} core; sleeved starting and character cards are level 0",
            )
        threat = referenced(cards.threats, pair.threat, characters_file, f"{where}.threat")
        if threat.group != "starting":
            raise DataError(
                characters_file,
                f"{where}.threat",
                f"{pair.threat!r} is a {threat.group} threat; "
                "sleeved starting and character cards have threats of the starting group",
            )
    bosses_file = data_file(PACKAGE, "bosses.yaml", directory)
    for b, boss in enumerate(cards.bosses):
        at = f"bosses[{b}] ({boss.name})"
        named = [
            *((f"boss_deck[{i}].threat", entry.threat) for i, entry in enumerate(boss.boss_deck)),
            *((f"threat_deck[{i}].threat", part.threat) for i, part in enumerate(boss.threat_deck) if part.threat),
            *(
                (f"boss_damage_sources[{i}].threat", source.threat)
                for i, source in enumerate(boss.boss_damage_sources)
                if source.threat
            ),
        ]
        for field, name in named:
            threat = referenced(cards.threats, name, bosses_file, f"{at}.{field}")
            if threat.group == "starting" and not field.startswith("boss_damage_sources"):
                raise DataError(
                    bosses_file, f"{at}.{field}", f"{name!r} is a starting threat, sleeved in character decks only"
                )
        for m, member in enumerate(boss.win.members):
            referenced(cards.threats, member, bosses_file, f"{at}.win.members[{m}]")
        for i, source in enumerate(boss.boss_damage_sources):
            if bool(source.member) != (boss.win.kind == "members"):
                wanted = "names one of the boss's members" if boss.win.kind == "members" else "names no member"
                raise DataError(bosses_file, f"{at}.boss_damage_sources[{i}].member", f"on this boss a source {wanted}")
            if source.member and source.member not in boss.win.members:
                raise DataError(
                    bosses_file,
                    f"{at}.boss_damage_sources[{i}].member",
                    f"{source.member!r} is not a member of {boss.name} ({', '.join(boss.win.members)})",
                )
        if not sum(cards.threat_deck(boss)):
            raise DataError(bosses_file, f"{at}.threat_deck", "the threat deck is empty")


__all__ = [
    "Boss",
    "BossDamageSource",
    "BossWin",
    "LevelUpEffect",
    "ThreatDeckPart",
    "Character",
    "Core",
    "DangerSpace",
    "DataError",
    "Effect",
    "Keywords",
    "Threat",
    "UnstoppableCards",
    "Upgrade",
    "load_unstoppable_cards",
]
