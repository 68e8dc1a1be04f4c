"""A multi-player Game as a single-agent Gymnasium env: the learner plays some seats, a pool of policies the rest.

Opponents are already-built policies, or one of two strings: `"random"` (RandomPolicy) and `"heuristic"` (the
heuristic the game's registration record names, imported from its "module:attribute" string only when asked for).
This module never imports `agents`, so `envs` keeps no torch import: the other agent specs (`mcts:N`, a model path,
`snapshot`) are built by the caller (the agents package's `make_agent`, or a config's `opponents` section) and refused
here naming the accepted forms. A policy is
either a callable `policy(observation, action_mask, state, seat) -> int` or an object with
`act(observation, action_mask, state=...) -> int` (the `agents` Agent protocol). If it has `reset(seed=...)`, it is
reseeded at every env reset from the env's generator. Each policy has a weight; every opponent seat draws its
policy independently with probability proportional to the weights. Opponents receive their own seat's observation
in the learner's format (Dict or flat), so a snapshot of the learner can serve as an opponent, and the live
`State` (read-only: a policy must not change it). A policy whose attribute `reads_observation` is False (random
play, a heuristic over the state's public queries) receives None instead: its observation is never built.

Seats (`learner_seats=`):

- `"rotate"`: episode k after the last seeded reset has the learner at seat `(env_index + k) % num_players`, so
  `n_envs >= num_players` vectorised envs with `env_index=i` cover every seat from the first episode.
- `"random"`: a uniform seat drawn from the env's generator.
- an int: that seat, always.
- `"all"`: the learner acts at every seat (no opponents; the pool may be empty). This is the natural view of a
  cooperative game: every seat has the same final reward, the team's result. In a competitive game it is plain
  self-play from one value stream: the final reward is that of the seat that made the last decision, which is
  rarely a sensible objective; read every seat's result from `info["seat_rewards"]`.

Determinism: `reset(seed=s)` reseeds the one generator that picks the seat (rotation restarts at `env_index`), the
opponents, the policies' seeds and every chance outcome, so an episode is a function of the seed (and, for
`reset()` without a seed, of the episodes since the last seeded reset) and of the learner's actions.

Steps: `reset` and `step` play the opponents' turns and chance nodes inside, until a learner seat must act or the
game ends. `info["seat"]` is the learner's seat (under "all", the seat to act, or the last one that acted at the
end) at every step; `info["action_mask"]` the mask. Rewards are 0 until the end; at the end the reward is the
learner's seat's `state.rewards(reward)` entry and `info` also holds `episode_info(seat)` and
`info["seat_rewards"]` (every seat's final reward). `info["opponents"]` (at reset) gives each seat's pool index
(None for learner seats).

Illegal actions: the learner's follow `illegal_action=` as in the Gymnasium adapter ("raise", or "penalize": the
episode ends with -1 for the learner and 0 for every other seat). An opponent's illegal action always raises
OpponentActionError (an IllegalActionError naming the seat and the policy): it is a bug in that policy, not a move
of the game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, cast, runtime_checkable

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from envs.adapters.driver import (
    ILLEGAL_ACTION_PENALTY,
    GameDriver,
    ReplayViews,
    action_index,
    require_bool,
    reset_start_state,
)
from envs.adapters.spaces import observation_space
from envs.core.game import Game, IllegalActionError, State
from envs.core.registration import game_record, load_attribute

__all__ = [
    "LEARNER_SEAT_MODES",
    "STRING_POLICIES",
    "OpponentActionError",
    "OpponentEnv",
    "Policy",
    "PolicyFn",
    "RandomPolicy",
    "SupportsAct",
    "policy_of",
]

LEARNER_SEAT_MODES = ("rotate", "random", "all")
"""String values of `learner_seats` (an int names a fixed seat)."""

PolicyFn = Callable[[Any, np.ndarray, State, int], int]
"""policy(observation, action_mask, state, seat) -> action id."""


@runtime_checkable
class SupportsAct(Protocol):
    """An object policy: `act(observation, action_mask, state=...)` returns a legal action id."""

    def act(self, observation: Any, action_mask: np.ndarray, state: Any | None = None) -> int:
        """Return a legal action id for the current decision."""
        ...


Policy = PolicyFn | SupportsAct
"""An opponent: a callable PolicyFn or an object with act() (an agents.Agent)."""


class RandomPolicy:
    """Uniform over the legal actions, from its own generator (the opponent env reseeds it at every reset)."""

    name = "random"
    reads_observation = False

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        """A fresh generator from `seed`."""
        self.rng = np.random.default_rng(seed)

    def act(self, observation: Any, action_mask: np.ndarray, state: Any | None = None) -> int:
        """A legal action, each with equal probability (the draw `rng.choice` makes, without its checks)."""
        legal = np.flatnonzero(action_mask)
        return int(legal[self.rng.integers(len(legal))])


OPPONENT_ENV_KWARGS = {
    "opponents": "the policies of the other seats: callables, agents with `act`, or the strings `random` and "
    "`heuristic` (default: one random policy)",
    "weights": "one weight per opponent policy: each opponent seat draws its policy in proportion (default: equal)",
    "learner_seats": "the seat(s) the learner plays: `rotate` (default), `random`, a seat index, or `all`",
    "env_index": "this env's index among vectorised copies: with `rotate`, copy i starts at seat i",
}
"""What each keyword argument of an opponent env (a multi-player game as a Gymnasium env) does; the docs show it."""


class OpponentActionError(IllegalActionError):
    """An opponent policy's illegal action: a bug in that policy, named with its seat, the action and the legal ones."""

    def __init__(self, seat: int, policy: str, error: IllegalActionError) -> None:
        self.action, self.legal, self.seat = error.action, error.legal, seat
        ValueError.__init__(self, f"the opponent at seat {seat} ({policy}) played an {error}")


def policy_name(policy: Any) -> str:
    """How an error names an opponent policy: its `name`, else its class or function name."""
    name = getattr(policy, "name", None)
    return str(name) if name else getattr(policy, "__name__", type(policy).__name__)


STRING_POLICIES = ("random", "heuristic")
"""The opponent specs OpponentEnv builds itself; every other agent spec is built by `agents` and passed as a policy."""


def policy_of(game: Game, policy: Policy | str) -> Policy:
    """`policy` itself, or the policy a string names ("random", "heuristic"); TypeError naming the accepted forms."""
    if isinstance(policy, str):
        if policy == "random":
            return RandomPolicy()
        if policy == "heuristic":
            record = game_record(game.spec.name)
            if record.heuristic is None:
                raise ValueError(f"opponent 'heuristic': no heuristic is known for game {record.name!r}")
            return cast(Policy, load_attribute(record.heuristic)(game))
        raise ValueError(
            f"opponent {policy!r}: the env builds only the strings {list(STRING_POLICIES)}; build any other agent "
            "spec with the agents package's make_agent(spec, env) and pass the agent (or name it in a config's "
            "`opponents` section)"
        )
    if callable(policy) or isinstance(policy, SupportsAct):
        return policy
    raise TypeError(
        f"an opponent must be a callable policy(observation, action_mask, state, seat), an object with "
        f"act(observation, action_mask, state=...), or one of the strings {list(STRING_POLICIES)}; "
        f"got {policy!r} ({type(policy).__name__})"
    )


class OpponentEnv(ReplayViews, gym.Env):
    """Gymnasium env over a multi-player Game: the learner plays its seat(s), weighted pool policies the others.

    `opponents` is the pool (`OPPONENT_ENV_KWARGS` says what each keyword does): None, the default, is one uniformly
    random policy; an empty pool only suits `learner_seats="all"`.
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}

    def __init__(
        self,
        game: Game,
        opponents: Sequence[Policy | str] | None = None,
        weights: Sequence[float] | None = None,
        learner_seats: str | int = "rotate",
        env_index: int = 0,
        reward: str = "win",
        illegal_action: str = "raise",
        flat: bool = False,
        render_mode: str | None = None,
        rgb_renderer: Callable[[State], np.ndarray] | None = None,
    ) -> None:
        num_players = game.spec.num_players
        if isinstance(learner_seats, bool) or not (
            learner_seats in LEARNER_SEAT_MODES or (isinstance(learner_seats, int) and 0 <= learner_seats < num_players)
        ):
            raise ValueError(
                f"learner_seats must be one of {LEARNER_SEAT_MODES} or a seat in 0..{num_players - 1}, "
                f"got {learner_seats!r}"
            )
        pool = [RandomPolicy()] if opponents is None else opponents  # the default: one uniformly random policy
        self.policies = [policy_of(game, policy) for policy in pool]
        if learner_seats != "all" and num_players > 1 and not self.policies:
            raise ValueError("the opponents need at least one policy (only learner_seats='all' needs none)")
        if weights is None:
            weights = [1.0] * len(self.policies)
        if len(weights) != len(self.policies) or any(w < 0 for w in weights) or (self.policies and sum(weights) <= 0):
            raise ValueError(f"weights must be one non-negative number per policy with a positive sum, got {weights!r}")
        modes = ["ansi", "rgb_array"] if rgb_renderer is not None else ["ansi"]
        if render_mode is not None and render_mode not in modes:
            raise ValueError(f"render_mode must be one of {modes}, got {render_mode!r}")
        self.metadata = {**self.metadata, "render_modes": modes}
        self._rgb_renderer = rgb_renderer
        self._driver = GameDriver(game, reward=reward, illegal_action=illegal_action)
        flat = require_bool("flat", flat)
        total = float(sum(weights))
        self.weights = np.array([w / total for w in weights], dtype=np.float64) if self.policies else np.zeros(0)
        self.game = game
        self.num_players = num_players
        self.learner_seats = learner_seats
        self.env_index = env_index
        self.reward_mode = reward
        self.illegal_action = illegal_action
        self.flat = flat
        self.render_mode = render_mode
        self.observers = [game.observer(seat) for seat in range(num_players)]
        self.public_observer = game.observer(None)
        observer = self.observers[0]
        n = game.spec.num_actions
        self.action_space = spaces.Discrete(n)
        self.observation_space: spaces.Space = observation_space(observer, n, flat)
        self._episode = 0
        """Episodes started since the last seeded reset (what "rotate" counts)."""
        self.learner_seat: int | None = None
        """The learner's seat this episode (None under "all", where it plays every seat)."""
        self.opponents: list[int | None] = [None] * num_players
        """Pool index of each seat's policy this episode (None for learner seats)."""
        self._seat = 0
        """The learner seat that acts now (or acted last, at the end)."""

    @property
    def state(self) -> State | None:
        """The rules-core state being played (None before the first reset)."""
        return self._driver.state

    # ------------------------------------------------------------------ helpers
    def _is_learner(self, seat: int) -> bool:
        return self.learner_seats == "all" or seat == self.learner_seat

    def _observation(self, seat: int) -> Any:
        tensor = self.observers[seat].tensor(self._driver.live_state())
        if self.flat:
            return tensor
        return {"observation": tensor, "action_mask": self._driver.mask}

    def _pick_seats(self, rng: np.random.Generator) -> None:
        """The learner's seat and each other seat's pool index, from the env's generator."""
        n = self.num_players
        if self.learner_seats == "all":
            self.learner_seat = None
        elif self.learner_seats == "rotate":
            self.learner_seat = (self.env_index + self._episode) % n
        elif self.learner_seats == "random":
            self.learner_seat = int(rng.integers(n))
        else:
            self.learner_seat = int(self.learner_seats)
        picks = rng.choice(len(self.policies), size=n, p=self.weights) if self.policies else np.zeros(n, dtype=int)
        self.opponents = [None if self._is_learner(seat) else int(picks[seat]) for seat in range(n)]
        seeds = rng.integers(2**31, size=len(self.policies))  # a fixed number of draws: one per pool policy
        for index in sorted({i for i in self.opponents if i is not None}):
            reset = getattr(self.policies[index], "reset", None)
            if callable(reset):
                reset(seed=int(seeds[index]))

    def _play_opponents(self) -> None:
        """Play every opponent decision (chance is sampled by the driver) until a learner seat acts or the end."""
        driver = self._driver
        while not driver.over:
            seat = driver.current_player()
            if self._is_learner(seat):
                self._seat = seat
                return
            policy = self.policies[self.opponents[seat] or 0]
            observation = self._observation(seat) if getattr(policy, "reads_observation", True) else None
            state = driver.live_state()
            act = getattr(policy, "act", None)  # what isinstance(policy, SupportsAct) checks, without its slow scan
            if act is not None:
                chosen = act(observation, driver.mask, state=state)
            else:
                chosen = cast(PolicyFn, policy)(observation, driver.mask, state, seat)
            try:
                action = action_index(chosen, driver.num_actions)
            except TypeError as error:
                raise TypeError(f"the opponent at seat {seat} ({policy_name(policy)}): {error}") from None
            if not (0 <= action < driver.num_actions and driver.mask[action]):
                raise OpponentActionError(seat, policy_name(policy), driver.illegal_action_error(action))
            driver.step(action)

    def _info(self) -> dict[str, Any]:
        driver = self._driver
        info: dict[str, Any] = {"seat": self._seat, "action_mask": driver.mask}
        if driver.over:
            info.update(driver.episode_info(self._seat))
            info["seat_rewards"] = driver.rewards()
        return info

    # ------------------------------------------------------------------ Gymnasium API
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """New episode: pick seats and opponents, play to the learner's turn; `options={"state": dict}` starts there
        (another key is a ValueError naming it)."""
        start = reset_start_state(self.game, options)  # before anything changes: a refused reset changes nothing
        super().reset(seed=seed)
        if seed is not None:
            self._episode = 0
        driver = self._driver
        driver.rng = self.np_random  # one seeded generator: seats, opponents, policy seeds and chance
        self._pick_seats(self.np_random)
        self._episode += 1
        driver.reset(start)
        self._seat = self.learner_seat if self.learner_seat is not None else max(driver.current_player(), 0)
        self._play_opponents()
        if driver.over:
            raise RuntimeError(f"{self.game.spec.name} ended before the learner's seat {self.learner_seat} acted")
        info = self._info()
        info["opponents"] = list(self.opponents)
        return self._observation(self._seat), info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Apply the learner's decision, then the opponents' and chance until the learner acts again or the end."""
        driver = self._driver
        action = action_index(action, driver.num_actions)  # TypeError for 4.7, "4", None, True, a list
        if not driver.step(action):  # illegal under "penalize" ("raise" raised): the episode ends
            info = self._info()
            info["illegal_action"] = action
            return self._observation(self._seat), ILLEGAL_ACTION_PENALTY, True, False, info
        self._play_opponents()
        terminated = driver.over
        reward = driver.rewards()[self._seat] if terminated else 0.0
        return self._observation(self._seat), reward, terminated, False, self._info()

    def broadcast(self, method: str, *args: Any) -> int:
        """Call `method(*args)` on every pool policy that has it (e.g. a snapshot pool's `add_snapshot` from the
        training loop, through a vec env's `env_method`); returns how many policies were called."""
        called = 0
        for policy in self.policies:
            function = getattr(policy, method, None)
            if callable(function):
                function(*args)
                called += 1
        return called

    def action_masks(self) -> np.ndarray:
        """Boolean mask of the learner's legal actions (MaskablePPO reads it from the env)."""
        return self._driver.mask.astype(bool)

    def render(self) -> Any:
        """'ansi': the public view's text; 'rgb_array': the game's picture of it (no hidden information)."""
        if self.state is None:
            return None
        if self.render_mode == "rgb_array" and self._rgb_renderer is not None:
            return self._rgb_renderer(self.state)
        if self.render_mode != "ansi":
            return None
        return self.public_observer.text(self.state)
