"""How fast the viewer opens a long replay and steps through it (the browser's requests, through Starlette's client).

    python -m benchmarks.viewer_timing --env ENV_ID [--env-kwarg KEY=VALUE ...] [--seeds 10]

Records `--seeds` seeded games of the env (every seat the game's heuristic) and keeps the longest, then times, on a
fresh viewer, opening it (`GET .../steps`: the replay rebuilt with every state kept, every step's label) and showing
each of the first steps as the page does (`GET .../states/K` and its picture). Prints the figures, with the time to
open per event and what that makes for a replay of 1,000 events (opening is linear in the events); nothing is
written.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from agents.evaluation.play import parse_env_kwargs
from benchmarks.viewer_screenshots import record_game
from envs.core.replays import read_record

STEPPED: int = 100
"""How many successive steps are shown after opening."""
LONG_REPLAY: int = 1000
"""The length of replay the figures are scaled to."""


def main(argv: list[str] | None = None) -> int:
    """Record a long game, open it in a fresh viewer and step through it, printing the times."""
    from starlette.testclient import TestClient

    from agents.view.app import create_app

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--env", required=True, help="env id of the recorded game")
    parser.add_argument("--env-kwarg", action="append", default=[], metavar="KEY=VALUE", help="a game kwarg")
    parser.add_argument("--seeds", type=int, default=10, help="games recorded; the longest is timed (default 10)")
    args = parser.parse_args(argv)
    kwargs = parse_env_kwargs(args.env_kwarg)
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        lengths = {}
        for seed in range(args.seeds):
            path = record_game(args.env, seed, folder / "long.json", agent="heuristic", game_kwargs=kwargs)
            lengths[seed] = len(read_record(path).events)
        seed = max(lengths, key=lambda candidate: lengths[candidate])
        steps = lengths[seed]
        record_game(args.env, seed, folder / "long.json", agent="heuristic", game_kwargs=kwargs)
        client = TestClient(create_app(folder))
        start = time.perf_counter()
        opened = client.get("/api/replays/long.json/steps", params={"view": 0})
        open_seconds = time.perf_counter() - start
        assert opened.status_code == 200, opened.text
        texts, pictures = [], []
        for step in range(STEPPED):
            start = time.perf_counter()
            client.get(f"/api/replays/long.json/states/{step}", params={"view": 0}).raise_for_status()
            texts.append(time.perf_counter() - start)
            start = time.perf_counter()
            client.get(f"/api/replays/long.json/states/{step}/picture").raise_for_status()
            pictures.append(time.perf_counter() - start)
    print(f"{args.env} {kwargs}, seed {seed}: {steps} events")
    per_event = open_seconds / steps
    print(f"open (GET steps, seat 0's labels): {open_seconds * 1000:.0f} ms ({per_event * 1e6:.0f} us per event)")
    print(f"a replay of {LONG_REPLAY} events at that rate: {per_event * LONG_REPLAY * 1000:.0f} ms")
    for name, times in (("state text", texts), ("picture (PNG)", pictures)):
        print(f"step {name}: median {statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
