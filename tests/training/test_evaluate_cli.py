"""evaluate.py end to end, determinism across worker counts, and replaying recorded episodes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from training_support import REPO_ROOT, TrainedRun, run_cli, write_yaml

import evaluate
from agents.evaluation import EvaluationGroup, build_groups, run_evaluation
from envs.core.registration import game_record

UNBROKEN = "tabletop/Unbroken-v0"
SWEEP = {"difficulty": ["easy", "hard"], "preset": ["english", "spanish"]}


def eval_config_for(env_id: str, tmp_path: Path) -> Path:
    """The shipped Unbroken eval config pointed at `env_id` (game-specific kwargs dropped for other games)."""
    config = yaml.safe_load((REPO_ROOT / "configs" / "unbroken" / "eval.yaml").read_text())
    if env_id != UNBROKEN:
        config["env"] = {"id": env_id, "kwargs": {}}
    return write_yaml(tmp_path / "eval.yaml", config)


def test_evaluate_smoke_with_every_kind_of_agent(trained_run: TrainedRun, tmp_path: Path) -> None:
    agents = ["random", "mcts:4", str(trained_run.run_dir)]
    if trained_run.env_id == UNBROKEN:
        agents.append("heuristic")
    out = tmp_path / "out"
    arguments = ["evaluate.py", "--config", str(eval_config_for(trained_run.env_id, tmp_path))]
    for agent in agents:
        arguments += ["--agent", agent]
    result = run_cli(*arguments, "--episodes", "3", "--seed", "11", "--out", str(out), "--record")
    assert result.returncode == 0, result.stderr
    assert "win rate" in result.stdout and "95% CI" in result.stdout
    document = json.loads((out / "results.json").read_text())
    assert [group["agent"] for group in document["results"]] == agents
    for group in document["results"]:
        episodes, summary = group["episodes"], group["summary"]
        assert [e["seed"] for e in episodes] == [11, 12, 13]
        assert summary["episodes"] == 3
        assert summary["wins"] == sum(e["won"] for e in episodes)
        assert sum(summary["score_distribution"].values()) == 3
        assert sum(summary["title_distribution"].values()) == 3
        assert summary["mean_length"] == pytest.approx(sum(e["length"] for e in episodes) / 3)
        low, high = summary["win_rate_ci95"]
        assert 0.0 <= low <= summary["win_rate"] <= high <= 1.0
    assert (out / "score_histograms.png").stat().st_size > 0
    assert (out / "win_rate_over_training.png").stat().st_size > 0
    recordings = sorted((out / "recordings").rglob("*.json"))
    assert len(recordings) == 3 * len(agents)


def test_replay_reproduces_a_recorded_episode(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert evaluate.main(["--agent", "random", "--episodes", "2", "--seed", "5", "--out", str(out), "--record"]) == 0
    recording_path = out / "recordings" / "random" / "episode_00001.json"
    recording = json.loads(recording_path.read_text())
    assert (recording["env_id"], recording["seed"]) == (UNBROKEN, 6)
    result = run_cli("-m", "envs.replay", str(recording_path), "--render", "ansi")
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("--- step ") == len(recording["actions"])
    assert "--- end: {'won': " in result.stdout  # and exit status 0: the replayed result equals the recorded one
    # A recording whose result does not match what the actions produce is reported, not silently accepted.
    recording["result"]["score"] += 1
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(recording))
    result = run_cli("-m", "envs.replay", str(tampered), "--render", "none")
    assert result.returncode == 1
    assert "differs from the recording" in result.stderr
    # Every outcome fact the recording lists is checked too, whatever the game calls it.
    recording["result"]["score"] -= 1
    fact = next(iter(recording["result"]["facts"]))
    recording["result"]["facts"][fact] = "something else"
    tampered.write_text(json.dumps(recording))
    result = run_cli("-m", "envs.replay", str(tampered), "--render", "none")
    assert result.returncode == 1
    assert f"{fact}: recorded 'something else'" in result.stderr


def test_same_seed_gives_identical_results_with_any_worker_count() -> None:
    groups = [EvaluationGroup("random", UNBROKEN, {}), EvaluationGroup("mcts:3", UNBROKEN, {"difficulty": "easy"})]
    single = run_evaluation(groups, episodes=5, seed=100, workers=1, record=True)
    parallel = run_evaluation(groups, episodes=5, seed=100, workers=2, record=True)
    assert [r.episodes for r in single] == [r.episodes for r in parallel]
    assert [r.summary for r in single] == [r.summary for r in parallel]
    assert [e.episode for e in parallel[0].episodes] == [0, 1, 2, 3, 4]
    shifted = run_evaluation(groups[:1], episodes=5, seed=101, workers=1, record=True)
    # Episode i uses seed S + i: seed 101's episode 0 is seed 100's episode 1.
    assert shifted[0].episodes[0].actions == single[0].episodes[1].actions
    assert [e.actions for e in shifted[0].episodes] != [e.actions for e in single[0].episodes]


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
        (["--agent", "missing_model.zip"], "not found"),
        (["--agent", "random", "--workers", "0"], "evaluation.workers: must be > 0"),
        (["--agent", "random", "env.id=tabletop/Nope-v0"], "env.id: unknown env id"),
        (["--agent", "random", "--sweep", "difficulty=easy,impossible"], "env.kwargs: "),
        (["--agent", "random", "--sweep", "difficulty"], "expected KEY=V1,V2"),
        (["--game", "monopoly"], "unknown game 'monopoly'; known games: "),  # toys are registered in tests
    ],
)
def test_bad_evaluations_fail_fast(arguments: list[str], message: str, capsys: pytest.CaptureFixture) -> None:
    assert evaluate.main(arguments) == 2
    assert message in capsys.readouterr().err
