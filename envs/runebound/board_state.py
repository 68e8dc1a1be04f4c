"""The state of a game of Runebound on the board (solo, The Locust Swarm), declared once: every field with its type and
how it is saved.

`BoardStateData` holds the hero on the board (its cell, wounds, gold, trophies, assets, skills, quests, prepare token),
the turn (actions left, the terrain dice rolled), the time track, the markets and the decks, the gems, the warbands
and scorched earth, the combat's fields (`state.CombatFields`, inherited: the fight on now, if any), the decisions and
the one frame stack. Every value is an int or a tuple (immutable, shared by clones). Content is saved by name, cells by
their `[q, r]` coordinates.

Decks are sets, not orders: every draw is a chance event over the cards left at the moment it is drawn (RULES.md,
"What is hidden"), so a deck is saved as the names of the cards it holds, sorted.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple

from envs.core.decisions import DecisionStack
from envs.core.game import StateFormatError
from envs.core.record import (
    BoundedInt,
    DecisionStackCodec,
    FieldCodec,
    ListOf,
    NameOf,
    NamesOf,
    NameTables,
    StateRecord,
)
from envs.runebound.board_cards import ASSET_TYPES, TROPHY_KINDS, BoardCards
from envs.runebound.movement import FACE_NAMES
from envs.runebound.state import FRAME_DETAILS_BY_NAME, CombatFields, name_tables

if TYPE_CHECKING:
    from envs.runebound.board_game import RuneboundGame

BOARD_MAP = "board"
"""The name of the game's hex map in its name tables (cells saved by coordinates)."""
NO_CELL = -1
NONE = -1
"""An empty slot (an asset type not held, no fight)."""
MAX_GAME_LENGTH = 2500
"""Bound on the hero's decisions in one game (RULES.md, "Game length": measured games stay far below it)."""
MAX_FRAMES = 96
"""Bound on the frame stack of a saved state (a fight inside a turn holds a few dozen frames at most)."""
MAX_HAND = 6
"""Most skill cards in hand (hand size 3-4, raised by learned skills; the action space has a slot per card)."""
MAX_DICE = 6
"""Most terrain dice rolled in one move (speed 3, raised by a mount, a learned skill and Eliam's ability)."""
MAX_ACTIONS = 4
"""Actions in one turn: 3, and 1 more for a prepare token spent."""
MAX_WOUNDS = 30
MAX_GOLD = 40
MAX_TROPHIES = 20
MAX_UNITS = 4
"""A warband's units (public facts 3.7: 1 unit targets shrines ... 4 units cities)."""
MARKET_SLOTS = 4
"""A market holds 3 assets, 4 while a shop action has drawn one (public facts 3.3)."""


class BoardOutcome(enum.IntEnum):
    """How the game stands: going on, or how it ended."""

    ONGOING = 0
    WON = 1
    """Every warband is defeated (The Locust Swarm: "Win: defeat all warbands")."""
    TIME_OUT = 2
    """The time track ran out at the end of Act II."""
    DEFEATED = 3
    """The hero was defeated in a fight."""


class Prepare(enum.IntEnum):
    """The hero's prepare token (PREPARE ACTION): none, placed this turn (spent only "on a future turn"), or held."""

    NONE = 0
    PLACED = 1
    HELD = 2


class BoardKind(enum.StrEnum):
    """The board's frame kinds (envs/core/engine.py); the combat's kinds (state.Kind) run on the same stack."""

    # chance
    PICK_HERO = "pick board hero"
    DEAL_MARKET = "deal market"
    SHOP_DRAW = "shop draw"
    ROLL_DIE = "roll terrain die"
    DRAW_ADVENTURE = "draw adventure"
    DRAW_SKILL = "draw skill"
    DRAW_STORY = "draw story"
    SPAWN_WARBAND = "spawn warband"
    TEST_ROLL = "test roll"
    REVEAL_GEM = "reveal gem"
    RESTOCK = "restock market"
    # automatic
    BOARD_SETUP = "board setup"
    END_SETUP = "end setup"
    START_TURN = "start turn"
    NEXT_ACTION = "next action"
    END_TURN = "end turn"
    MOVE_WARBANDS = "move warbands"
    # decisions
    CHOOSE_ACTION = "choose action"
    MOVE_STEP = "move step"
    SHOP = "shop"
    EXERT = "exert"
    DISCARD_SKILL = "discard skill"
    FIGHT_EXERT = "exert in fight"


BOARD_DECISION_KINDS = (
    BoardKind.CHOOSE_ACTION,
    BoardKind.MOVE_STEP,
    BoardKind.SHOP,
    BoardKind.EXERT,
    BoardKind.DISCARD_SKILL,
    BoardKind.FIGHT_EXERT,
)
"""The board's decisions, in the order of the observation's `board_decision` view."""


class WarbandOnBoard(NamedTuple):
    """A warband in play: its card, its cell, its units."""

    card: int
    cell: int
    units: int


def board_name_tables(cards: BoardCards) -> NameTables:
    """Content names by table for saved states: the combat's tables and the board's; the map's cells by coordinate."""
    combat = name_tables(cards.combat)
    asset_deck = [*(asset.name for asset in cards.assets), *(twist.name for twist in cards.twists)]
    return NameTables(
        {
            **combat.names,
            "asset_card": asset_deck,
            "skill": list(cards.skills.names),
            "adventure": list(cards.adventures.names),
            "story": list(cards.story.names),
            "warband": list(cards.warbands.names),
            "trophy": list(TROPHY_KINDS),
            "asset_type": list(ASSET_TYPES),
            "terrain_face": list(FACE_NAMES),
        },
        hex_maps={BOARD_MAP: cards.map.hex_map},
    )


class CellOf(FieldCodec):
    """One cell of the board, saved as `[q, r]` (null for none when `optional`)."""

    def __init__(self, optional: bool = False) -> None:
        self.optional = optional

    def encode(self, value: Any, tables: NameTables) -> Any:
        """`[q, r]`, or None."""
        if value == NO_CELL and self.optional:
            return None
        return list(tables.hex_maps[BOARD_MAP].hex_at(value))

    def decode(self, value: Any, tables: NameTables, field: str) -> Any:
        """The cell id; StateFormatError naming the field for anything but a hex of the map."""
        if value is None and self.optional:
            return NO_CELL
        board = tables.hex_maps[BOARD_MAP]
        if (
            not isinstance(value, list | tuple)
            or len(value) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in value)
        ):
            raise StateFormatError(field, f"expected a hex [q, r], got {value!r}")
        if tuple(value) not in board:
            raise StateFormatError(field, f"hex {list(value)} is not on the map")
        return board.index((value[0], value[1]))


class CellsOf(FieldCodec):
    """A set of cells, kept as a sorted tuple, saved as `[[q, r], ...]`; a cell given twice is refused."""

    def __init__(self) -> None:
        self.cell = CellOf()

    def encode(self, value: Any, tables: NameTables) -> Any:
        """The cells in order."""
        return [self.cell.encode(cell, tables) for cell in value]

    def decode(self, value: Any, tables: NameTables, field: str) -> Any:
        """The sorted tuple of cells."""
        if not isinstance(value, list | tuple):
            raise StateFormatError(field, f"expected a list of hexes, got {value!r}")
        cells = [self.cell.decode(item, tables, f"{field}[{index}]") for index, item in enumerate(value)]
        if len(set(cells)) != len(cells):
            raise StateFormatError(field, "a hex is given twice")
        return tuple(sorted(cells))


class PileOf(FieldCodec):
    """A set of cards of a table (a deck or a discard pile: no order), kept sorted, saved as names."""

    def __init__(self, table: str) -> None:
        self.names = NamesOf(table)

    def encode(self, value: Any, tables: NameTables) -> Any:
        """The names, in table order."""
        return self.names.encode(value, tables)

    def decode(self, value: Any, tables: NameTables, field: str) -> Any:
        """The sorted tuple of indices; a card given twice is refused."""
        cards = self.names.decode(value, tables, field)
        if len(set(cards)) != len(cards):
            raise StateFormatError(field, "a card is given twice")
        return tuple(sorted(cards))


WARBAND_KEYS = ("warband", "at", "units")


class WarbandRows(FieldCodec):
    """The warbands in play, in the order they spawned: `[{"warband": name, "at": [q, r], "units": n}, ...]`."""

    def __init__(self) -> None:
        self.card = NameOf("warband")
        self.cell = CellOf()
        self.units = BoundedInt(1, MAX_UNITS)

    def encode(self, value: Any, tables: NameTables) -> Any:
        """One dict per warband."""
        return [
            {
                "warband": self.card.encode(band.card, tables),
                "at": self.cell.encode(band.cell, tables),
                "units": band.units,
            }
            for band in value
        ]

    def decode(self, value: Any, tables: NameTables, field: str) -> Any:
        """A tuple of WarbandOnBoard; StateFormatError naming the entry and key."""
        if not isinstance(value, list | tuple):
            raise StateFormatError(field, f"expected a list of warbands, got {value!r}")
        rows = []
        for index, row in enumerate(value):
            where = f"{field}[{index}]"
            if not isinstance(row, dict):
                raise StateFormatError(where, f"expected {{warband, at, units}}, got {row!r}")
            for key in row:
                if key not in WARBAND_KEYS:
                    raise StateFormatError(f"{where}.{key}", f"unknown key (keys: {', '.join(WARBAND_KEYS)})")
            for key in WARBAND_KEYS:
                if key not in row:
                    raise StateFormatError(f"{where}.{key}", "missing")
            rows.append(
                WarbandOnBoard(
                    self.card.decode(row["warband"], tables, f"{where}.warband"),
                    self.cell.decode(row["at"], tables, f"{where}.at"),
                    self.units.decode(row["units"], tables, f"{where}.units"),
                )
            )
        return tuple(rows)


class Trophies(FieldCodec):
    """Trophies by kind, saved as {"combat": n, "exploration": n, "social": n}."""

    def encode(self, value: Any, tables: NameTables) -> Any:
        """{kind: count}."""
        return dict(zip(TROPHY_KINDS, value, strict=True))

    def decode(self, value: Any, tables: NameTables, field: str) -> Any:
        """(combat, exploration, social)."""
        if not isinstance(value, dict):
            raise StateFormatError(field, f"expected {{'combat': n, 'exploration': n, 'social': n}}, got {value!r}")
        for key in value:
            if key not in TROPHY_KINDS:
                raise StateFormatError(f"{field}.{key}", f"unknown trophy kind (kinds: {', '.join(TROPHY_KINDS)})")
        count = BoundedInt(0, MAX_TROPHIES)
        return tuple(count.decode(value.get(kind, 0), tables, f"{field}.{kind}") for kind in TROPHY_KINDS)


class AssetSlots(FieldCodec):
    """The asset held of each type, saved as {"weapon": name | null, "armor": ..., "trinket": ..., "mount": ...}."""

    def __init__(self) -> None:
        self.card = NameOf("asset_card", optional=True)

    def encode(self, value: Any, tables: NameTables) -> Any:
        """{type: name or None}."""
        return {kind: self.card.encode(card, tables) for kind, card in zip(ASSET_TYPES, value, strict=True)}

    def decode(self, value: Any, tables: NameTables, field: str) -> Any:
        """One asset card index (or -1) per type."""
        if not isinstance(value, dict):
            raise StateFormatError(field, f"expected {{type: asset name or null}}, got {value!r}")
        for key in value:
            if key not in ASSET_TYPES:
                raise StateFormatError(f"{field}.{key}", f"unknown asset type (types: {', '.join(ASSET_TYPES)})")
        return tuple(self.card.decode(value.get(kind), tables, f"{field}.{kind}") for kind in ASSET_TYPES)


CARDS_BY_NAME = {
    "adventure": NameOf("adventure"),
    "skill": NameOf("skill"),
    "card": NameOf("asset_card"),
    **FRAME_DETAILS_BY_NAME,
}
"""Frame details saved by name (a test's adventure, an asset card), beside the combat's."""


@dataclass(eq=False)
class BoardHead:
    """The game and the hero, saved first."""

    game: RuneboundGame
    hero: Annotated[int, NameOf("hero", optional=True)]
    """The hero (an index of the combat's heroes, which the board heroes name; None until a random one is drawn)."""


@dataclass(eq=False)
class BoardStateData(CombatFields, BoardHead, StateRecord):
    """A game of Runebound on the board: the hero, the board, the time, the decks, the warbands, the combat's fields
    (the fight on now) and the one frame stack; the rules (`board.BoardState`) subclass it."""

    cell: Annotated[int, CellOf()]
    """The hex the hero stands on."""
    wounds: Annotated[int, BoundedInt(0, MAX_WOUNDS)]
    """Damage on the hero on the board (a fight starts from it and leaves what it dealt)."""
    hero_gold: Annotated[int, BoundedInt(0, MAX_GOLD)]
    """The hero's gold (named apart from the combat's `gold()`, the gold rims of a side's faces)."""
    trophies: Annotated[tuple[int, ...], Trophies()]
    assets: Annotated[tuple[int, ...], AssetSlots()]
    """The asset card held of each type (`ASSET_TYPES`), -1 for none."""
    hand: Annotated[tuple[int, ...], ListOf(NameOf("skill"), max_length=MAX_HAND + 3)]
    """Skill cards in hand, in the order drawn (a train may hold up to 3 over the hand size until the discard)."""
    learned: Annotated[tuple[int, ...], NamesOf("skill")]
    """Skills learned (their `learned` raise stays)."""
    quests: Annotated[tuple[int, ...], NamesOf("adventure")]
    """Quests taken and not completed, in the order taken."""
    prepare: Prepare
    actions_left: Annotated[int, BoundedInt(0, MAX_ACTIONS)]
    dice: Annotated[tuple[int, ...], ListOf(NameOf("terrain_face"), max_length=MAX_DICE)]
    """The terrain dice of the move under way not spent yet (their faces)."""
    time: Annotated[int, BoundedInt(0, 40)]
    """Spaces the time token has advanced (Act I: 0 .. act length - 1; then Act II)."""
    markets: Annotated[tuple[tuple[int, ...], ...], ListOf(NamesOf("asset_card"))]
    """Each city's market (cities in cell order), the asset cards face up."""
    asset_deck: Annotated[tuple[int, ...], PileOf("asset_card")]
    asset_discard: Annotated[tuple[int, ...], PileOf("asset_card")]
    set_aside: Annotated[tuple[int, ...], PileOf("asset_card")]
    """Twists drawn while the markets are dealt ("set it aside ... shuffle all drawn twists back")."""
    skill_deck: Annotated[tuple[int, ...], PileOf("skill")]
    skill_discard: Annotated[tuple[int, ...], PileOf("skill")]
    adventure_deck: Annotated[tuple[int, ...], PileOf("adventure")]
    """Adventure cards not drawn yet, every deck's together (a draw takes one of its deck's)."""
    story_deck: Annotated[tuple[int, ...], PileOf("story")]
    gems: Annotated[tuple[int, ...], CellsOf()]
    """Gem spaces with a face-up gem."""
    warband_pile: Annotated[tuple[int, ...], PileOf("warband")]
    """Face-down warbands still to spawn."""
    warbands: Annotated[Any, WarbandRows()]
    """Warbands in play, in the order they spawned (their story-space order)."""
    defeated: Annotated[tuple[int, ...], PileOf("warband")]
    scorched: Annotated[tuple[int, ...], CellsOf()]
    """Hexes with a scorched-earth token."""
    fight: Annotated[int, BoundedInt(-1, 200)]
    """What the fight under way is for: an adventure's index, `WARBAND_FIGHT` + the warband's place, or -1."""
    outcome: BoardOutcome
    decisions: Annotated[int, BoundedInt(0, MAX_GAME_LENGTH)]
    stack: Annotated[DecisionStack, DecisionStackCodec(MAX_FRAMES, details=CARDS_BY_NAME)]
    """Pending frames (envs/core/engine.py), the one to resolve now last: the board's and the fight's."""


WARBAND_FIGHT = 100
"""`fight` values from here are warband fights (100 + the warband's place in `warbands`)."""
