"""The viewer's command line: `tabletop-view FOLDER` to watch replays, `tabletop-view play --env ID --agent ...`.

    tabletop-view OUT/recordings/                           # every replay record under the folder
    tabletop-view play --env tabletop/unearth_v0 --agent heuristic --agent human [--seed 3]

Both start a local server (127.0.0.1 unless `--host` says otherwise) and print its address. `play` sets up a live
game first (one `--agent` per seat in seat order, any spec evaluate.py accepts, `human` for you) and prints the
game's address; its replay record is written into `--folder` (default: runs/view) after every move, and the replays
of that folder are listed beside it. While the game runs its record is marked as running (a hidden `.NAME.running`
file beside it), which every viewer of the folder honours; stopping the server (Ctrl-C) removes the mark. Exit
status 2 with one error line for a bad env id, agent spec or port.
"""

from __future__ import annotations

import argparse
import socket
import sys
from pathlib import Path
from typing import Final

from agents.common.config import ConfigError
from agents.evaluation.play import parse_env_kwargs

DEFAULT_HOST: Final = "127.0.0.1"
"""Where the server listens unless told otherwise: this machine only."""
DEFAULT_PORT: Final = 8765
"""The server's port unless told otherwise (0 picks a free one)."""
DEFAULT_LIVE_FOLDER: Final = Path("runs") / "view"
"""Where `play` writes its games' records unless `--folder` says otherwise."""
USAGE_EXIT_CODE: Final = 2
"""Exit status of a bad command line."""
VIEW_EXTRA: Final = "pip install 'tabletop-gym[view]'"
"""What installs the viewer's web stack."""


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on (host, port) (port 0: a free one), so the address is known before the server starts."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    return sock


def address_of(sock: socket.socket) -> str:
    """The http address of a listening socket."""
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def add_server_arguments(parser: argparse.ArgumentParser) -> None:
    """--host and --port."""
    parser.add_argument("--host", default=DEFAULT_HOST, help=f"address to listen on (default {DEFAULT_HOST})")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT}; 0: any free)")


def main(argv: list[str] | None = None) -> int:
    """Parse the command line, set up the viewer (and a live game for `play`) and serve until interrupted."""
    arguments = sys.argv[1:] if argv is None else list(argv)
    playing = bool(arguments) and arguments[0] == "play"
    parser = argparse.ArgumentParser(
        prog="tabletop-view" + (" play" if playing else ""),
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    if playing:
        arguments = arguments[1:]
        parser.add_argument("--env", required=True, help="env id (Gymnasium or PettingZoo; 'package:id' too)")
        parser.add_argument(
            "--agent", action="append", required=True, metavar="SPEC", help="one per seat in seat order; human: you"
        )
        parser.add_argument("--seed", type=int, default=None, help="seed of the game (random if omitted)")
        parser.add_argument("--env-kwarg", action="append", default=[], metavar="KEY=VALUE", help="game/adapter kwarg")
        parser.add_argument(
            "--folder", type=Path, default=DEFAULT_LIVE_FOLDER, help=f"where records go (default {DEFAULT_LIVE_FOLDER})"
        )
    else:
        parser.add_argument("folder", type=Path, nargs="?", default=Path("."), help="folder of replay records")
    add_server_arguments(parser)
    args = parser.parse_args(arguments)
    try:
        import uvicorn

        from agents.view.app import create_app
        from agents.view.live import GameSetupError
    except ImportError as error:
        print(f"error: the viewer needs its web stack: {VIEW_EXTRA} ({error})", file=sys.stderr)
        return USAGE_EXIT_CODE
    app = create_app(args.folder)
    page = ""
    if playing:
        try:
            game = app.state.games.create(args.env, args.agent, args.seed, parse_env_kwargs(args.env_kwarg))
        except (GameSetupError, ConfigError) as error:
            print(f"error: {error}", file=sys.stderr)
            return USAGE_EXIT_CODE
        page = f"/#/game/{game.name}"
    try:
        try:
            sock = listen(args.host, args.port)
        except OSError as error:
            print(f"error: cannot listen on {args.host}:{args.port}: {error}", file=sys.stderr)
            return USAGE_EXIT_CODE
        print(f"tabletop-view: replays of {args.folder} at {address_of(sock)}{page}  (Ctrl-C stops)", flush=True)
        server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
        try:
            server.run(sockets=[sock])
        except KeyboardInterrupt:
            pass
    finally:
        app.state.games.close()  # a game set up but never served, or a server stopped before its shutdown ran
    return 0
