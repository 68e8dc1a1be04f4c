"""The viewer's web app (Starlette): JSON over HTTP for replays and live games, and the static page that reads it.

Endpoints (every answer is JSON but the pictures; a refused request gets a 4xx with `{"error": message}`, the
message naming the replay, game, step, view, action or body field that is wrong (quoting at most `QUOTE_CHARS` of
what was sent), and changes nothing; a body over `MAX_BODY_BYTES` is refused with 413 before it is read):

- `GET /api/info`: the folder, every registered env id with its new game's default agents, the agent specs.
- `GET /api/replays`: every record of the folder: name, env id, game, seed, players, steps, outcome, running.
- `GET /api/replays/{name}/steps?view=V`: the replay's header and every step as view V sees it (acting seat or
  "chance", action, label, rewards after it). V is `public` (the default), a seat number or `omniscient`.
- `GET /api/replays/{name}/states/{step}?view=V`: the state after `step` events: V's text, who acts, rewards.
- `GET /api/replays/{name}/states/{step}/picture`: the game's picture of it (PNG), 404 for a game without one.

The record of a live game that is still running is served only with the views the live game allows (the person's
seat and the public view; 403 for any other), without its outcome, and listed with `running: true`, until it ends:
the game's marker beside the record says so (agents/view/running.py), so every viewer of the folder honours it, in
the game's process or another. The server's shutdown abandons its running games (their markers removed).

- `GET /api/games`, `POST /api/games` with `{"env": ID, "agents": [SPEC, ...], "seed": S, "env_kwargs": {...}}`:
  the live games, and a new one (201; one spec per seat, exactly one `human`).
- `GET /api/games/{name}?view=V`: the live game: who acts, the person's legal actions by group, events, V's text.
- `POST /api/games/{name}/actions` with `{"action": ID}`: the person's move; the agents answer (the game's status).
- `GET /api/games/{name}/picture`: the live game's picture (PNG).
"""

from __future__ import annotations

import contextlib
import inspect
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Final

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from agents.evaluation.play import HUMAN
from agents.players.registry import registered_agent_names
from agents.view.board import (
    ViewError,
    actor_of,
    has_picture,
    parse_view,
    picture_png,
    quoted,
    rewards_after,
    shortened,
    view_names,
)
from agents.view.catalogue import OpenedReplay, ReplayFolder, StepError, UnknownReplayError
from agents.view.live import GameOverError, GameSetupError, LiveGames, MoveError, default_agents
from agents.view.running import HiddenViewError, RunningRecord, running_record
from envs.core.game import State
from envs.core.registration import registered_games
from envs.core.replays import ReplayError, View, view_text

STATIC_PACKAGE: Final = "agents.view"
"""The package whose `static/` folder holds the page, its script and its style (package data)."""
ERRORS: Final[tuple[tuple[type[Exception], int], ...]] = (
    (UnknownReplayError, 404),
    (HiddenViewError, 403),
    (GameOverError, 409),
    (GameSetupError, 400),
    (MoveError, 400),
    (ViewError, 400),
    (StepError, 400),
    (ReplayError, 422),  # a file of the folder that is no record, or a record that does not replay
    (LookupError, 404),  # an unknown live game
)
"""The status of each refusal, first match wins (a subclass before its base)."""
MAX_BODY_BYTES: Final = 64 * 1024
"""The largest request body read (a new game's is some hundred bytes); a longer one is refused with 413 unread."""
MAX_BODY_DEPTH: Final = 32
"""How many objects and arrays a request body's JSON may hold one inside another (a new game's: three)."""
STEP_DIGITS: Final = 9
"""The most digits of a step number read as a number: more is past the end of any replay (and never meets Python's
limit on the digits of an integer)."""
MAX_TEXT: Final = 4096
"""The longest env id or agent spec a body may give (a model's path included)."""
MAX_SEATS: Final = 64
"""The most agent specs a body may give (one per seat)."""


class RequestError(Exception):
    """A refused request: the status and the message naming what is wrong."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class NewGame(BaseModel):
    """The body of `POST /api/games`."""

    model_config = ConfigDict(extra="forbid")
    env: StrictStr = Field(max_length=MAX_TEXT)
    agents: list[Annotated[StrictStr, Field(max_length=MAX_TEXT)]] = Field(max_length=MAX_SEATS)
    seed: StrictInt | None = None
    env_kwargs: dict[str, Any] = {}


class Move(BaseModel):
    """The body of `POST /api/games/{name}/actions`."""

    model_config = ConfigDict(extra="forbid")
    action: StrictInt


def status_of(error: Exception) -> int | None:
    """The HTTP status of a refusal, or None for an error that is a fault of the server."""
    if isinstance(error, RequestError):
        return error.status
    return next((status for kind, status in ERRORS if isinstance(error, kind)), None)


async def read_raw_body(request: Request) -> bytes:
    """The request's body, at most MAX_BODY_BYTES: RequestError 413 for a longer one, without reading it (a declared
    length over the limit) or as soon as what arrives passes it."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isascii() and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise RequestError(413, f"body: {int(declared)} bytes, over the limit of {MAX_BODY_BYTES} bytes")
    chunks = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise RequestError(413, f"body: over the limit of {MAX_BODY_BYTES} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def nesting_depth(document: Any) -> int:
    """How many objects and arrays of a JSON document lie one inside another at most (a scalar: 0, `{"a": []}`: 2),
    counted without recursion."""
    deepest = 0
    pending: list[tuple[Any, int]] = [(document, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, dict):
            children: Any = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        deepest = max(deepest, depth)
        pending.extend((child, depth + 1) for child in children)
    return deepest


def field_errors(failure: ValidationError) -> Iterator[str]:
    """Each failure of a body's validation as `field 'x': message` (the message names no input)."""
    for error in failure.errors(include_input=False, include_url=False):
        field = ".".join(str(part) for part in error["loc"]) or "body"
        yield f"field {quoted(field)}: {error['msg']}"


async def read_body(request: Request, model: type[BaseModel]) -> Any:
    """The request's JSON body as `model`; RequestError 413 for a body over MAX_BODY_BYTES, 400 naming what is wrong
    for one that is no JSON, nests deeper than MAX_BODY_DEPTH, or has a field missing, extra or wrong."""
    raw = await read_raw_body(request)
    try:
        document = json.loads(raw or b"null")
    except RecursionError:
        raise RequestError(400, f"body: JSON nested deeper than {MAX_BODY_DEPTH} levels") from None
    except ValueError as error:  # not JSON, not UTF-8, or an integer past Python's limit on digits
        raise RequestError(400, f"body: not valid JSON: {shortened(str(error), 200)}") from None
    if nesting_depth(document) > MAX_BODY_DEPTH:
        raise RequestError(400, f"body: JSON nested deeper than {MAX_BODY_DEPTH} levels")
    if not isinstance(document, dict):
        raise RequestError(400, f"body: expected a JSON object, got {type(document).__name__}")
    try:
        return model.model_validate(document)
    except ValidationError as failure:
        raise RequestError(400, f"body: {next(field_errors(failure))}") from None


def png(state: State, cache: bool = True) -> Response:
    """The game's picture of `state`; 404 naming the game when it draws none. A live game's is never cached (its
    address stays while the state changes); a replay's step is the same picture while the file is unchanged."""
    picture = picture_png(state)
    if picture is None:
        raise RequestError(404, f"the game {state.game.spec.name!r} draws no picture (its render module has none)")
    return Response(picture, media_type="image/png", headers={} if cache else {"Cache-Control": "no-store"})


def step_of(opened: OpenedReplay, text: str) -> int:
    """A step of `opened` from the path: ASCII digits (`str.isdigit` accepts "²", which `int` refuses), RequestError
    400 naming it otherwise, StepError naming the replay's steps for one past its end."""
    if not (text.isascii() and text.isdigit()):
        raise RequestError(400, f"step: expected a whole number of events, got {quoted(text)}")
    if len(text) > STEP_DIGITS:
        raise StepError(f"step {quoted(text)}: replay {opened.name!r} has steps 0..{len(opened.record.events)}")
    step = int(text)
    opened.state(step)  # StepError for a step past the end
    return step


def create_app(folder: Path | str, live_folder: Path | str | None = None) -> Starlette:
    """The viewer over the replays under `folder`; live games are recorded into `live_folder` (default `folder`)."""
    replays = ReplayFolder(folder)
    games = LiveGames(folder if live_folder is None else live_folder)
    static = resources.files(STATIC_PACKAGE) / "static"

    def guarded(handler: Callable[[Request], Any]) -> Callable[[Request], Awaitable[Response]]:
        """An endpoint of `handler` (a plain function runs off the event loop), each refusal its 4xx JSON answer."""

        async def endpoint(request: Request) -> Response:
            try:
                if inspect.iscoroutinefunction(handler):
                    answer = await handler(request)
                else:
                    answer = await run_in_threadpool(handler, request)
            except Exception as error:  # every refusal is mapped; anything else is the server's fault
                status = status_of(error)
                if status is None:
                    raise
                return JSONResponse({"error": shortened(str(error))}, status_code=status)
            return answer if isinstance(answer, Response) else JSONResponse(answer)

        return endpoint

    # -------------------------------------------------------------------------------------------- replays
    def info(request: Request) -> dict[str, Any]:
        records = registered_games().values()
        env_ids = [env for record in records for env in (*record.gym_env_ids, *record.pettingzoo_ids)]
        return {
            "folder": str(replays.folder),
            "envs": env_ids,
            "agents": [HUMAN, *registered_agent_names()],
            "new_game_agents": {env: list(default_agents(env)) for env in env_ids},
        }

    def running_game(name: str) -> RunningRecord | None:
        """What the marker of the replay `name` says of the live game still running that writes it, or None."""
        return running_record(replays.folder / name)

    def replay_list(request: Request) -> dict[str, Any]:
        listed = []
        for summary in replays.summaries():
            running = "error" not in summary and running_game(summary["name"]) is not None
            listed.append({**summary, "running": running, **({"outcome": None} if running else {})})
        return {"folder": str(replays.folder), "replays": listed}

    def opened_view(request: Request) -> tuple[OpenedReplay, View, RunningRecord | None]:
        """The replay the path names, the view the query names (HiddenViewError for one that the replay's live game,
        while it runs, does not show) and that game (None: the record of no running game)."""
        name = request.path_params["name"]
        running = running_game(name)  # asked first: a game that ends meanwhile only shows less
        opened = replays.open(name)
        view = parse_view(request.query_params.get("view"), opened.num_players)
        if running is not None:
            running.check_view(view, record=name)
        return opened, view, running

    def replay_steps(request: Request) -> dict[str, Any]:
        opened, view, running = opened_view(request)
        header = opened.describe()
        if running is not None:
            header["outcome"] = None  # the scores of a game in progress may count what is hidden
        return {
            **header,
            "running": running is not None,
            "views": view_names(opened.num_players) if running is None else list(running.views),
            "view": view,
            "picture": has_picture(opened.states[0].game),
            "events": opened.steps(view),
        }

    def replay_state(request: Request) -> dict[str, Any]:
        opened, view, _ = opened_view(request)
        step = step_of(opened, request.path_params["step"])
        state = opened.state(step)
        return {
            "name": opened.name,
            "step": step,
            "steps": len(opened.record.events),
            "view": view,
            "to_act": actor_of(state),
            "terminal": state.is_terminal(),
            "rewards": rewards_after(state),
            "text": view_text(state, view),
        }

    def replay_picture(request: Request) -> Response:
        opened, _, _ = opened_view(request)  # the public view's picture; a view asked for is checked all the same
        return png(opened.state(step_of(opened, request.path_params["step"])))

    # -------------------------------------------------------------------------------------------- live games
    def game_list(request: Request) -> dict[str, Any]:
        listed = [
            {"name": game.name, "env_id": game.table.env_id, "players": list(game.table.labels), "over": game.over}
            for game in games.games.values()
        ]
        return {"games": listed}

    async def new_game(request: Request) -> Response:
        body = await read_body(request, NewGame)

        def create() -> dict[str, Any]:
            game = games.create(body.env, body.agents, body.seed, body.env_kwargs)
            return game.status(game.view_of(None))

        return JSONResponse(await run_in_threadpool(create), status_code=201)

    def game_status(request: Request) -> dict[str, Any]:
        game = games.get(request.path_params["name"])
        return game.status(game.view_of(request.query_params.get("view")))

    async def game_move(request: Request) -> dict[str, Any]:
        game = games.get(request.path_params["name"])
        view = game.view_of(request.query_params.get("view"))  # the person's seat or the public view: valid after
        body = await read_body(request, Move)

        def move() -> dict[str, Any]:
            game.move(body.action)
            return game.status(view)

        answer: dict[str, Any] = await run_in_threadpool(move)
        return answer

    def game_picture(request: Request) -> Response:
        return png(games.get(request.path_params["name"]).state, cache=False)

    async def page(request: Request) -> Response:
        return FileResponse(str(static / "index.html"))

    def unknown_api(request: Request) -> Response:
        raise RequestError(404, f"no endpoint {request.method} {request.url.path}: see GET /api/info")

    routes = [
        Route("/", page),
        Route("/api/info", guarded(info)),
        Route("/api/replays", guarded(replay_list)),
        Route("/api/replays/{name:path}/steps", guarded(replay_steps)),
        Route("/api/replays/{name:path}/states/{step}/picture", guarded(replay_picture)),
        Route("/api/replays/{name:path}/states/{step}", guarded(replay_state)),
        Route("/api/games", guarded(game_list), methods=["GET"]),
        Route("/api/games", guarded(new_game), methods=["POST"]),
        Route("/api/games/{name}", guarded(game_status)),
        Route("/api/games/{name}/actions", guarded(game_move), methods=["POST"]),
        Route("/api/games/{name}/picture", guarded(game_picture)),
        Route("/api/{rest:path}", guarded(unknown_api), methods=["GET", "POST", "PUT", "DELETE", "PATCH"]),
        Mount("/static", app=StaticFiles(directory=str(static)), name="static"),
    ]

    async def not_found(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        return JSONResponse({"error": f"{request.method} {request.url.path}: {error.detail}"}, error.status_code)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        """At the server's shutdown (Ctrl-C too), its running games are abandoned: their records' markers removed."""
        try:
            yield
        finally:
            games.close()

    app = Starlette(routes=routes, exception_handlers={HTTPException: not_found}, lifespan=lifespan)
    app.state.replays = replays  # the command line sets up a live game before serving
    app.state.games = games
    return app
