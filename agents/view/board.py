"""What the viewer shows of one state, for any game: a view's text, the game's picture, legal actions by group.

Nothing here names a game. The text comes from the replay records' views (`envs.core.replays.view_text`: the
public observer, a seat's own observer, or the full table); the picture from the function the game's record names
(`GameRecord.picture`, which its envs' `rgb_array` mode draws with); the action groups from the game's action codec.
"""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Callable
from typing import Any, Final, cast

import numpy as np
from PIL import Image

from envs.core.actions import ActionCodec
from envs.core.game import CHANCE, TERMINAL, Game, State
from envs.core.registration import UnknownGameError, game_record, load_attribute
from envs.core.replays import VIEWS, View, check_view

GROUP_SEPARATOR: Final = ": "
"""Between a group's name and the action's own words in a label (`ActionCodec.add_group` writes it so)."""
UNGROUPED: Final = ""
"""The group of an action whose game declares no groups and whose label names none."""
SEAT_NUMBER: Final = re.compile(r"-?[0-9]{1,6}")
"""How a seat is written in a view: ASCII digits only (`str.isdigit` accepts "²", which `int` refuses), and few
enough of them that `int` never meets Python's limit on the digits of an integer."""
QUOTE_CHARS: Final = 60
"""The most characters of a request's input an error message quotes (the rest is counted, never echoed)."""
MESSAGE_CHARS: Final = 4000
"""The most characters of any error message the viewer answers (a message may quote what another module quotes)."""


class ViewError(ValueError):
    """A view that names no view of the game: the message says which views there are."""


def quoted(text: str, limit: int = QUOTE_CHARS) -> str:
    """`text` quoted for an error message: its repr, cut after `limit` characters with the length said."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


def shortened(message: str, limit: int = MESSAGE_CHARS) -> str:
    """An error message cut after `limit` characters, saying how many were left out."""
    if len(message) <= limit:
        return message
    return f"{message[:limit]}... ({len(message) - limit} more characters left out)"


def parse_view(text: str | None, num_players: int, default: View = "public") -> View:
    """A view from a request's words: "public", "omniscient" or a seat number; ViewError names a bad one."""
    if text is None or text == "":
        return default
    if SEAT_NUMBER.fullmatch(text) is None and text not in VIEWS:
        raise ViewError(
            f"view: unknown view {quoted(text)}: use one of {', '.join(VIEWS)} or a seat number 0..{num_players - 1}"
        )
    view: View = text if text in VIEWS else int(text)
    try:
        check_view(view, num_players)
    except ValueError as error:
        raise ViewError(f"view: {error}") from None
    return view


def view_names(num_players: int) -> list[str | int]:
    """Every view of a game with `num_players` seats: the public view, each seat's own, the full table."""
    return ["public", *range(num_players), "omniscient"]


def actor_of(state: State) -> int | str:
    """Who acts in `state`: a seat, "chance" or "nobody" at the end."""
    player = state.current_player()
    if player == CHANCE:
        return "chance"
    if player == TERMINAL:
        return "nobody"
    return player


# ------------------------------------------------------------------------------------------------ pictures
@functools.cache
def picture_function(game_name: str) -> Callable[[State], np.ndarray] | None:
    """The game's picture function, as its registration record names it (`GameRecord.picture`); None for a game
    without a record or a picture."""
    try:
        record = game_record(game_name)
    except UnknownGameError:
        return None
    if record.picture is None:
        return None
    return cast(Callable[[State], np.ndarray], load_attribute(record.picture))


def has_picture(game: Game) -> bool:
    """Whether the game draws pictures."""
    return picture_function(game.spec.name) is not None


def picture_png(state: State) -> bytes | None:
    """The game's picture of `state` as PNG bytes (the `rgb_array` picture, the public view), or None without one."""
    draw = picture_function(state.game.spec.name)
    if draw is None:
        return None
    buffer = io.BytesIO()
    Image.fromarray(np.asarray(draw(state), dtype=np.uint8)).save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


# ------------------------------------------------------------------------------------------------ actions
def action_group(game: Game, action: int) -> str:
    """The group of `action` as the game's action space declares it: its codec's group, else the label's head."""
    codec = getattr(getattr(game, "actions", None), "codec", None)
    if isinstance(codec, ActionCodec):
        return codec.decode(action)[0]
    head, separator, _ = game.action_label(action).partition(GROUP_SEPARATOR)
    return head if separator else UNGROUPED


def grouped_actions(state: State, seat: int) -> list[dict[str, Any]]:
    """The legal actions of `state` for `seat`, in groups of the action space (in id order), each action with its
    label and the text the seat's observer reads it with in this position."""
    game = state.game
    observer = game.observer(seat)
    groups: dict[str, list[dict[str, Any]]] = {}
    for action in state.legal_actions():
        entry = {"action": action, "label": game.action_label(action), "text": observer.action_text(state, action)}
        groups.setdefault(action_group(game, action), []).append(entry)
    return [{"group": name, "actions": actions} for name, actions in groups.items()]


def rewards_after(state: State) -> list[float]:
    """Each seat's reward once `state` is reached: the game's end rewards at the end, zero before."""
    if not state.is_terminal():
        return [0.0] * state.game.spec.num_players
    return [float(value) for value in state.rewards()]
