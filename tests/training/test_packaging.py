"""The installed package: only envs and agents (no generic top-level evaluate module), tabletop-evaluate's console
script, and the default configs shipped as package data so an installed evaluation finds them."""

from __future__ import annotations

import fnmatch
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from agents.evaluation import evaluate_cli
from tests.training.training_support import REPO_ROOT

SOURCES = ("pyproject.toml", "README.md", "envs", "agents", "configs", "train.py", "evaluate.py")
"""What a wheel is built from (a copy, so the build writes nothing into the checkout)."""


def pyproject() -> dict:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    return tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_evaluate_is_a_console_script_not_a_top_level_module() -> None:
    settings = pyproject()
    assert settings["project"]["scripts"]["tabletop-evaluate"] == "agents.evaluation.evaluate_cli:main"
    assert "evaluate" not in settings["tool"]["setuptools"].get("py-modules", [])
    assert (REPO_ROOT / "evaluate.py").read_text(encoding="utf-8").count(
        "\n"
    ) < 20  # a shim over agents.evaluation.evaluate_cli


def test_play_is_the_tabletop_play_console_script(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """`tabletop-play` names agents.evaluation.play's main, which answers --help under that name (it was only
    `python -m agents.evaluation.play`)."""
    from envs.core.registration import load_attribute

    main = load_attribute(pyproject()["project"]["scripts"]["tabletop-play"])
    monkeypatch.setattr("sys.argv", ["/usr/bin/tabletop-play", "--help"])
    with pytest.raises(SystemExit) as ended:
        main()
    assert ended.value.code == 0
    shown = capsys.readouterr().out
    assert shown.startswith("usage: tabletop-play [-h]") and "Play a tabletop game in the terminal" in shown


def test_the_default_eval_config_is_package_data_of_agents() -> None:
    agents_dir = REPO_ROOT / "agents"
    patterns = pyproject()["tool"]["setuptools"]["package-data"]["agents"]
    default = evaluate_cli.default_config()
    assert default.is_file() and default.parent.parent == evaluate_cli.CONFIGS_DIR
    for path in (default, evaluate_cli.DEFAULTS_FILE):
        relative = f"configs/{path.relative_to(evaluate_cli.CONFIGS_DIR).as_posix()}"  # inside the agents package
        assert any(fnmatch.fnmatch(relative, pattern) for pattern in patterns), relative
    assert evaluate_cli.CONFIGS_DIR == (agents_dir / "configs").resolve() == (REPO_ROOT / "configs").resolve()


def test_a_non_editable_install_evaluates_with_its_default_config(tmp_path: Path) -> None:
    """Build the wheel, install it into a folder, and run tabletop-evaluate's main from elsewhere."""
    pytest.importorskip("setuptools")
    source = tmp_path / "source"
    source.mkdir()
    for name in SOURCES:
        path = REPO_ROOT / name
        if path.is_dir():
            shutil.copytree(path, source / name, symlinks=True, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(path, source / name)
    wheels = tmp_path / "wheels"
    build = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(wheels)]
    subprocess.run([*build, str(source)], check=True, capture_output=True, timeout=300)
    (wheel,) = wheels.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    top_level = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert "evaluate.py" not in top_level and {"envs", "agents"} <= top_level
    assert {"agents/configs/defaults.yaml", "agents/configs/unbroken/eval.yaml"} <= set(names)
    assert {"envs/toys/card_duel_v0.py", "agents/configs/card_duel/selfplay.yaml"} <= set(names)  # the shipped toys
    entry_points = next(name for name in names if name.endswith(".dist-info/entry_points.txt"))
    with zipfile.ZipFile(wheel) as archive:
        scripts = archive.read(entry_points).decode()
    for command, target in pyproject()["project"]["scripts"].items():  # tabletop-play among them
        assert f"{command} = {target}" in scripts
    site = tmp_path / "site"
    install = [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site), str(wheel)]
    subprocess.run(install, check=True, capture_output=True, timeout=300)
    out = tmp_path / "out"
    code = (
        "import sys, agents.evaluation.evaluate_cli as cli; assert cli.__file__.startswith(sys.argv[1]), cli.__file__; "
        "sys.exit(cli.main(['--agent', 'random', '--episodes', '2', '--out', sys.argv[2]]))"
    )
    environment = {**os.environ, "PYTHONPATH": str(site)}
    result = subprocess.run(
        [sys.executable, "-c", code, str(site), str(out)],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    document = json.loads((out / "results.json").read_text())
    assert document["results"][0]["env_id"] == "tabletop/Unbroken-v0"
    assert document["meta"]["config"]["env"]["kwargs"]["preset"] == "english"  # configs/unbroken/eval.yaml's kwargs
