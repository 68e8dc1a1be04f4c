"""Helpers that worker processes import by name (tests of agents.evaluation.parallel.stream_in_workers)."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator


def worker_pids_forever(chunk: int) -> Iterator[int]:
    """Yield this worker's process id, again and again, slowly (a task that never ends by itself)."""
    while True:
        yield os.getpid()
        time.sleep(0.2)


def stream_until_killed() -> None:
    """Print every worker's process id once, then keep streaming until this process is killed."""
    from agents.evaluation.parallel import stream_in_workers

    seen: set[int] = set()
    for pid in stream_in_workers(worker_pids_forever, [0, 1], workers=2):
        if pid not in seen:
            seen.add(pid)
            print(pid, flush=True)
