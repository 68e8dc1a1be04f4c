"""The rulebook's COMBAT EXAMPLE (Eliam against the Sorcerer), played on the shipped content step by step.

Its glyphs are lost (every symbol of the example reads the same); CONTENT.md and RULES.md ("The combat example")
reconstruct them from the rules around it: Eliam casts physical 1, physical 1 and a shield; the Sorcerer (Mystic,
Act I: five tokens) casts a tactics, a double, a surge, and two skulls of 1, one gold rim on each side. The Mystic
board's spaces, top to bottom, are agility, double ("double [surge] first"), surge, tactics ("copy his highest [skull]
token"), skull and shield; Blast costs 2 surges and deals 3.

A traced state (tests/runebound/example.py) records each combat action as it happens (the rules run the Sorcerer's
actions, and Eliam's forced pass, without stopping), so each is checked against the text's sentence.
"""

from __future__ import annotations

from envs.runebound.state import Kind
from envs.runebound.symbols import ENEMY, HERO

from .example import example_start


def test_the_casts_tie_for_initiative_and_eliam_acts_first() -> None:
    """ "Eliam takes his combat tokens and casts them. Another player takes the mystic combat tokens and casts them for
    the Sorcerer." "The hero wins initiative ties, so Eliam takes the first combat action.\""""
    state = example_start()
    assert state.gold(HERO) == state.gold(ENEMY) == 1
    assert state.initiative == HERO and state.trace == []
    assert state.decision().kind == Kind.HERO_COMBAT_ACTION
    board = state.trait().board
    spaces = [board.spaces[state.space_of(i)].symbol.name.lower() for i in range(5)]
    assert spaces == ["tactics", "double", "surge", "skull", "skull"]


def test_the_combat_example_plays_out_as_written() -> None:
    """Each of the example's six combat actions, in order, with the damage it states."""
    state = example_start()
    labels = [state.game.action_label(a) for a in state.legal_actions()]
    assert "ability: hero ability 1" in labels  # Twin Blades
    state.apply_action(state.game.action_id("ability: hero ability 1"))
    trace = state.trace
    assert [who for who, _ in trace] == [
        "hero ability: hero ability 1",
        "enemy",
        "hero pass",
        "enemy",
        "enemy",
        "enemy",
        "enemy",
    ]
    one, two, three, four, five, six, end = (snapshot for _, snapshot in trace)

    # "Combat Action #1: The text on the combat board indicates that the Sorcerer's [tactics] will copy Eliam's
    # [shield] if Eliam uses his [physical] to attack directly, so he uses his Twin Blades ability to remove 2 of his
    # [physical] tokens to deal 3 [physical] that cannot be blocked. The Sorcerer places 3 damage tokens on his enemy
    # card."
    assert one["damage"] == (0, 3)
    assert one["hero"] == ["-", "-", "shield 1"] and one["enemy"][0] == "tactics"  # the tactics could not block

    # "Combat Action #2: The Sorcerer resolves the spaces of the combat board from top to bottom. He does not have any
    # [agility] tokens, so he moves on to the [double] space. The text indicates he must double [surge] first, so he
    # stacks his [double] on top of the [surge], doubling it. He then moves the stack to the 2 [surge] space of the
    # combat board, as it is now worth 2 [surge]."
    assert two["stacks"] == {1: 2} and two["sections"] == {2: 2} and two["damage"] == (0, 3)

    # "Combat Action #3: Eliam has only his [shield] remaining, so he must pass."
    assert three["passed"][HERO] and three["hero"] == ["-", "-", "shield 1"]

    # "Combat Action #4: Continuing to resolve the board from top to bottom, the Sorcerer spends his stacked [surge]
    # to trigger his Blast ability, which deals 3 [magic]. In response, Eliam spends his [shield] to block 1 of the
    # [magic] and takes 2 damage."
    assert four["damage"] == (2, 3) and four["hero"] == ["-", "-", "-"]
    assert four["enemy"][1:3] == ["-", "-"] and four["triggered"] == (False, True)  # Blast, not Mana Well

    # "Combat Action #5: Eliam has no tokens left and passes. The Sorcerer now takes another action. The text on the
    # [tactics] space of the combat board indicates that the Sorcerer must use [tactics] to copy his highest [skull]
    # token, so he copies [skull] and deals 1 damage to Eliam."
    assert five["damage"] == (3, 3) and five["enemy"] == ["-", "-", "-", "skull 1", "skull 1"]

    # "Combat Action #6: The Sorcerer resolves the final space of the combat board by spending both [skull] to deal 2
    # damage to Eliam."
    assert six["damage"] == (5, 3) and six["enemy"] == ["-"] * 5

    # "The round is now over. If Eliam decides to stay in the battle, he and his foe will recast all of their tokens
    # and begin a new round of combat, with the Sorcerer again resolving the combat board from top to bottom."
    assert end["passed"] == (True, True)
    assert state.decision().kind == Kind.STAY and state.combat_damage == (5, 3)
    state.apply_action(state.game.action_id("round end: stay"))
    assert state.combat_round == 2 and state.stack[-1].kind == Kind.CAST
