"""Ridge: `RIDGE_PITCHES` pitches in a row, each played by the rules of pitch.py on the part the state holds.

Rules: the pitches are climbed in order, each by the pitch's rules; a lost pitch ends the ridge, lost; the ridge is
won when its last pitch is. The score is the pitches won.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from envs.core.game import Game, GameSpec, Observer, State, StateFormatError
from tests.toys.ridge.pitch import ACTION_LABELS, PITCH_TURNS, OnAPitch, PitchObserver, PitchPart

RIDGE_PITCHES = 3


@dataclasses.dataclass
class RidgeState(OnAPitch):
    """The pitch under way and the pitches won before it."""

    game: RidgeGame
    pitches_won: int = 0
    part: PitchPart = dataclasses.field(default_factory=PitchPart)

    def _apply(self, action: int) -> None:
        part = self.part.after(action)
        if part.won() and self.pitches_won + 1 < RIDGE_PITCHES:  # on to the next pitch
            self.pitches_won += 1
            part = PitchPart()
        elif part.won():
            self.pitches_won = RIDGE_PITCHES
        self.part = part

    def returns(self) -> list[float]:
        """+1 for the whole ridge, -1 for a lost pitch, 0 until the end."""
        if not self.is_terminal():
            return [0.0]
        return [1.0 if self.pitches_won == RIDGE_PITCHES else -1.0]

    def score(self) -> list[float]:
        """The pitches won."""
        return [float(self.pitches_won)]

    def episode_info(self, player: int = 0) -> dict[str, Any]:
        """The result and the pitches won."""
        return {**super().episode_info(player), "pitches": self.pitches_won}

    def to_dict(self) -> dict[str, Any]:
        """The pitches won and the pitch under way."""
        return {"pitches_won": self.pitches_won, "pitch": self.part.to_dict()}

    def clone(self) -> RidgeState:
        """An independent copy (every field is immutable)."""
        return dataclasses.replace(self)


class RidgeGame(Game):
    """The ridge, solo."""

    def __init__(self) -> None:
        self.spec = GameSpec(
            name="ridge",
            num_players=1,
            num_actions=len(ACTION_LABELS),
            max_game_length=RIDGE_PITCHES * PITCH_TURNS,
            reward_modes=("win", "score"),
        )

    def new_initial_state(self) -> RidgeState:
        """At the foot of the first pitch."""
        return RidgeState(game=self)

    def state_from_dict(self, data: dict[str, Any]) -> RidgeState:
        """The state `RidgeState.to_dict` described; StateFormatError names a bad field."""
        if not isinstance(data, dict) or set(data) != {"pitches_won", "pitch"}:
            raise StateFormatError("", f"expected pitches_won and pitch, got {data!r}")
        won = data["pitches_won"]
        if isinstance(won, bool) or not isinstance(won, int) or not 0 <= won <= RIDGE_PITCHES:
            raise StateFormatError("pitches_won", f"expected an integer in 0..{RIDGE_PITCHES}, got {won!r}")
        part = PitchPart.from_dict(data["pitch"], "pitch.")
        if part.won() != (won == RIDGE_PITCHES):
            raise StateFormatError("pitch.height", "a pitch at its top is the last one, with every pitch won")
        return RidgeState(game=self, pitches_won=won, part=part)

    def action_label(self, action: int) -> str:
        """'walk' or 'climb'."""
        return ACTION_LABELS[action]

    def observer(self, player: int | None = 0) -> RidgeObserver:
        """The climber's view (nothing is hidden)."""
        return RidgeObserver()


class RidgeObserver(Observer):
    """The pitches won, scaled, then the pitch's own view."""

    size = 1 + PitchObserver.size
    views = {"ridge": slice(0, 1), "pitch": slice(1, 1 + PitchObserver.size)}

    def tensor(self, state: State) -> np.ndarray:
        """Pitches won over the ridge's, then the pitch."""
        assert isinstance(state, RidgeState)
        return np.concatenate(
            [np.array([state.pitches_won / RIDGE_PITCHES], dtype=np.float32), PitchObserver().tensor(state)]
        )

    def text(self, state: State) -> str:
        """The ridge's line, then the pitch's."""
        assert isinstance(state, RidgeState)
        return f"ridge: {state.pitches_won}/{RIDGE_PITCHES} pitches won; {PitchObserver().text(state)}"


def render_rgb(state: State) -> np.ndarray:
    """One column per pitch: won pitches brown, the pitch under way as the pitch draws it, the rest sky."""
    assert isinstance(state, RidgeState)
    from tests.toys.ridge.pitch import render_rgb as draw_pitch

    column = draw_pitch(state)
    picture = np.empty((column.shape[0], column.shape[1] * RIDGE_PITCHES, 3), dtype=np.uint8)
    picture[:] = (135, 206, 235)
    width = column.shape[1]
    for pitch in range(state.pitches_won):
        picture[:, pitch * width : (pitch + 1) * width] = (120, 80, 40)
    if state.pitches_won < RIDGE_PITCHES:
        picture[:, state.pitches_won * width : (state.pitches_won + 1) * width] = column
    return picture
