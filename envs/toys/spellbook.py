"""Spellbook: a two-seat toy of effects that are interrupted and resume, on the frame engine (envs/core/engine.py).

Rules. A face-down deck holds the cards of `CARDS` (`COPIES` of each); each seat is dealt `HAND_SIZE` cards, which
only it sees. The seats take `MAX_TURNS` turns in alternation. A turn: the seat draws a card (nothing when the
deck is empty), then plays one card its level allows or passes. A played card is in play while its effect
resolves, step by step, and then goes to the discard:

- points n: the seat gains n points;
- xp n: the seat gains n experience; at `XP_PER_LEVEL` it spends them and gains a level (up to `MAX_LEVEL`) and
  chooses a perk at once, in the middle of the effect: two points, or recall (the card in play goes back to its
  hand; only while a card is in play);
- event: an event is drawn (chance, uniform): storm (every seat loses a point), gust (the card in play is blown to
  the discard), boon (the seat gains a point).

Whatever happens to the card, its effect goes on to the end. The game ends at once when a seat reaches `TARGET`
points (even in the middle of an effect), else after the last turn; more points win (+1, -1; 0 each on a tie).

Engine patterns shown: the effect's continuation is an automatic frame with the card and the next step's index,
pushed beneath the interruption (a level-up decision, an event); the play decision's options are private
(`options_public=False`: a seat whose hand offers only "pass" is still asked), the perk choice's are public (with
no card in play the only perk is taken by the rules); `_game_over` ends the game mid-effect; `_count_decision`
counts the seats' decisions; `resample_hidden` drops the cached options and outcomes.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar

import numpy as np

from envs.core.components import pile_outcomes, uniform_outcomes
from envs.core.decisions import DecisionFrame, DecisionStack
from envs.core.engine import Automatic, Chance, Decision, FrameEngine, FrameKind, new_frame
from envs.core.game import CHANCE, Game, GameSpec, Observer, State, StateFormatError
from envs.core.hidden import redeal
from envs.core.record import DecisionStackCodec, StateRecord
from envs.toys.frame_support import INT_ROWS, INTS, NO_NAMES, FeatureObserver, check_per_seat, check_range

SEATS = 2
HAND_SIZE = 2
MAX_TURNS = 10
TARGET = 8
XP_PER_LEVEL = 2
MAX_LEVEL = 3
NONE = -1
"""No card in play."""


class StepKind(enum.StrEnum):
    """What one step of a card's effect does."""

    POINTS = "points"
    XP = "xp"
    EVENT = "event"


@dataclass(frozen=True)
class Step:
    """One step of an effect: its kind and amount."""

    kind: StepKind
    amount: int = 0


@dataclass(frozen=True)
class Card:
    """A card: its name, the level it needs and its effect's steps."""

    name: str
    level: int
    steps: tuple[Step, ...]


POINTS, XP, EVENT = StepKind
CARDS = (
    Card("spark", 1, (Step(POINTS, 1),)),
    Card("study", 1, (Step(XP, 2), Step(POINTS, 1))),
    Card("omen", 1, (Step(EVENT), Step(POINTS, 1))),
    Card("ritual", 2, (Step(XP, 1), Step(EVENT), Step(XP, 1), Step(POINTS, 2))),
    Card("nova", 3, (Step(POINTS, 3),)),
)
COPIES = (3, 3, 2, 3, 2)
SPARK, STUDY, OMEN, RITUAL, NOVA = range(len(CARDS))
EVENTS = ("storm", "gust", "boon")
STORM, GUST, BOON = range(len(EVENTS))
PLAY = 0
"""Action ids: PLAY + card, then PASS and the two perks."""
PASS = len(CARDS)
PERK_POINTS, PERK_RECALL = PASS + 1, PASS + 2
PERK_VALUE = 2
NUM_ACTIONS = PERK_RECALL + 1


class Kind(enum.StrEnum):
    """The frame kinds of Spellbook."""

    START_TURN = "start turn"
    DRAW = "draw"
    PLAY = "play"
    EFFECT = "effect"
    LEVEL_UP = "level up"
    EVENT = "event"
    CLEANUP = "cleanup"
    END_TURN = "end turn"


@dataclass(eq=False)
class SpellbookState(StateRecord, FrameEngine):
    """Deck, hands, discard, the card in play, each seat's points, experience and level, the turn and the frames."""

    game: SpellbookGame
    deck: Annotated[tuple[int, ...], INTS] = COPIES
    """Copies per card left in the deck (hidden)."""
    hands: Annotated[tuple[tuple[int, ...], ...], INT_ROWS] = ((0,) * len(CARDS),) * SEATS
    """Copies per card in each hand (each seen by its seat only)."""
    discard: Annotated[tuple[int, ...], INTS] = (0,) * len(CARDS)
    in_play: int = NONE
    points: Annotated[tuple[int, ...], INTS] = (0,) * SEATS
    xp: Annotated[tuple[int, ...], INTS] = (0,) * SEATS
    level: Annotated[tuple[int, ...], INTS] = (1,) * SEATS
    active: int = 0
    turn: int = 0
    over: bool = False
    """A seat reached TARGET points."""
    decisions: int = 0
    """Decisions the seats took (those the rules took are not counted)."""
    stack: Annotated[DecisionStack, DecisionStackCodec()] = ()

    FRAME_KINDS: ClassVar[Mapping[str, FrameKind]] = {
        Kind.START_TURN: Automatic("_start_turn"),
        Kind.DRAW: Chance("_draw_outcomes", "_drawn"),
        Kind.PLAY: Decision("_play_options", "_play", options_public=False),
        Kind.EFFECT: Automatic("_resolve_effect"),
        Kind.LEVEL_UP: Decision("_perk_options", "_take_perk"),
        Kind.EVENT: Chance("_event_outcomes", "_event"),
        Kind.CLEANUP: Automatic("_cleanup"),
        Kind.END_TURN: Automatic("_end_turn"),
    }

    # ------------------------------------------------------------------------------------------ turns
    def _start_turn(self, frame: DecisionFrame) -> None:
        seat = self.active
        self._push(new_frame(CHANCE, Kind.DRAW, seat=seat), new_frame(seat, Kind.PLAY), new_frame(seat, Kind.END_TURN))

    def _draw_outcomes(self, frame: DecisionFrame) -> list[tuple[int, float]]:
        return pile_outcomes(self.deck) if sum(self.deck) else []  # an empty deck: nothing is drawn

    def _drawn(self, frame: DecisionFrame, card: int) -> None:
        seat = frame.detail("seat")
        self.deck = _add(self.deck, card, -1)
        self.hands = _with(self.hands, seat, _add(self.hands[seat], card, 1))

    def _play_options(self, frame: DecisionFrame) -> list[int]:
        seat = frame.seat
        hand, level = self.hands[seat], self.level[seat]
        return [PASS, *(PLAY + card for card, copies in enumerate(hand) if copies and CARDS[card].level <= level)]

    def _play(self, frame: DecisionFrame, action: int) -> None:
        if action == PASS:
            return
        seat, card = frame.seat, action - PLAY
        self.hands = _with(self.hands, seat, _add(self.hands[seat], card, -1))
        self.in_play = card
        self._push(new_frame(seat, Kind.EFFECT, card=card, seat=seat, step=0), new_frame(seat, Kind.CLEANUP))

    def _cleanup(self, frame: DecisionFrame) -> None:
        if self.in_play != NONE:
            self.discard = _add(self.discard, self.in_play, 1)
            self.in_play = NONE

    def _end_turn(self, frame: DecisionFrame) -> None:
        self.turn += 1
        if self.turn < MAX_TURNS:
            self.active = 1 - self.active
            self._push(new_frame(self.active, Kind.START_TURN))

    # ------------------------------------------------------------------------------------------ effects
    def _resolve_effect(self, frame: DecisionFrame) -> None:
        card, seat = frame.detail("card"), frame.detail("seat")
        steps = CARDS[card].steps
        for index in range(frame.detail("step"), len(steps)):
            interruption = STEP_RULES[steps[index].kind](self, seat, steps[index].amount)
            if interruption:
                self._push(*interruption, new_frame(seat, Kind.EFFECT, card=card, seat=seat, step=index + 1))
                return

    def _gain_points(self, seat: int, amount: int) -> tuple[DecisionFrame, ...]:
        self.points = _add(self.points, seat, amount)
        return ()

    def _gain_xp(self, seat: int, amount: int) -> tuple[DecisionFrame, ...]:
        self.xp = _add(self.xp, seat, amount)
        if self.level[seat] < MAX_LEVEL and self.xp[seat] >= XP_PER_LEVEL:
            self.xp = _add(self.xp, seat, -XP_PER_LEVEL)
            self.level = _add(self.level, seat, 1)
            return (new_frame(seat, Kind.LEVEL_UP),)
        return ()

    def _draw_event(self, seat: int, amount: int) -> tuple[DecisionFrame, ...]:
        return (new_frame(CHANCE, Kind.EVENT, seat=seat),)

    def _perk_options(self, frame: DecisionFrame) -> list[int]:
        return [PERK_POINTS, PERK_RECALL] if self.in_play != NONE else [PERK_POINTS]

    def _take_perk(self, frame: DecisionFrame, action: int) -> None:
        seat = frame.seat
        if action == PERK_POINTS:
            self.points = _add(self.points, seat, PERK_VALUE)
        else:  # the card leaves play in the middle of its own effect
            self.hands = _with(self.hands, seat, _add(self.hands[seat], self.in_play, 1))
            self.in_play = NONE

    def _event_outcomes(self, frame: DecisionFrame) -> list[tuple[int, float]]:
        return uniform_outcomes(range(len(EVENTS)))

    def _event(self, frame: DecisionFrame, event: int) -> None:
        EVENT_RULES[event](self, frame.detail("seat"))

    def _storm(self, seat: int) -> None:
        self.points = tuple(max(0, p - 1) for p in self.points)

    def _gust(self, seat: int) -> None:
        self._cleanup(new_frame(seat, Kind.CLEANUP))

    def _boon(self, seat: int) -> None:
        self.points = _add(self.points, seat, 1)

    # ------------------------------------------------------------------------------------------ hooks
    def _game_over(self) -> bool:
        return max(self.points) >= TARGET

    def _end_game(self) -> None:
        self.over = True

    def _count_decision(self, frame: DecisionFrame) -> None:
        self.decisions += 1

    # ------------------------------------------------------------------------------------------ contract
    def returns(self) -> list[float]:
        """+1 to the seat with more points, -1 to the other, 0 each on a tie (0 each before the end)."""
        if self.stack or self.points[0] == self.points[1]:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.points[0] > self.points[1] else [-1.0, 1.0]

    def score(self) -> list[float]:
        """Points."""
        return [float(p) for p in self.points]

    def chance_label(self, outcome: int) -> str:
        """The card drawn or the event."""
        if self.stack[-1].kind == Kind.EVENT:
            return f"event: {EVENTS[outcome]}"
        return f"seat {self.stack[-1].detail('seat')} draws {CARDS[outcome].name}"

    def resample_hidden(self, player: int, rng: np.random.Generator) -> SpellbookState:
        """A clone whose deck and other hand are redealt from the cards `player` has not seen."""
        other = 1 - player
        pool = [a + b for a, b in zip(self.deck, self.hands[other], strict=True)]
        dealt = redeal(pool, {other: sum(self.hands[other]), "deck": sum(self.deck)}, {}, rng)
        clone = self.clone()
        clone.deck = dealt["deck"]
        clone.hands = _with(self.hands, other, dealt[other])
        clone.drop_caches()  # the cached outcomes and options were computed from the old deck and hand
        return clone

    def validate(self) -> None:
        """Ranges, every card somewhere once, and the frames."""
        for name in ("points", "xp", "level"):
            check_per_seat(getattr(self, name), SEATS, name)
        check_per_seat(self.hands, SEATS, "hands")
        for name, piles in (("deck", (self.deck,)), ("discard", (self.discard,)), ("hands", self.hands)):
            for pile in piles:
                if len(pile) != len(CARDS) or min(pile) < 0:
                    raise StateFormatError(name, f"expected {len(CARDS)} copy counts >= 0, got {list(pile)}")
        check_range(self.in_play, NONE, len(CARDS) - 1, "in_play")
        for card, copies in enumerate(COPIES):
            held = self.deck[card] + self.discard[card] + sum(hand[card] for hand in self.hands)
            if held + (self.in_play == card) != copies:
                raise StateFormatError("deck", f"{CARDS[card].name}: {copies} copies exist, the state holds {held}")
        for seat in range(SEATS):
            check_range(self.points[seat], 0, TARGET + PERK_VALUE + 1, f"points[{seat}]")
            check_range(self.level[seat], 1, MAX_LEVEL, f"level[{seat}]")
            check_range(self.xp[seat], 0, 2 * sum(COPIES), f"xp[{seat}]")
        check_range(self.active, 0, SEATS - 1, "active")
        check_range(self.turn, 0, MAX_TURNS, "turn")
        if self.over and self.stack:
            raise StateFormatError("over", "the game is over, yet frames are pending")
        self.check_frames(SEATS)
        if not self.is_settled():
            raise StateFormatError("stack", "the frame on top is one the rules resolve at once")


STEP_RULES: dict[StepKind, Callable[[SpellbookState, int, int], tuple[DecisionFrame, ...]]] = {
    StepKind.POINTS: SpellbookState._gain_points,
    StepKind.XP: SpellbookState._gain_xp,
    StepKind.EVENT: SpellbookState._draw_event,
}
"""Each kind of effect step and its rule; a rule returns the frames that interrupt the effect (none: it goes on)."""
EVENT_RULES: tuple[Callable[[SpellbookState, int], None], ...] = (
    SpellbookState._storm,
    SpellbookState._gust,
    SpellbookState._boon,
)
"""Each event's rule, by event id."""


def _with(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _add(counts: tuple[int, ...], index: int, amount: int) -> tuple[int, ...]:
    return _with(counts, index, counts[index] + amount)


class SpellbookGame(Game):
    """Spellbook for two seats."""

    def __init__(self) -> None:
        self.spec = GameSpec(
            name="spellbook",
            num_players=SEATS,
            num_actions=NUM_ACTIONS,
            max_game_length=MAX_TURNS + SEATS * (MAX_LEVEL - 1),
            min_players=SEATS,
            max_players=SEATS,
            utility="zero_sum",
            information="imperfect",
        )
        self.name_tables = NO_NAMES

    def new_initial_state(self) -> SpellbookState:
        """The deal, then seat 0's first turn."""
        state = SpellbookState(game=self)
        deal = [new_frame(CHANCE, Kind.DRAW, seat=seat) for _ in range(HAND_SIZE) for seat in range(SEATS)]
        state._push(*deal, new_frame(0, Kind.START_TURN))
        state._run()
        return state

    def state_from_dict(self, data: dict[str, Any]) -> SpellbookState:
        """The state `to_dict` described; StateFormatError naming the bad field."""
        return SpellbookState.from_dict(self, data)

    def action_label(self, action: int) -> str:
        """Play a card, pass, or a perk."""
        if action < PASS:
            return f"play {CARDS[action - PLAY].name}"
        return {PASS: "pass", PERK_POINTS: "perk: two points", PERK_RECALL: "perk: recall the card in play"}[action]

    def observer(self, player: int | None = 0) -> Observer:
        """The seat's own hand and everything public (hand sizes, discard, card in play, points, levels, turn)."""
        cards = len(CARDS)
        layout = [
            ("hand", cards),
            ("hand_sizes", SEATS),
            ("deck_size", 1),
            ("discard", cards),
            ("in_play", cards),
            ("points", SEATS),
            ("xp", SEATS),
            ("level", SEATS),
            ("active", SEATS),
            ("turn", 1),
        ]
        return FeatureObserver(player, layout, _features, high=float(2 * sum(COPIES)))


def _features(state: State, player: int | None) -> dict[str, list[float]]:
    assert isinstance(state, SpellbookState)
    in_play = [0.0] * len(CARDS)
    if state.in_play != NONE:
        in_play[state.in_play] = 1.0
    active = [0.0] * SEATS
    active[state.active] = 1.0
    views: dict[str, list[float]] = {} if player is None else {"hand": [float(c) for c in state.hands[player]]}
    views.update(
        hand_sizes=[float(sum(hand)) for hand in state.hands],
        deck_size=[float(sum(state.deck))],
        discard=[float(c) for c in state.discard],
        in_play=in_play,
        points=[float(p) for p in state.points],
        xp=[float(x) for x in state.xp],
        level=[float(level) for level in state.level],
        active=active,
        turn=[float(state.turn)],
    )
    return views
