"""YAML content loading (importlib.resources) and pydantic schema validation with errors naming file, entry, field.

A game describes each data file as `Record` models (unknown keys rejected, no type coercion, immutable) and loads it
with `load_document`; the first pydantic error becomes a DataError such as
`monsters.yaml: monsters[0] (Kobold).combat[3].effects[0].condition.name: unknown condition 'Sleepy'`.
"""

from __future__ import annotations

import types
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin

import yaml
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    ModelWrapValidatorHandler,
    PrivateAttr,
    Tag,
    ValidationError,
    model_validator,
)
from pydantic.fields import FieldInfo
from pydantic_core import ErrorDetails

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
RecordT = TypeVar("RecordT", bound="Record")
Location = tuple[str | int, ...]
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


def load_yaml(package: str, filename: str, directory: Path | None = None) -> Any:
    """Load `data/filename` of a game package, or from `directory` when a user supplies their own cards."""
    shown = data_file(package, filename, directory)
    if directory is not None:
        try:
            text = Path(shown).read_text(encoding="utf-8")
        except OSError as error:
            raise DataError(shown, "file", f"cannot read: {error}") from error
    else:
        text = resources.files(package).joinpath("data").joinpath(filename).read_text(encoding="utf-8")
    try:
        return yaml.load(text, Loader=_LOADER)
    except yaml.YAMLError as error:
        raise DataError(shown, "file", f"not valid YAML: {error}") from error


# ============================================================================================ schema building blocks
class Record(BaseModel):
    """Base of a data file's schema: unknown keys are errors, nothing is coerced ("3" is no integer), immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


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


class Invalid(ValueError):
    """Raised by a validator: `message` about the field at `path` below the value the validator checks."""

    def __init__(self, message: str, *path: str | int) -> None:
        super().__init__(message)
        self.path = path


def _unique_names(entries: list[Any]) -> list[Any]:
    seen: set[str] = set()
    for index, entry in enumerate(entries):
        if entry.name in seen:
            raise Invalid(f"duplicate name {entry.name!r}", index, "name")
        seen.add(entry.name)
    return entries


UniqueNames = AfterValidator(_unique_names)
"""Annotate a list of records that have a `name` with this: two entries of the same name are an error."""


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
    model: type[RecordT],
    package: str,
    filename: str,
    directory: Path | None = None,
    context: dict[str, Any] | None = None,
) -> RecordT:
    """Load one data file (see load_yaml) and validate it against `model` (see validate_document)."""
    document = load_yaml(package, filename, directory)
    return validate_document(model, document, data_file(package, filename, directory), context)


def validate_document(model: type[RecordT], document: Any, file: str, context: dict[str, Any] | None = None) -> RecordT:
    """Validate a parsed document against `model`; the first problem becomes a DataError naming file, entry, field.

    `context` reaches validators as `info.context` (e.g. names defined by another file).
    """
    try:
        return model.model_validate(document, context=context)
    except ValidationError as failure:
        error = failure.errors()[0]
        problem = error.get("ctx", {}).get("error")
        loc = tuple(error["loc"]) + (problem.path if isinstance(problem, Invalid) else ())
        raise DataError(file, describe_location(document, loc), _describe_error(model, error, loc)) from None


def describe_location(document: Any, loc: Location) -> str:
    """`monsters[0] (Kobold).combat[3]` for ('monsters', 0, 'combat', 3): list entries with a name show it.

    Steps that do not index the raw document (a union member's tag, the '[key]' of a bad mapping key) are left out.
    """
    parts: list[str] = []
    value = document
    for step, key in enumerate(loc):
        if isinstance(value, list) and isinstance(key, int):
            value = value[key] if -len(value) <= key < len(value) else None
            name = value.get("name") if isinstance(value, Mapping) else None
            parts.append(f"[{key}] ({name})" if isinstance(name, str) and name else f"[{key}]")
        elif isinstance(value, Mapping) and key != "[key]" and (key in value or step == len(loc) - 1):
            value = value.get(key)
            parts.append(f".{key}")
    return "".join(parts).lstrip(".") or "file"


_EXPECTED = {
    "int_type": "an integer",
    "bool_type": "true or false",
    "string_type": "a string",
    "list_type": "a list",
    "tuple_type": "a list",
    "dict_type": "a mapping",
    "model_type": "a mapping",
    "model_attributes_type": "a mapping",
}


def _describe_error(model: type[Record], error: ErrorDetails, loc: Location) -> str:
    """Plain words for one pydantic error, with the bad value where there is one."""
    kind, ctx, value = error["type"], error.get("ctx", {}), error.get("input")
    if kind in ("value_error", "assertion_error"):
        return str(ctx["error"])
    if kind == "missing":
        return "missing required field"
    if kind in _EXPECTED:
        return f"expected {_EXPECTED[kind]}, got {value!r}"
    if kind == "extra_forbidden":
        parent, _ = _annotation_at(model, loc[:-1])
        fields = list(parent.model_fields) if isinstance(parent, type) and issubclass(parent, BaseModel) else []
        return f"unknown field (allowed: {', '.join(fields)})"
    if loc[-1:] == ("[key]",):  # a mapping's key: loc is (..., key, '[key]')
        mapping, _ = _annotation_at(model, loc[:-2])
        keys = _choices(get_args(mapping)[0]) if get_origin(mapping) in (dict, Mapping) else None
        return f"unknown field (allowed: {', '.join(map(str, keys))})" if keys else f"bad key: {error['msg']}"
    annotation, constraints = _annotation_at(model, loc)
    if kind == "literal_error":
        return f"{value!r} is not one of {list(_choices(annotation) or [ctx.get('expected')])}"
    low, high = _constraint(constraints, "ge"), _constraint(constraints, "le")
    if kind in ("greater_than_equal", "less_than_equal"):
        if low is not None and high is not None:
            return f"{value!r} is outside [{low}, {high}]"
        return f"{value!r} is below the minimum {low}" if low is not None else f"{value!r} is above the maximum {high}"
    if kind == "string_too_short" and ctx.get("min_length") == 1:
        return f"expected a non-empty string, got {value!r}"
    if kind in ("too_short", "too_long"):
        shortest, longest = _constraint(constraints, "min_length"), _constraint(constraints, "max_length")
        if shortest is not None and shortest == longest:
            wanted = f"exactly {shortest}"
        elif shortest is not None and longest is not None:
            wanted = f"{shortest} to {longest}"
        else:
            wanted = f"at least {shortest}" if kind == "too_short" else f"at most {longest}"
        return f"expected {wanted} entries, got {ctx.get('actual_length')}"
    return f"{error['msg']}, got {value!r}"


def _choices(annotation: Any) -> tuple[Any, ...] | None:
    annotation, _ = _unwrap(annotation, [])
    return get_args(annotation) if get_origin(annotation) is Literal else None


def _constraint(constraints: list[Any], name: str) -> Any:
    return next((getattr(item, name) for item in constraints if getattr(item, name, None) is not None), None)


def _annotation_at(model: type[BaseModel], loc: Location) -> tuple[Any, list[Any]]:
    """The type that validated `loc` and its constraints (annotated_types such as Ge, MaxLen); (None, []) if unknown."""
    annotation: Any = model
    constraints: list[Any] = []
    for key in loc:
        annotation, constraints = _unwrap(annotation, constraints)
        origin = get_origin(annotation)
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            field = annotation.model_fields.get(str(key))
            if field is None:
                return None, []
            annotation, constraints = field.annotation, list(field.metadata)
        elif origin in (Union, types.UnionType):  # a tagged union: `key` is the member's tag
            arms = [arm for arm in get_args(annotation) if Tag(str(key)) in get_args(arm)[1:]]
            if not arms:
                return None, []
            annotation, constraints = arms[0], []
        elif origin in (list, tuple, Sequence):
            annotation, constraints = get_args(annotation)[0], []
        elif origin in (dict, Mapping):
            annotation, constraints = get_args(annotation)[1], []
        else:
            return None, []
    return _unwrap(annotation, constraints)


def _unwrap(annotation: Any, constraints: list[Any]) -> tuple[Any, list[Any]]:
    """Strip Annotated (collecting its constraints) and Optional."""
    while True:
        if get_origin(annotation) is Annotated:
            annotation, *metadata = get_args(annotation)
            for item in metadata:
                constraints = constraints + (item.metadata if isinstance(item, FieldInfo) else [item])
        elif get_origin(annotation) in (Union, types.UnionType) and type(None) in get_args(annotation):
            arms = [arm for arm in get_args(annotation) if arm is not type(None)]
            if len(arms) != 1:
                return annotation, constraints
            annotation = arms[0]
        else:
            return annotation, constraints
