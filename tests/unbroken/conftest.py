"""Helpers for Unbroken rule scenarios: games, card look-ups by name, and states built with State.from_dict.

Scenarios name the cards they use and read every number they expect from the card data, so a rebalance of the
designed content does not break a test that checks a rule (a test asserts the card property it relies on).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any

import pytest

from envs.unbroken.cards import RESOURCE_INDEX, RESOURCES, ActionCard, Bag, CardSet, Monster, load_cards
from envs.unbroken.game import UnbrokenGame
from envs.unbroken.rules import UnbrokenState
from envs.unbroken.state import FINAL_LEVEL, Phase

KIRA = "Kira the Huntress"
"""The character of the Spanish rulebook's hunger example."""


# ---------------------------------------------------------------------------------------------- games
def new_game(
    preset: str = "english",
    difficulty: str = "normal",
    character: str = KIRA,
    cards: CardSet | None = None,
) -> UnbrokenGame:
    """A game with a fixed character (so setup starts with the monster deck, not a character draw)."""
    return UnbrokenGame(difficulty=difficulty, preset=preset, character=character, cards=cards)


@pytest.fixture
def english() -> UnbrokenGame:
    """Normal difficulty, English printing, Kira."""
    return new_game("english")


@pytest.fixture
def spanish() -> UnbrokenGame:
    """Normal difficulty, Spanish printing, Kira."""
    return new_game("spanish")


@pytest.fixture(params=["english", "spanish"])
def game(request: pytest.FixtureRequest) -> UnbrokenGame:
    """Normal difficulty in each printing: for rules both printings share."""
    return new_game(request.param)


# ---------------------------------------------------------------------------------------------- card look-ups
def index_by_name(items: Iterable[Any], name: str, kind: str) -> int:
    """Index of the card called `name` (a clear failure if the content has no such card)."""
    names = [item.name for item in items]
    assert name in names, f"the content has no {kind} named {name!r} (it has {names})"
    return names.index(name)


def monster_index(game: UnbrokenGame, name: str) -> int:
    """Index of a monster sheet by name."""
    return index_by_name(game.cards.monsters, name, "monster")


def monster_card(game: UnbrokenGame, name: str) -> Monster:
    """A monster sheet by name."""
    return game.cards.monsters[monster_index(game, name)]


def weapon_index(game: UnbrokenGame, name: str) -> int:
    """Index of a weapon sheet by name."""
    return index_by_name(game.cards.weapons, name, "weapon")


def skill_index(game: UnbrokenGame, name: str) -> int:
    """Index of a skill card by name."""
    return index_by_name(game.cards.skills, name, "skill")


def condition_index(game: UnbrokenGame, name: str) -> int:
    """Index of a condition card by name."""
    return index_by_name(game.cards.conditions, name, "condition")


def encounter_index(game: UnbrokenGame, name: str) -> int:
    """Index of an encounter card by name."""
    return index_by_name(game.cards.encounters, name, "encounter")


def ability_action(game: UnbrokenGame, ability_name: str) -> int:
    """Action id of one of the game's character's abilities, by ability name."""
    character = game.cards.characters[game.character]
    slot = index_by_name(character.abilities, ability_name, "ability")
    return game.actions.ability + game.character * 2 + slot


def face_where(monster: Monster, predicate: Callable[[tuple], bool], what: str) -> int:
    """The first die face (1..6) whose combat row satisfies `predicate(row.effects)`."""
    for face, row in enumerate(monster.combat, start=1):
        if predicate(row.effects):
            return face
    raise AssertionError(f"{monster.name} has no combat row with {what}")


def only_small_effort_loss(effects: tuple) -> bool:
    """A row that is exactly one loss of small effort."""
    return (
        len(effects) == 1
        and effects[0][0] == "lose"
        and all(r == RESOURCE_INDEX["small_effort"] for r, _ in effects[0][1])
    )


def names(bag: Bag) -> dict[str, int]:
    """A resource bag as {resource name: amount}."""
    out: dict[str, int] = {}
    for r, amount in bag:
        out[RESOURCES[r]] = out.get(RESOURCES[r], 0) + amount
    return out


def res(state: UnbrokenState) -> dict[str, int]:
    """The state's resources by name."""
    return dict(zip(RESOURCES, state.resources, strict=True))


def with_monster(cards: CardSet, name: str, **changes: Any) -> CardSet:
    """A copy of the card set with one monster sheet changed (for rules no shipped card exercises)."""
    monsters = tuple(dataclasses.replace(m, **changes) if m.name == name else m for m in cards.monsters)
    return dataclasses.replace(cards, monsters=monsters)


def with_skill(cards: CardSet, name: str, **changes: Any) -> CardSet:
    """A copy of the card set with one skill card changed."""
    skills = tuple(dataclasses.replace(s, **changes) if s.name == name else s for s in cards.skills)
    return dataclasses.replace(cards, skills=skills)


def with_combat_skill(cards: CardSet, name: str, effects: tuple) -> CardSet:
    """A copy of the card set where skill `name` is a free combat action with `effects` (for effects no shipped
    card has)."""
    action = ActionCard(name=name, timing="combat", cost=(), effects=effects, once_per_level=False)
    return with_skill(cards, name, action=action)


def shipped_cards() -> CardSet:
    """The shipped card set."""
    return load_cards()


# ---------------------------------------------------------------------------------------------- states
def resource_list(game: UnbrokenGame, amounts: dict[str, int]) -> list[int]:
    """A resources list: every resource 0 except those named."""
    values = [0] * len(RESOURCES)
    for name, amount in amounts.items():
        values[RESOURCE_INDEX[name]] = amount
    return values


def default_monsters(game: UnbrokenGame, chosen: dict[int, int], current_level: int = 1) -> list[int]:
    """The monster of each level: those chosen, else the one numbered 1 where it has been drawn by now (English:
    every level at setup; Spanish: the levels already played), else none."""
    monsters = []
    for level in range(1, FINAL_LEVEL + 1):
        if level in chosen:
            monsters.append(chosen[level])
        elif game.preset.monster_drawn_at_setup or level < current_level:
            monsters.append(game.cards.monster_index(level, 1))
        else:
            monsters.append(-1)
    return monsters


def make_state(game: UnbrokenGame, phase: Phase, level: int = 1, res: dict[str, int] | None = None, **fields: Any):
    """A state from a dict: setup values, then `fields`; resources start from setup (13 small effort, 7 time).

    `fields` hold content indices (found by name with the helpers above); they are written as a state dict by the
    state's own `to_dict` (names) and read back with `state_from_dict`, which checks the position. Decks are adjusted
    so that cards put in hand/offer/revealed are taken out of the deck (card conservation).
    """
    cards = game.cards
    amounts = {"small_effort": game.setting["starting_small_effort"], "time": cards.display.time_skull[1]}
    amounts.update(res or {})
    data: dict[str, Any] = {"phase": phase, "level": level, "resources": resource_list(game, amounts)}
    data.update(fields)
    if "monsters" not in data:
        data["monsters"] = default_monsters(game, {}, level)
    if "skill_deck" not in data:
        held = [*data.get("skills", []), *data.get("skill_offer", [])]
        discard = data.get("skill_discard", [0] * len(cards.skills))
        data["skill_deck"] = [1 - held.count(i) - discard[i] for i in range(len(cards.skills))]
    if "encounter_deck" not in data:
        held = list(data.get("revealed_cards", []))
        if data.get("chosen_card", -1) >= 0:
            held.append(data["chosen_card"])
        discard = data.get("encounter_discard", [0] * len(cards.encounters))
        data["encounter_deck"] = [e.copies - held.count(i) - discard[i] for i, e in enumerate(cards.encounters)]
    if "ability_uses" not in data:
        data["ability_uses"] = level
    if "setup_level" not in data and phase != Phase.CHANCE_SETUP_MONSTER:
        data["setup_level"] = FINAL_LEVEL
    values = UnbrokenState(game)
    values.setup()
    for name, value in data.items():
        setattr(values, name, value)
    return game.state_from_dict(values.to_dict())


def travel_state(game: UnbrokenGame, level: int = 1, monster: str | None = None, **fields: Any) -> UnbrokenState:
    """Preparation/decision step of a level (the level's monster face down unless monster_revealed is given)."""
    chosen = {}
    if monster is not None:
        card = monster_card(game, monster)
        assert card.level == level, f"{monster} is a level {card.level} monster, not level {level}"
        chosen[level] = monster_index(game, monster)
    fields.setdefault("monsters", default_monsters(game, chosen, level))
    return make_state(game, Phase.DECIDE_TRAVEL, level=level, **fields)


def combat_time(game: UnbrokenGame, level: int) -> int:
    """Time after the monster was revealed: the next level's skull (0 at level IV)."""
    return game.cards.display.time_skull[level + 1] if level < FINAL_LEVEL else 0


def combat_state(game: UnbrokenGame, monster: str, phase: Phase = Phase.DECIDE_PLAYER_TURN, **fields: Any):
    """Battle step against `monster` (round 1, monster revealed, time reset to the next level's skull)."""
    card = monster_card(game, monster)
    level = card.level
    res = {"small_effort": 13, "time": combat_time(game, level)}
    res.update(fields.pop("res", {}))
    fields.setdefault("monsters", default_monsters(game, {level: monster_index(game, monster)}, level))
    fields.setdefault("monster_revealed", True)
    fields.setdefault("round", 1)
    if level == FINAL_LEVEL and game.preset.remove_time_token_at_level_four:
        fields.setdefault("time_token_removed", True)
    return make_state(game, phase, level=level, res=res, **fields)


def roll_state(game: UnbrokenGame, monster: str, **fields: Any) -> UnbrokenState:
    """The monster's turn: a CHANCE_MONSTER_ROLL node against `monster`."""
    return combat_state(game, monster, phase=Phase.CHANCE_MONSTER_ROLL, **fields)


def hunger_state(game: UnbrokenGame, monster: str, **fields: Any) -> UnbrokenState:
    """The Hunger step after defeating `monster` (its level is the food requirement)."""
    card = monster_card(game, monster)
    res = {"small_effort": 13, "time": combat_time(game, card.level)}
    res.update(fields.pop("res", {}))
    fields.setdefault("monsters", default_monsters(game, {card.level: monster_index(game, monster)}, card.level))
    fields.setdefault("monster_revealed", True)
    return make_state(game, Phase.DECIDE_HUNGER, level=card.level, res=res, **fields)


def apply_all(state: UnbrokenState, *actions: int) -> UnbrokenState:
    """Apply decisions and chance outcomes in order (each checked)."""
    for action in actions:
        state.apply_action(action)
    return state


def skull(game: UnbrokenGame, level: int) -> int:
    """Time at the skull icon of a level."""
    return game.cards.display.time_skull[level]
