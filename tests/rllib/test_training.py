"""Tiny RLlib training runs through train.py's main (one local Ray, 1 env runner unless a test samples in its own
process) and their evaluation by evaluate.py.

One local Ray serves the whole module (train.py joins a running Ray instead of starting its own), which keeps these
runs to a few seconds each after Ray's start.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import ray
import torch

from agents.common.run_dir import CONFIG_FILE_NAME, RLLIB_FINAL_CHECKPOINT_NAME, RLLIB_PROGRESS_FILE_NAME
from agents.evaluation import evaluate_cli
from agents.training import train_cli

REPO_ROOT = Path(__file__).resolve().parents[2]
TINY = [
    "train.total_timesteps=200",
    "train.checkpoint_interval=100",
    "algo.num_env_runners=1",
    "algo.num_envs_per_env_runner=1",
    "algo.training.train_batch_size_per_learner=100",
    "algo.training.minibatch_size=50",
    "algo.training.num_epochs=1",
    "algo.model.fcnet_hiddens=[16]",
]
"""Overrides that make a shipped RLlib config a run of seconds: two iterations of 100 env steps."""


@pytest.fixture
def ray_must_not_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make any start of Ray fail the test (a bad config must be refused before)."""
    import agents.rllib.training as training

    def no_ray(*args: object) -> bool:
        raise AssertionError("Ray must not start for a bad config")

    monkeypatch.setattr(training, "start_ray", no_ray)


def test_a_bad_rllib_key_fails_before_ray_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], ray_must_not_start: None
) -> None:
    config = "configs/unbroken/rllib_ppo.yaml"
    for override, key in (
        ("algo.training.learning_rat=0.1", "algo.training.learning_rat"),
        ("algo.model.fcnet_hidden=[8]", "algo.model.fcnet_hidden"),
        ("algo.ray.adress=auto", "algo.ray.adress"),
        ("train.n_envs=4", "train.n_envs"),
    ):
        arguments = ["--config", str(REPO_ROOT / config), f"logging.run_root={tmp_path}", override]
        assert train_cli.main(arguments) == 2
        error = capsys.readouterr().err
        assert key in error and ("rllib_ppo.yaml" in error or override in error), error
    assert not ray.is_initialized() and not any(tmp_path.iterdir())  # (first in the file: the runs below start one)


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """One small local Ray for the module's runs."""
    ray.init(address="local", num_cpus=2, include_dashboard=False, logging_level=logging.WARNING)
    yield
    ray.shutdown()


def train(config: str, root: Path, *overrides: str) -> Path:
    """Run train.py's main on a shipped config with the tiny overrides; the run directory."""
    arguments = ["--config", str(REPO_ROOT / config), "--no-progress", f"logging.run_root={root}", *TINY, *overrides]
    assert train_cli.main(arguments) == 0
    (run_dir,) = root.iterdir()
    return run_dir


def test_tiny_unbroken_run_trains_checkpoints_and_evaluates(
    local_ray: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from ray.train.constants import DEFAULT_STORAGE_PATH

    ray_results = Path(DEFAULT_STORAGE_PATH)
    before = set(ray_results.iterdir()) if ray_results.is_dir() else set()
    # Sampled in this process (an env runner actor's start costs seconds): the league runs below and
    # test_cluster.py's run sample in env runner actors.
    overrides = ["train.final_eval_episodes=2", "algo.num_env_runners=0"]
    run_dir = train("configs/unbroken/rllib_ppo.yaml", tmp_path / "runs", *overrides)
    assert (set(ray_results.iterdir()) if ray_results.is_dir() else set()) <= before  # nothing left in ~/ray_results
    assert (run_dir / CONFIG_FILE_NAME).is_file() and (run_dir / RLLIB_FINAL_CHECKPOINT_NAME).is_dir()
    assert (run_dir / "checkpoints" / "rllib_100_steps").is_dir()
    progress = [json.loads(line) for line in (run_dir / RLLIB_PROGRESS_FILE_NAME).read_text().splitlines()]
    assert [entry["env_steps"] for entry in progress] == [100, 200]
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    events = EventAccumulator(str(run_dir / "tensorboard"))
    events.Reload()
    tags = set(events.Tags()["scalars"])
    assert {"train/policy_loss", "train/value_loss", "train/entropy", "time/env_steps_per_second"} <= tags, tags
    assert [event.step for event in events.Scalars("train/policy_loss")] == [100, 200]
    results = json.loads((run_dir / "final_evaluation" / "results.json").read_text())
    assert f"rllib:{run_dir}" in json.dumps(results)  # the train.py route's own closing evaluation
    output = capsys.readouterr().out
    assert f"evaluate: python evaluate.py --agent rllib:{run_dir}" in output


LEAGUE = [
    "train.total_timesteps=1500",
    "train.checkpoint_interval=500",
    "algo.training.train_batch_size_per_learner=500",
    "algo.training.minibatch_size=100",
    "opponents.snapshots.interval=500",
    "opponents.snapshots.win_rate_to_freeze=null",
    "opponents.snapshots.max_kept=2",
    "train.final_eval_episodes=0",
]
"""A league run of three iterations, a member frozen after each, two kept."""


def module_weights(checkpoint: Path, module_id: str) -> dict[str, torch.Tensor]:
    """The weights of one module of an RLlib algorithm checkpoint."""
    from ray.rllib.core.rl_module.rl_module import RLModule

    module = RLModule.from_checkpoint(checkpoint / "learner_group" / "learner" / "rl_module" / module_id)
    return dict(module.state_dict())  # type: ignore[attr-defined]  # (a torch RLModule)


@pytest.fixture(scope="module")
def league_run(local_ray: None, tmp_path_factory: pytest.TempPathFactory) -> Callable[[bool], Path]:
    """The run directory of an Unearth league run, trained once for the module (the tests below read it and leave it
    as it is): sampled and updated in this process, or with `actors` in an env runner actor and a learner actor, as
    on a cluster."""
    runs: dict[bool, Path] = {}

    def run(actors: bool) -> Path:
        if actors not in runs:
            root = tmp_path_factory.mktemp("league_in_actors" if actors else "league_in_process") / "runs"
            overrides = [*LEAGUE, f"algo.num_learners={int(actors)}", f"algo.num_env_runners={int(actors)}"]
            runs[actors] = train("configs/unearth/rllib_selfplay.yaml", root, *overrides)
        return runs[actors]

    return run


@pytest.mark.parametrize("actors", [False, True], ids=["in_process", "in_actors"])
def test_the_league_freezes_copies_of_the_learner_that_never_train_and_keeps_max_kept(
    league_run: Callable[[bool], Path], actors: bool
) -> None:
    """Issue 11: frozen snapshots join the league at each check (here unconditionally), the league is bounded, and a
    member keeps the learner's weights of the moment it was frozen while the learner trains on against it; with the
    sampling and the update in the training process, and in actors (an env runner and a learner), as on a cluster."""
    run_dir = league_run(actors)
    league = json.loads((run_dir / "league.json").read_text())
    assert league["members"] == ["league_1000", "league_1500"]
    assert [check["member"] for check in league["checks"]] == ["league_500", "league_1000", "league_1500"]
    assert sum(check["games"] for check in league["checks"]) > 0  # the env runners report the learner's games
    final = run_dir / RLLIB_FINAL_CHECKPOINT_NAME
    kept = {path.name for path in (final / "learner_group" / "learner" / "rl_module").iterdir() if path.is_dir()}
    assert kept == {"learner", "league_1000", "league_1500"}
    at_freeze = module_weights(run_dir / "checkpoints" / "rllib_1000_steps", "learner")
    member = module_weights(final, "league_1000")
    learner = module_weights(final, "learner")
    assert at_freeze.keys() == member.keys() == learner.keys()
    assert all(torch.equal(at_freeze[key], member[key]) for key in member)
    assert not all(torch.equal(learner[key], member[key]) for key in member)


def test_an_unearth_self_play_run_meets_random_in_a_tournament(
    league_run: Callable[[bool], Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_dir = league_run(False)
    monkeypatch.chdir(run_dir.parent)  # a checkpoint named by a relative path, as train.py's closing evaluation does
    checkpoint = (run_dir / RLLIB_FINAL_CHECKPOINT_NAME).relative_to(run_dir.parent)
    out = tmp_path / "eval"
    arguments = ["--agent", f"rllib:{checkpoint}", "--agent", "random", "--episodes", "1", "--no-progress"]
    assert evaluate_cli.main([*arguments, "--out", str(out)]) == 0
    results = json.loads((out / "results.json").read_text())
    assert f"rllib:{checkpoint}" in json.dumps(results)


def test_league_settings_the_game_cannot_use_fail_before_ray_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], ray_must_not_start: None
) -> None:
    league_config = "configs/unearth/rllib_selfplay.yaml"
    for config, overrides, key in (
        (league_config, ["opponents.pool=[{agent: heuristic}]"], "opponents.pool[0].agent"),
        (league_config, ["opponents.learner_seats=all"], "opponents.pool"),
        (league_config, ["opponents.pool=[]"], "opponents.pool"),
        (league_config, ["opponents.learner_seats=2"], "opponents.learner_seats"),
        ("configs/unbroken/rllib_ppo.yaml", ["opponents.pool=[{agent: snapshot}]"], "opponents.pool"),
        (
            league_config,
            ["env.id=envs.toys:tabletop/card_duel_coop_v0", "env.kwargs={num_players: 3}"],
            "opponents.pool",
        ),
    ):
        arguments = ["--config", str(REPO_ROOT / config), f"logging.run_root={tmp_path}", *overrides]
        assert train_cli.main(arguments) == 2
        error = capsys.readouterr().err
        assert f": {key}:" in error, error
    assert not any(tmp_path.iterdir())


def test_the_time_budget_ends_an_rllib_run_after_the_iteration_that_passes_it(local_ray: None, tmp_path: Path) -> None:
    run_dir = train(
        "configs/unbroken/rllib_ppo.yaml",
        tmp_path / "runs",
        "train.time_budget_minutes=1e-6",
        "train.final_eval_episodes=0",
        "algo.num_env_runners=0",  # sampled in this process: an env runner actor's start costs seconds
    )
    progress = (run_dir / RLLIB_PROGRESS_FILE_NAME).read_text().splitlines()
    assert len(progress) == 1 and (run_dir / RLLIB_FINAL_CHECKPOINT_NAME).is_dir()  # TINY alone would run two
