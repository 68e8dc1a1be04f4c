"""Pitch: one climb of a rock pitch, the part a Ridge (rules.py) holds, and a whole game of its own.

The shape of a package that holds two games, a part and the game built on it (Runebound's combat and board): the
pitch's rules are written once, on `PitchPart`; `PitchState` plays one pitch as a game; `RidgeState` holds one part
at a time. Every random step is an explicit chance node with exact probabilities.

Rules of a pitch:
1. The climber has `PITCH_TURNS` turns to reach `PITCH_HEIGHT`.
2. A turn walks (+1, sure) or climbs: a d6 then decides, 1-2 a slip (+0), 3-6 +2; within `HAUL_REACH` of the top
   it may haul instead (+2, sure).
3. The pitch is won at `PITCH_HEIGHT`, lost when the turns run out below it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from envs.core.game import CHANCE, TERMINAL, Game, GameSpec, Observer, State, StateFormatError

PITCH_TURNS = 8
PITCH_HEIGHT = 12
HAUL_REACH = 2
"""How near the top a haul may start."""
WALK, CLIMB, HAUL = 0, 1, 2
"""Action ids."""
ACTION_LABELS = ("walk", "climb", "haul")
SLIP_FACES = 2
CLIMB_GAIN = 2


@dataclasses.dataclass(frozen=True)
class PitchPart:
    """One pitch under way: the height reached, the turns taken and whether a climb waits for its die."""

    height: int = 0
    turn: int = 0
    climbing: bool = False

    def over(self) -> bool:
        """Whether the pitch is won or lost."""
        return self.height >= PITCH_HEIGHT or (self.turn == PITCH_TURNS and not self.climbing)

    def won(self) -> bool:
        """Whether the top was reached."""
        return self.height >= PITCH_HEIGHT

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """A climb's d6: faces 1..6, a sixth each."""
        return [(face, 1.0 / 6.0) for face in range(1, 7)] if self.climbing else []

    def legal_actions(self) -> list[int]:
        """Walk or climb, or haul within reach of the top (nothing once the pitch is over or a die is pending)."""
        if self.climbing or self.over():
            return []
        return [WALK, CLIMB, HAUL] if self.height >= PITCH_HEIGHT - HAUL_REACH else [WALK, CLIMB]

    def after(self, action: int) -> PitchPart:
        """The part after a decision (walk or climb) or a die face."""
        if self.climbing:
            gain = 0 if action <= SLIP_FACES else CLIMB_GAIN
            return PitchPart(min(self.height + gain, PITCH_HEIGHT), self.turn + 1, False)
        if action == CLIMB:
            return dataclasses.replace(self, climbing=True)
        gain = HAUL_REACH if action == HAUL else 1
        return PitchPart(min(self.height + gain, PITCH_HEIGHT), self.turn + 1, False)

    def to_dict(self) -> dict[str, Any]:
        """Height, turn and the pending climb."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: Any, where: str = "") -> PitchPart:
        """The part `to_dict` wrote; StateFormatError names a bad field."""
        if not isinstance(data, dict) or set(data) != {"height", "turn", "climbing"}:
            raise StateFormatError(where or "pitch", f"expected height, turn and climbing, got {data!r}")
        for name, high in (("height", PITCH_HEIGHT), ("turn", PITCH_TURNS)):
            value = data[name]
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
                raise StateFormatError(f"{where}{name}", f"expected an integer in 0..{high}, got {value!r}")
        if not isinstance(data["climbing"], bool):
            raise StateFormatError(f"{where}climbing", f"expected true or false, got {data['climbing']!r}")
        part = cls(data["height"], data["turn"], data["climbing"])
        if part.climbing and (part.turn == PITCH_TURNS or part.won()):
            raise StateFormatError(f"{where}climbing", "a climb after the pitch is over")
        return part


def chance_label(outcome: int) -> str:
    """'d6 = 4: +2'."""
    return f"d6 = {outcome}: +{0 if outcome <= SLIP_FACES else CLIMB_GAIN}"


class OnAPitch(State):
    """What a state on a pitch answers from the part it holds (`part`): who acts, the options, the die."""

    part: PitchPart

    def current_player(self) -> int:
        """0 to decide, CHANCE for a climb's die, TERMINAL once the pitch is over."""
        if self.part.climbing:
            return CHANCE
        return TERMINAL if self.part.over() else 0

    def legal_actions(self) -> list[int]:
        """The pitch's options."""
        return self.part.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The pending climb's die."""
        return self.part.chance_outcomes()

    def chance_label(self, outcome: int) -> str:
        """The die face and what it gains."""
        return chance_label(outcome)


@dataclasses.dataclass
class PitchState(OnAPitch):
    """One pitch as a whole game."""

    game: PitchGame
    part: PitchPart = dataclasses.field(default_factory=PitchPart)

    def _apply(self, action: int) -> None:
        self.part = self.part.after(action)

    def returns(self) -> list[float]:
        """+1 at the top, -1 below it at the end, 0 until then."""
        if not self.is_terminal():
            return [0.0]
        return [1.0 if self.part.won() else -1.0]

    def score(self) -> list[float]:
        """The height reached."""
        return [float(self.part.height)]

    def episode_info(self, player: int = 0) -> dict[str, Any]:
        """The result and the height reached."""
        return {**super().episode_info(player), "height": self.part.height}

    def to_dict(self) -> dict[str, Any]:
        """The part's fields."""
        return self.part.to_dict()

    def clone(self) -> PitchState:
        """An independent copy (the part is immutable)."""
        return dataclasses.replace(self)


class PitchGame(Game):
    """One pitch, solo."""

    def __init__(self) -> None:
        self.spec = GameSpec(
            name="pitch",
            num_players=1,
            num_actions=len(ACTION_LABELS),
            max_game_length=PITCH_TURNS,
            reward_modes=("win", "score"),
        )

    def new_initial_state(self) -> PitchState:
        """At the foot of the pitch."""
        return PitchState(game=self)

    def state_from_dict(self, data: dict[str, Any]) -> PitchState:
        """The state `PitchState.to_dict` described."""
        return PitchState(game=self, part=PitchPart.from_dict(data))

    def action_label(self, action: int) -> str:
        """'walk' or 'climb'."""
        return ACTION_LABELS[action]

    def observer(self, player: int | None = 0) -> PitchObserver:
        """The climber's view (nothing is hidden)."""
        return PitchObserver()


class PitchObserver(Observer):
    """Height and turns left, scaled, and the pending climb."""

    size = 3
    views = {"pitch": slice(0, 3)}

    def tensor(self, state: State) -> np.ndarray:
        """The part's three numbers."""
        part = part_of(state)
        return np.array([part.height / PITCH_HEIGHT, 1 - part.turn / PITCH_TURNS, part.climbing], dtype=np.float32)

    def text(self, state: State) -> str:
        """One line."""
        part = part_of(state)
        return f"pitch: height {part.height}/{PITCH_HEIGHT}, turn {part.turn + 1}/{PITCH_TURNS}"


def part_of(state: State) -> PitchPart:
    """The pitch a Pitch or a Ridge state is on."""
    part = getattr(state, "part", None)
    assert isinstance(part, PitchPart), f"{type(state).__name__} holds no pitch"
    return part


def render_rgb(state: State) -> np.ndarray:
    """A column of the pitch: the height reached brown, the rest sky."""
    part = part_of(state)
    picture = np.empty((PITCH_HEIGHT, 4, 3), dtype=np.uint8)
    picture[:] = (135, 206, 235)
    if part.height:
        picture[-part.height :] = (120, 80, 40)
    return picture


class PitchHeuristic:
    """Hauls when it may; walks when walking every turn left still reaches the top; else climbs."""

    name = "heuristic"

    def __init__(self, game: Game) -> None:
        self.game = game

    def reset(self, seed: int | None = None) -> None:
        """Deterministic: nothing to reseed."""

    def act(self, observation: Any, action_mask: np.ndarray, state: Any | None = None) -> int:
        """Walk or climb on the pitch `state` is on."""
        part = part_of(state)
        if HAUL in part.legal_actions():
            return HAUL
        return WALK if part.height + (PITCH_TURNS - part.turn) >= PITCH_HEIGHT else CLIMB
