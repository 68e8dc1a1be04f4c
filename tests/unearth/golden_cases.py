"""Unearth's golden transcripts, declared in one place (tests/test_golden.py replays every game's GOLDEN_CASES).

- seeded heuristic play at 2, 3 and 4 players (every seat the heuristic agent, chance from the seed): whole games
  with claims, Stones, Wonders, cards and the End of Age, pinning the rules, content, labels and the heuristic;
- one seeded random game at 2 players: the odd decisions random play makes (cards wasted, Stones scattered).

Regenerate on purpose with `python -m pytest tests/test_golden.py --update-golden`, then review the diff.
"""

from __future__ import annotations

from functools import partial

from agents.heuristics.unearth import UnearthHeuristicAgent
from envs.core.game import State
from envs.core.testing import GoldenCase, transcript
from envs.unearth.game import UnearthGame


def heuristic_transcript(num_players: int, seed: int) -> str:
    """The transcript of one seeded game with the heuristic at every seat; it must build a Wonder somewhere."""
    game = UnearthGame(num_players=num_players)
    agent = UnearthHeuristicAgent(game)

    def policy(state: State) -> int:
        return agent.act(None, state.legal_actions_mask(), state=state)

    text = transcript(game, seed, policy=policy)
    assert "decide: build:" in text or "Wonder worth" in text, f"seed {seed}: no Wonder built, choose another seed"
    return text


def _heuristic_case(num_players: int, seed: int) -> GoldenCase:
    return GoldenCase(
        file_name=f"unearth_heuristic_{num_players}p_{seed}.txt",
        make=partial(heuristic_transcript, num_players, seed),
        protects=f"a whole {num_players}-player game played by the heuristic: setup, cards, claims, Stones, Wonders,"
        " the End of Age, scoring, and the heuristic's choices",
    )


GOLDEN_CASES: list[GoldenCase] = [
    GoldenCase(
        file_name="unearth_random_2p_1.txt",
        make=partial(transcript, UnearthGame(num_players=2), 1),
        protects="a whole 2-player game under seeded random play: rules, content, chance order and labels",
    ),
    _heuristic_case(2, 1),
    _heuristic_case(3, 2),
    _heuristic_case(4, 3),
]
"""Every golden transcript of Unearth."""
