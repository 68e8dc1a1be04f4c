"""Unstoppable's state, declared once: every field with its type and how it is saved; the rest derives from it.

The cards a player owns are sleeves: a core, a threat, and up to two upgrades. Each sleeve of a game has a fixed
index in the game's sleeve table (`sleeves`): the character deck's sleeves come first, in the order the content
lists them (built at setup), and each drafted core takes the next index when it is sleeved. Every zone holds sleeve
indices (hand, play, battlefield, the player deck, discard pile, the box), so a saved position reads as the table
(each sleeve by its card names) and the zones (which sleeves are where). The player deck is a `UniqueDeck` of sleeve
indices, threat side up: its top card, the on-deck threat, is known, the order below it is not. The piles of
unsleeved cards are `Deck`s of card ids by name: the six face-up core decks (top known, the two cards a draft returns
known at the bottom), the face-down threat deck, the boss deck, and the face-down upgrade deck beside the market.

What the player knows of each sleeve is state too (`Sleeve.seen`): a drafted core is sleeved "without viewing the
threat side", which the player learns once the threat is revealed (on top of the deck or on the battlefield).

The rules (`rules.UnstoppableState`) subclass this record; `validation.py` refuses every position that cannot
happen.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

from envs.core.components import Deck, UniqueDeck
from envs.core.decisions import DecisionStack
from envs.core.game import StateFormatError
from envs.core.record import (
    BoundedInt,
    DecisionStackCodec,
    DeckOf,
    FieldCodec,
    ListOf,
    NameOf,
    NamesOf,
    NameTables,
    StateRecord,
)
from envs.unstoppable.cards import MAX_LEVEL, MAX_MEMBERS

if TYPE_CHECKING:
    from envs.unstoppable.game import UnstoppableGame

NONE = -1
"""No card (an empty upgrade cutout or market slot, no sleeve)."""
MAX_SLEEVES = 64
"""Sleeves one game can have: the character deck and one drafted core per turn (game.py checks the danger track
allows no more turns than that)."""
MARKET_SIZE = 6
"""Upgrades face up in the market ("Reveal the top 6 cards of the deck")."""
MAX_HEALTH = 10
"""The health track's top ("You cannot have more than 10 health")."""
MAX_ARMOR = 10
"""The armor track's top."""
MAX_ACTION_POINTS = 6
"""Action point discs a player has ("You cannot have more than 6 action points")."""
MAX_CREDITS = 999
"""Bound on a saved credit total (the supply has no limit: "use any suitable substitute")."""
MAX_DAMAGE = 99
"""Bound on damage tokens saved on one threat."""
MAX_BOSS_DAMAGE = 999
"""Bound on saved boss damage."""
MAX_TURNS = MAX_SLEEVES
"""Bound on the saved turn number (the danger track ends the game sooner)."""
MAX_FRAMES = 2000
"""Bound on the pending-frame stack of a saved position."""


class Phase(enum.IntEnum):
    """The phase of the turn (SETUP before the first turn)."""

    SETUP = 0
    UPKEEP = 1
    DRAFT = 2
    MAIN = 3
    THREAT = 4
    CLEANUP = 5


class Kind(enum.StrEnum):
    """Every frame kind (envs/core/engine.py): decisions, chance events and automatic steps."""

    # Decisions of the player (seat 0).
    MAIN = "main phase"
    EFFECT = "choose effect"
    TARGET = "choose target"
    ELIMINATE = "eliminate"
    REFRESH = "refresh"
    HAND_LIMIT = "discard down to 3"
    RAGE = "rage"
    DRAFT = "draft"
    DANGER = "danger effect"
    CYCLE = "cycle market"
    # Chance events.
    DEAL = "deal"
    REVEAL = "reveal on-deck threat"
    REVEAL_CORE = "reveal core"
    SLEEVE = "sleeve threat"
    MARKET = "reveal upgrade"
    BOSS_CARD = "boss card"
    # Automatic steps.
    START_TURN = "start turn"
    DRAFT_START = "draft start"
    DRAFT_DRAW = "draft draw"
    MAIN_START = "main start"
    THREAT_PHASE = "threat phase"
    CLEANUP = "cleanup"
    REFILL = "refill"
    ADVANCE_DANGER = "advance danger"
    END_TURN = "end turn"
    DEFEAT = "defeat"
    CRAZED = "crazed"
    BONUS = "bonus"
    LEVEL_CHECK = "level check"
    LEVEL_UP = "level up"
    BOSS_LEVEL_UP = "boss level up"
    RESHUFFLE = "reshuffle"
    REPEAT_LIMIT = "repeat limit"


DECISION_KINDS = (
    Kind.MAIN,
    Kind.EFFECT,
    Kind.TARGET,
    Kind.ELIMINATE,
    Kind.REFRESH,
    Kind.HAND_LIMIT,
    Kind.RAGE,
    Kind.DRAFT,
    Kind.DANGER,
    Kind.CYCLE,
)
"""Every decision kind, in the order of the observation's one-hot `decision` view."""


@dataclass(frozen=True, slots=True)
class Sleeve:
    """One sleeved card: its core and threat, its upgrades, what the player knows of it and the damage on it.

    A frozen dataclass, not a tuple: saved states turn every tuple they load into a plain tuple."""

    core: int
    """Core card index."""
    threat: int
    """Threat card index."""
    top: int = NONE
    """Upgrade index in the top cutout (NONE: empty)."""
    bottom: int = NONE
    """Upgrade index in the bottom cutout (NONE: empty)."""
    seen: bool = True
    """Whether the player has seen the threat side (a drafted core is sleeved without viewing it)."""
    damage: int = 0
    """Damage tokens on the threat (damage persists between turns while it is a threat)."""


SLEEVE_KEYS = ("core", "threat", "top", "bottom", "seen", "damage")
"""The keys of a saved sleeve, in order; top, bottom, seen and damage may be left out of a hand-written one."""


class SleevesCodec(FieldCodec):
    """The sleeve table, saved as one record per sleeve: `{"core": "Strike", "threat": "Ceresan Thief", "top":
    null, "bottom": null, "seen": true, "damage": 0}` (a hand-written record may leave out the last four)."""

    def encode(self, value: Any, tables: NameTables) -> Any:
        """The sleeves by card names."""
        cores, threats, upgrades = tables.names["core"], tables.names["threat"], tables.names["upgrade"]
        return [
            {
                "core": cores[sleeve.core],
                "threat": threats[sleeve.threat],
                "top": None if sleeve.top == NONE else upgrades[sleeve.top],
                "bottom": None if sleeve.bottom == NONE else upgrades[sleeve.bottom],
                "seen": sleeve.seen,
                "damage": sleeve.damage,
            }
            for sleeve in value
        ]

    def decode(self, value: Any, tables: NameTables, field: str) -> Any:
        """A tuple of Sleeves; StateFormatError naming the sleeve and key that is wrong."""
        if not isinstance(value, list | tuple):
            raise StateFormatError(field, f"expected a list of sleeves, got {value!r}")
        if len(value) > MAX_SLEEVES:
            raise StateFormatError(field, f"a game has at most {MAX_SLEEVES} sleeves, got {len(value)}")
        sleeves = []
        upgrade = NameOf("upgrade", optional=True)
        for index, record in enumerate(value):
            where = f"{field}[{index}]"
            if not isinstance(record, dict):
                raise StateFormatError(
                    where, f"expected a sleeve (core, threat, top, bottom, seen, damage), got {record!r}"
                )
            for key in record:
                if key not in SLEEVE_KEYS:
                    raise StateFormatError(f"{where}.{key}", f"unknown key (a sleeve has {', '.join(SLEEVE_KEYS)})")
            for key in ("core", "threat"):
                if key not in record:
                    raise StateFormatError(f"{where}.{key}", "missing (every sleeve has a core and a threat)")
            seen = record.get("seen", True)
            if not isinstance(seen, bool):
                raise StateFormatError(f"{where}.seen", f"expected true or false, got {seen!r}")
            sleeves.append(
                Sleeve(
                    core=tables.index("core", record["core"], f"{where}.core"),
                    threat=tables.index("threat", record["threat"], f"{where}.threat"),
                    top=upgrade.decode(record.get("top"), tables, f"{where}.top"),
                    bottom=upgrade.decode(record.get("bottom"), tables, f"{where}.bottom"),
                    seen=seen,
                    damage=BoundedInt(0, MAX_DAMAGE).decode(record.get("damage", 0), tables, f"{where}.damage"),
                )
            )
        return tuple(sleeves)


class SleeveDeckCodec(FieldCodec):
    """The player deck (a UniqueDeck of sleeve indices), saved as {"top": [...], "unknown": [...], "bottom":
    [...]}: the top in drawing order (the on-deck threat first), the unknown part sorted (its order is random)."""

    def encode(self, value: Any, tables: NameTables) -> Any:
        """The deck's parts as sleeve indices."""
        return {"top": list(value.top), "unknown": sorted(value.unknown), "bottom": list(value.bottom)}

    def decode(self, value: Any, tables: NameTables, field: str) -> Any:
        """A UniqueDeck over MAX_SLEEVES ids; StateFormatError naming the part that is wrong."""
        if not isinstance(value, dict):
            raise StateFormatError(field, f"expected a deck {{top, unknown, bottom}}, got {value!r}")
        parts = {}
        for key in value:
            if key not in ("top", "unknown", "bottom"):
                raise StateFormatError(f"{field}.{key}", "unknown part of a deck (parts: top, unknown, bottom)")
        for key in ("top", "unknown", "bottom"):
            parts[key] = SLEEVE_LIST.decode(value.get(key, []), tables, f"{field}.{key}")
        try:
            return UniqueDeck(MAX_SLEEVES, frozenset(parts["unknown"]), tuple(parts["top"]), tuple(parts["bottom"]))
        except ValueError as error:
            raise StateFormatError(field, str(error)) from None


SLEEVE = BoundedInt(0, MAX_SLEEVES - 1)
SLEEVE_LIST = ListOf(SLEEVE, max_length=MAX_SLEEVES)
REPEAT_ENTRY = ListOf(BoundedInt(0, 10**4), length=3)
FRAME_DETAILS_BY_NAME = {"core": NameOf("core")}
"""Frame details saved by name: the core a draft keeps (sleeves, modes, slots and amounts stay numbers)."""


def unstoppable_name_tables(game: UnstoppableGame) -> NameTables:
    """Content names by table for saved states (index order is the content files')."""
    cards = game.cards
    return NameTables(
        {
            "core": [core.name for core in cards.cores],
            "threat": [threat.name for threat in cards.threats],
            "upgrade": [upgrade.name for upgrade in cards.upgrades],
        }
    )


@dataclass(eq=False)
class UnstoppableStateData(StateRecord):
    """Everything that changes in a game of Unstoppable; every field is immutable, so a clone shares them."""

    game: UnstoppableGame
    sleeves: Annotated[tuple[Sleeve, ...], SleevesCodec()]
    """The sleeve table: the character deck's sleeves first, then each drafted card in the order it was drafted."""
    hand: Annotated[tuple[int, ...], SLEEVE_LIST]
    """Sleeves in your hand (core side facing you)."""
    in_play: Annotated[tuple[int, ...], SLEEVE_LIST]
    """Sleeves in play, core side up (tactics until the Cleanup Phase, allies until you level up)."""
    exhausted: Annotated[tuple[int, ...], SLEEVE_LIST]
    """Allies in play that are exhausted (rotated sideways)."""
    battlefield: Annotated[tuple[int, ...], SLEEVE_LIST]
    """The active threats, in the order they were added."""
    deck: Annotated[UniqueDeck, SleeveDeckCodec()]
    """Your deck, threat side up: its known top card is the on-deck threat; the order below is unknown."""
    discard: Annotated[tuple[int, ...], SLEEVE_LIST]
    """Your discard pile."""
    eliminated: Annotated[tuple[int, ...], SLEEVE_LIST]
    """Sleeves returned to the box."""
    core_decks: Annotated[tuple[Deck, ...], ListOf(DeckOf("core"), length=MAX_LEVEL)]
    """The face-up core decks of levels 1-6: the top card known, the two a draft returns known at the bottom."""
    draft: Annotated[tuple[int, ...], NamesOf("core")]
    """The cores drawn in the Draft Phase, in the order drawn, until one is kept."""
    threat_deck: Annotated[Deck, DeckOf("threat")]
    """The face-down threat deck (drafted cores are sleeved with its top card)."""
    boss_deck: Annotated[Deck, DeckOf("threat")]
    """The boss deck (its cards join the threat deck when the boss mat says so)."""
    upgrade_deck: Annotated[Deck, DeckOf("upgrade")]
    """The face-down upgrade deck (upgrades cycled from the market are known at its bottom)."""
    market: Annotated[tuple[int, ...], ListOf(NameOf("upgrade", optional=True), length=MARKET_SIZE)]
    """The upgrade in each market slot (null: empty)."""
    health: Annotated[int, BoundedInt(0, MAX_HEALTH)]
    armor: Annotated[int, BoundedInt(0, MAX_ARMOR)]
    credits: Annotated[int, BoundedInt(0, MAX_CREDITS)]
    action_points: Annotated[int, BoundedInt(0, MAX_ACTION_POINTS)]
    level: Annotated[int, BoundedInt(1, MAX_LEVEL)]
    """The large level disc: your level (Level X+ conditions read it)."""
    small_level: Annotated[int, BoundedInt(1, MAX_LEVEL)]
    """The small level disc: the core deck you draft from (training advances it until the draft resets it)."""
    danger: Annotated[int, BoundedInt(0, 10**3)]
    """The danger marker's space on the boss mat's danger track (0: the first space)."""
    boss_damage: Annotated[int, BoundedInt(0, MAX_BOSS_DAMAGE)]
    """Boss damage dealt so far (to a boss with members: what its members took)."""
    turn: Annotated[int, BoundedInt(0, MAX_TURNS)]
    """Turns started so far."""
    phase: Phase
    repeats: Annotated[tuple[tuple[int, int, int], ...], ListOf(REPEAT_ENTRY, max_length=10**4)]
    """This turn's resolutions of each effect of each card: [sleeve, effect id, times] (effects.effect_id)."""
    over: bool
    won: bool
    stack: Annotated[DecisionStack, DecisionStackCodec(MAX_FRAMES, details=FRAME_DETAILS_BY_NAME)]
    """Pending frames (envs/core/decisions.py), the one to resolve now last."""
    decisions: Annotated[int, BoundedInt(0, 10**9)] = 0
    """Decisions taken so far (those the rules take are not counted)."""
    member_damage: Annotated[tuple[int, ...], ListOf(BoundedInt(0, MAX_BOSS_DAMAGE), max_length=MAX_MEMBERS)] = ()
    """The boss damage each member of a boss with members has taken, in the mat's order (`boss_damage` is their sum);
    empty for a boss without members."""
