"""YAML content loading (importlib.resources) and schema checks with errors naming file, entry and field."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any

import yaml


class DataError(ValueError):
    """Invalid card data; the message names the file, the entry and the field."""

    def __init__(self, file: str, where: str, message: str) -> None:
        self.file = file
        self.where = where
        super().__init__(f"{file}: {where}: {message}")


def load_yaml(package: str, filename: str, directory: Path | None = None) -> Any:
    """Load `data/filename` of a game package, or from `directory` when a user supplies their own cards."""
    if directory is not None:
        path = Path(directory) / filename
        shown = str(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as error:
            raise DataError(shown, "file", f"cannot read: {error}") from error
    else:
        shown = f"{package.replace('.', '/')}/data/{filename}"
        text = resources.files(package).joinpath("data", filename).read_text(encoding="utf-8")
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise DataError(shown, "file", f"not valid YAML: {error}") from error


class Checker:
    """Validates one YAML file's structure, raising DataError with the file and path of the bad field."""

    def __init__(self, file: str) -> None:
        self.file = file

    def fail(self, where: str, message: str) -> DataError:
        """A DataError for this file."""
        return DataError(self.file, where, message)

    def mapping(self, value: Any, where: str, allowed: Iterable[Any], required: Iterable[Any] = ()) -> dict:
        """Check a mapping with only `allowed` keys and every `required` key."""
        if not isinstance(value, Mapping):
            raise self.fail(where, f"expected a mapping, got {type(value).__name__}")
        allowed = set(allowed)
        for key in value:
            if key not in allowed:
                raise self.fail(f"{where}.{key}", f"unknown field (allowed: {', '.join(sorted(allowed))})")
        for key in required:
            if key not in value:
                raise self.fail(f"{where}.{key}", "missing required field")
        return dict(value)

    def sequence(self, value: Any, where: str, length: int | None = None) -> list:
        """Check a list (of exactly `length` items when given)."""
        if not isinstance(value, list):
            raise self.fail(where, f"expected a list, got {type(value).__name__}")
        if length is not None and len(value) != length:
            raise self.fail(where, f"expected exactly {length} entries, got {len(value)}")
        return value

    def integer(self, value: Any, where: str, low: int | None = None, high: int | None = None) -> int:
        """Check an int within [low, high]."""
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(where, f"expected an integer, got {value!r}")
        if (low is not None and value < low) or (high is not None and value > high):
            raise self.fail(where, f"{value} is outside [{low}, {high}]")
        return value

    def string(self, value: Any, where: str, choices: Iterable[str] | None = None) -> str:
        """Check a non-empty string (one of `choices` when given)."""
        if not isinstance(value, str) or not value:
            raise self.fail(where, f"expected a non-empty string, got {value!r}")
        if choices is not None:
            choices = list(choices)
            if value not in choices:
                raise self.fail(where, f"{value!r} is not one of {choices}")
        return value

    def boolean(self, value: Any, where: str) -> bool:
        """Check a bool."""
        if not isinstance(value, bool):
            raise self.fail(where, f"expected true or false, got {value!r}")
        return value

    def bag(self, value: Any, where: str, keys: Iterable[str]) -> dict[str, int]:
        """Check a resource bag: {resource: positive int} with known resource names."""
        if value is None:
            return {}
        bag = self.mapping(value, where, keys)
        return {key: self.integer(amount, f"{where}.{key}", 1, 99) for key, amount in bag.items()}
