"""Threat keywords (Taunt, Terror; Crazed, Fast and Rage are in test_piles, test_effects and test_turn), the faction
keywords on factionless cards, and the caps of the player mat. Each test quotes the rulebook."""

from __future__ import annotations

from envs.unstoppable.effects import legal_targets
from tests.unstoppable.scenarios import act, labels, scenario, sleeve_named, target, top_kind

THREATS = ["Rust Golem", "Ash Wyrm", "Neon Cutthroat"]


def test_taunt_on_the_battlefield_or_on_deck_must_be_targeted() -> None:
    """ "When at least 1 Taunt threat is on the battlefield or on top of your deck, you must target a Taunt threat
    with any damage effect unless stated otherwise." """
    for place in ("battlefield", "deck"):
        zones = {"battlefield": ["Sporeling", "Rust Golem", "Ash Wyrm"], "deck": ["Strike"]}
        if place == "deck":
            zones = {"battlefield": THREATS, "deck": ["Sporeling", "Strike"]}
        state = scenario(hand=["Five Meters Under"], **zones)
        assert legal_targets(state) == (sleeve_named(state, "Sporeling"),)
        act(state, "play: drafted card 1 (Five Meters Under)")
        act(state, "effect 2")
        assert sleeve_named(state, "Sporeling") in state.hand, "the only legal target: taken, and defeated (2 health)"


def test_damage_that_ignores_taunt_may_target_any_threat() -> None:
    """ "Scrap Hunter, however, is a Junker ally with a damage effect that tells you to ignore the Taunt keyword." """
    state = scenario(
        in_play=["Scrap Hunter"],
        hand=["Spare Credits"],
        battlefield=["Sporeling", "Rust Golem", "Ash Wyrm"],
        deck=["Strike"],
    )
    act(state, "exhaust: drafted card 1 icon 1")
    act(state, "effect 1")
    assert len(labels(state)) == 4, "the three active threats and the on-deck one"
    target(state, "Ash Wyrm")
    assert state.sleeves[sleeve_named(state, "Ash Wyrm")].damage == 2


def test_taunt_does_not_restrict_other_effects() -> None:
    """ "This restriction does not apply to non-damage effects." Eliminating a card is not limited by a Sporeling."""
    state = scenario(
        hand=["Regional Target", "Strike"], battlefield=["Sporeling", "Rust Golem", "Ash Wyrm"], deck=["Strike"]
    )
    act(state, "play: drafted card 1 (Regional Target)")
    act(state, "effect 1")
    assert top_kind(state) == "eliminate" and len(labels(state)) > 2


def test_terror_costs_an_action_point_per_instance_and_nothing_at_zero() -> None:
    """ "When you target a Terror threat with an effect that deals damage, you lose 1 action point. If you have no
    action points left, the effect still resolves but the loss is ignored"; "Vinespider ... You can hit the Vinespider
    without penalty if you do so when you have no action points left"; Terror instances stack (Nerve Toxin)."""
    for action_points, toxin, left in ((3, False, 2), (3, True, 1), (1, True, 0), (0, True, 0)):
        upgrades = {"Vinespider": {"top": "Nerve Toxin"}} if toxin else {}
        state = scenario(
            in_play=["Scrap Hunter"],
            hand=["Spare Credits"],
            battlefield=["Viren Strategy / Vinespider", "Rust Golem", "Ash Wyrm"],
            deck=["Strike"],
            action_points=action_points,
            upgrades=upgrades,
        )
        act(state, "exhaust: drafted card 1 icon 1")
        act(state, "effect 1")
        target(state, "Vinespider")
        assert state.action_points == left
        assert state.sleeves[sleeve_named(state, "Vinespider")].damage == 2, "the damage resolves all the same"


def test_factionless_cards_and_faction_keyword_upgrades() -> None:
    """ "If a factionless card receives an upgrade with a faction keyword, the linked effect of the faction keyword
    might still resolve. Bargain: The effect still resolves but the cost cannot be reduced. Conspire: The effect cannot
    resolve because the card is factionless. Focus: The effect cannot resolve ... Unite: The effect still resolves
    based on your other cards." """
    # Focus (Nerve Toxin on a Strike): never offered.
    state = scenario(
        hand=["Strike", "Viren Strategy"],
        battlefield=THREATS,
        deck=["Strike"],
        upgrades={"Strike": {"top": "Nerve Toxin"}},
    )
    act(state, "play: sleeve 1 (Strike)")
    assert labels(state) == ["effect: effect 1 of Strike: deal 1 damage", "done: forfeit the remaining effects"]
    # Bargain (Bargain Bin on a Strike, Bargain 1: gain 2 credits): the cost stays 1 beside Junker cards.
    state = scenario(
        hand=["Strike", "Hired Guns", "Gadwick Goldenhand"],
        battlefield=THREATS,
        deck=["Strike"],
        upgrades={"Strike": {"top": "Bargain Bin"}},
        credits=3,
    )
    act(state, "play: sleeve 1 (Strike)")
    act(state, "top upgrade effect 1")
    assert state.credits == 3 - 1 + 2
    # Unite (Unity Banner on a Strike, X instances of 1 damage): X counts the other cards' factions.
    state = scenario(
        hand=["Strike", "Hired Guns", "Exceed Your Limits"],
        battlefield=THREATS,
        deck=["Strike"],
        upgrades={"Strike": {"bottom": "Unity Banner"}},
    )
    act(state, "play: sleeve 1 (Strike)")
    act(state, "bottom upgrade effect 1")
    for _ in range(2):
        assert top_kind(state) == "choose target"
        target(state, "Ash Wyrm")
    assert state.sleeves[sleeve_named(state, "Ash Wyrm")].damage == 2
    assert top_kind(state) == "choose effect", "Junker and Silver: 2 instances, then back to the card's effects"


def test_an_upgrade_never_gives_a_factionless_card_a_faction() -> None:
    """ "If a factionless card receives an upgrade with a faction type, the card does not gain the faction type."
    Nerve Toxin's discount faction (Viren) does not make a Strike count for Viren Strategy's Focus."""
    state = scenario(
        hand=["Viren Strategy", "Strike"],
        battlefield=THREATS,
        deck=["Strike"],
        upgrades={"Strike": {"top": "Nerve Toxin"}},
    )
    act(state, "play: drafted card 1 (Viren Strategy)")
    target(state, "Ash Wyrm")
    assert state.sleeves[sleeve_named(state, "Ash Wyrm")].damage == 1


def test_the_player_mat_caps_action_points_health_and_armor() -> None:
    """ "You cannot have more than 6 action points"; "You cannot have more than 10 health"; "You cannot have more
    than 10 armor. If you gain armor when at the maximum, nothing happens." """
    state = scenario(
        hand=["Viren Solidarity", "Medical Nanites", "Aid From the Resistance"],
        battlefield=THREATS,
        deck=["Strike"],
        action_points=6,
        health=9,
        armor=7,
    )
    act(state, "play: drafted card 1 (Viren Solidarity)")
    act(state, "effect 1")
    assert state.action_points == 6
    act(state, "forfeit")
    act(state, "play: drafted card 2 (Medical Nanites)")
    act(state, "effect 1")
    assert state.health == 10
    act(state, "play: drafted card 3 (Aid From the Resistance)")
    act(state, "effect 1")
    assert state.armor == 10


def test_training_at_level_six_does_nothing() -> None:
    """ "If your small level disc is already at the 6th level, nothing happens." """
    state = scenario(
        hand=["Exceed Your Limits", "Spare Credits"], battlefield=THREATS, deck=["Strike"], level=5, small_level=6
    )
    act(state, "play: drafted card 1 (Exceed Your Limits)")
    act(state, "effect 1")
    assert state.small_level == 6
