"""Scripted rule scenarios for Unbroken: one test per row of envs/unbroken/RULES.md ("Rules" table).

Each scenario is set up with `State.from_dict` (helpers in conftest.py) and quotes the rulebook sentence it checks
(the English or the Spanish printing's). Rules on which the printings differ are in test_presets.py.
"""

from __future__ import annotations

import itertools
import json
import pickle

import numpy as np
import pytest

from envs.core.game import IllegalActionError, StateFormatError
from envs.unbroken.cards import RESOURCES, CombatRow
from envs.unbroken.game import UnbrokenGame
from envs.unbroken.state import Phase

from .conftest import (
    KIRA,
    ability_action,
    apply_all,
    combat_state,
    condition_index,
    encounter_index,
    face_where,
    hunger_state,
    make_state,
    monster_card,
    monster_index,
    names,
    new_game,
    only_small_effort_loss,
    res,
    roll_state,
    skill_index,
    skull,
    travel_state,
    weapon_index,
    with_monster,
)

# The rulebook's score table and titles (unbroken.en.txt, "Calculating Your Score").
RULEBOOK_POINTS = {
    "medium_effort": 3,
    "large_effort": 5,
    "cunning": 2,
    "metal": 3,
    "wood": 2,
    "food": 3,
    "treasure": 10,
}
# Appendix D: "metal (1), wood (2), food (3), cunning (4), medium effort (5), or treasure (6)".
EASY_BONUS = {1: "metal", 2: "wood", 3: "food", 4: "cunning", 5: "medium_effort", 6: "treasure"}


def small_loss(effects: tuple) -> int:
    """Small effort lost by a row that is one `lose` of small effort."""
    return names(effects[0][1])["small_effort"]


def at_card(game, card: str, monster: str = "Kobold", level: int = 1, **fields):
    """Exploration step: `card` chosen, deciding to encounter or rest."""
    fields.setdefault("monsters", travel_state(game, level=level, monster=monster).monsters)
    return make_state(
        game, Phase.DECIDE_ENCOUNTER_OR_REST, level=level, chosen_card=encounter_index(game, card), **fields
    )


def draw_until_decision(state) -> None:
    """Reveal encounter cards (first outcome each time) until the player must decide."""
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])


# =============================================================================================== setup
@pytest.mark.parametrize("preset", ["english", "spanish"])
@pytest.mark.parametrize(("difficulty", "small_effort"), [("easy", 13), ("normal", 13), ("hard", 10)])
def test_setup_resources_per_difficulty(preset: str, difficulty: str, small_effort: int) -> None:
    """unbroken.en.txt, Setting up 1-2: "Place a token on the "1" skull icon of your time sheet, to indicate 7 time."
    "Place a token to indicate 13 small effort on your effort sheet, and place 6 tokens on your resource sheet to
    indicate "0" of each resource." Appendix D: "On HARD, you begin the game with only 10 small effort, instead of 13."
    """
    state = new_game(preset, difficulty).new_initial_state()
    expected = dict.fromkeys(RESOURCES, 0)
    expected.update(small_effort=small_effort, time=7)
    assert res(state) == expected


def test_setup_character_ability_bar_and_bare_hands(english) -> None:
    """unbroken.en.txt, Setting up 3-4: "Place a token on the leftmost space of your character sheet's ability bar."
    "Find the Bare Hands weapon sheet and place it in your display." Appendix B: "you can use your character's
    abilities a number of times equal to the current level."
    """
    state = english.new_initial_state()
    assert state.character == english.character
    assert state.weapons == [weapon_index(english, "Bare Hands")]
    assert state.ability_uses == 1
    assert state.level == 1


def test_setup_random_character_is_a_chance_node() -> None:
    """unbroken.en.txt, Setting up 3: "Select a character to play and place that character sheet in your display."
    (RULES.md, node structure: the character is a chance node when `character="random"`.)
    """
    game = UnbrokenGame(preset="english", character="random")
    state = game.new_initial_state()
    assert state.phase == Phase.CHANCE_CHARACTER
    outcomes = state.chance_outcomes()
    assert [o for o, _ in outcomes] == list(range(len(game.cards.characters)))
    assert all(p == pytest.approx(1 / len(outcomes)) for _, p in outcomes)
    state.apply_action(2)
    assert state.character == 2 and state.ability_uses == 1
    assert state.phase == Phase.CHANCE_SETUP_MONSTER


def test_setup_decks_are_shuffled_and_draws_weighted_by_copies(english) -> None:
    """unbroken.en.txt, Setting up 5: "Shuffle the deck of encounter cards and the deck of skill cards separately and
    place them face down ... Set the condition cards in a face-up deck, without shuffling."
    """
    state = travel_state(english)
    assert sum(state.encounter_deck) == 88
    assert sum(state.skill_deck) == len(english.cards.skills) == 24
    state.apply_action(english.actions.explore)
    assert state.phase == Phase.CHANCE_ENCOUNTER_DRAW
    outcomes = dict(state.chance_outcomes())
    assert sum(outcomes.values()) == pytest.approx(1.0)
    for index, card in enumerate(english.cards.encounters):
        assert outcomes[index] == pytest.approx(card.copies / 88)


def test_setup_english_monster_deck_one_per_level_face_down(english) -> None:
    """unbroken.en.txt, Setting up 6: "Form the monster deck by randomly selecting 1 monster sheet for each level.
    Without revealing them, stack the selected monster sheets face down in ascending order."
    """
    state = english.new_initial_state()
    faces = (3, 1, 6, 2)
    for level, face in enumerate(faces, start=1):
        assert state.phase == Phase.CHANCE_SETUP_MONSTER and state.setup_level == level
        outcomes = state.chance_outcomes()
        assert [o for o, _ in outcomes] == [1, 2, 3, 4, 5, 6]
        assert all(p == pytest.approx(1 / 6) for _, p in outcomes)
        state.apply_action(face)
    assert state.monsters == [english.cards.monster_index(level, face) for level, face in enumerate(faces, start=1)]
    assert state.phase == Phase.DECIDE_TRAVEL
    assert not state.monster_revealed
    text = str(state)
    assert "face down" in text
    assert english.cards.monsters[state.monsters[0]].name not in text


# =============================================================================================== resources
def test_resource_bar_excess_is_lost(english) -> None:
    """unbroken.en.txt, Resource types: "You can never have more of any resource than the corresponding resource bar
    has space for; if you would gain more, the excess is lost."
    """
    bar = english.cards.display.bar_maximum[0]
    card = english.cards.encounters[encounter_index(english, "Quiet alcove")]
    assert card.time >= 2
    state = at_card(english, "Quiet alcove", res={"small_effort": bar - 1})
    state.apply_action(english.actions.rest)
    assert res(state)["small_effort"] == bar


def test_effort_higher_category_pays_for_lower(english) -> None:
    """unbroken.en.txt, Effort: "you can spend effort of a higher category in place of effort of a lower category,
    if needed."
    """
    focus = english.cards.display.general.focus
    cost = names(focus.cost)["small_effort"]
    assert set(names(focus.cost)) == {"small_effort"}
    # Short of small effort: medium and large effort make up the difference, one for one.
    state = travel_state(english, res={"small_effort": cost - 2, "medium_effort": 1, "large_effort": 1, "time": 7})
    assert english.actions.focus in state.legal_actions()
    state.apply_action(english.actions.focus)
    after = res(state)
    assert after["small_effort"] == 0
    assert after["large_effort"] == 0
    assert after["medium_effort"] == names(focus.effects[0][1]).get("medium_effort", 0)


def test_effort_payer_finds_any_assignment(english) -> None:
    """unbroken.en.txt, Effort: "Each category is a distinct resource and is spent independently. However, you can
    spend effort of a higher category in place of effort of a lower category". (RULES.md: the automatic payer never
    fails when any assignment exists, one for one.) Exhaustive over small amounts.
    """
    state = travel_state(english)
    amounts = range(4)
    for have in itertools.product(amounts, repeat=3):
        for cost in itertools.product(amounts, repeat=3):
            small, medium, large = cost
            # a: large pays medium, b: large pays small, c: medium pays small
            exists = any(
                large + a + b <= have[2] and medium - a + c <= have[1] and small - b - c <= have[0]
                for a in range(medium + 1)
                for b in range(small + 1)
                for c in range(small + 1 - b)
            )
            state.resources[:3] = list(have)
            bag = tuple((r, n) for r, n in enumerate(cost) if n)
            assert state.can_pay(bag) == exists, (have, cost)
            if exists:
                paid = state.clone()
                assert paid._pay(bag)
                assert min(paid.resources[:3]) >= 0
                assert sum(paid.resources[:3]) == sum(have) - sum(cost)


def test_effort_cannot_pay_means_action_not_legal(english) -> None:
    """unbroken.en.txt, Preparation step: "For each action you take, you must spend the listed resources. If you
    don't have the resources, you cannot take the action." (A lower category never pays for a higher one.)
    """
    inspiration = english.cards.display.general.inspiration
    medium = names(inspiration.cost)["medium_effort"]
    state = travel_state(english, res={"small_effort": 20, "medium_effort": medium - 1, "time": 7})
    assert english.actions.inspiration not in state.legal_actions()
    with pytest.raises(IllegalActionError):
        state.apply_action(english.actions.inspiration)
    focus_cost = names(english.cards.display.general.focus.cost)["small_effort"]
    state = travel_state(english, res={"small_effort": focus_cost - 1, "time": 7})
    assert english.actions.focus not in state.legal_actions()


# =============================================================================================== travel phase
def test_preparation_offers_travel_not_combat_actions(english) -> None:
    """unbroken.en.txt, Preparation step: "(At this time, you can take actions specified as "travel actions" or
    "general actions," but not "combat actions.")" Battle step: "(At this time, you can take actions specified as
    "combat actions" or "general actions," but not "travel actions.")"
    """
    ids = english.actions
    forage, aimed_shot = ability_action(english, "Forage"), ability_action(english, "Aimed Shot")
    travel = travel_state(english).legal_actions()
    assert {ids.explore, ids.face_monster, ids.focus, ids.plan, ids.scout, ids.orienteer, forage} <= set(travel)
    assert aimed_shot not in travel
    assert not any(ids.attack <= a < ids.skip for a in travel)
    combat = combat_state(english, "Kobold").legal_actions()
    assert {ids.focus, ids.plan, aimed_shot, ids.skip} <= set(combat)
    assert not {forage, ids.scout, ids.orienteer, ids.explore, ids.face_monster} & set(combat)


@pytest.mark.parametrize("action", ["focus", "inspiration", "plan"])
def test_general_action_pays_cost_and_gains(english, action: str) -> None:
    """unbroken.en.txt, Preparation step: "You may take as many general actions (listed on the general actions sheet)
    as you wish during this step. ... For each action you take, you must spend the listed resources."
    """
    card = getattr(english.cards.display.general, action)
    start = {"small_effort": 12, "medium_effort": 3, "time": 7}
    state = travel_state(english, res=start)
    state.apply_action(getattr(english.actions, action))
    expected = dict.fromkeys(RESOURCES, 0) | start
    for name, amount in names(card.cost).items():
        expected[name] -= amount
    for name, amount in names(card.effects[0][1]).items():
        expected[name] += amount
    assert res(state) == expected
    assert state.phase == Phase.DECIDE_TRAVEL
    # as many as you wish: the same action again
    assert getattr(english.actions, action) in state.legal_actions() or not state.can_pay(card.cost)


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_scout_cost_by_level_reveals_monster(english, level: int) -> None:
    """unbroken.en.txt, Preparation step: "scouting yields crucial information about the upcoming fight". Ambush
    step: "Revealing the monster by scouting during the Travel Phase does not prevent an ambush!" (Scout's cost is on
    the general actions sheet, per level.)
    """
    start = {"small_effort": 10, "cunning": 3, "time": 5}
    state = travel_state(english, level=level, res=start)
    monster = state.monster()
    assert not state.monster_revealed
    state.apply_action(english.actions.scout)
    expected = dict.fromkeys(RESOURCES, 0) | start
    for name, amount in names(english.cards.display.general.scout_cost_by_level[level]).items():
        expected[name] -= amount
    assert res(state) == expected
    assert state.monster_revealed
    assert state.monster() == monster
    assert state.phase == Phase.DECIDE_TRAVEL
    assert english.actions.scout not in state.legal_actions()


def test_action_costing_time_needs_that_much_time(english) -> None:
    """unbroken.en.txt, Preparation step: "For each action you take, you must spend the listed resources. If you don't
    have the resources, you cannot take the action." (RULES.md: an action costing time needs that much time.)
    """
    scout_time = names(english.cards.display.general.scout_cost_by_level[2])["time"]
    assert scout_time >= 2
    state = travel_state(english, level=2, res={"small_effort": 10, "time": scout_time - 1})
    assert english.actions.scout not in state.legal_actions()
    state = travel_state(english, level=2, res={"small_effort": 10, "time": scout_time})
    assert english.actions.scout in state.legal_actions()


def test_orienteer_reveals_more_cards(english) -> None:
    """unbroken.en.txt, Exploration step: "Reveal two cards (certain effects may increase this number) from the
    encounter deck." (Orienteer: a travel action from a fan implementation, RULES.md "Other interpretations".)
    """
    general = english.cards.display.general
    state = travel_state(english, res={"small_effort": 10, "time": 7})
    state.apply_action(english.actions.orienteer)
    assert res(state)["small_effort"] == 10 - names(general.orienteer_cost)["small_effort"]
    state.apply_action(english.actions.explore)
    draw_until_decision(state)
    expected = english.cards.display.exploration_reveal + general.orienteer_reveal_bonus
    assert len(state.revealed_cards) == expected
    assert state.legal_actions() == [english.actions.choose_card + i for i in range(expected)]


def test_action_whose_time_reaches_zero_ambushes(english) -> None:
    """unbroken.en.txt, Preparation step: "(unless taking an action causes your available time to reach zero, in which
    case you proceed immediately to the Ambush Step of the Battle Phase)."
    """
    scout_time = names(english.cards.display.general.scout_cost_by_level[1])["time"]
    kobold = monster_card(english, "Kobold")
    state = travel_state(english, monster="Kobold", res={"small_effort": 10, "time": scout_time})
    state.apply_action(english.actions.scout)
    assert state.ambushed
    assert state.phase == Phase.DECIDE_PLAYER_TURN
    assert res(state)["time"] == skull(english, 2)
    scout_effort = names(english.cards.display.general.scout_cost_by_level[1]).get("small_effort", 0)
    assert res(state)["small_effort"] == 10 - scout_effort - small_loss(kobold.ambush)


def test_decision_face_monster_goes_to_trickery_step(english) -> None:
    """unbroken.en.txt, Decision step: "If you are, skip the rest of the Travel Phase and proceed immediately to the
    Trickery Step of the Combat Phase."
    """
    kobold = monster_card(english, "Kobold")
    state = travel_state(english, monster="Kobold", res={"small_effort": 13, "time": 5, **names(kobold.trickery)})
    state.apply_action(english.actions.face_monster)
    assert state.phase == Phase.DECIDE_TRICKERY
    assert state.monster_revealed and not state.ambushed
    assert res(state)["time"] == skull(english, 2)
    assert state.legal_actions() == [english.actions.trick, english.actions.fight]


def test_committed_cannot_face_the_monster(english) -> None:
    """unbroken.en.txt, Decision step: "(Note: If you chose to "commit to next encounter" as a part of a previous
    Exploration Step, you must continue on to the Exploration Step.)"
    """
    state = travel_state(english, committed=True)
    legal = state.legal_actions()
    assert english.actions.explore in legal
    assert english.actions.face_monster not in legal
    with pytest.raises(IllegalActionError):
        state.apply_action(english.actions.face_monster)


def test_exploration_reveals_two_choose_one_discard_rest(english) -> None:
    """unbroken.en.txt, Exploration step: "Reveal two cards ... from the encounter deck. Choose one of these cards,
    putting the others in the encounter discard pile."
    """
    first, second = encounter_index(english, "Quiet alcove"), encounter_index(english, "Curious tracks")
    state = travel_state(english)
    apply_all(state, english.actions.explore, first)
    assert state.phase == Phase.CHANCE_ENCOUNTER_DRAW
    state.apply_action(second)
    assert state.phase == Phase.DECIDE_CARD
    assert state.legal_actions() == [english.actions.choose_card, english.actions.choose_card + 1]
    state.apply_action(english.actions.choose_card + 1)
    assert state.chosen_card == second
    assert state.encounter_discard[first] == 1 and state.encounter_discard[second] == 0
    assert state.phase == Phase.DECIDE_ENCOUNTER_OR_REST


def test_rest_gains_time_value_and_time_moves(english) -> None:
    """unbroken.en.txt, Exploration step: "Rest - To rest, gain a number of small effort equal to the time value of
    the card" ... "move the token on your time resource bar according to the time value of the chosen encounter card
    ... and then put the card in the discard pile."
    """
    card = english.cards.encounters[encounter_index(english, "Quiet alcove")]
    state = at_card(english, "Quiet alcove", res={"small_effort": 5, "time": 7})
    state.apply_action(english.actions.rest)
    assert res(state)["small_effort"] == 5 + card.time
    assert res(state)["time"] == 7 - card.time
    assert state.encounter_discard[encounter_index(english, "Quiet alcove")] == 1
    assert state.phase == Phase.DECIDE_TRAVEL


def test_encounter_pays_and_gains(english) -> None:
    """unbroken.en.txt, Exploration step: "Encounter - To resolve an encounter, apply the effect on your chosen card,
    spending and gaining resources as indicated."
    """
    card = english.cards.encounters[encounter_index(english, "Abandoned hovel")]
    start = {"small_effort": 5, "time": 7}
    state = at_card(english, "Abandoned hovel", res=start)
    assert state.legal_actions() == [english.actions.encounter, english.actions.rest]
    state.apply_action(english.actions.encounter)
    expected = dict.fromkeys(RESOURCES, 0) | start
    for name, amount in names(card.spend).items():
        expected[name] -= amount
    for name, amount in names(card.gain).items():
        expected[name] += amount
    expected["time"] -= card.time
    assert res(state) == expected


def test_encounter_only_offered_when_payable(english) -> None:
    """unbroken.en.txt, Preparation step: "If you don't have the resources, you cannot take the action." (RULES.md: an
    encounter is offered only when its spend can be paid.)
    """
    card = english.cards.encounters[encounter_index(english, "Starving goblins")]
    assert names(card.spend) == {"food": 1}
    assert at_card(english, "Starving goblins", res={"food": 0}).legal_actions() == [english.actions.rest]
    assert english.actions.encounter in at_card(english, "Starving goblins", res={"food": 1}).legal_actions()


def test_time_reaching_zero_in_exploration_ambushes(english) -> None:
    """unbroken.en.txt, Exploration step: "If this causes your available time to reach zero, that means your
    preparations took too long and the monster ambushed you". Ambush step: "Reset the token on your time resource bar
    to the space with the skull icon corresponding to the next level" ... "apply the monster's ambush effect".
    """
    kobold = monster_card(english, "Kobold")
    card = english.cards.encounters[encounter_index(english, "Quiet alcove")]
    state = at_card(english, "Quiet alcove", monster="Kobold", res={"small_effort": 5, "time": card.time - 1})
    state.apply_action(english.actions.rest)
    assert state.ambushed and state.monster_revealed
    assert state.monster() == monster_index(english, "Kobold")
    assert res(state)["time"] == skull(english, 2)
    assert res(state)["small_effort"] == 5 + card.time - small_loss(kobold.ambush)
    assert state.phase == Phase.DECIDE_PLAYER_TURN and state.round == 1


def test_commit_reveals_exactly_one_and_must_resolve(english) -> None:
    """unbroken.en.txt, Exploration step: "if you previously resolved an encounter card that instructed you to "commit
    to next encounter," you reveal only one card — regardless of effects or modifiers — and must resolve the
    encounter; you cannot rest instead."
    """
    ids = english.actions
    assert english.cards.encounters[encounter_index(english, "Eavesdropping")].commit
    peek = skill_index(english, "Take a Peek")
    state = at_card(english, "Eavesdropping", skills=[peek], reveal_bonus=2)
    state.apply_action(ids.encounter)
    assert state.committed
    assert ids.face_monster not in state.legal_actions()
    assert ids.orienteer not in state.legal_actions()
    apply_all(state, ids.explore, encounter_index(english, "Curious tracks"))
    assert state.reveal_target == 1
    assert state.phase == Phase.DECIDE_ENCOUNTER_OR_REST  # the single card is chosen automatically
    assert state.chosen_card == encounter_index(english, "Curious tracks")
    assert state.legal_actions() == [ids.encounter]
    assert state.reveal_bonus == 0


def test_empty_encounter_deck_is_refilled_from_discard(english) -> None:
    """unbroken.en.txt, Exploration step: "Reveal two cards ... from the encounter deck." (RULES.md: an empty deck is
    refilled from the discard pile; not in the rulebook.)
    """
    copies = [e.copies for e in english.cards.encounters]
    state = travel_state(english, encounter_deck=[0] * len(copies), encounter_discard=copies)
    state.apply_action(english.actions.explore)
    assert state.phase == Phase.CHANCE_ENCOUNTER_DRAW
    assert sum(state.encounter_deck) == 88 and sum(state.encounter_discard) == 0


# =============================================================================================== combat: reveal
def test_monster_without_ambush_effect(english) -> None:
    """unbroken.en.txt, Ambush step: "If you were ambushed ..., apply the monster's ambush effect (if any) and then
    proceed directly to the Battle Step." unbroken.es.txt: "No todos los monstruos tienen efectos de Emboscada."
    """
    fungus = monster_card(english, "Shrieking Fungus")
    assert fungus.ambush is None
    card = english.cards.encounters[encounter_index(english, "Quiet alcove")]
    state = at_card(english, "Quiet alcove", monster="Shrieking Fungus", res={"small_effort": 5, "time": 1})
    state.apply_action(english.actions.rest)
    assert state.ambushed and state.phase == Phase.DECIDE_PLAYER_TURN
    assert res(state)["small_effort"] == 5 + card.time


def test_ambush_effect_without_alternative_does_nothing_when_it_cannot_apply(english) -> None:
    """unbroken.en.txt, Monster turns: "If a monster effect cannot be applied, apply the alternative effect (listed in
    brackets) instead. If there's no alternative effect, nothing happens."
    """
    gremlin = monster_card(english, "Gremlin")
    ((kind, bag),) = gremlin.ambush
    assert kind == "lose" and names(bag) == {"cunning": 2}
    state = at_card(
        english, "Quiet alcove", monster="Gremlin", level=2, res={"small_effort": 5, "cunning": 1, "time": 1}
    )
    state.apply_action(english.actions.rest)
    assert state.ambushed
    assert res(state)["cunning"] == 1
    assert state.outcome == 0


def test_trick_pays_cost_and_skips_battle(game) -> None:
    """unbroken.en.txt, Trickery step: "You may now choose to trick the monster, avoiding combat entirely, if you can
    pay the trickery cost" ... "You do not receive any rewards if you bypass the monster this way".
    """
    kobold = monster_card(game, "Kobold")
    start = {"small_effort": 10, "time": 5, **names(kobold.trickery)}
    state = travel_state(game, monster="Kobold", monster_revealed=True, res=start)
    apply_all(state, game.actions.face_monster, game.actions.trick)
    assert state.tricked and state.round == 0
    assert state.phase in (Phase.CHANCE_SKILL_DRAW, Phase.DECIDE_HUNGER)
    after = res(state)
    assert after == dict.fromkeys(RESOURCES, 0) | start | {"time": skull(game, 2)} | dict.fromkeys(
        names(kobold.trickery), 0
    )


def test_trickery_skipped_when_cost_cannot_be_paid(english) -> None:
    """unbroken.en.txt, Trickery step: "if you can pay the trickery cost" (RULES.md: the node is skipped when the cost
    cannot be paid).
    """
    state = travel_state(english, monster="Kobold", res={"small_effort": 10, "cunning": 0, "time": 5})
    state.apply_action(english.actions.face_monster)
    assert state.phase == Phase.DECIDE_PLAYER_TURN


def test_level_four_monsters_cannot_be_tricked(english) -> None:
    """unbroken.en.txt, Monster stats: "Some monsters (including all of the level IV monsters) cannot be bypassed with
    trickery, however."
    """
    rich = {name: english.cards.display.bar_maximum[i] for i, name in enumerate(RESOURCES) if name != "time"}
    for monster in (m for m in english.cards.monsters if m.level == 4):
        state = travel_state(english, level=4, monster=monster.name, res={**rich, "time": 5})
        state.apply_action(english.actions.face_monster)
        assert state.phase == Phase.DECIDE_PLAYER_TURN, monster.name
        assert english.actions.trick not in state.legal_actions()


# =============================================================================================== combat: battle
def test_battle_player_turn_then_monster_turn(english) -> None:
    """unbroken.en.txt, Battle step: "In each round of combat, the player takes a turn, then the monster takes a
    turn." Player turns: "(though you may always skip your turn if you choose to do so)".
    """
    kobold = monster_card(english, "Kobold")
    miss = face_where(kobold, lambda e: e[0][0] == "miss", "a miss")
    state = combat_state(english, "Kobold")
    state.apply_action(english.actions.skip)
    assert state.phase == Phase.CHANCE_MONSTER_ROLL and state.round == 1
    state.apply_action(miss)
    assert state.phase == Phase.DECIDE_PLAYER_TURN and state.round == 2


def test_player_turn_options(english) -> None:
    """unbroken.en.txt, Player turns: "choose one of the following options (though you may always skip your turn if
    you choose to do so): Attack with Weapon, Take an Action". (RULES.md: an armor-breaking attack is offered only
    while armor is left.)
    """
    bare = english.cards.weapons[weapon_index(english, "Bare Hands")]
    wound = next(i for i, a in enumerate(bare.attacks) if a.wounds)
    breaker = next(i for i, a in enumerate(bare.attacks) if a.break_armor)
    kobold = monster_card(english, "Kobold")
    assert kobold.armor >= 1
    ids = english.actions
    legal = combat_state(english, "Kobold").legal_actions()
    assert {ids.skip, ids.attack + wound, ids.attack + breaker, ability_action(english, "Aimed Shot")} <= set(legal)
    legal = combat_state(english, "Kobold", armor_broken=kobold.armor).legal_actions()
    assert ids.attack + breaker not in legal and ids.attack + wound in legal


def test_armor_before_wounds(english) -> None:
    """unbroken.en.txt, Attack with weapon: "Any armor the monster has must be broken before you can inflict any
    wounds, except in rare cases. Cover each armor space with a token as you break it." Monster stats: "Certain skills
    allow you to bypass armor altogether."
    """
    bare = english.cards.weapons[weapon_index(english, "Bare Hands")]
    wound = next(i for i, a in enumerate(bare.attacks) if a.wounds and not a.ignore_armor)
    breaker = next(i for i, a in enumerate(bare.attacks) if a.break_armor)
    kobold = monster_card(english, "Kobold")
    assert kobold.armor == bare.attacks[breaker].break_armor == 1
    state = combat_state(english, "Kobold", res={"small_effort": 13})
    state.apply_action(english.actions.attack + wound)
    assert state.wounds == 0
    assert res(state)["small_effort"] == 13 - names(bare.attacks[wound].cost)["small_effort"]
    state = combat_state(english, "Kobold")
    state.apply_action(english.actions.attack + breaker)
    assert state.armor_broken == 1 and state.wounds == 0
    state = combat_state(english, "Kobold", armor_broken=1)
    state.apply_action(english.actions.attack + wound)
    assert state.wounds == bare.attacks[wound].wounds
    # Kira's Aimed Shot wounds through armor
    state = combat_state(english, "Kobold")
    state.apply_action(ability_action(english, "Aimed Shot"))
    assert state.wounds >= 1 and state.armor_broken == 0


def test_extra_attack_cost_applies_to_weapon_attacks_only(english) -> None:
    """unbroken.en.txt, Attack with weapon: "Some monsters incur additional costs when you attack with a weapon.
    (These additional costs do not apply when you attack with your skills.)"
    """
    troglodyte = monster_card(english, "Troglodyte")
    extra = names(troglodyte.attack_extra_cost)["small_effort"]
    bare = english.cards.weapons[weapon_index(english, "Bare Hands")]
    wound = next(i for i, a in enumerate(bare.attacks) if a.wounds)
    cost = names(bare.attacks[wound].cost)["small_effort"]
    state = combat_state(english, "Troglodyte", armor_broken=troglodyte.armor, res={"small_effort": 10})
    state.apply_action(english.actions.attack + wound)
    assert res(state)["small_effort"] == 10 - cost - extra
    short = combat_state(english, "Troglodyte", res={"small_effort": cost + extra - 1})
    assert english.actions.attack + wound not in short.legal_actions()
    shrapnel = skill_index(english, "Shrapnel")
    state = combat_state(english, "Troglodyte", skills=[shrapnel], res={"small_effort": 10, "metal": 1})
    state.apply_action(english.actions.skill + shrapnel)
    assert res(state)["small_effort"] == 10 and res(state)["metal"] == 0
    assert state.wounds == 1


def test_defend_ignores_next_weapon_attack(english) -> None:
    """unbroken.en.txt, Monster stats: "Certain monsters have a special effect" (CONTENT.md: `defend` - the monster
    ignores your next weapon attack).
    """
    orc = monster_card(english, "Orc")
    face = face_where(orc, lambda e: e[0][0] == "defend", "a defend result")
    state = roll_state(english, "Orc", armor_broken=orc.armor)
    state.apply_action(face)
    assert state.defending and state.phase == Phase.DECIDE_PLAYER_TURN
    bare = english.cards.weapons[weapon_index(english, "Bare Hands")]
    wound = next(i for i, a in enumerate(bare.attacks) if a.wounds)
    state.apply_action(english.actions.attack + wound)
    assert state.wounds == 0 and not state.defending
    assert res(state)["small_effort"] == 13 - names(bare.attacks[wound].cost)["small_effort"]


def test_monster_roll_applies_the_row(english) -> None:
    """unbroken.en.txt, Monster turns: "you will roll the die to determine what action the monster will take. Consult
    the combat actions table on the monster sheet and apply the monster effect that matches the die roll."
    """
    kobold = monster_card(english, "Kobold")
    face = face_where(kobold, only_small_effort_loss, "a small effort loss")
    state = roll_state(english, "Kobold")
    assert [o for o, _ in state.chance_outcomes()] == [1, 2, 3, 4, 5, 6]
    state.apply_action(face)
    assert res(state)["small_effort"] == 13 - small_loss(kobold.combat[face - 1].effects)


def test_bracketed_alternative_when_effect_cannot_be_applied(english) -> None:
    """unbroken.en.txt, Monster turns: "If a monster effect cannot be applied, apply the alternative effect (listed in
    brackets) instead."
    """
    kobold = monster_card(english, "Kobold")
    face = face_where(kobold, lambda e: e[0][0] == "lose" and "cunning" in names(e[0][1]), "a cunning loss")
    row = kobold.combat[face - 1]
    assert row.alt is not None
    lost_cunning = names(row.effects[0][1])["cunning"]
    state = roll_state(english, "Kobold", res={"small_effort": 13, "cunning": lost_cunning})
    state.apply_action(face)
    assert res(state)["cunning"] == 0 and res(state)["small_effort"] == 13
    state = roll_state(english, "Kobold", res={"small_effort": 13, "cunning": lost_cunning - 1})
    state.apply_action(face)
    assert res(state)["cunning"] == lost_cunning - 1
    assert res(state)["small_effort"] == 13 - small_loss(row.alt)


def test_reroll_condition_already_gained_for_next_level(english) -> None:
    """unbroken.en.txt, Monster turns: "If a monster effect would cause you to gain a condition you have already gained
    for the next level, reroll it."
    """
    wererat = monster_card(english, "Wererat")
    hungry = condition_index(english, "Hungry")
    face = face_where(
        wererat, lambda e: any(k == "condition" and a[0] == hungry and a[1] == "next_level" for k, a in e), "Hungry"
    )
    state = roll_state(english, "Wererat", conditions_next=[hungry])
    state.apply_action(face)
    assert state.phase == Phase.CHANCE_MONSTER_ROLL
    assert state.conditions_next == [hungry]
    assert res(state)["small_effort"] == 13  # nothing of the row applied
    assert state.round == 1
    # Without the condition the row applies and the condition is gained for the next level.
    state = roll_state(english, "Wererat")
    state.apply_action(face)
    assert state.conditions_next == [hungry]
    assert state.phase == Phase.DECIDE_PLAYER_TURN


def test_skill_ignoring_an_effect_type(english) -> None:
    """unbroken.en.txt, Monster turns: "If one of your skills allows you to ignore a specific type of monster effect,
    nothing happens when that combat action is rolled."
    """
    kobold = monster_card(english, "Kobold")
    face = face_where(kobold, lambda e: any(k == "lose_time" for k, _ in e), "a time loss")
    tireless = skill_index(english, "Tireless")
    assert english.cards.skills[tireless].passive["ignore"] == ("lose_time",)
    state = roll_state(english, "Kobold", skills=[tireless])
    state.apply_action(face)
    assert res(state)["small_effort"] == 13 and res(state)["time"] == skull(english, 2)
    spider = monster_card(english, "Giant Spider")
    face = face_where(spider, lambda e: e[0][0] == "condition", "a condition")
    steely = skill_index(english, "Steely Resolve")
    state = roll_state(english, "Giant Spider", skills=[steely])
    state.apply_action(face)
    assert state.conditions_now == {} and state.conditions_next == []


def test_lose_time_in_combat_reduces_next_level_time(english) -> None:
    """unbroken.en.txt, Monster turns: "If a monster effect causes you to lose time, adjust the token on your time
    resource bar accordingly — you'll have that much less time in the next level."
    """
    kobold = monster_card(english, "Kobold")
    face = face_where(kobold, lambda e: any(k == "lose_time" for k, _ in e), "a time loss")
    row = dict(kobold.combat[face - 1].effects)
    state = roll_state(english, "Kobold")
    state.apply_action(face)
    assert res(state)["time"] == skull(english, 2) - row["lose_time"]
    assert res(state)["small_effort"] == 13 - names(row["lose"])["small_effort"]


@pytest.mark.parametrize("preset", ["english", "spanish"])
def test_lose_time_at_level_four_costs_small_effort(preset: str) -> None:
    """unbroken.en.txt, Monster turns: "However, if you are in level IV, spend an equal number of small effort
    instead." (No shipped level IV row loses time, so the scenario gives the Troll one.)
    """
    cards = new_game().cards
    troll = next(m for m in cards.monsters if m.name == "Troll")
    combat = (CombatRow(effects=(("lose_time", 2),), alt=None), *troll.combat[1:])
    game = new_game(preset, cards=with_monster(cards, "Troll", combat=combat))
    state = roll_state(game, "Troll", res={"small_effort": 5, "time": 0})
    state.apply_action(1)
    assert res(state)["small_effort"] == 3 and res(state)["time"] == 0
    state = roll_state(game, "Troll", res={"small_effort": 1})
    state.apply_action(1)
    assert state.returns() == [-1.0]


def test_craft_stacks_weapon_and_costs_time(english) -> None:
    """unbroken.en.txt, Appendix A: "Most weapons lists two potential options to upgrade it and the cost of each
    upgrade in resources and time. When you upgrade a weapon, lay the new weapon sheet on top of the old one."
    """
    bare, club = weapon_index(english, "Bare Hands"), weapon_index(english, "Club")
    upgrade = next(u for u in english.cards.weapons[bare].upgrades if u.to == club)
    start = {"small_effort": 10, "wood": 3, "metal": 3, "time": 7}
    state = travel_state(english, res=start)
    state.apply_action(english.actions.craft + club)
    assert state.weapons == [bare, club]
    expected = dict.fromkeys(RESOURCES, 0) | start
    for name, amount in names(upgrade.cost).items():
        expected[name] -= amount
    expected["time"] -= upgrade.time
    assert res(state) == expected
    assert english.actions.craft + club not in state.legal_actions()


def test_craft_in_combat_time_counts_against_next_level(english) -> None:
    """unbroken.en.txt, Appendix A: "You can upgrade a weapon during combat, with the time cost counting against the
    next level (or paid in SE, if level IV)."
    """
    bare, club = weapon_index(english, "Bare Hands"), weapon_index(english, "Club")
    upgrade = next(u for u in english.cards.weapons[bare].upgrades if u.to == club)
    state = combat_state(english, "Kobold", res={"small_effort": 10, "wood": 3})
    state.apply_action(english.actions.craft + club)
    assert state.weapons == [bare, club]
    assert res(state)["time"] == skull(english, 2) - upgrade.time
    assert res(state)["small_effort"] == 10
    assert state.phase == Phase.CHANCE_MONSTER_ROLL  # the action was the turn


def test_craft_in_combat_at_level_four_paid_in_small_effort(english) -> None:
    """unbroken.en.txt, Appendix A: "You can upgrade a weapon during combat, with the time cost counting against the
    next level (or paid in SE, if level IV)."
    """
    bare, club = weapon_index(english, "Bare Hands"), weapon_index(english, "Club")
    upgrade = next(u for u in english.cards.weapons[bare].upgrades if u.to == club)
    assert upgrade.time >= 1
    state = combat_state(english, "Troll", res={"small_effort": 10, "wood": 3, "time": 0})
    assert english.actions.craft + club in state.legal_actions()
    state.apply_action(english.actions.craft + club)
    assert state.weapons == [bare, club]
    assert res(state)["small_effort"] == 10 - upgrade.time
    assert res(state)["time"] == 0
    short = combat_state(english, "Troll", res={"small_effort": upgrade.time - 1, "wood": 3})
    assert english.actions.craft + club not in short.legal_actions()


def test_voluntary_downgrade_is_free_and_bare_hands_stays(english) -> None:
    """unbroken.en.txt, Appendix A: "You may always voluntarily downgrade a weapon as a general action. This costs
    nothing" ... "(You can never lose your Bare Hands weapon, however.)"
    """
    bare, club = weapon_index(english, "Bare Hands"), weapon_index(english, "Club")
    state = travel_state(english, weapons=[bare, club])
    before = res(state)
    state.apply_action(english.actions.downgrade)
    assert state.weapons == [bare]
    assert res(state) == before and state.phase == Phase.DECIDE_TRAVEL
    assert english.actions.downgrade not in state.legal_actions()


def test_voluntary_downgrade_in_combat_is_the_turn(english) -> None:
    """unbroken.en.txt, Appendix A: "This costs nothing, but would constitute an entire turn if done during combat." """
    bare, club = weapon_index(english, "Bare Hands"), weapon_index(english, "Club")
    state = combat_state(english, "Kobold", weapons=[bare, club])
    state.apply_action(english.actions.downgrade)
    assert state.weapons == [bare]
    assert state.phase == Phase.CHANCE_MONSTER_ROLL


def test_temporary_downgrade_returns_and_bare_hands_is_never_lost(english) -> None:
    """unbroken.en.txt, Appendix A: "If an effect is temporary, leave the weapon to the side for the noted duration."
    "(You can never lose your Bare Hands weapon, however.)"
    """
    goblin = monster_card(english, "Goblin")
    face = face_where(goblin, lambda e: e[0][0] == "downgrade_weapon", "a downgrade")
    row = goblin.combat[face - 1]
    rounds = row.effects[0][1]
    assert rounds >= 1 and row.alt is not None
    bare, club = weapon_index(english, "Bare Hands"), weapon_index(english, "Club")
    miss = face_where(goblin, lambda e: e[0][0] == "miss", "a miss")
    state = roll_state(english, "Goblin", weapons=[bare, club])
    state.apply_action(face)
    assert state.weapons == [bare] and state.aside_weapon == club
    # "for n rounds" covers the player's next n turns (RULES.md, Appendix C row)
    for _ in range(rounds):
        assert state.phase == Phase.DECIDE_PLAYER_TURN and state.weapons == [bare]
        apply_all(state, english.actions.skip, miss)
    assert state.weapons == [bare, club] and state.aside_weapon == -1
    # With Bare Hands alone the effect cannot be applied: the bracketed alternative instead.
    state = roll_state(english, "Goblin")
    state.apply_action(face)
    assert state.weapons == [bare]
    assert res(state)["small_effort"] == 13 - small_loss(row.alt)


def test_permanent_downgrade_returns_weapon_to_deck() -> None:
    """unbroken.en.txt, Appendix A: "If it is permanent, return the weapon to the weapon deck." (No shipped monster
    downgrades permanently, so the scenario gives the Goblin such a row.)
    """
    cards = new_game().cards
    goblin = next(m for m in cards.monsters if m.name == "Goblin")
    combat = (CombatRow(effects=(("downgrade_weapon", 0),), alt=None), *goblin.combat[1:])
    game = new_game(cards=with_monster(cards, "Goblin", combat=combat))
    bare, club, spear = (weapon_index(game, n) for n in ("Bare Hands", "Club", "Spear"))
    state = roll_state(game, "Goblin", weapons=[bare, club, spear], wounds=1)
    state.apply_action(1)
    assert state.weapons == [bare, club] and state.aside_weapon == -1
    state = roll_state(game, "Goblin", weapons=[bare])
    state.apply_action(1)
    assert state.weapons == [bare]


def test_monster_special_action(english) -> None:
    """unbroken.en.txt, Take an action: "choose any that is currently available to you, from the general actions sheet,
    your character sheet, your skill cards, or unique options presented by the monster."
    """
    gremlin = monster_card(english, "Gremlin")
    action = gremlin.special_action
    assert action is not None
    state = combat_state(english, "Gremlin", res={"small_effort": 10, **names(action.cost)})
    assert english.actions.monster_action in state.legal_actions()
    state.apply_action(english.actions.monster_action)
    assert state.wounds == dict(action.effects)["wounds_ignore_armor"]
    assert english.actions.monster_action not in combat_state(english, "Kobold", res={"cunning": 3}).legal_actions()


def test_regeneration_heals_at_start_of_monster_turn_but_cannot_undo_a_win(english) -> None:
    """unbroken.en.txt, Monster stats: "Certain monsters have a special effect that introduces new rules for combat".
    Battle outcome: "If the token on the monster's health bar reaches the space on the far right, then you have
    defeated the monster". (RULES.md: regen heals at the start of its turn; a win is checked after the player's turn.)
    """
    troll = monster_card(english, "Troll")
    regen = troll.modifiers["regen"]
    state = combat_state(english, "Troll", wounds=3)
    state.apply_action(english.actions.skip)
    assert state.wounds == 3 - regen
    torch = dict(troll.special_action.effects)["wounds_ignore_armor"]
    state = combat_state(english, "Troll", wounds=troll.health - torch, res={"small_effort": 10, "wood": 1})
    state.apply_action(english.actions.monster_action)
    assert state.phase in (Phase.CHANCE_SKILL_DRAW, Phase.DECIDE_SKILL)


def test_reaction_skill_lowers_the_roll(english) -> None:
    """unbroken.en.txt, Monster turns: "Certain skills and character abilities will allow you to manipulate the
    monster's combat rolls or mitigate the consequences of the monster's attacks."
    """
    dodge = skill_index(english, "Dodge")
    skill = english.cards.skills[dodge]
    kobold = monster_card(english, "Kobold")
    face = 6
    target = kobold.combat[face - 1 + skill.reaction_roll_modifier]
    assert only_small_effort_loss(target.effects)
    state = roll_state(english, "Kobold", skills=[dodge])
    state.apply_action(face)
    assert state.phase == Phase.DECIDE_REACTION
    assert state.legal_actions() == [english.actions.skill + dodge, english.actions.accept_roll]
    state.apply_action(english.actions.skill + dodge)
    cost = names(skill.reaction_cost)["small_effort"]
    assert res(state)["small_effort"] == 13 - cost - small_loss(target.effects)
    assert res(state)["time"] == skull(english, 2)  # row 6's time loss did not happen


def test_skill_action_with_another_turn_once_per_level(english) -> None:
    """unbroken.en.txt, Take an action: "choose any that is currently available to you, from ... your skill cards".
    (Skills "Heroic Perseverance, Grim Determination and Inventive": after the action in battle, take another turn.)
    """
    grim = skill_index(english, "Grim Determination")
    card = english.cards.skills[grim].action
    assert card.once_per_level and ("extra_turn", True) in card.effects
    state = combat_state(english, "Goblin", skills=[grim], armor_broken=1, res={"small_effort": 10, "medium_effort": 2})
    state.apply_action(english.actions.skill + grim)
    assert state.wounds == dict(card.effects)["wounds"]
    assert res(state)["medium_effort"] == 2 - names(card.cost)["medium_effort"]
    assert state.phase == Phase.DECIDE_PLAYER_TURN and state.round == 1
    assert english.actions.skill + grim not in state.legal_actions()


def test_defeat_when_effort_cannot_be_paid(english) -> None:
    """unbroken.en.txt, Battle outcome: "If you are required to spend effort (due to a monster effect) and cannot,
    then you have fallen to the perils of the catacombs and lost the game."
    """
    kobold = monster_card(english, "Kobold")
    face = face_where(kobold, only_small_effort_loss, "a small effort loss")
    loss = small_loss(kobold.combat[face - 1].effects)
    state = roll_state(english, "Kobold", res={"small_effort": loss - 1})
    state.apply_action(face)
    assert state.is_terminal()
    assert state.returns() == [-1.0]
    assert state.score() == [0.0]
    # Higher effort still pays: one medium effort saves the player.
    state = roll_state(english, "Kobold", res={"small_effort": loss - 1, "medium_effort": 1})
    state.apply_action(face)
    assert not state.is_terminal()


def test_defeat_when_condition_effort_cannot_be_paid(english) -> None:
    """unbroken.en.txt, Battle step: "until either you have defeated the monster or you cannot spend effort when
    required." (RULES.md: also for conditions that cost effort each turn.)
    """
    bleeding = condition_index(english, "Bleeding")
    per_turn = names(english.cards.conditions[bleeding].modifiers["round_loss"])["small_effort"]
    miss = face_where(monster_card(english, "Kobold"), lambda e: e[0][0] == "miss", "a miss")
    state = roll_state(english, "Kobold", conditions_now={bleeding: 2}, res={"small_effort": per_turn - 1})
    state.apply_action(miss)
    assert state.returns() == [-1.0]


def test_victory_gains_rewards_and_offers_two_skills(english) -> None:
    """unbroken.en.txt, Rewards step: "For defeating the monster, you gain the resources listed in the rewards section
    of the defeated monster's sheet. In addition, you reveal the top two cards from the skill deck, keeping one and
    putting the other in the corresponding discard pile."
    """
    kobold = monster_card(english, "Kobold")
    bare = english.cards.weapons[weapon_index(english, "Bare Hands")]
    wound = next(i for i, a in enumerate(bare.attacks) if a.wounds)
    power = bare.attacks[wound].wounds
    state = combat_state(english, "Kobold", wounds=kobold.health - power, armor_broken=kobold.armor)
    before = res(state)
    state.apply_action(english.actions.attack + wound)
    expected = dict(before)
    expected["small_effort"] -= names(bare.attacks[wound].cost)["small_effort"]
    for name, amount in names(kobold.rewards).items():
        expected[name] += amount
    assert res(state) == expected
    assert state.phase == Phase.CHANCE_SKILL_DRAW
    first, second = skill_index(english, "Take a Peek"), skill_index(english, "Dodge")
    apply_all(state, first, second)
    assert state.phase == Phase.DECIDE_SKILL
    assert state.legal_actions() == [english.actions.take_skill, english.actions.take_skill + 1]
    state.apply_action(english.actions.take_skill + 1)
    assert state.skills == (second,)
    assert state.skill_discard[first] == 1
    assert state.phase == Phase.DECIDE_HUNGER


# =============================================================================================== hunger
@pytest.mark.parametrize("monster", ["Kobold", "Goblin", "Gnoll", "Troll"])
def test_hunger_requirement_is_the_level(english, monster: str) -> None:
    """unbroken.en.txt, Hunger step: "You now must eat food equal to the level of the monster you have just defeated
    — this is known as your food requirement." Tip: "you can decide to eat less food than the current requirement".
    """
    level = monster_card(english, monster).level
    state = hunger_state(english, monster, res={"food": 8})
    assert state.food_requirement() == level
    assert state.legal_actions() == [english.actions.eat + k for k in range(level + 1)]


def test_hunger_food_eaten_gives_small_effort(english) -> None:
    """unbroken.en.txt, Hunger step: "You gain one small effort for each food that you eat." """
    state = hunger_state(english, "Goblin", res={"small_effort": 5, "food": 3})
    state.apply_action(english.actions.eat + 2)
    assert res(state)["small_effort"] == 7 and res(state)["food"] == 1


@pytest.mark.parametrize(("monster", "cost"), [("Kobold", 1), ("Goblin", 1 + 2), ("Gnoll", 1 + 2 + 3)])
def test_hunger_food_not_eaten_costs_one_two_three(english, monster: str, cost: int) -> None:
    """unbroken.en.txt, Hunger step: "If you cannot (or choose not to) meet the food requirement, you must spend one
    small effort for the first food you do not eat, two for the second food, three for the third food, etc."
    """
    state = hunger_state(english, monster, res={"small_effort": 10, "food": 5})
    state.apply_action(english.actions.eat)
    assert res(state)["small_effort"] == 10 - cost and res(state)["food"] == 5


def test_starvation_loses_the_game(english) -> None:
    """unbroken.en.txt, Hunger step: "If you do not have enough effort to spend for food you do not eat, you die of
    starvation and lose the game."
    """
    state = hunger_state(english, "Gnoll", res={"small_effort": 1 + 2 + 3 - 1, "food": 0})
    state.apply_action(english.actions.eat)
    assert state.is_terminal() and state.returns() == [-1.0]


def test_rulebook_hunger_example_kira_after_minotaur() -> None:
    """unbroken.es.txt, Paso del hambre, Ejemplo: "Después de derrotar al Minotauro de Nivel 3, la Cazadora de Kira
    debe comer 3 Alimentos. Ella solo tiene 2 alimentos. Además, decide guardar uno para el nivel final y solo come 1
    alimento. Recupera 1 pequeño esfuerzo por comerlo. Luego, debido a que comió 2 alimentos menos de lo necesario,
    pierde 3 pequeños esfuerzos (uno por el primer alimento faltante, dos por el segundo alimento faltante)"
    """
    game = new_game("spanish", character=KIRA)
    minotaur = monster_card(game, "Minotaur")
    assert minotaur.level == 3
    state = hunger_state(game, "Minotaur", res={"small_effort": 8, "food": 2})
    assert state.food_requirement() == 3
    state.apply_action(game.actions.eat + 1)
    assert res(state)["food"] == 1  # one kept for the final level
    assert res(state)["small_effort"] == 8 + 1 - 3
    assert state.level == 4 and not state.is_terminal()


# =============================================================================================== end of level / game
def test_end_of_level(english) -> None:
    """unbroken.en.txt, End of phase: "Reset the token on your character's ability bar to show an available number of
    uses equal to the level you are about to enter" ... "Discard any currently active conditions ... and move any new
    conditions ... next to your character sheet" ... "Discard the defeated monster, removing it from the game."
    """
    webbed, hungry = condition_index(english, "Webbed"), condition_index(english, "Hungry")
    state = hunger_state(
        english,
        "Kobold",
        res={"small_effort": 10, "food": 2},
        ability_uses=0,
        conditions_active=[webbed],
        conditions_next=[hungry],
        wounds=3,
        armor_broken=1,
    )
    state.apply_action(english.actions.eat + 1)
    assert state.level == 2
    assert state.ability_uses == 2
    assert state.conditions_active == (hungry,) and state.conditions_next == []
    assert not state.monster_revealed and state.wounds == 0 and state.armor_broken == 0
    assert state.phase == Phase.DECIDE_TRAVEL
    assert res(state)["time"] == skull(english, 2)


def test_win_after_level_four_and_score(english) -> None:
    """unbroken.en.txt, End of phase: "If the monster you have just defeated was level IV, congratulations — you won
    the game!" Calculating your score: "Each remaining resource (except small effort) has a point value: Medium Effort
    3, Large Effort 5, Cunning 2, Metal 3, Wood 2, Food 3, Treasure 10".
    """
    left = {
        "small_effort": 9,
        "medium_effort": 1,
        "large_effort": 1,
        "cunning": 2,
        "metal": 1,
        "wood": 1,
        "treasure": 2,
    }
    state = hunger_state(english, "Troll", res={**left, "food": 4 + 1})
    state.apply_action(english.actions.eat + 4)
    assert state.is_terminal() and state.returns() == [1.0]
    remaining = {**left, "small_effort": 9 + 4, "food": 1}
    expected = sum(RULEBOOK_POINTS.get(name, 0) * amount for name, amount in remaining.items())
    assert state.score() == [float(expected)]
    assert state.title() == english.title(expected)


@pytest.mark.parametrize(
    ("score", "title"),
    [
        (0, "Prey"),
        (1, "Castoff"),
        (10, "Castoff"),
        (11, "Survivor"),
        (20, "Survivor"),
        (21, "Avenger"),
        (30, "Avenger"),
        (31, "Revenant"),
        (40, "Revenant"),
        (41, "Nemesis"),
        (99, "Nemesis"),
    ],
)
def test_titles(english, score: int, title: str) -> None:
    """unbroken.en.txt, Calculating your score: "0 Prey, 1-10 Castoff, 11-20 Survivor, 21-30 Avenger, 31-40 Revenant,
    41+ Nemesis".
    """
    assert english.title(score) == title


# =============================================================================================== appendices
def test_ability_uses_equal_the_level(english) -> None:
    """unbroken.en.txt, Appendix B: "In each level, you can use your character's abilities a number of times equal to
    the current level." "Some abilities specify "travel action" or "combat action.""
    """
    forage = ability_action(english, "Forage")
    ability = english.cards.characters[english.character].abilities[0]
    state = travel_state(english, level=2, res={"small_effort": 10, "time": 7})
    for _ in range(2):
        state.apply_action(forage)
    assert state.ability_uses == 0
    assert forage not in state.legal_actions()
    assert res(state)["food"] == 2 * names(dict(ability.effects)["gain"])["food"]
    assert res(state)["small_effort"] == 10 - 2 * names(ability.cost)["small_effort"]


def test_condition_for_next_level(english) -> None:
    """unbroken.en.txt, Appendix C: "If a monster effect causes you to gain a condition for the next level, find that
    condition card in the condition deck and place it next to the monster sheet. ... These will affect your character
    for the duration of the next level."
    """
    hungry = condition_index(english, "Hungry")
    extra = english.cards.conditions[hungry].modifiers["food_requirement"]
    wererat = monster_card(english, "Wererat")
    face = face_where(wererat, lambda e: any(k == "condition" and a[1] == "next_level" for k, a in e), "next level")
    state = roll_state(english, "Wererat")
    state.apply_action(face)
    assert state.conditions_next == [hungry] and state.conditions_active == ()
    state = hunger_state(english, "Wererat", conditions_next=[hungry], res={"food": 5})
    assert state.food_requirement() == 1
    state.apply_action(english.actions.eat + 1)
    assert state.conditions_active == (hungry,)
    state = hunger_state(english, "Goblin", conditions_active=[hungry], res={"food": 5})
    assert state.food_requirement() == 2 + extra


def test_immediate_condition_for_rounds_expires(english) -> None:
    """unbroken.en.txt, Appendix C: "If a monster effect causes you to gain a condition immediately ... it is active
    for the current combat ... (Sometimes you will gain a condition immediately, but it will only be active for a
    specified number of combat rounds.)"
    """
    wererat = monster_card(english, "Wererat")
    ((kind, (poisoned, when, rounds)),) = wererat.ambush
    assert kind == "condition" and when == "now" and rounds >= 1
    per_turn = names(english.cards.conditions[poisoned].modifiers["round_loss"])["small_effort"]
    miss = face_where(wererat, lambda e: e[0][0] == "miss", "a miss")
    card = english.cards.encounters[encounter_index(english, "Quiet alcove")]
    state = at_card(english, "Quiet alcove", monster="Wererat", res={"small_effort": 5, "time": 1})
    state.apply_action(english.actions.rest)
    effort = 5 + card.time
    for _ in range(rounds):
        assert poisoned in state.conditions_now
        effort -= per_turn
        assert res(state)["small_effort"] == effort
        apply_all(state, english.actions.skip, miss)
    assert poisoned not in state.conditions_now
    assert res(state)["small_effort"] == effort


@pytest.mark.parametrize("difficulty", ["normal", "hard"])
def test_immediate_condition_from_a_roll_covers_the_next_turns(difficulty: str) -> None:
    """unbroken.en.txt, Appendix C: "(Sometimes you will gain a condition immediately, but it will only be active for a
    specified number of combat rounds.)" (RULES.md: "for n rounds" covers the player's next n turns in either turn
    order.)
    """
    game = new_game(difficulty=difficulty)
    spider = monster_card(game, "Giant Spider")
    dazed = condition_index(game, "Dazed")
    face = face_where(spider, lambda e: e[0][0] == "condition" and e[0][1][0] == dazed, "Dazed")
    assert spider.combat[face - 1].effects[0][1][2] == 1
    state = roll_state(game, "Giant Spider")
    state.apply_action(face)
    # The player's next turn is skipped: play is back at the monster's roll, and Dazed is spent.
    assert state.phase == Phase.CHANCE_MONSTER_ROLL
    assert dazed not in state.conditions_now


def test_immediate_condition_without_rounds_lasts_the_combat(english) -> None:
    """unbroken.en.txt, Appendix C: "it is active for the current combat, but will be discarded at the end." """
    poisoned = condition_index(english, "Poisoned")
    elf = monster_card(english, "Dark Elf")
    miss = face_where(elf, lambda e: e[0][0] == "miss", "a miss")
    state = roll_state(english, "Dark Elf", conditions_now={poisoned: -1}, round=7)
    state.apply_action(miss)
    assert state.conditions_now == {poisoned: -1}
    bare = english.cards.weapons[weapon_index(english, "Bare Hands")]
    wound = next(i for i, a in enumerate(bare.attacks) if a.wounds)
    state = combat_state(
        english, "Dark Elf", conditions_now={poisoned: -1}, wounds=elf.health - 1, armor_broken=elf.armor
    )
    state.apply_action(english.actions.attack + wound)
    assert state.conditions_now == {}


@pytest.mark.parametrize("face", [1, 2, 3, 4, 5, 6])
def test_easy_bonus_resource_by_die_face(face: int) -> None:
    """unbroken.en.txt, Appendix D: "On EASY, you roll the die once during setup to determine an extra starting
    resource: metal (1), wood (2), food (3), cunning (4), medium effort (5), or treasure (6)."
    """
    game = new_game("english", "easy")
    state = apply_all(game.new_initial_state(), 1, 1, 1, 1)
    assert state.phase == Phase.CHANCE_BONUS_RESOURCE
    assert [o for o, _ in state.chance_outcomes()] == [1, 2, 3, 4, 5, 6]
    state.apply_action(face)
    expected = dict.fromkeys(RESOURCES, 0) | {"small_effort": 13, "time": 7}
    expected[EASY_BONUS[face]] += 1
    assert res(state) == expected


def test_easy_starts_with_a_skill_choice() -> None:
    """unbroken.en.txt, Appendix D: "You also begin the game with a skill card – draw two and select one, then put the
    other in the discard pile."
    """
    game = new_game("english", "easy")
    state = apply_all(game.new_initial_state(), 1, 1, 1, 1, 3)
    assert state.phase == Phase.CHANCE_SKILL_DRAW
    first, second = skill_index(game, "Flexible"), skill_index(game, "Parry")
    apply_all(state, first, second)
    assert state.phase == Phase.DECIDE_SKILL
    state.apply_action(game.actions.take_skill)
    assert state.skills == (first,) and state.skill_discard[second] == 1
    assert state.phase == Phase.DECIDE_TRAVEL


@pytest.mark.parametrize("preset", ["english", "spanish"])
def test_hard_monster_attacks_first(preset: str) -> None:
    """unbroken.en.txt, Appendix D: "In addition, monsters attack first during combat." unbroken.es.txt: "(Si juegas en
    dificultad Difícil, el monstruo tomará el primer turno)."
    """
    for difficulty, first in (("normal", Phase.DECIDE_PLAYER_TURN), ("hard", Phase.CHANCE_MONSTER_ROLL)):
        game = new_game(preset, difficulty)
        state = travel_state(game, monster="Kobold", monster_revealed=True)
        state.apply_action(game.actions.face_monster)
        if state.phase == Phase.CHANCE_MONSTER_REVEAL:
            state.apply_action(monster_card(game, "Kobold").number)
        assert state.phase == first, difficulty
        assert state.round == 1


# =============================================================================================== contract
def test_illegal_action_names_label_and_legal_actions(english) -> None:
    """DESIGN.md, core contract: "`apply_action(a)` raises `IllegalActionError` (naming the action's label and the
    legal ones) on an illegal action; it never substitutes another action." (unbroken.en.txt, Preparation step: "If
    you don't have the resources, you cannot take the action.")
    """
    state = travel_state(english)
    before = state.to_dict()
    attack = english.actions.attack
    with pytest.raises(IllegalActionError) as error:
        state.apply_action(attack)
    message = str(error.value)
    assert english.action_label(attack) in message
    for action in state.legal_actions():
        assert english.action_label(action) in message
    assert error.value.legal == state.legal_actions()
    assert state.to_dict() == before
    with pytest.raises(IllegalActionError, match="out of range"):
        state.apply_action(english.spec.num_actions + 5)
    chance = roll_state(english, "Kobold")
    with pytest.raises(IllegalActionError):
        chance.apply_action(7)


def test_to_dict_from_dict_round_trip(english) -> None:
    """DESIGN.md, core contract: a State is "serialisable to a JSON-able dict and back (`to_dict` / `from_dict`)"."""
    state = combat_state(
        english,
        "Goblin",
        skills=[skill_index(english, "Dodge")],
        conditions_now={condition_index(english, "Poisoned"): 2},
        conditions_next=[condition_index(english, "Hungry")],
        wounds=2,
        res={"small_effort": 11, "food": 3, "metal": 1},
    )
    data = json.loads(json.dumps(state.to_dict()))
    again = english.state_from_dict(data)
    assert again == state and again.to_dict() == state.to_dict()
    assert again.legal_actions() == state.legal_actions()
    assert pickle.loads(pickle.dumps(state)) == state
    clone = state.clone()
    clone.apply_action(english.actions.skip)
    assert clone != state


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"bogus": 1}, "bogus"),
        ({"level": "two"}, "level"),
        ({"level": 5}, "level"),
        ({"resources": [99, 0, 0, 0, 0, 0, 0, 0, 7]}, "resources"),
        ({"weapons": ["Club"]}, "weapons"),
        ({"weapons": [1]}, "weapons"),
        ({"skills": ["No Such Skill"]}, "skills"),
        ({"revealed_cards": ["Bear trap"]}, "revealed_cards"),
        ({"committed": 1}, "committed"),
        ({"conditions_next": [99]}, "conditions_next"),
        ({"phase": 8}, "phase"),
        ({"phase": "SHOPPING"}, "phase"),
    ],
)
def test_from_dict_bad_field_names_it(english, change: dict, field: str) -> None:
    """DESIGN.md, core contract: `state_from_dict` "raises StateFormatError naming the bad field"."""
    data = travel_state(english).to_dict()
    data.update(change)
    with pytest.raises(StateFormatError, match=field):
        english.state_from_dict(data)


# =============================================================================================== other interpretations
def test_commitment_persists_into_next_level(english) -> None:
    """unbroken.en.txt, Decision step: "(Note: If you chose to "commit to next encounter" as a part of a previous
    Exploration Step, you must continue on to the Exploration Step.)" (RULES.md: it persists through an ambush into
    the next level's first exploration.)
    """
    state = hunger_state(english, "Kobold", committed=True, res={"food": 1})
    state.apply_action(english.actions.eat + 1)
    assert state.level == 2 and state.phase == Phase.DECIDE_TRAVEL
    assert english.actions.face_monster not in state.legal_actions()


def test_hunger_tip_eat_less_than_required(english) -> None:
    """unbroken.en.txt, Hunger step, TIP: "If you have plenty of effort remaining, you can decide to eat less food than
    the current requirement, in order to save the food for a more crucial moment later on."
    """
    state = hunger_state(english, "Gnoll", res={"small_effort": 10, "food": 3})
    state.apply_action(english.actions.eat + 2)
    assert res(state)["food"] == 1
    assert res(state)["small_effort"] == 10 + 2 - 1


def test_lost_game_has_no_score(english) -> None:
    """unbroken.en.txt, Calculating your score: "If you managed to win, your final score is calculated based on the
    remaining resources you possess." (A lost game has no score.)
    """
    state = hunger_state(english, "Troll", res={"small_effort": 0, "treasure": 5, "food": 0})
    state.apply_action(english.actions.eat)
    assert state.returns() == [-1.0] and state.score() == [0.0] and state.title() == ""


def test_every_shipped_combat_row_applies(english) -> None:
    """unbroken.en.txt, Monster turns: "apply the monster effect that matches the die roll." Every row of every
    shipped monster can be applied from a fresh combat without error (a smoke check of the effect interpreter).
    """
    for monster in english.cards.monsters:
        for face in range(1, 7):
            plenty = {"small_effort": 13, "medium_effort": 2, "cunning": 2, "food": 2, "wood": 1, "metal": 1}
            state = roll_state(english, monster.name, res=plenty)
            state.apply_action(face)
            state.validate()
            assert state.phase in (Phase.DECIDE_PLAYER_TURN, Phase.CHANCE_MONSTER_ROLL), (monster.name, face)


def test_play_and_replays_never_name_a_face_down_monster() -> None:
    """English rulebook: the monsters are set up face down, so the roll that picks one is not shown to the player;
    the Spanish printing rolls each monster when it is revealed, so its labels hide nothing."""
    from envs.unbroken.game import UnbrokenGame

    for preset, hidden in (("english", True), ("spanish", False)):
        state = UnbrokenGame(preset=preset).new_initial_state()
        rng = np.random.default_rng(0)
        labels = []
        while state.is_chance_node():
            outcome = state.sample_chance(rng)
            labels.append((state.chance_label(outcome), state.chance_label_for(outcome, 0)))
            state.apply_action(outcome)
        face_down = [(full, seen) for full, seen in labels if "face down" in full]
        assert bool(face_down) == hidden
        for full, seen in face_down:
            assert "d6" in full and "d6" not in seen and seen.endswith("monster dealt face down")
        assert all(full == seen for full, seen in labels if "face down" not in full)
