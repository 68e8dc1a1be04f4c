"""Helpers of the training/evaluation tests: tiny configs and running the repo's command-line tools."""

from __future__ import annotations

import io
import multiprocessing
import os
import signal
import subprocess
import sys
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from agents.evaluation.progress import Progress

REPO_ROOT = Path(__file__).resolve().parents[2]

TINY_TRAINING = {
    "total_timesteps": 512,
    "n_envs": 2,
    "vec_env": "dummy",
    "seed": 0,
    "checkpoint_interval": 256,
    "eval_interval": 256,
    "eval_episodes": 2,
    "final_eval_episodes": 2,
}
"""A budget that exercises rollouts, updates, checkpoints and evaluations in a few seconds."""
TINY_ALGO = {"n_steps": 128, "batch_size": 64, "n_epochs": 1, "policy_kwargs": {"net_arch": [16]}}


def tiny_training_config(env_id: str, run_root: Path) -> dict:
    """The default Unbroken training config, pointed at `env_id`, with a tiny budget and a temp run root."""
    config = yaml.safe_load((REPO_ROOT / "configs" / "unbroken" / "maskable_ppo.yaml").read_text())
    config["env"] = {"id": env_id, "kwargs": {}}
    config["algo"].update(TINY_ALGO)
    config["train"] = dict(TINY_TRAINING)
    config["pretrain"] = {"steps": 0}  # the default config pretrains; the tiny runs test PPO alone
    config["logging"] = {"run_root": str(run_root), "tensorboard": True}
    return config


def write_yaml(path: Path, data: dict) -> Path:
    """Write `data` as YAML and return the path."""
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def run_cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run a command of the repo (python train.py ..., python -m envs.replay ...) from the repo root."""
    return subprocess.run(
        [sys.executable, *args], cwd=REPO_ROOT, capture_output=True, text=True, timeout=timeout, check=False
    )


@dataclass(frozen=True)
class TrainedRun:
    """A finished tiny training run: its env id, run directory and what train.py printed."""

    env_id: str
    run_dir: Path
    stdout: str


def interrupt_after(
    monkeypatch: pytest.MonkeyPatch, items: int, seen: list | None = None, sigterm: bool = False
) -> None:
    """Ctrl-C in evaluate.py's process right after it has received `items` results (as if pressed then), or with
    `sigterm` a SIGTERM sent to it (as a scheduler or `kill` would); `seen` gets the live worker processes then."""
    advance = Progress.advance

    def advance_then_interrupt(self: Progress, count: int = 1) -> None:
        advance(self, count)
        if self.done == items:
            if seen is not None:
                seen.extend(multiprocessing.active_children())
            if sigterm:
                os.kill(os.getpid(), signal.SIGTERM)  # its handler raises here
                raise AssertionError("SIGTERM did not interrupt evaluate.py")
            raise KeyboardInterrupt

    monkeypatch.setattr(Progress, "advance", advance_then_interrupt)


class _Unsafe:
    """An object whose unpickling would run code (os.getcwd): torch's weights-only loader must refuse it."""

    def __reduce__(self) -> tuple:
        import os

        return (os.getcwd, ())


def rewrite_zip(source: Path, target: Path, change: Callable[[str, bytes], bytes | None]) -> Path:
    """A copy of a zip with each entry changed (None drops it)."""
    with zipfile.ZipFile(source) as original, zipfile.ZipFile(target, "w") as copy:
        for entry in original.infolist():
            data = change(entry.filename, original.read(entry.filename))
            if data is not None:
                copy.writestr(entry, data)
    return target


def damaged_models(folder: Path) -> dict[str, Path]:
    """Model files that cannot be loaded, by what is wrong with them (made from a fresh, untrained Unbroken model)."""
    import gymnasium as gym
    import torch
    from sb3_contrib import MaskablePPO

    import envs  # noqa: F401  (registers the ids)

    env = gym.make("tabletop/Unbroken-v0")
    good = folder / "good.zip"
    MaskablePPO("MultiInputPolicy", env, n_steps=64, batch_size=32, policy_kwargs={"net_arch": [8]}).save(good)
    env.close()
    unsafe = io.BytesIO()
    torch.save({"weights": _Unsafe()}, unsafe)
    not_a_zip = folder / "not_a_zip.zip"
    not_a_zip.write_text("this is not a model\n")
    return {
        "corrupt policy": rewrite_zip(
            good, folder / "corrupt.zip", lambda name, data: b"\x00garbage" * 8 if name == "policy.pth" else data
        ),
        "no data": rewrite_zip(good, folder / "no_data.zip", lambda name, data: None if name == "data" else data),
        "not a zip": not_a_zip,
        "unsafe pickle": rewrite_zip(
            good, folder / "unsafe.zip", lambda name, data: unsafe.getvalue() if name == "policy.pth" else data
        ),
    }


DAMAGED_MODEL_REASONS = {
    "corrupt policy": "its weights are damaged or hold more than tensors",
    "no data": "the zip holds no 'data' entry",
    "not a zip": "not a zip file",
    "unsafe pickle": "its weights are damaged or hold more than tensors",
}
"""What the one error line says about each of `damaged_models`."""
