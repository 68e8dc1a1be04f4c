"""The lookahead agent (agents/players/lookahead.py) and the games' evaluations it scores positions with."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from agents.evaluation.environment import make_env
from agents.heuristics.unbroken_evaluation import evaluate as unbroken_evaluation
from agents.heuristics.unearth import UnearthHeuristicAgent
from agents.heuristics.unearth_evaluation import evaluate as unearth_evaluation
from agents.players.lookahead import LookaheadAgent
from agents.players.random_agent import RandomAgent
from agents.players.registry import AgentSpecError, make_agent, make_evaluation
from envs.adapters.opponents import OpponentEnv
from envs.core.game import Game, State
from envs.core.testing import SeatPolicy, check_no_peek
from envs.toys.card_duel import CardDuelGame, CardDuelState
from envs.toys.card_duel_heuristic import CardDuelHeuristic
from envs.unbroken.game import UnbrokenGame
from envs.unearth.game import UnearthGame
from tests.training.search_toy_games import LADDER_ACTION, RISKY_ACTION, SAFE_ACTION, ToyGame


def decision_state(game: Game, seed: int = 0) -> State:
    """The first decision node of `game` (chance sampled with a seeded generator)."""
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    return state


def random_decision_states(game: Game, seed: int, every: int, games: int = 1) -> list[State]:
    """Every `every`-th decision node of `games` seeded random games (copies)."""
    rng = np.random.default_rng(seed)
    states: list[State] = []
    for _ in range(games):
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
                continue
            if decisions % every == 0:
                states.append(state.clone())
            decisions += 1
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
    return states


def returns_evaluation(state: Any, seat: int) -> float:
    """The seat's result (0 until the end)."""
    return float(state.returns()[seat])


def card_duel_evaluation(state: CardDuelState, seat: int) -> float:
    """Tricks won ahead of the best other seat (public), and the result at the end."""
    others = max(points for other, points in enumerate(state.points) if other != seat)
    return state.points[seat] - others + 10 * state.returns()[seat]


def seeded_policy(agent: LookaheadAgent, seed: int = 0) -> SeatPolicy:
    """The agent as a deterministic SeatPolicy: its generator is reseeded before every decision."""

    def policy(state: State, seat: int) -> int:
        agent.reset(seed)
        return agent.act(None, state.legal_actions_mask(), state)

    return policy


def test_picks_the_action_its_evaluation_prefers() -> None:
    """The safe bet wins 70% of the time, the risky one 35%: scored by the result, the mean says safe (+0.4 against
    -0.3); scored by an evaluation that likes the risky bet whatever happens, it takes the risky one."""
    state = decision_state(ToyGame("gamble"))
    agent = LookaheadAgent(returns_evaluation, samples=400, seed=0)
    values = agent.action_values(state)
    assert values[SAFE_ACTION] == pytest.approx(0.4, abs=0.1)
    assert values[RISKY_ACTION] == pytest.approx(-0.3, abs=0.1)
    assert agent.act(None, state.legal_actions_mask(), state) == SAFE_ACTION

    def likes_risk(state: Any, seat: int) -> float:
        return 1.0 if state.history[-1] == RISKY_ACTION else 0.0

    assert LookaheadAgent(likes_risk, samples=1, seed=0).act(None, state.legal_actions_mask(), state) == RISKY_ACTION


def test_decisions_that_follow_at_once_are_looked_through_up_to_the_chain() -> None:
    """Ladder: three ladder steps in a row win, any other step loses, nothing happens in between. With a chain of
    two the first step is valued by the win it leads to; without a chain, by the position after one step."""
    state = decision_state(ToyGame("ladder"))
    whole = LookaheadAgent(returns_evaluation, samples=1, chain=2, seed=0).action_values(state)
    assert whole == {0: -1.0, LADDER_ACTION: 1.0, 2: -1.0}
    half = LookaheadAgent(returns_evaluation, samples=1, chain=0, seed=0).action_values(state)
    assert half == {0: -1.0, LADDER_ACTION: 0.0, 2: -1.0}


def test_passes_check_no_peek_by_construction() -> None:
    """It reads the state only through its determinization: redrawing what the seat cannot see changes nothing."""
    duel = CardDuelGame(num_players=3)
    agent = LookaheadAgent(card_duel_evaluation, samples=2, others=CardDuelHeuristic(duel))
    assert check_no_peek(duel, seeded_policy(agent), seed=1, games=3) >= 30
    unearth = UnearthGame(num_players=2)
    agent = LookaheadAgent(unearth_evaluation, samples=1, chain=0)
    assert check_no_peek(unearth, seeded_policy(agent), seed=2, games=1, redraws=1) >= 50


class PeekingLookahead(LookaheadAgent):
    """A lookahead that skips the determinization: it plays on from the true hidden cards."""

    def determinize(self, state: Any, seat: int) -> Any:
        """The state itself, hidden cards included (what an honest agent must not do)."""
        return state.clone()


def test_the_peek_check_catches_a_lookahead_without_determinization() -> None:
    """The check above can fail: the same agent playing on from the true hands decides differently."""
    duel = CardDuelGame(num_players=3)
    agent = PeekingLookahead(card_duel_evaluation, samples=2, others=CardDuelHeuristic(duel))
    with pytest.raises(AssertionError, match="decision changed when hidden information was redrawn"):
        check_no_peek(duel, seeded_policy(agent), seed=1, games=3)


def test_same_seed_same_values_and_the_state_is_left_alone() -> None:
    states = random_decision_states(UnearthGame(num_players=2), seed=3, every=25)
    saved = [state.to_dict() for state in states]
    agent = LookaheadAgent(unearth_evaluation, samples=2)

    def values(seed: int) -> list[dict[int, float]]:
        agent.reset(seed)
        return [agent.action_values(state) for state in states]

    first = values(4)
    assert values(4) == first
    assert values(5) != first  # the seed matters: other determinizations and chance draws
    assert [state.to_dict() for state in states] == saved


@pytest.mark.parametrize(
    ("game", "evaluation"),
    [(CardDuelGame(num_players=3), card_duel_evaluation), (UnbrokenGame(), unbroken_evaluation)],
    ids=["card_duel_3p", "unbroken"],
)
def test_plays_only_legal_actions(game: Game, evaluation: Callable[[Any, int], float]) -> None:
    agent = LookaheadAgent(evaluation, samples=2, seed=0)
    chance = np.random.default_rng(0)
    decisions = 0
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(chance))
                continue
            action = agent.act(None, state.legal_actions_mask(), state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
    assert decisions >= 15


def test_beats_random_on_unearth_two_players() -> None:
    """Eight seeded games, seats alternating; the lookahead (one sample, random replies) wins at least seven, by a
    wide mean margin (measured: eight wins, 42 points)."""
    game = UnearthGame(num_players=2)
    wins, margins = 0, []
    for index in range(8):
        seat = index % 2
        players: list[Any] = [None, None]
        players[seat] = LookaheadAgent(unearth_evaluation, samples=1, chain=1)
        players[1 - seat] = RandomAgent()
        for position, player in enumerate(players):
            player.reset(100 + 2 * index + position)
        chance = np.random.default_rng(index)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_unchecked(state.sample_chance(chance))
                continue
            action = players[state.current_player()].act(None, state.legal_actions_mask(), state)
            assert action in state.legal_actions()
            state.apply_action(action)
        wins += state.returns()[seat] > 0
        scores = state.score()
        margins.append(scores[seat] - scores[1 - seat])
    assert wins >= 7
    assert float(np.mean(margins)) >= 15.0


@pytest.mark.parametrize(
    ("game", "evaluation", "games"),
    [(UnearthGame(num_players=3), unearth_evaluation, 1), (UnbrokenGame(), unbroken_evaluation, 10)],
    ids=["unearth_3p", "unbroken"],
)
def test_evaluations_read_only_what_the_seat_may_see(
    game: Game, evaluation: Callable[[Any, int], float], games: int
) -> None:
    """A game's evaluation is unchanged when what the seat cannot see is redrawn (and the redraws change states)."""
    rng = np.random.default_rng(6)
    checked = changed = 0
    for state in random_decision_states(game, seed=6, every=3, games=games):
        for seat in range(game.spec.num_players):
            other = state.resample_hidden(seat, rng)
            changed += other.to_dict() != state.to_dict()
            assert evaluation(other, seat) == evaluation(state, seat)
            checked += 1
    assert checked >= 20 and changed > 0


def test_registry_builds_the_lookahead_from_the_games_record() -> None:
    """`lookahead[:samples]`: the record's evaluation, the game's heuristic for the other seats (none when solo)."""
    env = OpponentEnv(UnearthGame(num_players=2), learner_seats="all")  # as tournaments build their agents
    agent = make_agent("lookahead:3", env)
    assert isinstance(agent, LookaheadAgent)
    assert agent.samples == 3 and agent.evaluation is unearth_evaluation
    assert isinstance(agent.others, UnearthHeuristicAgent)
    plain = make_agent("lookahead", env, {"lookahead": {"others": "random", "chain": 0}})
    assert isinstance(plain, LookaheadAgent) and plain.others is None and plain.chain == 0
    for spec, message in (("lookahead:0", "at least 1"), ("lookahead:many", "whole number of samples")):
        with pytest.raises(AgentSpecError, match=message):
            make_agent(spec, env)
    with pytest.raises(AgentSpecError, match="others must be 'heuristic' or 'random', got 'smart'"):
        make_agent("lookahead", env, {"lookahead": {"others": "smart"}})
    env.close()
    solo_env = make_env("tabletop/Unbroken-v0", {})
    solo = make_agent("lookahead", solo_env)
    solo_env.close()
    assert isinstance(solo, LookaheadAgent) and solo.others is None and solo.evaluation is unbroken_evaluation
    with pytest.raises(AgentSpecError, match="game 'card_duel' has no position evaluation"):
        make_evaluation(CardDuelGame(num_players=2))
