"""The heuristics' choices on seeded games, written as text: what tests/*/test_heuristic_choices.py pin.

Each game is played from its seed: chance from a generator seeded with it, every decision asked of one long-lived
heuristic agent (its memos warm, as in training), and a share `DEVIATION_SHARE` of the moves replaced by a uniform
legal move from the same generator, so the positions asked about reach beyond the heuristic's own line of play. A
game's line lists every choice the heuristic made, in order; a change that keeps every choice keeps the text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from envs.core.game import Game

DEVIATION_SHARE = 0.3
"""Share of the moves played uniformly at random instead of the heuristic's choice."""


def choice_lines(game: Game, agent: Any, seeds: Sequence[int]) -> tuple[list[str], int]:
    """One line per seeded game (`seed N: a b c ...`, the heuristic's choices) and the number of choices."""
    lines = []
    total = 0
    for seed in seeds:
        choices = play_and_record(game, agent.act, seed)
        total += len(choices)
        lines.append(f"seed {seed}: " + " ".join(str(choice) for choice in choices))
    return lines, total


def play_and_record(game: Game, act: Callable[..., int], seed: int) -> list[int]:
    """The heuristic's choice at every decision of the game of `seed` (some moves played at random instead)."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    choices = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_unchecked(state.sample_chance(rng))
            continue
        choice = int(act(None, state.legal_actions_mask(), state=state))
        choices.append(choice)
        if rng.random() < DEVIATION_SHARE:
            legal = state.legal_actions()
            choice = legal[int(rng.integers(len(legal)))]
        state.apply_action(choice)
    return choices
