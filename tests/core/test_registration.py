"""Game records: discovery under envs/, registration of their ids, and that each record agrees with its game."""

from __future__ import annotations

import re
import subprocess
import sys
import types
import warnings
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

import envs
from envs.core.registration import (
    GameRecord,
    GymEnvRecord,
    UnknownGameError,
    discovered_games,
    game_record,
    game_record_of_env_id,
    load_attribute,
    make_game,
    package_records,
    register_game,
    registered_games,
)

REPO_ROOT = Path(__file__).resolve().parents[2]
RECORDS = sorted(registered_games().values(), key=lambda record: record.name)
GYM_ENVS = [(record, env) for record in RECORDS for env in record.gym_envs]


def test_discovery_finds_every_game_package_and_only_those() -> None:
    games = discovered_games()
    assert "unbroken" in games
    assert games["unbroken"].primary_env_id == "tabletop/Unbroken-v0"
    # core/ and adapters/ are packages without a GAME record.
    assert not {"core", "adapters"} & set(games)
    game_folders = {path.parent.name for path in (REPO_ROOT / "envs").glob("*/__init__.py")}
    declaring = {
        name
        for name in game_folders
        if re.search(r"^GAMES? = ", (REPO_ROOT / "envs" / name / "__init__.py").read_text(), re.MULTILINE)
    }
    assert {record.package for record in games.values()} == {f"envs.{name}" for name in declaring}


def test_registered_games_returns_a_fresh_mapping() -> None:
    games = registered_games()
    games.clear()
    assert "unbroken" in registered_games()


@pytest.mark.parametrize(("record", "env"), GYM_ENVS, ids=[env.id for _, env in GYM_ENVS])
def test_gym_ids_are_registered_with_the_records_values(record: GameRecord, env: GymEnvRecord) -> None:
    spec = gym.registry[env.id]
    assert spec.entry_point == env.entry_point
    assert spec.max_episode_steps == env.max_episode_steps
    # GAMES lists the games under envs/ (found at `import envs`); a toy registered later is not among them.
    assert envs.GAMES.get(record.name) == (record.primary_env_id if record.name in discovered_games() else None)
    assert game_record_of_env_id(env.id) is record


def test_unknown_game_error_lists_the_known_games() -> None:
    with pytest.raises(UnknownGameError) as caught:
        game_record("monopoly")
    message = str(caught.value)
    assert "unknown game 'monopoly'" in message
    for name in registered_games():
        assert name in message
    with pytest.raises(UnknownGameError, match="tabletop/Unbroken-v0"):
        game_record_of_env_id("tabletop/Monopoly-v0")


def test_importing_envs_does_not_load_any_game_rules() -> None:
    """Registration reads the records only: a game's modules load when an env is made, not on `import envs`."""
    code = (
        "import sys, envs; "
        "print(sorted(m for m in sys.modules if m.startswith('envs.') and m.count('.') > 1 "
        "and not m.startswith('envs.core.')))"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


@pytest.mark.parametrize(("record", "env"), GYM_ENVS, ids=[env.id for _, env in GYM_ENVS])
def test_record_agrees_with_the_game(record: GameRecord, env: GymEnvRecord) -> None:
    """Name, episode bound, every setting value, outcome facts and heuristic, checked against the real game."""
    made = gym.make(env.id)
    game = made.unwrapped.game
    assert game.spec.name == record.name
    assert env.max_episode_steps == game.spec.max_game_length
    for key, values in record.settings.items():
        for value in values:
            gym.make(env.id, **{key: value}).close()
        with pytest.raises((ValueError, TypeError)):
            gym.make(env.id, **{key: "no such value"})
    rng = np.random.default_rng(0)
    observation, info = made.reset(seed=0)
    terminated = truncated = False
    while not (terminated or truncated):
        legal = np.flatnonzero(observation["action_mask"])
        observation, _, terminated, truncated, info = made.step(int(legal[rng.integers(len(legal))]))
    assert terminated
    assert {"won", "score", *record.outcome_facts} <= set(info)
    if record.heuristic is not None:
        agent = load_attribute(record.heuristic)(game)
        assert callable(agent.act)


def test_record_rejects_inconsistent_declarations() -> None:
    env = GymEnvRecord("tabletop/X-v0", "x.env:make_env")
    with pytest.raises(ValueError, match="headline_fact 'rank' is not one of its outcome_facts"):
        GameRecord("x", "x", gym_envs=(env,), outcome_facts=("title",), headline_fact="rank")
    with pytest.raises(ValueError, match="neither a Gymnasium env nor a PettingZoo module"):
        GameRecord("x", "x")
    with pytest.raises(ValueError, match="not of the form 'module:attribute'"):
        GameRecord("x", "x", gym_envs=(env,), heuristic="agents.heuristics.x.Agent")
    with pytest.raises(ValueError, match="'agents.heuristics.x.evaluate' is not of the form 'module:attribute'"):
        GameRecord("x", "x", gym_envs=(env,), evaluation="agents.heuristics.x.evaluate")
    with pytest.raises(ValueError, match="setting 'level' lists no values"):
        GameRecord("x", "x", gym_envs=(env,), settings={"level": ()})
    record = GameRecord("x", "x", gym_envs=(env,), settings={"level": ("a", "b")})
    with pytest.raises(TypeError):
        record.settings["level"] = ("c",)  # type: ignore[index]


def test_a_package_may_declare_several_records() -> None:
    """Issue 33: "A game package may declare several records (`GAMES = (...)` beside or instead of `GAME`)"; each is
    found, in order, once; a declaration of the wrong type or a name given twice is refused naming it."""
    env = (GymEnvRecord("t/A-v0", "p.env:make_a"),)
    board = GameRecord("board", "the board game", game="p.rules:BoardGame", gym_envs=env)
    combat = GameRecord("board_combat", "its combat", game="p.combat:CombatGame", gym_envs=env)
    package = types.ModuleType("p")
    assert package_records(package) == ()
    package.GAMES = (board, combat)  # type: ignore[attr-defined]
    assert package_records(package) == (board, combat)
    package.GAME = board  # type: ignore[attr-defined]  # GAME may stand in GAMES as well
    assert package_records(package) == (board, combat)
    assert board.package == combat.package == "p"
    package.GAMES = (combat, "board")  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match=r"p.GAMES\[1\] is a str, not a GameRecord"):
        package_records(package)
    package.GAMES = combat  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="p.GAMES is a GameRecord, not a tuple of GameRecords"):
        package_records(package)
    package.GAMES = (GameRecord("board", "another", gym_envs=env),)  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="p declares two game records named 'board'"):
        package_records(package)


def test_a_record_declares_its_balance_sweep() -> None:
    """Issue 33: "Balance sweeps declared per record (the main axis in full, the others at their default) instead of
    every combination of settings"; every combination stays available to the checks that cover every setting."""
    env = (GymEnvRecord("t/X-v0", "x:make"),)
    record = GameRecord("x", "x", gym_envs=env, settings={"a": (1, 2), "b": ("p", "q", "r")}, main_setting="b")
    assert record.balance_sweep == {"b": ("p", "q", "r")}
    assert len(record.setting_combinations()) == 6 and {"a": 2, "b": "q"} in record.setting_combinations()
    first = GameRecord("x", "x", gym_envs=env, settings={"a": (1, 2), "b": ("p",)})
    assert first.balance_sweep == {"a": (1, 2)}  # without a main setting: the first one
    bare = GameRecord("x", "x", gym_envs=env)
    assert bare.balance_sweep == {} and bare.setting_combinations() == [{}]
    with pytest.raises(ValueError, match="main_setting 'c' is not one of its settings"):
        GameRecord("x", "x", gym_envs=env, settings={"a": (1, 2)}, main_setting="c")
    for game in discovered_games().values():  # each game names its main axis
        assert game.main_setting in game.settings, game.name


def test_a_record_names_its_picture() -> None:
    """Issue 33: "A record names its picture function": every game with a picture names it, as module:function."""
    for record in discovered_games().values():
        assert record.picture is not None, f"{record.name} names no picture"
        draw = load_attribute(record.picture)
        state = make_game(record, {}).new_initial_state()
        picture = draw(state)
        assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3
    with pytest.raises(ValueError, match="not of the form 'module:attribute'"):
        GameRecord("x", "x", gym_envs=(GymEnvRecord("t/X-v0", "x:make"),), picture="x.render.render_rgb")


def test_pettingzoo_modules_register_in_pettingzoo_registry() -> None:
    pettingzoo = pytest.importorskip("pettingzoo")
    if not hasattr(pettingzoo, "register"):
        pytest.skip("this PettingZoo has no registry")
    module = "pettingzoo.classic.tictactoe.tictactoe"  # a stand-in for a game's `<game>_v0` module
    record = GameRecord("fake", "a stand-in multi-player game", pettingzoo_modules=(module,))
    assert record.pettingzoo_ids == ("tabletop/tictactoe",)
    assert record.primary_env_id is None
    try:
        assert envs.register_pettingzoo_envs(record)
        assert pettingzoo.aec_registry["tabletop/tictactoe"].entry_point == f"{module}:env"
        env = pettingzoo.make("aec", "tabletop/tictactoe")
        env.reset(seed=0)
        assert env.agents == ["player_1", "player_2"]
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a second registration is skipped, not an override warning
            envs.register_pettingzoo_envs(record)
    finally:
        pettingzoo.aec_registry.pop("tabletop/tictactoe", None)
    assert not envs.register_pettingzoo_envs(GameRecord("solo", "solo", gym_envs=(GymEnvRecord("t/S-v0", "s:f"),)))


def test_games_outside_envs_register_through_the_same_record() -> None:
    """The toys register with register_game: listed with the discovered games, ids in PettingZoo's registry."""
    from envs.toys import CARD_DUEL

    assert registered_games()["card_duel"] is CARD_DUEL
    assert "card_duel" not in discovered_games()
    assert game_record_of_env_id("tabletop/card_duel_v0") is CARD_DUEL
    assert register_game(CARD_DUEL) is CARD_DUEL  # registering again is harmless
    with pytest.raises(ValueError, match="already registered by another record"):
        register_game(GameRecord("card_duel", "an impostor", pettingzoo_modules=("envs.toys.card_duel_v0",)))
    game = make_game(CARD_DUEL, {"num_players": 3})
    assert game.spec.name == CARD_DUEL.name and game.spec.num_players == 3


def test_an_env_id_may_name_the_package_that_registers_it() -> None:
    """As gymnasium.make("module:id"): the package is imported first; an unknown package is a clear error."""
    code = (
        "from envs.core.registration import game_record_of_env_id as find; "
        "print(find('envs.toys:tabletop/card_duel_coop_v0').name)"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "card_duel_coop"
    with pytest.raises(UnknownGameError, match="cannot import 'no_such_package'"):
        game_record_of_env_id("no_such_package:tabletop/x_v0")


def test_the_shipped_toys_register_only_on_request() -> None:
    """`import envs` imports envs.toys while discovering but registers none of its toys; `register_games()` and an env
    id or benchmark spec naming the package register them (a fresh interpreter: the tests' conftest registers them)."""
    code = """
import envs, pettingzoo
from envs.core.registration import registered_games, resolve_env_id
import envs.toys
toys = {record.name for record in envs.toys.RECORDS}
ids = {f"tabletop/{name}-v0" for name in toys}
assert not toys & set(registered_games()) and not ids & set(pettingzoo.aec_registry), "registered at import"
print(resolve_env_id("envs.toys:card_duel"))
assert toys <= set(registered_games()) and ids <= set(pettingzoo.aec_registry), "not registered on request"
assert envs.toys.register_games() == envs.toys.RECORDS
"""
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "card_duel"


EVALUATED = [record for record in RECORDS if record.evaluation is not None]


@pytest.mark.parametrize("record", EVALUATED, ids=[record.name for record in EVALUATED])
def test_record_evaluation_scores_positions_of_the_game(record: GameRecord) -> None:
    """`evaluation` names a function evaluate(state, seat) -> float, defined at every decision and at the end."""
    assert record.evaluation is not None
    evaluate = load_attribute(record.evaluation)
    game = make_game(record, {})
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    values = set()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        values.add(evaluate(state, state.current_player()))
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    values.update(evaluate(state, seat) for seat in range(game.spec.num_players))
    assert all(isinstance(value, float) and np.isfinite(value) for value in values)
    assert len(values) > 1  # it tells positions apart


def test_both_games_declare_an_evaluation() -> None:
    """Unbroken and Unearth name their evaluations (agents/heuristics/*_evaluation.py) for the lookahead agent."""
    assert {record.name for record in EVALUATED} >= {"unbroken", "unearth"}


@pytest.mark.parametrize("record", RECORDS, ids=[record.name for record in RECORDS])
def test_record_game_class_builds_the_named_game(record: GameRecord) -> None:
    """`game` builds the rules core whose spec carries the record's name, with each setting value."""
    assert record.game is not None
    assert make_game(record, {}).spec.name == record.name
    for key, values in record.settings.items():
        for value in values:
            assert make_game(record, {key: value}).spec.name == record.name
