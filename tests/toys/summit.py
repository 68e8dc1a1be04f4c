"""Summit: a climb against the clock, solo (a Gymnasium id) or as a team of 2-3 (a co-operative PettingZoo module).

It has the shape of a game with a solo Gymnasium env and a co-operative PettingZoo env under one registration
record (tests/toys/__init__.py): `make_env` plays one seat; `summit_coop_v0` plays 2-3 seats that share one
result. Both build `SummitGame`, whose default is one seat, so an env id routed by its record instead of by the
seats of the game it builds goes wrong here.

Rules (every random step is an explicit chance node with exact probabilities):

1. The team has `TURNS` turns in all; turn t belongs to seat t mod (number of seats).
2. On a turn the seat walks (+1 height, sure) or climbs: a d6 then decides, 1-2 a slip (+0), 3-6 +3 (on average 2).
   Once the height is at least `TARGET` the seat may also camp, which ends the climb at once.
3. When the turns run out, or on camping, the team wins (every seat +1) if the height is at least `TARGET`, else
   loses (every seat -1). The score is the height, the same for every seat.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from envs.adapters.gym_env import make_gym_env
from envs.core.game import CHANCE, TERMINAL, Game, GameSpec, Observer, State, StateFormatError

MAX_PLAYERS = 3
TURNS = 20
"""Turns of the whole team (a seat's turns are every n-th)."""
TARGET = 32
"""Height the team must reach by the end of its last turn."""
WALK, CLIMB, CAMP = 0, 1, 2
"""Action ids."""
ACTION_LABELS = ("walk", "climb", "camp")
SLIP_FACES = 2
"""A climb slips on a d6 of 1..SLIP_FACES."""
CLIMB_GAIN = 3
"""Height a climb gains when it does not slip."""
MAX_HEIGHT = CLIMB_GAIN * TURNS
ENV_ID = "tabletop/Summit-v0"


def climb_gain(face: int) -> int:
    """Height a climb gains on a d6 face."""
    return 0 if face <= SLIP_FACES else CLIMB_GAIN


@dataclasses.dataclass
class SummitState(State):
    """Height reached, turns taken and whether a climb waits for its die."""

    game: SummitGame
    height: int = 0
    turn: int = 0
    """Turns taken (TURNS once the team camps)."""
    climbing: bool = False
    """A climb was chosen: the next node is its die."""

    def current_player(self) -> int:
        """The seat whose turn it is, CHANCE for a climb's die, TERMINAL after the last turn."""
        if self.climbing:
            return CHANCE
        if self.turn == TURNS:
            return TERMINAL
        return self.turn % self.game.spec.num_players

    def legal_actions(self) -> list[int]:
        """Walk or climb on a turn, or camp once at the target; nothing otherwise."""
        if self.current_player() < 0:
            return []
        return [WALK, CLIMB, CAMP] if self.height >= TARGET else [WALK, CLIMB]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """A climb's d6: faces 1..6, a sixth each."""
        return [(face, 1.0 / 6.0) for face in range(1, 7)] if self.climbing else []

    def chance_label(self, outcome: int) -> str:
        """'d6 = 4: +3'."""
        return f"d6 = {outcome}: +{climb_gain(outcome)}"

    def _apply(self, action: int) -> None:
        if self.climbing:
            self.height += climb_gain(action)
            self.climbing = False
            self.turn += 1
        elif action == CLIMB:
            self.climbing = True
        elif action == CAMP:
            self.turn = TURNS  # no turn is left to take
        else:
            self.height += 1
            self.turn += 1

    def returns(self) -> list[float]:
        """Every seat +1 if the team reached TARGET, else -1 (0 until the end)."""
        n = self.game.spec.num_players
        if not self.is_terminal():
            return [0.0] * n
        return [1.0 if self.height >= TARGET else -1.0] * n

    def score(self) -> list[float]:
        """The height, for every seat."""
        return [float(self.height)] * self.game.spec.num_players

    def to_dict(self) -> dict[str, Any]:
        """Height, turn and the pending climb."""
        return {"height": self.height, "turn": self.turn, "climbing": self.climbing}

    def clone(self) -> SummitState:
        """An independent copy (every field is immutable)."""
        return dataclasses.replace(self)


class SummitGame(Game):
    """Summit for 1-3 seats: solo with one seat (the default), co-operative with more."""

    def __init__(self, num_players: int = 1) -> None:
        if isinstance(num_players, bool) or not isinstance(num_players, int):
            raise TypeError(f"num_players must be an int, got {num_players!r}")
        solo = num_players == 1
        self.spec = GameSpec(
            name="summit",
            num_players=num_players,
            num_actions=len(ACTION_LABELS),
            max_game_length=TURNS,
            min_players=1,
            max_players=MAX_PLAYERS,
            utility="solo" if solo else "cooperative",
            reward_modes=("win", "score"),  # the team shares one result, so there is no rank
        )

    def new_initial_state(self) -> SummitState:
        """At the foot, the first seat to move."""
        return SummitState(game=self)

    def state_from_dict(self, data: dict[str, Any]) -> SummitState:
        """The state `SummitState.to_dict` described; StateFormatError names a missing or impossible field."""
        for name, low, high in (("height", 0, MAX_HEIGHT), ("turn", 0, TURNS)):
            value = data.get(name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise StateFormatError(name, f"expected an integer in {low}..{high}, got {value!r}")
        if not isinstance(data.get("climbing"), bool):
            raise StateFormatError("climbing", f"expected true or false, got {data.get('climbing')!r}")
        if data["climbing"] and data["turn"] == TURNS:
            raise StateFormatError("climbing", "a climb after the last turn")
        return SummitState(game=self, height=data["height"], turn=data["turn"], climbing=data["climbing"])

    def action_label(self, action: int) -> str:
        """'walk', 'climb' or 'camp'."""
        return ACTION_LABELS[action]

    def observer(self, player: int | None = 0) -> SummitObserver:
        """Seat `player`'s view (the seats relative to it), or with None the public view."""
        return SummitObserver(self, player)


class SummitObserver(Observer):
    """Height, turns left, the pending climb and per-seat facts sized for 3 seats ("me" first): equal for 1-3."""

    def __init__(self, game: SummitGame, player: int | None) -> None:
        self.game = game
        self.player = player
        layout = (("height", 1), ("turns_left", 1), ("climbing", 1), ("to_act", MAX_PLAYERS), ("seats", MAX_PLAYERS))
        self.views = {}
        start = 0
        for name, width in layout:
            self.views[name] = slice(start, start + width)
            start += width
        self.size = start

    def tensor(self, state: State) -> np.ndarray:
        """The flat float32 view (nothing is hidden in Summit)."""
        assert isinstance(state, SummitState)
        n = self.game.spec.num_players
        out = np.zeros(self.size, dtype=np.float32)
        out[self.views["height"]] = state.height / MAX_HEIGHT
        out[self.views["turns_left"]] = (TURNS - state.turn) / TURNS
        out[self.views["climbing"]] = float(state.climbing)
        me = 0 if self.player is None else self.player
        if not state.is_terminal():
            out[self.views["to_act"].start + (state.turn % n - me) % n] = 1.0
        out[self.views["seats"].start : self.views["seats"].start + n] = 1.0
        return out

    def text(self, state: State) -> str:
        """One line: height against the target, turn, who moves."""
        assert isinstance(state, SummitState)
        who = "public" if self.player is None else f"seat {self.player}"
        acting = "over" if state.is_terminal() else f"seat {state.turn % self.game.spec.num_players} to move"
        climbing = ", climbing" if state.climbing else ""
        return f"summit ({who}): height {state.height}/{TARGET}, turn {state.turn + 1}/{TURNS}, {acting}{climbing}"


def render_rgb(state: State) -> np.ndarray:
    """A picture of the climb: one row per unit of height, the reached part brown, the target row red."""
    assert isinstance(state, SummitState)
    picture = np.empty((MAX_HEIGHT, 8, 3), dtype=np.uint8)
    picture[:] = (135, 206, 235)  # sky
    if state.height:
        picture[-state.height :] = (120, 80, 40)  # rock climbed, from the bottom row up
    picture[MAX_HEIGHT - TARGET] = (200, 30, 30)
    return picture


class SummitCoopGame(SummitGame):
    """Summit for a team of 2-3 (default 2): what the co-operative PettingZoo module builds."""

    def __init__(self, num_players: int = 2) -> None:
        if num_players == 1:
            raise ValueError("the co-operative Summit needs 2 or 3 seats, got 1 (play solo through tabletop/Summit-v0)")
        super().__init__(num_players=num_players)


class SummitHeuristic:
    """Camps at the target; walks when walking every turn left reaches it, else climbs."""

    name = "heuristic"

    def __init__(self, game: SummitGame) -> None:
        self.game = game

    def reset(self, seed: int | None = None) -> None:
        """Deterministic: nothing to reseed."""

    def act(self, observation: Any, action_mask: np.ndarray, state: Any | None = None) -> int:
        """Walk or climb for the seat to act in `state`."""
        assert isinstance(state, SummitState), "the Summit heuristic reads the rules-core state"
        if state.height >= TARGET:
            return CAMP
        return WALK if state.height + (TURNS - state.turn) >= TARGET else CLIMB


def solo_summit() -> SummitGame:
    """Summit with one seat: what the Gymnasium id plays."""
    return SummitGame(num_players=1)


make_env = make_gym_env(solo_summit, ENV_ID)
"""Solo Summit as a Gymnasium env (one seat): TabletopEnv's keywords, the record's picture."""
