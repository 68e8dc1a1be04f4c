"""Runebound combat's game: the configuration of one combat (hero, enemy or its trait, Act, how the enemy chooses,
content) that makes states, observers and text.

The combat's rules are in combat.py, the state that holds them as a whole game in rules.py, the observation in
observer.py, the text and the picture in render.py; the state is declared in state.py and checked in validation.py.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, ClassVar

from envs.core.engine import new_frame
from envs.core.game import CHANCE, GameSpec, Observer
from envs.core.keywords import keyword_checked
from envs.core.record import NameTables
from envs.runebound.actions import ACTIONS, CombatActions
from envs.runebound.cards import ACTS, RuneboundCards, load_runebound_cards
from envs.runebound.combat import CombatContent, combat_frames
from envs.runebound.presets import PRESETS, RulePreset, get_preset
from envs.runebound.rules import SEAT, CombatState
from envs.runebound.state import LOADOUT, MAX_GAME_LENGTH, NOWHERE, WEAPON_RULES, DrawKind, Outcome, name_tables

RANDOM = "random"
"""The `hero` / `enemy` value that draws one at setup (a chance event)."""
ALL_TRAITS = "all"
"""The `trait` value that draws the enemy from every trait."""
FLIGHT_RETURNS = {"draw": 0.0, "defeat": -1.0}
"""What a flight returns under reward="win", by the `flight` setting: the one-combat env has no board to flee to."""


def _uniform(items: range | tuple[int, ...]) -> tuple[tuple[int, float], ...]:
    return tuple((item, 1.0 / len(items)) for item in items)


class RuneboundCombatGame(CombatContent):
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
        self.derive_combat_content()
        self._loadout_tokens: dict[int, tuple[int, ...]] = {}
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

    def loadout_tokens(self, hero: int) -> tuple[int, ...]:
        """The tokens of hero `hero`'s loadout's weapons in the game's Act (what a new combat deals it)."""
        tokens = self._loadout_tokens.get(hero)
        if tokens is None:
            own = len(self.cards.hero_own_tokens(hero))
            tokens = self._loadout_tokens[hero] = self.cards.hero_tokens(hero, self.act)[own:]
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
            combat_tokens=((), ()),
            combat_damage=(0, 0),
            combat_round=0,
            initiative=NOWHERE,
            passed=(False, False),
            charged=(False, False),
            silenced=(False, False),
            barrier=(0, 0),
            combat_round_damage=(0, 0),
            combat_triggered=((), ()),
            combat_outcome=Outcome.ONGOING,
            decisions=0,
            stack=(),
        )
        draws = []
        if self.hero_choice == NOWHERE:
            draws.append(new_frame(CHANCE, DrawKind.PICK_HERO))
        if self.enemy_choice == NOWHERE:
            draws.append(new_frame(CHANCE, DrawKind.PICK_ENEMY))
        state._push(*draws, combat_frames(SEAT).setup)
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
