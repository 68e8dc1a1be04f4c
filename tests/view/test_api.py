"""The viewer's JSON API on every registered game (Gymnasium and PettingZoo ids, the toys too), through Starlette's
TestClient: replays listed, stepped and shown for every view; pictures equal to the envs' rgb_array pictures; live
games played against the heuristic and recorded, set up from the defaults the page gets, the person's lone legal
actions taken as terminal play takes them; every bad request refused with a 4xx that names what is wrong.
tests/view/test_server.py speaks to a real server: hidden information of running games, bad input."""

from __future__ import annotations

import importlib
import io
import json
import re
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from PIL import Image
from starlette.testclient import TestClient

from agents.evaluation.play import ONLY_CHOICE, play_table, seat_table
from agents.view.app import create_app
from agents.view.board import picture_function
from agents.view.live import LiveGame, LiveGames
from agents.view.running import marker_path, running_record
from envs.adapters.gym_env import RecordPicture
from envs.core.actions import ActionCodec
from envs.core.game import CHANCE, State
from envs.core.registration import game_record_of_env_id, make_env_game
from envs.core.replays import ReplayedEvent, apply_event, read_record, replay, start_of, view_text
from tests.view.records import every_env_id, file_name, record_random_game

ENV_IDS = every_env_id()
BAD_RECORD = "broken.json"
OLD_RECORD = "old/recording.json"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("replays")
    for seed, env_id in enumerate(ENV_IDS):
        record_random_game(env_id, seed, folder)
    (folder / BAD_RECORD).write_text('{"format": "tabletop-gym replay", "version": 1, "game": 3}', encoding="utf-8")
    (folder / OLD_RECORD).parent.mkdir()
    (folder / OLD_RECORD).write_text('{"env_id": "x", "seed": 1, "actions": [1]}', encoding="utf-8")
    (folder / "results.json").write_text('{"meta": {}, "groups": []}', encoding="utf-8")  # a run's results, no record
    return folder


@pytest.fixture(scope="module")
def client(folder: Path) -> TestClient:
    return TestClient(create_app(folder, live_folder=folder / "live"))


def states_of(path: Path) -> list[State]:
    """Every state of a record, replayed here independently of the viewer."""
    record = read_record(path)
    state = start_of(record)
    states = [state.clone()]
    for step, (player, action) in enumerate(record.events, start=1):
        apply_event(state, step, player, action)
        states.append(state.clone())
    return states


def refused(response: Any, status: int, *words: str) -> str:
    """The error message of a refusal, checked for its status and the words it must name."""
    assert response.status_code == status, response.text
    message = response.json()["error"]
    for word in words:
        assert word in message, (word, message)
    return str(message)


# ------------------------------------------------------------------------------------------------ replays
def test_info_lists_every_registered_env_and_the_agent_specs(client: TestClient, folder: Path) -> None:
    info = client.get("/api/info").json()
    assert info["envs"] == ENV_IDS
    assert info["agents"][0] == "human" and "heuristic" in info["agents"] and "random" in info["agents"]
    assert info["folder"] == str(folder)


def test_every_record_is_listed_with_env_seed_players_and_outcome(client: TestClient, folder: Path) -> None:
    listed = {entry["name"]: entry for entry in client.get("/api/replays").json()["replays"]}
    assert set(listed) == {file_name(env_id) for env_id in ENV_IDS} | {BAD_RECORD, OLD_RECORD}
    for seed, env_id in enumerate(ENV_IDS):
        entry = listed[file_name(env_id)]
        record = read_record(folder / file_name(env_id))
        assert (entry["env_id"], entry["game"], entry["seed"], entry["players"]) == (
            env_id,
            record.game,
            seed,
            record.players,
        )
        assert entry["steps"] == len(record.events)
        assert entry["decisions"] == sum(player != CHANCE for player, _ in record.events)
        assert record.result is not None
        assert entry["outcome"] == {
            "terminal": True,
            "returns": record.result.returns,
            "scores": record.result.scores,
        }
    assert "game" in listed[BAD_RECORD]["error"] and BAD_RECORD in listed[BAD_RECORD]["error"]
    assert "old format" in listed[OLD_RECORD]["error"]


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_steps_show_each_events_seat_and_label_as_each_view_sees_it(
    client: TestClient, folder: Path, env_id: str
) -> None:
    record = read_record(folder / file_name(env_id))
    num_players = make_env_game(env_id, {}).spec.num_players
    for view in ("public", "omniscient", *range(num_players)):
        expected: list[ReplayedEvent] = []
        replay(record, view, expected.append)
        answer = client.get(f"/api/replays/{file_name(env_id)}/steps", params={"view": view}).json()
        assert answer["view"] == view
        assert answer["views"] == ["public", *range(num_players), "omniscient"]
        assert [(event["step"], event["action"], event["label"]) for event in answer["events"]] == [
            (event.step, event.action, event.label) for event in expected
        ]
        assert [event["player"] for event in answer["events"]] == [
            "chance" if player == CHANCE else player for player, _ in record.events
        ]
    rewards = [event["rewards"] for event in answer["events"]]
    assert all(value == [0.0] * num_players for value in rewards[:-1])
    assert record.result is not None and rewards[-1] == record.result.returns


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_a_state_shows_the_text_of_each_view(client: TestClient, folder: Path, env_id: str) -> None:
    states = states_of(folder / file_name(env_id))
    num_players = states[0].game.spec.num_players
    for step in sorted({0, 1, len(states) // 2, len(states) - 1}):
        for view in ("public", "omniscient", *range(num_players)):
            answer = client.get(f"/api/replays/{file_name(env_id)}/states/{step}", params={"view": view}).json()
            assert answer["text"] == view_text(states[step], view)
            assert answer["step"] == step and answer["steps"] == len(states) - 1
            assert answer["terminal"] == (step == len(states) - 1)


def rgb_renderer_of_env(env_id: str) -> Any:
    """The picture function the env of `env_id` draws its rgb_array mode with (None: it has none)."""
    record = game_record_of_env_id(env_id)
    if env_id in record.gym_env_ids:
        env: Any = gymnasium.make(env_id, render_mode="rgb_array" if "rgb_array" in modes_of(env_id) else None)
    else:
        module = importlib.import_module(record.pettingzoo_modules[record.pettingzoo_ids.index(env_id)])
        env = module.raw_env()
    renderer = env.unwrapped._rgb_renderer
    env.close()
    if isinstance(renderer, RecordPicture):  # the record's picture, imported at first use
        return renderer.load()
    return renderer


def modes_of(env_id: str) -> list[str]:
    return list(gymnasium.spec(env_id).kwargs.get("render_modes", ["ansi", "rgb_array"]))


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_the_picture_is_the_envs_rgb_array_picture_or_refused_for_a_game_without_one(
    client: TestClient, folder: Path, env_id: str
) -> None:
    states = states_of(folder / file_name(env_id))
    game_name = states[0].game.spec.name
    drawn_by = picture_function(game_name)
    assert drawn_by is rgb_renderer_of_env(env_id)
    header = client.get(f"/api/replays/{file_name(env_id)}/steps").json()
    assert header["picture"] == (drawn_by is not None)
    step = len(states) // 2
    response = client.get(f"/api/replays/{file_name(env_id)}/states/{step}/picture")
    if drawn_by is None:
        refused(response, 404, game_name, "no picture")
        return
    assert response.headers["content-type"] == "image/png"
    picture = np.asarray(Image.open(io.BytesIO(response.content)).convert("RGB"))
    assert np.array_equal(picture, drawn_by(states[step]))


# ------------------------------------------------------------------------------------------------ bad replay requests
def test_bad_replay_requests_are_refused_naming_what_is_wrong(client: TestClient, folder: Path) -> None:
    name = file_name(ENV_IDS[0])
    steps = len(read_record(folder / name).events)
    refused(client.get("/api/replays/nothing.json/steps"), 404, "unknown replay", "nothing.json")
    refused(client.get("/api/replays/../outside.json/states/0"), 404)
    refused(client.get(f"/api/replays/{name}/states/{steps + 1}"), 400, f"step {steps + 1}", f"0..{steps}")
    refused(client.get(f"/api/replays/{name}/states/-1"), 400, "step", "'-1'")
    refused(client.get(f"/api/replays/{name}/states/two"), 400, "step", "'two'")
    refused(client.get(f"/api/replays/{name}/states/{steps + 1}/picture"), 400, f"step {steps + 1}")
    refused(client.get(f"/api/replays/{name}/steps", params={"view": "everything"}), 400, "view", "'everything'")
    refused(client.get(f"/api/replays/{BAD_RECORD}/steps"), 422, BAD_RECORD, "game")
    refused(client.get("/api/replays/results.json/states/0"), 422, "results.json", "format")
    refused(client.get("/api/nothing"), 404, "/api/nothing")
    refused(client.post("/api/replays"), 404, "POST /api/replays")


@pytest.mark.parametrize("env_id", [env for env in ENV_IDS if make_env_game(env, {}).spec.num_players > 1])
def test_a_seat_out_of_range_is_refused(client: TestClient, env_id: str) -> None:
    seats = make_env_game(env_id, {}).spec.num_players
    refused(
        client.get(f"/api/replays/{file_name(env_id)}/states/0", params={"view": seats}),
        400,
        "view",
        f"0..{seats - 1}",
        f"seat {seats}",
    )


def test_a_record_that_does_not_replay_is_refused_with_the_step(client: TestClient, folder: Path) -> None:
    source = read_record(folder / file_name(ENV_IDS[0]))
    player, action = source.events[0]
    tampered = source.model_copy(update={"events": [(player + 5, action), *source.events[1:]]})
    (folder / "tampered.json").write_text(tampered.model_dump_json(), encoding="utf-8")
    refused(client.get("/api/replays/tampered.json/steps"), 422, "step 1")


# ------------------------------------------------------------------------------------------------ live games
def agents_for(env_id: str, seat: int = 0) -> list[str]:
    seats = make_env_game(env_id, {}).spec.num_players
    return ["human" if other == seat else "heuristic" for other in range(seats)]


def check_groups(status: dict[str, Any], state: State) -> None:
    """The legal actions answered are the state's, grouped as the game's action space groups them."""
    game = state.game
    codec = getattr(getattr(game, "actions", None), "codec", None)
    shown = []
    for group in status["legal"]:
        for entry in group["actions"]:
            shown.append(entry["action"])
            assert entry["label"] == game.action_label(entry["action"])
            if isinstance(codec, ActionCodec):
                assert entry["action"] in codec.group_range(group["group"])
            else:
                assert entry["label"].startswith(group["group"])
    assert shown == state.legal_actions()


def play_moves(client: TestClient, folder: Path, env_id: str, moves: int, seat: int = 0) -> dict[str, Any]:
    """A live game of `env_id` against the heuristic, the person taking the last legal action `moves` times (or to
    the end); each answer checked against the game's record replayed independently."""
    created = client.post("/api/games", json={"env": env_id, "agents": agents_for(env_id, seat), "seed": 7})
    assert created.status_code == 201, created.text
    status = created.json()
    for _ in range(moves):
        path = folder / "live" / status["replay"]
        state = states_of(path)[-1]
        assert status["steps"] == len(read_record(path).events)
        assert status["text"] == view_text(state, seat)
        if status["over"]:
            break
        assert status["to_act"] == seat == state.current_player()
        check_groups(status, state)
        action = status["legal"][-1]["actions"][-1]["action"]
        answer = client.post(f"/api/games/{status['name']}/actions", json={"action": action})
        assert answer.status_code == 200, answer.text
        status = answer.json()
    return status


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_a_live_game_answers_with_the_agents_and_is_recorded(client: TestClient, folder: Path, env_id: str) -> None:
    status = play_moves(client, folder, env_id, moves=3)
    record = read_record(folder / "live" / status["replay"])
    assert record.env_id == env_id and record.players == agents_for(env_id) and record.seed == 7
    listed = {entry["name"] for entry in client.get("/api/games").json()["games"]}
    assert status["name"] in listed


def finish(client: TestClient, folder: Path, env_id: str, seat: int) -> dict[str, Any]:
    status = play_moves(client, folder, env_id, moves=10_000, seat=seat)
    assert status["over"]
    return status


@pytest.mark.parametrize("env_id", ["tabletop/card_duel_v0", "tabletop/Summit-v0"])
def test_a_whole_short_game_ends_and_replays_to_its_result(client: TestClient, folder: Path, env_id: str) -> None:
    seat = make_env_game(env_id, {}).spec.num_players - 1
    status = finish(client, folder, env_id, seat)
    path = folder / "live" / status["replay"]
    final = replay(read_record(path))
    assert final.is_terminal()
    assert status["result"] == {"returns": final.returns(), "scores": final.score()}
    assert status["legal"] == [] and status["to_act"] == "nobody"
    # once over, every view opens
    assert status["views"] == ["public", *range(final.game.spec.num_players), "omniscient"]
    full = client.get(f"/api/games/{status['name']}", params={"view": "omniscient"}).json()
    assert full["text"] == view_text(final, "omniscient")
    refused(client.post(f"/api/games/{status['name']}/actions", json={"action": 0}), 409, "action", "the game is over")
    # and it is among the folder's replays, which the live folder is not: the viewer of that folder lists it
    live_viewer = TestClient(create_app(folder / "live"))
    assert status["replay"] in {entry["name"] for entry in live_viewer.get("/api/replays").json()["replays"]}


def test_bad_live_requests_are_refused_and_change_nothing(client: TestClient, folder: Path) -> None:
    env_id = "tabletop/card_duel_v0"
    status = client.post("/api/games", json={"env": env_id, "agents": ["human", "heuristic"], "seed": 1}).json()
    name = status["name"]
    path = folder / "live" / status["replay"]
    before = (client.get(f"/api/games/{name}").json(), path.read_text(encoding="utf-8"))
    legal = [entry["action"] for group in status["legal"] for entry in group["actions"]]
    illegal = next(action for action in range(make_env_game(env_id, {}).spec.num_actions) if action not in legal)
    moves = f"/api/games/{name}/actions"
    refused(client.post(moves, json={"action": illegal}), 400, "action", f"{illegal}", "not legal")
    refused(client.post(moves, json={"action": 10_000}), 400, "10000", "out of range")
    refused(client.post(moves, json={"action": str(legal[0])}), 400, "body", "action")
    refused(client.post(moves, json={"action": True}), 400, "body", "action")
    refused(client.post(moves, json={}), 400, "body", "action")
    refused(client.post(moves, json={"action": legal[0], "seat": 1}), 400, "body", "seat")
    refused(client.post(moves, content=b"{not json"), 400, "body", "not valid JSON")
    refused(client.post(moves, json=[legal[0]]), 400, "body", "JSON object")
    refused(client.get(f"/api/games/{name}", params={"view": "omniscient"}), 403, "view", "hidden while the game runs")
    refused(client.get(f"/api/games/{name}", params={"view": 1}), 403, "view", "hidden")
    refused(client.get(f"/api/games/{name}", params={"view": 2}), 400, "view", "seat 2")
    refused(client.post(f"{moves}?view=omniscient", json={"action": legal[0]}), 403, "view")
    refused(client.get("/api/games/nobody"), 404, "unknown game", "nobody")
    refused(client.post("/api/games/nobody/actions", json={"action": 0}), 404, "nobody")
    assert (client.get(f"/api/games/{name}").json(), path.read_text(encoding="utf-8")) == before


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"env": "tabletop/Nothing-v0", "agents": ["human"]}, ["Nothing-v0"]),
        ({"env": "tabletop/card_duel_v0", "agents": ["human", "nobody"]}, ["unknown agent", "nobody"]),
        ({"env": "tabletop/card_duel_v0", "agents": ["heuristic", "random"]}, ["agents", "exactly one", "human"]),
        ({"env": "tabletop/card_duel_v0", "agents": ["human", "human"]}, ["agents", "exactly one"]),
        ({"env": "tabletop/card_duel_v0", "agents": ["human"]}, ["agents", "2 seat", "not 1"]),
        ({"env": "tabletop/card_duel_v0", "agents": ["human", "random"], "env_kwargs": {"colour": 3}}, ["colour"]),
        ({"env": "tabletop/card_duel_v0", "agents": ["human", "random"], "seed": "one"}, ["body", "seed"]),
        ({"env": "tabletop/card_duel_v0"}, ["body", "agents"]),
        ({"env": "tabletop/card_duel_v0", "agents": ["human", "random"], "speed": 2}, ["body", "speed"]),
    ],
)
def test_a_game_that_cannot_be_set_up_is_refused_naming_why(
    client: TestClient, body: dict[str, Any], words: list[str]
) -> None:
    games_before = client.get("/api/games").json()["games"]
    refused(client.post("/api/games", content=json.dumps(body)), 400, *words)
    assert client.get("/api/games").json()["games"] == games_before


def test_each_envs_new_game_agents_set_up_a_game(client: TestClient) -> None:
    """The page's form starts from these: a valid game for every env it offers (the person at the last seat)."""
    info = client.get("/api/info").json()
    assert list(info["new_game_agents"]) == info["envs"]
    for env_id in info["envs"]:
        agents = info["new_game_agents"][env_id]
        seats = make_env_game(env_id, {}).spec.num_players
        other = "heuristic" if game_record_of_env_id(env_id).heuristic else "random"
        assert agents == [*([other] * (seats - 1)), "human"]
        created = client.post("/api/games", json={"env": env_id, "agents": agents})
        assert created.status_code == 201, (env_id, created.text)
        assert created.json()["seat"] == seats - 1


def test_a_lone_legal_action_of_the_person_is_taken_and_noted_as_terminal_play_does(
    client: TestClient, folder: Path, tmp_path: Path
) -> None:
    env_id, seat, seed = "tabletop/card_duel_v0", 1, 5
    status = client.post("/api/games", json={"env": env_id, "agents": ["heuristic", "human"], "seed": seed}).json()
    while not status["over"]:
        offered = [entry["action"] for group in status["legal"] for entry in group["actions"]]
        assert len(offered) > 1, status["events"][-1:]  # a single legal action is never asked for
        answer = client.post(f"/api/games/{status['name']}/actions", json={"action": offered[0]})
        status = answer.json()
    record = read_record(folder / "live" / status["replay"])
    states = states_of(folder / "live" / status["replay"])
    lone = [
        player == seat and len(states[index].legal_actions()) == 1 for index, (player, _) in enumerate(record.events)
    ]
    assert any(lone)
    assert [event["note"] for event in status["events"]] == [ONLY_CHOICE if alone else None for alone in lone]
    # terminal play, making the same choices (the first legal action each time), takes the same ones itself
    lines: list[str] = []
    played = tmp_path / "terminal.json"
    table = seat_table(env_id, {}, seat, ["heuristic"])
    play_table(table, seed, read_line=lambda prompt: "1", write=lines.append, record_path=played)
    assert read_record(played).events == record.events
    assert sum(ONLY_CHOICE in line for line in lines) == sum(lone)


def test_a_live_game_is_known_as_running_before_its_record_is_first_written(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = LiveGames(folder / "early")
    known: list[bool] = []
    write = LiveGame.write_record

    def watched(game: LiveGame) -> Path:
        running = running_record(game.record_path)
        known.append(running is not None and running.held_by == f"the live game {game.name}")
        return write(game)

    monkeypatch.setattr(LiveGame, "write_record", watched)
    game = games.create("tabletop/card_duel_v0", ["human", "heuristic"], seed=1)
    assert known and all(known)
    # the record and its marker, no partial file left
    assert sorted(path.name for path in (folder / "early").iterdir()) == [
        marker_path(game.record_path).name,
        game.record_path.name,
    ]


def test_the_live_picture_is_the_games_picture_of_the_live_state(client: TestClient, folder: Path) -> None:
    env_id = next(env for env in ENV_IDS if picture_function(make_env_game(env, {}).spec.name) is not None)
    status = play_moves(client, folder, env_id, moves=1)
    state = states_of(folder / "live" / status["replay"])[-1]
    response = client.get(f"/api/games/{status['name']}/picture")
    assert response.headers["cache-control"] == "no-store"
    picture = np.asarray(Image.open(io.BytesIO(response.content)).convert("RGB"))
    drawn_by = picture_function(state.game.spec.name)
    assert drawn_by is not None and np.array_equal(picture, drawn_by(state))


# ------------------------------------------------------------------------------------------------ the page
def test_the_page_and_its_files_are_served_and_name_no_game(client: TestClient) -> None:
    from tests.core.test_architecture import game_words

    page = client.get("/")
    assert page.status_code == 200 and "viewer.js" in page.text
    for asset in ("viewer.js", "viewer.css"):
        assert client.get(f"/static/{asset}").status_code == 200
    static = Path(__file__).resolve().parents[2] / "agents" / "view" / "static"
    for path in static.iterdir():
        text = path.read_text(encoding="utf-8")
        found = sorted(word for word in game_words() if re.search(rf"\b{re.escape(word)}\b", text, re.IGNORECASE))
        assert not found, f"{path.name} names {found}"
