"""train.py end to end: a tiny run per env id, resume, both vec envs, and bad configs failing fast."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import yaml

import train
from agents.common.config import load_experiment_config
from agents.evaluation.episodes import training_win_rates
from tests.training.training_support import REPO_ROOT, TrainedRun, run_cli, tiny_training_config, write_yaml


def scalar_tags(run_dir: Path) -> set[str]:
    """Scalar tags in a run's TensorBoard event files."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    accumulator = EventAccumulator(str(run_dir / "tensorboard"))
    accumulator.Reload()
    return set(accumulator.Tags()["scalars"])


def model_timesteps(path: Path) -> int:
    """num_timesteps stored in a saved MaskablePPO model."""
    from sb3_contrib import MaskablePPO

    return MaskablePPO.load(path, device="cpu").num_timesteps


def test_train_writes_a_complete_run_directory(trained_run: TrainedRun) -> None:
    run_dir = trained_run.run_dir
    game, algo, seed, stamp = run_dir.name.split("__")
    assert game and (algo, seed) == ("maskable_ppo", "0") and stamp[:2] == "20"
    assert f"run directory: {run_dir}" in trained_run.stdout
    config = load_experiment_config(run_dir / "config.yaml")
    assert config.env.id == trained_run.env_id
    assert config.train.total_timesteps == 512
    assert config.algo.hyperparameters.n_steps == 128  # resolved config keeps the tiny values
    checkpoints = sorted(p.name for p in (run_dir / "checkpoints").iterdir())
    assert checkpoints == ["model_256_steps.zip", "model_512_steps.zip"]  # no leftover .tmp files
    assert model_timesteps(run_dir / "final_model.zip") == 512
    with np.load(run_dir / "evaluations.npz") as evaluations:
        assert list(evaluations["timesteps"]) == [256, 512]
        assert evaluations["results"].shape == (2, 2)
    # Every run ends with an evaluation beside the baselines, on the same deals, kept in the run directory.
    assert "final evaluation: 2 deals, the model beside random, heuristic" in trained_run.stdout
    final = json.loads((run_dir / "final_evaluation" / "results.json").read_text())
    assert [group["agent"] for group in final["results"]] == [str(run_dir), "random", "heuristic"]
    assert all(len(group["episodes"]) == 2 for group in final["results"])
    seeds = [[episode["seed"] for episode in group["episodes"]] for group in final["results"]]
    assert seeds[0] == seeds[1] == seeds[2] and seeds[0][0] == 5_000_000  # same deals, away from training seeds
    tags = scalar_tags(run_dir)
    expected = {
        "episode/return",
        "episode/win_rate",
        "episode/score",
        "episode/length",
        "episode/mean_legal_actions",
        "train/value_loss",
        "train/policy_gradient_loss",
        "train/entropy_loss",
        "eval/mean_reward",
        "eval/success_rate",
    }
    assert expected <= tags, expected - tags
    assert set(training_win_rates(run_dir)) == {"eval/success_rate", "episode/win_rate"}


def test_resume_continues_from_the_latest_checkpoint(copied_run: TrainedRun, capsys: pytest.CaptureFixture) -> None:
    run_dir = copied_run.run_dir
    (run_dir / "final_model.zip").unlink()  # as if the run had been interrupted after its last checkpoint
    for stray in ("model_best_steps.zip", "model_512_steps (copy).zip", "model_999_steps.zip.tmp"):
        (run_dir / "checkpoints" / stray).write_bytes(b"not a checkpoint")  # a user's files do not crash resume
    assert train.main(["--resume", str(run_dir), "train.total_timesteps=768", "--no-progress"]) == 0
    assert "from model_512_steps.zip" in capsys.readouterr().out
    assert model_timesteps(run_dir / "final_model.zip") == 768
    assert (run_dir / "checkpoints" / "model_768_steps.zip").is_file()
    with np.load(run_dir / "evaluations.npz") as evaluations:
        assert list(evaluations["timesteps"]) == [256, 512, 768]  # earlier evaluations kept
    assert yaml.safe_load((run_dir / "config.yaml").read_text())["train"]["total_timesteps"] == 768


def test_resume_refuses_to_change_anything_but_the_budget(
    copied_run: TrainedRun, capsys: pytest.CaptureFixture
) -> None:
    assert train.main(["--resume", str(copied_run.run_dir), "algo.learning_rate=1e-3"]) == 2
    assert "algo.learning_rate" in capsys.readouterr().err
    assert train.main(["--resume", str(copied_run.run_dir), "--config", "x.yaml"]) == 2
    assert "do not pass --config" in capsys.readouterr().err
    # A finished run with an unchanged budget has nothing left to do.
    assert train.main(["--resume", str(copied_run.run_dir)]) == 0
    assert "already trained for 512 steps" in capsys.readouterr().out


def test_subproc_vec_env_trains(tmp_path: Path) -> None:
    config = tiny_training_config("tabletop/Unbroken-v0", tmp_path / "runs")
    config["train"].update(vec_env="subproc", total_timesteps=256, checkpoint_interval=0, eval_interval=0)
    path = write_yaml(tmp_path / "subproc.yaml", config)
    assert train.main(["--config", str(path), "--no-progress"]) == 0
    (run_dir,) = (tmp_path / "runs").iterdir()
    assert model_timesteps(run_dir / "final_model.zip") == 256
    assert not (run_dir / "checkpoints").exists()


def test_pretraining_clones_the_teacher_before_ppo(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    config = tiny_training_config("tabletop/Unbroken-v0", tmp_path / "runs")
    config["train"].update(total_timesteps=256, checkpoint_interval=0, eval_interval=0)
    config["pretrain"] = {"steps": 300, "epochs": 2, "dagger_rounds": 1, "dagger_steps": 150, "dagger_epochs": 1}
    config["pretrain"]["workers"] = 1
    path = write_yaml(tmp_path / "pretrain.yaml", config)
    assert train.main(["--config", str(path), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "decisions of heuristic" in out and "DAgger round 1" in out
    assert ": recording" not in out and ": fitting" not in out  # --no-progress: no bar in any phase
    (run_dir,) = (tmp_path / "runs").iterdir()
    assert (run_dir / "pretrained_model.zip").is_file()
    assert not (run_dir / "pretrain_scratch").exists()  # the DAgger students are temporary
    assert {"pretrain/policy_loss", "pretrain/value_loss", "pretrain/held_out_accuracy"} <= scalar_tags(run_dir)
    assert model_timesteps(run_dir / "final_model.zip") == 256
    # The closing table shows the cloned policy before PPO beside the final model: what the PPO phase did.
    final = json.loads((run_dir / "final_evaluation" / "results.json").read_text())
    pretrained = str(run_dir / "pretrained_model.zip")
    assert [group["agent"] for group in final["results"]] == [str(run_dir), pretrained, "random", "heuristic"]
    # Resumed before any checkpoint (checkpoint_interval 0): the pretrained policy is reused, not recomputed.
    assert train.main(["--resume", str(run_dir), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert f"pretraining: reusing {run_dir / 'pretrained_model.zip'}" in out and "DAgger" not in out


def bad_config_cases(tmp_path: Path) -> dict[str, tuple[list[str], str]]:
    """name -> (train.py arguments, text the error must contain)."""
    good = tiny_training_config("tabletop/Unbroken-v0", tmp_path / "runs")

    def variant(name: str, change: dict) -> str:
        data = yaml.safe_load(yaml.safe_dump(good))
        for section, values in change.items():
            data.setdefault(section, {}).update(values)
        return str(write_yaml(tmp_path / f"{name}.yaml", data))

    unknown = variant("unknown", {"train": {"total_timestep": 5}})
    wrong_type = variant("wrong_type", {"train": {"n_envs": "two"}})
    unknown_env = variant("unknown_env", {"env": {"id": "tabletop/Nope-v0"}})
    bad_kwarg = variant("bad_kwarg", {"env": {"kwargs": {"difficulty": "impossible"}}})
    opponents = variant("opponents", {"opponents": {"pool": [{"agent": "random"}]}})
    teacher = variant("teacher", {"pretrain": {"steps": 100, "teacher": "alphazero"}})
    share = variant("share", {"pretrain": {"steps": 100, "student_share": 2.0}})
    no_grid = variant("no_grid", {"algo": {"policy_kwargs": {"features_extractor": "seat_grids"}}})
    idle_teacher = variant("idle_teacher", {"pretrain": {"steps": 0, "teacher": "nobody"}})
    missing = str(tmp_path / "missing.yaml")
    good_path = variant("good", {})
    latin = tmp_path / "latin.yaml"
    latin.write_bytes(Path(good_path).read_bytes() + "# written in Latin-1: caf\xe9\n".encode("latin-1"))
    return {
        "not UTF-8": (["--config", str(latin)], f"{latin}: not UTF-8 text (byte 0xe9 at offset "),
        "override without =": (
            ["--config", good_path, "train.seed"],
            "error: command-line override 'train.seed': expected dotted.key=value",
        ),
        "key given twice": (
            ["--config", good_path, "train.seed=1", "train.seed=x"],
            "error: command-line override 'train.seed=x': train.seed: expected an integer, got string 'x'",
        ),
        "unknown teacher, pretraining off": (
            ["--config", idle_teacher],
            f"{idle_teacher}: pretrain.teacher: unknown agent 'nobody'",
        ),
        "unknown teacher": (["--config", teacher], f"{teacher}: pretrain.teacher: unknown agent 'alphazero'"),
        "bad student share": (["--config", share], f"{share}: pretrain.student_share: must be within [0, 1]"),
        "unknown key": (["--config", unknown], f"{unknown}: train.total_timestep: unknown key"),
        "wrong type": (["--config", wrong_type], f"{wrong_type}: train.n_envs: expected an integer"),
        "missing file": (["--config", missing], f"{missing}: config file not found"),
        "unknown env id": (["--config", unknown_env], f"{unknown_env}: env.id: unknown env id 'tabletop/Nope-v0'"),
        "bad env kwarg": (["--config", bad_kwarg], f"{bad_kwarg}: env.kwargs: "),
        "solo opponents": (["--config", opponents], f"{opponents}: opponents.pool: "),
        "bad override": (["--config", unknown_env, "train.seed=-1"], "train.seed: must be >= 0"),
        "bad env kwarg by override": (
            ["--config", good_path, "env.kwargs.difficulty=impossible"],
            "error: command-line override 'env.kwargs.difficulty=impossible': env.kwargs: ",
        ),
        "misspelt key by override": (
            ["--config", good_path, "algo.n_epoch=3"],
            "command-line override 'algo.n_epoch=3': algo.n_epoch: unknown key (did you mean 'n_epochs'?",
        ),
        "no grid view": (
            ["--config", no_grid],
            f"{no_grid}: algo.policy_kwargs.features_extractor: 'seat_grids' needs a per-seat grid view",
        ),
    }


@pytest.mark.slow
def test_pretraining_phases_draw_progress_bars_like_the_ppo_phase(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    """Behaviour cloning and each DAgger round draw a bar for recording the teacher's decisions and one for fitting
    them, as the PPO phase draws its own (they used to print nothing for minutes); each bar runs to its total."""
    config = tiny_training_config("tabletop/Unbroken-v0", tmp_path / "runs")
    config["train"].update(total_timesteps=128, checkpoint_interval=0, eval_interval=0, final_eval_episodes=0)
    config["pretrain"] = {"steps": 200, "epochs": 1, "dagger_rounds": 1, "dagger_steps": 100, "dagger_epochs": 1}
    config["pretrain"]["workers"] = 1
    path = write_yaml(tmp_path / "pretrain.yaml", config)
    assert train.main(["--config", str(path)]) == 0
    captured = capsys.readouterr()
    shown = captured.out + captured.err
    for phase, total in (("cloning: recording", "200/200"), ("DAgger 1/1: recording", "100/100")):
        (line,) = [line for line in shown.splitlines() if line.startswith(phase)]
        assert "100%" in line and total in line, line
    assert "cloning: fitting 100%" in shown and "DAgger 1/1: fitting 100%" in shown
    assert shown.index("cloning: recording") < shown.index("DAgger 1/1: fitting") < shown.index("done in")


@pytest.mark.parametrize(
    "case",
    [
        "unknown key",
        "wrong type",
        "missing file",
        "unknown env id",
        "bad env kwarg",
        "solo opponents",
        "bad override",
        "bad env kwarg by override",
        "misspelt key by override",
        "unknown teacher",
        "bad student share",
        "no grid view",
        "not UTF-8",
        "override without =",
        "key given twice",
        "unknown teacher, pretraining off",
    ],
)
def test_bad_configs_fail_before_training(case: str, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    arguments, message = bad_config_cases(tmp_path)[case]
    assert train.main(arguments) == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert captured.err.startswith("error: ") and captured.err.count("\n") == 1  # one line, no traceback
    assert not (tmp_path / "runs").exists()  # nothing was started


def test_bad_config_exit_status_from_the_command_line(tmp_path: Path) -> None:
    missing = tmp_path / "missing.yaml"
    result = run_cli("train.py", "--config", str(missing))
    assert result.returncode == 2
    assert f"error: {missing}: config file not found" in result.stderr


def test_default_config_is_the_unbroken_maskable_ppo_one() -> None:
    assert train.DEFAULT_CONFIG.resolve() == (REPO_ROOT / "configs" / "unbroken" / "maskable_ppo.yaml").resolve()
    config = load_experiment_config(train.DEFAULT_CONFIG)
    assert (config.train.vec_env, config.train.n_envs) == ("dummy", 8)  # the fastest vec env measured on two cores
    # The README's first command stays under 10 minutes on two cores: the main job's report (benchmarks/main_job.py,
    # which CI reruns) records the wall time of its run of this config.
    report = json.loads((REPO_ROOT / "benchmarks" / "results" / "unbroken_main_job.json").read_text(encoding="utf-8"))
    assert report["config"] == "unbroken/maskable_ppo.yaml"
    assert report["seconds"] < 600


def test_ctrl_c_says_how_to_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """Ctrl-C during training ends with exit status 130 and the command that resumes the run, not a traceback."""
    import agents.training.maskable_ppo

    def interrupted(*_: object, **__: object) -> Path:
        raise KeyboardInterrupt

    monkeypatch.setattr(agents.training.maskable_ppo, "train", interrupted)
    config = write_yaml(tmp_path / "config.yaml", tiny_training_config("tabletop/Unbroken-v0", tmp_path / "runs"))
    assert train.main(["--config", str(config), "--no-progress"]) == train.INTERRUPTED_EXIT_CODE
    output = capsys.readouterr().out
    assert "no checkpoint was written yet" in output and "python train.py --resume" in output


def test_sigterm_is_handled_like_ctrl_c(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """SIGTERM during training (a scheduler's stop, or `kill` of a job started in the background, where SIGINT is
    ignored) ends like Ctrl-C: exit status 130 and the resume command; the previous SIGTERM handler is restored."""
    import os
    import signal

    import agents.training.maskable_ppo

    def terminated(*_: object, **__: object) -> Path:
        os.kill(os.getpid(), signal.SIGTERM)
        raise AssertionError("SIGTERM did not interrupt training")

    def not_handled_by_train(signum: int, frame: object) -> None:
        raise RuntimeError("train.py left SIGTERM to the previous handler")

    monkeypatch.setattr(agents.training.maskable_ppo, "train", terminated)
    before = signal.signal(signal.SIGTERM, not_handled_by_train)  # never the default, which would end pytest
    try:
        config = write_yaml(tmp_path / "config.yaml", tiny_training_config("tabletop/Unbroken-v0", tmp_path / "runs"))
        assert train.main(["--config", str(config), "--no-progress"]) == train.INTERRUPTED_EXIT_CODE
        assert "python train.py --resume" in capsys.readouterr().out
        assert signal.getsignal(signal.SIGTERM) is not_handled_by_train
    finally:
        signal.signal(signal.SIGTERM, before)


def test_shipped_configs_are_listed_and_named_by_short_name_from_any_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """`--list-configs` lists every shipped config by short name; `--config unearth/selfplay` and the checkout path
    `configs/unearth/selfplay.yaml` both name it from a folder outside the checkout (as an installed package has no
    configs/ beside it); a misspelt name is refused with the closest one."""
    monkeypatch.chdir(tmp_path)
    assert train.main(["--list-configs"]) == 0
    listed = [line.split()[0] for line in capsys.readouterr().out.splitlines() if not line.startswith(" ")]
    shipped = sorted(f"{path.parent.name}/{path.stem}" for path in (REPO_ROOT / "configs").glob("*/*.yaml"))
    assert listed == shipped
    for spec in ("unearth/selfplay", "configs/unearth/selfplay.yaml"):
        assert train.main(["--config", spec, "--show-config"]) == 0
        assert "id: tabletop/unearth_v0" in capsys.readouterr().out
    assert train.main(["--config", "unearth/selfpaly"]) == 2
    assert "config file not found (did you mean 'unearth/selfplay'?" in capsys.readouterr().err


def test_shipped_configs_are_listed_with_whole_sentences() -> None:
    """`--list-configs` gives each config the first line of its header whole and, where that line runs on (it ends in
    `:`, `,` or `then`, introducing the command on the next line), the lines up to where the sentence ends: no
    summary stops mid-sentence (it used to print `from the repo root:` and stop). Long summaries wrap under
    themselves within the width."""
    from agents.common.shipped_configs import LISTING_NAME_WIDTH, config_listing, shipped_configs

    width = 100
    entries: dict[str, str] = {}
    for line in config_listing(width).splitlines():
        assert len(line) <= width or " " not in line[LISTING_NAME_WIDTH:].strip(), line
        if line.startswith(" "):
            name = list(entries)[-1]
            entries[name] += " " + line.strip()
        else:
            name, _, text = line.partition(" ")
            entries[name] = text.strip()
    assert list(entries) == list(shipped_configs())
    for name, text in entries.items():
        header = shipped_configs()[name].read_text(encoding="utf-8").splitlines()
        assert text.startswith(" ".join(header[0].lstrip("# ").split())), name
        assert not text.endswith((":", ",", " then")), f"{name}: {text}"


def test_the_evaluation_command_suggested_matches_how_training_was_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run as the installed `tabletop-train`, training suggests `tabletop-evaluate` (there is no evaluate.py outside
    a checkout); run as `python train.py`, it suggests `python evaluate.py`."""
    from agents.training import train_cli

    monkeypatch.setattr("sys.argv", ["/usr/bin/tabletop-train"])
    assert train_cli.evaluate_command_name() == "tabletop-evaluate"
    monkeypatch.setattr("sys.argv", ["train.py"])
    assert train_cli.evaluate_command_name() == "python evaluate.py"


def test_progress_total_is_the_budget_in_whole_rollouts() -> None:
    """PPO collects whole rollouts, so a budget of 50,000 steps in rollouts of 2,048 takes 51,200: the progress bar
    counts to that total (never 51,200/50,000), and a budget of whole rollouts is kept as it is."""
    from agents.training.callbacks import whole_rollouts

    assert whole_rollouts(50_000, 2_048) == 51_200
    assert whole_rollouts(4_096, 2_048) == 4_096
    assert whole_rollouts(1, 2_048) == 2_048
    assert whole_rollouts(0, 2_048) == 0


def test_ctrl_c_during_start_up_ends_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """Ctrl-C before training starts (building the env) ends with status 130 and one line, not a traceback, and
    creates no run."""
    from agents.training import train_cli

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(train_cli, "probe_env", interrupted)
    config = write_yaml(tmp_path / "tiny.yaml", tiny_training_config("tabletop/Unbroken-v0", tmp_path / "runs"))
    assert train.main(["--config", str(config), "--no-progress"]) == 130
    assert capsys.readouterr().err.strip() == "interrupted (outside training: nothing was being trained)"
    assert not (tmp_path / "runs").exists()


def test_the_ppo_phase_line_compares_the_final_model_with_its_pretrained_start(tmp_path: Path) -> None:
    """The closing evaluation lists the final model first and its pretrained start second, on the same deals: the
    line states both win rates and the paired difference; results without episodes give no line."""
    from agents.training.train_cli import ppo_phase_line

    def group(wins: list[int]) -> dict[str, object]:
        return {"episodes": [{"won": bool(w)} for w in wins]}

    path = tmp_path / "results.json"
    path.write_text(json.dumps({"results": [group([1, 1, 0, 1]), group([1, 0, 0, 0]), group([0, 0, 0, 0])]}))
    line = ppo_phase_line(path)
    assert line is not None
    assert "75.0% won against 25.0% before it, on the same 4 deals: +50.0 points" in line
    path.write_text(json.dumps({"results": [{"summary": {}}]}))
    assert ppo_phase_line(path) is None
