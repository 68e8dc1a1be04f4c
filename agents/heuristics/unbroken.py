"""A heuristic Unbroken player that plays like a sensible human, from visible information only.

How it decides (every number below comes from the card data, so it follows content changes):

- Values: resources are priced in small-effort equivalents by a concave utility (`_utility`): effort below what
  the coming fight needs is dear, wood/metal are dear while the weapon it is building still needs them, food is dear
  up to what the remaining Hunger steps will demand, cunning up to what it can use.
- Travel: time is a per-level budget that resets at combat, so it plans the rest of the level with a small dynamic
  programme over the time left (`_time_values`): a revealed card is worth its best use (encounter or rest) plus the
  value of the time it leaves, running out of time costs the expected ambush. It explores while that expectation
  beats facing the monster, scouts when it is cheap, crafts along the best weapon path it can reach, converts
  effort that would overflow, and uses abilities and skills that pay for themselves.
- Combat: a one-step lookahead over every legal action with a greedy plan for the rest of the fight
  (`_fight_cost`): resources spent, plus the expected damage of every monster turn the plan leaves.
- It tricks when trickery is cheaper than the expected fight minus the rewards, reacts to a bad roll when the
  reaction costs less than the harm it avoids, and eats what the level demands.

It never reads a face-down monster (`state.monsters` while `not state.monster_revealed`) nor the order or contents
of a deck: an unknown monster is the average of its level's six, a draw is the average of the whole encounter set.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from envs.unbroken.actions import MAX_ABILITIES
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
    ActionCard,
    Bag,
    Effect,
    Monster,
    Weapon,
)
from envs.unbroken.economy import can_pay_from, spend_from
from envs.unbroken.game import UnbrokenGame
from envs.unbroken.rules import UnbrokenState
from envs.unbroken.state import FINAL_LEVEL, Phase

UNLIMITED_USES = 99
"""`Option.uses` of an option the fight can repeat at will (weapon attacks, repeatable skills)."""
PLAN_MAX_STEPS = 40
"""Cap on the greedy fight plan's steps (a fight never lasts this long)."""
TIME_VALUE_SWEEPS = 2
"""Fixed-point sweeps of `_time_values` per time step (the estimate of the time a card leaves)."""
MEMO_ENTRIES = 4096
"""Entries a memo of the heuristic keeps before it is emptied (a search asks about thousands of states)."""


@dataclass(frozen=True)
class HeuristicWeights:
    """Every tuned number of the heuristic's valuation, in one place (small-effort equivalents unless noted)."""

    # ------------------------------------------------------------ resource prices (the utility tables)
    combat_value: tuple[float, ...] = (1.0, 1.6, 2.6, 1.2, 1.5, 1.0, 1.0, 0.4, 0.8)
    """Small-effort price of each resource spent in battle (index = resource; time is next level's time)."""
    treasure_value: float = 0.4
    """Treasure only scores (and pays a few cards)."""
    small_effort_premium: float = 0.6
    """Extra worth of each small effort below what the coming fight is expected to cost."""
    small_effort_need_margin: float = 2.0
    """Small effort wanted beyond the nominal fight cost before the premium stops."""
    next_weapon_effort_weight: float = 0.8
    """Share of the next weapon's medium/large effort price counted when it is one craft away."""
    medium_effort_dear_units: int = 3
    """Medium efforts priced at the weapon's rate; the ones beyond are surplus."""
    medium_effort_surplus_value: float = 1.2
    """Worth of each medium effort beyond the dear ones."""
    large_effort_dear_units: int = 2
    """Large efforts priced at the weapon's rate; the ones beyond are surplus."""
    large_effort_surplus_value: float = 1.5
    """Worth of each large effort beyond the dear ones."""
    base_cunning_use: int = 2
    """Cunning wanted in any case, before the weapons' and abilities' uses are added."""
    cunning_use_of_ignore_armor_attack: int = 3
    """Extra cunning wanted when the current or target weapon has an armor-ignoring attack paid in cunning."""
    cunning_use_per_ability: int = 2
    """Extra cunning wanted per character ability paid in cunning."""
    cunning_needed_value: float = 2.0
    """Worth of each cunning up to what it can use."""
    cunning_surplus_value: float = 0.6
    """Worth of each cunning beyond what it can use."""
    food_later_value: float = 1.8
    """Worth of each food kept for the Hunger steps of later levels."""
    food_surplus_value: float = 0.4
    """Worth of each food beyond every remaining Hunger step."""
    material_needed_value: float = 3.0
    """Worth of each wood/metal the best weapon path still needs."""
    material_surplus_value: float = 0.8
    """Worth of each wood/metal beyond what the best weapon path needs."""
    small_effort_per_wound_default: float = 4.0
    """Small effort per wound assumed when the weapon has no attack paid in small effort only."""
    medium_effort_price_cap: float = 4.0
    """Most a medium effort is worth through the weapon's attacks."""
    medium_effort_price_without_attack: float = 1.2
    """Price of a medium effort when no attack of the weapon uses it."""
    medium_effort_price_floor: float = 1.2
    """Least a medium effort is worth."""
    large_effort_price_cap: float = 8.0
    """Most a large effort is worth through the weapon's attacks."""
    large_effort_in_medium_efforts: int = 2
    """A large effort is worth at least this many medium efforts."""
    large_effort_price_without_attack: float = 1.5
    """Price of a large effort when no attack of the weapon uses it."""
    large_effort_price_floor: float = 1.5
    """Least a large effort is worth."""

    # ------------------------------------------------------------ travel
    time_price: float = 1.0
    """Resting turns one time into one small effort: the floor of what a unit of time is worth."""
    commit_penalty: float = 0.7
    """A committed next exploration reveals one card and forbids resting."""
    ambush_extra: float = 0.5
    """Extra harm of an ambush beyond its effect (the fight starts on the back foot)."""
    lost_trick_chance_harm: float = 1.0
    """Harm of an ambush that takes away an affordable trickery."""
    ambush_hurts_threshold: float = 1.0
    """Expected ambush harm above which it crafts along its path only with time to spare."""
    scout_time_min: int = 4
    """Scout only with at least this much time left."""
    scout_max_price: float = 2.5
    """Scout only when it costs at most this much."""
    scout_min_small_effort: int = 6
    """Scout only with at least this much small effort."""
    craft_judge_min_level: int = 2
    """Off the best path, judge an upgrade against the monsters of at least this level."""
    craft_min_saving: float = 2.0
    """Off the best path, craft only when the nominal fight gets at least this much cheaper."""
    travel_action_min_gain: float = 0.5
    """Use a travel ability or skill only when it gains more than this."""
    focus_overflow_margin: int = 3
    """Focus in travel when small effort is within this much of the bar (resting would overflow)."""
    focus_min_medium_price: float = 1.5
    """Focus in travel only when a medium effort is worth more than this."""
    inspiration_min_large_price: float = 3.0
    """Inspiration in travel only when a large effort is worth more than this."""
    inspiration_min_medium: int = 2
    """Inspiration in travel only with at least this many medium efforts."""
    inspiration_wound_ratio: int = 2
    """Inspiration in travel only when the large attack wounds more than this times the medium one."""
    plan_overflow_margin: int = 1
    """Plan in travel when small effort is within this much of the bar and cunning is wanted."""
    conversion_max_time: int = 2
    """With this much time left or less, convert effort before the fight when it pays."""
    conversion_min_saving: float = 0.3
    """Convert before the fight only when the fight plan gets cheaper by more than this."""
    orienteer_min_time: int = 3
    """Orienteer only with at least this much time left."""
    orienteer_min_gain: float = 1.4
    """Orienteer only when two more revealed cards are expected to gain more than this."""
    known_monster_reveal_value: float = -1.0
    """Value of a travel action that reveals an already revealed monster."""
    reveal_bonus_value: float = 0.8
    """Value of each extra card a travel action reveals."""
    reveal_bonus_min_time: int = 2
    """A reveal bonus is worth something only with at least this much time left."""
    reveal_bonus_short_of_time_value: float = -1.0
    """Value of a reveal bonus with too little time left to use it."""
    remove_condition_travel_value: float = 2.0
    """Value of discarding a condition in travel (when one is active)."""
    reveal_monster_value: float = 1.5
    """Value of revealing the face-down monster in travel."""
    ability_reserve_max_uses: int = 2
    """Keep ability uses for the fight only with at most this many left."""
    last_ability_use_value: float = 1.5
    """What keeping the last ability use for the fight is worth."""
    scarce_ability_use_value: float = 0.7
    """What keeping one of few ability uses for the fight is worth."""

    # ------------------------------------------------------------ weapons
    nominal_price: tuple[float, ...] = (1.0, 3.0, 6.5, 2.0, 2.0, 2.0, 2.0, 1.0, 1.0)
    """Small effort a weapon's attack costs in the long run when judging weapons (medium/large effort from cards)."""
    nominal_damage_base: float = 1.3
    """Monster harm per turn assumed when judging weapons, before the level term."""
    nominal_damage_per_level: float = 0.25
    """Monster harm per turn added per level when judging weapons."""
    revealed_level_saving_weight: float = 0.8
    """Weight of the current level's fight saving once its monster is revealed (the fight may be near)."""
    missing_material_price: float = 2.2
    """Price of each material a weapon path still has to find."""
    upgrade_time_price: float = 0.5
    """Price of each time a weapon path's upgrades take."""

    # ------------------------------------------------------------ battle harm
    death: float = 25.0
    """Price of being defeated (a monster effect the pool cannot pay)."""
    unpayable: float = 7.0
    """Cost per unit of health or armor left when the plan runs out of effort (a likely defeat)."""
    unpayable_extra: float = 6.0
    """Flat extra cost of a fight plan that runs out of effort or options."""
    option_price_offset: float = 0.05
    """Added to each option's price when ranking progress per price (free options do not divide by zero)."""
    damage_per_turn_guess: float = 1.6
    """Monster harm per turn assumed when pricing a row outside the fight plan (a skipped turn)."""
    regen_harm: float = 0.2
    """Harm per turn of each point of monster regeneration."""
    lost_time_harm: float = 0.8
    """Harm of each time lost before the final level (next level's time)."""
    lost_time_harm_final_level: float = 1.0
    """Harm of each time lost in the final level."""
    regain_armor_harm: float = 1.5
    """Harm of each armor the monster regains."""
    heal_harm: float = 1.3
    """Harm of each wound the monster heals."""
    defend_harm: float = 2.0
    """Harm of the monster defending (the next attack is wasted)."""
    weapon_loss_harm: float = 5.0
    """Harm of a downgrade back to no weapon."""
    downgrade_step_harm: float = 1.0
    """Harm of each step of a weapon downgrade."""
    next_level_extra_cost_harm: float = 2.0
    """Harm of each unit of extra weapon/general action cost kept for the next level."""
    round_loss_harm: float = 4.0
    """Harm of each resource lost every round of the next level."""
    skip_or_disarm_harm: float = 6.0
    """Harm of skipping turns or fighting without a weapon in the next level."""
    next_level_condition: tuple[tuple[str, float], ...] = (
        ("rest_penalty", 2.0),
        ("reveal_modifier", -1.0),
        ("food_requirement", 2.5),
        ("wound_penalty", 3.0),
        ("start_time_penalty", 1.0),
        ("ability_uses_penalty", 1.5),
        ("monster_roll_modifier", 2.0),
    )
    """Harm of a condition kept for a whole level, per unit of each modifier."""
    assumed_rounds_of_a_lasting_condition: int = 3
    """Rounds a condition without a set duration is assumed to last in the fight."""
    skip_turn_extra_harm: float = 0.5
    """Harm of a skipped turn beyond the monster's turn it gives away, per round."""
    no_weapon_harm: float = 1.5
    """Harm per round of fighting without a weapon."""
    weapon_extra_cost_harm: float = 0.8
    """Harm per round of each unit of extra weapon cost."""
    wound_penalty_harm: float = 0.8
    """Harm per round of each unit of wound penalty."""
    monster_roll_modifier_harm: float = 0.4
    """Harm per round of each point added to the monster's roll."""

    # ------------------------------------------------------------ reactions and trickery
    treasure_reaction_price: float = 0.8
    """Price of each treasure a reaction paid only in treasure costs."""
    reaction_margin: float = 0.3
    """React only when it beats accepting the roll (or a cheaper reaction) by more than this."""
    lost_skill_price: float = 2.5
    """Extra price of tricking in a preset where trickery gives no skill (the fight's skill is forgone)."""
    trick_pool_margin: int = 1
    """Trick whenever the fight is expected to cost more than the effort pool minus this."""

    # ------------------------------------------------------------ skills (value per remaining level)
    skill_wound_value: float = 1.4
    """Value of each wound or armor break of a skill action."""
    skill_ignore_armor_wound_value: float = 1.8
    """Value of each armor-ignoring wound of a skill action."""
    skill_extra_turn_value: float = 1.6
    """Value of a skill action's extra turn."""
    skill_remove_condition_value: float = 0.8
    """Value of a skill action discarding a condition."""
    skill_reveal_value: float = 0.5
    """Value of a skill action revealing cards or the monster."""
    repeatable_skill_uses_per_level: float = 1.5
    """Uses per level assumed for a skill action that is not once per level."""
    reaction_skill_roll_value: float = 0.9
    """Value of each point a reaction skill takes off the monster's roll."""
    reaction_skill_price_weight: float = 0.3
    """Weight of a reaction skill's price in its value."""
    reaction_skill_base_value: float = 0.5
    """Base value of holding a reaction skill."""
    matching_wound_bonus_value: float = 2.0
    """Value of each bonus wound of a passive skill that matches the current weapon."""
    other_wound_bonus_value: float = 1.3
    """Value of each bonus wound of a passive skill for another weapon kind."""
    passive_reveal_bonus_value: float = 1.2
    """Value of each extra card a passive skill reveals in exploration."""
    passive_skill_reveal_bonus_value: float = 0.3
    """Value of each extra skill a passive skill reveals on offer."""
    passive_rest_bonus_value: float = 1.5
    """Value of each extra small effort a passive skill adds to resting."""
    passive_food_requirement_harm: float = 2.0
    """Harm of each extra food a passive skill demands."""
    passive_ignore_value: float = 0.7
    """Value of each monster effect a passive skill ignores."""
    passive_scout_discount_value: float = 0.5
    """Value of a passive scouting discount."""


WEIGHTS = HeuristicWeights()
"""The weights the heuristic plays with (the ones the balance table of Unbroken's docs page measures)."""
NEXT_LEVEL_CONDITION_WEIGHT = dict(WEIGHTS.next_level_condition)
"""`WEIGHTS.next_level_condition` as a look-up table."""


@dataclass
class Option:
    """One way to hurt the monster in the fight plan: a weapon attack, an ability, a skill or a special action."""

    cost: Bag
    wounds: int
    breaks: int
    ignore_armor: bool
    uses: int
    extra_turn: bool
    shared_uses: bool = False
    turns: int = 1


def _pool_pay(pool: list[float], bag: Bag) -> float:
    """Pay a bag from the pool with the rules' payer (assumed payable); returns its battle price."""
    price = 0.0
    for r, amount in spend_from(pool, bag):
        price += WEIGHTS.combat_value[r] * amount
    return price


def _bag_plus(a: Bag, b: Bag) -> Bag:
    return a + b if b else a


class UnbrokenHeuristicAgent:
    """Rule-of-thumb policy over the visible state (never reads the face-down monster or a deck)."""

    name = "heuristic"

    def __init__(self, game: UnbrokenGame) -> None:
        self.game = game
        self.cards = game.cards
        self.ids = game.actions
        cards = self.cards
        self.level_monsters = {lv: [m for m in cards.monsters if m.level == lv] for lv in range(1, FINAL_LEVEL + 1)}
        self.bar = cards.display.bar_maximum
        copies = np.array([e.copies for e in cards.encounters], dtype=float)
        self.draw_weights = copies / copies.sum()
        self.num_skills = len(cards.skills)
        self.num_weapons = len(cards.weapons)
        self.num_ability_ids = len(cards.characters) * MAX_ABILITIES
        self.time_skull = cards.display.time_skull
        self.starting_se = game.setting["starting_small_effort"]
        self._paths = {w: self._weapon_paths(w) for w in range(self.num_weapons)}
        self._nominal: dict[tuple[int, int], float] = {}
        self._benefits: np.ndarray | None = None
        """`_card_benefits` of the decision being made; None outside it (nothing carries over to the next one)."""
        general = cards.display.general
        self.focus_cost = general.focus.cost
        self.inspiration_cost = general.inspiration.cost
        self.focus_gives_medium = dict(general.focus.effects[0][1]).get(MEDIUM_EFFORT, 0) >= 1
        self.inspiration_gives_large = dict(general.inspiration.effects[0][1]).get(LARGE_EFFORT, 0) >= 1
        self.enc_time = np.array([e.time for e in cards.encounters])
        self.enc_time_gain = np.array([dict(e.gain).get(TIME, 0) for e in cards.encounters])
        self._time_steps = [self._time_step(t) for t in range(self.bar[TIME] + 1)]
        # Memos of pure computations, each keyed on every input it reads (so a hit returns what a fresh agent
        # computes, bit for bit; tests/unbroken/test_heuristic_memo.py): searches ask about the same positions again.
        self._needs_memo: dict[tuple[Any, ...], tuple[list[int], list[tuple[int, Bag, int]]]] = {}
        self._tables_memo: dict[tuple[Any, ...], list[list[float]]] = {}
        self._benefits_memo: dict[tuple[Any, ...], np.ndarray] = {}
        self._time_values_memo: dict[tuple[bytes, float, int], list[float]] = {}
        self._ambush_memo: dict[tuple[Any, ...], float] = {}
        self._tables_key: tuple[Any, ...] = ()
        """The inputs of the current utility tables (`_utility_setup`), part of the benefits' memo key."""
        self._turn_harms: dict[tuple[int, bool], float] | None = None
        """`_damage_per_turn` by (id of the monster, in fight) during the current `act` call only (None outside it:
        what it reads, the modifiers and resources, changes between decisions)."""
        self._lethal: dict[int, list[tuple[float, Bag]]] | None = None
        """`_lethal_rows` by id of the monster during the current `act` call only (None outside it)."""

    def _time_step(self, t: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Constants of `_time_values` at t time left: per card, the index of the time it leaves (clipped), whether
        it leaves none, whether it leaves at least t, and the time price of what it leaves beyond t."""
        t_max = self.bar[TIME]
        left = np.minimum(t_max, t + self.enc_time_gain) - self.enc_time
        return np.clip(left, 0, t_max), left <= 0, left >= t, WEIGHTS.time_price * (left - t)

    def __copy__(self) -> UnbrokenHeuristicAgent:
        """A shallow copy with empty memos of its own (a copy has made no decision; the memos are never shared)."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other._clear_memos()
        return other

    def _clear_memos(self) -> None:
        """Forget every memoised computation (the choices stay the same, only slower to make)."""
        self._needs_memo = {}
        self._tables_memo = {}
        self._benefits_memo = {}
        self._time_values_memo = {}
        self._ambush_memo = {}

    @staticmethod
    def _remember(memo: dict[Any, Any], key: Any, value: Any) -> None:
        """Store a memo entry, emptying the memo first when it is full (a bounded cache, no order kept)."""
        if len(memo) >= MEMO_ENTRIES:
            memo.clear()
        memo[key] = value

    def reset(self, seed: int | None = None) -> None:
        """Nothing random to reseed."""

    def act(self, observation: Any, action_mask: np.ndarray, state: Any | None = None) -> int:
        """Pick an action for the current decision (needs the rules-core state)."""
        if not isinstance(state, UnbrokenState):
            raise ValueError(
                "UnbrokenHeuristicAgent needs the rules-core state: act(obs, mask, state=env.unwrapped.state)"
            )
        legal = [int(a) for a in np.flatnonzero(action_mask)]
        self._benefits = None  # a decision depends on its state only, never on the agent's earlier decisions
        self._turn_harms, self._lethal = {}, {}
        try:
            choice = self._choose(state, legal)
        finally:
            self._turn_harms = self._lethal = None
        return choice if choice in legal else legal[0]

    # ================================================================ monsters (visible only)
    def _visible_monsters(self, s: UnbrokenState) -> list[Monster]:
        """The revealed monster, or the six candidates of the level (never the face-down one)."""
        if s.monster_revealed:
            return [self.cards.monsters[s.monster()]]
        return self.level_monsters[s.level]

    def _condition_harm(self, s: UnbrokenState, name_index: int, when: str, rounds: int, d: float) -> float:
        """Small-effort harm of gaining a condition now (for some rounds) or for the next level."""
        mods = self.cards.conditions[name_index].modifiers
        if when == "next_level":
            if s.level >= FINAL_LEVEL:
                return 0.0
            harm = 0.0
            for key, value in mods.items():
                if key in NEXT_LEVEL_CONDITION_WEIGHT:
                    harm += NEXT_LEVEL_CONDITION_WEIGHT[key] * value
                elif key in ("weapon_extra_cost", "general_action_extra_cost"):
                    harm += WEIGHTS.next_level_extra_cost_harm * sum(a for _, a in value)
                elif key == "round_loss":
                    harm += WEIGHTS.round_loss_harm * sum(a for _, a in value)
                elif key in ("skip_turn", "no_weapon"):
                    harm += WEIGHTS.skip_or_disarm_harm
            return harm
        n = rounds if rounds > 0 else WEIGHTS.assumed_rounds_of_a_lasting_condition
        harm = 0.0
        for key, value in mods.items():
            if key == "round_loss":
                harm += n * sum(WEIGHTS.combat_value[r] * a for r, a in value)
            elif key == "skip_turn":
                harm += n * (d + WEIGHTS.skip_turn_extra_harm)
            elif key == "no_weapon":
                harm += n * WEIGHTS.no_weapon_harm
            elif key == "weapon_extra_cost":
                harm += n * WEIGHTS.weapon_extra_cost_harm * sum(a for _, a in value)
            elif key == "wound_penalty":
                harm += n * WEIGHTS.wound_penalty_harm * value
            elif key == "monster_roll_modifier":
                harm += n * WEIGHTS.monster_roll_modifier_harm * value
        return harm

    def _effects_harm(
        self, s: UnbrokenState, effects: tuple[Effect, ...], d: float, armor: int, lethal: bool = False
    ) -> float:
        """Small-effort harm of a list of monster effects (assumed applicable)."""
        harm = 0.0
        for kind, arg in effects:
            if kind == "lose":
                harm += sum(WEIGHTS.combat_value[r] * a for r, a in arg)
                effort = tuple((r, a) for r, a in arg if r <= LARGE_EFFORT)
                if lethal and effort and not s.can_pay(effort):
                    harm += WEIGHTS.death
            elif kind == "lose_time":
                harm += arg * (WEIGHTS.lost_time_harm_final_level if s.level >= FINAL_LEVEL else WEIGHTS.lost_time_harm)
            elif kind == "condition":
                harm += self._condition_harm(s, arg[0], arg[1], arg[2], d)
            elif kind == "regain_armor":
                harm += WEIGHTS.regain_armor_harm * min(arg, max(1, armor))
            elif kind == "heal":
                harm += WEIGHTS.heal_harm * arg
            elif kind == "defend":
                harm += WEIGHTS.defend_harm
            elif kind == "downgrade_weapon":
                harm += WEIGHTS.weapon_loss_harm if arg == 0 else WEIGHTS.downgrade_step_harm * arg
        return harm

    def _row_harm(
        self, s: UnbrokenState, monster: Monster, value: int, d: float, in_fight: bool, lethal: bool = False
    ) -> float:
        """Harm of the combat-table row a (modified) roll lands on."""
        if not 1 <= value <= 6:
            return 0.0
        row = monster.combat[value - 1]
        ignore = s.modifier_totals().get("skill:ignore", ())
        if any(kind in ignore for kind, _ in row.effects):
            return 0.0
        effects = row.effects
        if not all(s.monster_effect_applicable(kind, arg, in_fight) for kind, arg in effects):
            if row.alt is None or any(kind in ignore for kind, _ in row.alt):
                return 0.0
            effects = row.alt
        return self._effects_harm(s, effects, d, monster.armor, lethal)

    def _lethal_rows(self, s: UnbrokenState, monster: Monster) -> list[tuple[float, Bag]]:
        """(probability, effort loss) of each row demanding medium or large effort (small effort cannot pay it)."""
        memo = self._lethal
        if memo is None:
            return self._lethal_rows_of(s, monster)
        rows = memo.get(id(monster))
        if rows is None:
            rows = memo[id(monster)] = self._lethal_rows_of(s, monster)
        return rows

    def _lethal_rows_of(self, s: UnbrokenState, monster: Monster) -> list[tuple[float, Bag]]:
        """`_lethal_rows` computed afresh."""
        ignore = s.modifier_totals().get("skill:ignore", ())
        out: dict[Bag, float] = {}
        for face in range(1, 7):
            value = s.roll_on_table(face, monster)
            if not 1 <= value <= 6:
                continue
            row = monster.combat[value - 1]
            if any(kind in ignore for kind, _ in row.effects):
                continue
            effects = row.effects
            if not all(s.monster_effect_applicable(kind, arg, False) for kind, arg in effects) and row.alt is not None:
                effects = row.alt
            bag = tuple((r, a) for kind, arg in effects if kind == "lose" for r, a in arg if r <= LARGE_EFFORT)
            if bag and any(r != SMALL_EFFORT for r, _ in bag):
                out[bag] = out.get(bag, 0.0) + 1.0 / 6.0
        return [(p, bag) for bag, p in out.items()]

    @staticmethod
    def _death_risk(pool: list[float], lethal: list[tuple[float, Bag]]) -> float:
        """Expected defeat cost of one monster turn: rows whose effort loss the pool cannot pay."""
        return sum(p * WEIGHTS.death for p, bag in lethal if not can_pay_from(pool, bag))

    def _damage_per_turn(self, s: UnbrokenState, monster: Monster, in_fight: bool = False) -> float:
        """Expected harm of one monster turn (with the roll modifiers in force)."""
        memo = self._turn_harms
        if memo is None:
            return self._damage_per_turn_of(s, monster, in_fight)
        key = (id(monster), in_fight)
        harm = memo.get(key)
        if harm is None:
            harm = memo[key] = self._damage_per_turn_of(s, monster, in_fight)
        return harm

    def _damage_per_turn_of(self, s: UnbrokenState, monster: Monster, in_fight: bool) -> float:
        """`_damage_per_turn` computed afresh."""
        total = 0.0
        for face in range(1, 7):
            total += self._row_harm(s, monster, s.roll_on_table(face, monster), WEIGHTS.damage_per_turn_guess, in_fight)
        turn = total / 6.0
        loss = s.condition_bag("round_loss")
        if loss:
            turn += sum(WEIGHTS.combat_value[r] * a for r, a in loss)
        return turn + WEIGHTS.regen_harm * monster.modifiers.get("regen", 0)

    def _ambush_harm(self, s: UnbrokenState) -> float:
        """Expected cost of running out of time: the ambush effect plus the lost chance to trick."""
        # What it reads: the visible monsters, the modifiers (skills and conditions), the resources (effects'
        # applicability, trickery), the weapon stack's height (downgrades) and the level (conditions, lost time).
        key = (
            s.level,
            s.monster() if s.monster_revealed else -1,
            tuple(s.resources),
            len(s.weapons),
            s.skills,
            s.conditions_active,
            tuple(s.conditions_now.items()),
        )
        known = self._ambush_memo.get(key)
        if known is not None:
            return known
        harm = self._ambush_harm_of(s)
        self._remember(self._ambush_memo, key, harm)
        return harm

    def _ambush_harm_of(self, s: UnbrokenState) -> float:
        """`_ambush_harm` computed afresh."""
        harms = []
        for monster in self._visible_monsters(s):
            d = self._damage_per_turn(s, monster)
            harm = 0.0
            if monster.ambush is not None:
                ok = all(s.monster_effect_applicable(k, a, False) for k, a in monster.ambush)
                harm = self._effects_harm(s, monster.ambush, d, monster.armor) if ok else 0.0
            if monster.trickery is not None and s.can_pay(monster.trickery):
                harm += WEIGHTS.lost_trick_chance_harm
            harms.append(harm)
        return float(np.mean(harms)) + WEIGHTS.ambush_extra

    # ================================================================ the fight plan
    def _card_option(self, card: ActionCard, uses: int, shared: bool) -> Option | None:
        wounds = breaks = 0
        ignore = extra = False
        for kind, arg in card.effects:
            if kind == "wounds":
                wounds += arg
            elif kind == "wounds_ignore_armor":
                wounds += arg
                ignore = True
            elif kind == "break_armor":
                breaks += arg
            elif kind == "extra_turn":
                extra = True
        if not wounds and not breaks:
            return None
        cost = tuple((r, a) for r, a in card.cost if r != TIME)
        return Option(cost, wounds, breaks, ignore, uses, extra, shared)

    def _options(self, s: UnbrokenState, weapon_index: int, monster: Monster | None, in_fight: bool) -> list[Option]:
        """Every way to hurt the monster this fight: weapon attacks, abilities, skills, the monster's special."""
        options: list[Option] = []
        weapon = self.cards.weapons[weapon_index]
        if not s.condition_flag("no_weapon"):
            extra = s.condition_bag("weapon_extra_cost")
            if monster is not None:
                extra = _bag_plus(monster.attack_extra_cost, extra)
            general = _bag_plus(self.focus_cost, s.condition_bag("general_action_extra_cost"))
            for attack in weapon.attacks:
                wounds = s.weapon_wounds(weapon, attack.wounds, monster) if attack.wounds else 0
                cost = _bag_plus(attack.cost, extra)
                options.append(Option(cost, wounds, attack.break_armor, attack.ignore_armor, UNLIMITED_USES, False))
                options.extend(self._composites(attack.cost, extra, general, wounds, attack))
        if s.character >= 0:
            uses = s.ability_uses if in_fight else s.ability_uses_for(s.level)
            if uses > 0:
                for ability in self.cards.characters[s.character].abilities:
                    if ability.timing != "travel":
                        option = self._card_option(ability, uses, True)
                        if option is not None:
                            options.append(option)
        for k in s.skills:
            card = self.cards.skills[k].action
            if card is None or card.timing == "travel":
                continue
            if card.once_per_level and self.ids.skill + k in s.used_once:
                continue
            option = self._card_option(card, 1 if card.once_per_level else UNLIMITED_USES, False)
            if option is not None:
                options.append(option)
        if monster is not None and monster.special_action is not None:
            option = self._card_option(monster.special_action, UNLIMITED_USES, False)
            if option is not None:
                options.append(option)
        return options

    def _composites(self, cost: Bag, extra: Bag, general: Bag, wounds: int, attack: Any) -> list[Option]:
        """Attacks paid for by converting effort first (Focus, Inspiration): one more turn each."""
        out = []
        amounts = dict(cost)
        if amounts.get(MEDIUM_EFFORT) == 1 and len(amounts) == 1 and self.focus_gives_medium:
            out.append(
                Option(
                    _bag_plus(general, extra),
                    wounds,
                    attack.break_armor,
                    attack.ignore_armor,
                    UNLIMITED_USES,
                    False,
                    turns=2,
                )
            )
        if amounts.get(LARGE_EFFORT) == 1 and len(amounts) == 1 and self.inspiration_gives_large:
            out.append(
                Option(
                    _bag_plus(self.inspiration_cost, extra),
                    wounds,
                    attack.break_armor,
                    attack.ignore_armor,
                    UNLIMITED_USES,
                    False,
                    turns=2,
                )
            )
        return out

    def _plan(
        self,
        pool: list[float],
        health: int,
        armor: int,
        options: list[Option],
        d: float,
        defending: bool,
        shared_uses: int,
        lethal: list[tuple[float, Bag]] | None = None,
    ) -> float:
        """Greedy rest-of-fight cost: pick the option with the most progress per price (plus a monster turn)."""
        uses = [o.uses for o in options]
        cost = 0.0
        if defending:
            cheapest = min(
                (
                    o
                    for o in options
                    if o.uses >= UNLIMITED_USES and (o.wounds or o.breaks) and can_pay_from(pool, o.cost)
                ),
                key=lambda o: sum(WEIGHTS.combat_value[r] * a for r, a in o.cost),
                default=None,
            )
            if cheapest is not None:
                cost += _pool_pay(pool, cheapest.cost) + d
                pool[SMALL_EFFORT] -= d
        for _ in range(PLAN_MAX_STEPS):
            if health <= 0:
                return cost
            best, best_score = -1, 0.0
            for i, o in enumerate(options):
                if uses[i] <= 0 or (o.shared_uses and shared_uses <= 0):
                    continue
                broken = min(o.breaks, armor)
                lands = o.ignore_armor or armor - broken == 0
                wounds = min(o.wounds, health) if lands else 0
                progress = broken + wounds
                if progress <= 0 or not can_pay_from(pool, o.cost):
                    continue
                price = sum(WEIGHTS.combat_value[r] * a for r, a in o.cost) + WEIGHTS.option_price_offset
                finishing = wounds >= health
                turn = (o.turns - (1 if (o.extra_turn or finishing) else 0)) * d
                score = progress / (price + turn)
                if score > best_score:
                    best, best_score = i, score
            if best < 0:
                return cost + WEIGHTS.unpayable * (health + armor) + WEIGHTS.unpayable_extra
            o = options[best]
            uses[best] -= 1
            if o.shared_uses:
                shared_uses -= 1
            broken = min(o.breaks, armor)
            armor -= broken
            if o.ignore_armor or armor == 0:
                health -= o.wounds
            cost += _pool_pay(pool, o.cost)
            turns = o.turns - (1 if (health <= 0 or o.extra_turn) else 0)
            cost += turns * d
            pool[SMALL_EFFORT] -= turns * d
            if lethal and turns:
                cost += turns * self._death_risk(pool, lethal)
            if pool[SMALL_EFFORT] + pool[MEDIUM_EFFORT] + pool[LARGE_EFFORT] < 0 and health > 0:
                return cost + WEIGHTS.unpayable * (health + armor) + WEIGHTS.unpayable_extra
        return cost + WEIGHTS.unpayable * (max(0, health) + armor)

    def _pool(self, s: UnbrokenState) -> list[float]:
        return [float(x) for x in s.resources]

    def _fight_cost_vs(
        self, s: UnbrokenState, monster: Monster, weapon_index: int | None = None, pool: list[float] | None = None
    ) -> float:
        """Expected cost of a whole fight against a monster (before it starts)."""
        weapon_index = s.weapons[-1] if weapon_index is None else weapon_index
        d = self._damage_per_turn(s, monster)
        options = self._options(s, weapon_index, monster, in_fight=False)
        uses = s.ability_uses_for(s.level) if s.phase not in (Phase.DECIDE_PLAYER_TURN,) else s.ability_uses
        lethal = self._lethal_rows(s, monster)
        cost = self._plan(list(pool or self._pool(s)), monster.health, monster.armor, options, d, False, uses, lethal)
        if self.game.setting["monster_first"]:
            cost += d
        return cost

    def _fight_cost(self, s: UnbrokenState, weapon_index: int | None = None, pool: list[float] | None = None) -> float:
        """Expected fight cost against the visible monster, or the average of the level's candidates."""
        return float(np.mean([self._fight_cost_vs(s, m, weapon_index, pool) for m in self._visible_monsters(s)]))

    def _nominal_cost(self, weapon_index: int, level: int) -> float:
        """Fight cost of a weapon against an average monster of a level with a comfortable pool (cached)."""
        key = (weapon_index, level)
        cost = self._nominal.get(key)
        if cost is None:
            costs = []
            for monster in self.level_monsters[level]:
                options = []
                weapon = self.cards.weapons[weapon_index]
                for attack in weapon.attacks:
                    wounds = min(attack.wounds, monster.modifiers.get("wound_cap", 99))
                    price = sum(
                        WEIGHTS.nominal_price[r] * a for r, a in _bag_plus(attack.cost, monster.attack_extra_cost)
                    )
                    nominal = ((SMALL_EFFORT, int(round(price))),)
                    options.append(
                        Option(nominal, wounds, attack.break_armor, attack.ignore_armor, UNLIMITED_USES, False)
                    )
                pool = [99.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
                d = WEIGHTS.nominal_damage_base + WEIGHTS.nominal_damage_per_level * level
                costs.append(self._plan(pool, monster.health, monster.armor, options, d, False, 0))
            cost = float(np.mean(costs))
            self._nominal[key] = cost
        return cost

    # ================================================================ weapons
    def _weapon_paths(self, start: int) -> list[tuple[int, list[tuple[int, Bag, int]]]]:
        """Every weapon reachable from `start`, with the upgrade steps (weapon, cost, time) to get there."""
        out: list[tuple[int, list[tuple[int, Bag, int]]]] = [(start, [])]
        frontier: list[tuple[int, list[tuple[int, Bag, int]]]] = [(start, [])]
        seen = {start}
        while frontier:
            weapon, steps = frontier.pop()
            for upgrade in self.cards.weapons[weapon].upgrades:
                if upgrade.to in seen and any(w == upgrade.to for w, _ in out):
                    continue
                path = [*steps, (upgrade.to, upgrade.cost, upgrade.time)]
                out.append((upgrade.to, path))
                frontier.append((upgrade.to, path))
                seen.add(upgrade.to)
        return out

    def _path_value(self, s: UnbrokenState, steps: list[tuple[int, Bag, int]], target: int) -> float:
        """Fight cost saved over the remaining levels minus the price of the materials still to find."""
        saved = 0.0
        for level in range(s.level, FINAL_LEVEL + 1):
            weight = 1.0 if level > s.level or not s.monster_revealed else WEIGHTS.revealed_level_saving_weight
            saved += weight * (self._nominal_cost(s.weapons[-1], level) - self._nominal_cost(target, level))
        need = [0] * len(s.resources)
        for _, cost, _time in steps:
            for r, a in cost:
                need[r] += a
        missing = sum(max(0, need[r] - s.resources[r]) for r in range(len(need)) if r != TIME)
        effort = sum(need[r] for r in (SMALL_EFFORT, MEDIUM_EFFORT, LARGE_EFFORT))
        return (
            saved
            - WEIGHTS.missing_material_price * missing
            - effort
            - WEIGHTS.upgrade_time_price * sum(t for _, _, t in steps)
        )

    def _target_needs(self, s: UnbrokenState) -> list[int]:
        """Materials still needed (beyond holdings are wanted) for the best reachable weapon."""
        # `_path_value` reads the weapon stack, the level, whether the monster is revealed and the resources.
        key = (tuple(s.weapons), s.level, s.monster_revealed, tuple(s.resources))
        known = self._needs_memo.get(key)
        if known is not None:
            self._best_steps = known[1]
            return list(known[0])
        best_value, best_steps = 0.0, []
        for target, steps in self._paths[s.weapons[-1]]:
            if not steps or any(w in s.weapons for w, _, _ in steps):
                continue
            value = self._path_value(s, steps, target)
            if value > best_value:
                best_value, best_steps = value, steps
        need = [0] * len(s.resources)
        for _, cost, _ in best_steps:
            for r, a in cost:
                need[r] += a
        self._best_steps = best_steps
        self._remember(self._needs_memo, key, (list(need), best_steps))
        return need

    # ================================================================ resource utility
    def _utility_setup(self, s: UnbrokenState) -> None:
        """Per-decision prices: a table of the worth of 0..bar units of each resource (`_utility` sums them)."""
        need = self._target_needs(s)
        weapon = self.cards.weapons[s.weapons[-1]]
        target = self._best_steps[-1][0] if self._best_steps else s.weapons[-1]
        arms = [weapon, self.cards.weapons[target]]
        me_price, le_price = self._effort_price(weapon)
        if len(self._best_steps) == 1:
            me_next, le_next = self._effort_price(self.cards.weapons[target])
            me_price, le_price = (
                max(me_price, WEIGHTS.next_weapon_effort_weight * me_next),
                max(le_price, WEIGHTS.next_weapon_effort_weight * le_next),
            )
        self._me_price, self._le_price = me_price, le_price
        food_now = max(0, s.food_requirement())
        food_later = sum(range(s.level + 1, FINAL_LEVEL + 1))
        cunning_use = WEIGHTS.base_cunning_use
        if any(a.ignore_armor and dict(a.cost).get(CUNNING) for w in arms for a in w.attacks):
            cunning_use += WEIGHTS.cunning_use_of_ignore_armor_attack
        if s.character >= 0:
            for ability in self.cards.characters[s.character].abilities:
                if dict(ability.cost).get(CUNNING):
                    cunning_use += WEIGHTS.cunning_use_per_ability
        self._cunning_use = cunning_use
        se_need = self._nominal_cost(s.weapons[-1], s.level) + WEIGHTS.small_effort_need_margin
        self._held = list(s.resources)
        self._benefits = None  # they are read from these tables
        # The tables read nothing else (starvation_cost is a pure function of the food missing).
        key = (se_need, me_price, le_price, cunning_use, food_now, food_later, need[WOOD], need[METAL])
        self._tables_key = key
        known = self._tables_memo.get(key)
        if known is not None:
            self._tables = known
            return
        bar = self.bar
        tables: list[list[float]] = []
        for r in range(TIME):
            row = []
            for x in range(bar[r] + 1):
                if r == SMALL_EFFORT:
                    u = x + WEIGHTS.small_effort_premium * min(x, se_need)
                elif r == MEDIUM_EFFORT:
                    u = me_price * min(x, WEIGHTS.medium_effort_dear_units) + WEIGHTS.medium_effort_surplus_value * max(
                        0, x - WEIGHTS.medium_effort_dear_units
                    )
                elif r == LARGE_EFFORT:
                    u = le_price * min(x, WEIGHTS.large_effort_dear_units) + WEIGHTS.large_effort_surplus_value * max(
                        0, x - WEIGHTS.large_effort_dear_units
                    )
                elif r == CUNNING:
                    u = WEIGHTS.cunning_needed_value * min(x, cunning_use) + WEIGHTS.cunning_surplus_value * max(
                        0, x - cunning_use
                    )
                elif r == FOOD:
                    now = min(x, food_now)
                    later = min(x - now, food_later)
                    starving = s.starvation_cost(food_now) - s.starvation_cost(food_now - now)
                    u = (
                        now
                        + starving
                        + WEIGHTS.food_later_value * later
                        + WEIGHTS.food_surplus_value * (x - now - later)
                    )
                elif r in (WOOD, METAL):
                    u = WEIGHTS.material_needed_value * min(x, need[r]) + WEIGHTS.material_surplus_value * max(
                        0, x - need[r]
                    )
                else:
                    u = WEIGHTS.treasure_value * x
                row.append(u)
            tables.append(row)
        self._tables = tables
        self._remember(self._tables_memo, key, tables)

    def _effort_price(self, weapon: Weapon) -> tuple[float, float]:
        """What one medium and one large effort are worth with a weapon: the small effort their wounds would cost."""
        se_rate = min(
            (
                dict(a.cost).get(SMALL_EFFORT, 0) / a.wounds
                for a in weapon.attacks
                if a.wounds and len(a.cost) == 1 and a.cost[0][0] == SMALL_EFFORT
            ),
            default=WEIGHTS.small_effort_per_wound_default,
        )
        me = max(
            (a.wounds * se_rate for a in weapon.attacks if a.wounds and dict(a.cost).get(MEDIUM_EFFORT)), default=0
        )
        le = max((a.wounds * se_rate for a in weapon.attacks if a.wounds and dict(a.cost).get(LARGE_EFFORT)), default=0)
        me_price = min(WEIGHTS.medium_effort_price_cap, me) if me else WEIGHTS.medium_effort_price_without_attack
        le_price = (
            min(WEIGHTS.large_effort_price_cap, max(le, WEIGHTS.large_effort_in_medium_efforts * me_price))
            if le
            else WEIGHTS.large_effort_price_without_attack
        )
        return max(WEIGHTS.medium_effort_price_floor, me_price), max(WEIGHTS.large_effort_price_floor, le_price)

    def _utility(self, r: list[int]) -> float:
        """Small-effort worth of a set of resources (concave: the first units of what is needed are dear)."""
        tables, bar = self._tables, self.bar
        return sum(tables[i][min(max(0, r[i]), bar[i])] for i in range(TIME))

    def _delta(self, spend: Bag, gain: Bag) -> float:
        """Utility change of paying `spend` then gaining `gain` from the held resources (the rules' payer)."""
        held, tables, bar = self._held, self._tables, self.bar
        change: dict[int, int] = {}
        for r, a in spend:
            change[r] = change.get(r, 0) - a
        if any(r <= LARGE_EFFORT and held[r] + c < 0 for r, c in change.items()):
            pool = [float(x) for x in held]
            _pool_pay(pool, spend)
            after = [int(round(x)) for x in pool]
            for r, a in gain:
                if r != TIME:
                    after[r] = min(bar[r], after[r] + a)
            return self._utility(after) - self._utility(held)
        for r, a in gain:
            change[r] = change.get(r, 0) + a
        total = 0.0
        for r, c in change.items():
            if r == TIME:
                continue
            x = held[r]
            total += tables[r][min(bar[r], max(0, x + c))] - tables[r][x]
        return total

    # ================================================================ travel
    def _card_benefits(self, s: UnbrokenState) -> np.ndarray:
        """Best use of each encounter card now (encounter or rest), in utility gained.

        Computed once per decision, after `_utility_setup(s)`: the values depend on the whole state (resources,
        weapons, skills, conditions, character, level) through the utility tables, so the cache lives only as long
        as those tables (a cache keyed on part of the state reused stale values after a free action).
        """
        if self._benefits is not None:
            return self._benefits
        rest_bonus = s.passive_total("rest_bonus") - s.condition_total("rest_penalty")
        # Everything read below: the tables (by their key), the held resources (`_delta`, `can_pay`), rest_bonus.
        key = (self._tables_key, tuple(self._held), tuple(s.resources), rest_bonus)
        known = self._benefits_memo.get(key)
        if known is not None:
            self._benefits = known
            return known
        se_table = self._tables[SMALL_EFFORT]
        se = s.resources[SMALL_EFFORT]
        top = self.bar[SMALL_EFFORT]
        out = np.empty(len(self.cards.encounters))
        for c, card in enumerate(self.cards.encounters):
            rest = se_table[min(top, se + max(0, card.time + rest_bonus))] - se_table[se]
            if s.can_pay(card.spend):
                encounter = self._delta(card.spend, card.gain) - (WEIGHTS.commit_penalty if card.commit else 0.0)
                out[c] = max(rest, encounter)
            else:
                out[c] = rest
        out.flags.writeable = False  # shared by the memo
        self._benefits = out
        self._remember(self._benefits_memo, key, out)
        return out

    def _time_values(self, s: UnbrokenState) -> list[float]:
        """V[t]: value of the rest of the level with t time left (facing the monster = 0)."""
        benefits = self._card_benefits(s)
        ambush = self._ambush_harm(s)
        self._ambush = ambush
        t_max = self.bar[TIME]
        t_now = max(1, s.resources[TIME])
        reveal = s.reveal_count()
        # values[t] reads only values[:t] (the later entries are still 0.0, and masked by `ahead`): a memo entry
        # computed for more time left holds this one's values as its prefix.
        key = (benefits.tobytes(), ambush, reveal)
        known = self._time_values_memo.get(key)
        if known is not None and len(known) > t_now:
            return known[: t_now + 1] + [0.0] * (t_max - t_now)
        values = [-ambush] + [0.0] * t_max
        start = 1
        if known is not None:
            values[: len(known)] = known
            start = len(known)
        for t in range(start, t_now + 1):
            index, spent, ahead, extra_time = self._time_steps[t]
            past = np.array(values)[index]
            past[spent] = -ambush
            estimate = values[t - 1] + WEIGHTS.time_price
            for _ in range(TIME_VALUE_SWEEPS):
                future = np.where(ahead, estimate + extra_time, past)
                estimate = max(0.0, self._expected_max(benefits + future, self.draw_weights, reveal))
            values[t] = estimate
        self._remember(self._time_values_memo, key, values[: t_now + 1])
        return values

    @staticmethod
    def _expected_max(xs: np.ndarray, weights: np.ndarray, k: int) -> float:
        """Expected best of k draws (with replacement) from values xs with weights."""
        order = np.argsort(xs)
        cdf = np.cumsum(weights[order])
        cdf[-1] = 1.0
        powered = cdf**k
        ordered = xs[order]
        return float(ordered[0] * powered[0] + np.dot(ordered[1:], np.diff(powered)))

    def _card_score(self, s: UnbrokenState, card_index: int, values: list[float], benefit: float) -> float:
        card = self.cards.encounters[card_index]
        t = s.resources[TIME]
        left = min(self.bar[TIME], t + dict(card.gain).get(TIME, 0)) - card.time
        if left <= 0:
            return benefit - self._ambush
        if left > t:
            return benefit + values[t] + WEIGHTS.time_price * (left - t)
        return benefit + values[left]

    def _travel(self, s: UnbrokenState, legal: list[int]) -> int:
        ids = self.ids
        t = s.resources[TIME]
        self._utility_setup(s)
        # Free reveals and cheap scouting first: knowing the monster shapes the whole level.
        for a in legal:
            card = self._action_card(a)
            if card is not None and card.timing != "combat" and any(k == "reveal_monster" for k, _ in card.effects):
                if not card.cost:
                    return a
        if ids.scout in legal and t >= WEIGHTS.scout_time_min and not s.monster_revealed:
            scout = s.scout_cost()
            price = -self._delta(tuple((r, a) for r, a in scout if r != TIME), ()) + sum(
                a for r, a in scout if r == TIME
            )
            if price <= WEIGHTS.scout_max_price and s.resources[SMALL_EFFORT] >= WEIGHTS.scout_min_small_effort:
                return ids.scout
        # Craft along the best path.
        crafts = [a for a in legal if ids.craft <= a < ids.craft + self.num_weapons]
        if crafts:
            steps = self._best_steps
            if steps:
                nxt, _, time = steps[0]
                if ids.craft + nxt in crafts and (t > time or not self._ambush_hurts(s)):
                    return ids.craft + nxt
            for a in crafts:
                level = max(s.level, WEIGHTS.craft_judge_min_level)
                better = (
                    self._nominal_cost(a - ids.craft, level)
                    < self._nominal_cost(s.weapons[-1], level) - WEIGHTS.craft_min_saving
                )
                if better and t > self._upgrade_time(s, a - ids.craft):
                    return a
        # Travel actions (abilities, skills) that pay for themselves.
        for a in legal:
            card = self._action_card(a)
            if card is None or card.timing == "combat":
                continue
            if self._travel_card_gain(s, card, a) > WEIGHTS.travel_action_min_gain:
                return a
        # Conversions that keep resting from overflowing the bar or build a better attack.
        se = s.resources[SMALL_EFFORT]
        if (
            ids.focus in legal
            and se >= self.bar[SMALL_EFFORT] - WEIGHTS.focus_overflow_margin
            and self._me_price > WEIGHTS.focus_min_medium_price
        ):
            return ids.focus
        if (
            ids.inspiration in legal
            and self._le_price > WEIGHTS.inspiration_min_large_price
            and s.resources[MEDIUM_EFFORT] >= WEIGHTS.inspiration_min_medium
        ):
            weapon = self.cards.weapons[s.weapons[-1]]
            le = max((a.wounds for a in weapon.attacks if dict(a.cost).get(LARGE_EFFORT)), default=0)
            me = max((a.wounds for a in weapon.attacks if dict(a.cost).get(MEDIUM_EFFORT)), default=0)
            if le > WEIGHTS.inspiration_wound_ratio * me:
                return ids.inspiration
        if (
            ids.plan in legal
            and se >= self.bar[SMALL_EFFORT] - WEIGHTS.plan_overflow_margin
            and s.resources[CUNNING] < self._cunning_use
        ):
            return ids.plan
        if s.committed or ids.face_monster not in legal:
            return ids.explore
        values = self._time_values(s)
        if values[t] <= 0.0 or t <= WEIGHTS.conversion_max_time:
            convert = self._conversion(s, legal)
            if convert is not None:
                return convert
        if values[t] <= 0.0:
            return ids.face_monster
        if (
            ids.orienteer in legal
            and t >= WEIGHTS.orienteer_min_time
            and self._reveal_gain(s, values) > WEIGHTS.orienteer_min_gain
        ):
            return ids.orienteer
        return ids.explore

    def _conversion(self, s: UnbrokenState, legal: list[int]) -> int | None:
        """Focus or Inspiration before the fight when the fight plan gets cheaper (it saves a combat turn)."""
        ids = self.ids
        now = self._fight_cost(s)
        general = self.cards.display.general
        best, best_cost = None, now - WEIGHTS.conversion_min_saving
        for action, card in ((ids.focus, general.focus), (ids.inspiration, general.inspiration)):
            if action not in legal:
                continue
            pool = self._pool(s)
            _pool_pay(pool, _bag_plus(card.cost, s.general_extra_cost()))
            for r, amount in card.effects[0][1]:
                pool[r] = min(self.bar[r], pool[r] + amount)
            cost = self._fight_cost(s, pool=pool)
            if cost < best_cost:
                best, best_cost = action, cost
        return best

    def _upgrade_time(self, s: UnbrokenState, weapon: int) -> int:
        for upgrade in self.cards.weapons[s.weapons[-1]].upgrades:
            if upgrade.to == weapon:
                return upgrade.time
        return 0

    def _ambush_hurts(self, s: UnbrokenState) -> bool:
        return self._ambush_harm(s) > WEIGHTS.ambush_hurts_threshold

    def _reveal_gain(self, s: UnbrokenState, values: list[float]) -> float:
        """Expected gain of revealing two more cards in the next exploration."""
        benefits = self._card_benefits(s)
        xs = np.array([self._card_score(s, c, values, b) for c, b in enumerate(benefits)])
        k = s.reveal_count()
        return self._expected_max(xs, self.draw_weights, k + 2) - self._expected_max(xs, self.draw_weights, k)

    def _travel_card_gain(self, s: UnbrokenState, card: ActionCard, action: int) -> float:
        """Utility gained by a travel action (ability or skill) minus what it costs."""
        if any(k == "reveal_monster" for k, _ in card.effects) and s.monster_revealed:
            return WEIGHTS.known_monster_reveal_value
        spend = tuple((r, a) for r, a in card.cost if r != TIME)
        time = sum(a for r, a in card.cost if r == TIME)
        gain: list[tuple[int, int]] = []
        value = 0.0
        for kind, arg in card.effects:
            if kind == "gain":
                gain.extend(arg)
            elif kind == "reveal_bonus":
                value += (
                    WEIGHTS.reveal_bonus_value * arg
                    if s.resources[TIME] >= WEIGHTS.reveal_bonus_min_time
                    else WEIGHTS.reveal_bonus_short_of_time_value
                )
            elif kind == "remove_condition":
                value += WEIGHTS.remove_condition_travel_value if s.conditions_active else 0.0
            elif kind == "reveal_monster":
                value += WEIGHTS.reveal_monster_value
        value += self._delta(spend, tuple(gain)) - time
        if self.ids.ability <= action < self.ids.ability + self.num_ability_ids:
            value -= self._ability_reserve(s)
        return value

    def _ability_reserve(self, s: UnbrokenState) -> float:
        """What keeping one ability use for the fight is worth (only when the uses are scarce)."""
        if s.character < 0:
            return 0.0
        combat = [a for a in self.cards.characters[s.character].abilities if a.timing != "travel"]
        if not combat or s.ability_uses > WEIGHTS.ability_reserve_max_uses:
            return 0.0
        return WEIGHTS.last_ability_use_value if s.ability_uses == 1 else WEIGHTS.scarce_ability_use_value

    def _action_card(self, action: int) -> ActionCard | None:
        ids = self.ids
        if ids.ability <= action < ids.ability + self.num_ability_ids:
            character, slot = divmod(action - ids.ability, MAX_ABILITIES)
            abilities = self.cards.characters[character].abilities
            return abilities[slot] if slot < len(abilities) else None
        if ids.skill <= action < ids.skill + self.num_skills:
            return self.cards.skills[action - ids.skill].action
        return None

    # ================================================================ decisions
    def _choose(self, s: UnbrokenState, legal: list[int]) -> int:
        phase = s.phase
        ids = self.ids
        if len(legal) == 1:
            return legal[0]
        if phase == Phase.DECIDE_TRAVEL:
            return self._travel(s, legal)
        if phase == Phase.DECIDE_CARD:
            self._utility_setup(s)
            values = self._time_values(s)
            benefits = self._card_benefits(s)
            scores = [self._card_score(s, c, values, benefits[c]) for c in s.revealed_cards]
            return ids.choose_card + int(np.argmax(scores))
        if phase == Phase.DECIDE_ENCOUNTER_OR_REST:
            self._utility_setup(s)
            card = self.cards.encounters[s.chosen_card]
            if ids.encounter in legal and ids.rest in legal:
                se_table = self._tables[SMALL_EFFORT]
                se = s.resources[SMALL_EFFORT]
                rest = se_table[min(self.bar[SMALL_EFFORT], se + s.rest_gain(s.chosen_card))] - se_table[se]
                enc = self._delta(card.spend, card.gain) - (WEIGHTS.commit_penalty if card.commit else 0.0)
                return ids.encounter if enc >= rest else ids.rest
            return legal[0]
        if phase == Phase.DECIDE_TRICKERY:
            return self._trickery(s, legal)
        if phase == Phase.DECIDE_PLAYER_TURN:
            return self._combat(s, legal)
        if phase == Phase.DECIDE_REACTION:
            return self._react(s, legal)
        if phase == Phase.DECIDE_HUNGER:
            return ids.eat + max(a - ids.eat for a in legal)
        if phase == Phase.DECIDE_SKILL:
            return self._pick_skill(s, legal)
        return legal[0]

    def _trickery(self, s: UnbrokenState, legal: list[int]) -> int:
        ids = self.ids
        monster = self.cards.monsters[s.monster()]
        assert monster.trickery is not None
        self._utility_setup(s)
        trick_price = -self._delta(monster.trickery, ())
        if not s.preset.trick_gives_skill:
            trick_price += WEIGHTS.lost_skill_price
        fight = self._fight_cost(s)
        reward = self._delta((), monster.rewards)
        pool = s.resources[SMALL_EFFORT] + s.resources[MEDIUM_EFFORT] + s.resources[LARGE_EFFORT]
        if fight > pool - WEIGHTS.trick_pool_margin or trick_price < fight - reward:
            return ids.trick
        return ids.fight

    def _combat(self, s: UnbrokenState, legal: list[int]) -> int:
        """One-step lookahead: the legal action whose price plus the rest-of-fight plan is cheapest."""
        ids = self.ids
        monster = self.cards.monsters[s.monster()]
        d = self._damage_per_turn(s, monster, in_fight=True)
        health = s.monster_health() - s.wounds
        armor = s.armor_left()
        best, best_cost = ids.skip, 1e9
        for a in legal:
            cost = self._action_cost(s, a, monster, d, health, armor)
            if cost is not None and cost < best_cost:
                best, best_cost = a, cost
        return best

    def _action_cost(
        self, s: UnbrokenState, a: int, monster: Monster, d: float, health: int, armor: int
    ) -> float | None:
        """Price of action `a` now plus the planned cost of the rest of the fight after it."""
        ids = self.ids
        pool = self._pool(s)
        weapon_index = s.weapons[-1]
        defending = s.defending
        uses = s.ability_uses
        extra_turn = False
        used_once: list[int] = []
        price = 0.0
        if ids.attack <= a < ids.attack + 3:
            attack = self.cards.weapons[weapon_index].attacks[a - ids.attack]
            price = _pool_pay(pool, _bag_plus(attack.cost, s.weapon_extra_cost()))
            if defending:
                defending = False
            elif attack.break_armor:
                armor -= min(armor, attack.break_armor)
            elif attack.ignore_armor or armor == 0:
                health -= s.attack_wounds(a - ids.attack)
        elif a == ids.skip:
            price = 0.0
        elif ids.craft <= a < ids.craft + self.num_weapons:
            weapon_index = a - ids.craft
            upgrade = next(u for u in self.cards.weapons[s.weapons[-1]].upgrades if u.to == weapon_index)
            price = _pool_pay(pool, upgrade.cost) + upgrade.time * WEIGHTS.combat_value[TIME]
            if s.level == FINAL_LEVEL:
                price += _pool_pay(pool, ((SMALL_EFFORT, upgrade.time),))
        elif a in (ids.focus, ids.inspiration, ids.plan):
            general = self.cards.display.general
            card = general.focus if a == ids.focus else general.inspiration if a == ids.inspiration else general.plan
            price = _pool_pay(pool, _bag_plus(card.cost, s.general_extra_cost()))
            for r, amount in card.effects[0][1]:
                pool[r] = min(self.bar[r], pool[r] + amount)
                price -= WEIGHTS.combat_value[r] * amount
        else:
            used_card = self._action_card(a) if a != ids.monster_action else monster.special_action
            if used_card is None:
                return None
            if ids.ability <= a < ids.ability + self.num_ability_ids:
                uses -= 1
            elif ids.skill <= a < ids.skill + self.num_skills and used_card.once_per_level:
                used_once.append(a)
            price = _pool_pay(pool, tuple((r, x) for r, x in used_card.cost if r != TIME))
            for kind, arg in used_card.effects:
                if kind == "gain":
                    for r, amount in arg:
                        add = min(amount, self.bar[r] - pool[r])
                        pool[r] += add
                        price -= WEIGHTS.combat_value[r] * add
                elif kind == "wounds" and armor == 0:
                    health -= arg
                elif kind == "wounds_ignore_armor":
                    health -= arg
                elif kind == "break_armor":
                    armor -= min(armor, arg)
                elif kind == "extra_turn":
                    extra_turn = True
                elif kind == "remove_condition":
                    price -= self._condition_relief(s, d)
        if health <= 0:
            return price
        turn = 0.0 if extra_turn else d
        pool[SMALL_EFFORT] -= turn
        saved_once = s.used_once
        saved_uses = s.ability_uses
        s.used_once = saved_once + used_once
        s.ability_uses = uses
        try:
            options = self._options(s, weapon_index, monster, in_fight=True)
        finally:
            s.used_once = saved_once
            s.ability_uses = saved_uses
        if pool[SMALL_EFFORT] + pool[MEDIUM_EFFORT] + pool[LARGE_EFFORT] < 0:
            return price + turn + WEIGHTS.unpayable * (health + armor) + WEIGHTS.unpayable_extra
        lethal = self._lethal_rows(s, monster)
        if not extra_turn:
            turn += self._death_risk(pool, lethal)
        return price + turn + self._plan(pool, health, armor, options, d, defending, uses, lethal)

    def _condition_relief(self, s: UnbrokenState, d: float) -> float:
        """What discarding the first active condition saves."""
        if s.conditions_active:
            return self._condition_harm(
                s, s.conditions_active[0], "now", WEIGHTS.assumed_rounds_of_a_lasting_condition, d
            )
        if s.conditions_now:
            first = next(iter(s.conditions_now))
            return self._condition_harm(s, first, "now", max(1, s.conditions_now[first]), d)
        return 0.0

    def _react(self, s: UnbrokenState, legal: list[int]) -> int:
        """Pay a reaction when the harm it avoids exceeds its price."""
        ids = self.ids
        monster = self.cards.monsters[s.monster()]
        value = s.modified_roll()
        harm = self._row_harm(s, monster, value, WEIGHTS.damage_per_turn_guess, True, lethal=True)
        best, best_net = ids.accept_roll, harm
        for a in legal:
            if a == ids.accept_roll:
                continue
            skill = self.cards.skills[a - ids.skill]
            assert skill.reaction_cost is not None
            new = s.roll_on_table(s.roll, monster, s.reaction_modifier + skill.reaction_roll_modifier)
            price = sum(WEIGHTS.combat_value[r] * x for r, x in skill.reaction_cost)
            if skill.reaction_cost and all(r == TREASURE for r, _ in skill.reaction_cost):
                price = WEIGHTS.treasure_reaction_price * sum(x for _, x in skill.reaction_cost)
            net = self._row_harm(s, monster, new, WEIGHTS.damage_per_turn_guess, True, lethal=True) + price
            if net < best_net - WEIGHTS.reaction_margin:
                best, best_net = a, net
        return best

    def _pick_skill(self, s: UnbrokenState, legal: list[int]) -> int:
        levels_left = FINAL_LEVEL - s.level + (1 if s.phase == Phase.DECIDE_SKILL and s.round == 0 else 0)
        levels_left = max(1, levels_left)

        def value(skill_index: int) -> float:
            skill = self.cards.skills[skill_index]
            if skill.action is not None:
                card = skill.action
                gain = 0.0
                for kind, arg in card.effects:
                    if kind in ("wounds", "break_armor"):
                        gain += WEIGHTS.skill_wound_value * arg
                    elif kind == "wounds_ignore_armor":
                        gain += WEIGHTS.skill_ignore_armor_wound_value * arg
                    elif kind == "gain":
                        gain += sum(WEIGHTS.combat_value[r] * a for r, a in arg)
                    elif kind == "extra_turn":
                        gain += WEIGHTS.skill_extra_turn_value
                    elif kind == "remove_condition":
                        gain += WEIGHTS.skill_remove_condition_value
                    elif kind in ("reveal_bonus", "reveal_monster"):
                        gain += WEIGHTS.skill_reveal_value
                net = gain - sum(WEIGHTS.combat_value[r] * a for r, a in card.cost)
                per_level = net if card.once_per_level else max(0.0, net) * WEIGHTS.repeatable_skill_uses_per_level
                return per_level * levels_left
            if skill.reaction_cost is not None:
                price = sum(WEIGHTS.combat_value[r] * a for r, a in skill.reaction_cost)
                return (
                    WEIGHTS.reaction_skill_roll_value * -skill.reaction_roll_modifier
                    - WEIGHTS.reaction_skill_price_weight * price
                    + WEIGHTS.reaction_skill_base_value
                ) * levels_left
            p = skill.passive
            v = 0.0
            bonus = p.get("wound_bonus")
            if bonus is not None:
                kind = self.cards.weapons[s.weapons[-1]].kind
                v += (
                    bonus[1]
                    * (
                        WEIGHTS.matching_wound_bonus_value
                        if bonus[0] in ("any", kind)
                        else WEIGHTS.other_wound_bonus_value
                    )
                    * levels_left
                )
            v += WEIGHTS.passive_reveal_bonus_value * p.get("reveal_bonus", 0) * levels_left
            v += WEIGHTS.passive_skill_reveal_bonus_value * p.get("skill_reveal_bonus", 0) * levels_left
            v += WEIGHTS.passive_rest_bonus_value * p.get("rest_bonus", 0) * levels_left
            v += -WEIGHTS.passive_food_requirement_harm * p.get("food_requirement", 0) * levels_left
            v += WEIGHTS.passive_ignore_value * len(p.get("ignore", ())) * levels_left
            v += WEIGHTS.passive_scout_discount_value * levels_left if p.get("scout_discount") else 0.0
            return v

        values = [value(k) for k in s.skill_offer]
        return self.ids.take_skill + int(np.argmax(values))
