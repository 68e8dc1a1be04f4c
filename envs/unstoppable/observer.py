"""What the player sees of an Unstoppable game: one flat float32 tensor of named views, and a text view.

The tensor is card by zone: one row per sleeve of the sleeve table (the action ids are keyed by the same sleeves), each
row its zone, its core's cost, level, faction, type and effects, its upgrades, and its threat side only once the
player has seen it; then the player mat, the market, the face-up core decks, the draft and the pending decision.
Never in it: a threat the player has not seen, the order below the on-deck threat, the face-down decks' order.

The views (`observer.view(obs, name)` returns one in its shape):

- `sleeves` (64 x 56): per sleeve, whether it exists; its zone one-hot (hand, play, exhausted, battlefield, on deck,
  deck, discard, eliminated); its core (cost, level, ally, faction, play and exhaust amounts by icon, icons); whether
  it has a top and a bottom upgrade; its threat once seen (attack, health, damage, Crazed, Fast, Rage, Taunt, Terror,
  the bonus's amounts by icon).
- `player` (12): health, armor, credits, action points, level, small level, danger level, danger space, boss damage
  share, turn, deck size, hand size.
- `market` (6 x 37): per slot, the upgrade's cost, cutout, requirement, discount and its faction, core-side amounts,
  threat-side attack, defense and keywords.
- `core_decks` (6 x 28): per level, the cards left and the face-up top core's features; `draft` (3 x 27): the cores
  drawn in the Draft Phase.
- `phase` (6), `decision` (91): the phase; the pending decision's kind, its card (sleeve), mode and remaining effect
  slots.

The tensor is built fast (the benchmark's budget is 100 us per decision): rows that depend only on the content are
computed once per observer (cores, upgrades), a sleeve's row once per (sleeve record, danger level) and the whole
sleeve table, the market and the core decks once per state object they come from (immutable tuples, compared by
identity); the zones, the mat and the decision are written each call. tests/unstoppable/test_observer.py checks it
bit for bit against the straightforward reference (tests/unstoppable/reference_observer.py) at every step.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from envs.core.components import Deck
from envs.core.game import Observer, State
from envs.core.observation import ENTITY, FEATURE, ObservationLayout
from envs.unstoppable.cards import FACTION_NAMES, ICONS, MAX_AMOUNT, MAX_LEVEL, Core, Effect, Upgrade
from envs.unstoppable.effects import (
    MODES,
    SLOTS,
    threat_attack,
    threat_health,
    threat_keywords,
    threat_of,
)
from envs.unstoppable.state import (
    DECISION_KINDS,
    MARKET_SIZE,
    MAX_ACTION_POINTS,
    MAX_ARMOR,
    MAX_HEALTH,
    MAX_SLEEVES,
    NONE,
    Phase,
    Sleeve,
)

if TYPE_CHECKING:
    from envs.unstoppable.game import UnstoppableGame
    from envs.unstoppable.rules import UnstoppableState

ZONES = ("hand", "play", "exhausted", "battlefield", "on deck", "deck", "discard", "eliminated")
"""A sleeve's zone one-hot (an exhausted ally is in play and exhausted; the on-deck threat is not "deck")."""
CORE_FEATURES = 3 + len(FACTION_NAMES) + 2 * len(ICONS) + 1
"""Cost, level, ally; faction one-hot; the play effects' and the exhaust icons' amounts by icon; icons."""
THREAT_FEATURES = 1 + 3 + 5 + len(ICONS)
"""Seen; attack, health, damage; keywords; the bonus's amounts by icon."""
SLEEVE_FEATURES = 1 + len(ZONES) + CORE_FEATURES + 2 + THREAT_FEATURES
UPGRADE_FEATURES = 1 + 1 + 1 + 3 + 1 + len(FACTION_NAMES) + 2 * len(ICONS) + 2 + 5
PLAYER_FEATURES = 12
CREDIT_SCALE = 20.0
"""Credits are shown as a fraction of 20 (more shows as 1)."""
HAND_ZONE, PLAY_ZONE, EXHAUSTED_ZONE, BATTLEFIELD_ZONE, ON_DECK_ZONE, DECK_ZONE, DISCARD_ZONE, ELIMINATED_ZONE = range(
    len(ZONES)
)
"""Each zone's place in a sleeve row's zone one-hot (after the row's "exists")."""
CORE_START = 1 + len(ZONES)
"""Where a sleeve row's core features start."""
THREAT_START = CORE_START + CORE_FEATURES + 2
"""Where a sleeve row's threat features start (after the core and the two upgrade flags)."""
EMPTY_UPGRADE = np.zeros(UPGRADE_FEATURES, dtype=np.float32)
"""An empty market slot's row."""
ROW_CACHE = 4096
"""Sleeve rows kept per observer (the cache is emptied when it grows past this)."""


def _fraction(value: float, scale: float) -> float:
    return min(1.0, max(0.0, value / scale))


def effect_amounts(effects: Sequence[Effect]) -> list[float]:
    """Each icon's total amount x instances over `effects`, as fractions of 10 (Focus and Unite counted at X=1)."""
    totals = [0.0] * len(ICONS)
    for effect in effects:
        totals[ICONS.index(effect.kind)] += effect.amount * effect.instances
    return [_fraction(total, MAX_AMOUNT) for total in totals]


def core_features(core: Core) -> list[float]:
    """A core's features: cost, level, ally, faction, play effects, exhaust effects (all icons), number of icons."""
    faction = [float(core.faction == name) for name in FACTION_NAMES]
    exhaust = [effect for icon in core.exhaust for effect in icon]
    return [
        core.cost / MAX_ACTION_POINTS,
        core.level / MAX_LEVEL,
        float(core.type == "ally"),
        *faction,
        *effect_amounts(core.effects),
        *effect_amounts(exhaust),
        len(core.exhaust) / 3,
    ]


def upgrade_features(upgrade: Upgrade) -> list[float]:
    """An upgrade's features: cost, cutout, requirement, discount and its faction, both sides' modifiers."""
    faction = [float(upgrade.discount is not None and upgrade.discount.faction == name) for name in FACTION_NAMES]
    return [
        1.0,
        _fraction(upgrade.cost, MAX_AMOUNT),
        float(upgrade.cutout == "top"),
        *(float(upgrade.requirement == kind) for kind in ("tactic", "ally", "any")),
        _fraction(upgrade.discount.amount if upgrade.discount else 0, MAX_AMOUNT),
        *faction,
        *effect_amounts(upgrade.on_play),
        *effect_amounts(upgrade.on_exhaust),
        _fraction(upgrade.attack, MAX_AMOUNT),
        _fraction(upgrade.defense, MAX_AMOUNT),
        *(
            _fraction(getattr(upgrade.keywords, name) if name != "crazed" else len(upgrade.keywords.crazed), 3)
            for name in ("crazed", "fast", "rage", "taunt", "terror")
        ),
    ]


class UnstoppableObserver(Observer):
    """The player's observation (the public view is the same: a solo game has no one else to hide from)."""

    def __init__(self, game: UnstoppableGame, player: int | None = 0) -> None:
        self.game = game
        self.player = player
        layout = ObservationLayout()
        layout.add("sleeves", (MAX_SLEEVES, SLEEVE_FEATURES), (ENTITY, FEATURE))
        layout.add("player", PLAYER_FEATURES)
        layout.add("market", (MARKET_SIZE, UPGRADE_FEATURES), (ENTITY, FEATURE))
        layout.add("core_decks", (MAX_LEVEL, 1 + CORE_FEATURES), (ENTITY, FEATURE))
        layout.add("draft", (3, CORE_FEATURES), (ENTITY, FEATURE))
        layout.add("phase", len(Phase))
        layout.add("decision", len(DECISION_KINDS) + MAX_SLEEVES + MODES + SLOTS)
        self.layout = layout
        self.size = layout.size
        self.views = layout.views
        self.view_shapes = layout.shapes
        self.view_axes = layout.axes
        cards = game.cards
        self._core_rows = [core_features(core) for core in cards.cores]
        self._core_arrays = [np.array(row, dtype=np.float32) for row in self._core_rows]
        self._upgrade_arrays = [np.array(upgrade_features(upgrade), dtype=np.float32) for upgrade in cards.upgrades]
        self._danger_values = tuple(space.value for space in game.boss.danger_track)
        self._clear_caches()

    def _clear_caches(self) -> None:
        """Forget every cached row and block (they are rebuilt on demand)."""
        self._sleeve_rows: dict[tuple[Sleeve, int], np.ndarray] = {}
        """(sleeve record, danger level) -> the sleeve's row, zones left at 0."""
        self._sleeve_key: tuple[object, int] | None = None
        self._sleeve_block = np.zeros(0, dtype=np.float32)
        self._market_key: object = None
        self._market_block = np.zeros(0, dtype=np.float32)
        self._decks_key: object = None
        self._decks_block = np.zeros(0, dtype=np.float32)

    def __getstate__(self) -> dict[str, object]:
        """Pickled without the caches (they hold references to states' tuples)."""
        saved = dict(self.__dict__)
        for name in [name for name in saved if name.startswith(("_sleeve", "_market", "_decks"))]:
            del saved[name]
        return saved

    def __setstate__(self, saved: dict[str, object]) -> None:
        self.__dict__.update(saved)
        self._clear_caches()

    # ------------------------------------------------------------------------------------------ tensor
    def tensor(self, state: State) -> np.ndarray:
        """The flat observation (every value in [0, 1])."""
        from envs.unstoppable.rules import UnstoppableState

        assert isinstance(state, UnstoppableState)
        views = self.views
        observation = np.zeros(self.size, dtype=np.float32)
        danger = self._danger_values[state.danger]
        self._write_sleeves(state, danger, observation, views["sleeves"].start)
        self._write_player(state, danger, observation, views["player"])
        market = state.market
        if market is not self._market_key:
            self._market_block = self._market(market)
            self._market_key = market
        start = views["market"].start
        observation[start : start + len(self._market_block)] = self._market_block
        decks = state.core_decks
        if decks is not self._decks_key:
            self._decks_block = self._core_decks(decks)
            self._decks_key = decks
        start = views["core_decks"].start
        observation[start : start + len(self._decks_block)] = self._decks_block
        start = views["draft"].start
        for core in state.draft[:3]:
            observation[start : start + CORE_FEATURES] = self._core_arrays[core]
            start += CORE_FEATURES
        observation[views["phase"].start + int(state.phase)] = 1.0
        self._write_decision(state, observation, views["decision"].start)
        return observation

    def _write_sleeves(self, state: UnstoppableState, danger: int, observation: np.ndarray, start: int) -> None:
        """The sleeve table's rows (cached per sleeve table and danger level), then each sleeve's zone."""
        sleeves = state.sleeves
        key = (sleeves, danger)
        cached = self._sleeve_key
        if cached is None or cached[0] is not sleeves or cached[1] != danger:
            self._sleeve_block = self._sleeve_table(state, danger)
            self._sleeve_key = key  # holds the tuple: its identity cannot be taken by another while cached
        block = self._sleeve_block
        observation[start : start + len(block)] = block
        # A sleeve's zone, as the reference decides it: the on-deck threat, else the deck, unless a zone lists it
        # (the last zone listing it wins).
        zones = [DECK_ZONE] * len(sleeves)
        top = state.deck.top
        if top:
            zones[top[0]] = ON_DECK_ZONE
        for zone, members in (
            (HAND_ZONE, state.hand),
            (PLAY_ZONE, state.in_play),
            (BATTLEFIELD_ZONE, state.battlefield),
            (DISCARD_ZONE, state.discard),
            (ELIMINATED_ZONE, state.eliminated),
        ):
            for sleeve in members:
                zones[sleeve] = zone
        base = start + 1
        for sleeve, zone in enumerate(zones):
            observation[base + sleeve * SLEEVE_FEATURES + zone] = 1.0
        for sleeve in state.exhausted:
            observation[base + sleeve * SLEEVE_FEATURES + EXHAUSTED_ZONE] = 1.0

    def _sleeve_table(self, state: UnstoppableState, danger: int) -> np.ndarray:
        """Every sleeve's row, zones at 0, as one flat block."""
        rows = self._sleeve_rows
        if len(rows) > ROW_CACHE:
            rows.clear()
        block = []
        for sleeve, record in enumerate(state.sleeves):
            key = (record, danger)
            row = rows.get(key)
            if row is None:
                row = rows[key] = self._sleeve_row(state, sleeve)
            block.append(row)
        return np.concatenate(block) if block else np.zeros(0, dtype=np.float32)

    def _sleeve_row(self, state: UnstoppableState, sleeve: int) -> np.ndarray:
        """One sleeve's row: exists, its core, its upgrades and (once seen) its threat side; zones at 0."""
        record = state.sleeves[sleeve]
        row = np.zeros(SLEEVE_FEATURES, dtype=np.float32)
        row[0] = 1.0
        row[CORE_START : CORE_START + CORE_FEATURES] = self._core_rows[record.core]
        row[CORE_START + CORE_FEATURES] = float(record.top != NONE)
        row[CORE_START + CORE_FEATURES + 1] = float(record.bottom != NONE)
        if record.seen:
            keywords = threat_keywords(state, sleeve)
            row[THREAT_START : THREAT_START + THREAT_FEATURES] = [
                1.0,
                _fraction(threat_attack(state, sleeve), MAX_AMOUNT),
                _fraction(threat_health(state, sleeve), 2 * MAX_AMOUNT),
                _fraction(record.damage, 2 * MAX_AMOUNT),
                _fraction(max(keywords.crazed, default=0), MAX_HEALTH),
                _fraction(keywords.fast, 3),
                _fraction(keywords.rage, 3),
                _fraction(keywords.taunt, 3),
                _fraction(keywords.terror, 3),
                *effect_amounts(threat_of(state, sleeve).bonus),
            ]
        return row

    def _write_player(self, state: UnstoppableState, danger: int, observation: np.ndarray, view: slice) -> None:
        game = self.game
        observation[view] = [
            state.health / MAX_HEALTH,
            state.armor / MAX_ARMOR,
            _fraction(state.credits, CREDIT_SCALE),
            state.action_points / MAX_ACTION_POINTS,
            state.level / MAX_LEVEL,
            state.small_level / MAX_LEVEL,
            _fraction(danger, MAX_AMOUNT),
            state.danger / game.max_danger,
            _fraction(state.boss_damage, game.boss_damage_required),
            _fraction(state.turn, game.max_turns),
            _fraction(len(state.deck), MAX_SLEEVES),
            _fraction(len(state.hand), 10),
        ]

    def _market(self, market: tuple[int, ...]) -> np.ndarray:
        """The market's rows as one flat block (an empty slot is zeros)."""
        rows = [EMPTY_UPGRADE if upgrade == NONE else self._upgrade_arrays[upgrade] for upgrade in market]
        return np.concatenate(rows)

    def _core_decks(self, decks: Sequence[Deck]) -> np.ndarray:
        """Each core deck's row (cards left, its face-up top core) as one flat block."""
        block = np.zeros(MAX_LEVEL * (1 + CORE_FEATURES), dtype=np.float32)
        for level, deck in enumerate(decks):
            start = level * (1 + CORE_FEATURES)
            block[start] = _fraction(len(deck), 20)
            top = deck.draw_outcomes()[0][0] if len(deck) and (deck.top or not deck.unknown_size) else NONE
            if top != NONE:
                block[start + 1 : start + 1 + CORE_FEATURES] = self._core_arrays[top]
        return block

    def _write_decision(self, state: UnstoppableState, observation: np.ndarray, start: int) -> None:
        frame = state.decision()
        if frame is None:
            return
        observation[start + DECISION_KINDS.index(frame.kind)] = 1.0
        sleeve = frame.detail("sleeve")
        start += len(DECISION_KINDS)
        if isinstance(sleeve, int) and 0 <= sleeve < MAX_SLEEVES:
            observation[start + sleeve] = 1.0
        mode = frame.detail("mode")
        if isinstance(mode, int):
            observation[start + MAX_SLEEVES + mode] = 1.0
        for slot in frame.detail("left", ()) or ():
            observation[start + MAX_SLEEVES + MODES + slot] = 1.0

    # ------------------------------------------------------------------------------------------ text
    def text(self, state: State) -> str:
        """A readable table of everything the player may see (render.state_text)."""
        from envs.unstoppable.render import state_text
        from envs.unstoppable.rules import UnstoppableState

        assert isinstance(state, UnstoppableState)
        return state_text(state)
