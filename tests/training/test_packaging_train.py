"""The installed package: a plain (non-editable) install holds envs and agents, the configs and the train command."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import train
from agents.training import train_cli
from tests.training.training_support import REPO_ROOT

BUILD_INPUTS = ("pyproject.toml", "README.md", "envs", "agents", "configs", "train.py", "evaluate.py")
"""What building the wheel reads from the checkout."""
BUILD_WHEEL = "import sys; from setuptools import build_meta; print(build_meta.build_wheel(sys.argv[1]))"


def build_wheel(tmp_path: Path) -> Path:
    """Build the project's wheel from a copy of the checkout (the build writes beside its sources)."""
    source = tmp_path / "source"
    source.mkdir()
    for name in BUILD_INPUTS:
        path = REPO_ROOT / name
        if path.is_dir():
            ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
            shutil.copytree(path, source / name, symlinks=True, ignore=ignore)
        else:
            shutil.copy2(path, source / name)
    dist = tmp_path / "dist"
    result = subprocess.run(
        [sys.executable, "-c", BUILD_WHEEL, str(dist)], cwd=source, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    return dist / result.stdout.split()[-1]


def test_the_wheel_installs_envs_and_agents_with_the_configs_and_the_train_command(tmp_path: Path) -> None:
    wheel = build_wheel(tmp_path)
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        (entry_points,) = [name for name in names if name.endswith(".dist-info/entry_points.txt")]
        scripts = archive.read(entry_points).decode()
    top_level = {name.split("/")[0] for name in names if ".dist-info/" not in name}
    # No generic top-level module: train.py and evaluate.py stay a checkout's shims.
    assert top_level == {"agents", "envs"}
    assert {"agents/configs/unbroken/maskable_ppo.yaml", "agents/configs/unbroken/eval.yaml"} <= set(names)
    assert "tabletop-train = agents.training.train_cli:main" in scripts
    # Installed without the checkout on the path, the default config is found inside the installed package.
    target = tmp_path / "site"
    install = [sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--target", str(target), str(wheel)]
    subprocess.run(install, check=True, capture_output=True, timeout=300)
    show = "from agents.training import train_cli; print(train_cli.DEFAULT_CONFIG, train_cli.DEFAULT_CONFIG.is_file())"
    environment = {**os.environ, "PYTHONPATH": str(target)}
    result = subprocess.run(
        [sys.executable, "-c", show], cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    path, found = result.stdout.split()
    assert Path(path) == target / "agents" / "configs" / "unbroken" / "maskable_ppo.yaml" and found == "True"


def test_the_checkout_finds_the_default_config_through_the_package() -> None:
    """In a checkout agents/configs is a link to configs/: the same files, one copy."""
    package = Path(train_cli.__file__).resolve().parents[1]  # agents/, above the training room
    linked = (package / "configs" / "unbroken" / "maskable_ppo.yaml").resolve()
    assert train.DEFAULT_CONFIG == train_cli.DEFAULT_CONFIG == linked
    assert train_cli.DEFAULT_CONFIG.resolve() == (REPO_ROOT / "configs" / "unbroken" / "maskable_ppo.yaml").resolve()
