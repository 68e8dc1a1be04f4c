"""Runebound on the board: the configuration of a solo game of The Locust Swarm (hero, how enemies choose, content)
that makes states, observers and text, and the tables the rules read, derived once from the content.

The rules are in board.py (and the fights' in combat.py), the state declared in board_state.py and checked in
board_validation.py, the observation in board_observer.py, the text and the picture in board_render.py.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, ClassVar

from envs.core.engine import new_frame
from envs.core.game import CHANCE, GameSpec, Observer
from envs.core.keywords import keyword_checked
from envs.core.record import NameTables
from envs.runebound.board import SEAT, TARGET_KINDS, BoardState
from envs.runebound.board_actions import BOARD_ACTIONS, BoardActions
from envs.runebound.board_cards import ASSET_TYPES, TROPHY_KINDS, BoardCards, BoardHero, Twist, load_board_cards
from envs.runebound.board_map import GEM_COLOURS, OUTLAW_GLADE, WATER
from envs.runebound.board_state import (
    MAX_GAME_LENGTH,
    MAX_UNITS,
    NO_CELL,
    NONE,
    BoardKind,
    BoardOutcome,
    Prepare,
    board_name_tables,
)
from envs.runebound.combat import CombatContent
from envs.runebound.presets import PRESETS, RulePreset, get_preset
from envs.runebound.state import NOWHERE, Outcome

RANDOM = "random"
"""The `hero` value that draws one of the board heroes at setup (a chance event)."""
SCENARIOS = ("locust_swarm",)
FAR = 999
"""The land distance of a cell no warband reaches over land."""
"""The scenarios the game plays."""


class RuneboundGame(CombatContent):
    """A solo game of Runebound on the board: The Locust Swarm, a hero (named or drawn), enemies run by their boards."""

    KWARG_MEANINGS: ClassVar[dict[str, str]] = {
        "scenario": "locust_swarm: defeat every Uthuk warband before the time track runs out",
        "hero": "a board hero's name (Eliam, Tatianna, Master Thorn, Corbin), or random (drawn at setup)",
        "enemy_choice": "detrimental (the enemy picks what hurts the hero most) or two_damage (2 damage instead)",
        "card_directory": "a folder of content YAML in the shipped schema, used instead of the shipped content",
    }

    @keyword_checked("RuneboundGame")
    def __init__(
        self,
        scenario: str = "locust_swarm",
        hero: str = RANDOM,
        enemy_choice: str | RulePreset = "detrimental",
        card_directory: str | Path | None = None,
    ) -> None:
        if scenario not in SCENARIOS:
            raise ValueError(f"unknown scenario {scenario!r}; choose one of {list(SCENARIOS)}")
        self.scenario = scenario
        self.board: BoardCards = load_board_cards(card_directory)
        self.cards = self.board.combat
        self.card_directory = card_directory
        self.preset = get_preset(enemy_choice)
        heroes = self.board.heroes
        if hero != RANDOM and (not isinstance(hero, str) or hero not in heroes.names):
            raise ValueError(f"unknown hero {hero!r}; choose {RANDOM!r} or one of {list(heroes.names)}")
        self.hero_name = hero
        self.derive_combat_content()
        self._derive_board_tables()
        self.actions: BoardActions = BOARD_ACTIONS
        self.spec = GameSpec(
            name="runebound",
            num_players=1,
            num_actions=BOARD_ACTIONS.size,
            max_game_length=MAX_GAME_LENGTH,
            utility="solo",
            information="perfect",
            reward_modes=("win", "score"),
            extra={"scenario": scenario, "hero": hero, "enemy_choice": self.preset.name},
        )
        self._observer: Observer | None = None

    def _derive_board_tables(self) -> None:
        """The tables the rules read, by index: heroes, weapons, cities, the glade, distances over land, quests."""
        board, cards = self.board, self.cards
        self.board_hero_of: dict[int, BoardHero] = {cards.heroes.index_of(h.name): h for h in board.heroes}
        """Each board hero by its combat hero index."""
        self.hero_outcomes = tuple((hero, 1.0 / len(self.board_hero_of)) for hero in sorted(self.board_hero_of))
        self.weapon_token = {weapon.name: cards.token_index[weapon.token] for weapon in cards.weapons}
        self.enemy_index = dict(cards.enemies.indices)
        self.warband_enemies = tuple(tuple(self.enemy_index[e] for e in band.enemies) for band in board.warbands)
        the_map = board.map
        self.cities: tuple[int, ...] = the_map.sites_of("city")
        self.city_index = {cell: index for index, cell in enumerate(self.cities)}
        self.glade = the_map.sites_of(OUTLAW_GLADE)[0]
        self.gem_cells = tuple(sorted(cell for colour in GEM_COLOURS for cell in the_map.gems_of(colour)))
        hex_map = the_map.hex_map
        land = [cell for cell in range(len(hex_map)) if the_map.terrain(cell) != WATER]
        self.land_distances = tuple(
            tuple(99 if d is None else d for d in hex_map.distances(cell, passable=land))
            for cell in range(len(hex_map))
        )
        """Steps over land between any two cells (the warbands' graph distance: RULES.md, "Warbands")."""
        self.quest_cell = tuple(
            the_map.site_cell(card.target) if card.target is not None else NO_CELL for card in board.adventures
        )
        self.adventure_deck_of = tuple(card.deck for card in board.adventures)
        self.warband_steps: dict[tuple[int, int, tuple[int, ...]], tuple[int, int] | None] = {}
        """Each warband move computed (`BoardState.warband_step`), by (cell, units, scorched hexes)."""
        self.deck_sizes = {deck: len(board.deck(deck)) for deck in TROPHY_KINDS}
        self.gem_colour_at = tuple(the_map.gem_at(cell) for cell in range(len(hex_map)))
        """Each cell's gem space colour (None: no gem space)."""
        self.cell_array_index = tuple(hex_map.to_array_index(cell) for cell in range(len(hex_map)))
        """Each cell's (row, column) in the observation's map planes."""
        kinds = tuple(site.kind if (site := the_map.site_at(cell)) else None for cell in range(len(hex_map)))
        self.site_kind_at = kinds
        """Each cell's site kind (None: no site)."""
        self.targets_by_units = tuple(
            tuple(cell for cell in the_map.civilized() if kinds[cell] in TARGET_KINDS[:units])
            for units in range(MAX_UNITS + 1)
        )
        """The civilized cells a warband of each unit count may target, scorched or not, ascending."""
        self.asset_card_names = (*board.assets.names, *board.twists.names)

    # ------------------------------------------------------------------------------------------ content queries
    def is_twist(self, card: int) -> bool:
        """Whether asset-deck card `card` is a twist (the twists come after the assets)."""
        return card >= len(self.board.assets)

    def twist_of(self, card: int) -> Twist:
        """The twist of asset-deck card `card`."""
        return self.board.twists[card - len(self.board.assets)]

    def hex_name(self, cell: int) -> str:
        """A cell in words: its site's name, or its coordinates."""
        site = self.board.map.site_at(cell)
        q, r = self.board.map.hex_map.hex_at(cell)
        return f"{site.name} ({q}, {r})" if site else f"({q}, {r})"

    def kwarg_values(self) -> dict[str, tuple[Any, ...]]:
        """The scenarios, `random` or a board hero, the presets."""
        return {
            "scenario": SCENARIOS,
            "hero": (RANDOM, *self.board.heroes.names),
            "enemy_choice": tuple(PRESETS),
        }

    @functools.cached_property
    def name_tables(self) -> NameTables:
        """Content names by table (the combat's, the board's), the map's cells by coordinates, for saved states."""
        return board_name_tables(self.board)

    def new_initial_state(self) -> BoardState:
        """The game before setup: the hero drawn if random, then setup and the first turn."""
        board = self.board
        hero = NOWHERE if self.hero_name == RANDOM else self.cards.heroes.index_of(self.hero_name)
        state = BoardState(
            game=self,
            hero=hero,
            enemy=NOWHERE,
            combat_tokens=((), ()),
            combat_damage=(0, 0),
            combat_round=0,
            initiative=NOWHERE,
            passed=(False, False),
            charged=(False, False),
            silenced=(False, False),
            barrier=(0, 0),
            combat_round_damage=(0, 0),
            combat_triggered=((), ()),
            combat_outcome=Outcome.ONGOING,
            cell=self.cities[0],
            wounds=0,
            hero_gold=0,
            trophies=(0, 0, 0),
            assets=(NONE,) * len(ASSET_TYPES),
            hand=(),
            learned=(),
            quests=(),
            prepare=Prepare.NONE,
            actions_left=0,
            dice=(),
            time=0,
            markets=((),) * len(self.cities),
            asset_deck=tuple(range(len(self.asset_card_names))),
            asset_discard=(),
            set_aside=(),
            skill_deck=tuple(range(len(board.skills))),
            skill_discard=(),
            adventure_deck=tuple(range(len(board.adventures))),
            story_deck=tuple(range(len(board.story))),
            gems=self.gem_cells,
            warband_pile=tuple(range(len(board.warbands))),
            warbands=(),
            defeated=(),
            scorched=(),
            fight=NONE,
            outcome=BoardOutcome.ONGOING,
            decisions=0,
            stack=(),
        )
        frames = [new_frame(SEAT, BoardKind.BOARD_SETUP)]
        if hero == NOWHERE:
            frames.insert(0, new_frame(CHANCE, BoardKind.PICK_HERO))
        state._push(*frames)
        state._run()
        return state

    def state_from_dict(self, data: dict[str, Any]) -> BoardState:
        """The state `BoardState.to_dict` described; StateFormatError naming the first bad field (a hand-written
        position on an automatic step is settled by the rules and checked again)."""
        state = BoardState.from_dict(self, data)
        state.settle_saved()
        return state

    def action_label(self, action: int) -> str:
        """'action: move', 'move: wild E', 'spend: hero token 2', ... (stable across versions)."""
        return BOARD_ACTIONS.codec.label(action)

    def observer(self, player: int | None = 0) -> Observer:
        """The hero's view (a solo game's public view, None, is the same)."""
        if player not in (0, None):
            raise ValueError(f"this Runebound game is solo: seat {player} does not exist (use 0, or None)")
        if self._observer is None:
            from envs.runebound.board_observer import BoardObserver

            self._observer = BoardObserver(self)
        return self._observer
