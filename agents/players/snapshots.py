"""Self-play's opponents: `snapshot` players that play frozen copies of the learner, and how a game counts for it.

Each opponent env of a self-play run holds a `SnapshotPool` (one policy of its opponent pool) over the run's
`snapshots/` folder, which the training loop fills (agents/training/selfplay.py). At every episode the pool picks the
latest snapshot with probability `latest_share`, else one of the `max_kept` latest uniformly, from the generator the
env seeds it with, and samples that snapshot's masked action distribution from the same generator: a snapshot plays
stochastically (varied opponents), and the episode stays a function of the env's seed.

A decision is a forward pass of the snapshot's network (agents/players/forward_pass.py), and each process loads each
snapshot once (`cached_policy`), however many of its envs play it. Under a BatchedOpponentsVecEnv
(agents/training/batched_vec_env.py) the decisions that several envs of a step wait for on the same snapshot are
answered by one forward pass (`policy_probabilities`); the sampling stays here, from each pool's own generator, so an
env's draws are the same however its decisions were batched.

`game_result` is how a finished game counts for the learner (won, tied, lost): both self-play routes (the SB3
callback and the RLlib league) freeze the learner on it.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import numpy as np

from agents.common.run_dir import snapshot_paths
from agents.players.base import BaseAgent
from agents.players.forward_pass import cached_policy, policy_probabilities, sample_index


class SnapshotPool(BaseAgent):
    """An opponent that plays one of the learner's latest snapshots per episode, sampling its masked policy."""

    name = "snapshot"
    batches_forward_passes = True
    """Its decisions go through `policy_probabilities`: a BatchedOpponentsVecEnv gathers those of several envs."""

    def __init__(self, directory: Path, max_kept: int, latest_share: float) -> None:
        if max_kept < 1 or not 0.0 <= latest_share <= 1.0:
            raise ValueError(f"max_kept must be >= 1 and latest_share within [0, 1], got {max_kept}, {latest_share}")
        self.directory = Path(directory)
        self.max_kept = max_kept
        self.latest_share = latest_share
        self.paths: list[Path] = snapshot_paths(self.directory)[-max_kept:]
        """The snapshots this pool draws from, oldest first."""
        self._policies: dict[Path, Any] = {}
        """The kept snapshots' policies this pool has played (shared with the process's other pools)."""
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

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the loaded policies (a checkpoint keeps the paths; the policies load again from them)."""
        return {**self.__dict__, "_policies": {}}

    def _policy(self, path: Path) -> Any:
        policy = self._policies.get(path)
        if policy is None:
            policy = self._policies[path] = cached_policy(path)
        return policy

    def act(self, observation: Any, action_mask: np.ndarray, state: Any | None = None) -> int:
        """An action sampled from the current snapshot's masked policy with this pool's generator."""
        if self.current is None:
            self.reset()
        assert self.current is not None
        mask = np.asarray(action_mask, dtype=bool)
        probabilities = policy_probabilities(self, functools.partial(self._policy, self.current), observation, mask)
        probabilities = np.where(mask, probabilities.astype(np.float64), 0.0)
        total = probabilities.sum()
        if not total > 0:  # a degenerate policy: fall back to a uniform legal choice
            probabilities, total = mask.astype(np.float64), float(mask.sum())
        return sample_index(probabilities / total, self._rng)


def game_result(seat_rewards: list[float], seat: int) -> float:
    """A seat's result in a finished game: 1 if its reward is the single best, 0.5 if shared best, else 0."""
    best = max(seat_rewards)
    if seat_rewards[seat] < best:
        return 0.0
    return 1.0 if sum(reward == best for reward in seat_rewards) == 1 else 0.5
