"""Generic Monte Carlo tree search over the rules core, for games with chance and hidden information.

Each simulation starts from a determinization of the root: `state.resample_hidden(player, rng)` redraws what the
searching player cannot see (deck order, face-down cards) consistently with what they saw, so the search does
not cheat. Determinization is from the root (searching) player's view only: the other seats' decisions in the
tree are searched as if they saw what the root player's determinization holds (single-observer ISMCTS).

The tree is "open loop" over decisions: chance nodes are sampled with their exact probabilities
(`chance_outcomes()`) as the simulation passes them, and every node's statistics average over chance and hidden
information. Nodes are keyed by acting seat and action: each node belongs to one seat, its edges are that
seat's actions, and an edge leads to one child per seat that acts next, so where chance decides who moves, the
seats' statistics never merge in one node. Each edge is valued from the point of view of the seat that takes
it, and a simulation credits every seat on its path with that seat's own return.
Selection is UCT with availability counts (an action counts as available only in the determinizations where it was
legal), or PUCT when a prior agent (e.g. the game's heuristic) is given; leaves are evaluated by a rollout (random, or
played by a rollout agent) truncated at `rollout_depth` decisions, valued by `returns()` at a terminal state, else by a
value function when one is given (e.g. the game's learned value model, agents/players/value_model.py) and 0 without one.
`rollout_depth=0` with a value function evaluates each new leaf directly, without a rollout.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from agents.players.base import BaseAgent


@dataclass
class _Edge:
    """Statistics of one action from one tree node, from the point of view of the player who takes it."""

    visits: int = 0
    value_sum: float = 0.0
    availability: int = 0
    children: dict[int, _Node] = field(default_factory=dict)
    """Child nodes keyed by the seat that acts next (chance after the action may pick different seats)."""


NO_PRIOR = -1
"""_Node.prior_action before the prior agent has been asked (or when there is no prior agent)."""


@dataclass
class _Node:
    """A decision point of the open-loop tree for one acting seat: its edges keyed by action id, and the prior."""

    seat: int
    edges: dict[int, _Edge] = field(default_factory=dict)
    prior_action: int = NO_PRIOR
    visits: int = 0
    value_sum: float = 0.0


class MCTSAgent(BaseAgent):
    """Determinized (ISMCTS-style) UCT search with random rollouts; seeded and deterministic per seed."""

    name = "mcts"

    def __init__(
        self,
        num_simulations: int = 100,
        rollout_depth: int = 100,
        exploration: float = 1.4,
        seed: int | None = None,
        rollout_agent: Any | None = None,
        prior_agent: Any | None = None,
        prior_share: float = 0.75,
        value_function: Callable[[Any, int], float] | None = None,
    ) -> None:
        if num_simulations < 1:
            raise ValueError(f"num_simulations must be >= 1, got {num_simulations}")
        self.num_simulations = num_simulations
        self.rollout_depth = rollout_depth
        self.exploration = exploration
        self.rollout_agent = rollout_agent
        """Agent that plays the rollouts (act(None, mask, state)); None: uniformly random legal moves."""
        self.prior_agent = prior_agent
        """Agent whose choice gets `prior_share` of the prior in PUCT selection; None: plain UCT."""
        self.prior_share = prior_share
        self.value_function = value_function
        """value_function(state, player): the return `player` can expect from a cut rollout; None: 0."""
        self.rng = np.random.default_rng(seed)
        self.name = f"mcts:{num_simulations}"

    def reset(self, seed: int | None = None) -> None:
        """Reseed the search's generator (determinizations, chance samples, rollouts)."""
        self.rng = np.random.default_rng(seed)

    def act(self, observation: Any, action_mask: np.ndarray, state: Any | None = None) -> int:
        """Search from `state` (the rules-core State at this decision) and return the most visited action."""
        if state is None:
            raise ValueError("MCTSAgent needs the rules-core state: call act(observation, mask, state=env.state)")
        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        root = self.search(state)
        return self._best_root_action(root, legal)

    def search(self, state: Any) -> _Node:
        """Run num_simulations simulations from `state` and return the root of the search tree."""
        player = state.current_player()
        if player < 0:
            raise ValueError(f"search starts at a decision node, not at current_player() == {player}")
        root = _Node(seat=player)
        for _ in range(self.num_simulations):
            self._simulate(root, state.resample_hidden(player, self.rng))
        return root

    def action_values(self, state: Any) -> dict[int, tuple[int, float]]:
        """Search from `state` and return {action: (visits, mean value)} at the root (for analysis and tests)."""
        root = self.search(state)
        return {a: (edge.visits, edge.value_sum / max(edge.visits, 1)) for a, edge in sorted(root.edges.items())}

    def _simulate(self, root: _Node, state: Any) -> None:
        """One simulation on a determinized clone: select and expand in the tree, roll out, back up."""
        path: list[tuple[_Node, _Edge, int]] = []  # (node, edge taken, player who took it)
        node = root
        self._play_chance(state)
        while not state.is_terminal():
            player = state.current_player()
            assert player == node.seat, f"tree node of seat {node.seat} reached with seat {player} to act"
            legal = state.legal_actions()
            if self.prior_agent is not None:
                action, leaf = self._choose_puct(node, state, legal, self.prior_agent)
            else:
                action, leaf = self._choose_uct(node, legal)
            edge = node.edges[action]
            state.apply_unchecked(action)
            path.append((node, edge, player))
            if leaf:
                break
            self._play_chance(state)  # chance after the action may decide who acts next: one child per seat
            if state.is_terminal():
                break
            seat = state.current_player()
            child = edge.children.get(seat)
            if child is None:
                child = edge.children[seat] = _Node(seat=seat)
            node = child
        values = self._rollout(state)
        for visited, edge, player in path:
            visited.visits += 1
            visited.value_sum += values[player]
            edge.visits += 1
            edge.value_sum += values[player]

    def _choose_uct(self, node: _Node, legal: list[int]) -> tuple[int, bool]:
        """(action, whether it was just expanded): a random untried action first, else UCT with availability."""
        untried = []
        for action in legal:
            edge = node.edges.get(action)
            if edge is None:
                untried.append(action)
            else:
                edge.availability += 1
        if untried:
            action = untried[int(self.rng.integers(len(untried)))]
            node.edges[action] = _Edge(availability=1)
            return action, True
        return self._select(node, legal), False

    def _choose_puct(self, node: _Node, state: Any, legal: list[int], prior_agent: Any) -> tuple[int, bool]:
        """(action, whether it is unvisited): PUCT where the prior agent's action gets `prior_share` of the prior.

        An open-loop node asks the prior agent once, in the first determinization that reaches it. Unvisited
        actions are valued at the node's mean so far (first-play urgency), so a small budget follows the prior
        agent and a larger one departs from it where the rollouts say another action does better.
        """
        if node.prior_action == NO_PRIOR:
            node.prior_action = int(prior_agent.act(None, state.legal_actions_mask(), state))
        action = self._select_puct(node, legal)
        edge = node.edges.get(action)
        if edge is None:
            edge = node.edges[action] = _Edge()
        return action, edge.visits == 0

    def _select_puct(self, node: _Node, legal: list[int]) -> int:
        """argmax of Q + c * P * sqrt(N) / (1 + n) over the legal actions; ties go to the lowest id."""
        uniform = (1.0 - self.prior_share) / len(legal)
        first_play = node.value_sum / node.visits if node.visits else 0.0
        scale = self.exploration * math.sqrt(max(node.visits, 1))
        best_action, best_score = legal[0], -math.inf
        for action in legal:
            edge = node.edges.get(action)
            visits = edge.visits if edge is not None else 0
            mean = edge.value_sum / visits if edge is not None and visits else first_play
            prior = uniform + (self.prior_share if action == node.prior_action else 0.0)
            score = mean + scale * prior / (1 + visits)
            if score > best_score:
                best_action, best_score = action, score
        return best_action

    def _select(self, node: _Node, legal: list[int]) -> int:
        """UCT over the legal actions with availability counts; ties go to the lowest action id."""
        best_action, best_score = legal[0], -math.inf
        for action in legal:
            edge = node.edges[action]
            mean = edge.value_sum / edge.visits if edge.visits else 0.0
            bonus = self.exploration * math.sqrt(math.log(max(edge.availability, 1)) / max(edge.visits, 1))
            score = mean + bonus if edge.visits else math.inf
            if score > best_score:
                best_action, best_score = action, score
        return best_action

    def _play_chance(self, state: Any) -> None:
        """Sample chance nodes with their exact probabilities until a decision or the end."""
        while state.is_chance_node():
            state.apply_unchecked(state.sample_chance(self.rng))

    def _rollout(self, state: Any) -> list[float]:
        """Play the rollout policy for at most rollout_depth decisions; returns() if the game ended, else the value
        function's estimate for every seat (zeros without one)."""
        decisions = 0
        while True:
            self._play_chance(state)
            if state.is_terminal():
                return list(state.returns())
            if decisions >= self.rollout_depth:
                players = range(state.game.spec.num_players)
                if self.value_function is None:
                    return [0.0 for _ in players]
                return [self.value_function(state, player) for player in players]
            if self.rollout_agent is not None:
                action = self.rollout_agent.act(None, state.legal_actions_mask(), state)
            else:
                legal = state.legal_actions()
                action = legal[int(self.rng.integers(len(legal)))]
            state.apply_unchecked(action)
            decisions += 1

    @staticmethod
    def _best_root_action(root: _Node, legal: list[int]) -> int:
        """Most visited legal root action; ties broken by mean value, then by the lowest id."""

        def key(action: int) -> tuple[int, float, int]:
            edge = root.edges.get(action)
            if edge is None or edge.visits == 0:
                return (0, -math.inf, -action)
            return (edge.visits, edge.value_sum / edge.visits, -action)

        return int(max(legal, key=key))
