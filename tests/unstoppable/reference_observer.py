"""Reference implementation of Unstoppable's observer: the oracle the fast `envs/unstoppable/observer.py` is checked
against.

This is the straightforward observer as it stood before the fast one was written (commit 21627fc), kept verbatim but
for the class name (`ReferenceUnstoppableObserver`), this docstring and the text view (left out: the fast observer's
text is `render.state_text`). tests/unstoppable/test_observer.py plays seeded random games and asserts that
`UnstoppableObserver.tensor` equals `ReferenceUnstoppableObserver.tensor` bit for bit at every step. Keep it simple
and slow: it says what the observation is; the layout and the meaning of every view are documented in
envs/unstoppable/observer.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from envs.core.game import Observer, State
from envs.core.observation import ENTITY, FEATURE, ObservationLayout
from envs.unstoppable.cards import FACTION_NAMES, ICONS, MAX_AMOUNT, MAX_LEVEL, Core, Effect
from envs.unstoppable.effects import (
    MODES,
    SLOTS,
    danger_level,
    on_deck,
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


class ReferenceUnstoppableObserver(Observer):
    """The straightforward observer: the oracle of the fast one (its tensor only; the text view is not compared)."""

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
        self._core_rows = [core_features(core) for core in game.cards.cores]

    def tensor(self, state: State) -> np.ndarray:
        """The flat observation (every value in [0, 1])."""
        from envs.unstoppable.rules import UnstoppableState

        assert isinstance(state, UnstoppableState)
        observation = self.layout.zeros()
        views = self.layout.split(observation)
        self._sleeves(state, views["sleeves"])
        self._player(state, views["player"])
        self._market(state, views["market"])
        for level, deck in enumerate(state.core_decks):
            row = views["core_decks"][level]
            row[0] = _fraction(len(deck), 20)
            top = deck.draw_outcomes()[0][0] if len(deck) and (deck.top or not deck.unknown_size) else NONE
            if top != NONE:
                row[1:] = self._core_rows[top]
        for index, core in enumerate(state.draft[:3]):
            views["draft"][index] = self._core_rows[core]
        views["phase"][int(state.phase)] = 1.0
        self._decision(state, views["decision"])
        return observation

    def _sleeves(self, state: UnstoppableState, rows: np.ndarray) -> None:
        zone_of = {}
        for zone, members in (
            ("hand", state.hand),
            ("play", state.in_play),
            ("battlefield", state.battlefield),
            ("discard", state.discard),
            ("eliminated", state.eliminated),
        ):
            for sleeve in members:
                zone_of[sleeve] = zone
        top = on_deck(state)
        core_start = 1 + len(ZONES)
        threat_start = core_start + CORE_FEATURES + 2
        for sleeve, record in enumerate(state.sleeves):
            row = rows[sleeve]
            row[0] = 1.0
            zone = zone_of.get(sleeve, "on deck" if sleeve == top else "deck")
            row[1 + ZONES.index(zone)] = 1.0
            if sleeve in state.exhausted:
                row[1 + ZONES.index("exhausted")] = 1.0
            row[core_start : core_start + CORE_FEATURES] = self._core_rows[record.core]
            row[core_start + CORE_FEATURES] = float(record.top != NONE)
            row[core_start + CORE_FEATURES + 1] = float(record.bottom != NONE)
            if record.seen:
                keywords = threat_keywords(state, sleeve)
                row[threat_start : threat_start + THREAT_FEATURES] = [
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

    def _player(self, state: UnstoppableState, row: np.ndarray) -> None:
        game = self.game
        row[:] = [
            state.health / MAX_HEALTH,
            state.armor / MAX_ARMOR,
            _fraction(state.credits, CREDIT_SCALE),
            state.action_points / MAX_ACTION_POINTS,
            state.level / MAX_LEVEL,
            state.small_level / MAX_LEVEL,
            _fraction(danger_level(state), MAX_AMOUNT),
            state.danger / game.max_danger,
            _fraction(state.boss_damage, game.boss_damage_required),
            _fraction(state.turn, game.max_turns),
            _fraction(len(state.deck), MAX_SLEEVES),
            _fraction(len(state.hand), 10),
        ]

    def _market(self, state: UnstoppableState, rows: np.ndarray) -> None:
        upgrades = self.game.cards.upgrades
        for slot, index in enumerate(state.market):
            if index == NONE:
                continue
            upgrade = upgrades[index]
            faction = [
                float(upgrade.discount is not None and upgrade.discount.faction == name) for name in FACTION_NAMES
            ]
            rows[slot] = [
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

    def _decision(self, state: UnstoppableState, row: np.ndarray) -> None:
        frame = state.decision()
        if frame is None:
            return
        row[DECISION_KINDS.index(frame.kind)] = 1.0
        sleeve = frame.detail("sleeve")
        start = len(DECISION_KINDS)
        if isinstance(sleeve, int) and 0 <= sleeve < MAX_SLEEVES:
            row[start + sleeve] = 1.0
        mode = frame.detail("mode")
        if isinstance(mode, int):
            row[start + MAX_SLEEVES + mode] = 1.0
        for slot in frame.detail("left", ()) or ():
            row[start + MAX_SLEEVES + MODES + slot] = 1.0

    def text(self, state: State) -> str:
        """The text view (render.state_text): only the tensor is compared with the fast observer."""
        from envs.unstoppable.render import state_text
        from envs.unstoppable.rules import UnstoppableState

        assert isinstance(state, UnstoppableState)
        return state_text(state)
