"""Runebound combat's game: the configuration of one combat (hero, enemy or its trait, Act, how the enemy chooses,
content) that makes states, observers and text.

The rules themselves are in rules.py, the observation in observer.py, the text and the picture in render.py; the state
is declared in state.py and checked in validation.py.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, ClassVar

from envs.core.engine import new_frame
from envs.core.game import CHANCE, Game, GameSpec, Observer
from envs.core.keywords import keyword_checked
from envs.core.record import NameTables
from envs.runebound.actions import ACTIONS, CombatActions
from envs.runebound.cards import ACTS, EnemyAbility, Face, RuneboundCards, Trait, load_runebound_cards
from envs.runebound.presets import PRESETS, RulePreset, get_preset
from envs.runebound.rules import CombatState
from envs.runebound.state import (
    LOADOUT,
    MAX_GAME_LENGTH,
    NOWHERE,
    WEAPON_RULES,
    Held,
    Kind,
    Outcome,
    make_held,
    name_tables,
)
from envs.runebound.symbols import Symbol

RANDOM = "random"
"""The `hero` / `enemy` value that draws one at setup (a chance event)."""
ALL_TRAITS = "all"
"""The `trait` value that draws the enemy from every trait."""
FLIGHT_RETURNS = {"draw": 0.0, "defeat": -1.0}
"""What a flight returns under reward="win", by the `flight` setting: the one-combat env has no board to flee to."""


def _uniform(items: range | tuple[int, ...]) -> tuple[tuple[int, float], ...]:
    return tuple((item, 1.0 / len(items)) for item in items)


class RuneboundCombatGame(Game):
    """One Runebound combat: a hero against an enemy (named, or drawn from a trait or all four), in Act I or II."""

    KWARG_MEANINGS: ClassVar[dict[str, str]] = {
        "hero": "a hero's name, or random (drawn at setup as a chance event)",
        "enemy": "an enemy's name, or random (drawn at setup from the trait's enemies)",
        "trait": "Warrior, Mystic, Savage, Trickster, or all: the traits a random enemy is drawn from",
        "act": "I or II: the enemy casts 4 + Act tokens, and the hero carries its Act's weapons",
        "enemy_choice": "detrimental (the enemy picks what hurts the hero most) or two_damage (2 damage instead)",
        "flight": "draw (a flight returns 0, as a draw at the round cap) or defeat (a flight returns -1, as a defeat): "
        "what a flight is worth under reward='win'",
        "weapons": "loadout (the hero carries its Act's weapons, and a position loaded from a dict must too) or any (a "
        "position loaded from a dict may give the hero any weapons, each once, as a position set up by hand may; a new "
        "combat still deals the loadout)",
        "cards": "a RuneboundCards already loaded (from Python only): content to play with instead of the shipped one",
        "card_directory": "a folder of content YAML in the shipped schema, used instead of the shipped content",
    }

    @keyword_checked("RuneboundCombatGame")
    def __init__(
        self,
        hero: str = RANDOM,
        enemy: str = RANDOM,
        trait: str = ALL_TRAITS,
        act: str | int = "I",
        enemy_choice: str | RulePreset = "detrimental",
        flight: str = "draw",
        weapons: str = LOADOUT,
        cards: RuneboundCards | None = None,
        card_directory: str | Path | None = None,
    ) -> None:
        if cards is not None and not isinstance(cards, RuneboundCards):
            raise TypeError(f"cards must be a RuneboundCards (envs.runebound.cards), got {type(cards).__name__}")
        self.cards: RuneboundCards = cards if cards is not None else load_runebound_cards(card_directory)
        self.card_directory = card_directory
        self.act = self._act(act)
        self.preset = get_preset(enemy_choice)
        if flight not in FLIGHT_RETURNS:
            raise ValueError(f"unknown flight {flight!r}; choose one of {list(FLIGHT_RETURNS)}")
        self.flight = flight
        self.flight_return = FLIGHT_RETURNS[flight]
        """What `returns()` gives the hero for a flight (RULES.md, "Reward modes")."""
        if weapons not in WEAPON_RULES:
            raise ValueError(f"unknown weapons {weapons!r}; choose one of {list(WEAPON_RULES)}")
        self.weapons = weapons
        """Whether a loaded position's hero carries exactly its Act's loadout (validation.py) or any weapons."""
        self.hero_choice = self._named("hero", hero, [h.name for h in self.cards.heroes])
        self.trait_name, self.enemy_pool = self._enemy_pool(trait, enemy)
        self.enemy_choice = NOWHERE if enemy == RANDOM else self.enemy_pool[0]
        self.faces: tuple[tuple[Face, Face], ...] = tuple(token.faces for token in self.cards.tokens)
        """Each token's two faces, by token index."""
        self.hero_ability_base = self._bases([len(hero.abilities) for hero in self.cards.heroes])
        self.enemy_ability_base = self._bases([len(enemy.abilities) for enemy in self.cards.enemies])
        cards = self.cards
        self.enemy_traits: tuple[Trait, ...] = tuple(cards.traits[trait] for trait in cards.enemy_trait)
        """Each enemy's trait record, by enemy index."""
        self.enemy_spaces: tuple[tuple[int, ...], ...] = tuple(
            tuple(trait.board.space_of(symbol) for symbol in Symbol) for trait in self.enemy_traits
        )
        """Each enemy's board space by symbol (`Board.space_of`; -1: none), by enemy index."""
        self.hero_surge_costs: tuple[bool, ...] = tuple(
            any(ability.cost.symbol == Symbol.SURGE for ability in hero.abilities) for hero in cards.heroes
        )
        """Whether each hero has an ability paid with surges."""
        self.enemy_surge_abilities: tuple[bool, ...] = tuple(
            any(ability.surge for ability in enemy.abilities) for enemy in cards.enemies
        )
        """Whether each enemy has a surge ability."""
        self.enemy_agility_abilities: tuple[tuple[EnemyAbility, ...], ...] = tuple(
            tuple(ability for ability in enemy.abilities if not ability.surge) for enemy in cards.enemies
        )
        """Each enemy's agility abilities (those not paid with surges), in card order."""
        self._starting_tokens: dict[tuple[int, int], tuple[tuple[Held, ...], tuple[Held, ...]]] = {}
        self.hero_outcomes = _uniform(range(len(self.cards.heroes)))
        self.enemy_outcomes = _uniform(self.enemy_pool)
        self.actions: CombatActions = ACTIONS
        self.spec = GameSpec(
            name="runebound_combat",
            num_players=1,
            num_actions=ACTIONS.size,
            max_game_length=MAX_GAME_LENGTH,
            utility="solo",
            information="perfect",
            reward_modes=("win", "score"),
            extra={
                "act": ACTS[self.act - 1],
                "trait": self.trait_name,
                "enemy_choice": self.preset.name,
                "flight": flight,
            },
        )
        self._observer: Observer | None = None

    def kwarg_values(self) -> dict[str, tuple[Any, ...]]:
        """`random` or a hero or enemy of the content in play, the traits, the Acts, the presets and flight's values."""
        cards = self.cards
        return {
            "hero": (RANDOM, *(hero.name for hero in cards.heroes)),
            "enemy": (RANDOM, *(enemy.name for enemy in cards.enemies)),
            "trait": (*(trait.name for trait in cards.traits), ALL_TRAITS),
            "act": tuple(ACTS),
            "enemy_choice": tuple(PRESETS),
            "flight": tuple(FLIGHT_RETURNS),
            "weapons": WEAPON_RULES,
        }

    @staticmethod
    def _act(act: Any) -> int:
        if act in ACTS:
            return ACTS.index(act) + 1
        if isinstance(act, int) and not isinstance(act, bool) and act in (1, 2):
            return int(act)
        raise ValueError(f"unknown act {act!r}; choose one of {list(ACTS)}")

    @staticmethod
    def _named(what: str, value: Any, names: list[str]) -> int:
        if value == RANDOM:
            return NOWHERE
        if isinstance(value, str) and value in names:
            return names.index(value)
        raise ValueError(f"unknown {what} {value!r}; choose {RANDOM!r} or one of {names}")

    def _enemy_pool(self, trait: Any, enemy: Any) -> tuple[str, tuple[int, ...]]:
        """The trait's name (or "all") and the enemies a random draw picks from (the named enemy alone)."""
        cards = self.cards
        traits = [t.name for t in cards.traits]
        if trait != ALL_TRAITS and (not isinstance(trait, str) or trait not in traits):
            raise ValueError(f"unknown trait {trait!r}; choose {ALL_TRAITS!r} or one of {traits}")
        pool = tuple(i for i, e in enumerate(cards.enemies) if trait == ALL_TRAITS or e.trait == trait)
        if enemy == RANDOM:
            if not pool:
                raise ValueError(f"no enemy has the trait {trait!r}")
            return trait, pool
        index = self._named("enemy", enemy, [e.name for e in cards.enemies])
        if index not in pool:
            raise ValueError(f"enemy {enemy!r} is a {cards.enemies[index].trait}, not a {trait}")
        return cards.enemies[index].trait, (index,)

    @staticmethod
    def _bases(counts: list[int]) -> tuple[int, ...]:
        bases, total = [], 0
        for count in counts:
            bases.append(total)
            total += count
        return tuple(bases)

    def starting_tokens(self, hero: int, enemy: int) -> tuple[tuple[Held, ...], tuple[Held, ...]]:
        """Both sides' tokens before a cast: the hero's own then its Act's weapons', the enemy's first 4 + Act."""
        key = (hero, enemy)
        tokens = self._starting_tokens.get(key)
        if tokens is None:
            tokens = self._starting_tokens[key] = (
                tuple(make_held(token) for token in self.cards.hero_tokens(hero, self.act)),
                tuple(make_held(token) for token in self.cards.enemy_tokens(enemy, self.act)),
            )
        return tokens

    @functools.cached_property
    def name_tables(self) -> NameTables:
        """Content names by table (heroes, enemies, tokens and their faces, symbols, abilities), for saved states."""
        return name_tables(self.cards)

    def new_initial_state(self) -> CombatState:
        """The combat before setup: the draws of a random hero and enemy, then setup and the first round."""
        state = CombatState(
            game=self,
            hero=self.hero_choice,
            enemy=self.enemy_choice,
            tokens=((), ()),
            damage=(0, 0),
            round=0,
            initiative=NOWHERE,
            passed=(False, False),
            charged=(False, False),
            silenced=(False, False),
            barrier=(0, 0),
            round_damage=(0, 0),
            triggered=((), ()),
            outcome=Outcome.ONGOING,
            decisions=0,
            stack=(),
        )
        draws = []
        if self.hero_choice == NOWHERE:
            draws.append(new_frame(CHANCE, Kind.PICK_HERO))
        if self.enemy_choice == NOWHERE:
            draws.append(new_frame(CHANCE, Kind.PICK_ENEMY))
        state._push(*draws, new_frame(0, Kind.SETUP))
        state._run()
        return state

    def state_from_dict(self, data: dict[str, Any]) -> CombatState:
        """The state `CombatState.to_dict` described; StateFormatError naming the first bad field. A hand-written
        position may start on an automatic step (the start of a round, the enemy's action): the rules settle it and
        the settled position is checked again."""
        state = CombatState.from_dict(self, data)
        state.settle_saved()
        return state

    def action_label(self, action: int) -> str:
        """'spend: hero token 2', 'flip: enemy token 3', ... (stable across versions)."""
        return ACTIONS.codec.label(action)

    def observer(self, player: int | None = 0) -> Observer:
        """The hero's view (a solo game's public view, None, is the same)."""
        if player not in (0, None):
            raise ValueError(f"a Runebound combat is solo: seat {player} does not exist (use 0, or None)")
        if self._observer is None:
            from envs.runebound.observer import CombatObserver

            self._observer = CombatObserver(self)
        return self._observer
