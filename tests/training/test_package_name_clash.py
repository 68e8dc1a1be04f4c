"""The suite installs the top-level packages `envs` and `agents`: what a user's own folder of those names does, and the
workarounds that work (the README's "A folder of your own named envs or agents").

Python puts the folder of the script it runs first on `sys.path` (for `python -c`, `-m` and the REPL, the current
folder), so a user's package named `envs` there is imported instead of the suite's, and no env id registers. Two
packages of one name cannot both be imported in one process: the workarounds keep the script's folder off the path
(`python -P` or `PYTHONSAFEPATH=1` from Python 3.11, `python -I` on every version), or nest the user's package under
a name of its own. Each claim runs in a fresh interpreter beside a user's folder.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ENV_ID = "tabletop/Unbroken-v0"
SCRIPT = """\
import sys
import gymnasium as gym
import envs
print("envs:", getattr(envs, "__file__", None) or list(envs.__path__))
gym.make(sys.argv[1])
print("made", sys.argv[1])
"""
"""A user's script beside their own `envs`: which `envs` it imports, and whether the suite's env id is made."""
SUITE_ENVS = str(Path(__file__).resolve().parents[2] / "envs")
"""Where the suite's envs package is (this checkout, installed editable or not)."""


def run(folder: Path, *arguments: str, cwd: Path | None = None, **environment: str) -> subprocess.CompletedProcess:
    """A fresh `python ARGUMENTS` in `cwd` (default: `folder`), with PYTHONSAFEPATH unset unless given."""
    variables = {key: value for key, value in os.environ.items() if key != "PYTHONSAFEPATH"}
    variables.update(environment)
    return subprocess.run(
        [sys.executable, *arguments],
        cwd=cwd or folder,
        env=variables,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def user_project(tmp_path: Path, plain_folder: bool = False) -> Path:
    """A user's folder holding their own `envs` (a package, or a plain folder of files) and the script."""
    project = tmp_path / "project"
    (project / "envs").mkdir(parents=True)
    if plain_folder:
        (project / "envs" / "notes.txt").write_text("not Python\n")
    else:
        (project / "envs" / "__init__.py").write_text("MINE = True\n")
    (project / "script.py").write_text(SCRIPT)
    return project


def shadowed(result: subprocess.CompletedProcess, project: Path) -> bool:
    """Whether the script imported the user's `envs` and failed to make the suite's env id."""
    mine = f"envs: {project / 'envs'}" in result.stdout or str(project / "envs") in result.stdout
    return mine and result.returncode != 0 and "Namespace tabletop not found" in result.stderr


WORKAROUNDS = [(["-I"], {})] + ([(["-P"], {}), ([], {"PYTHONSAFEPATH": "1"})] if sys.version_info >= (3, 11) else [])
"""Ways to keep the script's folder off sys.path: -I on every version; -P and PYTHONSAFEPATH=1 from Python 3.11."""


@pytest.mark.slow
def test_a_users_envs_package_beside_the_script_shadows_the_suites(tmp_path: Path) -> None:
    """`python script.py` beside a package named `envs` imports that one: the id is unknown ("Namespace tabletop not
    found"), `gym.make("envs:tabletop/...")` fails the same way (it imports the same `envs`), and so does running
    the script from another folder (the script's folder is on the path wherever it runs from)."""
    project = user_project(tmp_path)
    assert shadowed(run(project, "script.py", ENV_ID), project)
    assert shadowed(run(project, "script.py", f"envs:{ENV_ID}"), project)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert shadowed(run(project, str(project / "script.py"), ENV_ID, cwd=elsewhere), project)


@pytest.mark.slow
@pytest.mark.parametrize(("flags", "environment"), WORKAROUNDS, ids=lambda value: str(value))
def test_keeping_the_scripts_folder_off_the_path_imports_the_suites_envs(
    tmp_path: Path, flags: list[str], environment: dict[str, str]
) -> None:
    """`python -I script.py`, `python -P script.py` and `PYTHONSAFEPATH=1 python script.py` import the suite's
    `envs` and make the env (the user's package is then not importable by that name in that process)."""
    project = user_project(tmp_path)
    result = run(project, *flags, "script.py", ENV_ID, **environment)
    assert result.returncode == 0, result.stderr
    assert f"envs: {SUITE_ENVS}" in result.stdout and f"made {ENV_ID}" in result.stdout


@pytest.mark.slow
def test_a_users_envs_nested_in_a_package_of_its_own_lives_beside_the_suites(tmp_path: Path) -> None:
    """Nested as `myproject.envs`, the user's package and the suite's `envs` are both imported in one process."""
    (tmp_path / "myproject" / "envs").mkdir(parents=True)
    (tmp_path / "myproject" / "__init__.py").write_text("")
    (tmp_path / "myproject" / "envs" / "__init__.py").write_text("MINE = True\n")
    code = (
        "import gymnasium as gym, envs, myproject.envs as mine; "
        f"print(envs.__file__, mine.MINE); gym.make({ENV_ID!r}); print('made')"
    )
    result = run(tmp_path, "-c", code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [str(Path(SUITE_ENVS) / "__init__.py"), "True", "made"]


@pytest.mark.slow
def test_a_plain_folder_named_envs_shadows_only_an_editable_install(tmp_path: Path) -> None:
    """A folder named `envs` without `__init__.py` (data, notes) loses to a package installed on a path entry
    (site-packages: a regular install), which Python prefers to such folders; an editable install is found by an
    import hook consulted after the path, which such a folder already answers, so there it shadows the suite's."""
    neutral = tmp_path / "neutral"
    neutral.mkdir()
    probe = "import importlib.machinery as m; print(m.PathFinder.find_spec('envs') is not None)"
    on_a_path_entry = run(neutral, "-c", probe).stdout.strip() == "True"
    project = user_project(tmp_path, plain_folder=True)
    result = run(project, "script.py", ENV_ID)
    if on_a_path_entry:
        assert result.returncode == 0 and f"envs: {SUITE_ENVS}" in result.stdout, result.stderr
    else:
        assert shadowed(result, project)
        assert run(project, "-I", "script.py", ENV_ID).returncode == 0
