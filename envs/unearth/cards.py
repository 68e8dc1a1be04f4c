"""Unearth component content: the records the rules read, validated straight from data/*.yaml (schema: CONTENT.md).

Each record is declared once, as a frozen dataclass that pydantic validates from the YAML (envs.core.data.DataRecord);
a field the YAML writes in another form says how it is read (`Written`: a Stone colour's name becomes its index, a
formula's notation its StoneFormula). A file of named entries is read by envs.core.data.load_named_list (rulebook
counts, unique names, the file's own rules), any other by a `...File` model; the first problem becomes a DataError
naming the file, the entry and the field. Files that name another file's things (a formula's Stone letters, an
effect's Stone colour or die) are read against it through the validation context. `formula_fits` says whether a ring
of 6 Stones satisfies a Named Wonder's formula.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

from pydantic import Field, ModelWrapValidatorHandler, ValidationInfo, field_validator, model_validator

from envs.core.data import (
    DataError,
    DataRecord,
    Entries,
    NamedList,
    NotZero,
    Record,
    derived,
    load_content,
    load_document,
    load_named_list,
    set_derived,
    written_keys,
)
from envs.core.schema import Invalid, Written

PACKAGE = "envs.unearth"

# Rulebook counts (Game components, Building Wonders); the files are checked against them.
STONE_COLOURS = 4
"""Stone colours: Tomb of the Last Age needs "one black Stone, one red, one blue, one yellow"."""
STONES_PER_COLOUR = 15
"""Rulebook: "Hexagonal Stone tokens (60 hexes; 15 of each color)"."""
DICE_SETS = 4
"""Rulebook: "Four sets of five dice in the four player colors"."""
DICE_PER_SET = 5
RUIN_CARDS = 25
"""Rulebook: "Ruins Deck of 25 tarot-sized cards"."""
RUIN_COLOURS = 5
"""Rulebook: "collecting a set of one of each of the 5 colors of Ruins"."""
RUINS_PER_COLOUR = 5
"""Rulebook: "There are five of each type of Ruin"."""
DELVER_CARDS = 38
"""Rulebook: "Delver Deck of 38 mini-sized cards"."""
END_OF_AGE_CARDS = 5
"""Rulebook: "End of Age Deck of 5 tarot-sized cards"."""
NAMED_WONDERS = 15
"""Rulebook: "Named Wonders (15 hexes with matching cards)"."""
LESSER_WONDER_TOKENS = 10
"""Rulebook: "Lesser Wonders tokens (10 hexes and one matching card)"."""
GREATER_WONDER_TOKENS = 6
"""Rulebook: "Greater Wonders tokens (6 hexes and one matching card)"."""
RING_SIZE = 6
"""Rulebook: "Create a ring of 6 Stones to build a Wonder"."""

ANY_STONE = "?"
"""Formula symbol for a Stone of any colour."""
GROUP_DIGITS = "123456789"
"""Formula symbols for groups: the Stones of one digit share a colour; different digits are different colours."""

DelverEffectKind = Literal[
    "reroll_excavation",
    "two_dice",
    "reroll_own_dice",
    "next_d6_modifier",
    "name_a_number_reroll",
    "modify_placed_die",
    "reroll_placed_die",
    "next_roll_modifier",
    "choose_ruin_after_roll",
]
WonderEffectKind = Literal[
    "none",
    "own_roll_modifier",
    "reroll_own_faces",
    "draw_removed_ruin",
    "choose_removed_ruin",
    "delver_when_claimed_without_dice",
    "bag_draw_keep",
    "matching_roll_modifier",
    "points_per_stone",
    "points_per_stone_colour",
    "points_per_scarcest_stone",
]
EventEffectKind = Literal["each_player_draws_delvers", "all_rolls_modifier"]
DELVER_EFFECTS: tuple[str, ...] = get_args(DelverEffectKind)
WONDER_EFFECTS: tuple[str, ...] = get_args(WonderEffectKind)
EVENT_EFFECTS: tuple[str, ...] = get_args(EventEffectKind)

EFFECT_PARAMETERS: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # Delver cards
    "reroll_excavation": ((), ()),
    "two_dice": ((), ()),
    "reroll_own_dice": ((), ()),
    "next_d6_modifier": (("amount",), ()),
    "name_a_number_reroll": ((), ()),
    "modify_placed_die": (("amount",), ()),
    "reroll_placed_die": ((), ()),
    "next_roll_modifier": (("choices",), ()),
    "choose_ruin_after_roll": ((), ()),
    # Named Wonders
    "none": ((), ()),
    "own_roll_modifier": (("choices",), ("die",)),
    "reroll_own_faces": (("faces",), ()),
    "draw_removed_ruin": ((), ()),
    "choose_removed_ruin": ((), ()),
    "delver_when_claimed_without_dice": (("cards",), ()),
    "bag_draw_keep": (("draw", "keep"), ()),
    "matching_roll_modifier": (("choices",), ()),
    "points_per_stone": (("colour", "points"), ()),
    "points_per_stone_colour": (("points",), ()),
    "points_per_scarcest_stone": (("points",), ()),
    # End of Age events
    "each_player_draws_delvers": (("cards",), ()),
    "all_rolls_modifier": (("amount",), ()),
}
"""Effect kind -> (required parameters, optional parameters); no other parameter may be written."""
PARAMETERS = ("amount", "choices", "die", "faces", "colour", "points", "cards", "draw", "keep")
"""Every effect parameter, as written, in the order of Effect's fields."""


# ============================================================================================ records
Name = Annotated[str, Field(min_length=1)]
Text = Annotated[str, Field(min_length=1)]
Modifier = Annotated[int, Field(ge=-3, le=3)]
"""A die modifier as printed (+2, -1, ...)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class StoneColour(DataRecord):
    """A Stone colour: its name, its formula letter and how many Stones of it the bag holds."""

    name: Name
    letter: Annotated[str, Field(pattern=r"^[A-Z]$")]
    count: Annotated[int, Field(ge=1, le=60)]


def _stone_colour(name: str, context: Mapping[str, Any]) -> int:
    """A Stone colour by its index in stones.yaml (the context's "stone_colours": the names, in order)."""
    colours = context["stone_colours"]
    if name not in colours:
        raise ValueError(f"unknown Stone colour {name!r} (stones.yaml: {', '.join(colours)})")
    return int(colours.index(name))


@dataclass(frozen=True, kw_only=True, slots=True)
class Effect(DataRecord):
    """An effect the rules interpret by `kind` (EFFECT_PARAMETERS); parameters the kind does not take are neutral.

    Validated with the context {"stone_colours": names, "die_sides": a player's dice by sides}.
    """

    kind: str
    amount: Annotated[Modifier, NotZero] = 0
    choices: Annotated[Entries[Modifier], Field(min_length=1, max_length=4)] = ()
    die_sides: Annotated[int | None, Written(Annotated[int, Field(ge=2, le=20)]), Field(validation_alias="die")] = None
    """The die it applies to by its number of sides (written `die`); None: any die."""
    faces: Annotated[Entries[Annotated[int, Field(ge=1, le=20)]], Field(min_length=1, max_length=8)] = ()
    colour: Annotated[int | None, Written(Name, _stone_colour, context=True)] = None
    """A Stone colour index (written as its name); None: no colour."""
    points: Annotated[int, Field(ge=-10, le=10)] = 0
    cards: Annotated[int, Field(ge=1, le=5)] = 0
    draw: Annotated[int, Field(ge=2, le=5)] = 0
    keep: Annotated[int, Field(ge=1, le=5)] = 0

    @field_validator("choices")
    @classmethod
    def _different_non_zero_choices(cls, choices: tuple[int, ...]) -> tuple[int, ...]:
        if 0 in choices or len(set(choices)) != len(choices):
            raise ValueError(f"choices are different modifiers other than 0, got {list(choices)}")
        return choices

    @field_validator("die_sides")
    @classmethod
    def _known_die(cls, sides: int, info: ValidationInfo) -> int:
        die_sides = (info.context or {})["die_sides"]
        if sides not in die_sides:
            raise ValueError(f"no die has {sides} sides (dice.yaml: {', '.join(map(str, sorted(set(die_sides))))})")
        return sides

    @model_validator(mode="wrap")
    @classmethod
    def _parameters_of_the_kind(cls, data: Any, handler: ModelWrapValidatorHandler[Effect]) -> Effect:
        effect = handler(data)
        required, optional = EFFECT_PARAMETERS[effect.kind]
        given = written_keys(data) - {"kind"}
        takes = ", ".join(required + optional) or "no parameters"
        for name in required:
            if name not in given:
                raise Invalid(f"missing required field (kind {effect.kind!r} takes: {takes})", name)
        extra = [name for name in PARAMETERS if name in given and name not in required + optional]
        if extra:
            raise Invalid(f"kind {effect.kind!r} takes no {extra[0]} (it takes: {takes})", extra[0])
        if effect.kind == "bag_draw_keep" and effect.keep >= effect.draw:
            raise Invalid(f"keep ({effect.keep}) must be fewer than draw ({effect.draw})", "keep")
        return effect


@dataclass(frozen=True, kw_only=True, slots=True)
class DelverEffect(Effect):
    """A Delver card's effect."""

    kind: DelverEffectKind


@dataclass(frozen=True, kw_only=True, slots=True)
class WonderEffect(Effect):
    """A Named Wonder's effect."""

    kind: WonderEffectKind


@dataclass(frozen=True, kw_only=True, slots=True)
class EventEffect(Effect):
    """An End of Age event's effect."""

    kind: EventEffectKind


@dataclass(frozen=True)
class Ruin:
    """A Ruin card: claimed when its dice total `claim`, enters play with `stones` Stones."""

    name: str
    colour: int | None
    """Index into UnearthCards.ruin_colours; None for an End of Age Ruin, which belongs to no colour set."""
    claim: int
    stones: int
    points: int
    """Printed points (End of Age Ruins); 0 for a coloured Ruin, which scores through sets."""


@dataclass(frozen=True, kw_only=True, slots=True)
class DelverType(DataRecord):
    """A Delver card type with its number of copies in the deck."""

    name: Name
    count: Annotated[int, Field(ge=1, le=DELVER_CARDS)]
    effect: DelverEffect
    text: Text


@dataclass(frozen=True, kw_only=True, slots=True)
class EndOfAgeCard(DataRecord):
    """An End of Age card: an event (with `effect`) or a Ruin (claim, stones and points, read as `ruin`)."""

    name: Name
    type: Literal["event", "ruin"]
    effect: Annotated[Effect | None, Written(EventEffect)] = None
    claim: Annotated[int, Field(ge=1, le=60)] = 0
    stones: Annotated[int, Field(ge=0, le=STONES_PER_COLOUR)] = 0
    points: Annotated[int, Field(ge=-20, le=20)] = 0
    text: Text
    ruin: Ruin | None = derived()

    def __post_init__(self) -> None:
        ruin = Ruin(self.name, None, self.claim, self.stones, self.points) if self.type == "ruin" else None
        set_derived(self, ruin=ruin)

    @model_validator(mode="wrap")
    @classmethod
    def _fields_of_the_type(cls, data: Any, handler: ModelWrapValidatorHandler[EndOfAgeCard]) -> EndOfAgeCard:
        card = handler(data)
        given = written_keys(data)
        required = ("effect",) if card.type == "event" else ("claim", "stones", "points")
        forbidden = ("claim", "stones", "points") if card.type == "event" else ("effect",)
        for name in required:
            if name not in given:
                raise Invalid(f"missing required field (an End of Age {card.type} has {', '.join(required)})", name)
        for name in forbidden:
            if name in given:
                raise Invalid(f"an End of Age {card.type} has no {name}", name)
        return card


@dataclass(frozen=True)
class StoneFormula:
    """A Named Wonder's construction formula, read for `formula_fits` (order of Stones never matters)."""

    notation: str
    """The 6 symbols as written (a Stone letter, `?` any, a digit a group)."""
    fixed: tuple[int, ...]
    """Stones of each colour the formula names, by colour index."""
    groups: tuple[int, ...]
    """Sizes of the digit groups, largest first; each group is one colour, different groups different colours."""
    wildcards: int
    fitting: frozenset[tuple[int, ...]] = field(repr=False, compare=False)
    """Every ring (as Stones per colour index) that satisfies the formula, precomputed."""


def _formula(notation: str, context: Mapping[str, Any]) -> StoneFormula:
    """A formula read with the Stone letters of stones.yaml (the context's "stone_letters")."""
    return parse_formula(notation, context["stone_letters"])


@dataclass(frozen=True, kw_only=True, slots=True)
class NamedWonder(DataRecord):
    """A Named Wonder: built in a ring that fits `formula` (written as its notation); worth `points`, with an effect."""

    name: Name
    formula: Annotated[StoneFormula, Written(str, _formula, context=True)]
    points: Annotated[int, Field(ge=-10, le=20)]
    effect: WonderEffect
    text: Text


@dataclass(frozen=True)
class UnearthCards:
    """Every Unearth component, as loaded and cross-checked."""

    stone_colours: NamedList[StoneColour]
    die_sides: tuple[int, ...]
    """One player's set of dice by number of sides, in die-index order (e.g. 6, 6, 6, 4, 8)."""
    dice_sets: int
    ruin_colours: tuple[str, ...]
    ruins: tuple[Ruin, ...]
    delvers: NamedList[DelverType]
    end_of_age: NamedList[EndOfAgeCard]
    named_wonders: NamedList[NamedWonder]
    lesser_tokens: tuple[int, ...]
    """Points of each Lesser Wonder token (one entry per token)."""
    greater_tokens: tuple[int, ...]
    """Points of each Greater Wonder token (one entry per token)."""

    @property
    def stone_count(self) -> int:
        """Stones in the bag at the start of the game."""
        return sum(colour.count for colour in self.stone_colours)

    @property
    def delver_deck_size(self) -> int:
        """Cards in the Delver deck."""
        return sum(delver.count for delver in self.delvers)


# ============================================================================================ construction formulas
def parse_formula(notation: str, stone_letters: Sequence[str]) -> StoneFormula:
    """Read a formula of RING_SIZE symbols (letters of `stone_letters`, `?`, group digits); ValueError if malformed."""
    if len(notation) != RING_SIZE:
        raise ValueError(
            f"expected {RING_SIZE} symbols (one per Stone of the ring), got {len(notation)} in {notation!r}"
        )
    fixed = [0] * len(stone_letters)
    group_sizes: Counter[str] = Counter()
    wildcards = 0
    for symbol in notation:
        if symbol in stone_letters:
            fixed[stone_letters.index(symbol)] += 1
        elif symbol == ANY_STONE:
            wildcards += 1
        elif symbol in GROUP_DIGITS:
            group_sizes[symbol] += 1
        elif symbol.isalpha():
            raise ValueError(
                f"unknown Stone letter {symbol!r} in {notation!r} (Stone letters: {', '.join(stone_letters)})"
            )
        else:
            allowed = ", ".join(stone_letters)
            raise ValueError(
                f"unknown symbol {symbol!r} in {notation!r} (allowed: the Stone letters {allowed}, "
                f"{ANY_STONE} for any Stone, a digit 1-9 for a group of one colour)"
            )
    digits = sorted(group_sizes)
    if digits != list(GROUP_DIGITS[: len(digits)]):
        raise ValueError(f"group digits are numbered from 1 without gaps, got {', '.join(digits)} in {notation!r}")
    if len(digits) > len(stone_letters):
        message = f"{len(digits)} groups need {len(digits)} different colours, there are {len(stone_letters)}"
        raise ValueError(f"{message} in {notation!r}")
    groups = tuple(sorted(group_sizes.values(), reverse=True))
    return StoneFormula(
        notation=notation,
        fixed=tuple(fixed),
        groups=groups,
        wildcards=wildcards,
        fitting=_fitting_rings(tuple(fixed), groups),
    )


def _counts_fit(fixed: Sequence[int], groups: Sequence[int], ring_counts: Sequence[int]) -> bool:
    """Whether a ring of RING_SIZE Stones (Stones per colour) satisfies fixed colours and groups (largest first).

    After the fixed Stones are taken, the groups need different colours with enough Stones left: matching the largest
    group to the colour with most Stones left, the next to the next, and so on, finds such colours whenever any
    assignment does (a larger group never does better on a smaller pile). Wildcards take the Stones left over.
    """
    left = [count - needed for count, needed in zip(ring_counts, fixed, strict=True)]
    if min(left) < 0:
        return False
    left.sort(reverse=True)
    return all(size <= left[rank] for rank, size in enumerate(groups))


def _fitting_rings(fixed: tuple[int, ...], groups: tuple[int, ...]) -> frozenset[tuple[int, ...]]:
    """Every ring of RING_SIZE Stones over len(fixed) colours, as Stones per colour, that fits."""
    rings = (
        tuple(ring.count(colour) for colour in range(len(fixed)))
        for ring in itertools.combinations_with_replacement(range(len(fixed)), RING_SIZE)
    )
    return frozenset(counts for counts in rings if _counts_fit(fixed, groups, counts))


def ring_colour_counts(ring_colours: Iterable[int] | Mapping[int, int], colour_count: int) -> tuple[int, ...]:
    """Stones per colour index of a ring given as its colours (any order) or as a Counter; ValueError if not a ring."""
    if isinstance(ring_colours, (tuple, list)):  # the common case, counted in C; a bad index leaves the sum short
        counted = tuple(map(ring_colours.count, range(colour_count)))
        if len(ring_colours) == RING_SIZE and sum(counted) == RING_SIZE:
            return counted
    counts = [0] * colour_count
    items = ring_colours.items() if isinstance(ring_colours, Mapping) else ((colour, 1) for colour in ring_colours)
    for colour, number in items:
        if not 0 <= colour < colour_count or number < 0:
            raise ValueError(f"not a Stone colour index and count: {colour!r}: {number!r}")
        counts[colour] += number
    if sum(counts) != RING_SIZE:
        raise ValueError(f"a ring has {RING_SIZE} Stones, got {sum(counts)}")
    return tuple(counts)


def formula_fits(formula: StoneFormula, ring_colours: Iterable[int] | Mapping[int, int]) -> bool:
    """Whether a ring of 6 Stones (colour indices in any order, or a Counter of them) satisfies `formula`."""
    return ring_colour_counts(ring_colours, len(formula.fixed)) in formula.fitting


# ============================================================================================ files
def _rulebook_count(actual: int, expected: int, what: str, *path: str | int) -> None:
    """Raise Invalid at `path` unless a count is the rulebook's."""
    if actual != expected:
        raise Invalid(f"the rulebook has {expected} {what}, got {actual}", *path)


def _unique(values: Sequence[Any], what: str, *path: str | int) -> None:
    """Raise Invalid at `path` + the index of the first repeated value."""
    for index, value in enumerate(values):
        if value in values[:index]:
            raise Invalid(f"duplicate {what} {value!r}", *path, index)


def _letters_and_counts(stones: Sequence[StoneColour]) -> None:
    """stones.yaml: each Stone colour has a letter of its own and 15 Stones."""
    letters = [stone.letter for stone in stones]
    for index, letter in enumerate(letters):
        if letter in letters[:index]:
            raise Invalid(f"duplicate letter {letter!r}", index, "letter")
    for index, stone in enumerate(stones):
        _rulebook_count(stone.count, STONES_PER_COLOUR, f"Stones of each colour ({stone.name})", index)


class DiceSpec(Record):
    """Dice of one size in a player's set."""

    sides: Annotated[int, Field(ge=2, le=20)]
    count: Annotated[int, Field(ge=1, le=DICE_PER_SET)]


class DiceFile(Record):
    """dice.yaml: 4 sets (one per player) of 5 dice: 3 d6, 1 d4, 1 d8."""

    sets: Annotated[int, Field(ge=1, le=8)]
    dice: Annotated[list[DiceSpec], Field(min_length=1, max_length=DICE_PER_SET)]

    @model_validator(mode="after")
    def _rulebook_dice(self) -> DiceFile:
        _rulebook_count(self.sets, DICE_SETS, "sets of dice", "sets")
        _unique([die.sides for die in self.dice], "die size", "dice")
        _rulebook_count(sum(die.count for die in self.dice), DICE_PER_SET, "dice in a set", "dice")
        return self

    def die_sides(self) -> tuple[int, ...]:
        """One player's dice by number of sides, in die-index order."""
        return tuple(die.sides for die in self.dice for _ in range(die.count))


class RuinSpec(Record):
    """A Ruin card of the Ruins deck as written: its colour's name (a Ruin is named by colour and claim)."""

    colour: Name
    claim: Annotated[int, Field(ge=1, le=60)]
    stones: Annotated[int, Field(ge=0, le=STONES_PER_COLOUR)]


class RuinsFile(Record):
    """ruins.yaml: the 5 ruin colours and the 25 Ruin cards, 5 of each colour."""

    ruin_colours: Annotated[list[Name], Field(min_length=RUIN_COLOURS, max_length=RUIN_COLOURS)]
    ruins: Annotated[list[RuinSpec], Field(min_length=RUIN_CARDS, max_length=RUIN_CARDS)]

    @model_validator(mode="after")
    def _five_of_each_colour(self) -> RuinsFile:
        _unique(self.ruin_colours, "ruin colour", "ruin_colours")
        for index, ruin in enumerate(self.ruins):
            if ruin.colour not in self.ruin_colours:
                message = f"unknown ruin colour {ruin.colour!r} (ruin_colours: {', '.join(self.ruin_colours)})"
                raise Invalid(message, "ruins", index, "colour")
        per_colour = Counter(ruin.colour for ruin in self.ruins)
        for index, colour in enumerate(self.ruin_colours):
            _rulebook_count(
                per_colour[colour], RUINS_PER_COLOUR, f"Ruins of each colour ({colour})", "ruin_colours", index
            )
        return self

    def records(self) -> tuple[Ruin, ...]:
        """The Ruins as the rules read them (a colour by its index in ruin_colours)."""
        colours = self.ruin_colours
        return tuple(
            Ruin(f"{ruin.colour} {ruin.claim}", colours.index(ruin.colour), ruin.claim, ruin.stones, 0)
            for ruin in self.ruins
        )


def _deck_of_38(delvers: Sequence[DelverType]) -> None:
    """delvers.yaml: the Delver card types make 38 cards in all."""
    _rulebook_count(sum(delver.count for delver in delvers), DELVER_CARDS, "Delver cards")


class TokenSpec(Record):
    """Wonder tokens of one value."""

    points: Annotated[int, Field(ge=0, le=20)]
    count: Annotated[int, Field(ge=1, le=LESSER_WONDER_TOKENS)]


class WonderTokensFile(Record):
    """wonder_tokens.yaml: 10 Lesser and 6 Greater Wonder tokens by value."""

    lesser: Annotated[list[TokenSpec], Field(min_length=1)]
    greater: Annotated[list[TokenSpec], Field(min_length=1)]

    @model_validator(mode="after")
    def _token_counts(self) -> WonderTokensFile:
        for kind, tokens, total in (
            ("lesser", self.lesser, LESSER_WONDER_TOKENS),
            ("greater", self.greater, GREATER_WONDER_TOKENS),
        ):
            _unique([token.points for token in tokens], "points", kind)
            _rulebook_count(sum(token.count for token in tokens), total, f"{kind.capitalize()} Wonder tokens", kind)
        return self

    @staticmethod
    def values(tokens: Sequence[TokenSpec]) -> tuple[int, ...]:
        """One entry per token, by value."""
        return tuple(sorted(token.points for token in tokens for _ in range(token.count)))


# ============================================================================================ loading
def load_unearth_cards(card_directory: str | Path | None = None) -> UnearthCards:
    """Load every Unearth component from the package data (or a user's directory of the same files).

    The shipped data is parsed once per process (UnearthCards is immutable); a user's directory is read every call.
    """
    return load_content(_load_cards, card_directory)


def _load_cards(directory: Path | None) -> UnearthCards:
    stone_colours = load_named_list(
        StoneColour, PACKAGE, "stones.yaml", directory, count=STONE_COLOURS, check=_letters_and_counts
    )
    dice = load_document(DiceFile, PACKAGE, "dice.yaml", directory)
    context = {
        "stone_colours": stone_colours.names,
        "stone_letters": tuple(colour.letter for colour in stone_colours),
        "die_sides": dice.die_sides(),
    }
    ruins = load_document(RuinsFile, PACKAGE, "ruins.yaml", directory)
    delvers = load_named_list(
        DelverType, PACKAGE, "delvers.yaml", directory, count=(1, DELVER_CARDS), check=_deck_of_38, context=context
    )
    end_of_age = load_named_list(
        EndOfAgeCard, PACKAGE, "end_of_age.yaml", directory, count=END_OF_AGE_CARDS, context=context
    )
    wonders = load_named_list(
        NamedWonder, PACKAGE, "named_wonders.yaml", directory, count=NAMED_WONDERS, context=context
    )
    tokens = load_document(WonderTokensFile, PACKAGE, "wonder_tokens.yaml", directory)
    return UnearthCards(
        stone_colours=stone_colours,
        die_sides=dice.die_sides(),
        dice_sets=dice.sets,
        ruin_colours=tuple(ruins.ruin_colours),
        ruins=ruins.records(),
        delvers=delvers,
        end_of_age=end_of_age,
        named_wonders=wonders,
        lesser_tokens=WonderTokensFile.values(tokens.lesser),
        greater_tokens=WonderTokensFile.values(tokens.greater),
    )


__all__ = [
    "DataError",
    "DelverType",
    "Effect",
    "EndOfAgeCard",
    "NamedWonder",
    "Ruin",
    "StoneColour",
    "StoneFormula",
    "UnearthCards",
    "formula_fits",
    "load_unearth_cards",
    "parse_formula",
    "ring_colour_counts",
]
