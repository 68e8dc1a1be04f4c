"""Unbroken's settings as users type them (issue "Unbroken as users meet it"): every mistake is refused clearly.

`UnbrokenGame(character=True)` and `flat="yes"` are refused, and a misspelled keyword of the env or the game names
the keyword, the one it resembles and every valid one, through `gym.make` too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

from envs.unbroken.game import UnbrokenGame

from .conftest import KIRA, shipped_cards

ENV_KEYWORDS = "[difficulty, preset, character, card_directory, reward, illegal_action, flat, render_mode]"
CHARACTERS = "['Kira the Huntress', 'Caellahan the Brawler', 'Helena the Sage', 'Maxyn Zenma the Sneak']"


def test_misspelled_env_keyword_lists_the_valid_ones() -> None:
    """The issue's example: `flatt` is named as no valid keyword, with `flat` suggested and every valid one listed
    (Python's own error named neither)."""
    with pytest.raises(TypeError) as raised:
        gym.make("tabletop/Unbroken-v0", difficulty="hard", flatt=True)
    assert str(raised.value).startswith(
        f"'flatt' is not a valid keyword argument of tabletop/Unbroken-v0 (did you mean 'flat'?); valid keywords: "
        f"{ENV_KEYWORDS}"
    )


def test_unrelated_env_keyword_lists_the_valid_ones_without_a_guess() -> None:
    """A keyword that resembles none is named with the valid ones and no guess."""
    with pytest.raises(TypeError, match=r"'speed' is not a valid keyword argument of tabletop/Unbroken-v0; valid"):
        gym.make("tabletop/Unbroken-v0", speed=3)


def test_misspelled_game_keyword_lists_the_valid_ones() -> None:
    """The rules core's game class checks its keywords the same way (configs and the opponent env build it)."""
    with pytest.raises(TypeError) as raised:
        UnbrokenGame(dificulty="hard")  # type: ignore[call-arg]
    assert str(raised.value) == (
        "'dificulty' is not a valid keyword argument of UnbrokenGame (did you mean 'difficulty'?); valid keywords: "
        "[difficulty, preset, character, cards, card_directory]"
    )


@pytest.mark.parametrize("flat", ["yes", "no", 1, None])
def test_flat_yes_is_refused(flat: Any) -> None:
    """`flat="yes"` used to build a flat env (any truthy value did); now only True and False are accepted."""
    with pytest.raises(TypeError, match=f"flat must be True or False, got {flat!r}"):
        gym.make("tabletop/Unbroken-v0", flat=flat)
    assert gym.make("tabletop/Unbroken-v0", flat=np.bool_(True)).unwrapped.flat is True  # type: ignore[attr-defined]


@pytest.mark.parametrize("character", [True, False, 1.0, 4, -1, None, ["Kira the Huntress"], "kira"])
def test_character_of_the_wrong_kind_is_refused(character: Any) -> None:
    """`character=True` is no character index (bool is an int to Python); floats, lists, unknown names and indices
    out of range are refused too, and the message lists the choices."""
    with pytest.raises(ValueError) as raised:
        UnbrokenGame(character=character)
    assert str(raised.value) == (
        f"unknown character {character!r}; choose 'random', one of {CHARACTERS} or an index 0..3"
    )


@pytest.mark.parametrize("character", [2, np.int64(2), "Helena the Sage"])
def test_character_by_index_numpy_index_or_name(character: Any) -> None:
    """An index (a numpy integer too, as a config sweep may give) or a name picks the character."""
    assert UnbrokenGame(character=character).character == 2


@pytest.mark.parametrize(
    ("keywords", "error", "message"),
    [
        ({"preset": ["english"]}, ValueError, "unknown Unbroken preset ['english']; choose one of"),
        ({"difficulty": ["hard"]}, ValueError, "unknown difficulty ['hard']; choose one of"),
        ({"cards": "cards.yaml"}, TypeError, "cards must be a CardSet (envs.unbroken.cards.load_cards), got str"),
        ({"card_directory": 5}, TypeError, "card_directory must be a path (str or Path), got 5"),
    ],
)
def test_settings_of_the_wrong_type(keywords: dict[str, Any], error: type[Exception], message: str) -> None:
    """A list where a name belongs (used to be `unhashable type: 'list'`), a path or card set of the wrong type (used
    to be `'str' object has no attribute 'display'`): each names the setting and what it takes."""
    with pytest.raises(error) as raised:
        UnbrokenGame(**keywords)
    assert str(raised.value).startswith(message)


def test_valid_settings_still_build_the_game() -> None:
    """The checks refuse nothing that worked: names, a card set and a card directory (str or Path)."""
    game = UnbrokenGame(difficulty="hard", preset="spanish", character=KIRA, cards=shipped_cards())
    assert (game.difficulty, game.preset.name, game.character) == ("hard", "spanish", 0)
    directory = Path(__file__).resolve().parents[2] / "envs" / "unbroken" / "data"
    assert UnbrokenGame(card_directory=directory).cards == UnbrokenGame(card_directory=str(directory)).cards
