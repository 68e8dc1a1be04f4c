"""Unbroken's golden transcripts, declared in one place (tests/test_golden.py replays every game's GOLDEN_CASES).

Two kinds of case:

- seeded random play (chance and decisions from seeded generators): short games that end in level I or II and
  pin setup, exploration, encounters and early fights;
- seeded heuristic play (`UnbrokenHeuristicAgent` decides, chance from the seed): full games through levels III
  and IV, which random play never reaches. Each declares the outcome it shows, and making it asserts that the
  agent made decisions in levels III and IV and that the outcome still holds, so a change to the rules, the
  content or the heuristic cannot quietly turn the golden into a short game: pick another seed instead.

Regenerate on purpose (after a deliberate change to rules, content, labels or the heuristic) with
`python -m pytest tests/test_golden.py --update-golden`, then review the diff of tests/golden/.
"""

from __future__ import annotations

import re
from functools import partial

from agents.heuristics.unbroken import UnbrokenHeuristicAgent
from envs.core.game import State
from envs.core.testing import GoldenCase, transcript
from envs.unbroken.game import UnbrokenGame  # the one import of the game class in the golden cases

LATE_LEVELS = (3, 4)
"""Levels every heuristic golden must play in: those random play never reaches."""
RETURNS_LINE = re.compile(r"^returns: ([+-]\d+)$", re.MULTILINE)
WIN = 1
"""The game's return for a win (the transcript's `returns: +1`)."""
LOSS = -1
"""The game's return for a loss."""


class RecordingHeuristic:
    """The heuristic agent as a transcript policy (`state -> action`); remembers the levels it decided in."""

    def __init__(self, game: UnbrokenGame) -> None:
        self.agent = UnbrokenHeuristicAgent(game)
        self.observer = game.observer(0)
        self.levels: set[int] = set()

    def __call__(self, state: State) -> int:
        """The agent's action for this decision, from the observation tensor, the mask and the state."""
        self.levels.add(int(state.to_dict()["level"]))
        return self.agent.act(self.observer.tensor(state), state.legal_actions_mask(), state=state)


def random_transcript(preset: str, difficulty: str, seed: int) -> str:
    """The transcript of one seeded random game."""
    return transcript(UnbrokenGame(difficulty=difficulty, preset=preset), seed)


def heuristic_transcript(preset: str, difficulty: str, seed: int, outcome: int) -> str:
    """The transcript of one seeded game played by the heuristic; it must reach levels III and IV with `outcome`."""
    game = UnbrokenGame(difficulty=difficulty, preset=preset)
    policy = RecordingHeuristic(game)
    text = transcript(game, seed, policy=policy)
    case = f"heuristic {preset}/{difficulty} seed {seed}"
    missing = [level for level in LATE_LEVELS if level not in policy.levels]
    assert not missing, f"{case} made no decision in level(s) {missing}: choose a seed whose game goes further"
    returns = RETURNS_LINE.search(text)
    assert returns is not None, f"{case}: no returns line in the transcript"
    assert int(returns.group(1)) == outcome, f"{case} ended {returns.group(1)}, expected {outcome:+d}: choose a seed"
    return text


def _random_case(preset: str, difficulty: str, seed: int) -> GoldenCase:
    return GoldenCase(
        file_name=f"unbroken_{preset}_{difficulty}_{seed}.txt",
        make=partial(random_transcript, preset, difficulty, seed),
        protects=f"setup, travel and early combat of the {preset} printing at {difficulty} under seeded random play",
    )


def _heuristic_case(preset: str, difficulty: str, seed: int, outcome: int) -> GoldenCase:
    result = "won" if outcome == WIN else "lost"
    return GoldenCase(
        file_name=f"unbroken_heuristic_{preset}_{difficulty}_{seed}.txt",
        make=partial(heuristic_transcript, preset, difficulty, seed, outcome),
        protects=(
            f"a full {preset} game at {difficulty}, {result} in level IV by the heuristic agent: weapon crafting,"
            " skills, the level III and IV rules, scoring, and the heuristic's choices"
        ),
    )


GOLDEN_CASES: list[GoldenCase] = [
    _random_case("english", "normal", 1),
    _random_case("english", "easy", 2),
    _random_case("spanish", "hard", 3),
    _random_case("spanish", "normal", 4),
    _heuristic_case("english", "normal", 1, WIN),
    _heuristic_case("spanish", "normal", 2, WIN),
    _heuristic_case("english", "hard", 4, LOSS),
    _heuristic_case("spanish", "hard", 21, WIN),
]
"""Every golden transcript of Unbroken."""
