"""A heuristic Runebound hero that fights a combat like a sensible player, from the visible state (everything in a
combat is visible: both sides' tokens and faces; only the casts to come are chance).

How it decides (worth of faces from the rules' own `hero_worth` / `enemy_worth`, envs/runebound/combat_board.py):

- A kill first: any action whose damage, after what the enemy would block (barrier, shields, a tactics copying a
  shield), reaches the enemy's remaining health.
- Then abilities that pay off now (a heal worth its surges, a barrier while the enemy still holds damage, a
  reflection of the damage taken), an agility that turns a dangerous enemy token or a poor own token, unblockable
  damage when the enemy can block, the strongest attack (every token of the best symbol with every double), charge
  only when the hero has nothing left to block with or the enemy nothing left to hit with, a tactics copying the best
  symbol; else it passes.
- Reactions: it blocks with a tactics when the hit is big, lethal, or the tactics would be lost anyway; it prevents a
  flip that would cost more than the agility it spends.
- Between rounds it flees only when the next round would likely kill it and it cannot kill the enemy first.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.runebound.actions import ACTIONS, DECLINE, FLEE, STAY, USE
from envs.runebound.cards import Effect, Face
from envs.runebound.combat import CombatContent, CombatRules
from envs.runebound.combat_board import enemy_worth, hero_worth, most_value_with_doubles
from envs.runebound.state import Kind
from envs.runebound.symbols import ENEMY, HERO, Symbol

WORTH_THRESHOLD = 2
"""A flip or recast is worth an agility when it gains at least this much worth (half-points: one damage)."""
BIG_HIT = 2
"""A hit of at least this much damage is worth a tactics spent as a shield."""
FLEE_MARGIN = 1.5
"""It flees only if the enemy's health left exceeds its own expected damage per round times this."""
DAMAGE_SYMBOLS = (Symbol.PHYSICAL, Symbol.MAGIC)


class RuneboundHeuristicAgent:
    """Rule-of-thumb hero for a Runebound combat (reads the rules-core state, as every heuristic of the suite): a
    combat alone, or a fight inside the board game (any state holding the combat's rules)."""

    name = "heuristic"

    def __init__(self, game: CombatContent) -> None:
        self.game = game

    def reset(self, seed: int | None = None) -> None:
        """Nothing to forget between combats."""

    def act(self, observation: Any, action_mask: np.ndarray, state: Any | None = None) -> int:
        """The heuristic's choice at the hero's decision in `state`."""
        assert isinstance(state, CombatRules), "the Runebound heuristic reads the rules-core state (a combat's)"
        frame = state.decision()
        assert frame is not None, "act() is called only when the hero decides"
        legal = [int(a) for a in np.flatnonzero(action_mask)]
        kind = frame.kind
        if kind == Kind.HERO_COMBAT_ACTION:
            return self._combat_action(state, legal)
        if kind == Kind.COMBAT_GROUP:
            adds = [a for a in legal if a != ACTIONS.strike]
            return adds[0] if adds else ACTIONS.strike
        if kind == Kind.AGILITY:
            return max(legal, key=lambda a: self._agility_gain(state, a))
        if kind == Kind.COPY:
            return max(legal, key=lambda a: self._copy_value(state, a))
        if kind == Kind.COPIED_SURGE:
            return max(
                legal, key=lambda a: self._effect_value(state, state.hero_card().abilities[a - ACTIONS.ability].effect)
            )
        if kind == Kind.BLOCK:
            return ACTIONS.react + (USE if self._block_worth_it(state, frame.detail("amount")) else DECLINE)
        if kind == Kind.PREVENT:
            index = frame.detail("token")
            loss = hero_worth(state.face(HERO, index), True) - hero_worth(state.other_face(HERO, index), True)
            use = loss > WORTH_THRESHOLD or state.passed[HERO]
            return ACTIONS.react + (USE if use else DECLINE)
        if kind == Kind.STAY:
            return ACTIONS.round_end + (FLEE if self._should_flee(state) else STAY)
        return legal[0]

    # ------------------------------------------------------------------------------------------ combat actions
    def _combat_action(self, state: CombatRules, legal: list[int]) -> int:
        """The hero's combat action (see the module docstring for the order of preference)."""
        left = state.enemy_card().health - state.combat_damage[ENEMY]
        options = {action: self._damage_of(state, action) for action in legal if action != ACTIONS.pass_turn}
        lethal = [action for action, damage in options.items() if damage >= left]
        if lethal:
            return max(lethal, key=lambda a: (options[a], -a))
        for action in legal:  # abilities that pay off now, other than damage
            if ACTIONS.ability <= action < ACTIONS.react:
                effect = state.hero_card().abilities[action - ACTIONS.ability].effect
                if effect.kind != "damage" and self._effect_value(state, effect) >= WORTH_THRESHOLD:
                    return action
        agility = [a for a in legal if self._starts(state, a, Symbol.AGILITY)]
        if agility and self._best_agility_gain(state, agility[0] - ACTIONS.spend) >= WORTH_THRESHOLD:
            return agility[0]
        attacks = {a: d for a, d in options.items() if d > 0 and self._charge_allowed(state, a)}
        if attacks:
            return max(attacks, key=lambda a: (attacks[a], -a))
        tactics = [a for a in legal if self._starts(state, a, Symbol.TACTICS)]
        if tactics:
            return tactics[0]
        return ACTIONS.pass_turn

    @staticmethod
    def _starts(state: CombatRules, action: int, symbol: Symbol) -> bool:
        index = action - ACTIONS.spend
        return ACTIONS.spend <= action < ACTIONS.add and state.face(HERO, index).symbol == symbol

    def _damage_of(self, state: CombatRules, action: int) -> float:
        """The damage an action deals now, after what the enemy would block (0 for an action that deals none)."""
        if ACTIONS.ability <= action < ACTIONS.react:
            ability = state.hero_card().abilities[action - ACTIONS.ability]
            effect = ability.effect
            if effect.kind == "damage":
                return effect.amount if effect.unblockable else max(0, effect.amount - self._enemy_block(state))
            if effect.kind == "reflect":
                return max(0, state.combat_round_damage[HERO] - self._enemy_block(state))
            return 0
        if not ACTIONS.spend <= action < ACTIONS.add:
            return 0
        symbol = state.face(HERO, action - ACTIONS.spend).symbol
        if symbol == Symbol.TACTICS:
            best = max((self._copy_value(state, a) for a in self._copies(state, action - ACTIONS.spend)), default=0)
            return best
        if symbol not in (*DAMAGE_SYMBOLS, Symbol.CHARGE):
            return 0
        values = [state.face(HERO, i).value for i in state.showing(HERO, symbol)]
        total = most_value_with_doubles(values, len(state.showing(HERO, Symbol.DOUBLE)))
        if symbol == Symbol.CHARGE:
            return total + 0.5  # unblockable
        return max(0, total - self._enemy_block(state))

    @staticmethod
    def _copies(state: CombatRules, tactics: int) -> list[int]:
        """The `copy` ids a tactics could take."""
        return [ACTIONS.target(ACTIONS.copy, side, index) for side, index in state.copy_targets(tactics)]

    @staticmethod
    def _enemy_block(state: CombatRules) -> int:
        """What the enemy would block of one blockable hit: barrier, shields (with the board's bonus), a tactics."""
        if state.charged[ENEMY]:
            return 0
        board = state.trait().board.ability
        bonus = board.amount if board.kind == "shield_bonus" else 0
        block = state.barrier[ENEMY] + sum(state.value(ENEMY, i) + bonus for i in state.showing(ENEMY, Symbol.SHIELD))
        shields = [state.face(side, i).value for side in (HERO, ENEMY) for i in state.showing(side, Symbol.SHIELD)]
        if state.showing(ENEMY, Symbol.TACTICS) and shields:
            block += max(shields) + (board.amount if board.kind == "tactics_block_bonus" else 0)
        return block

    def _charge_allowed(self, state: CombatRules, action: int) -> bool:
        """Charge forbids blocking for the rest of the round: spend it when there is nothing to block with or
        nothing left to block."""
        if (
            not (ACTIONS.spend <= action < ACTIONS.add)
            or state.face(HERO, action - ACTIONS.spend).symbol != Symbol.CHARGE
        ):
            return True
        can_block = bool(state.showing(HERO, Symbol.SHIELD)) or state.barrier[HERO] > 0
        return not can_block or state.passed[ENEMY] or self._enemy_threat(state) == 0

    @staticmethod
    def _enemy_threat(state: CombatRules) -> int:
        """The damage the enemy still holds this round (skulls, charges, surges) as a rough count."""
        symbols = (Symbol.SKULL, Symbol.CHARGE, Symbol.SURGE, Symbol.TACTICS)
        return sum(state.value(ENEMY, i) for symbol in symbols for i in state.showing(ENEMY, symbol))

    # ------------------------------------------------------------------------------------------ targets
    def _agility_gain(self, state: CombatRules, action: int) -> float:
        """What flipping or recasting a token gains the hero (half-points)."""
        flip = action < ACTIONS.recast
        side, index = ACTIONS.target_of(action, ACTIONS.flip if flip else ACTIONS.recast)
        shown, other = state.face(side, index), state.other_face(side, index)
        if side == HERO:
            surges = state.hero_has_surges()
            now, then = hero_worth(shown, surges), hero_worth(other, surges)
            gain = then - now
        else:
            surges = state.enemy_has_surges()
            now, then = enemy_worth(shown, surges), enemy_worth(other, surges)
            gain = now - then
            if state.trait().board.space_of(shown.symbol) < 0:
                gain = -abs(gain)
        if flip:
            return gain - (100 if self._flips_prevented(state) else 0)
        return gain / 2

    @staticmethod
    def _flips_prevented(state: CombatRules) -> bool:
        """Whether the enemy would prevent a flip now (an optional ability it always uses)."""
        if state.silenced[ENEMY] or not state.showing(ENEMY, Symbol.AGILITY):
            return False
        return any(ability.timing == "prevent_flip" for ability in state.enemy_card().abilities)

    def _best_agility_gain(self, state: CombatRules, source: int) -> float:
        gains = []
        for side, index in state.agility_targets(source):
            gains.append(self._agility_gain(state, ACTIONS.target(ACTIONS.flip, side, index)))
            gains.append(self._agility_gain(state, ACTIONS.target(ACTIONS.recast, side, index)))
        return max(gains, default=0.0)

    def _copy_value(self, state: CombatRules, action: int) -> float:
        """What a tactics copying the token of `copy` id `action` would do (damage, or the best use of the symbol)."""
        side, index = ACTIONS.target_of(action, ACTIONS.copy)
        face: Face = state.face(side, index)
        if face.symbol in DAMAGE_SYMBOLS:
            return max(0, face.value - self._enemy_block(state))
        if face.symbol == Symbol.CHARGE:
            return face.value + 0.5
        if face.symbol == Symbol.SURGE:
            slots = state.copied_surge_slots(face.value)
            return max((self._effect_value(state, state.hero_card().abilities[s].effect) for s in slots), default=0) / 2
        if face.symbol == Symbol.AGILITY:
            return self._best_agility_gain(state, -1) / 2
        return 0

    def _effect_value(self, state: CombatRules, effect: Effect) -> float:
        """What an ability's effect is worth now (half-points of damage dealt or prevented)."""
        kind = effect.kind
        if kind == "damage":
            return 2 * (effect.amount if effect.unblockable else max(0, effect.amount - self._enemy_block(state)))
        if kind == "heal":
            return 2 * min(effect.amount, state.combat_damage[HERO])
        if kind == "reflect":
            return 2 * state.combat_round_damage[HERO]
        if kind == "barrier":
            return 2 * min(effect.amount, self._enemy_threat(state)) if not state.passed[ENEMY] else 0
        return 0

    # ------------------------------------------------------------------------------------------ reactions
    @staticmethod
    def _block_worth_it(state: CombatRules, amount: int) -> bool:
        left = state.combat_hero_health() - state.combat_damage[HERO]
        return amount >= BIG_HIT or amount >= left or state.passed[HERO]

    def _should_flee(self, state: CombatRules) -> bool:
        """Flee only when the next round would likely end the hero and the enemy is far from its end."""
        hero_left = state.combat_hero_health() - state.combat_damage[HERO]
        enemy_left = state.enemy_card().health - state.combat_damage[ENEMY]
        return hero_left <= self._expected_enemy_round(state) and enemy_left > FLEE_MARGIN * self._expected_hero_round(
            state
        )

    def _expected_enemy_round(self, state: CombatRules) -> float:
        """The damage the enemy's cast deals in a round, on average over its faces (abilities counted roughly)."""
        faces = [self.game.faces[held.token] for held in state.combat_tokens[ENEMY]]
        damage = sum(sum(f.value for f in pair if f.symbol in (Symbol.SKULL, Symbol.CHARGE)) / 2 for pair in faces)
        return damage + 1

    def _expected_hero_round(self, state: CombatRules) -> float:
        faces = [self.game.faces[held.token] for held in state.combat_tokens[HERO]]
        return sum(sum(f.value for f in pair if f.symbol in (*DAMAGE_SYMBOLS, Symbol.CHARGE)) / 2 for pair in faces)
