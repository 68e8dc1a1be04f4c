"""Progress of a long command on standard error: items done, rate and time left.

On a terminal one line is redrawn in place (at most every REDRAW_SECONDS); elsewhere (logs, pipes, CI) a plain line
is written each time another tenth of the work is done, so a log holds about ten lines whatever the length.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable
from typing import TextIO

REDRAW_SECONDS = 0.2
"""Least time between two redraws of the line on a terminal."""
PLAIN_LINE_STEPS = 10
"""Off a terminal, a line each time another 1/PLAIN_LINE_STEPS of the work is done."""


def duration_text(seconds: float) -> str:
    """Seconds as `1h02m03s`, `2m03s` or `3s` (`?` when unknown)."""
    if not math.isfinite(seconds):
        return "?"
    whole = max(0, round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}h{minutes:02d}m{secs:02d}s"
    return f"{minutes}m{secs:02d}s" if minutes else f"{secs}s"


class Progress:
    """Counts finished items out of `total` and reports them on `stream` (standard error by default)."""

    def __init__(
        self,
        total: int,
        unit: str,
        enabled: bool = True,
        stream: TextIO | None = None,
        interactive: bool | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.total = total
        self.unit = unit
        self.done = 0
        self.enabled = enabled and total > 0
        self.stream = sys.stderr if stream is None else stream
        self.interactive = self.stream.isatty() if interactive is None else interactive
        self.clock = clock
        self.start = clock()
        self._last_draw = -math.inf
        self._steps_shown = 0
        self._drawn = False

    def line(self) -> str:
        """The progress line: `episodes 40/200 (20%), 12.3/s, about 13s left` (elapsed time once finished)."""
        elapsed = self.clock() - self.start
        rate = self.done / elapsed if elapsed > 0 else math.nan
        text = f"{self.unit} {self.done}/{self.total} ({self.done / self.total:.0%})"
        if math.isfinite(rate) and rate > 0:
            text += f", {rate:.3g}/s"
        if self.done >= self.total:
            return f"{text}, {duration_text(elapsed)} in all"
        left = (self.total - self.done) / rate if math.isfinite(rate) and rate > 0 else math.nan
        return f"{text}, about {duration_text(left)} left"

    def advance(self, count: int = 1) -> None:
        """Count `count` more finished items and report when due."""
        self.done += count
        if not self.enabled:
            return
        if self.interactive:
            now = self.clock()
            if now - self._last_draw >= REDRAW_SECONDS or self.done >= self.total:
                self._last_draw = now
                self.stream.write("\r" + self.line() + "\x1b[K")  # clear what a longer line left
                self.stream.flush()
                self._drawn = True
            return
        steps = self.done * PLAIN_LINE_STEPS // self.total
        if steps > self._steps_shown:
            self._steps_shown = steps
            self.stream.write(self.line() + "\n")
            self.stream.flush()

    def close(self) -> None:
        """End the redrawn line on a terminal (so what follows starts on a line of its own)."""
        if self.enabled and self.interactive and self._drawn:
            self.stream.write("\n")
            self.stream.flush()
            self._drawn = False
