"""One registration record per game, and the discovery that finds every game package under `envs/`.

A game package declares its records in its `__init__.py`: `GAME = GameRecord(...)` for a package that holds one
game, `GAMES = (GameRecord(...), ...)` for a package that holds several (a combat and the board game built on it),
or both; nothing generic names a game (`package_records` reads them, for discovery and for `register_package`).
`import envs` registers the records' Gymnasium ids (and PettingZoo modules); evaluation, benchmarks, the agent
registry and terminal play read the record for what they need to know about a game: its env ids, its heuristic
agent, the settings worth sweeping and the facts a finished episode reports. How an env id is played (a solo
Gymnasium env, or seats of a multi-player game beside agents) is decided by the id and the seats of the game it
builds (`make_env_game`), never by what else its record declares: one record may hold a solo Gymnasium id beside
a co-operative PettingZoo module.

The record holds only strings and plain values, so importing a game package's `__init__` stays cheap (no rules,
no gymnasium) and `envs` never imports `agents` (the heuristic is named by a "module:attribute" string).

Games that discovery does not find (a researcher's own game outside `envs/`, the toys of the tests) register with
`register_game(record)` (or `register_package(module)`, which reads the package's `GAME` and `GAMES` as discovery
does) in their package's `__init__`. An env id may name that package first, as `gymnasium.make`
allows: `"my_games:tabletop/my_game_v0"` imports `my_games` (which registers its records), then means the id. A
package that registers only on request defines `register_games()` instead, which naming it in an env id calls: the
toys of `envs.toys` declare no `GAME` nor `GAMES` (so `import envs` registers none of them), and
`"envs.toys:tabletop/card_duel_v0"` registers them, then means the id.
"""

from __future__ import annotations

import functools
import importlib
import itertools
import pkgutil
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType, ModuleType
from typing import Any

GAMES_PACKAGE = "envs"
"""The package whose subpackages are searched for game records."""
RECORD_ATTRIBUTE = "GAME"
"""Name of the module-level GameRecord of a package that holds one game, in its `__init__.py`."""
RECORDS_ATTRIBUTE = "GAMES"
"""Name of the module-level tuple of GameRecords of a package that holds several games, in its `__init__.py`."""
REGISTER_ON_REQUEST = "register_games"
"""Name of the function a package that registers its games only when asked defines ("package:id" calls it)."""
ENV_NAMESPACE = "tabletop"
"""Namespace of every Gymnasium and PettingZoo id the suite registers (`tabletop/Name-v0`)."""

SettingValue = str | int | float | bool
"""A value of an env keyword argument that a setting sweeps (plain, YAML- and JSON-able)."""


class UnknownGameError(ValueError):
    """A game name (or env id) that no registered game record declares; the message lists the known games."""


@dataclass(frozen=True)
class GymEnvRecord:
    """One Gymnasium id of a game: the id, its "module:function" entry point and the truncation bound."""

    id: str
    entry_point: str
    max_episode_steps: int | None = None


@dataclass(frozen=True)
class GameRecord:
    """Everything generic code needs to know about a game, declared once in the game's `__init__.py`.

    `name` must equal the rules core's `GameSpec.name` (agents find the record of the game behind an env by it).
    `settings` maps an env keyword argument to the values evaluation and benchmarks sweep. `outcome_facts` are the
    keys of the info dict of a finished episode besides `won` and `score` (summaries count each fact's values);
    `headline_fact`, one of them, is the categorical fact results tables show. `game` names the rules-core Game
    class (or factory) as "module:attribute"; it is called with the game's keyword arguments (the env kwargs
    minus the adapter's), which is how the opponent env, tournaments and replays build a multi-player game.
    """

    name: str
    description: str
    game: str | None = None
    gym_envs: tuple[GymEnvRecord, ...] = ()
    pettingzoo_modules: tuple[str, ...] = ()
    heuristic: str | None = None
    evaluation: str | None = None
    """The game's position evaluation as "module:function", called `evaluate(state, seat) -> float` (higher is better
    for `seat`, from what `seat` may see); the lookahead agent (agents/players/lookahead.py) scores positions by it."""
    settings: Mapping[str, tuple[SettingValue, ...]] = field(default_factory=dict, hash=False)
    main_setting: str | None = None
    """The setting whose every value a balance table sweeps by default (`balance_sweep`), the others left at the
    game's defaults; None: the first of `settings`."""
    outcome_facts: tuple[str, ...] = ()
    headline_fact: str | None = None
    picture: str | None = None
    """The game's picture as "module:function", called `draw(state) -> HxWx3 uint8 array` (the public view): what the
    envs' `rgb_array` mode, the viewer and the docs' game pages draw with; None for a game without a picture."""
    former_names: tuple[str, ...] = ()
    """Names the game was registered under before (old replays and runs name it so): `game_record` finds the game by
    one while no game holds that name now, and a replay whose env id is this game's may name it."""
    same_spaces_at_every_player_count: bool = False
    """The game's promise that its observation and action spaces are the same at every value of its `num_players`
    setting (a model trained at one player count plays at another); the generic checkers hold it to that."""

    def __post_init__(self) -> None:
        if not self.gym_envs and not self.pettingzoo_modules:
            raise ValueError(f"game record {self.name!r} declares neither a Gymnasium env nor a PettingZoo module")
        if self.headline_fact is not None and self.headline_fact not in self.outcome_facts:
            raise ValueError(
                f"game record {self.name!r}: headline_fact {self.headline_fact!r} is not one of its outcome_facts "
                f"{list(self.outcome_facts)}"
            )
        targets = [env.entry_point for env in self.gym_envs]
        targets += [
            target for target in (self.heuristic, self.evaluation, self.game, self.picture) if target is not None
        ]
        for target in targets:
            if ":" not in target:
                raise ValueError(f"game record {self.name!r}: {target!r} is not of the form 'module:attribute'")
        for key, values in self.settings.items():
            if not values:
                raise ValueError(f"game record {self.name!r}: setting {key!r} lists no values")
        if self.main_setting is not None and self.main_setting not in self.settings:
            raise ValueError(
                f"game record {self.name!r}: main_setting {self.main_setting!r} is not one of its settings "
                f"{list(self.settings)}"
            )
        if self.same_spaces_at_every_player_count and len(self.settings.get("num_players", ())) < 2:
            raise ValueError(
                f"game record {self.name!r}: same_spaces_at_every_player_count promises equal spaces across player "
                "counts, but its settings list fewer than two values of num_players"
            )
        # A read-only copy: the record is shared by every consumer of the registry.
        object.__setattr__(self, "settings", MappingProxyType({key: tuple(v) for key, v in self.settings.items()}))

    @property
    def balance_sweep(self) -> dict[str, tuple[SettingValue, ...]]:
        """What a balance table sweeps unless its caller names a sweep: every value of the main setting, the other
        settings at the game's defaults (`{}` for a record without settings)."""
        main = self.main_setting or next(iter(self.settings), None)
        return {} if main is None else {main: self.settings[main]}

    def setting_combinations(self) -> list[dict[str, SettingValue]]:
        """Every combination of the values of every setting, as game keyword arguments (`[{}]`, the game's defaults,
        for a record without settings): what the checks that cover every setting (state fuzz, reloads) run."""
        keys = list(self.settings)
        return [dict(zip(keys, values, strict=True)) for values in itertools.product(*self.settings.values())]

    @property
    def package(self) -> str | None:
        """The package that holds the game's rules core (`envs.<game>`): the module of `game` less its last part;
        a package's documents (RULES.md, CONTENT.md) belong to every game it declares. None without a `game`."""
        if self.game is None:
            return None
        return self.game.partition(":")[0].rpartition(".")[0] or None

    @property
    def primary_env_id(self) -> str | None:
        """The first Gymnasium id of the game (the one `envs.GAMES` lists), or None for a PettingZoo-only game."""
        return self.gym_envs[0].id if self.gym_envs else None

    @property
    def gym_env_ids(self) -> tuple[str, ...]:
        """Every Gymnasium id of the game."""
        return tuple(env.id for env in self.gym_envs)

    @property
    def pettingzoo_ids(self) -> tuple[str, ...]:
        """PettingZoo registry ids of the game's modules: `tabletop/<module name>` (e.g. tabletop/unearth_v0)."""
        return tuple(f"{ENV_NAMESPACE}/{module.rpartition('.')[2]}" for module in self.pettingzoo_modules)


def load_attribute(target: str) -> Any:
    """Import "module:attribute" and return the attribute (an entry point, a heuristic agent class or factory)."""
    module_name, separator, attribute = target.partition(":")
    if not separator or not module_name or not attribute:
        raise ValueError(f"{target!r} is not of the form 'module:attribute'")
    module = importlib.import_module(module_name)
    try:
        return getattr(module, attribute)
    except AttributeError:
        raise ImportError(f"module {module_name!r} has no attribute {attribute!r} (named by {target!r})") from None


def package_records(module: ModuleType) -> tuple[GameRecord, ...]:
    """The game records a package declares: its `GAME`, then each of its `GAMES`; TypeError names a declaration that
    is not a GameRecord (or a tuple of them), ValueError a name declared twice in the package."""
    records: list[GameRecord] = []
    single = getattr(module, RECORD_ATTRIBUTE, None)
    if single is not None:
        if not isinstance(single, GameRecord):
            raise TypeError(f"{module.__name__}.{RECORD_ATTRIBUTE} is a {type(single).__name__}, not a GameRecord")
        records.append(single)
    several = getattr(module, RECORDS_ATTRIBUTE, None)
    if several is not None:
        if not isinstance(several, tuple | list):
            raise TypeError(
                f"{module.__name__}.{RECORDS_ATTRIBUTE} is a {type(several).__name__}, not a tuple of GameRecords"
            )
        for index, record in enumerate(several):
            if not isinstance(record, GameRecord):
                raise TypeError(
                    f"{module.__name__}.{RECORDS_ATTRIBUTE}[{index}] is a {type(record).__name__}, not a GameRecord"
                )
            if record not in records:  # `GAME` may also stand in `GAMES`
                records.append(record)
    names = [record.name for record in records]
    for name in names:
        if names.count(name) > 1:
            raise ValueError(f"{module.__name__} declares two game records named {name!r}")
    return tuple(records)


@functools.cache
def _discover() -> MappingProxyType[str, GameRecord]:
    """Import every subpackage of `envs` and keep the records they declare (cached: imports happen once)."""
    package = importlib.import_module(GAMES_PACKAGE)  # during `import envs` this is the partly initialised package
    records: dict[str, GameRecord] = {}
    declared_by: dict[str, str] = {}
    for module_info in pkgutil.iter_modules(package.__path__):
        if not module_info.ispkg:
            continue
        module = importlib.import_module(f"{GAMES_PACKAGE}.{module_info.name}")
        for record in package_records(module):
            if record.name in records:
                raise ValueError(
                    f"{declared_by[record.name]} and {module.__name__} both declare the game name {record.name!r}"
                )
            records[record.name] = record
            declared_by[record.name] = module.__name__
    return MappingProxyType(dict(sorted(records.items())))


_REGISTERED_ELSEWHERE: dict[str, GameRecord] = {}
"""Records registered by `register_game` (games outside `envs/`), by name."""


def register_game(record: GameRecord) -> GameRecord:
    """Register a game that lives outside `envs/` and its Gymnasium and PettingZoo ids; returns the record.

    Registering the same record again does nothing; another record under a taken name is refused.
    """
    taken = _discover().get(record.name) or _REGISTERED_ELSEWHERE.get(record.name)
    if taken is not None and taken != record:
        raise ValueError(f"the game name {record.name!r} is already registered by another record")
    _REGISTERED_ELSEWHERE[record.name] = record
    envs_package = importlib.import_module(GAMES_PACKAGE)
    envs_package.register_gym_envs(record)
    envs_package.register_pettingzoo_envs(record)
    return record


def register_package(module: ModuleType) -> tuple[GameRecord, ...]:
    """Register every record a package outside `envs/` declares (`GAME`, `GAMES`), as `register_game` does each."""
    return tuple(register_game(record) for record in package_records(module))


def discovered_games() -> dict[str, GameRecord]:
    """The game records of the packages under `envs/`, by game name (sorted); discovered once per process."""
    return dict(_discover())


def registered_games() -> dict[str, GameRecord]:
    """Every game record: those under `envs/` and those registered with `register_game`, by name (sorted)."""
    return dict(sorted({**_discover(), **_REGISTERED_ELSEWHERE}.items()))


def resolve_env_id(env_id: str) -> str:
    """The id part of "package:id" after importing the package (which registers its games, or, when it defines
    `register_games()`, registers them when that is called); other ids as given."""
    module_name, separator, rest = env_id.partition(":")
    if not separator:
        return env_id
    if not module_name or not rest:
        raise UnknownGameError(f"{env_id!r} is not of the form 'package:id'")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise UnknownGameError(f"cannot import {module_name!r}, named by the env id {env_id!r}: {error}") from None
    register_on_request = getattr(module, REGISTER_ON_REQUEST, None)
    if callable(register_on_request):
        register_on_request()
    return rest


def game_record(name: str) -> GameRecord:
    """The record of the game called `name`, or once called so (`GameRecord.former_names`) when no game holds the
    name now; UnknownGameError lists the known games otherwise."""
    records = registered_games()
    record = records.get(name)
    if record is None:
        record = next((known for known in records.values() if name in known.former_names), None)
    if record is None:
        raise UnknownGameError(f"unknown game {name!r}; known games: {', '.join(records) or '(none)'}")
    return record


def make_game(record: GameRecord, game_kwargs: Mapping[str, Any]) -> Any:
    """The rules-core Game of `record` built with `game_kwargs` (TypeError/ValueError from the game propagate)."""
    if record.game is None:
        raise UnknownGameError(f"game record {record.name!r} names no rules-core game class (its `game` field)")
    return load_attribute(record.game)(**game_kwargs)


def make_env_game(env_id: str, game_kwargs: Mapping[str, Any]) -> Any:
    """The rules-core Game that env id `env_id` plays with `game_kwargs`, as the id's own entry point builds it.

    The id decides, not the record's `game`: one record may declare a solo Gymnasium id and a co-operative
    PettingZoo module over the same rules, and the same keyword arguments then mean one seat to the first and
    several to the second. A Gymnasium id is built by its entry point, a PettingZoo id by its module's `raw_env`
    (else `env`); the env is closed once its game is read. UnknownGameError for an id no record declares or an env
    without a rules-core game; the game's TypeError or ValueError on bad keyword arguments propagate.
    """
    resolved = resolve_env_id(env_id)
    record = game_record_of_env_id(resolved)
    factory: Any
    if resolved in record.gym_env_ids:
        factory = load_attribute(record.gym_envs[record.gym_env_ids.index(resolved)].entry_point)
    else:
        module = importlib.import_module(record.pettingzoo_modules[record.pettingzoo_ids.index(resolved)])
        factory = getattr(module, "raw_env", None) or module.env
    env = factory(**game_kwargs)
    try:
        game = getattr(getattr(env, "unwrapped", env), "game", None)
    finally:
        env.close()
    if game is None:
        raise UnknownGameError(f"{env_id} builds an env without a rules-core game (no `game` attribute)")
    return game


def game_record_of_env_id(env_id: str) -> GameRecord:
    """The record of the game that declares Gymnasium id or PettingZoo module id `env_id` ("package:id" too)."""
    env_id = resolve_env_id(env_id)
    records = registered_games().values()
    for record in records:
        if env_id in record.gym_env_ids or env_id in record.pettingzoo_ids:
            return record
    known = [env for record in records for env in (*record.gym_env_ids, *record.pettingzoo_ids)]
    raise UnknownGameError(f"no game declares the env id {env_id!r}; declared ids: {', '.join(known) or '(none)'}")
