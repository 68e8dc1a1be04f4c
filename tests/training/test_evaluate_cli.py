"""evaluate.py end to end, determinism across worker counts, and replaying recorded episodes (replay records)."""

from __future__ import annotations

import json
import multiprocessing
import signal
import subprocess
from pathlib import Path

import pytest
import yaml

import evaluate
from agents.evaluation import evaluate_cli
from agents.evaluation.episodes import EvaluationGroup, build_groups, run_evaluation
from envs import replay
from envs.core.registration import game_record, game_record_of_env_id
from envs.core.replays import read_record
from tests.training.training_support import (
    DAMAGED_MODEL_REASONS,
    REPO_ROOT,
    TrainedRun,
    interrupt_after,
    run_cli,
    write_yaml,
)

UNBROKEN = "tabletop/Unbroken-v0"
SWEEP = {"difficulty": ["easy", "hard"], "preset": ["english", "spanish"]}


def eval_config_for(env_id: str, tmp_path: Path) -> Path:
    """The shipped Unbroken eval config pointed at `env_id` (game-specific kwargs dropped for other games)."""
    config = yaml.safe_load((REPO_ROOT / "configs" / "unbroken" / "eval.yaml").read_text())
    if env_id != UNBROKEN:
        config["env"] = {"id": env_id, "kwargs": {}}
        config["mcts"]["value"] = "none"  # the learned value model is Unbroken's (agents/value_models/unbroken.npz)
    return write_yaml(tmp_path / "eval.yaml", config)


def test_evaluate_smoke_with_every_kind_of_agent(
    trained_run: TrainedRun, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    agents = ["random", "mcts:4", str(trained_run.run_dir)]
    if trained_run.env_id == UNBROKEN:
        agents.append("heuristic")
    out = tmp_path / "out"
    arguments = ["--config", str(eval_config_for(trained_run.env_id, tmp_path))]
    for agent in agents:
        arguments += ["--agent", agent]
    assert evaluate.main([*arguments, "--episodes", "3", "--seed", "11", "--out", str(out), "--record"]) == 0
    printed = capsys.readouterr().out
    assert "win rate" in printed and "95% CI" in printed
    document = json.loads((out / "results.json").read_text())
    assert [group["agent"] for group in document["results"]] == agents
    headline = game_record_of_env_id(trained_run.env_id).headline_fact
    for group in document["results"]:
        episodes, summary = group["episodes"], group["summary"]
        assert [e["seed"] for e in episodes] == [11, 12, 13]
        assert summary["episodes"] == 3
        assert summary["wins"] == sum(e["won"] for e in episodes)
        assert sum(summary["score_distribution"].values()) == 3
        assert sum(summary[f"{headline}_distribution"].values()) == 3
        assert summary["mean_length"] == pytest.approx(sum(e["length"] for e in episodes) / 3)
        low, high = summary["win_rate_ci95"]
        assert 0.0 <= low <= summary["win_rate"] <= high <= 1.0
    assert (out / "score_histograms.png").stat().st_size > 0
    assert (out / "win_rate_over_training.png").stat().st_size > 0
    recordings = sorted((out / "recordings").rglob("*.json"))
    assert len(recordings) == 3 * len(agents)


def test_evaluate_record_writes_replay_records_that_replay(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """evaluate.py --record writes one rules-core replay record per episode; envs.replay replays each exactly."""
    out = tmp_path / "out"
    assert evaluate.main(["--agent", "random", "--episodes", "2", "--seed", "5", "--out", str(out), "--record"]) == 0
    paths = sorted((out / "recordings" / "random").glob("episode_*.json"))
    assert [path.name for path in paths] == ["episode_00000.json", "episode_00001.json"]
    document = json.loads((out / "results.json").read_text())
    for path, episode in zip(paths, document["results"][0]["episodes"], strict=True):
        record = read_record(path)
        assert (record.env_id, record.game, record.seed, record.players) == (
            UNBROKEN,
            "unbroken",
            episode["seed"],
            ["random"],
        )
        assert record.start_state is None and record.result is not None
        assert "reward" not in record.game_kwargs and record.game_kwargs["difficulty"] == "normal"  # game kwargs only
        decisions = [action for player, action in record.events if player == 0]
        assert len(decisions) == episode["length"]  # every decision, and the chance outcomes between them
        assert record.result.returns == [1.0 if episode["won"] else -1.0]
        assert record.result.facts[0]["title"] == episode["facts"]["title"]
        capsys.readouterr()
        assert replay.main([str(path), "--render", "none"]) == 0
        printed = capsys.readouterr().out
        assert printed.count("--- step ") == len(record.events)
        assert "the replay matches the record" in printed
    # A record whose result does not match what its events produce is reported, not silently accepted.
    tampered = json.loads(paths[1].read_text())
    tampered["result"]["facts"][0]["level"] += 1
    tampered_path = tmp_path / "tampered.json"
    tampered_path.write_text(json.dumps(tampered))
    assert replay.main([str(tampered_path), "--render", "none"]) == 1
    error = capsys.readouterr().err
    assert error.startswith("error: the replay differs from the record: facts: recorded") and error.count("\n") == 1


def test_old_env_level_recordings_are_refused_with_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """Recordings of the earlier format (env_id, seed, actions) name themselves as such: exit 1, one line."""
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"env_id": UNBROKEN, "kwargs": {}, "seed": 6, "agent": "random", "actions": [3, 4]}))
    assert replay.main([str(old), "--render", "none"]) == 1
    error = capsys.readouterr().err
    assert error.startswith(f"error: {old}: format: old format: an env-level recording") and error.count("\n") == 1


def test_same_seed_gives_identical_results_with_any_worker_count() -> None:
    groups = [EvaluationGroup("random", UNBROKEN, {}), EvaluationGroup("mcts:3", UNBROKEN, {"difficulty": "easy"})]
    single = run_evaluation(groups, episodes=5, seed=100, workers=1, record=True)
    parallel = run_evaluation(groups, episodes=5, seed=100, workers=2, record=True)
    assert [r.episodes for r in single] == [r.episodes for r in parallel]
    assert [r.summary for r in single] == [r.summary for r in parallel]
    assert [e.episode for e in parallel[0].episodes] == [0, 1, 2, 3, 4]
    shifted = run_evaluation(groups[:1], episodes=5, seed=101, workers=1, record=True)
    # Episode i uses seed S + i: seed 101's episode 0 is seed 100's episode 1.
    assert shifted[0].episodes[0].events == single[0].episodes[1].events
    assert [e.events for e in shifted[0].episodes] != [e.events for e in single[0].episodes]


def test_sweep_evaluates_every_value(tmp_path: Path) -> None:
    """--sweep KEY=V1,V2 (what --by-difficulty did for one kwarg): one group per value, labelled by it."""
    out = tmp_path / "out"
    arguments = ["--agent", "random", "--episodes", "2", "--sweep", "difficulty=easy,normal,hard", "--record"]
    assert evaluate.main([*arguments, "--out", str(out)]) == 0
    document = json.loads((out / "results.json").read_text())
    assert [(g["sweep"], g["env_kwargs"]["difficulty"]) for g in document["results"]] == [
        ({"difficulty": "easy"}, "easy"),
        ({"difficulty": "normal"}, "normal"),
        ({"difficulty": "hard"}, "hard"),
    ]
    assert document["meta"]["config"]["evaluation"]["sweep"] == {"difficulty": ["easy", "normal", "hard"]}
    folders = sorted(path.name for path in (out / "recordings" / "random").iterdir())
    assert folders == ["difficulty-easy", "difficulty-hard", "difficulty-normal"]


def test_sweep_groups_are_every_combination_with_their_kwargs() -> None:
    groups = build_groups(["random", "heuristic"], UNBROKEN, {"character": 1, "difficulty": "normal"}, SWEEP)
    combinations = [
        {"difficulty": difficulty, "preset": preset}
        for difficulty in ("easy", "hard")
        for preset in ("english", "spanish")
    ]
    assert [group.agent for group in groups] == ["random"] * 4 + ["heuristic"] * 4
    assert [group.sweep for group in groups] == combinations * 2
    assert [group.env_kwargs for group in groups] == [
        {"character": 1, **combination} for combination in combinations
    ] * 2
    assert build_groups(["random"], UNBROKEN, {"character": 1}, {}) == [
        EvaluationGroup("random", UNBROKEN, {"character": 1})
    ]


def test_sweep_settings_sweeps_the_games_record(tmp_path: Path) -> None:
    """--sweep-settings adds every setting of the record the sweep does not list; --sweep keeps its own values."""
    out = tmp_path / "out"
    arguments = ["--agent", "random", "--episodes", "1", "--sweep", "difficulty=hard", "--sweep-settings"]
    assert evaluate.main([*arguments, "--out", str(out)]) == 0
    document = json.loads((out / "results.json").read_text())
    settings = game_record("unbroken").settings
    assert [g["sweep"] for g in document["results"]] == [
        {"difficulty": "hard", "preset": preset} for preset in settings["preset"]
    ]
    for group in document["results"]:
        assert group["env_kwargs"]["preset"] == group["sweep"]["preset"]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--agent", "alphazero"], "unknown agent 'alphazero'"),
        (["--agent", "missing_model.zip"], "error: cannot load missing_model.zip: no such model file"),
        (["--agent", "mcts:0"], "error: agent 'mcts:0': mcts:N needs a whole number of simulations of at least 1"),
        (["--agent", "mcts:-3"], "error: agent 'mcts:-3': mcts:N needs a whole number"),
        (["--agent", "mcts:abc"], "error: agent 'mcts:abc': mcts:N needs a whole number"),
        (["--agent", "random", "--workers", "0"], "evaluation.workers: must be > 0"),
        (["--agent", "random", "env.id=tabletop/Nope-v0"], "env.id: unknown env id"),
        (["--agent", "random", "--sweep", "difficulty=easy,impossible"], "env.kwargs: "),
        (["--agent", "random", "--sweep", "difficulty"], "expected KEY=V1,V2"),
        (["--game", "monopoly"], "unknown game 'monopoly'; known games: "),  # toys are registered in tests
        (
            ["--config", str(REPO_ROOT / "configs/card_duel/eval.yaml"), "--agent", "lookahead", "--agent", "random"],
            "error: agent 'lookahead' scores actions with the game's position evaluation, and game 'card_duel' has no "
            "position evaluation",
        ),
    ],
)
def test_bad_evaluations_fail_fast(arguments: list[str], message: str, capsys: pytest.CaptureFixture) -> None:
    assert evaluate.main(arguments) == 2
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1


@pytest.mark.parametrize("damage", sorted(DAMAGED_MODEL_REASONS))
def test_a_model_that_cannot_be_loaded_is_one_line_and_exit_2(
    damage: str, damaged_model_files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    """A corrupt policy, a zip without data, a file that is no zip and torch's refusal to unpickle all end in
    "cannot load MODEL: reason", never in a traceback or in torch's advice to pass weights_only=False."""
    model = damaged_model_files[damage]
    assert evaluate.main(["--agent", "random", "--agent", str(model), "--out", str(tmp_path)]) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"error: cannot load {model}: {DAMAGED_MODEL_REASONS[damage]}")
    assert error.count("\n") == 1 and "weights_only" not in error
    assert not (tmp_path / "results.json").exists()


@pytest.mark.slow
@pytest.mark.parametrize("trained_run", [UNBROKEN], indirect=True)
def test_recordings_of_a_run_go_to_the_runs_own_recordings_folder(
    copied_run: TrainedRun, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """`evaluate.py --agent runs/RUN --record` writes the replay records under `runs/RUN/recordings/<evaluation>/`,
    where the README points `tabletop-view` (they went to runs/eval/<evaluation>/recordings, which the README did not
    name); with --out they stay in the output folder."""
    monkeypatch.chdir(tmp_path)
    run_dir = copied_run.run_dir
    arguments = ["--agent", str(run_dir), "--agent", "random", "--episodes", "2", "--record", "--no-progress"]
    assert evaluate.main(arguments) == 0
    (evaluation,) = (tmp_path / "runs" / "eval").iterdir()  # results.json and plots stay in the evaluation folder
    assert (evaluation / "results.json").is_file() and not (evaluation / "recordings").exists()
    recordings = run_dir / "recordings" / evaluation.name
    assert f"recordings: {recordings} (replay: python -m envs.replay FILE; watch: tabletop-view {recordings})" in (
        capsys.readouterr().out
    )
    paths = sorted((run_dir / "recordings").rglob("*.json"))
    assert len(paths) == 4 and all(path.is_relative_to(recordings) for path in paths)
    assert read_record(paths[0]).env_id == UNBROKEN
    out = tmp_path / "out"
    assert evaluate.main([*arguments, "--out", str(out)]) == 0
    assert len(list((out / "recordings").rglob("*.json"))) == 4
    assert len(list((run_dir / "recordings").rglob("*.json"))) == 4  # nothing more in the run's folder


def test_a_run_is_evaluated_on_its_own_env_settings(
    copied_run: TrainedRun, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    """`--agent RUN` without --config plays the env the run trained on (a Hard run is not scored on Normal) and says
    so; an override on the command line still wins."""
    config_file = copied_run.run_dir / "config.yaml"
    config = yaml.safe_load(config_file.read_text())
    settings = game_record_of_env_id(copied_run.env_id).settings  # Unbroken: difficulty hard, preset spanish
    trained_on = {key: values[-1] for key, values in settings.items()}
    config["env"]["kwargs"] = trained_on
    config_file.write_text(yaml.safe_dump(config, sort_keys=False))
    arguments = ["--agent", str(copied_run.run_dir), "--episodes", "2", "--out", str(tmp_path / "a")]
    assert evaluate.main(arguments) == 0
    printed = capsys.readouterr().out
    assert f"env of run {copied_run.run_dir}: {copied_run.env_id} {trained_on}" in printed
    document = json.loads((tmp_path / "a" / "results.json").read_text())
    assert document["results"][0]["env_kwargs"] == trained_on
    key, values = next(iter(settings.items()))  # Unbroken: difficulty=easy
    arguments = [*arguments[:-1], str(tmp_path / "b"), f"env.kwargs.{key}={values[0]}"]
    assert evaluate.main(arguments) == 0
    document = json.loads((tmp_path / "b" / "results.json").read_text())
    assert document["results"][0]["env_kwargs"] == {**trained_on, key: values[0]}


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_keeps_the_finished_episodes_summarised_and_exits_130(
    workers: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """Ctrl-C while playing: the episodes finished so far are summarised and written (marked interrupted), the worker
    processes are terminated, and the command ends with one line and exit status 130."""
    workers_seen: list = []
    interrupt_after(monkeypatch, 3, workers_seen)
    out = tmp_path / "out"
    arguments = ["--agent", "heuristic", "--agent", "random", "--episodes", "40", "--workers", str(workers)]
    assert evaluate.main([*arguments, "--out", str(out), "--record"]) == 130
    captured = capsys.readouterr()
    results = out / "results.json"
    assert captured.err.splitlines()[-1] == f"interrupted: 3 of 80 episodes finished; their results: {results}"
    assert "Traceback" not in captured.err and "done in" not in captured.out
    document = json.loads(results.read_text())
    meta = document["meta"]
    assert (meta["interrupted"], meta["episodes_finished"], meta["episodes_planned"]) == (True, 3, 80)
    summaries = [group["summary"] for group in document["results"]]
    assert sum(summary["episodes"] for summary in summaries) == 3
    for group, summary in zip(document["results"], summaries, strict=True):
        assert len(group["episodes"]) == summary["episodes"]
        assert summary["wins"] == sum(episode["won"] for episode in group["episodes"])
    assert "heuristic" in captured.out and "win rate" in captured.out  # the summary table of what was played
    assert len(list((out / "recordings").rglob("*.json"))) == 3
    if workers == 1:
        assert summaries[0]["episodes"] == 3 and summaries[1]["episodes"] == 0  # groups are played in order
        assert [episode["episode"] for episode in document["results"][0]["episodes"]] == [0, 1, 2]
    else:
        assert len(workers_seen) == workers
        assert all(process.exitcode == -signal.SIGTERM for process in workers_seen)  # stopped, not run to the end
        assert multiprocessing.active_children() == []


def test_sigterm_keeps_the_finished_episodes_like_ctrl_c(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SIGTERM while playing (a scheduler's stop, or `kill` of a background job) ends as Ctrl-C does: the finished
    episodes are summarised and written, exit status 130, and the previous SIGTERM handler is restored."""

    def not_handled_by_evaluate(signum: int, frame: object) -> None:
        raise RuntimeError("evaluate.py left SIGTERM to the previous handler")

    interrupt_after(monkeypatch, 3, sigterm=True)
    before = signal.signal(signal.SIGTERM, not_handled_by_evaluate)  # never the default, which would end pytest
    try:
        out = tmp_path / "out"
        arguments = ["--agent", "heuristic", "--episodes", "20", "--workers", "1", "--out", str(out)]
        assert evaluate.main(arguments) == 130
        meta = json.loads((out / "results.json").read_text())["meta"]
        assert (meta["interrupted"], meta["episodes_finished"]) == (True, 3)
        assert signal.getsignal(signal.SIGTERM) is not_handled_by_evaluate
    finally:
        signal.signal(signal.SIGTERM, before)


def test_ctrl_c_before_any_episode_ends_with_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    def interrupted(args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(evaluate_cli, "resolve_settings", interrupted)
    assert evaluate.main(["--agent", "random"]) == 130
    captured = capsys.readouterr()
    assert captured.err.strip() == "interrupted" and captured.out == ""


def test_progress_goes_to_stderr_and_no_progress_turns_it_off(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    arguments = ["--agent", "random", "--episodes", "20", "--out", str(tmp_path)]
    assert evaluate.main(arguments) == 0
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 10 and lines[0].startswith("episodes 2/20 (10%)") and "left" in lines[0]
    assert lines[-1].startswith("episodes 20/20 (100%)") and lines[-1].endswith(" in all")
    assert "episodes 2/20" not in captured.out
    assert evaluate.main([*arguments, "--no-progress"]) == 0
    assert capsys.readouterr().err == ""


TRAIN_EXTRA_MODULES = (
    "torch",
    "stable_baselines3",
    "sb3_contrib",
    "tensorboard",
    "tqdm",
    "rich",
    "matplotlib",
)
"""What `pip install tabletop-gym` without the train extra lacks (and what evaluate.py must do without)."""


def evaluate_without_train_extra(*arguments: str) -> subprocess.CompletedProcess:
    """evaluate.py in a fresh process where importing any of TRAIN_EXTRA_MODULES fails."""
    code = (
        "import sys\n"
        f"for name in {TRAIN_EXTRA_MODULES!r}:\n"
        "    sys.modules[name] = None  # import name: ImportError, as where it is not installed\n"
        "import evaluate\n"
        "sys.exit(evaluate.main(sys.argv[1:]))\n"
    )
    return run_cli("-c", code, *arguments)


def test_without_the_train_extra_evaluate_still_saves_its_results(tmp_path: Path) -> None:
    """Random and heuristic agents with the core dependencies only: a plain-text table, results.json, no plots."""
    out = tmp_path / "out"
    result = evaluate_without_train_extra(
        "--agent", "random", "--agent", "heuristic", "--episodes", "2", "--out", str(out)
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    header = lines.index("Evaluation") + 1
    assert lines[header].split()[:3] == ["agent", "episodes", "win"] and set(lines[header + 1]) <= {"-", " "}
    assert lines[header + 2].startswith("random ") and lines[header + 3].startswith("heuristic ")
    assert "no plots: matplotlib is not installed" in result.stdout
    document = json.loads((out / "results.json").read_text())
    assert [group["summary"]["episodes"] for group in document["results"]] == [2, 2]
    assert not (out / "score_histograms.png").exists()
    tournament = evaluate_without_train_extra(
        "--config",
        str(REPO_ROOT / "configs" / "card_duel" / "eval.yaml"),
        "--agent",
        "random",
        "--agent",
        "heuristic",
        "--episodes",
        "2",
        "--out",
        str(tmp_path / "duel"),
        "env.kwargs.num_players=2",
    )
    assert tournament.returncode == 0, tournament.stderr
    # The ratings need numpy alone (a core dependency), so a tournament is rated without the train extra too.
    assert "Ratings, card_duel" in tournament.stdout and "Seat advantage, card_duel" in tournament.stdout
    tables = json.loads((tmp_path / "duel" / "results.json").read_text())["tournaments"][0]["tables"]
    assert sorted(row["agent"] for row in tables["ratings"]) == ["heuristic", "random"]
    assert len(tables["pairwise"]) == 2 and "note" not in tables


def test_workers_end_when_their_parent_is_killed() -> None:
    """A parent killed outright (SIGKILL: no cleanup runs) leaves no worker playing on: they watch it and exit."""
    import os
    import signal
    import subprocess
    import sys
    import time

    parent = subprocess.Popen(
        [sys.executable, "-c", "from tests.training.worker_support import stream_until_killed; stream_until_killed()"],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert parent.stdout is not None
    workers = {int(parent.stdout.readline()) for _ in range(2)}
    assert len(workers) == 2
    parent.send_signal(signal.SIGKILL)
    parent.wait()

    def alive(pid: int) -> bool:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        with open(f"/proc/{pid}/stat") as stat:  # a zombie waiting to be reaped has ended
            return stat.read().split(")")[-1].split()[0] != "Z"

    deadline = time.monotonic() + 15
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not any(alive(pid) for pid in workers)


def test_a_runs_unknown_env_is_blamed_on_its_own_config(copied_run: TrainedRun, capsys: pytest.CaptureFixture) -> None:
    """Evaluating a run whose config.yaml names an env id no game declares: the error names that config.yaml (where
    the env came from), not the eval config."""
    config = copied_run.run_dir / "config.yaml"
    config.write_text(config.read_text().replace(f"id: {copied_run.env_id}", "id: tabletop/Nope-v0"))
    assert evaluate.main(["--agent", str(copied_run.run_dir), "--episodes", "2"]) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"error: {config} (the env of that run): env.id: unknown env id 'tabletop/Nope-v0'")
