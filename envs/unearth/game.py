"""Unearth's game: the configuration (players, card data, action space) that makes states, observers and text.

The rules themselves are in rules.py (the state and every rule), the observation in observer.py, the text and the
picture in render.py; the state is declared in state.py (its dict form derived from the declaration) and checked in
validation.py.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any, ClassVar

from envs.core.engine import new_frame
from envs.core.game import CHANCE, Game, GameSpec, Observer
from envs.core.record import NameTables
from envs.unearth.actions import MAX_PLAYERS, UnearthActions, build_actions
from envs.unearth.cards import Ruin, UnearthCards, load_unearth_cards
from envs.unearth.rules import (
    CHOOSE_END_OF_AGE,
    CHOOSE_NAMED,
    DEAL_DELVER,
    DEAL_HIDDEN_RUIN,
    DELVERS_DEALT,
    FIRST_PLAYER,
    MAX_GAME_LENGTH,
    MIN_PLAYERS,
    NAMED_WONDERS_EXTRA,
    NOWHERE,
    REMOVE_RUIN,
    REMOVED_AT_SETUP,
    REVEAL_RUIN,
    TABLE_SIZE,
    UnearthState,
)
from envs.unearth.state import unearth_name_tables
from envs.unearth.tableau import Tableau


class UnearthGame(Game):
    """Unearth for 2-4 players with the shipped (or a user's) card data."""

    KWARG_MEANINGS: ClassVar[dict[str, str]] = {
        "num_players": "seats at the table: 2, 3 or 4",
        "card_directory": "a folder of card YAML in the shipped schema, used instead of the shipped content",
    }

    def __init__(self, num_players: int = 2, card_directory: str | None = None) -> None:
        if isinstance(num_players, bool) or not isinstance(num_players, int) or not 2 <= num_players <= MAX_PLAYERS:
            raise ValueError(f"num_players must be 2, 3 or 4, got {num_players!r}")
        self.cards: UnearthCards = load_unearth_cards(card_directory)
        self.card_directory = card_directory
        self.actions: UnearthActions = build_actions(self.cards)
        eoa_ruins = [card.ruin for card in self.cards.end_of_age]
        self.ruins: tuple[Ruin, ...] = (*self.cards.ruins, *(ruin for ruin in eoa_ruins if ruin is not None))
        """Every Ruin card by id: the Ruins deck's cards, then the End of Age Ruins."""
        next_id = itertools.count(len(self.cards.ruins))
        self.end_of_age_ruin: tuple[int, ...] = tuple(
            next(next_id) if ruin is not None else NOWHERE for ruin in eoa_ruins
        )
        """Ruin id of each End of Age card that is a Ruin (NOWHERE for an event)."""
        self.colour_names = tuple(colour.name for colour in self.cards.stone_colours)
        self.spec = GameSpec(
            name="unearth",
            num_players=num_players,
            num_actions=self.actions.size,
            max_game_length=MAX_GAME_LENGTH,
            min_players=MIN_PLAYERS,
            max_players=MAX_PLAYERS,
            utility="zero_sum" if num_players == 2 else "general_sum",
            information="imperfect",
            reward_modes=("win", "score", "rank"),
        )

    def new_table(self) -> tuple[int, ...]:
        """An empty table: one place per Ruin face up at once (4 in a 2-player game, else 5)."""
        return (NOWHERE,) * TABLE_SIZE[self.spec.num_players]

    def kwarg_values(self) -> dict[str, tuple[Any, ...]]:
        """The player counts the rulebook allows."""
        return {"num_players": tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))}

    def new_initial_state(self) -> UnearthState:
        """The table before setup: every setup draw is a chance event on the stack, in the rulebook's order."""
        n = self.spec.num_players
        cards = self.cards
        table_size = TABLE_SIZE[n]
        colours = len(cards.stone_colours)
        setup = [
            *(new_frame(CHANCE, DEAL_DELVER, "setup", seat=seat) for _ in range(DELVERS_DEALT) for seat in range(n)),
            *(new_frame(CHANCE, DEAL_HIDDEN_RUIN, "setup", seat=seat) for seat in range(n)),
            *(new_frame(CHANCE, REMOVE_RUIN, "setup") for _ in range(REMOVED_AT_SETUP[n])),
            new_frame(CHANCE, CHOOSE_END_OF_AGE, "setup"),
            *(new_frame(CHANCE, REVEAL_RUIN, "setup", place=place) for place in range(table_size)),
            *(new_frame(CHANCE, CHOOSE_NAMED, "setup") for _ in range(n + NAMED_WONDERS_EXTRA)),
            new_frame(CHANCE, FIRST_PLAYER, "setup"),
        ]
        empty: tuple[tuple[int, ...], ...] = ((),) * n
        dice = len(cards.die_sides)
        state = UnearthState(
            game=self,
            hands=((0,) * len(cards.delvers),) * n,
            delver_deck=tuple(delver.count for delver in cards.delvers),
            delver_discard=(0,) * len(cards.delvers),
            ruin_deck=tuple(range(len(cards.ruins))),
            removed=(),
            removed_seen=(False,) * n,
            discarded_ruins=(),
            end_of_age=NOWHERE,
            end_of_age_revealed=False,
            roll_modifier=0,
            table=(NOWHERE,) * table_size,
            ruin_stones=((0,) * colours,) * table_size,
            bag=tuple(colour.count for colour in cards.stone_colours),
            die_place=((NOWHERE,) * dice,) * n,
            die_value=((0,) * dice,) * n,
            die_face=((0,) * dice,) * n,
            hidden_ruins=empty,
            claimed=empty,
            tableaus=(Tableau(),) * n,
            lesser_built=empty,
            greater_built=empty,
            named_built=empty,
            lesser_tokens=tuple(sorted(cards.lesser_tokens)),
            greater_tokens=tuple(sorted(cards.greater_tokens)),
            named_in_play=(),
            active=NOWHERE,
            first_player=NOWHERE,
            turn=0,
            map_rerolls=0,
            extra_dice=0,
            expeditions=0,
            reading=0,
            ancestral=0,
            modifiers=(),
            library_draws=(),
            over=False,
            stack=tuple(reversed(setup)),
        )
        state._run()
        return state

    @functools.cached_property
    def name_tables(self) -> NameTables:
        """Content names by table (Ruins, Delver cards, Wonders, colours, dice), for saved states."""
        return unearth_name_tables(self)

    def state_from_dict(self, data: dict[str, Any]) -> UnearthState:
        """The state `UnearthState.to_dict` described; StateFormatError naming the first bad field."""
        state = UnearthState.from_dict(self, data)
        state.settle_saved()
        return state

    def action_label(self, action: int) -> str:
        """'play: Ancient Map', 'place stone: cell 135 (0, 0)', ... (stable across versions)."""
        return self.actions.codec.label(action)

    def state_text(self, state: UnearthState, player: int | None, omniscient: bool = False) -> str:
        """The state as text for seat `player` (None: the public), or with every hidden part (`omniscient`)."""
        from envs.unearth.render import state_text

        return state_text(state, player, omniscient=omniscient)

    def observer(self, player: int | None = 0) -> Observer:
        """Seat `player`'s view (seat-relative, per-seat blocks sized for 4), or with None the public view."""
        from envs.unearth.observer import UnearthObserver

        return UnearthObserver(self, player)
