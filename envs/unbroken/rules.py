"""Unbroken's rules core: UnbrokenGame (configuration) and UnbrokenState (everything that changes).

Each rule of the rulebook lives in one method; RULES.md maps rule -> method -> interpretation.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from operator import attrgetter
from typing import Any, ClassVar

import numpy as np

from envs.core.chance_labels import ChanceLabel, ChanceLabels
from envs.core.components import pile_outcomes, uniform_outcomes
from envs.core.game import CHANCE, TERMINAL
from envs.unbroken.actions import MAX_ABILITIES, MAX_EAT
from envs.unbroken.cards import (
    FOOD,
    SMALL_EFFORT,
    TIME,
    ActionCard,
    Bag,
    Effect,
)
from envs.unbroken.economy import UnbrokenEconomy, spend_from, split_time
from envs.unbroken.state import (
    FINAL_LEVEL,
    MAX_REVEAL,
    MAX_SKILL_OFFER,
    PHASE_NAMES,
    AfterSkill,
    Outcome,
    Phase,
    RevealFor,
)
from envs.unbroken.validation import check_position

DIE_FACES = (1, 2, 3, 4, 5, 6)
MAX_GAME_LENGTH = 1500
"""Decision steps after which the Gymnasium env truncates an episode (games last ~60-200 decisions)."""

# Enum members bound to module names: an attribute of an enum class costs ~170 ns per access, and the step path
# compares phases many times. They are the Phase / AfterSkill / RevealFor / Outcome members themselves.
(
    CHANCE_CHARACTER,
    CHANCE_SETUP_MONSTER,
    CHANCE_BONUS_RESOURCE,
    CHANCE_SKILL_DRAW,
    CHANCE_ENCOUNTER_DRAW,
    CHANCE_MONSTER_REVEAL,
    CHANCE_MONSTER_ROLL,
    DECIDE_SKILL,
    DECIDE_TRAVEL,
    DECIDE_CARD,
    DECIDE_ENCOUNTER_OR_REST,
    DECIDE_TRICKERY,
    DECIDE_PLAYER_TURN,
    DECIDE_REACTION,
    DECIDE_HUNGER,
    GAME_OVER,
) = Phase
FIRST_DECISION = DECIDE_SKILL
AFTER_SKILL_TRAVEL, AFTER_SKILL_HUNGER = AfterSkill
REVEAL_FOR_SCOUT, REVEAL_FOR_AMBUSH, REVEAL_FOR_TRICKERY = RevealFor
LOST, ONGOING, WON = Outcome


DIE_ROLL = ChanceLabel("d6 = {outcome}")
"""A roll of the d6 in words."""


# `game` is an UnbrokenGame here and a Game in State: the narrower type of a settable attribute (mypy [misc]).
class UnbrokenState(UnbrokenEconomy, ChanceLabels):  # type: ignore[misc]
    """The state of one Unbroken game with its rules: every transition is a method (RULES.md maps them)."""

    # ------------------------------------------------------------------ setup
    def setup(self) -> None:
        """Setting up to play: display, 13 small effort (10 on Hard), 7 time, Bare Hands, shuffled decks."""
        # Every other field starts at its declared default (state.py).
        cards = self.cards
        self.resources = [0] * len(self.bar_maximum)
        self.resources[SMALL_EFFORT] = self.game.setting["starting_small_effort"]
        self.resources[TIME] = cards.display.time_skull[1]
        self.character = self.game.character
        self.encounter_deck = tuple(e.copies for e in cards.encounters)
        self.encounter_discard = [0] * len(cards.encounters)
        self.skill_deck = (1,) * len(cards.skills)
        self.skill_discard = [0] * len(cards.skills)
        if self.character >= 0:
            self._after_character()

    def _after_character(self) -> None:
        """Setup step 6 (English printing): stack one random monster per level, face down."""
        self.ability_uses = self.ability_uses_for(1)
        if self.preset.monster_drawn_at_setup:
            self.setup_level = 1
            self.phase = CHANCE_SETUP_MONSTER
        else:
            self._after_monster_deck()

    def _after_monster_deck(self) -> None:
        """Appendix D, Easy: a d6 picks an extra starting resource, then draw two skills and keep one."""
        if self.game.setting["bonus_resource"]:
            self.phase = CHANCE_BONUS_RESOURCE
        else:
            self._after_bonus_resource()

    def _after_bonus_resource(self) -> None:
        if self.game.setting["bonus_skill"]:
            self._start_skill_draw(AFTER_SKILL_TRAVEL)
        else:
            self._start_travel()

    # ------------------------------------------------------------------ contract
    def current_player(self) -> int:
        """0 at decisions, CHANCE at draws and rolls, TERMINAL at the end."""
        if self.phase == GAME_OVER:
            return TERMINAL
        return CHANCE if self.phase < FIRST_DECISION else 0

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.phase == GAME_OVER

    def returns(self) -> list[float]:
        """+1 for a win, -1 for a loss, 0 while the game goes on."""
        return [float(self.outcome)]

    def rewards(self, mode: str = "win") -> list[float]:
        """ "win": +1 / -1; "score": the rulebook score of a won game, -1 for a loss (README: reward kwarg)."""
        if mode == "score" and self.outcome == LOST:
            return [-1.0]
        if mode == "score":
            return [float(self.final_score())]
        if mode == "rank":
            raise ValueError("Unbroken is a solo game: it has no ranks (reward modes: win, score)")
        return super().rewards(mode)

    def score(self) -> list[float]:
        """The rulebook's final score of a won game (0 otherwise)."""
        return [float(self.final_score())]

    def title(self) -> str:
        """The title of a won game ("" otherwise)."""
        return self.game.title(self.final_score()) if self.outcome == 1 else ""

    def debug_text(self) -> str:
        """The player's text view plus what it hides: the face-down monsters."""
        hidden = [
            f"level {level}: {self.cards.monsters[m].name}"
            for level, m in enumerate(self.monsters, start=1)
            if m >= 0 and not (level == self.level and self.monster_revealed) and level >= self.level
        ]
        text = self.game.observer(None).text(self)
        return text + ("\nface down: " + ", ".join(hidden) if hidden else "")

    def episode_info(self, player: int = 0) -> dict[str, Any]:
        """Facts reported in the adapter's info dict at the end of an episode."""
        return {
            "won": self.outcome == 1,
            "score": self.final_score(),
            "title": self.title(),
            "level": self.level,
            "end_reason": self.end_reason,
        }

    def validate(self) -> None:
        """Check that this position can happen; raises StateFormatError naming the field (validation.py)."""
        check_position(self)

    # ------------------------------------------------------------------ chance
    CHANCE_LABELS: ClassVar[Mapping[Hashable, ChanceLabel]] = {
        CHANCE_CHARACTER: ChanceLabel("character {item.name}", items=attrgetter("cards.characters")),
        CHANCE_SETUP_MONSTER: ChanceLabel(
            "level {state.setup_level} monster: d6 = {outcome} (face down)",
            hidden="level {state.setup_level} monster dealt face down",
        ),
        CHANCE_BONUS_RESOURCE: DIE_ROLL,
        CHANCE_SKILL_DRAW: ChanceLabel("reveal skill {item.name}", items=attrgetter("cards.skills")),
        CHANCE_ENCOUNTER_DRAW: ChanceLabel("reveal encounter {item.name}", items=attrgetter("cards.encounters")),
        CHANCE_MONSTER_REVEAL: DIE_ROLL,
        CHANCE_MONSTER_ROLL: DIE_ROLL,
    }
    """Each draw and roll in words by phase (envs/core/chance_labels.py); the player does not see the roll that
    picks a face-down monster (English printing)."""

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Exact outcome probabilities of the pending draw or roll."""
        phase = self.phase
        if phase == CHANCE_ENCOUNTER_DRAW:
            return pile_outcomes(self.encounter_deck)
        if phase == CHANCE_MONSTER_ROLL or phase in (CHANCE_BONUS_RESOURCE, CHANCE_MONSTER_REVEAL):
            return uniform_outcomes(DIE_FACES)
        if phase == CHANCE_SKILL_DRAW:
            return pile_outcomes(self.skill_deck)
        if phase == CHANCE_SETUP_MONSTER:
            return uniform_outcomes(DIE_FACES)
        if phase == CHANCE_CHARACTER:
            return uniform_outcomes(range(len(self.cards.characters)))
        return []

    def sample_chance(self, rng: np.random.Generator) -> int:
        """Draw the pending chance outcome with its exact probability (fast path of `chance_outcomes`)."""
        phase = self.phase
        if phase == CHANCE_ENCOUNTER_DRAW or phase == CHANCE_SKILL_DRAW:
            pile = self.encounter_deck if phase == CHANCE_ENCOUNTER_DRAW else self.skill_deck
            target = rng.random() * sum(pile)
            last = 0
            for card, copies in enumerate(pile):
                if copies:
                    target -= copies
                    last = card
                    if target < 0:
                        return card
            return last
        if phase == CHANCE_CHARACTER:
            return int(rng.random() * len(self.cards.characters))
        return 1 + int(rng.random() * len(DIE_FACES))  # a fair d6 (rng.random() is cheaper than rng.integers)

    def _chance_node(self) -> tuple[Hashable, Any]:
        """The phase names the pending draw or roll (a key of `CHANCE_LABELS`)."""
        return self.phase, self.phase

    def _apply_chance(self, outcome: int) -> None:
        phase = self.phase
        if phase == CHANCE_ENCOUNTER_DRAW:
            self.encounter_deck = _take_one(self.encounter_deck, outcome)
            self.revealed_cards.append(outcome)
            self._continue_exploration_draw()
        elif phase == CHANCE_MONSTER_ROLL:
            self.roll = outcome
            self.last_roll = outcome
            self.reaction_used = False
            self.reaction_modifier = 0
            if self._reactions_available():
                self.phase = DECIDE_REACTION
            else:
                self._resolve_monster_roll()
        elif phase == CHANCE_SKILL_DRAW:
            self.skill_deck = _take_one(self.skill_deck, outcome)
            self.skill_offer.append(outcome)
            self._continue_skill_draw()
        elif phase == CHANCE_MONSTER_REVEAL:
            self.monsters[self.level - 1] = self.cards.monster_index(self.level, outcome)
            self._monster_revealed_now()
        elif phase == CHANCE_SETUP_MONSTER:
            self.monsters[self.setup_level - 1] = self.cards.monster_index(self.setup_level, outcome)
            if self.setup_level < FINAL_LEVEL:
                self.setup_level += 1
            else:
                self._after_monster_deck()
        elif phase == CHANCE_BONUS_RESOURCE:
            self._gain(((self.cards.display.easy_bonus_resource[outcome], 1),))
            self._after_bonus_resource()
        elif phase == CHANCE_CHARACTER:
            self.character = outcome
            self._after_character()

    # ------------------------------------------------------------------ resources
    def _gain(self, bag: Bag) -> None:
        """Gain resources; the excess over a resource bar is lost."""
        resources, bars = self.resources, self.bar_maximum
        for r, amount in bag:
            if r == TIME and self.time_token_removed:
                continue
            total = resources[r] + amount
            resources[r] = total if total < bars[r] else bars[r]

    def _pay(self, bag: Bag, extra: Bag = ()) -> bool:
        """Spend a bag if possible (economy's payer, RULES.md); returns False and spends nothing if not."""
        if not self.can_pay(bag, extra):
            return False
        spend_from(self.resources, bag + extra if extra else bag)
        return True

    def _pay_or_fall(self, bag: Bag, reason: str) -> bool:
        """A required effort payment: if it cannot be made, the player is defeated. Returns True if paid."""
        if self._pay(bag):
            return True
        self._lose(reason)
        return False

    def _lose(self, reason: str) -> None:
        self.outcome = LOST
        self.end_reason = reason
        self.phase = GAME_OVER

    # ------------------------------------------------------------------ travel phase
    def _start_travel(self) -> None:
        """Travel Phase: preparation, decision and exploration steps, repeated until combat."""
        self.phase = DECIDE_TRAVEL
        if self.resources[TIME] <= 0:
            self._start_combat(ambushed=True)

    def _spend_time(self, amount: int) -> None:
        """Move the time token; in level IV's combat lost time is paid in small effort instead."""
        if amount <= 0:
            return
        if self._in_combat() and self.level == FINAL_LEVEL:
            self._pay_or_fall(((SMALL_EFFORT, amount),), "could not pay small effort for time lost in level IV")
            return
        self.resources[TIME] = max(0, self.resources[TIME] - amount)

    def _in_combat(self) -> bool:
        return self.phase in (DECIDE_PLAYER_TURN, DECIDE_REACTION, CHANCE_MONSTER_ROLL, DECIDE_TRICKERY)

    def _explore(self) -> None:
        """Exploration step: reveal cards (one only when committed to this encounter)."""
        self.committed_now = self.committed
        self.committed = False
        self.reveal_target = 1 if self.committed_now else self.reveal_count()
        self.reveal_bonus = 0
        self.revealed_cards = []
        self.phase = CHANCE_ENCOUNTER_DRAW
        self._continue_exploration_draw()

    def _continue_exploration_draw(self) -> None:
        if len(self.revealed_cards) < self.reveal_target:
            if sum(self.encounter_deck) == 0:
                self._reshuffle_encounters()
            if sum(self.encounter_deck) > 0:
                self.phase = CHANCE_ENCOUNTER_DRAW
                return
        if len(self.revealed_cards) == 1:
            self._choose_card(0)
        else:
            self.phase = DECIDE_CARD

    def _reshuffle_encounters(self) -> None:
        """An empty encounter deck is refilled from its discard pile (RULES.md: not in the rulebook)."""
        self.encounter_deck = tuple(a + b for a, b in zip(self.encounter_deck, self.encounter_discard, strict=True))
        self.encounter_discard = [0] * len(self.encounter_discard)

    def _choose_card(self, index: int) -> None:
        """Choose one revealed card; the others go to the encounter discard pile."""
        for i, card in enumerate(self.revealed_cards):
            if i != index:
                self.encounter_discard[card] += 1
        self.chosen_card = self.revealed_cards[index]
        self.revealed_cards = []
        self.phase = DECIDE_ENCOUNTER_OR_REST

    def _finish_encounter(self, choice: str) -> None:
        """Resolve (encounter), rest or discard the chosen card, then pay its time value."""
        card = self.cards.encounters[self.chosen_card]
        if choice == "encounter":
            self._pay(card.spend)
            self._gain(card.gain)
            if card.commit:
                self.committed = True
        elif choice == "rest":
            self._gain(((SMALL_EFFORT, self.rest_gain(self.chosen_card)),))
        self.encounter_discard[self.chosen_card] += 1
        self.chosen_card = -1
        self.committed_now = False
        self._spend_time(card.time)
        if self.resources[TIME] <= 0:
            self._start_combat(ambushed=True)
        else:
            self.phase = DECIDE_TRAVEL

    # ------------------------------------------------------------------ monster reveal
    def _reveal_monster(self, context: RevealFor) -> None:
        """Reveal this level's monster: flip the stacked sheet (English) or roll a d6 for it (Spanish)."""
        self.reveal_context = context
        if self.monster_revealed:
            self._monster_revealed_now()
        elif self.preset.monster_drawn_at_setup:
            self._monster_revealed_now()
        else:
            self.phase = CHANCE_MONSTER_REVEAL

    def _monster_revealed_now(self) -> None:
        self.monster_revealed = True
        context = self.reveal_context
        if context == REVEAL_FOR_SCOUT:
            self._back_to_travel_or_turn()
        else:
            self._after_combat_reveal()

    def _back_to_travel_or_turn(self) -> None:
        self.phase = DECIDE_TRAVEL if self.round == 0 else DECIDE_PLAYER_TURN
        if self.phase == DECIDE_TRAVEL and self.resources[TIME] <= 0:
            self._start_combat(ambushed=True)

    # ------------------------------------------------------------------ combat phase
    def _start_combat(self, ambushed: bool) -> None:
        """Ambush step (time ran out) or trickery step (the player chose to face the monster)."""
        self.ambushed = ambushed
        self._reveal_monster(REVEAL_FOR_AMBUSH if ambushed else REVEAL_FOR_TRICKERY)

    def _after_combat_reveal(self) -> None:
        """Reset time to the next level's skull, then apply the ambush effect or offer trickery."""
        if self.level < FINAL_LEVEL:
            self.resources[TIME] = self.cards.display.time_skull[self.level + 1]
        elif self.preset.remove_time_token_at_level_four:
            self.resources[TIME] = 0
            self.time_token_removed = True
        self.wounds = self.armor_broken = self.health_delta = self.armor_delta = 0
        self.defending = False
        monster = self.cards.monsters[self.monster()]
        if self.ambushed:
            self.round = 1
            if monster.ambush is not None:
                self.phase = CHANCE_MONSTER_ROLL  # marks "in combat" while the ambush applies
                self._apply_monster_effects(monster.ambush, None)
                if self.outcome:
                    return
            self._begin_battle()
        elif monster.trickery is not None and self.can_pay(monster.trickery):
            self.phase = DECIDE_TRICKERY
        else:
            self._begin_battle()

    def _trick(self) -> None:
        """Pay the trickery cost: no monster rewards; English: a skill card; Spanish: straight to Hunger."""
        monster = self.cards.monsters[self.monster()]
        assert monster.trickery is not None
        self._pay(monster.trickery)
        self.tricked = True
        self._end_battle(defeated=False)

    def _begin_battle(self) -> None:
        """Battle step: rounds of a player turn then a monster turn (monster first on Hard)."""
        self.round = 1
        self.extra_turn = False
        if self.game.setting["monster_first"]:
            self._monster_turn()
        else:
            self._player_turn()

    def _player_turn(self) -> None:
        """Start of the player's turn: conditions that cost effort each turn, or skip the turn."""
        loss = self.condition_bag("round_loss")
        if loss and not self._pay_or_fall(loss, "could not pay the effort a condition demands each turn"):
            return
        if self.condition_flag("skip_turn"):
            self._end_player_turn()
            return
        self.phase = DECIDE_PLAYER_TURN

    def _end_player_turn(self) -> None:
        if self.outcome:
            return
        if self.wounds >= self.monster_health():
            self._end_battle(defeated=True)
            return
        if self.extra_turn:
            self.extra_turn = False
            self.phase = DECIDE_PLAYER_TURN
            return
        self._count_down_turn()
        if self.game.setting["monster_first"]:
            self._end_round()
        self._monster_turn()

    def _monster_turn(self) -> None:
        """Monster turn: regeneration, then a d6 on the combat actions table."""
        regen = self.cards.monsters[self.monster()].modifiers.get("regen", 0)
        if regen and self.wounds > 0:
            self.wounds = max(0, self.wounds - regen)
        self.phase = CHANCE_MONSTER_ROLL

    def _reactions_available(self) -> bool:
        skills = self.cards.skills
        if self.reaction_used:
            return False
        for s in self.skills:
            cost = skills[s].reaction_cost
            if cost is not None and self.can_pay(cost):
                return True
        return False

    def _resolve_monster_roll(self) -> None:
        """Apply the combat table row of the (modified) roll; re-roll a condition already gained for next level."""
        value = self.modified_roll()
        monster = self.cards.monsters[self.monster()]
        if 1 <= value <= 6:
            row = monster.combat[value - 1]
            if self.rolls_again(row):
                self.phase = CHANCE_MONSTER_ROLL
                return
            self.phase = CHANCE_MONSTER_ROLL  # still the monster's turn while effects apply
            self._apply_monster_effects(row.effects, row.alt)
            if self.outcome:
                return
        self._end_monster_turn()

    def _end_monster_turn(self) -> None:
        if self.wounds >= self.monster_health():  # e.g. a regeneration special cannot undo a win
            self._end_battle(defeated=True)
            return
        if not self.game.setting["monster_first"]:
            self._end_round()
        self._player_turn()

    def _end_round(self) -> None:
        """End of a combat round (player turn and monster turn)."""
        self.round += 1

    def _count_down_turn(self) -> None:
        """End of the player's turn: an immediate condition or set-aside weapon "for n rounds" covers n turns."""
        now = self.conditions_now
        if any(rounds == 1 for rounds in now.values()):
            # A condition ends: a new mapping (the modifier totals change; state.py); the others count down.
            now = self.conditions_now = {c: r - 1 if r > 0 else r for c, r in now.items() if r != 1}
        else:
            for condition, rounds in now.items():
                if rounds > 0:
                    now[condition] = rounds - 1
        if self.aside_weapon >= 0:
            self.aside_rounds -= 1
            if self.aside_rounds <= 0:
                self._return_aside_weapon()

    def _return_aside_weapon(self) -> None:
        if self.aside_weapon >= 0 and self.aside_weapon not in self.weapons:
            self.weapons.append(self.aside_weapon)
        self.aside_weapon = -1
        self.aside_rounds = 0

    def _apply_monster_effects(self, effects: tuple[Effect, ...], alt: tuple[Effect, ...] | None) -> None:
        """Apply a monster effect; if it cannot be applied, its bracketed alternative (or nothing)."""
        if any(self.ignores(kind) for kind, _ in effects):
            return
        if not all(self.monster_effect_applicable(kind, arg) for kind, arg in effects):
            if alt is None:
                return
            self._apply_monster_effects(alt, None)
            return
        for kind, argument in effects:
            if kind == "lose":
                if not self._pay_or_fall(argument, "could not spend the effort a monster effect demanded"):
                    return
            elif kind == "lose_time":
                self._spend_time(argument)
                if self.outcome:
                    return
            elif kind == "condition":
                self._gain_condition(*argument)
            elif kind == "regain_armor":
                self.armor_broken = max(0, self.armor_broken - argument)
            elif kind == "heal":
                self.wounds = max(0, self.wounds - argument)
            elif kind == "defend":
                self.defending = True
            elif kind == "downgrade_weapon":
                top = self.weapons.pop()
                if argument > 0:
                    self._return_aside_weapon()
                    self.aside_weapon = top
                    self.aside_rounds = argument

    def _gain_condition(self, condition: int, when: str, rounds: int) -> None:
        """Appendix C: a condition for the next level, or immediately (for some rounds)."""
        if when == "next_level":
            if condition not in self.conditions_next:
                self.conditions_next.append(condition)
            return
        if condition in self.conditions_now:
            current = self.conditions_now[condition]
            if self.preset.extend_immediate_condition and current > 0:
                self.conditions_now[condition] = current + rounds if rounds > 0 else -1  # rounds only: same totals
            return
        self.conditions_now = {**self.conditions_now, condition: rounds}

    def _end_battle(self, defeated: bool) -> None:
        """Leave the battle: immediate conditions end, a set-aside weapon returns; then Rewards or Hunger."""
        self.conditions_now = {}
        self._return_aside_weapon()
        self.defending = False
        self.round = 0
        self.extra_turn = False
        if defeated:
            self._gain(self.cards.monsters[self.monster()].rewards)
            self._start_skill_draw(AFTER_SKILL_HUNGER)
        elif self.preset.trick_gives_skill:
            self._start_skill_draw(AFTER_SKILL_HUNGER)
        else:
            self._start_hunger()

    # ------------------------------------------------------------------ rewards and skills
    def _start_skill_draw(self, after: AfterSkill) -> None:
        """Reveal the top two skill cards (more with skills), keep one."""
        self.after_skill = after
        self.skill_offer = []
        self.skill_target = min(
            MAX_SKILL_OFFER, self.cards.display.skill_reveal + self.passive_total("skill_reveal_bonus")
        )
        self._continue_skill_draw()

    def _continue_skill_draw(self) -> None:
        if len(self.skill_offer) < self.skill_target:
            if sum(self.skill_deck) == 0:
                self.skill_deck = tuple(a + b for a, b in zip(self.skill_deck, self.skill_discard, strict=True))
                self.skill_discard = [0] * len(self.skill_discard)
            if sum(self.skill_deck) > 0:
                self.phase = CHANCE_SKILL_DRAW
                return
        if self.skill_offer:
            self.phase = DECIDE_SKILL
        else:
            self._after_skill_choice()

    def _take_skill(self, index: int) -> None:
        for i, skill in enumerate(self.skill_offer):
            if i == index:
                self.skills = (*self.skills, skill)
            else:
                self.skill_discard[skill] += 1
        self.skill_offer = []
        self._after_skill_choice()

    def _after_skill_choice(self) -> None:
        if self.after_skill == AFTER_SKILL_TRAVEL:
            self._start_travel()
        else:
            self._start_hunger()

    # ------------------------------------------------------------------ hunger and end of level
    def _start_hunger(self) -> None:
        if self.food_requirement() == 0:
            self._end_level()
        else:
            self.phase = DECIDE_HUNGER

    def _eat(self, food: int) -> None:
        """Hunger step: each food eaten gives 1 small effort; food not eaten costs 1, 2, 3... small effort."""
        self.resources[FOOD] -= food
        self._gain(((SMALL_EFFORT, food),))
        missing = self.food_requirement() - food
        if missing > 0 and not self._pay_or_fall(
            ((SMALL_EFFORT, self.starvation_cost(missing)),), "died of starvation"
        ):
            return
        self._end_level()

    def _end_level(self) -> None:
        """End of phase: win after level IV, else reset the ability bar, rotate conditions, next monster."""
        if self.level == FINAL_LEVEL:
            self.outcome = WON
            self.end_reason = "defeated the level IV monster" if not self.tricked else "escaped"
            self.phase = GAME_OVER
            return
        self.level += 1
        self.conditions_active = tuple(self.conditions_next)
        self.conditions_next = []
        self.ability_uses = self.ability_uses_for(self.level)
        self.used_once = []
        self.monster_revealed = False
        self.tricked = False
        self.ambushed = False
        self.wounds = self.armor_broken = self.health_delta = self.armor_delta = 0
        penalty = self.condition_total("start_time_penalty")
        self.resources[TIME] = max(0, self.resources[TIME] - penalty)
        self._start_travel()

    # ------------------------------------------------------------------ decisions
    def legal_actions(self) -> list[int]:
        """Sorted legal action ids at a decision node."""
        phase = self.phase
        ids = self.ids
        if phase == DECIDE_TRAVEL:
            legal = [ids.explore] if self.committed else [ids.explore, ids.face_monster]
            self._general_actions(legal, in_combat=False)
        elif phase == DECIDE_PLAYER_TURN:
            legal = [ids.skip]
            if not self.condition_flag("no_weapon"):
                extra = self.weapon_extra_cost()
                for i, attack in enumerate(self.cards.weapons[self.weapons[-1]].attacks):
                    if attack.break_armor and self.armor_left() == 0:
                        continue
                    if self.can_pay(attack.cost, extra):
                        legal.append(ids.attack + i)
            action = self.cards.monsters[self.monster()].special_action
            if action is not None and self.can_pay(action.cost):
                legal.append(ids.monster_action)
            self._general_actions(legal, in_combat=True)
        elif phase == DECIDE_CARD:
            legal = [ids.choose_card + i for i in range(len(self.revealed_cards))]
        elif phase == DECIDE_ENCOUNTER_OR_REST:
            card = self.cards.encounters[self.chosen_card]
            payable = self.can_pay(card.spend)
            if not self.committed_now:
                legal = [ids.encounter, ids.rest] if payable else [ids.rest]
            elif payable:
                legal = [ids.encounter]
            elif self.preset.committed_unpayable_discard:
                legal = [ids.discard_committed]
            else:
                legal = [ids.rest]
        elif phase == DECIDE_SKILL:
            legal = [ids.take_skill + i for i in range(len(self.skill_offer))]
        elif phase == DECIDE_TRICKERY:
            legal = [ids.trick, ids.fight]
        elif phase == DECIDE_REACTION:
            legal = [ids.accept_roll]
            skills = self.cards.skills
            for s in self.skills:
                cost = skills[s].reaction_cost
                if cost is not None and self.can_pay(cost):
                    legal.append(ids.skill + s)
        elif phase == DECIDE_HUNGER:
            most = min(self.resources[FOOD], self.food_requirement(), MAX_EAT)
            legal = [ids.eat + k for k in range(most + 1)]
        else:
            return []
        legal.sort()
        return legal

    def _general_actions(self, legal: list[int], in_combat: bool) -> None:
        """General actions, craft/downgrade, character abilities and skills usable now."""
        ids = self.ids
        general = self.cards.display.general
        extra = self.general_extra_cost()
        for action_id, card in self.game.conversion_actions:
            if self.timing_ok(card.timing, in_combat) and self.can_pay(card.cost, extra):
                legal.append(action_id)
        if not in_combat:
            if not self.monster_revealed and self.can_pay_with_time(self.scout_cost(), extra):
                legal.append(ids.scout)
            if (
                self.cards.display.exploration_reveal + self.reveal_bonus < MAX_REVEAL
                and not self.committed
                and self.can_pay(general.orienteer_cost, extra)
            ):
                legal.append(ids.orienteer)
        for upgrade in self.cards.weapons[self.weapons[-1]].upgrades:
            if (
                upgrade.to not in self.weapons
                and upgrade.to != self.aside_weapon
                and self.can_pay_craft(upgrade.cost, upgrade.time, in_combat)
            ):
                legal.append(ids.craft + upgrade.to)
        if len(self.weapons) > 1:
            legal.append(ids.downgrade)
        if self.ability_uses > 0 and self.character >= 0:
            for i, ability in enumerate(self.cards.characters[self.character].abilities):
                action_id = ids.ability + self.character * MAX_ABILITIES + i
                if self._card_usable(ability, action_id, in_combat):
                    legal.append(action_id)
        skills = self.cards.skills
        for s in self.skills:
            skill_card = skills[s].action
            if skill_card is not None and self._card_usable(skill_card, ids.skill + s, in_combat):
                legal.append(ids.skill + s)

    def _card_usable(self, card: ActionCard, action_id: int, in_combat: bool) -> bool:
        if not self.timing_ok(card.timing, in_combat):
            return False
        if card.once_per_level and action_id in self.used_once:
            return False
        if not in_combat and any(kind == "reveal_monster" for kind, _ in card.effects) and self.monster_revealed:
            return False
        if self.committed and any(kind == "reveal_bonus" for kind, _ in card.effects):
            return False  # a committed exploration reveals exactly one card: extra reveals would be wasted
        return self.can_pay_with_time(card.cost)

    def _pay_with_time(self, cost: Bag, extra: Bag = ()) -> None:
        rest, time = split_time(cost)
        self._pay(rest, extra)
        self._spend_time(time)

    def _apply(self, action: int) -> None:
        if self.phase < FIRST_DECISION:
            self._apply_chance(action)
            return
        handler, index = self.game.dispatch[action]
        handler(self, index)

    # Handlers: one per action group.
    def _do_take_skill(self, index: int) -> None:
        self._take_skill(index)

    def _do_explore(self, _: int) -> None:
        self._explore()

    def _do_face_monster(self, _: int) -> None:
        self._start_combat(ambushed=False)

    def _do_choose_card(self, index: int) -> None:
        self._choose_card(index)

    def _do_encounter(self, _: int) -> None:
        self._finish_encounter("encounter")

    def _do_rest(self, _: int) -> None:
        self._finish_encounter("rest")

    def _do_discard_committed(self, _: int) -> None:
        self._finish_encounter("discard")

    def _do_general(self, card: ActionCard) -> None:
        self._pay(card.cost, self.general_extra_cost())
        self._gain(card.effects[0][1])
        self._after_action()

    def _do_focus(self, _: int) -> None:
        self._do_general(self.cards.display.general.focus)

    def _do_inspiration(self, _: int) -> None:
        self._do_general(self.cards.display.general.inspiration)

    def _do_plan(self, _: int) -> None:
        self._do_general(self.cards.display.general.plan)

    def _do_scout(self, _: int) -> None:
        """Scout: pay the level's cost and reveal this level's monster early."""
        self._pay_with_time(self.scout_cost(), self.general_extra_cost())
        self._reveal_monster(REVEAL_FOR_SCOUT)

    def _do_orienteer(self, _: int) -> None:
        general = self.cards.display.general
        self._pay(general.orienteer_cost, self.general_extra_cost())
        self.reveal_bonus += general.orienteer_reveal_bonus
        self._after_action()

    def _do_craft(self, weapon: int) -> None:
        """Craft: pay an upgrade's resources and time and lay the new weapon sheet on top."""
        upgrade = next(u for u in self.cards.weapons[self.weapons[-1]].upgrades if u.to == weapon)
        in_combat = self.phase == DECIDE_PLAYER_TURN
        self._pay(upgrade.cost)
        if in_combat and self.level == FINAL_LEVEL:
            self._pay(((SMALL_EFFORT, upgrade.time),))
        elif upgrade.time:
            self.resources[TIME] = max(0, self.resources[TIME] - upgrade.time)
        self.weapons.append(weapon)
        self._after_action()

    def _do_downgrade(self, _: int) -> None:
        """Voluntary downgrade: the top weapon returns to the weapon deck (Bare Hands is never lost)."""
        self.weapons.pop()
        self._after_action()

    def _do_attack(self, index: int) -> None:
        """Attack with weapon: pay its effort and the monster's extra cost, then wound or break armor."""
        weapon = self.cards.weapons[self.weapons[-1]]
        attack = weapon.attacks[index]
        self._pay(attack.cost, self.weapon_extra_cost())
        if self.defending:
            self.defending = False
        elif attack.break_armor:
            self.armor_broken = min(self.monster_armor(), self.armor_broken + attack.break_armor)
        else:
            self._wound(self.attack_wounds(index), attack.ignore_armor)
        self._end_player_turn()

    def _wound(self, wounds: int, ignore_armor: bool) -> None:
        """Wounds land only once all armor is broken, unless they ignore armor."""
        if ignore_armor or self.armor_left() == 0:
            self.wounds += wounds

    def _do_skip(self, _: int) -> None:
        self._end_player_turn()

    def _do_ability(self, index: int) -> None:
        """Use a character ability: one ability-bar use."""
        character, slot = divmod(index, MAX_ABILITIES)
        card = self.cards.characters[character].abilities[slot]
        self.ability_uses -= 1
        self._use_card(card, self.ids.ability + index)

    def _do_skill(self, index: int) -> None:
        skill = self.cards.skills[index]
        if self.phase == DECIDE_REACTION:
            assert skill.reaction_cost is not None
            self._pay(skill.reaction_cost)
            self.reaction_modifier += skill.reaction_roll_modifier
            self.reaction_used = True
            self._resolve_monster_roll()
            return
        assert skill.action is not None
        self._use_card(skill.action, self.ids.skill + index)

    def _do_monster_action(self, _: int) -> None:
        card = self.cards.monsters[self.monster()].special_action
        assert card is not None
        self._use_card(card, self.ids.monster_action)

    def _do_trick(self, _: int) -> None:
        self._trick()

    def _do_fight(self, _: int) -> None:
        self._begin_battle()

    def _do_eat(self, food: int) -> None:
        self._eat(food)

    def _do_accept_roll(self, _: int) -> None:
        self.reaction_used = True
        self._resolve_monster_roll()

    def _use_card(self, card: ActionCard, action_id: int) -> None:
        """Pay an ability's cost and apply its effects."""
        if card.once_per_level:
            self.used_once.append(action_id)
        in_combat = self.phase == DECIDE_PLAYER_TURN
        self._pay_with_time(card.cost)
        if self.outcome:
            return
        reveal = False
        for kind, argument in card.effects:
            if kind == "gain":
                self._gain(argument)
            elif kind == "reveal_bonus":
                self.reveal_bonus += argument
            elif kind == "reveal_monster":
                reveal = not self.monster_revealed
            elif kind == "remove_condition":
                if self.conditions_active:
                    self.conditions_active = self.conditions_active[1:]
                elif self.conditions_now:
                    first = next(iter(self.conditions_now))
                    self.conditions_now = {c: r for c, r in self.conditions_now.items() if c != first}
            elif not in_combat:
                continue  # combat-only effects have no target outside battle
            elif kind == "wounds":
                self._wound(argument, ignore_armor=False)
            elif kind == "wounds_ignore_armor":
                self._wound(argument, ignore_armor=True)
            elif kind == "break_armor":
                self.armor_broken = min(self.monster_armor(), self.armor_broken + argument)
            elif kind == "extra_turn":
                self.extra_turn = True
            elif kind == "monster_health" and self.preset.monster_stat_changes:
                self.health_delta += argument
            elif kind == "monster_armor" and self.preset.monster_stat_changes:
                self.armor_delta += argument
                self.armor_broken = min(self.armor_broken, self.monster_armor())
        if reveal:
            self._reveal_monster(REVEAL_FOR_SCOUT)
            if self.phase == CHANCE_MONSTER_REVEAL:
                return
        self._after_action()

    def _after_action(self) -> None:
        """After a preparation action: ambush if time ran out. After a combat action: the turn ends."""
        if self.phase == DECIDE_TRAVEL:
            if self.resources[TIME] <= 0:
                self._start_combat(ambushed=True)
        elif self.phase == DECIDE_PLAYER_TURN:
            self._end_player_turn()

    # ------------------------------------------------------------------ hidden information
    def resample_hidden(self, player: int, rng: np.random.Generator) -> UnbrokenState:
        """Redraw the face-down monsters of this and later levels (English printing); decks hold no order."""
        other = self.clone()
        if self.preset.monster_drawn_at_setup and self.phase not in (CHANCE_CHARACTER, CHANCE_SETUP_MONSTER):
            for level in range(self.level, FINAL_LEVEL + 1):
                if level == self.level and self.monster_revealed:
                    continue
                other.monsters[level - 1] = self.cards.monster_index(level, int(rng.integers(1, 7)))
        return other


ACTION_HANDLERS = {
    "take revealed skill": UnbrokenState._do_take_skill,
    "decision: explore": UnbrokenState._do_explore,
    "decision: face the monster": UnbrokenState._do_face_monster,
    "choose revealed encounter": UnbrokenState._do_choose_card,
    "resolve the encounter": UnbrokenState._do_encounter,
    "rest": UnbrokenState._do_rest,
    "discard the committed encounter (cannot pay)": UnbrokenState._do_discard_committed,
    "general action: focus": UnbrokenState._do_focus,
    "general action: inspiration": UnbrokenState._do_inspiration,
    "general action: plan": UnbrokenState._do_plan,
    "general action: scout": UnbrokenState._do_scout,
    "travel action: orienteer": UnbrokenState._do_orienteer,
    "craft weapon": UnbrokenState._do_craft,
    "downgrade weapon": UnbrokenState._do_downgrade,
    "attack with weapon": UnbrokenState._do_attack,
    "skip turn": UnbrokenState._do_skip,
    "character ability": UnbrokenState._do_ability,
    "use skill": UnbrokenState._do_skill,
    "monster special action": UnbrokenState._do_monster_action,
    "trick the monster": UnbrokenState._do_trick,
    "fight the monster": UnbrokenState._do_fight,
    "eat food": UnbrokenState._do_eat,
    "accept the monster's roll": UnbrokenState._do_accept_roll,
}


def _take_one(pile: tuple[int, ...], card: int) -> tuple[int, ...]:
    """The pile with one copy of `card` drawn (piles are tuples: a change replaces them)."""
    counts = list(pile)
    counts[card] -= 1
    return tuple(counts)


__all__ = ["ACTION_HANDLERS", "MAX_EAT", "MAX_GAME_LENGTH", "PHASE_NAMES", "UnbrokenState"]
