"""The records of live games still running, marked on disk so that every viewer serving their folder honours them.

Before a live game's record is first written, a marker is written beside it (`.NAME.running` for the record `NAME`:
a hidden file, which no listing shows): the id of the process that holds the game (on Linux also when that process
started, so a process id used again later is not taken for it), the game's name, the person's seat, the views the
record may be shown with while the game runs, and when the game started. Every viewer process, the game's own or
another serving the same folder, shows such a record only with those views while its marker exists and its process
lives. The marker is removed when the game ends, when it is abandoned (its setup fails, its server shuts down); a
marker whose process is gone (a server killed) is stale: it is ignored, and removed by the viewer that meets it.
"""

from __future__ import annotations

import datetime
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from envs.core.replays import View

MARKER_PREFIX: Final = "."
"""A marker is a hidden file (the folder's listing leaves those out)..."""
MARKER_SUFFIX: Final = ".running"
"""...named after its record, with this suffix (no record's suffix)."""
MARKER_FORMAT: Final = "tabletop-view running record"
"""The `format` field of a marker."""
UNREADABLE_VIEWS: Final[tuple[View, ...]] = ("public",)
"""The views a record is shown with while its marker cannot be read (the views it allows are unknown)."""


class HiddenViewError(ValueError):
    """A view the person may not see while the game runs (another seat's, or the full table)."""


def hidden_view(view: View, views: Sequence[View], where: str = "") -> HiddenViewError:
    """The refusal of `view`, which the running game (`where`: of which record) does not show: it names the views."""
    shown = ", ".join(repr(other) for other in views)
    return HiddenViewError(f"view: {view!r}{where} is hidden while the game runs (the views shown: {shown})")


@dataclass(frozen=True)
class RunningRecord:
    """What a record's marker says: the game that writes it, still running, and the views it may be shown with."""

    held_by: str
    """Who holds the record: "the live game NAME", or the marker that cannot be read, why, and what to do."""
    views: tuple[View, ...]

    def check_view(self, view: View, record: str) -> None:
        """HiddenViewError for a view of the record `record` (its name in the folder) that the game does not show."""
        if view not in self.views:
            raise hidden_view(view, self.views, f" of the record {record!r} ({self.held_by})")


def marker_path(record: Path) -> Path:
    """The marker of the record file `record`: beside it, hidden."""
    return record.with_name(f"{MARKER_PREFIX}{record.name}{MARKER_SUFFIX}")


def process_state(pid: int) -> tuple[str, str] | None:
    """The state letter and the start time (clock ticks after boot) of process `pid`, from Linux's /proc; None where
    there is no such file (no such process, or no /proc)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    fields = stat.rpartition(")")[2].split()  # after the command's name, which may hold spaces and parentheses
    return fields[0], fields[19]  # the stat's 3rd and 22nd fields


def process_lives(pid: int, started: str | None) -> bool:
    """Whether process `pid` (started at `started`, when known) runs still. Where no process can be probed safely
    (not a POSIX system: `os.kill` would end it), every process is taken to run."""
    if os.name != "posix":
        return True
    try:
        os.kill(pid, 0)  # no signal sent: only whether the process exists
    except ProcessLookupError:
        return False
    except PermissionError:  # it exists, another user's
        pass
    known = process_state(pid)
    if known is None:
        return True
    state, start = known
    return state != "Z" and (started is None or start == started)  # a zombie has ended; another start: another process


def mark_running(record: Path, game: str, views: Sequence[View]) -> Path:
    """Create the marker of `record`, held by this process, for the live game `game` shown with `views` while it runs;
    FileExistsError where it has one already (the record is another game's, whose viewer may be another process).
    Returns the marker's path. (While it is being written, a reader finds it unreadable: the public view only.)"""
    marker = marker_path(record)
    known = process_state(os.getpid())
    content = {
        "format": MARKER_FORMAT,
        "pid": os.getpid(),
        "process_start": None if known is None else known[1],
        "game": game,
        "views": list(views),
        "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    }
    marker.parent.mkdir(parents=True, exist_ok=True)  # the record's folder, before the record is first written
    with marker.open("x", encoding="utf-8") as file:  # created only where no file is
        file.write(json.dumps(content) + "\n")
    return marker


def unmark(record: Path) -> None:
    """Remove the marker of `record` (nothing if there is none)."""
    marker_path(record).unlink(missing_ok=True)


def marker_fields(text: str) -> tuple[str, tuple[View, ...], int, str | None]:
    """The game, views, process id and process start a marker's text gives; ValueError naming the field wrong."""
    content: Any = json.loads(text)
    if not isinstance(content, dict) or content.get("format") != MARKER_FORMAT:
        raise ValueError(f"format: expected {MARKER_FORMAT!r}")
    pid, started, game, views = (content.get(key) for key in ("pid", "process_start", "game", "views"))
    if isinstance(pid, bool) or not isinstance(pid, int) or pid <= 0:
        raise ValueError("pid: expected a process id (a whole number over 0)")
    if started is not None and not isinstance(started, str):
        raise ValueError("process_start: expected a string or null")
    if not isinstance(game, str):
        raise ValueError("game: expected a string")
    if not isinstance(views, list) or not all(isinstance(view, str | int) for view in views):
        raise ValueError("views: expected a list of views")
    return game, tuple(views), pid, started


def running_record(record: Path) -> RunningRecord | None:
    """What the marker of the record file `record` says, or None: no marker, or a stale one (its process is gone),
    which is removed. A marker that cannot be read is honoured with `UNREADABLE_VIEWS`, naming the marker."""
    marker = marker_path(record)
    try:
        game, views, pid, started = marker_fields(marker.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, RecursionError) as error:  # UnicodeDecodeError, JSONDecodeError: ValueErrors
        unreadable = f"its marker {marker} cannot be read: {error}; remove it if no game runs"
        return RunningRecord(unreadable, UNREADABLE_VIEWS)
    if not process_lives(pid, started):
        marker.unlink(missing_ok=True)
        return None
    return RunningRecord(f"the live game {game}", views)
