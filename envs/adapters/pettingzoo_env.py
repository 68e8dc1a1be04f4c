"""One generic PettingZoo AEC env over any rules-core Game, with PettingZoo classic's contract.

Creation: a game's `<game>_v0.py` is a few lines, `env, raw_env = make_env_module(MyGame, "my_game_v0")`;
`env(**kwargs)` is wrapped as the classic envs are (TerminateIllegalWrapper, AssertOutOfBoundsWrapper,
OrderEnforcingWrapper), `raw_env(**kwargs)` is the bare `TabletopAECEnv`. Keyword arguments the adapter does not
take (`num_players=3`, a game setting) go to the game factory.

Agents: `player_0 .. player_{n-1}`, seat i is `player_i`. `agent_selection` is always the seat the rules say acts
next (`state.current_player()`), so a decision that falls out of turn (a trick's winner choosing, a reaction)
is simply that seat acting; chance nodes are sampled inside `reset`/`step` from the generator seeded by
`reset(seed=...)` and never appear as an agent.

Observation of each agent: `{"observation": Box(float32), "action_mask": Box(0, 1, (N,), int8)}` from that seat's
own observer (hidden information stays hidden). The mask is the legal actions for the agent to act and all zero
for every other agent (as in the classic envs) and at the end. Action space: `Discrete(N)`, the game's ids.

Rewards: 0 while the game runs. When it ends every seat receives its final reward at once, in the same step
(the loser's -1 included), by `reward=`: "win" (`State.returns()`: +1 win, -1 loss, 0 otherwise), "rank"
(tie-aware rank in [-1, 1], `rank_returns`), "score" (the game's score); then every agent is terminated and its
`info` holds `State.episode_info(seat)` (`won`, `score`, the game's own facts). Every agent must then step `None`
once, as PettingZoo's AEC loop does.

Illegal actions: `illegal_action="raise"` (raw_env's default) raises IllegalActionError naming the action and the
legal ones. `"penalize"` ends the game for everyone: the offender gets -1 and every other seat 0 (cooperative
games included), and the offender's info has `illegal_action`. `env()` defaults to `"penalize"` and then wraps
with PettingZoo's TerminateIllegalWrapper, which gives the same rewards before the action reaches the env;
`env(illegal_action="raise")` leaves that wrapper out, so the explicit kwarg holds. An id outside the action space
raises IllegalActionError from both (never PettingZoo's bare AssertionError), and `step`/`last` with no game in
play (before reset, or after every agent stepped None) raise NoGameError.

An action that is no action id (4.7, "4", True, a list: `envs.adapters.driver.action_index`) raises TypeError from
`raw_env()` and `env()` alike (env()'s outer `ActionTypeWrapper` checks it before PettingZoo's wrappers read it);
a done agent's `None` is no action and passes.

Truncation: with `max_decisions=k` every agent is truncated (reward 0) after k decisions if the game goes on.
Render: `render_mode="ansi"` returns the public view's text (`game.observer(None)`); `render_mode="rgb_array"`
returns the game's picture, an HxWx3 uint8 array drawn by the function the game's record names (`GameRecord.picture`)
or by the `rgb_renderer` the module passes (`make_env_module(..., rgb_renderer=...)`); an env without either offers
"ansi" only (`metadata["render_modes"]`).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from envs.adapters.driver import (
    ILLEGAL_ACTION_PENALTY,
    GameDriver,
    ReplayViews,
    action_index,
    warn_unknown_reset_options,
)
from envs.adapters.gym_env import record_picture
from envs.adapters.spaces import observation_space
from envs.core.game import TERMINAL, Game, IllegalActionError, State
from envs.core.keywords import check_keywords, keywords_of
from envs.core.registration import ENV_NAMESPACE

AGENT_PREFIX = "player_"
"""Agent names are AGENT_PREFIX + seat index, as in PettingZoo classic."""
ADAPTER_KWARGS = ("reward", "illegal_action", "render_mode", "max_decisions")
"""Keyword arguments raw_env()/env() keep for the adapter; every other one goes to the game factory."""


class NoGameError(RuntimeError):
    """`step` or `last` with no game in play: before the first reset, or after every agent stepped None at the end."""

    def __init__(self, name: str, started: bool) -> None:
        when = "the game is over and every agent has stepped None" if started else "no game has started"
        super().__init__(f"{name}: {when}; call reset() to play")


def agent_name(seat: int) -> str:
    """The agent name of seat `seat` (player_0, player_1, ...)."""
    return f"{AGENT_PREFIX}{seat}"


class TabletopAECEnv(ReplayViews, AECEnv):
    """PettingZoo AEC env over any Game: seat-own masked observations, seeded chance, final rewards for all."""

    metadata: dict[str, Any] = {
        "render_modes": ["ansi", "rgb_array"],
        "name": "tabletop_v0",
        "is_parallelizable": False,
        "render_fps": 4,
    }

    def __init__(
        self,
        game: Game,
        reward: str = "win",
        illegal_action: str = "raise",
        render_mode: str | None = None,
        max_decisions: int | None = None,
        name: str | None = None,
        rgb_renderer: Callable[[State], np.ndarray] | None = None,
    ) -> None:
        super().__init__()
        # The modes this env offers: a picture only from a game that has a renderer.
        modes = [mode for mode in self.metadata["render_modes"] if mode != "rgb_array" or rgb_renderer is not None]
        if render_mode is not None and render_mode not in modes:
            missing = f" ({game.spec.name} has no rgb_array renderer)" if render_mode == "rgb_array" else ""
            raise ValueError(f"render_mode must be one of {modes}, got {render_mode!r}{missing}")
        if max_decisions is not None and (type(max_decisions) is not int or max_decisions < 1):
            raise ValueError(f"max_decisions must be a positive int or None, got {max_decisions!r}")
        self._driver = GameDriver(game, reward=reward, illegal_action=illegal_action)
        self.game = game
        self.render_mode = render_mode
        self.max_decisions = max_decisions
        self._rgb_renderer = rgb_renderer
        self.metadata = {
            **self.metadata,
            "name": name or f"{game.spec.name}_v{game.spec.version}",
            "render_modes": modes,
        }
        n = game.spec.num_players
        self.possible_agents = [agent_name(seat) for seat in range(n)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._observers = [game.observer(seat) for seat in range(n)]
        self._public = game.observer(None)
        num_actions = game.spec.num_actions
        self.observation_spaces = {
            agent: observation_space(observer, num_actions)
            for agent, observer in zip(self.possible_agents, self._observers, strict=True)
        }
        self.action_spaces: dict[str, spaces.Space] = {
            agent: spaces.Discrete(num_actions) for agent in self.possible_agents
        }
        self._no_mask = np.zeros(num_actions, dtype=np.int8)
        self.agents: list[str] = []

    # ----------------------------------------------------------------- spaces
    def observation_space(self, agent: str) -> spaces.Space:
        """The agent's observation space (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """The agent's action space (the same object every call)."""
        return self.action_spaces[agent]

    @property
    def game_state(self) -> State | None:
        """The rules-core state being played (None before the first reset); search agents read it.

        Not `state`: PettingZoo's `AECEnv.state()` is the global-observation method.
        """
        return self._driver.state

    # -------------------------------------------------------------- AEC loop
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; `options={"state": dict}` starts from a given state instead of setup (another key is
        warned about and ignored: `envs.adapters.driver.warn_unknown_reset_options` says why not refused)."""
        start = warn_unknown_reset_options(self.game, options)
        driver = self._driver
        driver.seed(seed)
        driver.reset(start)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self.possible_agents[0]
        self._after_move(acting=None)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """Seat `agent`'s own view and, if it is to act, its legal-action mask (else all zero)."""
        driver = self._driver
        seat = self._seat[agent]
        mask = driver.mask if driver.current_player() == seat else self._no_mask.copy()
        return {"observation": self._observers[seat].tensor(driver.live_state()), "action_mask": mask}

    def step(self, action: Any) -> None:
        """Apply the selected agent's decision (None once it is terminated), then hand the turn on."""
        if not self.agents:
            raise self.no_game_error()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        action = action_index(action, self._driver.num_actions)  # before any change; a done agent's None is above
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._driver.step(action)  # raises under "raise"; ends the game under "penalize"
        self._after_move(acting=agent)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The selected agent's observation, reward, termination, truncation and info (PettingZoo's `last`)."""
        if not self.agents:
            raise self.no_game_error()
        return super().last(observe)

    def no_game_error(self) -> NoGameError:
        """The error for a call that needs a game in play when there is none."""
        return NoGameError(self.metadata["name"], started=self._driver.state is not None)

    def illegal_action_error(self, action: int) -> IllegalActionError:
        """The IllegalActionError for `action` in the current state: it names the action and the legal ones."""
        return self._driver.illegal_action_error(action)

    def _after_move(self, acting: str | None) -> None:
        """Select the seat to act, or finish the game: rewards, terminations and infos for every seat."""
        driver = self._driver
        player = driver.current_player()
        if player != TERMINAL:
            if driver.truncated(self.max_decisions):
                self.truncations = dict.fromkeys(self.agents, True)
            else:
                self.agent_selection = self.possible_agents[player]
            self._accumulate_rewards()
            return
        for agent, reward in zip(self.possible_agents, driver.rewards(), strict=True):
            self.rewards[agent] = reward
        self.terminations = dict.fromkeys(self.agents, True)
        self.infos = {agent: driver.episode_info(self._seat[agent]) for agent in self.agents}
        if driver.offender is not None:  # only the offender's info names the illegal action
            for agent in self.agents:
                if self._seat[agent] != driver.offender:
                    for key in ("illegal_action", "offender"):
                        self.infos[agent].pop(key, None)
        if acting is not None:
            self.agent_selection = acting  # the last mover reads its final reward first, then the others
        self._accumulate_rewards()

    # ----------------------------------------------------------------- views
    def render(self) -> str | np.ndarray | None:
        """'ansi': the public view's text; 'rgb_array': the game's picture (HxWx3 uint8)."""
        state = self._driver.state
        if state is None:
            return None
        if self.render_mode == "ansi":
            return self._public.text(state)
        if self.render_mode == "rgb_array" and self._rgb_renderer is not None:
            return self._rgb_renderer(state)
        return None

    def close(self) -> None:
        """Nothing to release (no window)."""


def _bare_attribute(name: str, before_reset: bool = True) -> property:
    """A property that reads and writes attribute `name` of the bare env (`self._bare`) directly; with
    `before_reset=False` reading it before the first reset raises AttributeError, as OrderEnforcingWrapper does."""

    read = operator.attrgetter(f"_bare.{name}")  # C-level: no Python frame on the hot path

    def read_after_reset(self: DirectAttributes) -> Any:
        if not self.__dict__["_has_reset"]:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self._bare, name)

    def write(self: DirectAttributes, value: Any) -> None:
        setattr(self._bare, name, value)

    return property(read if before_reset else read_after_reset, write, doc=f"The bare env's `{name}`.")


class DirectAttributes(wrappers.BaseWrapper):
    """A wrapper that reads the attributes the AEC loop (`agent_iter`, `last`) and the wrappers use on every step
    (`agent_selection`, `agents`, `terminations`, ...) and the action space straight from the bare env.

    PettingZoo's BaseWrapper finds them through `__getattr__`, one failed lookup per wrapper on every read: with four
    wrappers that was most of the time of a step of a fast game. No wrapper here holds its own copy of them, so the
    bare env's values are the ones PettingZoo's lookup would find.
    """

    def __init__(self, env: AECEnv, *args: Any, **kwargs: Any) -> None:
        super().__init__(env, *args, **kwargs)
        self._bare: AECEnv = env.unwrapped

    def action_space(self, agent: str) -> spaces.Space:
        """The agent's action space (the bare env's object)."""
        return self._bare.action_space(agent)

    agent_selection = _bare_attribute("agent_selection")
    agents = _bare_attribute("agents")
    terminations = _bare_attribute("terminations")
    truncations = _bare_attribute("truncations")
    rewards = _bare_attribute("rewards")
    infos = _bare_attribute("infos")
    _cumulative_rewards = _bare_attribute("_cumulative_rewards")


class TerminateIllegalWrapper(DirectAttributes, wrappers.TerminateIllegalWrapper):
    """PettingZoo's TerminateIllegalWrapper, reading the AEC loop's attributes directly (`DirectAttributes`)."""


class AssertOutOfBoundsWrapper(DirectAttributes, wrappers.AssertOutOfBoundsWrapper):
    """PettingZoo's AssertOutOfBoundsWrapper, reading the AEC loop's attributes directly (`DirectAttributes`)."""

    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._action_ids: dict[str, range] = {}
        """Per agent with a Discrete action space, the ids it contains."""
        for agent in self._bare.possible_agents:
            space = self._bare.action_space(agent)
            if isinstance(space, spaces.Discrete):
                start = int(space.start)
                self._action_ids[agent] = range(start, start + int(space.n))

    def step(self, action: Any) -> None:
        """Step a Python int in the agent's Discrete space at once (`contains` accepts it); else as PettingZoo's."""
        ids = self._action_ids.get(self._bare.agent_selection)
        if type(action) is int and ids is not None and action in ids:
            self.env.step(action)
        else:
            super().step(action)


class OrderEnforcingWrapper(DirectAttributes, wrappers.OrderEnforcingWrapper):
    """PettingZoo's OrderEnforcingWrapper, reading the AEC loop's attributes directly (`DirectAttributes`); as
    PettingZoo's, it refuses them (AttributeError) before the first reset."""

    agent_selection = _bare_attribute("agent_selection", before_reset=False)
    agents = _bare_attribute("agents", before_reset=False)
    terminations = _bare_attribute("terminations", before_reset=False)
    truncations = _bare_attribute("truncations", before_reset=False)
    rewards = _bare_attribute("rewards", before_reset=False)
    infos = _bare_attribute("infos", before_reset=False)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The bare env's `last`: NoGameError once every agent has stepped None (PettingZoo's gives a KeyError)."""
        if self.__dict__["_has_reset"] and not self._bare.agents:
            raise self._bare.no_game_error()
        return super().last(observe)

    def __str__(self) -> str:
        return str(self.env)


class ActionTypeWrapper(DirectAttributes):
    """Refuses an action that is no action id (TypeError, `action_index`) or lies outside the action space
    (IllegalActionError naming it and the legal actions) before the wrappers inside read it."""

    def step(self, action: Any) -> None:
        """Check the action of an agent still in the game (a done agent steps None), then step the env inside."""
        bare = self._bare
        if not bare.agents:
            raise bare.no_game_error()
        agent = bare.agent_selection
        if not (bare.terminations[agent] or bare.truncations[agent]):
            num_actions = bare.game.spec.num_actions
            action = action_index(action, num_actions)
            if not 0 <= action < num_actions:  # PettingZoo's bounds check would assert, or overflow a C long
                raise bare.illegal_action_error(action)
        self.env.step(action)


def make_env_module(
    game_factory: Callable[..., Game],
    name: str,
    rgb_renderer: Callable[[State], np.ndarray] | None = None,
) -> tuple[Callable[..., AECEnv], Callable[..., TabletopAECEnv]]:
    """The `env` and `raw_env` functions of a game's `<name>.py` module (PettingZoo classic's pair).

    `raw_env(reward=, illegal_action=, render_mode=, max_decisions=, **game_kwargs)` builds the bare env;
    `env(...)` wraps it as the classic envs are. `render_mode="rgb_array"` draws with `rgb_renderer` (state -> HxWx3
    uint8 picture), by default the picture the game's record names (`GameRecord.picture` of `tabletop/<name>`).
    """

    game_keywords = keywords_of(game_factory)

    def raw_env(**kwargs: Any) -> TabletopAECEnv:
        """The bare AEC env; adapter keywords as TabletopAECEnv, the rest to the game."""
        if game_keywords is not None:  # a misspelled keyword is named with the valid ones, the adapter's included
            check_keywords(name, kwargs, (*game_keywords, *ADAPTER_KWARGS))
        adapter = {key: kwargs.pop(key) for key in ADAPTER_KWARGS if key in kwargs}
        renderer = rgb_renderer or record_picture(f"{ENV_NAMESPACE}/{name}", adapter.get("render_mode"))
        return TabletopAECEnv(game_factory(**kwargs), name=name, rgb_renderer=renderer, **adapter)

    def env(**kwargs: Any) -> AECEnv:
        """The AEC env wrapped as PettingZoo classic does: by default (`illegal_action="penalize"`) an illegal move
        ends the game with -1 for the offender; `illegal_action="raise"` raises IllegalActionError instead."""
        kwargs.setdefault("illegal_action", "penalize")
        wrapped: AECEnv = raw_env(**kwargs)
        if kwargs["illegal_action"] == "penalize":
            wrapped = TerminateIllegalWrapper(wrapped, illegal_reward=ILLEGAL_ACTION_PENALTY)
        wrapped = AssertOutOfBoundsWrapper(wrapped)
        wrapped = ActionTypeWrapper(wrapped)
        return OrderEnforcingWrapper(wrapped)

    raw_env.__qualname__ = raw_env.__name__
    env.__qualname__ = env.__name__
    return env, raw_env
