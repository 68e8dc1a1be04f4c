"""Helpers of the training/evaluation tests: tiny configs and running the repo's command-line tools."""

from __future__ import annotations

import multiprocessing
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from agents.progress import Progress

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


def interrupt_after(monkeypatch: pytest.MonkeyPatch, items: int, seen: list | None = None) -> None:
    """Ctrl-C in evaluate.py's process right after it has received `items` results (as if pressed then); `seen`
    gets the live worker processes at that moment."""
    advance = Progress.advance

    def advance_then_interrupt(self: Progress, count: int = 1) -> None:
        advance(self, count)
        if self.done == items:
            if seen is not None:
                seen.extend(multiprocessing.active_children())
            raise KeyboardInterrupt

    monkeypatch.setattr(Progress, "advance", advance_then_interrupt)
