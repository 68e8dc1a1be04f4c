"""The two printings of Unbroken: one test per row of RULES.md's "Printing differences" table.

Each flag of RulePreset is checked on the same scenario in both presets (the outcomes differ as the table says),
and once more as an ablation: the English preset with only that flag switched gives the Spanish outcome.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any

import pytest

from envs.unbroken.cards import RESOURCE_INDEX
from envs.unbroken.game import UnbrokenGame
from envs.unbroken.presets import ENGLISH, PRESETS, SPANISH, RulePreset, get_preset
from envs.unbroken.state import Phase
from envs.unbroken.validation import MAX_FIGURE_CHANGE

from .conftest import (
    apply_all,
    combat_state,
    condition_index,
    encounter_index,
    face_where,
    hunger_state,
    make_state,
    monster_card,
    names,
    new_game,
    res,
    roll_state,
    skill_index,
    travel_state,
    with_combat_skill,
)

FLAGS = [f.name for f in fields(RulePreset) if f.name != "name"]


# =============================================================================================== scenarios
def scout_reveal(game: UnbrokenGame) -> int:
    """Scout in level II: the phase right after paying (a d6 node when the monster is picked at reveal)."""
    state = travel_state(game, level=2, res={"small_effort": 10, "time": 5})
    state.apply_action(game.actions.scout)
    return state.phase


def trick_kobold(game: UnbrokenGame) -> int:
    """Trick the level I Kobold: the phase right after paying."""
    cost = names(monster_card(game, "Kobold").trickery)
    state = travel_state(game, monster="Kobold", monster_revealed=True, res={"small_effort": 10, "time": 5, **cost})
    apply_all(state, game.actions.face_monster, game.actions.trick)
    return state.phase


def committed_unpayable(game: UnbrokenGame) -> list[int]:
    """A committed encounter whose spend cannot be paid: the legal actions."""
    card = encounter_index(game, "Starving goblins")
    state = make_state(
        game, Phase.DECIDE_ENCOUNTER_OR_REST, chosen_card=card, committed_now=True, res={"food": 0, "time": 7}
    )
    return state.legal_actions()


def minotaur_roll_six(game: UnbrokenGame) -> int:
    """The Minotaur (+1 to its rolls) rolls a 6: small effort left afterwards."""
    state = roll_state(game, "Minotaur", res={"small_effort": 13})
    state.apply_action(6)
    return res(state)["small_effort"]


def poisoned_again(game: UnbrokenGame) -> int:
    """Already Poisoned for 1 more round, the Giant Spider poisons again: rounds of Poisoned left."""
    poisoned = condition_index(game, "Poisoned")
    face = face_where(
        monster_card(game, "Giant Spider"), lambda e: e[0][0] == "condition" and e[0][1][0] == poisoned, ""
    )
    state = roll_state(game, "Giant Spider", conditions_now={poisoned: 1})
    state.apply_action(face)
    return state.conditions_now[poisoned]


def level_four_time(game: UnbrokenGame) -> tuple[int, bool]:
    """Face the (revealed) level IV Troll with 3 time left: (time shown, token removed)."""
    state = travel_state(game, level=4, monster="Troll", monster_revealed=True, res={"small_effort": 10, "time": 3})
    state.apply_action(game.actions.face_monster)
    assert state.phase == Phase.DECIDE_PLAYER_TURN
    return res(state)["time"], state.time_token_removed


def lost_reveal_count(game: UnbrokenGame) -> int:
    """Explore while Lost (reveal 1 fewer): the number of cards the exploration reveals."""
    lost = condition_index(game, "Lost")
    assert game.cards.conditions[lost].modifiers["reveal_modifier"] < 0
    state = travel_state(game, conditions_active=[lost])
    state.apply_action(game.actions.explore)
    return state.reveal_target


def weakening_game(game: UnbrokenGame) -> UnbrokenGame:
    """The same preset with Second Wind turned into a combat action lowering the monster's health and armor."""
    effects = (("monster_health", -2), ("monster_armor", -1))
    return new_game(game.preset, cards=with_combat_skill(game.cards, "Second Wind", effects))


def weaken_orc(game: UnbrokenGame) -> tuple[int, int]:
    """Use the weakening skill against the Orc: (health, armor) afterwards."""
    game = weakening_game(game)
    skill = skill_index(game, "Second Wind")
    state = combat_state(game, "Orc", skills=[skill])
    state.apply_action(game.actions.skill + skill)
    return state.monster_health(), state.monster_armor()


SCENARIOS: dict[str, Callable[[UnbrokenGame], Any]] = {
    "monster_drawn_at_setup": scout_reveal,
    "trick_gives_skill": trick_kobold,
    "committed_unpayable_discard": committed_unpayable,
    "clamp_monster_roll": minotaur_roll_six,
    "extend_immediate_condition": poisoned_again,
    "remove_time_token_at_level_four": level_four_time,
    "reveal_can_decrease": lost_reveal_count,
    "monster_stat_changes": weaken_orc,
}


# =============================================================================================== one test per row
def test_which_monster_english_drawn_at_setup(english, spanish) -> None:
    """unbroken.en.txt, Setting up 6: "Form the monster deck by randomly selecting 1 monster sheet for each level."
    unbroken.es.txt, Preparación: nothing is drawn; Paso de preparación: "si realiza la acción general de Scout durante
    el paso de preparación, tire un dado de seis caras. Elija el monstruo marcado con el número que ha obtenido de las
    hojas de monstruos del nivel en el que se encuentra."
    """
    assert english.new_initial_state().phase == Phase.CHANCE_SETUP_MONSTER
    state = spanish.new_initial_state()
    assert state.phase == Phase.DECIDE_TRAVEL and state.monsters == [-1, -1, -1, -1]
    assert scout_reveal(english) == Phase.DECIDE_TRAVEL
    assert scout_reveal(spanish) == Phase.CHANCE_MONSTER_REVEAL
    state = travel_state(spanish, level=2, res={"small_effort": 10, "time": 5})
    state.apply_action(spanish.actions.scout)
    assert [o for o, _ in state.chance_outcomes()] == [1, 2, 3, 4, 5, 6]
    state.apply_action(4)
    assert state.monster() == spanish.cards.monster_index(2, 4) and state.monster_revealed
    assert state.phase == Phase.DECIDE_TRAVEL
    # The scouted monster is the one met: no second roll at the trickery step.
    state.apply_action(spanish.actions.face_monster)
    assert state.phase != Phase.CHANCE_MONSTER_REVEAL
    assert state.monster() == spanish.cards.monster_index(2, 4)


@pytest.mark.parametrize("step", ["trickery", "ambush"])
def test_spanish_monster_rolled_when_met(spanish, step: str) -> None:
    """unbroken.es.txt, Paso de emboscada / Paso de engaño: "Si aún no se ha revelado el monstruo de este nivel,
    muéstralo ahora. Tira un dado de seis caras. Elija el monstruo marcado con el número que ha obtenido"."""
    if step == "trickery":
        state = travel_state(spanish, res={"small_effort": 10, "time": 5})
        state.apply_action(spanish.actions.face_monster)
    else:
        card = encounter_index(spanish, "Quiet alcove")
        state = make_state(
            spanish, Phase.DECIDE_ENCOUNTER_OR_REST, chosen_card=card, res={"small_effort": 5, "time": 1}
        )
        state.apply_action(spanish.actions.rest)
    assert state.phase == Phase.CHANCE_MONSTER_REVEAL
    state.apply_action(3)
    assert state.monster() == spanish.cards.monster_index(1, 3)
    assert state.monster_revealed and state.ambushed == (step == "ambush")
    assert state.phase in (Phase.DECIDE_PLAYER_TURN, Phase.DECIDE_TRICKERY)


def test_tricking_english_skill_spanish_straight_to_hunger(english, spanish) -> None:
    """unbroken.en.txt, Trickery step: "If you pay the trickery cost, proceed directly to the Rewards Step. You do not
    receive any rewards if you bypass the monster this way, but you do still gain a skill card." unbroken.es.txt, Paso
    de engaño: "Si paga el costo del engaño, continúe con el Paso del Hambre." Paso de recompensas: "Si engañaste al
    monstruo, no obtienes ninguna de las recompensas enumeradas en la hoja de monstruos. No puedes adquirir una nueva
    habilidad."
    """
    assert trick_kobold(english) == Phase.CHANCE_SKILL_DRAW
    assert trick_kobold(spanish) == Phase.DECIDE_HUNGER
    kobold = monster_card(english, "Kobold")
    state = travel_state(english, monster="Kobold", monster_revealed=True, res={"time": 5, **names(kobold.trickery)})
    peek, dodge = skill_index(english, "Take a Peek"), skill_index(english, "Dodge")
    apply_all(state, english.actions.face_monster, english.actions.trick, peek, dodge, english.actions.take_skill)
    assert state.skills == (peek,) and state.phase == Phase.DECIDE_HUNGER
    assert res(state)["food"] == 0 and res(state)["wood"] == 0  # no monster rewards


def test_committed_unpayable_english_rest_spanish_discard(english, spanish) -> None:
    """unbroken.es.txt, Paso de exploración: "Si no puede realizar el intercambio en un encuentro con el que se ha
    comprometido (porque no tiene los recursos), deséchelo." (unbroken.en.txt does not cover it: RULES.md lets the
    player rest instead.)
    """
    assert committed_unpayable(english) == [english.actions.rest]
    assert committed_unpayable(spanish) == [spanish.actions.discard_committed]
    card = encounter_index(spanish, "Starving goblins")
    state = make_state(
        spanish,
        Phase.DECIDE_ENCOUNTER_OR_REST,
        chosen_card=card,
        committed_now=True,
        res={"small_effort": 6, "time": 7},
    )
    state.apply_action(spanish.actions.discard_committed)
    after = res(state)
    assert after["small_effort"] == 6 and after["food"] == 0 and after["cunning"] == 0
    assert state.encounter_discard[card] == 1 and state.chosen_card == -1
    assert state.phase == Phase.DECIDE_TRAVEL


def test_roll_modifiers_spanish_clamped_english_off_table(english, spanish) -> None:
    """unbroken.es.txt, Turnos del monstruo: "independientemente de las modificaciones, el resultado de la tirada no
    pueda exceder de 6 o caer por debajo de 1." (unbroken.en.txt does not cover it: RULES.md, a roll off the table
    matches no row.)
    """
    minotaur = monster_card(english, "Minotaur")
    assert minotaur.modifiers["roll_modifier"] > 0
    row_six = minotaur.combat[5].effects
    assert len(row_six) == 1 and row_six[0][0] == "lose"
    assert minotaur_roll_six(english) == 13
    assert minotaur_roll_six(spanish) == 13 - names(row_six[0][1])["small_effort"]


def test_immediate_condition_again_spanish_extends(english, spanish) -> None:
    """unbroken.es.txt, Turnos del monstruo: "Si esto le ocasionaría la aparición inmediata de una afección que ya
    tiene, extienda la duración de la afección por el tiempo indicado." (Not covered in unbroken.en.txt: nothing
    happens.)
    """
    poisoned = condition_index(english, "Poisoned")
    spider = monster_card(english, "Giant Spider")
    face = face_where(spider, lambda e: e[0][0] == "condition" and e[0][1][0] == poisoned, "Poisoned")
    rounds = spider.combat[face - 1].effects[0][1][2]
    assert poisoned_again(english) == 1
    assert poisoned_again(spanish) == 1 + rounds


def test_level_four_time_token(english, spanish) -> None:
    """unbroken.es.txt, Paso de engaño: "Si este es el monstruo final (Nivel IV), retira la ficha de la barra de
    recursos de Tiempo." Both printings: "if you are in level IV, spend an equal number of small effort instead."
    """
    assert level_four_time(english) == (3, False)
    assert level_four_time(spanish) == (0, True)


@pytest.mark.parametrize(("preset", "time_after"), [("english", 3 + 2), ("spanish", 0)])
def test_time_gained_in_level_four_combat(preset: str, time_after: int) -> None:
    """unbroken.es.txt, Paso de engaño: "Si este es el monstruo final (Nivel IV), retira la ficha de la barra de
    recursos de Tiempo." (RULES.md: time gained during level IV's combat under the Spanish preset is ignored, the token
    is off the bar.) No shipped card gains time in combat, so the scenario gives Second Wind such an effect.
    """
    time_gain = (("gain", ((RESOURCE_INDEX["time"], 2),)),)
    game = new_game(preset, cards=with_combat_skill(new_game().cards, "Second Wind", time_gain))
    skill = skill_index(game, "Second Wind")
    state = travel_state(
        game, level=4, monster="Troll", monster_revealed=True, skills=[skill], res={"small_effort": 10, "time": 3}
    )
    apply_all(state, game.actions.face_monster, game.actions.skill + skill)
    assert res(state)["time"] == time_after


def test_reveal_count_english_only_increases(english, spanish) -> None:
    """unbroken.en.txt, Exploration step: "Reveal two cards (certain effects may increase this number)".
    unbroken.es.txt, Paso de exploración: "Revela dos cartas (ciertos efectos pueden aumentar o disminuir este
    número)".
    """
    reveal = english.cards.display.exploration_reveal
    assert lost_reveal_count(english) == reveal
    assert lost_reveal_count(spanish) == reveal - 1
    for game in (english, spanish):
        state = travel_state(game, skills=[skill_index(game, "Take a Peek")])
        assert state.reveal_count() == reveal + 1


def test_health_and_armor_changes_spanish_only(english, spanish) -> None:
    """unbroken.es.txt, Ataque con arma: "Algunos efectos pueden aumentar o disminuir los valores de salud y armadura
    indicados por el monstruo. Esto cambiará los números que las fichas necesitarían alcanzar en la barra de armadura
    (para comenzar a infligir heridas) o en la barra de recursos para heridas (para derrotar al monstruo)."
    """
    orc = monster_card(english, "Orc")
    assert weaken_orc(english) == (orc.health, orc.armor)
    assert weaken_orc(spanish) == (orc.health - 2, orc.armor - 1)
    # Lowering the health to the wounds already inflicted defeats the monster.
    game = weakening_game(spanish)
    skill = skill_index(game, "Second Wind")
    state = combat_state(game, "Orc", skills=[skill], wounds=orc.health - 2)
    state.apply_action(game.actions.skill + skill)
    assert state.phase == Phase.CHANCE_SKILL_DRAW
    # Values never drop below health 1 / armor 0.
    state = combat_state(spanish, "Orc", health_delta=-MAX_FIGURE_CHANGE, armor_delta=-MAX_FIGURE_CHANGE)
    assert state.monster_health() == 1 and state.monster_armor() == 0


def test_scoring_spanish_uses_english_table(english, spanish) -> None:
    """unbroken.es.txt, Calcular su puntaje: "Cada recurso restante (excepto un pequeño esfuerzo) tiene un valor en
    puntos:" (the table is cut from the page: RULES.md uses the English table).
    """
    results = []
    for game in (english, spanish):
        left = {"medium_effort": 2, "large_effort": 1, "cunning": 3, "metal": 1, "wood": 2, "treasure": 1}
        state = hunger_state(game, "Ogre", res={"small_effort": 8, "food": 5, **left})
        state.apply_action(game.actions.eat + 4)
        assert state.returns() == [1.0]
        results.append((state.score(), state.title()))
    assert results[0] == results[1]
    assert results[0][0] == [float(2 * 3 + 5 + 3 * 2 + 3 + 2 * 2 + 10 + 1 * 3)]


@pytest.mark.parametrize("preset", ["english", "spanish"])
def test_hard_is_the_same_in_both_printings(preset: str) -> None:
    """unbroken.en.txt, Appendix D: "On HARD, you begin the game with only 10 small effort, instead of 13. In addition,
    monsters attack first during combat." unbroken.es.txt: "(Si juegas en dificultad Difícil, el monstruo tomará el
    primer turno)."
    """
    game = new_game(preset, "hard")
    assert res(game.new_initial_state())["small_effort"] == 10
    state = travel_state(game, monster="Kobold", monster_revealed=True, res={"small_effort": 10, "time": 5})
    state.apply_action(game.actions.face_monster)
    assert state.phase == Phase.CHANCE_MONSTER_ROLL


# =============================================================================================== flags as a whole
def test_preset_flags_follow_the_printing_table() -> None:
    """shared/rules/README.md: "Both must be playable, as two named rule presets; each difference below is its own
    flag." Every flag differs between the printings; the English printing is the one with every flag off but the
    setup draw and the trickery skill.
    """
    assert PRESETS == {"english": ENGLISH, "spanish": SPANISH}
    assert set(FLAGS) == set(SCENARIOS)
    for flag in FLAGS:
        assert getattr(ENGLISH, flag) != getattr(SPANISH, flag), flag
    assert ENGLISH.monster_drawn_at_setup and ENGLISH.trick_gives_skill
    assert not any(getattr(ENGLISH, f) for f in FLAGS if f not in ("monster_drawn_at_setup", "trick_gives_skill"))


@pytest.mark.parametrize("flag", FLAGS)
def test_each_flag_alone_switches_its_rule(flag: str) -> None:
    """shared/rules/README.md: "each difference below is its own flag": the English preset with only `flag` switched
    gives the Spanish outcome of that flag's scenario, and nothing else is needed for it.
    """
    scenario = SCENARIOS[flag]
    english, spanish = scenario(new_game("english")), scenario(new_game("spanish"))
    assert english != spanish
    switched = ENGLISH.with_flags(**{flag: getattr(SPANISH, flag)})
    assert scenario(new_game(switched)) == spanish
    back = SPANISH.with_flags(**{flag: getattr(ENGLISH, flag)})
    assert scenario(new_game(back)) == english


def test_unknown_flag_and_preset_raise_clear_errors() -> None:
    """A misspelt flag or preset name fails loudly, naming what exists."""
    with pytest.raises(ValueError, match="clamp_monster_roll"):
        ENGLISH.with_flags(clamp_roll=True)
    with pytest.raises(ValueError, match="english"):
        get_preset("french")
    with pytest.raises(ValueError, match="spanish"):
        UnbrokenGame(preset="french")
    assert get_preset(SPANISH) is SPANISH
