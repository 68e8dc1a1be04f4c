"""Self-play: `snapshot` opponents that play frozen copies of the learner, and the callback that freezes them.

A training run with `{agent: snapshot}` in `opponents.pool` keeps frozen copies of its policy in
`<run>/snapshots/snapshot_<timesteps>.zip`. The learner is frozen once before training starts (so the pool is never
empty), then every `opponents.snapshots.interval` env steps, or, with `win_rate_to_freeze` set, only at those checks
where it won at least that share of its training games since the previous check (ties count half).

Each opponent env holds a `SnapshotPool` (one policy of its opponent pool). At every episode the pool picks the
latest snapshot with probability `latest_share`, else one of the `max_kept` latest uniformly, from the generator the
env seeds it with, and samples that snapshot's masked action distribution from the same generator: a snapshot plays
stochastically (varied opponents), and the episode stays a function of the env's seed. The callback tells every env
about a new snapshot through the vec env (`env_method("broadcast", "add_snapshot", path)`), which works across
subprocesses; a resumed run's pools read the snapshots already in the folder.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback

from agents.base import BaseAgent
from agents.run_dir import save_model_atomically, snapshot_file_name, snapshot_paths

logger = logging.getLogger(__name__)


class SnapshotPool(BaseAgent):
    """An opponent that plays one of the learner's latest snapshots per episode, sampling its masked policy."""

    name = "snapshot"

    def __init__(self, directory: Path, max_kept: int, latest_share: float) -> None:
        if max_kept < 1 or not 0.0 <= latest_share <= 1.0:
            raise ValueError(f"max_kept must be >= 1 and latest_share within [0, 1], got {max_kept}, {latest_share}")
        self.directory = Path(directory)
        self.max_kept = max_kept
        self.latest_share = latest_share
        self.paths: list[Path] = snapshot_paths(self.directory)[-max_kept:]
        """The snapshots this pool draws from, oldest first."""
        self._policies: dict[Path, Any] = {}
        self._rng = np.random.default_rng()
        self.current: Path | None = None
        """The snapshot playing this episode."""

    def add_snapshot(self, path: str | Path) -> None:
        """A new snapshot joins the pool (the oldest beyond max_kept leaves it)."""
        path = Path(path)
        if path not in self.paths:
            self.paths = [*self.paths, path][-self.max_kept :]
        for stale in set(self._policies) - set(self.paths):
            del self._policies[stale]

    def reset(self, seed: int | None = None) -> None:
        """Reseed and pick this episode's snapshot: the latest with probability latest_share, else any kept one."""
        self._rng = np.random.default_rng(seed)
        if not self.paths:
            raise RuntimeError(
                f"no snapshot in {self.directory}: the training loop freezes the learner before the first episode"
            )
        if self._rng.random() < self.latest_share:
            self.current = self.paths[-1]
        else:
            self.current = self.paths[int(self._rng.integers(len(self.paths)))]

    def _policy(self, path: Path) -> Any:
        policy = self._policies.get(path)
        if policy is None:
            from sb3_contrib import MaskablePPO

            policy = self._policies[path] = MaskablePPO.load(path, device="cpu").policy
            policy.set_training_mode(False)
        return policy

    def act(self, observation: Any, action_mask: np.ndarray, state: Any | None = None) -> int:
        """An action sampled from the current snapshot's masked policy with this pool's generator."""
        import torch

        if self.current is None:
            self.reset()
        assert self.current is not None
        policy = self._policy(self.current)
        mask = np.asarray(action_mask, dtype=bool)
        observation_tensor, _ = policy.obs_to_tensor(observation)
        with torch.no_grad():
            distribution = policy.get_distribution(observation_tensor, action_masks=mask[None])
            probabilities = distribution.distribution.probs[0].cpu().numpy().astype(np.float64)
        probabilities = np.where(mask, probabilities, 0.0)
        total = probabilities.sum()
        if not total > 0:  # a degenerate policy: fall back to a uniform legal choice
            probabilities, total = mask.astype(np.float64), float(mask.sum())
        return int(self._rng.choice(len(probabilities), p=probabilities / total))


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


def game_result(seat_rewards: list[float], seat: int) -> float:
    """A seat's result in a finished game: 1 if its reward is the single best, 0.5 if shared best, else 0."""
    best = max(seat_rewards)
    if seat_rewards[seat] < best:
        return 0.0
    return 1.0 if sum(reward == best for reward in seat_rewards) == 1 else 0.5


def freeze_learner(model: Any, directory: Path, timesteps: int, vec_env: Any) -> Path:
    """Save the learner as the snapshot of `timesteps` and add it to every env's snapshot pool; returns its path."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / snapshot_file_name(timesteps)
    save_model_atomically(model, path)
    vec_env.env_method("broadcast", "add_snapshot", str(path))
    return path
