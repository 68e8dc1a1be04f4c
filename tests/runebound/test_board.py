"""Scripted rule scenarios for the enemy's turn on its combat board: spaces top to bottom, all tokens of a space
together, skipped symbols checked again, "+N", the surge space and its sections, moving tokens, optional abilities,
agility abilities and the four kinds of board ability. Each test quotes the rulebook's sentence (COMBAT BOARDS,
SPENDING SURGES, AGILITY ABILITIES, + SYMBOLS, MOVING TOKENS, ENEMY CHOICES) and sets its scenario up from a state
dict on the hand-made content of tests/runebound/content/.
"""

from __future__ import annotations

from envs.core.game import CHANCE
from envs.runebound.game import RuneboundCombatGame
from envs.runebound.state import Kind
from envs.runebound.symbols import ENEMY, HERO

from .scenarios import act, cast, faces, labels, make_game, position, token_rows

SPARE = [("Tester 1", "physical 1"), ("Wand", "magic 1")]
"""Hero tokens that keep the hero in the round (so the enemy's actions can be watched one at a time)."""


def test_spaces_resolve_top_to_bottom_one_space_per_action() -> None:
    """COMBAT BOARDS: "Whenever it is the enemy's turn to take a combat action, resolve the next space on the combat
    board that contains a token (from top to bottom), following its instructions." The double space (above the surge
    space) resolves first: the double goes on the surge. Then, one action each: the surge space, the skull space."""
    game = make_game()
    state = position(game, SPARE, ["-", "skull 2", "double", "surge 1", "-", "skull 1"], to_act="enemy")
    assert state.combat_tokens[ENEMY][2].on == 3 and state.combat_damage[HERO] == 0
    act(state, "spend: hero token 2")  # magic 1
    assert state.combat_damage[HERO] == 3  # the stacked surge (2) pays Smash: 3 damage
    act(state, "spend: hero token 1")
    assert state.combat_damage[HERO] == 3 + (2 + 1 + 1)  # the skulls together, +1


def test_all_tokens_of_a_space_resolve_together_with_the_plus() -> None:
    """+ SYMBOLS: "If there were two tokens showing 1 [skull], then the enemy would deal 3 damage instead of 2." The
    skull space's "+1" is added once, to the two skulls' combined value, in one combat action."""
    game = make_game()
    state = position(game, SPARE, ["skull 1", "-", "-", "-", "-", "skull 1"], to_act="enemy")
    assert state.combat_damage[HERO] == 3 and faces(state, ENEMY) == ["-"] * 6


def test_the_plus_applies_only_where_its_symbol_resolves() -> None:
    """+ SYMBOLS: "This is only added if there are one or more tokens with that symbol being resolved". A tactics
    copying the highest skull resolves in the tactics space, which has no "+1": 1 damage; then the skull itself in
    the skull space: 1 + 1."""
    game = make_game()
    state = position(game, SPARE, ["skull 1", "-", "-", "tactics", "-", "-"], to_act="enemy")
    assert state.combat_damage[HERO] == 1 and faces(state, ENEMY)[3] == "-"
    act(state, "spend: hero token 2")
    assert state.combat_damage[HERO] == 1 + 2


def test_an_unresolvable_symbol_is_skipped_and_checked_again_next_action() -> None:
    """COMBAT BOARDS: "If you are unable to resolve a symbol (such as [double] having nothing to double) ... then skip
    that symbol and go to the next space instead. On your next turn, check to see if the unresolved symbol can now be
    resolved." The double has nothing to double, so the charge goes; once the hero's agility flips the enemy's shield
    to a skull, the double doubles it on the enemy's next action."""
    game = make_game()
    hero = [("Tester 1", "physical 1"), ("Spear", "agility"), ("Wand", "magic 1")]
    state = position(game, hero, ["shield 1", "-", "double", "-", "charge 2", "-"], to_act="enemy")
    assert (
        state.combat_damage[HERO] == 2 and faces(state, ENEMY)[2] == "double" and state.combat_tokens[ENEMY][2].on < 0
    )
    act(state, "spend: hero token 2")
    act(state, "flip: enemy token 1")
    assert state.combat_tokens[ENEMY][2].on == 0  # the double now sits on the skull
    act(state, "spend: hero token 3")  # magic 1: the enemy's shield is now a skull, nothing blocks
    assert state.combat_damage[ENEMY] == 1
    assert state.combat_damage[HERO] == 2 + (2 * 1 + 1)  # the doubled skull and the +1


def test_the_enemy_passes_when_no_space_can_be_resolved_and_acts_no_more() -> None:
    """COMBAT BOARDS: "Once there are no more spaces that can be resolved, the enemy passes, and cannot perform any
    additional combat actions that round." The double has nothing to double (a shield is never resolved as an
    action): the enemy passes; a skull made afterwards by the hero's flip is never spent."""
    game = make_game()
    hero = [("Tester 1", "physical 1"), ("Spear", "agility")]
    state = position(game, hero, ["shield 1", "-", "double", "-", "-", "-"], to_act="enemy")
    assert state.passed[ENEMY]
    act(state, "spend: hero token 2")
    act(state, "flip: enemy token 1")
    assert state.passed[ENEMY] and state.combat_damage[HERO] == 0 and faces(state, ENEMY)[0] == "skull 1"


def test_surges_stack_in_the_section_of_the_ability_they_pay() -> None:
    """SPENDING SURGES: "You cast for the enemy and get two 1 [surge] results. If the enemy has a 2 [surge] ability,
    then stack both tokens in the 2 [surge] section. When it comes time to resolve surge abilities, both [surge] tokens
    will be spent to trigger the 2 [surge] ability.\""""
    game = make_game()
    state = position(game, SPARE, ["-", "surge 1", "-", "surge 1", "-", "-"], passed={"hero": False, "enemy": True})
    assert state.surge_sections() == {1: 2, 3: 2}
    state = position(game, SPARE, ["-", "surge 1", "-", "surge 1", "-", "-"], to_act="enemy")
    assert state.combat_damage[HERO] == 3 and faces(state, ENEMY)[1] == faces(state, ENEMY)[3] == "-"
    assert state.has_triggered(ENEMY, 1)  # Smash


def test_surges_trigger_the_most_expensive_ability_that_has_an_effect() -> None:
    """SPENDING SURGES: "If the [surge] ability that would be triggered would have no effect ..., but there is another
    [surge] ability that has not been triggered by the enemy that would have an effect, then trigger that other
    [surge] ability instead". With 3 surges, Mend (3: heal 2) heals nothing at full health: Smash (2) is paid with the
    surge 2 alone, and the surge 1 pays Jab on the next action. Wounded, the enemy triggers Mend."""
    game = make_game()
    state = position(game, SPARE, ["-", "surge 1", "-", "-", "-", "surge 2"], to_act="enemy")
    assert state.combat_damage[HERO] == 3 and faces(state, ENEMY)[1] == "surge 1" and faces(state, ENEMY)[5] == "-"
    act(state, "spend: hero token 2")
    assert state.combat_damage[HERO] == 4 and state.has_triggered(ENEMY, 0)
    wounded = position(
        game, SPARE, ["-", "surge 1", "-", "-", "-", "surge 2"], to_act="enemy", combat_damage={"hero": 0, "enemy": 3}
    )
    assert wounded.combat_damage == (0, 1) and wounded.has_triggered(ENEMY, 2)


def test_surges_are_not_spent_when_no_ability_would_have_an_effect() -> None:
    """SPENDING SURGES: "If no [surge] abilities would have any effect, then do not spend any [surge] symbols;
    instead, resolve the tokens on the next space on the combat board." The Thief's abilities take shields and
    physical tokens; the hero has neither, so the skull space resolves and the surges stay."""
    game = make_game("Thief")
    hero = [("Wand", "magic 1"), ("Tester 1", "blank")]
    state = position(game, hero[::-1], ["skull 1", "surge 1", "-", "surge 1", "-", "-"], to_act="enemy")
    assert state.combat_damage[HERO] == 2
    assert faces(state, ENEMY) == ["-", "surge 1", "-", "surge 1", "-", "-"]


def test_equal_costs_resolve_from_the_bottom_of_the_card_each_once_per_round() -> None:
    """SPENDING SURGES: "If the enemy has more than one [surge] ability that costs the same number of [surge] symbols,
    resolve from the bottom of the card to the top. Each enemy can still only trigger each [surge] ability once per
    combat round." The Twins' Right (bottom: 2 unblockable) goes first, then Left (1); a third surge triggers
    nothing."""
    game = make_game("Twins")
    hero = [("Tester 1", "physical 1"), ("Wand", "magic 1"), ("Buckler", "shield 1"), ("Blade", "physical 1")]
    state = position(game, hero, ["-", "surge 1", "-", "surge 1", "-", "surge 2"], to_act="enemy")
    assert state.combat_damage[HERO] == 2 and faces(state, HERO)[2] == "shield 1"  # unblockable
    assert state.has_triggered(ENEMY, 1) and not state.has_triggered(ENEMY, 0)
    act(state, "spend: hero token 2")
    assert state.combat_damage[HERO] == 2 and faces(state, HERO)[2] == "-"  # Left's 1 blocked by the shield
    act(state, "spend: hero token 1")
    act(state, "strike")
    assert faces(state, ENEMY)[5] == "surge 2" and state.passed[ENEMY]


def test_a_double_on_a_surge_moves_the_stack_and_leaves_it_when_flipped() -> None:
    """MOVING TOKENS: "If a [double] token is placed on top of a [surge], move the stack to the section of the [surge]
    board that matches the new [surge] total"; "If a token on top of a [double] is removed, the [double] token returns
    to its original space" (glyphs lost: read as the token beneath the double returning, RULES.md). The hero's agility
    flips the double off the stack: the surge goes back to section 1 and the flipped token to the agility space."""
    game = make_game("Twins")
    hero = [("Tester 1", "physical 1"), ("Spear", "agility")]
    placed = position(game, hero, ["-", "surge 1", "double", "-", "-", "-"], to_act="enemy")
    assert placed.combat_tokens[ENEMY][2].on == 1 and placed.surge_sections() == {1: 2}
    # The same stack, written by hand, with the enemy passed (it takes no more actions, so the stack stays in sight).
    stacked = ["-", "surge 1", {"face": "double", "on": 2}, "-", "-", "-"]
    state = position(game, hero, stacked, passed={"hero": False, "enemy": True})
    assert state.value(ENEMY, 1) == 2 and state.surge_sections() == {1: 2}
    act(state, "spend: hero token 2")
    act(state, "flip: enemy token 3")
    assert state.combat_tokens[ENEMY][2].on < 0 and faces(state, ENEMY)[2] == "agility"
    assert state.value(ENEMY, 1) == 1 and state.surge_sections() == {1: 1}
    board = state.trait().board
    assert board.spaces[state.space_of(2)].symbol.name == "AGILITY"


def test_an_optional_enemy_ability_is_always_triggered() -> None:
    """ENEMY CHOICES: "If an enemy ever has an optional ability on it, it triggers that ability whenever possible.
    Example: Orc Brigand reads "This enemy may spend 1 [agility] to prevent its foe from flipping a token." If the Orc
    Brigand ever has 1 [agility] when his foe attempts to flip a token, Orc Brigand spends it to prevent the flip.\""""
    game = make_game("Brigand")
    hero = [("Tester 1", "blank"), ("Spear", "agility"), ("Wand", "magic 1")]
    state = position(game, hero, ["skull 1", "-", "agility", "-", "-", "-"], passed={"hero": False, "enemy": True})
    act(state, "spend: hero token 2")
    act(state, "flip: hero token 1")
    assert faces(state, HERO) == ["blank", "-", "magic 1"]  # prevented
    assert faces(state, ENEMY)[2] == "-"  # the Brigand's agility paid for it


def test_an_agility_ability_replaces_the_agility_space_instruction() -> None:
    """AGILITY ABILITIES: "There are some enemy abilities that do not require [surge] symbols, but instead require
    [agility]. Resolve these abilities using the [agility] ability text on the enemy card rather than the instructions
    on the [agility] space of the combat board." The Shade's Shadow Step recasts the hero's most useful token (the
    Proving board's space would flip it)."""
    game = make_game("Shade")
    hero = [("Tester 1", "blank"), ("Mace", "physical 3"), ("Wand", "magic 1")]
    state = position(game, hero, ["-", "-", "agility", "-", "-", "-"], to_act="enemy")
    assert state.current_player() == CHANCE
    frame = state.stack[-1]
    assert (frame.kind, frame.detail("side"), frame.detail("token"), frame.detail("why")) == (
        Kind.CAST,
        HERO,
        1,
        "recast",
    )
    cast(state, "shield 2")
    assert faces(state, HERO) == ["blank", "shield 2", "magic 1"]


def test_the_enemy_flips_the_heros_most_useful_token() -> None:
    """ENEMY CHOICES: "Make the choice in such a way as to be most detrimental to the hero, as best as you can." The
    board's agility flips the token whose flip loses the most worth (RULES.md, "Enemy choices"): magic 2 to a double
    (4 to 2) over charge 1 to agility (3 to 2); a double to a shield loses nothing and is not a choice."""
    game = make_game()
    hero = [("Tester 1", "blank"), ("Rod", "magic 2"), ("Spear", "charge 1"), ("Buckler", "double")]
    state = position(game, hero, ["-", "-", "agility", "-", "-", "-"], to_act="enemy")
    assert faces(state, HERO) == ["blank", "double", "charge 1", "double"]


def test_the_two_damage_preset_deals_two_damage_in_place_of_a_choice() -> None:
    """ENEMY CHOICES: "If you do not feel like you can be unbiased enough when making a choice, instead of choosing,
    deal 2 damage to your hero in place of the effect." With two tokens the flip could harm, the enemy deals 2
    instead; with one, there is no choice and it flips."""
    game = make_game(enemy_choice="two_damage")
    hero = [("Tester 1", "blank"), ("Rod", "magic 2"), ("Spear", "charge 1")]
    state = position(game, hero, ["-", "-", "agility", "-", "-", "-"], to_act="enemy")
    assert state.combat_damage[HERO] == 2 and faces(state, HERO) == ["blank", "magic 2", "charge 1"]
    one = [("Tester 1", "blank"), ("Rod", "magic 2"), ("Wand", "magic 1")]
    single = position(game, one, ["-", "-", "agility", "-", "-", "-"], to_act="enemy")
    assert single.combat_damage[HERO] == 0 and faces(single, HERO) == ["blank", "double", "magic 1"]


def test_relentless_recasts_the_enemys_own_best_spent_token() -> None:
    """ENEMY CHOICES: "The Relentless ability on the Undead Horde reads "Recast any spent token." It would be in your
    best interest to recast one of your own, of course, ... you feel recasting the Horde's spent token that shows
    [skull] would be most detrimental to you." The Horde recasts its own spent token whose faces are worth the most
    (P2: skull 2 / surge 1), back into its pool."""
    game = make_game("Horde")
    state = position(game, SPARE, ["-", "-", "-", "surge 1", "-", "-"], to_act="enemy")
    frame = state.stack[-1]
    assert (frame.kind, frame.detail("side"), frame.detail("token"), frame.detail("why")) == (
        Kind.CAST,
        ENEMY,
        1,
        "spent",
    )
    cast(state, "skull 2")
    assert faces(state, ENEMY)[1] == "skull 2"
    preset = make_game("Horde", enemy_choice="two_damage")
    instead = position(preset, SPARE, ["-", "-", "-", "surge 1", "-", "-"], to_act="enemy")
    assert instead.combat_damage[HERO] == 2 and instead.current_player() != CHANCE


def test_an_enemy_removes_the_heros_highest_token_of_the_symbol() -> None:
    """ENEMY CHOICES: the Thief's Snatch ("Remove one of the foe's physical tokens") takes the highest one."""
    game = make_game("Thief")
    hero = [("Tester 1", "physical 1"), ("Mace", "physical 3"), ("Wand", "magic 1")]
    state = position(game, hero, ["-", "-", "-", "-", "-", "surge 2"], to_act="enemy")
    assert faces(state, HERO) == ["physical 1", "-", "magic 1"]


def test_the_hero_decides_whether_to_prevent_a_flip() -> None:
    """RULES.md, "Reactions": a hero ability that prevents a flip is optional in its text ("You may spend 1 [agility]
    to prevent your foe from flipping"), so it is the hero's decision, asked in the middle of the enemy's action."""
    game = make_game()
    hero = [("Tester 1", "blank"), ("Rod", "magic 2"), ("Spear", "agility")]
    state = position(game, hero, ["-", "-", "agility", "-", "-", "-"], to_act="enemy")
    assert state.decision().kind == Kind.PREVENT and labels(state) == ["react: use", "react: decline"]
    declined = state.clone()
    act(state, "react: use")
    assert faces(state, HERO) == ["blank", "magic 2", "-"]
    act(declined, "react: decline")
    assert faces(declined, HERO) == ["blank", "double", "agility"]


def test_a_prevention_already_paid_for_is_not_offered_again() -> None:
    """An enemy action that flips twice (the Trickster board's two tactics each copying an agility, on the shipped
    content) asks about each flip in turn; once Lissa's only agility has paid Evasion for the first, the second flip
    happens without asking, since Evasion can no longer be paid."""
    game = RuneboundCombatGame(hero="Lissa", enemy="Undead Horde", act="II")
    hero = [("Lissa 1", "agility"), ("Lissa 2", "physical 2"), ("Lissa 3", "tactics"), ("Dagger", "physical 1")]
    hero.append(("Longsword", "physical 2"))
    enemy = [("Trickster 1", "skull 1"), ("Trickster 2", "tactics"), ("Trickster 3", "skull 2", "spent")]
    enemy += [("Trickster 4", "double", "spent"), ("Trickster 5", "surge 1", "spent"), ("Trickster 6", "tactics")]
    data = game.new_initial_state().to_dict() | {
        "hero": "Lissa",
        "enemy": "Undead Horde",
        "combat_tokens": {"hero": token_rows(hero), "enemy": token_rows(enemy)},
        "combat_round": 1,
        "initiative": "enemy",
        "stack": [
            {"seat": 0, "kind": "next combat action", "reason": "", "details": {"side": "hero"}},
            {"seat": 0, "kind": "enemy combat action", "reason": "", "details": {}},
        ],
    }
    state = game.state_from_dict(data)
    asked = state.decision()
    assert asked is not None and asked.kind == Kind.PREVENT
    assert labels(state) == ["react: use", "react: decline"]
    act(state, "react: use")
    asked = state.decision()
    assert asked is not None and asked.kind == Kind.HERO_COMBAT_ACTION
    assert state.combat_tokens[HERO][0].spent and faces(state, HERO)[:2] == ["-", "agility"]


def test_brace_shields_block_one_more() -> None:
    """A board ability "is always resolved when fighting that type of enemy": Brace, each shield this enemy spends
    blocks 1 more damage, so its shield 1 stops the hero's physical 2."""
    game = make_game("Braced Dummy")
    hero = [("Tester 1", "physical 1"), ("Blade", "physical 2"), ("Wand", "magic 1")]
    state = position(game, hero, ["shield 1", "-", "-", "-", "-", "-"])
    act(state, "spend: hero token 2")
    act(state, "strike")
    assert state.combat_damage[ENEMY] == 0 and faces(state, ENEMY)[0] == "-"


def test_ward_tactics_blocks_one_more() -> None:
    """Ward, a board ability: a tactics spent as a copy of a shield blocks 1 more (the copy of the hero's shield 1
    blocks 2 of the hero's 2)."""
    game = make_game("Warded Dummy")
    hero = [("Tester 1", "physical 1"), ("Blade", "physical 1"), ("Buckler", "shield 1"), ("Wand", "magic 1")]
    state = position(game, hero, ["-", "-", "-", "tactics", "-", "-"])
    act(state, "spend: hero token 1")
    act(state, "add: hero token 2")
    assert state.combat_damage[ENEMY] == 0 and faces(state, ENEMY)[3] == "-"


def test_bloodlust_adds_to_the_damage_of_a_wounded_enemy() -> None:
    """Bloodlust, a board ability: once the enemy has taken half its health in damage, its damage spaces deal 1 more
    (skull 1 + the space's +1 + 1)."""
    game = make_game("Wild Dummy")
    fresh = position(game, SPARE, ["skull 1", "-", "-", "-", "-", "-"], to_act="enemy")
    assert fresh.combat_damage[HERO] == 2
    wounded = position(
        game, SPARE, ["skull 1", "-", "-", "-", "-", "-"], to_act="enemy", combat_damage={"hero": 0, "enemy": 5}
    )
    assert wounded.combat_damage[HERO] == 3


def test_sleight_recasts_the_enemys_blanks_once_after_casting() -> None:
    """Sleight, a board ability: after the round's casts the enemy recasts each token showing a blank, once (a blank
    recast to a blank stays)."""
    game = make_game("Tricky Dummy")
    state = game.new_initial_state()
    for face in [
        "physical 1",
        "physical 1",
        "physical 2",
        "skull 1",
        "skull 2",
        "double",
        "surge 1",
        "blank",
        "skull 1",
    ]:
        cast(state, face)
    frame = state.stack[-1]
    assert (frame.kind, frame.detail("side"), frame.detail("token"), frame.detail("why")) == (
        Kind.CAST,
        ENEMY,
        4,
        "recast",
    )
    cast(state, "blank")
    assert state.current_player() != CHANCE and faces(state, ENEMY)[4] == "blank"
