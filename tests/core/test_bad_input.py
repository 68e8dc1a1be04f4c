"""Bad input to the adapters fails clearly and loses nothing (issue "Unbroken as users meet it").

Actions: every adapter (Gymnasium, the opponent env, PettingZoo's raw_env() and env()) reads what it is handed through
`envs.adapters.driver.action_index`: a Python int, a numpy integer (stable-baselines3's vec envs) or a 0-d integer
array (MaskablePPO.predict on one observation) is an action id; a float (4.7 used to be played as 4), a string ("4"
used to be accepted), None, a bool, a list or an array raises TypeError naming the value, its type and what is
expected, under either illegal-action policy, and the game is exactly as before. Options: `flat` must be a bool, and
a misspelled keyword lists the valid ones (envs.core.keywords). The contract's queries name a bad argument in every
game (a chance outcome the node does not list, a chance query at a decision node, a seat the game does not have), and
`reset` refuses an option key it does not read.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest

from envs.adapters.driver import action_index, require_bool
from envs.adapters.gym_env import TabletopEnv
from envs.adapters.opponents import OpponentEnv
from envs.adapters.pettingzoo_env import TabletopAECEnv
from envs.core.game import Game, State
from envs.core.keywords import check_keywords, keyword_checked, keywords_of
from envs.core.registration import make_env_game, make_game, registered_games
from envs.toys.card_duel import CardDuelGame
from envs.toys.card_duel_v0 import env as card_duel_env
from envs.toys.card_duel_v0 import raw_env as card_duel_raw_env

NOT_ACTIONS: list[Any] = [
    4.7,
    4.0,
    "4",
    None,
    True,
    False,
    np.bool_(True),
    [4],
    (4,),
    np.array([4]),
    np.array(4.0),
    np.float32(4),
    {"action": 4},
]
"""Values that are no action id, though `int()` would turn most of them into one."""
NOT_ACTION_IDS = [repr(value) for value in NOT_ACTIONS]
ENV_IDS = sorted(
    env_id
    for record in registered_games().values()
    for env_id in record.gym_env_ids
    if make_env_game(env_id, {}).spec.num_players == 1  # by the seats: a solo id may sit beside a co-op module
)
"""Every registered solo game's Gymnasium id."""


def first_legal(mask: np.ndarray) -> int:
    """The lowest legal action id of a mask."""
    return int(np.flatnonzero(mask)[0])


def opponent_policy(observation: Any, action_mask: np.ndarray, state: Any, seat: int) -> int:
    """A deterministic opponent: the lowest legal action."""
    return first_legal(action_mask)


# ------------------------------------------------------------------------------------------------ the one check
@pytest.mark.parametrize("value", [3, np.int64(3), np.int32(3), np.uint8(3), np.array(3), np.array(3, dtype=np.int16)])
def test_integers_are_action_ids(value: Any) -> None:
    """Python ints, numpy integer scalars and 0-d integer arrays are action ids, as Python ints."""
    index = action_index(value, 10)
    assert index == 3 and type(index) is int


@pytest.mark.parametrize("value", NOT_ACTIONS, ids=NOT_ACTION_IDS)
def test_anything_else_is_a_type_error_naming_value_type_and_expectation(value: Any) -> None:
    """A float is not truncated, a string not parsed, a bool not counted as 1: each raises TypeError that names the
    value, its type and what an action is."""
    with pytest.raises(TypeError) as raised:
        action_index(value, 38)
    message = str(raised.value)
    assert message.startswith("an action must be an integer action id in 0..37 ")
    assert "a Python int, a numpy integer or a 0-d integer array" in message
    assert f"got {value!r}"[:20] in message
    assert f"({type(value).__name__}" in message or f"numpy.{type(value).__name__}" in message


def test_the_error_message_in_full() -> None:
    """The message users see for 4.7 and for a one-element array."""
    with pytest.raises(TypeError) as raised:
        action_index(4.7, 38)
    assert str(raised.value) == (
        "an action must be an integer action id in 0..37 (a Python int, a numpy integer or a 0-d integer array), "
        "got 4.7 (float)"
    )
    with pytest.raises(TypeError, match=r"got array\(\[4\]\) \(numpy.ndarray of int64, shape \(1,\)\)"):
        action_index(np.array([4]), 38)


# ------------------------------------------------------------------------------------------------ Gymnasium
@pytest.mark.parametrize("env_id", ENV_IDS)
@pytest.mark.parametrize("illegal_action", ["raise", "penalize"])
@pytest.mark.parametrize("value", NOT_ACTIONS, ids=NOT_ACTION_IDS)
def test_gymnasium_env_refuses_and_loses_nothing(env_id: str, value: Any, illegal_action: str) -> None:
    """The env raises TypeError (not a penalty, not a truncated move) and the game goes on unchanged."""
    env = gym.make(env_id, illegal_action=illegal_action)
    observation, _ = env.reset(seed=3)
    before = env.unwrapped.state.to_dict()  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="an action must be an integer action id"):
        env.step(value)
    assert env.unwrapped.state.to_dict() == before  # type: ignore[attr-defined]
    _, reward, terminated, _, info = env.step(first_legal(observation["action_mask"]))
    assert "illegal_action" not in info and reward == 0.0 and not terminated


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_gymnasium_env_used_to_play_4_point_7_as_4(env_id: str) -> None:
    """The reported bug: with 4 legal, step(4.7) played action 4 and step("4") too; now nothing is played."""
    env = TabletopEnv(gym.make(env_id).unwrapped.game)  # type: ignore[attr-defined]
    observation, _ = env.reset(seed=0)
    legal = int(np.flatnonzero(observation["action_mask"])[0])
    with pytest.raises(TypeError):
        env.step(legal + 0.7)
    with pytest.raises(TypeError):
        env.step(str(legal))
    assert env._driver.decisions == 0 and not any(player >= 0 for player, _ in env._driver.history)


@pytest.mark.parametrize("env_id", ENV_IDS)
@pytest.mark.parametrize("kind", ["numpy integer", "0-d array"])
def test_gymnasium_env_accepts_numpy_integers(env_id: str, kind: str) -> None:
    """np.int64 (what a vec env hands over) and a 0-d array (MaskablePPO.predict) play the same game as ints."""
    plain, numpy = gym.make(env_id), gym.make(env_id)
    observation, _ = plain.reset(seed=11)
    numpy.reset(seed=11)
    for _ in range(20):
        action = first_legal(observation["action_mask"])
        observation, _, terminated, _, _ = plain.step(action)
        other, _, _, _, _ = numpy.step(np.int64(action) if kind == "numpy integer" else np.array(action))
        assert np.array_equal(observation["observation"], other["observation"])
        if terminated:
            break


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_stable_baselines3_actions_reach_the_env(env_id: str) -> None:
    """MaskablePPO.predict's 0-d array and DummyVecEnv's per-env np.int64 are accepted (SB3 training keeps working)."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    env = gym.make(env_id, flat=True)
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=16, n_epochs=1, seed=0)
    model.learn(total_timesteps=16)  # DummyVecEnv steps the env with np.int64 actions
    observation, _ = env.reset(seed=0)
    action, _ = model.predict(observation, action_masks=env.unwrapped.action_masks(), deterministic=True)
    assert isinstance(action, np.ndarray) and action.shape == ()
    env.step(action)
    vec = DummyVecEnv([lambda: gym.make(env_id, flat=True)])
    vec.reset()
    vec.step(np.array([first_legal(vec.env_method("action_masks")[0])]))


@pytest.mark.parametrize("flat", ["yes", 1, 0, None, "False"])
def test_flat_must_be_a_bool(flat: Any) -> None:
    """`flat="yes"` used to be taken as true; now both env classes refuse anything but True/False."""
    with pytest.raises(TypeError, match=f"flat must be True or False, got {flat!r}"):
        TabletopEnv(gym.make(ENV_IDS[0]).unwrapped.game, flat=flat)  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match=f"flat must be True or False, got {flat!r}"):
        OpponentEnv(CardDuelGame(2), [opponent_policy], flat=flat)
    assert require_bool("flat", np.bool_(True)) is True


# ------------------------------------------------------------------------------------------------ opponent env
@pytest.mark.parametrize("value", NOT_ACTIONS, ids=NOT_ACTION_IDS)
def test_opponent_env_refuses_and_loses_nothing(value: Any) -> None:
    """The opponent env checks the learner's action the same way, before anything moves."""
    env = OpponentEnv(CardDuelGame(2), [opponent_policy], learner_seats=0, illegal_action="penalize")
    observation, _ = env.reset(seed=5)
    history = list(env._driver.history)
    with pytest.raises(TypeError, match="an action must be an integer action id"):
        env.step(value)
    assert env._driver.history == history
    env.step(np.int64(first_legal(observation["action_mask"])))
    assert len(env._driver.history) > len(history)


def test_opponent_env_refuses_an_opponent_policy_that_returns_a_float() -> None:
    """An opponent policy's float is a bug in the policy, named as such (it used to be truncated and played)."""

    def sloppy(observation: Any, action_mask: np.ndarray, state: Any, seat: int) -> float:
        return first_legal(action_mask) + 0.5

    env = OpponentEnv(CardDuelGame(2), [sloppy], learner_seats=1)  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"got \d+\.5 \(float\)"):
        env.reset(seed=0)


# ------------------------------------------------------------------------------------------------ PettingZoo
@pytest.mark.parametrize("wrapped", [False, True], ids=["raw_env", "env"])
@pytest.mark.parametrize("value", NOT_ACTIONS, ids=NOT_ACTION_IDS)
def test_pettingzoo_refuses_and_loses_nothing(value: Any, wrapped: bool) -> None:
    """raw_env() and the wrapped env() raise the same TypeError (env() used to fail on True inside PettingZoo's
    TerminateIllegalWrapper with a numpy truth-value error) and the game goes on."""
    aec = (card_duel_env if wrapped else card_duel_raw_env)(num_players=2)
    aec.reset(seed=2)
    agent = aec.agent_selection
    raw = aec.unwrapped
    assert isinstance(raw, TabletopAECEnv)
    history = list(raw._driver.history)
    with pytest.raises(TypeError, match="an action must be an integer action id"):
        aec.step(value)
    assert raw._driver.history == history and aec.agent_selection == agent
    aec.step(np.array(first_legal(aec.observe(agent)["action_mask"])))
    assert len(raw._driver.history) > len(history)


@pytest.mark.parametrize("wrapped", [False, True], ids=["raw_env", "env"])
def test_pettingzoo_done_agents_still_step_none(wrapped: bool) -> None:
    """A whole game with np.int64 actions; at the end every done agent steps None, as PettingZoo's loop does."""
    aec = (card_duel_env if wrapped else card_duel_raw_env)(num_players=3)
    aec.reset(seed=4)
    done = 0
    for _agent in aec.agent_iter(max_iter=1000):
        observation, _, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            done += 1
            aec.step(None)
        else:
            aec.step(np.int64(first_legal(observation["action_mask"])))
    assert done == 3 and not aec.agents


def test_pettingzoo_misspelled_keyword_lists_the_valid_ones() -> None:
    """A misspelled game or adapter keyword of raw_env()/env() names it, the likely one and every valid one."""
    with pytest.raises(TypeError) as raised:
        card_duel_raw_env(num_player=2)
    assert str(raised.value) == (
        "'num_player' is not a valid keyword argument of card_duel_v0 (did you mean 'num_players'?); valid keywords: "
        "[num_players, cooperative, reward, illegal_action, render_mode, max_decisions]"
    )
    with pytest.raises(TypeError, match="'ilegal_action' is not a valid keyword .*did you mean 'illegal_action'"):
        card_duel_env(num_players=2, ilegal_action="penalize")


@pytest.mark.parametrize("max_decisions", [0, -3, 2.5, "10", True])
def test_pettingzoo_max_decisions_is_a_positive_int(max_decisions: Any) -> None:
    """max_decisions must be a positive int (or None)."""
    with pytest.raises(ValueError, match="max_decisions must be a positive int or None"):
        TabletopAECEnv(CardDuelGame(2), max_decisions=max_decisions)


# ------------------------------------------------------------------------------------------------ keywords
def test_keyword_checked_names_the_keyword_and_lists_the_valid_ones() -> None:
    """The decorator keeps the signature and turns Python's bare 'unexpected keyword' into a listed choice."""

    @keyword_checked("toy_factory")
    def factory(size: int = 1, *, colour: str = "red") -> tuple[int, str]:
        return size, colour

    assert factory(size=2, colour="blue") == (2, "blue")
    assert keywords_of(factory) == ("size", "colour")
    with pytest.raises(TypeError) as raised:
        factory(colur="blue")  # type: ignore[call-arg]
    assert str(raised.value) == (
        "'colur' is not a valid keyword argument of toy_factory (did you mean 'colour'?); valid keywords: "
        "[size, colour]"
    )
    with pytest.raises(TypeError, match="'zzz' is not a valid keyword argument of toy; valid keywords: \\[a\\]$"):
        check_keywords("toy", ["a", "zzz"], ["a"])


def test_a_function_with_var_keywords_is_left_alone() -> None:
    """A factory that takes **kwargs accepts every name: nothing to check."""

    def factory(**kwargs: Any) -> dict[str, Any]:
        return kwargs

    assert keywords_of(factory) is None
    assert keyword_checked("toy")(factory) is factory


# ---------------------------------------------------------------------------------------- the contract's queries
GAMES = sorted(
    ((name, make_game(record, {})) for name, record in registered_games().items() if record.game is not None),
    key=lambda pair: pair[0],
)
"""One game of every registered record (the toys' included), at its default settings."""
GAME_IDS = [name for name, _ in GAMES]


def first_decision(game: Game, seed: int = 0) -> State:
    """The game's first position where a seat decides (the opening chance nodes sampled)."""
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    return state


OPENED_BY_CHANCE = [(name, game) for name, game in GAMES if game.new_initial_state().is_chance_node()]
"""The games whose setup is drawn (every game but a chance-free toy)."""


@pytest.mark.parametrize("game", [game for _, game in OPENED_BY_CHANCE], ids=[name for name, _ in OPENED_BY_CHANCE])
def test_a_chance_outcome_the_node_does_not_list_is_named(game: Game) -> None:
    """`chance_label(999)` (and `chance_label_for`) at a chance node is a ValueError naming the outcome and the node's
    outcomes, in every game (it was an IndexError from deep in each game); the listed outcomes keep their labels."""
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = [outcome for outcome, _ in state.chance_outcomes()]
    assert all(state.chance_label(outcome) for outcome in outcomes)
    for query in (
        lambda: state.chance_label(999),
        lambda: state.chance_label_for(999, 0),
        lambda: state.chance_label(-1),
    ):
        with pytest.raises(
            ValueError, match=r"chance_label(_for)?\((999|-1)\): not an outcome of this chance node of"
        ) as e:
            query()
        assert f"its outcomes are [{outcomes[0]}, " in str(e.value) or len(outcomes) == 1


@pytest.mark.parametrize("game", [game for _, game in GAMES], ids=GAME_IDS)
def test_chance_queries_at_a_decision_node_say_so(game: Game) -> None:
    """`sample_chance` and `chance_label` where a seat decides are a ValueError saying which seat is to decide (it was
    an IndexError, and Unbroken drew a die face for a decision node without a word); the generator is untouched."""
    state = first_decision(game)
    seat = state.current_player()
    rng = np.random.default_rng(1)
    before = rng.bit_generator.state
    with pytest.raises(ValueError, match=rf"^sample_chance: {game.spec.name} is not at a chance node \(seat {seat} is"):
        state.sample_chance(rng)
    assert rng.bit_generator.state == before
    with pytest.raises(ValueError, match=rf"^chance_label\(0\): {game.spec.name} is not at a chance node"):
        state.chance_label(0)


@pytest.mark.parametrize("game", [game for _, game in GAMES], ids=GAME_IDS)
@pytest.mark.parametrize("seat", [99, -1, True, 0.0, "0"])
def test_a_seat_the_game_does_not_have_is_named(game: Game, seat: Any) -> None:
    """`observer(seat)` and `resample_hidden(seat, rng)` refuse a seat the game does not have, naming it and the
    seats (Unstoppable built an observer for seat 99 and redealt for it; Unearth too, or raised IndexError)."""
    state = first_decision(game)
    with pytest.raises(ValueError, match=rf"^observer\({seat!r}\): seat {seat!r} does not exist; {game.spec.name} has"):
        game.observer(seat)
    with pytest.raises(ValueError, match=rf"^resample_hidden\({seat!r}, \.\.\.\): seat {seat!r} does not exist"):
        state.resample_hidden(seat, np.random.default_rng(0))
    game.observer(None)  # the public view
    game.observer(np.int64(0))  # a numpy integer is a seat, as it is an action id
    assert state.resample_hidden(0, np.random.default_rng(0)).current_player() == state.current_player()


def test_unstoppable_refuses_a_card_directory_that_is_no_path() -> None:
    """`card_directory=5` names the argument (it failed inside pathlib), as the other games' do."""
    from envs.unstoppable.game import UnstoppableGame

    with pytest.raises(TypeError, match=r"^card_directory must be a path \(str or Path\), got 5 of type int$"):
        UnstoppableGame(card_directory=5)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------------ reset options
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_gymnasium_reset_refuses_an_unknown_option_and_changes_nothing(env_id: str) -> None:
    """`reset(options={"bogus": 1})` is a ValueError naming the key and the valid ones (it was ignored: a misspelt
    `stat` started from setup without a word); the game in play is untouched, and `state` still starts there."""
    env = gym.make(env_id)
    env.reset(seed=3)
    saved = env.unwrapped.state.to_dict()  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match=r"^reset options: unknown key 'bogus'; valid keys: state$"):
        env.reset(seed=4, options={"bogus": 1})
    with pytest.raises(ValueError, match=r"^reset options: unknown keys 'stat', 'x'; valid keys: state$"):
        env.reset(options={"stat": saved, "x": 2})
    with pytest.raises(ValueError, match=r"^reset options must be a dict or None, got 'state' \(str\)$"):
        env.reset(options="state")  # type: ignore[arg-type]
    assert env.unwrapped.state.to_dict() == saved  # type: ignore[attr-defined]
    env.reset(options={"state": saved})
    assert env.unwrapped.start_state == saved  # type: ignore[attr-defined]
    env.reset(options={})  # an empty mapping is no option (gymnasium's check_env passes one)
    env.close()


def test_the_opponent_env_refuses_an_unknown_reset_option() -> None:
    """The opponent env (a Gymnasium env over a multi-player game) refuses it too."""
    env = OpponentEnv(CardDuelGame(2), [opponent_policy], learner_seats=0)
    with pytest.raises(ValueError, match=r"^reset options: unknown key 'bogus'; valid keys: state$"):
        env.reset(seed=0, options={"bogus": 1})


@pytest.mark.parametrize("wrapped", [False, True], ids=["raw_env", "env"])
def test_pettingzoo_reset_warns_about_an_unknown_option(wrapped: bool) -> None:
    """PettingZoo's reset warns, naming the key and the valid ones, and ignores it: not refused, since PettingZoo's own
    api_test resets with `options={"options": 1}` to check the signature (an env must pass it)."""
    from envs.adapters.driver import UnknownResetOptionWarning

    env = (card_duel_env if wrapped else card_duel_raw_env)(num_players=2)
    with pytest.warns(UnknownResetOptionWarning, match=r"^reset options: unknown key 'bogus'; valid keys: state \("):
        env.reset(seed=0, options={"bogus": 1})
    assert env.agents
    with pytest.raises(ValueError, match="reset options must be a dict or None"):
        env.reset(options=["state"])  # type: ignore[arg-type]
