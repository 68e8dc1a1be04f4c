"""UnbrokenGame: the configuration of one game (difficulty, printing, character, cards) and its observer factory."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from envs.core.game import Game, GameSpec, Observer
from envs.core.keywords import keyword_checked
from envs.core.record import NameTables
from envs.unbroken.actions import build_actions
from envs.unbroken.cards import RESOURCES, CardSet, load_cards
from envs.unbroken.observer import UnbrokenObserver
from envs.unbroken.presets import DIFFICULTIES, PRESETS, RulePreset, get_preset
from envs.unbroken.rules import ACTION_HANDLERS, MAX_GAME_LENGTH, UnbrokenState


class UnbrokenGame(Game):
    """Unbroken with a difficulty, a printing's rule preset, a character choice and a card set.

    Every setting is checked: an unknown keyword, a value of the wrong type (`character=True`) or an unknown name
    raises an error that lists what is accepted.
    """

    KWARG_MEANINGS: ClassVar[dict[str, str]] = {
        "difficulty": "easy, normal or hard: the rulebook's difficulty levels (setup bonuses and monster order)",
        "preset": "english or spanish: the printing whose rules apply (RULES.md, printing differences)",
        "character": "a character's name, or random (drawn at setup as a chance event)",
        "cards": "a CardSet already loaded (from Python only): content to play with instead of the shipped one",
        "card_directory": "a folder of card YAML in the shipped schema, used instead of the shipped content",
    }

    @keyword_checked("UnbrokenGame")
    def __init__(
        self,
        difficulty: str = "normal",
        preset: str | RulePreset = "english",
        character: str | int = "random",
        cards: CardSet | None = None,
        card_directory: str | Path | None = None,
    ) -> None:
        if not isinstance(difficulty, str) or difficulty not in DIFFICULTIES:
            raise ValueError(f"unknown difficulty {difficulty!r}; choose one of {list(DIFFICULTIES)}")
        if cards is not None and not isinstance(cards, CardSet):
            raise TypeError(f"cards must be a CardSet (envs.unbroken.cards.load_cards), got {type(cards).__name__}")
        self.difficulty = difficulty
        self.preset = get_preset(preset)
        self.cards = cards if cards is not None else load_cards(card_directory)
        self.setting = self.cards.display.difficulty[difficulty]
        self.character = self._character_index(character)
        self.actions = build_actions(self.cards)
        self.spec = GameSpec(
            name="unbroken",
            num_players=1,
            num_actions=self.actions.size,
            max_game_length=MAX_GAME_LENGTH,
            version="0",
            utility="solo",
            # The English printing stacks the monsters face down at setup; the Spanish one rolls each at its reveal
            # (nothing hidden is in the state: decks are multisets, so their order is not hidden either).
            information="imperfect" if self.preset.monster_drawn_at_setup else "perfect",
            reward_modes=("win", "score"),  # score: the rulebook score of a won game, -1 for a loss (rules.py)
            extra={"difficulty": difficulty, "preset": self.preset.name},
        )
        self._observer: Observer | None = None
        general = self.cards.display.general
        self.conversion_actions = (
            (self.actions.focus, general.focus),
            (self.actions.inspiration, general.inspiration),
            (self.actions.plan, general.plan),
        )
        codec = self.actions.codec
        self.dispatch = [
            (ACTION_HANDLERS[group], index) for group, index in (codec.decode(a) for a in range(self.actions.size))
        ]
        """Action id -> (handler, index within its group): decoding once, not on every step."""
        cards = self.cards
        self.name_tables = NameTables(
            {
                "resource": RESOURCES,
                "character": [c.name for c in cards.characters],
                "weapon": [w.name for w in cards.weapons],
                "monster": [m.name for m in cards.monsters],
                "encounter": [e.name for e in cards.encounters],
                "skill": [s.name for s in cards.skills],
                "condition": [c.name for c in cards.conditions],
                "action": codec.labels,
            }
        )
        """Content names by table, for saved states (`UnbrokenState.to_dict`)."""

    def kwarg_values(self) -> dict[str, tuple[Any, ...]]:
        """The difficulties, the printings' presets and `random` or a character of the content in play."""
        return {
            "difficulty": tuple(DIFFICULTIES),
            "preset": tuple(PRESETS),
            "character": ("random", *(character.name for character in self.cards.characters)),
        }

    def _character_index(self, character: Any) -> int:
        """-1 for "random", else the index of the character named or numbered (bool, float and the rest refused)."""
        names = [c.name for c in self.cards.characters]
        if isinstance(character, str) and (character == "random" or character in names):
            return -1 if character == "random" else names.index(character)
        is_index = isinstance(character, int | np.integer) and not isinstance(character, bool)
        if is_index and 0 <= character < len(names):
            return int(character)
        raise ValueError(
            f"unknown character {character!r}; choose 'random', one of {names} or an index 0..{len(names) - 1}"
        )

    def new_initial_state(self) -> UnbrokenState:
        """A new game at setup (a chance node: the character, the monster deck or the Easy bonus)."""
        state = UnbrokenState(self)
        state.setup()
        return state

    def state_from_dict(self, data: dict[str, Any]) -> UnbrokenState:
        """Rebuild a state from `to_dict()` output; raises StateFormatError naming the bad field."""
        return UnbrokenState.from_dict(self, data)

    def action_label(self, action: int) -> str:
        """Label of an action id."""
        return self.actions.codec.label(action)

    def observer(self, player: int | None = 0) -> Observer:
        """The player's observer; a solo game's public view (None) shows what the player sees."""
        if player not in (0, None):
            raise ValueError(f"Unbroken is a solo game: seat {player} does not exist (use 0, or None)")
        if self._observer is None:
            self._observer = UnbrokenObserver(self)
        return self._observer

    def title(self, score: int) -> str:
        """The rulebook title for a final score."""
        name = self.cards.display.titles[0][0]
        for title, low in self.cards.display.titles:
            if score >= low:
                name = title
        return name
