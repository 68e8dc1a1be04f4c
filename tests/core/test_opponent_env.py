"""The opponent env (`envs.adapters.opponents.OpponentEnv`) on the toy Card Duel, 2-4 seats (test kind 4)."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env

from envs.adapters.opponents import OpponentEnv
from envs.core.game import IllegalActionError, State
from envs.toys.card_duel import CardDuelGame

SEATS = [2, 3, 4]


class RandomPolicy:
    """A uniform random legal-action policy with its own generator, reseeded by the env at every reset."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        """Reseed (the env hands a seed drawn from its own generator)."""
        self.rng = np.random.default_rng(seed)

    def act(self, observation: object, action_mask: np.ndarray, state: object | None = None) -> int:
        """A uniform legal action."""
        legal = np.flatnonzero(action_mask)
        return int(legal[self.rng.integers(len(legal))])


def _env(num_players: int, cooperative: bool = False, **kwargs: object) -> OpponentEnv:
    return OpponentEnv(CardDuelGame(num_players, cooperative), [RandomPolicy()], **kwargs)  # type: ignore[arg-type]


def _play(env: OpponentEnv, seed: int | None, policy_seed: int = 0) -> list:
    """One episode with a seeded random learner: the trajectory of (seat, observation bytes, reward, action)."""
    policy = np.random.default_rng(policy_seed)
    observation, info = env.reset(seed=seed)
    trajectory: list = [(info["seat"], observation["observation"].tobytes())]
    terminated = False
    while not terminated:
        legal = np.flatnonzero(observation["action_mask"])
        action = int(legal[policy.integers(len(legal))])
        observation, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        trajectory.append((info["seat"], observation["observation"].tobytes(), reward, action))
    return trajectory


@pytest.mark.parametrize("num_players", SEATS)
@pytest.mark.parametrize("flat", [False, True])
def test_gymnasium_check_env(num_players: int, flat: bool) -> None:
    """Gymnasium's checker accepts the env (Dict and flat observations), rotating seats."""
    gym_check_env(_env(num_players, flat=flat, illegal_action="penalize"), skip_render_check=True)


@pytest.mark.parametrize("num_players", SEATS)
@pytest.mark.parametrize("learner_seats", ["rotate", "random", "all", 1])
def test_stable_baselines3_check_env(num_players: int, learner_seats: str | int) -> None:
    """stable-baselines3's checker accepts the flat env for every learner_seats mode."""
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    sb3_check_env(_env(num_players, flat=True, illegal_action="penalize", learner_seats=learner_seats), warn=True)


@pytest.mark.parametrize("num_players", SEATS)
def test_rotate_covers_every_seat_across_episodes_and_env_indexes(num_players: int) -> None:
    """'rotate': successive episodes walk through every seat; env_index i starts at seat i; a seeded reset restarts."""
    for env_index in range(num_players):
        env = _env(num_players, env_index=env_index)
        seats = []
        for episode in range(num_players):
            seed = 5 if episode == 0 else None
            seats.append(_play(env, seed)[0][0])
        assert seats == [(env_index + k) % num_players for k in range(num_players)]
        assert _play(env, 5)[0][0] == env_index  # a seeded reset restarts the rotation
    first_seats = {_env(num_players, env_index=i).reset(seed=0)[1]["seat"] for i in range(num_players)}
    assert first_seats == set(range(num_players))


@pytest.mark.parametrize("num_players", SEATS)
def test_random_seat_covers_every_seat(num_players: int) -> None:
    """'random': the seat comes from the seeded generator and, over many seeds, takes every value."""
    env = _env(num_players, learner_seats="random")
    seats = {env.reset(seed=seed)[1]["seat"] for seed in range(40)}
    assert seats == set(range(num_players))


@pytest.mark.parametrize("num_players", SEATS)
def test_fixed_seat_stays_fixed(num_players: int) -> None:
    """An int learner_seats: the learner acts only at that seat, in every step of every episode."""
    seat = num_players - 1
    env = _env(num_players, learner_seats=seat)
    for seed in (0, 1, None, None, 2):
        trajectory = _play(env, seed)
        assert {step[0] for step in trajectory} == {seat}
        assert env.state is not None
    for acting_seat in range(num_players):
        if acting_seat != seat:
            assert env.opponents[acting_seat] == 0
    assert env.opponents[seat] is None


@pytest.mark.parametrize("num_players", SEATS)
@pytest.mark.parametrize("cooperative", [False, True])
def test_all_learner_acts_at_every_seat(num_players: int, cooperative: bool) -> None:
    """'all': no opponents; info['seat'] follows the seat to act and takes every value during one episode."""
    env = OpponentEnv(CardDuelGame(num_players, cooperative), learner_seats="all")
    observation, info = env.reset(seed=3)
    seats = {info["seat"]}
    terminated = False
    rng = np.random.default_rng(0)
    while not terminated:
        assert env.state is not None and env.state.current_player() == info["seat"]
        legal = np.flatnonzero(env.action_masks())
        observation, reward, terminated, _, info = env.step(int(legal[rng.integers(len(legal))]))
        seats.add(info["seat"])
    assert seats == set(range(num_players))
    assert reward == info["seat_rewards"][info["seat"]]
    if cooperative:
        assert len(set(info["seat_rewards"])) == 1


@pytest.mark.parametrize("num_players", SEATS)
@pytest.mark.parametrize("learner_seats", ["rotate", "random", "all", 0])
def test_episode_is_a_function_of_the_seed(num_players: int, learner_seats: str | int) -> None:
    """Same seed and same learner actions give the same seats, observations and rewards; another seed differs."""
    trajectories = [_play(_env(num_players, learner_seats=learner_seats), seed) for seed in (11, 11, 12)]
    assert trajectories[0] == trajectories[1]
    assert trajectories[0] != trajectories[2]
    env = _env(num_players, learner_seats=learner_seats)  # a reused env: the seed, not its history, decides
    _play(env, 99)
    assert _play(env, 11) == trajectories[0]


@pytest.mark.parametrize("num_players", SEATS)
@pytest.mark.parametrize("reward", ["win", "score", "rank"])
@pytest.mark.parametrize("learner_seats", ["rotate", "all"])
def test_final_reward_is_the_seats_state_reward(num_players: int, reward: str, learner_seats: str) -> None:
    """At the end the reward is state.rewards(mode)[seat]; info has seat_rewards, episode_info and the seat."""
    env = _env(num_players, reward=reward, learner_seats=learner_seats)
    for seed in range(4):
        trajectory = _play(env, seed)
        state = env.state
        assert isinstance(state, State) and state.is_terminal()
        seat, _, final_reward, _ = trajectory[-1]
        expected = [float(value) for value in state.rewards(reward)]
        assert final_reward == expected[seat]
        assert all(step[2] == 0.0 for step in trajectory[1:-1])
        _, _, _, _, info = _last_info(env, seed)
        assert info["seat_rewards"] == expected
        assert info["seat"] == seat
        assert info["score"] == state.episode_info(seat)["score"]


def _last_info(env: OpponentEnv, seed: int) -> tuple:
    """Replay `seed` with the same learner policy as _play and return the final step's five values."""
    policy = np.random.default_rng(0)
    observation, info = env.reset(seed=seed)
    result: tuple = ()
    terminated = False
    while not terminated:
        legal = np.flatnonzero(observation["action_mask"])
        result = env.step(int(legal[policy.integers(len(legal))]))
        observation, _, terminated, _, info = result
    return result


@pytest.mark.parametrize("num_players", SEATS)
def test_info_seat_present_and_learner_acts_only_at_its_turns(num_players: int) -> None:
    """info['seat'] is in every reset and step info, and the seat to act is the learner's whenever it must act."""
    env = _env(num_players, learner_seats="random")
    observation, info = env.reset(seed=4)
    assert "opponents" in info and info["opponents"][info["seat"]] is None
    terminated = False
    while not terminated:
        assert env.state is not None and env.state.current_player() == info["seat"] == env.learner_seat
        assert np.array_equal(env.action_masks(), observation["action_mask"].astype(bool))
        legal = np.flatnonzero(observation["action_mask"])
        observation, _, terminated, _, info = env.step(int(legal[0]))
        assert info["seat"] == env.learner_seat


def test_weighted_pool_and_callable_policies() -> None:
    """Weights pick the pool policy per seat (weight 0 never plays); plain callables with a seat argument work."""
    calls: list[int] = []

    def first_legal(observation: object, action_mask: np.ndarray, state: State, seat: int) -> int:
        calls.append(seat)
        return int(np.flatnonzero(action_mask)[0])

    env = OpponentEnv(CardDuelGame(4), [RandomPolicy(), first_legal], weights=[0.0, 1.0], learner_seats=0)
    _play(env, 1)
    assert env.opponents == [None, 1, 1, 1]
    assert set(calls) == {1, 2, 3}


class RecordingPolicy(RandomPolicy):
    """A random policy that records the observations it is handed."""

    def __init__(self, reads_observation: bool) -> None:
        super().__init__()
        self.reads_observation = reads_observation
        self.seen: list[object] = []

    def act(self, observation: object, action_mask: np.ndarray, state: object | None = None) -> int:
        """Record the observation, then play a uniform legal action."""
        self.seen.append(observation)
        return super().act(observation, action_mask, state)


@pytest.mark.parametrize("reads_observation", [True, False])
def test_observation_is_built_only_for_policies_that_read_it(reads_observation: bool) -> None:
    """A policy with `reads_observation = False` gets None (its observation is never built); others get their seat's."""
    policy = RecordingPolicy(reads_observation)
    env = OpponentEnv(CardDuelGame(3), [policy], learner_seats=0)  # type: ignore[list-item]
    _play(env, 2)
    assert policy.seen
    if reads_observation:
        assert all(
            isinstance(seen, dict) and seen["observation"].shape == env.observation_space["observation"].shape
            for seen in policy.seen
        )
    else:
        assert all(seen is None for seen in policy.seen)


def test_penalize_and_opponent_illegal_action() -> None:
    """The learner's illegal action under 'penalize' ends the episode at -1; an opponent's always raises."""
    env = _env(3, illegal_action="penalize", learner_seats=2)
    observation, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -1.0 and info["seat_rewards"][2] == -1.0 and info["illegal_action"] == illegal

    def bad(observation: object, action_mask: np.ndarray, state: State, seat: int) -> int:
        return int(np.flatnonzero(action_mask == 0)[0])

    with pytest.raises(IllegalActionError, match=r"^the opponent at seat [12] \(bad\) played an illegal action \d+ \("):
        _play(OpponentEnv(CardDuelGame(3), [bad], learner_seats=0), 0)  # opponents act at some point

    def not_an_id(observation: object, action_mask: np.ndarray, state: State, seat: int) -> object:
        return "first"

    with pytest.raises(TypeError, match=r"^the opponent at seat [12] \(not_an_id\): an action must be an integer"):
        _play(OpponentEnv(CardDuelGame(3), [not_an_id], learner_seats=0), 0)


def test_bad_arguments_are_refused() -> None:
    """A seat out of range, an unknown mode, no policies, or mismatched weights raise ValueError."""
    game = CardDuelGame(2)
    for kwargs in ({"learner_seats": 2}, {"learner_seats": "everyone"}, {"weights": [1.0, 2.0]}):
        with pytest.raises(ValueError):
            OpponentEnv(game, [RandomPolicy()], **kwargs)
    with pytest.raises(ValueError):
        OpponentEnv(game, [])


def test_opponents_from_spec_strings_play_the_toy() -> None:
    """Opponents are given by the same spec strings as evaluate.py (random, mcts:N, ...), resolved by `agents`;
    'snapshot' is refused there (the training loop makes those) and an unknown spec names the known ones."""
    from agents.players.registry import AgentSpecError, make_opponent_policies

    game = CardDuelGame(num_players=3)
    policies = make_opponent_policies(["random", "mcts:8"], game)
    env = OpponentEnv(game, policies, learner_seats="rotate")
    observation, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    done = False
    while not done:
        legal = np.flatnonzero(observation["action_mask"])
        observation, reward, done, truncated, info = env.step(int(rng.choice(legal)))
    assert len(info["seat_rewards"]) == 3 and reward == info["seat_rewards"][info["seat"]]
    with pytest.raises(AgentSpecError, match="snapshot"):
        make_opponent_policies(["snapshot"], game)
    with pytest.raises(AgentSpecError, match="unknown agent 'wizard'"):
        make_opponent_policies(["wizard"], game)
