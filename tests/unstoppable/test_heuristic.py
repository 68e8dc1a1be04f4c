"""The Unstoppable heuristic (agents/heuristics/unstoppable.py): legal play to the end at every difficulty, no reading
of what the player cannot see, sensible choices in hand-written positions, and better play than random.

Whole games run on the shipped content (UnstoppableGame); the positions are written on the hand-made test cards
(tests/unstoppable/cards/, scenarios.py).
"""

from __future__ import annotations

import functools
import time

import numpy as np
import pytest

from agents.heuristics.unstoppable import UnstoppableHeuristicAgent
from agents.players.base import Agent
from agents.players.random_agent import RandomAgent
from envs.core.game import CHANCE, State
from envs.core.testing import check_no_peek
from envs.unstoppable.cards import DIFFICULTIES
from envs.unstoppable.effects import boss_mat_damage, defeat_boss_damage
from envs.unstoppable.game import UnstoppableGame
from envs.unstoppable.rules import UnstoppableState
from envs.unstoppable.state import Kind
from tests.unstoppable.scenarios import rules_game, scenario, sleeve_named


@functools.cache
def shipped_game(difficulty: str = "normal") -> UnstoppableGame:
    """The game on the shipped content."""
    return UnstoppableGame(difficulty=difficulty)


def play(game: UnstoppableGame, agent: Agent, seed: int) -> UnstoppableState:
    """One game to its end: chance from the seed, every decision the agent's (checked legal)."""
    rng = np.random.default_rng([seed, 0])
    state = game.new_initial_state()
    for _ in range(game.spec.max_game_length):
        if state.is_terminal():
            return state
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        mask = state.legal_actions_mask()
        action = agent.act(None, mask, state)
        assert mask[action], f"illegal action {game.action_label(action)} at\n{state.debug_text()}"
        state.apply_action(action)
    raise AssertionError("the game did not end within max_game_length")


def main_phase_decisions(state: UnstoppableState, agent: UnstoppableHeuristicAgent) -> list[str]:
    """Let the heuristic decide until the Main Phase ends (chance left to the first outcome); the labels chosen."""
    chosen = []
    while not state.is_terminal() and state.phase == state.phase.MAIN:
        if state.current_player() == CHANCE:
            state.apply_action(state.chance_outcomes()[0][0])
            continue
        action = agent.act(None, state.legal_actions_mask(), state)
        chosen.append(state.action_label_for(action, 0))
        state.apply_action(action)
    return chosen


# ============================================================================================== whole games
@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_plays_legal_actions_to_the_end_at_every_difficulty(difficulty: str) -> None:
    """Seeded games end (boss defeated, health or danger) with every decision legal."""
    game = shipped_game(difficulty)
    agent = UnstoppableHeuristicAgent(game)
    endings = set()
    for seed in range(3):
        state = play(game, agent, seed)
        assert state.ending() in ("boss defeated", "health", "danger")
        endings.add(state.ending())
    assert endings, "no game ended"


def test_decisions_are_fast() -> None:
    """The balance benchmark plays thousands of games: a decision takes well under a millisecond on average."""
    game = shipped_game()
    agent = UnstoppableHeuristicAgent(game)
    rng = np.random.default_rng(7)
    state = game.new_initial_state()
    decisions, spent = 0, 0.0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        mask = state.legal_actions_mask()
        start = time.perf_counter()
        action = agent.act(None, mask, state)
        spent += time.perf_counter() - start
        decisions += 1
        state.apply_action(action)
    assert decisions > 20
    assert spent / decisions < 1e-3, f"{1000 * spent / decisions:.2f} ms a decision"


def test_reads_nothing_the_player_cannot_see() -> None:
    """The same decision whatever the unseen threat sides and the threat deck hold (`resample_hidden` redraws them;
    check_no_peek), on positions where the redraw really changes an unseen threat."""
    game = shipped_game()
    agent = UnstoppableHeuristicAgent(game)

    def policy(state: State, seat: int) -> int:
        return agent.act(None, state.legal_actions_mask(), state)

    assert check_no_peek(game, policy, seed=11, games=2, redraws=2) > 100
    # The check is not vacuous: positions with unseen threats arise, and resampling changes them.
    state = play_until_unseen(game, agent)
    rng = np.random.default_rng(3)
    redrawn = [state.resample_hidden(0, rng) for _ in range(10)]
    assert any(other.sleeves != state.sleeves for other in redrawn)
    for other in redrawn:
        assert policy(other, 0) == policy(state, 0)


def play_until_unseen(game: UnstoppableGame, agent: UnstoppableHeuristicAgent) -> UnstoppableState:
    """A Main Phase decision of a heuristic game with a drafted card in hand whose threat the player has not seen."""
    rng = np.random.default_rng(5)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        frame = state.decision()
        if frame is not None and frame.kind == Kind.MAIN and any(not sleeve.seen for sleeve in state.sleeves):
            return state
        state.apply_action(agent.act(None, state.legal_actions_mask(), state))
    raise AssertionError("no position with an unseen threat")


def test_beats_random_play() -> None:
    """Over the same seeded deals on Normal, the heuristic wins games and deals more boss damage than random play,
    which wins none."""
    game = shipped_game()
    heuristic = UnstoppableHeuristicAgent(game)
    games = 12
    heuristic_games = [play(game, heuristic, seed) for seed in range(games)]
    random_games = [play(game, RandomAgent(seed=seed), seed) for seed in range(games)]
    heuristic_wins = sum(state.won for state in heuristic_games)
    random_wins = sum(state.won for state in random_games)
    assert heuristic_wins > random_wins
    assert np.mean([s.boss_damage for s in heuristic_games]) > np.mean([s.boss_damage for s in random_games]) + 3


# ============================================================================================== positions
def test_kills_the_minion_that_deals_boss_damage() -> None:
    """One 2-damage card and three threats of 2 health: the damage goes to the Order Acolyte ("The Harbinger can be
    dealt 1 boss damage when an Order Acolyte ... enters your hand upon defeat"), not a Thief or a Cutthroat."""
    state = scenario(
        hand=["Blade Dance"],
        battlefield=["Ceresan Thief", "Order Acolyte", "Neon Cutthroat"],
        deck=["Strike", "Strike"],
    )
    agent = UnstoppableHeuristicAgent(rules_game())
    main_phase_decisions(state, agent)
    assert state.boss_damage == 1
    assert sleeve_named(state, "Order Acolyte") not in state.battlefield
    assert sleeve_named(state, "Ceresan Thief") in state.battlefield


def test_takes_armor_when_the_attack_would_kill() -> None:
    """At 3 health facing 5 attack, with 2 action points: the 6 armor of Aid From the Resistance, not a Strike's
    damage that cannot stop enough of the attack."""
    state = scenario(
        hand=["Aid From the Resistance", "Strike"],
        battlefield=["Deadwood Stalker", "Rust Golem", "Ceresan Thief"],
        deck=["Strike", "Strike"],
        health=3,
        action_points=2,
    )
    agent = UnstoppableHeuristicAgent(rules_game())
    chosen = main_phase_decisions(state, agent)
    assert chosen[0].startswith("play:") and "Aid From the Resistance" in chosen[0]
    assert state.health == 3, "the armor stopped the whole attack"


def test_ends_the_main_phase_when_nothing_is_worth_playing() -> None:
    """Full health, no credits, only a health card in hand: the phase ends at once rather than wasting the card."""
    state = scenario(
        hand=["Medical Nanites"],
        battlefield=["Ceresan Thief", "Ceresan Thief", "Ceresan Thief"],
        deck=["Strike", "Strike"],
        credits=0,
    )
    agent = UnstoppableHeuristicAgent(rules_game())
    chosen = main_phase_decisions(state, agent)
    assert chosen == ["end main phase"]


def test_boss_damage_queries() -> None:
    """The public queries the heuristic reads: the boss mat's boss damage for a minion entering the hand, and with a
    boss card's bonus for the whole defeat; none for a plain threat."""
    state = scenario(
        battlefield=["Order Acolyte", "Ash Wyrm", "Ceresan Thief"],
        deck=["Strike", "Strike"],
    )
    acolyte, wyrm, thief = (sleeve_named(state, name) for name in ("Order Acolyte", "Ash Wyrm", "Ceresan Thief"))
    assert (boss_mat_damage(state, acolyte), defeat_boss_damage(state, acolyte)) == (1, 1)
    assert (boss_mat_damage(state, wyrm), defeat_boss_damage(state, wyrm)) == (0, 1)
    assert (boss_mat_damage(state, thief), defeat_boss_damage(state, thief)) == (0, 0)
