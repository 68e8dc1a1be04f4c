"""The Unbroken heuristic's choices on thousands of decisions stay exactly what its golden list records.

Speed work on the heuristic (memos, cheaper queries) must not change one choice. The golden list was written from
the heuristic as it chose before such work, by `python -m pytest tests/unbroken/test_heuristic_choices.py
--update-golden`; rewrite it only after a deliberate change of the heuristic's play, and review the diff.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agents.heuristics.unbroken import UnbrokenHeuristicAgent
from envs.unbroken.game import UnbrokenGame
from tests.training.heuristic_choices import choice_lines

if TYPE_CHECKING:
    from tests.conftest import GoldenFiles

SETTINGS = [("normal", "english"), ("hard", "spanish"), ("easy", "english"), ("normal", "spanish")]
"""(difficulty, preset) of the games played."""
SEEDS = range(16)
"""Seeds played for each setting."""
MIN_CHOICES = 2000
"""The list must cover at least this many decisions."""


def test_heuristic_choices_match_the_golden_list(golden: GoldenFiles) -> None:
    lines = []
    total = 0
    for difficulty, preset in SETTINGS:
        game = UnbrokenGame(difficulty=difficulty, preset=preset, character="random")
        game_lines, count = choice_lines(game, UnbrokenHeuristicAgent(game), SEEDS)
        lines += [f"{difficulty} {preset}, {line}" for line in game_lines]
        total += count
    assert total >= MIN_CHOICES, f"only {total} decisions: add seeds"
    golden.check(
        "heuristic_choices/unbroken.txt",
        "\n".join(lines) + "\n",
        protects="every choice of the Unbroken heuristic on seeded games with some random moves",
    )
