"""What a person playing Unbroken is shown: the text view, each legal action by name, and what every event did.

Positions are built from state dicts (conftest.py); every number expected is read from the card data, so the tests
check what is shown, not the designed content.
"""

from __future__ import annotations

from envs.core.game import CHANCE
from envs.unbroken.cards import RESOURCES, Bag
from envs.unbroken.game import UnbrokenGame
from envs.unbroken.state import Phase

from .conftest import (
    combat_state,
    condition_index,
    encounter_index,
    face_where,
    make_state,
    monster_card,
    only_small_effort_loss,
    roll_state,
    skill_index,
    travel_state,
    weapon_index,
)


def words(bag: Bag) -> str:
    """A cost as the view writes it: '1 cunning + 1 food'."""
    return " + ".join(f"{amount} {RESOURCES[r].replace('_', ' ')}" for r, amount in bag)


def legal_texts(game: UnbrokenGame, state) -> list[str]:
    """Every legal action as the player reads it in `state`."""
    observer = game.observer(0)
    return [observer.action_text(state, action) for action in state.legal_actions()]


def test_the_battle_view_shows_attack_and_trick_costs_the_combat_table_and_conditions(english) -> None:
    """Everything the rulebook has the player consult in battle is in the text: the weapon's attack costs (Attack
    with Weapon), the trickery cost and the combat actions table (Monster Stats), and the conditions beside the
    character sheet with their remaining rounds (Appendix C)."""
    poisoned, lost, hungry = (condition_index(english, name) for name in ("Poisoned", "Lost", "Hungry"))
    dagger = weapon_index(english, "Dagger")
    state = combat_state(
        english,
        "Hyena",
        weapons=[0, dagger],
        conditions_now={poisoned: 2},
        conditions_active=(lost,),
        conditions_next=[hungry],
        skills=(skill_index(english, "Dodge"),),
    )
    text = english.observer(0).text(state)
    assert "(normal difficulty, english printing)" in text.splitlines()[0]
    for i, attack in enumerate(english.cards.weapons[dagger].attacks, start=1):
        assert f"  attack {i}: {words(attack.cost)} -> " in text
    hyena = monster_card(english, "Hyena")
    assert hyena.trickery is not None and f"  trickery: pay {words(hyena.trickery)}" in text
    assert "  combat table (d6):" in text
    for face, row in enumerate(hyena.combat, start=1):
        if only_small_effort_loss(row.effects) and row.alt is None:
            assert f"    {face}: lose {words(row.effects[0][1])}\n" in text
        elif row.effects[0][0] == "miss":
            assert f"    {face}: miss\n" in text
    assert f"  rewards: {words(hyena.rewards)}" in text
    conditions = english.cards.conditions
    assert f"immediate conditions:\n  Poisoned - {conditions[poisoned].text} (2 rounds left)" in text
    assert f"conditions this level:\n  Lost - {conditions[lost].text}" in text
    assert f"for the next level:\n  Hungry - {conditions[hungry].text}" in text
    assert "skills:\n  Dodge - " in text
    # The legal actions name the weapon and what each attack costs and does.
    attacks = [label for label in legal_texts(english, state) if label.startswith("attack with ")]
    assert attacks and all(label.startswith("attack with Dagger: ") for label in attacks)


def test_a_face_down_monster_shows_no_sheet(english) -> None:
    """Setting up: the monster sheets are stacked face down; the view names no monster and shows no table."""
    state = travel_state(english, monster="Hyena")
    text = english.observer(0).text(state)
    assert "monster: face down (level I)" in text
    assert "Hyena" not in text and "combat table" not in text and "trickery" not in text


def test_choices_name_the_revealed_cards_and_the_offered_skills(english) -> None:
    """Exploration: choose one of the revealed cards; Rewards: keep one of the revealed skill cards. Each choice
    is listed by the card's name with what it does."""
    shrine, cage = encounter_index(english, "Forsaken shrine"), encounter_index(english, "Rusted cage")
    state = make_state(english, Phase.DECIDE_CARD, revealed_cards=[shrine, cage], reveal_target=2)
    texts = legal_texts(english, state)
    assert texts[0].startswith("choose card 1: Forsaken shrine: spend ")
    assert texts[1].startswith("choose card 2: Rusted cage: spend ")
    time = english.cards.encounters[cage].time
    assert f"costs {time} time" in texts[1] and f"(or rest: {time} small effort)" in texts[1]
    peek, flexible = skill_index(english, "Take a Peek"), skill_index(english, "Flexible")
    state = make_state(english, Phase.DECIDE_SKILL, skill_offer=[peek, flexible], skill_target=2)
    texts = legal_texts(english, state)
    skills = english.cards.skills
    assert texts == [
        f"take skill card 1: Take a Peek - {skills[peek].text}",
        f"take skill card 2: Flexible - {skills[flexible].text}",
    ]
    assert "skill offer (keep one):\n  card 1: Take a Peek - " in english.observer(0).text(state)


def test_a_reaction_names_the_skill_and_the_row_it_moves_the_roll_to(english) -> None:
    """Certain skills manipulate the monster's combat roll: the choice says which row each option lands on."""
    dodge = skill_index(english, "Dodge")
    state = combat_state(english, "Hyena", phase=Phase.DECIDE_REACTION, skills=(dodge,), roll=5, last_roll=5)
    texts = legal_texts(english, state)
    skill = english.cards.skills[dodge]
    lowered = 5 + skill.reaction_roll_modifier
    assert skill.reaction_cost is not None
    assert f"use skill Dodge: pay {words(skill.reaction_cost)} -> row {lowered}: " in "\n".join(texts)
    assert any(text.startswith("accept the monster's roll 5: row 5: ") for text in texts)
    assert "the monster rolled 5: row 5: " in english.observer(0).text(state)


def test_after_each_event_the_report_names_rolls_effects_gains_and_losses(english) -> None:
    """Monster Turns: roll the die, consult the table, apply the effect; Attack with Weapon: wounds are inflicted.
    The report under each event says which row was applied and what was gained, lost or inflicted."""
    observer = english.observer(0)
    wererat = monster_card(english, "Wererat")
    face = face_where(wererat, only_small_effort_loss, "a small effort loss")
    lost = dict(wererat.combat[face - 1].effects[0][1])[0]
    state = roll_state(english, "Wererat")
    before = state.clone()
    state.apply_action(face)
    report = observer.report(before, CHANCE, face, state)
    assert report[0] == f"the monster's roll lands on row {face}: lose {lost} small effort"
    assert f"small effort 13 -> {13 - lost}" in report
    # A condition gained now, with its rounds.
    poisoned = condition_index(english, "Poisoned")
    face = face_where(wererat, lambda e: e[0][0] == "condition" and e[0][1][0] == poisoned, "Poisoned")
    rounds = wererat.combat[face - 1].effects[0][1][2]
    state = roll_state(english, "Wererat")
    before = state.clone()
    state.apply_action(face)
    report = observer.report(before, CHANCE, face, state)
    text = english.cards.conditions[poisoned].text
    assert f"condition now: Poisoned - {text} ({rounds} rounds left)" in report
    # An attack: the effort paid and the wounds inflicted.
    state = combat_state(english, "Wererat")
    attack = english.actions.attack
    cost = english.cards.weapons[0].attacks[0].cost
    before = state.clone()
    state.apply_action(attack)
    report = observer.report(before, 0, attack, state)
    assert f"monster wounds 0 -> 1 of {wererat.health}" in report
    assert f"small effort 13 -> {13 - cost[0][1]}" in report
