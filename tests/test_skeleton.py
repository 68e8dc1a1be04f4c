"""Every game package has the one skeleton of docs/development.md ("Adding a game"); its RULES.md names real
functions.

The skeleton: one module per role, with the same name in every game, so a reader (or a new game) finds each part in
the same place. Roles whose words are the game's own (its rule queries, its text) may be spread over modules the
game names; the roles below are not.
"""

from __future__ import annotations

import ast
import dataclasses
import re
import sys
from pathlib import Path

import pytest

from envs.core.registration import GameRecord, discovered_games, make_game, registered_games

ENVS = Path(__file__).resolve().parent.parent / "envs"
CORE = ENVS / "core"

SKELETON = {
    "__init__.py": "the registration record (`GAME`)",
    "state.py": "the state declared once (envs.core.record)",
    "rules.py": "every transition, one method per rule",
    "validation.py": "which positions can happen (state_from_dict refuses the others)",
    "actions.py": "the fixed action space and its labels",
    "observer.py": "the observation tensor and the text view",
    "render.py": "the rgb_array picture",
    "cards.py": "the content schema (records validated by pydantic)",
    "game.py": "configuration and settings; observer factory",
    "env.py": "the Gymnasium entry point",
    "RULES.md": "every rule, where it lives, and every reading of an ambiguity",
    "CONTENT.md": "where each piece of content comes from",
    "data": "the content as YAML",
}
"""Module (or folder) -> its role: the table of docs/development.md."""

GAME_PACKAGES = sorted({record.package.split(".")[1] for record in discovered_games().values() if record.package})
"""The game packages under envs/ (each registration record's rules-core module names its package)."""
TWO_GAME_TOY = "tests.toys.ridge"
"""A toy package with two games (tests/toys/ridge/): the rules-module check runs on it too."""

NAMED_FUNCTION = re.compile(r"`(_[a-z][a-z0-9_]*|[a-z][a-z0-9_]*\(\))`")
"""How RULES.md names a function: `_private_method` or `public_function()`."""


def defined_names(package: Path) -> set[str]:
    """Every function, method, class and module-level constant defined under `package`."""
    names: set[str] = set()
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names.update(target.id for target in targets if isinstance(target, ast.Name))
    return names


def test_the_game_packages_are_found() -> None:
    """The skeleton check covers at least the two games that exist (a scan that finds none would prove nothing)."""
    assert {"unbroken", "unearth"} <= set(GAME_PACKAGES)


@pytest.mark.parametrize("game", GAME_PACKAGES)
def test_every_game_package_has_the_skeleton(game: str) -> None:
    """docs/development.md, "Adding a game": every game has each module of the skeleton, under its name."""
    missing = [name for name in SKELETON if not (ENVS / game / name).exists()]
    assert not missing, f"envs/{game} lacks {missing} ({[SKELETON[name] for name in missing]})"


@pytest.mark.parametrize("game", GAME_PACKAGES)
def test_every_function_rules_md_names_exists(game: str) -> None:
    """RULES.md maps each rule to the function that implements it; every function it names is defined in the game's
    package or in envs/core (a renamed function must be renamed there too)."""
    text = (ENVS / game / "RULES.md").read_text()
    named = {match.removesuffix("()") for match in NAMED_FUNCTION.findall(text)}
    assert named, f"envs/{game}/RULES.md names no function"
    unknown = sorted(named - defined_names(ENVS / game) - defined_names(CORE))
    assert not unknown, f"envs/{game}/RULES.md names functions that do not exist: {unknown}"


@pytest.mark.parametrize("game", GAME_PACKAGES)
def test_every_module_path_rules_md_names_exists(game: str) -> None:
    """A section headed with a module path, such as "The engine (envs/unearth/rules.py)", points at a real file."""
    text = (ENVS / game / "RULES.md").read_text()
    paths = set(re.findall(r"envs/[a-z_/]+\.py", text))
    missing = sorted(path for path in paths if not (ENVS.parent / path).exists())
    assert not missing, f"envs/{game}/RULES.md names files that do not exist: {missing}"


def records_of(package: str) -> list[GameRecord]:
    """The registered games whose rules core lives in `package` ("envs.runebound")."""
    return [record for record in registered_games().values() if record.package == package]


def rules_module_problems(package: str, folder: Path) -> list[str]:
    """What is wrong with where a package's games keep their rules: each game's state class (the rules) lives in a
    module of the package, `rules.py` or another that RULES.md names; a package with several games gives each its own
    module (e.g. `rules.py` for the board game, `combat.py` for its combat)."""
    records = records_of(package)
    modules = {}
    for record in records:
        state_module = type(make_game(record, {}).new_initial_state()).__module__
        owner, _, name = state_module.rpartition(".")
        if owner != package:
            return [f"{record.name}: its state class lives in {state_module}, outside {package}"]
        modules[record.name] = name
    problems = []
    taken = list(modules.values())
    rules_md = (folder / "RULES.md").read_text()
    for game, name in modules.items():
        if taken.count(name) > 1:
            problems.append(f"{game}: shares {name}.py with another game")
        if name != "rules" and f"{name}.py" not in rules_md:
            problems.append(f"{game}: RULES.md does not name {name}.py")
    return problems


@pytest.mark.parametrize("package", [*(f"envs.{game}" for game in GAME_PACKAGES), TWO_GAME_TOY])
def test_each_game_of_a_package_keeps_its_rules_in_its_own_module(package: str) -> None:
    """Issue 33: "The skeleton test accepts a package with two games (e.g. `rules.py` for the board and `combat.py`
    for the combat, each named in RULES.md's rule table)"; a package of one game keeps its rules in rules.py."""
    folder = ENVS.parent.joinpath(*package.split("."))
    assert records_of(package), f"no registered game lives in {package}"
    assert not rules_module_problems(package, folder)


def test_the_rules_module_check_refuses_two_games_on_one_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two games of one package must not share a rules module, and RULES.md must name each module but rules.py: shown
    on the two-game toy with its RULES.md rewritten (in a copy) to name only one of its modules, then with a second
    game on the ridge's rules module."""
    folder = ENVS.parent / "tests" / "toys" / "ridge"
    (tmp_path / "RULES.md").write_text((folder / "RULES.md").read_text().replace("`pitch.py`", "the pitch module"))
    assert rules_module_problems(TWO_GAME_TOY, tmp_path) == ["pitch: RULES.md does not name pitch.py"]
    ridge = registered_games()["ridge"]
    twin = dataclasses.replace(ridge, name="ridge_twin")
    monkeypatch.setattr(sys.modules[__name__], "records_of", lambda package: [ridge, twin])
    assert rules_module_problems(TWO_GAME_TOY, folder) == [
        "ridge: shares rules.py with another game",
        "ridge_twin: shares rules.py with another game",
    ]
