"""The config layer on its own: YAML parsing, overrides, typed validation and error messages."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from agents.common.config import (
    ConfigError,
    EvalConfig,
    ExperimentConfig,
    MaskablePPOHyperparameters,
    build_dataclass,
    dump_yaml,
    load_eval_config,
    load_experiment_config,
    parse_override,
    parse_yaml,
)
from tests.training.training_support import REPO_ROOT, run_cli, write_yaml

MINIMAL = {"env": {"id": "tabletop/Unbroken-v0"}, "algo": {"name": "maskable_ppo"}}


def build(data: dict) -> ExperimentConfig:
    """Validate a training-config mapping from a pretend file."""
    return build_dataclass(ExperimentConfig, data, "pretend.yaml")


def error_of(data: dict) -> ConfigError:
    """The ConfigError a mapping raises."""
    with pytest.raises(ConfigError) as caught:
        build(data)
    return caught.value


def with_section(section: str, values: dict) -> dict:
    """MINIMAL plus/merged with one section."""
    data = {key: dict(value) for key, value in MINIMAL.items()}
    data.setdefault(section, {}).update(values)
    return data


def test_shipped_configs_load_with_their_values() -> None:
    """The default config loads with the values its file writes (the loader neither drops nor renames a key)."""
    path = REPO_ROOT / "configs" / "unbroken" / "maskable_ppo.yaml"
    written = yaml.safe_load(path.read_text(encoding="utf-8"))
    config = load_experiment_config(path)
    assert config.env.id == written["env"]["id"] == "tabletop/Unbroken-v0"
    assert config.algo.name == "maskable_ppo"
    assert isinstance(config.algo.hyperparameters, MaskablePPOHyperparameters)
    assert config.algo.hyperparameters.learning_rate == pytest.approx(written["algo"]["learning_rate"])
    assert config.algo.hyperparameters.n_steps == written["algo"]["n_steps"]
    assert config.train.n_envs == written["train"]["n_envs"]
    assert config.opponents.pool == []
    evaluation = load_eval_config(REPO_ROOT / "configs" / "unbroken" / "eval.yaml")
    assert isinstance(evaluation, EvalConfig)
    assert evaluation.evaluation.sweep == {}  # evaluate.py --sweep KEY=V1,V2 or --sweep-settings fill it


def test_defaults_fill_a_minimal_config() -> None:
    config = build(MINIMAL)
    assert config.env.kwargs == {}
    assert config.algo.hyperparameters == MaskablePPOHyperparameters()
    assert config.train.vec_env == "dummy"
    assert config.logging.run_root == "runs"


def test_resolved_config_round_trips_through_yaml() -> None:
    config = build(with_section("algo", {"policy_kwargs": {"net_arch": {"pi": [32], "vf": [64, 64]}}}))
    assert build(yaml.safe_load(dump_yaml(config))) == config
    assert yaml.safe_load(dump_yaml(config))["algo"]["learning_rate"] == pytest.approx(3e-4)


@pytest.mark.parametrize(
    ("text", "keys", "value"),
    [
        ("algo.learning_rate=1e-4", ("algo", "learning_rate"), 1e-4),
        ("train.total_timesteps=2E5", ("train", "total_timesteps"), 2e5),
        ("train.n_envs=4", ("train", "n_envs"), 4),
        ("logging.tensorboard=false", ("logging", "tensorboard"), False),
        ("algo.policy_kwargs.net_arch=[64, 64]", ("algo", "policy_kwargs", "net_arch"), [64, 64]),
        ("algo.target_kl=null", ("algo", "target_kl"), None),
        # env.X is shorthand for env.kwargs.X; env.id stays itself.
        ("env.difficulty=hard", ("env", "kwargs", "difficulty"), "hard"),
        ("env.id=tabletop/X-v0", ("env", "id"), "tabletop/X-v0"),
    ],
)
def test_overrides_are_yaml_scalars(text: str, keys: tuple[str, ...], value: object) -> None:
    override = parse_override(text)
    assert override.keys == keys
    assert override.value == value
    assert type(override.value) is type(value)


def test_overrides_apply_and_validate(tmp_path: Path) -> None:
    path = write_yaml(tmp_path / "c.yaml", MINIMAL)
    config = load_experiment_config(
        path, ["algo.learning_rate=1e-4", "env.difficulty=hard", "train.total_timesteps=1e5"]
    )
    assert config.algo.hyperparameters.learning_rate == pytest.approx(1e-4)
    assert config.env.kwargs == {"difficulty": "hard"}
    assert config.train.total_timesteps == 100_000
    assert isinstance(config.train.total_timesteps, int)


def test_yaml_reads_exponent_floats() -> None:
    assert parse_yaml("a: 1e-4\nb: 3.0e-4\nc: 10\nd: 1_000", "x") == {"a": 1e-4, "b": 3e-4, "c": 10, "d": 1000}


@pytest.mark.parametrize(
    ("data", "key", "fragment"),
    [
        (with_section("train", {"total_timestep": 5}), "train.total_timestep", "unknown key"),
        ({**MINIMAL, "trainn": {}}, "trainn", "unknown key"),
        (with_section("algo", {"n_step": 5}), "algo.n_step", "unknown key"),
        (with_section("algo", {"policy_kwargs": {"net_arc": [4]}}), "algo.policy_kwargs.net_arc", "unknown key"),
        (with_section("train", {"n_envs": "two"}), "train.n_envs", "expected an integer"),
        (with_section("train", {"n_envs": True}), "train.n_envs", "expected an integer"),
        (with_section("train", {"n_envs": 2.5}), "train.n_envs", "expected an integer"),
        (with_section("train", {"n_envs": 0}), "train.n_envs", "must be > 0"),
        (with_section("train", {"vec_env": "threads"}), "train.vec_env", "one of 'dummy', 'subproc'"),
        (with_section("logging", {"tensorboard": "yes"}), "logging.tensorboard", "expected a boolean"),
        (with_section("algo", {"learning_rate": "fast"}), "algo.learning_rate", "expected a number"),
        (with_section("algo", {"gamma": 1.5}), "algo.gamma", "within [0, 1]"),
        (with_section("algo", {"policy_kwargs": {"net_arch": [64, "x"]}}), "algo.policy_kwargs.net_arch[1]", "integer"),
        (
            with_section("algo", {"policy_kwargs": {"activation_fn": "nn.ReLU"}}),
            "algo.policy_kwargs.activation_fn",
            "one of",
        ),
        (with_section("algo", {"name": "dqn"}), "algo.name", "unknown algorithm 'dqn'"),
        ({"env": {"id": "x"}}, "algo", "missing required key"),
        ({"algo": {"name": "maskable_ppo"}, "env": {"kwargs": {}}}, "env.id", "missing required key"),
        ({**MINIMAL, "train": [1, 2]}, "train", "expected a mapping"),
        (with_section("opponents", {"pool": [{"kind": "random"}]}), "opponents.pool[0].kind", "unknown key"),
        (with_section("opponents", {"pool": [{"agent": " "}]}), "opponents.pool[0].agent", "name an agent"),
        (with_section("opponents", {"pool": [{"agent": "random", "weight": -1}]}), "opponents.pool[0].weight", "> 0"),
        (with_section("opponents", {"learner_seats": "sometimes"}), "opponents.learner_seats", "expected rotate"),
        (with_section("opponents", {"learner_seats": -1}), "opponents.learner_seats", "seat number >= 0, got -1"),
        (with_section("opponents", {"snapshots": {"max_kept": 0}}), "opponents.snapshots.max_kept", "> 0"),
        (
            with_section("opponents", {"snapshots": {"win_rate_to_freeze": 1.5}}),
            "opponents.snapshots.win_rate_to_freeze",
            "within [0, 1]",
        ),
    ],
)
def test_invalid_configs_name_the_file_and_the_key(data: dict, key: str, fragment: str) -> None:
    error = error_of(data)
    assert error.source == "pretend.yaml"
    assert error.key == key
    assert fragment in error.reason
    assert str(error).startswith(f"pretend.yaml: {key}: ")


def test_opponents_are_stored_when_valid() -> None:
    pool = [{"agent": "random", "weight": 2}, {"agent": "runs/x/final_model.zip"}, {"agent": "snapshot"}]
    config = build(with_section("opponents", {"pool": pool, "learner_seats": 1, "snapshots": {"interval": 500}}))
    assert [o.agent for o in config.opponents.pool] == ["random", "runs/x/final_model.zip", "snapshot"]
    assert config.opponents.pool[0].weight == 2.0
    assert config.opponents.learner_seats == 1
    assert config.opponents.uses_snapshots and config.opponents.snapshots.interval == 500
    # The evaluation during training meets the fixed part of the pool, never the learner's own snapshots.
    evaluation = config.opponents.evaluation_opponents()
    assert [o.agent for o in evaluation.pool] == ["random", "runs/x/final_model.zip"]
    assert evaluation.learner_seats == 1


def test_bad_override_is_blamed_on_the_command_line(tmp_path: Path) -> None:
    path = write_yaml(tmp_path / "c.yaml", MINIMAL)
    with pytest.raises(ConfigError) as caught:
        load_experiment_config(path, ["train.n_envs=lots"])
    assert caught.value.source == "command-line override 'train.n_envs=lots'"
    assert caught.value.key == "train.n_envs"
    with pytest.raises(ConfigError, match=r"expected dotted\.key=value"):
        load_experiment_config(path, ["train.n_envs"])
    with pytest.raises(ConfigError, match="not a section"):
        load_experiment_config(path, ["env.id.x=1"])


def test_file_problems_name_the_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope.yaml"
    with pytest.raises(ConfigError, match="config file not found") as caught:
        load_experiment_config(missing)
    assert caught.value.source == str(missing)
    broken = tmp_path / "broken.yaml"
    broken.write_text("env: [unclosed\n")
    with pytest.raises(ConfigError, match="not valid YAML") as caught:
        load_experiment_config(broken)
    assert caught.value.source == str(broken)
    listed = tmp_path / "list.yaml"
    listed.write_text("- 1\n- 2\n")
    with pytest.raises(ConfigError, match="top level must be a mapping"):
        load_experiment_config(listed)


RESOLVED_BEFORE_PYDANTIC = """\
env:
  id: tabletop/Unbroken-v0
  kwargs:
    difficulty: normal
    reward: win
algo:
  name: maskable_ppo
  policy: auto
  learning_rate: 0.0003
  learning_rate_schedule: constant
  n_steps: 1024
  batch_size: 256
  n_epochs: 5
  gamma: 0.995
  gae_lambda: 0.95
  clip_range: 0.2
  clip_range_vf: null
  normalize_advantage: true
  ent_coef: 0.01
  vf_coef: 0.5
  max_grad_norm: 0.5
  target_kl: null
  stats_window_size: 100
  device: cpu
  policy_kwargs:
    net_arch:
      pi:
      - 32
      vf:
      - 64
      - 64
    activation_fn: tanh
    ortho_init: true
    share_features_extractor: true
train:
  total_timesteps: 100000
  n_envs: 2
  vec_env: dummy
  seed: 0
  checkpoint_interval: 25000
  eval_interval: 25000
  eval_episodes: 50
  torch_threads: 1
  final_eval_episodes: 100
pretrain:
  teacher: heuristic
  steps: 0
  epochs: 15
  dagger_rounds: 0
  dagger_steps: 50000
  dagger_epochs: 5
  student_share: 1.0
  batch_size: 256
  learning_rate: 0.001
  value_coef: 0.5
  workers: 2
opponents:
  pool: []
  learner_seats: rotate
  eval_agents: []
  snapshots:
    interval: 20000
    win_rate_to_freeze: null
    min_games: 20
    max_kept: 5
    latest_share: 0.5
logging:
  run_root: runs
  tensorboard: true
"""
"""config.yaml of a run written before the configs became pydantic models (by the dataclass dumper)."""


def test_resolved_config_of_an_earlier_run_loads_and_dumps_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(RESOLVED_BEFORE_PYDANTIC)
    config = load_experiment_config(path)
    assert config.algo.hyperparameters.policy_kwargs.net_arch == {"pi": [32], "vf": [64, 64]}
    assert config.train.checkpoint_interval == 25_000
    # Keys added since take their defaults, which keep the earlier meaning (sb3's flatten extractor).
    added = "    features_extractor: flatten\n    grid_features: 64\n    entity_features: 32\n    encode_seats: all\n"
    anchor = "    share_features_extractor: true\n"
    expected = RESOLVED_BEFORE_PYDANTIC.replace(anchor, anchor + added)
    expected = expected.replace("  torch_threads: 1\n", "  torch_threads: 1\n  time_budget_minutes: null\n")
    expected = expected.replace(
        "  final_eval_episodes: 100\n", "  final_eval_episodes: 100\n  final_eval_workers: 1\n  cpu_kernels: native\n"
    )
    assert dump_yaml(config) == expected


@pytest.mark.parametrize(
    ("net_arch", "key", "message"),
    [
        # A union tries each member; the error that goes deepest into the value is the one reported.
        ({"pi": "x"}, "algo.policy_kwargs.net_arch.pi", "expected a list, got string 'x'"),
        ({"pi": [8], "qf": [8]}, "algo.policy_kwargs.net_arch.qf", "unknown key (a split net_arch has keys pi and vf)"),
        ([8, 0], "algo.policy_kwargs.net_arch[1]", "must be > 0, got 0"),
        # Failing every member at the same key: their expectations are merged.
        (5, "algo.policy_kwargs.net_arch", "expected a list or a mapping, got integer 5"),
    ],
)
def test_union_errors_name_the_deepest_key(net_arch: object, key: str, message: str) -> None:
    error = error_of(with_section("algo", {"policy_kwargs": {"net_arch": net_arch}}))
    assert (error.key, error.reason) == (key, message)


def test_unknown_key_lists_the_valid_keys_of_its_section() -> None:
    error = error_of(with_section("logging", {"tensorbord": True}))
    assert error.key == "logging.tensorbord"
    assert error.reason == "unknown key (did you mean 'tensorboard'? valid keys here: run_root, tensorboard)"
    assert error_of(with_section("logging", {"colour": True})).reason == (
        "unknown key (valid keys here: run_root, tensorboard)"
    )
    assert (
        error_of(with_section("algo", {"name": None})).reason
        == "missing required key (known algorithms: maskable_ppo, rllib_ppo)"
    )


def test_the_rllib_route_refuses_keys_it_does_not_use() -> None:
    """`rllib_ppo` names each SB3-only key it would otherwise ignore, and a pool entry other than the league
    (checked without Ray)."""
    rllib = {"name": "rllib_ppo", "training": {"lr": 1e-3}, "ray": {"address": ""}}
    assert build({**MINIMAL, "algo": rllib}).algo.name == "rllib_ppo"
    for section, settings, key in (
        ("train", {"n_envs": 4}, "train.n_envs"),
        ("train", {"eval_interval": 5}, "train.eval_interval"),
        ("pretrain", {"steps": 10}, "pretrain.steps"),
        ("opponents", {"pool": [{"agent": "random"}]}, "opponents.pool[0].agent"),
        ("opponents", {"eval_agents": ["random"]}, "opponents.eval_agents"),
    ):
        assert error_of({**MINIMAL, "algo": rllib, section: settings}).key == key
    assert error_of({**MINIMAL, "algo": {**rllib, "ray": {"adress": "auto"}}}).key == "algo.ray.adress"


def test_eval_config_errors_name_the_file_and_the_sweep_key(tmp_path: Path) -> None:
    path = write_yaml(
        tmp_path / "eval.yaml", {"env": {"id": "tabletop/Unbroken-v0"}, "evaluation": {"sweep": {"difficulty": []}}}
    )
    with pytest.raises(ConfigError) as caught:
        load_eval_config(path)
    assert (caught.value.source, caught.value.key) == (str(path), "evaluation.sweep.difficulty")
    assert "at least 1" in caught.value.reason
    with pytest.raises(ConfigError) as caught:
        load_eval_config(path, ["evaluation.sweep.difficulty=[easy]", "evaluation.sweep.preset=[english, [spanish]]"])
    assert caught.value.source == "command-line override 'evaluation.sweep.preset=[english, [spanish]]'"
    assert caught.value.key == "evaluation.sweep.preset[1]"
    config = load_eval_config(path, ["evaluation.sweep.difficulty=[easy, hard]", "evaluation.sweep.seed_bonus=[1, 2]"])
    assert config.evaluation.sweep == {"difficulty": ["easy", "hard"], "seed_bonus": [1, 2]}


SHIPPED_TRAINING_CONFIGS = sorted(
    path
    for path in (REPO_ROOT / "configs").glob("*/*.yaml")
    if path.name != "eval.yaml" and path.parent.name != "configs"
)
SHIPPED_EVAL_CONFIGS = sorted((REPO_ROOT / "configs").glob("*/eval.yaml"))


@pytest.mark.parametrize("path", SHIPPED_TRAINING_CONFIGS, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_every_shipped_training_config_validates_and_builds_its_env(path: Path) -> None:
    """Every config under configs/ loads (no unknown key) and its env, opponents included, builds."""
    from agents.evaluation.environment import probe_env

    config = load_experiment_config(path)
    facts = probe_env(config.env, str(path), config.opponents)
    assert facts.num_players >= 1


@pytest.mark.parametrize("path", SHIPPED_EVAL_CONFIGS, ids=lambda path: path.parent.name)
def test_every_shipped_eval_config_validates(path: Path) -> None:
    """Every game's eval.yaml loads with its agents named."""
    assert load_eval_config(path).evaluation.agents


def test_show_config_prints_the_resolved_config_and_trains_nothing(tmp_path: Path) -> None:
    """`train.py --show-config` prints the config with every default filled in and the overrides applied, and exits
    0 without making a run directory; a bad override is still an error naming the key."""
    shown = run_cli("train.py", "--show-config", "train.total_timesteps=777", f"logging.run_root={tmp_path}")
    assert shown.returncode == 0, shown.stderr
    config = yaml.safe_load(shown.stdout)
    assert config["train"]["total_timesteps"] == 777
    assert config["algo"]["n_epochs"] > 0 and "stats_window_size" in config["algo"]  # defaults filled in
    assert not any(tmp_path.iterdir())
    wrong = run_cli("train.py", "--show-config", "algo.n_epoch=3")
    assert wrong.returncode == 2 and "algo.n_epoch: unknown key" in wrong.stderr


def test_train_lets_torchs_idle_threads_sleep_soon_unless_the_user_chose(monkeypatch: pytest.MonkeyPatch) -> None:
    """train.py sets GOMP_SPINCOUNT before torch loads (its OpenMP reads it once), and leaves a value already set."""
    from agents.common.config import OPENMP_SPIN_COUNT, limit_openmp_spinning

    monkeypatch.delenv("GOMP_SPINCOUNT", raising=False)
    limit_openmp_spinning()
    assert os.environ["GOMP_SPINCOUNT"] == OPENMP_SPIN_COUNT
    monkeypatch.setenv("GOMP_SPINCOUNT", "5")
    limit_openmp_spinning()
    assert os.environ["GOMP_SPINCOUNT"] == "5"
    script = "import os, sys; from agents.training import train_cli; train_cli.main(['--show-config']); "
    script += "print(os.environ.get('GOMP_SPINCOUNT'), 'torch' in sys.modules)"
    monkeypatch.delenv("GOMP_SPINCOUNT")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=REPO_ROOT)
    assert result.stdout.splitlines()[-1] == f"{OPENMP_SPIN_COUNT} False"
