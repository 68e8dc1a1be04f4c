"""MCTS on multi-player toys where chance decides who acts next: seats' statistics must not merge in one node."""

from __future__ import annotations

import pytest

from agents.players.mcts import MCTSAgent
from tests.training.search_tree_games import (
    SEAT_CHANGE_A,
    SEAT_CHANGE_B,
    SEAT_CHANGE_TREE,
    SEAT_CHANGE_X,
    SEAT_CHANGE_Y,
    THREE_P,
    THREE_Q,
    THREE_R,
    THREE_SEAT_TREE,
    TreeGame,
    exact_action_values,
    expectimax,
)

SEEDS = range(10)


def test_seat_change_toy_has_the_documented_exact_values() -> None:
    """Guards the toy itself: exact expectimax gives A = +0.60 and B = +0.80 for seat 0, so B is the answer."""
    state = TreeGame("seat_change", SEAT_CHANGE_TREE, 2).new_initial_state()
    values = exact_action_values(state)
    assert values[SEAT_CHANGE_A] == pytest.approx([0.6, -0.6])
    assert values[SEAT_CHANGE_B] == pytest.approx([0.8, -0.8])
    assert expectimax(state) == pytest.approx([0.8, -0.8])


def test_mcts_keeps_the_seats_apart_when_chance_picks_the_next_mover() -> None:
    """Guards the per-seat keying of tree nodes: with children keyed by action only, both seats' X/Y statistics
    merged after A, seat 1 played seat 0's favourite and A looked worth 1.0; the search picked A in 10 of 10 seeds.
    """
    state = TreeGame("seat_change", SEAT_CHANGE_TREE, 2).new_initial_state()
    picks = [MCTSAgent(num_simulations=2000, seed=seed).act(None, state.legal_actions_mask(), state) for seed in SEEDS]
    assert picks == [SEAT_CHANGE_B] * len(SEEDS)


def test_each_seat_gets_its_own_node_and_values_its_own_return() -> None:
    """Guards the tree shape and backup: after A, seat 0's and seat 1's decisions sit in separate nodes, each edge
    holds its taker's mean return, and each seat learns its own best reply (seat 0: X, seat 1: Y).
    """
    state = TreeGame("seat_change", SEAT_CHANGE_TREE, 2).new_initial_state()
    root = MCTSAgent(num_simulations=2000, seed=0).search(state)
    children = root.edges[SEAT_CHANGE_A].children
    assert sorted(children) == [0, 1]
    assert (children[0].seat, children[1].seat) == (0, 1)
    for seat, best, value in ((0, SEAT_CHANGE_X, 1.0), (1, SEAT_CHANGE_Y, -0.2)):
        edges = children[seat].edges
        assert max(edges, key=lambda action: edges[action].visits) == best
        assert edges[best].value_sum / edges[best].visits == pytest.approx(value)
    a_edge = root.edges[SEAT_CHANGE_A]
    assert a_edge.value_sum / a_edge.visits == pytest.approx(0.6, abs=0.1)


def test_three_seat_toy_with_chance_matches_exact_expectimax_in_every_seed() -> None:
    """Guards multi-player search against exact expectimax (each seat maximising its own return, chance averaged):
    on a 3-seat toy where a coin decides whether seat 1 or seat 2 replies, MCTS's root choice is the exact best.
    """
    state = TreeGame("three_seats", THREE_SEAT_TREE, 3).new_initial_state()
    values = {action: seat_values[0] for action, seat_values in exact_action_values(state).items()}
    assert values == pytest.approx({THREE_P: 0.3, THREE_Q: 0.5, THREE_R: -0.15})
    best = max(values, key=lambda action: values[action])
    assert best == THREE_Q
    for seed in SEEDS:
        agent = MCTSAgent(num_simulations=2000, seed=seed)
        assert agent.act(None, state.legal_actions_mask(), state) == best, f"seed {seed}"


def test_search_refuses_to_start_at_a_chance_node() -> None:
    """Guards the root's seat: a search starts where a seat acts, never at chance (whose seat is no player)."""
    state = TreeGame("seat_change", SEAT_CHANGE_TREE, 2).new_initial_state()
    state.apply_action(SEAT_CHANGE_A)
    assert state.is_chance_node()
    with pytest.raises(ValueError, match="decision node"):
        MCTSAgent(num_simulations=10, seed=0).search(state)
