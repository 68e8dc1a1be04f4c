"""A one-decision lookahead over the rules core, scored by the game's evaluation function.

For each decision of seat `s` the agent:

1. **Determinizes**: `state.resample_hidden(s, rng)` with the agent's own seeded generator redraws what `s` cannot
   see (other hands, deck contents, face-down tokens) consistently with what it saw; a perfect-information game
   gives a plain copy. The agent reads the state only through this copy and the legal actions, and
   `resample_hidden` draws from what `s` may see and the generator alone, so two states that `s` cannot tell apart
   give the same decision for the same generator state: it passes `check_no_peek` by construction.
2. **Applies each legal action** to a copy of that determinization and **plays on up to `s`'s next decision** (or
   the end of the game):
   - chance nodes are *sampled* with their exact probabilities, not enumerated: one stream of draws per
     determinization, the same stream for every action (common random numbers), so the actions are compared on
     the same luck and their difference is less noisy than the luck itself;
   - the other seats' decisions are made by a supplied policy (`others`); without one, uniformly at random from
     the same stream. The registry (`lookahead` spec) supplies the game's heuristic when its record names one.
3. **Scores** the position reached with the game's evaluation `evaluate(state, seat) -> float` (the record's
   `evaluation` field; higher is better for `seat`), averaged over `samples` determinizations, and plays the
   action of the highest mean (ties: the lowest action id).

A seat's next decision may be the rest of the same choice (pick a piece, then where it goes). When nothing is drawn or
played in between, the agent looks through up to `chain` such decisions and values an action by its best
continuation (the seat learns nothing new in between, so the choice of the continuation is its own); with
`chain=0` the evaluation sees the position between the two halves.

An evaluation reads only public rule queries and what the seat may see, so a game's heuristic can be written as an
evaluation plus a few overrides.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from agents.players.base import Agent, BaseAgent

Evaluation = Callable[[Any, int], float]
"""evaluate(state, seat) -> how good `state` is for `seat` (higher is better), from what `seat` may see."""
DEFAULT_SAMPLES = 4
"""Determinizations (each with its own chance stream) averaged per decision."""
DEFAULT_CHAIN = 1
"""Own decisions that follow at once looked through: a two-part choice (a piece, then its place) is valued whole."""
SEED_BOUND = 2**63
"""Exclusive bound of the per-determinization seeds drawn from the agent's generator."""


class LookaheadAgent(BaseAgent):
    """Scores each legal action by the evaluation of the seat's next decision, over sampled determinizations."""

    name = "lookahead"
    reads_observation = False
    """Opponent envs need not build its observation (it reads the rules-core state)."""

    def __init__(
        self,
        evaluation: Evaluation,
        samples: int = DEFAULT_SAMPLES,
        others: Agent | None = None,
        chain: int = DEFAULT_CHAIN,
        seed: int | None = None,
    ) -> None:
        if samples < 1:
            raise ValueError(f"samples must be >= 1, got {samples}")
        if chain < 0:
            raise ValueError(f"chain must be >= 0, got {chain}")
        self.evaluation = evaluation
        self.samples = samples
        self.others = others
        """Policy of the other seats' decisions (act(observation, mask, state)); None: uniformly random moves."""
        self.chain = chain
        """Decisions of the same seat that follow at once (nothing drawn or played between) looked through."""
        self.rng = np.random.default_rng(seed)
        self.name = f"lookahead:{samples}"

    def reset(self, seed: int | None = None) -> None:
        """Reseed the generator of determinizations, chance draws and random moves of the other seats."""
        self.rng = np.random.default_rng(seed)

    def act(self, observation: Any, action_mask: np.ndarray, state: Any | None = None) -> int:
        """The legal action whose next own decision the evaluation scores highest (needs the rules-core state)."""
        if state is None:
            raise ValueError("LookaheadAgent needs the rules-core state: call act(observation, mask, state=env.state)")
        legal = [int(action) for action in np.flatnonzero(action_mask)]
        if not legal:
            raise ValueError("the action mask has no legal action")
        if len(legal) == 1:
            return legal[0]
        values = self.action_values(state, legal)
        return max(legal, key=lambda action: (values[action], -action))

    def action_values(self, state: Any, legal: list[int] | None = None) -> dict[int, float]:
        """{action: mean evaluation for the seat to act} over `samples` determinizations (analysis and tests)."""
        seat = state.current_player()
        if seat < 0:
            raise ValueError(f"the lookahead starts at a decision node, not at current_player() == {seat}")
        actions = state.legal_actions() if legal is None else legal
        totals = dict.fromkeys(actions, 0.0)
        for _ in range(self.samples):
            world = self.determinize(state, seat)
            stream_seed = int(self.rng.integers(SEED_BOUND))
            for action in actions:
                totals[action] += self._action_value(world, action, seat, stream_seed, self.chain)
        return {action: total / self.samples for action, total in totals.items()}

    def determinize(self, state: Any, seat: int) -> Any:
        """A copy of `state` with what `seat` cannot see redrawn from the agent's generator (the only read of it)."""
        return state.resample_hidden(seat, self.rng)

    def _action_value(self, world: Any, action: int, seat: int, stream_seed: int, chain: int) -> float:
        """The evaluation after `action` and play up to `seat`'s next decision, looking through `chain` more
        decisions of `seat` that follow at once (the best of their actions)."""
        child = world.clone()
        child.apply_action(action)
        steps = self._play_to_next_decision(child, seat, np.random.default_rng(stream_seed))
        if steps == 0 and chain > 0 and not child.is_terminal():
            # Nothing was drawn or played since `action`: the decision is the rest of the same choice.
            return max(
                self._action_value(child, follow, seat, stream_seed, chain - 1) for follow in child.legal_actions()
            )
        return float(self.evaluation(child, seat))

    def _play_to_next_decision(self, state: Any, seat: int, rng: np.random.Generator) -> int:
        """Play chance (sampled from `rng`) and the other seats until `seat` decides again or the game ends; returns
        the number of chance outcomes and other seats' decisions played."""
        if self.others is not None:
            self.others.reset(int(rng.integers(SEED_BOUND)))
        bound = state.game.spec.max_game_length
        steps = 0
        while not state.is_terminal():
            player = state.current_player()
            if player == seat:
                return steps
            if steps >= bound:
                raise RuntimeError(f"seat {seat} did not decide again within {bound} steps (max_game_length)")
            steps += 1
            if state.is_chance_node():
                state.apply_unchecked(state.sample_chance(rng))
            elif self.others is not None:
                reads = getattr(self.others, "reads_observation", True)
                observation = state.game.observer(player).tensor(state) if reads else None
                state.apply_action(self.others.act(observation, state.legal_actions_mask(), state))
            else:
                legal = state.legal_actions()
                state.apply_unchecked(legal[int(rng.integers(len(legal)))])
        return steps
