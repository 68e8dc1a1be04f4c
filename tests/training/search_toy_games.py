"""Tiny rules-core games with known best moves, for testing search agents without a real game."""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.core.game import CHANCE, TERMINAL, Game, GameSpec, Observer, State

GUESS_ACTIONS = (0, 1, 2)
"""Guessing game: guess the hidden card (win if right, lose if wrong)."""
PASS_ACTION = 3
"""Guessing game: give up for a draw (worth 0)."""
SAFE_ACTION, RISKY_ACTION = 4, 5
"""Gamble game: SAFE wins with SAFE_WIN_PROBABILITY, RISKY with RISKY_WIN_PROBABILITY (a chance node decides)."""
SAFE_WIN_PROBABILITY, RISKY_WIN_PROBABILITY = 0.7, 0.35
LADDER_RUNGS = 3
"""Ladder game: pick LADDER_ACTION LADDER_RUNGS times in a row to win; any other action loses at once."""
LADDER_ACTION = 1
NUM_ACTIONS = 6


class ToyObserver(Observer):
    """Observation: the phase and, never, the hidden card."""

    size = 2

    def __init__(self) -> None:
        self.views = {"phase": slice(0, 1), "rung": slice(1, 2)}

    def tensor(self, state: State) -> np.ndarray:
        """Phase index and ladder rung (hidden card left out)."""
        assert isinstance(state, ToyState)
        return np.array([len(state.history), state.rung], dtype=np.float32)

    def text(self, state: State) -> str:
        """A one-line description."""
        assert isinstance(state, ToyState)
        return f"{state.game.kind}: history {state.history}"


class ToyGame(Game):
    """kind 'guess' (hidden information), 'gamble' (chance) or 'ladder' (needs a deep search)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.spec = GameSpec(
            name=f"toy_{kind}",
            num_players=1,
            num_actions=NUM_ACTIONS,
            max_game_length=10,
            reward_modes=("win", "score"),
        )

    def new_initial_state(self) -> ToyState:
        """A fresh state (the guessing game starts with the hidden deal)."""
        return ToyState(self)

    def state_from_dict(self, data: dict[str, Any]) -> ToyState:
        """Rebuild from to_dict()."""
        state = ToyState(self)
        state.hidden_card = data["hidden_card"]
        state.history = list(data["history"])
        state.rung = data["rung"]
        state.result = data["result"]
        state.pending_gamble = data["pending_gamble"]
        return state

    def action_label(self, action: int) -> str:
        """Readable action names."""
        return ["guess 0", "guess 1", "guess 2", "pass", "safe bet", "risky bet"][action]

    def observer(self, player: int) -> ToyObserver:
        """The only player's observer."""
        return ToyObserver()


class ToyState(State):
    """History, hidden card, ladder rung and result of a toy game."""

    def __init__(self, game: ToyGame) -> None:
        self.game = game
        self.hidden_card: int | None = None
        self.history: list[int] = []
        self.rung = 0
        self.result: float | None = None
        self.pending_gamble: int | None = None

    def current_player(self) -> int:
        """0, CHANCE or TERMINAL."""
        if self.result is not None:
            return TERMINAL
        if self.game.kind == "guess" and self.hidden_card is None:
            return CHANCE
        if self.pending_gamble is not None:
            return CHANCE
        return 0

    def legal_actions(self) -> list[int]:
        """The decisions of the current game kind."""
        if self.current_player() != 0:
            return []
        if self.game.kind == "guess":
            return [*GUESS_ACTIONS, PASS_ACTION]
        if self.game.kind == "gamble":
            return [SAFE_ACTION, RISKY_ACTION]
        return [0, 1, 2]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Hidden deal (uniform card) or the gamble's win(1)/loss(0)."""
        if self.hidden_card is None and self.game.kind == "guess":
            return [(card, 1 / 3) for card in GUESS_ACTIONS]
        probability = SAFE_WIN_PROBABILITY if self.pending_gamble == SAFE_ACTION else RISKY_WIN_PROBABILITY
        return [(0, 1 - probability), (1, probability)]

    def _apply(self, action: int) -> None:
        if self.current_player() == CHANCE:
            if self.game.kind == "guess":
                self.hidden_card = action
            else:
                self.result = 1.0 if action == 1 else -1.0
            return
        self.history.append(action)
        if self.game.kind == "guess":
            self.result = 0.0 if action == PASS_ACTION else (1.0 if action == self.hidden_card else -1.0)
        elif self.game.kind == "gamble":
            self.pending_gamble = action
        elif action == LADDER_ACTION:
            self.rung += 1
            if self.rung == LADDER_RUNGS:
                self.result = 1.0
        else:
            self.result = -1.0

    def returns(self) -> list[float]:
        """+1 / -1 / 0."""
        return [self.result or 0.0]

    def score(self) -> list[float]:
        """Same as returns."""
        return self.returns()

    def to_dict(self) -> dict[str, Any]:
        """Everything, as plain data."""
        return {
            "hidden_card": self.hidden_card,
            "history": list(self.history),
            "rung": self.rung,
            "result": self.result,
            "pending_gamble": self.pending_gamble,
        }

    def clone(self) -> ToyState:
        """An independent copy."""
        return self.game.state_from_dict(self.to_dict())

    def chance_label(self, outcome: int) -> str:
        """Outcome names."""
        return f"outcome {outcome}"

    def resample_hidden(self, player: int, rng: np.random.Generator) -> ToyState:
        """Redraw the hidden card: the player has seen nothing about it."""
        clone = self.clone()
        if clone.hidden_card is not None:
            clone.hidden_card = int(rng.integers(len(GUESS_ACTIONS)))
        return clone


class CheatingToyState(ToyState):
    """A guessing state whose resample_hidden keeps the true card (what a search that peeks would see)."""

    def resample_hidden(self, player: int, rng: np.random.Generator) -> ToyState:
        """No redraw: the search sees the hidden card."""
        return self.clone()
