"""stable-baselines3 callbacks of train.py: episode statistics, checkpoints at rollout boundaries, evaluations."""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
from sb3_contrib.common.maskable.callbacks import MaskableEvalCallback
from stable_baselines3.common.callbacks import BaseCallback, ProgressBarCallback

from agents.common.run_dir import checkpoint_file_name, save_model_atomically, write_bytes_atomically
from agents.training.resume import ResumableCallback, capture_checkpoint, set_vec_env_state, vec_env_state

EPISODE_STAT_TAGS = {
    "return": "episode/return",
    "won": "episode/win_rate",
    "score": "episode/score",
    "length": "episode/length",
    "legal_actions": "episode/mean_legal_actions",
}
"""EpisodeOutcomeWrapper field -> TensorBoard tag (means over the episodes that ended in a rollout)."""


class EpisodeStatsCallback(BaseCallback):
    """Logs the mean return, win rate, score, length and legal-action count of the episodes of each rollout."""

    def __init__(self) -> None:
        super().__init__()
        self._values: dict[str, list[float]] = defaultdict(list)

    def _on_step(self) -> bool:
        for info in self.locals["infos"]:
            outcome = info.get("episode_outcome")
            if outcome is not None:
                for key, value in outcome.items():
                    self._values[key].append(float(value))
        return True

    def _on_rollout_end(self) -> None:
        for key, tag in EPISODE_STAT_TAGS.items():
            values = [v for v in self._values.get(key, []) if not np.isnan(v)]
            if values:
                self.logger.record(tag, float(np.mean(values)))
        self._values.clear()


class BoundaryCheckpointCallback(BaseCallback):
    """Checkpoints at rollout boundaries (after the update), so that every checkpoint resumes bit-exactly.

    At every boundary it keeps the run's whole state in memory (agents.training.resume.capture_checkpoint); it writes it
    as `model_<timesteps>_steps.zip` at the first boundary at or after each multiple of `interval` env steps, at the end
    of training (both only when `interval` > 0), and when asked (save_boundary: Ctrl-C). A mid-rollout state is never
    written: it could not be continued exactly.
    """

    def __init__(self, directory: Path, interval: int, resumable: Mapping[str, ResumableCallback]) -> None:
        super().__init__()
        self.directory = directory
        self.interval = interval
        self.resumable = resumable
        self._next_save = interval
        self._boundary: tuple[int, bytes] | None = None
        """The latest boundary's timesteps and checkpoint bytes."""
        self._written: int | None = None
        """The timesteps of the checkpoint this callback wrote last."""

    def _on_training_start(self) -> None:
        # Counted in timesteps (not callback calls) so a resumed run keeps the same cadence.
        self._next_save = self._next_multiple(self.model.num_timesteps)

    def _on_rollout_start(self) -> None:
        self._capture()
        if self.interval > 0 and self.model.num_timesteps >= self._next_save:
            self.save_boundary()
            self._next_save = self._next_multiple(self.model.num_timesteps)

    def _on_step(self) -> bool:
        return True

    def _on_training_end(self) -> None:
        # The end of the budget is a boundary too: extending a finished run resumes from its last update. A run
        # stopped mid-rollout (the time budget) keeps the boundary before that rollout: only it continues exactly.
        if self.model.rollout_buffer.full:  # type: ignore[attr-defined]  # (an on-policy algorithm: PPO)
            self._capture()
        if self.interval > 0:
            self.save_boundary()

    def save_boundary(self) -> Path | None:
        """Write the latest boundary as a checkpoint (unless written already); its path, or None before the first."""
        if self._boundary is None:
            return None
        timesteps, data = self._boundary
        path = self.directory / checkpoint_file_name(timesteps)
        if self._written != timesteps:
            self.directory.mkdir(parents=True, exist_ok=True)
            write_bytes_atomically(path, data)
            self._written = timesteps
        return path

    def _capture(self) -> None:
        self._boundary = (self.model.num_timesteps, capture_checkpoint(self.model, self.resumable))

    def _next_multiple(self, timesteps: int) -> int:
        return (timesteps // self.interval + 1) * self.interval if self.interval > 0 else 0


class TimeBudgetCallback(BaseCallback):
    """Stops training at the first env step after `deadline` (a time.monotonic() value); the partial rollout is
    dropped, so the model is the one of the last update."""

    clock = staticmethod(time.monotonic)

    def __init__(self, deadline: float, minutes: float) -> None:
        super().__init__()
        self.deadline = deadline
        self.minutes = minutes
        self.stopped_at: int | None = None
        """The env steps at which the budget stopped training, or None while it has not."""

    def _on_step(self) -> bool:
        if self.clock() < self.deadline:
            return True
        self.stopped_at = self.model.num_timesteps
        return False


class ResumableEvalCallback(MaskableEvalCallback):
    """MaskableEvalCallback whose evaluations so far, call count and eval env travel with each checkpoint."""

    def resume_state(self) -> dict[str, Any]:
        """The evaluation history, the best and last mean rewards, the call count and the eval env's state."""
        return {
            "n_calls": self.n_calls,
            "timesteps": list(self.evaluations_timesteps),
            "results": [list(row) for row in self.evaluations_results],
            "lengths": [list(row) for row in self.evaluations_length],
            "successes": [list(row) for row in self.evaluations_successes],
            "best_mean_reward": self.best_mean_reward,
            "last_mean_reward": self.last_mean_reward,
            "eval_env": vec_env_state(self.eval_env),
        }

    def restore_resume_state(self, state: dict[str, Any]) -> None:
        """Set the state resume_state returned."""
        self.n_calls = state["n_calls"]
        self.evaluations_timesteps = list(state["timesteps"])
        self.evaluations_results = [list(row) for row in state["results"]]
        self.evaluations_length = [list(row) for row in state["lengths"]]
        self.evaluations_successes = [list(row) for row in state["successes"]]
        self.best_mean_reward = state["best_mean_reward"]
        self.last_mean_reward = state["last_mean_reward"]
        set_vec_env_state(self.eval_env, state["eval_env"])


class SaveBestModelCallback(BaseCallback):
    """Called by MaskableEvalCallback on a new best mean reward: saves the model atomically."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path

    def _on_step(self) -> bool:
        save_model_atomically(self.model, self.path)
        return True


def whole_rollouts(steps: int, rollout: int) -> int:
    """The env steps PPO actually takes for a budget of `steps`: it collects whole rollouts of `rollout` steps."""
    return -(-steps // rollout) * rollout if steps > 0 else 0


class RolloutProgressBar(ProgressBarCallback):
    """SB3's progress bar with the steps PPO will take as its total: the budget rounded up to whole rollouts, so the
    count never runs past its total (51,200/50,000)."""

    def _on_training_start(self) -> None:
        from tqdm.rich import tqdm  # type: ignore[import-untyped]

        remaining = self.locals["total_timesteps"] - self.model.num_timesteps
        rollout = self.model.n_steps * self.training_env.num_envs  # type: ignore[attr-defined]
        self.pbar = tqdm(total=whole_rollouts(remaining, rollout))


@contextmanager
def phase_progress_bar(total: int, description: str, enabled: bool = True) -> Iterator[Callable[[int], None] | None]:
    """A progress bar drawn as the PPO phase's (tqdm.rich, as sb3's ProgressBarCallback draws it) for a phase that
    has none of its own (behaviour cloning, DAgger); yields the function that advances it by a count, or None when
    progress bars are off (`train.py --no-progress`) or there is nothing to count."""
    if not enabled or total <= 0:
        yield None
        return
    from tqdm.rich import tqdm

    bar = tqdm(total=total, desc=description)
    try:
        yield bar.update
    finally:
        bar.refresh()
        bar.close()


class UpdateThreadsCallback(BaseCallback):
    """torch runs the update on `update_threads` threads and the rollout on one.

    A rollout's forward passes are small batches between the envs' Python work: more threads only spin there, taking
    the cores the envs need; the update's minibatches are large matrix products that share out well.
    """

    def __init__(self, update_threads: int) -> None:
        super().__init__()
        self.update_threads = update_threads

    def _on_rollout_start(self) -> None:
        import torch

        torch.set_num_threads(1)

    def _on_step(self) -> bool:
        return True

    def _on_rollout_end(self) -> None:
        import torch

        torch.set_num_threads(self.update_threads)
