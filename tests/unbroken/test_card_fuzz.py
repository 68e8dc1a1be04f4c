"""A user's card directory (`card_directory=`), however broken, fails with the loader's own error, naming the file,
the card and the field (issue "Unbroken as users meet it"; CONTENT.md: "an error names the file, the card and the
field").

The fuzz tests copy the shipped card files, break one of them (delete a key or an entry, give a value or a key another
type, add a key, insert junk or non-UTF-8 bytes, truncate the file) and build the game on the copy: either it loads
and plays, or `DataError` escapes, and nothing else. The named cases below are the ones the issue reported.
"""

from __future__ import annotations

import copy
import datetime
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from envs.core.data import DataError
from envs.unbroken.game import UnbrokenGame

from .test_content import DATA, edit, load_error

FILES = {path.name: path.read_bytes() for path in sorted(DATA.glob("*.yaml"))}
"""The shipped card files, by name."""
DOCUMENTS = {name: yaml.safe_load(raw.decode("utf-8")) for name, raw in FILES.items()}
FUZZ_SETTINGS = settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
PLAY_STEPS = 150
"""Random steps played on a copy that loads (the content it let through must not break the rules either)."""

JUNK_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**20),
    st.floats(allow_nan=True),
    st.text(max_size=8),
    st.lists(st.integers(-3, 3), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(-3, 3), max_size=2),
    st.dates(),
)
"""Values of every type YAML can write."""
JUNK_KEYS = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 10), st.floats(allow_nan=False), st.text(max_size=6), st.dates()
)
"""Mapping keys of every hashable type YAML can write."""
NOT_UTF8 = [b"\xff", b"\xfe\xff", b"\xc3\x28", b"\x80abc", b"\xed\xa0\x80", b"\xe9t\xe9"]
"""Byte sequences that are not UTF-8 (a lone continuation byte, a Latin-1 accent, an encoded surrogate, ...)."""


@pytest.fixture
def cards_dir(tmp_path: Path) -> Path:
    """A user's copy of the shipped card files."""
    for name, raw in FILES.items():
        (tmp_path / name).write_bytes(raw)
    return tmp_path


def _containers(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every non-empty mapping and list of a document, with its path from the top."""
    if isinstance(node, dict | list) and node:
        yield path, node
        for key, child in node.items() if isinstance(node, dict) else enumerate(node):
            yield from _containers(child, (*path, key))


@st.composite
def structural_changes(draw: st.DrawFn) -> tuple[str, bytes, tuple[Any, ...]]:
    """One file with one change to its YAML document: (file name, new bytes, path of the change)."""
    name = draw(st.sampled_from(sorted(FILES)))
    document = copy.deepcopy(DOCUMENTS[name])
    path, node = draw(st.sampled_from(list(_containers(document))))
    key = draw(st.sampled_from(list(node) if isinstance(node, dict) else range(len(node))))
    change = draw(st.sampled_from(["delete", "retype", "rekey", "add"]))
    if change == "delete":
        del node[key]
    elif change == "retype":
        node[key] = draw(JUNK_VALUES)
    elif isinstance(node, list):
        node.insert(key, draw(JUNK_VALUES))
    elif change == "rekey":
        node[draw(JUNK_KEYS)] = node.pop(key)
    else:
        node[draw(JUNK_KEYS)] = draw(JUNK_VALUES)
    text = yaml.safe_dump(document, sort_keys=False, allow_unicode=True)
    return name, text.encode("utf-8"), (*path, key)


@st.composite
def byte_changes(draw: st.DrawFn) -> tuple[str, bytes, tuple[Any, ...]]:
    """One file with junk or non-UTF-8 bytes inserted, or cut short: (file name, new bytes, ())."""
    name = draw(st.sampled_from(sorted(FILES)))
    raw = FILES[name]
    at = draw(st.integers(0, len(raw)))
    change = draw(st.sampled_from(["junk", "not utf-8", "truncate"]))
    if change == "junk":
        raw = raw[:at] + draw(st.binary(min_size=1, max_size=8)) + raw[at:]
    elif change == "not utf-8":
        raw = raw[:at] + draw(st.sampled_from(NOT_UTF8)) + raw[at:]
    else:
        raw = raw[:at]
    return name, raw, ()


def build_broken_copy(name: str, raw: bytes, path: tuple[Any, ...]) -> None:
    """Build (and briefly play) the game on a copy of the cards where `name` holds `raw`: it loads, or DataError
    names a file of the copy, and for a change inside a card its card and field; any other exception fails."""
    with tempfile.TemporaryDirectory() as folder:
        directory = Path(folder)
        for file, content in FILES.items():
            (directory / file).write_bytes(content)
        (directory / name).write_bytes(raw)
        try:
            game = UnbrokenGame(difficulty="easy", card_directory=directory)
        except DataError as error:
            check_names_the_place(error, directory, name, raw, path)
            return
        play_a_little(game)


def check_names_the_place(error: DataError, directory: Path, name: str, raw: bytes, path: tuple[Any, ...]) -> None:
    """The message starts with a file of the copy and a location; a change below the top is located below it, and a
    card named in the changed document is named in the location."""
    message = str(error)
    assert Path(error.file).parent == directory and Path(error.file).name in FILES, message
    assert message.startswith(f"{error.file}: {error.where}: "), message
    if not path or Path(error.file).name != name:
        return  # a byte change, or a change that broke another file's reference (a condition a monster names)
    if len(path) >= 2:  # a change inside a top-level value is located inside it, not at the file
        assert error.where != "file" and error.where.startswith(str(path[0])), message
    document = yaml.safe_load(raw.decode("utf-8"))
    top, index = path[0], path[1] if len(path) >= 2 else None
    entries = document.get(top) if isinstance(document, dict) else None
    if isinstance(index, int) and isinstance(entries, list) and error.where.startswith(f"{top}[{index}]"):
        card = entries[index] if index < len(entries) else None
        card_name = card.get("name") if isinstance(card, dict) else None
        if isinstance(card_name, str) and card_name:
            assert error.where.startswith(f"{top}[{index}] ({card_name})"), message


def play_a_little(game: UnbrokenGame) -> None:
    """A short seeded random game on cards that loaded: the rules accept whatever the loader let through."""
    rng = np.random.default_rng(0)
    state = game.new_initial_state()
    for _ in range(PLAY_STEPS):
        if state.is_terminal():
            return
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])


# ============================================================================================ fuzz
@FUZZ_SETTINGS
@given(structural_changes())
def test_fuzz_changed_documents_fail_only_with_data_error(change: tuple[str, bytes, tuple[Any, ...]]) -> None:
    """A key or entry deleted, a value or key of another type, a key added: only DataError escapes, naming the file,
    the card and the field."""
    build_broken_copy(*change)


@FUZZ_SETTINGS
@given(byte_changes())
def test_fuzz_changed_bytes_fail_only_with_data_error(change: tuple[str, bytes, tuple[Any, ...]]) -> None:
    """Junk bytes, bytes that are not UTF-8, a file cut short: only DataError escapes, naming the file."""
    build_broken_copy(*change)


# ============================================================================================ the reported cases
@pytest.mark.parametrize("key", list(DOCUMENTS["display.yaml"]))
def test_missing_top_level_key_of_display(cards_dir: Path, key: str) -> None:
    """Each top-level key of display.yaml left out is named as missing (the issue saw a bare KeyError: 'bar_maximum');
    the one optional key loads."""
    edit(cards_dir, "display.yaml", lambda document: document.pop(key))
    if key == "starting_small_effort":  # optional: the difficulty settings give it
        UnbrokenGame(card_directory=cards_dir)
        return
    assert str(load_error(cards_dir)) == f"{cards_dir / 'display.yaml'}: {key}: missing required field"


@pytest.mark.parametrize(
    ("mapping", "key", "shown", "reason"),
    [
        ("time_skull", "1", ".1", "; '1' is a string: write the number without quotes)"),
        ("time_skull", None, "[null]", ")"),
        ("time_skull", 2.5, "[2.5]", ")"),
        ("easy_bonus_resource", "3", ".3", "; '3' is a string: write the number without quotes)"),
        ("easy_bonus_resource", datetime.date(2024, 5, 1), "[2024-05-01]", ")"),
    ],
)
def test_wrong_key_type_in_a_numbered_table(cards_dir: Path, mapping: str, key: Any, shown: str, reason: str) -> None:
    """A key of another type in time_skull or easy_bonus_resource (the issue saw a TypeError raised while formatting
    the message) names the table, the key as written and the allowed keys."""
    allowed = {"time_skull": "1, 2, 3, 4", "easy_bonus_resource": "1, 2, 3, 4, 5, 6"}[mapping]
    edit(cards_dir, "display.yaml", lambda document: document[mapping].update({key: document[mapping][3]}))
    assert str(load_error(cards_dir)) == (
        f"{cards_dir / 'display.yaml'}: {mapping}{shown}: unknown field (allowed: {allowed}{reason}"
    )


def test_a_file_that_is_not_utf8(cards_dir: Path) -> None:
    """A file saved as Latin-1 raises DataError naming the file, the byte, its line and column (the issue saw a
    UnicodeDecodeError without the file's name)."""
    path = cards_dir / "monsters.yaml"
    text = path.read_text(encoding="utf-8")
    line = next(number for number, row in enumerate(text.splitlines(), start=1) if "name: Kobold" in row)
    path.write_bytes(text.replace("name: Kobold", "name: Kobold\xe9", 1).encode("latin-1"))
    error = load_error(cards_dir)
    column = text.splitlines()[line - 1].index("Kobold") + len("Kobold") + 1
    assert str(error) == (
        f"{path}: file: not UTF-8 text: byte 0xe9 at line {line}, column {column} cannot be decoded "
        "(save the file as UTF-8)"
    )


@pytest.mark.parametrize("value", [5, ["flavour"], {"en": "flavour"}, None, True])
def test_text_of_the_wrong_type(cards_dir: Path, value: Any) -> None:
    """A card's `text` must be a string: the file, the card and the field are named with the value."""
    edit(cards_dir, "monsters.yaml", lambda document: document["monsters"][0].update(text=value))
    assert str(load_error(cards_dir)) == (
        f"{cards_dir / 'monsters.yaml'}: monsters[0] (Kobold).text: expected a string, got {value!r}"
    )


@pytest.mark.parametrize("value", [5, ["shelter"], None])
def test_group_of_the_wrong_type(cards_dir: Path, value: Any) -> None:
    """An encounter's `group` must be a string: the file, the card and the field are named with the value."""
    name = DOCUMENTS["encounters.yaml"]["encounters"][0]["name"]
    edit(cards_dir, "encounters.yaml", lambda document: document["encounters"][0].update(group=value))
    assert str(load_error(cards_dir)) == (
        f"{cards_dir / 'encounters.yaml'}: encounters[0] ({name}).group: expected a string, got {value!r}"
    )
