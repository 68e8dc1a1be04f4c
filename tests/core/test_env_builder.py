"""The Gymnasium entry-point builder (`envs.adapters.gym_env.make_gym_env`) on the Summit toy: the keywords split
between the game and the adapter, a misspelled one refused naming the valid ones, the signature the docs read, and
the `rgb_array` picture taken from the game's registration record, imported only when wanted."""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any

import numpy as np
import pytest

from envs.adapters import gym_env
from envs.adapters.gym_env import RecordPicture, TabletopEnv, make_gym_env
from envs.adapters.opponents import OpponentEnv, RandomPolicy
from envs.core.registration import GameRecord, game_record_of_env_id
from tests.toys.summit import ENV_ID, SummitGame, SummitHeuristic, render_rgb

ADAPTER_DEFAULTS = {"reward": "win", "illegal_action": "raise", "flat": False, "render_mode": None}


def defaults(function: Any) -> dict[str, Any]:
    """Each parameter of `function`'s signature with its default, in order."""
    return {name: parameter.default for name, parameter in inspect.signature(function).parameters.items()}


def test_the_signature_lists_the_games_keywords_then_the_adapters() -> None:
    """The game class's keywords with their defaults, then the adapter's (not the game itself nor its renderer), all
    keyword-only: what `inspect.signature`, the docs' kwargs tables and autodoc read."""
    make_env = make_gym_env(SummitGame, ENV_ID)
    assert defaults(make_env) == {"num_players": 1, **ADAPTER_DEFAULTS}
    kinds = {parameter.kind for parameter in inspect.signature(make_env).parameters.values()}
    assert kinds == {inspect.Parameter.KEYWORD_ONLY}
    assert make_env.__name__ == "make_env" and ENV_ID in (make_env.__doc__ or "")
    opponent_env = make_gym_env(SummitGame, ENV_ID, adapter=OpponentEnv)
    assert defaults(opponent_env) == {
        "num_players": 1,
        "opponents": None,
        "weights": None,
        "learner_seats": "rotate",
        "env_index": 0,
        **ADAPTER_DEFAULTS,
    }
    assert defaults(make_gym_env(SummitGame, ENV_ID, leave_out=("num_players",))) == ADAPTER_DEFAULTS


def test_keywords_go_to_the_game_and_to_the_adapter() -> None:
    """`num_players` builds the game, `learner_seats`, `opponents` and `flat` the opponent env around it."""
    make_env = make_gym_env(SummitGame, ENV_ID, adapter=OpponentEnv)
    heuristic = SummitHeuristic(SummitGame(num_players=3))
    env = make_env(num_players=3, opponents=[heuristic], learner_seats=1, flat=True, reward="score")
    assert isinstance(env, OpponentEnv)
    assert env.game.spec.num_players == 3
    assert env.policies == [heuristic] and env.learner_seats == 1 and env.flat and env.reward_mode == "score"
    default = make_env(num_players=2)
    assert [type(policy) for policy in default.policies] == [RandomPolicy]  # the default pool: one random policy
    solo = make_gym_env(SummitGame, ENV_ID)(illegal_action="penalize")
    assert isinstance(solo, TabletopEnv) and solo.illegal_action == "penalize" and solo.game.spec.num_players == 1


@pytest.mark.parametrize(
    ("keyword", "hint"), [("flatt", " (did you mean 'flat'?)"), ("num_player", " (did you mean 'num_players'?)")]
)
def test_a_misspelled_keyword_is_refused_naming_the_valid_ones(keyword: str, hint: str) -> None:
    """An adapter's or the game's keyword misspelled: TypeError naming it, the one meant and every valid one."""
    make_env = make_gym_env(SummitGame, ENV_ID)
    with pytest.raises(TypeError) as refused:
        make_env(**{keyword: 1})
    assert str(refused.value) == (
        f"{keyword!r} is not a valid keyword argument of {ENV_ID}{hint}; valid keywords: "
        "[num_players, reward, illegal_action, flat, render_mode]"
    )


def test_a_left_out_game_keyword_is_refused() -> None:
    """A keyword in `leave_out` (content only Python passes to the game class) is no keyword of the env."""
    with pytest.raises(TypeError, match="'num_players' is not a valid keyword argument of tabletop/Summit-v0"):
        make_gym_env(SummitGame, ENV_ID, leave_out=("num_players",))(num_players=1)


def test_rgb_array_draws_the_records_picture() -> None:
    """`render_mode="rgb_array"` renders with the function the game's record names (`GameRecord.picture`)."""
    assert game_record_of_env_id(ENV_ID).picture == "tests.toys.summit:render_rgb"
    env = make_gym_env(SummitGame, ENV_ID)(render_mode="rgb_array")
    env.reset(seed=3)
    assert env.state is not None
    picture = env.render()
    assert picture.dtype == np.uint8 and np.array_equal(picture, render_rgb(env.state))


def record_with_picture(monkeypatch: pytest.MonkeyPatch, picture: str | None) -> None:
    """Summit's record as the builder reads it, with another picture target."""
    record: GameRecord = dataclasses.replace(game_record_of_env_id(ENV_ID), picture=picture)
    monkeypatch.setattr(gym_env, "game_record_of_env_id", lambda env_id: record)


def test_the_picture_is_imported_only_for_rgb_array(monkeypatch: pytest.MonkeyPatch) -> None:
    """An env made without `rgb_array` does not import the picture's module; with it, the import happens (and fails
    here, naming the module) when the env is made."""
    record_with_picture(monkeypatch, "tests.toys.no_such_picture_module:render_rgb")
    make_env = make_gym_env(SummitGame, ENV_ID)
    make_env(render_mode="ansi").close()
    make_env().close()
    with pytest.raises(ModuleNotFoundError, match="no_such_picture_module"):
        make_env(render_mode="rgb_array")


def test_a_record_without_a_picture_offers_no_rgb_array(monkeypatch: pytest.MonkeyPatch) -> None:
    """No picture in the record: TabletopEnv says so at render, the opponent env refuses the mode when made."""
    record_with_picture(monkeypatch, None)
    env = make_gym_env(SummitGame, ENV_ID)(render_mode="rgb_array")
    env.reset(seed=0)
    with pytest.raises(NotImplementedError, match="summit has no rgb_array renderer"):
        env.render()
    with pytest.raises(ValueError, match=r"render_mode must be one of \['ansi'\]"):
        make_gym_env(SummitGame, ENV_ID, adapter=OpponentEnv)(num_players=2, render_mode="rgb_array")


def test_record_picture_imports_at_first_use() -> None:
    """RecordPicture names its target and imports it only when drawing (or loading) first."""
    lazy = RecordPicture("tests.toys.no_such_picture_module:render_rgb")
    with pytest.raises(ModuleNotFoundError):
        lazy.load()
    state = SummitGame(num_players=1).new_initial_state()
    assert np.array_equal(RecordPicture("tests.toys.summit:render_rgb")(state), render_rgb(state))


def test_a_keyword_both_take_is_refused() -> None:
    """A game keyword that is also the adapter's (here `flat`) cannot be split: refused when the builder is made."""

    def flat_game(flat: bool = False) -> SummitGame:
        """A game factory with an adapter's keyword."""
        return SummitGame(num_players=1)

    with pytest.raises(ValueError, match=r"the game and the adapter both take the keywords \['flat'\]"):
        make_gym_env(flat_game, ENV_ID)
