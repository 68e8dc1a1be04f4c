"""MCTS with a value function at the rollout's cut (issue 10), and the learned value model it reads."""

from __future__ import annotations

import fnmatch
from pathlib import Path

import numpy as np
import pytest

from agents.evaluation.environment import make_env
from agents.players.mcts import MCTSAgent
from agents.players.registry import AgentSpecError, make_agent
from agents.players.value_model import ValueModel, load_value_model, value_model_path
from benchmarks import mcts_game_time
from tests.training.search_toy_games import LADDER_ACTION, ToyGame
from tests.training.training_support import REPO_ROOT


def ladder_state() -> object:
    """The ladder toy's first decision (no chance before it)."""
    return ToyGame("ladder").new_initial_state()


class RungValue:
    """A value function worth the ladder rung reached (counting its calls)."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, state: object, player: int) -> float:
        self.calls += 1
        return 0.25 * state.rung  # type: ignore[attr-defined]


def test_a_cut_rollout_is_worth_the_value_function_and_zero_without_one() -> None:
    # Three simulations try each of the three moves once (UCT expands untried moves first): the ladder move's leaf
    # is rung 1, valued at once (rollout_depth 0); the other moves lose.
    value = RungValue()
    agent = MCTSAgent(num_simulations=3, rollout_depth=0, seed=0, value_function=value)
    values = agent.action_values(ladder_state())
    assert value.calls == 1
    assert values[LADDER_ACTION] == (1, 0.25)
    assert all(mean == -1.0 for action, (_, mean) in values.items() if action != LADDER_ACTION)
    plain = MCTSAgent(num_simulations=3, rollout_depth=0, seed=0).action_values(ladder_state())
    assert plain[LADDER_ACTION] == (1, 0.0)  # no value function: a cut rollout scores 0


def test_mcts_with_a_value_function_is_deterministic_per_seed() -> None:
    runs = [
        MCTSAgent(num_simulations=30, rollout_depth=1, seed=3, value_function=RungValue()).action_values(ladder_state())
        for _ in range(2)
    ]
    assert runs[0] == runs[1]


def test_the_value_model_round_trips_and_stays_in_the_return_range(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    model = ValueModel(rng.normal(size=(2, 8)), rng.normal(size=8), rng.normal(size=8) * 10, 0.3)
    model.save(tmp_path / "toy.npz")
    loaded = ValueModel.load(tmp_path / "toy.npz")
    observations = rng.random((50, 2))
    assert np.array_equal(loaded.predict(observations), model.predict(observations))
    assert np.all(np.abs(model.predict(observations)) <= 1.0)
    state = ToyGame("ladder").new_initial_state()
    assert loaded.value(state, 0) == pytest.approx(float(model.predict(np.array([[0.0, 0.0]]))[0]))


def test_the_shipped_value_model_is_package_data_of_agents() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    path = value_model_path("unbroken")
    assert path.is_file()
    settings = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = settings["tool"]["setuptools"]["package-data"]["agents"]
    assert any(fnmatch.fnmatch(path.relative_to(REPO_ROOT / "agents").as_posix(), pattern) for pattern in patterns)


def test_the_shipped_unbroken_value_model_drives_mcts_from_the_registry() -> None:
    env = make_env("tabletop/Unbroken-v0", {})
    try:
        options = {"mcts": {"value": "learned", "rollout_depth": 0, "prior": "heuristic"}}
        agent = make_agent("mcts:4", env, options)
        assert isinstance(agent, MCTSAgent)
        assert agent.value_function is not None
        model = load_value_model("unbroken")
        observation, _ = env.reset(seed=0)
        state = env.unwrapped.state  # type: ignore[attr-defined]
        assert -1.0 <= model.value(state, 0) <= 1.0
        played = []
        for _ in range(2):
            observation, _ = env.reset(seed=0)
            agent.reset(0)
            actions = []
            for _ in range(6):
                mask = observation["action_mask"]
                action = agent.act(observation, mask, state=env.unwrapped.state)  # type: ignore[attr-defined]
                assert mask[action] == 1
                actions.append(action)
                observation, _, terminated, truncated, _ = env.step(action)
                if terminated or truncated:
                    break
            played.append(actions)
        assert played[0] == played[1]
        with pytest.raises(AgentSpecError, match="value must be 'none' or 'learned'"):
            make_agent("mcts", env, {"mcts": {"value": "oracle"}})
    finally:
        env.close()


def test_mcts_game_time_times_games_with_changed_settings(capsys: pytest.CaptureFixture[str]) -> None:
    arguments = ["--game", "unbroken", "--agent", "mcts:2", "--episodes", "1", "--mcts", "value=none"]
    assert mcts_game_time.main(arguments) == 0
    out = capsys.readouterr().out
    assert "'value': 'none'" in out and "mean over 1 games:" in out
    with pytest.raises(SystemExit):
        mcts_game_time.main(["--game", "unbroken", "--mcts", "oracle=1"])
