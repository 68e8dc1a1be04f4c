"""The frame engine of every stacked-decision game: decision, chance and automatic frames run from one table.

A game whose rules interleave decisions, draws and effects that interrupt one another keeps its whole progress as
a stack of `DecisionFrame`s (envs/core/decisions.py) in a `stack` field of its state. The frame on top is what
happens next. Each frame's `kind` names one entry of the game's `FRAME_KINDS` table, declared once, which says
what the frame is and which named methods of the state run it:

- `Decision(options, resolve, ...)`: the frame's seat decides. `options(frame)` lists the legal action ids;
  `resolve(frame, action)` carries one out. `no_option(frame)` runs when there is none (a piece with no legal
  place goes back to the supply); without it, such a decision lapses.
- `Chance(outcomes, resolve, nothing=...)`: nature decides (a draw, a roll); the frame's seat is `CHANCE`.
  `outcomes(frame)` lists (outcome, exact probability) pairs; `resolve(frame, outcome)` carries one out;
  `nothing(frame)` runs when there is nothing to draw (an empty pile); without it, such an event does nothing.
- `Automatic(resolve)`: a step of the rules, resolved at once (start a turn, score a round); never seen from
  outside.

    FRAME_KINDS: ClassVar[Mapping[str, FrameKind]] = {                # envs/toys/tug.py
        Kind.ROUND: Chance("_coin", "_round_starts"),
        Kind.INITIATIVE: Decision("_initiative_options", "_take_initiative"),
        Kind.END_ROUND: Automatic("_end_round"),
    }

The engine dispatches by kind through that table (compiled once per class into functions, so a subclass that
overrides a named method gets its own), never through a chain of `if kind == ...`. A kind is a string: a
`StrEnum` member gives typed kinds that save as their value and find their entry when loaded back as a string.

Running the stack (`_run`, after every applied action and once at setup): before every step `_game_over()` is
asked (then the stack is emptied, `_end_game()` runs and the state is terminal); an automatic frame is popped and
resolved; a chance frame with outcomes stops the run (its outcomes are cached), one with none is popped and
`nothing` runs; a decision with two or more options stops the run (its sorted options are cached); a decision
with one option is taken by the rules (the single-option collapse), unless its kind says `always_ask` or its
options are private (`options_public=False`: the count of a seat's options would tell the other seats what its
hidden hand holds, e.g. that it has no other playable card); a decision with no option is popped and `no_option`
runs. Resolving a frame pops it first; a rule that needs more steps pushes frames with `_push`, the first given
resolved first. The stack empties when the game ends: `current_player()` is then `TERMINAL`.

Interrupt and resume. A rule may stop an effect half way to ask or draw something (an event inside a card's
effect, a level-up in the middle of a card). The effect's continuation is itself a frame, pushed beneath the
interrupting frames, that carries everything needed to go on (the card and the index of its next step); so it
resumes once the interruption is resolved, even if the card has left play meanwhile, because it reads the card's
effect by its id, not from the cards in play:

    def _resolve_effect(self, frame: DecisionFrame) -> None:           # Kind.EFFECT: Automatic("_resolve_effect")
        card, seat = frame.detail("card"), frame.detail("seat")
        steps = CARDS[card].steps
        for index in range(frame.detail("step"), len(steps)):
            interruption = STEP_RULES[steps[index].kind](self, seat, steps[index].amount)
            if interruption:  # (new_frame(seat, Kind.LEVEL_UP),) or (new_frame(CHANCE, Kind.EVENT, seat=seat),)
                self._push(*interruption, new_frame(seat, Kind.EFFECT, card=card, seat=seat, step=index + 1))
                return

(envs/toys/spellbook.py runs this pattern; its tests interrupt an effect with an event and with a level-up that
sends the card back to its owner's hand, and the effect still finishes.)

Initiative: when either seat may act next, the seat holding the initiative decides between acting (and keeping
it), handing it over and ending the round, in one decision frame of its own. Handing over pushes the same kind of
frame for the other seat and spends one of a bounded number of hand-overs, so a round (and the game) ends: once
they are spent, "hand over" is no longer an option. (envs/toys/tug.py)

Standing orders: a reaction that is always legal (leaving a party, retreating) would double every episode if it
were offered as a decision to every seat after every action. Instead a seat gives it as a standing order at one of
its own decisions ("leave once I hold 2 wounds"), the order is kept in the state, and an automatic frame pushed
after every event carries out the orders whose condition now holds, without asking. (envs/toys/party.py)

Caches. The legal actions and chance outcomes of the frame on top are cached on the state (`_legal`,
`_outcomes`): the run computes them anyway to know whether to stop, and agents ask for them many times. They are
plain attributes, not fields of the state: never saved, never compared. A clone shares them (it is the same
position, and they are immutable); `_apply` drops them. Anything else that changes a state in place must call
`drop_caches()`: above all `resample_hidden`, which redraws hidden cards that the cached options and outcomes
were computed from (a stale cache would offer the original deck's outcomes and the decider's original hand).

Saved positions. The game declares `stack` as a saved field; its validation calls `check_frames(num_seats)`
(every kind known, every seat fitting its kind) once the other fields are checked, then either refuses a stack
the rules would still run (`is_settled()` False: an automatic step on top, a decision the rules would take) or,
to accept hand-written positions, calls `_run()` to settle it.

Speed: `_run` runs on every step. It holds one dict look-up and one tuple unpacking per frame, calls the game's
methods directly, and allocates nothing but the shorter stack; `new_frame` shares equal frames. The hooks
`_game_over`, `_end_game` and `_count_decision` are plain methods a game overrides (`_game_over` is not even
called unless it is). `python -m benchmarks.frame_engine` times them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, cast

import numpy as np

from envs.core.chance import first_above
from envs.core.decisions import DecisionFrame, DecisionStack
from envs.core.game import CHANCE, TERMINAL, State, StateFormatError


@dataclass(frozen=True, slots=True)
class Decision:
    """A frame kind where the frame's seat decides: named methods for its options and for carrying one out."""

    options: str
    """Method `(frame) -> Sequence[int]`: the legal action ids (any order; the engine sorts them)."""
    resolve: str
    """Method `(frame, action) -> None`: carry out the chosen action (the frame is already popped)."""
    no_option: str | None = None
    """Method `(frame) -> None` run when there is no legal option; None: the decision lapses."""
    always_ask: bool = False
    """Ask even when there is one option (a decision that must be seen to be taken, e.g. a confirmation)."""
    options_public: bool = True
    """Whether every seat knows how many options the decider has. When False a single option is still asked:
    taking it at once would tell the other seats that the decider's hidden cards offer nothing else."""


@dataclass(frozen=True, slots=True)
class Chance:
    """A frame kind where nature decides: named methods for its outcomes, for one outcome, and for no outcome."""

    outcomes: str
    """Method `(frame) -> Sequence[tuple[int, float]]`: (outcome, exact probability) pairs, empty when there is
    nothing to draw. The engine keeps the sequence: return an immutable or a fresh one."""
    resolve: str
    """Method `(frame, outcome) -> None`: carry out the outcome (the frame is already popped)."""
    nothing: str | None = None
    """Method `(frame) -> None` run when there are no outcomes (an empty pile); None: the event does nothing."""


@dataclass(frozen=True, slots=True)
class Automatic:
    """A frame kind that is a step of the rules: resolved at once by a named method, never seen from outside."""

    resolve: str
    """Method `(frame) -> None` (the frame is already popped)."""


FrameKind = Decision | Chance | Automatic
"""One entry of a game's `FRAME_KINDS` table."""

_DECISION, _CHANCE, _AUTOMATIC = 0, 1, 2
"""Roles of a compiled kind (ints: the hot loop compares them)."""

_Handlers = tuple[int, Callable[..., Any] | None, Callable[..., Any], Callable[..., Any] | None, bool]
"""A compiled kind: (role, options or outcomes method, resolve method, no-option or nothing method,
ask a single option)."""


class UnknownFrameKindError(KeyError):
    """A frame whose kind is not in its state's `FRAME_KINDS`; names the kind and the known ones."""

    def __init__(self, owner: str, kind: str, known: Sequence[str]) -> None:
        super().__init__(f"{owner} has no frame kind {kind!r}; its FRAME_KINDS are {sorted(known)}")


FRAME_CACHE = 8192
"""Distinct frames kept by `new_frame` (a game makes a few hundred; they recur from game to game)."""


@functools.lru_cache(maxsize=FRAME_CACHE)
def new_frame(decider: int, kind: str, reason: str = "", /, **details: Any) -> DecisionFrame:
    """A frame for `decider` (a seat or CHANCE) with its details as keywords (hashable, JSON-able values).

    Cached: a frame is immutable, so equal arguments share one frame (rules make several frames per step, most of
    them made before)."""
    return DecisionFrame(decider, kind, reason, tuple(details.items()))


def _method(cls: type, kind: str, role: str, name: str | None) -> Callable[..., Any] | None:
    """The function `cls` has under `name` (None for None); TypeError naming the kind and the role otherwise."""
    if name is None:
        return None
    function = getattr(cls, name, None)
    if not callable(function):
        raise TypeError(f"{cls.__name__}.FRAME_KINDS[{kind!r}]: {role} names {name!r}, which is not a method")
    return function


def compile_frame_kinds(cls: type, kinds: Mapping[str, FrameKind]) -> dict[str, _Handlers]:
    """Each kind's handlers as functions of `cls`; TypeError naming the kind for a bad entry or a missing method."""
    compiled: dict[str, _Handlers] = {}
    for kind, entry in kinds.items():
        if not isinstance(kind, str) or not kind:
            raise TypeError(f"{cls.__name__}.FRAME_KINDS: a kind is a non-empty string, got {kind!r}")
        key = str.__str__(kind)  # the plain value: `str()` of a (str, Enum) member would be its name
        if isinstance(entry, Decision):
            resolve = _method(cls, kind, "resolve", entry.resolve)
            assert resolve is not None
            compiled[key] = (
                _DECISION,
                _method(cls, kind, "options", entry.options),
                resolve,
                _method(cls, kind, "no_option", entry.no_option),
                entry.always_ask or not entry.options_public,
            )
        elif isinstance(entry, Chance):
            resolve = _method(cls, kind, "resolve", entry.resolve)
            assert resolve is not None
            compiled[key] = (
                _CHANCE,
                _method(cls, kind, "outcomes", entry.outcomes),
                resolve,
                _method(cls, kind, "nothing", entry.nothing),
                False,
            )
        elif isinstance(entry, Automatic):
            resolve = _method(cls, kind, "resolve", entry.resolve)
            assert resolve is not None
            compiled[key] = (_AUTOMATIC, None, resolve, None, False)
        else:
            raise TypeError(
                f"{cls.__name__}.FRAME_KINDS[{kind!r}]: expected a Decision, Chance or Automatic, got {entry!r}"
            )
    return compiled


class FrameEngine(State):
    """A State whose rules run as a stack of frames, dispatched by kind through the class's `FRAME_KINDS`.

    The game's state class declares `FRAME_KINDS` and a `stack: DecisionStack` field, implements the methods
    the table names, and calls `_run()` once its initial stack is pushed. The engine supplies `current_player`,
    `legal_actions`, `chance_outcomes`, `_apply` and `sample_chance`.
    """

    FRAME_KINDS: ClassVar[Mapping[str, FrameKind]] = {}
    """Every frame kind of the game: what it is and which methods run it."""
    _frame_handlers: ClassVar[dict[str, _Handlers]] = {}
    """`FRAME_KINDS` compiled for this very class (see `__init_subclass__`)."""
    _ends_early: ClassVar[bool] = False
    """Whether the class overrides `_game_over` (if not, `_run` does not call it)."""

    stack: DecisionStack
    """Pending frames, the next one last (the game declares it as a saved field)."""
    _legal: tuple[int, ...] | None = None
    """Cache: the sorted options of the decision on top (not saved; see the module docstring)."""
    _outcomes: Sequence[tuple[int, float]] | None = None
    """Cache: the outcomes of the chance event on top (read-only; not saved)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # Compiled per class, so that a subclass overriding a named method dispatches to its own.
        cls._frame_handlers = compile_frame_kinds(cls, cls.FRAME_KINDS)
        cls._ends_early = cls._game_over is not FrameEngine._game_over

    # ------------------------------------------------------------------------------------------ the contract
    def current_player(self) -> int:
        """The seat of the frame on top (CHANCE for a chance event), or TERMINAL once the stack is empty."""
        stack = self.stack
        return stack[-1].seat if stack else TERMINAL

    def legal_actions(self) -> list[int]:
        """Sorted legal action ids of the decision on top ([] at chance and terminal nodes)."""
        stack = self.stack
        if not stack or stack[-1].seat == CHANCE:
            return []
        legal = self._legal
        if legal is None:
            options = self._handlers(stack[-1].kind)[1]
            assert options is not None
            legal = self._legal = tuple(sorted(options(self, stack[-1])))
        return list(legal)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(outcome, probability) pairs of the chance event on top ([] at decision and terminal nodes)."""
        stack = self.stack
        if not stack or stack[-1].seat != CHANCE:
            return []
        outcomes = self._outcomes
        if outcomes is None:
            compute = self._handlers(stack[-1].kind)[1]
            assert compute is not None
            outcomes = self._outcomes = compute(self, stack[-1])
        return list(outcomes)

    def sample_chance(self, rng: np.random.Generator) -> int:
        """Draw the chance outcome with its exact probability from `rng` (one uniform draw, no arrays)."""
        outcomes = self._outcomes if self._outcomes is not None else self.chance_outcomes()
        if len(outcomes) == 1:
            return outcomes[0][0]
        # One uniform draw against the running total (the outcomes' probabilities sum to 1: no rescaling).
        return first_above(outcomes, rng.random())

    def _apply(self, action: int) -> None:
        """Pop the frame on top, carry out `action` (a decision or a chance outcome) with it, then run the stack."""
        stack = self.stack
        frame = stack[-1]
        self.stack = stack[:-1]
        self._legal = self._outcomes = None
        role, _, resolve, _, _ = self._frame_handlers[frame.kind]  # known: `_run` stopped at this frame
        if role == _DECISION:
            self._count_decision(frame)
        resolve(self, frame, action)
        self._run()

    # ------------------------------------------------------------------------------------------ the engine
    def _run(self) -> None:
        """Resolve automatic steps and single-option decisions until a real decision, a chance event or the end."""
        handlers = self._frame_handlers
        ends_early = self._ends_early
        while True:
            if ends_early and self._game_over():
                self.stack = ()
                self._end_game()
                return
            stack = self.stack
            if not stack:
                return
            frame = stack[-1]
            try:
                role, options_of, resolve, on_empty, ask_single = handlers[frame.kind]
            except KeyError:
                raise UnknownFrameKindError(type(self).__name__, frame.kind, list(handlers)) from None
            if role == _AUTOMATIC:
                self.stack = stack[:-1]
                resolve(self, frame)
                continue
            assert options_of is not None
            options = options_of(self, frame)
            if role == _CHANCE:
                if options:
                    self._outcomes = options
                    return
            else:
                count = len(options)
                if count > 1 or (count and ask_single):
                    self._legal = tuple(sorted(options))
                    return
                if count:
                    self.stack = stack[:-1]
                    resolve(self, frame, options[0])
                    continue
            self.stack = stack[:-1]  # a decision with no option, or an event with nothing to draw
            if on_empty is not None:
                on_empty(self, frame)

    def _push(self, *frames: DecisionFrame) -> None:
        """Push frames so that the first given is resolved first."""
        self.stack = (*self.stack, *reversed(frames))

    def _handlers(self, kind: str) -> _Handlers:
        """The compiled handlers of a frame kind; UnknownFrameKindError naming it and the known ones."""
        handlers = self._frame_handlers.get(kind)
        if handlers is None:
            raise UnknownFrameKindError(type(self).__name__, kind, list(self._frame_handlers))
        return handlers

    # ------------------------------------------------------------------------------------------ hooks
    def _game_over(self) -> bool:
        """Whether the rules end the game now, asked before every step of `_run` (keep it cheap). By default the
        game ends only when its stack runs out."""
        return False

    def _end_game(self) -> None:
        """Called once the game is over and the stack emptied (set a game's own end-of-game fields here)."""

    def _count_decision(self, frame: DecisionFrame) -> None:
        """Called before a seat's decision is carried out (not for decisions the rules take): count it here."""

    # ------------------------------------------------------------------------------------------ queries
    def decision(self) -> DecisionFrame | None:
        """The pending decision (who decides, what and why), or None at chance and terminal nodes."""
        stack = self.stack
        if not stack or stack[-1].seat == CHANCE:
            return None
        return stack[-1]

    def drop_caches(self) -> None:
        """Forget the cached options and outcomes: call it after changing the state other than by `_apply`
        (`resample_hidden` redrawing hidden cards, a test editing a field)."""
        self._legal = self._outcomes = None

    def settle_saved(self) -> None:
        """Settle a position read from a saved dict (`state_from_dict`): a hand-written one may start on an automatic
        step or a decision the rules would take; `_run` takes them, and the position they lead to is validated again
        (the steps must lead to a position that can happen, too). A saved state's stack is settled already."""
        stack = self.stack
        self._run()
        if self.stack is not stack:
            cast(Any, self).validate()  # the game's declared state (envs.core.record.StateRecord) validates

    def is_settled(self) -> bool:
        """Whether `_run` would leave the state as it is: the game is not over with frames pending, and the top
        frame is a chance event with outcomes or a decision the rules would ask (or the stack is empty)."""
        stack = self.stack
        if not stack:
            return True
        if self._game_over():
            return False
        role, options_of, _, _, ask_single = self._handlers(stack[-1].kind)
        if role == _AUTOMATIC:
            return False
        assert options_of is not None
        count = len(options_of(self, stack[-1]))
        if role == _CHANCE:
            return count > 0
        return count > 1 or (count == 1 and ask_single)

    def check_frames(self, num_seats: int, field_name: str = "stack") -> None:
        """Every frame's kind is in `FRAME_KINDS` and its seat fits its kind (CHANCE for chance events, a seat
        0..num_seats-1 otherwise); StateFormatError naming the frame otherwise. For a state's validation."""
        handlers = self._frame_handlers
        for index, frame in enumerate(self.stack):
            where = f"{field_name}[{index}]"
            compiled = handlers.get(frame.kind)
            if compiled is None:
                raise StateFormatError(
                    f"{where}.kind", f"unknown frame kind {frame.kind!r} (kinds: {sorted(handlers)})"
                )
            if compiled[0] == _CHANCE and frame.seat != CHANCE:
                raise StateFormatError(f"{where}.seat", f"{frame.kind!r} is a chance event: its seat is {CHANCE}")
            if compiled[0] != _CHANCE and not 0 <= frame.seat < num_seats:
                raise StateFormatError(
                    f"{where}.seat", f"{frame.kind!r} needs a seat 0..{num_seats - 1}, got {frame.seat}"
                )
