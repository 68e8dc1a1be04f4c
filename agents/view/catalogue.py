"""The replays of a folder: listed with their game, seed, players and outcome; opened once, stepped at will.

Records are read and replayed only through `envs.core.replays` (`read_record`, `start_of`, `apply_event`,
`result_differences`): opening a replay rebuilds its game, applies every event with the same checks as
`python -m envs.replay`, keeps the state after each event (so any step is shown without replaying again) and checks
the recorded result. A replay is named by its path under the folder ("episode_3.json", "group/episode_0.json").
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from agents.view.board import actor_of, quoted, rewards_after, shortened
from envs.core.game import CHANCE, State
from envs.core.replays import (
    ReplayError,
    ReplayFormatError,
    ReplayRecord,
    View,
    apply_event,
    event_label,
    read_record,
    result_differences,
    start_of,
)

RECORD_SUFFIX: Final = ".json"
"""The suffix of the replay records a folder is searched for (in every subfolder)."""
OLD_FORMAT: Final = "old format"
"""How `parse_record` refuses a recording of an earlier version (listed, with that error)."""
OPENED_REPLAYS: Final = 8
"""How many opened replays (with every state kept) stay in memory; the least recently shown is dropped first."""


class UnknownReplayError(LookupError):
    """A replay name that is not a record file of the folder; the message names it and the folder."""


class StepError(ValueError):
    """A step outside a replay; the message names the step and the replay's range."""


@dataclass(frozen=True)
class OpenedReplay:
    """A replayed record: the record and the state after each of its events (`states[0]` is the start)."""

    name: str
    record: ReplayRecord
    states: tuple[State, ...]

    @property
    def num_players(self) -> int:
        """The game's number of seats."""
        return self.states[0].game.spec.num_players

    def state(self, step: int) -> State:
        """The state after `step` events (0: the start); StepError names a step outside 0..len(events)."""
        last = len(self.record.events)
        if not 0 <= step <= last:
            raise StepError(f"step {step}: replay {self.name!r} has steps 0..{last}")
        return self.states[step]

    def steps(self, view: View) -> list[dict[str, Any]]:
        """Every event as `view` sees it: step, acting seat (or "chance"), action, label and the rewards after it."""
        listed = []
        for index, (player, action) in enumerate(self.record.events):
            before, after = self.states[index], self.states[index + 1]
            listed.append(
                {
                    "step": index + 1,
                    "player": "chance" if player == CHANCE else player,
                    "action": action,
                    "label": event_label(before, player, action, view),
                    "rewards": rewards_after(after),
                }
            )
        return listed

    def describe(self) -> dict[str, Any]:
        """The replay's header: game, env id, kwargs, seed, players, number of steps and result."""
        record = self.record
        return {
            **summary_of(self.name, record),
            "game_kwargs": record.game_kwargs,
            "num_players": self.num_players,
            "to_act_at_end": actor_of(self.states[-1]),
        }


def summary_of(name: str, record: ReplayRecord) -> dict[str, Any]:
    """How a replay is listed: name, env id, game, seed, players, steps, decisions and outcome."""
    result = record.result
    outcome = None
    if result is not None:
        outcome = {"terminal": result.terminal, "returns": result.returns, "scores": result.scores}
    return {
        "name": name,
        "env_id": record.env_id,
        "game": record.game,
        "seed": record.seed,
        "players": record.players,
        "steps": len(record.events),
        "decisions": sum(1 for player, _ in record.events if player != CHANCE),
        "outcome": outcome,
    }


def open_record(name: str, record: ReplayRecord) -> OpenedReplay:
    """Replay `record` from its start, keeping every state; ReplayError names a bad event or a differing result."""
    state = start_of(record)
    states = [state.clone()]
    for step, (player, action) in enumerate(record.events, start=1):
        apply_event(state, step, player, action, view=None)
        states.append(state.clone())
    if record.result is not None:
        differences = result_differences(record.result, state)
        if differences:
            raise ReplayError("the replay differs from the record: " + "; ".join(differences))
    return OpenedReplay(name, record, tuple(states))


def read_file_record(path: Path) -> ReplayRecord:
    """`read_record`, with the files Python's JSON reader fails on in other ways (nested too deeply for its
    recursion, an integer past its limit on digits) refused as ReplayFormatError too, naming the file."""
    try:
        return read_record(path)
    except ReplayFormatError:
        raise
    except RecursionError:
        raise ReplayFormatError(str(path), "file", "not readable: JSON nested too deeply") from None
    except ValueError as error:  # an integer longer than Python's int-string limit
        raise ReplayFormatError(str(path), "file", f"not readable: {shortened(str(error))}") from None


def is_other_json(error: ReplayFormatError) -> bool:
    """Whether a file refused as a record is some other JSON file (a run's results.json beside its recordings): it
    names no record format. A recording of an earlier version, or a file that names the format but is broken, is a
    record that cannot be shown, and is listed with its error."""
    return error.field == "format" and OLD_FORMAT not in str(error)


class ReplayFolder:
    """The replay records under a folder: listed on every request (new files appear), opened replays cached."""

    def __init__(self, folder: Path | str, opened: int = OPENED_REPLAYS) -> None:
        self.folder = Path(folder)
        self._opened: OrderedDict[tuple[str, int], OpenedReplay] = OrderedDict()
        self._summaries: dict[tuple[str, int], dict[str, Any]] = {}
        self._capacity = opened
        self._lock = threading.Lock()

    def names(self) -> list[str]:
        """Every record file under the folder, by its path there (sorted)."""
        if not self.folder.is_dir():
            return []
        return sorted(
            path.relative_to(self.folder).as_posix()
            for path in self.folder.rglob(f"*{RECORD_SUFFIX}")
            if path.is_file() and not any(part.startswith(".") for part in path.relative_to(self.folder).parts)
        )

    def _file(self, name: str) -> tuple[Path, int]:
        """The file of replay `name` and its modification time; UnknownReplayError for any other name."""
        if name not in self.names():
            raise UnknownReplayError(f"unknown replay {quoted(name)}: no such record file under {self.folder}")
        path = self.folder / name
        try:
            return path, path.stat().st_mtime_ns
        except FileNotFoundError:  # removed since it was found
            raise UnknownReplayError(f"unknown replay {quoted(name)}: removed from {self.folder}") from None

    def summaries(self) -> list[dict[str, Any]]:
        """Every record of the folder as listed (`summary_of`); a record that cannot be read is listed with its error,
        other JSON files (`is_other_json`) are left out."""
        listed = []
        for name in self.names():
            path = self.folder / name
            try:
                key = (name, path.stat().st_mtime_ns)
            except FileNotFoundError:  # removed since it was found
                continue
            summary = self._summaries.get(key)
            if summary is None:
                try:
                    summary = summary_of(name, read_file_record(path))
                except ReplayFormatError as error:  # it names the file and the field
                    summary = {"name": name, "error": shortened(str(error)), "record": not is_other_json(error)}
                self._summaries[key] = summary
            if summary.get("record", True):
                listed.append(summary)
        return listed

    def open(self, name: str) -> OpenedReplay:
        """Replay `name` (cached while its file is unchanged); UnknownReplayError, or ReplayError for a bad record."""
        path, modified = self._file(name)
        key = (name, modified)
        with self._lock:
            opened = self._opened.get(key)
            if opened is not None:
                self._opened.move_to_end(key)
                return opened
        opened = open_record(name, read_file_record(path))
        with self._lock:
            self._opened[key] = opened
            while len(self._opened) > self._capacity:
                self._opened.popitem(last=False)
        return opened
