"""A running live game's record is hidden from every viewer of its folder, not only from the process that holds it.

The game's marker beside its record (agents/view/running.py) says it runs: a second viewer of the same folder (another
app in this process, beside a real `tabletop-view play` server in another process) serves the record only with the
views the live game allows while the marker exists and its process lives, lists it as running and never lists the
marker. The marker goes when the game ends or is abandoned (the server stopped by Ctrl-C); one left by a server that
was killed is stale: ignored and removed.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from agents.view.app import create_app
from agents.view.live import LiveGames
from agents.view.running import mark_running, marker_path, process_lives, process_state, running_record
from envs.core.replays import read_record
from tests.view.client import Client
from tests.view.records import file_name, record_random_game

TOY = "tabletop/card_duel_v0"
"""A two-seat game with hidden hands (registered by tests/conftest.py in this process)."""
TOY_IN_ANOTHER_PROCESS = f"envs.toys:{TOY}"
"""The same env id for a `tabletop-view` process, which imports the toys' package first."""
SEAT, OTHER = 0, 1
"""The person's seat in these games, and the seat whose view is hidden."""
START_SECONDS = 60
"""How long a `tabletop-view` process may take to print its address or to stop."""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    record_random_game(TOY, 4, tmp_path)  # a finished record beside the live ones
    return tmp_path


def hidden_requests(name: str, steps: int) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every endpoint that reaches the record `name`, asked for each view the person may not see."""
    base = f"/api/replays/{name}"
    for view in ("omniscient", OTHER):
        for path in (f"{base}/steps", f"{base}/states/0", f"{base}/states/{steps}", f"{base}/states/{steps}/picture"):
            yield path, {"view": view}


def listed(viewer: TestClient, name: str) -> dict[str, Any]:
    """The listing's entry of the record `name`; the listing never names a marker."""
    entries = {entry["name"]: entry for entry in viewer.get("/api/replays").json()["replays"]}
    assert not any(".running" in listed_name for listed_name in entries), sorted(entries)
    entry: dict[str, Any] = entries[name]
    return entry


def assert_hidden(viewer: TestClient, folder: Path, name: str) -> None:
    """The viewer serves the record `name` with the person's seat and the public view only, listed as running."""
    steps = len(read_record(folder / name).events)
    for path, params in hidden_requests(name, steps):
        answer = viewer.get(path, params=params)
        assert answer.status_code == 403, (path, params, answer.text)
        assert "hidden while the game runs" in answer.json()["error"] and name in answer.json()["error"]
    for view in ("public", SEAT):
        answer = viewer.get(f"/api/replays/{name}/steps", params={"view": view})
        assert answer.status_code == 200, answer.text
        assert answer.json()["views"] == ["public", SEAT] and answer.json()["outcome"] is None
    entry = listed(viewer, name)
    assert entry["running"] is True and entry["outcome"] is None


def assert_open(viewer: TestClient, folder: Path, name: str) -> None:
    """The viewer serves the record `name` with every view, listed as not running."""
    steps = len(read_record(folder / name).events)
    for view in ("omniscient", OTHER):
        answer = viewer.get(f"/api/replays/{name}/states/{steps}", params={"view": view})
        assert answer.status_code == 200, answer.text
        assert answer.json()["view"] == view
    assert listed(viewer, name)["running"] is False


def play_to_the_end(post: Any, status: dict[str, Any]) -> dict[str, Any]:
    """Play the person's first legal action until the game is over (`post(path, body)` answers the JSON status)."""
    while not status["over"]:
        status = post(f"/api/games/{status['name']}/actions", {"action": status["legal"][0]["actions"][0]["action"]})
    return status


# ------------------------------------------------------------------------------------------------ two apps, one process
def test_a_second_viewer_of_the_folder_hides_a_running_games_record_until_it_ends(folder: Path) -> None:
    owner, second = TestClient(create_app(folder)), TestClient(create_app(folder))
    created = owner.post("/api/games", json={"env": TOY, "agents": ["human", "heuristic"], "seed": 2})
    assert created.status_code == 201, created.text
    status = created.json()
    name = status["replay"]
    marker = marker_path(folder / name)
    assert marker.is_file()
    assert json.loads(marker.read_text(encoding="utf-8"))["views"] == ["public", SEAT]
    assert_hidden(second, folder, name)
    state = second.get(f"/api/replays/{name}/states/{status['steps']}", params={"view": SEAT}).json()
    assert state["text"] == status["text"]  # what the live game shows the person, the record shows
    assert listed(second, file_name(TOY))["running"] is False

    def post(path: str, body: Any) -> dict[str, Any]:
        answer = owner.post(path, json=body)
        assert answer.status_code == 200, answer.text
        result: dict[str, Any] = answer.json()
        return result

    assert play_to_the_end(post, status)["over"]
    assert not marker.exists()
    assert_open(second, folder, name)
    assert listed(second, name)["outcome"]["terminal"] is True


def test_a_server_that_shuts_down_abandons_its_running_games(folder: Path) -> None:
    second = TestClient(create_app(folder))
    with TestClient(create_app(folder)) as owner:  # the server's lifespan: started, then shut down
        status = owner.post("/api/games", json={"env": TOY, "agents": ["human", "heuristic"], "seed": 3}).json()
        assert_hidden(second, folder, status["replay"])
    assert not marker_path(folder / status["replay"]).exists()
    assert_open(second, folder, status["replay"])


def test_a_marker_whose_process_is_gone_is_ignored_and_removed(folder: Path) -> None:
    name = file_name(TOY)
    finished = subprocess.Popen([sys.executable, "-c", "pass"])
    finished.wait()  # reaped: its id names no process
    marker = mark_running(folder / name, "live-gone", ["public", SEAT])
    content = json.loads(marker.read_text(encoding="utf-8"))
    marker.write_text(json.dumps({**content, "pid": finished.pid}), encoding="utf-8")
    assert_open(TestClient(create_app(folder)), folder, name)
    assert not marker.exists()


def test_a_marker_of_a_process_id_used_again_is_stale(folder: Path) -> None:
    """A marker names this process's id, but a process that started at another time: another process."""
    known = process_state(os.getpid())
    assert known is not None  # Linux's /proc
    assert process_lives(os.getpid(), known[1])
    assert not process_lives(os.getpid(), str(int(known[1]) + 1))
    name = file_name(TOY)
    marker = mark_running(folder / name, "live-reused", ["public", SEAT])
    content = json.loads(marker.read_text(encoding="utf-8"))
    assert content["pid"] == os.getpid() and content["process_start"] == known[1]
    marker.write_text(json.dumps({**content, "process_start": str(int(known[1]) + 1)}), encoding="utf-8")
    assert_open(TestClient(create_app(folder)), folder, name)
    assert not marker.exists()


def test_a_marker_that_cannot_be_read_shows_the_public_view_only(folder: Path) -> None:
    name = file_name(TOY)
    marker_path(folder / name).write_text("{not json", encoding="utf-8")
    viewer = TestClient(create_app(folder))
    answer = viewer.get(f"/api/replays/{name}/steps", params={"view": SEAT})
    assert answer.status_code == 403, answer.text
    assert str(marker_path(folder / name)) in answer.json()["error"] and "remove it" in answer.json()["error"]
    assert viewer.get(f"/api/replays/{name}/steps").status_code == 200
    assert listed(viewer, name)["running"] is True


def test_viewers_recording_into_one_folder_in_the_same_second_never_share_a_record(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two viewers (two processes; here two in one) start games in the same second: each its own record and marker."""
    monkeypatch.setattr(time, "strftime", lambda form: "20261128-120000")
    first, second = LiveGames(folder), LiveGames(folder)
    games = [viewers.create(TOY, ["human", "heuristic"], seed=seed) for seed, viewers in enumerate([first, second])]
    assert games[0].name != games[1].name
    for game in games:
        running = running_record(game.record_path)
        assert running is not None and running.held_by == f"the live game {game.name}"
        assert read_record(game.record_path).seed == game.seed


# ------------------------------------------------------------------------------------------------ a real server
class ViewerProcess:
    """`tabletop-view play` of a toy game in another process (a free port): its address and its live game."""

    def __init__(self, folder: Path, seed: int) -> None:
        command = [sys.executable, "-m", "agents.view", "play", "--env", TOY_IN_ANOTHER_PROCESS, "--agent", "human"]
        command += ["--agent", "heuristic", "--seed", str(seed), "--folder", str(folder), "--port", "0"]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert self.process.stdout is not None
        line = self.process.stdout.readline()  # "tabletop-view: replays of F at http://127.0.0.1:P/#/game/NAME ..."
        assert " at http://" in line, line
        address, _, self.game = line.split(" at ", 1)[1].split()[0].partition("/#/game/")
        self.client = Client(address)

    def status(self) -> dict[str, Any]:
        """The live game's status as the person's seat sees it."""
        answer = self.client.get(f"/api/games/{self.game}")
        assert answer.status_code == 200, answer.text
        result: dict[str, Any] = answer.json()
        return result

    def post(self, path: str, body: Any) -> dict[str, Any]:
        """POST `body` as JSON; the answer's JSON."""
        answer = self.client.post(path, body)
        assert answer.status_code in (200, 201), answer.text
        result: dict[str, Any] = answer.json()
        return result

    def stop(self, how: signal.Signals) -> int:
        """Send the process `how` and wait for it to end (reaped, its output read); its exit status."""
        if self.process.poll() is None:
            self.process.send_signal(how)
        self.process.communicate(timeout=START_SECONDS)
        return self.process.returncode


@pytest.fixture
def serve(folder: Path) -> Iterator[Callable[[int], ViewerProcess]]:
    """Start `tabletop-view play` processes over `folder` (a game of a seed each); any left running is killed after."""
    started: list[ViewerProcess] = []

    def start(seed: int) -> ViewerProcess:
        started.append(ViewerProcess(folder, seed))
        return started[-1]

    yield start
    for served in started:
        served.stop(signal.SIGKILL)


@pytest.mark.slow
def test_another_process_running_a_game_hides_its_record_from_this_viewer(
    folder: Path, serve: Callable[[int], ViewerProcess]
) -> None:
    served = serve(2)
    viewer = TestClient(create_app(folder))
    status = served.status()
    name = status["replay"]
    assert_hidden(viewer, folder, name)
    state = viewer.get(f"/api/replays/{name}/states/{status['steps']}", params={"view": SEAT}).json()
    assert state["text"] == status["text"]
    # the game ends: every view opens
    assert play_to_the_end(served.post, status)["over"]
    assert_open(viewer, folder, name)
    # another game of that server, stopped by Ctrl-C: abandoned, its marker removed, every view open
    second = served.post("/api/games", {"env": TOY_IN_ANOTHER_PROCESS, "agents": ["human", "heuristic"]})
    assert_hidden(viewer, folder, second["replay"])
    assert served.stop(signal.SIGINT) == 0
    assert not marker_path(folder / second["replay"]).exists()
    assert_open(viewer, folder, second["replay"])


@pytest.mark.slow
def test_a_killed_servers_marker_is_stale_ignored_and_removed(
    folder: Path, serve: Callable[[int], ViewerProcess]
) -> None:
    served = serve(5)
    name = served.status()["replay"]
    viewer = TestClient(create_app(folder))
    assert_hidden(viewer, folder, name)
    served.stop(signal.SIGKILL)  # no shutdown runs: the marker stays, naming a process that has ended
    assert marker_path(folder / name).exists()
    assert_open(viewer, folder, name)
    assert not marker_path(folder / name).exists()
