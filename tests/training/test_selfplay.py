"""Training against opponents on a multi-player game: the opponent env from a config, snapshots, self-play, imitation.

Proven on the toy Card Duel (envs/toys), registered through its GameRecord and named by a "package:id" env id.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml

from agents.common.config import ConfigError, EnvConfig, OpponentConfig, OpponentsConfig
from agents.common.run_dir import SNAPSHOT_DIR_NAME, snapshot_file_name, snapshot_paths
from agents.evaluation.environment import make_env, probe_env
from agents.players.snapshots import SnapshotPool, game_result
from agents.training.selfplay import SnapshotCallback
from envs.adapters.opponents import OpponentEnv
from tests.training.training_support import REPO_ROOT, TINY_ALGO, run_cli, write_yaml

TOY_ID = "envs.toys:tabletop/card_duel_v0"
SELFPLAY_CONFIG = REPO_ROOT / "configs" / "card_duel" / "selfplay.yaml"


def pool(*agents: str, seats: str | int = "rotate") -> OpponentsConfig:
    """An opponents section with these agents, weight 1 each."""
    return OpponentsConfig(pool=[OpponentConfig(agent=agent) for agent in agents], learner_seats=seats)


def test_a_multi_player_id_makes_an_opponent_env_from_the_config() -> None:
    """Game kwargs go to the game, adapter kwargs to the env; the pool's specs become its policies."""
    env = make_env(TOY_ID, {"num_players": 3, "reward": "rank"}, opponents=pool("heuristic", "random"), env_index=2)
    inner = env.unwrapped
    assert isinstance(inner, OpponentEnv)
    assert inner.num_players == 3 and inner.reward_mode == "rank" and inner.env_index == 2
    assert [policy.name for policy in inner.policies] == ["heuristic", "random"]
    _, info = env.reset(seed=0)
    assert info["seat"] == 2  # "rotate": env i starts at seat i


@pytest.mark.parametrize(
    ("opponents", "key", "fragment"),
    [
        (OpponentsConfig(), "opponents.pool", "is a multi-player game: list its opponents"),
        (pool("random", seats=2), "opponents.learner_seats", "seat 2 does not exist"),
        (pool("alphazero"), "opponents.pool", "unknown agent 'alphazero'"),
    ],
)
def test_probe_names_the_opponents_key_at_fault(opponents: OpponentsConfig, key: str, fragment: str) -> None:
    with pytest.raises(ConfigError) as caught:
        probe_env(EnvConfig(id=TOY_ID, kwargs={"num_players": 2}), "cfg.yaml", opponents)
    assert caught.value.key == key and fragment in caught.value.reason


def test_probe_accepts_a_co_op_learner_on_every_seat_without_a_pool() -> None:
    facts = probe_env(EnvConfig(id="envs.toys:tabletop/card_duel_coop_v0", kwargs={}), "c.yaml", pool(seats="all"))
    assert facts.game_name == "card_duel_coop" and facts.num_players == 2


def save_policy(path: Path, bias_action: int | None = None) -> Path:
    """A small MaskablePPO policy on the 2-seat toy saved at `path` (optionally all but certain of one action)."""
    import torch
    from sb3_contrib import MaskablePPO

    env = make_env(TOY_ID, {"num_players": 2}, opponents=pool("random"))
    model = MaskablePPO("MultiInputPolicy", env, n_steps=64, batch_size=64, policy_kwargs={"net_arch": [8]}, seed=0)
    if bias_action is not None:
        with torch.no_grad():
            model.policy.action_net.weight.zero_()
            model.policy.action_net.bias.zero_()
            model.policy.action_net.bias[bias_action] = 50.0
    model.save(path)
    env.close()
    return path


def test_snapshot_pool_plays_the_latest_or_a_kept_snapshot_deterministically(tmp_path: Path) -> None:
    """latest_share of the episodes use the newest snapshot; only max_kept are kept; the same seed, the same pick."""
    for steps in (0, 100, 200):
        save_policy(tmp_path / snapshot_file_name(steps))
    (tmp_path / "notes.txt").write_text("a stray file is ignored")
    snapshots = SnapshotPool(tmp_path, max_kept=2, latest_share=0.5)
    assert [path.name for path in snapshots.paths] == [snapshot_file_name(100), snapshot_file_name(200)]
    picks = []
    for seed in range(400):
        snapshots.reset(seed)
        picks.append(snapshots.current)
    latest = sum(pick == snapshots.paths[-1] for pick in picks) / len(picks)
    assert 0.68 < latest < 0.82  # 0.5 + 0.5 * 1/2
    snapshots.reset(7)
    first = snapshots.current
    snapshots.reset(7)
    assert snapshots.current == first
    snapshots.add_snapshot(save_policy(tmp_path / snapshot_file_name(300)))
    assert [path.name for path in snapshots.paths] == [snapshot_file_name(200), snapshot_file_name(300)]


def test_snapshot_pool_samples_only_legal_actions_from_the_policy(tmp_path: Path) -> None:
    """A snapshot that strongly prefers card 19 plays it whenever legal, and never an illegal action."""
    save_policy(tmp_path / snapshot_file_name(0), bias_action=19)
    snapshots = SnapshotPool(tmp_path, max_kept=1, latest_share=1.0)
    env = make_env(TOY_ID, {"num_players": 2}, opponents=pool("random"))
    for seed in range(30):
        observation, info = env.reset(seed=seed)
        snapshots.reset(seed)
        mask = info["action_mask"]
        action = snapshots.act(observation, mask, state=env.unwrapped.state)
        assert mask[action]
        if mask[19]:
            assert action == 19
    with pytest.raises(RuntimeError, match="no snapshot"):
        SnapshotPool(tmp_path / "empty", max_kept=1, latest_share=1.0).reset(0)


def test_game_result_counts_a_shared_best_as_half() -> None:
    assert game_result([1.0, -1.0], 0) == 1.0
    assert game_result([1.0, -1.0], 1) == 0.0
    assert game_result([0.0, 0.0, -1.0], 1) == 0.5


class _FakeVecEnv:
    """Records env_method calls (what the callback tells the envs)."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def env_method(self, *args: Any) -> list[int]:
        self.calls.append(args)
        return [1]


class _FakeModel:
    """Saves a placeholder file; holds the vec env and a silent logger, as a model does for its callbacks."""

    def __init__(self, vec_env: _FakeVecEnv) -> None:
        from stable_baselines3.common.logger import Logger

        self.vec_env = vec_env
        self.logger = Logger(folder=None, output_formats=[])

    def save(self, file: Any) -> None:
        file.write(b"model")

    def get_env(self) -> _FakeVecEnv:
        return self.vec_env


def test_snapshot_callback_freezes_only_when_the_learner_beats_the_pool(tmp_path: Path) -> None:
    """win_rate_to_freeze: a check freezes the learner only if it won that share of enough games since the previous
    check."""
    callback = SnapshotCallback(tmp_path, interval=10, win_rate_to_freeze=0.6, min_games=4)
    vec_env = _FakeVecEnv()
    callback.model = _FakeModel(vec_env)  # type: ignore[assignment]
    callback.num_timesteps = 0
    callback._on_training_start()

    def step(timesteps: int, *results: tuple[list[float], int]) -> None:
        callback.num_timesteps = timesteps
        callback.locals = {"infos": [{"seat_rewards": rewards, "seat": seat} for rewards, seat in results]}
        callback._on_step()

    won, lost = ([1.0, -1.0], 0), ([1.0, -1.0], 1)
    step(10, won, lost, won, lost)  # 50%: no snapshot
    assert snapshot_paths(tmp_path) == [] and vec_env.calls == []
    step(20, won, won, won, lost)  # 3 of 4 since the previous check: 75%
    assert [path.name for path in snapshot_paths(tmp_path)] == [snapshot_file_name(20)]
    assert vec_env.calls == [("broadcast", "add_snapshot", str(tmp_path / snapshot_file_name(20)))]
    step(30, won, won, won)  # only 3 games since the previous check: fewer than min_games
    assert len(snapshot_paths(tmp_path)) == 1


def test_imitation_teacher_plays_the_learners_seats(tmp_path: Path) -> None:
    """Pretraining on a multi-player game: the teacher decides at the learner's seats against the pool."""
    from agents.training.imitation import collect_demonstrations

    data = collect_demonstrations(
        TOY_ID, {"num_players": 2}, "heuristic", steps=1500, seed=0, gamma=1.0, opponents=pool("random")
    )
    assert len(data) >= 1500
    # The heuristic wins 45% of its games against random (random itself 30%, the rest are ties).
    assert data.wins / data.episodes > 0.38
    # A snapshot opponent does not exist before training: the teacher stands in for it.
    stand_in = make_env(TOY_ID, {"num_players": 2}, opponents=pool("snapshot"), snapshot_stand_in="heuristic")
    assert [policy.name for policy in stand_in.unwrapped.policies] == ["heuristic"]
    assert np.all(data.masks[np.arange(len(data)), data.actions] == 1)


def test_self_play_trains_from_the_yaml_config_alone(tmp_path: Path) -> None:
    """train.py on the toy self-play config (tiny budget): snapshots frozen into the pool, evaluations, a model."""
    config = yaml.safe_load(SELFPLAY_CONFIG.read_text())
    config["algo"].update(TINY_ALGO)
    config["train"].update(
        total_timesteps=768, checkpoint_interval=256, eval_interval=256, eval_episodes=4, final_eval_episodes=3
    )
    config["opponents"]["snapshots"].update(interval=256, win_rate_to_freeze=None)
    config["logging"] = {"run_root": str(tmp_path / "runs"), "tensorboard": False}
    path = write_yaml(tmp_path / "selfplay.yaml", config)
    result = run_cli("train.py", "--config", str(path), "--no-progress", timeout=300)
    assert result.returncode == 0, result.stderr
    (run_dir,) = (tmp_path / "runs").iterdir()
    assert "final evaluation: 3 deals, the model beside random, heuristic" in result.stdout
    assert "Ratings, card_duel" in result.stdout and (run_dir / "final_evaluation" / "results.json").is_file()
    frozen = [path.name for path in snapshot_paths(run_dir / SNAPSHOT_DIR_NAME)]
    assert frozen[0] == snapshot_file_name(0)  # frozen before the first episode: the pool is never empty
    assert len(frozen) >= 3  # and at each interval since
    assert (run_dir / "final_model.zip").is_file()
    with np.load(run_dir / "evaluations.npz") as evaluations:
        assert len(evaluations["timesteps"]) >= 2
    # The command train.py prints evaluates the run on its own env (the toy at 2 seats), as a tournament.
    command = next(line for line in result.stdout.splitlines() if line.startswith("evaluate: "))
    assert command == f"evaluate: python evaluate.py --agent {run_dir} --agent random"
    out = tmp_path / "eval"
    evaluation = run_cli(
        "evaluate.py", "--agent", str(run_dir), "--agent", "random", "--episodes", "3", "--out", str(out)
    )
    assert evaluation.returncode == 0, evaluation.stderr
    assert f"env of run {run_dir}: {TOY_ID} {{'num_players': 2, 'reward': 'win'}}" in evaluation.stdout
    document = json.loads((out / "results.json").read_text())
    assert "tournaments" in document and "2 seats" in evaluation.stdout
