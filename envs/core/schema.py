"""Plain words for a pydantic ValidationError, shared by card data (envs.core.data) and configs (agents.common.config).

`explain` gives one error's path through the raw input, as the user wrote it, and a message showing the bad value;
a `Wording` holds what the two kinds of document say differently. Schemas are pydantic models, dataclasses and
TypedDicts; a field annotated with `Written` is explained in the form the document writes it.
"""

from __future__ import annotations

import dataclasses
import functools
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Annotated, Any, Union, get_args, get_origin, get_type_hints

from pydantic import BaseModel, GetCoreSchemaHandler, Tag
from pydantic.fields import FieldInfo
from pydantic_core import CoreSchema, ErrorDetails, core_schema
from pydantic_core.core_schema import ErrorType
from typing_extensions import is_typeddict

Location = tuple[str | int, ...]
_BUILTIN_KINDS = frozenset(get_args(ErrorType))
"""pydantic's own error kinds; any other kind is a PydanticCustomError, whose message is shown as written."""
_VALIDATOR_KINDS = ("value_error", "assertion_error")
_EXPECTED = {
    **dict.fromkeys(["int_type", "int_parsing", "int_from_float"], "an integer"),
    **dict.fromkeys(["float_type", "float_parsing"], "a number"),
    **dict.fromkeys(["bool_type", "bool_parsing"], "a boolean (true/false)"),
    **dict.fromkeys(["string_type"], "a string"),
    **dict.fromkeys(["list_type", "tuple_type"], "a list"),
    **dict.fromkeys(["dict_type", "model_type", "model_attributes_type", "dataclass_type"], "a mapping"),
    "none_required": "null",
}
"""pydantic type-error kinds -> what the schema expected there."""
_UNKNOWN_KEY_KINDS = ("extra_forbidden", "invalid_key", "unexpected_keyword_argument")
"""A key the schema does not have (a model's and a TypedDict's; a dataclass's), or a key that is no string."""
_BOUNDS = {"greater_than": ">", "greater_than_equal": ">=", "less_than": "<", "less_than_equal": "<="}
_SIDES = {">": "not above", ">=": "below the minimum", "<": "not below", "<=": "above the maximum"}


class Invalid(ValueError):
    """Raised by a validator: `message` about the field at `path` below the value the validator checks."""

    def __init__(self, message: str, *path: str | int) -> None:
        super().__init__(message)
        self.path = path


def check_kind_parameters(
    data: Any, kind: str, parameters: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]]
) -> None:
    """Invalid naming the field when a record read by `kind` misses a parameter its kind requires or writes one its
    kind does not take (`parameters`: kind -> (required, optional))."""
    required, optional = parameters[kind]
    given = set(data) - {"kind"} if isinstance(data, Mapping) else set()
    takes = ", ".join(required + optional) or "no parameters"
    for name in required:
        if name not in given:
            raise Invalid(f"missing required field (kind {kind!r} takes: {takes})", name)
    extra = sorted(given - set(required) - set(optional))
    if extra:
        raise Invalid(f"kind {kind!r} takes no {extra[0]} (it takes: {takes})", extra[0])


@dataclass(frozen=True)
class Written:
    """Annotation of a field the document writes in another form: `Annotated[tuple[int, ...], Written(form, convert)]`.

    The document's value is validated as `form` (so an error is located inside it, with its bounds, and explained in
    its terms), then `convert(value)` gives the value kept; with `context`, `convert(value, context)` also gets the
    validation context ({} without one). Without `convert` the value is kept as validated: `Annotated[Base | None,
    Written(Narrower)]` reads a narrower form (no null, a subclass) into a wider field.
    """

    form: Any
    convert: Callable[..., Any] | None = None
    context: bool = False

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        """The form's schema, followed by the conversion."""
        schema = handler.generate_schema(self.form)
        convert = self.convert
        if convert is None:
            return schema
        if self.context:
            return core_schema.with_info_after_validator_function(
                lambda value, info: convert(value, info.context or {}), schema
            )
        return core_schema.no_info_after_validator_function(convert, schema)


@dataclass(frozen=True)
class Wording:
    """What differs between kinds of document (defaults: card data's): the noun for a key, how a value of the wrong
    type is shown, and templates given `{value}` (its repr), `{choices}`, `{op}` (`>=`), `{side}`, `{bound}`."""

    noun: str = "field"
    show: Callable[[Any], str] = repr
    not_one_of: str = "{value} is not one of [{choices}]"
    beyond: str = "{value} is {side} {bound}"


def explain(
    error: ErrorDetails, data: Any, model: Any = None, wording: Wording = Wording(), names: bool = False
) -> tuple[tuple[str, ...], str]:
    """One error of validating `data` against `model` (None: unknown): its input_path and a message."""
    problem = error.get("ctx", {}).get("error")
    loc = tuple(error["loc"]) + (problem.path if isinstance(problem, Invalid) else ())
    absent_last = error["type"] in ("missing", *_VALIDATOR_KINDS) or error["type"] not in _BUILTIN_KINDS
    # A key that is not a string (`null:`, `2.5:`) is reported at the mapping that holds it, naming the key.
    where = loc[:-1] if error["type"] == "invalid_key" else loc
    return input_path(data, where, absent_last, names), _describe(error, loc, model, wording)


def input_path(data: Any, loc: Location, absent_last: bool = False, names: bool = False) -> tuple[str, ...]:
    """The steps of `loc` that `data` spells (`algo`, `[1]`; with `names`, `[0] (Kobold)`), and if `absent_last`
    its last step (a key the input lacks); a union member's name, a `[key]` or an index past the end are left out.

    A mapping key that is neither a string nor an integer (pydantic's `loc` holds its repr) is spelt `[2.5]`.
    """
    steps: list[str] = []
    node = data
    for index, key in enumerate(loc):
        if isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node):
            node = node[key]
            name = node.get("name") if names and isinstance(node, Mapping) else None
            steps.append(f"[{key}] ({name})" if isinstance(name, str) and name else f"[{key}]")
        elif isinstance(node, Mapping) and (key in node or (absent_last and index == len(loc) - 1)):
            steps.append(str(key))
            node = node.get(key)
        elif isinstance(node, Mapping) and isinstance(key, str):
            written = [k for k in node if not isinstance(k, str | int) and repr(k) == key]
            if written:
                steps.append(f"[{_key_text(written[0])}]")
                node = node[written[0]]
    return tuple(steps)


def _key_text(key: Any) -> str:
    """A mapping key as YAML writes it: `null`, `true`, `2001-01-01`, `2.5`, `'1'` (a string that reads as a number)."""
    if key is None or isinstance(key, bool):
        return {None: "null", True: "true", False: "false"}[key]
    if isinstance(key, date):
        return key.isoformat()
    return repr(key)


def dotted(path: Sequence[str]) -> str:
    """`("algo", "net_arch", "[1]")` -> `algo.net_arch[1]`."""
    return "".join(step if step.startswith("[") or not index else f".{step}" for index, step in enumerate(path))


def _describe(error: ErrorDetails, loc: Location, model: Any, wording: Wording) -> str:
    """Plain words for one pydantic error at `loc` below `model`, with the bad value."""
    kind, ctx, value, noun = error["type"], error.get("ctx", {}), error.get("input"), wording.noun
    if kind in _VALIDATOR_KINDS or kind not in _BUILTIN_KINDS:
        return str(ctx["error"]) if kind in _VALIDATOR_KINDS else error["msg"]
    if kind == "missing":
        return f"missing required {noun}"
    if kind == "literal_error":  # pydantic writes the choices "'a', 'b' or 'c'"
        choices = ", ".join(str(ctx["expected"]).rsplit(" or ", 1))
        if loc[-1:] == ("[key]",):  # a mapping's key: loc is (..., key, '[key]')
            allowed = choices.replace("'", "")
            if isinstance(value, str) and value in allowed.split(", ") and "'" not in choices:
                return f"unknown {noun} (allowed: {allowed}; {value!r} is a string: write the number without quotes)"
            return f"unknown {noun} (allowed: {allowed})"
        return wording.not_one_of.format(value=repr(value), choices=choices)
    if loc[-1:] == ("[key]",):
        return f"bad {noun} name: {_describe(error, (), None, wording)}"
    if kind in _EXPECTED:
        return f"expected {_EXPECTED[kind]}, got {wording.show(value)}"
    if kind in _UNKNOWN_KEY_KINDS:
        parent, _ = _annotation_at(model, loc[:-1])
        fields = list(_keys_of(parent))
        allowed = f" (allowed: {', '.join(fields)})" if fields else ""
        if kind == "invalid_key":  # a key such as `null:` or `2.5:`: loc ends with its repr
            return f"unknown {noun} {_key_text(value)}: {noun} names are strings{allowed}"
        return f"unknown {noun}{allowed}"
    _, constraints = _annotation_at(model, loc)
    if kind in _BOUNDS:
        low, high = _constraint(constraints, "ge", ctx), _constraint(constraints, "le", ctx)
        if low is not None and high is not None:
            return f"{value!r} is outside [{low}, {high}]"
        op = _BOUNDS[kind]
        return wording.beyond.format(value=repr(value), op=op, side=_SIDES[op], bound=next(iter(ctx.values())))
    if kind == "string_too_short" and ctx.get("min_length") == 1:
        return f"expected a non-empty string, got {wording.show(value)}"
    if kind in ("too_short", "too_long"):
        low, high = _constraint(constraints, "min_length", ctx), _constraint(constraints, "max_length", ctx)
        if low is not None and high is not None:
            wanted = f"exactly {low}" if low == high else f"{low} to {high}"
        else:
            wanted = f"at least {low}" if kind == "too_short" else f"at most {high}"
        unit = "entry" if wanted.endswith(" 1") and " to " not in wanted else "entries"
        return f"expected {wanted} {unit}, got {ctx.get('actual_length')}"
    return f"{error['msg']}, got {wording.show(value)}"


def _constraint(constraints: list[Any], name: str, ctx: Mapping[str, Any]) -> Any:
    """The schema's constraint `name` (ge, max_length, ...), else the error context's; None if neither has it."""
    return next((getattr(item, name) for item in constraints if getattr(item, name, None) is not None), ctx.get(name))


def _annotation_at(model: Any, loc: Location) -> tuple[Any, list[Any]]:
    """The type that validated `loc` and its constraints (annotated_types such as Ge, MaxLen); (None, []) if unknown."""
    annotation: Any = model
    constraints: list[Any] = []
    for key in loc:
        annotation, constraints = _unwrap(annotation, constraints)
        origin = get_origin(annotation)
        if isinstance(annotation, type) and issubclass(annotation, BaseModel) and str(key) in annotation.model_fields:
            field = annotation.model_fields[str(key)]
            annotation, constraints = (
                (Annotated[(field.annotation, *field.metadata)] if field.metadata else field.annotation),
                [],
            )
        elif str(key) in _keys_of(annotation):  # a dataclass's or a TypedDict's key
            annotation, constraints = _keys_of(annotation)[str(key)], []
        elif origin in (Union, types.UnionType):  # a tagged union: `key` is the member's tag
            arms = [arm for arm in get_args(annotation) if Tag(str(key)) in get_args(arm)[1:]]
            annotation, constraints = (arms[0] if arms else None), []
        elif origin in (list, tuple, Sequence, dict, Mapping):
            annotation, constraints = get_args(annotation)[1 if origin in (dict, Mapping) else 0], []
        else:
            return None, []
    return _unwrap(annotation, constraints)


def _keys_of(annotation: Any) -> Mapping[str, Any]:
    """The keys a model, dataclass or TypedDict reads (a field's alias where it has one), with their annotations;
    empty for any other type."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return {name: field.annotation for name, field in annotation.model_fields.items()}
    if isinstance(annotation, type) and (dataclasses.is_dataclass(annotation) or is_typeddict(annotation)):
        return _record_keys(annotation)
    return {}


@functools.cache
def _record_keys(record: type) -> Mapping[str, Any]:
    hints = get_type_hints(record, include_extras=True)
    if is_typeddict(record):
        return hints
    keys: dict[str, Any] = {}
    for field in dataclasses.fields(record):
        if field.init:
            hint = hints[field.name]
            aliases = [item.validation_alias for item in get_args(hint)[1:] if isinstance(item, FieldInfo)]
            keys[next((alias for alias in aliases if isinstance(alias, str)), field.name)] = hint
    return keys


def _unwrap(annotation: Any, constraints: list[Any]) -> tuple[Any, list[Any]]:
    """Strip Annotated (collecting its constraints; a Written field becomes its document form) and Optional."""
    while True:
        args = get_args(annotation)
        if get_origin(annotation) is Annotated:
            written = [item.form for item in args[1:] if isinstance(item, Written)]
            metadata = [item.metadata if isinstance(item, FieldInfo) else [item] for item in args[1:]]
            constraints = constraints + [item for items in metadata for item in items if not isinstance(item, Written)]
            annotation = written[-1] if written else args[0]
        elif get_origin(annotation) in (Union, types.UnionType) and len(args) == 2 and type(None) in args:
            annotation = args[0] if args[1] is type(None) else args[1]
        else:
            return annotation, constraints
