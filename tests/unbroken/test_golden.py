"""Golden playthrough transcripts: seeded random games as text logs, checked in (tests/golden/).

Regenerate on purpose (after a deliberate rules or content change) with: python tests/golden/regenerate.py
"""

from __future__ import annotations

from pathlib import Path

import pytest

from envs.core.testing import transcript
from envs.unbroken.game import UnbrokenGame

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
CASES = [
    ("english", "normal", 1),
    ("english", "easy", 2),
    ("spanish", "hard", 3),
    ("spanish", "normal", 4),
]


def golden_path(preset: str, difficulty: str, seed: int) -> Path:
    """File of one golden transcript."""
    return GOLDEN / f"unbroken_{preset}_{difficulty}_{seed}.txt"


def make_transcript(preset: str, difficulty: str, seed: int) -> str:
    """The transcript of one seeded random game."""
    return transcript(UnbrokenGame(difficulty=difficulty, preset=preset), seed)


@pytest.mark.parametrize(("preset", "difficulty", "seed"), CASES)
def test_transcript_matches_golden(preset: str, difficulty: str, seed: int) -> None:
    """The same seeded game plays out exactly as the checked-in transcript."""
    expected = golden_path(preset, difficulty, seed).read_text(encoding="utf-8")
    assert make_transcript(preset, difficulty, seed) == expected
