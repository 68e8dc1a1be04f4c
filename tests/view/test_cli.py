"""The viewer's command line: a bad env id or agent spec is one error line and exit status 2; the address printed
is where the server listens (127.0.0.1 by default)."""

from __future__ import annotations

import fnmatch
import re
import subprocess
import sys
from pathlib import Path

import pytest

from agents.view.cli import DEFAULT_HOST, USAGE_EXIT_CODE, address_of, listen, main


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["play", "--env", "tabletop/Nothing-v0", "--agent", "human"], ["Nothing-v0"]),
        (["play", "--env", "tabletop/card_duel_v0", "--agent", "human", "--agent", "nobody"], ["nobody"]),
        (
            ["play", "--env", "tabletop/card_duel_v0", "--agent", "human", "--agent", "random", "--env-kwarg", "x"],
            ["--env-kwarg x"],
        ),
        (
            ["play", "--env", "tabletop/card_duel_v0", "--agent", "human", "--agent", "random", "--seed", "-1"],
            ["seed", "-1"],
        ),
    ],
)
def test_a_game_that_cannot_be_set_up_is_one_error_line(
    argv: list[str], words: list[str], capsys: pytest.CaptureFixture[str], tmp_path: object
) -> None:
    assert main([*argv, "--folder", str(tmp_path)]) == USAGE_EXIT_CODE
    error = capsys.readouterr().err
    assert error.startswith("error: ") and error.count("\n") == 1
    for word in words:
        assert word in error


def test_a_port_taken_is_one_error_line(capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    taken = listen(DEFAULT_HOST, 0)
    try:
        assert main([str(tmp_path), "--port", str(taken.getsockname()[1])]) == USAGE_EXIT_CODE
    finally:
        taken.close()
    assert "cannot listen on" in capsys.readouterr().err


def test_the_address_is_the_local_one_the_socket_listens_on() -> None:
    sock = listen(DEFAULT_HOST, 0)
    try:
        assert address_of(sock) == f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        sock.close()


def test_python_dash_m_agents_view_has_both_commands() -> None:
    watch = subprocess.run([sys.executable, "-m", "agents.view", "--help"], capture_output=True, text=True, check=True)
    play = subprocess.run(
        [sys.executable, "-m", "agents.view", "play", "--help"], capture_output=True, text=True, check=True
    )
    assert "folder" in watch.stdout and "--env" in play.stdout and "--agent" in play.stdout


def test_the_page_is_package_data_and_tabletop_view_a_console_script() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    root = Path(__file__).resolve().parents[2]
    settings = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    assert settings["project"]["scripts"]["tabletop-view"] == "agents.view.cli:main"
    extra = settings["project"]["optional-dependencies"]["view"]
    assert {"starlette", "uvicorn"} <= {re.split(r"[<>=\[]", spec)[0] for spec in extra}
    patterns = settings["tool"]["setuptools"]["package-data"]["agents"]
    static = root / "agents" / "view" / "static"
    files = [path.relative_to(root / "agents").as_posix() for path in static.iterdir()]
    assert {"view/static/index.html", "view/static/viewer.js", "view/static/viewer.css"} <= set(files)
    for relative in files:
        assert any(fnmatch.fnmatch(relative, pattern) for pattern in patterns), relative
