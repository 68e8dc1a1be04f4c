"""A heuristic Unbroken player that plays like a sensible human, from visible information only.

It scouts, crafts the best weapon it can afford, values encounter cards by what they give per time spent,
rests when effort is low, faces the monster when it can afford the fight (or time runs short), tricks when
trickery is cheaper than the fight, attacks with the most efficient option, and eats what the level demands.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.unbroken.cards import (
    CUNNING,
    FOOD,
    LARGE_EFFORT,
    MEDIUM_EFFORT,
    METAL,
    SMALL_EFFORT,
    TIME,
    TREASURE,
    WOOD,
    Bag,
)
from envs.unbroken.rules import (
    DECIDE_CARD,
    DECIDE_ENCOUNTER_OR_REST,
    DECIDE_HUNGER,
    DECIDE_PLAYER_TURN,
    DECIDE_REACTION,
    DECIDE_SKILL,
    DECIDE_TRAVEL,
    DECIDE_TRICKERY,
    UnbrokenGame,
    UnbrokenState,
)

RESOURCE_VALUE = {
    SMALL_EFFORT: 1.0,
    MEDIUM_EFFORT: 4.0,
    LARGE_EFFORT: 8.5,
    CUNNING: 3.0,
    FOOD: 2.5,
    WOOD: 2.0,
    METAL: 2.5,
    TREASURE: 0.5,
    TIME: 1.0,
}
"""Small-effort equivalents a sensible player puts on each resource (effort conversions set the scale)."""
SAFETY_MARGIN = 1.35
"""Face the monster only with this multiple of the effort the fight is expected to need."""


def bag_value(bag: Bag) -> float:
    """Small-effort equivalent of a resource bag."""
    return sum(RESOURCE_VALUE[r] * amount for r, amount in bag)


class UnbrokenHeuristicAgent:
    """Rule-of-thumb policy over the visible state (never reads the face-down monster)."""

    name = "heuristic"

    def __init__(self, game: UnbrokenGame) -> None:
        self.game = game
        self.cards = game.cards
        self.ids = game.actions

    def reset(self, seed: int | None = None) -> None:
        """Nothing random to reseed."""

    def act(self, observation: Any, action_mask: np.ndarray, state: Any | None = None) -> int:
        """Pick an action for the current decision (needs the rules-core state)."""
        if not isinstance(state, UnbrokenState):
            raise ValueError(
                "UnbrokenHeuristicAgent needs the rules-core state: act(obs, mask, state=env.unwrapped.state)"
            )
        legal = [int(a) for a in np.flatnonzero(action_mask)]
        choice = self._choose(state, legal)
        return choice if choice in legal else legal[0]

    # ------------------------------------------------------------ estimates
    def effort_pool(self, s: UnbrokenState) -> float:
        """Effort on hand in small-effort units (each category pays one for one)."""
        r = s.resources
        return r[SMALL_EFFORT] + r[MEDIUM_EFFORT] * 2.0 + r[LARGE_EFFORT] * 3.0

    def fight_cost(self, s: UnbrokenState) -> float:
        """Expected effort (small-effort units) to beat the visible monster, or a level-based guess."""
        weapon = self.cards.weapons[s.weapons[-1]]
        if s.monster_revealed:
            monster = self.cards.monsters[s.monster()]
            health = s.monster_health() - s.wounds
            armor = s.armor_left()
            extra = bag_value(monster.attack_extra_cost)
        else:
            level_monsters = [m for m in self.cards.monsters if m.level == s.level]
            health = float(np.mean([m.health for m in level_monsters]))
            armor = float(np.mean([m.armor for m in level_monsters]))
            extra = 0.0
        wound_rate = min(
            ((bag_value(a.cost) + extra) / a.wounds for a in weapon.attacks if a.wounds), default=4.0
        )
        break_rate = min(
            ((bag_value(a.cost) + extra) / a.break_armor for a in weapon.attacks if a.break_armor),
            default=4.0,
        )
        rounds = (
            health
            / max(
                1.0,
                min(a.wounds for a in weapon.attacks if a.wounds)
                if any(a.wounds for a in weapon.attacks)
                else 1.0,
            )
            + armor
        )
        monster_damage = 1.2 * s.level * rounds  # rough effort the monster takes back per round
        return health * wound_rate + armor * break_rate + monster_damage

    # ------------------------------------------------------------ decisions
    def _choose(self, s: UnbrokenState, legal: list[int]) -> int:
        phase = s.phase
        ids = self.ids
        if phase == DECIDE_SKILL:
            return self._pick_skill(s, legal)
        if phase == DECIDE_TRAVEL:
            return self._travel(s, legal)
        if phase == DECIDE_CARD:
            values = [self._card_value(s, card) for card in s.revealed_cards]
            return ids.choose_card + int(np.argmax(values))
        if phase == DECIDE_ENCOUNTER_OR_REST:
            card = self.cards.encounters[s.chosen_card]
            if ids.encounter in legal and self._encounter_gain(s, s.chosen_card) >= s.rest_gain(
                s.chosen_card
            ):
                return ids.encounter
            return ids.rest if ids.rest in legal else legal[0] if card else legal[0]
        if phase == DECIDE_TRICKERY:
            monster = self.cards.monsters[s.monster()]
            assert monster.trickery is not None
            if bag_value(monster.trickery) < 0.6 * self.fight_cost(s) or self.fight_cost(
                s
            ) > self.effort_pool(s):
                return ids.trick
            return ids.fight
        if phase == DECIDE_PLAYER_TURN:
            return self._combat(s, legal)
        if phase == DECIDE_REACTION:
            return self._react(s, legal)
        if phase == DECIDE_HUNGER:
            most = max(a - ids.eat for a in legal)
            return ids.eat + most
        return legal[0]

    def _pick_skill(self, s: UnbrokenState, legal: list[int]) -> int:
        def value(skill_index: int) -> float:
            skill = self.cards.skills[skill_index]
            if skill.action is not None:
                gain = sum(
                    (3.0 * arg if kind in ("wounds", "wounds_ignore_armor", "break_armor") else 0.0)
                    + (bag_value(arg) if kind == "gain" else 0.0)
                    for kind, arg in skill.action.effects
                )
                return gain - bag_value(skill.action.cost) + (2.0 if skill.action.timing != "travel" else 0.0)
            if skill.reaction_cost is not None:
                return 3.0
            passive = skill.passive
            return (
                4.0 * (passive.get("wound_bonus", ("any", 0))[1])
                + 2.5 * passive.get("reveal_bonus", 0)
                + 2.0 * len(passive.get("ignore", ()))
                + 2.0 * passive.get("rest_bonus", 0)
                - 3.0 * passive.get("food_requirement", 0)
                + 1.5
            )

        values = [value(k) for k in s.skill_offer]
        return self.ids.take_skill + int(np.argmax(values))

    def _encounter_gain(self, s: UnbrokenState, card_index: int) -> float:
        card = self.cards.encounters[card_index]
        gain = bag_value(card.gain) - bag_value(card.spend)
        if card.commit:
            gain -= 0.5
        return gain

    def _card_value(self, s: UnbrokenState, card_index: int) -> float:
        """Surplus of the best use of a card over resting's one small effort per unit of time."""
        card = self.cards.encounters[card_index]
        encounter = self._encounter_gain(s, card_index) if s.can_pay(card.spend) else -99.0
        best = max(float(s.rest_gain(card_index)), encounter)
        ambush = card.time >= s.resources[TIME] and self._ambush_hurts(s)
        return best - card.time - (6.0 if ambush else 0.0) + 0.1 * card.time

    def _ambush_hurts(self, s: UnbrokenState) -> bool:
        """Whether running out of time is costly (unknown monsters are assumed to ambush)."""
        if not s.monster_revealed:
            return True
        return self.cards.monsters[s.monster()].ambush is not None

    def _travel(self, s: UnbrokenState, legal: list[int]) -> int:
        ids = self.ids
        time_left = s.resources[TIME]
        if ids.scout in legal and time_left > 2:
            return ids.scout
        crafts = [a for a in legal if ids.craft <= a < ids.craft + len(self.cards.weapons)]
        if crafts:
            best = max(crafts, key=lambda a: self._weapon_strength(a - ids.craft))
            if self._weapon_strength(best - ids.craft) > self._weapon_strength(s.weapons[-1]) and time_left > 1:
                return best
        for a in legal:  # travel abilities and skills that pay for themselves
            if ids.ability <= a < ids.ability + 8 or ids.skill <= a < ids.skill + len(self.cards.skills):
                card = self._action_card(s, a)
                if card is not None and self._worth_it(s, card):
                    return a
        if s.committed:
            return ids.explore
        if ids.face_monster in legal:
            if time_left <= 1 and self._ambush_hurts(s):
                return ids.face_monster
            if self.effort_pool(s) < 3 and time_left <= 2 and self._ambush_hurts(s):
                return ids.face_monster
        if ids.focus in legal and s.resources[SMALL_EFFORT] >= 14:
            return ids.focus
        if ids.inspiration in legal and s.resources[MEDIUM_EFFORT] >= 3:
            return ids.inspiration
        return ids.explore

    def _action_card(self, s: UnbrokenState, action: int) -> Any:
        ids = self.ids
        if ids.ability <= action < ids.ability + 8:
            character, slot = divmod(action - ids.ability, 2)
            return self.cards.characters[character].abilities[slot]
        if ids.skill <= action < ids.skill + len(self.cards.skills):
            return self.cards.skills[action - ids.skill].action
        return None

    def _worth_it(self, s: UnbrokenState, card: Any) -> bool:
        """Use an action when what it gives is worth more than what it costs (and effort is not scarce)."""
        value = 0.0
        for kind, argument in card.effects:
            if kind == "gain":
                value += bag_value(argument)
            elif kind in ("wounds", "wounds_ignore_armor"):
                value += 2.5 * argument if (kind == "wounds_ignore_armor" or s.armor_left() == 0) else 0.0
            elif kind == "break_armor":
                value += 2.0 * argument if s.armor_left() > 0 else 0.0
            elif kind == "reveal_monster":
                value += 3.0 if not s.monster_revealed else 0.0
            elif kind in ("remove_condition",):
                value += 3.0 if (s.conditions_active or s.conditions_now) else 0.0
            elif kind in ("extra_turn", "reveal_bonus"):
                value += 1.5
            elif kind in ("monster_health", "monster_armor"):
                value += 2.0 * -argument
        cost = bag_value(card.cost)
        return value > cost + 0.5 and s.resources[SMALL_EFFORT] - cost >= 3

    def _weapon_strength(self, weapon_index: int) -> float:
        weapon = self.cards.weapons[weapon_index]
        rates = [a.wounds / bag_value(a.cost) for a in weapon.attacks if a.wounds]
        return max(rates, default=0.0) + (0.05 if weapon.kind == "advanced" else 0.0)

    def _combat(self, s: UnbrokenState, legal: list[int]) -> int:
        ids = self.ids
        weapon = self.cards.weapons[s.weapons[-1]]
        best, best_rate = ids.skip, 0.0
        for a in legal:
            if ids.attack <= a < ids.attack + 3:
                attack = weapon.attacks[a - ids.attack]
                cost = bag_value(attack.cost) + 0.01
                if attack.break_armor and s.armor_left() > 0:
                    rate = attack.break_armor / cost
                elif attack.wounds and (s.armor_left() == 0 or attack.ignore_armor):
                    wounds = min(s.attack_wounds(a - ids.attack), s.monster_health() - s.wounds)
                    rate = wounds / cost
                else:
                    continue
                if s.defending:
                    rate *= 0.1
                if rate > best_rate:
                    best, best_rate = a, rate
            elif ids.skill <= a < ids.skill + len(self.cards.skills) or ids.ability <= a < ids.ability + 8:
                card = self._action_card(s, a)
                if card is not None and self._worth_it(s, card):
                    return a
        if best == ids.skip and ids.focus in legal and s.resources[SMALL_EFFORT] >= 8:
            return ids.focus
        return best

    def _react(self, s: UnbrokenState, legal: list[int]) -> int:
        monster = self.cards.monsters[s.monster()]
        value = s.modified_roll()
        if not 1 <= value <= 6:
            return self.ids.accept_roll
        row = monster.combat[value - 1]
        if any(kind in ("lose", "condition", "downgrade_weapon") for kind, _ in row.effects):
            others = [a for a in legal if a != self.ids.accept_roll]
            if others:
                return others[0]
        return self.ids.accept_roll
