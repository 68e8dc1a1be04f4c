"""Random-simulation checker on Unearth: 1,000 random legal games per player count, invariants after every step."""

from __future__ import annotations

import pytest

from envs.core.game import State
from envs.core.testing import random_simulation
from envs.unearth.game import UnearthGame
from envs.unearth.rules import NOWHERE, PRIVATE_OPTION_COUNT, UnearthState

GAMES_PER_PLAYER_COUNT = 1000
OBSERVED_GAMES = 20
"""Games whose every seat's observation is checked at every decision (observations cost more than the rules)."""


def state_invariants(state: State) -> None:
    """Every Delver card and Stone is somewhere once; dice show real faces and stand only on Ruins; a pending
    decision has at least two options (single options are taken by the rules)."""
    assert isinstance(state, UnearthState)
    if state.is_chance_node():
        return  # checked at the next decision: nothing a chance event breaks can be mended before it
    cards = state.game.cards
    delvers = [sum(copies) for copies in zip(state.delver_deck, state.delver_discard, *state.hands, strict=True)]
    assert delvers == [delver.count for delver in cards.delvers], f"Delver cards per type {delvers}"
    stones = [
        sum(counts)
        for counts in zip(state.bag, *state.ruin_stones, *(t.stones_by_colour for t in state.tableaus), strict=True)
    ]
    for colour in state.library_draws:
        stones[colour] += 1
    for pending in state.stack:
        if pending.kind == "place stone":
            stones[pending.detail("colour")] += 1
    assert stones == [colour.count for colour in cards.stone_colours], f"Stones per colour {stones}"
    for seat in range(state.num_players):
        for die, place in enumerate(state.die_place[seat]):
            faces = cards.die_sides[die]
            if place == NOWHERE:
                continue
            assert state.table[place] != NOWHERE, f"seat {seat}'s die {die} stands on an empty place"
            assert 0 <= state.die_value[seat][die] <= faces
    if not state.is_terminal():
        frame = state.decision()
        # RULES.md, The engine: one option is asked only where the option count is private (the Delver Phase).
        minimum = 1 if frame is not None and frame.kind in PRIVATE_OPTION_COUNT else 2
        assert len(state.legal_actions()) >= minimum, f"a decision with one option: {frame}"


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_random_games_keep_invariants(num_players: int) -> None:
    """Every step of 1,000 random games keeps the invariants; every game ends within the spec's maximum length
    ("The game continues until all Ruins on the table ... have been claimed"), with one returns entry per seat."""
    game = UnearthGame(num_players=num_players)
    report = random_simulation(
        game,
        GAMES_PER_PLAYER_COUNT,
        seed=700 + num_players,
        invariants=(state_invariants,),
        check_roundtrip_every=499,
        observed_games=OBSERVED_GAMES,
    )
    assert report.games == GAMES_PER_PLAYER_COUNT
    assert report.longest <= game.spec.max_game_length
    assert all(sorted(returns)[-1] >= 0 for returns in report.seat_returns), "a game with no winner"
