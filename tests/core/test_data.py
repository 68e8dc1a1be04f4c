"""The generic data-file validation of envs/core/data.py: pydantic errors become DataErrors naming file, entry, field.

Every game's content documentation promises the same thing (envs/unbroken/CONTENT.md: "Every file is validated on
load; an error names the file, the card and the field"). These tests use a toy schema, not a game's cards.
"""

from __future__ import annotations

import dataclasses
import importlib
import pickle
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Annotated, Any, Literal

import pytest
from pydantic import ConfigDict, Discriminator, Field, Tag, model_validator, with_config
from typing_extensions import TypedDict

from envs.core.data import (
    UNSET,
    DataError,
    DataRecord,
    Entries,
    Invalid,
    KeyedRecord,
    NamedList,
    NotZero,
    OneKey,
    Record,
    UniqueNames,
    derived,
    describe_location,
    entry_noun,
    load_document,
    load_named_list,
    load_yaml,
    referenced,
    required_keys,
    set_derived,
    sibling_entry,
    validate_document,
    validate_named_list,
)
from envs.core.schema import Written

FILE = "toys.yaml"


class Hit(OneKey):
    """A toy effect: exactly one key."""

    wounds: Annotated[int, Field(ge=1, le=10)] = UNSET
    shout: Literal["loud", "quiet"] = UNSET


class Rounds(Record):
    """A toy `{rounds: n}` member of a tagged union."""

    rounds: int = Field(ge=1, le=10)


class Row(Record):
    """A toy table row."""

    effects: list[Hit]
    downgrade: (
        Annotated[
            Annotated[Literal["permanent"], Tag("permanent")] | Annotated[Rounds, Tag("for rounds")],
            Discriminator(lambda value: "permanent" if isinstance(value, str) else "for rounds"),
        ]
        | None
    ) = None


class Mods(KeyedRecord):
    """Toy optional modifiers."""

    speed: int = UNSET
    luck: int = UNSET


class Toy(Record):
    """A toy card."""

    name: str
    health: int = Field(ge=1, le=30)
    armor: int = Field(0, ge=0)
    rows: list[Row] = Field(default=[], min_length=0, max_length=3)
    cost: dict[Literal["gold", "wood"], int] | None = None
    mods: Mods | None = None

    @model_validator(mode="after")
    def _armor_below_health(self) -> Toy:
        if self.armor >= self.health:
            raise Invalid("armor must be below health", "armor")
        return self


class Toys(Record):
    """A toy file: two to three named toys."""

    toys: Annotated[list[Toy], Field(min_length=2, max_length=3), UniqueNames]
    skulls: Annotated[dict[Literal[1, 2], int], required_keys(1, 2)] = {1: 1, 2: 2}


def document(**changes: Any) -> dict[str, Any]:
    """A valid toy document; `changes` update the second toy (the Kobold)."""
    kobold = {"name": "Kobold", "health": 3, "rows": [{"effects": [{"wounds": 1}]}, {"effects": [{"shout": "loud"}]}]}
    kobold.update(changes)
    return {"toys": [{"name": "Rat", "health": 2}, kobold]}


def error(doc: Any) -> DataError:
    """The DataError raised by validating `doc` against Toys."""
    with pytest.raises(DataError) as raised:
        validate_document(Toys, doc, FILE)
    assert raised.value.file == FILE
    return raised.value


def test_a_valid_document_validates() -> None:
    """A valid document comes back as the model (and the errors below are about one change each)."""
    toys = validate_document(Toys, document(), FILE)
    assert [toy.name for toy in toys.toys] == ["Rat", "Kobold"]
    assert toys.toys[1].rows[1].effects[0].item() == ("shout", "loud")


def test_location_names_each_list_entry_by_its_name() -> None:
    """CONTENT.md: an error names the card, e.g. `monsters[0] (Kobold)`, and the dotted field below it."""
    doc = {"monsters": [{"name": "Kobold", "combat": [{}, {}, {}, {"effects": [{"condition": {"name": "Sleepy"}}]}]}]}
    loc = ("monsters", 0, "combat", 3, "effects", 0, "condition", "name")
    assert describe_location(doc, loc) == "monsters[0] (Kobold).combat[3].effects[0].condition.name"
    assert describe_location(doc, ()) == "file"
    assert describe_location({"monsters": [{"name": 5}]}, ("monsters", 0, "level")) == "monsters[0].level"


def test_unknown_field_lists_the_allowed_ones() -> None:
    """An unknown key names the entry, the key and the keys the schema allows."""
    message = str(error(document(poison_bite=2)))
    assert message.startswith(f"{FILE}: toys[1] (Kobold).poison_bite: unknown field (allowed: ")
    assert "name, health, armor, rows, cost, mods" in message


def test_wrong_type_shows_the_value() -> None:
    """A wrong type is not coerced ("3" is no integer) and the message shows the bad value."""
    assert str(error(document(health="three"))) == f"{FILE}: toys[1] (Kobold).health: expected an integer, got 'three'"
    assert "expected an integer, got '3'" in str(error(document(health="3")))
    assert "expected an integer, got True" in str(error(document(health=True)))


def test_out_of_range_gives_both_bounds() -> None:
    """A number outside its Field(ge=..., le=...) range names both bounds; a one-sided bound names that one."""
    assert str(error(document(health=31))) == f"{FILE}: toys[1] (Kobold).health: 31 is outside [1, 30]"
    assert str(error(document(armor=-1))).endswith("toys[1] (Kobold).armor: -1 is below the minimum 0")


def test_missing_required_field() -> None:
    """A required key left out is named with the words "missing required field"."""
    doc = document()
    del doc["toys"][1]["health"]
    assert str(error(doc)) == f"{FILE}: toys[1] (Kobold).health: missing required field"


def test_validator_errors_point_below_the_checked_value() -> None:
    """A cross-field rule raised with Invalid(message, *path) names the field at that path."""
    assert str(error(document(armor=3))) == f"{FILE}: toys[1] (Kobold).armor: armor must be below health"


def test_list_lengths_and_duplicate_names() -> None:
    """A list of the wrong length says how many were expected and found; a repeated name is named at the second entry,
    which names the first."""
    assert str(error({"toys": [{"name": "Rat", "health": 2}]})) == f"{FILE}: toys: expected 2 to 3 entries, got 1"
    rows: list[dict[str, Any]] = [{"effects": []}] * 4
    assert str(error(document(rows=rows))).endswith("toys[1] (Kobold).rows: expected 0 to 3 entries, got 4")
    doc = document(name="Rat")
    assert str(error(doc)) == f"{FILE}: toys[1] (Rat).name: duplicate name 'Rat' (also toys[0])"


def test_mapping_keys_from_a_closed_vocabulary() -> None:
    """A mapping keyed by a Literal names the bad key and the allowed ones; required_keys names a missing key."""
    assert str(error(document(cost={"gold": 1, "silver": 2}))) == (
        f"{FILE}: toys[1] (Kobold).cost.silver: unknown field (allowed: gold, wood)"
    )
    assert str(error({**document(), "skulls": {1: 3}})) == f"{FILE}: skulls.2: missing required field"
    assert str(error({**document(), "skulls": {1: 3, 2: 4, 3: 5}})) == (
        f"{FILE}: skulls.3: unknown field (allowed: 1, 2)"
    )


def test_closed_vocabulary_values() -> None:
    """A value outside a Literal names the value and the choices."""
    rows = [{"effects": [{"shout": "whisper"}]}]
    assert str(error(document(rows=rows))) == (
        f"{FILE}: toys[1] (Kobold).rows[0].effects[0].shout: 'whisper' is not one of ['loud', 'quiet']"
    )


def test_one_key_records() -> None:
    """An effect mapping has exactly one key (CONTENT.md: "each list item has exactly one key")."""
    rows = [{"effects": [{"wounds": 1, "shout": "loud"}]}]
    assert str(error(document(rows=rows))) == (
        f"{FILE}: toys[1] (Kobold).rows[0].effects[0]: expected exactly one key, got 2"
    )
    assert "expected exactly one key, got 0" in str(error(document(rows=[{"effects": [{}]}])))
    assert "effects[0].wounds: expected an integer, got None" in str(
        error(document(rows=[{"effects": [{"wounds": None}]}]))
    )


def test_tagged_union_tags_are_not_part_of_the_location() -> None:
    """A discriminated union's member tag is left out of the field path; the member's own bounds are found."""
    bad_rounds = [{"effects": [], "downgrade": {"rounds": 0}}]
    assert str(error(document(rows=bad_rounds))) == (
        f"{FILE}: toys[1] (Kobold).rows[0].downgrade.rounds: 0 is outside [1, 10]"
    )
    bad_word = [{"effects": [], "downgrade": "forever"}]
    assert str(error(document(rows=bad_word))) == (
        f"{FILE}: toys[1] (Kobold).rows[0].downgrade: 'forever' is not one of ['permanent']"
    )


def test_not_a_mapping_at_the_top() -> None:
    """An empty or non-mapping document is an error about the whole file."""
    assert str(error(None)) == f"{FILE}: file: expected a mapping, got None"
    assert str(error([1, 2])) == f"{FILE}: file: expected a mapping, got [1, 2]"


def test_keyed_record_keeps_the_documents_key_order() -> None:
    """KeyedRecord.given() returns only the keys written, in the document's order (not the schema's)."""
    toy = validate_document(Toys, document(mods={"luck": 1, "speed": 2}), FILE).toys[1]
    assert toy.mods is not None
    assert list(toy.mods.given().items()) == [("luck", 1), ("speed", 2)]
    toy = validate_document(Toys, document(mods={"speed": 0}), FILE).toys[1]
    assert toy.mods is not None and toy.mods.given() == {"speed": 0}


def test_a_users_file_not_in_utf8_is_a_data_error(tmp_path: Path) -> None:
    """A user's file in another encoding (here Latin-1) is a DataError naming the file, not a UnicodeDecodeError."""
    (tmp_path / FILE).write_bytes("toys: [{name: Kobøld}]\n".encode("latin-1"))
    with pytest.raises(DataError) as raised:
        load_yaml("envs.core", FILE, tmp_path)
    assert raised.value.file == str(tmp_path / FILE)
    assert str(raised.value).startswith(f"{tmp_path / FILE}: file: not UTF-8 text")


def test_a_key_that_is_not_a_string_is_named_where_it_is() -> None:
    """A key YAML reads as null, a number, a boolean or a date is named as the file spells it, at the mapping that
    holds it, with the allowed keys (it used to be pydantic's bare "Keys should be strings" about the whole file)."""
    allowed = "(allowed: name, health, armor, rows, cost, mods)"
    for key, spelt in [(None, "null"), (2.5, "2.5"), (True, "true"), (7, "7"), (date(2001, 1, 1), "2001-01-01")]:
        kobold = document()["toys"][1]
        kobold[key] = 1
        assert str(error({"toys": [{"name": "Rat", "health": 2}, kobold]})) == (
            f"{FILE}: toys[1] (Kobold): unknown field {spelt}: field names are strings {allowed}"
        )
    assert str(error({**document(), None: 1})) == (
        f"{FILE}: file: unknown field null: field names are strings (allowed: toys, skulls)"
    )


def test_a_mapping_key_of_the_wrong_type_is_named() -> None:
    """In a mapping keyed by a Literal, a key of another type shows in the path; a quoted number is pointed out."""
    assert str(error({**document(), "skulls": {1: 3, 2: 4, None: 5}})) == (
        f"{FILE}: skulls[null]: unknown field (allowed: 1, 2)"
    )
    assert str(error({**document(), "skulls": {1: 3, 2: 4, 2.5: 5}})) == (
        f"{FILE}: skulls[2.5]: unknown field (allowed: 1, 2)"
    )
    assert str(error({**document(), "skulls": {1: 3, "2": 4}})) == (
        f"{FILE}: skulls.2: unknown field (allowed: 1, 2; '2' is a string: write the number without quotes)"
    )
    assert str(error(document(cost={"gold": 1, None: 2}))) == (
        f"{FILE}: toys[1] (Kobold).cost[null]: unknown field (allowed: gold, wood)"
    )


def test_a_file_that_is_not_utf8_is_named_with_the_line_and_column(tmp_path: Path) -> None:
    """Bytes that are not UTF-8 raise DataError naming the file, the byte, its line and column (they used to raise a
    bare UnicodeDecodeError with the byte's offset and no file name)."""
    (tmp_path / "toys.yaml").write_bytes("toys:\n  - name: Rat\n    health: é".encode() + b"\xff2\n")
    with pytest.raises(DataError) as raised:
        load_document(Toys, "tests", "toys.yaml", tmp_path)
    assert str(raised.value) == (  # the column counts characters (é is two bytes)
        f"{tmp_path / 'toys.yaml'}: file: not UTF-8 text: byte 0xff at line 3, column 14 cannot be decoded "
        "(save the file as UTF-8)"
    )


# ============================================================================================ runtime records
def _owner(name: str, context: Mapping[str, Any]) -> int:
    if name not in context["owners"]:
        raise ValueError(f"unknown owner {name!r}")
    return int(context["owners"].index(name))


@dataclass(frozen=True, kw_only=True, slots=True)
class Gem(DataRecord):
    """A toy runtime record read straight from a document."""

    name: str
    weight: Annotated[int, Field(ge=1, le=10)] = 1
    facets: Entries[Annotated[int, Field(ge=0)]] = ()
    price: Annotated[
        tuple[tuple[str, int], ...],
        Written(dict[Literal["gold", "wood"], Annotated[int, Field(ge=1, le=9)]], lambda price: tuple(price.items())),
    ] = ()
    owner: Annotated[int, Written(str, _owner, context=True), Field(validation_alias="held_by")] = -1
    """An owner by index (written as a name: `held_by: Ann`)."""
    cost: int = derived()

    def __post_init__(self) -> None:
        set_derived(self, cost=self.weight + sum(amount for _, amount in self.price))


@with_config(ConfigDict(extra="forbid", strict=True))
class Shop(TypedDict):
    """A toy setting read by key."""

    open: bool
    tax: Annotated[int, Field(ge=0, le=5)]


class Gems(Record):
    """A toy file of runtime records."""

    gems: Annotated[list[Gem], Field(min_length=1), UniqueNames]
    shop: Shop = {"open": True, "tax": 0}


OWNERS = {"owners": ["Ann", "Bo"]}


def gem_error(**changes: Any) -> str:
    """The message of validating one gem with `changes` against Gems."""
    with pytest.raises(DataError) as raised:
        validate_document(Gems, {"gems": [{"name": "Ruby", **changes}]}, FILE, OWNERS)
    return str(raised.value)


def test_a_data_record_is_read_straight_from_the_document() -> None:
    """A DataRecord comes back as itself: lists as tuples, written forms converted, derived fields computed."""
    document = {"gems": [{"name": "Ruby", "weight": 2, "facets": [3, 4], "price": {"wood": 1, "gold": 5}}]}
    gem = validate_document(Gems, {**document, "shop": {"open": False, "tax": 1}}, FILE, OWNERS).gems[0]
    assert gem == Gem(name="Ruby", weight=2, facets=(3, 4), price=(("wood", 1), ("gold", 5)))
    assert gem.cost == 8
    held = validate_document(Gems, {"gems": [{"name": "Opal", "held_by": "Bo"}]}, FILE, OWNERS).gems[0]
    assert (held.owner, held.price, held.facets) == (1, (), ())


def test_a_data_record_is_a_plain_dataclass_at_runtime() -> None:
    """Built in code nothing is validated (dataclasses.replace recomputes the derived fields); fields live in slots
    (no per-instance __dict__, whose attributes read slower), so a record is hashable and immutable."""
    gem = validate_document(Gems, {"gems": [{"name": "Ruby", "price": {"gold": 2}}]}, FILE, OWNERS).gems[0]
    heavy = dataclasses.replace(gem, weight=99)
    assert (heavy.weight, heavy.cost) == (99, 101)
    assert not hasattr(gem, "__dict__") and hash(gem) == hash(Gem(name="Ruby", price=(("gold", 2),)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        gem.weight = 3  # type: ignore[misc]


def test_data_record_errors_name_the_key_as_written() -> None:
    """Unknown keys list the keys the document may write (an alias, not the field); bounds and types are those of
    the written form; a conversion's error is located at its key."""
    assert gem_error(colour="red") == (
        f"{FILE}: gems[0] (Ruby).colour: unknown field (allowed: name, weight, facets, price, held_by)"
    )
    assert gem_error(owner=1).endswith(
        "gems[0] (Ruby).owner: unknown field (allowed: name, weight, facets, price, held_by)"
    )
    assert gem_error(weight="3") == f"{FILE}: gems[0] (Ruby).weight: expected an integer, got '3'"
    assert gem_error(weight=11) == f"{FILE}: gems[0] (Ruby).weight: 11 is outside [1, 10]"
    assert gem_error(facets=[1, -1]) == f"{FILE}: gems[0] (Ruby).facets[1]: -1 is below the minimum 0"
    assert gem_error(facets="ab") == f"{FILE}: gems[0] (Ruby).facets: expected a list, got 'ab'"
    assert gem_error(price={"gold": 0}) == f"{FILE}: gems[0] (Ruby).price.gold: 0 is outside [1, 9]"
    assert gem_error(price={"iron": 1}) == f"{FILE}: gems[0] (Ruby).price.iron: unknown field (allowed: gold, wood)"
    assert gem_error(held_by="Cy") == f"{FILE}: gems[0] (Ruby).held_by: unknown owner 'Cy'"
    with pytest.raises(DataError, match=r"gems\[0\]\.name: missing required field"):
        validate_document(Gems, {"gems": [{"weight": 2}]}, FILE, OWNERS)


def test_a_typed_dict_setting_lists_its_keys() -> None:
    """A TypedDict setting is validated like a record: unknown keys list the allowed ones, bounds are named."""
    with pytest.raises(DataError) as raised:
        validate_document(Gems, {"gems": [{"name": "Ruby"}], "shop": {"open": True, "tax": 1, "tip": 2}}, FILE)
    assert str(raised.value) == f"{FILE}: shop.tip: unknown field (allowed: open, tax)"
    with pytest.raises(DataError) as raised:
        validate_document(Gems, {"gems": [{"name": "Ruby"}], "shop": {"open": True, "tax": 6}}, FILE)
    assert str(raised.value) == f"{FILE}: shop.tax: 6 is outside [0, 5]"


# ============================================================================================ named lists
PETS = "pets.yaml"


@dataclass(frozen=True, kw_only=True, slots=True)
class Pet(DataRecord):
    """A toy entry of a named-list file."""

    name: Annotated[str, Field(min_length=1)]
    legs: Annotated[int, Field(ge=0, le=8)] = 4
    mood: Annotated[int, Field(ge=-2, le=2), NotZero] = 1
    chases: Annotated[int, sibling_entry("pet")] = -1
    """Another pet of the file, by index (written as its name)."""


def pets(*entries: dict[str, Any]) -> dict[str, Any]:
    """A pets.yaml document: a dog, a cat that chases it, then `entries`."""
    return {"pets": [{"name": "Dog"}, {"name": "Cat", "legs": 4, "chases": "Dog"}, *entries]}


def pets_error(document: Any, **rules: Any) -> str:
    """The message of validating `document` as pets.yaml's named list of Pets."""
    with pytest.raises(DataError) as raised:
        validate_named_list(Pet, document, PETS, **rules)
    assert raised.value.file == PETS
    return str(raised.value)


def test_a_named_list_keeps_the_files_order_and_finds_entries_by_name() -> None:
    """A named-list file is a tuple of its records in the file's order, each found by name; an unknown name is a
    KeyError naming it and the known ones."""
    loaded = validate_named_list(Pet, pets(), PETS)
    assert isinstance(loaded, NamedList)
    assert list(loaded) == [Pet(name="Dog"), Pet(name="Cat", chases=0)]
    assert loaded.names == ("Dog", "Cat") and dict(loaded.indices) == {"Dog": 0, "Cat": 1}
    assert loaded.index_of("Cat") == 1 and loaded.by_name("Cat") is loaded[1]
    with pytest.raises(KeyError, match=r"unknown pet 'Cow' \(known: Dog, Cat\)"):
        loaded.by_name("Cow")
    copied = pickle.loads(pickle.dumps(loaded))
    assert copied == loaded and copied.noun == "pet" and copied.index_of("Cat") == 1


def test_a_named_list_refuses_a_duplicate_name_naming_both_entries() -> None:
    """Two entries of one name: the error is at the second and names the first (it used to name the second only)."""
    assert (
        pets_error(pets({"name": "Dog", "legs": 3}))
        == f"{PETS}: pets[2] (Dog).name: duplicate name 'Dog' (also pets[0])"
    )
    with pytest.raises(ValueError, match="pet 'Dog' is listed twice"):
        NamedList([Pet(name="Dog"), Pet(name="Dog")], "pet")


def test_a_named_list_names_an_unknown_field_and_a_bad_value() -> None:
    """An entry's unknown key lists the allowed ones; a bad value is named at its entry and field."""
    assert pets_error(pets({"name": "Owl", "wings": 2})) == (
        f"{PETS}: pets[2] (Owl).wings: unknown field (allowed: name, legs, mood, chases)"
    )
    assert pets_error(pets({"name": "Owl", "legs": 9})) == f"{PETS}: pets[2] (Owl).legs: 9 is outside [0, 8]"
    assert pets_error(pets({"name": "Owl", "mood": 0})) == f"{PETS}: pets[2] (Owl).mood: must not be 0"


def test_a_named_list_that_is_not_a_list_is_named_with_the_file(tmp_path: Path) -> None:
    """The file's key holding no list, missing, or a file that is no mapping: each error names the file."""
    assert pets_error({"pets": {"name": "Dog"}}) == f"{PETS}: pets: expected a list, got {{'name': 'Dog'}}"
    assert pets_error({}) == f"{PETS}: pets: missing required field"
    assert pets_error({**pets(), "owners": []}) == f"{PETS}: owners: unknown field (allowed: pets)"
    assert pets_error([{"name": "Dog"}]) == f"{PETS}: file: expected a mapping, got [{{'name': 'Dog'}}]"
    assert pets_error(None) == f"{PETS}: file: expected a mapping, got None"
    (tmp_path / PETS).write_text("pets: 5\n")
    with pytest.raises(DataError) as raised:
        load_named_list(Pet, "tests", PETS, tmp_path)
    assert str(raised.value) == f"{tmp_path / PETS}: pets: expected a list, got 5"


def test_a_named_list_counts_its_entries_and_keeps_the_files_own_rules() -> None:
    """`count` is exact or (at least, at most); `check` raises Invalid located in the list."""
    assert pets_error(pets(), count=3) == f"{PETS}: pets: expected exactly 3 entries, got 2"
    assert pets_error(pets(), count=(0, 1)) == f"{PETS}: pets: expected 0 to 1 entries, got 2"
    assert pets_error({"pets": []}) == f"{PETS}: pets: expected at least 1 entry, got 0"
    assert validate_named_list(Pet, {"pets": []}, PETS, count=(0, None)) == ()

    def cat_first(entries: Sequence[Pet]) -> None:
        if entries[0].name != "Cat":
            raise Invalid("the first pet is the Cat", 0, "name")

    assert pets_error(pets(), check=cat_first) == f"{PETS}: pets[0] (Dog).name: the first pet is the Cat"


def test_an_entry_names_another_entry_of_its_file_and_of_another_file() -> None:
    """`sibling_entry`: a name of the same file, kept as its index; `referenced`: a name of another file's list,
    each refused naming the name (and the known ones)."""
    assert validate_named_list(Pet, pets({"name": "Owl", "chases": "Cat"}), PETS)[2].chases == 1
    assert pets_error(pets({"name": "Owl", "chases": "Cow"})) == f"{PETS}: pets[2] (Owl).chases: unknown pet 'Cow'"
    loaded = validate_named_list(Pet, pets(), PETS)
    assert referenced(loaded, "Cat", "owners.yaml", "owners[0] (Ann).pet") is loaded[1]
    with pytest.raises(DataError) as raised:
        referenced(loaded, "Cow", "owners.yaml", "owners[0] (Ann).pet")
    assert str(raised.value) == "owners.yaml: owners[0] (Ann).pet: unknown pet 'Cow' (known: Dog, Cat)"
    assert entry_noun(type("NamedWonder", (), {})) == "named wonder"


@pytest.mark.parametrize(
    "game",
    [
        "envs.unbroken.game:UnbrokenGame",
        "envs.unearth.game:UnearthGame",
        "envs.runebound.game:RuneboundCombatGame",
        "envs.unstoppable.game:UnstoppableGame",
    ],
)
def test_a_card_directory_that_is_no_path_is_named(game: str) -> None:
    """`card_directory=5` is refused by the one loader of every game's content (envs.core.data.load_content), naming
    the setting and the type given (Unearth failed inside pathlib; the others checked it each in its own words)."""
    module, name = game.split(":")
    game_class = getattr(importlib.import_module(module), name)
    with pytest.raises(TypeError, match=r"^card_directory must be a path \(str or Path\), got 5 of type int$"):
        game_class(card_directory=5)
