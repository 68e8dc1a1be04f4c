"""Typed, validated experiment configs loaded from YAML (training and evaluation), declared as pydantic models.

A config file is plain YAML. Dotted command-line overrides (`algo.learning_rate=1e-4`) are parsed as YAML scalars
and applied before validation. The models below declare every key, type, default and constraint (unknown keys are
rejected); `validate_config` runs pydantic and turns any failure into one `ConfigError` naming the file, or the
command-line override that set the key, and the dotted key: `maskable_ppo.yaml: algo.policy_kwargs.net_arch[1]:
expected an integer, got string 'x'`.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

import yaml
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    SerializeAsAny,
    SerializerFunctionWrapHandler,
    ValidationError,
    field_validator,
    model_serializer,
    model_validator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError

from envs.core.schema import Wording, dotted, explain

ModelT = TypeVar("ModelT", bound=BaseModel)


class ConfigError(ValueError):
    """An invalid config; the message names the file (or override) and the dotted key."""

    def __init__(self, source: str, key: str, message: str) -> None:
        self.source = source
        self.key = key
        self.reason = message
        where = f"{source}: {key}" if key else source
        super().__init__(f"{where}: {message}")


def blame_overrides(error: ConfigError, overrides: Sequence[str]) -> ConfigError:
    """`error` re-blamed on the command-line override that set its key (or a key above or under it), when one did: a
    value given on the command line is not the config file's fault. Of overrides of the same key the last is blamed:
    it is the one that took effect. Texts that are no override (no `=`) are skipped: their own error names them."""
    parsed = []
    for text in overrides:
        try:
            parsed.append(parse_override(text))
        except ConfigError:
            continue
    override = override_of(error.key, parsed)
    if override is None:
        return error
    return ConfigError(f"command-line override {override.text!r}", error.key, error.reason)


# --------------------------------------------------------------------------------------------------------------
# YAML and command-line overrides
# --------------------------------------------------------------------------------------------------------------


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
    except UnicodeDecodeError as error:
        raise ConfigError(
            str(path),
            "",
            f"not UTF-8 text (byte 0x{error.object[error.start]:02x} at offset {error.start}): save the "
            "config as UTF-8",
        ) from None
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
        # Shorthand: env.X=value sets env.kwargs.X (the env itself rejects a keyword it does not take).
        keys = ("env", "kwargs", *keys[1:])
    return Override(keys, parse_yaml(value_text, source), text)


def override_of(key: str, overrides: Sequence[Override]) -> Override | None:
    """The override that set the value at dotted `key`: the last one (later overrides win) whose key is `key`, a
    section above it or a key under it; None when no override touched it."""
    if not key:
        return None
    for override in reversed(overrides):
        given = override.dotted_key
        if given == key or key.startswith((given + ".", given + "[")) or given.startswith((key + ".", key + "[")):
            return override
    return None


def apply_overrides(data: dict[str, Any], overrides: Sequence[Override]) -> dict[str, Any]:
    """A deep copy of `data` with each override set at its dotted key (creating mappings on the way)."""
    result: dict[str, Any] = _deep_copy(data)
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


# --------------------------------------------------------------------------------------------------------------
# The schema building blocks and the one converter from pydantic's ValidationError to ConfigError
# --------------------------------------------------------------------------------------------------------------

CONFIG_RULE_ERROR = "config_rule"
"""pydantic error type of a rule stated by a config model itself (its message is shown as written)."""


def rule_violation(key: tuple[str | int, ...], message: str, value: Any) -> ValidationError:
    """A ValidationError at `key` (relative to the model that raises it) with `message` shown as written.

    Raised from a validator, pydantic prefixes the key with the model's own location, so a cross-field rule can
    blame the exact key (`opponents.pool[0].path`) rather than the section.
    """
    error = PydanticCustomError(CONFIG_RULE_ERROR, "{reason}", {"reason": message})
    return ValidationError.from_exception_data("config", [InitErrorDetails(type=error, loc=key, input=value)])


class ConfigModel(BaseModel):
    """Base of every config section: unknown keys and loose types are errors; docstrings under fields document them."""

    model_config = ConfigDict(extra="forbid", strict=True, use_attribute_docstrings=True)

    @model_validator(mode="before")
    @classmethod
    def _reject_unknown_keys(cls, data: Any) -> Any:
        """Name the valid keys of the section when a key is unknown (pydantic's own message does not)."""
        if isinstance(data, Mapping):
            for key in data:
                if key not in cls.model_fields:
                    valid = ", ".join(sorted(cls.model_fields))
                    close = difflib.get_close_matches(str(key), list(cls.model_fields), n=1)
                    hint = f"did you mean {close[0]!r}? " if close else ""
                    raise rule_violation((key,), f"unknown key ({hint}valid keys here: {valid})", data[key])
        return data


def _whole_number_as_int(value: Any) -> Any:
    """1e5 is a common way to write a step budget, and YAML reads it as a float: accept whole-number floats."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    return value


def _within_unit_interval(value: float) -> float:
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"must be within [0, 1], got {value}")
    return value


Integer = Annotated[int, BeforeValidator(_whole_number_as_int)]
"""An integer (booleans and fractional numbers rejected; 1e5 accepted as 100000)."""
PositiveInteger = Annotated[Integer, Field(gt=0)]
"""An integer > 0."""
UnitInterval = Annotated[float, AfterValidator(_within_unit_interval)]
"""A number within [0, 1]."""


_WORDING = Wording(
    noun="key",
    show=lambda value: "null" if value is None else f"{_type_name(value)} {value!r}",
    not_one_of="expected one of {choices}, got {value}",
    beyond="must be {op} {bound}, got {value}",
)
"""How a config reader words pydantic's errors (envs.core.schema does the rest)."""


def config_error(error: ValidationError, data: Any, source: str, overrides: Sequence[Override] = ()) -> ConfigError:
    """The one translation of a pydantic ValidationError into a ConfigError naming the source and the dotted key.

    Of several errors the first is reported, unless another one about the same key goes deeper (a union tries
    each member: `[64, "x"]` fails as a list at `[1]` and as a mapping at the top; the deeper one says more).
    Errors at the same key from different union members are merged: "expected a list or a mapping, got ...".
    """
    found = [explain(details, data, None, _WORDING) for details in error.errors()]
    first = found[0][0]
    related = [(path, message) for path, message in found if first[: len(path)] == path[: len(first)]]
    depth = max(len(path) for path, _ in related)
    path, message = next((path, message) for path, message in related if len(path) == depth)
    same_key = [other for other_path, other in related if other_path == path]
    if len(same_key) > 1 and all(text.startswith("expected ") for text in same_key):
        expectations = [text.removeprefix("expected ").split(", got ")[0] for text in same_key]
        message = f"expected {' or '.join(dict.fromkeys(expectations))}, got {message.split(', got ', 1)[1]}"
    key = dotted(path)
    override = override_of(key, overrides)
    if override is not None:
        return ConfigError(f"command-line override {override.text!r}", key, message)
    return ConfigError(source, key, message)


def validate_config(
    model: type[ModelT], data: Mapping[str, Any], source: str, overrides: Sequence[Override] = ()
) -> ModelT:
    """Validate `data` against config model `model`; errors name `source` (or the override) and the dotted key."""
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise config_error(error, data, source, overrides) from None


build_dataclass = validate_config
"""The name validate_config had when configs were dataclasses (kept for existing callers)."""


def to_plain(value: Any) -> Any:
    """Config models -> plain dicts/lists/scalars (for writing the resolved config as YAML or JSON)."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="python")
    if isinstance(value, dict):
        return {key: to_plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [to_plain(item) for item in value]
    return value


def dump_yaml(value: Any) -> str:
    """YAML text of a config (model or plain data), keys in declaration order."""
    return yaml.safe_dump(to_plain(value), sort_keys=False, default_flow_style=False)


# --------------------------------------------------------------------------------------------------------------
# Training config
# --------------------------------------------------------------------------------------------------------------


class EnvConfig(ConfigModel):
    """Which Gymnasium env to build: a registered id and the keyword arguments of gymnasium.make."""

    id: str
    """A registered env id (a Gymnasium `tabletop/<Game>-v0` or a PettingZoo `tabletop/<game>_v0`), or
    `package:id` for one registered outside envs/."""
    kwargs: dict[str, Any] = {}
    """Keyword arguments of the env: the game's settings (its page lists them) and the adapters' (reward,
    illegal_action, ...)."""


ActivationName = Literal["tanh", "relu", "elu", "leaky_relu", "gelu", "silu"]
SPLIT_NET_ARCH_KEYS = ("pi", "vf")
"""Keys of a split net_arch: the policy's and the value function's layers."""


class PolicyKwargs(ConfigModel):
    """Policy network settings passed to sb3 as policy_kwargs (names, never eval'd strings)."""

    net_arch: list[PositiveInteger] | dict[str, list[PositiveInteger]] = [64, 64]
    """Hidden layer sizes, shared by policy and value function, or split as {pi: [...], vf: [...]}."""
    activation_fn: ActivationName = "tanh"
    """Activation of the hidden layers (a torch.nn name such as tanh or relu)."""
    ortho_init: bool = True
    """Orthogonal initialisation of the layers (sb3's default)."""
    share_features_extractor: bool = True
    """One features extractor for the policy and the value heads (True) or one each."""
    features_extractor: Literal["flatten", "seat_grids", "entities"] = "flatten"
    """`flatten` (sb3's default), `seat_grids` (agents.common.extractors: each seat's grid views, such as a game's
    per-seat boards, through one shared linear layer of `grid_features` units; the rest flat) or `entities` (as
    `seat_grids`, and each table of like things, such as cards on a table, read row by row by one shared encoder of
    `entity_features` units, pooled by mean and max)."""
    grid_features: PositiveInteger = 64
    """Units per seat of each grid view's shared encoder (`seat_grids` and `entities`)."""
    entity_features: PositiveInteger = 32
    """Units of each entity view's shared row encoder, before pooling (`entities` only)."""
    encode_seats: Literal["all", "present"] = "all"
    """Which seats of each per-seat view the `seat_grids` and `entities` extractors encode: all (as the views are
    sized, for the most players the game takes) or present (the game's players only: the views of a 2-player game
    sized for 4 hold two empty seats, and encoding them costs compute and learns nothing)."""

    @field_validator("net_arch")
    @classmethod
    def _split_keys_are_pi_and_vf(cls, net_arch: list[int] | dict[str, list[int]]) -> list[int] | dict[str, list[int]]:
        if isinstance(net_arch, dict):
            for key in net_arch:
                if key not in SPLIT_NET_ARCH_KEYS:
                    raise rule_violation((key,), "unknown key (a split net_arch has keys pi and vf)", net_arch[key])
        return net_arch

    def to_sb3(
        self,
        view_shapes: Mapping[str, Sequence[int]] | None = None,
        view_axes: Mapping[str, Sequence[str]] | None = None,
        seats_present: int | None = None,
    ) -> dict[str, Any]:
        """The policy_kwargs dict sb3 expects (activation name -> torch.nn class; `view_shapes` and `view_axes`: the
        observer's views and their axis roles, which the `seat_grids` and `entities` extractors need;
        `seats_present`: the game's number of players, which `encode_seats: present` needs)."""
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
        kwargs: dict[str, Any] = {
            "net_arch": net_arch,
            "activation_fn": activations[self.activation_fn],
            "ortho_init": self.ortho_init,
            "share_features_extractor": self.share_features_extractor,
        }
        if self.features_extractor != "flatten":
            from agents.common.extractors import FEATURE_EXTRACTORS

            if view_shapes is None:
                raise ValueError(f"the {self.features_extractor!r} features extractor needs the observer's view shapes")
            kwargs["features_extractor_class"] = FEATURE_EXTRACTORS[self.features_extractor]
            extractor_kwargs: dict[str, Any] = {
                "view_shapes": {name: list(shape) for name, shape in view_shapes.items()},
                "grid_features": self.grid_features,
            }
            if view_axes is not None:
                extractor_kwargs["view_axes"] = {name: list(axes) for name, axes in view_axes.items()}
            if self.features_extractor == "entities":
                extractor_kwargs["entity_features"] = self.entity_features
            if self.encode_seats == "present":
                if seats_present is None:
                    raise ValueError("encode_seats: present needs the game's number of players")
                extractor_kwargs["seats"] = seats_present
            kwargs["features_extractor_kwargs"] = extractor_kwargs
        return kwargs


class AlgorithmHyperparameters(ConfigModel):
    """Base of an algorithm's hyperparameters: the keys of the `algo` section besides `name`."""


class MaskablePPOHyperparameters(AlgorithmHyperparameters):
    """MaskablePPO (sb3-contrib) hyperparameters; `policy: auto` picks the lean policy for the observation space."""

    policy: Literal["auto", "MlpPolicy", "MultiInputPolicy"] = "auto"
    """The policy class. auto: agents.common.lean_learner's policy and rollout buffer for Dict or flat observations
    (sb3-contrib's numbers bit for bit, without its per-call overhead); MlpPolicy or MultiInputPolicy: sb3-contrib's
    own classes (the same run, slower)."""
    learning_rate: float = Field(3e-4, gt=0)
    """Adam's learning rate."""
    learning_rate_schedule: Literal["constant", "linear"] = "constant"
    """constant, or linear: decays to 0 over total_timesteps."""
    n_steps: PositiveInteger = 2048
    """Env steps per env between updates (the rollout is n_steps x n_envs)."""
    batch_size: PositiveInteger = 64
    """Minibatch size of the update."""
    n_epochs: PositiveInteger = 10
    """Passes over each rollout in the update."""
    gamma: UnitInterval = 0.99
    """Discount factor."""
    gae_lambda: UnitInterval = 0.95
    """GAE's bias-variance trade-off."""
    clip_range: float = Field(0.2, gt=0)
    """PPO's clipping of the policy ratio."""
    clip_range_vf: float | None = None
    """Clipping of the value update (None: not clipped)."""
    normalize_advantage: bool = True
    """Normalise advantages within each minibatch."""
    ent_coef: float = Field(0.0, ge=0)
    """Weight of the entropy bonus in the loss."""
    vf_coef: float = Field(0.5, ge=0)
    """Weight of the value loss."""
    max_grad_norm: float = Field(0.5, ge=0)
    """Gradient norm clipping."""
    target_kl: float | None = None
    """Stop an update's epochs early past this KL divergence (None: never)."""
    stats_window_size: PositiveInteger = 100
    """Episodes averaged in the logged rollout statistics."""
    device: str = "cpu"
    """torch device of the policy (cpu; a GPU rarely pays for these small networks)."""
    policy_kwargs: PolicyKwargs = Field(default_factory=PolicyKwargs)

    def sb3_kwargs(
        self,
        view_shapes: Mapping[str, Sequence[int]] | None = None,
        view_axes: Mapping[str, Sequence[str]] | None = None,
        seats_present: int | None = None,
    ) -> dict[str, Any]:
        """Constructor keyword arguments for MaskablePPO (except policy, env, seed, logging); `view_shapes` and
        `view_axes` are the observer's views and their axis roles (the `seat_grids` and `entities` extractors),
        `seats_present` the game's number of players (`encode_seats: present`)."""
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
            "policy_kwargs": self.policy_kwargs.to_sb3(view_shapes, view_axes, seats_present),
        }


RLLIB_PPO = "rllib_ppo"
"""`algo.name` of PPO on Ray RLlib (agents/rllib/training.py; the `rllib` extra)."""


class RayConfig(ConfigModel):
    """Where the RLlib route runs: a local Ray started for the run, or an existing cluster."""

    address: str = ""
    """Empty: start a local Ray for this run (and stop it at the end). An address (`auto`, `HOST:6379`,
    `ray://HOST:10001`): join that cluster, whose nodes must have this package installed."""
    num_cpus: PositiveInteger | None = None
    """CPUs of the local Ray (null: every core); ignored when joining a cluster."""


class RLlibPPOHyperparameters(AlgorithmHyperparameters):
    """PPO on Ray RLlib's new API stack: RLlib's own settings as plain mappings, checked against PPOConfig before Ray
    starts (agents/rllib/training.py: an unknown key is named with the file)."""

    ray: RayConfig = Field(default_factory=RayConfig)
    num_env_runners: Integer = Field(1, ge=0)
    """Ray actors that sample episodes (0: sample in the training process)."""
    num_envs_per_env_runner: PositiveInteger = 1
    """Envs each env runner steps together (one batched forward pass for all)."""
    num_learners: Integer = Field(0, ge=0)
    """Learner actors that compute the updates (0: in the training process; on a cluster, e.g. one per GPU)."""
    num_gpus_per_learner: float = Field(0.0, ge=0)
    """GPUs each learner actor asks Ray for (0: CPU)."""
    training: dict[str, Any] = {}
    """Keyword arguments of RLlib's `PPOConfig.training` (lr, gamma, lambda_, train_batch_size_per_learner,
    minibatch_size, num_epochs, entropy_coeff, clip_param, vf_loss_coeff, grad_clip, ...)."""
    model: dict[str, Any] = {}
    """Fields of RLlib's `DefaultModelConfig` (fcnet_hiddens, fcnet_activation, vf_share_layers, ...)."""


ALGORITHM_HYPERPARAMETERS: dict[str, type[AlgorithmHyperparameters]] = {
    "maskable_ppo": MaskablePPOHyperparameters,
    RLLIB_PPO: RLlibPPOHyperparameters,
}
"""Algorithm name (config `algo.name`) -> model of its hyperparameters (the other keys of `algo`)."""


class AlgoConfig(ConfigModel):
    """The learning algorithm: `name` plus its hyperparameters, written flat under `algo:` in YAML."""

    name: str
    hyperparameters: SerializeAsAny[AlgorithmHyperparameters]

    @model_validator(mode="before")
    @classmethod
    def _hyperparameters_of_the_named_algorithm(cls, data: Any) -> Any:
        """The flat YAML form: `name` picks the hyperparameter model that checks the other keys."""
        if not isinstance(data, Mapping) or isinstance(data.get("hyperparameters"), AlgorithmHyperparameters):
            return data
        settings = dict(data)
        name = settings.pop("name", None)
        known = ", ".join(sorted(ALGORITHM_HYPERPARAMETERS))
        hyperparameters = ALGORITHM_HYPERPARAMETERS.get(name) if isinstance(name, str) else None
        if hyperparameters is None:
            problem = "missing required key" if name is None else f"unknown algorithm {name!r}"
            raise rule_violation(("name",), f"{problem} (known algorithms: {known})", name)
        return {"name": name, "hyperparameters": hyperparameters.model_validate(settings)}

    @model_serializer(mode="wrap")
    def _flat(self, serialize: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """Flat YAML form: name first, then every hyperparameter."""
        data = serialize(self)
        return {"name": data["name"], **data["hyperparameters"]}


def usable_cores() -> int:
    """The CPU cores this process may run on (its affinity where the system tells it, else the machine's count)."""
    import os

    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


OPENMP_SPIN_COUNT = "1000"
"""How long torch's idle OpenMP threads spin before they sleep (libgomp's GOMP_SPINCOUNT, in spins; its own default
is 300,000). Spinning threads take the cores other work needs: beside busy processes the default made a PPO update on
two threads far slower than on one, at 1,000 spins it stays faster, and on idle cores it loses little
(benchmarks/update_threads.py)."""


def limit_openmp_spinning() -> None:
    """Let torch's idle OpenMP threads sleep soon (OPENMP_SPIN_COUNT), unless GOMP_SPINCOUNT is set already; it takes
    effect only if torch has not been imported yet in this process."""
    import os

    os.environ.setdefault("GOMP_SPINCOUNT", OPENMP_SPIN_COUNT)


class TrainConfig(ConfigModel):
    """Budget, parallelism, seeding and the cadence of checkpoints and evaluations (all in env steps).

    torch_threads stays 1 by default: small MLP updates gain nothing from more, and when the cores are busy (the envs,
    other processes) torch's spinning worker threads slow training many times over. `auto` (for large networks, whose
    update is most of a step) takes the cores this process may use, chosen when training starts and printed.
    """

    total_timesteps: PositiveInteger = 100_000
    """PPO env steps of the run (pretraining not counted)."""
    n_envs: PositiveInteger = 2
    """Envs stepped side by side for rollouts."""
    vec_env: Literal["dummy", "subproc", "batched"] = "dummy"
    """dummy (all envs in the training process), subproc (one process per env) or batched (as dummy, and the
    learner's snapshots that several envs wait on at once decide in one forward pass: it pays when snapshots are most
    of the opponents; agents/training/batched_vec_env.py)."""
    seed: Integer = Field(0, ge=0)
    """Seed of the run: envs, sampling and network initialisation; same seed and config, same run."""
    checkpoint_interval: Integer = Field(10_000, ge=0)
    """Env steps between checkpoints, each at the first rollout boundary at or after a multiple (0: only on Ctrl-C)."""
    eval_interval: Integer = Field(10_000, ge=0)
    """Env steps between evaluations (0: none)."""
    eval_episodes: PositiveInteger = 50
    """Episodes of each evaluation during training."""
    torch_threads: PositiveInteger | Literal["auto"] = 1
    """torch's thread count in the training process; auto: the cores this process may use (`usable_cores`)."""

    def resolved_torch_threads(self) -> int:
        """torch_threads as a number: auto becomes the cores this process may use."""
        return usable_cores() if self.torch_threads == "auto" else self.torch_threads

    time_budget_minutes: float | None = Field(None, gt=0)
    """Stop training once this many wall-clock minutes have passed since train.py started it, pretraining included
    (the model of the last update is the final model; a resumed run counts its own minutes afresh). None: no limit,
    total_timesteps alone ends the run."""
    final_eval_episodes: Integer = Field(100, ge=0)
    """At the end, evaluate.py plays the final model, random and the game's heuristic on this many deals (the same
    deals for all, seeds away from training) and prints the table beside the baselines (0: skip)."""
    final_eval_workers: PositiveInteger = 1
    """Processes playing that closing evaluation (its results do not depend on it)."""
    cpu_kernels: Literal["native", "portable"] = "native"
    """native: torch takes the fastest kernels of this CPU, so the learned weights depend on its model (AVX-512 or
    AVX2, Intel or AMD); portable: the kernels every x86-64 CPU runs alike, the same weights bit for bit on any of
    them, PPO updates about twice as slow (agents/common/kernels.py)."""


SNAPSHOT_AGENT = "snapshot"
"""The opponent spec of a frozen copy of the learner (made by the training loop; see SnapshotConfig)."""


class OpponentConfig(ConfigModel):
    """One entry of the opponent pool: an agent spec, as evaluate.py's --agent takes, and its weight."""

    agent: str
    """random, heuristic, mcts:N, a saved model (.zip) or train.py run directory, or `snapshot` (the learner's
    frozen copies, see opponents.snapshots)."""
    weight: float = Field(1.0, gt=0)
    """Each opponent seat draws its pool entry with probability proportional to the weights, every episode."""

    @field_validator("agent")
    @classmethod
    def _agent_is_named(cls, agent: str) -> str:
        if not agent.strip():
            raise ValueError("name an agent (random, heuristic, mcts:N, snapshot) or the path of a saved model")
        return agent


class SnapshotConfig(ConfigModel):
    """When the learner is frozen into the pool as a `snapshot` opponent, and how many snapshots are kept."""

    interval: PositiveInteger = 20_000
    """Env steps between two snapshot checks (the learner is also frozen once before training starts)."""
    win_rate_to_freeze: UnitInterval | None = None
    """null: freeze at every check. A number: freeze only if the learner won at least this share of its training
    games since the previous check (games against the whole pool, ties counted as half)."""
    min_games: PositiveInteger = 20
    """Fewest training games since the previous check for win_rate_to_freeze to be judged."""
    max_kept: PositiveInteger = 5
    """Snapshot opponents keep the latest max_kept snapshots (older files stay in the run directory)."""
    latest_share: UnitInterval = 0.5
    """A snapshot opponent plays the latest snapshot with this probability, else one of the kept ones uniformly."""


LEARNER_SEAT_WORDS = ("rotate", "random", "all")


def _learner_seats(value: Any) -> Any:
    ok = value in LEARNER_SEAT_WORDS if isinstance(value, str) else type(value) is int and value >= 0
    if not ok:
        raise PydanticCustomError("learner_seats", f"expected rotate, random, all or a seat number >= 0, got {value!r}")
    return value


LearnerSeats = Annotated[str | int, BeforeValidator(_learner_seats)]
"""`rotate`, `random`, `all` or a seat number (see envs/adapters/opponents.py)."""


class OpponentsConfig(ConfigModel):
    """Opponents of multi-player games: a weighted pool of agents (self-play snapshots included) and the seats."""

    pool: list[OpponentConfig] = []
    """The opponents of a multi-player run, each an agent spec with a weight (drawn with probability proportional
    to it)."""
    learner_seats: LearnerSeats = "rotate"
    """rotate: the learner's seat advances every episode, offset per vectorised env so n_envs envs cover every
    seat; random: a uniform seat per episode; all: the learner plays every seat (co-op games); N: always seat N."""
    eval_agents: list[str] = []
    """Opponents of the periodic evaluation during training (empty: the pool's agents other than `snapshot`, or
    random if there are none)."""
    snapshots: SnapshotConfig = Field(default_factory=SnapshotConfig)

    @property
    def uses_snapshots(self) -> bool:
        """Whether the pool holds the learner's snapshots (self-play)."""
        return any(entry.agent == SNAPSHOT_AGENT for entry in self.pool)

    def evaluation_opponents(self) -> OpponentsConfig:
        """The opponents of the evaluation during training: eval_agents (default: the fixed pool, else random)."""
        agents = self.eval_agents or [entry.agent for entry in self.pool if entry.agent != SNAPSHOT_AGENT] or ["random"]
        seats = self.learner_seats if self.learner_seats != "random" else "rotate"
        return OpponentsConfig(pool=[OpponentConfig(agent=agent) for agent in agents], learner_seats=seats)


class LoggingConfig(ConfigModel):
    """Where runs are written and whether TensorBoard event files are kept."""

    run_root: str = "runs"
    """Folder under which run directories are made."""
    tensorboard: bool = True
    """Write TensorBoard logs into the run directory."""


class PretrainConfig(ConfigModel):
    """Optional warm start before PPO: behaviour cloning on a teacher agent's decisions, then DAgger rounds.

    `steps: 0` (the default) turns it off. Each DAgger round lets the student play (acting with probability
    `student_share`, the teacher otherwise), records the teacher's choice at every state reached, and refits the
    policy on all data gathered so far for `dagger_epochs` epochs.
    """

    teacher: str = "heuristic"
    """Agent spec whose decisions are cloned (the game's heuristic by default)."""
    steps: Integer = Field(0, ge=0)
    """Teacher-labelled decisions recorded for behaviour cloning (0: no pretraining)."""
    epochs: PositiveInteger = 15
    """Passes of behaviour cloning over the recorded decisions."""
    dagger_rounds: Integer = Field(0, ge=0)
    """DAgger rounds after cloning."""
    dagger_steps: PositiveInteger = 50_000
    """Decisions recorded in each DAgger round."""
    dagger_epochs: PositiveInteger = 5
    """Passes over all gathered data after each DAgger round."""
    student_share: UnitInterval = 1.0
    """In a DAgger round, the probability that the student (not the teacher) acts at a state."""
    batch_size: PositiveInteger = 256
    """Minibatch size of the cloning updates."""
    learning_rate: float = Field(1.0e-3, gt=0)
    """Adam's learning rate for cloning."""
    value_coef: float = Field(0.5, ge=0)
    """Weight of the value loss (fitted to the teacher's returns) beside the policy's cross-entropy."""
    workers: PositiveInteger = 2
    """Processes recording teacher games."""

    @field_validator("teacher")
    @classmethod
    def _teacher_is_named(cls, teacher: str) -> str:
        if not teacher:
            raise ValueError("name an agent (e.g. heuristic) or the path of a saved model")
        return teacher


class ExperimentConfig(ConfigModel):
    """A whole training run: env, algorithm, budget, optional pretraining, opponents and logging."""

    env: EnvConfig
    algo: AlgoConfig
    train: TrainConfig = Field(default_factory=TrainConfig)
    pretrain: PretrainConfig = Field(default_factory=PretrainConfig)
    opponents: OpponentsConfig = Field(default_factory=OpponentsConfig)
    logging: LoggingConfig = Field(default_factory=LoggingConfig)

    @model_validator(mode="after")
    def _rllib_route_takes_its_keys_only(self) -> ExperimentConfig:
        """The RLlib route refuses the keys it does not use (yet), naming each, rather than ignoring them."""
        if self.algo.name != RLLIB_PPO:
            return self
        defaults = TrainConfig()
        for key in RLLIB_UNUSED_TRAIN_KEYS:
            if getattr(self.train, key) != getattr(defaults, key):  # a default (a run's dumped config) passes
                raise rule_violation(
                    ("train", key),
                    f"not used by {RLLIB_PPO} (env runners and their envs are algo.num_env_runners and "
                    "algo.num_envs_per_env_runner; periodic evaluation is not on the RLlib route yet)",
                    getattr(self.train, key),
                )
        if self.pretrain.steps > 0:
            raise rule_violation(
                ("pretrain", "steps"), f"pretraining is not on the {RLLIB_PPO} route yet: set 0", self.pretrain.steps
            )
        opponents = self.opponents
        for index, entry in enumerate(opponents.pool):
            if entry.agent != SNAPSHOT_AGENT:
                raise rule_violation(
                    ("opponents", "pool", index, "agent"),
                    f"{RLLIB_PPO} plays the learner against its own league only ({SNAPSHOT_AGENT!r}); train against "
                    "scripted or saved agents with algo.name: maskable_ppo",
                    entry.agent,
                )
        for key in ("eval_agents",):
            if getattr(opponents, key) != getattr(OpponentsConfig(), key):
                raise rule_violation(("opponents", key), f"not used by {RLLIB_PPO} yet", getattr(opponents, key))
        return self


RLLIB_UNUSED_TRAIN_KEYS = ("n_envs", "vec_env", "eval_interval", "eval_episodes")
"""`train` keys of the SB3 route that the RLlib route does not read: set to anything but their default, refused."""


def load_experiment_config(path: str | Path, overrides: Sequence[str] = ()) -> ExperimentConfig:
    """Read, override and validate a training config file; raises ConfigError naming the file and the key."""
    parsed = [parse_override(text) for text in overrides]
    data = apply_overrides(read_yaml_file(path), parsed)
    return validate_config(ExperimentConfig, data, str(path), parsed)


# --------------------------------------------------------------------------------------------------------------
# Evaluation config
# --------------------------------------------------------------------------------------------------------------


class MCTSConfig(ConfigModel):
    """Default settings of the `mcts` agent (`mcts:N` on the command line overrides num_simulations)."""

    num_simulations: PositiveInteger = 100
    """Simulations per decision."""
    rollout_depth: Integer = Field(100, ge=0)
    """Decisions a rollout plays before it is cut and valued (0: value the new leaf at once)."""
    exploration: float = Field(1.4, ge=0)
    """The UCT exploration constant."""
    rollout: Literal["random", "heuristic"] = "random"
    """Who plays the rollouts: random (uniform legal moves) or heuristic (the game's heuristic agent)."""
    prior: Literal["none", "heuristic"] = "none"
    """PUCT prior: none (plain UCT) or heuristic (the heuristic's choice gets prior_share of the prior)."""
    prior_share: UnitInterval = 0.75
    """With prior: heuristic, the share of the prior on the heuristic's choice (the rest spread evenly)."""
    value: Literal["none", "learned"] = "none"
    """What a rollout cut at rollout_depth is worth: none (0) or learned (the game's shipped value model)."""


SweepValue = str | int | float | bool
"""A value an evaluation sweep gives an env keyword argument."""


class EvaluationSettings(ConfigModel):
    """How many episodes, from which seed, on how many worker processes, written where, over which env settings."""

    episodes: PositiveInteger = 100
    """Episodes (deals) per agent or line-up."""
    seed: Integer = Field(0, ge=0)
    """First deal's seed; deal i uses seed + i, the same deals for every agent."""
    workers: PositiveInteger = 1
    """Processes playing the episodes (results do not depend on it)."""
    out_dir: str = "runs/eval"
    """Folder under which evaluation results are written."""
    agents: list[str] = ["random"]
    """Agent specs evaluated when the command line names none."""
    sweep: dict[str, Annotated[list[SweepValue], Field(min_length=1)]] = {}
    """Env keyword argument -> values; every combination of the values is evaluated as its own group (empty: the
    env kwargs alone)."""
    lineups: Annotated[list[Annotated[list[str], Field(min_length=1)]], Field(min_length=1)] | None = None
    """Multi-player games: the line-ups to play, one agent spec per seat (e.g. [[heuristic, random, random]]);
    None: every multiset of `agents` over the seats with at least two different agents, and in a cooperative game
    each agent's own team too (agents/evaluation/tournament.py)."""


class EvalConfig(ConfigModel):
    """An evaluation: the env to play, the evaluation settings and agent defaults."""

    env: EnvConfig
    evaluation: EvaluationSettings = Field(default_factory=EvaluationSettings)
    mcts: MCTSConfig = Field(default_factory=MCTSConfig)


def load_eval_config(path: str | Path, overrides: Sequence[str] = ()) -> EvalConfig:
    """Read, override and validate an evaluation config file."""
    parsed = [parse_override(text) for text in overrides]
    data = apply_overrides(read_yaml_file(path), parsed)
    return validate_config(EvalConfig, data, str(path), parsed)
