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
    Board,
    BoardAbilityKind,
    EnemyAbility,
    HeroAbility,
    Instruction,
)
from envs.runebound.combat import CombatRules
from envs.runebound.combat_board import SURGE_SECTIONS
from envs.runebound.render import state_text
from envs.runebound.state import DECISION_KINDS, MAX_BARRIER, NOT_CAST, NOWHERE, ROUND_CAP, Kind
from envs.runebound.symbols import ENEMY, HERO, MAX_VALUE, Symbol

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
ROUND_FEATURES = 13
"""The round / cap, initiative (per side), then per side: passed, charged, silenced, barrier, round damage."""
CODES_PER_TOKEN = 6
"""Rows per token in `CombatObserver._token_rows`: not cast or either face shown, each unspent or spent."""
DECISION_INDEX: dict[str, int] = {kind: index for index, kind in enumerate(DECISION_KINDS)}
"""Each decision kind's place in the `decision` view."""


def _row_code(token: int, face: int, spent: bool) -> int:
    """A token's row in `CombatObserver._token_rows`."""
    return CODES_PER_TOKEN * token + 2 * (face + 1) + spent


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
        layout.add("round", ROUND_FEATURES)
        layout.add("decision", DECISION_FEATURES)
        layout.add("preset", 1)
        self.layout = layout
        self.size = layout.size
        self.views = layout.views
        self.view_shapes = layout.shapes
        self.view_axes = layout.axes
        self._start = {name: view.start for name, view in layout.views.items()}
        """Where each view starts in the flat observation."""
        self._fixed: dict[tuple[int, int, int], np.ndarray] = {}
        """The fixed part of the observation by (hero, enemy, Act): see `_fixed_part`."""
        self._hero_rows = self._token_rows(None)
        self._enemy_rows: dict[int, np.ndarray] = {}
        """`_token_rows` of each enemy's board, built when the enemy is first seen."""

    def tensor(self, state: State) -> np.ndarray:
        """The flat observation (see the module docstring for the views): a copy of the combat's fixed part (which
        hero, enemy and Act, the cards' abilities, the board), then what changes written at flat offsets."""
        assert isinstance(state, CombatRules)
        observation = self._fixed_part(state.combat_hero(), state.enemy, state.combat_act()).copy()
        self._decision(state, observation)
        if state.combat_hero() == NOWHERE or state.enemy == NOWHERE:
            return observation
        self._tokens(state, observation)
        hero_health, enemy_health = state.combat_hero_health(), state.enemy_card().health
        hero_damage, enemy_damage = state.combat_damage
        health = self._start["health"]
        observation[health : health + 6] = (
            hero_health / MAX_HEALTH,  # one write of a tuple is cheaper than one write per entry
            hero_damage / MAX_HEALTH,
            enemy_health / MAX_HEALTH,
            enemy_damage / MAX_HEALTH,
            (hero_health - hero_damage) / hero_health,
            (enemy_health - enemy_damage) / enemy_health,
        )
        self._ability_uses(state, observation)
        rounds = self._start["round"]
        passed, charged, silenced = state.passed, state.charged, state.silenced
        barrier, round_damage = state.barrier, state.combat_round_damage
        observation[rounds : rounds + ROUND_FEATURES] = (
            state.combat_round / ROUND_CAP,
            state.initiative == HERO,
            state.initiative == ENEMY,
            passed[HERO],
            passed[ENEMY],
            charged[HERO],
            charged[ENEMY],
            silenced[HERO],
            silenced[ENEMY],
            barrier[HERO] / MAX_BARRIER,
            barrier[ENEMY] / MAX_BARRIER,
            min(1.0, round_damage[HERO] / MAX_HEALTH),
            min(1.0, round_damage[ENEMY] / MAX_HEALTH),
        )
        return observation

    def _fixed_part(self, hero: int, enemy: int, act: int) -> np.ndarray:
        """The observation's part that a combat never changes (the Act, the preset, and once the hero and the enemy
        are known: who they are, their healths, their abilities' cards, the board), built once per pair."""
        key = (hero, enemy, act)
        fixed = self._fixed.get(key)
        if fixed is not None:
            return fixed
        fixed = self.layout.zeros()
        views = self.layout.split(fixed)
        game = self.game
        views["act"][act - 1] = 1.0
        views["preset"][0] = float(game.preset.choice_as_damage)
        if hero != NOWHERE and enemy != NOWHERE:
            cards = game.cards
            views["hero"][hero] = 1.0
            views["enemy"][enemy] = 1.0
            views["trait"][cards.enemy_trait[enemy]] = 1.0
            hero_card, enemy_card = cards.heroes[hero], cards.enemies[enemy]
            views["health"][2] = enemy_card.health / MAX_HEALTH
            self._hero_abilities(hero_card.abilities, views["hero_abilities"])
            self._enemy_abilities(enemy_card.abilities, views["enemy_abilities"])
            self._board(game.enemy_traits[enemy].board, views["board"], views["board_ability"])
        fixed.flags.writeable = False
        self._fixed[key] = fixed
        return fixed

    def _token_rows(self, spaces: tuple[int, ...] | None) -> np.ndarray:
        """Every token's row by `_row_code` (its face shown and whether it is spent): present, cast, spent, the face
        shown and the other face (not cast: the first face, then the second); with an enemy's `spaces` (board space
        by symbol), the space of a cast, unspent token on its own (`CombatRules.space_of`)."""
        faces = self.game.faces
        width = HERO_TOKEN_FEATURES if spaces is None else ENEMY_TOKEN_FEATURES
        rows = np.zeros((len(faces) * CODES_PER_TOKEN, width), dtype=np.float32)
        for token, pair in enumerate(faces):
            for shown in (NOT_CAST, 0, 1):
                for spent in (False, True):
                    row = rows[_row_code(token, shown, spent)]
                    row[0] = 1.0
                    first = pair[0] if shown == NOT_CAST else pair[shown]
                    second = pair[1] if shown == NOT_CAST else pair[1 - shown]
                    self._face_features(row, 3, first)
                    self._face_features(row, 3 + SYMBOLS + 2, second)
                    if shown == NOT_CAST:
                        continue
                    row[1] = 1.0
                    row[2] = float(spent)
                    if spaces is not None and not spent and spaces[first.symbol] != NOWHERE:
                        row[TOKEN_FEATURES + spaces[first.symbol]] = 1.0
        return rows

    @staticmethod
    def _face_features(row: np.ndarray, start: int, face: Face) -> None:
        row[start + face.symbol] = 1.0
        row[start + SYMBOLS] = face.value / MAX_VALUE
        row[start + SYMBOLS + 1] = float(face.gold)

    def _tokens(self, state: CombatRules, observation: np.ndarray) -> None:
        """Both sides' token rows: each side's rows copied at once from `_token_rows` (faces, spent, the space of a
        token on its own), then what depends on other tokens: the action being built, stacks and surge sections."""
        hero_tokens, enemy_tokens = state.combat_tokens
        start = self._start["hero_tokens"]
        codes = [_row_code(held.token, held.face, held.spent) for held in hero_tokens]
        observation[start : start + len(codes) * HERO_TOKEN_FEATURES] = self._hero_rows.take(codes, 0).ravel()
        frame = state.decision()
        if frame is not None and frame.kind == Kind.COMBAT_GROUP:
            for index in frame.detail("tokens"):
                observation[start + index * HERO_TOKEN_FEATURES + TOKEN_FEATURES] = 1.0
            for index in frame.detail("doubles"):
                observation[start + index * HERO_TOKEN_FEATURES + TOKEN_FEATURES + 1] = 1.0
        start = self._start["enemy_tokens"]
        codes = [_row_code(held.token, held.face, held.spent) for held in enemy_tokens]
        rows = self._enemy_rows.get(state.enemy)
        if rows is None:
            rows = self._enemy_rows[state.enemy] = self._token_rows(self.game.enemy_spaces[state.enemy])
        observation[start : start + len(codes) * ENEMY_TOKEN_FEATURES] = rows.take(codes, 0).ravel()
        pools = state.pools(ENEMY)
        for base in pools.doubles:  # a token with a double on it
            if enemy_tokens[base].face != NOT_CAST:
                observation[start + base * ENEMY_TOKEN_FEATURES + ENEMY_TOKEN_FEATURES - 1] = 1.0
        for index, held in enumerate(enemy_tokens):
            if held.on == NOWHERE:
                continue
            row = start + index * ENEMY_TOKEN_FEATURES  # a stacked double: on its base's space, not its own
            observation[row + ENEMY_TOKEN_FEATURES - 2] = 1.0
            observation[row + TOKEN_FEATURES : row + TOKEN_FEATURES + MAX_SPACES] = 0.0
            space = state.space_of(index)
            if space != NOWHERE:
                observation[row + TOKEN_FEATURES + space] = 1.0
        if Symbol.SURGE in pools.showing:
            for index, section in state.surge_sections().items():
                observation[start + index * ENEMY_TOKEN_FEATURES + TOKEN_FEATURES + MAX_SPACES + section - 1] = 1.0

    @staticmethod
    def _hero_abilities(abilities: tuple[HeroAbility, ...], rows: np.ndarray) -> None:
        """The fixed features of the hero's abilities (`_ability_uses` adds whether each was triggered and is
        usable)."""
        for slot, ability in enumerate(abilities):
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

    @staticmethod
    def _enemy_abilities(abilities: tuple[EnemyAbility, ...], rows: np.ndarray) -> None:
        """The fixed features of the enemy's abilities (`_ability_uses` adds whether each was triggered)."""
        for slot, ability in enumerate(abilities):
            row = rows[slot]
            row[0] = 1.0
            row[1] = float(ability.surge)
            row[2 + TIMINGS.index(ability.timing)] = 1.0
            row[4] = ability.cost.amount / AMOUNT_SCALE
            row[5 + EFFECT_KINDS.index(ability.effect.kind)] = 1.0
            offset = 5 + len(EFFECT_KINDS)
            row[offset] = ability.effect.amount / AMOUNT_SCALE
            row[offset + 1] = float(ability.effect.unblockable)
            row[offset + 3] = float(ability.optional)

    def _ability_uses(self, state: CombatRules, observation: np.ndarray) -> None:
        """Whether each ability was triggered this round (`CombatRules.has_triggered`, read from `triggered` at
        once), and whether each of the hero's is usable now."""
        game = self.game
        start = self._start["hero_abilities"]
        legal = state.legal_actions()
        first, triggered = game.hero_ability_base[state.combat_hero()], state.combat_triggered[HERO]
        for slot in range(len(state.hero_card().abilities)):
            row = start + slot * HERO_ABILITY_FEATURES
            if first + slot in triggered:
                observation[row + HERO_ABILITY_FEATURES - 2] = 1.0
            if ACTIONS.ability + slot in legal:
                observation[row + HERO_ABILITY_FEATURES - 1] = 1.0
        start = self._start["enemy_abilities"]
        first, triggered = game.enemy_ability_base[state.enemy], state.combat_triggered[ENEMY]
        for slot in range(len(state.enemy_card().abilities)):
            if first + slot in triggered:
                observation[start + slot * ENEMY_ABILITY_FEATURES + ENEMY_ABILITY_FEATURES - 2] = 1.0

    @staticmethod
    def _board(board: Board, rows: np.ndarray, ability_view: np.ndarray) -> None:
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

    def _decision(self, state: CombatRules, observation: np.ndarray) -> None:
        frame = state.decision()
        if frame is None or frame.kind not in DECISION_INDEX:
            return  # no decision, or the host's own (a board's exert in a fight)
        start = self._start["decision"]
        observation[start + DECISION_INDEX[frame.kind]] = 1.0
        start += len(DECISION_KINDS)
        symbol = frame.detail("symbol")
        if symbol is not None:
            observation[start + symbol] = 1.0
        amount = frame.detail("amount")
        if amount is not None:
            observation[start + SYMBOLS] = min(1.0, amount / AMOUNT_SCALE)
        token = frame.detail("source", frame.detail("token"))
        if token is not None:
            observation[start + SYMBOLS + 1 + token] = 1.0

    def text(self, state: State) -> str:
        """The combat as text (everything is public)."""
        assert isinstance(state, CombatRules)
        return state_text(state)

    def action_text(self, state: State, action: int) -> str:
        """The action with the face of the token it names ("spend: hero token 2 (physical 1)")."""
        assert isinstance(state, CombatRules)
        label = ACTIONS.codec.label(action)
        group, index = ACTIONS.codec.decode(action)
        if group in ("spend", "add") and index < len(state.combat_tokens[HERO]):
            return f"{label} ({state.face(HERO, index)})"
        if group in ("flip", "recast", "copy"):
            side, token = ACTIONS.target_of(action, ACTIONS.codec.group_range(group).start)
            if token < len(state.combat_tokens[side]) and state.combat_tokens[side][token].face != NOT_CAST:
                return f"{label} ({state.face(side, token)})"
        if group == "ability" and state.combat_hero() != NOWHERE and index < len(state.hero_card().abilities):
            return f"{label} ({state.hero_card().abilities[index].name})"
        return label
