"""Positions combats reach load back from their dicts: the two kinds random combats reached and validation refused
(issue 32), each decided from the rulebook (RULES.md, "Moving tokens" and "Readings") and set up from a state dict on
the hand-made content of tests/runebound/content/.
"""

from __future__ import annotations

import pytest

from envs.core.game import StateFormatError
from envs.core.testing import check_json_round_trip, check_positions_reload
from envs.runebound.game import RuneboundCombatGame
from envs.runebound.state import NOWHERE, Kind
from envs.runebound.symbols import ENEMY, HERO

from .scenarios import act, faces, make_game, position


def test_a_double_whose_token_turns_blank_returns_to_the_double_space() -> None:
    """COMBAT BOARDS: "If you are unable to resolve a symbol (such as [double] having nothing to double) ... skip that
    symbol and go to the next space instead. On your next turn, check to see if the unresolved symbol can now be
    resolved"; MOVING TOKENS: "If a token is recast or flipped to a different symbol, move it to the corresponding space
    on the board." A blank has no value to double: when the hero flips the token under the enemy's double to its blank,
    the double leaves it for the double space, and the enemy's next action stacks it on its skull (the board's "Double a
    surge first, else the highest skull"). The position after the flip loads back from its dict (it used to be refused:
    "a double doubles a token with a number")."""
    game = make_game()
    hero = [("Tester 1", "physical 1"), ("Spear", "agility")]
    enemy = ["skull 1", "-", {"face": "double", "on": 5}, "-", "charge 2", "-"]
    state = position(game, hero, enemy)
    assert state.combat_tokens[ENEMY][2].on == 4 and state.value(ENEMY, 4) == 4
    act(state, "spend: hero token 2")
    act(state, "flip: enemy token 5")
    assert faces(state, ENEMY)[4] == "blank"
    assert state.combat_tokens[ENEMY][2].on == 0  # off the blank, then stacked on the skull by the enemy's action
    assert state.value(ENEMY, 0) == 2 and state.combat_damage[HERO] == 0
    check_json_round_trip(game, state)


def test_a_double_whose_token_turns_blank_leaves_it_while_the_enemy_waits() -> None:
    """The same flip with the enemy passed: the double stays in its own space (it has nothing to double now), and the
    position loads back from its dict."""
    game = make_game()
    hero = [("Tester 1", "physical 1"), ("Spear", "agility")]
    enemy = ["skull 1", "-", {"face": "double", "on": 5}, "-", "charge 2", "-"]
    state = position(game, hero, enemy, passed={"hero": False, "enemy": True})
    act(state, "spend: hero token 2")
    act(state, "flip: enemy token 5")
    assert state.combat_tokens[ENEMY][2].on == NOWHERE and faces(state, ENEMY)[2] == "double"
    assert state.value(ENEMY, 4) == 0
    check_json_round_trip(game, state)


def test_a_double_on_a_token_that_turns_to_another_number_stays_on_it() -> None:
    """MOVING TOKENS' stack moves with its token while the new face has a value (RULES.md, "Moving tokens"): the
    double on the skull 1 stays on it when the hero flips it to its shield 1."""
    game = make_game()
    hero = [("Tester 1", "physical 1"), ("Spear", "agility")]
    enemy = ["skull 1", "-", {"face": "double", "on": 1}, "-", "-", "-"]
    state = position(game, hero, enemy, passed={"hero": False, "enemy": True})
    act(state, "spend: hero token 2")
    act(state, "flip: enemy token 1")
    assert faces(state, ENEMY)[0] == "shield 1" and state.combat_tokens[ENEMY][2].on == 0
    assert state.value(ENEMY, 0) == 2
    check_json_round_trip(game, state)


def test_an_ability_not_bounded_by_its_text_is_used_twice_in_a_round() -> None:
    """SPENDING SURGES: "Each enemy can still only trigger each [surge] ability once per combat round": the rulebook
    bounds surge abilities, and a hero's card bounds its own ("Once per combat round, as a combat action, ..."). The
    test hero's Sidestep reads "You may spend 1 agility to prevent your foe from flipping one of your tokens", with no
    bound, so a hero who used it already this round uses it again when the enemy's agility flips another token; the
    position, Sidestep triggered twice, loads back from its dict (it used to be refused: "an ability triggered twice in
    a round")."""
    game = make_game()
    hero = [("Tester 1", "physical 1"), ("Spear", "agility"), ("Knife", "agility")]
    triggered = {"hero": ["Tester: Sidestep"], "enemy": []}
    state = position(game, hero, ["-", "-", "agility", "-", "-", "-"], to_act="enemy", combat_triggered=triggered)
    asked = state.decision()
    assert asked is not None and asked.kind == Kind.PREVENT
    act(state, "react: use")
    assert faces(state, HERO)[0] == "physical 1"  # the flip prevented
    assert [game.name_tables.name("hero_ability", id_) for id_ in state.combat_triggered[HERO]] == [
        "Tester: Sidestep"
    ] * 2
    check_json_round_trip(game, state)


def test_an_ability_bounded_to_once_a_round_is_refused_twice() -> None:
    """A position with a once-per-round ability ("Once per combat round, ... exert and remove 2 of your physical
    tokens") triggered twice is refused, naming the field; so is an enemy's surge ability twice ("each [surge] ability
    once per combat round") and an agility ability marked triggered (only surge abilities are)."""
    game = make_game()
    hero = [("Tester 1", "physical 1"), ("Blade", "physical 1")]
    enemy = ["skull 1", "-", "-", "-", "-", "-"]
    twice = {"hero": ["Tester: Paired Strike", "Tester: Paired Strike"], "enemy": []}
    with pytest.raises(StateFormatError, match="once per combat round") as error:
        position(game, hero, enemy, combat_triggered=twice)
    assert error.value.field == "combat_triggered.hero"
    with pytest.raises(StateFormatError, match="once per combat round") as error:
        position(game, hero, enemy, combat_triggered={"hero": [], "enemy": ["Dummy: Jab", "Dummy: Jab"]})
    assert error.value.field == "combat_triggered.enemy"
    shade: RuneboundCombatGame = make_game("Shade")
    with pytest.raises(StateFormatError, match="agility ability") as error:
        position(shade, hero, enemy, combat_triggered={"hero": [], "enemy": ["Shade: Shadow Step"]})
    assert error.value.field == "combat_triggered.enemy"


@pytest.mark.parametrize(
    ("hero", "enemy", "seed"),
    [("Lissa", "Restless Serpent", 42), ("Lissa", "Beastman", 97)],
    ids=["an ability triggered twice in a round", "a double doubles a token with a number"],
)
def test_the_seeded_combats_that_reached_refused_positions_now_reload(hero: str, enemy: str, seed: int) -> None:
    """The generic checker (`check_positions_reload`) on the first seeded random combat (shipped content, Act I) that
    used to reach each refused position (the ids name the refusal it used to raise): every position loads back now."""
    game = RuneboundCombatGame(hero=hero, enemy=enemy, act="I")
    assert check_positions_reload(game, seed=seed, games=1) > 20


def test_a_rule_that_raises_half_way_leaves_the_combat_as_it_was() -> None:
    """Issue 32: a tactics block pending while the hero shows no tactics (a position validation now refuses; here
    made by editing a state in place) raised IndexError in the rules' tactics step after the engine had taken the
    decision off the stack, leaving a broken state. `apply_action` is all or nothing: the combat is as before."""
    game = make_game()
    hero = [("Tester 1", "physical 1"), ("Trick", "tactics"), ("Buckler", "shield 1")]
    state = position(game, hero, ["shield 1", "skull 2", "-", "-", "-", "-"], to_act="enemy")
    asked = state.decision()
    assert asked is not None and asked.kind == Kind.BLOCK
    state.combat_tokens = (
        tuple(
            held.spent_now() if held.token == state.combat_tokens[HERO][1].token else held
            for held in state.combat_tokens[HERO]
        ),
        state.combat_tokens[ENEMY],
    )
    before = state.to_dict()
    with pytest.raises(IndexError):
        act(state, "react: use")
    assert state.to_dict() == before
