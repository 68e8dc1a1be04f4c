"""Unbroken's rules core: UnbrokenGame (configuration) and UnbrokenState (everything that changes).

Each rule of the rulebook lives in one method; RULES.md maps rule -> method -> interpretation.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import numpy as np

from envs.core.components import pile_outcomes, uniform_outcomes
from envs.core.game import CHANCE, TERMINAL, Game, GameSpec, Observer, State, StateFormatError
from envs.unbroken.actions import MAX_ABILITIES, MAX_EAT, MAX_REVEAL, MAX_SKILL_OFFER, build_actions
from envs.unbroken.cards import (
    EFFORTS,
    FOOD,
    LARGE_EFFORT,
    MEDIUM_EFFORT,
    PASSIVES,
    SMALL_EFFORT,
    TIME,
    ActionCard,
    Bag,
    CardSet,
    Effect,
    load_cards,
)
from envs.unbroken.presets import DIFFICULTIES, RulePreset, get_preset

FINAL_LEVEL = 4
DIE_FACES = (1, 2, 3, 4, 5, 6)
MAX_GAME_LENGTH = 1500
"""Decision steps after which the Gymnasium env truncates an episode (games last ~60-200 decisions)."""

# Node kinds. Chance nodes first, then decision nodes, then the end.
CHANCE_CHARACTER = 0
CHANCE_SETUP_MONSTER = 1
CHANCE_BONUS_RESOURCE = 2
CHANCE_SKILL_DRAW = 3
CHANCE_ENCOUNTER_DRAW = 4
CHANCE_MONSTER_REVEAL = 5
CHANCE_MONSTER_ROLL = 6
DECIDE_SKILL = 7
DECIDE_TRAVEL = 8
DECIDE_CARD = 9
DECIDE_ENCOUNTER_OR_REST = 10
DECIDE_TRICKERY = 11
DECIDE_PLAYER_TURN = 12
DECIDE_REACTION = 13
DECIDE_HUNGER = 14
GAME_OVER = 15
PHASE_NAMES = (
    "setup: character",
    "setup: monster deck",
    "setup: easy bonus resource",
    "skill draw",
    "exploration: reveal",
    "monster reveal (d6)",
    "monster combat roll",
    "choose a skill card",
    "travel: preparation and decision",
    "exploration: choose a card",
    "exploration: encounter or rest",
    "trickery step",
    "battle: player turn",
    "battle: react to the roll",
    "hunger step",
    "game over",
)
FIRST_DECISION = DECIDE_SKILL

# Where play continues after a skill is taken / the monster is revealed by a d6.
AFTER_SKILL_TRAVEL, AFTER_SKILL_HUNGER = 0, 1
REVEAL_FOR_SCOUT, REVEAL_FOR_AMBUSH, REVEAL_FOR_TRICKERY = 0, 1, 2


_SPLIT_TIME: dict[Bag, tuple[Bag, int]] = {}
_SKILL_KEYS = {name: f"skill:{name}" for name in PASSIVES}
"""Passive name -> its key among the modifier totals (formatted once)."""


def split_time(cost: Bag) -> tuple[Bag, int]:
    """(the cost without time, its time part), memoised: costs are a few shared tuples."""
    split = _SPLIT_TIME.get(cost)
    if split is None:
        split = (tuple((r, a) for r, a in cost if r != TIME), sum(a for r, a in cost if r == TIME))
        _SPLIT_TIME[cost] = split
    return split


class UnbrokenGame(Game):
    """Unbroken with a difficulty, a printing's rule preset, a character choice and a card set."""

    def __init__(
        self,
        difficulty: str = "normal",
        preset: str | RulePreset = "english",
        character: str | int = "random",
        cards: CardSet | None = None,
        card_directory: str | Path | None = None,
    ) -> None:
        if difficulty not in DIFFICULTIES:
            raise ValueError(f"unknown difficulty {difficulty!r}; choose one of {list(DIFFICULTIES)}")
        self.difficulty = difficulty
        self.preset = get_preset(preset)
        self.cards = cards if cards is not None else load_cards(card_directory)
        self.setting = self.cards.display.difficulty[difficulty]
        names = [c.name for c in self.cards.characters]
        if character == "random":
            self.character = -1
        elif isinstance(character, int) and 0 <= character < len(names):
            self.character = character
        elif character in names:
            self.character = names.index(character)
        else:
            raise ValueError(f"unknown character {character!r}; choose 'random' or one of {names}")
        self.actions = build_actions(self.cards)
        self.spec = GameSpec(
            name="unbroken",
            num_players=1,
            num_actions=self.actions.size,
            max_game_length=MAX_GAME_LENGTH,
            version="0",
            extra={"difficulty": difficulty, "preset": self.preset.name},
        )
        self._observer: Observer | None = None
        general = self.cards.display.general
        self.conversion_actions = (
            (self.actions.focus, general.focus),
            (self.actions.inspiration, general.inspiration),
            (self.actions.plan, general.plan),
        )
        codec = self.actions.codec
        self.dispatch = [
            (_HANDLERS[group], index) for group, index in (codec.decode(a) for a in range(self.actions.size))
        ]
        """Action id -> (handler, index within its group): decoding once, not on every step."""

    def new_initial_state(self) -> UnbrokenState:
        """A new game at setup (a chance node unless the character is fixed on Normal/Hard English...)."""
        state = UnbrokenState(self)
        state.setup()
        return state

    def state_from_dict(self, data: dict[str, Any]) -> UnbrokenState:
        """Rebuild a state from `to_dict()` output; raises StateFormatError naming the bad field."""
        return UnbrokenState.from_dict(self, data)

    def action_label(self, action: int) -> str:
        """Label of an action id."""
        return self.actions.codec.label(action)

    def observer(self, player: int = 0) -> Observer:
        """The (single) player's observer."""
        if self._observer is None:
            from envs.unbroken.observer import UnbrokenObserver

            self._observer = UnbrokenObserver(self)
        return self._observer

    def title(self, score: int) -> str:
        """The rulebook title for a final score."""
        name = self.cards.display.titles[0][0]
        for title, low in self.cards.display.titles:
            if score >= low:
                name = title
        return name


class UnbrokenState(State):
    """The state of one Unbroken game; plain ints and lists, cheap to clone."""

    FIELDS = (
        "phase", "level", "resources", "character", "ability_uses", "weapons", "aside_weapon",
        "aside_rounds", "monsters", "monster_revealed", "wounds", "armor_broken", "health_delta",
        "armor_delta", "defending", "encounter_deck", "encounter_discard", "revealed_cards",
        "reveal_target", "chosen_card", "committed", "committed_now", "reveal_bonus", "skill_deck",
        "skill_discard", "skills", "skill_offer", "skill_target", "after_skill", "used_once",
        "conditions_active", "conditions_next", "conditions_now", "ambushed", "reveal_context",
        "round", "extra_turn", "roll", "reaction_used", "reaction_modifier", "outcome", "end_reason",
        "tricked", "time_token_removed", "setup_level", "last_roll",
    )  # fmt: skip

    game: UnbrokenGame

    def __init__(self, game: UnbrokenGame) -> None:
        self.game = game
        self.cards = game.cards
        self.preset = game.preset
        self.ids = game.actions
        self.bar_maximum = game.cards.display.bar_maximum

    # ------------------------------------------------------------------ setup
    def setup(self) -> None:
        """Setting up to play: display, 13 small effort (10 on Hard), 7 time, Bare Hands, shuffled decks."""
        cards = self.cards
        self.phase = CHANCE_CHARACTER
        self.level = 1
        self.resources = [0] * len(self.bar_maximum)
        self.resources[SMALL_EFFORT] = self.game.setting["starting_small_effort"]
        self.resources[TIME] = cards.display.time_skull[1]
        self.character = self.game.character
        self.ability_uses = 1
        self.weapons = [0]
        self.aside_weapon = -1
        self.aside_rounds = 0
        self.monsters = [-1] * FINAL_LEVEL
        self.monster_revealed = False
        self.wounds = self.armor_broken = self.health_delta = self.armor_delta = 0
        self.defending = False
        self.encounter_deck = [e.copies for e in cards.encounters]
        self.encounter_discard = [0] * len(cards.encounters)
        self.revealed_cards: list[int] = []
        self.reveal_target = 0
        self.chosen_card = -1
        self.committed = False
        self.committed_now = False
        self.reveal_bonus = 0
        self.skill_deck = [1] * len(cards.skills)
        self.skill_discard = [0] * len(cards.skills)
        self.skills: list[int] = []
        self.skill_offer: list[int] = []
        self.skill_target = 0
        self.after_skill = AFTER_SKILL_TRAVEL
        self.used_once: list[int] = []
        self.conditions_active: list[int] = []
        self.conditions_next: list[int] = []
        self.conditions_now: dict[int, int] = {}
        self.ambushed = False
        self.reveal_context = REVEAL_FOR_SCOUT
        self.round = 0
        self.extra_turn = False
        self.roll = 0
        self.last_roll = 0
        self.reaction_used = False
        self.reaction_modifier = 0
        self.outcome = 0
        self.end_reason = ""
        self.tricked = False
        self.time_token_removed = False
        self.setup_level = 1
        if self.character >= 0:
            self._after_character()

    def _after_character(self) -> None:
        """Setup step 6 (English printing): stack one random monster per level, face down."""
        self.ability_uses = self._ability_uses_for(1)
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

    def score(self) -> list[float]:
        """The rulebook's final score of a won game (0 otherwise)."""
        return [float(self.final_score())]

    def final_score(self) -> int:
        """Calculating your score: each remaining resource except small effort has a point value."""
        if self.outcome != 1:
            return 0
        points = self.cards.display.score_points
        return sum(amount * points[r] for r, amount in enumerate(self.resources) if r != TIME)

    def title(self) -> str:
        """The title of a won game ("" otherwise)."""
        return self.game.title(self.final_score()) if self.outcome == 1 else ""

    def episode_info(self) -> dict[str, Any]:
        """Facts reported in the adapter's info dict at the end of an episode."""
        return {
            "won": self.outcome == 1,
            "score": self.final_score(),
            "title": self.title(),
            "level": self.level,
            "end_reason": self.end_reason,
        }

    def clone(self) -> UnbrokenState:
        """An independent copy."""
        other = UnbrokenState.__new__(UnbrokenState)
        other.__dict__.update(self.__dict__)
        for name in (
            "resources", "weapons", "monsters", "encounter_deck", "encounter_discard", "revealed_cards",
            "skill_deck", "skill_discard", "skills", "skill_offer", "used_once", "conditions_active",
            "conditions_next",
        ):  # fmt: skip
            setattr(other, name, list(getattr(self, name)))
        other.conditions_now = dict(self.conditions_now)
        return other

    def __getstate__(self) -> dict[str, Any]:
        return {"game": self.game, "data": self.to_dict()}

    def __setstate__(self, payload: dict[str, Any]) -> None:
        restored = UnbrokenState.from_dict(payload["game"], payload["data"])
        self.__dict__.update(restored.__dict__)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, UnbrokenState) and self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return hash(repr(sorted(self.to_dict().items())))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict of every field."""
        data = {name: copy.copy(getattr(self, name)) for name in self.FIELDS}
        data["conditions_now"] = {str(k): v for k, v in self.conditions_now.items()}
        return data

    @classmethod
    def from_dict(cls, game: UnbrokenGame, data: dict[str, Any]) -> UnbrokenState:
        """Build a state from a dict; missing fields take their setup values, bad ones raise StateFormatError."""
        state = cls(game)
        state.setup()
        if not isinstance(data, dict):
            raise StateFormatError(f"state: expected a dict, got {type(data).__name__}")
        for key, value in data.items():
            if key not in cls.FIELDS:
                raise StateFormatError(f"state.{key}: unknown field (fields: {', '.join(cls.FIELDS)})")
            default = getattr(state, key)
            if key == "conditions_now":
                if not isinstance(value, dict):
                    raise StateFormatError("state.conditions_now: expected a mapping condition -> rounds")
                value = {int(k): int(v) for k, v in value.items()}
            elif isinstance(default, bool):
                if not isinstance(value, bool):
                    raise StateFormatError(f"state.{key}: expected true/false, got {value!r}")
            elif isinstance(default, int):
                if isinstance(value, bool) or not isinstance(value, int):
                    raise StateFormatError(f"state.{key}: expected an integer, got {value!r}")
            elif isinstance(default, list):
                if not isinstance(value, list) or not all(isinstance(v, int) for v in value):
                    raise StateFormatError(f"state.{key}: expected a list of integers, got {value!r}")
                value = list(value)
            elif isinstance(default, str) and not isinstance(value, str):
                raise StateFormatError(f"state.{key}: expected a string, got {value!r}")
            setattr(state, key, value)
        state._touch_modifiers()
        state.__dict__.pop("deck_view", None)
        state.validate()
        return state

    def validate(self) -> None:
        """Check the invariants of a state; raises StateFormatError naming the first broken field."""
        cards = self.cards
        if not 0 <= self.phase <= GAME_OVER:
            raise StateFormatError(f"state.phase: {self.phase} is not a phase (0..{GAME_OVER})")
        if not 1 <= self.level <= FINAL_LEVEL:
            raise StateFormatError(f"state.level: {self.level} is not in 1..{FINAL_LEVEL}")
        if len(self.resources) != len(self.bar_maximum):
            raise StateFormatError(f"state.resources: expected {len(self.bar_maximum)} values")
        for r, amount in enumerate(self.resources):
            if not 0 <= amount <= self.bar_maximum[r]:
                raise StateFormatError(f"state.resources[{r}]: {amount} is outside the bar 0..{self.bar_maximum[r]}")
        if not -1 <= self.character < len(cards.characters):
            raise StateFormatError(f"state.character: {self.character} is not a character index")
        if not self.weapons or self.weapons[0] != 0 or len(set(self.weapons)) != len(self.weapons):
            raise StateFormatError("state.weapons: the stack starts with Bare Hands (0) and has no repeats")
        if any(not 0 <= w < len(cards.weapons) for w in self.weapons):
            raise StateFormatError("state.weapons: unknown weapon index")
        if len(self.monsters) != FINAL_LEVEL or any(
            m != -1 and not (0 <= m < len(cards.monsters) and cards.monsters[m].level == lv + 1)
            for lv, m in enumerate(self.monsters)
        ):
            raise StateFormatError("state.monsters: one monster index of the right level (or -1) per level")
        if self.monster_revealed and self.monsters[self.level - 1] < 0:
            raise StateFormatError("state.monster_revealed: no monster chosen for this level")
        for name, pile, size in (
            ("encounter_deck", self.encounter_deck, len(cards.encounters)),
            ("encounter_discard", self.encounter_discard, len(cards.encounters)),
            ("skill_deck", self.skill_deck, len(cards.skills)),
            ("skill_discard", self.skill_discard, len(cards.skills)),
        ):
            if len(pile) != size or any(c < 0 for c in pile):
                raise StateFormatError(f"state.{name}: expected {size} non-negative counts")
        for i, encounter in enumerate(cards.encounters):
            held = self.encounter_deck[i] + self.encounter_discard[i] + self.revealed_cards.count(i)
            held += int(self.chosen_card == i)
            if held != encounter.copies:
                raise StateFormatError(
                    f"state.encounter_deck: {encounter.name!r} appears {held} times, the deck has {encounter.copies}"
                )
        for i, skill in enumerate(cards.skills):
            held = self.skill_deck[i] + self.skill_discard[i] + self.skills.count(i) + self.skill_offer.count(i)
            if held != 1:
                raise StateFormatError(f"state.skills: skill {skill.name!r} appears {held} times, not once")
        for name in ("conditions_active", "conditions_next"):
            if any(not 0 <= c < len(cards.conditions) for c in getattr(self, name)):
                raise StateFormatError(f"state.{name}: unknown condition index")
        if any(not 0 <= c < len(cards.conditions) for c in self.conditions_now):
            raise StateFormatError("state.conditions_now: unknown condition index")
        if self.outcome not in (-1, 0, 1):
            raise StateFormatError("state.outcome: -1 lost, 0 ongoing, 1 won")
        if (self.phase == GAME_OVER) != (self.outcome != 0):
            raise StateFormatError("state.outcome: a finished game (phase GAME_OVER) needs an outcome and vice versa")
        if len(self.revealed_cards) > MAX_REVEAL or len(self.skill_offer) > MAX_SKILL_OFFER:
            raise StateFormatError("state.revealed_cards: too many revealed cards")

    # ------------------------------------------------------------------ chance
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

    def chance_label(self, outcome: int) -> str:
        """Label of a chance outcome at this node."""
        phase = self.phase
        if phase == CHANCE_ENCOUNTER_DRAW:
            return f"reveal encounter {self.cards.encounters[outcome].name}"
        if phase == CHANCE_SKILL_DRAW:
            return f"reveal skill {self.cards.skills[outcome].name}"
        if phase == CHANCE_CHARACTER:
            return f"character {self.cards.characters[outcome].name}"
        if phase == CHANCE_SETUP_MONSTER:
            return f"level {self.setup_level} monster: d6 = {outcome} (face down)"
        return f"d6 = {outcome}"

    def _apply_chance(self, outcome: int) -> None:
        phase = self.phase
        if phase == CHANCE_ENCOUNTER_DRAW:
            self.encounter_deck[outcome] -= 1
            self.__dict__.pop("deck_view", None)
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
            self.skill_deck[outcome] -= 1
            self.__dict__.pop("deck_view", None)
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

    def can_pay(self, bag: Bag, extra: Bag = ()) -> bool:
        """Whether the bag (plus `extra`) can be spent; higher effort may pay for lower effort."""
        resources = self.resources
        small = medium = large = 0
        if extra:
            merged: dict[int, int] = {}
            for r, amount in (*bag, *extra):
                merged[r] = merged.get(r, 0) + amount
            items: Any = merged.items()
        else:
            items = bag
        for r, amount in items:
            if r == SMALL_EFFORT:
                small += amount
            elif r == MEDIUM_EFFORT:
                medium += amount
            elif r == LARGE_EFFORT:
                large += amount
            elif resources[r] < amount:
                return False
        # Effort: the highest category has the fewest payers, so it is settled first.
        spare_large = resources[LARGE_EFFORT] - large
        if spare_large < 0:
            return False
        spare_medium = resources[MEDIUM_EFFORT] - medium
        if spare_medium < 0:
            spare_large += spare_medium
            spare_medium = 0
            if spare_large < 0:
                return False
        return resources[SMALL_EFFORT] + spare_medium + spare_large >= small

    def _pay(self, bag: Bag, extra: Bag = ()) -> bool:
        """Spend a bag if possible (see RULES.md for which effort pays); returns False and spends nothing if not."""
        if not self.can_pay(bag, extra):
            return False
        resources = self.resources
        need = [0, 0, 0]
        for r, amount in (bag + extra) if extra else bag:
            if r in EFFORTS:
                need[r] += amount
            else:
                resources[r] -= amount
        for category in (LARGE_EFFORT, MEDIUM_EFFORT, SMALL_EFFORT):
            amount = need[category]
            payer = category
            while amount:  # can_pay guarantees the payers suffice
                used = amount if amount < resources[payer] else resources[payer]
                resources[payer] -= used
                amount -= used
                payer += 1
        return True

    def _pay_or_fall(self, bag: Bag, reason: str) -> bool:
        """A required effort payment: if it cannot be made, the player is defeated. Returns True if paid."""
        if self._pay(bag):
            return True
        self._lose(reason)
        return False

    def _lose(self, reason: str) -> None:
        self.outcome = -1
        self.end_reason = reason
        self.phase = GAME_OVER

    def _ability_uses_for(self, level: int) -> int:
        penalty = sum(self.cards.conditions[c].modifiers.get("ability_uses_penalty", 0) for c in self.conditions_active)
        return max(0, level - penalty)

    def _modifiers(self) -> dict[str, Any]:
        """Totals of every condition modifier and skill passive, recomputed only when those cards change."""
        cache = self.__dict__.get("_modifier_cache")
        if cache is not None:
            return cache
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
        self._modifier_cache = values
        return values

    def _touch_modifiers(self) -> None:
        """Forget the modifier totals: skills or conditions changed."""
        self.__dict__.pop("_modifier_cache", None)

    def _condition_total(self, key: str) -> int:
        """Sum of an integer modifier over active conditions (level and immediate)."""
        return self._modifiers().get(key, 0)

    def _condition_flag(self, key: str) -> bool:
        """Whether any active condition sets a flag modifier."""
        return self._modifiers().get(key, False)

    def _condition_bag(self, key: str) -> Bag:
        """The resource bags of a modifier over active conditions, concatenated."""
        return self._modifiers().get(key, ())

    def _passive_total(self, key: str) -> int:
        """Sum of an integer passive over the player's skills."""
        return self._modifiers().get(_SKILL_KEYS[key], 0)

    def _ignores(self, effect_kind: str) -> bool:
        """Whether a skill makes the player ignore a monster effect kind."""
        return effect_kind in self._modifiers().get("skill:ignore", ())

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

    def scout_cost(self) -> Bag:
        """The Scout cost of the current level (a skill may waive its small effort)."""
        cost = self.cards.display.general.scout_cost_by_level[self.level]
        if self._modifiers().get("skill:scout_discount", False):
            cost = tuple((r, a) for r, a in cost if r != SMALL_EFFORT)
        return cost

    def reveal_count(self) -> int:
        """Cards revealed by the next (uncommitted) exploration: 2, changed by effects (RULES.md)."""
        modifiers = self._modifiers()
        count = self.cards.display.exploration_reveal + self.reveal_bonus + modifiers.get("skill:reveal_bonus", 0)
        change = modifiers.get("reveal_modifier", 0)
        if self.preset.reveal_can_decrease:
            count = max(1, count + change)
        else:
            count += max(0, change)
        return min(MAX_REVEAL, count)

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
        self.encounter_deck = [a + b for a, b in zip(self.encounter_deck, self.encounter_discard, strict=True)]
        self.__dict__.pop("deck_view", None)
        self.encounter_discard = [0] * len(self.encounter_discard)

    def _choose_card(self, index: int) -> None:
        """Choose one revealed card; the others go to the encounter discard pile."""
        for i, card in enumerate(self.revealed_cards):
            if i != index:
                self.encounter_discard[card] += 1
        self.chosen_card = self.revealed_cards[index]
        self.revealed_cards = []
        self.phase = DECIDE_ENCOUNTER_OR_REST

    def rest_gain(self, card: int) -> int:
        """Small effort gained by resting on a card: its time value, changed by skills and conditions."""
        gain = self.cards.encounters[card].time + self._passive_total("rest_bonus")
        return max(0, gain - self._condition_total("rest_penalty"))

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
    def _reveal_monster(self, context: int) -> None:
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

    def monster(self) -> int:
        """Index of this level's monster (-1 if not chosen yet); check monster_revealed before showing it."""
        return self.monsters[self.level - 1]

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

    def monster_health(self) -> int:
        """The monster's health value (changed by effects under the Spanish printing)."""
        return max(1, self.cards.monsters[self.monster()].health + self.health_delta)

    def monster_armor(self) -> int:
        """The monster's armor value (changed by effects under the Spanish printing)."""
        return max(0, self.cards.monsters[self.monster()].armor + self.armor_delta)

    def armor_left(self) -> int:
        """Armor still to break before wounds land."""
        return max(0, self.monster_armor() - self.armor_broken)

    def _player_turn(self) -> None:
        """Start of the player's turn: conditions that cost effort each turn, or skip the turn."""
        loss = self._condition_bag("round_loss")
        if loss and not self._pay_or_fall(loss, "could not pay the effort a condition demands each turn"):
            return
        if self._condition_flag("skip_turn"):
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

    def modified_roll(self) -> int:
        """The combat roll after modifiers (clamped to 1..6 under the Spanish printing)."""
        monster = self.cards.monsters[self.monster()]
        value = (
            self.roll
            + self.reaction_modifier
            + self._condition_total("monster_roll_modifier")
            + monster.modifiers.get("roll_modifier", 0)
        )
        if self.preset.clamp_monster_roll:
            value = min(6, max(1, value))
        return value

    def _resolve_monster_roll(self) -> None:
        """Apply the combat table row of the (modified) roll; re-roll a condition already gained for next level."""
        value = self.modified_roll()
        monster = self.cards.monsters[self.monster()]
        if 1 <= value <= 6:
            row = monster.combat[value - 1]
            for kind, argument in row.effects:
                if kind == "condition" and argument[1] == "next_level" and argument[0] in self.conditions_next:
                    self.phase = CHANCE_MONSTER_ROLL  # reroll
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
        for condition in list(self.conditions_now):
            rounds = self.conditions_now[condition]
            if rounds > 0:
                if rounds == 1:
                    del self.conditions_now[condition]
                    self._touch_modifiers()  # the totals depend on which conditions are in force, not their rounds
                else:
                    self.conditions_now[condition] = rounds - 1
        if self.aside_weapon >= 0:
            self.aside_rounds -= 1
            if self.aside_rounds <= 0:
                self._return_aside_weapon()

    def _return_aside_weapon(self) -> None:
        if self.aside_weapon >= 0 and self.aside_weapon not in self.weapons:
            self.weapons.append(self.aside_weapon)
        self.aside_weapon = -1
        self.aside_rounds = 0

    def _monster_effect_applicable(self, kind: str, argument: Any) -> bool:
        if kind == "lose":
            return all(r in EFFORTS or self.resources[r] >= amount for r, amount in argument)
        if kind == "regain_armor":
            return self.armor_broken > 0
        if kind == "heal":
            return self.wounds > 0
        if kind == "defend":
            return not self.defending
        if kind == "downgrade_weapon":
            return len(self.weapons) > 1
        return True

    def _apply_monster_effects(self, effects: tuple[Effect, ...], alt: tuple[Effect, ...] | None) -> None:
        """Apply a monster effect; if it cannot be applied, its bracketed alternative (or nothing)."""
        if any(self._ignores(kind) for kind, _ in effects):
            return
        if not all(self._monster_effect_applicable(kind, arg) for kind, arg in effects):
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
        self._touch_modifiers()
        if condition in self.conditions_now:
            current = self.conditions_now[condition]
            if self.preset.extend_immediate_condition and current > 0:
                self.conditions_now[condition] = current + rounds if rounds > 0 else -1
            return
        self.conditions_now[condition] = rounds

    def _end_battle(self, defeated: bool) -> None:
        """Leave the battle: immediate conditions end, a set-aside weapon returns; then Rewards or Hunger."""
        self.conditions_now = {}
        self._touch_modifiers()
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
    def _start_skill_draw(self, after: int) -> None:
        """Reveal the top two skill cards (more with skills), keep one."""
        self.after_skill = after
        self.skill_offer = []
        self.skill_target = min(
            MAX_SKILL_OFFER, self.cards.display.skill_reveal + self._passive_total("skill_reveal_bonus")
        )
        self._continue_skill_draw()

    def _continue_skill_draw(self) -> None:
        if len(self.skill_offer) < self.skill_target:
            if sum(self.skill_deck) == 0:
                self.skill_deck = [a + b for a, b in zip(self.skill_deck, self.skill_discard, strict=True)]
                self.__dict__.pop("deck_view", None)
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
                self.skills.append(skill)
                self._touch_modifiers()
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
    def food_requirement(self) -> int:
        """Food requirement: the level of the monster just faced, changed by conditions and skills."""
        modifiers = self._modifiers()
        requirement = self.level + modifiers.get("food_requirement", 0) + modifiers.get("skill:food_requirement", 0)
        return requirement if requirement > 0 else 0

    def _start_hunger(self) -> None:
        if self.food_requirement() == 0:
            self._end_level()
        else:
            self.phase = DECIDE_HUNGER

    @staticmethod
    def starvation_cost(missing: int) -> int:
        """Small effort for food not eaten: 1 for the first, 2 for the second, ... (1 + 2 + ... + missing)."""
        return missing * (missing + 1) // 2

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
            self.outcome = 1
            self.end_reason = "defeated the level IV monster" if not self.tricked else "escaped"
            self.phase = GAME_OVER
            return
        self.level += 1
        self.conditions_active = self.conditions_next
        self.conditions_next = []
        self._touch_modifiers()
        self.ability_uses = self._ability_uses_for(self.level)
        self.used_once = []
        self.monster_revealed = False
        self.tricked = False
        self.ambushed = False
        self.wounds = self.armor_broken = self.health_delta = self.armor_delta = 0
        penalty = self._condition_total("start_time_penalty")
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
            if not self._condition_flag("no_weapon"):
                extra = self._weapon_extra_cost()
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

    def _weapon_extra_cost(self) -> Bag:
        return self.cards.monsters[self.monster()].attack_extra_cost + self._condition_bag("weapon_extra_cost")

    def _general_extra_cost(self) -> Bag:
        return self._condition_bag("general_action_extra_cost")

    def _general_actions(self, legal: list[int], in_combat: bool) -> None:
        """General actions, craft/downgrade, character abilities and skills usable now."""
        ids = self.ids
        general = self.cards.display.general
        extra = self._general_extra_cost()
        for action_id, card in self.game.conversion_actions:
            if self._timing_ok(card.timing, in_combat) and self.can_pay(card.cost, extra):
                legal.append(action_id)
        if not in_combat:
            if not self.monster_revealed and self._can_pay_with_time(self.scout_cost(), extra):
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
                and self._can_craft(upgrade.cost, upgrade.time, in_combat)
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

    @staticmethod
    def _timing_ok(timing: str, in_combat: bool) -> bool:
        return timing == "any" or (timing == "combat") == in_combat

    def _card_usable(self, card: ActionCard, action_id: int, in_combat: bool) -> bool:
        if not self._timing_ok(card.timing, in_combat):
            return False
        if card.once_per_level and action_id in self.used_once:
            return False
        if not in_combat and any(kind == "reveal_monster" for kind, _ in card.effects) and self.monster_revealed:
            return False
        if self.committed and any(kind == "reveal_bonus" for kind, _ in card.effects):
            return False  # a committed exploration reveals exactly one card: extra reveals would be wasted
        return self._can_pay_with_time(card.cost)

    def _can_pay_with_time(self, cost: Bag, extra: Bag = ()) -> bool:
        """Costs with time: in travel time must be available; in level IV's combat it is paid as small effort."""
        rest, time = split_time(cost)
        return self._can_craft(rest, time, self._in_combat_phase(), extra)

    def _in_combat_phase(self) -> bool:
        return self.phase in (DECIDE_PLAYER_TURN, DECIDE_REACTION)

    def _can_craft(self, cost: Bag, time: int, in_combat: bool, extra: Bag = ()) -> bool:
        if in_combat and self.level == FINAL_LEVEL:
            return self.can_pay(cost, extra + ((SMALL_EFFORT, time),) if time else extra)
        return self.can_pay(cost, extra) and (time == 0 or self.resources[TIME] >= time)

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
        self._pay(card.cost, self._general_extra_cost())
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
        self._pay_with_time(self.scout_cost(), self._general_extra_cost())
        self._reveal_monster(REVEAL_FOR_SCOUT)

    def _do_orienteer(self, _: int) -> None:
        general = self.cards.display.general
        self._pay(general.orienteer_cost, self._general_extra_cost())
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
        self._pay(attack.cost, self._weapon_extra_cost())
        if self.defending:
            self.defending = False
        elif attack.break_armor:
            self.armor_broken = min(self.monster_armor(), self.armor_broken + attack.break_armor)
        else:
            self._wound(self.attack_wounds(index), attack.ignore_armor)
        self._end_player_turn()

    def attack_wounds(self, index: int) -> int:
        """Wounds one weapon attack inflicts now (skills add, conditions subtract, specials cap)."""
        weapon = self.cards.weapons[self.weapons[-1]]
        wounds = weapon.attacks[index].wounds
        skills = self.cards.skills
        for s in self.skills:
            bonus = skills[s].passive.get("wound_bonus")
            if bonus is not None and bonus[0] in ("any", weapon.kind):
                wounds += bonus[1]
        wounds = max(0, wounds - self._condition_total("wound_penalty"))
        cap = self.cards.monsters[self.monster()].modifiers.get("wound_cap")
        return wounds if cap is None else min(wounds, cap)

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
                self._touch_modifiers()
                if self.conditions_active:
                    self.conditions_active.pop(0)
                elif self.conditions_now:
                    del self.conditions_now[next(iter(self.conditions_now))]
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


_HANDLERS = {
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

__all__ = ["MAX_EAT", "PHASE_NAMES", "UnbrokenGame", "UnbrokenState"]
