"""Building tabletop envs from configs: id checks, a fail-fast probe, and per-episode outcome statistics."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from agents.common.config import SNAPSHOT_AGENT, ConfigError, EnvConfig, ExperimentConfig, OpponentsConfig
from envs.adapters.driver import split_env_kwargs
from envs.core.registration import (
    UnknownGameError,
    game_record_of_env_id,
    make_env_game,
    registered_games,
    resolve_env_id,
)


def tabletop_env_ids() -> list[str]:
    """Every Gymnasium id the games' registration records declare (importing envs registers them)."""
    import envs  # noqa: F401 - registers the ids

    return sorted(env_id for record in registered_games().values() for env_id in record.gym_env_ids)


def solo_env_ids() -> list[str]:
    """The registered Gymnasium ids whose game has one seat with its default settings (a multi-player game's
    Gymnasium id is its opponent env); a game may have one beside a co-operative PettingZoo module."""
    import envs  # noqa: F401 - registers the ids

    env_ids = [env_id for record in registered_games().values() for env_id in record.gym_env_ids]
    return sorted(env_id for env_id in env_ids if is_solo_gym_env(env_id, {}))


def multi_player_env_ids() -> list[str]:
    """Every PettingZoo id of the registered games: what a config names to train on a multi-player game."""
    import envs  # noqa: F401 - registers the ids

    return sorted(env_id for record in registered_games().values() for env_id in record.pettingzoo_ids)


def is_solo_gym_env(env_id: str, kwargs: Mapping[str, Any]) -> bool:
    """Whether `env_id` with env kwargs `kwargs` is played as `gymnasium.make` builds it: a Gymnasium id whose game
    has one seat, or one no game record declares. A PettingZoo id, or the Gymnasium id of a game of two or more
    seats, is played through the opponent env instead (`make_opponent_env`).

    Decided by the id and the seats of the game it builds (`make_env_game`), not by what else the game's record
    declares: a solo Gymnasium id beside a co-operative PettingZoo module is solo. The game's TypeError or
    ValueError on bad keyword arguments propagate.
    """
    import envs  # noqa: F401 - registers the ids

    resolved = resolve_env_id(env_id)
    if resolved not in gym.registry:
        return False
    try:
        game_record_of_env_id(resolved)
    except UnknownGameError:
        return True  # a Gymnasium env of no tabletop game: gymnasium.make builds it, the probe says what it lacks
    return bool(make_env_game(resolved, split_env_kwargs(kwargs)[1]).spec.num_players == 1)


def make_env(
    env_id: str,
    kwargs: Mapping[str, Any],
    render_mode: str | None = None,
    opponents: OpponentsConfig | None = None,
    env_index: int = 0,
    snapshot_dir: Path | None = None,
    snapshot_stand_in: str = "random",
) -> gym.Env:
    """The single-agent env a learner trains on: gymnasium.make for a solo game's Gymnasium id, an OpponentEnv for
    a PettingZoo id or a multi-player game's Gymnasium id (its opponents from `opponents`): `is_solo_gym_env`.

    Ids may name the package that registers them ("package:id"); envs is imported first, so this also works in
    fresh subprocesses. `snapshot` opponents play the snapshots in `snapshot_dir` (agents.players.snapshots); without a
    directory (probing, imitation) the `snapshot_stand_in` agent takes their place.
    """
    import envs  # noqa: F401 - registers the ids

    resolved = resolve_env_id(env_id)
    # A multi-player game's Gymnasium id is its opponent env: built here so the config's opponents take part.
    if is_solo_gym_env(resolved, kwargs):
        if render_mode is not None:
            return gym.make(resolved, render_mode=render_mode, **kwargs)
        return gym.make(resolved, **kwargs)
    return make_opponent_env(
        resolved, kwargs, opponents or OpponentsConfig(), env_index, snapshot_dir, snapshot_stand_in, render_mode
    )


def observation_view_shapes(env_config: EnvConfig) -> dict[str, tuple[int, ...]]:
    """The named views of the configured env's observation, in layout order, as its game's observer declares them."""
    import envs  # noqa: F401 - registers the ids

    game = make_env_game(env_config.id, split_env_kwargs(env_config.kwargs)[1])
    return dict(game.observer(0).view_shapes)


def players_of(env_config: EnvConfig) -> int:
    """The number of players of the configured env's game (its seats present)."""
    import envs  # noqa: F401 - registers the ids
    from envs.adapters.driver import split_env_kwargs

    game = make_env_game(resolve_env_id(env_config.id), split_env_kwargs(env_config.kwargs)[1])
    return int(game.spec.num_players)


def observation_view_axes(env_config: EnvConfig) -> dict[str, tuple[str, ...]]:
    """The roles of the axes of each view of the configured env's observation (seat, entity, grid, feature), as its
    game's observer declares them (envs/core/observation.py)."""
    import envs  # noqa: F401 - registers the ids
    from envs.adapters.driver import split_env_kwargs
    from envs.core.observation import observer_view_axes

    game = make_env_game(resolve_env_id(env_config.id), split_env_kwargs(env_config.kwargs)[1])
    return observer_view_axes(game.observer(0))


def check_features_extractor(config: ExperimentConfig, source: str) -> None:
    """Raise ConfigError unless the policy's features extractor fits the env's views (seat_grids needs a per-seat
    grid, entities a table of entities)."""
    from agents.common.config import MaskablePPOHyperparameters
    from agents.common.extractors import entity_view_names, seat_view_names

    hyperparameters = config.algo.hyperparameters
    if not isinstance(hyperparameters, MaskablePPOHyperparameters):
        return
    extractor = hyperparameters.policy_kwargs.features_extractor
    if extractor == "flatten":
        return
    shapes, axes = observation_view_shapes(config.env), observation_view_axes(config.env)
    if extractor == "seat_grids" and not seat_view_names(shapes, axes):
        needed = "a per-seat grid view (the seat axis first, 3 or more dimensions)"
    elif extractor == "entities" and not entity_view_names(shapes, axes):
        needed = "an entity view (the entity axis first)"
    else:
        return
    views = ", ".join(f"{name} {shape} {axes[name]}" for name, shape in shapes.items())
    raise ConfigError(
        source,
        "algo.policy_kwargs.features_extractor",
        f"{extractor!r} needs {needed}; {config.env.id} has views {views}",
    )


def make_opponent_env(
    env_id: str,
    kwargs: Mapping[str, Any],
    opponents: OpponentsConfig,
    env_index: int = 0,
    snapshot_dir: Path | None = None,
    snapshot_stand_in: str = "random",
    render_mode: str | None = None,
) -> gym.Env:
    """An OpponentEnv over the game `env_id` builds (`make_env_game`): game kwargs to the game, the rest to the
    adapter."""
    from agents.players.registry import make_opponent_policies
    from agents.players.snapshots import SnapshotPool
    from envs.adapters.opponents import OpponentEnv

    adapter, game_kwargs = split_env_kwargs(kwargs)
    if render_mode is not None:
        adapter["render_mode"] = render_mode
    game = make_env_game(env_id, game_kwargs)
    flat = bool(adapter.get("flat", False))
    policies: list[Any] = []
    for entry in opponents.pool:
        if entry.agent == SNAPSHOT_AGENT and snapshot_dir is not None:
            policies.append(SnapshotPool(snapshot_dir, opponents.snapshots.max_kept, opponents.snapshots.latest_share))
        else:
            spec = snapshot_stand_in if entry.agent == SNAPSHOT_AGENT else entry.agent
            policies.extend(make_opponent_policies([spec], game, flat=flat))
    return OpponentEnv(
        game,
        policies,
        weights=[entry.weight for entry in opponents.pool],
        learner_seats=opponents.learner_seats,
        env_index=env_index,
        **adapter,
    )


@dataclass(frozen=True)
class EnvFacts:
    """What a probe of the configured env found out: its game's name and number of players."""

    game_name: str
    num_players: int
    observation_space: gym.Space
    action_space: gym.Space


def probe_env(env_config: EnvConfig, source: str, opponents: OpponentsConfig | None = None) -> EnvFacts:
    """Build the configured env once and check id, kwargs and opponents; raises ConfigError naming the key."""
    from agents.players.registry import AgentSpecError

    try:
        resolved = resolve_env_id(env_config.id)
        if resolved not in gym.registry:
            game_record_of_env_id(resolved)
    except UnknownGameError as error:
        known = ", ".join(tabletop_env_ids() + multi_player_env_ids())
        raise ConfigError(
            source, "env.id", f"unknown env id {env_config.id!r}: {error} (registered: {known})"
        ) from None
    try:
        solo = is_solo_gym_env(resolved, env_config.kwargs)
    except (TypeError, ValueError, KeyError) as error:
        raise ConfigError(source, "env.kwargs", f"{env_config.id} rejects these kwargs: {error}") from error
    if not solo:
        _check_opponents(env_config, source, opponents or OpponentsConfig())
    try:
        env = make_env(env_config.id, env_config.kwargs, opponents=opponents)
    except AgentSpecError as error:
        raise ConfigError(source, "opponents.pool", str(error)) from error
    except (TypeError, ValueError, KeyError) as error:
        raise ConfigError(source, "env.kwargs", f"{env_config.id} rejects these kwargs: {error}") from error
    try:
        game = getattr(env.unwrapped, "game", None)
        if game is None:
            raise ConfigError(source, "env.id", f"{env_config.id} is not a tabletop env (no rules-core game)")
        if not hasattr(env.unwrapped, "action_masks"):
            raise ConfigError(source, "env.id", f"{env_config.id} has no action_masks(); MaskablePPO needs it")
        facts = EnvFacts(game.spec.name, game.spec.num_players, env.observation_space, env.action_space)
    finally:
        env.close()
    if opponents is not None and opponents.pool and facts.num_players == 1:
        raise ConfigError(
            source,
            "opponents.pool",
            f"{env_config.id} is a solo game ({facts.game_name}, 1 player): it has no opponents, "
            "so leave opponents.pool empty",
        )
    return facts


def _check_opponents(env_config: EnvConfig, source: str, opponents: OpponentsConfig) -> None:
    """A game of two or more seats needs opponents unless the learner plays every seat; its seat must exist."""
    try:
        game = make_env_game(env_config.id, split_env_kwargs(env_config.kwargs)[1])
    except (TypeError, ValueError, KeyError) as error:
        raise ConfigError(source, "env.kwargs", f"{env_config.id} rejects these kwargs: {error}") from error
    num_players = game.spec.num_players
    if num_players > 1 and opponents.learner_seats != "all" and not opponents.pool:
        raise ConfigError(
            source,
            "opponents.pool",
            f"{env_config.id} is a multi-player game: list its opponents (e.g. [{{agent: random}}], or "
            "[{agent: snapshot}] for self-play), or set opponents.learner_seats: all",
        )
    if isinstance(opponents.learner_seats, int) and opponents.learner_seats >= num_players:
        raise ConfigError(
            source,
            "opponents.learner_seats",
            f"seat {opponents.learner_seats} does not exist: {game.spec.name} has seats 0..{num_players - 1}",
        )


class EpisodeOutcomeWrapper(gym.Wrapper):
    """Adds `info["episode_outcome"]` (return, length, won, score, mean legal actions) and `is_success` at the end.

    `is_success` lets sb3's EvalCallback log eval/success_rate, i.e. the win rate.
    """

    def __init__(self, env: gym.Env) -> None:
        super().__init__(env)
        self._return = 0.0
        self._length = 0
        self._legal_action_total = 0

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        """Reset the env and the running episode statistics."""
        observation, info = self.env.reset(**kwargs)
        self._return, self._length = 0.0, 0
        self._legal_action_total = self._legal_action_count(observation, info)
        return observation, info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Step and, at the episode's end, attach the outcome to info."""
        observation, reward, terminated, truncated, info = self.env.step(action)
        self._return += float(reward)
        self._length += 1
        if terminated or truncated:
            info = dict(info)
            won = bool(info.get("won", False))
            info["is_success"] = won
            info["episode_outcome"] = {
                "return": self._return,
                "length": self._length,
                "won": float(won),
                "score": float(info.get("score", np.nan)),
                "legal_actions": self._legal_action_total / max(self._length, 1),
            }
        else:
            self._legal_action_total += self._legal_action_count(observation, info)
        return observation, float(reward), terminated, truncated, info

    def _legal_action_count(self, observation: Any, info: dict[str, Any]) -> int:
        mask = info.get("action_mask")
        if mask is None:
            if isinstance(observation, dict) and "action_mask" in observation:
                mask = observation["action_mask"]
            else:
                mask = self.env.unwrapped.action_masks()  # type: ignore[attr-defined]
        return int(np.count_nonzero(mask))
