"""Reusable checkers for any Game: random simulation with invariants, determinism, playthrough transcripts."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from envs.core.game import CHANCE, TERMINAL, Game, State

Invariant = Callable[[State], None]
"""A game-specific check run after every step; raises AssertionError with a message when broken."""


@dataclass
class SimulationReport:
    """What a batch of random games did."""

    games: int = 0
    steps: int = 0
    decisions: int = 0
    longest: int = 0
    returns: list[float] = field(default_factory=list)


def check_chance_node(state: State) -> None:
    """Outcomes are distinct, probabilities positive and summing to 1."""
    outcomes = state.chance_outcomes()
    assert outcomes, "a chance node with no outcomes"
    ids = [a for a, _ in outcomes]
    assert len(set(ids)) == len(ids), f"repeated chance outcomes {ids}"
    total = sum(p for _, p in outcomes)
    assert abs(total - 1.0) < 1e-9, f"chance probabilities sum to {total}"
    assert all(p > 0 for _, p in outcomes), "a chance outcome with probability 0"


def check_decision_node(state: State) -> None:
    """Legal actions are sorted, unique, in range, non-empty, and the mask agrees."""
    legal = state.legal_actions()
    n = state.game.spec.num_actions
    assert legal, f"no legal action at a decision node:\n{state.debug_text()}"
    assert legal == sorted(set(legal)), f"legal actions not sorted/unique: {legal}"
    assert all(0 <= a < n for a in legal), f"legal action out of range: {legal}"
    mask = state.legal_actions_mask()
    assert np.array_equal(np.flatnonzero(mask), np.asarray(legal)), "mask differs from legal_actions"


def random_simulation(
    game: Game,
    num_games: int,
    seed: int,
    invariants: tuple[Invariant, ...] = (),
    check_roundtrip_every: int = 0,
) -> SimulationReport:
    """Play random legal games, checking the generic and the given invariants after every step."""
    rng = np.random.default_rng(seed)
    report = SimulationReport()
    observer = game.observer(0)
    for _ in range(num_games):
        state = game.new_initial_state()
        length = 0
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                check_chance_node(state)
                action = state.sample_chance(rng)
            else:
                check_decision_node(state)
                tensor = observer.tensor(state)
                assert tensor.shape == (observer.size,) and tensor.dtype == np.float32
                assert np.all(np.isfinite(tensor)), "non-finite observation"
                assert tensor.min() >= observer.low and tensor.max() <= observer.high, "observation out of bounds"
                legal = state.legal_actions()
                action = legal[int(rng.integers(len(legal)))]
                report.decisions += 1
                length += 1
            state.apply_action(action)
            report.steps += 1
            for invariant in invariants:
                invariant(state)
            if check_roundtrip_every and report.steps % check_roundtrip_every == 0:
                rebuilt = game.state_from_dict(state.to_dict())
                assert rebuilt.to_dict() == state.to_dict(), "to_dict/from_dict round trip changed the state"
            assert length <= game.spec.max_game_length, f"game longer than {game.spec.max_game_length} decisions"
        assert state.current_player() == TERMINAL
        assert state.legal_actions() == []
        report.games += 1
        report.longest = max(report.longest, length)
        report.returns.append(state.returns()[0])
    return report


Policy = Callable[[State], int]
"""A decision policy for transcripts: the (legal) action to take at a decision node; it must not change the state."""


@dataclass(frozen=True)
class GoldenCase:
    """One golden transcript of a game: its file name, how to make its text, and what it protects."""

    file_name: str
    make: Callable[[], str]
    protects: str


def random_policy(seed: int) -> Policy:
    """A uniform choice among the legal actions, from its own generator seeded with `seed`."""
    rng = np.random.default_rng(seed)

    def choose(state: State) -> int:
        legal = state.legal_actions()
        return legal[int(rng.integers(len(legal)))]

    return choose


def transcript(game: Game, seed: int, policy_seed: int | None = None, policy: Policy | None = None) -> str:
    """A readable log of one seeded game: every chance outcome and decision by label, then returns and state.

    Chance nodes are sampled from a generator seeded with `seed`. Decisions come from `policy` (for example an
    agent wrapped as `state -> action`); without one, from `random_policy(policy_seed)` (`policy_seed` defaults
    to `seed`).
    """
    if policy is not None and policy_seed is not None:
        raise ValueError("transcript: give either a policy or a policy_seed for the random policy, not both")
    rng = np.random.default_rng(seed)
    decide = random_policy(seed if policy_seed is None else policy_seed) if policy is None else policy
    state = game.new_initial_state()
    lines = []
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            outcome = state.sample_chance(rng)
            lines.append(f"  chance: {state.chance_label(outcome)}")
            state.apply_action(outcome)
        else:
            action = decide(state)
            lines.append(f"decide: {game.action_label(action)}")
            state.apply_action(action)
    lines.append("returns: " + ", ".join(f"{r:+.0f}" for r in state.returns()))
    lines.append(str(state))
    return "\n".join(lines) + "\n"


def _random_states(game: Game, seed: int, games: int) -> list[State]:
    """Copies of the states of a few seeded random games, decision and chance nodes alike (rebuilt from to_dict,
    so that a faulty clone cannot corrupt them)."""
    rng = np.random.default_rng(seed)
    states: list[State] = []
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            states.append(game.state_from_dict(state.to_dict()))
            if state.current_player() == CHANCE:
                state.apply_action(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])
    return states


def check_clone_independence(game: Game, seed: int = 0, games: int = 5, moves: int = 8) -> int:
    """Play on clones of states of random games: the original's `to_dict` never changes. Returns states checked.

    Catches a clone that shares a mutable container (a list or dict) with its original.
    """
    rng = np.random.default_rng(seed + 1)
    checked = 0
    for state in _random_states(game, seed, games):
        before = state.to_dict()
        clone = state.clone()
        for _ in range(moves):
            if clone.is_terminal():
                break
            if clone.current_player() == CHANCE:
                clone.apply_action(clone.sample_chance(rng))
            else:
                legal = clone.legal_actions()
                clone.apply_action(legal[int(rng.integers(len(legal)))])
        assert state.to_dict() == before, f"playing on a clone changed the original:\n{state.debug_text()}"
        checked += 1
    return checked


def check_sampler_matches_outcomes(
    game: Game, seed: int = 0, games: int = 3, draws: int = 2000, max_nodes: int = 40
) -> int:
    """At chance nodes of random games, `sample_chance` draws each outcome as often as `chance_outcomes()` says.

    Each outcome's frequency over `draws` samples must lie within 5 standard deviations (plus a small floor) of its
    probability, and no outcome outside the list may appear. Returns the number of chance nodes checked.
    """
    rng = np.random.default_rng(seed + 2)
    checked = 0
    for state in _random_states(game, seed, games):
        if state.current_player() != CHANCE or checked >= max_nodes:
            continue
        outcomes = dict(state.chance_outcomes())
        counts: dict[int, int] = {}
        for _ in range(draws):
            outcome = state.sample_chance(rng)
            counts[outcome] = counts.get(outcome, 0) + 1
        unknown = sorted(set(counts) - set(outcomes))
        assert not unknown, f"sample_chance drew outcomes {unknown} that chance_outcomes() does not list"
        for outcome, probability in outcomes.items():
            frequency = counts.get(outcome, 0) / draws
            tolerance = 5.0 * (probability * (1.0 - probability) / draws) ** 0.5 + 1.0 / draws
            assert abs(frequency - probability) <= tolerance, (
                f"{state.chance_label(outcome)}: drawn {frequency:.3f} of the time, probability {probability:.3f}"
            )
        checked += 1
    return checked
