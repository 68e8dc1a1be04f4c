"""The viewer over a real server: uvicorn on a free 127.0.0.1 port (in a thread), spoken to over HTTP.

A live game's record is written into the folder the viewer serves; while the game runs, every endpoint that reaches
that record (its steps, its states, their pictures, the listing) shows only what the live game shows: the person's
seat and the public view, no outcome. Once the game is over every view opens. Bad input (a step or a view written
with a digit `int` refuses or too many digits, a negative seed, bodies nested too deeply or too long, a record file
nested too deeply) is refused with a 4xx that names it and quotes at most a few dozen characters of it, never a 500.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agents.view.app import MAX_BODY_BYTES, MAX_BODY_DEPTH
from agents.view.board import MESSAGE_CHARS, QUOTE_CHARS
from benchmarks.viewer_screenshots import running_viewer
from envs.core.replays import ReplayedEvent, read_record, replay, view_text
from tests.view.client import Answer, Client
from tests.view.records import file_name, record_random_game

FINISHED_ENV = "tabletop/card_duel_v0"
"""The env of the finished replay beside the live games (a toy with hidden hands)."""
UNEARTH = "tabletop/unearth_v0"
UNSTOPPABLE = "tabletop/Unstoppable-v0"
DEEP_RECORD = "deep.json"
"""A JSON file of the folder nested deeper than Python's JSON reader recurses."""
TOO_DEEP = 100_000
"""How deeply the issue's body and file nest."""
TOO_MANY_DIGITS = 5_000
"""More digits than Python's int-string limit (4,300)."""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("served")
    record_random_game(FINISHED_ENV, 4, folder)
    return folder


@pytest.fixture(scope="module")
def viewer(folder: Path) -> Iterator[Client]:
    with running_viewer(folder) as address:
        yield Client(address)


def refused(response: Answer, status: int, *words: str) -> str:
    """The error message of a refusal, checked for its status, the words it must name and its length."""
    assert response.status_code == status, response.text
    message = str(response.json()["error"])
    for word in words:
        assert word in message, (word, message)
    assert len(message) <= MESSAGE_CHARS + 100, len(message)
    return message


def new_game(viewer: Client, env_id: str, agents: list[str], seed: int) -> dict[str, Any]:
    created = viewer.post("/api/games", {"env": env_id, "agents": agents, "seed": seed})
    assert created.status_code == 201, created.text
    answer: dict[str, Any] = created.json()
    return answer


def labels(path: Path, view: Any) -> list[str]:
    """Every event's label of a record as `view` sees it, replayed here independently of the viewer."""
    events: list[ReplayedEvent] = []
    replay(read_record(path), view, events.append)
    return [event.label for event in events]


def listed(viewer: Client, name: str) -> dict[str, Any]:
    entries = {entry["name"]: entry for entry in viewer.get("/api/replays").json()["replays"]}
    entry: dict[str, Any] = entries[name]
    return entry


def hidden_paths(name: str, steps: int, hidden_views: list[Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every endpoint that reaches the record `name`, asked for each view in `hidden_views`."""
    base = f"/api/replays/{name}"
    paths = []
    for view in hidden_views:
        for path in (f"{base}/steps", f"{base}/states/0", f"{base}/states/{steps}", f"{base}/states/{steps}/picture"):
            paths.append((path, {"view": view}))
    return paths


# ------------------------------------------------------------------------------------------------ hidden information
@pytest.mark.slow
def test_a_running_unearth_games_record_shows_only_the_persons_seat_and_the_public_view(
    viewer: Client, folder: Path
) -> None:
    status = new_game(viewer, UNEARTH, ["heuristic", "human"], seed=3)
    name, seat, other = status["replay"], 1, 0
    path = folder / name
    steps = len(read_record(path).events)
    assert status["steps"] == steps > 0
    full, own, public = labels(path, "omniscient"), labels(path, seat), labels(path, "public")
    hidden = [label for label, seen in zip(full, own, strict=True) if label != seen]
    assert any(label.startswith(f"seat {other} draws ") for label in hidden), hidden  # the opponent's drawn cards
    refused(viewer.get(f"/api/games/{status['name']}", params={"view": "omniscient"}), 403, "view", "hidden")
    for request_path, params in hidden_paths(name, steps, ["omniscient", other]):
        message = refused(viewer.get(request_path, params=params), 403, "view", name, "hidden while the game runs")
        assert not any(label in message for label in hidden)
    # what the live game shows, the record shows
    answer = viewer.get(f"/api/replays/{name}/steps", params={"view": seat}).json()
    assert [event["label"] for event in answer["events"]] == own
    assert answer["views"] == ["public", seat] and answer["running"] is True and answer["outcome"] is None
    assert [event["label"] for event in viewer.get(f"/api/replays/{name}/steps").json()["events"]] == public
    final = replay(read_record(path))
    for view in ("public", seat):
        state = viewer.get(f"/api/replays/{name}/states/{steps}", params={"view": view}).json()
        assert state["text"] == view_text(final, view)
    picture = viewer.get(f"/api/replays/{name}/states/{steps}/picture")
    assert picture.status_code == 200
    assert picture.content == viewer.get(f"/api/games/{status['name']}/picture").content  # the live game's picture
    entry = listed(viewer, name)
    assert entry["running"] is True and entry["outcome"] is None
    finished = listed(viewer, file_name(FINISHED_ENV))
    assert finished["running"] is False and finished["outcome"]["terminal"] is True


def test_a_running_unstoppable_games_record_hides_the_full_table(viewer: Client, folder: Path) -> None:
    status = new_game(viewer, UNSTOPPABLE, ["human"], seed=5)
    name = status["replay"]
    path = folder / name
    steps = len(read_record(path).events)
    final = replay(read_record(path))
    assert view_text(final, "omniscient") != view_text(final, 0)  # the unseen threat sides, the deck's order
    for request_path, params in hidden_paths(name, steps, ["omniscient"]):
        refused(viewer.get(request_path, params=params), 403, "view", "'omniscient'", "hidden while the game runs")
    state = viewer.get(f"/api/replays/{name}/states/{steps}", params={"view": 0}).json()
    assert state["text"] == view_text(final, 0)
    assert viewer.get(f"/api/replays/{name}/steps", params={"view": 0}).json()["views"] == ["public", 0]
    assert listed(viewer, name)["running"] is True


def test_every_view_of_the_record_opens_once_the_game_is_over(viewer: Client, folder: Path) -> None:
    status = new_game(viewer, FINISHED_ENV, ["human", "heuristic"], seed=2)
    name = status["replay"]
    path = folder / name
    refused(viewer.get(f"/api/replays/{name}/steps", params={"view": "omniscient"}), 403, "hidden")
    while not status["over"]:
        action = status["legal"][0]["actions"][0]["action"]
        answer = viewer.post(f"/api/games/{status['name']}/actions", {"action": action})
        assert answer.status_code == 200, answer.text
        status = answer.json()
    steps = len(read_record(path).events)
    final = replay(read_record(path))
    for view in ("omniscient", 0, 1, "public"):
        answer = viewer.get(f"/api/replays/{name}/steps", params={"view": view}).json()
        assert [event["label"] for event in answer["events"]] == labels(path, view)
        state = viewer.get(f"/api/replays/{name}/states/{steps}", params={"view": view}).json()
        assert state["text"] == view_text(final, view)
    assert viewer.get(f"/api/replays/{name}/states/{steps}/picture", params={"view": "omniscient"}).status_code in (
        200,
        404,  # a toy without a picture
    )
    entry = listed(viewer, name)
    assert entry["running"] is False and entry["outcome"]["terminal"] is True


# ------------------------------------------------------------------------------------------------ bad input
def test_a_step_or_a_view_int_refuses_is_refused_naming_it(viewer: Client) -> None:
    name = file_name(FINISHED_ENV)
    steps = len(viewer.get(f"/api/replays/{name}/steps").json()["events"])
    digits = "9" * TOO_MANY_DIGITS
    for suffix in ("", "/picture"):
        refused(viewer.get(f"/api/replays/{name}/states/²{suffix}"), 400, "step", "'²'")
        message = refused(viewer.get(f"/api/replays/{name}/states/{digits}{suffix}"), 400, "step", f"0..{steps}")
        assert f"({TOO_MANY_DIGITS} characters)" in message and digits not in message
    for path in (f"/api/replays/{name}/steps", f"/api/replays/{name}/states/0"):
        refused(viewer.get(path, params={"view": "²"}), 400, "view", "'²'")
        message = refused(viewer.get(path, params={"view": digits}), 400, "view", f"({TOO_MANY_DIGITS} characters)")
        assert len(message) < 2 * QUOTE_CHARS + 200


def test_a_negative_seed_is_refused_naming_the_seed(viewer: Client) -> None:
    body = {"env": FINISHED_ENV, "agents": ["human", "random"], "seed": -1}
    refused(viewer.post("/api/games", body), 400, "seed", "-1")


@pytest.mark.parametrize("depth", [TOO_DEEP, 30_000, MAX_BODY_DEPTH + 1])
def test_a_body_nested_too_deeply_is_refused(viewer: Client, depth: int) -> None:
    if depth == MAX_BODY_DEPTH + 1:  # within Python's recursion, in a field: refused before any field is read
        nested = "[" * (depth - 2) + "]" * (depth - 2)
        body = f'{{"env": "{FINISHED_ENV}", "agents": ["human", "random"], "env_kwargs": {{"a": {nested}}}}}'
    else:
        body = "[" * depth + "]" * depth
    response = viewer.post("/api/games", content=body.encode())
    if len(body) > MAX_BODY_BYTES:
        refused(response, 413, "body", f"{MAX_BODY_BYTES} bytes")
    else:
        refused(response, 400, "body", "nested deeper")


def test_a_number_past_pythons_digit_limit_in_a_body_is_refused(viewer: Client) -> None:
    body = f'{{"env": "{FINISHED_ENV}", "agents": ["human", "random"], "seed": {"7" * TOO_MANY_DIGITS}}}'
    message = refused(viewer.post("/api/games", content=body.encode()), 400, "body", "not valid JSON")
    assert "7" * QUOTE_CHARS not in message


def test_long_input_is_never_echoed_whole(viewer: Client) -> None:
    long = "x" * (MAX_BODY_BYTES // 2)
    refused(viewer.post("/api/games", {"env": long, "agents": ["human"]}), 400, "body", "env")
    refused(viewer.post("/api/games", {"env": FINISHED_ENV, "agents": ["human", long]}), 400, "body", "agents.1")
    message = refused(viewer.post("/api/games", {"env": f"tabletop/{long}", "agents": ["human"]}), 400)
    assert long not in message
    message = refused(viewer.get(f"/api/games/{long[:5000]}"), 404, "unknown game", "(5000 characters)")
    assert long[: QUOTE_CHARS + 1] not in message
    message = refused(viewer.get(f"/api/replays/{long[:5000]}.json/steps"), 404, "unknown replay")
    assert long[: QUOTE_CHARS + 1] not in message


def test_a_body_over_the_limit_is_refused_before_it_is_read(viewer: Client) -> None:
    """A 64 MiB body is declared and never sent: the answer, 413, comes all the same (nothing waited for)."""
    declared = 64 * 1024 * 1024
    with socket.create_connection((viewer.host, viewer.port), timeout=30) as sock:
        head = (
            f"POST /api/games HTTP/1.1\r\nHost: {viewer.host}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {declared}\r\n\r\n"
        )
        sock.sendall(head.encode() + b'{"env": "' + b"x" * 1024)
        started = time.monotonic()
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = sock.recv(65536)
            if not chunk:
                break
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert time.monotonic() - started < 10


def test_a_streamed_body_over_the_limit_is_refused_once_it_passes_the_limit(viewer: Client) -> None:
    sent = []

    def chunks() -> Iterator[bytes]:
        for _ in range(64):  # 4 MiB in all, with no declared length
            sent.append(1)
            yield b" " * 65536

    refused(viewer.post("/api/games", content=chunks()), 413, "body", f"{MAX_BODY_BYTES} bytes")


def test_a_record_nested_too_deeply_is_listed_with_its_error_beside_the_others(viewer: Client, folder: Path) -> None:
    (folder / DEEP_RECORD).write_text("[" * TOO_DEEP + "]" * TOO_DEEP, encoding="utf-8")
    (folder / "long_number.json").write_text('{"format": ' + "7" * TOO_MANY_DIGITS + "}", encoding="utf-8")
    listing = viewer.get("/api/replays")
    assert listing.status_code == 200, listing.text
    entries = {entry["name"]: entry for entry in listing.json()["replays"]}
    assert "nested too deeply" in entries[DEEP_RECORD]["error"]
    assert "not readable" in entries["long_number.json"]["error"]
    assert "7" * QUOTE_CHARS not in entries["long_number.json"]["error"]
    assert entries[file_name(FINISHED_ENV)]["outcome"]["terminal"] is True  # the others are listed still
    refused(viewer.get(f"/api/replays/{DEEP_RECORD}/steps"), 422, DEEP_RECORD, "nested too deeply")
    refused(viewer.get(f"/api/replays/{DEEP_RECORD}/states/0/picture"), 422, DEEP_RECORD)


def test_the_docs_state_the_limits_the_server_applies() -> None:
    """docs/viewer.md gives the body limit, its nesting and the quoted length: the constants of the code."""
    docs = (Path(__file__).resolve().parents[2] / "docs" / "viewer.md").read_text(encoding="utf-8")
    assert f"{MAX_BODY_BYTES // 1024} KiB" in docs
    assert f"at most {MAX_BODY_DEPTH} objects and arrays deep" in docs
    assert f"quotes at most {QUOTE_CHARS} characters" in docs
