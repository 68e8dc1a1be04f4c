"""Unearth component content: the shipped data has the rulebook's components, formulas read as the rulebook says,
and malformed data fails clearly.

Rulebook: Unearth's (not shipped); public facts: envs/unearth/REFERENCE.md; decisions: envs/unearth/RULES.md.
A malformed file must raise envs.core.data.DataError naming the file, the entry and the field (CONTENT.md). Each
malformed-data test copies the shipped YAML to tmp_path and corrupts one thing.
"""

from __future__ import annotations

import copy
import itertools
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from envs.core.data import DataError
from envs.unearth.cards import (
    DELVER_EFFECTS,
    EFFECT_PARAMETERS,
    EVENT_EFFECTS,
    RING_SIZE,
    WONDER_EFFECTS,
    StoneFormula,
    formula_fits,
    load_unearth_cards,
    parse_formula,
)

FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
FAST_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
DATA = Path(__file__).resolve().parents[2] / "envs" / "unearth" / "data"
DATA_FILES = sorted(path.name for path in DATA.glob("*.yaml"))
LETTERS = ("R", "Y", "B", "L")
RED, YELLOW, BLUE, BLACK = range(4)


@pytest.fixture
def cards_dir(tmp_path: Path) -> Path:
    """A user's copy of the shipped data files."""
    for path in DATA.glob("*.yaml"):
        shutil.copy(path, tmp_path / path.name)
    return tmp_path


def edit(directory: Path, filename: str, change: Callable[[Any], None]) -> None:
    """Load one YAML file of the copy, change its document, write it back."""
    path = directory / filename
    document = yaml.load(path.read_text(encoding="utf-8"), Loader=FAST_LOADER)
    change(document)
    path.write_text(yaml.dump(document, Dumper=FAST_DUMPER, sort_keys=False, allow_unicode=True), encoding="utf-8")


def load_error(directory: Path) -> str:
    """The message of the DataError raised by loading the corrupted copy."""
    with pytest.raises(DataError) as error:
        load_unearth_cards(directory)
    return str(error.value)


def wonder(name: str) -> Any:
    """The shipped Named Wonder called `name`."""
    return next(w for w in load_unearth_cards().named_wonders if w.name == name)


def ring(letters: str) -> tuple[int, ...]:
    """A ring written in Stone letters (`RRRBBB`) as colour indices."""
    return tuple(LETTERS.index(letter) for letter in letters)


# =============================================================================================== shipped content
def test_component_counts() -> None:
    """Rulebook, Game components: "Ruins Deck of 25 tarot-sized cards", "End of Age Deck of 5 tarot-sized cards",
    "Delver Deck of 38 mini-sized cards", "Named Wonders (15 hexes with matching cards)", "Lesser Wonders tokens (10
    hexes ...)", "Greater Wonders tokens (6 hexes ...)", "Hexagonal Stone tokens (60 hexes; 15 of each color)"."""
    cards = load_unearth_cards()
    assert len(cards.ruins) == 25
    assert cards.delver_deck_size == 38
    assert len(cards.end_of_age) == 5
    assert len(cards.named_wonders) == 15
    assert len(cards.lesser_tokens) == 10
    assert len(cards.greater_tokens) == 6
    assert cards.stone_count == 60
    assert [colour.count for colour in cards.stone_colours] == [15, 15, 15, 15]
    for group in (cards.delvers, cards.end_of_age, cards.named_wonders):
        assert len({card.name for card in group}) == len(group)


def test_stone_colours() -> None:
    """Rulebook, Building Wonders: Tomb of the Last Age needs "one black Stone, one red, one blue, one yellow"
    (four colours); the reference's notation letters B/Y/R/L [IMPL]."""
    cards = load_unearth_cards()
    assert [(c.name, c.letter) for c in cards.stone_colours] == [
        ("red", "R"),
        ("yellow", "Y"),
        ("blue", "B"),
        ("black", "L"),
    ]


def test_dice_sets() -> None:
    """Rulebook, Game components: "Four sets of five dice in the four player colors (each set has 3 six-sided dice,
    1 four-sided die and 1 eight-sided die)"."""
    cards = load_unearth_cards()
    assert cards.dice_sets == 4
    assert sorted(cards.die_sides) == [4, 6, 6, 6, 8]


def test_ruins_five_of_each_colour() -> None:
    """Rulebook, Resolving claims: "There are five of each type of Ruin, distinguished by their art and icon colors";
    claim values 9/11/13/15/17 with 2/2/2/3/3 Stones per colour [IMPL]; colour names designed (RULES.md)."""
    cards = load_unearth_cards()
    assert cards.ruin_colours == ("peach", "green", "blue", "purple", "gray")
    for colour in range(5):
        ruins = sorted((r.claim, r.stones) for r in cards.ruins if r.colour == colour)
        assert ruins == [(9, 2), (11, 2), (13, 2), (15, 3), (17, 3)]
    assert all(ruin.points == 0 for ruin in cards.ruins)


def test_delver_types_and_counts() -> None:
    """Rulebook, Game components: "Delver Deck of 38 mini-sized cards"; the 10 types and counts [IMPL]."""
    cards = load_unearth_cards()
    assert {d.name: d.count for d in cards.delvers} == {
        "Ancient Map": 5,
        "Band of Delvers": 2,
        "Restoration": 2,
        "Ancestral Claim": 4,
        "Forgotten Song": 3,
        "Forlorn": 3,
        "Lost in the Ruins": 4,
        "Reading the Stones": 5,
        "A New Discovery": 5,
        "Expedition": 5,
    }


def test_delver_effects_are_structured() -> None:
    """Rulebook, FAQ: "Reading the Stones (and other modifiers) only applies to your first Excavation roll", "The
    Gathering event is in play, reducing my die rolls by 1, and I play Ancestral Claim to give my next D6 +2"."""
    effects = {d.name: d.effect for d in load_unearth_cards().delvers}
    assert effects["Ancestral Claim"].kind == "next_d6_modifier" and effects["Ancestral Claim"].amount == 2
    assert effects["Reading the Stones"].kind == "next_roll_modifier"
    assert effects["Reading the Stones"].choices == (1, -1)
    assert (effects["Forlorn"].kind, effects["Forlorn"].amount) == ("modify_placed_die", -2)
    assert (effects["A New Discovery"].kind, effects["A New Discovery"].amount) == ("modify_placed_die", 2)
    assert effects["Ancient Map"].kind == "reroll_excavation"
    assert effects["Band of Delvers"].kind == "two_dice"
    assert effects["Restoration"].kind == "reroll_own_dice"
    assert effects["Forgotten Song"].kind == "name_a_number_reroll"
    assert effects["Lost in the Ruins"].kind == "reroll_placed_die"
    assert effects["Expedition"].kind == "choose_ruin_after_roll"
    assert all(d.text for d in load_unearth_cards().delvers)


def test_end_of_age_cards() -> None:
    """Rulebook, End of Age: "If it is a new Ruin, place Stones on the Ruin as you normally would. If it is an Event,
    follow the instructions on the card." The 3 events and 2 Ruins [IMPL]; the Ruins have no colour (RULES.md)."""
    cards = {card.name: card for card in load_unearth_cards().end_of_age}
    assert {name for name, card in cards.items() if card.type == "event"} == {
        "Day of Rest",
        "The Gathering",
        "Festival of Reclamation",
    }
    day, gathering, festival = cards["Day of Rest"], cards["The Gathering"], cards["Festival of Reclamation"]
    assert day.effect is not None and (day.effect.kind, day.effect.cards) == ("each_player_draws_delvers", 3)
    assert gathering.effect is not None and (gathering.effect.kind, gathering.effect.amount) == (
        "all_rolls_modifier",
        -1,
    )
    assert festival.effect is not None and (festival.effect.kind, festival.effect.amount) == ("all_rolls_modifier", 1)
    gold, ash = cards["City of Gold"].ruin, cards["City of Ash"].ruin
    assert gold is not None and (gold.claim, gold.stones, gold.points, gold.colour) == (21, 5, 7, None)
    assert ash is not None and (ash.claim, ash.stones, ash.points, ash.colour) == (17, 3, -4, None)
    assert all((card.effect is None) == (card.type == "ruin") for card in cards.values())


NAMED_WONDER_FORMULAS = {
    # name: (notation, Stones per colour red/yellow/blue/black, group sizes, wildcards, points)
    "College of the Overseers": ("BBB???", (0, 0, 3, 0), (), 3, 2),
    "Temple of Prosperity": ("YYYY??", (0, 4, 0, 0), (), 2, 0),
    "The Harmonious Columns": ("RRR???", (3, 0, 0, 0), (), 3, 2),
    "The Shattered Edifice": ("LLL???", (0, 0, 0, 3), (), 3, 2),
    "The Blackened Cenotaph": ("112233", (0, 0, 0, 0), (2, 2, 2), 0, 0),
    "The Eternal Flame": ("YYY???", (0, 3, 0, 0), (), 3, 1),
    "Tomb of the Last Age": ("LRBY??", (1, 1, 1, 1), (), 2, 0),
    "Fountain of Reflection": ("LRBY??", (1, 1, 1, 1), (), 2, 0),
    "Underground Library": ("??????", (0, 0, 0, 0), (), 6, 2),
    "Palace of Relics": ("111222", (0, 0, 0, 0), (3, 3), 0, 6),
    "Temple of Flames": ("RRRR??", (4, 0, 0, 0), (), 2, 0),
    "Temple of Fate": ("LLLL??", (0, 0, 0, 4), (), 2, 0),
    "The Crumbling Memorial": ("111111", (0, 0, 0, 0), (6,), 0, 0),
    "Temple of Clarity": ("BBBB??", (0, 0, 4, 0), (), 2, 0),
    "The Sanctuary of the Builders": ("??????", (0, 0, 0, 0), (), 6, 2),
}


@pytest.mark.parametrize("name", sorted(NAMED_WONDER_FORMULAS))
def test_named_wonder_formula_read_as_documented(name: str) -> None:
    """Rulebook, Reading Construction Formulas: "White Stone icons with ?'s indicate that any Stone may be used ...
    Connected sets of white Stones without ?'s indicate unique sets of colors"; the formulas and points [IMPL]."""
    notation, fixed, groups, wildcards, points = NAMED_WONDER_FORMULAS[name]
    named = wonder(name)
    assert named.formula.notation == notation
    assert (named.formula.fixed, named.formula.groups, named.formula.wildcards) == (fixed, groups, wildcards)
    assert named.points == points
    assert named.text


def test_named_wonder_effects() -> None:
    """Rulebook, Building Wonders: "Tomb of the Last Age grants points for each color of Stone you have at the end of
    the game" (the rulebook's reading, not the reference's Ruin colours); the other effects [IMPL]."""
    effects = {w.name: w.effect for w in load_unearth_cards().named_wonders}
    assert (effects["Tomb of the Last Age"].kind, effects["Tomb of the Last Age"].points) == (
        "points_per_stone_colour",
        1,
    )
    temples = {
        "Temple of Flames": RED,
        "Temple of Prosperity": YELLOW,
        "Temple of Clarity": BLUE,
        "Temple of Fate": BLACK,
    }
    for name, colour in temples.items():
        assert (effects[name].kind, effects[name].colour, effects[name].points) == ("points_per_stone", colour, 1)
    college = effects["College of the Overseers"]
    assert (college.kind, college.die_sides, college.choices) == ("own_roll_modifier", 8, (1,))
    columns = effects["The Harmonious Columns"]
    assert (columns.kind, columns.die_sides, columns.choices) == ("own_roll_modifier", None, (-1,))
    assert effects["The Shattered Edifice"].faces == (4, 5)
    library = effects["Underground Library"]
    assert (library.kind, library.draw, library.keep) == ("bag_draw_keep", 2, 1)
    assert effects["Palace of Relics"].kind == "none"
    assert (effects["Fountain of Reflection"].kind, effects["Fountain of Reflection"].points) == (
        "points_per_scarcest_stone",
        2,
    )


def test_wonder_tokens() -> None:
    """Rulebook, Game components: "Lesser Wonders tokens (10 hexes ...)", "Greater Wonders tokens (6 hexes ...)";
    values 2x2, 6x3, 2x4 and 1x6, 4x7, 1x8 [IMPL], within the printed ranges "Lesser 2-4, Greater 6-8" [SRC]."""
    cards = load_unearth_cards()
    assert Counter(cards.lesser_tokens) == {2: 2, 3: 6, 4: 2}
    assert Counter(cards.greater_tokens) == {6: 1, 7: 4, 8: 1}


def test_every_effect_kind_has_its_parameters_declared() -> None:
    """CONTENT.md: each effect kind lists the parameters it takes; the three vocabularies do not overlap."""
    kinds = DELVER_EFFECTS + WONDER_EFFECTS + EVENT_EFFECTS
    assert len(set(kinds)) == len(kinds)
    assert set(kinds) == set(EFFECT_PARAMETERS)


def test_shipped_cards_are_loaded_once() -> None:
    """load_unearth_cards caches the shipped data (the records are immutable)."""
    assert load_unearth_cards() is load_unearth_cards()


def test_a_users_copy_of_the_files_loads_the_same_cards(cards_dir: Path) -> None:
    """CONTENT.md: a user who owns the game can type the printed components into the same schema; a copy of the
    shipped files, rewritten by a YAML dumper, loads to the same records."""
    for filename in DATA_FILES:
        edit(cards_dir, filename, lambda document: None)
    assert load_unearth_cards(cards_dir) == load_unearth_cards()
    assert load_unearth_cards(str(cards_dir)) == load_unearth_cards()


# =============================================================================================== construction formulas
def test_tomb_of_the_last_age() -> None:
    """Rulebook, Building Wonders: Tomb of the Last Age "must be built within a ring consisting of one black Stone,
    one red, one blue, one yellow, and then two Stones that may be of any type"."""
    formula = wonder("Tomb of the Last Age").formula
    assert formula_fits(formula, ring("LRBYRR"))
    assert formula_fits(formula, ring("YLBRYY"))
    assert formula_fits(formula, ring("LRBYLB"))
    assert not formula_fits(formula, ring("RRBYYB"))  # no black
    assert not formula_fits(formula, ring("LLLLLL"))


def test_three_of_one_colour_and_three_of_another() -> None:
    """Rulebook, Reading Construction Formulas: "This Wonder must be built within a ring built from 3 Stones of one
    color and 3 Stones of another color." (Palace of Relics, 111222.)"""
    formula = wonder("Palace of Relics").formula
    assert formula_fits(formula, ring("RRRBBB"))
    assert formula_fits(formula, ring("BRBRBR"))
    assert not formula_fits(formula, ring("RRRRRR"))
    assert not formula_fits(formula, ring("RRRBBY"))
    assert not formula_fits(formula, ring("RRRRBB"))


def test_two_stones_each_of_three_colours() -> None:
    """Rulebook, Reading Construction Formulas: "This Wonder must be built within a ring built from 2 Stones of one
    color, 2 Stones of a second color, and 2 Stones of a third color." (The Blackened Cenotaph, 112233.)"""
    formula = wonder("The Blackened Cenotaph").formula
    assert formula_fits(formula, ring("RRYYBB"))
    assert formula_fits(formula, ring("LBRLBR"))
    assert not formula_fits(formula, ring("RRRRYY"))
    assert not formula_fits(formula, ring("RRYYYY"))
    assert not formula_fits(formula, ring("RRYYBL"))
    assert not formula_fits(formula, ring("RRRYYB"))


def test_three_yellow_and_three_of_any_combination() -> None:
    """Rulebook, Reading Construction Formulas: "This Wonder must be built within a ring of 3 yellow Stones and 3
    additional Stones that may be of any combination of colors." (The Eternal Flame, YYY???.)"""
    formula = wonder("The Eternal Flame").formula
    assert formula_fits(formula, ring("YYYRBL"))
    assert formula_fits(formula, ring("YYYYYY"))
    assert formula_fits(formula, ring("RYRYRY"))
    assert not formula_fits(formula, ring("YYRRBB"))


def test_three_blue_and_three_of_any_combination() -> None:
    """Rulebook, FAQ: "This Wonder must be built within a ring of 3 blue Stones and 3 additional Stones that may be of
    any combination of colors." (College of the Overseers, BBB???.)"""
    formula = wonder("College of the Overseers").formula
    assert formula_fits(formula, ring("BBBLLL"))
    assert not formula_fits(formula, ring("BBLLLL"))


def test_six_stones_all_of_the_same_colour() -> None:
    """Rulebook, FAQ: "This Wonder must be built within a ring built from 6 Stones, all of the same color."
    (The Crumbling Memorial, 111111.)"""
    formula = wonder("The Crumbling Memorial").formula
    for colour in "RYBL":
        assert formula_fits(formula, ring(colour * 6))
    assert not formula_fits(formula, ring("RRRRRY"))


def test_any_combination_of_stones() -> None:
    """Rulebook, FAQ: "This Wonder may be built using any combination of Stones." (Underground Library, ??????.)"""
    formula = wonder("Underground Library").formula
    for stones in itertools.combinations_with_replacement("RYBL", RING_SIZE):
        assert formula_fits(formula, ring("".join(stones)))


def test_four_red_and_two_of_any_combination() -> None:
    """Rulebook, FAQ: "This Wonder must be built within a ring of 4 red Stones and 2 additional Stones that may be of
    any combination of colors." (Temple of Flames, RRRR??.)"""
    formula = wonder("Temple of Flames").formula
    assert formula_fits(formula, ring("RRRRRR"))
    assert formula_fits(formula, ring("RRRRBL"))
    assert not formula_fits(formula, ring("RRRBBB"))


def test_the_order_of_stones_never_matters() -> None:
    """Rulebook, Reading Construction Formulas: "Note that the location of Stones in a ring does not matter. The
    formula only dictates type of stone, not position in the ring." A ring may be given in any order or as a Counter."""
    formula = wonder("Palace of Relics").formula
    for order in set(itertools.permutations(ring("RRRBBB"))):
        assert formula_fits(formula, order)
        assert formula_fits(formula, list(order))
    assert formula_fits(formula, Counter({RED: 3, BLUE: 3}))
    assert not formula_fits(formula, Counter({RED: 3, BLUE: 2, YELLOW: 1}))


def test_a_ring_is_six_stones_of_known_colours() -> None:
    """Rulebook: "Create a ring of 6 Stones to build a Wonder." Anything else is a caller's error."""
    formula = wonder("Underground Library").formula
    for bad in ((RED,) * 5, (RED,) * 7, (RED, RED, RED, BLUE, BLUE, 4), (RED, RED, RED, BLUE, BLUE, -1)):
        with pytest.raises(ValueError):
            formula_fits(formula, bad)
    with pytest.raises(ValueError):
        formula_fits(formula, Counter({RED: 7, BLUE: -1}))


def fits_by_definition(notation: str, ring_colours: tuple[int, ...]) -> bool:
    """RULES.md's reading, spelled out: some assignment of different colours to the digits makes every fixed and
    digit Stone of the formula present in the ring (the `?` Stones take what is left)."""
    digits = sorted({symbol for symbol in notation if symbol.isdigit()})
    have = Counter(ring_colours)
    for colours in itertools.permutations(range(len(LETTERS)), len(digits)):
        colour_of = {**{letter: i for i, letter in enumerate(LETTERS)}, **dict(zip(digits, colours, strict=True))}
        need = Counter(colour_of[symbol] for symbol in notation if symbol != "?")
        if all(have[colour] >= count for colour, count in need.items()):
            return True
    return False


EXTRA_FORMULAS = ("111122", "111223", "112234", "RR1122", "R11122", "BB11??", "1122??", "1?????", "12????", "RYBL12")


@pytest.mark.parametrize("notation", sorted({*(f[0] for f in NAMED_WONDER_FORMULAS.values()), *EXTRA_FORMULAS}))
def test_formula_fits_agrees_with_the_definition_on_every_ring(notation: str) -> None:
    """Rulebook, Reading Construction Formulas: "Connected sets of white Stones without ?'s indicate unique sets of
    colors" (different digits, different colours). formula_fits is exact on all 84 rings of 4 colours."""
    formula = parse_formula(notation, LETTERS)
    for stones in itertools.combinations_with_replacement(range(len(LETTERS)), RING_SIZE):
        assert formula_fits(formula, stones) == fits_by_definition(notation, stones), stones


@pytest.mark.parametrize(
    ("notation", "words"),
    [
        ("BBB??", "expected 6 symbols"),
        ("BBB????", "expected 6 symbols"),
        ("BBX???", "unknown Stone letter 'X'"),
        ("bbb???", "unknown Stone letter 'b'"),
        ("BBB*??", "unknown symbol '*'"),
        ("BBB0??", "unknown symbol '0'"),
        ("222111", None),
        ("113333", "numbered from 1 without gaps"),
        ("123451", "5 groups need 5 different colours"),
    ],
)
def test_parse_formula_rejects_malformed_notation(notation: str, words: str | None) -> None:
    """Rulebook, Building Wonders: a ring is 6 Stones; the reference's notation has a colour letter, `?` or a digit
    per Stone (CONTENT.md). Group digits start at 1 (the order of the groups does not matter)."""
    if words is None:
        assert isinstance(parse_formula(notation, LETTERS), StoneFormula)
        return
    with pytest.raises(ValueError, match=words):
        parse_formula(notation, LETTERS)


# =============================================================================================== malformed content
def test_missing_key(cards_dir: Path) -> None:
    """CONTENT.md, named_wonders.yaml: every Named Wonder has `points`; leaving it out names file, entry and field."""
    edit(cards_dir, "named_wonders.yaml", lambda doc: doc["named_wonders"][9].pop("points"))
    message = load_error(cards_dir)
    assert "named_wonders.yaml" in message
    assert "named_wonders[9] (Palace of Relics).points: missing required field" in message


def test_wrong_type(cards_dir: Path) -> None:
    """CONTENT.md, delvers.yaml: `count` is an integer; "5" is not coerced."""
    edit(cards_dir, "delvers.yaml", lambda doc: doc["delvers"][0].update(count="5"))
    message = load_error(cards_dir)
    assert "delvers.yaml: delvers[0] (Ancient Map).count: expected an integer, got '5'" in message


def test_unquoted_formula_is_a_number(cards_dir: Path) -> None:
    """CONTENT.md: quote formulas; an unquoted 111222 is read by YAML as a number, which is no formula."""
    path = cards_dir / "named_wonders.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace('"111222"', "111222"), encoding="utf-8")
    message = load_error(cards_dir)
    assert "named_wonders[9] (Palace of Relics).formula: expected a string, got 111222" in message


def test_unknown_colour_in_a_formula(cards_dir: Path) -> None:
    """CONTENT.md: a formula's letters are the Stone letters of stones.yaml (R, Y, B, L)."""
    edit(cards_dir, "named_wonders.yaml", lambda doc: doc["named_wonders"][0].update(formula="BBG???"))
    message = load_error(cards_dir)
    assert "named_wonders.yaml" in message and "named_wonders[0] (College of the Overseers).formula" in message
    assert "unknown Stone letter 'G'" in message


def test_formula_letters_come_from_stones_yaml(cards_dir: Path) -> None:
    """CONTENT.md: renaming a Stone letter in stones.yaml makes the formulas that use the old letter unknown."""
    edit(cards_dir, "stones.yaml", lambda doc: doc["stones"][3].update(letter="K"))
    message = load_error(cards_dir)
    assert "named_wonders[3] (The Shattered Edifice).formula" in message and "unknown Stone letter 'L'" in message


def test_formula_of_five_symbols(cards_dir: Path) -> None:
    """Rulebook: "Create a ring of 6 Stones to build a Wonder" (a formula has one symbol per Stone)."""
    edit(cards_dir, "named_wonders.yaml", lambda doc: doc["named_wonders"][9].update(formula="11122"))
    message = load_error(cards_dir)
    assert "named_wonders[9] (Palace of Relics).formula: expected 6 symbols" in message and "got 5" in message


def test_unknown_stone_colour_in_an_effect(cards_dir: Path) -> None:
    """CONTENT.md: an effect's `colour` names a Stone colour of stones.yaml."""
    edit(cards_dir, "named_wonders.yaml", lambda doc: doc["named_wonders"][1]["effect"].update(colour="green"))
    message = load_error(cards_dir)
    assert "named_wonders[1] (Temple of Prosperity).effect.colour: unknown Stone colour 'green'" in message


def test_effect_parameter_the_kind_does_not_take(cards_dir: Path) -> None:
    """CONTENT.md: each effect kind takes only its own parameters."""
    edit(cards_dir, "delvers.yaml", lambda doc: doc["delvers"][0]["effect"].update(amount=1))
    message = load_error(cards_dir)
    assert "delvers[0] (Ancient Map).effect.amount: kind 'reroll_excavation' takes no amount" in message


def test_effect_missing_its_parameter(cards_dir: Path) -> None:
    """CONTENT.md: `modify_placed_die` needs `amount` (Forlorn: "Give -2 to any one die already on a Ruin")."""
    edit(cards_dir, "delvers.yaml", lambda doc: doc["delvers"][5]["effect"].pop("amount"))
    message = load_error(cards_dir)
    assert "delvers[5] (Forlorn).effect.amount: missing required field" in message


def test_unknown_effect_kind(cards_dir: Path) -> None:
    """CONTENT.md: Delver effects come from a closed vocabulary."""
    edit(cards_dir, "delvers.yaml", lambda doc: doc["delvers"][0]["effect"].update(kind="teleport"))
    message = load_error(cards_dir)
    assert "delvers[0] (Ancient Map).effect.kind: 'teleport' is not one of" in message


def test_delver_deck_of_38(cards_dir: Path) -> None:
    """Rulebook, Game components: "Delver Deck of 38 mini-sized cards"."""
    edit(cards_dir, "delvers.yaml", lambda doc: doc["delvers"][0].update(count=6))
    message = load_error(cards_dir)
    assert "delvers.yaml: delvers: the rulebook has 38 Delver cards, got 39" in message


def test_five_ruins_of_each_colour(cards_dir: Path) -> None:
    """Rulebook, Resolving claims: "There are five of each type of Ruin"."""
    edit(cards_dir, "ruins.yaml", lambda doc: doc["ruins"][0].update(colour="green"))
    message = load_error(cards_dir)
    assert "ruins.yaml: ruin_colours[0]: the rulebook has 5 Ruins of each colour (peach), got 4" in message


def test_ruin_of_an_unknown_colour(cards_dir: Path) -> None:
    """CONTENT.md, ruins.yaml: a Ruin's colour is one of `ruin_colours`."""
    edit(cards_dir, "ruins.yaml", lambda doc: doc["ruins"][3].update(colour="teal"))
    message = load_error(cards_dir)
    assert "ruins.yaml: ruins[3].colour: unknown ruin colour 'teal'" in message


def test_stones_fifteen_of_each_colour(cards_dir: Path) -> None:
    """Rulebook, Game components: "Hexagonal Stone tokens (60 hexes; 15 of each color)"."""
    edit(cards_dir, "stones.yaml", lambda doc: doc["stones"][2].update(count=14))
    message = load_error(cards_dir)
    assert "stones.yaml: stones[2] (blue): the rulebook has 15 Stones of each colour (blue), got 14" in message


def test_end_of_age_ruin_has_no_effect(cards_dir: Path) -> None:
    """Rulebook, End of Age: "If it is a new Ruin, place Stones on the Ruin as you normally would. If it is an Event,
    follow the instructions on the card." (A Ruin card has claim, stones and points; an event has an effect.)"""
    change = {"effect": {"kind": "all_rolls_modifier", "amount": 1}}
    edit(cards_dir, "end_of_age.yaml", lambda doc: doc["end_of_age"][3].update(change))
    message = load_error(cards_dir)
    assert "end_of_age.yaml: end_of_age[3] (City of Gold).effect: an End of Age ruin has no effect" in message


def test_wonder_tokens_ten_lesser(cards_dir: Path) -> None:
    """Rulebook, Game components: "Lesser Wonders tokens (10 hexes and one matching card)"."""
    edit(cards_dir, "wonder_tokens.yaml", lambda doc: doc["lesser"][0].update(count=3))
    message = load_error(cards_dir)
    assert "wonder_tokens.yaml: lesser: the rulebook has 10 Lesser Wonder tokens, got 11" in message


def test_unknown_key(cards_dir: Path) -> None:
    """CONTENT.md: unknown keys are errors that list the allowed ones."""
    edit(cards_dir, "named_wonders.yaml", lambda doc: doc["named_wonders"][0].update(colour="blue"))
    message = load_error(cards_dir)
    assert "named_wonders[0] (College of the Overseers).colour: unknown field (allowed: name, formula" in message


def test_non_utf8_file(cards_dir: Path) -> None:
    """CONTENT.md: the files are UTF-8; a file in another encoding is a DataError naming the file."""
    path = cards_dir / "delvers.yaml"
    path.write_bytes(path.read_text(encoding="utf-8").replace("Forlorn", "Forlörn").encode("latin-1"))
    message = load_error(cards_dir)
    assert "delvers.yaml: file: not UTF-8 text" in message


def test_invalid_yaml_and_missing_file(cards_dir: Path) -> None:
    """CONTENT.md: every file is validated on load (not YAML at all; a file left out)."""
    path = cards_dir / "ruins.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "\n  - {colour: peach, claim: [\n", encoding="utf-8")
    assert "ruins.yaml: file: not valid YAML" in load_error(cards_dir)
    (cards_dir / "end_of_age.yaml").unlink()
    shutil.copy(DATA / "ruins.yaml", path)
    assert "end_of_age.yaml: file: cannot read" in load_error(cards_dir)


# =============================================================================================== fuzzing the loader
SHIPPED_DOCUMENTS = {
    name: yaml.load((DATA / name).read_text(encoding="utf-8"), Loader=FAST_LOADER) for name in DATA_FILES
}
YAML_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-100, 100) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3),
    max_leaves=6,
)


def mutate(document: Any, data: st.DataObject) -> Any:
    """A copy of `document` with one node replaced, deleted or given a new sibling (or the whole document replaced)."""
    document = copy.deepcopy(document)
    parent: Any = None
    key: Any = None
    node = document
    while isinstance(node, (dict, list)) and node and data.draw(st.booleans()):
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        parent, key = node, data.draw(st.sampled_from(keys))
        node = node[key]
    if parent is None:
        return data.draw(YAML_VALUES)
    action = data.draw(st.sampled_from(["replace", "delete", "insert"]))
    if action == "replace":
        parent[key] = data.draw(YAML_VALUES)
    elif action == "delete":
        del parent[key]
    elif isinstance(parent, dict):
        parent[data.draw(st.text(max_size=6))] = data.draw(YAML_VALUES)
    else:
        parent.insert(key, data.draw(YAML_VALUES))
    return document


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_fuzzed_data_raises_only_data_errors(data: st.DataObject) -> None:
    """CONTENT.md: every file is validated on load; whatever a user writes, loading succeeds or raises DataError."""
    filename = data.draw(st.sampled_from(DATA_FILES))
    with tempfile.TemporaryDirectory() as directory:
        for name in DATA_FILES:
            shutil.copy(DATA / name, Path(directory) / name)
        target = Path(directory) / filename
        if data.draw(st.booleans()):
            document = mutate(SHIPPED_DOCUMENTS[filename], data)
            target.write_text(yaml.dump(document, Dumper=FAST_DUMPER, allow_unicode=True), encoding="utf-8")
        else:
            target.write_bytes(data.draw(st.binary(max_size=64)))
        try:
            load_unearth_cards(directory)
        except DataError as error:  # named after a data file (a change to stones.yaml may surface in another file)
            assert Path(error.file).name in DATA_FILES
