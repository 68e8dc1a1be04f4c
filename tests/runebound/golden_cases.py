"""Runebound's golden transcripts, declared in one place (tests/test_golden.py replays every game's GOLDEN_CASES).

- one seeded random combat (a random hero against a random enemy of any trait, Act I): the odd decisions random play
  makes (flights, wasted tokens), with every cast and label;
- seeded heuristic combats: a Mystic enemy in Act I and a Savage enemy in Act II with the `two_damage` preset,
  pinning the rules, the content, the labels and the heuristic's choices;
- one seeded random game on the board (The Locust Swarm, Corbin): setup, markets, moves, adventures, story cards,
  warbands and any fight, with every draw and label;
- one seeded board game played by the heuristic hero (Tatianna), its fights by the combat heuristic: the board's
  rules, the content and both heuristics' choices over a whole scenario.

Regenerate on purpose with `python -m pytest tests/test_golden.py --update-golden`, then review the diff.
"""

from __future__ import annotations

from functools import partial

from agents.heuristics.runebound import RuneboundBoardHeuristicAgent
from agents.heuristics.runebound_combat import RuneboundHeuristicAgent
from envs.core.game import State
from envs.core.testing import GoldenCase, transcript
from envs.runebound.board_game import RuneboundGame
from envs.runebound.game import RuneboundCombatGame


def heuristic_transcript(seed: int, **kwargs: str) -> str:
    """The transcript of one seeded combat played by the heuristic hero."""
    game = RuneboundCombatGame(**kwargs)
    agent = RuneboundHeuristicAgent(game)

    def policy(state: State) -> int:
        return agent.act(None, state.legal_actions_mask(), state=state)

    return transcript(game, seed, policy=policy)


def board_heuristic_transcript(seed: int, hero: str) -> str:
    """The transcript of one seeded board game played by the heuristic hero."""
    game = RuneboundGame(hero=hero)
    agent = RuneboundBoardHeuristicAgent(game)

    def policy(state: State) -> int:
        return agent.act(None, state.legal_actions_mask(), state=state)

    return transcript(game, seed, policy=policy)


GOLDEN_CASES: list[GoldenCase] = [
    GoldenCase(
        file_name="runebound_combat_random_1.txt",
        make=partial(transcript, RuneboundCombatGame(), 1),
        protects="one combat under seeded random play: setup draws, casts, the enemy's board, labels and chance order",
    ),
    GoldenCase(
        file_name="runebound_combat_heuristic_mystic_2.txt",
        make=partial(heuristic_transcript, 2, trait="Mystic"),
        protects="a Mystic combat (Act I) played by the heuristic: the rules, the content and the heuristic's choices",
    ),
    GoldenCase(
        file_name="runebound_combat_heuristic_savage_two_damage_3.txt",
        make=partial(heuristic_transcript, 3, trait="Savage", act="II", enemy_choice="two_damage"),
        protects="a Savage combat (Act II, the two_damage preset) played by the heuristic",
    ),
    GoldenCase(
        file_name="runebound_board_random_1.txt",
        make=partial(transcript, RuneboundGame(hero="Corbin"), 1),
        protects="one board game under seeded random play: setup draws, turns, movement, shops, adventures, the story, "
        "warbands and fights, with every label and chance order",
    ),
    GoldenCase(
        file_name="runebound_board_heuristic_tatianna_2.txt",
        make=partial(board_heuristic_transcript, 2, "Tatianna"),
        protects="a whole board game won by the heuristic hero, its fights played by the combat heuristic",
    ),
]
"""Every golden transcript of Runebound."""
