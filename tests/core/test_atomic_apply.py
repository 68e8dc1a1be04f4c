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
