"""The Unbroken heuristic's memos (issue 10: make search affordable) never change a choice.

A search asks the heuristic about thousands of positions, many of them alike, so the heuristic memoises its pure
computations (the best weapon path, the utility tables, the card benefits, the time values, the ambush harm), each
keyed on every input it reads. Here one long-lived agent is asked, the way MCTS asks it, about every decision of
some games and about the decisions one move further (each legal move, then chance), twice over; an agent with empty
memos must choose the same action every time.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

from agents.heuristics.unbroken import MEMO_ENTRIES, UnbrokenHeuristicAgent
from envs.unbroken.game import UnbrokenGame
from envs.unbroken.rules import UnbrokenState

SETTINGS = [("normal", "english"), ("hard", "spanish"), ("easy", "english")]
SEEDS = [0, 1]
DEVIATION_SHARE = 0.3
"""Share of the moves made uniformly at random (positions a search reaches, not only the heuristic's own)."""


def fresh_choice(template: UnbrokenHeuristicAgent, state: UnbrokenState) -> int:
    """The choice of an agent with empty memos (a copy of the template)."""
    return copy.copy(template).act(None, state.legal_actions_mask(), state.clone())


def children(state: UnbrokenState, rng: np.random.Generator) -> list[UnbrokenState]:
    """The decision after each legal move (chance sampled), as a search's tree expands them."""
    out = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_unchecked(action)
        while child.is_chance_node():
            child.apply_unchecked(child.sample_chance(rng))
        if not child.is_terminal():
            out.append(child)
    return out


@pytest.mark.parametrize(("difficulty", "preset"), SETTINGS)
@pytest.mark.parametrize("seed", SEEDS)
def test_memoised_choices_equal_the_choices_of_an_agent_without_memos(difficulty: str, preset: str, seed: int) -> None:
    game = UnbrokenGame(difficulty=difficulty, preset=preset, character="random")
    agent = UnbrokenHeuristicAgent(game)
    template = UnbrokenHeuristicAgent(game)
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    asked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_unchecked(state.sample_chance(rng))
            continue
        positions = [state, *children(state, rng)]
        for position in positions * 2:  # the second pass hits the memos
            mask = position.legal_actions_mask()
            assert agent.act(None, mask, position.clone()) == fresh_choice(template, position)
            asked += 1
        action = agent.act(None, state.legal_actions_mask(), state)
        if rng.random() < DEVIATION_SHARE:
            legal = state.legal_actions()
            action = legal[int(rng.integers(len(legal)))]
        state.apply_unchecked(action)
    assert asked > 50


def test_a_copy_starts_with_empty_memos_and_a_full_memo_is_emptied() -> None:
    game = UnbrokenGame(difficulty="normal", preset="english", character="random")
    agent = UnbrokenHeuristicAgent(game)
    rng = np.random.default_rng(0)
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.legal_actions()) == 1:
        state.apply_unchecked(state.sample_chance(rng) if state.is_chance_node() else state.legal_actions()[0])
    agent.act(None, state.legal_actions_mask(), state)
    assert agent._tables_memo
    twin = copy.copy(agent)
    assert not twin._tables_memo and twin._tables_memo is not agent._tables_memo
    memo = {key: key for key in range(MEMO_ENTRIES)}
    UnbrokenHeuristicAgent._remember(memo, "new", 1)
    assert memo == {"new": 1}
