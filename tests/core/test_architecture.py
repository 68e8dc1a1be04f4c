"""The skeleton's rules: generic code never names a game, and the import contracts (no cycles) hold."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from envs.core.registration import discovered_games

REPO_ROOT = Path(__file__).resolve().parents[2]
GENERIC_FILES = sorted(
    [
        *(path for path in (REPO_ROOT / "agents").rglob("*.py") if "heuristics" not in path.parts),
        *(REPO_ROOT / "envs" / "core").glob("*.py"),
        *(REPO_ROOT / "envs" / "adapters").glob("*.py"),
        REPO_ROOT / "envs" / "__init__.py",
        REPO_ROOT / "envs" / "replay.py",
        REPO_ROOT / "evaluate.py",
        *(
            path
            for path in (REPO_ROOT / "benchmarks").glob("*.py")
            if not any(path.stem.startswith(f"{game}_") for game in discovered_games())
        ),
    ]
)
"""Code shared by every game. (train.py names the suite's default config, agents/heuristics/ holds each game's
heuristic and benchmarks/<game>_*.py measure one game's rules: all are game-specific on purpose.)"""


def game_words() -> set[str]:
    """Each registered game's name and the env kwargs its settings sweep (words only a game would use).

    Its end-of-game facts are left out: "title" and "level" are also plain English in generic code (table titles,
    log levels), so the facts are checked by the tests that read them from the record instead. Only the discovered
    games count (the toys, registered on request, stand for any game), and the platform's own keywords are left out:
    `num_players` is a setting of every multi-player game and the platform's word for it (`GameSpec.num_players`)."""
    words = {word for record in discovered_games().values() for word in (record.name, *record.settings)}
    return words - PLATFORM_WORDS


PLATFORM_WORDS = {"num_players"}
"""Keyword arguments the platform itself defines, which games' settings may sweep."""


@pytest.mark.parametrize("path", GENERIC_FILES, ids=[str(path.relative_to(REPO_ROOT)) for path in GENERIC_FILES])
def test_generic_code_names_no_game(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    found = sorted(word for word in game_words() if re.search(rf"\b{re.escape(word)}\b", text, re.IGNORECASE))
    assert not found, f"{path.relative_to(REPO_ROOT)} names {found}: read them from the game's record instead"


def test_import_contracts_hold() -> None:
    """pyproject.toml's import-linter contracts: a pure rules core, envs never importing agents, no cycles."""
    lint_imports = Path(sys.executable).parent / "lint-imports"
    assert lint_imports.exists(), "import-linter is part of the test extra: pip install -e '.[test]'"
    result = subprocess.run([str(lint_imports)], cwd=REPO_ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout
