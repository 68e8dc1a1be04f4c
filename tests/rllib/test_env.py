"""The RLlib MultiAgentEnv adapter: who observes, final rewards for every seat, done flags, masks, determinism."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from agents.rllib.env import ACTION_MASK_KEY, ALL_AGENTS, OBSERVATIONS_KEY, TabletopMultiAgentEnv, agent_id

UNEARTH_2P = {"env_id": "tabletop/unearth_v0", "kwargs": {"num_players": 2}}
UNBROKEN = {"env_id": "tabletop/Unbroken-v0", "kwargs": {"difficulty": "normal"}}


def play(env: TabletopMultiAgentEnv, seed: int, checks: bool = True) -> list[tuple[Any, ...]]:
    """One seeded random game; every step checked against the rules core; returns the trajectory."""
    rng = np.random.default_rng(seed)
    observations, _ = env.reset(seed=seed)
    trajectory: list[tuple[Any, ...]] = []
    while True:
        state = env.game_state
        assert state is not None
        acting = agent_id(state.current_player())
        if checks:
            assert list(observations) == [acting]  # only the seat to act observes
            mask = observations[acting][ACTION_MASK_KEY]
            assert np.flatnonzero(mask).tolist() == state.legal_actions()
            assert env.observation_spaces[acting].contains(observations[acting])
        action = int(rng.choice(np.flatnonzero(observations[acting][ACTION_MASK_KEY])))
        observations, rewards, terminateds, truncateds, infos = env.step({acting: action})
        trajectory.append((acting, action, observations[next(iter(observations))][OBSERVATIONS_KEY].copy(), rewards))
        if terminateds[ALL_AGENTS] or truncateds[ALL_AGENTS]:
            trajectory.append((terminateds, truncateds, infos, observations))
            return trajectory
        if checks:
            assert rewards == {acting: 0.0}  # nothing until the end


def test_only_the_seat_to_act_observes_and_every_seat_gets_its_final_reward() -> None:
    env = TabletopMultiAgentEnv(UNEARTH_2P)
    assert env.possible_agents == ["player_0", "player_1"]
    trajectory = play(env, seed=3)
    terminateds, truncateds, infos, observations = trajectory[-1]
    final_rewards = trajectory[-2][3]
    state = env.game_state
    assert state is not None and state.is_terminal()
    assert final_rewards == dict(zip(env.possible_agents, state.rewards("win"), strict=True))
    assert sorted(final_rewards.values()) == [-1.0, 1.0]
    assert terminateds == {"player_0": True, "player_1": True, ALL_AGENTS: True}
    assert truncateds == {"player_0": False, "player_1": False, ALL_AGENTS: False}
    assert set(observations) == set(env.possible_agents)  # every seat sees the end, nothing legal any more
    assert all(not observation[ACTION_MASK_KEY].any() for observation in observations.values())
    assert {agent: info["won"] for agent, info in infos.items()} == {a: r > 0 for a, r in final_rewards.items()}


def test_the_same_seed_replays_the_same_game() -> None:
    first = play(TabletopMultiAgentEnv(UNEARTH_2P), seed=11, checks=False)
    second = play(TabletopMultiAgentEnv(UNEARTH_2P), seed=11, checks=False)
    assert len(first) == len(second)
    for one, other in zip(first[:-1], second[:-1], strict=True):
        assert one[:2] == other[:2] and one[3] == other[3]
        np.testing.assert_array_equal(one[2], other[2])
    other_seed = play(TabletopMultiAgentEnv(UNEARTH_2P), seed=12, checks=False)
    assert [step[:2] for step in other_seed[:-1]] != [step[:2] for step in first[:-1]]


def test_a_solo_game_is_one_agent() -> None:
    env = TabletopMultiAgentEnv(UNBROKEN)
    assert env.possible_agents == ["player_0"]
    *_, (terminateds, _, infos, observations) = play(env, seed=0)
    assert terminateds == {"player_0": True, ALL_AGENTS: True}
    assert set(observations) == {"player_0"} and "won" in infos["player_0"]


def test_max_decisions_truncates_every_seat() -> None:
    env = TabletopMultiAgentEnv({**UNEARTH_2P, "kwargs": {"num_players": 2, "max_decisions": 5}})
    trajectory = play(env, seed=0)
    terminateds, truncateds, _, observations = trajectory[-1]
    assert len(trajectory) == 6
    assert truncateds == {"player_0": True, "player_1": True, ALL_AGENTS: True} and not terminateds[ALL_AGENTS]
    assert trajectory[-2][3] == {"player_0": 0.0, "player_1": 0.0}


def test_the_solo_gymnasium_id_keeps_its_decision_limit_and_flat_is_refused() -> None:
    assert TabletopMultiAgentEnv(UNBROKEN).max_decisions is not None
    with pytest.raises(ValueError, match="flat"):
        TabletopMultiAgentEnv({**UNBROKEN, "kwargs": {"flat": True}})


def test_an_unknown_reset_option_is_refused_naming_it_before_anything_changes() -> None:
    """A misspelt `stat` would otherwise start from setup without a word: the RLlib env refuses it as the Gymnasium
    adapters do (naming the key and the valid ones), and its game is the one it played before."""
    env = TabletopMultiAgentEnv(UNBROKEN)
    env.reset(seed=0)
    position = env._driver.live_state().to_dict()
    with pytest.raises(ValueError, match=r"unknown key 'stat'.*state"):
        env.reset(seed=1, options={"stat": position})
    assert env._driver.live_state().to_dict() == position
    env.reset(seed=1, options={"state": position})
    assert env._driver.live_state().to_dict()["phase"] == position["phase"]
