"""Screenshots of the browser viewer, one per registered game, taken in headless Chromium: the docs' pictures.

    python -m benchmarks.viewer_screenshots [--out DIR] [--step-fraction 0.5] [--only play GAME ...] [--play-env ID]

Every discovered game gets one seeded game on its first env id (each seat playing the game's heuristic, random where
the game has none) recorded into `runs/view` of a temporary folder, the folder `tabletop-view play` writes to (the
page shows it as that relative path, as it would after that command); the viewer (agents/view) serves it on
127.0.0.1 and Debian's Chromium (`/usr/bin/chromium`, driven by Selenium through `/usr/bin/chromedriver`) opens
each replay at a step part-way through, in a seat's view, and saves `viewer-<game>.png`. A live game of
`--play-env` (default: `default_play_env()`, the first discovered game with several seats, on its PettingZoo id: the
game of the README's and the docs' `tabletop-view play` command) set up with the home form's defaults (the heuristic,
then the person) is shot too, as `viewer-play.png`. The browser tests (tests/view) use the same server
and browser helpers.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Final

import numpy as np

from agents.players.registry import AgentSpecError, make_heuristic_agent
from envs.core.game import CHANCE, Game
from envs.core.registration import discovered_games, make_env_game
from envs.core.replays import build_record, write_record

CHROMIUM: Final = Path("/usr/bin/chromium")
"""Debian's Chromium (apt-get install chromium)."""
CHROMEDRIVER: Final = Path("/usr/bin/chromedriver")
"""Its WebDriver (apt-get install chromium-driver): Selenium drives the browser through it, nothing downloaded."""
WINDOW: Final = (1500, 1050)
"""The browser window's size (pixels) for the tests and the screenshots."""
WAIT_SECONDS: Final = 20.0
"""How long a page may take to show what is waited for before a test fails."""
DOCS_STATIC: Final = Path(__file__).resolve().parents[1] / "docs" / "_static"
"""Where the documentation's pictures live."""
PLAY_SHOT: Final = "play"
"""The name of the live game's picture (`viewer-play.png`) beside the games' names."""


def default_play_env() -> str:
    """The env of the live game shot as `viewer-play.png`: the first discovered game (by name) played on a PettingZoo
    id, several seats at one table, as the README's caption and `tabletop-view play` command show it."""
    ids = [env_id for _, record in sorted(discovered_games().items()) for env_id in record.pettingzoo_ids]
    if not ids:
        raise ValueError("no discovered game has a PettingZoo id to play live")
    return ids[0]


# ------------------------------------------------------------------------------------------------ records
def seat_agents(game: Game, agent: str) -> list[Any]:
    """One agent per seat: the game's heuristic ("heuristic", when it has one) or None for seeded random play."""
    if agent != "heuristic":
        return [None] * game.spec.num_players
    try:
        return [make_heuristic_agent(game) for _ in range(game.spec.num_players)]
    except AgentSpecError:
        return [None] * game.spec.num_players


def record_game(
    env_id: str, seed: int, path: Path, agent: str = "random", game_kwargs: dict[str, Any] | None = None
) -> Path:
    """Play one seeded game of `env_id` (every seat `agent`: "random" or "heuristic") and write its replay record."""
    game_kwargs = dict(game_kwargs or {})
    game = make_env_game(env_id, game_kwargs)
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    agents = seat_agents(game, agent)
    for index, seated in enumerate(agents):
        if seated is not None and hasattr(seated, "reset"):
            seated.reset(seed + index)
    history = []
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            action = state.sample_chance(rng)
        elif agents[player] is None:
            action = int(rng.choice(state.legal_actions()))
        else:
            action = int(agents[player].act(None, state.legal_actions_mask(), state=state))
        history.append((player, action))
        state.apply_action(action)
    labels = [agent if seated is not None else "random" for seated in agents]
    record = build_record(game, history, state, env_id=env_id, game_kwargs=game_kwargs, seed=seed, players=labels)
    return write_record(record, path)


# ------------------------------------------------------------------------------------------------ server and browser
@contextlib.contextmanager
def running_viewer(folder: Path, live_folder: Path | None = None) -> Iterator[str]:
    """The viewer of `folder` served on 127.0.0.1 (a free port) in a thread; yields its address, stops after."""
    import uvicorn

    from agents.view.app import create_app
    from agents.view.cli import DEFAULT_HOST, address_of, listen

    sock = listen(DEFAULT_HOST, 0)
    server = uvicorn.Server(uvicorn.Config(create_app(folder, live_folder), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + WAIT_SECONDS
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the viewer's server did not start")
        time.sleep(0.02)
    try:
        yield address_of(sock)
    finally:
        server.should_exit = True
        thread.join(WAIT_SECONDS)
        sock.close()


def headless_chromium() -> Any:
    """Debian's Chromium, headless, driven by Selenium through Debian's chromedriver (nothing is downloaded)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(argument)
    options.add_argument(f"--window-size={WINDOW[0]},{WINDOW[1]}")
    return webdriver.Chrome(options=options, service=Service(executable_path=str(CHROMEDRIVER)))


def wait_until(driver: Any, condition: Callable[[Any], Any], what: str) -> Any:
    """Wait for `condition(driver)` to hold (its value returned); a timeout names `what` was awaited."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    try:
        return WebDriverWait(driver, WAIT_SECONDS).until(condition)
    except TimeoutException:
        error = driver.find_element("id", "error").text
        raise AssertionError(f"waited {WAIT_SECONDS:g} s for {what}; the page's error line: {error!r}") from None


def open_page(driver: Any, address: str) -> None:
    """Open `address` and wait until the page has drawn that route (`body[data-ready]` is set after each route)."""
    driver.get(address)
    hash_part = address.partition("#")[2]
    wait_until(driver, lambda d: d.execute_script("return document.body.dataset.ready") == f"#{hash_part}", address)


def picture_loaded(driver: Any, element_id: str) -> bool:
    """Whether the picture element has finished loading (or is hidden: the game draws none)."""
    script = f"const p = document.getElementById('{element_id}'); return p.hidden || (p.complete && p.naturalWidth);"
    return bool(driver.execute_script(script))


# ------------------------------------------------------------------------------------------------ screenshots
@contextlib.contextmanager
def working_directory(path: Path) -> Iterator[None]:
    """Run the block in `path` as the working directory, and come back after."""
    before = Path.cwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(before)


def take_screenshots(
    out: Path, step_fraction: float, seed: int, only: list[str] | None = None, play_env: str | None = None
) -> list[Path]:
    """Record one game per env id of every discovered game, and shoot the viewer showing each, then a live game of
    `play_env` (default `default_play_env()`); `only` names the pictures to take (games' names, `PLAY_SHOT`; default
    all). Returns the files."""
    import tempfile

    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from agents.view.cli import DEFAULT_LIVE_FOLDER

    out = out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    taken = []
    with tempfile.TemporaryDirectory() as temporary, working_directory(Path(temporary)):
        folder = DEFAULT_LIVE_FOLDER  # relative, as `tabletop-view play` serves it: the page shows no temporary path
        # One picture per game: its first env id (a game's ids share its rules and its picture).
        games = {name: (*record.gym_env_ids, *record.pettingzoo_ids)[0] for name, record in discovered_games().items()}
        unknown = set(only or ()) - {*games, PLAY_SHOT}
        if unknown:
            raise ValueError(f"--only {sorted(unknown)}: no such picture; the pictures: {[*games, PLAY_SHOT]}")
        games = {name: env_id for name, env_id in games.items() if only is None or name in only}
        steps = {}
        for env_id in games.values():
            path = record_game(env_id, seed, folder / f"{env_id.replace('/', '_')}.json", agent="heuristic")
            steps[env_id] = (path.name, len(_events(path)), make_env_game(env_id, {}).spec.num_players)
        driver = headless_chromium()
        try:
            with running_viewer(folder) as address:
                for env_id, (name, count, seats) in steps.items():
                    step = int(count * step_fraction)
                    view = "0" if seats > 1 else "public"
                    open_page(driver, f"{address}/#/replay/{name}?view={view}&step={step}")
                    wait_until(driver, lambda d: picture_loaded(d, "picture"), f"the picture of {name}")
                    shot = out / f"viewer-{next(game for game, env in games.items() if env == env_id)}.png"
                    driver.save_screenshot(str(shot))
                    taken.append(shot)
                if only is None or PLAY_SHOT in only:
                    open_page(driver, f"{address}/#/")
                    Select(driver.find_element(By.ID, "new-env")).select_by_value(
                        play_env or default_play_env()
                    )  # its default agents
                    driver.find_element(By.ID, "new-seed").send_keys(str(seed))
                    driver.find_element(By.CSS_SELECTOR, "#new-game button").click()
                    wait_until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#actions button"), "actions")
                    wait_until(driver, lambda d: picture_loaded(d, "game-picture"), "the live picture")
                    shot = out / f"viewer-{PLAY_SHOT}.png"
                    driver.save_screenshot(str(shot))
                    taken.append(shot)
        finally:
            driver.quit()
    return taken


def _events(path: Path) -> list[tuple[int, int]]:
    from envs.core.replays import read_record

    return list(read_record(path).events)


def main(argv: list[str] | None = None) -> int:
    """Take the screenshots and print where they went."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=DOCS_STATIC, help=f"folder of the pictures (default {DOCS_STATIC})")
    parser.add_argument("--step-fraction", type=float, default=0.5, help="how far into each game (0..1, default 0.5)")
    parser.add_argument("--seed", type=int, default=3, help="seed of every recorded game (default 3)")
    parser.add_argument(
        "--only", nargs="+", metavar="NAME", help=f"take only these pictures: games' names, {PLAY_SHOT} (default all)"
    )
    parser.add_argument(
        "--play-env",
        default=None,
        help="env id of the live game shot as viewer-play.png (default: the first game with a PettingZoo id)",
    )
    args = parser.parse_args(argv)
    for path in take_screenshots(args.out, args.step_fraction, args.seed, args.only, args.play_env or None):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
