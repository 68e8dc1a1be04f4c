"""Winning and losing, the rewards, and whole random games at every difficulty."""

from __future__ import annotations

import numpy as np
import pytest

from envs.core.game import TERMINAL
from envs.core.testing import random_simulation
from tests.unstoppable.scenarios import act, rules_game, scenario, target

THREATS = ["Rust Golem", "Ash Wyrm", "Neon Cutthroat"]


def test_dealing_the_required_boss_damage_wins_at_once() -> None:
    """ "You win the game if... you defeat the boss"; "Some bosses must be dealt a certain amount of boss damage"
    (the test boss: 4). The game ends in the middle of the card's effects."""
    state = scenario(hand=["Final Verdict"], battlefield=THREATS, deck=["Strike"], boss_damage=3)
    act(state, "play: drafted card 1 (Final Verdict)")
    act(state, "effect 1")
    assert state.current_player() == TERMINAL
    assert state.won and state.returns() == [1.0] and state.score() == [1.0]
    assert state.ending() == "boss defeated"
    assert state.rewards("score") == [1.0]


def test_a_minion_entering_your_hand_deals_boss_damage() -> None:
    """ "The Harbinger can be dealt 1 boss damage when an Order Acolyte or Order Archivist enters your hand upon
    defeat." """
    state = scenario(
        hand=["Five Meters Under"],
        battlefield=["Order Acolyte", "Rust Golem", "Ash Wyrm"],
        deck=["Strike"],
        boss_damage=1,
    )
    act(state, "play: drafted card 1 (Five Meters Under)")
    act(state, "effect 2")
    target(state, "Order Acolyte")
    assert state.boss_damage == 2 and not state.over


def test_health_at_zero_loses_immediately() -> None:
    """ "If the health marker reaches zero, you lose immediately!" """
    state = scenario(hand=["Spare Credits"], battlefield=THREATS, deck=["Strike"], health=7)
    act(state, "end main phase")
    assert state.current_player() == TERMINAL and not state.won
    assert (state.health, state.returns(), state.ending()) == (0, [-1.0], "health")
    assert state.rewards("score") == [0.0]


def test_reaching_maximum_danger_loses() -> None:
    """ "Advance the danger marker 1 space ... If the danger marker reaches the [Maximum Danger] space, you lose
    immediately!" """
    state = scenario(
        hand=["Spare Credits"], battlefield=THREATS, deck=["Strike", "Strike"], danger=12, armor=10, boss_damage=2
    )
    act(state, "end main phase")
    assert state.current_player() == TERMINAL and state.ending() == "danger"
    assert state.returns() == [-1.0] and state.score() == [0.5]
    assert state.episode_info()["boss_damage"] == 2


@pytest.mark.parametrize("difficulty", ["normal", "hard", "expert"])
def test_random_games_end_within_the_bound_at_every_difficulty(difficulty: str) -> None:
    """Whole random games: every step keeps the generic invariants (legal actions, chance odds, observations), every
    13th state rebuilds from its dict, and every game ends within the danger track's turns."""
    game = rules_game(difficulty)
    report = random_simulation(game, num_games=30, seed=11, check_roundtrip_every=13)
    assert report.games == 30
    assert report.longest <= game.spec.max_game_length


def test_turns_never_exceed_the_danger_track() -> None:
    """The danger marker advances every Cleanup Phase, so a game lasts at most one turn per space it can land on."""
    game = rules_game("expert")
    rng = np.random.default_rng(5)
    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() < 0:
                state.apply_action(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])
        assert state.turn <= game.max_turns
