"""Scripted rule scenarios for every combat symbol: damage, shields, doubles, agility, surges, charge and tactics,
each quoting the text it checks (the expansion's rulebook; the base game's public facts where the expansion assumes
them) and set up from a state dict on the hand-made content of tests/runebound/content/.
"""

from __future__ import annotations

from envs.core.game import CHANCE
from envs.runebound.state import Kind
from envs.runebound.symbols import ENEMY, HERO

from .scenarios import act, cast, faces, labels, make_game, position

NONE = ["-"] * 6
"""An enemy whose tokens are all spent."""


def test_damage_tokens_of_one_symbol_are_spent_together_and_a_double_doubles_the_highest() -> None:
    """Public facts: "Physical / magic damage: deal damage"; "Double: double another token's value"; TACTICS shows
    that several tokens of a symbol are spent as one action ("spending 3 [charge] worth of other tokens"). A double
    joins one token of the action (the highest): 1 + 2 doubled = 5."""
    hero = [("Tester 1", "physical 1"), ("Blade", "physical 2"), ("Rod", "double"), ("Wand", "magic 1")]
    state = position(make_game(), hero, NONE)
    act(state, "spend: hero token 1", Kind.HERO_COMBAT_ACTION)
    assert labels(state) == ["add: hero token 2", "add: hero token 3", "strike"]
    act(state, "add: hero token 3", Kind.COMBAT_GROUP)
    assert labels(state) == ["add: hero token 2", "strike"]  # one double per token in the action
    act(state, "add: hero token 2", Kind.COMBAT_GROUP)  # strike, the only option left, is taken by the rules
    assert state.decisions == 3
    assert state.combat_damage[ENEMY] == 1 + 2 * 2
    assert faces(state, HERO) == ["-", "-", "-", "magic 1"]


def test_an_action_spends_one_symbol_only() -> None:
    """Tokens spent together show the same symbol: a magic action offers no physical token to add, so its only option,
    strike, is taken by the rules at once."""
    state = position(make_game(), [("Tester 1", "physical 1"), ("Wand", "magic 1")], NONE)
    act(state, "spend: hero token 2")
    assert state.decisions == 1 and state.combat_damage[ENEMY] == 1
    assert faces(state, HERO) == ["physical 1", "-"]


def test_shields_block_magic_and_physical_damage_in_response() -> None:
    """SHIELDS: "[shield] symbols are always spent at the first opportunity in response to taking damage." The enemy's
    shield blocks the hero's magic (RULES.md, "Shields": every blockable damage alike)."""
    state = position(
        make_game(), [("Tester 1", "physical 1"), ("Wand", "magic 1")], ["shield 1", "-", "-", "-", "-", "-"]
    )
    act(state, "spend: hero token 2")
    assert state.combat_damage[ENEMY] == 0 and faces(state, ENEMY)[0] == "-"


def test_shields_spend_as_many_as_it_takes_and_no_more() -> None:
    """SHIELDS: spent "in response to taking damage": 2 damage meets shields of 1, 1 and 2; the 2 alone blocks it all
    (the fewest shields that leave nothing to spare), the others stay for the next damage."""
    game = make_game()
    hero = [("Tester 1", "physical 1"), ("Buckler", "shield 1"), ("Axe", "shield 1"), ("Mace", "shield 2")]
    state = position(game, hero, ["skull 1", "-", "-", "-", "-", "-"], to_act="enemy")
    assert state.combat_damage[HERO] == 0
    assert faces(state, HERO) == ["physical 1", "shield 1", "shield 1", "-"]


def test_charge_deals_unblockable_damage_and_its_spender_blocks_nothing_more() -> None:
    """CHARGE: "a combatant can spend X [charge] to deal X unblockable damage to his or her foe. During a combat round,
    after a combatant has spent [charge], that combatant cannot block damage." The enemy's shield does not block the
    charge; then the hero's own shield does not block the enemy's skulls."""
    game = make_game()
    hero = [("Tester 1", "physical 1"), ("Spear", "charge 1"), ("Buckler", "shield 1")]
    state = position(game, hero, ["shield 1", "skull 2", "-", "-", "-", "-"])
    act(state, "spend: hero token 2")
    assert state.combat_damage[ENEMY] == 1 and faces(state, ENEMY)[0] == "shield 1"
    assert state.charged[HERO]
    assert state.combat_damage[HERO] == 2 + 1  # the skull and the board's +1, the shield left unspent
    assert faces(state, HERO)[2] == "shield 1"


def test_an_enemy_that_spends_charge_blocks_nothing_more() -> None:
    """CHARGE: the same rule for the enemy: its charge 2 goes through the hero's shield, and its own shield then does
    not block the hero's attack."""
    game = make_game()
    hero = [("Tester 1", "physical 1"), ("Buckler", "shield 1"), ("Wand", "magic 1")]
    state = position(game, hero, ["shield 1", "-", "-", "-", "charge 2", "-"], to_act="enemy")
    assert state.combat_damage[HERO] == 2 and faces(state, HERO)[1] == "shield 1"
    act(state, "spend: hero token 1")
    assert state.combat_damage[ENEMY] == 1 and faces(state, ENEMY)[0] == "shield 1"


def test_agility_flips_a_token_of_either_side_but_not_itself() -> None:
    """Public facts: "Agility: flip or recast a token (not itself)". MOVING TOKENS: "If a token is recast or flipped to
    a different symbol, move it to the corresponding space on the board": the enemy's skull 2 flipped to surge 1
    moves from the skull space to the surge space (the enemy has passed, so it stays there to be seen)."""
    game = make_game()
    hero = [("Tester 1", "physical 1"), ("Spear", "agility")]
    state = position(game, hero, ["-", "skull 2", "-", "-", "-", "-"], passed={"hero": False, "enemy": True})
    act(state, "spend: hero token 2")
    assert "flip: hero token 2" not in labels(state)
    assert labels(state) == [
        "flip: hero token 1",
        "flip: enemy token 2",
        "recast: hero token 1",
        "recast: enemy token 2",
    ]
    board = state.trait().board
    assert state.space_of(1) == board.space_of(state.face(ENEMY, 1).symbol)
    act(state, "flip: enemy token 2", Kind.AGILITY)
    assert faces(state, ENEMY)[1] == "surge 1"
    assert board.spaces[state.space_of(1)].instruction == "surge"


def test_agility_recasts_a_token_as_a_chance_event() -> None:
    """Public facts: agility may "recast" a token: it is cast again (a chance event) and shows either face."""
    game = make_game()
    state = position(game, [("Tester 1", "blank"), ("Spear", "agility")], NONE)
    act(state, "spend: hero token 2")
    act(state, "recast: hero token 1")
    assert state.current_player() == CHANCE and state.chance_label(0).endswith("is recast to physical 1")
    cast(state, "physical 1")
    assert faces(state, HERO) == ["physical 1", "-"]


def test_surges_pay_a_heros_surge_ability_with_a_double() -> None:
    """Public facts: "Surge: power the hero's or enemy's surge abilities"; a double doubles another token's value: a
    surge 1 and a double pay Bolt's 2 surges."""
    game = make_game()
    state = position(game, [("Tester 1", "physical 1"), ("Wand", "surge 1"), ("Rod", "double")], NONE)
    assert labels(state) == ["pass", "spend: hero token 1", "ability: hero ability 2"]
    act(state, "ability: hero ability 2")
    assert state.combat_damage[ENEMY] == 2 and faces(state, HERO) == ["physical 1", "-", "-"]
    assert state.has_triggered(HERO, 1)


def test_an_ability_that_removes_tokens_takes_the_lowest() -> None:
    """Twin Blades (the combat example): "remove 2 of his [physical] tokens to deal 3 [physical] that cannot be
    blocked". Paired Strike, its test twin, removes the two lowest physical tokens; the enemy's shield does not
    block."""
    game = make_game()
    state = position(
        game,
        [("Tester 1", "physical 1"), ("Blade", "physical 2"), ("Axe", "physical 2")],
        ["shield 1", "-", "-", "-", "-", "-"],
    )
    act(state, "ability: hero ability 1")
    assert state.combat_damage[ENEMY] == 3 and faces(state, ENEMY)[0] == "shield 1"
    assert faces(state, HERO) == ["-", "-", "physical 2"]
    assert "ability: hero ability 1" not in labels(state)  # once per combat round


def test_tactics_copies_a_symbol_and_its_number_on_its_own() -> None:
    """TACTICS: "a player can spend one [tactics] ... as a copy of a symbol showing on any other token in any
    combatant's combat pool"; "[tactics] cannot be spent in conjunction with other tokens"; "the number is also
    copied". A hero cannot copy the enemy's skull, nor a double; a shield is copied only to block."""
    game = make_game()
    hero = [
        ("Tester 1", "blank"),
        ("Trick", "tactics"),
        ("Blade", "physical 2"),
        ("Rod", "double"),
        ("Buckler", "shield 1"),
        ("Wand", "magic 1"),
    ]
    state = position(game, hero, ["-", "skull 2", "-", "-", "-", "-"])
    act(state, "spend: hero token 2")
    assert labels(state) == ["copy: hero token 3", "copy: hero token 6"]
    act(state, "copy: hero token 3", Kind.COPY)
    assert state.combat_damage[ENEMY] == 2  # dealt at once: no token is added to a copy
    assert faces(state, HERO)[1:3] == ["-", "physical 2"]


def test_tactics_copies_the_enemys_surges_to_pay_an_ability() -> None:
    """TACTICS: "When [tactics] is spent to copy a symbol with a number modifying it (e.g., 2 [charge]) the number is
    also copied": a copy of the enemy's surge 2 pays Bolt (2 surges); the copied token is not spent (the enemy has
    passed, so it stays in sight)."""
    game = make_game()
    passed = {"hero": False, "enemy": True}
    state = position(
        game, [("Tester 1", "physical 1"), ("Trick", "tactics")], ["-", "-", "-", "-", "-", "surge 2"], passed=passed
    )
    act(state, "spend: hero token 2")
    act(state, "copy: enemy token 6", Kind.COPY)  # Bolt, the one ability it pays, is triggered by the rules
    assert state.combat_damage[ENEMY] == 2 and state.has_triggered(HERO, 1)
    assert faces(state, ENEMY)[5] == "surge 2"


def test_the_hero_may_spend_tactics_as_a_shield_after_its_shields() -> None:
    """TACTICS: "when a player is about to take damage, that player can spend one [tactics] ... as a copy of a symbol
    that would allow him or her to block or prevent that damage"; SHIELDS: "the [shield] symbol is always spent as a
    [shield] to block damage first, and then the [tactics] is used." The hero's shield blocks 1 of 3 at once; the
    hero then decides whether to spend the tactics as a copy of the enemy's shield (1)."""
    game = make_game()
    hero = [("Tester 1", "physical 1"), ("Trick", "tactics"), ("Buckler", "shield 1")]
    state = position(game, hero, ["shield 1", "skull 2", "-", "-", "-", "-"], to_act="enemy")
    assert state.decision().kind == Kind.BLOCK and faces(state, HERO)[2] == "-"
    assert labels(state) == ["react: use", "react: decline"]
    declined = state.clone()
    act(state, "react: use")
    assert state.combat_damage[HERO] == 1 and faces(state, HERO)[1] == "-"
    act(declined, "react: decline")
    assert declined.combat_damage[HERO] == 2 and faces(declined, HERO)[1] == "tactics"


def test_the_enemy_always_spends_tactics_as_a_shield_after_its_shields() -> None:
    """SHIELDS: "If an enemy casts both a [shield] and a [tactics], the [shield] symbol is always spent as a [shield]
    to block damage first, and then the [tactics] is used." The enemy's shield blocks 1 of 4, its tactics copies the
    hero's shield (1): 2 get through."""
    game = make_game()
    hero = [("Tester 1", "physical 1"), ("Blade", "physical 2"), ("Axe", "physical 2"), ("Buckler", "shield 1")]
    state = position(game, hero, ["shield 1", "-", "-", "tactics", "-", "-"])
    act(state, "spend: hero token 2")
    act(state, "add: hero token 3")
    act(state, "strike")
    assert state.combat_damage[ENEMY] == 2
    assert faces(state, ENEMY)[0] == "-" and faces(state, ENEMY)[3] == "-"


def test_an_enemys_tactics_cannot_copy_the_heros_symbols() -> None:
    """TACTICS: "only heroes can spend [physical] or [magic] ... an enemy cannot spend [tactics] to copy [them]"
    (RULES.md, "Symbols"). With no skull showing, the enemy's tactics (copy space: skulls) has nothing to copy though
    the hero shows physical damage: the space is skipped and the enemy passes."""
    game = make_game()
    state = position(
        game,
        [("Tester 1", "physical 1"), ("Blade", "physical 2")],
        ["-", "-", "-", "tactics", "-", "-"],
        to_act="enemy",
    )
    assert state.passed[ENEMY] and faces(state, ENEMY)[3] == "tactics"
