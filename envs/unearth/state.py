"""Unearth's state, declared once: every field with its type and how it is saved; the rest derives from it.

`UnearthStateData` holds what changes during a game as plain ints and tuples (every field immutable, so a clone
shares them). Content indices are declared with their table, so a saved state names every Ruin, Delver card,
Named Wonder, End of Age card, Stone colour and die (`{"table": ["peach 9", null, ...]}`), and a seat's dice are
saved as one record per die (`"dice": [{"die 1 (d6)": {"place": 0, "value": 4, "rolled": 3}, ...}, ...]`). The
rules (`rules.UnearthState`) subclass it; `validation.py` refuses every position that cannot happen.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

from envs.core.decisions import DecisionStack
from envs.core.game import StateFormatError
from envs.core.record import (
    BoolCodec,
    BoundedInt,
    CountsOf,
    DecisionStackCodec,
    FieldCodec,
    ListOf,
    NameOf,
    NamesOf,
    NameTables,
    PerSeat,
    SavedTogether,
    StateRecord,
)
from envs.unearth.tableau import TABLEAU_RADIUS, Tableau

if TYPE_CHECKING:
    from envs.unearth.game import UnearthGame

NOWHERE = -1
"""A die's place when it is in its owner's pool (not on a Ruin), or an empty table place."""
LESSER, GREATER = 0, 1
"""Wonder ids in a tableau: 0 a Lesser Wonder, 1 a Greater Wonder, NAMED_BASE + k the Named Wonder k."""
NAMED_BASE = 2
LESSER_NAME, GREATER_NAME = "Lesser Wonder", "Greater Wonder"
"""How a saved tableau names the two generic Wonders."""
MAX_TABLE_PLACES = 5
"""Most Ruins face up at once (3 and 4 players)."""
MAX_DIE_FACE = 8
"""The largest die (d8)."""
MAX_ROLL_MODIFIER = 5
"""Bound on a saved roll modifier (the End of Age events give -1 or +1; validation checks the exact value)."""
MAX_COUNTER = 100
"""Bound on a turn's counters (rerolls, extra dice, ...): each comes from a Delver card, of which there are 38."""
MAX_TOKENS = 32
"""Bound on a list of Wonder tokens (16 in the box)."""
MAX_FRAMES = 1000
"""Bound on the pending-decision stack of a saved state (a game's deepest stack holds a few dozen frames)."""

Counts = tuple[int, ...]

TABLE_SIZE = {2: 4, 3: 5, 4: 5}
"""Ruins face up at once, by number of players ("reveal only 4 Ruins Cards" in a 2-player game)."""

# Frame kinds. Decisions (a seat decides):
DELVER_PHASE = "delver phase"
TARGET_DIE = "target die"
NAME_NUMBER = "name a number"
EXCAVATION_DIE = "excavation die"
EXCAVATION_RUIN = "excavation ruin"
READING_SIGN = "reading the stones"
WONDER_MODIFIER = "wonder modifier"
MODIFIER_ORDER = "modifier order"
MAP_REROLL = "ancient map"
EDIFICE_REROLL = "shattered edifice"
TAKE_STONE = "take stone"
PLACE_STONE = "place stone"
BUILD_WONDER = "build wonder"
CHOOSE_REMOVED = "crumbling memorial"
DECISION_KINDS = (
    DELVER_PHASE,
    TARGET_DIE,
    NAME_NUMBER,
    EXCAVATION_DIE,
    EXCAVATION_RUIN,
    READING_SIGN,
    WONDER_MODIFIER,
    MODIFIER_ORDER,
    MAP_REROLL,
    EDIFICE_REROLL,
    TAKE_STONE,
    PLACE_STONE,
    BUILD_WONDER,
    CHOOSE_REMOVED,
)
"""Every kind of decision, in the order of the observation's one-hot `decision` view."""
# Chance events (CHANCE decides):
DEAL_DELVER = "deal delver"
DEAL_HIDDEN_RUIN = "deal hidden ruin"
REMOVE_RUIN = "remove ruin"
CHOOSE_END_OF_AGE = "choose end of age"
REVEAL_RUIN = "reveal ruin"
STONE_TO_RUIN = "stone to ruin"
CHOOSE_NAMED = "choose named wonder"
FIRST_PLAYER = "first player"
DRAW_DELVER = "draw delver"
ROLL = "roll"
BAG_STONE = "bag stone"
WONDER_TOKEN = "wonder token"
DRAW_REMOVED = "blackened cenotaph"
CHANCE_KINDS = (
    DEAL_DELVER,
    DEAL_HIDDEN_RUIN,
    REMOVE_RUIN,
    CHOOSE_END_OF_AGE,
    REVEAL_RUIN,
    STONE_TO_RUIN,
    CHOOSE_NAMED,
    FIRST_PLAYER,
    DRAW_DELVER,
    ROLL,
    BAG_STONE,
    WONDER_TOKEN,
    DRAW_REMOVED,
)
"""Every kind of chance event."""
# Automatic steps:
START_TURN = "start turn"
END_TURN = "end turn"
EXCAVATE = "excavate"
RESOLVE_ROLL = "resolve roll"
APPLY_MODIFIERS = "apply modifiers"
GAIN_STONE = "gain stone"
CHECK_CLAIMS = "check claims"

# Steps of a roll's resolution (RULES.md, "Rolls"), in order.
STEP_EDIFICE, STEP_RUIN, STEP_MODIFIERS, STEP_MAP, STEP_STONE, STEP_CLAIMS, STEP_DONE = range(7)


def die_names(die_sides: tuple[int, ...]) -> tuple[str, ...]:
    """A seat's dice by name, as action labels name them: "die 1 (d6)", ..., "die 5 (d8)"."""
    return tuple(f"die {die + 1} (d{sides})" for die, sides in enumerate(die_sides))


def unearth_name_tables(game: UnearthGame) -> NameTables:
    """Content names by table for saved states (index order is the game's)."""
    cards = game.cards
    return NameTables(
        {
            "delver": [delver.name for delver in cards.delvers],
            "ruin": [ruin.name for ruin in game.ruins],
            "end_of_age": [card.name for card in cards.end_of_age],
            "named_wonder": [wonder.name for wonder in cards.named_wonders],
            "colour": [colour.name for colour in cards.stone_colours],
            "die": die_names(cards.die_sides),
        },
        num_seats=game.spec.num_players,
    )


class TableauCodec(FieldCodec):
    """A seat's tableau, saved as its Stones `[q, r, colour name]` in placing order and its Wonders `[q, r, name]`
    (a Wonder whose kind is not chosen yet: null), on the one grid of radius TABLEAU_RADIUS."""

    def encode(self, value: Any, tables: NameTables) -> Any:
        """Stones and Wonders by name."""
        colours, named = tables.names["colour"], tables.names["named_wonder"]
        saved = value.to_dict()
        return {
            "stones": [[q, r, colours[colour]] for q, r, colour in saved["stones"]],
            "wonders": [
                [q, r, None if wonder is None else _wonder_name(wonder, named)] for q, r, wonder in saved["wonders"]
            ],
        }

    def decode(self, value: Any, tables: NameTables, field: str) -> Any:
        """A Tableau; StateFormatError naming the entry (sizes checked before anything is built)."""
        if not isinstance(value, dict):
            raise StateFormatError(field, f"a tableau is a mapping with stones and wonders, got {value!r}")
        for key in value:
            if key not in ("stones", "wonders"):
                raise StateFormatError(f"{field}.{key}", "unknown field (fields: stones, wonders)")
        parts: dict[str, list[list[Any]]] = {}
        cells = 3 * TABLEAU_RADIUS * (TABLEAU_RADIUS + 1) + 1
        for key in ("stones", "wonders"):
            entries = value.get(key)
            if not isinstance(entries, list | tuple):
                raise StateFormatError(f"{field}.{key}", f"expected a list of [q, r, name], got {entries!r}")
            if len(entries) > cells:
                raise StateFormatError(f"{field}.{key}", f"a tableau has {cells} cells, got {len(entries)} entries")
            parts[key] = []
            for i, entry in enumerate(entries):
                where = f"{field}.{key}[{i}]"
                if not isinstance(entry, list | tuple) or len(entry) != 3:
                    raise StateFormatError(where, f"expected [q, r, name], got {entry!r}")
                q, r, name = entry
                if key == "stones":
                    parts[key].append([q, r, tables.index("colour", name, f"{where}[2]")])
                else:
                    parts[key].append([q, r, None if name is None else _wonder_id(name, tables, f"{where}[2]")])
        return Tableau.from_dict({"radius": TABLEAU_RADIUS, **parts}, field)


def _wonder_name(wonder: int, named: tuple[str, ...]) -> str:
    if wonder == LESSER:
        return LESSER_NAME
    if wonder == GREATER:
        return GREATER_NAME
    return named[wonder - NAMED_BASE]


def _wonder_id(name: Any, tables: NameTables, field: str) -> int:
    if name == LESSER_NAME:
        return LESSER
    if name == GREATER_NAME:
        return GREATER
    if name in tables.names["named_wonder"]:
        return NAMED_BASE + tables.index("named_wonder", name, field)
    known = [LESSER_NAME, GREATER_NAME, *tables.names["named_wonder"]]
    raise StateFormatError(field, f"unknown Wonder {name!r} (known: {', '.join(known)})")


FRAME_DETAILS_BY_NAME = {
    "die": NameOf("die"),
    "colour": NameOf("colour"),
    "card": NameOf("delver"),
    "wonder": NameOf("named_wonder"),
}
"""Frame details saved by name: a die, a Stone colour, a Delver card, a Named Wonder (seats, table places, tableau
cells and steps stay numbers)."""
SEAT_OR_NONE = BoundedInt(0, 3, null_as=NOWHERE)
COUNTER = BoundedInt(0, MAX_COUNTER)
DIE_NUMBER = BoundedInt(0, MAX_DIE_FACE)
TOKEN_POINTS = ListOf(BoundedInt(0, 20), max_length=MAX_TOKENS)


@dataclass(eq=False)
class UnearthStateData(StateRecord):
    """Everything that changes in a game of Unearth; every field is immutable, so a clone shares them."""

    game: UnearthGame
    hands: Annotated[tuple[Counts, ...], PerSeat(CountsOf("delver"))]
    """Delver cards in each hand, as copies per Delver type (hidden from the other seats)."""
    delver_deck: Annotated[Counts, CountsOf("delver")]
    """The Delver draw pile as copies per type (its order is unknown to everyone: draws are chance events)."""
    delver_discard: Annotated[Counts, CountsOf("delver")]
    ruin_deck: Annotated[tuple[int, ...], NamesOf("ruin")]
    """Ruin ids still to be revealed (an unordered multiset: each reveal is a uniform draw)."""
    removed: Annotated[tuple[int, ...], NamesOf("ruin")]
    """Ruins put back in the box unseen at setup (hidden from everyone but a seat in `removed_seen`)."""
    removed_seen: Annotated[tuple[bool, ...], PerSeat(BoolCodec())]
    """Seats that looked at the removed Ruins (The Crumbling Memorial)."""
    discarded_ruins: Annotated[tuple[int, ...], NamesOf("ruin")]
    """Ruins put back in the box after an unbreakable tie (public)."""
    end_of_age: Annotated[int, NameOf("end_of_age", optional=True)]
    """The End of Age card under the Ruins deck (index into the cards; NOWHERE before setup picks it)."""
    end_of_age_revealed: bool
    roll_modifier: Annotated[int, BoundedInt(-MAX_ROLL_MODIFIER, MAX_ROLL_MODIFIER)]
    """The End of Age event's modifier to every die rolled (The Gathering -1, Festival of Reclamation +1)."""
    table: Annotated[tuple[int, ...], NamesOf("ruin", optional=True)]
    """Ruin id at each table place, NOWHERE where none."""
    ruin_stones: Annotated[tuple[Counts, ...], ListOf(CountsOf("colour"), max_length=MAX_TABLE_PLACES)]
    """Stones on each table place's Ruin, per colour."""
    bag: Annotated[Counts, CountsOf("colour")]
    """Stones in the cloth bag, per colour (public: every other Stone is in sight)."""
    die_place: Annotated[
        tuple[tuple[int, ...], ...], SavedTogether("dice", "place", "die", BoundedInt(0, MAX_TABLE_PLACES - 1, NOWHERE))
    ]
    """Table place of each seat's dice, NOWHERE in the pool (saved: null)."""
    die_value: Annotated[
        tuple[tuple[int, ...], ...], SavedTogether("dice", "value", "die", BoundedInt(0, MAX_DIE_FACE))
    ]
    """The result each die shows (0 in the pool)."""
    die_face: Annotated[
        tuple[tuple[int, ...], ...], SavedTogether("dice", "rolled", "die", BoundedInt(0, MAX_DIE_FACE))
    ]
    """The face each die last rolled (before modifiers): what gains a Stone and what Wonders react to."""
    hidden_ruins: Annotated[tuple[tuple[int, ...], ...], PerSeat(NamesOf("ruin"))]
    claimed: Annotated[tuple[tuple[int, ...], ...], PerSeat(NamesOf("ruin"))]
    tableaus: Annotated[tuple[Tableau, ...], PerSeat(TableauCodec())]
    lesser_built: Annotated[tuple[tuple[int, ...], ...], PerSeat(TOKEN_POINTS)]
    """Points of each Lesser Wonder token a seat built (face down: only its owner knows them)."""
    greater_built: Annotated[tuple[tuple[int, ...], ...], PerSeat(TOKEN_POINTS)]
    named_built: Annotated[tuple[tuple[int, ...], ...], PerSeat(NamesOf("named_wonder"))]
    """Named Wonder ids each seat built."""
    lesser_tokens: Annotated[tuple[int, ...], TOKEN_POINTS]
    """Points of the Lesser Wonder tokens left in their face-down stack (sorted)."""
    greater_tokens: Annotated[tuple[int, ...], TOKEN_POINTS]
    named_in_play: Annotated[tuple[int, ...], NamesOf("named_wonder")]
    """Named Wonders on the table, not built yet."""
    active: Annotated[int, SEAT_OR_NONE]
    """The seat whose turn it is (NOWHERE during setup)."""
    first_player: Annotated[int, SEAT_OR_NONE]
    turn: Annotated[int, BoundedInt(0, 10**6)]
    """Turns started so far."""
    map_rerolls: Annotated[int, COUNTER]
    """Ancient Map rerolls left this turn."""
    extra_dice: Annotated[int, COUNTER]
    """Band of Delvers: more Excavation rolls this turn."""
    expeditions: Annotated[int, COUNTER]
    """Expedition: Excavation rolls this turn whose Ruin is chosen after rolling."""
    reading: Annotated[int, COUNTER]
    """Reading the Stones played for the next die rolled this turn."""
    ancestral: Annotated[int, COUNTER]
    """Ancestral Claim played for the next d6 rolled this turn."""
    modifiers: Annotated[tuple[int, ...], ListOf(BoundedInt(-MAX_COUNTER, MAX_COUNTER), max_length=MAX_COUNTER)]
    """Modifier amounts gathered for the roll being resolved, not yet applied."""
    library_draws: Annotated[tuple[int, ...], ListOf(NameOf("colour"), max_length=MAX_COUNTER)]
    """Stone colours drawn from the bag for Underground Library, one to keep."""
    over: bool
    stack: Annotated[DecisionStack, DecisionStackCodec(MAX_FRAMES, details=FRAME_DETAILS_BY_NAME)]
    """Pending frames (envs/core/decisions.py), the one to resolve now last."""
    decisions: Annotated[int, BoundedInt(0, 10**9)] = 0
    """Decisions taken so far (automatic ones excluded)."""
