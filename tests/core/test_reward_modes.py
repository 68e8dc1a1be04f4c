"""Reward modes are declared per game (`GameSpec.reward_modes`): every adapter gives each declared mode and refuses
every other one, naming the mode, the game and its modes (issue 19: "rank" in a cooperative game gave every seat 0,
"score" was accepted for a game without a score)."""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

from envs.adapters.driver import GameDriver
from envs.adapters.gym_env import TabletopEnv
from envs.adapters.opponents import OpponentEnv
from envs.adapters.pettingzoo_env import TabletopAECEnv
from envs.core.game import REWARD_MODES, Game, GameSpec, State
from envs.core.registration import registered_games
from envs.toys.card_duel import CardDuelCoopGame, CardDuelGame
from tests.core.test_checkers import ROUNDS, DiceGame


def _env_settings() -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(kind, Gymnasium id or PettingZoo module, game kwargs) of every env of every registered game; a PettingZoo
    module at every value of its record's `num_players` setting."""
    for record in registered_games().values():
        for env_id in record.gym_env_ids:
            yield "gym", env_id, {}
        for module in record.pettingzoo_modules:
            for num_players in record.settings.get("num_players", (None,)):
                yield "pettingzoo", module, {} if num_players is None else {"num_players": num_players}


ENV_SETTINGS = list(_env_settings())
ENV_NAMES = [f"{target}{kwargs or ''}" for _, target, kwargs in ENV_SETTINGS]


def _make(kind: str, target: str, kwargs: dict[str, Any], reward: str, wrapped: bool = False) -> Any:
    """The env of one setting with `reward=`: gymnasium.make, or the PettingZoo module's raw_env (env() if wrapped)."""
    if kind == "gym":
        return gym.make(target, reward=reward, **kwargs)
    module = importlib.import_module(target)
    return (module.env if wrapped else module.raw_env)(reward=reward, **kwargs)


def _declared_modes(kind: str, target: str, kwargs: dict[str, Any]) -> tuple[str, ...]:
    """The reward modes the game behind one setting declares."""
    env = _make(kind, target, kwargs, "win")
    game: Game = env.unwrapped.game
    env.close()
    return game.spec.reward_modes


def _final_rewards_gym(env: gym.Env, seed: int) -> tuple[list[float], State]:
    """Play one seeded random game; (every seat's final reward as the env reports it, the final state)."""
    rng = np.random.default_rng(seed)
    observation, _ = env.reset(seed=seed)
    while True:
        legal = np.flatnonzero(observation["action_mask"])
        observation, reward, terminated, truncated, info = env.step(int(legal[rng.integers(len(legal))]))
        assert terminated or not truncated  # TimeLimit also flags the last step of a game of the longest length
        if terminated:
            state: State = env.unwrapped.state  # type: ignore[attr-defined]
            return list(info.get("seat_rewards", [reward])), state


def _final_rewards_aec(aec: TabletopAECEnv, seed: int) -> tuple[list[float], State]:
    """Play one seeded random AEC game; (every seat's final reward, the final state)."""
    rng = np.random.default_rng(seed)
    aec.reset(seed=seed)
    finals: dict[str, float] = {}
    for agent in aec.agent_iter():
        observation, reward, terminated, truncated, _ = aec.last()
        action = None
        if terminated or truncated:
            finals[agent] = reward
        else:
            legal = np.flatnonzero(observation["action_mask"])
            action = int(legal[rng.integers(len(legal))])
        aec.step(action)
    state = aec.game_state
    assert state is not None and state.is_terminal()
    return [finals[agent] for agent in aec.possible_agents], state


@pytest.mark.parametrize(("kind", "target", "kwargs"), ENV_SETTINGS, ids=ENV_NAMES)
def test_every_declared_mode_gives_the_states_rewards(kind: str, target: str, kwargs: dict[str, Any]) -> None:
    """Each mode a game declares works in its env: the final rewards are `state.rewards(mode)`, as floats."""
    for mode in _declared_modes(kind, target, kwargs):
        env = _make(kind, target, kwargs, mode)
        rewards, state = _final_rewards_gym(env, 3) if kind == "gym" else _final_rewards_aec(env, 3)
        expected = [float(value) for value in state.rewards(mode)]
        assert rewards == (expected[:1] if len(rewards) == 1 else expected), mode
        env.close()


@pytest.mark.parametrize(("kind", "target", "kwargs"), ENV_SETTINGS, ids=ENV_NAMES)
def test_every_undeclared_mode_is_refused(kind: str, target: str, kwargs: dict[str, Any]) -> None:
    """A mode the game does not declare, or no mode at all, is refused when the env is built (the PettingZoo
    module's wrapped env() too), naming the mode, the game and the modes it declares."""
    declared = _declared_modes(kind, target, kwargs)
    wrapped_too = [False, True] if kind == "pettingzoo" else [False]
    for mode in [*(mode for mode in REWARD_MODES if mode not in declared), "elo"]:
        for wrapped in wrapped_too:
            with pytest.raises(ValueError, match=re.escape(repr(mode))) as refused:
                _make(kind, target, kwargs, mode, wrapped)
            message = str(refused.value)
            assert message.startswith("reward: ")
            assert all(repr(declared_mode) in message for declared_mode in declared), message


def test_cooperative_game_refuses_rank_in_every_adapter() -> None:
    """Co-op Card Duel shares one result, so there is no rank: PettingZoo, opponent and driver all refuse it."""
    game = CardDuelCoopGame(num_players=3)
    assert game.spec.reward_modes == ("win", "score")
    expected = "reward: card_duel_coop (3 seats, cooperative) does not declare the reward mode 'rank'; "
    expected += "card_duel_coop declares 'win', 'score'"
    for build in (
        lambda: TabletopAECEnv(game, reward="rank"),
        lambda: OpponentEnv(game, learner_seats="all", reward="rank"),
        lambda: GameDriver(game, reward="rank"),
    ):
        with pytest.raises(ValueError) as refused:
            build()
        assert str(refused.value) == expected
    assert TabletopAECEnv(CardDuelGame(num_players=3), reward="rank").game.spec.reward_modes[-1] == "rank"


def test_solo_game_without_a_score_refuses_score() -> None:
    """A game that declares only "win" is refused "score" by the Gymnasium adapter; "win" still works."""

    class WinOnlyDice(DiceGame):
        """The dice toy without a score."""

        def __init__(self) -> None:
            super().__init__()
            self.spec = GameSpec(name="win_only_dice", num_players=1, num_actions=2, max_game_length=ROUNDS)

    with pytest.raises(ValueError, match="win_only_dice \\(1 seat, solo\\) does not declare the reward mode 'score'"):
        TabletopEnv(WinOnlyDice(), reward="score")
    with pytest.raises(ValueError, match="'rank'.*declares 'win'$"):
        TabletopEnv(WinOnlyDice(), reward="rank")
    assert TabletopEnv(WinOnlyDice(), reward="win").reward_mode == "win"


def test_unbroken_refuses_rank_before_any_game() -> None:
    """Unbroken is solo: reward="rank" fails at gymnasium.make, not at the end of the first game."""
    with pytest.raises(ValueError, match="unbroken \\(1 seat, solo\\) does not declare the reward mode 'rank'"):
        gym.make("tabletop/Unbroken-v0", reward="rank")


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"reward_modes": ("win", "elo")}, "'elo' is not one of"),
        ({"reward_modes": ("win", "win")}, "names a mode twice"),
        ({"reward_modes": ("score",)}, "lacks 'win'"),
        ({"reward_modes": ["win"]}, "expected a tuple of mode names"),
        ({"reward_modes": ("win", "rank")}, "'rank' needs seats to rank, but spec_toy is one seat"),
        (
            {"reward_modes": ("win", "rank"), "num_players": 2, "max_players": 2, "utility": "cooperative"},
            "'rank' needs seats to rank, but spec_toy is a cooperative game",
        ),
    ],
)
def test_game_spec_refuses_bad_reward_modes(changes: dict[str, Any], message: str) -> None:
    """GameSpec names `reward_modes` and the problem: an unknown or repeated mode, no "win", a rank with no order."""
    with pytest.raises(ValueError, match=f"GameSpec.reward_modes: .*{re.escape(message)}"):
        GameSpec(**{"name": "spec_toy", "num_players": 1, "num_actions": 2, "max_game_length": 5, **changes})


def test_game_spec_accepts_rank_with_seats_to_rank() -> None:
    """A competitive game of two or more seats may declare every mode; the default is "win" alone."""
    spec = GameSpec("spec_toy", 2, 2, 5, max_players=2, utility="zero_sum", reward_modes=REWARD_MODES)
    assert spec.reward_modes == REWARD_MODES
    assert GameSpec("spec_toy", 1, 2, 5).reward_modes == ("win",)
