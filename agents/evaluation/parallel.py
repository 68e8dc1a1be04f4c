"""Playing in worker processes: chunks of work streamed back from a process pool as each item is made.

Evaluations and tournaments hand their games to `stream_in_workers` in chunks (`chunk_size`): one process plays
every chunk in order, several play them in parallel and stream each result to the parent as it ends. The parent's
Ctrl-C (closing the stream) terminates the workers at once, and a worker whose parent died exits by itself.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

CHUNKS_PER_WORKER = 2
"""Work is handed to workers in this many chunks per worker (balance vs. per-chunk agent loading)."""


def use_one_torch_thread() -> None:
    """One intra-op torch thread once torch is loaded: identical floating-point results whatever the worker count
    (and faster)."""
    torch = sys.modules.get("torch")  # None where an import of torch is blocked
    if torch is not None:
        torch.set_num_threads(1)


def chunk_size(episodes: int, workers: int) -> int:
    """Episodes per chunk: all of them in one process (an agent is built once per chunk), else enough chunks to
    balance the load (CHUNKS_PER_WORKER per worker)."""
    return episodes if workers == 1 else max(1, math.ceil(episodes / (workers * CHUNKS_PER_WORKER)))


ChunkT = TypeVar("ChunkT")
ItemT = TypeVar("ItemT")
WORKER_POLL_SECONDS = 0.1
"""How often the parent checks its workers while it waits for their next result."""
_worker_items: Any = None
"""In a worker process: the queue its results go to (set by `_start_worker`)."""


PARENT_POLL_SECONDS = 1.0
"""How often a worker checks that the process that started it is still alive."""


def _exit_when_orphaned(parent: int) -> None:
    """Worker watchdog: end this worker at once when `parent` is gone (killed by SIGTERM or SIGKILL, it could not
    stop its workers, which would otherwise go on playing for nobody)."""
    while True:
        time.sleep(PARENT_POLL_SECONDS)
        try:
            os.kill(parent, 0)
        except ProcessLookupError:
            os._exit(1)
        except PermissionError:  # another user's process took the number: the parent is gone
            os._exit(1)


def _start_worker(items: Any, parent: int | None = None) -> None:
    """Worker initializer: keep the results queue; ignore Ctrl-C, which the parent handles by stopping the workers;
    watch the parent process `parent` and exit when it is gone."""
    global _worker_items
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker_items = items
    if parent is not None:
        threading.Thread(target=_exit_when_orphaned, args=(parent,), daemon=True, name="parent-watchdog").start()


def _stream_chunk(task: tuple[Callable[[Any], Iterator[Any]], Any]) -> int:
    """Worker side of `stream_in_workers`: each item of `play(chunk)` to the parent as it is made; their count."""
    play, chunk = task
    count = 0
    for item in play(chunk):
        _worker_items.put(item)
        count += 1
    return count


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Terminate the pool's worker processes now (an interrupt or a failed chunk: nothing more is wanted)."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14+
    if terminate is not None:
        terminate()
    else:
        for process in list(pool._processes.values()):  # before 3.14 the pool has no public way
            process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)


def stream_in_workers(
    play: Callable[[ChunkT], Iterator[ItemT]], chunks: Sequence[ChunkT], workers: int
) -> Generator[ItemT, None, None]:
    """Every item of `play(chunk)` for every chunk, as each is made: here in chunk order (one worker), or from
    `workers` processes in the order they finish. Closing the iterator early (Ctrl-C) terminates the workers."""
    if workers == 1:
        for chunk in chunks:
            yield from play(chunk)
        return
    # forkserver/spawn, not fork: the parent may hold torch threads, which fork does not copy safely.
    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    items = context.Queue()
    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_start_worker, initargs=(items, os.getpid())
    )
    finished = False
    try:
        futures = [pool.submit(_stream_chunk, (play, chunk)) for chunk in chunks]
        received = 0
        while True:
            try:
                item = items.get(timeout=WORKER_POLL_SECONDS)
            except queue.Empty:
                for future in futures:
                    if future.done() and future.exception() is not None:
                        future.result()  # a worker's error, raised here
                if all(future.done() for future in futures) and received >= sum(f.result() for f in futures):
                    break
                continue
            received += 1
            yield item
        finished = True
    finally:
        if finished:
            pool.shutdown(wait=True)
        else:
            _stop_workers(pool)
        items.close()
