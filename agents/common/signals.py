"""Stop signals of the command-line tools: SIGTERM handled as Ctrl-C, so a stopped job keeps what it finished."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import Any


def _interrupt(signum: int, frame: Any) -> None:
    """Signal handler: raise KeyboardInterrupt, as Ctrl-C does."""
    raise KeyboardInterrupt


@contextlib.contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """Within the block, SIGTERM (a scheduler's or `kill`'s stop) is handled like Ctrl-C: train.py saves the last
    rollout boundary and prints the resume command, evaluate.py summarises and writes the finished games. Ctrl-C
    cannot reach a job started in the background, where SIGINT is ignored; SIGTERM can. Outside the main thread
    nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
