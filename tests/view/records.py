"""Replay records of random games for the viewer's tests: one seeded game per env id, written as evaluate.py would."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from envs.core.game import CHANCE
from envs.core.registration import make_env_game, registered_games
from envs.core.replays import build_record, write_record


def every_env_id() -> list[str]:
    """Every registered Gymnasium and PettingZoo id (the tests' toys too: tests/conftest.py registers them)."""
    return [env for record in registered_games().values() for env in (*record.gym_env_ids, *record.pettingzoo_ids)]


def file_name(env_id: str) -> str:
    """The record file of an env id's game in the test folder."""
    return env_id.replace("/", "_") + ".json"


def record_random_game(env_id: str, seed: int, folder: Path, labels: list[str] | None = None) -> Path:
    """Play one game of `env_id` with seeded random decisions and chance, and write its record into `folder`."""
    game = make_env_game(env_id, {})
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    history = []
    while not state.is_terminal():
        player = state.current_player()
        action = state.sample_chance(rng) if player == CHANCE else int(rng.choice(state.legal_actions()))
        history.append((player, action))
        state.apply_action(action)
    players = labels or ["random"] * game.spec.num_players
    record = build_record(game, history, state, env_id=env_id, game_kwargs={}, seed=seed, players=players)
    return write_record(record, folder / file_name(env_id))
