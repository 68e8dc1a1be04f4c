"""Self-play training: the callback that freezes the learner into its snapshots, which `snapshot` opponents play.

A training run with `{agent: snapshot}` in `opponents.pool` keeps frozen copies of its policy in
`<run>/snapshots/snapshot_<timesteps>.zip`. The learner is frozen once before training starts (so the pool is never
empty), then every `opponents.snapshots.interval` env steps, or, with `win_rate_to_freeze` set, only at those checks
where it won at least that share of its training games since the previous check (ties count half).

Each opponent env holds a `SnapshotPool` (agents/players/snapshots.py), one policy of its opponent pool. The callback
tells every env about a new snapshot through the vec env (`env_method("broadcast", "add_snapshot", path)`), which
works across subprocesses; a resumed run's pools read the snapshots already in the folder.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback

from agents.common.run_dir import save_model_atomically, snapshot_file_name, snapshot_paths
from agents.players.snapshots import game_result

logger = logging.getLogger(__name__)


class SnapshotCallback(BaseCallback):
    """Freezes the learner into `directory` every `interval` steps (optionally only when it beats the pool)."""

    def __init__(
        self, directory: Path, interval: int, win_rate_to_freeze: float | None = None, min_games: int = 20
    ) -> None:
        super().__init__()
        self.directory = Path(directory)
        self.interval = interval
        self.win_rate_to_freeze = win_rate_to_freeze
        self.min_games = min_games
        self._next_check = interval
        self._results: list[float] = []
        """The learner's results (1 won, 0.5 tie, 0 lost) in the training games since the previous check."""

    def _on_training_start(self) -> None:
        self._next_check = (self.num_timesteps // self.interval + 1) * self.interval

    def resume_state(self) -> list[float]:
        """The learner's results since the previous check (they decide the next freeze; kept by checkpoints)."""
        return list(self._results)

    def restore_resume_state(self, state: list[float]) -> None:
        """Set the results resume_state returned."""
        self._results = list(state)

    def _on_step(self) -> bool:
        for info in self.locals["infos"]:
            if "seat_rewards" in info and "seat" in info:
                self._results.append(game_result(info["seat_rewards"], info["seat"]))
        if self.num_timesteps >= self._next_check:
            self._next_check = (self.num_timesteps // self.interval + 1) * self.interval
            self._check()
        return True

    def _check(self) -> None:
        games = len(self._results)
        win_rate = float(np.mean(self._results)) if games else float("nan")
        self._results.clear()
        if games:
            self.logger.record("selfplay/win_rate_since_snapshot", win_rate)
        threshold = self.win_rate_to_freeze
        if threshold is not None and (games < self.min_games or not win_rate >= threshold):
            logger.info(
                "self-play: no snapshot at %d steps (won %.1f%% of %d games; needs %.1f%% of at least %d)",
                self.num_timesteps,
                100 * win_rate,
                games,
                100 * threshold,
                self.min_games,
            )
            return
        path = freeze_learner(self.model, self.directory, self.num_timesteps, self.training_env)
        self.logger.record("selfplay/snapshots", len(snapshot_paths(self.directory)))
        logger.info(
            "self-play: snapshot %s (won %.1f%% of %d games since the last check)", path.name, 100 * win_rate, games
        )


def freeze_learner(model: Any, directory: Path, timesteps: int, vec_env: Any) -> Path:
    """Save the learner as the snapshot of `timesteps` and add it to every env's snapshot pool; returns its path."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / snapshot_file_name(timesteps)
    save_model_atomically(model, path)
    vec_env.env_method("broadcast", "add_snapshot", str(path))
    return path
