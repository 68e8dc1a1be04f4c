"""envs/core/schema.py on its own: one pydantic error becomes a path through the raw input and a message.

Card data (envs.core.data) and configs (agents.common.config) both use it, with their own Wording; these tests use a toy
model and both the default (card data) wording and a config-like one.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from pydantic_core import PydanticCustomError

from envs.core.schema import Invalid, Wording, dotted, explain, input_path

KEYED = Wording(
    noun="key",
    show=lambda value: f"{type(value).__name__} {value!r}",
    not_one_of="expected one of {choices}, got {value}",
    beyond="must be {op} {bound}, got {value}",
)
"""A config-like wording: "key", typed values, comparisons."""
CARDS = Wording()
"""The default wording (card data's)."""


class Part(BaseModel):
    """A toy list entry with a name."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: str
    size: int = Field(1, ge=1, le=9)
    weight: float = Field(1.0, gt=0)
    colour: Literal["red", "blue"] = "red"

    @model_validator(mode="after")
    def _heavy_parts_are_big(self) -> Part:
        if self.weight > 100 and self.size < 5:
            raise Invalid("a heavy part must be big", "size")
        return self


class Kit(BaseModel):
    """A toy document: named parts, a union, a mapping with closed keys, a bounded list."""

    model_config = ConfigDict(extra="forbid", strict=True)

    parts: Annotated[list[Part], Field(max_length=3)]
    layout: list[int] | dict[str, int] = []
    stock: dict[Literal["small", "large"], int] = {}
    labels: dict[str, str] = {}

    @model_validator(mode="before")
    @classmethod
    def _no_empty_kit(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("parts") == []:
            raise PydanticCustomError("kit_rule", "a kit needs parts")
        return data


def problems(data: Any, wording: Wording = CARDS) -> list[tuple[str, str]]:
    """(path with entry names, message) of every error validating `data` against Kit."""
    with pytest.raises(ValidationError) as raised:
        Kit.model_validate(data)
    found = [explain(error, data, Kit, wording, names=True) for error in raised.value.errors()]
    return [(dotted(path), message) for path, message in found]


def first(data: Any, wording: Wording = CARDS) -> tuple[str, str]:
    """The first problem of `data`."""
    return problems(data, wording)[0]


def kit(**part: Any) -> dict[str, Any]:
    """A kit whose second part (the Gear) has `part`'s changes."""
    return {"parts": [{"name": "Bolt"}, {"name": "Gear", **part}]}


def test_paths_keep_the_steps_the_input_spells_with_entry_names() -> None:
    assert input_path(kit(), ("parts", 1, "size")) == ("parts", "[1]")
    assert input_path(kit(), ("parts", 1, "size"), absent_last=True) == ("parts", "[1]", "size")
    assert input_path(kit(), ("parts", 1, "size"), absent_last=True, names=True) == ("parts", "[1] (Gear)", "size")
    assert input_path(kit(), ("parts", 7, "name")) == ("parts",)
    assert input_path({"layout": {"a": 1}}, ("layout", "dict[str,int]", "a")) == ("layout", "a")
    assert dotted(("parts", "[1] (Gear)", "size")) == "parts[1] (Gear).size"
    assert dotted(("[0]", "a", "[2]", "[3]")) == "[0].a[2][3]"
    assert dotted(()) == ""


def test_wrong_types_show_the_value_in_each_wording() -> None:
    assert first(kit(size="3")) == ("parts[1] (Gear).size", "expected an integer, got '3'")
    assert first(kit(size="3"), KEYED) == ("parts[1] (Gear).size", "expected an integer, got str '3'")
    assert first(kit(weight="x")) == ("parts[1] (Gear).weight", "expected a number, got 'x'")
    assert first({"parts": None}) == ("parts", "expected a list, got None")


def test_missing_and_unknown_keys_use_the_wordings_noun() -> None:
    assert first({"parts": [{"size": 2}]}) == ("parts[0].name", "missing required field")
    assert first({"parts": [{"size": 2}]}, KEYED) == ("parts[0].name", "missing required key")
    assert first(kit(shape="round")) == (
        "parts[1] (Gear).shape",
        "unknown field (allowed: name, size, weight, colour)",
    )


def test_closed_vocabularies_of_values_and_of_mapping_keys() -> None:
    assert first(kit(colour="green")) == ("parts[1] (Gear).colour", "'green' is not one of ['red', 'blue']")
    assert first(kit(colour="green"), KEYED) == ("parts[1] (Gear).colour", "expected one of 'red', 'blue', got 'green'")
    assert first({**kit(), "stock": {"huge": 1}}) == ("stock.huge", "unknown field (allowed: small, large)")
    assert first({**kit(), "labels": {3: "x"}}, KEYED) == ("labels.3", "bad key name: expected a string, got int 3")


def test_bounds_name_the_range_or_the_one_bound() -> None:
    assert first(kit(size=10)) == ("parts[1] (Gear).size", "10 is outside [1, 9]")
    assert first(kit(weight=-1.5)) == ("parts[1] (Gear).weight", "-1.5 is not above 0.0")
    assert first(kit(weight=-1.5), KEYED) == ("parts[1] (Gear).weight", "must be > 0.0, got -1.5")


def test_list_lengths() -> None:
    parts = [{"name": str(index)} for index in range(4)]
    assert first({"parts": parts}) == ("parts", "expected at most 3 entries, got 4")


def test_validator_messages_are_shown_as_written_at_the_key_they_name() -> None:
    assert first(kit(weight=200.0, size=2)) == ("parts[1] (Gear).size", "a heavy part must be big")
    assert first(kit(weight=200.0)) == ("parts[1] (Gear).size", "a heavy part must be big")  # size left at default
    assert first({"parts": []}) == ("", "a kit needs parts")


def test_a_union_reports_each_member_and_steps_over_their_names() -> None:
    """`layout` is a list or a mapping: pydantic tries both; the member names never enter the path."""
    assert problems({**kit(), "layout": 5}, KEYED) == [
        ("layout", "expected a list, got int 5"),
        ("layout", "expected a mapping, got int 5"),
    ]
    assert problems({**kit(), "layout": {"a": "x"}}) == [
        ("layout", "expected a list, got {'a': 'x'}"),
        ("layout.a", "expected an integer, got 'x'"),
    ]


def test_explain_without_a_model_falls_back_on_the_errors_context() -> None:
    data = kit(size=10)
    with pytest.raises(ValidationError) as raised:
        Kit.model_validate(data)
    assert explain(raised.value.errors()[0], data, None, KEYED) == (("parts", "[1]", "size"), "must be <= 9, got 10")
