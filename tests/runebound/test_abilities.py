"""Scripted rule scenarios for ability effects (RULES.md, "Abilities"): silence, removing shields and tokens,
barriers, healing and reflected damage, on the hand-made content of tests/runebound/content/. The text names these
effects on the public facts' enemies (Dreadbringer's Claw "remove foe's shields", Undead Horde's Swarm "silence foe",
Dragon Hybrid's Barrier, Master Thorn's Mind Meld "reflects damage taken as magic damage").
"""

from __future__ import annotations

from envs.runebound.state import Kind
from envs.runebound.symbols import ENEMY, HERO

from .scenarios import act, faces, labels, make_game, position


def test_silence_stops_the_heros_abilities_for_the_round() -> None:
    """Public facts: the Undead Horde's "Swarm (silence foe)": the silenced hero uses no ability this round (Paired
    Strike is no longer offered). Swarm (2) is the Horde's most expensive ability, so it goes before Relentless."""
    game = make_game("Horde")
    hero = [("Tester 1", "physical 1"), ("Blade", "physical 1"), ("Wand", "magic 1")]
    before = position(game, hero, ["-", "-", "-", "-", "-", "-"])
    assert "ability: hero ability 1" in labels(before)
    state = position(game, hero, ["-", "-", "-", "-", "-", "surge 2"], to_act="enemy")
    assert state.silenced[HERO] and state.has_triggered(ENEMY, 1)
    assert "ability: hero ability 1" not in labels(state)


def test_claw_removes_the_heros_shields() -> None:
    """Public facts: the Dreadbringer's "Claw (remove foe's shields)" (the Thief's Claw here): every shield in the
    hero's pool is spent."""
    game = make_game("Thief")
    hero = [("Tester 1", "physical 1"), ("Buckler", "shield 1"), ("Mace", "shield 2")]
    state = position(game, hero, ["-", "surge 1", "-", "-", "-", "-"], to_act="enemy")
    assert faces(state, HERO) == ["physical 1", "-", "-"]


def test_a_barrier_blocks_the_next_damage_this_round() -> None:
    """Public facts: the Dragon Hybrid's "Barrier (cost 2)" (the Shade's Veil here: block the next 2 damage this
    round): the hero's 3 damage meets the barrier first, 1 gets through."""
    game = make_game("Shade")
    hero = [("Tester 1", "physical 1"), ("Mace", "physical 3"), ("Wand", "magic 1")]
    state = position(game, hero, ["-", "-", "-", "surge 1", "-", "-"], to_act="enemy")
    assert state.barrier[ENEMY] == 2
    act(state, "spend: hero token 2")
    act(state, "strike")
    assert state.combat_damage[ENEMY] == 1 and state.barrier[ENEMY] == 0


def test_the_hero_heals_only_when_hurt() -> None:
    """An ability "that would have no effect" is not used (SPENDING SURGES says it of the enemy's; the hero is offered
    only abilities that do something): Mend heals 2, and is offered only once the hero has damage."""
    game = make_game(hero="Mender")
    hero = [("Tester 1", "physical 1"), ("Wand", "surge 1")]
    fresh = position(game, hero, ["-"] * 6)
    assert "ability: hero ability 1" not in labels(fresh)
    hurt = position(game, hero, ["-"] * 6, combat_damage={"hero": 3, "enemy": 0})
    act(hurt, "ability: hero ability 1")
    assert hurt.combat_damage[HERO] == 1


def test_mind_meld_reflects_the_damage_taken_this_round_as_magic() -> None:
    """Public facts: Master Thorn's "Mind Meld (cost 2), which reflects damage taken as magic damage" (the Mender's
    Mirror here): 3 damage taken this round come back as 3 magic damage."""
    game = make_game(hero="Mender")
    hero = [("Tester 1", "physical 1"), ("Knife", "surge 2")]
    state = position(game, hero, ["skull 1", "skull 2", "-", "-", "-", "-"], to_act="enemy")
    assert state.combat_damage[HERO] == 4 and state.combat_round_damage[HERO] == 4
    act(state, "ability: hero ability 2")
    assert state.combat_damage[ENEMY] == 4


def test_a_heros_barrier_blocks_before_its_shields() -> None:
    """The Mender's Ward: block the next 2 damage this round. A barrier meets damage before the shields (RULES.md,
    "Shields"): of 3, the barrier takes 2 and the shield 1."""
    game = make_game(hero="Mender")
    hero = [("Tester 1", "physical 1"), ("Wand", "surge 1"), ("Buckler", "shield 1")]
    state = position(game, hero, ["skull 1", "-", "-", "-", "-", "skull 1"])
    act(state, "ability: hero ability 3", Kind.HERO_COMBAT_ACTION)
    assert state.combat_damage[HERO] == 0 and state.barrier[HERO] == 0 and faces(state, HERO)[2] == "-"
