"""Scripted rule scenarios for a combat round: casting, initiative, alternating actions, passing, the round's end,
flight, the round cap and defeat. Each test quotes the text it checks (the Unbreakable Bonds rulebook,
or the public facts of envs/runebound/REFERENCE.md where the expansion assumes the base game) and sets its
scenario up from a state dict (tests/runebound/scenarios.py), on the hand-made content of tests/runebound/content/.
"""

from __future__ import annotations

import pytest

from envs.core.game import CHANCE
from envs.runebound.rules import CombatState
from envs.runebound.state import NOT_CAST, ROUND_CAP, Kind, Outcome
from envs.runebound.symbols import ENEMY, HERO

from .scenarios import act, cast, faces, labels, make_game, position


def test_casting_is_a_chance_event_per_token_naming_its_face() -> None:
    """ "Each combat round, you or another player will cast the enemy tokens that match the enemy's trait"; public
    facts: "Both sides cast (flip) all their combat tokens". Each token is one chance event, either face with equal
    chance, labelled with the token and the face."""
    game = make_game()
    state = game.new_initial_state()
    hero_tokens, enemy_tokens = len(state.combat_tokens[HERO]), len(state.combat_tokens[ENEMY])
    seen = []
    while state.current_player() == CHANCE:
        frame = state.stack[-1]
        assert frame.kind == Kind.CAST
        assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
        seen.append((frame.detail("side"), frame.detail("token")))
        label = state.chance_label(1)
        token = state.game.cards.tokens[state.combat_tokens[frame.detail("side")][frame.detail("token")].token]
        assert token.name in label and str(token.faces[1]) in label
        state.apply_action(1)
    assert seen == [(HERO, k) for k in range(hero_tokens)] + [(ENEMY, k) for k in range(enemy_tokens)]


@pytest.mark.parametrize(("act_name", "count"), [("I", 5), ("II", 6)])
def test_an_enemy_casts_the_first_four_plus_act_tokens(act_name: str, count: int) -> None:
    """Public facts: "An enemy uses the first 4 + Act tokens (5 in Act I, 6 in Act II)"; ENEMY TOKENS: "You cast the
    corresponding set of tokens when fighting as that enemy"."""
    state = make_game(act=act_name).new_initial_state()
    names = [state.game.cards.tokens[held.token].name for held in state.combat_tokens[ENEMY]]
    assert names == ["P1", "P2", "P3", "P4", "P5", "P6"][:count]


def start_of_round(game_enemy: str, hero_faces: list[str], enemy_faces: list[str]) -> CombatState:
    """Round 1 just cast: the given faces, initiative still to take."""
    game = make_game(game_enemy)
    state = game.new_initial_state()
    for face in hero_faces + enemy_faces:
        cast(state, face)
    return state


def test_initiative_goes_to_the_side_with_more_gold_rims() -> None:
    """Public facts: "Sides with a gold rim grant initiative; the side with more golden faces goes first". The
    enemy shows two gold rims (P2's surge 1, P5's blank) against the hero's one (Blade's physical 2): it acts first."""
    state = start_of_round(
        "Dummy",
        ["physical 1", "physical 2", "physical 2"],
        ["skull 1", "surge 1", "double", "surge 1", "blank", "skull 1"],
    )
    assert state.gold(HERO) == 1 and state.gold(ENEMY) == 3
    assert state.initiative == ENEMY
    # The enemy's first action came before the hero's first decision: its double stacked on its first surge.
    assert state.combat_tokens[ENEMY][2].on == 1
    assert state.decision() is not None and state.decision().kind == Kind.HERO_COMBAT_ACTION


def test_an_initiative_tie_goes_to_the_hero() -> None:
    """COMBAT BOARDS: "Initiative is determined as normal. If there is a tie for initiative, the hero takes the first
    combat action." One gold rim each: the hero decides first, before the enemy has done anything."""
    state = start_of_round(
        "Dummy",
        ["physical 1", "physical 2", "physical 2"],
        ["skull 1", "skull 2", "double", "surge 1", "charge 2", "skull 1"],
    )
    assert state.gold(HERO) == state.gold(ENEMY) == 1
    assert state.initiative == HERO
    assert state.decision().kind == Kind.HERO_COMBAT_ACTION
    assert all(not held.spent and held.on < 0 for held in state.combat_tokens[ENEMY])


def test_combatants_alternate_combat_actions() -> None:
    """Public facts: "Combatants alternate combat actions, each spending token faces". After the hero's attack the
    enemy takes one action (its top space with a token: the skulls), then the hero decides again."""
    game = make_game()
    state = position(
        game, [("Tester 1", "physical 1"), ("Blade", "physical 2")], ["skull 1", "skull 2", "-", "-", "-", "-"]
    )
    act(state, "spend: hero token 1")
    act(state, "strike")
    assert state.combat_damage == (4, 1)  # the enemy's skulls 1 + 2 and the board's "+1"; the hero dealt 1
    assert state.decision().kind == Kind.HERO_COMBAT_ACTION
    assert labels(state) == ["pass", "spend: hero token 2"]


def test_pass_is_optional_while_a_usable_token_remains() -> None:
    """Public facts: "Pass: optional while you still have usable tokens"."""
    state = position(make_game(), [("Tester 1", "physical 1")], ["-", "-", "-", "-", "-", "-"])
    assert labels(state) == ["pass", "spend: hero token 1"]


def test_pass_is_forced_when_no_token_can_be_used_and_a_blank_cannot_skip() -> None:
    """Public facts: "mandatory once you have none"; "A blank face can't be spent just to skip a turn". A hero
    holding only a blank and a shield (a shield is spent in response to damage, never as an action) passes without
    being asked, and the enemy goes on alone."""
    state = position(
        make_game(), [("Tester 1", "blank"), ("Buckler", "shield 1")], ["skull 1", "-", "-", "-", "-", "-"]
    )
    assert state.decisions == 0  # the hero was never asked
    assert state.decision().kind == Kind.STAY  # the enemy took its action, passed, and the round ended
    assert state.combat_damage[HERO] == 1  # skull 1 and the board's +1, one blocked by the shield


def test_after_passing_the_hero_takes_no_more_actions_and_shields_still_block() -> None:
    """Public facts: "After passing you can't act again that round"; the combat example: "Combat Action #3: Eliam has
    only his [shield] remaining, so he must pass. Combat Action #4: ... In response, Eliam spends his [shield] to block
    1" (a shield still answers damage after its owner has passed). The enemy then takes every action left."""
    game = make_game()
    state = position(
        game, [("Tester 1", "physical 1"), ("Buckler", "shield 1")], ["skull 1", "-", "-", "surge 1", "-", "skull 1"]
    )
    act(state, "pass")
    # Jab (1 surge: 1 damage) is blocked by the shield; the skulls (1 + 1 + 1) go through.
    assert state.combat_damage[HERO] == 3
    assert state.decision().kind == Kind.STAY
    assert state.passed == (False, False)  # the round is over: the passes are gone with it


def test_unspent_tokens_are_lost_at_the_end_of_the_round_and_all_are_cast_again() -> None:
    """Public facts: "unspent tokens are lost"; the combat example: "he and his foe will recast all of their tokens
    and begin a new round of combat"."""
    game = make_game()
    state = position(game, [("Tester 1", "physical 1"), ("Blade", "physical 2")], ["-", "-", "-", "-", "-", "-"])
    act(state, "pass")
    assert state.decision().kind == Kind.STAY
    assert all(held.face == NOT_CAST and not held.spent for side in state.combat_tokens for held in side)
    act(state, "round end: stay")
    assert state.combat_round == 2 and state.current_player() == CHANCE
    assert state.stack[-1].kind == Kind.CAST and state.stack[-1].detail("why") == "round"


def test_the_hero_may_flee_at_the_end_of_a_round() -> None:
    """The combat example: "If Eliam decides to stay in the battle, he and his foe will recast all of their tokens".
    The hero may leave instead: the combat ends, neither won nor lost (return 0)."""
    state = position(make_game(), [("Tester 1", "physical 1")], ["-", "-", "-", "-", "-", "-"])
    act(state, "pass")
    act(state, "round end: flee", Kind.STAY)
    assert state.is_terminal() and state.combat_outcome == Outcome.FLED and state.returns() == [0.0]


def test_a_flight_counts_as_a_defeat_when_the_setting_says_so() -> None:
    """RULES.md, "Reward modes": with flight="defeat" a flight returns -1, as a defeat does, so a learner that
    maximises its return maximises its wins; the combat's outcome is still a flight."""
    state = position(make_game(flight="defeat"), [("Tester 1", "physical 1")], ["-", "-", "-", "-", "-", "-"])
    act(state, "pass")
    act(state, "round end: flee", Kind.STAY)
    assert state.is_terminal() and state.combat_outcome == Outcome.FLED and state.returns() == [-1.0]
    assert state.episode_info()["outcome"] == "fled"


def test_an_unknown_flight_setting_is_refused_naming_it() -> None:
    """The flight setting takes draw or defeat; anything else is refused naming the value and the choices."""
    with pytest.raises(ValueError, match=r"unknown flight 'loss'.*'draw', 'defeat'"):
        make_game(flight="loss")


def test_the_round_cap_ends_the_combat_as_a_draw() -> None:
    """RULES.md, "Rounds": after round 10 with neither side defeated the combat ends as a draw, so every combat
    ends."""
    hero, enemy = [("Tester 1", "physical 1")], ["-", "-", "-", "-", "-", "-"]
    state = position(
        make_game(), hero, enemy, combat_round=ROUND_CAP, decisions=ROUND_CAP - 1
    )  # a stay after each round
    act(state, "pass")
    assert state.is_terminal() and state.combat_outcome == Outcome.DRAWN and state.returns() == [0.0]


def test_the_combat_ends_the_moment_a_side_is_defeated() -> None:
    """Rounds go on "until the hero or the enemy is defeated": damage reaching the enemy's health ends the combat
    at once, mid-round (+1); the hero's defeat is -1."""
    game = make_game()
    state = position(
        game,
        [("Tester 1", "physical 1"), ("Blade", "physical 2")],
        ["skull 1", "-", "-", "-", "-", "-"],
        combat_damage={"hero": 0, "enemy": 8},
    )
    act(state, "spend: hero token 2")
    act(state, "strike")
    assert state.is_terminal() and state.combat_outcome == Outcome.WON and state.returns() == [1.0]
    assert state.combat_damage[ENEMY] == 10
    lost = position(
        game,
        [("Tester 1", "physical 1")],
        ["skull 1", "skull 2", "-", "-", "-", "-"],
        combat_damage={"hero": 6, "enemy": 0},
    )
    act(lost, "pass")
    assert lost.is_terminal() and lost.combat_outcome == Outcome.LOST and lost.returns() == [-1.0]
    assert faces(lost, ENEMY)[:2] == ["-", "-"]
