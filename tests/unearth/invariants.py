"""Unearth's invariants of a position for `benchmarks.state_fuzz --invariants`: the random simulation's and, checked
apart from the game's validation, the counts setup fixes and the game's length."""

from __future__ import annotations

from envs.core.game import State
from envs.unearth.rules import CHOOSE_NAMED, NAMED_WONDERS_EXTRA, UnearthState
from tests.unearth.test_simulation import state_invariants as simulation_invariants


def state_invariants(state: State) -> None:
    """The position passes validation and the random simulation's invariants (every Delver card and Stone once, dice
    on Ruins, no one-option decision); the Named Wonders in play, built and still to draw are players + 2 ("draw
    Wonder cards equal to the number of players plus 2"), each once; the decisions are within the spec's length."""
    assert isinstance(state, UnearthState)
    state.validate()
    simulation_invariants(state)
    built = [wonder for seat in state.named_built for wonder in seat]
    to_draw = sum(1 for frame in state.stack if frame.kind == CHOOSE_NAMED)
    named = [*state.named_in_play, *built]
    assert len(set(named)) == len(named), f"a Named Wonder twice: {named}"
    assert len(named) + to_draw == state.num_players + NAMED_WONDERS_EXTRA, f"Named Wonders {named}, {to_draw} to draw"
    assert state.decisions <= state.game.spec.max_game_length, f"{state.decisions} decisions"
