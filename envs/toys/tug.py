"""Tug: a two-seat toy of the initiative pattern on the frame engine (envs/core/engine.py).

Rules. A rope starts at the centre (0; positive is seat 0's side). The game has `ROUNDS` rounds. A round starts
with a fair coin (chance) giving one seat the initiative. The seat holding it decides:

- pull: spend one energy, the rope moves one step to its side, and it keeps the initiative;
- hand over: the other seat holds the initiative (at most `HAND_OVERS` times a round, so a round ends);
- end the round.

Each seat starts with `START_ENERGY` energy and regains one at the end of every round. After the last round the
seat on whose side the rope lies wins (+1, the other -1); at the centre both get 0.

The initiative is one decision frame of the seat holding it; handing over pushes the same kind of frame for the
other seat. When the only option left is ending the round (no energy, no hand-over), the rules take it.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar

from envs.core.decisions import DecisionFrame, DecisionStack
from envs.core.engine import Automatic, Chance, Decision, FrameEngine, FrameKind, new_frame
from envs.core.game import CHANCE, Game, GameSpec, Observer, State, StateFormatError
from envs.core.record import DecisionStackCodec, StateRecord
from envs.toys.frame_support import INTS, NO_NAMES, FeatureObserver, check_per_seat, check_range

SEATS = 2
ROUNDS = 3
HAND_OVERS = 2
"""Hand-overs allowed in one round: the bound that makes every round end."""
START_ENERGY = 2
PULL, HAND_OVER, END_ROUND = range(3)
"""Action ids."""
ACTION_LABELS = ("pull", "hand over the initiative", "end the round")


class Kind(enum.StrEnum):
    """The frame kinds of Tug."""

    ROUND = "round start"
    INITIATIVE = "initiative"
    END_ROUND = "end of round"


@dataclass(eq=False)
class TugState(StateRecord, FrameEngine):
    """The rope, each seat's energy, the hand-overs left this round, the round and the frames."""

    game: TugGame
    rope: int = 0
    energy: Annotated[tuple[int, ...], INTS] = (START_ENERGY,) * SEATS
    hand_overs_left: int = 0
    round: int = 0
    stack: Annotated[DecisionStack, DecisionStackCodec()] = ()

    FRAME_KINDS: ClassVar[Mapping[str, FrameKind]] = {
        Kind.ROUND: Chance("_coin", "_round_starts"),
        Kind.INITIATIVE: Decision("_initiative_options", "_take_initiative"),
        Kind.END_ROUND: Automatic("_end_round"),
    }

    # ------------------------------------------------------------------------------------------ frames
    def _coin(self, frame: DecisionFrame) -> list[tuple[int, float]]:
        return [(seat, 1.0 / SEATS) for seat in range(SEATS)]

    def _round_starts(self, frame: DecisionFrame, holder: int) -> None:
        self.hand_overs_left = HAND_OVERS
        self._push(new_frame(holder, Kind.INITIATIVE))

    def _initiative_options(self, frame: DecisionFrame) -> list[int]:
        options = [END_ROUND]
        if self.energy[frame.seat]:
            options.append(PULL)
        if self.hand_overs_left:
            options.append(HAND_OVER)
        return options

    def _take_initiative(self, frame: DecisionFrame, action: int) -> None:
        seat = frame.seat
        if action == PULL:
            self.energy = tuple(e - (s == seat) for s, e in enumerate(self.energy))
            self.rope += 1 if seat == 0 else -1
            self._push(frame)  # it keeps the initiative
        elif action == HAND_OVER:
            self.hand_overs_left -= 1
            self._push(new_frame(1 - seat, Kind.INITIATIVE))
        # END_ROUND: nothing more this round; the end-of-round step beneath runs next.

    def _end_round(self, frame: DecisionFrame) -> None:
        self.round += 1
        self.hand_overs_left = 0
        self.energy = tuple(e + 1 for e in self.energy)
        if self.round < ROUNDS:
            self._push(new_frame(CHANCE, Kind.ROUND), new_frame(0, Kind.END_ROUND))

    # ------------------------------------------------------------------------------------------ contract
    def returns(self) -> list[float]:
        """+1 to the seat on whose side the rope lies, -1 to the other; 0 each at the centre or before the end."""
        if self.stack or self.rope == 0:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.rope > 0 else [-1.0, 1.0]

    def score(self) -> list[float]:
        """The rope's position from each seat's side."""
        return [float(self.rope), float(-self.rope)]

    def chance_label(self, outcome: int) -> str:
        """Which seat takes the initiative."""
        return f"seat {outcome} takes the initiative"

    def validate(self) -> None:
        """Ranges and frames."""
        check_per_seat(self.energy, SEATS, "energy")
        for seat, energy in enumerate(self.energy):
            check_range(energy, 0, START_ENERGY + ROUNDS, f"energy[{seat}]")
        check_range(self.hand_overs_left, 0, HAND_OVERS, "hand_overs_left")
        check_range(self.round, 0, ROUNDS, "round")
        check_range(self.rope, -(START_ENERGY + ROUNDS) * ROUNDS, (START_ENERGY + ROUNDS) * ROUNDS, "rope")
        self.check_frames(SEATS)
        if not self.is_settled():
            raise StateFormatError("stack", "the frame on top is one the rules resolve at once")


class TugGame(Game):
    """Tug for two seats."""

    def __init__(self) -> None:
        per_round = START_ENERGY + ROUNDS + HAND_OVERS + 1
        self.spec = GameSpec(
            name="tug",
            num_players=SEATS,
            num_actions=len(ACTION_LABELS),
            max_game_length=ROUNDS * per_round,
            min_players=SEATS,
            max_players=SEATS,
            utility="zero_sum",
        )
        self.name_tables = NO_NAMES

    def new_initial_state(self) -> TugState:
        """Round one's coin."""
        state = TugState(game=self)
        state._push(new_frame(CHANCE, Kind.ROUND), new_frame(0, Kind.END_ROUND))
        state._run()
        return state

    def state_from_dict(self, data: dict[str, Any]) -> TugState:
        """The state `to_dict` described; StateFormatError naming the bad field."""
        return TugState.from_dict(self, data)

    def action_label(self, action: int) -> str:
        """Pull, hand over or end the round."""
        return ACTION_LABELS[action]

    def observer(self, player: int | None = 0) -> Observer:
        """Everything is public: the rope, energies, hand-overs left, round and who holds the initiative."""
        return FeatureObserver(
            player, [("rope", 1), ("energy", SEATS), ("hand_overs", 1), ("round", 1), ("holder", SEATS)], _features
        )


def _features(state: State, player: int | None) -> dict[str, list[float]]:
    assert isinstance(state, TugState)
    holder = [0.0] * SEATS
    if 0 <= state.current_player() < SEATS:
        holder[state.current_player()] = 1.0
    return {
        "rope": [float(state.rope)],
        "energy": [float(e) for e in state.energy],
        "hand_overs": [float(state.hand_overs_left)],
        "round": [float(state.round)],
        "holder": holder,
    }
