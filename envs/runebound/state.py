"""The state of one Runebound combat, declared once: every field with its type and how it is saved.

`CombatStateData` holds what changes during a combat as plain ints and tuples (every field immutable, so a clone
shares them). Values that exist once per side (damage, passing, the charge that forbids blocking) are pairs indexed by
`HERO` and `ENEMY`, saved as `{"hero": ..., "enemy": ...}`. Each side's tokens are saved one record per token with the
token's name, the face it shows by its text, whether it is spent, and for an enemy's double stacked on another token
the index of that token:

    "combat_tokens": {"hero": [{"token": "Eliam 1", "face": "physical 1", "spent": false, "on": null}, ...],
                      "enemy": [...]}

The combat's fields are one declared group (`CombatFields`) that a state holding a combat includes by inheriting it;
`RuneboundCombat-v0`'s state (`CombatStateData`) adds the hero, the hero's decisions and the frame stack, and the rules
(`rules.CombatState`) subclass it; `validation.py` refuses every position that cannot happen.
"""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any

from envs.core.decisions import DecisionStack
from envs.core.game import StateFormatError
from envs.core.record import (
    CACHE,
    BoolCodec,
    BoundedInt,
    DecisionStackCodec,
    FieldCodec,
    NameOf,
    NamesOf,
    NameTables,
    StateRecord,
    freeze,
)
from envs.runebound.cards import MAX_ENEMY_TOKENS, MAX_HEALTH, MAX_HERO_TOKENS, RuneboundCards
from envs.runebound.symbols import SIDE_NAMES, SYMBOL_NAMES

if TYPE_CHECKING:
    from envs.runebound.game import RuneboundCombatGame

ROUND_CAP = 10
"""Combat rounds before a combat that no side has won ends as a draw (RULES.md, "Rounds": every combat ends)."""
MAX_DECISIONS_PER_ROUND = 80
"""Bound on the hero's decisions in one round (RULES.md, "Rounds": each decision spends a token, adds one to an
action, picks its target or answers a damage or flip event, and a round holds at most a few dozen of each)."""
MAX_GAME_LENGTH = ROUND_CAP * MAX_DECISIONS_PER_ROUND
"""Bound on the hero's decisions in one combat (the round cap times the per-round bound; a saved state's too)."""
NOT_CAST = -1
"""The face of a token not cast yet this round (between rounds, and before its cast resolves)."""
NOWHERE = -1
"""`Held.on` of a token that is not a double stacked on another token."""
MAX_FRAMES = 64
"""Bound on the frame stack of a saved state (a combat's deepest stack holds about a dozen frames)."""
MAX_BARRIER = 9
"""Bound on a side's barrier (an ability's amount is at most 9, and a barrier lasts one round)."""
LOADOUT, ANY_WEAPONS = "loadout", "any"
WEAPON_RULES = (LOADOUT, ANY_WEAPONS)
"""The game's `weapons` values: a loaded position's hero carries its Act's loadout, or any weapons (each once), as
positions set up by hand may (validation.py)."""
HELD_CACHE = 8192
"""Distinct Held records kept by `make_held` (tokens x faces x spent x stacks: a few thousand at most)."""


class Outcome(enum.IntEnum):
    """How the combat stands: going on, or how it ended."""

    ONGOING = 0
    WON = 1
    """The enemy is defeated."""
    LOST = 2
    """The hero is defeated."""
    FLED = 3
    """The hero left the combat at the end of a round ("If Eliam decides to stay in the battle ...")."""
    DRAWN = 4
    """The round cap was reached with neither side defeated."""


class Kind(enum.StrEnum):
    """The frame kinds of a combat (envs/core/engine.py): chance events, automatic steps and the hero's decisions.

    Their values name the combat in full ("start combat round", not "start round"): a board state that holds a combat
    runs these frames on its one stack beside its own (RULES.md, "Saved positions")."""

    # chance
    CAST = "cast"
    # automatic steps
    COMBAT_SETUP = "combat setup"
    START_COMBAT_ROUND = "start combat round"
    AFTER_CAST = "after cast"
    COMBAT_INITIATIVE = "combat initiative"
    NEXT_COMBAT_ACTION = "next combat action"
    ENEMY_COMBAT_ACTION = "enemy combat action"
    ENEMY_AGILITY = "enemy agility"
    COMBAT_DAMAGE = "combat damage"
    END_COMBAT_ROUND = "end combat round"
    # the hero's decisions
    HERO_COMBAT_ACTION = "hero combat action"
    COMBAT_GROUP = "combat group"
    AGILITY = "agility target"
    COPY = "tactics copy"
    COPIED_SURGE = "copied surge"
    BLOCK = "tactics block"
    PREVENT = "prevent flip"
    STAY = "stay or flee"


class DrawKind(enum.StrEnum):
    """The frame kinds of `RuneboundCombat-v0`'s own setup, before its one combat: the draws of a random hero and
    enemy (chance events)."""

    PICK_HERO = "pick hero"
    PICK_ENEMY = "pick enemy"


DECISION_KINDS = (
    Kind.HERO_COMBAT_ACTION,
    Kind.COMBAT_GROUP,
    Kind.AGILITY,
    Kind.COPY,
    Kind.COPIED_SURGE,
    Kind.BLOCK,
    Kind.PREVENT,
    Kind.STAY,
)
"""Every kind of decision, in the order of the observation's one-hot `decision` view."""
AUTOMATIC_KINDS = (
    Kind.COMBAT_SETUP,
    Kind.START_COMBAT_ROUND,
    Kind.AFTER_CAST,
    Kind.COMBAT_INITIATIVE,
    Kind.NEXT_COMBAT_ACTION,
    Kind.ENEMY_COMBAT_ACTION,
    Kind.ENEMY_AGILITY,
    Kind.COMBAT_DAMAGE,
    Kind.END_COMBAT_ROUND,
)
COMBAT_KINDS = frozenset(Kind)
"""Every frame kind of the combat part (a host's own frames are of other kinds)."""


@dataclass(frozen=True, slots=True)
class Held:
    """One token a side holds this combat: which token, the face it shows, whether it is spent, and (an enemy's
    double stacked on another of its tokens) the index of the token it doubles."""

    token: int
    face: int = NOT_CAST
    spent: bool = False
    on: int = NOWHERE

    def turned(self, face: int) -> Held:
        """The token showing `face` (flipped or recast): a double that turns leaves its stack."""
        return make_held(self.token, face, self.spent, NOWHERE)

    def spent_now(self) -> Held:
        """The token spent (off any stack)."""
        return make_held(self.token, self.face, True, NOWHERE)

    def unstacked(self) -> Held:
        """The double off its stack (its base came to show a face with nothing to double), showing the same face."""
        return make_held(self.token, self.face, self.spent, NOWHERE)

    def stacked_on(self, base: int) -> Held:
        """The double stacked on token `base`."""
        return make_held(self.token, self.face, self.spent, base)

    def cast(self, face: int) -> Held:
        """The token cast (or a spent token recast back into its pool): showing `face`, unspent, on no stack."""
        return make_held(self.token, face, False, NOWHERE)


@functools.lru_cache(maxsize=HELD_CACHE)
def make_held(token: int, face: int = NOT_CAST, spent: bool = False, on: int = NOWHERE) -> Held:
    """The Held record of these values, shared: a record is immutable, and the rules make one at every cast, flip
    and spend (a frozen dataclass is slow to build)."""
    return Held(token, face, spent, on)


Pair = tuple[Any, Any]
"""A value per side, indexed by HERO and ENEMY."""


def name_tables(cards: RuneboundCards) -> NameTables:
    """Content names by table for saved states (index order is the content's)."""
    return NameTables(
        {
            "hero": [hero.name for hero in cards.heroes],
            "enemy": [enemy.name for enemy in cards.enemies],
            "token": [token.name for token in cards.tokens],
            "token_face": [f"{token.name}: {face.text}" for token in cards.tokens for face in token.faces],
            "symbol": SYMBOL_NAMES,
            "side": SIDE_NAMES,
            "hero_ability": [f"{hero.name}: {ability.name}" for hero in cards.heroes for ability in hero.abilities],
            "enemy_ability": [
                f"{enemy.name}: {ability.name}" for enemy in cards.enemies for ability in enemy.abilities
            ],
        }
    )


class BySide(FieldCodec):
    """A value per side, saved as {"hero": ..., "enemy": ...} (each side may have its own codec)."""

    def __init__(self, hero: FieldCodec, enemy: FieldCodec | None = None) -> None:
        self.codecs = (hero, enemy or hero)

    def encode(self, value: Any, tables: NameTables) -> Any:
        """{side name: the side's encoded value}."""
        pairs = zip(SIDE_NAMES, self.codecs, strict=True)
        return {name: codec.encode(value[side], tables) for side, (name, codec) in enumerate(pairs)}

    def decode(self, value: Any, tables: NameTables, field: str) -> Any:
        """(hero's value, enemy's value); StateFormatError naming the side for a missing or unknown key."""
        if not isinstance(value, dict):
            raise StateFormatError(field, f"expected {{'hero': ..., 'enemy': ...}}, got {value!r}")
        for key in value:
            if key not in SIDE_NAMES:
                raise StateFormatError(f"{field}.{key}", "unknown side (sides: hero, enemy)")
        decoded = []
        for name, codec in zip(SIDE_NAMES, self.codecs, strict=True):
            if name not in value:
                raise StateFormatError(f"{field}.{name}", "missing (every side must be given)")
            decoded.append(
                freeze(codec.decode(value[name], tables, f"{field}.{name}"))
            )  # Held records stay as they are
        return tuple(decoded)


TOKEN_KEYS = ("token", "face", "spent", "on")


class TokenRows(FieldCodec):
    """A side's tokens, saved one record per token: {"token": name, "face": "physical 1" | null, "spent": bool,
    "on": index | null} (`on` may be left out when null)."""

    def __init__(self, max_tokens: int) -> None:
        self.max_tokens = max_tokens

    def encode(self, value: Any, tables: NameTables) -> Any:
        """One dict per token."""
        faces = tables.names["token_face"]
        rows = []
        for held in value:
            face = None if held.face == NOT_CAST else faces[2 * held.token + held.face].split(": ", 1)[1]
            rows.append(
                {"token": tables.name("token", held.token), "face": face, "spent": held.spent, "on": _none(held.on)}
            )
        return rows

    def decode(self, value: Any, tables: NameTables, field: str) -> Any:
        """A tuple of Held; StateFormatError naming the token's entry and key."""
        if not isinstance(value, list | tuple):
            raise StateFormatError(field, f"expected a list of tokens, got {value!r}")
        if len(value) > self.max_tokens:
            raise StateFormatError(field, f"expected at most {self.max_tokens} tokens, got {len(value)}")
        rows = []
        for index, row in enumerate(value):
            where = f"{field}[{index}]"
            if not isinstance(row, dict):
                raise StateFormatError(where, f"expected a token record {{token, face, spent, on}}, got {row!r}")
            for key in row:
                if key not in TOKEN_KEYS:
                    raise StateFormatError(f"{where}.{key}", f"unknown key (keys: {', '.join(TOKEN_KEYS)})")
            for key in TOKEN_KEYS[:3]:
                if key not in row:
                    raise StateFormatError(f"{where}.{key}", "missing")
            token = tables.index("token", row["token"], f"{where}.token")
            face = NOT_CAST
            if row["face"] is not None:
                token_name = tables.name("token", token)
                if not isinstance(row["face"], str):
                    raise StateFormatError(
                        f"{where}.face", f"expected a face such as 'physical 1', got {row['face']!r}"
                    )
                face = tables.index("token_face", f"{token_name}: {row['face']}", f"{where}.face") - 2 * token
            spent = BoolCodec().decode(row["spent"], tables, f"{where}.spent")
            on = BoundedInt(0, len(value) - 1, null_as=NOWHERE).decode(row.get("on"), tables, f"{where}.on")
            rows.append(Held(token, face, spent, on))
        return tuple(rows)


def _none(index: int) -> int | None:
    return None if index == NOWHERE else index


HEALTH = BoundedInt(0, MAX_HEALTH)
FRAME_DETAILS_BY_NAME = {"side": NameOf("side"), "symbol": NameOf("symbol")}
"""Frame details saved by name: a side and a symbol (token indices and amounts stay numbers)."""


@dataclass(eq=False)
class CombatFields:
    """The combat's saved fields, declared once: a state that holds a combat includes them by inheriting this class
    (`RuneboundCombat-v0`'s `CombatStateData`, later the board's), and its `validate()` calls the combat's own
    validation (validation.py: `validate_combat`). Every field is immutable, so a clone shares them. Their names say
    "combat" wherever the board game could mean something else (RULES.md, "Saved positions")."""

    enemy: Annotated[int, NameOf("enemy", optional=True)]
    """The enemy fought (None until it is known: `RuneboundCombat-v0` may draw it at setup)."""
    combat_tokens: Annotated[Pair, BySide(TokenRows(MAX_HERO_TOKENS), TokenRows(MAX_ENEMY_TOKENS))]
    """Each side's tokens this combat (Held records), in casting order."""
    combat_damage: Annotated[Pair, BySide(HEALTH)]
    """Damage on each side (the hero's hero card, the enemy's card); a side is defeated at its health."""
    combat_round: Annotated[int, BoundedInt(0, ROUND_CAP)]
    """Combat rounds started so far (1 during the first)."""
    initiative: Annotated[int, NameOf("side", optional=True)]
    """The side that took this round's first combat action (None before it is known)."""
    passed: Annotated[Pair, BySide(BoolCodec())]
    """Whether each side has passed this round (it takes no more combat actions until the next)."""
    charged: Annotated[Pair, BySide(BoolCodec())]
    """Whether each side spent charge this round ("that combatant cannot block damage")."""
    silenced: Annotated[Pair, BySide(BoolCodec())]
    """Whether each side is silenced this round (it uses no abilities)."""
    barrier: Annotated[Pair, BySide(BoundedInt(0, MAX_BARRIER))]
    """Damage each side's barrier still blocks this round."""
    combat_round_damage: Annotated[Pair, BySide(HEALTH)]
    """Damage each side took this round (Mind Meld reflects the hero's)."""
    combat_triggered: Annotated[Pair, BySide(NamesOf("hero_ability"), NamesOf("enemy_ability"))]
    """Abilities each side triggered this round (ids of the game's `hero_ability` / `enemy_ability` tables, saved as
    "<owner>: <ability>")."""
    combat_outcome: Outcome
    """How the combat stands: going on, or how it ended (set when it ends, before the host's `combat_over`)."""
    combat_token_cache: Any = field(default=None, repr=False, metadata=CACHE, kw_only=True)
    """Per side, (the side's `combat_tokens` it was computed from, its pool sorted out): the rules ask which tokens
    show a symbol many times between two changes of the tokens (`combat.CombatRules.pools`)."""


@dataclass(eq=False)
class CombatGameHead:
    """`RuneboundCombat-v0`'s fields saved before the combat's: the game and the hero."""

    game: RuneboundCombatGame
    hero: Annotated[int, NameOf("hero", optional=True)]
    """The hero fighting (None in a saved state until the setup draw picks a random one)."""


@dataclass(eq=False)
class CombatStateData(CombatFields, CombatGameHead, StateRecord):
    """`RuneboundCombat-v0`'s state: the hero (`CombatGameHead`), the combat's fields (`CombatFields`), the hero's
    decisions and the one frame stack; the rules (`rules.CombatState`) subclass it."""

    decisions: Annotated[int, BoundedInt(0, MAX_GAME_LENGTH)]
    """Decisions the hero took so far (those the rules took excluded)."""
    stack: Annotated[DecisionStack, DecisionStackCodec(MAX_FRAMES, details=FRAME_DETAILS_BY_NAME)]
    """Pending frames (envs/core/engine.py), the one to resolve now last."""
