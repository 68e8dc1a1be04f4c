"""Applying an action is all or nothing (DESIGN.md, issue 32): when the rules raise half way through
`State.apply_action`, the state is put back as it was, on every registered game and on the toy."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from envs.core.game import CHANCE, Game, State
from envs.core.registration import make_game, registered_games

from .test_checkers import DiceGame, DiceState


class RuleError(Exception):
    """The error the planted faults raise."""


def failing_after_the_rules(state: State) -> None:
    """Make `state`'s next `_apply` carry out the whole move, then raise (the worst case: nothing left to undo by
    luck); the patch is an attribute of this state only."""
    rules = type(state)._apply

    def apply_then_fail(action: int) -> None:
        rules(state, action)
        raise RuleError("a fault after the state changed")

    state._apply = apply_then_fail  # type: ignore[method-assign]


CHECKED = 60
"""Failed moves tried on each game (over as many seeded random games as it takes)."""


def default_games() -> list[Any]:
    """pytest parameters: every registered game (the toys included) at its default settings."""
    return [pytest.param(make_game(record, {}), id=name) for name, record in registered_games().items()]


@pytest.mark.parametrize("game", default_games())
def test_a_fault_in_the_rules_leaves_the_state_as_it_was_on_every_registered_game(game: Game) -> None:
    """At every decision and chance node of a seeded random game, a fault raised after the rules changed the state
    leaves it equal to before (`to_dict`, the seat to act and its options), and the game plays on from it."""
    rng = np.random.default_rng(3)
    checked = 0
    while checked < CHECKED:
        state = game.new_initial_state()
        while not state.is_terminal() and checked < CHECKED:
            before = state.to_dict()
            seat = state.current_player()
            options = state.legal_actions() if seat != CHANCE else [a for a, _ in state.chance_outcomes()]
            action = state.sample_chance(rng) if seat == CHANCE else options[int(rng.integers(len(options)))]
            failing_after_the_rules(state)
            with pytest.raises(RuleError):
                state.apply_action(action)
            vars(state).pop("_apply", None)  # a snapshot that copies the attributes keeps the patch: unpatch
            assert state.to_dict() == before, f"a failed apply_action changed the state:\n{state.debug_text()}"
            assert state.current_player() == seat
            assert (state.legal_actions() if seat != CHANCE else [a for a, _ in state.chance_outcomes()]) == options
            state.apply_action(action)
            checked += 1


class HalfwayState(DiceState):
    """The toy whose banking raises after the roll is banked and before the roll is cleared (a half-applied move)."""

    def _apply(self, action: int) -> None:
        if self.current_player() == 0:
            self.banked.append(self.roll)
            raise RuleError("banked, but the roll is not cleared")
        super()._apply(action)


def test_a_half_applied_move_is_undone_on_the_toy() -> None:
    """The toy banks its roll into a list, then fails: the list and the roll are as before the call."""
    game = DiceGame(HalfwayState)
    state = game.new_initial_state()
    state.apply_action(2)
    banked = state.banked
    with pytest.raises(RuleError):
        state.apply_action(0)
    assert state.to_dict() == {"banked": [], "roll": 2} and state.legal_actions() == [0, 1]
    assert banked == [2]  # the list the failed move appended to is not the state's any more


def failing_on_call(state: State, failing_call: int) -> None:
    """Make `state`'s `_apply` raise after carrying out its `failing_call`-th move (1: the decision itself, 2: the first
    chance outcome after it...); the patch lives in this state's attributes, which the driver's rewind replaces."""
    rules = type(state)._apply
    calls = [0]

    def apply_then_maybe_fail(action: int) -> None:
        rules(state, action)
        calls[0] += 1
        if calls[0] == failing_call:
            raise RuleError(f"a fault after move {failing_call} of the step")

    state._apply = apply_then_maybe_fail  # type: ignore[method-assign]


@pytest.mark.parametrize("game", default_games())
def test_an_env_step_that_raises_is_undone_whole_on_every_registered_game(game: Game) -> None:
    """The adapters' step (GameDriver.step, the fast path without a copy): a fault in the decision or in a chance
    outcome after it leaves the state, the history, the mask and the generator as before the step, so the same
    action then plays exactly as in a twin env that never failed."""
    from envs.adapters.driver import GameDriver

    faulty, twin = GameDriver(game), GameDriver(game)
    for driver in (faulty, twin):
        driver.seed(11)
        driver.reset()
    choices = np.random.default_rng(5)
    steps = 0
    while not faulty.live_state().is_terminal() and steps < 40:
        action = faulty.legal[int(choices.integers(len(faulty.legal)))]
        before = (faulty.live_state().to_dict(), list(faulty.history), faulty.mask.tolist(), faulty.decisions)
        generator = faulty.rng.bit_generator.state
        failing_on_call(faulty.live_state(), 1 + steps % 3)
        try:
            faulty.step(action)
        except RuleError:
            after = (faulty.live_state().to_dict(), list(faulty.history), faulty.mask.tolist(), faulty.decisions)
            assert after == before
            assert faulty.rng.bit_generator.state == generator
            faulty.step(action)
        else:  # the step had fewer moves than the fault waited for: it completed, and so does the twin's
            vars(faulty.live_state()).pop("_apply", None)
        twin.step(action)
        assert faulty.live_state().to_dict() == twin.live_state().to_dict() and faulty.history == twin.history
        steps += 1
