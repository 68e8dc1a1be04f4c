"""Runebound combat's observation: one flat float32 vector of named, shaped views, the same size for every hero,
enemy and Act. Everything is public (both sides' tokens show both faces; casting is the only chance), so the hero's
view and the public view are the same. Every entry lies in [0, 1]: numbers are divided by the most they can be.

Views (`CombatObserver.view_shapes`; `Observer.view(observation, name)` returns one reshaped):

| view | shape | contents |
|---|---|---|
| `hero_tokens` | (6, 29) | per token: present, cast, spent; shown and other face (symbol, number / 3, gold); used |
| `enemy_tokens` | (6, 39) | the same 27 token features; its board space, its surge section, stacked, doubled |
| `health` | (6,) | hero health and damage, enemy health and damage (/ 20), each side's health left as a fraction |
| `hero` | (heroes,) | which hero (one-hot) |
| `enemy` | (enemies,) | which enemy (one-hot) |
| `trait` | (traits,) | the enemy's trait (one-hot) |
| `act` | (2,) | Act I or II |
| `hero_abilities` | (3, 31) | per ability: timing, cost, effect, once per round, triggered this round, usable now |
| `enemy_abilities` | (4, 20) | per ability: surge or agility, timing, cost, effect, triggered this round, optional |
| `board` | (7, 30) | per space, top to bottom: present, symbol, instruction, +N / 3, the symbols it prefers |
| `board_ability` | (5,) | the board ability's kind (one-hot) and number / 3 |
| `round` | (13,) | round / cap, initiative, passed, charged, silenced (per side), barrier / 9, round damage / 20 |
| `decision` | (25,) | the decision's kind, the symbol of the action being built, its amount / 9, its token |
| `preset` | (1,) | 1 when enemy choices deal 2 damage instead |
"""

from __future__ import annotations

from typing import TYPE_CHECKING, get_args

import numpy as np

from envs.core.game import Observer, State
from envs.core.observation import ENTITY, FEATURE, ObservationLayout
from envs.runebound.actions import ACTIONS
from envs.runebound.cards import (
    EFFECT_KINDS,
    MAX_ENEMY_ABILITIES,
    MAX_ENEMY_TOKENS,
    MAX_HEALTH,
    MAX_HERO_ABILITIES,
    MAX_HERO_TOKENS,
    MAX_SPACES,
    BoardAbilityKind,
    Instruction,
)
from envs.runebound.combat_board import SURGE_SECTIONS
from envs.runebound.render import state_text
from envs.runebound.rules import CombatState
from envs.runebound.state import DECISION_KINDS, MAX_BARRIER, NOT_CAST, NOWHERE, ROUND_CAP, Kind
from envs.runebound.symbols import ENEMY, HERO, MAX_VALUE, SIDES, Symbol

if TYPE_CHECKING:
    from envs.runebound.cards import Face
    from envs.runebound.game import RuneboundCombatGame

SYMBOLS = len(Symbol)
TOKEN_FEATURES = 3 + 2 * (SYMBOLS + 2)
"""Present, cast, spent; then the face shown and the other face: symbol one-hot, number / 3, gold."""
HERO_TOKEN_FEATURES = TOKEN_FEATURES + 2
ENEMY_TOKEN_FEATURES = TOKEN_FEATURES + MAX_SPACES + SURGE_SECTIONS + 2
INSTRUCTIONS: tuple[str, ...] = get_args(Instruction)
BOARD_ABILITY_KINDS: tuple[str, ...] = get_args(BoardAbilityKind)
AMOUNT_SCALE = 9.0
"""Costs, effect amounts and pending amounts are at most 9 (cards.py bounds them)."""
HERO_ABILITY_FEATURES = 1 + 2 + SYMBOLS + 1 + 1 + len(EFFECT_KINDS) + 1 + 1 + 1 + 1 + 1
ENEMY_ABILITY_FEATURES = 1 + 1 + 2 + 1 + len(EFFECT_KINDS) + 1 + 1 + 1 + 1
SPACE_FEATURES = 1 + SYMBOLS + len(INSTRUCTIONS) + 1 + SYMBOLS
DECISION_FEATURES = len(DECISION_KINDS) + SYMBOLS + 1 + MAX_HERO_TOKENS
TIMINGS = ("action", "prevent_flip")


class CombatObserver(Observer):
    """The hero's view of a combat (the public view is the same: nothing is hidden)."""

    def __init__(self, game: RuneboundCombatGame) -> None:
        self.game = game
        self.player = 0
        cards = game.cards
        layout = ObservationLayout()
        layout.add("hero_tokens", (MAX_HERO_TOKENS, HERO_TOKEN_FEATURES), (ENTITY, FEATURE))
        layout.add("enemy_tokens", (MAX_ENEMY_TOKENS, ENEMY_TOKEN_FEATURES), (ENTITY, FEATURE))
        layout.add("health", 6)
        layout.add("hero", len(cards.heroes))
        layout.add("enemy", len(cards.enemies))
        layout.add("trait", len(cards.traits))
        layout.add("act", 2)
        layout.add("hero_abilities", (MAX_HERO_ABILITIES, HERO_ABILITY_FEATURES), (ENTITY, FEATURE))
        layout.add("enemy_abilities", (MAX_ENEMY_ABILITIES, ENEMY_ABILITY_FEATURES), (ENTITY, FEATURE))
        layout.add("board", (MAX_SPACES, SPACE_FEATURES), (ENTITY, FEATURE))
        layout.add("board_ability", len(BOARD_ABILITY_KINDS) + 1)
        layout.add("round", 13)
        layout.add("decision", DECISION_FEATURES)
        layout.add("preset", 1)
        self.layout = layout
        self.size = layout.size
        self.views = layout.views
        self.view_shapes = layout.shapes
        self.view_axes = layout.axes

    def tensor(self, state: State) -> np.ndarray:
        """The flat observation (see the module docstring for the views)."""
        assert isinstance(state, CombatState)
        observation = self.layout.zeros()
        views = self.layout.split(observation)
        game = self.game
        views["act"][game.act - 1] = 1.0
        views["preset"][0] = float(game.preset.choice_as_damage)
        self._decision(state, views["decision"])
        if state.hero == NOWHERE or state.enemy == NOWHERE:
            return observation
        views["hero"][state.hero] = 1.0
        views["enemy"][state.enemy] = 1.0
        views["trait"][game.cards.enemy_trait[state.enemy]] = 1.0
        self._tokens(state, views["hero_tokens"], views["enemy_tokens"])
        hero, enemy = state.hero_card(), state.enemy_card()
        health = views["health"]
        health[:4] = (hero.health / MAX_HEALTH, state.damage[HERO] / MAX_HEALTH, enemy.health / MAX_HEALTH,
                      state.damage[ENEMY] / MAX_HEALTH)  # fmt: skip
        health[4] = (hero.health - state.damage[HERO]) / hero.health
        health[5] = (enemy.health - state.damage[ENEMY]) / enemy.health
        self._hero_abilities(state, views["hero_abilities"])
        self._enemy_abilities(state, views["enemy_abilities"])
        self._board(state, views["board"], views["board_ability"])
        rounds = views["round"]
        rounds[0] = state.round / ROUND_CAP
        if state.initiative != NOWHERE:
            rounds[1 + state.initiative] = 1.0
        for side in SIDES:
            rounds[3 + side] = float(state.passed[side])
            rounds[5 + side] = float(state.charged[side])
            rounds[7 + side] = float(state.silenced[side])
            rounds[9 + side] = state.barrier[side] / MAX_BARRIER
            rounds[11 + side] = min(1.0, state.round_damage[side] / MAX_HEALTH)
        return observation

    @staticmethod
    def _face_features(row: np.ndarray, start: int, face: Face) -> None:
        row[start + face.symbol] = 1.0
        row[start + SYMBOLS] = face.value / MAX_VALUE
        row[start + SYMBOLS + 1] = float(face.gold)

    def _tokens(self, state: CombatState, hero_rows: np.ndarray, enemy_rows: np.ndarray) -> None:
        """Both sides' token rows."""
        faces = self.game.faces
        frame = state.decision()
        group = frame.detail("tokens", ()) if frame is not None and frame.kind == Kind.GROUP else ()
        doubles = frame.detail("doubles", ()) if frame is not None and frame.kind == Kind.GROUP else ()
        sections = state.surge_sections()
        for side, rows in ((HERO, hero_rows), (ENEMY, enemy_rows)):
            for index, held in enumerate(state.tokens[side]):
                row = rows[index]
                row[0] = 1.0
                if held.face == NOT_CAST:
                    self._face_features(row, 3, faces[held.token][0])
                    self._face_features(row, 3 + SYMBOLS + 2, faces[held.token][1])
                    continue
                row[1] = 1.0
                row[2] = float(held.spent)
                self._face_features(row, 3, faces[held.token][held.face])
                self._face_features(row, 3 + SYMBOLS + 2, faces[held.token][1 - held.face])
                if side == HERO:
                    row[TOKEN_FEATURES] = float(index in group)
                    row[TOKEN_FEATURES + 1] = float(index in doubles)
                    continue
                space = state.space_of(index)
                if space != NOWHERE:
                    row[TOKEN_FEATURES + space] = 1.0
                if index in sections:
                    row[TOKEN_FEATURES + MAX_SPACES + sections[index] - 1] = 1.0
                row[-2] = float(held.on != NOWHERE)
                row[-1] = float(state.double_on(ENEMY, index) != NOWHERE)

    def _hero_abilities(self, state: CombatState, rows: np.ndarray) -> None:
        usable = set(ACTIONS.ability + slot for slot in range(MAX_HERO_ABILITIES)) & set(state.legal_actions())
        for slot, ability in enumerate(state.hero_card().abilities):
            row = rows[slot]
            row[0] = 1.0
            row[1 + TIMINGS.index(ability.timing)] = 1.0
            row[3 + ability.cost.symbol] = 1.0
            offset = 3 + SYMBOLS
            row[offset] = ability.cost.amount / AMOUNT_SCALE
            row[offset + 1] = float(ability.cost.tokens)
            row[offset + 2 + EFFECT_KINDS.index(ability.effect.kind)] = 1.0
            offset += 2 + len(EFFECT_KINDS)
            row[offset] = ability.effect.amount / AMOUNT_SCALE
            row[offset + 1] = float(ability.effect.unblockable)
            row[offset + 2] = float(ability.once_per_round)
            row[offset + 3] = float(state.has_triggered(HERO, slot))
            row[offset + 4] = float(ACTIONS.ability + slot in usable)

    def _enemy_abilities(self, state: CombatState, rows: np.ndarray) -> None:
        for slot, ability in enumerate(state.enemy_card().abilities):
            row = rows[slot]
            row[0] = 1.0
            row[1] = float(ability.surge)
            row[2 + TIMINGS.index(ability.timing)] = 1.0
            row[4] = ability.cost.amount / AMOUNT_SCALE
            row[5 + EFFECT_KINDS.index(ability.effect.kind)] = 1.0
            offset = 5 + len(EFFECT_KINDS)
            row[offset] = ability.effect.amount / AMOUNT_SCALE
            row[offset + 1] = float(ability.effect.unblockable)
            row[offset + 2] = float(state.has_triggered(ENEMY, slot))
            row[offset + 3] = float(ability.optional)

    def _board(self, state: CombatState, rows: np.ndarray, ability_view: np.ndarray) -> None:
        board = state.trait().board
        for number, space in enumerate(board.spaces):
            row = rows[number]
            row[0] = 1.0
            row[1 + space.symbol] = 1.0
            row[1 + SYMBOLS + INSTRUCTIONS.index(space.instruction)] = 1.0
            row[1 + SYMBOLS + len(INSTRUCTIONS)] = space.bonus / MAX_VALUE
            for symbol in space.priority:
                row[2 + SYMBOLS + len(INSTRUCTIONS) + symbol] = 1.0
        ability_view[BOARD_ABILITY_KINDS.index(board.ability.kind)] = 1.0
        ability_view[-1] = board.ability.amount / MAX_VALUE

    @staticmethod
    def _decision(state: CombatState, view: np.ndarray) -> None:
        frame = state.decision()
        if frame is None:
            return
        view[DECISION_KINDS.index(Kind(frame.kind))] = 1.0
        symbol = frame.detail("symbol")
        if symbol is not None:
            view[len(DECISION_KINDS) + symbol] = 1.0
        amount = frame.detail("amount")
        if amount is not None:
            view[len(DECISION_KINDS) + SYMBOLS] = min(1.0, amount / AMOUNT_SCALE)
        token = frame.detail("source", frame.detail("token"))
        if token is not None:
            view[len(DECISION_KINDS) + SYMBOLS + 1 + token] = 1.0

    def text(self, state: State) -> str:
        """The combat as text (everything is public)."""
        assert isinstance(state, CombatState)
        return state_text(state)

    def action_text(self, state: State, action: int) -> str:
        """The action with the face of the token it names ("spend: hero token 2 (physical 1)")."""
        assert isinstance(state, CombatState)
        label = ACTIONS.codec.label(action)
        group, index = ACTIONS.codec.decode(action)
        if group in ("spend", "add") and index < len(state.tokens[HERO]):
            return f"{label} ({state.face(HERO, index)})"
        if group in ("flip", "recast", "copy"):
            side, token = ACTIONS.target_of(action, ACTIONS.codec.group_range(group).start)
            if token < len(state.tokens[side]) and state.tokens[side][token].face != NOT_CAST:
                return f"{label} ({state.face(side, token)})"
        if group == "ability" and state.hero != NOWHERE and index < len(state.hero_card().abilities):
            return f"{label} ({state.hero_card().abilities[index].name})"
        return label
