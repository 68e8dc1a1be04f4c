"""Unbroken's public rule queries: what an action costs and whether it can be paid, the modifier totals, the
modified roll, what an attack would do, the monster's figures. The rules (`rules.py`) and the heuristic agent
both use these, so each rule is written once.

`UnbrokenEconomy` adds the queries to the declared state (`state.py`); the rules subclass it. `can_pay_from` and
`spend_from` are the effort payer on any pool of numbers (the rules' resources, or a planner's float pool).
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import Any

from envs.unbroken.cards import (
    EFFORTS,
    LARGE_EFFORT,
    MEDIUM_EFFORT,
    PASSIVES,
    SMALL_EFFORT,
    TIME,
    Bag,
    CombatRow,
    Monster,
    Weapon,
)
from envs.unbroken.state import FINAL_LEVEL, MAX_REVEAL, Outcome, Phase, UnbrokenStateData

PAYMENT_TOLERANCE = 1e-9
"""Slack when a planner's float pool is compared with a cost (no effect on the rules' integer resources)."""
_SKILL_KEYS = {name: f"skill:{name}" for name in PASSIVES}
"""Passive name -> its key among the modifier totals (formatted once)."""
_SPLIT_TIME: dict[Bag, tuple[Bag, int]] = {}
_BATTLE_TURN = (Phase.DECIDE_PLAYER_TURN, Phase.DECIDE_REACTION)
"""Phases in which an action is taken during the battle (level IV's time costs are then paid in effort)."""


def split_time(cost: Bag) -> tuple[Bag, int]:
    """(the cost without time, its time part), memoised: costs are a few shared tuples."""
    split = _SPLIT_TIME.get(cost)
    if split is None:
        split = (tuple((r, a) for r, a in cost if r != TIME), sum(a for r, a in cost if r == TIME))
        _SPLIT_TIME[cost] = split
    return split


def can_pay_from(pool: Sequence[float], bag: Bag) -> bool:
    """Whether `pool` (resource amounts by index) can pay `bag`: higher effort may pay for lower, one for one.

    RULES.md: costs are settled from the largest effort category down; each is paid from its own category first,
    then from the next higher one. This never fails when any assignment exists. (On the step path: kept lean.)
    """
    small = medium = large = 0
    for r, amount in bag:
        if r == SMALL_EFFORT:
            small += amount
        elif r == MEDIUM_EFFORT:
            medium += amount
        elif r == LARGE_EFFORT:
            large += amount
        elif pool[r] < amount - PAYMENT_TOLERANCE:
            return False
    # Effort: the highest category has the fewest payers, so it is settled first.
    spare_large = pool[LARGE_EFFORT] - large
    if spare_large < -PAYMENT_TOLERANCE:
        return False
    spare_medium = pool[MEDIUM_EFFORT] - medium
    if spare_medium < 0:
        spare_large += spare_medium
        spare_medium = 0
        if spare_large < -PAYMENT_TOLERANCE:
            return False
    own_small = pool[SMALL_EFFORT]
    if own_small < 0:  # a planner's pool may run below zero; the rules' never does
        own_small = 0
    return own_small + spare_medium + spare_large >= small - PAYMENT_TOLERANCE


def spend_from(pool: MutableSequence[Any], bag: Bag) -> list[tuple[int, Any]]:
    """Pay `bag` from `pool` in place (the caller checked `can_pay_from`); returns (resource, amount) as spent.

    Each effort category is paid from itself first, then from the next higher ones, largest category first.
    """
    spent: list[tuple[int, Any]] = []
    need = [0, 0, 0]
    for r, amount in bag:
        if r <= LARGE_EFFORT:
            need[r] += amount
        else:
            pool[r] -= amount
            spent.append((r, amount))
    for category in (LARGE_EFFORT, MEDIUM_EFFORT, SMALL_EFFORT):
        amount = need[category]
        for payer in range(category, LARGE_EFFORT + 1):
            if amount <= 0:
                break
            available = pool[payer] if pool[payer] > 0 else 0
            used = amount if amount < available else available
            pool[payer] -= used
            amount -= used
            spent.append((payer, used))
    return spent


class UnbrokenEconomy(UnbrokenStateData):
    """The state plus the rule queries agents may ask (all read-only: nothing here changes the state)."""

    def can_pay(self, bag: Bag, extra: Bag = ()) -> bool:
        """Whether the bag (plus `extra`) can be spent from the resources; higher effort may pay for lower."""
        if extra:
            merged: dict[int, int] = {}
            for r, amount in (*bag, *extra):
                merged[r] = merged.get(r, 0) + amount
            return can_pay_from(self.resources, tuple(merged.items()))
        return can_pay_from(self.resources, bag)

    def ability_uses_for(self, level: int) -> int:
        """Ability-bar uses at the start of `level`: the level, less what conditions take (Appendix B, C)."""
        penalty = sum(self.cards.conditions[c].modifiers.get("ability_uses_penalty", 0) for c in self.conditions_active)
        return max(0, level - penalty)

    def modifier_totals(self) -> dict[str, Any]:
        """Totals of every condition modifier and skill passive, recomputed only when those cards change."""
        cache = self.modifier_cache
        skills, active, now = self.skills, self.conditions_active, self.conditions_now
        # The one check that keeps the cache true: its sources are the very objects in the state (state.py).
        if cache is not None and cache[0] is skills and cache[1] is active and cache[2] is now:
            return cache[3]
        conditions = [self.cards.conditions[c].modifiers for c in (*self.conditions_active, *self.conditions_now)]
        passives = [self.cards.skills[k].passive for k in self.skills]
        values: dict[str, Any] = {}
        for modifiers in conditions:
            for name, value in modifiers.items():
                if isinstance(value, tuple):
                    values[name] = values.get(name, ()) + value
                elif isinstance(value, bool):
                    values[name] = values.get(name, False) or value
                else:
                    values[name] = values.get(name, 0) + value
        for passive in passives:
            for name, value in passive.items():
                slot = f"skill:{name}"
                if name == "ignore":
                    values[slot] = values.get(slot, frozenset()) | frozenset(value)
                elif name == "wound_bonus":
                    values[slot] = values.get(slot, ()) + (value,)
                elif isinstance(value, bool):
                    values[slot] = values.get(slot, False) or value
                else:
                    values[slot] = values.get(slot, 0) + value
        self.modifier_cache = (skills, active, now, values)
        return values

    def condition_total(self, key: str) -> int:
        """Sum of an integer modifier over active conditions (level and immediate)."""
        return self.modifier_totals().get(key, 0)

    def condition_flag(self, key: str) -> bool:
        """Whether any active condition sets a flag modifier."""
        return self.modifier_totals().get(key, False)

    def condition_bag(self, key: str) -> Bag:
        """The resource bags of a modifier over active conditions, concatenated."""
        return self.modifier_totals().get(key, ())

    def passive_total(self, key: str) -> int:
        """Sum of an integer passive over the player's skills."""
        return self.modifier_totals().get(_SKILL_KEYS[key], 0)

    def ignores(self, effect_kind: str) -> bool:
        """Whether a skill makes the player ignore a monster effect kind."""
        return effect_kind in self.modifier_totals().get("skill:ignore", ())

    def scout_cost(self) -> Bag:
        """The Scout cost of the current level (a skill may waive its small effort)."""
        cost = self.cards.display.general.scout_cost_by_level[self.level]
        if self.modifier_totals().get("skill:scout_discount", False):
            cost = tuple((r, a) for r, a in cost if r != SMALL_EFFORT)
        return cost

    def reveal_count(self) -> int:
        """Cards revealed by the next (uncommitted) exploration: 2, changed by effects (RULES.md)."""
        modifiers = self.modifier_totals()
        count = self.cards.display.exploration_reveal + self.reveal_bonus + modifiers.get("skill:reveal_bonus", 0)
        change = modifiers.get("reveal_modifier", 0)
        if self.preset.reveal_can_decrease:
            count = max(1, count + change)
        else:
            count += max(0, change)
        return min(MAX_REVEAL, count)

    def rest_gain(self, card: int) -> int:
        """Small effort gained by resting on a card: its time value, changed by skills and conditions."""
        gain = self.cards.encounters[card].time + self.passive_total("rest_bonus")
        return max(0, gain - self.condition_total("rest_penalty"))

    def monster_health(self) -> int:
        """The monster's health value (changed by effects under the Spanish printing)."""
        return max(1, self.cards.monsters[self.monster()].health + self.health_delta)

    def monster_armor(self) -> int:
        """The monster's armor value (changed by effects under the Spanish printing)."""
        return max(0, self.cards.monsters[self.monster()].armor + self.armor_delta)

    def armor_left(self) -> int:
        """Armor still to break before wounds land."""
        return max(0, self.monster_armor() - self.armor_broken)

    def modified_roll(self) -> int:
        """The combat roll after modifiers (clamped to 1..6 under the Spanish printing)."""
        return self.roll_on_table(self.roll, self.cards.monsters[self.monster()], self.reaction_modifier)

    def roll_shift(self, monster: Monster) -> int:
        """What the conditions and the monster's special add to every combat roll against `monster`."""
        return self.condition_total("monster_roll_modifier") + monster.modifiers.get("roll_modifier", 0)

    def roll_on_table(self, face: int, monster: Monster, reaction_modifier: int = 0) -> int:
        """The combat-table row a die `face` lands on against `monster`: the face plus the reaction's, the
        conditions' and the monster's modifiers, clamped to 1..6 under the Spanish printing (else a row off the
        table, 0 or 7, matches nothing). Planners ask it of monsters not revealed yet."""
        value = face + reaction_modifier + self.roll_shift(monster)
        if self.preset.clamp_monster_roll:
            value = min(6, max(1, value))
        return value

    def rolls_again(self, row: CombatRow) -> bool:
        """Whether the monster rolls again instead of applying `row`: it would give a condition already gained for the
        next level (Monster Turns; Appendix C)."""
        for kind, argument in row.effects:
            if kind == "condition" and argument[1] == "next_level" and argument[0] in self.conditions_next:
                return True
        return False

    def attack_wounds(self, index: int) -> int:
        """Wounds attack option `index` of the equipped weapon inflicts now on this level's monster."""
        weapon = self.cards.weapons[self.weapons[-1]]
        return self.weapon_wounds(weapon, weapon.attacks[index].wounds, self.cards.monsters[self.monster()])

    def weapon_wounds(self, weapon: Weapon, wounds: int, monster: Monster | None) -> int:
        """Wounds an attack of `weapon` printed with `wounds` would inflict: skills add, conditions subtract, the
        monster's special caps (`monster=None`: no monster known yet). Planners ask it of weapons not yet crafted."""
        skills = self.cards.skills
        for s in self.skills:
            bonus = skills[s].passive.get("wound_bonus")
            if bonus is not None and bonus[0] in ("any", weapon.kind):
                wounds += bonus[1]
        wounds = max(0, wounds - self.condition_total("wound_penalty"))
        cap = None if monster is None else monster.modifiers.get("wound_cap")
        return wounds if cap is None else min(wounds, cap)

    def monster_effect_applicable(self, kind: str, argument: Any, in_fight: bool = True) -> bool:
        """Whether a monster effect can be applied now (else its bracketed alternative applies).

        `in_fight=False` asks ahead of a fight: armor to regain, wounds to heal and not defending yet are assumed.
        """
        if kind == "lose":
            return all(r in EFFORTS or self.resources[r] >= amount for r, amount in argument)
        if kind == "regain_armor":
            return not in_fight or self.armor_broken > 0
        if kind == "heal":
            return not in_fight or self.wounds > 0
        if kind == "defend":
            return not (in_fight and self.defending)
        if kind == "downgrade_weapon":
            return len(self.weapons) > 1
        return True

    def food_requirement(self) -> int:
        """Food requirement: the level of the monster just faced, changed by conditions and skills."""
        modifiers = self.modifier_totals()
        requirement = self.level + modifiers.get("food_requirement", 0) + modifiers.get("skill:food_requirement", 0)
        return requirement if requirement > 0 else 0

    @staticmethod
    def starvation_cost(missing: int) -> int:
        """Small effort for food not eaten: 1 for the first, 2 for the second, ... (1 + 2 + ... + missing)."""
        return missing * (missing + 1) // 2

    def weapon_extra_cost(self) -> Bag:
        """What an attack costs on top of the weapon: the monster's special and conditions."""
        return self.cards.monsters[self.monster()].attack_extra_cost + self.condition_bag("weapon_extra_cost")

    def general_extra_cost(self) -> Bag:
        """What a general action costs on top of its own cost (conditions)."""
        return self.condition_bag("general_action_extra_cost")

    def final_score(self) -> int:
        """Calculating your score: each remaining resource except small effort has a point value."""
        if self.outcome != Outcome.WON:
            return 0
        points = self.cards.display.score_points
        return sum(amount * points[r] for r, amount in enumerate(self.resources) if r != TIME)

    def can_pay_with_time(self, cost: Bag, extra: Bag = ()) -> bool:
        """Costs with time: in travel time must be available; in level IV's combat it is paid as small effort."""
        rest, time = split_time(cost)
        return self.can_pay_craft(rest, time, self.in_battle_turn(), extra)

    def in_battle_turn(self) -> bool:
        """Whether actions are being taken during the battle (player turn or reaction)."""
        return self.phase in _BATTLE_TURN

    def can_pay_craft(self, cost: Bag, time: int, in_combat: bool, extra: Bag = ()) -> bool:
        """Whether a cost plus `time` can be paid (in level IV's battle, time is paid as small effort)."""
        if in_combat and self.level == FINAL_LEVEL:
            return self.can_pay(cost, extra + ((SMALL_EFFORT, time),) if time else extra)
        return self.can_pay(cost, extra) and (time == 0 or self.resources[TIME] >= time)

    @staticmethod
    def timing_ok(timing: str, in_combat: bool) -> bool:
        """Whether an action card of this timing (travel, combat, any) may be used now."""
        return timing == "any" or (timing == "combat") == in_combat
