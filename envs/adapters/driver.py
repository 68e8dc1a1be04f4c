"""The one game loop under every adapter (Gymnasium, PettingZoo, opponents): numpy only, no framework import.

A `GameDriver` holds the live `State` and the seeded `np.random.Generator`, samples chance nodes until a seat must
decide or the game ends (`advance`), keeps the legal-action mask of the seat to act (a fresh int8 array after every
step, so an observation handed out earlier keeps its own), applies the illegal-action policy, counts decisions
(the adapters truncate on that count) and turns the end of the game into per-seat rewards by mode: one of the
modes the game declares (`GameSpec.reward_modes`); any other is refused with ValueError naming the mode, the game and
its modes ("rank" in a cooperative game would give every seat 0, "score" in a game without a score nothing).

Illegal actions (`illegal_action=`):

- `"raise"`: `IllegalActionError` names the action and every legal one; nothing changes, the caller may retry.
- `"penalize"`: the game ends at once for every seat. The offender receives `ILLEGAL_ACTION_PENALTY` (-1) and
  every other seat 0, in every kind of game (cooperative ones included): the game has no result, only the
  offender is blamed, as PettingZoo's `TerminateIllegalWrapper` does for the classic games.

Actions of the wrong type (`action_index`, which every adapter calls on what it is handed before anything else): a
Python int, a numpy integer scalar (what stable-baselines3's vec envs hand to `env.step`) or a 0-d integer array
(what `MaskablePPO.predict` returns for one observation) is an action id; anything else (a float such as 4.7, a bool,
a string, None, a list, a 1-d array) raises TypeError under both policies above. It is not an IllegalActionError:
that one is a move of the game the rules forbid, which "penalize" turns into a lost game, while a value that is no
action id at all is a bug in the caller, which no policy should score, and truncating 4.7 to 4 (what `int()` does)
would play a move nobody chose.
"""

from __future__ import annotations

import reprlib
import warnings
from collections.abc import Mapping
from typing import Any

import numpy as np

from envs.core.game import CHANCE, REWARD_MODES, TERMINAL, Game, GameSpec, IllegalActionError, State

ILLEGAL_ACTION_MODES = ("raise", "penalize")
"""What an illegal action does: raise IllegalActionError, or end the game with a penalty for the offender."""
ILLEGAL_ACTION_PENALTY = -1.0
"""Reward of the offender under illegal_action="penalize" (every other seat gets 0); the game then ends."""
ENV_ADAPTER_KWARGS = ("reward", "illegal_action", "flat", "render_mode", "max_decisions")
"""Env keyword arguments that configure an adapter (Gymnasium, PettingZoo or opponent env), not the game: every other
one is the game's. (PettingZoo's `raw_env` takes the subset in pettingzoo_env.ADAPTER_KWARGS.)"""


def split_env_kwargs(env_kwargs: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """An env's keyword arguments as (the adapter's, the game's): the game's are what `make_game` and replays take."""
    adapter = {key: value for key, value in env_kwargs.items() if key in ENV_ADAPTER_KWARGS}
    game = {key: value for key, value in env_kwargs.items() if key not in ENV_ADAPTER_KWARGS}
    return adapter, game


_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = 60
"""Shortens the repr of a bad value in an error message (a long list, a big array)."""


def action_index(action: Any, num_actions: int | None = None) -> int:
    """`action` as a Python int: a Python int, a numpy integer or a 0-d integer array; TypeError for anything else.

    bool is refused although it is an int subclass (True is no action id), and so is every float, even 4.0.
    """
    if type(action) is int:  # the common case first: one type check
        return action
    if isinstance(action, np.integer) or (isinstance(action, int) and not isinstance(action, bool)):
        return int(action)
    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        return int(action)
    ids = f" in 0..{num_actions - 1}" if num_actions else ""
    raise TypeError(
        f"an action must be an integer action id{ids} (a Python int, a numpy integer or a 0-d integer array), "
        f"got {_SHORT.repr(action)} ({_type_name(action)})"
    )


def _type_name(value: Any) -> str:
    """`float`, `numpy.float64`, `numpy.ndarray of int64, shape (1,)`: what a wrong action was."""
    kind = type(value)
    name = kind.__qualname__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"
    if isinstance(value, np.ndarray):
        return f"{name} of {value.dtype}, shape {value.shape}"
    return name


def require_bool(name: str, value: Any) -> bool:
    """`value` of the option `name` if it is True or False (numpy's too); TypeError naming the option otherwise."""
    if isinstance(value, bool | np.bool_):
        return bool(value)
    raise TypeError(f"{name} must be True or False, got {_SHORT.repr(value)} ({_type_name(value)})")


def reward_mode_error(reward: Any, spec: GameSpec) -> str:
    """Why `reward` is refused for the game of `spec`: the mode, the game and the modes it declares."""
    seats = f"{spec.num_players} seat{'s' if spec.num_players != 1 else ''}, {spec.utility}"
    if reward in REWARD_MODES:
        why = f"{spec.name} ({seats}) does not declare the reward mode {reward!r}"
    else:
        why = f"{_SHORT.repr(reward)} is no reward mode (modes: {', '.join(REWARD_MODES)})"
    return f"reward: {why}; {spec.name} declares {', '.join(map(repr, spec.reward_modes))}"


RESET_OPTION_KEYS = ("state",)
"""The keys of `reset(options=...)` every adapter takes: `state`, a `State.to_dict()` to start from instead of setup."""


def unknown_reset_options(options: Any) -> str | None:
    """What is wrong with `reset(options=...)`: keys no adapter reads, named with the valid ones (None: nothing)."""
    if options is None:
        return None
    if not isinstance(options, Mapping):
        return f"reset options must be a dict or None, got {_SHORT.repr(options)} ({_type_name(options)})"
    unknown = [key for key in options if key not in RESET_OPTION_KEYS]
    if not unknown:
        return None
    named = ", ".join(_SHORT.repr(key) for key in unknown)
    keys = "keys" if len(unknown) > 1 else "key"
    return f"reset options: unknown {keys} {named}; valid keys: {', '.join(RESET_OPTION_KEYS)}"


def reset_start_state(game: Game, options: Mapping[str, Any] | None) -> State | None:
    """The state `reset(options=...)` starts from: `options["state"]` read by the game, or None (the game's setup).

    An unknown key or an options value that is no mapping is refused with ValueError naming it and the valid keys
    (nothing is reset): a misspelt `stat` would otherwise start from setup without a word. Gymnasium's adapters call
    this; PettingZoo's warns instead (`warn_unknown_reset_options`).
    """
    problem = unknown_reset_options(options)
    if problem is not None:
        raise ValueError(problem)
    return game.state_from_dict(options["state"]) if options and "state" in options else None


class UnknownResetOptionWarning(UserWarning):
    """PettingZoo's `reset` was handed option keys no adapter reads (they are ignored)."""


def warn_unknown_reset_options(game: Game, options: Any) -> State | None:
    """PettingZoo's `reset_start_state`: an unknown key is warned about (UnknownResetOptionWarning naming it and the
    valid keys), not refused, because PettingZoo's own `api_test` resets with `options={"options": 1}` to check that
    reset takes the argument, and an env must pass it."""
    problem = unknown_reset_options(options)
    if problem is not None:
        if not isinstance(options, Mapping):
            raise ValueError(problem)
        warnings.warn(f"{problem} (ignored)", UnknownResetOptionWarning, stacklevel=3)
    return game.state_from_dict(options["state"]) if options and "state" in options else None


class GameDriver:
    """Seeded chance sampling, legal mask, illegal-action policy, decision count and end rewards of one Game."""

    def __init__(self, game: Game, reward: str = "win", illegal_action: str = "raise") -> None:
        spec = game.spec
        if reward not in spec.reward_modes:
            raise ValueError(reward_mode_error(reward, spec))
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTION_MODES}, got {illegal_action!r}")
        self.game = game
        self.reward_mode = reward
        self.illegal_action = illegal_action
        self.num_actions = spec.num_actions
        self.num_players = spec.num_players
        self.rng: np.random.Generator = np.random.default_rng()
        """The one generator chance is sampled from; `seed` replaces it, an adapter may hand in its own."""
        self.state: State | None = None
        self.mask = np.zeros(self.num_actions, dtype=np.int8)
        """int8 mask of the seat to act (all zero once the game is over); a new array after every step."""
        self.legal: list[int] = []
        self.decisions = 0
        """Decisions applied since reset (chance outcomes not counted): what truncation limits count."""
        self.offender: int | None = None
        """The seat whose illegal action ended the game under "penalize", else None."""
        self.illegal_action_taken: int | None = None
        self.history: list[tuple[int, int]] = []
        """Every (player, action) applied since reset, in order: decisions by seat, chance outcomes as (CHANCE, o).
        With the start state it replays the game exactly (a rules-core replay record, envs/core/replays.py)."""
        self.start_state: dict[str, Any] | None = None
        """`to_dict()` of the position the game was reset to, or None when it started from the game's setup."""

    # ------------------------------------------------------------------ setup
    def seed(self, seed: int | None) -> None:
        """A new generator from `seed`; with None keep the current one (PettingZoo and Gymnasium reset semantics)."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def reset(self, state: State | None = None) -> None:
        """Start from `state` (or the game's initial state), sample the opening chance nodes, build the mask."""
        self.state = self.game.new_initial_state() if state is None else state
        self.start_state = None if state is None else state.to_dict()  # before the opening chance nodes change it
        self.decisions = 0
        self.offender = None
        self.illegal_action_taken = None
        self.history = []
        self.advance()
        self.refresh_mask()

    def live_state(self) -> State:
        """The state being played; RuntimeError before the first reset."""
        if self.state is None:
            raise RuntimeError("call reset() before using the env")
        return self.state

    # ------------------------------------------------------------- game loop
    def advance(self) -> None:
        """Sample chance nodes from the driver's generator until a seat must decide or the game ends."""
        state = self.live_state()
        rng = self.rng
        history = self.history
        while state.current_player() == CHANCE:
            outcome = state.sample_chance(rng)
            state.apply_unchecked(outcome)
            history.append((CHANCE, outcome))

    def refresh_mask(self) -> None:
        """A fresh mask array (the previous observation keeps its own) from the legal actions of the seat to act."""
        mask = np.zeros(self.num_actions, dtype=np.int8)
        state = self.live_state()
        if state.current_player() == TERMINAL:
            self.legal = []
        else:
            self.legal = legal = state.legal_actions()
            for action in legal:  # a short list: item assignment beats a fancy-indexed store here
                mask[action] = 1
        self.mask = mask

    def step(self, action: int) -> bool:
        """Apply the decision of the seat to act and the chance nodes after it; False if it was illegal.

        Under "raise" an illegal action raises IllegalActionError (nothing changes); under "penalize" it ends
        the game (`over` becomes True, `rewards()` gives the penalty) and False is returned.
        """
        state = self.state
        if state is None:
            raise RuntimeError("call reset() before using the env")
        if self.offender is not None or state.current_player() == TERMINAL:
            raise RuntimeError("the episode has ended; call reset()")
        mask = self.mask
        if not (0 <= action < self.num_actions and mask[action]):
            if self.illegal_action == "raise":
                raise self.illegal_action_error(action)
            self.offender = state.current_player()
            self.illegal_action_taken = action
            self.mask = np.zeros(self.num_actions, dtype=np.int8)  # the episode is over: nothing is legal
            self.legal = []
            return False
        history_length = len(self.history)
        generator_state = None  # the rules draw nothing: only the chance nodes after the decision use the generator
        self.history.append((state.current_player(), action))
        try:
            state.apply_unchecked(action)
            if state.current_player() == CHANCE:
                generator_state = self.rng.bit_generator.state
                self.advance()
        except BaseException:  # a bug in the rules, or Ctrl-C: the step is undone whole, then the error goes on
            self.rewind(history_length, generator_state)
            raise
        self.decisions += 1
        self.refresh_mask()
        return True

    def rewind(self, history_length: int, generator_state: Mapping[str, Any] | None) -> None:
        """Undo a step that raised: the state becomes the start state with the first `history_length` actions of the
        history replayed (in place: every reference to it sees the position before the step), and the generator gets
        back `generator_state` when the step had drawn from it. Replaying costs a game's length, once, on the error
        path only; the step itself keeps no copy."""
        del self.history[history_length:]
        game = self.game
        replayed = game.new_initial_state() if self.start_state is None else game.state_from_dict(self.start_state)
        for _, action in self.history:
            replayed.apply_unchecked(action)
        self.live_state().become(replayed)
        if generator_state is not None:
            self.rng.bit_generator.state = generator_state

    def illegal_action_error(self, action: int) -> IllegalActionError:
        """The error naming `action` and every legal action of the seat to act, with their labels."""
        game = self.game
        label = game.action_label(action) if 0 <= action < self.num_actions else "out of range"
        return IllegalActionError(action, label, [(a, game.action_label(a)) for a in self.legal])

    # ------------------------------------------------------------------- end
    @property
    def over(self) -> bool:
        """Whether the game has ended: a terminal state, or an illegal action under "penalize"."""
        return self.offender is not None or self.live_state().current_player() == TERMINAL

    def current_player(self) -> int:
        """The seat to act, or TERMINAL once the game is over (never CHANCE: `advance` samples those)."""
        return TERMINAL if self.offender is not None else self.live_state().current_player()

    def truncated(self, max_decisions: int | None) -> bool:
        """Whether `max_decisions` decisions have been applied and the game goes on (None: no limit)."""
        return max_decisions is not None and self.decisions >= max_decisions and not self.over

    def rewards(self) -> list[float]:
        """Per-seat Python-float rewards at the end: the mode's `state.rewards(mode)`, or the illegal-action penalty."""
        if self.offender is not None:
            rewards = [0.0] * self.num_players
            rewards[self.offender] = ILLEGAL_ACTION_PENALTY
            return rewards
        return [float(value) for value in self.live_state().rewards(self.reward_mode)]

    def episode_info(self, player: int = 0) -> dict[str, Any]:
        """Seat `player`'s end-of-episode facts (`State.episode_info`), plus `illegal_action` where it ended so."""
        info = self.live_state().episode_info(player)
        if self.offender is not None:
            info["illegal_action"] = self.illegal_action_taken
            info["offender"] = self.offender
        return info


class ReplayViews:
    """The read-only replay views every adapter exposes over its `_driver` (a mixin: one definition, three envs)."""

    _driver: GameDriver

    @property
    def history(self) -> tuple[tuple[int, int], ...]:
        """Every (player, action) applied since reset, chance outcomes as (CHANCE, outcome): what a replay records."""
        return tuple(self._driver.history)

    @property
    def start_state(self) -> dict[str, Any] | None:
        """`to_dict()` of the position the episode was reset to (`options={"state": ...}`), None after plain setup."""
        return self._driver.start_state
