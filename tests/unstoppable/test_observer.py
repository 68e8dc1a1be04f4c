"""The fast observer (envs/unstoppable/observer.py) against the straightforward reference, bit for bit."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

from envs.core.game import CHANCE, State
from envs.unstoppable.game import UnstoppableGame
from envs.unstoppable.observer import UnstoppableObserver
from tests.unstoppable.reference_observer import ReferenceUnstoppableObserver
from tests.unstoppable.scenarios import rules_game

EQUIVALENCE_GAMES = 12
"""Seeded random games per setting in which the fast observer is checked against the reference at every step."""


def random_states(game: UnstoppableGame, seed: int, games: int) -> list[State]:
    """Clones of every state (chance and decision nodes, and the end) of seeded games: greedy play every other game
    (it reaches more upgrades, allies and level-ups), random play otherwise."""
    rng = np.random.default_rng(seed)
    states: list[State] = []
    for index in range(games):
        state = game.new_initial_state()
        while True:
            states.append(state.clone())
            if state.is_terminal():
                break
            if state.current_player() == CHANCE:
                state.apply_action(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            if index % 2:
                legal = [action for action in legal if action != game.actions.end_main] or legal
            state.apply_action(legal[int(rng.integers(len(legal)))])
    return states


def assert_equal_to_reference(
    observer: UnstoppableObserver, reference: ReferenceUnstoppableObserver, state: State
) -> None:
    """The two tensors are bit-identical; the message names the first view that differs."""
    fast, slow = observer.tensor(state), reference.tensor(state)
    if np.array_equal(fast, slow):
        return
    for name, part in observer.views.items():
        if not np.array_equal(fast[part], slow[part]):
            where = np.flatnonzero(fast[part] != slow[part])[:5]
            raise AssertionError(f"view {name!r} differs at {where.tolist()}:\n{state}")


@pytest.mark.parametrize(
    ("difficulty", "cards"), [("normal", "shipped"), ("expert", "shipped"), ("hard", "test cards")]
)
def test_fast_observer_equals_the_reference_at_every_step(difficulty: str, cards: str) -> None:
    """`UnstoppableObserver.tensor` equals `ReferenceUnstoppableObserver.tensor` bit for bit, for the player's and
    the public view, at every step of seeded games (the shipped content, and the test cards)."""
    game = UnstoppableGame(difficulty=difficulty) if cards == "shipped" else rules_game(difficulty)
    pairs = [(UnstoppableObserver(game, seat), ReferenceUnstoppableObserver(game, seat)) for seat in (0, None)]
    states = random_states(game, seed=len(difficulty), games=EQUIVALENCE_GAMES)
    assert len(states) > 500
    for state in states:
        for observer, reference in pairs:
            assert_equal_to_reference(observer, reference, state)


def test_fast_observer_equals_the_reference_on_states_in_any_order() -> None:
    """Its caches are keyed by the state's own tuples: states of two games, shuffled, still match."""
    game = UnstoppableGame()
    states = random_states(game, seed=3, games=4)
    order = np.random.default_rng(0).permutation(len(states))
    observer, reference = UnstoppableObserver(game), ReferenceUnstoppableObserver(game)
    for index in order:
        assert_equal_to_reference(observer, reference, states[int(index)])


def test_pickled_and_copied_observers_still_equal_the_reference() -> None:
    """A pickled or deep-copied observer (subprocess vec envs copy it) starts with empty caches and stays right."""
    game = UnstoppableGame()
    states = random_states(game, seed=5, games=2)
    observer = UnstoppableObserver(game)
    for state in states[:50]:
        observer.tensor(state)
    reference = ReferenceUnstoppableObserver(game)
    for other in (pickle.loads(pickle.dumps(observer)), copy.deepcopy(observer)):
        assert other._sleeve_key is None
        for state in states:
            assert_equal_to_reference(other, reference, state)


def test_a_changed_sleeve_is_seen_at_once() -> None:
    """A state whose sleeve table is replaced (damage on a threat) gives a new row, though the observer has cached the
    old table: the cache compares the table by identity, not by position in a game."""
    game = UnstoppableGame()
    state = next(s for s in random_states(game, seed=7, games=1) if s.battlefield and not s.is_terminal())
    observer = UnstoppableObserver(game)
    before = observer.tensor(state)
    target = state.battlefield[0]
    changed = state.clone()
    changed._set_sleeve(target, damage=state.sleeves[target].damage + 1)
    after = observer.tensor(changed)
    rows = observer.view(after, "sleeves"), observer.view(before, "sleeves")
    assert not np.array_equal(rows[0][target], rows[1][target])
    assert np.array_equal(after, ReferenceUnstoppableObserver(game).tensor(changed))
