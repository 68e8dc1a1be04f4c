"""Party: a 2-3 seat toy of the standing-orders pattern on the frame engine (envs/core/engine.py).

Rules. The seats explore a dungeon together. A face-down deck holds `TREASURES` treasures and `TRAPS` traps (each
draw is a chance event weighted by the cards left). The party's leader, in turn among the seats still in it,
decides:

- leave: it leaves the party and banks its loot;
- explore, giving its standing order t (0: none): a card is drawn. A treasure gives every seat in the party one
  loot, a trap one wound to each. A seat with `KNOCKED_OUT` wounds is carried out and loses its loot. Then every
  seat in the party whose standing order is t > 0 and who holds t wounds or more leaves and banks its loot.

Leaving is a reaction that is always legal, also in another seat's turn; asking every seat after every card
whether it leaves would multiply the decisions. The standing order (kept in the state, given with each own
exploration) is carried out by the rules between draws instead. The expedition ends when the party is empty or the
deck runs out; the seats still in it bank their loot. The single seat with most banked loot wins (+1), every other
seat gets -1 (0 to each seat that shares first place).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar

from envs.core.components import pile_outcomes
from envs.core.decisions import DecisionFrame, DecisionStack
from envs.core.engine import Automatic, Chance, Decision, FrameEngine, FrameKind, new_frame
from envs.core.game import CHANCE, Game, GameSpec, Observer, State, StateFormatError
from envs.core.record import DecisionStackCodec, StateRecord
from envs.toys.frame_support import INTS, NO_NAMES, FeatureObserver, check_per_seat, check_range

MAX_SEATS = 3
TREASURES, TRAPS = 6, 4
TREASURE, TRAP = 0, 1
"""Card ids."""
KNOCKED_OUT = 3
"""Wounds that carry a seat out of the party, its loot lost."""
LEAVE, EXPLORE = 0, 1
"""Action ids: LEAVE; EXPLORE + t explores with the standing order "leave at t wounds" (t = 0: no order)."""
NUM_ACTIONS = EXPLORE + KNOCKED_OUT


class Kind(enum.StrEnum):
    """The frame kinds of Party."""

    LEAD = "lead"
    DRAW = "draw"
    ORDERS = "standing orders"
    NEXT_LEADER = "next leader"


@dataclass(eq=False)
class PartyState(StateRecord, FrameEngine):
    """The deck, who is in the party, loot, banked loot, wounds, standing orders, the leader and the frames."""

    game: PartyGame
    deck: Annotated[tuple[int, ...], INTS] = (TREASURES, TRAPS)
    """Cards left, per card id."""
    in_party: Annotated[tuple[int, ...], INTS] = ()
    """1 for each seat still in the party."""
    loot: Annotated[tuple[int, ...], INTS] = ()
    banked: Annotated[tuple[int, ...], INTS] = ()
    wounds: Annotated[tuple[int, ...], INTS] = ()
    orders: Annotated[tuple[int, ...], INTS] = ()
    """Each seat's standing order: leave once it holds this many wounds (0: stay)."""
    leader: int = 0
    stack: Annotated[DecisionStack, DecisionStackCodec()] = ()

    FRAME_KINDS: ClassVar[Mapping[str, FrameKind]] = {
        Kind.LEAD: Decision("_lead_options", "_lead"),
        Kind.DRAW: Chance("_draw_outcomes", "_drawn"),
        Kind.ORDERS: Automatic("_carry_out_orders"),
        Kind.NEXT_LEADER: Automatic("_next_leader"),
    }

    @property
    def num_players(self) -> int:
        """Seats in this game."""
        return self.game.spec.num_players

    # ------------------------------------------------------------------------------------------ frames
    def _lead_options(self, frame: DecisionFrame) -> list[int]:
        return [LEAVE, *(EXPLORE + order for order in range(KNOCKED_OUT))]

    def _lead(self, frame: DecisionFrame, action: int) -> None:
        seat = frame.seat
        if action == LEAVE:
            self._leave(seat, banks=True)
            self._push(new_frame(seat, Kind.NEXT_LEADER))
            return
        self.orders = _with(self.orders, seat, action - EXPLORE)
        self._push(new_frame(CHANCE, Kind.DRAW), new_frame(seat, Kind.ORDERS), new_frame(seat, Kind.NEXT_LEADER))

    def _draw_outcomes(self, frame: DecisionFrame) -> list[tuple[int, float]]:
        return pile_outcomes(self.deck)  # never empty here: the expedition ends when the deck runs out

    def _drawn(self, frame: DecisionFrame, card: int) -> None:
        self.deck = _with(self.deck, card, self.deck[card] - 1)
        for seat in self._members():
            if card == TREASURE:
                self.loot = _with(self.loot, seat, self.loot[seat] + 1)
            else:
                self.wounds = _with(self.wounds, seat, self.wounds[seat] + 1)
                if self.wounds[seat] >= KNOCKED_OUT:
                    self._leave(seat, banks=False)

    def _carry_out_orders(self, frame: DecisionFrame) -> None:
        """The standing orders: every seat whose wounds reached its order leaves, without being asked."""
        for seat in self._members():
            if 0 < self.orders[seat] <= self.wounds[seat]:
                self._leave(seat, banks=True)

    def _next_leader(self, frame: DecisionFrame) -> None:
        members = self._members()
        if not members or not sum(self.deck):
            for seat in members:
                self._leave(seat, banks=True)
            return  # the stack is empty: the game is over
        n = self.num_players
        self.leader = next(s for s in ((self.leader + k) % n for k in range(1, n + 1)) if self.in_party[s])
        self._push(new_frame(self.leader, Kind.LEAD))

    def _members(self) -> list[int]:
        return [seat for seat, member in enumerate(self.in_party) if member]

    def _leave(self, seat: int, banks: bool) -> None:
        self.in_party = _with(self.in_party, seat, 0)
        if banks:
            self.banked = _with(self.banked, seat, self.banked[seat] + self.loot[seat])
        self.loot = _with(self.loot, seat, 0)

    # ------------------------------------------------------------------------------------------ contract
    def returns(self) -> list[float]:
        """+1 to a sole top banker, -1 below the top, 0 to seats sharing the top (0 each before the end)."""
        if self.stack:
            return [0.0] * self.num_players
        best = max(self.banked)
        top = self.banked.count(best)
        return [(1.0 if top == 1 else 0.0) if banked == best else -1.0 for banked in self.banked]

    def score(self) -> list[float]:
        """Banked loot."""
        return [float(banked) for banked in self.banked]

    def chance_label(self, outcome: int) -> str:
        """The card drawn."""
        return "a treasure" if outcome == TREASURE else "a trap"

    def validate(self) -> None:
        """Ranges, one entry per seat, and the frames."""
        n = self.num_players
        check_per_seat(self.deck, 2, "deck")
        check_range(self.deck[TREASURE], 0, TREASURES, "deck[0]")
        check_range(self.deck[TRAP], 0, TRAPS, "deck[1]")
        for name, high in (("in_party", 1), ("loot", TREASURES), ("banked", TREASURES), ("wounds", KNOCKED_OUT)):
            values = getattr(self, name)
            check_per_seat(values, n, name)
            for seat, value in enumerate(values):
                check_range(value, 0, high, f"{name}[{seat}]")
        check_per_seat(self.orders, n, "orders")
        for seat, order in enumerate(self.orders):
            check_range(order, 0, KNOCKED_OUT - 1, f"orders[{seat}]")
        check_range(self.leader, 0, n - 1, "leader")
        self.check_frames(n)
        if not self.is_settled():
            raise StateFormatError("stack", "the frame on top is one the rules resolve at once")


def _with(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return (*values[:index], value, *values[index + 1 :])


class PartyGame(Game):
    """Party for 2-3 seats."""

    def __init__(self, num_players: int = 3) -> None:
        self.spec = GameSpec(
            name="party",
            num_players=num_players,
            num_actions=NUM_ACTIONS,
            max_game_length=TREASURES + TRAPS + num_players,
            min_players=2,
            max_players=MAX_SEATS,
            utility="zero_sum" if num_players == 2 else "general_sum",
        )
        self.name_tables = NO_NAMES

    def new_initial_state(self) -> PartyState:
        """Everyone in the party, seat 0 leads."""
        n = self.spec.num_players
        zeros = (0,) * n
        state = PartyState(game=self, in_party=(1,) * n, loot=zeros, banked=zeros, wounds=zeros, orders=zeros)
        state._push(new_frame(0, Kind.LEAD))
        state._run()
        return state

    def state_from_dict(self, data: dict[str, Any]) -> PartyState:
        """The state `to_dict` described; StateFormatError naming the bad field."""
        return PartyState.from_dict(self, data)

    def action_label(self, action: int) -> str:
        """Leave, or explore with a standing order."""
        if action == LEAVE:
            return "leave the party"
        order = action - EXPLORE
        return f"explore, leaving at {order} wounds" if order else "explore, no standing order"

    def observer(self, player: int | None = 0) -> Observer:
        """Everything is public."""
        n = MAX_SEATS
        layout = [("deck", 2), ("in_party", n), ("loot", n), ("banked", n), ("wounds", n), ("orders", n), ("leader", n)]
        return FeatureObserver(player, layout, _features)


def _features(state: State, player: int | None) -> dict[str, list[float]]:
    assert isinstance(state, PartyState)
    leader = [0.0] * state.num_players
    leader[state.leader] = 1.0
    values = {name: [float(v) for v in getattr(state, name)] for name in ("in_party", "loot", "banked", "wounds")}
    return {
        "deck": [float(c) for c in state.deck],
        **values,
        "orders": [float(o) for o in state.orders],
        "leader": leader,
    }
