"""The Unearth heuristic's choices on thousands of decisions stay exactly what its golden list records.

Speed work on the heuristic (memos, cheaper queries) must not change one choice. The golden list was written from
the heuristic as it chose before such work, by `python -m pytest tests/unearth/test_heuristic_choices.py
--update-golden`; rewrite it only after a deliberate change of the heuristic's play, and review the diff.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agents.heuristics.unearth import UnearthHeuristicAgent
from envs.unearth.game import UnearthGame
from tests.training.heuristic_choices import choice_lines

if TYPE_CHECKING:
    from tests.conftest import GoldenFiles

GAMES = {2: range(0, 12), 3: range(100, 104), 4: range(200, 203)}
"""Seeds played at each number of players."""
MIN_CHOICES = 3000
"""The list must cover at least this many decisions."""


def test_heuristic_choices_match_the_golden_list(golden: GoldenFiles) -> None:
    lines = []
    total = 0
    for num_players, seeds in GAMES.items():
        game = UnearthGame(num_players=num_players)
        game_lines, count = choice_lines(game, UnearthHeuristicAgent(game), seeds)
        lines += [f"{num_players} players, {line}" for line in game_lines]
        total += count
    assert total >= MIN_CHOICES, f"only {total} decisions: add seeds"
    golden.check(
        "heuristic_choices/unearth.txt",
        "\n".join(lines) + "\n",
        protects="every choice of the Unearth heuristic on seeded games with some random moves",
    )
