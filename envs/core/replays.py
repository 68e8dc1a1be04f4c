"""Rules-core replay records: any game (solo or multi-player) replayed exactly, with no random generator.

A record holds the game (its registration record's name and its keyword arguments), where it started, every seat's
decision and every chance outcome in order, and the result. `replay` rebuilds the game through its registration
record (`make_game`), applies the events one by one, checking that the recorded player is the one to act and that
the action is legal, and checks that the replayed result equals the recorded one. The events are what the adapters
keep as `history` (GameDriver.history): a decision as (seat, action), a chance outcome as (CHANCE, outcome).

The JSON file (`write_record` puts each top-level field on a line of its own):

- `format`: "tabletop-gym replay"; `version`: 1.
- `env_id`: the env id as given, or null. It may be "package:id": the replayer imports the package first, which
  registers games that discovery does not find (e.g. `envs.toys:tabletop/card_duel_v0`).
- `game`: the game's record name (`GameSpec.name`); `game_kwargs`: its keyword arguments (env kwargs minus the
  adapter's).
- `seed`: the reset seed, for information (the replay draws nothing), or null.
- `start_state`: `State.to_dict()` of the position the game started from, or null for the game's own setup.
- `players`: a label per seat saying who played it (an agent spec, "human"), or null.
- `events`: `[[player, action], ...]` in order; player -1 is chance, its action the outcome.
- `result`: `terminal` (whether the game ended: false for a truncated or abandoned game), per-seat `returns`
  (`State.returns()`), per-seat `scores` (`State.score()`) and per-seat `facts` (the game's end-of-game facts,
  `State.episode_info(seat)` without `won` and `score`); or null.

Recordings of earlier versions (`env_id`, `kwargs`, `seed`, `actions`: replayed by reseeding the env's generator)
are refused with an "old format" error: they depend on the generator's stream, which a rules-core record does not;
record the episode again (`evaluate.py --record` with the same seed plays it again).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, Literal, NamedTuple

from pydantic import ValidationError

from envs.core.data import Record
from envs.core.game import CHANCE, TERMINAL, Game, IllegalActionError, State, StateFormatError
from envs.core.registration import (
    UnknownGameError,
    game_record,
    game_record_of_env_id,
    make_env_game,
    make_game,
)
from envs.core.schema import dotted, explain

REPLAY_FORMAT: Final = "tabletop-gym replay"
"""The `format` field of every replay record."""
REPLAY_VERSION: Final = 1
"""The `version` of the records this module writes and reads."""
RESULT_INFO_KEYS = ("won", "score")
"""Keys of `State.episode_info` that the result holds elsewhere (in `returns` and `scores`), so not among its facts."""
VIEWS = ("public", "omniscient")
"""Named text views of a replay; an int names a seat's own view."""

View = str | int | None
"""What text a replay shows after each decision: "public", "omniscient", a seat, or None for none."""


class ReplayError(ValueError):
    """A record that cannot be replayed: unknown game, illegal or out-of-turn event, or a result that differs."""


class ReplayFormatError(ReplayError):
    """A replay file that is not a valid record; the message names the file and the field."""

    def __init__(self, file: str, field: str, message: str) -> None:
        self.file = file
        self.field = field
        super().__init__(f"{file}: {field}: {message}")


class ReplayResult(Record):
    """How the recorded game ended: per-seat returns, scores and end-of-game facts."""

    terminal: bool
    """Whether the game reached its end (False for a truncated or abandoned game)."""
    returns: list[float]
    scores: list[float] | None = None
    facts: list[dict[str, Any]] = []


class ReplayRecord(Record):
    """A rules-core replay record: the game, its start, every event in order, and the result (module docstring)."""

    format: Literal["tabletop-gym replay"] = REPLAY_FORMAT
    version: Literal[1] = REPLAY_VERSION
    env_id: str | None = None
    game: str
    game_kwargs: dict[str, Any] = {}
    seed: int | None = None
    start_state: dict[str, Any] | None = None
    players: list[str] | None = None
    events: list[tuple[int, int]]
    result: ReplayResult | None = None


class ReplayedEvent(NamedTuple):
    """One replayed event: its 1-based step, the player (CHANCE for chance), the action, its label, the view's text.

    `text` is the chosen view after the event, for decisions only (None for chance outcomes or without a view).
    """

    step: int
    player: int
    action: int
    label: str
    text: str | None


# ------------------------------------------------------------------------------------------------ building
def plain_json(value: Any) -> Any:
    """`value` as JSON gives it back (tuples become lists, numpy scalars Python numbers, other objects their str)."""

    def convert(item: Any) -> Any:
        scalar = getattr(item, "item", None)
        return scalar() if callable(scalar) else str(item)

    return json.loads(json.dumps(value, default=convert))


def result_of(state: State) -> ReplayResult:
    """The result a record keeps for `state` (usually the final one): terminal, returns, scores and facts per seat."""
    seats = range(state.game.spec.num_players)
    facts = []
    for seat in seats:
        info = state.episode_info(seat)
        facts.append(plain_json({key: value for key, value in info.items() if key not in RESULT_INFO_KEYS}))
    return ReplayResult(
        terminal=state.is_terminal(),
        returns=[float(value) for value in state.returns()],
        scores=[float(value) for value in state.score()],
        facts=facts,
    )


def build_record(
    game: Game,
    history: Iterable[tuple[int, int]],
    final_state: State,
    *,
    env_id: str | None,
    game_kwargs: Mapping[str, Any],
    seed: int | None = None,
    start_state: Mapping[str, Any] | None = None,
    players: Sequence[str] | None = None,
) -> ReplayRecord:
    """The record of a played game: an adapter's (or GameDriver's) `history`, `start_state` and final `state`."""
    if players is not None and len(players) != game.spec.num_players:
        raise ValueError(f"players: {len(players)} labels for {game.spec.num_players} seats")
    return ReplayRecord(
        env_id=env_id,
        game=game.spec.name,
        game_kwargs=plain_json(dict(game_kwargs)),
        seed=seed,
        start_state=None if start_state is None else plain_json(dict(start_state)),
        players=None if players is None else list(players),
        events=[(int(player), int(action)) for player, action in history],
        result=result_of(final_state),
    )


# ------------------------------------------------------------------------------------------------ files
def record_json(record: ReplayRecord) -> str:
    """The JSON text of a record: one top-level field per line (events stay on one line, whatever their number)."""
    fields = record.model_dump(mode="json")
    lines = [f"  {json.dumps(key)}: {json.dumps(value)}" for key, value in fields.items()]
    return "{\n" + ",\n".join(lines) + "\n}\n"


def write_record(record: ReplayRecord, path: Path | str) -> Path:
    """Write `record` as JSON to `path` (parent folders created); returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(record_json(record), encoding="utf-8")
    return path


def parse_record(text: str, file: str = "<record>") -> ReplayRecord:
    """A record from its JSON text; ReplayFormatError names `file` and the bad field (old recordings included)."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise ReplayFormatError(file, "file", f"not valid JSON: {error}") from None
    if not isinstance(document, dict):
        raise ReplayFormatError(file, "file", f"expected a JSON object, got {type(document).__name__}")
    if "format" not in document and "actions" in document:
        raise ReplayFormatError(
            file,
            "format",
            "old format: an env-level recording (env_id, seed, actions) of an earlier version, which replayed through "
            "the env's random generator; this version reads rules-core replay records: record the episode again "
            "(evaluate.py --record with the same seed plays it again)",
        )
    if document.get("format") != REPLAY_FORMAT:
        raise ReplayFormatError(file, "format", f"expected {REPLAY_FORMAT!r}, got {document.get('format')!r}")
    version = document.get("version")
    if version != REPLAY_VERSION:
        newer = isinstance(version, int) and not isinstance(version, bool) and version > REPLAY_VERSION
        hint = " (written by a newer version of tabletop-gym)" if newer else ""
        raise ReplayFormatError(file, "version", f"expected {REPLAY_VERSION}, got {version!r}{hint}")
    try:
        return ReplayRecord.model_validate_json(text)
    except ValidationError as failure:
        path, message = explain(failure.errors()[0], document, ReplayRecord)
        raise ReplayFormatError(file, dotted(path) or "file", message) from None


def read_record(path: Path | str) -> ReplayRecord:
    """Read a record file; ReplayFormatError names the file and the field for anything that is not a record."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ReplayFormatError(str(path), "file", f"cannot read: {error}") from None
    return parse_record(text, str(path))


# ------------------------------------------------------------------------------------------------ replaying
def who(player: int) -> str:
    """How an event's player reads in messages: "seat 2", "chance" or "nobody (the game is over)"."""
    if player == CHANCE:
        return "chance"
    if player == TERMINAL:
        return "nobody (the game is over)"
    return f"seat {player}"


def event_label(state: State, player: int, action: int, view: View = "omniscient") -> str:
    """The label of an event in `state`, the state before it: the action's, or the chance outcome's as `view` may
    see it (a seat or "public" see only what the game shows them: `State.chance_label_for`, `action_label_for`)."""
    if view is None or view == "omniscient":
        return state.game.action_label(action) if player != CHANCE else state.chance_label(action)
    seat = None if view == "public" else int(view)
    if player != CHANCE:
        return state.action_label_for(action, seat)
    return state.chance_label_for(action, seat)


def apply_event(state: State, step: int, player: int, action: int, view: View = "omniscient") -> str:
    """Apply one recorded event to `state` and return its label as `view` may see it (taken before applying).

    ReplayError names the step, the player, the action and the legal ones when `player` is not the one to act or
    the action is not legal there.
    """
    acting = state.current_player()
    if acting != player:
        raise ReplayError(f"step {step}: the record has {who(player)} acting (action {action}), but {who(acting)} is")
    game = state.game
    if player == CHANCE:
        legal = [(outcome, state.chance_label(outcome)) for outcome, _ in state.chance_outcomes()]
        shown = f"chance outcome {action}"
    else:
        legal = [(legal_action, game.action_label(legal_action)) for legal_action in state.legal_actions()]
        shown = game.action_label(action) if 0 <= action < game.spec.num_actions else "out of range"
    if action not in {legal_action for legal_action, _ in legal}:
        raise ReplayError(f"step {step}: {who(player)}: {IllegalActionError(action, shown, legal)}")
    label = event_label(state, player, action, view)
    state.apply_unchecked(action)
    return label


def check_view(view: View, num_players: int) -> None:
    """ValueError unless `view` is None, one of VIEWS or a seat in 0..num_players-1."""
    if view is None or view in VIEWS:
        return
    if not isinstance(view, int) or isinstance(view, bool):
        raise ValueError(f"unknown view {view!r}: use one of {', '.join(VIEWS)} or a seat number")
    if not 0 <= view < num_players:
        raise ValueError(f"the game has seats 0..{num_players - 1}, not seat {view}")


def view_text(state: State, view: View) -> str | None:
    """The text of `view`: "public" (the spectator's observer), "omniscient" (`debug_text`), a seat's own view."""
    if view is None:
        return None
    if view == "public":
        return state.game.observer(None).text(state)
    if view == "omniscient":
        return state.debug_text()
    check_view(view, state.game.spec.num_players)
    seat = int(view)
    return state.game.observer(seat).text(state)


def start_of(record: ReplayRecord) -> State:
    """The state a record starts from: its game rebuilt through the registration record, at its start state."""
    try:
        registered = game_record_of_env_id(record.env_id) if record.env_id else game_record(record.game)
    except UnknownGameError as error:  # the message lists the known games or env ids
        raise ReplayError(str(error)) from None
    if record.game not in (registered.name, *registered.former_names):
        raise ReplayError(
            f"env_id {record.env_id!r} is the game {registered.name!r}, but the record names {record.game!r}"
        )
    try:
        if record.env_id:
            # The env id decides which game it plays (one record may hold a solo id and a co-op module); the
            # record's kwargs go to that game's own class, so an adapter's kwarg there is still refused.
            game = type(make_env_game(record.env_id, {}))(**record.game_kwargs)
        else:
            game = make_game(registered, record.game_kwargs)
    except (TypeError, ValueError) as error:
        raise ReplayError(f"game_kwargs: {record.game} rejects {record.game_kwargs}: {error}") from None
    if record.players is not None and len(record.players) != game.spec.num_players:
        raise ReplayError(f"players: {len(record.players)} labels for {game.spec.num_players} seats")
    if record.start_state is None:
        state: State = game.new_initial_state()
        return state
    try:
        return game.state_from_dict(record.start_state)
    except StateFormatError as error:
        raise ReplayError(f"start_state: {error}") from None


def result_differences(recorded: ReplayResult, state: State) -> list[str]:
    """What differs between a recorded result and `state`'s ("returns: recorded [...], replayed [...]")."""
    replayed = result_of(state)
    differences = []
    for name in ("terminal", "returns", "scores", "facts"):
        expected = getattr(recorded, name)
        if name == "scores" and expected is None:  # a record without scores checks none
            continue
        found = getattr(replayed, name)
        if plain_json(expected) != plain_json(found):
            differences.append(f"{name}: recorded {expected!r}, replayed {found!r}")
    return differences


def replay(record: ReplayRecord, view: View = None, show: Callable[[ReplayedEvent], None] | None = None) -> State:
    """Replay `record` from its start, checking every event and the result; returns the final state.

    `show` receives each event as it is applied, with `view`'s text after each decision. ReplayError names the step
    of an event that cannot happen, or the parts of the result that differ.
    """
    state = start_of(record)
    try:
        check_view(view, state.game.spec.num_players)
    except ValueError as error:
        raise ReplayError(f"view: {error}") from None
    for step, (player, action) in enumerate(record.events, start=1):
        label = apply_event(state, step, player, action, view)
        if show is not None:
            text = view_text(state, view) if player != CHANCE else None
            show(ReplayedEvent(step, player, action, label, text))
    if record.result is not None:
        differences = result_differences(record.result, state)
        if differences:
            raise ReplayError("the replay differs from the record: " + "; ".join(differences))
    return state
