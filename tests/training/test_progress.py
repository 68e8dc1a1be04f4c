"""Progress lines of long commands (agents/evaluation/progress.py): plain lines off a terminal, one redrawn line on
it."""

from __future__ import annotations

import io

from agents.evaluation.progress import Progress, duration_text


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_off_a_terminal_a_plain_line_per_tenth_with_rate_and_time_left() -> None:
    stream, clock = io.StringIO(), FakeClock()
    progress = Progress(200, "episodes", stream=stream, interactive=False, clock=clock)
    for _ in range(200):
        clock.now += 0.5  # 2 episodes a second
        progress.advance()
    progress.close()
    lines = stream.getvalue().splitlines()
    assert len(lines) == 10
    assert lines[0] == "episodes 20/200 (10%), 2/s, about 1m30s left"
    assert lines[4] == "episodes 100/200 (50%), 2/s, about 50s left"
    assert lines[-1] == "episodes 200/200 (100%), 2/s, 1m40s in all"
    assert "\r" not in stream.getvalue()


def test_a_small_total_still_reports_every_item_once() -> None:
    stream = io.StringIO()
    progress = Progress(3, "games", stream=stream, interactive=False, clock=FakeClock())
    for _ in range(3):
        progress.advance()
    assert [line.split(",")[0] for line in stream.getvalue().splitlines()] == [
        "games 1/3 (33%)",
        "games 2/3 (67%)",
        "games 3/3 (100%)",
    ]


def test_on_a_terminal_one_line_is_redrawn_and_ended_by_close() -> None:
    stream, clock = io.StringIO(), FakeClock()
    progress = Progress(4, "episodes", stream=stream, interactive=True, clock=clock)
    progress.advance()  # the first item is drawn at once
    progress.advance()  # too soon after it: not redrawn
    clock.now += 1.0
    progress.advance()
    progress.advance()  # the last item is always drawn
    progress.close()
    text = stream.getvalue()
    assert text.count("\r") == 3 and text.endswith("\n") and text.count("\n") == 1
    assert "\repisodes 1/4 (25%)" in text and "\repisodes 3/4 (75%), 3/s, about 0s left" in text
    assert "episodes 4/4 (100%), 4/s, 1s in all" in text


def test_disabled_progress_writes_nothing() -> None:
    stream = io.StringIO()
    for interactive in (False, True):
        progress = Progress(5, "episodes", enabled=False, stream=stream, interactive=interactive, clock=FakeClock())
        for _ in range(5):
            progress.advance()
        progress.close()
    assert stream.getvalue() == ""
    assert progress.done == 5  # still counted


def test_durations_read_as_hours_minutes_seconds() -> None:
    assert [duration_text(seconds) for seconds in (0, 59.4, 61, 3723, float("nan"))] == [
        "0s",
        "59s",
        "1m01s",
        "1h02m03s",
        "?",
    ]
