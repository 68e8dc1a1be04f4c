"""Unstoppable's golden transcripts, declared in one place (tests/test_golden.py replays every game's GOLDEN_CASES).

- seeded random play at each difficulty: short games (random play loses in a few turns) that pin setup, the draft,
  the Main Phase, the Threat Phase and the Cleanup Phase;
- seeded greedy play (the policy of benchmarks/unstoppable_game_length.py: never ends the Main Phase, forfeits or
  declines while it can do something else): longer games that buy upgrades, level up, shuffle boss cards into the
  threat deck and reach the danger track's effects. Making one asserts it still does, so a change to the rules or
  the content cannot quietly turn it into a short game: pick another seed instead.

The transcript is `envs.core.testing.transcript`'s, with each decision written as the player reads it
(`action_label_for`: a drafted card's, a target's, a market slot's card named) rather than by its bare id label
("play: drafted card 2"), so that a reader can follow the game.

Regenerate on purpose with `python -m pytest tests/test_golden.py --update-golden`, then review the diff.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import numpy as np

from benchmarks.unstoppable_game_length import chooser
from envs.core.testing import GoldenCase, transcript
from envs.unstoppable.game import UnstoppableGame
from envs.unstoppable.rules import UnstoppableState

Policy = Callable[[UnstoppableState], int]


def readable_transcript(game: UnstoppableGame, seed: int, policy: Policy) -> str:
    """A log of one seeded game: every chance outcome and decision by the label the player reads, then the returns
    and the final position."""
    return transcript(
        game,
        seed,
        policy=policy,
        label=lambda state, action: state.action_label_for(action, 0),  # type: ignore[attr-defined]
    )


def seeded_policy(game: UnstoppableGame, kind: str, seed: int) -> Policy:
    """The random or greedy decision rule, with its own generator seeded with `seed`."""
    choose = chooser(game, kind)
    rng = np.random.default_rng(seed)
    return lambda state: choose(state, rng)


def random_transcript(difficulty: str, seed: int) -> str:
    """The transcript of one seeded random game."""
    game = UnstoppableGame(difficulty=difficulty)
    return readable_transcript(game, seed, seeded_policy(game, "random", seed))


def greedy_transcript(difficulty: str, seed: int) -> str:
    """The transcript of one seeded greedy game; it must buy an upgrade, level up and take a danger-track effect."""
    game = UnstoppableGame(difficulty=difficulty)
    text = readable_transcript(game, seed, seeded_policy(game, "greedy", seed))
    case = f"greedy {difficulty} seed {seed}"
    for sign, what in (
        ("decide: buy:", "bought no upgrade"),
        ("boss card", "never levelled up"),
        ("decide: danger:", "took no danger-track effect"),
    ):
        assert sign in text, f"{case} {what}: choose a seed whose game goes further"
    return text


def _random_case(difficulty: str, seed: int) -> GoldenCase:
    return GoldenCase(
        file_name=f"unstoppable_random_{difficulty}_{seed}.txt",
        make=partial(random_transcript, difficulty, seed),
        protects=f"setup, drafts and the five phases of a turn at {difficulty} under seeded random play: rules, "
        "content, chance order and labels",
    )


def _greedy_case(difficulty: str, seed: int) -> GoldenCase:
    return GoldenCase(
        file_name=f"unstoppable_greedy_{difficulty}_{seed}.txt",
        make=partial(greedy_transcript, difficulty, seed),
        protects=f"a long game at {difficulty} under seeded greedy play: upgrades bought, allies exhausted, level-ups "
        "with the Harbinger's boss cards, the danger track's effects, the ending",
    )


GOLDEN_CASES: list[GoldenCase] = [
    _random_case("normal", 1),
    _random_case("hard", 2),
    _random_case("expert", 3),
    _greedy_case("normal", 1),
    _greedy_case("expert", 1),
]
"""Every golden transcript of Unstoppable."""
