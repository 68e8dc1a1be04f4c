"""Typed, validated experiment configs loaded from YAML (training and evaluation).

A config file is plain YAML. It is turned into nested dataclasses by `build_dataclass`, which checks every key and
every type against the dataclass annotations and raises `ConfigError` naming the file and the dotted key. Dotted
command-line overrides (`algo.learning_rate=1e-4`) are parsed as YAML scalars and applied before validation.
"""

from __future__ import annotations

import dataclasses
import re
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeVar

import yaml

T = TypeVar("T")


class ConfigError(ValueError):
    """An invalid config; the message names the file (or override) and the dotted key."""

    def __init__(self, source: str, key: str, message: str) -> None:
        self.source = source
        self.key = key
        self.reason = message
        where = f"{source}: {key}" if key else source
        super().__init__(f"{where}: {message}")


class _ConfigLoader(yaml.SafeLoader):
    """SafeLoader that also reads `1e-4` and `3E5` as floats (YAML 1.1 insists on a dot: `1.0e-4`)."""


_FLOAT_PATTERN = re.compile(
    r"""^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?
    |[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)
    |\.[0-9_]+(?:[eE][-+]?[0-9]+)?
    |[-+]?\.(?:inf|Inf|INF)
    |\.(?:nan|NaN|NAN))$""",
    re.VERBOSE,
)
_ConfigLoader.yaml_implicit_resolvers = {
    key: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:float"]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_ConfigLoader.add_implicit_resolver("tag:yaml.org,2002:float", _FLOAT_PATTERN, list("-+0123456789."))


def parse_yaml(text: str, source: str) -> Any:
    """Parse YAML text with the config loader; a syntax error becomes a ConfigError naming `source`."""
    try:
        return yaml.load(text, Loader=_ConfigLoader)
    except yaml.YAMLError as error:
        raise ConfigError(source, "", f"not valid YAML: {error}") from error


def read_yaml_file(path: str | Path) -> dict[str, Any]:
    """Read a YAML config file into a mapping; a missing file or a non-mapping top level is a ConfigError."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as error:
        raise ConfigError(str(path), "", "config file not found") from error
    except OSError as error:
        raise ConfigError(str(path), "", f"cannot read config file: {error}") from error
    data = parse_yaml(text, str(path))
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(str(path), "", f"the top level must be a mapping of sections, got {_type_name(data)}")
    return data


@dataclass(frozen=True)
class Override:
    """One command-line override `dotted.key=value`, the value parsed as a YAML scalar."""

    keys: tuple[str, ...]
    value: Any
    text: str

    @property
    def dotted_key(self) -> str:
        """The key path joined with dots."""
        return ".".join(self.keys)


ENV_SECTION_KEYS = ("id", "kwargs")
"""Keys of the `env` section; any other `env.X` override is shorthand for `env.kwargs.X`."""


def parse_override(text: str) -> Override:
    """Parse `a.b.c=value` (value read as YAML: `1e-4` float, `true` bool, `[64, 64]` list, `hard` string)."""
    source = f"command-line override {text!r}"
    key, separator, value_text = text.partition("=")
    if not separator or not key.strip():
        raise ConfigError(source, "", "expected dotted.key=value, e.g. algo.learning_rate=1e-4")
    keys = tuple(part.strip() for part in key.split("."))
    if any(not part for part in keys):
        raise ConfigError(source, key, "empty part in the dotted key")
    if len(keys) >= 2 and keys[0] == "env" and keys[1] not in ENV_SECTION_KEYS:
        # Shorthand: env.difficulty=hard sets env.kwargs.difficulty (the env itself rejects a wrong name).
        keys = ("env", "kwargs", *keys[1:])
    return Override(keys, parse_yaml(value_text, source), text)


def apply_overrides(data: dict[str, Any], overrides: Sequence[Override]) -> dict[str, Any]:
    """A deep copy of `data` with each override set at its dotted key (creating mappings on the way)."""
    result = _deep_copy(data)
    for override in overrides:
        node = result
        for depth, key in enumerate(override.keys[:-1]):
            child = node.get(key)
            if child is None:
                child = node[key] = {}
            if not isinstance(child, dict):
                prefix = ".".join(override.keys[: depth + 1])
                raise ConfigError(
                    f"command-line override {override.text!r}",
                    prefix,
                    f"is a {_type_name(child)}, not a section, so it has no key {override.keys[depth + 1]!r}",
                )
            node = child
        node[override.keys[-1]] = _deep_copy(override.value)
    return result


def _deep_copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _deep_copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_deep_copy(item) for item in value]
    return value


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    return {
        bool: "boolean",
        int: "integer",
        float: "number",
        str: "string",
        list: "list",
        dict: "mapping",
    }.get(type(value), type(value).__name__)


def _describe_type(annotation: Any) -> str:
    origin = typing.get_origin(annotation)
    if annotation is Any:
        return "any value"
    if annotation is type(None):
        return "null"
    if origin is Literal:
        return "one of " + ", ".join(repr(choice) for choice in typing.get_args(annotation))
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_describe_type(arg) for arg in typing.get_args(annotation))
    if origin is list:
        (item,) = typing.get_args(annotation)
        return f"a list of {_describe_type(item)}"
    if origin is dict:
        return f"a mapping of {_describe_type(typing.get_args(annotation)[1])}"
    if dataclasses.is_dataclass(annotation):
        return "a mapping (section)"
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string"}.get(
        annotation, getattr(annotation, "__name__", str(annotation))
    )


class _Mismatch(Exception):
    """Internal: a value does not match an annotation (converted into ConfigError by the caller)."""

    def __init__(self, key: str, message: str) -> None:
        self.key = key
        self.message = message


def _join(prefix: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{prefix}[{key}]"
    return f"{prefix}.{key}" if prefix else key


def _convert(annotation: Any, value: Any, key: str) -> Any:
    """Check `value` against `annotation` and build dataclasses; raises _Mismatch naming the dotted key."""
    origin = typing.get_origin(annotation)
    if annotation is Any:
        return value
    if annotation is type(None):
        if value is None:
            return None
        raise _Mismatch(key, f"expected null, got {_type_name(value)} {value!r}")
    if origin is Literal:
        if any(type(value) is type(choice) and value == choice for choice in typing.get_args(annotation)):
            return value
        raise _Mismatch(key, f"expected {_describe_type(annotation)}, got {value!r}")
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(annotation)
        nested_errors: list[_Mismatch] = []
        for option in options:
            try:
                return _convert(option, value, key)
            except _Mismatch as mismatch:
                nested_errors.append(mismatch)
        # A mapping that fails deeper inside a section: report the deeper, more useful error.
        deeper = [error for error in nested_errors if error.key != key]
        if deeper:
            raise deeper[0]
        raise _Mismatch(key, f"expected {_describe_type(annotation)}, got {_type_name(value)} {value!r}")
    if origin is list:
        (item_type,) = typing.get_args(annotation)
        if not isinstance(value, list):
            raise _Mismatch(key, f"expected {_describe_type(annotation)}, got {_type_name(value)} {value!r}")
        return [_convert(item_type, item, _join(key, index)) for index, item in enumerate(value)]
    if origin is dict:
        key_type, value_type = typing.get_args(annotation)
        if not isinstance(value, dict):
            raise _Mismatch(key, f"expected {_describe_type(annotation)}, got {_type_name(value)} {value!r}")
        converted = {}
        for item_key, item in value.items():
            if key_type is str and not isinstance(item_key, str):
                raise _Mismatch(_join(key, str(item_key)), "keys must be strings")
            converted[item_key] = _convert(value_type, item, _join(key, str(item_key)))
        return converted
    if dataclasses.is_dataclass(annotation):
        if not isinstance(value, dict):
            raise _Mismatch(key, f"expected a mapping (section), got {_type_name(value)} {value!r}")
        custom_builder = getattr(annotation, "from_mapping", None)
        if custom_builder is not None:
            return custom_builder(value, key)
        return _build(annotation, value, key)
    if annotation is bool:
        if isinstance(value, bool):
            return value
        raise _Mismatch(key, f"expected a boolean (true/false), got {_type_name(value)} {value!r}")
    if annotation is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
            # 1e5 is a common way to write a step budget; accept whole-number floats.
            return int(value)
        raise _Mismatch(key, f"expected an integer, got {_type_name(value)} {value!r}")
    if annotation is float:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        raise _Mismatch(key, f"expected a number, got {_type_name(value)} {value!r}")
    if annotation is str:
        if isinstance(value, str):
            return value
        raise _Mismatch(key, f"expected a string, got {_type_name(value)} {value!r}")
    raise TypeError(f"unsupported annotation {annotation!r} at {key}")


def _build(cls: type[T], data: Mapping[str, Any], prefix: str) -> T:
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls) if f.init}  # type: ignore[arg-type]
    unknown = [key for key in data if key not in fields]
    if unknown:
        valid = ", ".join(sorted(fields))
        raise _Mismatch(_join(prefix, str(unknown[0])), f"unknown key (valid keys here: {valid})")
    kwargs: dict[str, Any] = {}
    for name, spec in fields.items():
        key = _join(prefix, name)
        if name in data:
            kwargs[name] = _convert(hints[name], data[name], key)
        elif spec.default is dataclasses.MISSING and spec.default_factory is dataclasses.MISSING:
            raise _Mismatch(key, f"missing required key ({_describe_type(hints[name])})")
    try:
        return cls(**kwargs)
    except ValueError as error:
        # __post_init__ checks raise ValueError("key: message") with the key relative to this section.
        relative, _, message = str(error).partition(": ")
        raise _Mismatch(_join(prefix, relative), message or str(error)) from error


def build_dataclass(cls: type[T], data: Mapping[str, Any], source: str, overrides: Sequence[Override] = ()) -> T:
    """Validate `data` against dataclass `cls` and build it; errors name `source` (or the override) and the key."""
    try:
        return _build(cls, data, "")
    except _Mismatch as mismatch:
        raise _config_error(mismatch, source, overrides) from None


def _config_error(mismatch: _Mismatch, source: str, overrides: Sequence[Override]) -> ConfigError:
    """Blame the command-line override that set the bad key, else the file."""
    for override in overrides:
        if mismatch.key == override.dotted_key or mismatch.key.startswith(
            (override.dotted_key + ".", override.dotted_key + "[")
        ):
            return ConfigError(f"command-line override {override.text!r}", mismatch.key, mismatch.message)
    return ConfigError(source, mismatch.key, mismatch.message)


def to_plain(value: Any) -> Any:
    """Dataclasses -> plain dicts/lists/scalars (for writing the resolved config as YAML)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        to_dict = getattr(value, "to_plain", None)
        if callable(to_dict):
            return to_dict()
        return {f.name: to_plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {key: to_plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [to_plain(item) for item in value]
    return value


def dump_yaml(value: Any) -> str:
    """YAML text of a config (dataclass or plain data), keys in declaration order."""
    return yaml.safe_dump(to_plain(value), sort_keys=False, default_flow_style=False)


def _positive(name: str, value: float, allow_zero: bool = False) -> None:
    if value < 0 or (value == 0 and not allow_zero):
        bound = ">= 0" if allow_zero else "> 0"
        raise ValueError(f"{name}: must be {bound}, got {value}")


# --------------------------------------------------------------------------------------------------------------
# Training config
# --------------------------------------------------------------------------------------------------------------


@dataclass
class EnvConfig:
    """Which Gymnasium env to build: a registered id and the keyword arguments of gymnasium.make."""

    id: str
    kwargs: dict[str, Any] = field(default_factory=dict)


ActivationName = Literal["tanh", "relu", "elu", "leaky_relu", "gelu", "silu"]


@dataclass
class PolicyKwargs:
    """Policy network settings passed to sb3 as policy_kwargs (names, never eval'd strings)."""

    net_arch: list[int] | dict[str, list[int]] = field(default_factory=lambda: [64, 64])
    activation_fn: ActivationName = "tanh"
    ortho_init: bool = True
    share_features_extractor: bool = True

    def __post_init__(self) -> None:
        if isinstance(self.net_arch, dict):
            unknown = sorted(set(self.net_arch) - {"pi", "vf"})
            if unknown:
                raise ValueError(f"net_arch.{unknown[0]}: unknown key (a split net_arch has keys pi and vf)")
            layers = [size for sizes in self.net_arch.values() for size in sizes]
        else:
            layers = self.net_arch
        for size in layers:
            _positive("net_arch", size)

    def to_sb3(self) -> dict[str, Any]:
        """The policy_kwargs dict sb3 expects (activation name -> torch.nn class)."""
        from torch import nn

        activations: dict[str, type[nn.Module]] = {
            "tanh": nn.Tanh,
            "relu": nn.ReLU,
            "elu": nn.ELU,
            "leaky_relu": nn.LeakyReLU,
            "gelu": nn.GELU,
            "silu": nn.SiLU,
        }
        net_arch = dict(self.net_arch) if isinstance(self.net_arch, dict) else list(self.net_arch)
        return {
            "net_arch": net_arch,
            "activation_fn": activations[self.activation_fn],
            "ortho_init": self.ortho_init,
            "share_features_extractor": self.share_features_extractor,
        }


@dataclass
class MaskablePPOHyperparameters:
    """MaskablePPO (sb3-contrib) hyperparameters; `policy: auto` picks MultiInputPolicy for Dict observations."""

    policy: Literal["auto", "MlpPolicy", "MultiInputPolicy"] = "auto"
    learning_rate: float = 3e-4
    learning_rate_schedule: Literal["constant", "linear"] = "constant"
    n_steps: int = 2048
    batch_size: int = 64
    n_epochs: int = 10
    gamma: float = 0.99
    gae_lambda: float = 0.95
    clip_range: float = 0.2
    clip_range_vf: float | None = None
    normalize_advantage: bool = True
    ent_coef: float = 0.0
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    target_kl: float | None = None
    stats_window_size: int = 100
    device: str = "cpu"
    policy_kwargs: PolicyKwargs = field(default_factory=PolicyKwargs)

    def __post_init__(self) -> None:
        for name in ("learning_rate", "n_steps", "batch_size", "n_epochs", "clip_range", "stats_window_size"):
            _positive(name, getattr(self, name))
        for name in ("gamma", "gae_lambda"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name}: must be within [0, 1], got {value}")
        for name in ("ent_coef", "vf_coef", "max_grad_norm"):
            _positive(name, getattr(self, name), allow_zero=True)

    def sb3_kwargs(self) -> dict[str, Any]:
        """Constructor keyword arguments for MaskablePPO (except policy, env, seed, logging)."""
        learning_rate: Any = self.learning_rate
        if self.learning_rate_schedule == "linear":
            from stable_baselines3.common.utils import LinearSchedule

            learning_rate = LinearSchedule(self.learning_rate, 0.0, 1.0)
        return {
            "learning_rate": learning_rate,
            "n_steps": self.n_steps,
            "batch_size": self.batch_size,
            "n_epochs": self.n_epochs,
            "gamma": self.gamma,
            "gae_lambda": self.gae_lambda,
            "clip_range": self.clip_range,
            "clip_range_vf": self.clip_range_vf,
            "normalize_advantage": self.normalize_advantage,
            "ent_coef": self.ent_coef,
            "vf_coef": self.vf_coef,
            "max_grad_norm": self.max_grad_norm,
            "target_kl": self.target_kl,
            "stats_window_size": self.stats_window_size,
            "device": self.device,
            "policy_kwargs": self.policy_kwargs.to_sb3(),
        }


ALGORITHM_HYPERPARAMETERS: dict[str, type] = {"maskable_ppo": MaskablePPOHyperparameters}
"""Algorithm name (config `algo.name`) -> dataclass of its hyperparameters (the other keys of `algo`)."""


@dataclass
class AlgoConfig:
    """The learning algorithm: `name` plus its hyperparameters, written flat under `algo:` in YAML."""

    name: str
    hyperparameters: Any

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], key: str) -> AlgoConfig:
        """Build from the flat YAML form: `name` picks the hyperparameter dataclass that checks the other keys."""
        hyperparameters = dict(data)
        name = hyperparameters.pop("name", None)
        if name not in ALGORITHM_HYPERPARAMETERS:
            known = ", ".join(sorted(ALGORITHM_HYPERPARAMETERS))
            problem = "missing required key" if name is None else f"unknown algorithm {name!r}"
            raise _Mismatch(_join(key, "name"), f"{problem} (known algorithms: {known})")
        return cls(name, _build(ALGORITHM_HYPERPARAMETERS[name], hyperparameters, key))

    def to_plain(self) -> dict[str, Any]:
        """Flat YAML form: name first, then every hyperparameter."""
        return {"name": self.name, **to_plain(self.hyperparameters)}


@dataclass
class TrainConfig:
    """Budget, parallelism, seeding and the cadence of checkpoints and evaluations (all in env steps).

    torch_threads stays 1 by default: small MLP updates gain nothing from more, and on a busy two-core machine
    torch's spinning worker threads slowed training more than tenfold (82 vs 1059 steps/s measured).
    """

    total_timesteps: int = 100_000
    n_envs: int = 2
    vec_env: Literal["dummy", "subproc"] = "dummy"
    seed: int = 0
    checkpoint_interval: int = 10_000
    eval_interval: int = 10_000
    eval_episodes: int = 50
    torch_threads: int = 1

    def __post_init__(self) -> None:
        _positive("torch_threads", self.torch_threads)
        _positive("total_timesteps", self.total_timesteps)
        _positive("n_envs", self.n_envs)
        _positive("seed", self.seed, allow_zero=True)
        _positive("checkpoint_interval", self.checkpoint_interval, allow_zero=True)
        _positive("eval_interval", self.eval_interval, allow_zero=True)
        _positive("eval_episodes", self.eval_episodes)


OpponentKind = Literal["random", "heuristic", "snapshot", "model"]


@dataclass
class OpponentConfig:
    """One opponent in the pool: a built-in agent, a snapshot of the learner, or a saved model file."""

    kind: OpponentKind
    path: str | None = None
    weight: float = 1.0

    def __post_init__(self) -> None:
        if self.kind == "model" and not self.path:
            raise ValueError("path: an opponent of kind 'model' needs the path of a saved model (.zip)")
        if self.kind in ("random", "heuristic") and self.path is not None:
            raise ValueError(f"path: an opponent of kind {self.kind!r} takes no path")
        _positive("weight", self.weight)


@dataclass
class OpponentsConfig:
    """Opponents of multi-player games: a weighted pool and how the learner's seat changes between episodes."""

    pool: list[OpponentConfig] = field(default_factory=list)
    seat_rotation: Literal["fixed", "round_robin", "random"] = "round_robin"


@dataclass
class LoggingConfig:
    """Where runs are written and whether TensorBoard event files are kept."""

    run_root: str = "runs"
    tensorboard: bool = True


@dataclass
class PretrainConfig:
    """Optional warm start before PPO: behaviour cloning on a teacher agent's decisions, then DAgger rounds.

    `steps: 0` (the default) turns it off. Each DAgger round lets the student play (acting with probability
    `student_share`, the teacher otherwise), records the teacher's choice at every state reached, and refits the
    policy on all data gathered so far for `dagger_epochs` epochs.
    """

    teacher: str = "heuristic"
    steps: int = 0
    epochs: int = 15
    dagger_rounds: int = 0
    dagger_steps: int = 50_000
    dagger_epochs: int = 5
    student_share: float = 1.0
    batch_size: int = 256
    learning_rate: float = 1.0e-3
    value_coef: float = 0.5
    workers: int = 2

    def __post_init__(self) -> None:
        _positive("steps", self.steps, allow_zero=True)
        _positive("epochs", self.epochs)
        _positive("dagger_rounds", self.dagger_rounds, allow_zero=True)
        _positive("dagger_steps", self.dagger_steps)
        _positive("dagger_epochs", self.dagger_epochs)
        if not 0.0 <= self.student_share <= 1.0:
            raise ValueError(f"student_share: must be within [0, 1], got {self.student_share}")
        _positive("batch_size", self.batch_size)
        _positive("learning_rate", self.learning_rate)
        _positive("value_coef", self.value_coef, allow_zero=True)
        _positive("workers", self.workers)
        if not self.teacher:
            raise ValueError("teacher: name an agent (e.g. heuristic) or the path of a saved model")


@dataclass
class ExperimentConfig:
    """A whole training run: env, algorithm, budget, optional pretraining, opponents and logging."""

    env: EnvConfig
    algo: AlgoConfig
    train: TrainConfig = field(default_factory=TrainConfig)
    pretrain: PretrainConfig = field(default_factory=PretrainConfig)
    opponents: OpponentsConfig = field(default_factory=OpponentsConfig)
    logging: LoggingConfig = field(default_factory=LoggingConfig)


def load_experiment_config(path: str | Path, overrides: Sequence[str] = ()) -> ExperimentConfig:
    """Read, override and validate a training config file; raises ConfigError naming the file and the key."""
    parsed = [parse_override(text) for text in overrides]
    data = apply_overrides(read_yaml_file(path), parsed)
    return build_dataclass(ExperimentConfig, data, str(path), parsed)


# --------------------------------------------------------------------------------------------------------------
# Evaluation config
# --------------------------------------------------------------------------------------------------------------


@dataclass
class MCTSConfig:
    """Default settings of the `mcts` agent (`mcts:N` on the command line overrides num_simulations)."""

    num_simulations: int = 100
    rollout_depth: int = 100
    exploration: float = 1.4
    rollout: str = "random"
    """Who plays the rollouts: random (uniform legal moves) or heuristic (the game's heuristic agent)."""
    prior: str = "none"
    """PUCT prior: none (plain UCT) or heuristic (the heuristic's choice gets prior_share of the prior)."""
    prior_share: float = 0.75

    def __post_init__(self) -> None:
        if self.rollout not in ("random", "heuristic"):
            raise ValueError(f"rollout: must be 'random' or 'heuristic', got {self.rollout!r}")
        if self.prior not in ("none", "heuristic"):
            raise ValueError(f"prior: must be 'none' or 'heuristic', got {self.prior!r}")
        if not 0.0 <= self.prior_share <= 1.0:
            raise ValueError(f"prior_share: must be within [0, 1], got {self.prior_share}")
        _positive("num_simulations", self.num_simulations)
        _positive("rollout_depth", self.rollout_depth, allow_zero=True)
        _positive("exploration", self.exploration, allow_zero=True)


@dataclass
class EvaluationSettings:
    """How many episodes, from which seed, on how many worker processes, written where."""

    episodes: int = 100
    seed: int = 0
    workers: int = 1
    out_dir: str = "runs/eval"
    agents: list[str] = field(default_factory=lambda: ["random"])
    difficulties: list[str] = field(default_factory=lambda: ["easy", "normal", "hard"])

    def __post_init__(self) -> None:
        _positive("episodes", self.episodes)
        _positive("seed", self.seed, allow_zero=True)
        _positive("workers", self.workers)


@dataclass
class EvalConfig:
    """An evaluation: the env to play, the evaluation settings and agent defaults."""

    env: EnvConfig
    evaluation: EvaluationSettings = field(default_factory=EvaluationSettings)
    mcts: MCTSConfig = field(default_factory=MCTSConfig)


def load_eval_config(path: str | Path, overrides: Sequence[str] = ()) -> EvalConfig:
    """Read, override and validate an evaluation config file."""
    parsed = [parse_override(text) for text in overrides]
    data = apply_overrides(read_yaml_file(path), parsed)
    return build_dataclass(EvalConfig, data, str(path), parsed)
