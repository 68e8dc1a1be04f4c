"""Golden playthrough transcripts of every game: one generic test replays every case against tests/golden/.

A game declares its cases once, as `GOLDEN_CASES` (a list of `envs.core.testing.GoldenCase`) in
tests/<game>/golden_cases.py; this module finds them all. Rewrite the files on purpose, after a deliberate change
to rules, content, labels or an agent, with `python -m pytest tests/test_golden.py --update-golden`, and review
the diff before committing it.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from envs.core.registration import discovered_games
from envs.core.testing import GoldenCase

if TYPE_CHECKING:
    from tests.conftest import GoldenFiles  # the `golden` fixture's type (tests/conftest.py)

TESTS = Path(__file__).resolve().parent
ENVS = TESTS.parent / "envs"


def case_modules() -> dict[str, list[GoldenCase]]:
    """Each game's GOLDEN_CASES, by the name of its test folder (tests/<game>/golden_cases.py)."""
    found = {}
    for path in sorted(TESTS.glob("*/golden_cases.py")):
        module = importlib.import_module(f"tests.{path.parent.name}.golden_cases")
        found[path.parent.name] = list(module.GOLDEN_CASES)
    return found


CASES_BY_GAME = case_modules()
CASES = [case for cases in CASES_BY_GAME.values() for case in cases]


@pytest.mark.parametrize("case", CASES, ids=[case.file_name.removesuffix(".txt") for case in CASES])
def test_transcript_matches_golden(case: GoldenCase, golden: GoldenFiles) -> None:
    """The seeded game plays out exactly as its checked-in transcript.

    Protects the game's rules, card content, chance order, action and chance labels and final-state rendering (and,
    for agent-driven cases, the agent's choices) from unnoticed change; each case's `protects` names its part.
    """
    golden.check(case.file_name, case.make(), protects=case.protects)


def test_golden_files_and_cases_match_one_to_one(golden: GoldenFiles) -> None:
    """Every file in tests/golden/ belongs to exactly one case: no stale goldens, no two cases writing one file."""
    names = [case.file_name for case in CASES]
    repeated = sorted({name for name in names if names.count(name) > 1})
    assert not repeated, f"golden file names used by more than one case: {repeated}"
    stale = sorted(path.name for path in golden.directory.iterdir() if path.is_file() and path.name not in names)
    assert not stale, f"files in {golden.directory} that no GOLDEN_CASES entry makes (git rm them): {stale}"


def case_owner(file_name: str, games: list[str]) -> str | None:
    """The game a golden file is of: the longest game name that, with "_", begins the file's name."""
    owners = [game for game in games if file_name.startswith(f"{game}_")]
    return max(owners, key=len) if owners else None


def test_every_game_declares_golden_cases() -> None:
    """Each game under envs/ has golden cases, in the GOLDEN_CASES of tests/<package>/golden_cases.py, each file
    named after its game (`runebound_combat_random_1.txt`): a package that holds two games declares both games' cases.

    A game is a record that a package declares; a package still being written declares none (it cannot be played
    yet) and no transcripts."""
    records = discovered_games()
    assert records, f"no game package found under {ENVS}"
    games = sorted(records)
    missing = []
    for name, record in records.items():
        folder = (record.package or "").rpartition(".")[2]
        if not any(case_owner(case.file_name, games) == name for case in CASES_BY_GAME.get(folder, [])):
            missing.append(f"{name} (tests/{folder}/golden_cases.py, files named {name}_*.txt)")
    assert not missing, f"games without golden cases: {missing}"
    unowned = [case.file_name for case in CASES if case_owner(case.file_name, games) is None]
    assert not unowned, f"golden files named after no game: {unowned}"
