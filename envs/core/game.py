"""The rules-core contract every game implements (OpenSpiel-shaped, plain Python)."""

from __future__ import annotations

import abc
import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from envs.core.chance import sample_outcome
from envs.core.outcomes import rank_returns

REWARD_MODES = ("win", "score", "rank")
"""What a terminal reward measures: the result (+1/-1), the game's score, or the tie-aware rank (outcomes.py)."""
CHANCE = -1
"""`current_player()` of a chance node: the adapter samples one of `chance_outcomes()`."""
TERMINAL = -2
"""`current_player()` once the game is over."""


class IllegalActionError(ValueError):
    """An action that is not legal in the current state; names the action and the legal ones."""

    def __init__(self, action: int, action_label: str, legal: list[tuple[int, str]]) -> None:
        self.action = action
        self.legal = [a for a, _ in legal]
        listed = ", ".join(f"{a}: {label}" for a, label in legal)
        super().__init__(f"illegal action {action} ({action_label}); legal actions are [{listed}]")


class StateFormatError(ValueError):
    """A state dict that does not describe a state that can happen; names the offending field and value."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        """Dotted path of the bad field (`resources.food`, `monsters[2]`), "" for the dict as a whole."""
        super().__init__(f"state.{field}: {message}" if field else f"state: {message}")


UTILITIES = ("solo", "zero_sum", "general_sum", "cooperative")
"""How results relate across seats (OpenSpiel's GameType.utility): one seat; one seat's gain is the others' loss;
any; every seat shares one result."""
INFORMATION_KINDS = ("perfect", "imperfect")
"""Whether some seat cannot see part of the state (face-down cards, hidden hands, deck order that matters)."""


@dataclass(frozen=True)
class GameSpec:
    """Static facts about a game: name, players, action-space size, episode bound, utility and information kind."""

    name: str
    num_players: int
    num_actions: int
    max_game_length: int
    version: str = "0"
    min_players: int = 1
    max_players: int = 1
    utility: str = "solo"
    """One of UTILITIES."""
    information: str = "perfect"
    """One of INFORMATION_KINDS: "imperfect" games must implement State.resample_hidden."""
    reward_modes: tuple[str, ...] = ("win",)
    """The REWARD_MODES this game's `State.rewards` gives a meaning to; the adapters refuse every other one.

    "win" is always among them (the adapters' default and what tournaments record); "score" only for a game with a
    score; "rank" only with two or more seats in a game that is not cooperative (one seat, or one shared result,
    has no order to rank)."""
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.utility not in UTILITIES:
            raise ValueError(f"GameSpec.utility: {self.utility!r} is not one of {UTILITIES}")
        if self.information not in INFORMATION_KINDS:
            raise ValueError(f"GameSpec.information: {self.information!r} is not one of {INFORMATION_KINDS}")
        if not self.min_players <= self.num_players <= self.max_players:
            raise ValueError(
                f"GameSpec.num_players: {self.num_players} is outside {self.min_players}..{self.max_players}"
            )
        self._check_reward_modes()

    def _check_reward_modes(self) -> None:
        """ValueError naming `reward_modes` and the mode unless they are distinct REWARD_MODES that fit the seats."""
        modes = self.reward_modes
        if not isinstance(modes, tuple) or not all(isinstance(mode, str) for mode in modes):
            raise ValueError(f"GameSpec.reward_modes: expected a tuple of mode names, got {modes!r}")
        for mode in modes:
            if mode not in REWARD_MODES:
                raise ValueError(f"GameSpec.reward_modes: {mode!r} is not one of {REWARD_MODES}")
        if len(set(modes)) != len(modes):
            raise ValueError(f"GameSpec.reward_modes: {modes} names a mode twice")
        if "win" not in modes:
            raise ValueError(f"GameSpec.reward_modes: {modes} lacks 'win', which every game declares")
        if "rank" in modes and (self.num_players < 2 or self.cooperative):
            reason = "one seat" if self.num_players < 2 else "a cooperative game (every seat shares one result)"
            raise ValueError(f"GameSpec.reward_modes: 'rank' needs seats to rank, but {self.name} is {reason}")

    @property
    def cooperative(self) -> bool:
        """Whether all seats share the result (co-op modes)."""
        return self.utility == "cooperative"

    @property
    def hidden_information(self) -> bool:
        """Whether some seat cannot see part of the state."""
        return self.information == "imperfect"


class Game(abc.ABC):
    """Immutable configuration of a game (players, settings, card data)."""

    spec: GameSpec
    KWARG_MEANINGS: ClassVar[dict[str, str]] = {}
    """What each keyword argument of the game's constructor means (its documentation page lists them)."""

    @abc.abstractmethod
    def new_initial_state(self) -> State:
        """A state at the start of the game (usually a chance node: setup draws)."""

    @abc.abstractmethod
    def state_from_dict(self, data: dict[str, Any]) -> State:
        """Rebuild a state from `State.to_dict()` output; raises StateFormatError naming the bad field."""

    @abc.abstractmethod
    def action_label(self, action: int) -> str:
        """Human-readable label of an action id (stable across versions)."""

    def action_id(self, label: str) -> int:
        """The action id of a label (the inverse of `action_label`); ValueError naming close labels if unknown."""
        ids = self.__dict__.get("_action_ids")
        if ids is None:
            ids = {self.action_label(a): a for a in range(self.spec.num_actions)}
            self.__dict__["_action_ids"] = ids
        if label not in ids:
            words = label.split(":")[0]
            close = [known for known in ids if known.startswith(words)][:10]
            hint = f"; labels starting like it: {close}" if close else ""
            raise ValueError(f"{self.spec.name} has no action labelled {label!r}{hint}")
        return ids[label]

    @abc.abstractmethod
    def observer(self, player: int | None = 0) -> Observer:
        """The observer of seat `player` (its tensor and text view), or with None the public/spectator view."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        check_arguments(cls, GAME_ARGUMENT_CHECKS)

    def kwarg_values(self) -> dict[str, tuple[Any, ...]]:
        """The values each keyword argument with a closed list of them accepts (content names included; where the
        default is None, the value it plays comes first); its documentation page lists them."""
        return {}


class State(abc.ABC):
    """Everything that changes during a game; cheap to clone, picklable, JSON-able via to_dict."""

    game: Game

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        check_arguments(cls, STATE_ARGUMENT_CHECKS)

    @abc.abstractmethod
    def current_player(self) -> int:
        """Index of the player to act, CHANCE or TERMINAL."""

    @abc.abstractmethod
    def legal_actions(self) -> list[int]:
        """Sorted legal action ids for the player to act ([] at chance and terminal nodes)."""

    @abc.abstractmethod
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node: (outcome id, exact probability) pairs summing to 1."""

    @abc.abstractmethod
    def _apply(self, action: int) -> None:
        """Apply a legal decision or chance outcome (no legality check)."""

    @abc.abstractmethod
    def returns(self) -> list[float]:
        """Per-player result: +1 win, -1 loss, 0 otherwise (0 until terminal)."""

    @abc.abstractmethod
    def score(self) -> list[float]:
        """Per-player game score as the rulebook counts it (0 until terminal where undefined)."""

    @abc.abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict that `Game.state_from_dict` turns back into an equal state."""

    @abc.abstractmethod
    def clone(self) -> State:
        """An independent copy."""

    @abc.abstractmethod
    def chance_label(self, outcome: int) -> str:
        """Human-readable label of a chance outcome at the current chance node (the omniscient wording)."""

    def chance_label_for(self, outcome: int, player: int | None) -> str:
        """The chance outcome as seat `player` (None: a spectator) may see it, for play and replays.

        The full label in a perfect-information game. A game with hidden information overrides this to redact
        what `player` must not learn (a card dealt to another seat); this default, for games that do not, hides
        every outcome.
        """
        if not self.game.spec.hidden_information:
            return self.chance_label(outcome)
        return "a hidden chance outcome"

    def action_label_for(self, action: int, player: int | None) -> str:
        """The decision `action` of the seat to act in this state, as seat `player` (None: a spectator) may see it.

        The full label by default. A game where a decision names what only the decider may see (a card chosen from
        a hidden pool) overrides this to redact it for the other seats.
        """
        return self.game.action_label(action)

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        """Whether the next move is nature's."""
        return self.current_player() == CHANCE

    def legal_actions_mask(self) -> np.ndarray:
        """int8 mask of length num_actions with 1 at each legal action."""
        mask = np.zeros(self.game.spec.num_actions, dtype=np.int8)
        mask[self.legal_actions()] = 1
        return mask

    def apply_action(self, action: int) -> None:
        """Apply a decision (checked against legal_actions) or a chance outcome (checked against outcomes).

        `action` is a Python int, a numpy integer or a 0-d integer array (the values the adapters accept); anything
        else (4.7, 4.0, True, "4", None, a list) raises TypeError naming it and the legal ones, and nothing changes:
        `int()` would play 4.7 as 4, a move nobody chose.

        All or nothing: should the rules raise half way (a bug, or a position no rule expects), the state is put back
        as it was before the call and the error propagates, so no half-applied position stays behind. The snapshot
        this takes (a `clone`) is the price of the guarantee; `apply_unchecked` is the fast path without it.
        """
        if type(action) is not int:  # the common case costs one type check
            if (isinstance(action, int) and not isinstance(action, bool)) or isinstance(action, np.integer):
                action = int(action)
            elif isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
                action = int(action)
            else:
                if self.current_player() == CHANCE:
                    choices = [f"{a}: {self.chance_label(a)}" for a, _ in self.chance_outcomes()]
                else:
                    choices = [f"{a}: {self.game.action_label(a)}" for a in self.legal_actions()]
                shown = repr(action) if len(repr(action)) <= 60 else f"{repr(action)[:57]}..."
                raise TypeError(
                    f"an action must be an integer id (a Python int, a numpy integer or a 0-d integer array), got "
                    f"{shown} ({type(action).__name__}); legal actions are [{', '.join(choices)}]"
                )
        if self.current_player() == CHANCE:
            outcomes = [a for a, _ in self.chance_outcomes()]
            if action not in outcomes:
                raise IllegalActionError(
                    action, f"chance outcome {action}", [(a, self.chance_label(a)) for a in outcomes]
                )
        elif self.current_player() == TERMINAL:
            raise IllegalActionError(action, "any action after the game ended", [])
        else:
            legal = self.legal_actions()
            if action not in legal:
                label = self.game.action_label(action) if 0 <= action < self.game.spec.num_actions else "out of range"
                raise IllegalActionError(action, label, [(a, self.game.action_label(a)) for a in legal])
        snapshot = self.clone()
        try:
            self._apply(action)
        except BaseException:
            self.become(snapshot)
            raise

    def apply_unchecked(self, action: int) -> None:
        """Apply an action the caller has already checked (the adapters' fast path: they hold the mask).

        Not all or nothing: a caller that must survive an error in the rules holds a copy (the adapters' driver replays
        its history instead: envs/adapters/driver.py), or calls `apply_action`.
        """
        self._apply(action)

    def become(self, snapshot: State) -> None:
        """Take on every attribute (caches included) of `snapshot`, a state of the same game: how a failed action is
        undone in place, so that every reference to this state sees the position before it."""
        values = vars(self)
        values.clear()
        values.update(vars(snapshot))

    def episode_info(self, player: int = 0) -> dict[str, Any]:
        """Facts the adapters report in seat `player`'s `info` when the episode ends (games add their own)."""
        return {"won": self.returns()[player] > 0, "score": self.score()[player]}

    def debug_text(self) -> str:
        """Omniscient text of the whole state, hidden parts included (transcripts of errors, debugging).

        The default is the public view followed by the saved state; games may print their hidden parts better.
        """
        saved = ", ".join(f"{key}={value!r}" for key, value in self.to_dict().items())
        return f"{self.game.observer(None).text(self)}\n[state] {saved}"

    def sample_chance(self, rng: np.random.Generator) -> int:
        """Draw one chance outcome with its exact probability from `rng` (the adapter's generator).

        One `rng.random()` per node with two or more outcomes, none with one; `envs.core.chance` says how the pick
        matches the numpy cumulative-sum formula bit for bit (so recorded games replay unchanged).
        """
        return sample_outcome(self.chance_outcomes(), rng)

    def resample_hidden(self, player: int, rng: np.random.Generator) -> State:
        """A clone whose information hidden from `player` is redrawn consistently with what they saw (ISMCTS).

        A game with hidden information must override this: a plain copy would let search agents see through
        face-down cards, so the default refuses instead of silently copying.
        """
        if self.game.spec.hidden_information:
            raise NotImplementedError(
                f"{self.game.spec.name} has hidden information: its State must implement resample_hidden"
            )
        return self.clone()

    def rewards(self, mode: str = "win") -> list[float]:
        """Per-seat rewards at the end of the game: "win" (returns()), "score" (score()), "rank" (rank_returns).

        Games override this where a mode means something else (e.g. a solo score that is only defined for a win).
        """
        if mode == "win":
            return self.returns()
        if mode == "score":
            return self.score()
        if mode == "rank":
            return rank_returns(self.score())
        raise ValueError(f"unknown reward mode {mode!r}; choose one of {REWARD_MODES}")

    def __str__(self) -> str:
        return self.game.observer(max(self.current_player(), 0)).text(self)


# ---------------------------------------------------------------------------------------------------------------
# Argument checks of the contract's queries, in one place for every game: each game implements a query, the check
# wraps it (`check_arguments`, run for every subclass), so a chance outcome the node does not list, a draw or a chance
# label asked at a decision node, or a seat the game does not have is a ValueError naming the argument and what is
# valid, never an IndexError from deep in a game or an answer about something else.
# ---------------------------------------------------------------------------------------------------------------

QueryMethod = Callable[..., Any]
"""A method of the Game/State contract (the first argument is the game or the state)."""
CHECKED_MARK = "_arguments_checked"
"""Set on a wrapped method, so a method inherited or wrapped already is not wrapped twice."""
LISTED_OUTCOMES = 12
"""Outcome ids written out in full in an error message (a deck draw may have dozens)."""


def check_arguments(cls: type, checks: Mapping[str, Callable[[QueryMethod], QueryMethod]]) -> None:
    """Wrap each method of `checks` that `cls` itself defines with its argument check (once)."""
    for name, checked in checks.items():
        method = cls.__dict__.get(name)
        if callable(method) and not getattr(method, CHECKED_MARK, False) and not _is_abstract(method):
            wrapper = functools.wraps(method)(checked(method))
            setattr(wrapper, CHECKED_MARK, True)
            setattr(cls, name, wrapper)


def _is_abstract(method: Any) -> bool:
    return bool(getattr(method, "__isabstractmethod__", False))


def _node_text(state: State) -> str:
    player = state.current_player()
    return "the game is over" if player == TERMINAL else f"seat {player} is to decide"


def require_chance_node(state: State, query: str) -> None:
    """ValueError naming `query` unless `state` is a chance node."""
    if state.current_player() != CHANCE:
        raise ValueError(
            f"{query}: {state.game.spec.name} is not at a chance node ({_node_text(state)}); chance_outcomes() is "
            "empty there"
        )


def require_chance_outcome(state: State, outcome: Any, query: str) -> None:
    """ValueError naming `query` and `outcome` unless it is one of the outcomes of the chance node `state` is at."""
    require_chance_node(state, f"{query}({outcome!r})")
    outcomes = [listed for listed, _ in state.chance_outcomes()]
    if isinstance(outcome, bool) or outcome not in outcomes:
        shown = ", ".join(map(str, outcomes[:LISTED_OUTCOMES]))
        more = f", ... ({len(outcomes)} in all)" if len(outcomes) > LISTED_OUTCOMES else ""
        raise ValueError(
            f"{query}({outcome!r}): not an outcome of this chance node of {state.game.spec.name}; its outcomes are "
            f"[{shown}{more}]"
        )


def require_seat(game: Game, player: Any, query: str, public: bool = False) -> None:
    """ValueError naming `query` and `player` unless it is a seat of `game` (or None, the public view, if `public`)."""
    if public and player is None:
        return
    count = game.spec.num_players
    is_seat = isinstance(player, int | np.integer) and not isinstance(player, bool) and 0 <= player < count
    if not is_seat:
        seats = "one seat, 0" if count == 1 else f"seats 0..{count - 1}"
        also = ", or None for the public view" if public else ""
        raise ValueError(f"{query}: seat {player!r} does not exist; {game.spec.name} has {seats}{also}")


def _checked_chance_label(label: QueryMethod) -> QueryMethod:
    def chance_label(self: State, outcome: int) -> str:
        require_chance_outcome(self, outcome, "chance_label")
        return str(label(self, outcome))

    return chance_label


def _checked_chance_label_for(label: QueryMethod) -> QueryMethod:
    def chance_label_for(self: State, outcome: int, player: int | None) -> str:
        require_chance_outcome(self, outcome, "chance_label_for")
        return str(label(self, outcome, player))

    return chance_label_for


def _checked_sample_chance(sample: QueryMethod) -> QueryMethod:
    def sample_chance(self: State, rng: np.random.Generator) -> int:
        if self.current_player() != CHANCE:
            require_chance_node(self, "sample_chance")
        outcome: int = sample(self, rng)
        return outcome

    return sample_chance


def _checked_resample_hidden(resample: QueryMethod) -> QueryMethod:
    def resample_hidden(self: State, player: int, rng: np.random.Generator) -> State:
        require_seat(self.game, player, f"resample_hidden({player!r}, ...)")
        resampled: State = resample(self, player, rng)
        return resampled

    return resample_hidden


def _checked_observer(observer: QueryMethod) -> QueryMethod:
    def observer_of(self: Game, player: int | None = 0) -> Observer:
        require_seat(self, player, f"observer({player!r})", public=True)
        built: Observer = observer(self, player)
        return built

    return observer_of


STATE_ARGUMENT_CHECKS: dict[str, Callable[[QueryMethod], QueryMethod]] = {
    "chance_label": _checked_chance_label,
    "chance_label_for": _checked_chance_label_for,
    "sample_chance": _checked_sample_chance,
    "resample_hidden": _checked_resample_hidden,
}
"""The State queries whose arguments are checked, and how."""
GAME_ARGUMENT_CHECKS: dict[str, Callable[[QueryMethod], QueryMethod]] = {"observer": _checked_observer}
"""The Game queries whose arguments are checked, and how."""
check_arguments(State, STATE_ARGUMENT_CHECKS)  # the defaults State itself gives (sample_chance, resample_hidden)


class Observer(abc.ABC):
    """Builds one player's observation: a flat float32 tensor with named views, and a text view."""

    player: int | None = 0
    """The seat whose view this is, or None for the public (spectator) view."""
    size: int
    views: dict[str, slice]
    low: float = 0.0
    """Lower bound of every observation entry (the adapters' Box bounds)."""
    high: float = 1.0
    """Upper bound of every observation entry."""

    @abc.abstractmethod
    def tensor(self, state: State) -> np.ndarray:
        """The flat float32 observation of this observer's player (hidden information left out)."""

    @abc.abstractmethod
    def text(self, state: State) -> str:
        """A readable table of everything this player may see."""

    def action_text(self, state: State, action: int) -> str:
        """A legal action of `state` as this player reads it there (terminal play lists the choices with it).

        By default the label the state gives this player (`State.action_label_for`, which replays and logs use too,
        so a choice reads the same when offered and once played); a game adds what the action names in this
        position (the card, its cost, what it does), never what this player may not see.
        """
        return state.action_label_for(action, self.player)

    def report(self, before: State, player: int, action: int, after: State) -> list[str]:
        """What this player sees happen when `player` (or CHANCE) plays `action` in `before`, giving `after`.

        Terminal play writes these lines after each event's label: rolls' effects, gains and losses. By default
        nothing (the label says it all); a game reports only what this player may see.
        """
        return []

    @property
    def view_shapes(self) -> dict[str, tuple[int, ...]]:
        """The shape of every view (`ObservationLayout.shapes`); by default each view is a vector of its length."""
        shapes: dict[str, tuple[int, ...]] | None = self.__dict__.get("_view_shapes")
        if shapes is None:
            return {name: (part.stop - part.start,) for name, part in self.views.items()}
        return shapes

    @view_shapes.setter
    def view_shapes(self, shapes: dict[str, tuple[int, ...]]) -> None:
        self.__dict__["_view_shapes"] = dict(shapes)

    def view(self, observation: np.ndarray, name: str) -> np.ndarray:
        """The named part of an observation, reshaped to its view shape (e.g. 'resources', or a grid of planes).

        `observation` is one flat observation or a batch of them (the views are cut from the last axis).
        """
        part = observation[..., self.views[name]]
        return part.reshape(*observation.shape[:-1], *self.view_shapes[name])
