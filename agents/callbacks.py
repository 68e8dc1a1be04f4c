"""stable-baselines3 callbacks of train.py: episode statistics, atomic checkpoints, best-model saving."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback

from agents.run_dir import checkpoint_file_name, save_model_atomically

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


class AtomicCheckpointCallback(BaseCallback):
    """Saves `model_<timesteps>_steps.zip` every `interval` env steps and at the end, atomically (temp + os.replace)."""

    def __init__(self, directory: Path, interval: int) -> None:
        super().__init__()
        self.directory = directory
        self.interval = interval
        self._next_save = interval

    def _on_training_start(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        # Counted in timesteps (not callback calls) so a resumed run keeps the same cadence.
        self._next_save = (self.num_timesteps // self.interval + 1) * self.interval

    def _on_step(self) -> bool:
        if self.num_timesteps >= self._next_save:
            self._save()
        return True

    def _on_training_end(self) -> None:
        # The end of the budget is a checkpoint too, so extending a finished run resumes from its last step.
        if not (self.directory / self._file_name()).exists():
            self._save()

    def _file_name(self) -> str:
        return checkpoint_file_name(self.num_timesteps)

    def _save(self) -> None:
        save_model_atomically(self.model, self.directory / self._file_name())
        self._next_save = (self.num_timesteps // self.interval + 1) * self.interval


class SaveBestModelCallback(BaseCallback):
    """Called by MaskableEvalCallback on a new best mean reward: saves the model atomically."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path

    def _on_step(self) -> bool:
        save_model_atomically(self.model, self.path)
        return True
