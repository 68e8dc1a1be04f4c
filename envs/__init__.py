"""tabletop-gym environments: importing this package registers every game's Gymnasium (and PettingZoo) ids.

Each game package declares its `GAME` record in its `__init__.py` (envs/core/registration.py); this module finds
them all, so adding a game adds no line here.
"""

from __future__ import annotations

import importlib
import re

import gymnasium

from envs.core.registration import GameRecord, registered_games


def register_gym_envs(record: GameRecord) -> None:
    """Register the record's Gymnasium ids (ids already registered are left as they are)."""
    for env in record.gym_envs:
        if env.id in gymnasium.registry:
            continue
        gymnasium.register(
            id=env.id,
            entry_point=env.entry_point,
            max_episode_steps=env.max_episode_steps,
            # The envs raise on step-before-reset themselves and pass Gymnasium's full check_env in the tests,
            # so the passive checker and order-enforcing wrappers would only add layers to every step.
            disable_env_checker=True,
            order_enforce=False,
        )


_PETTINGZOO_VERSION_SUFFIX = re.compile(r"_v(?=\d+$)")
"""PettingZoo keys its registry by `name-v0` for an id given as `name_v0`."""


def register_pettingzoo_envs(record: GameRecord) -> bool:
    """Register the record's PettingZoo modules as AEC envs (`env()` of each) where PettingZoo has a registry.

    Returns whether they were registered: PettingZoo releases before its registry (1.27) are skipped quietly, and
    pettingzoo is imported only for games that have PettingZoo modules.
    """
    if not record.pettingzoo_modules:
        return False
    pettingzoo = importlib.import_module("pettingzoo")
    register = getattr(pettingzoo, "register", None)
    registry = getattr(pettingzoo, "aec_registry", None)
    if register is None or registry is None:
        return False
    for module, env_id in zip(record.pettingzoo_modules, record.pettingzoo_ids, strict=True):
        if _PETTINGZOO_VERSION_SUFFIX.sub("-v", env_id) not in registry:
            register("aec", env_id, entry_point=f"{module}:env")
    return True


def _register_all() -> dict[str, str]:
    """Register every game's ids; returns game name -> primary Gymnasium id."""
    primary_ids = {}
    for name, record in registered_games().items():
        register_gym_envs(record)
        register_pettingzoo_envs(record)
        if record.primary_env_id is not None:
            primary_ids[name] = record.primary_env_id
    return primary_ids


GAMES = _register_all()
"""Game name -> primary Gymnasium id (a convenience derived from the records; PettingZoo-only games are absent)."""

__all__ = ["GAMES", "register_gym_envs", "register_pettingzoo_envs"]
