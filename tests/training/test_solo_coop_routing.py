"""One record, solo and co-op (issue 19): a game whose record declares a solo Gymnasium id (one seat) and a
co-operative PettingZoo module (2-3 seats) is routed by the env id and the seats of the game it builds, never by the
record, in train.py, evaluate.py, terminal play and the agent registry. The toy Summit (tests/toys/summit.py) has
that shape, and its record's `game` builds one seat by default, so routing by the record goes wrong on it."""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from pettingzoo.test import api_test

from agents.common.config import ConfigError, EnvConfig, OpponentConfig, OpponentsConfig
from agents.evaluation import evaluate_cli
from agents.evaluation.environment import is_solo_gym_env, make_env, probe_env, solo_env_ids
from agents.evaluation.play import find_env_id, is_multiplayer, main, seat_table
from agents.players.registry import make_agent
from envs.adapters.gym_env import TabletopEnv
from envs.adapters.opponents import OpponentEnv
from envs.core.registration import game_record_of_env_id, make_env_game, make_game
from tests.toys import SUMMIT
from tests.toys.summit_coop_v0 import env as summit_coop_env
from tests.training.training_support import run_cli, tiny_training_config, write_yaml

SOLO = "tests.toys:tabletop/Summit-v0"
"""Summit's solo Gymnasium id, with the package that registers it."""
COOP = "tests.toys:tabletop/summit_coop_v0"
"""Summit's co-operative PettingZoo id."""


def answering(first: list[str], then: str) -> Callable[[str], str]:
    """A read_line that returns `first` in order, then `then` for ever."""
    pending = list(first)

    def read_line(prompt: str) -> str:
        return pending.pop(0) if pending else then

    return read_line


def test_the_record_holds_both_and_its_game_defaults_to_one_seat() -> None:
    """The shape under test: one record, a solo Gymnasium id and a co-op module, and a record `game` of one seat."""
    assert game_record_of_env_id(SOLO) is SUMMIT and game_record_of_env_id(COOP) is SUMMIT
    assert make_game(SUMMIT, {}).spec.num_players == 1  # what routing by the record would build for either id


def test_each_id_builds_its_own_game() -> None:
    """make_env_game builds the game the id's entry point builds: one seat solo, 2-3 co-operative seats."""
    solo, team, trio = make_env_game(SOLO, {}), make_env_game(COOP, {}), make_env_game(COOP, {"num_players": 3})
    assert (solo.spec.num_players, solo.spec.utility) == (1, "solo")
    assert (team.spec.num_players, team.spec.utility) == (2, "cooperative")
    assert trio.spec.num_players == 3 and trio.spec.name == solo.spec.name == SUMMIT.name
    with pytest.raises(ValueError, match="needs 2 or 3 seats, got 1"):
        make_env_game(COOP, {"num_players": 1})


@pytest.mark.parametrize("num_players", [2, 3])
def test_the_coop_module_passes_the_pettingzoo_api_test(num_players: int) -> None:
    """PettingZoo's api_test accepts the co-op module's env at every team size."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Dict observations warn, as for every classic env with an action mask
        api_test(summit_coop_env(num_players=num_players), num_cycles=100)


def test_env_ids_route_by_id_and_seats() -> None:
    """The solo id is a plain Gymnasium env; the co-op id, and a multi-player game's Gymnasium id, the opponent env."""
    assert is_solo_gym_env(SOLO, {}) and is_solo_gym_env("tabletop/Unbroken-v0", {"difficulty": "easy"})
    assert not is_solo_gym_env(COOP, {}) and not is_solo_gym_env("tabletop/Unearth-v0", {})
    assert "tabletop/Summit-v0" in solo_env_ids() and "tabletop/Unearth-v0" not in solo_env_ids()
    solo = make_env(SOLO, {"reward": "score"})
    assert isinstance(solo.unwrapped, TabletopEnv) and solo.unwrapped.reward_mode == "score"
    team = make_env(COOP, {"num_players": 3}, opponents=OpponentsConfig(learner_seats="all"))
    assert isinstance(team, OpponentEnv) and team.game.spec.num_players == 3 and team.game.spec.cooperative


def test_a_plain_solo_config_needs_no_opponents() -> None:
    """train.py's probe accepts the solo id with no opponents (it used to ask for them); a pool is refused there,
    and the co-op id without opponents asks for them."""
    facts = probe_env(EnvConfig(id=SOLO, kwargs={}), "solo.yaml", OpponentsConfig())
    assert (facts.game_name, facts.num_players) == ("summit", 1)
    with pytest.raises(ConfigError, match="opponents.pool: .* is a solo game \\(summit, 1 player\\)"):
        probe_env(EnvConfig(id=SOLO, kwargs={}), "solo.yaml", OpponentsConfig(pool=[OpponentConfig(agent="random")]))
    with pytest.raises(ConfigError, match="opponents.pool: .* is a multi-player game: list its opponents"):
        probe_env(EnvConfig(id=COOP, kwargs={}), "coop.yaml", OpponentsConfig())
    facts = probe_env(EnvConfig(id=COOP, kwargs={"num_players": 3}), "coop.yaml", OpponentsConfig(learner_seats="all"))
    assert facts.num_players == 3
    with pytest.raises(ConfigError, match="opponents.learner_seats: seat 2 does not exist: summit has seats 0..1"):
        probe_env(
            EnvConfig(id=COOP, kwargs={}),
            "coop.yaml",
            OpponentsConfig(learner_seats=2, pool=[OpponentConfig(agent="random")]),
        )


def test_an_undeclared_reward_mode_is_a_config_error_naming_the_modes() -> None:
    """reward: rank on either id is refused before training, by the game's declared modes (no rank in co-op)."""
    for env_id, opponents in ((SOLO, OpponentsConfig()), (COOP, OpponentsConfig(learner_seats="all"))):
        with pytest.raises(ConfigError, match="env.kwargs: .*does not declare the reward mode 'rank'.*'win', 'score'"):
            probe_env(EnvConfig(id=env_id, kwargs={"reward": "rank"}), "x.yaml", opponents)


def test_the_agent_registry_builds_agents_for_both_ids() -> None:
    """The game's heuristic is found for the solo env and for the co-op env, each on its own game."""
    solo = make_env(SOLO, {})
    assert make_agent("heuristic", solo).game.spec.num_players == 1  # type: ignore[attr-defined]
    team = make_env(COOP, {}, opponents=OpponentsConfig(learner_seats="all"))
    assert make_agent("heuristic", team).game.spec.num_players == 2  # type: ignore[attr-defined]


def test_train_evaluate_and_play_on_the_solo_id(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """train.py on the solo id with a plain config (no opponents section) trains and evaluates beside random and the
    heuristic; evaluate.py then reads the run's env; terminal play plays the solo game with the model as its hint."""
    config = tiny_training_config(SOLO, tmp_path / "runs")
    del config["opponents"]
    result = run_cli("train.py", "--config", str(write_yaml(tmp_path / "solo.yaml", config)), "--no-progress")
    assert result.returncode == 0, result.stderr
    assert "final evaluation: 2 deals, the model beside random, heuristic" in result.stdout
    (run_dir,) = (tmp_path / "runs").iterdir()
    assert run_dir.name.startswith("summit__maskable_ppo__0__")

    out = tmp_path / "eval"
    arguments = ["--agent", str(run_dir), "--agent", "heuristic", "--episodes", "3", "--out", str(out), "--no-progress"]
    assert evaluate_cli.main(arguments) == 0
    printed = capsys.readouterr().out
    assert f"evaluating {run_dir}, heuristic on {SOLO}" in printed and "tournament" not in printed
    document = json.loads((out / "results.json").read_text())
    assert [len(group["episodes"]) for group in document["results"]] == [3, 3]

    written: list[str] = []
    assert main([SOLO, "--seed", "4", "--hint", str(run_dir)], answering(["h"], "1"), written.append) == 0
    assert any(line.startswith("hint: [") for line in written)
    assert written[-1].startswith("game over: you ")
    assert not any(line.startswith("you play seat") for line in written)


def test_train_evaluate_and_play_on_the_coop_module(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """The co-op module of the same record: one policy trains on every seat; evaluate.py plays a tournament with the
    team tables; terminal play seats the person at a table of two."""
    config = tiny_training_config(COOP, tmp_path / "runs")
    config["opponents"] = {"pool": [], "learner_seats": "all"}
    config["train"].update(total_timesteps=256, checkpoint_interval=0, eval_interval=0, final_eval_episodes=0)
    result = run_cli("train.py", "--config", str(write_yaml(tmp_path / "coop.yaml", config)), "--no-progress")
    assert result.returncode == 0, result.stderr
    assert f"training maskable_ppo on {COOP}" in result.stdout

    eval_config = {"env": {"id": COOP, "kwargs": {}}, "evaluation": {"episodes": 2, "workers": 1}}
    path = tmp_path / "coop_eval.yaml"
    path.write_text(yaml.safe_dump(eval_config))
    arguments = ["--config", str(path), "--agent", "heuristic", "--agent", "random", "--out", str(tmp_path / "out")]
    assert evaluate_cli.main([*arguments, "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert "tournament of heuristic, random on" in printed and "cooperative game" in printed

    assert is_multiplayer(COOP, {}) and not is_multiplayer(SOLO, {}) and find_env_id("summit") == "tabletop/Summit-v0"
    table = seat_table(COOP, {"num_players": 3}, 2, ["heuristic"])
    assert table.labels == ("heuristic", "heuristic", "human") and table.game.spec.num_players == 3
    written: list[str] = []
    assert main([COOP, "--opponent", "heuristic", "--seed", "2"], answering([], "1"), written.append) == 0
    assert written[0] == "you play seat 0 of 2: seat 0 human, seat 1 heuristic"
    assert any(line.startswith("game over: you (seat 0) ") for line in written)
