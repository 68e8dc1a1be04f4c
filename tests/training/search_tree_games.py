"""Small multi-player rules-core games written out as explicit trees, with an exact expectimax solver.

A tree is made of `Decision` nodes (a seat picks an action), `Chance` nodes (nature picks an outcome with an
exact probability) and leaves (a tuple of per-seat returns). Used to check that a search finds the best move
when chance decides who acts next.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeAlias

import numpy as np

from envs.core.game import CHANCE, TERMINAL, Game, GameSpec, Observer, State


@dataclass(frozen=True)
class Decision:
    """A decision node: `seat` picks one of `moves` (action id -> subtree)."""

    seat: int
    moves: dict[int, Tree]


@dataclass(frozen=True)
class Chance:
    """A chance node: `outcomes` maps outcome id -> (exact probability, subtree)."""

    outcomes: dict[int, tuple[float, Tree]]


Tree: TypeAlias = "Decision | Chance | tuple[float, ...]"
"""A game tree: a decision, a chance node or a leaf of per-seat returns."""


# Two players, zero-sum. Seat 0 picks A or B. After A a fair coin gives the next move to seat 0 or to seat 1;
# both then pick X or Y (the same action ids). Seat 0 wants X (+1 against -1); seat 1 wants Y (seat 0 gets
# +0.2 instead of +1). Exact values for seat 0: A = 0.5 * 1 + 0.5 * 0.2 = 0.60, B = 0.80, so B is best.
# A search that merges both seats' statistics after A sees X at (+1 - 1) / 2 = 0 and Y at (-1 - 0.2) / 2 = -0.6,
# plays X for both seats, and values A at 1.0: it picks A.
SEAT_CHANGE_A, SEAT_CHANGE_B, SEAT_CHANGE_X, SEAT_CHANGE_Y = 0, 1, 2, 3
SEAT_CHANGE_TREE: Tree = Decision(
    0,
    {
        SEAT_CHANGE_A: Chance(
            {
                0: (0.5, Decision(0, {SEAT_CHANGE_X: (1.0, -1.0), SEAT_CHANGE_Y: (-1.0, 1.0)})),
                1: (0.5, Decision(1, {SEAT_CHANGE_X: (1.0, -1.0), SEAT_CHANGE_Y: (0.2, -0.2)})),
            }
        ),
        SEAT_CHANGE_B: (0.8, -0.8),
    },
)

# Three players, general-sum. Seat 0 picks P, Q or R.
# P: a fair coin gives the move to seat 1 or seat 2, who pick X or Y. Seat 1 truly prefers Y (0.3 > 0.0), seat 2
#    prefers X (0.9 > -0.8): P = 0.5 * 0.0 + 0.5 * 0.6 = 0.30 for seat 0. Merged, X looks better to both seats
#    ((0.0 + 0.9) / 2 against (0.3 - 0.8) / 2) and P looks worth 0.5 * 1.0 + 0.5 * 0.6 = 0.80.
# Q: a sure 0.50. R: a coin gives 0.2, or seat 2 picks between X (seat 0 +0.9) and Y (seat 0 -0.5) and prefers
#    Y: R = 0.5 * 0.2 + 0.5 * -0.5 = -0.15. Exact best: Q.
THREE_P, THREE_Q, THREE_R, THREE_X, THREE_Y = 0, 1, 2, 3, 4
THREE_SEAT_TREE: Tree = Decision(
    0,
    {
        THREE_P: Chance(
            {
                0: (0.5, Decision(1, {THREE_X: (1.0, 0.0, 0.5), THREE_Y: (0.0, 0.3, 0.0)})),
                1: (0.5, Decision(2, {THREE_X: (0.6, 0.5, 0.9), THREE_Y: (0.0, 0.5, -0.8)})),
            }
        ),
        THREE_Q: (0.5, 0.2, 0.2),
        THREE_R: Chance(
            {
                0: (0.5, (0.2, 0.0, 0.0)),
                1: (0.5, Decision(2, {THREE_X: (0.9, 0.0, 0.1), THREE_Y: (-0.5, 0.0, 0.4)})),
            }
        ),
    },
)


class TreeObserver(Observer):
    """Observation: the number of moves so far."""

    size = 1

    def __init__(self) -> None:
        self.views = {"depth": slice(0, 1)}

    def tensor(self, state: State) -> np.ndarray:
        """The history length."""
        assert isinstance(state, TreeState)
        return np.array([len(state.history)], dtype=np.float32)

    def text(self, state: State) -> str:
        """A one-line description."""
        assert isinstance(state, TreeState)
        return f"{state.game.spec.name}: history {state.history}"


class TreeGame(Game):
    """A game given by an explicit tree of decisions, chance nodes and leaves."""

    def __init__(self, name: str, tree: Tree, num_players: int) -> None:
        self.tree = tree
        self.spec = GameSpec(
            name=name,
            num_players=num_players,
            num_actions=_max_action(tree) + 1,
            max_game_length=10,
            min_players=num_players,
            max_players=num_players,
            reward_modes=("win", "score", "rank") if num_players > 1 else ("win", "score"),
        )

    def new_initial_state(self) -> TreeState:
        """The state at the root of the tree."""
        return TreeState(self)

    def state_from_dict(self, data: dict[str, Any]) -> TreeState:
        """Rebuild from to_dict()."""
        state = TreeState(self)
        for move in data["history"]:
            state.apply_action(move)
        return state

    def action_label(self, action: int) -> str:
        """Action ids as labels."""
        return f"action {action}"

    def observer(self, player: int) -> TreeObserver:
        """Every seat's observer (nothing is hidden)."""
        return TreeObserver()


class TreeState(State):
    """The path taken from the root of a TreeGame's tree."""

    def __init__(self, game: TreeGame) -> None:
        self.game: TreeGame = game
        self.history: list[int] = []
        self.node: Tree = game.tree

    def current_player(self) -> int:
        """The deciding seat, CHANCE or TERMINAL."""
        if isinstance(self.node, Decision):
            return self.node.seat
        return CHANCE if isinstance(self.node, Chance) else TERMINAL

    def legal_actions(self) -> list[int]:
        """The decision node's actions, sorted."""
        return sorted(self.node.moves) if isinstance(self.node, Decision) else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The chance node's outcomes with their probabilities."""
        if not isinstance(self.node, Chance):
            return []
        return [(outcome, probability) for outcome, (probability, _) in sorted(self.node.outcomes.items())]

    def _apply(self, action: int) -> None:
        self.history.append(action)
        if isinstance(self.node, Decision):
            self.node = self.node.moves[action]
        elif isinstance(self.node, Chance):
            self.node = self.node.outcomes[action][1]

    def returns(self) -> list[float]:
        """The leaf's returns (zeros before the end)."""
        if isinstance(self.node, tuple):
            return list(self.node)
        return [0.0] * self.game.spec.num_players

    def score(self) -> list[float]:
        """Same as returns."""
        return self.returns()

    def to_dict(self) -> dict[str, Any]:
        """The path from the root."""
        return {"history": list(self.history)}

    def clone(self) -> TreeState:
        """An independent copy (the tree itself is shared and immutable)."""
        clone = TreeState(self.game)
        clone.history = list(self.history)
        clone.node = self.node
        return clone

    def chance_label(self, outcome: int) -> str:
        """Outcome ids as labels."""
        return f"outcome {outcome}"


def _max_action(tree: Tree) -> int:
    """The largest action id in a tree (-1 if it has no decisions)."""
    if isinstance(tree, Decision):
        return max([*tree.moves, *(_max_action(child) for child in tree.moves.values())])
    if isinstance(tree, Chance):
        return max((_max_action(child) for _, child in tree.outcomes.values()), default=-1)
    return -1


def expectimax(state: State) -> list[float]:
    """Exact per-seat value of `state`: each deciding seat maximises its own return, chance is averaged."""
    if state.is_terminal():
        return list(state.returns())
    if state.is_chance_node():
        total = [0.0] * state.game.spec.num_players
        for outcome, probability in state.chance_outcomes():
            child = state.clone()
            child.apply_action(outcome)
            for seat, value in enumerate(expectimax(child)):
                total[seat] += probability * value
        return total
    seat = state.current_player()
    values = exact_action_values(state)
    return values[max(values, key=lambda action: (values[action][seat], -action))]


def exact_action_values(state: State) -> dict[int, list[float]]:
    """{action: exact per-seat value after taking it} at a decision node."""
    values = {}
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        values[action] = expectimax(child)
    return values
