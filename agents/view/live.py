"""Live games in the viewer: a person plays one seat, agents (any spec evaluate.py accepts) play the others.

A game is set up as terminal play sets up a table (`agents.evaluation.play.seat_table`: the opponent env with one
agent per other seat), so the agents answer inside each step; a solo game is a table of one seat. After every move
the game's replay record (envs/core/replays.py, the format `evaluate.py --record` writes) is written into the
viewer's folder, so a game, finished or not, is listed and can be watched again.

While a game runs, the person sees what their seat may see: their own view or the public one, in the live game and
in its record alike: the record is marked as running on disk (agents/view/running.py), so every viewer serving the
folder, in this process or another, honours it; every view (other seats', the full table) opens once the game is
over, and its marker is removed then, or when the game is abandoned (`LiveGames.close`, at the server's shutdown).
A decision of the person's with a single legal action is taken without asking, as terminal play takes it, and the
game's events say so. A request that is refused changes nothing.
"""

from __future__ import annotations

import functools
import itertools
import os
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from agents.evaluation.play import HUMAN, ONLY_CHOICE, Table, seat_table
from agents.players.registry import AgentSpecError
from agents.view.board import actor_of, grouped_actions, has_picture, parse_view, quoted, rewards_after, view_names
from agents.view.catalogue import RECORD_SUFFIX
from agents.view.running import hidden_view, mark_running, unmark
from envs.adapters.driver import split_env_kwargs
from envs.core.game import CHANCE, State
from envs.core.registration import game_record_of_env_id, make_env_game
from envs.core.replays import View, apply_event, build_record, event_label, view_text, write_record

LIVE_PREFIX: Final = "live-"
"""How the record files of live games start (then the start time and a number)."""
PARTIAL_PREFIX: Final = "."
"""A record being written is a hidden file first (the folder's listing leaves those out), then renamed into place."""
DEFAULT_OTHER_AGENT: Final = "heuristic"
"""Who plays the other seats of a new game unless told otherwise (random for a game without a heuristic)."""
FALLBACK_OTHER_AGENT: Final = "random"


class GameSetupError(ValueError):
    """A live game that cannot be set up: unknown env id, bad kwarg, bad agent spec, no human seat or too many."""


class MoveError(ValueError):
    """A move that is refused (not legal, not a whole number); the game is unchanged."""


class GameOverError(MoveError):
    """A move asked for after the game's end."""


def human_seat(agents: Sequence[str], num_players: int) -> int:
    """The one seat labelled `human`; GameSetupError unless there is one spec per seat and exactly one human."""
    if len(agents) != num_players:
        raise GameSetupError(
            f"agents: the game has {num_players} seat(s): give one agent spec per seat in seat order "
            f"({HUMAN!r} for yours), not {len(agents)}"
        )
    humans = [seat for seat, spec in enumerate(agents) if spec == HUMAN]
    if len(humans) != 1:
        raise GameSetupError(f"agents: exactly one seat must be {HUMAN!r} (the person), got {len(humans)}")
    return humans[0]


def check_seed(seed: Any) -> None:
    """GameSetupError unless `seed` is None or a whole number 0 or more (the envs' generators take no other)."""
    if seed is None:
        return
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        shown = quoted(str(seed)) if isinstance(seed, int) and abs(seed) < 10**100 else f"a {type(seed).__name__}"
        raise GameSetupError(f"seed: expected a whole number 0 or more, got {shown}")


@functools.cache
def default_agents(env_id: str) -> tuple[str, ...]:
    """The agent specs a new game of `env_id` starts from: the person at the last seat, the game's heuristic (random
    for a game without one) at every other, one spec per seat of the game the id makes with no kwargs."""
    num_players = make_env_game(env_id, {}).spec.num_players
    other = DEFAULT_OTHER_AGENT if game_record_of_env_id(env_id).heuristic else FALLBACK_OTHER_AGENT
    return (*([other] * (num_players - 1)), HUMAN)


class LiveGame:
    """One game in play: its table, the state after each event, and the record file written after every move."""

    def __init__(self, name: str, table: Table, seed: int | None, record_path: Path) -> None:
        self.name = name
        self.table = table
        self.seed = seed
        self.record_path = record_path
        self.only_choices: set[int] = set()
        """The steps of the person's decisions that had a single legal action, taken without asking."""
        self.states: list[State] = []
        self._lock = threading.Lock()

    def start(self) -> None:
        """Reset the table and play up to the person's first decision with a choice; write the record.
        RuntimeError when the game ends before the person's seat has a decision."""
        with self._lock:
            env = self.table.env
            env.reset(seed=self.seed)
            start = env.start_state
            first = self.table.game.new_initial_state() if start is None else self.table.game.state_from_dict(start)
            self.states = [first]
            self._take_only_choices()
            self._follow()

    @property
    def seat(self) -> int:
        """The person's seat."""
        return self.table.seat

    @property
    def state(self) -> State:
        """The live state (read it, never change it)."""
        state = self.table.env.state
        assert state is not None  # reset in start()
        return state

    @property
    def over(self) -> bool:
        """Whether the game has ended (not before it has started)."""
        state = self.table.env.state
        return state is not None and state.is_terminal()

    def _take_only_choices(self) -> None:
        """Play the person's decisions that have a single legal action, as terminal play does (`ONLY_CHOICE`)."""
        env = self.table.env
        while not self.over and self.state.current_player() == self.seat:
            legal = self.state.legal_actions()
            if len(legal) != 1:
                return
            self.only_choices.add(len(env.history) + 1)  # the person's event comes first, then the agents' answers
            env.step(legal[0])

    def _follow(self) -> None:
        """Extend the kept states by the events played since the last call, then write the record."""
        history = self.table.env.history
        state = self.states[-1].clone()
        for step in range(len(self.states) - 1, len(history)):
            player, action = history[step]
            apply_event(state, step + 1, player, action, view=None)
            self.states.append(state.clone())
        self.write_record()
        if self.over:
            unmark(self.record_path)  # after the record's last write: every view opens

    def write_record(self) -> Path:
        """Write the game's replay record (finished or not) into the viewer's folder; returns its path. It is written
        to a hidden file first and renamed into place, so a reader never meets half a record."""
        env = self.table.env
        record = build_record(
            self.table.game,
            env.history,
            self.state,
            env_id=self.table.env_id,
            game_kwargs=self.table.game_kwargs,
            seed=self.seed,
            start_state=env.start_state,
            players=self.table.labels,
        )
        partial = self.record_path.with_name(PARTIAL_PREFIX + self.record_path.name)
        write_record(record, partial)
        os.replace(partial, self.record_path)
        return self.record_path

    def views(self) -> list[str | int]:
        """The views open now: the public view and the person's seat while the game runs, every view after."""
        if self.over:
            return view_names(self.table.game.spec.num_players)
        return ["public", self.seat]

    def check_view(self, view: View) -> None:
        """HiddenViewError for another seat's view or the full table while the game runs."""
        views = self.views()
        if view not in views:
            raise hidden_view(view, views, f" of the live game {self.name}")

    def view_of(self, text: str | None) -> View:
        """The view a request names (default: the person's seat); HiddenViewError for another seat's or the full
        table while the game runs, ViewError for no view of the game."""
        view = parse_view(text, self.table.game.spec.num_players, default=self.seat)
        self.check_view(view)
        return view

    def move(self, action: Any) -> None:
        """Play the person's `action` (an action id); the agents answer. MoveError, changing nothing, for an
        action that is not a whole number or not legal, GameOverError after the end."""
        with self._lock:
            if self.over:
                raise GameOverError("action: the game is over")
            if isinstance(action, bool) or not isinstance(action, int):
                raise MoveError(f"action: expected an action id (a whole number), got {quoted(repr(action))}")
            state = self.state
            game = state.game
            legal = state.legal_actions()
            if action not in legal:
                in_range = 0 <= action < game.spec.num_actions
                shown = game.action_label(action) if in_range else "out of range"
                number = str(action) if in_range else quoted(str(action))
                choices = ", ".join(f"{a} ({game.action_label(a)})" for a in legal)
                raise MoveError(f"action: {number} ({shown}) is not legal here; the legal actions: {choices}")
            self.table.env.step(action)
            self._take_only_choices()
            self._follow()

    def status(self, view: View) -> dict[str, Any]:
        """The game as `view` sees it: players, who acts, the person's legal actions by group, events (each with the
        note `ONLY_CHOICE` where the person's seat had a single legal action) and text."""
        state = self.state
        game = state.game
        events = []
        history = self.table.env.history
        for index, (player, action) in enumerate(history):
            events.append(
                {
                    "step": index + 1,
                    "player": "chance" if player == CHANCE else player,
                    "action": action,
                    "label": event_label(self.states[index], player, action, view),
                    "rewards": rewards_after(self.states[index + 1]),
                    "note": ONLY_CHOICE if index + 1 in self.only_choices else None,
                }
            )
        your_turn = not self.over and state.current_player() == self.seat
        result = None
        if self.over:
            result = {"returns": [float(v) for v in state.returns()], "scores": [float(v) for v in state.score()]}
        return {
            "name": self.name,
            "env_id": self.table.env_id,
            "game": game.spec.name,
            "seed": self.seed,
            "players": list(self.table.labels),
            "seat": self.seat,
            "num_players": game.spec.num_players,
            "views": self.views(),
            "view": view,
            "to_act": actor_of(state),
            "over": self.over,
            "result": result,
            "steps": len(history),
            "events": events,
            "legal": grouped_actions(state, self.seat) if your_turn else [],
            "text": view_text(state, view),
            "picture": has_picture(game),
            "replay": self.record_path.name,
        }


class LiveGames:
    """The live games of one viewer, by name; their records go into `folder`."""

    def __init__(self, folder: Path | str) -> None:
        self.folder = Path(folder)
        self.games: dict[str, LiveGame] = {}
        self._numbers = itertools.count(1)
        self._lock = threading.Lock()

    def create(
        self, env_id: str, agents: Sequence[str], seed: int | None = None, env_kwargs: Mapping[str, Any] | None = None
    ) -> LiveGame:
        """Set up a game of `env_id` with one agent spec per seat (`human` for the person) and play the agents'
        turns up to the person's first decision; GameSetupError names what is wrong."""
        kwargs = dict(env_kwargs or {})
        check_seed(seed)
        try:
            _, game_kwargs = split_env_kwargs(kwargs)
            num_players = make_env_game(env_id, game_kwargs).spec.num_players
            seat = human_seat(agents, num_players)
            others = [spec for other, spec in enumerate(agents) if other != seat]
            table = seat_table(env_id, kwargs, seat, others)
        except GameSetupError:
            raise
        except (AgentSpecError, TypeError, LookupError, ValueError) as error:  # UnknownGameError is a ValueError
            raise GameSetupError(str(error)) from None
        with self._lock:
            game = self._claim(table, seed)
            self.games[game.name] = game
        try:
            game.start()
        except BaseException as error:  # the game is abandoned
            unmark(game.record_path)
            with self._lock:
                del self.games[game.name]
            if isinstance(error, RuntimeError):  # the game ended before the person's seat had a decision
                raise GameSetupError(str(error)) from None
            raise
        return game

    def _claim(self, table: Table, seed: int | None) -> LiveGame:
        """A new game of `table`, named after the time and a number that no record or marker of the folder has
        (another viewer's process may record there too): its record is marked as running (`mark_running` creates
        the marker only where none is) before the record is first written."""
        stamp = time.strftime("%Y%m%d-%H%M%S")
        while True:
            name = f"{LIVE_PREFIX}{stamp}-{next(self._numbers)}"
            game = LiveGame(name, table, seed, self.folder / f"{name}{RECORD_SUFFIX}")
            if game.record_path.exists():  # a finished game's
                continue
            try:
                mark_running(game.record_path, name, game.views())
            except FileExistsError:  # a running game's, or a stale marker's
                continue
            return game

    def close(self) -> None:
        """Abandon the games still running (the server shuts down): their records' markers are removed, so every
        view of them opens."""
        with self._lock:
            games = list(self.games.values())
        for game in games:
            unmark(game.record_path)

    def get(self, name: str) -> LiveGame:
        """The live game called `name`; LookupError names it and the games there are."""
        game = self.games.get(name)
        if game is None:
            known = ", ".join(self.games) or "none"
            raise LookupError(f"unknown game {quoted(name)}; live games: {known}")
        return game
