"""A game's state declared once as a typed dataclass; `clone`, `to_dict` and `from_dict` derived from it.

A game declares its state's fields once, with their types, in a dataclass that mixes in `StateRecord`:

    @dataclass(eq=False)
    class MyState(StateRecord):
        phase: Phase = Phase.SETUP                                  # an IntEnum: saved by member name
        round: int = 0                                              # int, bool, str: saved as they are
        hand: Annotated[list[int], NamesOf("card")] = ...           # card indices: saved as card names
        deck: Annotated[tuple[int, ...], CountsOf("card")] = ...    # copies per card: saved as {name: copies}
        cache: ... = field(default=None, metadata=CACHE)            # a cache: never saved, never compared

Everything else follows from that declaration: `to_dict` writes every field by name (indices into the game's
content become the content's names, so a saved position is readable, survives a reordering of the content files,
and can be written by hand); `from_dict` refuses a missing or unknown field, a value of the wrong type and an
unknown name with a `StateFormatError` naming the field, then calls the game's `validate()` for ranges and
cross-field consistency; `clone` copies the mutable containers; equality, hashing and pickling go through
`to_dict`. The game supplies the name tables (`name_tables()`: table -> names in index order).

Multi-seat games have more shapes, each a codec here: `PerSeat` (one value per seat, checked against
`NameTables.num_seats`), `ListOf` and `BoundedInt` (sizes and ranges checked before anything is built), `DeckOf`
(an ordered `Deck` by names), `DecisionStackCodec` (the frame stack; details that index content saved by name),
`SavedTogether` (parallel per-seat fields saved as one record per item) and `HexCellsOf` (values on the cells of
one of the game's hex maps, saved by coordinates). Lists come back as tuples wherever a field is a tuple.

Caches are fields marked `CACHE` that hold `(source objects..., value)` tuples; their one getter compares the
sources with the state's current objects by identity (a state replaces a container when it changes), so a cache is
never cleared by hand.
"""

from __future__ import annotations

import dataclasses
import difflib
import enum
import sys
import typing
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, TypeVar

from envs.core.game import StateFormatError
from envs.core.hexmap import HexMap

CACHE = {"cache": True}
"""Field metadata of a cache: not saved, not compared, not validated."""
MAX_COPIES = 10**6
"""Bound on the copies of one entry a saved pile (`CountsOf`) holds: far above any game's, and refused by name before
a pile's size is taken (a count past a machine word makes `len()` raise OverflowError)."""

RecordT = TypeVar("RecordT", bound="StateRecord")


class NameTables:
    """The names of a game's content by table ("monster", "skill", ...), in index order, with reverse look-ups."""

    def __init__(
        self, tables: Mapping[str, Sequence[str]], num_seats: int = 1, hex_maps: Mapping[str, HexMap] | None = None
    ) -> None:
        self.names = {table: tuple(names) for table, names in tables.items()}
        self._index = {table: {name: i for i, name in enumerate(names)} for table, names in self.names.items()}
        self.num_seats = num_seats
        """Seats of the game: the length of every per-seat field (`PerSeat`)."""
        self.hex_maps = dict(hex_maps or {})
        """The game's hex maps by name (a board): cells saved by their (q, r) coordinates (`HexCellsOf`)."""

    def name(self, table: str, index: int) -> str:
        """The name of entry `index` of a table."""
        return self.names[table][index]

    def index(self, table: str, name: Any, field: str) -> int:
        """The index of `name` in a table; StateFormatError naming `field` when it is not one of the table's names."""
        if not isinstance(name, str):
            raise StateFormatError(field, f"expected a {table} name (a string), got {name!r}")
        index = self._index[table].get(name)
        if index is None:
            known = self.names[table]
            close = difflib.get_close_matches(name, known, n=3)
            hint = f"did you mean {' or '.join(repr(n) for n in close)}? " if close else ""
            shown = ", ".join(repr(n) for n in known[:12]) + (", ..." if len(known) > 12 else "")
            raise StateFormatError(field, f"unknown {table} {name!r} ({hint}known: {shown})")
        return index


class FieldCodec:
    """How one declared field is written to and read from a state dict (subclasses for content indices)."""

    def encode(self, value: Any, tables: NameTables) -> Any:
        """The JSON-able form of the field's value."""
        raise NotImplementedError

    def decode(self, value: Any, tables: NameTables, field: str) -> Any:
        """The field's value from its JSON-able form; StateFormatError naming `field` on a bad value."""
        raise NotImplementedError


def _expect_int(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise StateFormatError(field, f"expected an integer, got {value!r}")
    return value


def _expect_list(value: Any, field: str) -> list[Any]:
    if not isinstance(value, list | tuple):
        raise StateFormatError(field, f"expected a list, got {value!r}")
    return list(value)


def _expect_mapping(value: Any, field: str) -> Mapping[Any, Any]:
    if not isinstance(value, Mapping):
        raise StateFormatError(field, f"expected a mapping of names, got {value!r}")
    return value


class IntCodec(FieldCodec):
    """A plain integer."""

    def encode(self, value: Any, tables: NameTables) -> Any:
        """The integer itself."""
        return int(value)

    def decode(self, value: Any, tables: NameTables, field: str) -> Any:
        """An integer (not a bool)."""
        return _expect_int(value, field)


class BoolCodec(FieldCodec):
    """A plain boolean."""

    def encode(self, value: Any, tables: NameTables) -> Any:
        """The boolean itself."""
        return bool(value)

    def decode(self, value: Any, tables: NameTables, field: str) -> Any:
        """true or false."""
        if not isinstance(value, bool):
            raise StateFormatError(field, f"expected true or false, got {value!r}")
        return value


class StrCodec(FieldCodec):
    """A plain string."""

    def encode(self, value: Any, tables: NameTables) -> Any:
        """The string itself."""
        return str(value)

    def decode(self, value: Any, tables: NameTables, field: str) -> Any:
        """A string."""
        if not isinstance(value, str):
            raise StateFormatError(field, f"expected a string, got {value!r}")
        return value


class EnumCodec(FieldCodec):
    """An IntEnum member, saved by its name."""

    def __init__(self, enum_type: type[enum.IntEnum]) -> None:
        self.enum_type = enum_type

    def encode(self, value: Any, tables: NameTables) -> Any:
        """The member's name."""
        return self.enum_type(value).name

    def decode(self, value: Any, tables: NameTables, field: str) -> Any:
        """The member of that name."""
        member = self.enum_type.__members__.get(value) if isinstance(value, str) else None
        if member is None:
            known = ", ".join(self.enum_type.__members__)
            raise StateFormatError(field, f"{value!r} is not a {self.enum_type.__name__} (one of: {known})")
        return member


class NameOf(FieldCodec):
    """An index into a content table, saved as the entry's name; `optional`: -1 (none yet) is saved as null."""

    def __init__(self, table: str, optional: bool = False) -> None:
        self.table = table
        self.optional = optional

    def encode(self, value: Any, tables: NameTables) -> Any:
        """The name (or None for -1 when optional)."""
        if value < 0 and self.optional:
            return None
        return tables.name(self.table, value)

    def decode(self, value: Any, tables: NameTables, field: str) -> Any:
        """The index of the name (or -1 for null when optional)."""
        if value is None and self.optional:
            return -1
        return tables.index(self.table, value, field)


class NamesOf(FieldCodec):
    """A list of indices into a content table, saved as a list of names (null entries when `optional`)."""

    def __init__(self, table: str, optional: bool = False) -> None:
        self.item = NameOf(table, optional)

    def encode(self, value: Any, tables: NameTables) -> Any:
        """The list of names."""
        return [self.item.encode(item, tables) for item in value]

    def decode(self, value: Any, tables: NameTables, field: str) -> Any:
        """The list of indices."""
        return [self.item.decode(item, tables, f"{field}[{i}]") for i, item in enumerate(_expect_list(value, field))]


class CountsOf(FieldCodec):
    """A count per entry of a content table (a multiset pile), saved as {name: count} without the zeros (each count
    at most `MAX_COPIES`)."""

    def __init__(self, table: str) -> None:
        self.table = table

    def encode(self, value: Any, tables: NameTables) -> Any:
        """{name: count} of the non-zero counts, in table order."""
        names = tables.names[self.table]
        return {names[i]: count for i, count in enumerate(value) if count}

    def decode(self, value: Any, tables: NameTables, field: str) -> Any:
        """The count list (names left out count 0)."""
        counts = [0] * len(tables.names[self.table])
        for name, count in _expect_mapping(value, field).items():
            where = f"{field}.{name}"
            index = tables.index(self.table, name, where)
            if _expect_int(count, where) < 0:
                raise StateFormatError(where, f"a count cannot be negative, got {count}")
            if count > MAX_COPIES:
                raise StateFormatError(where, f"a pile holds at most {MAX_COPIES} copies of one entry, got {count}")
            counts[index] = count
        return counts


class ValuesOf(FieldCodec):
    """One integer per entry of a content table (e.g. resources), saved as {name: value} with every name present."""

    def __init__(self, table: str) -> None:
        self.table = table

    def encode(self, value: Any, tables: NameTables) -> Any:
        """{name: value} for every entry."""
        return dict(zip(tables.names[self.table], (int(v) for v in value), strict=True))

    def decode(self, value: Any, tables: NameTables, field: str) -> Any:
        """The value list; every name is required."""
        mapping = _expect_mapping(value, field)
        names = tables.names[self.table]
        for name in mapping:
            tables.index(self.table, name, f"{field}.{name}")
        missing = [name for name in names if name not in mapping]
        if missing:
            raise StateFormatError(f"{field}.{missing[0]}", "missing (every entry must be given)")
        return [_expect_int(mapping[name], f"{field}.{name}") for name in names]


class IntsByName(FieldCodec):
    """A mapping from table indices to integers (e.g. condition -> rounds left), saved as {name: int}."""

    def __init__(self, table: str) -> None:
        self.table = table

    def encode(self, value: Any, tables: NameTables) -> Any:
        """{name: int}."""
        return {tables.name(self.table, key): int(number) for key, number in value.items()}

    def decode(self, value: Any, tables: NameTables, field: str) -> Any:
        """{index: int}."""
        return {
            tables.index(self.table, name, f"{field}.{name}"): _expect_int(number, f"{field}.{name}")
            for name, number in _expect_mapping(value, field).items()
        }


class PerSeat(FieldCodec):
    """One value per seat (hands, dice, tableaus), saved as a list of the inner codec's values, seat 0 first.

    The list must have exactly one entry per seat of the game (`NameTables.num_seats`); entries come back as the
    inner codec decodes them (lists become tuples: per-seat fields are immutable).
    """

    def __init__(self, inner: FieldCodec) -> None:
        self.inner = inner

    def encode(self, value: Any, tables: NameTables) -> Any:
        """The list of every seat's encoded value."""
        return [self.inner.encode(item, tables) for item in value]

    def decode(self, value: Any, tables: NameTables, field: str) -> Any:
        """A tuple of every seat's value; StateFormatError when the list does not have one entry per seat."""
        items = _expect_list(value, field)
        if len(items) != tables.num_seats:
            raise StateFormatError(field, f"expected one entry per seat ({tables.num_seats}), got {len(items)}")
        return tuple(freeze(self.inner.decode(item, tables, f"{field}[{i}]")) for i, item in enumerate(items))


class ListOf(FieldCodec):
    """A list of values of one inner codec (at most `max_length` of them: checked before anything is decoded)."""

    def __init__(self, inner: FieldCodec, max_length: int | None = None, length: int | None = None) -> None:
        self.inner = inner
        self.max_length = max_length
        self.length = length

    def encode(self, value: Any, tables: NameTables) -> Any:
        """The list of encoded items."""
        return [self.inner.encode(item, tables) for item in value]

    def decode(self, value: Any, tables: NameTables, field: str) -> Any:
        """A tuple of decoded items; StateFormatError when the list is longer than the bound or of the wrong length."""
        items = _expect_list(value, field)
        if self.length is not None and len(items) != self.length:
            raise StateFormatError(field, f"expected {self.length} entries, got {len(items)}")
        if self.max_length is not None and len(items) > self.max_length:
            raise StateFormatError(field, f"expected at most {self.max_length} entries, got {len(items)}")
        return tuple(freeze(self.inner.decode(item, tables, f"{field}[{i}]")) for i, item in enumerate(items))


class BoundedInt(FieldCodec):
    """An integer in `low..high` (inclusive); `null_as`: the integer that null stands for (e.g. -1 for "none")."""

    def __init__(self, low: int, high: int, null_as: int | None = None) -> None:
        self.low = low
        self.high = high
        self.null_as = null_as

    def encode(self, value: Any, tables: NameTables) -> Any:
        """The integer (null for `null_as`)."""
        return None if self.null_as is not None and value == self.null_as else int(value)

    def decode(self, value: Any, tables: NameTables, field: str) -> Any:
        """The integer; StateFormatError outside the bounds."""
        if value is None and self.null_as is not None:
            return self.null_as
        number = _expect_int(value, field)
        if not self.low <= number <= self.high:
            raise StateFormatError(field, f"expected an integer in {self.low}..{self.high}, got {number}")
        return number


class DeckOf(FieldCodec):
    """An ordered face-down `Deck` of a content table, saved as {"unknown": {name: copies}, "top": [names],
    "bottom": [names]} (top and bottom in drawing order)."""

    def __init__(self, table: str) -> None:
        self.table = table
        self.counts = CountsOf(table)
        self.names = NamesOf(table)

    def encode(self, value: Any, tables: NameTables) -> Any:
        """The deck's parts by name."""
        return {
            "unknown": self.counts.encode(value.unknown, tables),
            "top": self.names.encode(value.top, tables),
            "bottom": self.names.encode(value.bottom, tables),
        }

    def decode(self, value: Any, tables: NameTables, field: str) -> Any:
        """A Deck; StateFormatError naming the part that is wrong."""
        from envs.core.components import Deck

        parts = _expect_mapping(value, field)
        for key in parts:
            if key not in ("unknown", "top", "bottom"):
                raise StateFormatError(f"{field}.{key}", "unknown part of a deck (parts: unknown, top, bottom)")
        unknown = self.counts.decode(parts.get("unknown", {}), tables, f"{field}.unknown")
        top = self.names.decode(parts.get("top", []), tables, f"{field}.top")
        bottom = self.names.decode(parts.get("bottom", []), tables, f"{field}.bottom")
        return Deck(unknown=tuple(unknown), top=tuple(top), bottom=tuple(bottom))


class DecisionStackCodec(FieldCodec):
    """The pending-decision stack (envs/core/decisions.py), saved as a list of frame dicts, bottom first.

    `details` names the frame details that index a content table (`{"card": NameOf("delver")}`): they are saved by
    name like the state's other fields. Other details are saved as they are; lists come back as tuples
    (`DecisionFrame.from_dict`), so a frame survives JSON equal and hashable. The game checks kinds, seats and the
    other details in `validate`.
    """

    def __init__(self, max_frames: int = 10_000, details: Mapping[str, FieldCodec] | None = None) -> None:
        self.max_frames = max_frames
        self.details = dict(details or {})

    def encode(self, value: Any, tables: NameTables) -> Any:
        """The frames as dicts, named details by name."""
        frames = [frame.to_dict() for frame in value]
        for frame in frames:
            for key, codec in self.details.items():
                if key in frame["details"]:
                    frame["details"][key] = codec.encode(frame["details"][key], tables)
        return frames

    def decode(self, value: Any, tables: NameTables, field: str) -> Any:
        """A tuple of frames; StateFormatError naming the frame and detail that is wrong."""
        from envs.core.decisions import DecisionFrame

        items = _expect_list(value, field)
        if len(items) > self.max_frames:
            raise StateFormatError(field, f"expected at most {self.max_frames} frames, got {len(items)}")
        frames = []
        for i, item in enumerate(items):
            frame = DecisionFrame.from_dict(item, f"{field}[{i}]")
            if self.details:
                details = tuple(
                    (key, self.details[key].decode(detail, tables, f"{field}[{i}].details.{key}"))
                    if key in self.details
                    else (key, detail)
                    for key, detail in frame.details
                )
                frame = DecisionFrame(frame.seat, frame.kind, frame.reason, details)
            frames.append(frame)
        return tuple(frames)


class HexCellsOf(FieldCodec):
    """Values on cells of one of the game's hex maps (`NameTables.hex_maps[map_name]`), kept as {cell id: value}
    and saved as `[[q, r, value], ...]` in cell order, so a saved board reads by coordinates and survives a
    renumbering of the map's cells. `item` encodes one value (a name, a count, a list)."""

    def __init__(self, map_name: str, item: FieldCodec) -> None:
        self.map_name = map_name
        self.item = item

    def encode(self, value: Any, tables: NameTables) -> Any:
        """`[q, r, value]` per occupied cell, in cell order."""
        board = tables.hex_maps[self.map_name]
        return [[*board.hex_at(cell), self.item.encode(value[cell], tables)] for cell in sorted(value)]

    def decode(self, value: Any, tables: NameTables, field: str) -> Any:
        """{cell id: value}; StateFormatError naming the entry for a hex off the map or given twice."""
        board = tables.hex_maps[self.map_name]
        entries = _expect_list(value, field)
        if len(entries) > len(board):
            raise StateFormatError(field, f"the map has {len(board)} cells, got {len(entries)} entries")
        cells: dict[int, Any] = {}
        for i, entry in enumerate(entries):
            where = f"{field}[{i}]"
            if not isinstance(entry, list | tuple) or len(entry) != 3:
                raise StateFormatError(where, f"expected [q, r, value], got {entry!r}")
            q, r = _expect_int(entry[0], f"{where}[0]"), _expect_int(entry[1], f"{where}[1]")
            if (q, r) not in board:
                raise StateFormatError(where, f"hex ({q}, {r}) is not a cell of the map {self.map_name!r}")
            cell = board.index((q, r))
            if cell in cells:
                raise StateFormatError(where, f"hex ({q}, {r}) is given twice")
            cells[cell] = freeze(self.item.decode(entry[2], tables, f"{where}[2]"))
        return cells


class SavedTogether(FieldCodec):
    """Marks one of several parallel per-seat fields saved together as one record per item (a seat's dice, say).

    Runtime rules keep parallel tuples (`die_place[seat][die]`, `die_value[seat][die]`: fast to read and update);
    a saved state reads better with one record per item: `"dice": [{"die 1 (d6)": {"place": 0, "value": 4}, ...}]`.
    Every field declared with the same `key` is one `label` of that record; `items` names the table whose names key
    each seat's records (every item must be given); `item` is the codec of one value.
    """

    def __init__(self, key: str, label: str, items: str, item: FieldCodec) -> None:
        self.key = key
        self.label = label
        self.items = items
        self.item = item

    def encode(self, value: Any, tables: NameTables) -> Any:
        """Per seat, the list of this label's encoded values in item order (StateRecord.to_dict merges the labels)."""
        return [[self.item.encode(v, tables) for v in seat] for seat in value]

    def decode(self, value: Any, tables: NameTables, field: str) -> Any:
        """Not used: StateRecord.from_dict decodes a group as a whole (`decode_group`)."""
        raise NotImplementedError


def encode_group(members: Sequence[tuple[SavedTogether, Any]], tables: NameTables) -> list[dict[str, Any]]:
    """The saved form of fields saved together: per seat, {item name: {label: value}}."""
    items = tables.names[members[0][0].items]
    seats = [codec.encode(value, tables) for codec, value in members]
    return [
        {name: {codec.label: seats[m][seat][i] for m, (codec, _) in enumerate(members)} for i, name in enumerate(items)}
        for seat in range(len(seats[0]))
    ]


def decode_group(members: Sequence[SavedTogether], value: Any, tables: NameTables) -> list[tuple[Any, ...]]:
    """Each member field's per-seat tuples from the group's saved form; StateFormatError naming seat, item, label."""
    key = members[0].key
    items = tables.names[members[0].items]
    labels = [codec.label for codec in members]
    seats = _expect_list(value, key)
    if len(seats) != tables.num_seats:
        raise StateFormatError(key, f"expected one entry per seat ({tables.num_seats}), got {len(seats)}")
    decoded: list[list[tuple[Any, ...]]] = [[] for _ in members]
    for seat, records in enumerate(seats):
        where = f"{key}[{seat}]"
        records = _expect_mapping(records, where)
        for name in records:
            tables.index(members[0].items, name, f"{where}.{name}")
        per_member: list[list[Any]] = [[] for _ in members]
        for name in items:
            if name not in records:
                raise StateFormatError(f"{where}.{name}", "missing (every one must be given)")
            record = _expect_mapping(records[name], f"{where}.{name}")
            for label in record:
                if label not in labels:
                    raise StateFormatError(f"{where}.{name}.{label}", f"unknown (fields: {', '.join(labels)})")
            for m, codec in enumerate(members):
                path = f"{where}.{name}.{codec.label}"
                if codec.label not in record:
                    raise StateFormatError(path, "missing")
                per_member[m].append(codec.item.decode(record[codec.label], tables, path))
        for m in range(len(members)):
            decoded[m].append(tuple(per_member[m]))
    return [tuple(seats_of_member) for seats_of_member in decoded]


def freeze(value: Any) -> Any:
    """`value` with every list turned into a tuple, recursively (what JSON gives back for a saved tuple)."""
    if isinstance(value, list | tuple):
        return tuple(freeze(item) for item in value)
    return value


@dataclasses.dataclass(frozen=True)
class DeclaredField:
    """One saved field of a state record: its name, its codec and the container its value lives in."""

    name: str
    codec: FieldCodec
    container: type | None
    """list, tuple or dict for containers (copied by clone; tuples are immutable and shared), else None."""


def _codec_for(annotation: Any, owner: type, name: str) -> tuple[FieldCodec, type | None]:
    """The codec and container type of an annotation (Annotated[..., codec] or a plain type)."""
    codec: FieldCodec | None = None
    if typing.get_origin(annotation) is typing.Annotated:
        base, *extras = typing.get_args(annotation)
        codec = next((extra for extra in extras if isinstance(extra, FieldCodec)), None)
        annotation = base
    origin = typing.get_origin(annotation) or annotation
    container = origin if origin in (list, tuple, dict) else None
    if codec is None:
        if isinstance(annotation, type) and issubclass(annotation, enum.IntEnum):
            codec = EnumCodec(annotation)
        elif annotation is bool:
            codec = BoolCodec()
        elif annotation is int:
            codec = IntCodec()
        elif annotation is str:
            codec = StrCodec()
        else:
            raise TypeError(f"{owner.__name__}.{name}: annotate {annotation!r} with a FieldCodec (Annotated[..., ...])")
    return codec, container


def _annotation(cls: type, declared: dataclasses.Field[Any]) -> Any:
    """A field's annotation, evaluated in the module of the class that declares it (postponed annotations).

    Field by field, so that configuration fields (the game, imported for type checking only) are never evaluated.
    """
    if not isinstance(declared.type, str):
        return declared.type
    owner = next(k for k in cls.__mro__ if declared.name in getattr(k, "__annotations__", {}))
    return eval(declared.type, vars(sys.modules[owner.__module__]))  # noqa: S307 - our own annotations


class StateRecord:
    """Mixin of a dataclass state: clone, to_dict, from_dict, equality and pickling derived from its fields."""

    NOT_SAVED: ClassVar[frozenset[str]] = frozenset({"game"})
    """Fields that are configuration, not state (the game itself)."""
    _declared: ClassVar[dict[type, tuple[DeclaredField, ...]]] = {}
    _mutable: ClassVar[dict[type, tuple[tuple[str, ...], tuple[str, ...]]]] = {}

    game: Any

    @classmethod
    def declared_fields(cls) -> tuple[DeclaredField, ...]:
        """The saved fields in declaration order (computed once per class)."""
        declared = StateRecord._declared.get(cls)
        if declared is None:
            declared = tuple(
                DeclaredField(f.name, *_codec_for(_annotation(cls, f), cls, f.name))
                for f in dataclasses.fields(cls)  # type: ignore[arg-type]
                if f.name not in cls.NOT_SAVED and not f.metadata.get("cache")
            )
            StateRecord._declared[cls] = declared
        return declared

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        """Names of the saved fields, in declaration order."""
        return tuple(f.name for f in cls.declared_fields())

    def name_tables(self) -> NameTables:
        """The game's content names (the game provides them as `game.name_tables`)."""
        tables: NameTables = self.game.name_tables
        return tables

    def validate(self) -> None:
        """Check ranges and cross-field consistency; raises StateFormatError naming the field (games override)."""

    # ------------------------------------------------------------------------------------------ derived
    def clone(self: RecordT) -> RecordT:
        """An independent copy: lists and dicts are copied, tuples and caches shared (they are never mutated)."""
        # Not copy.copy: that goes through __getstate__/__setstate__ (to_dict, from_dict and validation).
        other = object.__new__(type(self))
        values = other.__dict__
        values.update(self.__dict__)
        lists, dicts = self._containers()
        for name in lists:
            values[name] = list(values[name])
        for name in dicts:
            values[name] = dict(values[name])
        return other

    def drop_caches(self) -> None:
        """Forget every cache (fields marked CACHE go back to their defaults): call after changing hidden parts in
        place (a resampled determinization), where the cached legal actions or outcomes would be the old ones."""
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            if f.metadata.get("cache"):
                default = f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default
                setattr(self, f.name, default)
        # A base further along the MRO with caches of its own (the frame engine's) forgets them too.
        forget_more = getattr(super(), "drop_caches", None)
        if forget_more is not None:
            forget_more()

    @classmethod
    def _containers(cls) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Names of the list fields and of the dict fields (what clone copies), computed once per class."""
        containers = StateRecord._mutable.get(cls)
        if containers is None:
            declared = cls.declared_fields()
            containers = (
                tuple(f.name for f in declared if f.container is list),
                tuple(f.name for f in declared if f.container is dict),
            )
            StateRecord._mutable[cls] = containers
        return containers

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict of every saved field, content indices written as names (groups saved as one key)."""
        tables = self.name_tables()
        data: dict[str, Any] = {}
        groups: dict[str, list[tuple[SavedTogether, Any]]] = {}
        for f in self.declared_fields():
            if isinstance(f.codec, SavedTogether):
                if f.codec.key not in groups:
                    groups[f.codec.key] = []
                    data[f.codec.key] = None  # keeps the group where its first field is declared
                groups[f.codec.key].append((f.codec, getattr(self, f.name)))
            else:
                data[f.name] = f.codec.encode(getattr(self, f.name), tables)
        for key, members in groups.items():
            data[key] = encode_group(members, tables)
        return data

    @classmethod
    def saved_keys(cls) -> tuple[str, ...]:
        """The keys of a saved state, in order: each field's name, a group's key in place of its fields."""
        keys: list[str] = []
        for f in cls.declared_fields():
            key = f.codec.key if isinstance(f.codec, SavedTogether) else f.name
            if key not in keys:
                keys.append(key)
        return tuple(keys)

    @classmethod
    def from_dict(cls: type[RecordT], game: Any, data: Any) -> RecordT:
        """Build a state from `to_dict()` output; StateFormatError naming the field for anything that cannot be."""
        if not isinstance(data, Mapping):
            raise StateFormatError("", f"a state is a mapping of fields, got {type(data).__name__}")
        declared = cls.declared_fields()
        keys = cls.saved_keys()
        for key in data:
            if key not in keys:
                raise StateFormatError(str(key), f"unknown field (fields: {', '.join(keys)})")
        for key in keys:
            if key not in data:
                raise StateFormatError(key, "missing field (a state dict gives every field)")
        tables: NameTables = game.name_tables
        values: dict[str, Any] = {}
        groups: dict[str, list[DeclaredField]] = {}
        for f in declared:
            if isinstance(f.codec, SavedTogether):
                groups.setdefault(f.codec.key, []).append(f)
                continue
            value = f.codec.decode(data[f.name], tables, f.name)
            values[f.name] = freeze(value) if f.container is tuple else value
        for key, members in groups.items():
            codecs = [f.codec for f in members if isinstance(f.codec, SavedTogether)]
            for f, value in zip(members, decode_group(codecs, data[key], tables), strict=True):
                values[f.name] = value
        state = cls(game=game, **values)  # type: ignore[call-arg]
        state.validate()
        return state

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StateRecord) and type(other) is type(self) and self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return hash(repr(self.to_dict()))

    def __getstate__(self) -> dict[str, Any]:
        return {"game": self.game, "data": self.to_dict()}

    def __setstate__(self, payload: dict[str, Any]) -> None:
        restored = type(self).from_dict(payload["game"], payload["data"])
        self.__dict__.update(restored.__dict__)
