"""Resume: an interrupted run continued with --resume ends exactly as the uninterrupted run; interruptions and
damaged files (Ctrl-C mid-rollout, a kill during the final save, a truncated checkpoint) lose nothing.
"""

from __future__ import annotations

import json
import logging
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch
import yaml
from stable_baselines3.common.callbacks import BaseCallback

import agents.training.maskable_ppo
import train
from agents.common.config import ExperimentConfig, load_experiment_config
from agents.common.run_dir import checkpoint_file_name, latest_checkpoint, run_model
from agents.players.ppo import resolve_model_path
from agents.training.maskable_ppo import train as train_run
from tests.training.training_support import REPO_ROOT, TrainedRun, rewrite_zip, tiny_training_config, write_yaml

ROLLOUT = 64
"""Env steps per rollout in these tests: n_steps 32 on 2 envs."""
SELFPLAY_CONFIG = REPO_ROOT / "configs" / "card_duel" / "selfplay.yaml"


def exact_config(tmp_path: Path, name: str, game: str, **train_settings: Any) -> ExperimentConfig:
    """A tiny config (4 rollouts of 64 steps, an evaluation every 2 rollouts) for Unbroken or self-play on the toy."""
    if game == "unbroken":
        data = tiny_training_config("tabletop/Unbroken-v0", tmp_path / "runs")
    else:
        # Self-play, frozen on the learner's win rate: checks every 96 steps, off the rollout grid, so the results
        # gathered since the last check must travel with a checkpoint (as must the envs' snapshot pools).
        data = yaml.safe_load(SELFPLAY_CONFIG.read_text())
        data["opponents"]["snapshots"].update(interval=96, win_rate_to_freeze=0.5, min_games=2)
        data["pretrain"] = {"steps": 0}
        # The shipped config decays its learning rate linearly over total_timesteps: extending a finished run moves
        # that horizon (by design), so the exactness of resuming is checked at a constant rate.
        data["algo"]["learning_rate_schedule"] = "constant"
    data["algo"].update(n_steps=32, batch_size=32, n_epochs=2, policy_kwargs={"net_arch": [16]})
    data["train"] = {
        "total_timesteps": 4 * ROLLOUT,
        "n_envs": 2,
        "vec_env": "dummy",
        "seed": 3,
        "checkpoint_interval": 0,
        "eval_interval": 2 * ROLLOUT,
        "eval_episodes": 2,
        "final_eval_episodes": 0,
        **train_settings,
    }
    data["logging"] = {"run_root": str(tmp_path / "runs"), "tensorboard": False}
    return load_experiment_config(write_yaml(tmp_path / f"{name}.yaml", data))


class StopAt(BaseCallback):
    """Raises `error` at the first step at or past `timesteps`: an interruption in the middle of a rollout."""

    def __init__(self, timesteps: int, error: BaseException) -> None:
        super().__init__()
        self.timesteps = timesteps
        self.error = error

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.timesteps:
            raise self.error
        return True


def stop_training_at(monkeypatch: pytest.MonkeyPatch, timesteps: int, error: BaseException) -> None:
    """Make the next training runs stop with `error` at `timesteps` env steps."""
    callbacks: Callable[..., Any] = agents.training.maskable_ppo._callbacks

    def with_stop(*args: Any, **kwargs: Any) -> Any:
        found, checkpoints = callbacks(*args, **kwargs)
        return [*found, StopAt(timesteps, error)], checkpoints

    monkeypatch.setattr(agents.training.maskable_ppo, "_callbacks", with_stop)


def assert_same_model(first: Path, second: Path) -> None:
    """Two saved models have the same step count and, bit for bit, the same weights and optimizer state."""
    from sb3_contrib import MaskablePPO

    one, other = MaskablePPO.load(first, device="cpu"), MaskablePPO.load(second, device="cpu")
    assert one.num_timesteps == other.num_timesteps
    weights, other_weights = one.policy.state_dict(), other.policy.state_dict()
    assert weights.keys() == other_weights.keys()
    different = [key for key in weights if not torch.equal(weights[key], other_weights[key])]
    assert not different, f"weights differ: {different}"
    moments = [
        (tensor, other.policy.optimizer.state_dict()["state"][index][key])
        for index, state in one.policy.optimizer.state_dict()["state"].items()
        for key, tensor in state.items()
    ]
    assert moments and all(torch.equal(a, b) for a, b in moments)


def assert_same_evaluations(first: Path, second: Path) -> None:
    """Two runs' evaluations.npz hold the same evaluations (steps, returns, lengths)."""
    with np.load(first / "evaluations.npz") as one, np.load(second / "evaluations.npz") as other:
        assert sorted(one.files) == sorted(other.files)
        for key in one.files:
            np.testing.assert_array_equal(one[key], other[key])


GAMES = ["unbroken", "selfplay"]


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """The run directory of a game's run trained to its budget in one go, without checkpoints (trained once)."""
    runs: dict[str, Path] = {}

    def reference(game: str) -> Path:
        if game not in runs:
            tmp_path = tmp_path_factory.mktemp(f"uninterrupted_{game}")
            run_dir = tmp_path / "run"
            run_dir.mkdir()
            train_run(exact_config(tmp_path, "config", game), run_dir, progress_bar=False)
            with np.load(run_dir / "evaluations.npz") as evaluations:
                assert list(evaluations["timesteps"]) == [2 * ROLLOUT, 4 * ROLLOUT]
            runs[game] = run_dir
        return runs[game]

    return reference


@pytest.mark.parametrize("game", GAMES)
def test_ctrl_c_mid_rollout_then_resume_is_the_uninterrupted_run(
    game: str, uninterrupted: Callable[[str], Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C in the third rollout saves the boundary before it (after the second update); resuming from there ends
    with the uninterrupted run's weights, optimizer state, step count and evaluations, bit for bit."""
    reference = uninterrupted(game)
    config = exact_config(tmp_path, "config", game)
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    stop_training_at(monkeypatch, 2 * ROLLOUT + 10, KeyboardInterrupt())
    with pytest.raises(KeyboardInterrupt):
        train_run(config, run_dir, progress_bar=False)
    assert latest_checkpoint(run_dir) == run_dir / "checkpoints" / checkpoint_file_name(2 * ROLLOUT)
    monkeypatch.undo()
    train_run(config, run_dir, progress_bar=False, resume_from=latest_checkpoint(run_dir))
    assert_same_model(run_dir / "final_model.zip", reference / "final_model.zip")
    assert_same_evaluations(run_dir, reference)


@pytest.mark.filterwarnings("ignore:Training and eval env are not of the same type")
def test_subproc_envs_resume_exactly_too(
    uninterrupted: Callable[[str], Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The envs' state crosses the process boundary: a SubprocVecEnv run ends as the (DummyVecEnv) reference."""
    config = exact_config(tmp_path, "config", "unbroken", vec_env="subproc")
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    stop_training_at(monkeypatch, 3 * ROLLOUT + 10, KeyboardInterrupt())
    with pytest.raises(KeyboardInterrupt):
        train_run(config, run_dir, progress_bar=False)
    monkeypatch.undo()
    train_run(config, run_dir, progress_bar=False, resume_from=latest_checkpoint(run_dir))
    assert_same_model(run_dir / "final_model.zip", uninterrupted("unbroken") / "final_model.zip")
    assert_same_evaluations(run_dir, uninterrupted("unbroken"))


@pytest.mark.parametrize("game", GAMES)
def test_killed_run_resumed_from_its_periodic_checkpoint_is_the_uninterrupted_run(
    game: str, uninterrupted: Callable[[str], Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Checkpoints land on the first rollout boundary at or after each interval; a kill (nothing saved) in the
    fourth rollout resumes from the one at 128 steps and still ends exactly as the uninterrupted run."""
    reference = uninterrupted(game)
    config = exact_config(tmp_path, "config", game, checkpoint_interval=100)
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    stop_training_at(monkeypatch, 3 * ROLLOUT + 20, RuntimeError("killed"))
    with pytest.raises(RuntimeError, match="killed"):
        train_run(config, run_dir, progress_bar=False)
    assert sorted(path.name for path in (run_dir / "checkpoints").iterdir()) == [checkpoint_file_name(2 * ROLLOUT)]
    monkeypatch.undo()
    train_run(config, run_dir, progress_bar=False, resume_from=latest_checkpoint(run_dir))
    assert_same_model(run_dir / "final_model.zip", reference / "final_model.zip")
    assert_same_evaluations(run_dir, reference)
    checkpoints = sorted(path.name for path in (run_dir / "checkpoints").iterdir())
    assert checkpoints == [checkpoint_file_name(2 * ROLLOUT), checkpoint_file_name(4 * ROLLOUT)]


def test_a_run_stopped_by_its_time_budget_keeps_an_exact_boundary(
    uninterrupted: Callable[[str], Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """train.time_budget_minutes stops mid-rollout: the final model is the last update's, the checkpoint is the
    boundary before the dropped rollout, and resuming it without a budget ends as the uninterrupted run."""
    from sb3_contrib import MaskablePPO

    from agents.training.callbacks import TimeBudgetCallback

    calls = iter(range(10**9))
    stop_call = (3 * ROLLOUT + 10) // 2  # one clock reading per vectorised step of 2 envs: in the 4th rollout
    monkeypatch.setattr(TimeBudgetCallback, "clock", staticmethod(lambda: 0.0 if next(calls) < stop_call else 1e18))
    reference = uninterrupted("unbroken")
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    budgeted = exact_config(tmp_path, "budget", "unbroken", checkpoint_interval=10_000, time_budget_minutes=1)
    monkeypatch.setattr(agents.training.maskable_ppo.time, "monotonic", lambda: 0.0)  # the deadline: one minute after 0
    train_run(budgeted, run_dir, progress_bar=False)
    monkeypatch.undo()
    kept = latest_checkpoint(run_dir)
    assert kept is not None and kept.name == checkpoint_file_name(3 * ROLLOUT)
    final, boundary = MaskablePPO.load(run_dir / "final_model.zip"), MaskablePPO.load(kept)
    assert final.num_timesteps > boundary.num_timesteps  # the dropped partial rollout's steps
    for key, tensor in final.policy.state_dict().items():
        assert torch.equal(tensor, boundary.policy.state_dict()[key]), key
    whole = exact_config(tmp_path, "whole", "unbroken", checkpoint_interval=10_000)
    train_run(whole, run_dir, progress_bar=False, resume_from=kept)
    assert_same_model(run_dir / "final_model.zip", reference / "final_model.zip")
    assert_same_evaluations(run_dir, reference)


@pytest.mark.parametrize("game", GAMES)
def test_extending_a_finished_run_is_the_run_with_the_larger_budget(
    game: str, uninterrupted: Callable[[str], Path], tmp_path: Path
) -> None:
    """A run trained for half the budget, then resumed with the whole budget, ends as the one trained in one go."""
    reference = uninterrupted(game)
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    half = exact_config(tmp_path, "half", game, total_timesteps=2 * ROLLOUT, checkpoint_interval=10_000)
    train_run(half, run_dir, progress_bar=False)
    whole = exact_config(tmp_path, "whole", game, checkpoint_interval=10_000)
    train_run(whole, run_dir, progress_bar=False, resume_from=latest_checkpoint(run_dir))
    assert_same_model(run_dir / "final_model.zip", reference / "final_model.zip")
    assert_same_evaluations(run_dir, reference)


def test_ctrl_c_says_which_checkpoint_was_kept_and_resume_keeps_the_run_history(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    data = tiny_training_config("tabletop/Unbroken-v0", tmp_path / "runs")
    data["algo"].update(n_steps=32, batch_size=32)
    data["train"].update(total_timesteps=4 * ROLLOUT, checkpoint_interval=0, eval_interval=0, final_eval_episodes=0)
    config = write_yaml(tmp_path / "config.yaml", data)
    stop_training_at(monkeypatch, ROLLOUT + 6, KeyboardInterrupt())
    assert train.main(["--config", str(config), "--no-progress"]) == train.INTERRUPTED_EXIT_CODE
    (run_dir,) = (tmp_path / "runs").iterdir()
    output = capsys.readouterr().out
    kept = checkpoint_file_name(ROLLOUT)
    assert f"interrupted at {ROLLOUT + 6} steps: saved the last rollout boundary, {kept}" in output
    assert f"the latest checkpoint is {kept}" in output and f"python train.py --resume {run_dir}" in output
    started = json.loads((run_dir / "run_info.json").read_text())
    monkeypatch.undo()
    assert train.main(["--resume", str(run_dir), "--no-progress"]) == 0
    assert f"resuming {run_dir} from {kept}" in capsys.readouterr().out
    info = json.loads((run_dir / "run_info.json").read_text())
    # The run's own command and start stay; each resume is appended with its command and time.
    assert (info["command"], info["started"], info["versions"]) == (
        started["command"],
        started["started"],
        started["versions"],
    )
    assert "--config" in info["command"] and started["resumes"] == []
    (resume,) = info["resumes"]
    assert resume["command"][1:] == ["train.py", "--resume", str(run_dir), "--no-progress"] and resume["started"]
    assert (run_dir / "final_model.zip").is_file()


def test_resume_after_a_kill_during_the_final_save_writes_the_final_model(
    copied_run: TrainedRun, trained_run: TrainedRun, capsys: pytest.CaptureFixture
) -> None:
    """The budget was reached and the last checkpoint written, but the final model is a half-written temp file."""
    run_dir = copied_run.run_dir
    (run_dir / "final_model.zip").unlink()
    (run_dir / "final_model.zip.tmp").write_bytes(b"PK\x03\x04 half a zip")
    shutil.rmtree(run_dir / "final_evaluation")
    assert train.main(["--resume", str(run_dir), "--no-progress"]) == 0
    output = capsys.readouterr().out
    assert "trained for 512 steps but has no final_model.zip: writing it from model_512_steps.zip" in output
    assert not list(run_dir.glob("*.tmp"))
    assert_same_model(run_dir / "final_model.zip", trained_run.run_dir / "final_model.zip")
    assert (run_dir / "final_evaluation" / "results.json").is_file()
    # Finished now: resuming again has nothing to do.
    assert train.main(["--resume", str(run_dir), "--no-progress"]) == 0
    assert "already trained for 512 steps" in capsys.readouterr().out


def damage_checkpoint(checkpoint: Path, damage: str) -> None:
    """Damage a checkpoint file: cut it in half, empty it, or garble its weights inside an intact zip."""
    if damage == "garbled weights":
        whole = checkpoint.with_suffix(".whole")
        checkpoint.rename(whole)
        rewrite_zip(whole, checkpoint, lambda name, data: b"\x00garbage" * 8 if name == "policy.pth" else data)
        whole.unlink()
    else:
        whole = checkpoint.read_bytes()
        checkpoint.write_bytes(whole[: len(whole) // 2] if damage == "truncated" else b"")


DAMAGE_REASON = {
    "truncated": "truncated or corrupt",
    "empty": "truncated or corrupt",
    "garbled weights": "its weights are damaged or hold more than tensors",
}
"""What the warning says about each kind of damage."""


@pytest.mark.parametrize("damage", sorted(DAMAGE_REASON))
def test_resume_falls_back_from_a_corrupt_latest_checkpoint(
    damage: str, copied_run: TrainedRun, trained_run: TrainedRun, capsys: pytest.CaptureFixture
) -> None:
    """An unreadable latest checkpoint (even one whose zip is intact but whose weights are garbage) is named in a
    warning and the one before it is resumed, exactly."""
    run_dir = copied_run.run_dir
    (run_dir / "final_model.zip").unlink()
    latest = run_dir / "checkpoints" / "model_512_steps.zip"
    damage_checkpoint(latest, damage)
    assert train.main(["--resume", str(run_dir), "--no-progress", "train.final_eval_episodes=0"]) == 0
    output = capsys.readouterr().out
    assert f"checkpoint {latest} is unreadable ({DAMAGE_REASON[damage]}" in output
    assert f"resuming {run_dir} from model_256_steps.zip" in output
    assert_same_model(run_dir / "final_model.zip", trained_run.run_dir / "final_model.zip")
    assert_same_model(latest, trained_run.run_dir / "checkpoints" / "model_512_steps.zip")  # written again
    assert_same_evaluations(run_dir, trained_run.run_dir)


def test_model_lookup_skips_unreadable_files_with_a_warning(
    copied_run: TrainedRun, caplog: pytest.LogCaptureFixture
) -> None:
    """evaluate.py's lookup of a run's model: an empty final model and a truncated checkpoint are passed over."""
    run_dir = copied_run.run_dir
    final, latest = run_dir / "final_model.zip", run_dir / "checkpoints" / "model_512_steps.zip"
    assert run_model(run_dir) == final
    final.write_bytes(b"")
    latest.write_bytes(latest.read_bytes()[:-100])
    with caplog.at_level(logging.WARNING, logger="agents.common.run_dir"):
        assert resolve_model_path(run_dir) == run_dir / "checkpoints" / "model_256_steps.zip"
    assert f"final model {final} is unreadable" in caplog.text
    assert f"checkpoint {latest} is unreadable" in caplog.text


def test_resume_with_every_checkpoint_damaged_stops_and_changes_nothing(
    copied_run: TrainedRun, capsys: pytest.CaptureFixture
) -> None:
    """With no checkpoint that loads, --resume stops with an error naming each damaged file and changes no file of
    the run (it never starts again from scratch over it)."""
    run_dir = copied_run.run_dir
    (run_dir / "final_model.zip").unlink()
    checkpoints = sorted((run_dir / "checkpoints").glob("model_*_steps.zip"))
    for checkpoint, damage in zip(checkpoints, ["garbled weights", "truncated", "empty"], strict=False):
        damage_checkpoint(checkpoint, damage)
    before = {path: path.read_bytes() for path in run_dir.rglob("*") if path.is_file()}
    assert train.main(["--resume", str(run_dir), "--no-progress"]) == 2
    error = capsys.readouterr().err
    assert f"cannot resume {run_dir}: no checkpoint of it loads" in error and "Nothing was changed" in error
    assert all(str(checkpoint) in error for checkpoint in checkpoints)
    assert {path: path.read_bytes() for path in run_dir.rglob("*") if path.is_file()} == before
