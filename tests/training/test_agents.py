"""Agents on their own: the random agent, MCTS on toy games with known answers, the spec registry, statistics."""

from __future__ import annotations

import math

import numpy as np
import pytest

from agents.evaluation.environment import make_env
from agents.evaluation.episodes import EpisodeResult, summarize, wilson_interval
from agents.players.mcts import MCTSAgent
from agents.players.random_agent import RandomAgent
from agents.players.registry import AgentSpecError, make_agent
from tests.training.search_toy_games import (
    LADDER_ACTION,
    PASS_ACTION,
    RISKY_ACTION,
    SAFE_ACTION,
    CheatingToyState,
    ToyGame,
)


def decision_state(kind: str) -> object:
    """A toy game's first decision node (chance sampled with a fixed generator)."""
    state = ToyGame(kind).new_initial_state()
    rng = np.random.default_rng(0)
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    return state


def test_random_agent_plays_only_legal_actions_and_repeats_per_seed() -> None:
    mask = np.zeros(20, dtype=np.int8)
    mask[[3, 7, 11]] = 1
    agent = RandomAgent()
    agent.reset(5)
    first = [agent.act(None, mask) for _ in range(200)]
    assert set(first) == {3, 7, 11}
    agent.reset(5)
    assert [agent.act(None, mask) for _ in range(200)] == first
    agent.reset(6)
    assert [agent.act(None, mask) for _ in range(200)] != first


def test_mcts_prefers_the_likelier_gamble_using_chance_probabilities() -> None:
    agent = MCTSAgent(num_simulations=300, seed=0)
    assert agent.act(None, np.ones(6), state=decision_state("gamble")) == SAFE_ACTION
    values = agent.action_values(decision_state("gamble"))
    assert values[SAFE_ACTION][0] > values[SAFE_ACTION + 1][0]  # more visits
    assert values[SAFE_ACTION][1] == pytest.approx(0.4, abs=0.15)  # 0.7 * 1 + 0.3 * -1


def test_mcts_searches_deeper_than_one_move() -> None:
    # Only LADDER_ACTION three times in a row wins; a random rollout finds it with probability 1/27.
    agent = MCTSAgent(num_simulations=400, seed=1)
    assert agent.act(None, np.ones(6), state=decision_state("ladder")) == LADDER_ACTION


def test_mcts_does_not_peek_at_hidden_information() -> None:
    # Guessing a uniformly hidden card is worth -1/3; passing is worth 0. A search that sees the card guesses.
    honest = decision_state("guess")
    for seed in range(3):
        assert MCTSAgent(num_simulations=300, seed=seed).act(None, np.ones(6), state=honest) == PASS_ACTION
    cheating = CheatingToyState(ToyGame("guess"))
    cheating.hidden_card = 2
    assert MCTSAgent(num_simulations=300, seed=0).act(None, np.ones(6), state=cheating) == 2


def test_mcts_is_deterministic_per_seed_and_leaves_the_state_alone() -> None:
    state = decision_state("ladder")
    before = state.to_dict()
    runs = []
    for _ in range(2):
        agent = MCTSAgent(num_simulations=50, seed=0)
        agent.reset(7)
        runs.append(agent.action_values(state))
    assert runs[0] == runs[1]
    assert state.to_dict() == before
    with pytest.raises(ValueError, match="needs the rules-core state"):
        MCTSAgent().act(None, np.ones(6))


class FixedChoiceAgent:
    """A prior agent that always names one action when it is legal (else the lowest legal id)."""

    name = "fixed"

    def __init__(self, action: int) -> None:
        self.action = action
        self.calls = 0

    def reset(self, seed: int | None = None) -> None:
        """Nothing to reseed."""

    def act(self, observation: object, action_mask: np.ndarray, state: object | None = None) -> int:
        """The fixed action if legal."""
        self.calls += 1
        return self.action if action_mask[self.action] else int(np.flatnonzero(action_mask)[0])


def test_puct_follows_the_prior_on_a_small_budget_and_overrules_it_on_a_large_one() -> None:
    """With a prior agent, a few simulations keep its (worse) choice; many find the better gamble by rollouts."""
    state = decision_state("gamble")
    few = MCTSAgent(num_simulations=4, seed=0, prior_agent=FixedChoiceAgent(RISKY_ACTION))
    assert few.act(None, np.ones(6), state=state) == RISKY_ACTION
    many = MCTSAgent(num_simulations=600, seed=0, prior_agent=FixedChoiceAgent(RISKY_ACTION))
    assert many.act(None, np.ones(6), state=state) == SAFE_ACTION
    values = many.action_values(state)
    assert values[SAFE_ACTION][1] == pytest.approx(0.4, abs=0.15)  # 0.7 * 1 + 0.3 * -1


def test_puct_with_a_good_prior_climbs_the_ladder_better_than_plain_uct() -> None:
    """The prior's ladder move is followed at every depth: 8 simulations reach the win and keep to the ladder."""
    prior = FixedChoiceAgent(LADDER_ACTION)
    agent = MCTSAgent(num_simulations=8, seed=0, prior_agent=prior)
    values = agent.action_values(decision_state("ladder"))
    assert values[LADDER_ACTION][0] == max(visits for visits, _ in values.values())
    assert values[LADDER_ACTION][1] > 0  # some simulation climbed to the top: random rollouts alone rarely do
    assert prior.calls >= 3  # asked once per tree node reached
    plain = MCTSAgent(num_simulations=8, seed=0).action_values(decision_state("ladder"))
    assert plain[LADDER_ACTION][1] < values[LADDER_ACTION][1]


def test_make_agent_reads_specs() -> None:
    env = make_env("tabletop/Unbroken-v0", {})
    try:
        assert isinstance(make_agent("random", env), RandomAgent)
        mcts = make_agent("mcts:37", env, {"mcts": {"rollout_depth": 5}})
        assert isinstance(mcts, MCTSAgent)
        assert (mcts.num_simulations, mcts.rollout_depth) == (37, 5)
        assert mcts.prior_agent is None
        guided = make_agent("mcts:9", env, {"mcts": {"prior": "heuristic", "rollout": "heuristic"}})
        assert type(guided.prior_agent).__name__ == "UnbrokenHeuristicAgent"
        with pytest.raises(AgentSpecError, match="prior must be 'none' or 'heuristic'"):
            make_agent("mcts", env, {"mcts": {"prior": "oracle"}})
        with pytest.raises(AgentSpecError, match="unknown agent 'alphazero': use one of"):
            make_agent("alphazero", env)
        with pytest.raises(AgentSpecError, match="unknown agent 'heurstic': did you mean 'heuristic'"):
            make_agent("heurstic", env)
        with pytest.raises(AgentSpecError, match="^cannot load runs/nonexistent_run: no such model file"):
            make_agent("runs/nonexistent_run", env)
        for spec in ("mcts:many", "mcts:0", "mcts:-3", "mcts:2.5"):
            with pytest.raises(AgentSpecError, match=f"^agent '{spec}': mcts:N needs a whole number of simulations"):
                make_agent(spec, env)
        with pytest.raises(AgentSpecError, match="^agent 'mcts:': nothing after the colon"):
            make_agent("mcts:", env)
        with pytest.raises(AgentSpecError, match="^cannot load no/such/model.zip: no such model file"):
            make_agent("no/such/model.zip", env)
    finally:
        env.close()


@pytest.mark.parametrize(
    ("wins", "trials", "low", "high"),
    [(0, 10, 0.0, 0.2775), (5, 10, 0.2366, 0.7634), (10, 10, 0.7225, 1.0), (81, 263, 0.2553, 0.3662)],
)
def test_wilson_interval_matches_reference_values(wins: int, trials: int, low: float, high: float) -> None:
    assert wilson_interval(wins, trials) == pytest.approx((low, high), abs=5e-4)
    assert wilson_interval(0, trials)[0] == 0.0 and wilson_interval(trials, trials)[1] == 1.0


def test_summary_counts_wins_scores_and_titles() -> None:
    episodes = [
        EpisodeResult(0, 10, True, 12.0, {"title": "Survivor", "level": 4}, 40, 1.0),
        EpisodeResult(1, 11, False, 0.0, {"title": "", "level": 2}, 10, -1.0),
        EpisodeResult(2, 12, True, 12.0, {"title": "Survivor", "level": 4}, 50, 1.0),
        EpisodeResult(3, 13, True, 18.0, {"title": "Legend", "level": 4}, 60, 1.0),
    ]
    summary = summarize(episodes, facts=("title", "level"))
    assert summary["wins"] == 3
    assert summary["win_rate"] == 0.75
    assert summary["win_rate_ci95"] == pytest.approx(list(wilson_interval(3, 4)))
    assert summary["mean_score"] == pytest.approx(10.5)
    assert summary["score_std"] == pytest.approx(math.sqrt(np.var([12, 0, 12, 18])))
    assert summary["score_distribution"] == {"0": 1, "12": 2, "18": 1}
    assert summary["title_distribution"] == {"Survivor": 2, "(none)": 1, "Legend": 1}
    assert summary["level_distribution"] == {"4": 3, "2": 1}
    assert "title_distribution" not in summarize(episodes)  # only the facts asked for are counted
    assert summary["mean_length"] == 40.0


def test_heuristic_comes_from_the_games_record() -> None:
    from envs.adapters.gym_env import TabletopEnv
    from envs.core.registration import game_record

    env = make_env("tabletop/Unbroken-v0", {})
    try:
        agent = make_agent("heuristic", env)
        assert f"{type(agent).__module__}:{type(agent).__name__}" == game_record("unbroken").heuristic
        with pytest.raises(AgentSpecError, match="takes no argument"):
            make_agent("heuristic:fast", env)
    finally:
        env.close()
    toy = TabletopEnv(ToyGame("ladder"))  # a game no registration record declares
    with pytest.raises(AgentSpecError, match=r"unknown game 'toy_ladder'; known games: .*\bunbroken\b"):
        make_agent("heuristic", toy)
    assert isinstance(make_agent("random", toy), RandomAgent)
