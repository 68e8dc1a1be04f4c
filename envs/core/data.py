"""YAML content loading (importlib.resources) and pydantic schema validation with errors naming file, entry, field.

A game describes each data file with its runtime records, frozen dataclasses on `DataRecord` that pydantic validates
straight from the document (a field the document writes in another form says so with `Written`), and with `Record`
models for a file's own rules (unknown keys rejected, no type coercion, immutable); it loads a file with
`load_document`, and the first pydantic error becomes a DataError such as
`monsters.yaml: monsters[0] (Kobold).combat[3].effects[0].condition.name: unknown condition 'Sleepy'`.

Most card files are one list of named entries under the file's own name (`monsters.yaml`: `monsters: [...]`):
`load_named_list` reads one into a `NamedList`, the entries with unique names, looked up by name.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Any, ClassVar, Protocol, TypeVar

import yaml
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    ModelWrapValidatorHandler,
    PrivateAttr,
    Strict,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    create_model,
    model_validator,
)
from pydantic_core import CoreSchema

from envs.core.schema import Invalid, Location, Written, check_kind_parameters, dotted, explain, input_path

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
DocumentT = TypeVar("DocumentT")
ContentT = TypeVar("ContentT")
ItemT = TypeVar("ItemT")
UNSET: Any = None
"""Default of an optional field whose absence is read from `model_fields_set`: an explicit null stays an error."""


class DataError(ValueError):
    """Invalid card data; the message names the file, the entry and the field."""

    def __init__(self, file: str, where: str, message: str) -> None:
        self.file = file
        self.where = where
        super().__init__(f"{file}: {where}: {message}")


def data_file(package: str, filename: str, directory: Path | None = None) -> str:
    """The file name shown in errors: the user's path, or `package/data/filename` for the shipped data."""
    if directory is not None:
        return str(Path(directory) / filename)
    return f"{package.replace('.', '/')}/data/{filename}"


def written_keys(data: Any) -> set[str]:
    """The keys a document's mapping writes (none for a record built in code)."""
    return set(data) if isinstance(data, Mapping) else set()


def load_content(load: Callable[[Path | None], ContentT], directory: str | os.PathLike[str] | None) -> ContentT:
    """A game's content by its `load(directory)`: the shipped data (directory None) parsed once per process and
    shared (the content is immutable), a user's directory (the game's `card_directory`) read on every call."""
    if directory is None:
        return _shipped_content(load)
    if not isinstance(directory, str | os.PathLike):
        raise TypeError(
            f"card_directory must be a path (str or Path), got {directory!r} of type {type(directory).__name__}"
        )
    return load(Path(directory))


@functools.cache
def _shipped_content(load: Callable[[Path | None], Any]) -> Any:
    return load(None)


def load_yaml(package: str, filename: str, directory: Path | None = None) -> Any:
    """Load `data/filename` of a game package, or from `directory` when a user supplies their own cards."""
    shown = data_file(package, filename, directory)
    if directory is not None:
        try:
            raw = Path(shown).read_bytes()
        except OSError as error:
            raise DataError(shown, "file", f"cannot read: {error}") from error
    else:
        raw = resources.files(package).joinpath("data").joinpath(filename).read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise DataError(shown, "file", _not_utf8(raw, error)) from None
    try:
        return yaml.load(text, Loader=_LOADER)
    except yaml.YAMLError as error:
        raise DataError(shown, "file", f"not valid YAML: {error}") from error


def _not_utf8(raw: bytes, error: UnicodeDecodeError) -> str:
    """Where a file stops being UTF-8: the bad byte, its line and column (1-based, in characters), as an editor shows
    them."""
    line = raw.count(b"\n", 0, error.start) + 1
    column = len(raw[raw.rfind(b"\n", 0, error.start) + 1 : error.start].decode("utf-8", errors="replace")) + 1
    return (
        f"not UTF-8 text: byte 0x{raw[error.start]:02x} at line {line}, column {column} cannot be decoded "
        "(save the file as UTF-8)"
    )


# ============================================================================================ schema building blocks
_STRICT = ConfigDict(extra="forbid", frozen=True, strict=True)


class Record(BaseModel):
    """Base of a data file's schema: unknown keys are errors, nothing is coerced ("3" is no integer), immutable."""

    model_config = _STRICT


class DataRecord:
    """Base of a runtime record read straight from a document: a `@dataclass(frozen=True, kw_only=True, slots=True)`
    subclass is validated like a Record, and stays a plain dataclass (equality and hashing are a dataclass's; building
    one in code, `dataclasses.replace` included, validates nothing).

    Fields are declared once, with their bounds (`Annotated[int, Field(ge=1)]`); a list the document writes is kept
    as a tuple (`Entries`); a value the document writes in another form is converted on the way in (`Written`); an
    attribute computed from the others is a `derived()` field set in `__post_init__`.
    """

    # Slots, because pydantic gives a validated dataclass without slots a __dict__ of its own, whose attributes read
    # measurably slower than those of one built by __init__; it sets a slotted one's fields one by one.
    __slots__ = ()
    __pydantic_config__: ClassVar[ConfigDict] = _STRICT

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        """The dataclass's own schema, taking a mapping in strict mode (strict mode would take only an instance)."""
        schema = handler(source)
        node: Any = handler.resolve_ref_schema(schema)
        while node["type"] != "dataclass":  # below the record's own validators
            node = handler.resolve_ref_schema(node["schema"])
        node["strict"] = False  # the fields stay strict: only the document's mapping is let in
        return schema


class KindRecord(DataRecord):
    """A DataRecord read by its `kind`: each kind takes its own parameters (`KIND_PARAMETERS`: kind -> (required,
    optional)); a document that misses a required one or writes one its kind does not take is refused naming the field
    (`check_kind_parameters`). A subclass declares `kind` and the parameters' fields, with their defaults."""

    __slots__ = ()
    KIND_PARAMETERS: ClassVar[Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]]]
    kind: str

    @model_validator(mode="wrap")
    @classmethod
    def _parameters_of_the_kind(cls, data: Any, handler: ModelWrapValidatorHandler[Any]) -> Any:
        record = handler(data)
        check_kind_parameters(data, record.kind, cls.KIND_PARAMETERS)
        record.check_kind()
        return record

    def check_kind(self) -> None:
        """A subclass's further checks of its kind's parameters (raise `Invalid` naming the field)."""


Entries = Annotated[tuple[ItemT, ...], Strict(False)]
"""A list in the document, kept as a tuple (its items are validated strictly)."""


def derived() -> Any:
    """A DataRecord field that the document does not write: `__post_init__` computes it from the fields it does
    (it is left out of the constructor, repr and equality)."""
    return dataclasses.field(init=False, repr=False, compare=False)


def set_derived(record: Any, **values: Any) -> None:
    """Set a frozen record's derived() fields (in its `__post_init__`)."""
    for name, value in values.items():
        object.__setattr__(record, name, value)


class KeyedRecord(Record):
    """A Record of optional keys that remembers which keys the document wrote, in the document's order."""

    _keys: tuple[str, ...] = PrivateAttr(default=())

    @model_validator(mode="wrap")
    @classmethod
    def _remember_keys(cls, data: Any, handler: ModelWrapValidatorHandler[KeyedRecord]) -> KeyedRecord:
        record = handler(data)
        if isinstance(data, Mapping):
            record._keys = tuple(data)
        return record

    def given(self) -> dict[str, Any]:
        """The fields the document wrote (defaults left out), in the document's key order."""
        return {key: getattr(self, key) for key in self._keys}


class OneKey(Record):
    """A mapping with exactly one of the model's keys, such as an effect `{wounds: 2}` (fields default to UNSET)."""

    @model_validator(mode="after")
    def _exactly_one_key(self) -> OneKey:
        if len(self.model_fields_set) != 1:
            raise ValueError(f"expected exactly one key, got {len(self.model_fields_set)}")
        return self

    def item(self) -> tuple[str, Any]:
        """The (key, value) the document wrote."""
        (key,) = self.model_fields_set
        return key, getattr(self, key)


def _unique_names(entries: Sequence[Any], info: ValidationInfo) -> Sequence[Any]:
    first: dict[str, int] = {}
    for index, entry in enumerate(entries):
        if entry.name in first:
            raise Invalid(
                f"duplicate name {entry.name!r} (also {info.field_name or ''}[{first[entry.name]}])", index, "name"
            )
        first[entry.name] = index
    return entries


UniqueNames = AfterValidator(_unique_names)
"""Annotate a list of records that have a `name` with this: two entries of the same name are an error naming both."""


class Named(Protocol):
    """An entry of a named list: anything with a `name`."""

    @property
    def name(self) -> str:
        """The entry's name, unique in its list."""
        ...


NamedT = TypeVar("NamedT", bound=Named)


class NamedList(tuple[NamedT, ...]):
    """A file's entries in the file's order (a tuple: indexed by position), with unique names, looked up by name.

    `noun` names an entry in a lookup's error ("unknown card 'Nobody' (known: Strike, Spare Credits)").
    """

    noun: str
    _indices: dict[str, int]

    def __new__(cls, entries: Iterable[NamedT] = (), noun: str = "entry") -> NamedList[NamedT]:
        """The entries as a NamedList; ValueError if two have the same name."""
        named = super().__new__(cls, entries)
        named.noun = noun
        named._indices = {entry.name: index for index, entry in enumerate(named)}
        if len(named._indices) != len(named):
            repeated = next(entry.name for index, entry in enumerate(named) if named._indices[entry.name] != index)
            raise ValueError(f"{noun} {repeated!r} is listed twice")
        return named

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (tuple(self), self.noun)

    @property
    def names(self) -> tuple[str, ...]:
        """The entries' names, in order."""
        return tuple(self._indices)

    @property
    def indices(self) -> Mapping[str, int]:
        """Each entry's position by its name (read-only)."""
        return MappingProxyType(self._indices)

    def index_of(self, name: str) -> int:
        """The position of the entry named `name`; KeyError naming it and the known names otherwise."""
        index = self._indices.get(name)
        if index is None:
            shown = list(self._indices)[:_SHOWN_NAMES]
            more = f", ... ({len(self)} in all)" if len(self) > _SHOWN_NAMES else ""
            raise KeyError(f"unknown {self.noun} {name!r} (known: {', '.join(shown)}{more})")
        return index

    def by_name(self, name: str) -> NamedT:
        """The entry named `name`; KeyError naming it and the known names otherwise."""
        return self[self.index_of(name)]


_SHOWN_NAMES = 12
"""Known names an unknown name's error lists (then how many there are)."""


def referenced(entries: NamedList[NamedT], name: str, file: str, where: str) -> NamedT:
    """The entry of another file that `name`, written at `where` in `file`, refers to; DataError naming the name and
    the known ones otherwise."""
    try:
        return entries.by_name(name)
    except KeyError as error:
        raise DataError(file, where, error.args[0]) from None


def entry_noun(entry: type) -> str:
    """What an entry of type `entry` is called in messages: its class name in words (`NamedWonder`: named wonder)."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", entry.__name__).lower()


def _not_zero(value: int) -> int:
    if value == 0:
        raise ValueError("must not be 0")
    return value


NotZero = AfterValidator(_not_zero)
"""Annotate a number that must not be 0 with this (after its bounds: `Annotated[int, Field(ge=-3, le=3), NotZero]`)."""


def required_keys(*keys: Any) -> AfterValidator:
    """An annotation for a mapping that must have every one of `keys`."""

    def check(mapping: dict[Any, Any]) -> dict[Any, Any]:
        for key in keys:
            if key not in mapping:
                raise Invalid("missing required field", key)
        return mapping

    return AfterValidator(check)


# ============================================================================================ validation
def load_document(
    model: type[DocumentT],
    package: str,
    filename: str,
    directory: Path | None = None,
    context: dict[str, Any] | None = None,
) -> DocumentT:
    """Load one data file (see load_yaml) and validate it against `model` (see validate_document)."""
    document = load_yaml(package, filename, directory)
    return validate_document(model, document, data_file(package, filename, directory), context)


def validate_document(
    model: type[DocumentT], document: Any, file: str, context: dict[str, Any] | None = None
) -> DocumentT:
    """Validate a parsed document against `model` (a Record or a DataRecord); the first problem becomes a DataError
    naming file, entry, field.

    `context` reaches validators as `info.context` (e.g. names defined by another file).
    """
    try:
        return _adapter(model).validate_python(document, context=context)
    except ValidationError as failure:
        path, message = explain(failure.errors()[0], document, model, names=True)
        raise DataError(file, dotted(path) or "file", message) from None


EntryCount = int | tuple[int, int | None]
"""How many entries a named list holds: exactly n, or (at least, at most), at most None for no bound."""


def load_named_list(
    entry: type[NamedT],
    package: str,
    filename: str,
    directory: Path | None = None,
    *,
    count: EntryCount = (1, None),
    check: Callable[[Sequence[NamedT]], None] | None = None,
    context: Mapping[str, Any] | None = None,
) -> NamedList[NamedT]:
    """Load a named-list file (see load_yaml and validate_named_list)."""
    document = load_yaml(package, filename, directory)
    return validate_named_list(
        entry, document, data_file(package, filename, directory), count=count, check=check, context=context
    )


def validate_named_list(
    entry: type[NamedT],
    document: Any,
    file: str,
    *,
    count: EntryCount = (1, None),
    check: Callable[[Sequence[NamedT]], None] | None = None,
    context: Mapping[str, Any] | None = None,
) -> NamedList[NamedT]:
    """Validate a named-list document, `{<the file's stem>: [entry, ...]}`, into a NamedList of `entry` records.

    It holds `count` records with unique names; `check(entries)` holds the file's own rules, raising
    Invalid(message, index, field, ...) located in the list. An entry may name another entry of its file
    (`sibling_entry`). Every problem is a DataError naming the file, the entry (by index and name) and the field.
    """
    key = Path(file).stem
    written = _written_names(document.get(key) if isinstance(document, Mapping) else None)
    least, most = (count, count) if isinstance(count, int) else count
    model = _named_list_document(entry, key, least, most, check)
    validated = validate_document(model, document, file, {**(context or {}), _ENTRY_NAMES: written})
    return NamedList(getattr(validated, key), entry_noun(entry))


def _written_names(entries: Any) -> list[Any]:
    """The names a document's list writes, in order (None for an entry that writes none)."""
    if not isinstance(entries, list):
        return []
    return [entry.get("name") if isinstance(entry, Mapping) else None for entry in entries]


_ENTRY_NAMES = "entry_names"
"""The validation context's key for the names a named-list file writes, in order."""


@functools.cache
def _named_list_document(
    entry: type, key: str, least: int, most: int | None, check: Callable[[Sequence[Any]], None] | None
) -> type[Record]:
    """The Record of a file whose one key, `key`, holds the list."""

    def checked(entries: list[Any]) -> list[Any]:
        if check is not None:
            check(entries)
        return entries

    entries: Any = Annotated[
        list[entry],  # type: ignore[valid-type]
        Field(min_length=least, max_length=most),
        UniqueNames,
        AfterValidator(checked),
    ]
    fields: dict[str, Any] = {key: (entries, ...)}
    return create_model(f"{key.title().replace('_', '')}File", __base__=Record, **fields)


def sibling_entry(noun: str) -> Written:
    """The form of a field naming another entry of its own named-list file (a weapon's upgrade names the weapon it
    leads to): written as the name, kept as that entry's index; an unknown name is an error naming the `noun`."""

    def index(name: str, context: Mapping[str, Any]) -> int:
        names = context[_ENTRY_NAMES]
        if name not in names:
            raise ValueError(f"unknown {noun} {name!r}")
        return int(names.index(name))

    return Written(Annotated[str, Field(min_length=1)], index, context=True)


_ADAPTERS: dict[Any, TypeAdapter[Any]] = {}
"""A validator per schema, built once (a DataRecord's is built from its dataclass on first use)."""


def _adapter(model: Any) -> TypeAdapter[Any]:
    if model not in _ADAPTERS:
        _ADAPTERS[model] = TypeAdapter(model)
    return _ADAPTERS[model]


def describe_location(document: Any, loc: Location) -> str:
    """`monsters[0] (Kobold).combat[3]` for ('monsters', 0, 'combat', 3): list entries with a name show it."""
    return dotted(input_path(document, loc, absent_last=True, names=True)) or "file"
