"""The layout of a train.py run directory, in one place: its file names, creation, atomic writes, checkpoints.

`{run_root}/{game}__{algo}__{seed}__{timestamp}/` holds:

- `config.yaml`: the resolved config (every default filled in, overrides applied), the one to resume with;
- `run_info.json`: command line, start time, package versions, and each resume's command and time (`resumes`);
- `tensorboard/`: event files (episode return, win rate, score, length, legal-action count, losses, evaluations);
- `checkpoints/model_<timesteps>_steps.zip`: checkpoints taken between rollouts, each resuming bit-exactly
  (agents.training.resume), written to a temp file then os.replace'd; an unreadable one is skipped with a warning;
- `evaluations.npz`, `best_model.zip`: MaskableEvalCallback results and the best model by mean eval reward;
- `pretrained_model.zip`: the policy after behaviour cloning / DAgger, before PPO (when pretraining is on);
- `final_model.zip`: the model at the end of the budget.

An `rllib_ppo` run (agents/rllib/training.py) writes RLlib algorithm checkpoints (folders) instead:
`checkpoints/rllib_<timesteps>_steps/`, `final_checkpoint/`, and `rllib_progress.jsonl` (one line per iteration).
"""

from __future__ import annotations

import json
import logging
import os
import platform
import re
import sys
import zipfile
import zlib
from datetime import datetime
from importlib import metadata
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)

CONFIG_FILE_NAME = "config.yaml"
"""The resolved config inside a run directory."""
RUN_INFO_FILE_NAME = "run_info.json"
"""Command line, start time and package versions of the run."""
TENSORBOARD_DIR_NAME = "tensorboard"
"""Folder of the TensorBoard event files."""
CHECKPOINT_DIR_NAME = "checkpoints"
"""Folder of the periodic checkpoints, named model_<timesteps>_steps.zip."""
FINAL_MODEL_NAME = "final_model.zip"
"""The model train.py writes when a run finishes."""
BEST_MODEL_NAME = "best_model.zip"
"""The model with the best mean evaluation reward so far."""
EVALUATIONS_FILE_NAME = "evaluations.npz"
"""MaskableEvalCallback's results (sb3 writes this name inside its log_path, the run directory)."""
PRETRAINED_MODEL_NAME = "pretrained_model.zip"
"""The policy after behaviour cloning / DAgger, before PPO (kept so a resumed run does not pretrain again)."""
PRETRAIN_SCRATCH_DIR_NAME = "pretrain_scratch"
"""Temporary folder of the DAgger students (removed when pretraining ends)."""
SNAPSHOT_DIR_NAME = "snapshots"
"""Frozen copies of the learner that self-play opponents play (`snapshot_<timesteps>.zip`)."""
_SNAPSHOT_FILE = re.compile(r"snapshot_(\d+)\.zip")
VERSIONED_PACKAGES = ("gymnasium", "pettingzoo", "numpy", "torch", "stable_baselines3", "sb3_contrib")
"""Packages whose versions run_info.json records."""

RLLIB_FINAL_CHECKPOINT_NAME = "final_checkpoint"
"""The RLlib algorithm checkpoint (a folder) an rllib_ppo run writes at the end of its budget."""
RLLIB_PROGRESS_FILE_NAME = "rllib_progress.jsonl"
"""One JSON line per RLlib training iteration: steps, episodes, mean return, seconds."""
_RLLIB_CHECKPOINT = re.compile(r"rllib_(\d+)_steps")
"""An RLlib checkpoint folder's name inside checkpoints/."""
_CHECKPOINT_PREFIX, _CHECKPOINT_SUFFIX = "model_", "_steps.zip"
_CHECKPOINT_FILE = re.compile(r"model_(\d+)_steps\.zip")
"""A checkpoint's file name; other files in the folder (a copy, a note, a .tmp) are not checkpoints."""


def create_run_dir(run_root: str | Path, game_name: str, algo_name: str, seed: int) -> Path:
    """Make `{run_root}/{game}__{algo}__{seed}__{timestamp}/` (a suffix keeps same-second runs apart)."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    base = Path(run_root) / f"{game_name}__{algo_name}__{seed}__{stamp}"
    run_dir, suffix = base, 1
    while True:
        try:
            run_dir.mkdir(parents=True, exist_ok=False)
            return run_dir
        except FileExistsError:
            suffix += 1
            run_dir = base.with_name(f"{base.name}_{suffix}")


_TEMPORARY_SUFFIX = ".tmp"
"""The atomic writers' temp files: `<name>.tmp` beside the file they become."""


def _temporary(path: Path) -> Path:
    return path.with_name(path.name + _TEMPORARY_SUFFIX)


def write_text_atomically(path: Path, text: str) -> None:
    """Write a file via a temp file and os.replace, so readers never see half of it."""
    temporary = _temporary(path)
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


def write_bytes_atomically(path: Path, data: bytes) -> None:
    """Write bytes via a temp file and os.replace, so readers never see half of them."""
    temporary = _temporary(path)
    temporary.write_bytes(data)
    os.replace(temporary, path)


def save_model_atomically(model: Any, path: Path) -> None:
    """model.save to a temp file then os.replace: a crash mid-save never leaves a truncated checkpoint."""
    temporary = _temporary(path)
    with temporary.open("wb") as handle:
        model.save(handle)
    os.replace(temporary, path)


def remove_stray_temporaries(run_dir: Path) -> list[Path]:
    """Delete the temp files a run killed mid-write left (run directory, checkpoints, snapshots); returns them."""
    folders = (run_dir, run_dir / CHECKPOINT_DIR_NAME, run_dir / SNAPSHOT_DIR_NAME)
    stray = [path for folder in folders for path in sorted(folder.glob(f"*{_TEMPORARY_SUFFIX}")) if path.is_file()]
    for path in stray:
        path.unlink()
    return stray


def write_run_files(run_dir: Path, resolved_config_yaml: str, argv: list[str]) -> None:
    """Write config.yaml (the resolved config) and run_info.json (command, time, versions) into the run directory.

    A resumed run keeps run_info.json as the run started it and appends this command and time to its `resumes`.
    """
    write_text_atomically(run_dir / CONFIG_FILE_NAME, resolved_config_yaml)
    command, now = [sys.executable, *argv], datetime.now().isoformat(timespec="seconds")
    info = _read_run_info(run_dir / RUN_INFO_FILE_NAME)
    if info is None:
        info = {
            "command": command,
            "started": now,
            "python": platform.python_version(),
            "platform": platform.platform(),
            "versions": _package_versions(),
            "resumes": [],
        }
    else:
        info.setdefault("resumes", []).append({"command": command, "started": now})
    write_text_atomically(run_dir / RUN_INFO_FILE_NAME, json.dumps(info, indent=2) + "\n")


def _read_run_info(path: Path) -> dict[str, Any] | None:
    """The run_info.json of a run directory, or None when there is none (or it is unreadable: said as a warning)."""
    if not path.is_file():
        return None
    try:
        info = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        logger.warning("%s is unreadable (%s): writing a new one", path, error)
        return None
    return info if isinstance(info, dict) else None


def _package_versions() -> dict[str, str | None]:
    versions: dict[str, str | None] = {}
    for package in VERSIONED_PACKAGES:
        try:
            versions[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            versions[package] = None
    return versions


def checkpoint_file_name(timesteps: int) -> str:
    """The file name of the checkpoint taken after `timesteps` env steps."""
    return f"{_CHECKPOINT_PREFIX}{timesteps}{_CHECKPOINT_SUFFIX}"


def checkpoint_timesteps(path: Path) -> int:
    """The timestep count encoded in a checkpoint file name (model_<timesteps>_steps.zip)."""
    return int(path.name.removeprefix(_CHECKPOINT_PREFIX).removesuffix(_CHECKPOINT_SUFFIX))


def is_readable_model(path: Path) -> bool:
    """Whether a model file is a whole sb3 zip (its members' checksums hold): not truncated, empty or garbled."""
    try:
        with zipfile.ZipFile(path) as archive:
            return "data" in archive.namelist() and archive.testzip() is None
    except (OSError, EOFError, ValueError, NotImplementedError, zipfile.BadZipFile, zlib.error):
        return False


def checkpoint_files(run_dir: Path) -> list[Path]:
    """Every file of the run's checkpoint folder named as a checkpoint, by timesteps (readable or not)."""
    found = (run_dir / CHECKPOINT_DIR_NAME).glob(f"{_CHECKPOINT_PREFIX}*{_CHECKPOINT_SUFFIX}")
    return sorted((path for path in found if _CHECKPOINT_FILE.fullmatch(path.name)), key=checkpoint_timesteps)


def latest_checkpoint(run_dir: Path) -> Path | None:
    """The readable checkpoint with the most timesteps in a run directory, or None.

    An unreadable one (a truncated or empty file) is skipped with a warning naming it.
    """
    for checkpoint in reversed(checkpoint_files(run_dir)):
        if is_readable_model(checkpoint):
            return checkpoint
        logger.warning("checkpoint %s is unreadable (truncated or corrupt): falling back to an earlier one", checkpoint)
    return None


def run_model(run_dir: Path) -> Path | None:
    """The model a run directory stands for: its final model, else its latest checkpoint, else None.

    An unreadable final model is skipped with a warning naming it.
    """
    final = run_dir / FINAL_MODEL_NAME
    if final.is_file():
        if is_readable_model(final):
            return final
        logger.warning("final model %s is unreadable (truncated or corrupt): using the latest checkpoint", final)
    return latest_checkpoint(run_dir)


def run_dir_of_model(model_path: Path) -> Path | None:
    """The run directory a model file belongs to (final model or checkpoint), or None for a stray model file."""
    parent = model_path.parent
    run_dir = parent.parent if parent.name == CHECKPOINT_DIR_NAME else parent
    return run_dir if (run_dir / CONFIG_FILE_NAME).is_file() else None


def snapshot_file_name(timesteps: int) -> str:
    """The file name of the learner's snapshot taken after `timesteps` env steps (zero-padded: sorts by name)."""
    return f"snapshot_{timesteps:010d}.zip"


def snapshot_paths(directory: Path) -> list[Path]:
    """The snapshot files of a snapshot folder, oldest first; other files are ignored."""
    found = [
        (int(match.group(1)), path)
        for path in directory.glob("snapshot_*.zip")
        if (match := _SNAPSHOT_FILE.fullmatch(path.name))
    ]
    return [path for _, path in sorted(found)]


def rllib_checkpoint_dir_name(timesteps: int) -> str:
    """The folder name (inside checkpoints/) of the RLlib checkpoint taken after `timesteps` env steps."""
    return f"rllib_{timesteps}_steps"


def rllib_run_checkpoint(run_dir: Path) -> Path | None:
    """The RLlib checkpoint an rllib_ppo run directory stands for: its final one, else its latest, else None."""
    final = run_dir / RLLIB_FINAL_CHECKPOINT_NAME
    if final.is_dir():
        return final
    found = [
        (int(match.group(1)), path)
        for path in (run_dir / CHECKPOINT_DIR_NAME).glob("rllib_*_steps")
        if path.is_dir() and (match := _RLLIB_CHECKPOINT.fullmatch(path.name))
    ]
    return max(found)[1] if found else None
