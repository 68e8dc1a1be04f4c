"""Building tabletop envs from configs: id checks, a fail-fast probe, and per-episode outcome statistics."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import gymnasium as gym
import numpy as np

from agents.config import ConfigError, EnvConfig, OpponentsConfig
from envs.core.registration import registered_games


def tabletop_env_ids() -> list[str]:
    """Every Gymnasium id the games' registration records declare (importing envs registers them)."""
    import envs  # noqa: F401 - registers the ids

    return sorted(env_id for record in registered_games().values() for env_id in record.gym_env_ids)


def make_env(env_id: str, kwargs: dict[str, Any], render_mode: str | None = None) -> gym.Env:
    """gymnasium.make for a tabletop id (importing envs first, so it also works in fresh subprocesses)."""
    import envs  # noqa: F401 - registers the ids

    if render_mode is not None:
        return gym.make(env_id, render_mode=render_mode, **kwargs)
    return gym.make(env_id, **kwargs)


@dataclass(frozen=True)
class EnvFacts:
    """What a probe of the configured env found out: its game's name and number of players."""

    game_name: str
    num_players: int
    observation_space: gym.Space
    action_space: gym.Space


def probe_env(env_config: EnvConfig, source: str, opponents: OpponentsConfig | None = None) -> EnvFacts:
    """Build the configured env once and check id, kwargs and opponents; raises ConfigError naming the key."""
    known = tabletop_env_ids()
    if env_config.id not in gym.registry:
        raise ConfigError(source, "env.id", f"unknown env id {env_config.id!r} (registered: {', '.join(known)})")
    try:
        env = make_env(env_config.id, env_config.kwargs)
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
