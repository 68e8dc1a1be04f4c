"""Runebound board game's observation: one flat float32 vector of named, shaped views, designed for four heroes (the
co-operative mode plays on the same space: `SEATS` seat-relative hero blocks, the seats present marked), the map as
grid planes, and the combat's own views (observer.py) as they are, filled while a fight is on. Nothing is hidden (every
draw is a chance event: RULES.md, "What is hidden"), so the hero's view and the public view are the same. Every entry
lies in [0, 1].

Views (`BoardObserver.view_shapes`), with their axes:

- `heroes` (4, F), seat x feature: per seat from the observer's: present, hero, health, wounds, gold, trophies,
  attributes, dice, hand size, assets held, learned raises, prepare token, quests, cards in hand.
- `hand` (9, 15), entity x feature: per hand slot: present, attribute, exert bonus, cost by trophy kind, what learning
  raises, learnable now (the slot-numbered actions `learn`, `exert` and `discard skill` name these rows).
- `map` (P, rows, cols), feature x grid x grid: planes: on the map, terrain, road, sites by kind, gem spaces by colour,
  gems face up, scorched, warbands (units / 4), warbands' targets, quest targets, heroes by seat.
- `time` (8,): time / track, Act, actions left, prepare token, spaces to the next story card and warband, turns left.
- `markets` (cities, 4, asset cards), entity x feature x feature: each city's market, slot by slot.
- `warbands` (5, 10), entity x feature: per warband card: face down, in play, defeated, units, distance to the hero,
  to its target, its enemy's health.
- `decks` (10,): cards left by deck, gems face up by colour, warbands face down and defeated.
- `dice` (6,): the unspent terrain dice of the move by face.
- `decision` (D,): the board decision's kind, a fight on, a shop's city, a test's attribute, difficulty and total.
- `combat_*`: the combat's views as observer.py lays them out (zeros between fights).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from envs.core.game import Observer, State
from envs.core.observation import ENTITY, FEATURE, GRID, SEAT, ObservationLayout
from envs.runebound.board import BoardState
from envs.runebound.board_cards import ATTRIBUTES, TROPHY_KINDS
from envs.runebound.board_map import GEM_COLOURS, SITE_KINDS, TERRAINS
from envs.runebound.board_state import (
    BOARD_DECISION_KINDS,
    MARKET_SLOTS,
    MAX_DICE,
    MAX_GOLD,
    MAX_HAND,
    MAX_TROPHIES,
    MAX_UNITS,
    MAX_WOUNDS,
    NONE,
    BoardKind,
    Prepare,
)
from envs.runebound.cards import MAX_HEALTH
from envs.runebound.movement import FACE_NAMES
from envs.runebound.observer import CombatObserver

if TYPE_CHECKING:
    from envs.runebound.board_game import RuneboundGame

SEATS = 4
"""Hero blocks: the co-operative mode's most heroes (2-4); solo fills the first."""
HAND_SLOTS = MAX_HAND + 3
LEARNED = ("body", "mind", "spirit", "health", "speed", "hand_size")
HAND_FEATURES = 1 + len(ATTRIBUTES) + 1 + len(TROPHY_KINDS) + len(LEARNED) + 1
WARBAND_FEATURES = 10
FAR = 20.0
"""Distances are divided by this (the map is at most 20 steps across)."""


class BoardObserver(Observer):
    """The hero's view of the board (the public view is the same: nothing is hidden)."""

    def __init__(self, game: RuneboundGame) -> None:
        self.game = game
        self.player = 0
        board = game.board
        self.combat = CombatObserver(game)  # type: ignore[arg-type]
        hex_map = board.map.hex_map
        self.rows, self.cols = hex_map.array_shape
        self.card_count = len(game.asset_card_names)
        hero_features = (
            1
            + len(game.cards.heroes)
            + 3
            + 1
            + len(TROPHY_KINDS)
            + len(ATTRIBUTES)
            + 2
            + len(board.assets)
            + len(LEARNED)
            + len(Prepare)
            + len(board.adventures)
            + len(board.skills)
        )
        self.hero_features = hero_features
        self.planes = (
            "on map",
            *TERRAINS,
            "road",
            *SITE_KINDS,
            *(f"{colour} gem space" for colour in GEM_COLOURS),
            "gem face up",
            "scorched",
            "warband units",
            "warband target",
            "quest target",
            *(f"hero seat +{seat}" for seat in range(SEATS)),
        )
        layout = ObservationLayout()
        layout.add("heroes", (SEATS, hero_features), (SEAT, FEATURE))
        layout.add("hand", (HAND_SLOTS, HAND_FEATURES), (ENTITY, FEATURE))
        layout.add("map", (len(self.planes), self.rows, self.cols), (FEATURE, GRID, GRID))
        layout.add("time", 8)
        layout.add("markets", (len(game.cities), MARKET_SLOTS, self.card_count), (ENTITY, FEATURE, FEATURE))
        layout.add("warbands", (len(board.warbands), WARBAND_FEATURES), (ENTITY, FEATURE))
        layout.add("decks", 4 + len(GEM_COLOURS) + 3)
        layout.add("dice", len(FACE_NAMES))
        self.decision_features = len(BOARD_DECISION_KINDS) + 1 + len(game.cities) + len(ATTRIBUTES) + 2
        layout.add("decision", self.decision_features)
        for name, shape in self.combat.view_shapes.items():
            layout.add(f"combat_{name}", shape, self.combat.view_axes[name])
        self.layout = layout
        self.size = layout.size
        self.views = layout.views
        self.view_shapes = layout.shapes
        self.view_axes = layout.axes
        self._combat_slice = slice(self.views["combat_hero_tokens"].start, self.size)
        self._buffer = layout.zeros()
        """The observation written in place, copied out (its views are cut once: `_views`)."""
        self._views = layout.split(self._buffer)
        self._static = self._static_planes()
        self._skill_table = self._skill_rows()
        self.gem_spaces = {colour: len(board.map.gems_of(colour)) for colour in GEM_COLOURS}

    def __getstate__(self) -> dict[str, object]:
        """The observer without its buffer and views: a pickled view would be a copy, no longer the buffer's."""
        state = dict(self.__dict__)
        del state["_buffer"], state["_views"]
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._buffer = self.layout.zeros()
        self._views = self.layout.split(self._buffer)

    def _static_planes(self) -> np.ndarray:
        """The planes that never change: the map, its terrain, roads, sites and gem spaces."""
        the_map = self.game.board.map
        hex_map = the_map.hex_map
        planes = np.zeros((len(self.planes), self.rows, self.cols), dtype=np.float32)
        road = the_map.on_road
        for cell in range(len(hex_map)):
            row, col = hex_map.to_array_index(cell)
            planes[0, row, col] = 1.0
            planes[1 + TERRAINS.index(the_map.terrain(cell)), row, col] = 1.0
            planes[1 + len(TERRAINS), row, col] = float(road(cell))
            site = the_map.site_at(cell)
            if site is not None:
                planes[2 + len(TERRAINS) + SITE_KINDS.index(site.kind), row, col] = 1.0
            colour = the_map.gem_at(cell)
            if colour is not None:
                planes[2 + len(TERRAINS) + len(SITE_KINDS) + GEM_COLOURS.index(colour), row, col] = 1.0
        return planes

    def tensor(self, state: State) -> np.ndarray:
        """The flat observation (see the module docstring for the views)."""
        assert isinstance(state, BoardState)
        observation = self._buffer
        observation.fill(0.0)
        views = self._views
        if state.hero >= 0:
            self._hero(state, views["heroes"][0])
            self._hand(state, views["hand"])
        steps = [state.warband_step(band) for band in state.warbands]
        self._map(state, views["map"], steps)
        self._time(state, views["time"])
        for city, market in enumerate(state.markets):
            for slot, card in enumerate(market[:MARKET_SLOTS]):
                views["markets"][city, slot, card] = 1.0
        self._warbands(state, views["warbands"], steps)
        self._decks(state, views["decks"])
        for face in state.dice:
            views["dice"][face] += 1.0 / MAX_DICE
        self._decision(state, views["decision"])
        if state.fighting():
            observation[self._combat_slice] = self.combat.tensor(state)
        return observation.copy()

    def _hero(self, state: BoardState, row: np.ndarray) -> None:
        game = self.game
        board = game.board
        at = 0
        row[at] = 1.0
        at += 1
        row[at + state.hero] = 1.0
        at += len(game.cards.heroes)
        health = state.max_health()
        row[at : at + 3] = (health / MAX_WOUNDS, state.wounds / MAX_WOUNDS, (health - state.wounds) / health)
        at += 3
        row[at] = state.hero_gold / MAX_GOLD
        at += 1
        for kind, count in enumerate(state.trophies):
            row[at + kind] = count / MAX_TROPHIES
        at += len(TROPHY_KINDS)
        for index, attribute in enumerate(ATTRIBUTES):
            row[at + index] = min(1.0, state.attribute(attribute) / 6.0)
        at += len(ATTRIBUTES)
        row[at] = state.dice_count() / MAX_DICE
        row[at + 1] = state.hand_size() / MAX_HAND
        at += 2
        for card in state.assets:
            if card != NONE:
                row[at + card] = 1.0
        at += len(board.assets)
        skills = board.skills
        raises: list[str] = [skills[skill].learned for skill in state.learned]
        for index, what in enumerate(LEARNED):
            row[at + index] = min(1.0, raises.count(what) / 5.0)
        at += len(LEARNED)
        row[at + int(state.prepare)] = 1.0
        at += len(Prepare)
        for quest in state.quests:
            row[at + quest] = 1.0
        at += len(board.adventures)
        for skill in state.hand:
            row[at + skill] = 1.0

    def _skill_rows(self) -> np.ndarray:
        """Each skill card's `hand` row but the last feature (learnable now): what the card is never changes."""
        skills = self.game.board.skills
        rows = np.zeros((len(skills), HAND_FEATURES), dtype=np.float32)
        for row, card in zip(rows, skills, strict=True):
            row[0] = 1.0
            row[1 + ATTRIBUTES.index(card.attribute)] = 1.0
            at = 1 + len(ATTRIBUTES)
            row[at] = card.exert / 4.0
            at += 1
            for kind, amount in card.cost.items():
                row[at + TROPHY_KINDS.index(kind)] = amount / 3.0
            at += len(TROPHY_KINDS)
            row[at + LEARNED.index(card.learned)] = 1.0
        return rows

    def _hand(self, state: BoardState, rows: np.ndarray) -> None:
        hand = state.hand[:HAND_SLOTS]
        if not hand:
            return
        rows[: len(hand)] = self._skill_table[list(hand)]
        for slot, skill in enumerate(hand):
            rows[slot, -1] = float(state.can_learn(skill))

    def _map(self, state: BoardState, planes: np.ndarray, steps: list[tuple[int, int] | None]) -> None:
        planes[:] = self._static
        at = self.game.cell_array_index
        base = 2 + len(TERRAINS) + len(SITE_KINDS) + len(GEM_COLOURS)
        for cell in state.gems:
            planes[(base, *at[cell])] = 1.0
        for cell in state.scorched:
            planes[(base + 1, *at[cell])] = 1.0
        for band, step in zip(state.warbands, steps, strict=True):
            row, col = at[band.cell]
            planes[base + 2, row, col] = min(1.0, planes[base + 2, row, col] + band.units / MAX_UNITS)
            if step is not None:
                planes[(base + 3, *at[step[0]])] = 1.0
        for quest in state.quests:
            planes[(base + 4, *at[self.game.quest_cell[quest]])] = 1.0
        planes[(base + 5, *at[state.cell])] = 1.0

    def _time(self, state: BoardState, view: np.ndarray) -> None:
        scenario = self.game.board.scenario
        track = 2 * scenario.act_length
        space = state.time % scenario.act_length
        story_ahead = [s - space for s in scenario.story_spaces if s > space]
        spawns_ahead = [at - state.time for at in scenario.warband_spaces if at > state.time]
        view[:] = (
            state.time / track,
            state.act() == 1,
            state.act() == 2,
            state.actions_left / 4.0,
            state.prepare == Prepare.HELD,
            (min(story_ahead) if story_ahead else scenario.act_length) / scenario.act_length,
            (min(spawns_ahead) if spawns_ahead else track) / track,
            (track - state.time) / track,
        )

    def _warbands(self, state: BoardState, rows: np.ndarray, steps: list[tuple[int, int] | None]) -> None:
        game = self.game
        distances = game.land_distances[state.cell]
        for card in state.warband_pile:
            rows[card, 0] = 1.0
        for card in state.defeated:
            rows[card, 2] = 1.0
        for band, step in zip(state.warbands, steps, strict=True):
            row = rows[band.card]
            row[1] = 1.0
            row[3 + band.units - 1] = 1.0
            row[7] = min(1.0, distances[band.cell] / FAR)
            row[8] = 1.0 if step is None else min(1.0, game.land_distances[band.cell][step[0]] / FAR)
            enemy = game.warband_enemies[band.card][band.units - 1]
            row[9] = game.cards.enemies[enemy].health / MAX_HEALTH

    def _decks(self, state: BoardState, view: np.ndarray) -> None:
        game = self.game
        board = game.board
        deck_of = game.adventure_deck_of
        decks: list[str] = [deck_of[card] for card in state.adventure_deck]
        left = [decks.count(deck) / max(1, game.deck_sizes[deck]) for deck in TROPHY_KINDS]
        colour_at = game.gem_colour_at
        up = [colour_at[cell] for cell in state.gems]
        gems = [up.count(colour) / max(1, self.gem_spaces[colour]) for colour in GEM_COLOURS]
        view[:] = (
            *left,
            len(state.asset_deck) / len(game.asset_card_names),
            *gems,
            len(state.skill_deck) / max(1, len(board.skills)),
            len(state.warband_pile) / len(board.warbands),
            len(state.defeated) / len(board.warbands),
        )

    def _decision(self, state: BoardState, view: np.ndarray) -> None:
        frame = state.decision()
        kinds = len(BOARD_DECISION_KINDS)
        if frame is not None and frame.kind in BOARD_DECISION_KINDS:
            view[BOARD_DECISION_KINDS.index(frame.kind)] = 1.0
        view[kinds] = float(state.fighting())
        if frame is None:
            return
        at = kinds + 1
        city = frame.detail("city")
        if frame.kind == BoardKind.SHOP and city is not None:
            view[at + city] = 1.0
        at += len(self.game.cities)
        if frame.kind == BoardKind.EXERT:
            card = frame.detail("adventure")
            adventure = self.game.board.adventures[card]
            view[at + ATTRIBUTES.index(adventure.attribute or ATTRIBUTES[0])] = 1.0
            view[at + len(ATTRIBUTES)] = (adventure.difficulty or 0) / 12.0
            view[at + len(ATTRIBUTES) + 1] = min(1.0, state.test_total(card, frame.detail("bonus")) / 12.0)

    def text(self, state: State) -> str:
        """The board as text (everything is public)."""
        from envs.runebound.board_render import board_text

        assert isinstance(state, BoardState)
        return board_text(state)

    def action_text(self, state: State, action: int) -> str:
        """A combat action as the combat reads it; a board action with what it names (a skill, an asset, a hex)."""
        assert isinstance(state, BoardState)
        from envs.runebound.board_render import action_words

        if action < self.game.actions.combat_ids:
            return self.combat.action_text(state, action)
        return action_words(state, action)
