"""One generic Gymnasium env over any solo rules-core Game (nothing game-specific here).

Observation: Dict{"observation": Box(float32), "action_mask": Box(0, 1, (N,), int8)}, or with `flat=True` the
float Box alone (read the mask from `env.action_masks()` or `info["action_mask"]`). Chance nodes are sampled
inside `reset`/`step` from the generator seeded by `reset(seed=...)`, so the agent only sees its own decisions.
At a terminal step the action mask is all zeros (no action is legal after the game ends).

Creation: a game's `env.py` is a few lines, `make_env = make_gym_env(MyGame, "tabletop/MyGame-v0")` (the Gymnasium
counterpart of `pettingzoo_env.make_env_module`); `make_env(**kwargs)` gives the game's keywords to the game and the
adapter's to the adapter (TabletopEnv, or OpponentEnv for a multi-player game), and draws `rgb_array` pictures with
the function the game's registration record names (`GameRecord.picture`).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from envs.adapters.driver import (
    ILLEGAL_ACTION_MODES,
    ILLEGAL_ACTION_PENALTY,
    GameDriver,
    ReplayViews,
    action_index,
    require_bool,
    reset_start_state,
)
from envs.adapters.spaces import observation_space
from envs.core.game import Game, State
from envs.core.keywords import check_keywords
from envs.core.registration import UnknownGameError, game_record_of_env_id, load_attribute

__all__ = ["ILLEGAL_ACTION_MODES", "ILLEGAL_ACTION_PENALTY", "RecordPicture", "TabletopEnv", "make_gym_env"]


class TabletopEnv(ReplayViews, gym.Env):
    """Gymnasium env for a single-player Game: masked Discrete actions, seeded chance, no hidden info leaks."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}

    def __init__(
        self,
        game: Game,
        reward: str = "win",
        illegal_action: str = "raise",
        flat: bool = False,
        render_mode: str | None = None,
        rgb_renderer: Callable[[State], np.ndarray] | None = None,
    ) -> None:
        if game.spec.num_players != 1:
            raise ValueError(f"{game.spec.name} has {game.spec.num_players} players; use the PettingZoo adapter")
        self._driver = GameDriver(game, reward=reward, illegal_action=illegal_action)
        flat = require_bool("flat", flat)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.game = game
        self.reward_mode = reward
        self.illegal_action = illegal_action
        self.flat = flat
        self.render_mode = render_mode
        self._rgb_renderer = rgb_renderer
        self.observer = game.observer(0)
        n = game.spec.num_actions
        self.action_space = spaces.Discrete(n)
        self.observation_space: spaces.Space = observation_space(self.observer, n, flat)

    @property
    def state(self) -> State | None:
        """The rules-core state being played (None before the first reset); search agents read it."""
        return self._driver.state

    # -------------------------------------------------------------- core loop
    def _observation(self) -> Any:
        tensor = self.observer.tensor(self._driver.live_state())
        if self.flat:
            return tensor
        return {"observation": tensor, "action_mask": self._driver.mask}

    def _info(self) -> dict[str, Any]:
        driver = self._driver
        info: dict[str, Any] = {"action_mask": driver.mask}
        if driver.live_state().is_terminal():
            info.update(driver.episode_info(0))
        return info

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Start a new game; `options={"state": dict}` starts from a given state instead of setup (another key is a
        ValueError naming it)."""
        start = reset_start_state(self.game, options)  # before anything changes: a refused reset changes nothing
        super().reset(seed=seed)
        driver = self._driver
        driver.rng = self.np_random  # chance is sampled from the generator Gymnasium seeded
        driver.reset(start)
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Apply one decision, sample the chance nodes that follow, return the usual five values."""
        driver = self._driver
        action = action_index(action, driver.num_actions)  # TypeError for 4.7, "4", None, True, a list
        if not driver.step(action):  # illegal under "penalize" ("raise" raised): the episode ends
            info: dict[str, Any] = {"action_mask": driver.mask, "illegal_action": action}
            return self._observation(), ILLEGAL_ACTION_PENALTY, True, False, info
        terminated = driver.live_state().is_terminal()
        reward = driver.rewards()[0] if terminated else 0.0
        return self._observation(), reward, terminated, False, self._info()

    def action_masks(self) -> np.ndarray:
        """Boolean mask of legal actions (MaskablePPO reads it from the env)."""
        return self._driver.mask.astype(bool)

    def render(self) -> Any:
        """'ansi': a text table of the visible state; 'rgb_array': a picture of the display."""
        if self.state is None:
            return None
        if self.render_mode == "ansi":
            return self.observer.text(self.state)
        if self.render_mode == "rgb_array":
            if self._rgb_renderer is None:
                raise NotImplementedError(f"{self.game.spec.name} has no rgb_array renderer")
            return self._rgb_renderer(self.state)
        return None


class RecordPicture:
    """The picture function a game's registration record names ("module:function"), imported at its first use, so
    that an env made without `render_mode="rgb_array"` imports no drawing code."""

    def __init__(self, target: str) -> None:
        self.target = target
        self._draw: Callable[[State], np.ndarray] | None = None

    def load(self) -> Callable[[State], np.ndarray]:
        """The picture function, imported now if it was not yet."""
        if self._draw is None:
            self._draw = load_attribute(self.target)
        return self._draw

    def __call__(self, state: State) -> np.ndarray:
        """The picture of `state`: an HxWx3 uint8 array."""
        return self.load()(state)


RENDERER_KEYWORD = "rgb_renderer"
"""The adapter's keyword for the picture function: the builder passes it, an env's caller does not."""


def make_gym_env(
    game_factory: Callable[..., Game],
    env_id: str,
    adapter: Callable[..., gym.Env] = TabletopEnv,
    leave_out: Iterable[str] = (),
) -> Callable[..., gym.Env]:
    """The `make_env(**kwargs)` entry point of Gymnasium id `env_id`: `game_factory` (a Game class or function) builds
    the game, `adapter(game, **adapter_kwargs, rgb_renderer=...)` the env.

    The keywords are the game factory's (but those in `leave_out`, which only Python code passes to the game class,
    such as content already loaded), then the adapter's (its keyword parameters after the game, but the renderer),
    each with its default: `inspect.signature(make_env)` shows them, and a misspelled one raises `check_keywords`'s
    TypeError naming it and the valid ones. The picture for `render_mode="rgb_array"` is the record's
    `GameRecord.picture`, imported when the env is made with that mode or at its first picture.
    """
    game_parameters = _keyword_parameters(game_factory, skip=0, leave_out=frozenset(leave_out))
    adapter_parameters = _keyword_parameters(adapter, skip=1, leave_out=frozenset({RENDERER_KEYWORD}))
    game_keywords = tuple(parameter.name for parameter in game_parameters)
    adapter_keywords = tuple(parameter.name for parameter in adapter_parameters)
    shared = sorted(set(game_keywords) & set(adapter_keywords))
    if shared:
        raise ValueError(f"{env_id}: the game and the adapter both take the keywords {shared}")
    valid = (*game_keywords, *adapter_keywords)
    allowed = frozenset(valid)
    game_name = getattr(game_factory, "__name__", repr(game_factory))
    adapter_name = getattr(adapter, "__name__", repr(adapter))

    def make_env(**kwargs: Any) -> gym.Env:
        if not kwargs.keys() <= allowed:
            check_keywords(env_id, kwargs, valid)
        game = game_factory(**{key: kwargs[key] for key in game_keywords if key in kwargs})
        adapter_kwargs = {key: kwargs[key] for key in adapter_keywords if key in kwargs}
        return adapter(game, **adapter_kwargs, rgb_renderer=record_picture(env_id, adapter_kwargs.get("render_mode")))

    make_env.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [*game_parameters, *adapter_parameters], return_annotation=adapter_name
    )
    make_env.__name__ = make_env.__qualname__ = "make_env"
    make_env.__doc__ = (
        f"`{env_id}`: {game_name} under {adapter_name}; see its page on the documentation site for the kwargs and the "
        f"observation layout.\n\nThe game's keywords: {', '.join(game_keywords) or 'none'}; the adapter's: "
        f"{', '.join(adapter_keywords)}. A misspelled keyword raises TypeError naming it and listing the valid ones."
    )
    return make_env


def _keyword_parameters(function: Callable[..., Any], skip: int, leave_out: frozenset[str]) -> list[inspect.Parameter]:
    """The named parameters of `function` (a class: of its `__init__`) after its first `skip`, less `leave_out`, as
    keyword-only parameters; TypeError for one that takes `**kwargs` (its keywords could not be listed)."""
    parameters = list(inspect.signature(function).parameters.values())[skip:]
    if any(parameter.kind is inspect.Parameter.VAR_KEYWORD for parameter in parameters):
        raise TypeError(f"{function!r} takes **kwargs: an env builder needs its keywords named")
    named = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return [
        parameter.replace(kind=inspect.Parameter.KEYWORD_ONLY)
        for parameter in parameters
        if parameter.kind in named and parameter.name not in leave_out
    ]


def record_picture(env_id: str, render_mode: str | None) -> RecordPicture | None:
    """The picture function of the game that declares `env_id` (None if its record names none); imported now under
    `render_mode="rgb_array"`, so that a bad target fails when the env is made."""
    try:
        target = game_record_of_env_id(env_id).picture
    except UnknownGameError:  # a module imported before its package registered it: no record, no picture
        return None
    if target is None:
        return None
    picture = RecordPicture(target)
    if render_mode == "rgb_array":
        picture.load()
    return picture
