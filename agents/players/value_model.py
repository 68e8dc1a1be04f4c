"""A learned value estimate for search: a small network over a seat's observation, shipped per game.

`ValueModel.value(state, player)` estimates the return `player` can expect from `state` (in [-1, 1]) when the game's
heuristic plays on. MCTS with `mcts.value: learned` scores a rollout cut at `rollout_depth` by it instead of 0, so a
short (or empty) rollout still says how well the position stands. The network is one hidden ReLU layer and a
logistic output (the probability of the winning return), in plain numpy: evaluating it needs no torch.

The weights of a game live in agents/players/value_models/<game>.npz, fitted to heuristic play by
agents/training/value_fit.py (`python -m agents.training.value_fit --game GAME`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

VALUE_MODELS_DIR = Path(__file__).resolve().parent / "value_models"
"""Where the shipped value models are: <game>.npz."""


def value_model_path(game_name: str) -> Path:
    """The file of a game's shipped value model (it may not exist)."""
    return VALUE_MODELS_DIR / f"{game_name}.npz"


@dataclass(frozen=True)
class ValueModel:
    """observation -> ReLU hidden layer -> logistic win probability p; the value is 2p - 1, in [-1, 1]."""

    hidden_weights: np.ndarray
    """(observation size, hidden units)."""
    hidden_bias: np.ndarray
    """(hidden units,)."""
    output_weights: np.ndarray
    """(hidden units,)."""
    output_bias: float

    def logits(self, observations: np.ndarray) -> np.ndarray:
        """Logit of the win probability of each row of a (batch, observation size) array."""
        hidden = np.maximum(observations @ self.hidden_weights + self.hidden_bias, 0.0)
        result: np.ndarray = hidden @ self.output_weights + self.output_bias
        return result

    def predict(self, observations: np.ndarray) -> np.ndarray:
        """Value (2p - 1) of each row of a (batch, observation size) array."""
        return np.tanh(0.5 * self.logits(observations))  # 2 * sigmoid(z) - 1 == tanh(z / 2)

    def value(self, state: Any, player: int) -> float:
        """Estimated return of `player` from `state`, read from that player's observation only."""
        observation = state.game.observer(player).tensor(state).astype(np.float64)
        return float(np.tanh(0.5 * float(self.logits(observation))))

    def save(self, path: Path) -> None:
        """Write the weights to an .npz file."""
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(
            path,
            hidden_weights=self.hidden_weights,
            hidden_bias=self.hidden_bias,
            output_weights=self.output_weights,
            output_bias=np.array(self.output_bias),
        )

    @classmethod
    def load(cls, path: Path) -> ValueModel:
        """Read weights written by `save`."""
        with np.load(path) as data:
            return cls(
                hidden_weights=np.asarray(data["hidden_weights"], dtype=np.float64),
                hidden_bias=np.asarray(data["hidden_bias"], dtype=np.float64),
                output_weights=np.asarray(data["output_weights"], dtype=np.float64),
                output_bias=float(data["output_bias"]),
            )


_LOADED: dict[str, ValueModel] = {}


def load_value_model(game_name: str) -> ValueModel:
    """The shipped value model of a game (read once per process); FileNotFoundError naming how to fit one."""
    model = _LOADED.get(game_name)
    if model is None:
        path = value_model_path(game_name)
        if not path.is_file():
            raise FileNotFoundError(
                f"no value model for {game_name!r} at {path}: "
                f"fit one with python -m agents.training.value_fit --game {game_name}"
            )
        model = _LOADED[game_name] = ValueModel.load(path)
    return model
