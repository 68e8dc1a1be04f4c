"""The effect engine on the hand-made cards: effects in the order the player chooses, forfeits, mandatory keyword
effects, the faction keywords' worked examples, events that interrupt an effect and resume it, a level-up in the
middle of an effect, and the repeat limit. Each test quotes the Unstoppable rulebook."""

from __future__ import annotations

from envs.unstoppable.effects import BONUS, EXHAUST, PLAY, effect_id
from tests.unstoppable.scenarios import act, chance, labels, reveal, scenario, sleeve_named, target, top_kind


def test_effects_resolve_in_the_order_the_player_chooses() -> None:
    """ "You may resolve the effects, including those from upgrades, in any order." Quick Raid deals 1 damage and
    gains 2 action points; against a Terror threat at 0 action points, dealing the damage first loses nothing ("If
    you have no action points left, the effect still resolves but the loss is ignored"), gaining first loses 1."""
    results = {}
    for first in ("effect 1", "effect 2"):
        state = scenario(
            hand=["Quick Raid"], battlefield=["Vinespider", "Rust Golem", "Strike"], deck=["Strike"], action_points=0
        )
        act(state, "play: drafted card 1 (Quick Raid)")
        act(state, first)
        if first == "effect 1":
            target(state, "Vinespider")
            act(state, "effect 2")
        else:
            act(state, "effect 1")
            target(state, "Vinespider")
        assert state.sleeves[sleeve_named(state, "Vinespider")].damage == 1
        results[first] = state.action_points
    assert results == {"effect 1": 2, "effect 2": 1}


def test_upgrade_effects_join_the_cards_effects() -> None:
    """ "If the card has any upgrades, those may add further effects that trigger when played. You may resolve the
    effects, including those from upgrades, in any order." """
    state = scenario(
        hand=["Strike"],
        battlefield=["Rust Golem", "Neon Cutthroat", "Ash Wyrm"],
        deck=["Strike"],
        upgrades={"Strike": {"bottom": "Frenzy Serum"}},
    )
    act(state, "play: sleeve")
    assert labels(state) == [
        "effect: effect 1 of Strike: deal 1 damage",
        "effect: bottom upgrade effect 1 of Strike: gain 1 action points",
        "done: forfeit the remaining effects",
    ]
    act(state, "bottom upgrade effect 1")
    assert state.action_points == 3 - 1 + 1
    assert labels(state) == ["effect: effect 1 of Strike: deal 1 damage", "done: forfeit the remaining effects"]


def test_a_forfeited_effect_never_resolves() -> None:
    """ "Effects that you cannot resolve, or choose not to, are forfeited." Five Meters Under: its 3 damage, then the
    rest forfeited; and Blade Dance's "Level 3+" effect cannot resolve at level 1, so it is never offered."""
    state = scenario(
        hand=["Five Meters Under", "Blade Dance"],
        battlefield=["Rust Golem", "Neon Cutthroat", "Strike"],
        deck=["Strike"],
    )
    act(state, "play: drafted card 1 (Five Meters Under)")
    act(state, "effect 1")
    target(state, "Rust Golem")
    assert labels(state) == [
        "effect: effect 2 of Five Meters Under: deal 2 damage",
        "done: forfeit the remaining effects",
    ]
    act(state, "forfeit")
    assert top_kind(state) == "main phase"
    assert state.sleeves[sleeve_named(state, "Neon Cutthroat")].damage == 0
    act(state, "play: sleeve 8 (Blade Dance)")
    assert labels(state) == ["effect: effect 1 of Blade Dance: deal 2 damage", "done: forfeit the remaining effects"]


def test_mandatory_keyword_effects_are_never_forfeited() -> None:
    """ "Conspire effects, which are mandatory, trigger if there is at least 1 other card of the same faction"; Royal
    Armorer's Conspire effect to gain 2 health is resolved, never forfeited, with another Silver card in hand."""
    state = scenario(
        hand=["Royal Armorer", "Exceed Your Limits"],
        battlefield=["Rust Golem", "Neon Cutthroat", "Strike"],
        deck=["Strike"],
        health=5,
    )
    act(state, "play: drafted card 1 (Royal Armorer)")
    assert top_kind(state) == "main phase", "the only option, a mandatory effect, is taken by the rules"
    assert state.health == 7
    alone = scenario(
        hand=["Royal Armorer"], battlefield=["Rust Golem", "Neon Cutthroat", "Strike"], deck=["Strike"], health=5
    )
    act(alone, "play: drafted card 1 (Royal Armorer)")
    assert alone.health == 5, "without another Silver card the Conspire effect does not trigger"


def test_focus_with_four_other_viren_cards_deals_5() -> None:
    """ "Viren Strategy is a Viren tactic card with a Focus effect to deal X damage. If you have 4 other Viren cards
    in your hand and/or in play, this effect deals 5 damage." """
    state = scenario(
        hand=["Viren Strategy", "Viren Solidarity", "Viren Solidarity", "Aid From the Resistance"],
        in_play=["Rally the Cells"],
        battlefield=["Rust Golem", "Ash Wyrm", "Strike"],
        deck=["Strike"],
    )
    act(state, "play: drafted card 1 (Viren Strategy)")
    assert top_kind(state) == "choose target", "Focus is mandatory: the rules take the only effect at once"
    target(state, "Ash Wyrm")
    assert state.sleeves[sleeve_named(state, "Ash Wyrm")].damage == 5


def test_bargain_3_with_two_other_junker_cards_costs_nothing() -> None:
    """ "Hired Guns is a Junker tactic card with a 'Bargain 3' effect. By default, the cost of this effect is reduced
    by 1 credit. But if you have at least 2 other Junker cards in your hand and/or in play, the cost is reduced to
    zero." """
    for others, credits_left in ((["Gadwick Goldenhand", "Scrap Hunter"], 3), ([], 1)):
        state = scenario(
            hand=["Hired Guns", *others], battlefield=["Rust Golem", "Ash Wyrm", "Strike"], deck=["Strike"], credits=3
        )
        act(state, "play: drafted card 1 (Hired Guns)")
        act(state, "effect 1")
        target(state, "Ash Wyrm")
        assert state.credits == credits_left
        assert state.sleeves[sleeve_named(state, "Ash Wyrm")].damage == 3


def test_bargain_is_optional_and_needs_its_credits() -> None:
    """Bargain effects "are optional": this is how many credits you must spend to use it; without them it cannot
    resolve."""
    state = scenario(hand=["Hired Guns"], battlefield=["Rust Golem", "Ash Wyrm", "Strike"], deck=["Strike"], credits=1)
    act(state, "play: drafted card 1 (Hired Guns)")
    assert top_kind(state) == "main phase", "Bargain 3 less 1 costs 2: with 1 credit it is forfeited"


def test_unite_with_three_factions_deals_three_instances() -> None:
    """ "Admiral Worley is a Council ally card with a Unite effect to deal X instances of 2 damage. If you have a mix
    of Council, Junker, and Silver cards in your hand and/or in play, this effect deals 3 separate instances of 2
    damage." """
    state = scenario(
        hand=["Admiral Worley", "Hired Guns", "Exceed Your Limits"],
        battlefield=["Rust Golem", "Ash Wyrm", "Neon Cutthroat"],
        deck=["Strike"],
    )
    act(state, "play: drafted card 1 (Admiral Worley)")
    for threat in ("Rust Golem", "Ash Wyrm", "Neon Cutthroat"):
        assert top_kind(state) == "choose target"
        target(state, threat)
    assert [state.sleeves[sleeve_named(state, t)].damage for t in ("Rust Golem", "Ash Wyrm", "Neon Cutthroat")] == [
        2
    ] * 3
    assert top_kind(state) == "main phase"


def test_each_damage_instance_goes_to_one_threat() -> None:
    """ "Five Meters Under ... deals 2 separate instances of damage when played. You can deal 3 damage to 1 threat and
    2 damage to another, or 5 total damage to the same threat." """
    state = scenario(hand=["Five Meters Under"], battlefield=["Rust Golem", "Ash Wyrm", "Strike"], deck=["Strike"])
    act(state, "play: drafted card 1 (Five Meters Under)")
    act(state, "effect 2")
    target(state, "Ash Wyrm")
    act(state, "effect 1")
    target(state, "Ash Wyrm")
    assert state.sleeves[sleeve_named(state, "Ash Wyrm")].damage == 5


def test_a_defeat_interrupts_the_effect_which_then_resumes() -> None:
    """ "An event is a mandatory game effect ... When triggered, an event must be resolved immediately, even if it
    interrupts the resolution of another effect. After resolving the event, continue with the resolution of the
    effect that triggered it." Five Meters Under's 3 damage defeats a Fugitive Gunslinger: it goes to your hand
    ("Before resolving any bonus, draw the defeated threat and add it to your hand"), its bonus deals 2 damage (a
    target to choose) before Five Meters Under's second effect is offered."""
    state = scenario(
        hand=["Five Meters Under"], battlefield=["Fugitive Gunslinger", "Rust Golem", "Ash Wyrm"], deck=["Strike"]
    )
    gunslinger = sleeve_named(state, "Fugitive Gunslinger")
    act(state, "play: drafted card 1 (Five Meters Under)")
    act(state, "effect 1")
    target(state, "Fugitive Gunslinger")
    assert gunslinger in state.hand and gunslinger not in state.battlefield
    assert top_kind(state) == "choose target", "the bonus's damage interrupts the card's resolution"
    assert state.stack[-2].kind == "bonus" and state.stack[-4].kind == "choose effect"
    target(state, "Ash Wyrm")
    assert labels(state) == [
        "effect: effect 2 of Five Meters Under: deal 2 damage",
        "done: forfeit the remaining effects",
    ]
    act(state, "effect 2")
    target(state, "Ash Wyrm")
    assert state.sleeves[sleeve_named(state, "Ash Wyrm")].damage == 4
    assert state.repeats == (
        (sleeve_named(state, "Five Meters Under"), effect_id(PLAY, 0), 1),
        (gunslinger, effect_id(BONUS, 0), 1),
        (sleeve_named(state, "Five Meters Under"), effect_id(PLAY, 1), 1),
    )


def test_the_defeat_and_its_bonus_resolve_before_the_level_up_they_trigger() -> None:
    """ "Before resolving any bonus, draw the defeated threat and add it to your hand ... These bonuses are mandatory
    and resolve immediately." The defeat of the last active threat with an empty deck resolves in full, bonus
    included, before the level-up (RULES.md, "Readings"): the Fugitive Gunslinger's bonus damage finds no threat to
    target and is forfeited; then you level up."""
    state = scenario(hand=["Five Meters Under"], battlefield=["Fugitive Gunslinger"], deck=[])
    act(state, "play: drafted card 1 (Five Meters Under)")
    act(state, "effect 1")  # its only target, the Gunslinger, is taken by the rules
    assert state.level == 2
    assert top_kind(state) == "eliminate", "level-up step 3 (the hand holds 1 card: nothing to discard)"
    assert sleeve_named(state, "Fugitive Gunslinger") in state.hand
    assert all(entry[1] != effect_id(BONUS, 0) for entry in state.repeats), "the bonus did not resolve"


def test_a_level_up_mid_effect_discards_and_reshuffles_the_resolving_card() -> None:
    """ "When this occurs mid-effect, interrupt the effect to level up, then resume the effect even if its card is
    no longer in play." The 3 damage of Five Meters Under defeats the last active threat, your deck being empty: you
    level up at once (discs advance, play discarded, hand down to 3, an optional elimination, the discard pile
    reshuffled and its top revealed), then the card's 2 damage resolves on the new on-deck threat, though the card
    itself is now in your deck."""
    state = scenario(
        hand=["Five Meters Under", "Strike", "Strike", "Strike", "Strike"],
        battlefield=["Rust Golem"],
        deck=[],
        discard=["Neon Cutthroat"],
        damage={"Rust Golem": 2},
    )
    card = sleeve_named(state, "Five Meters Under")
    act(state, "play: drafted card 1 (Five Meters Under)")
    act(state, "effect 1")  # its only target, the Rust Golem, is taken by the rules
    assert state.level == 2 and state.small_level == 2
    assert card in state.discard, "level-up step 2: the tactic left play"
    assert top_kind(state) == "discard down to 3", "5 cards in hand (4 Strikes and the Rust Golem)"
    for _ in range(2):
        state.apply_action(state.legal_actions()[0])
    act(state, "eliminate nothing")
    chance(state, state.chance_outcomes()[0][0])  # the boss mat's level-up effect: a boss card joins the threat deck
    reveal(state, "Neon Cutthroat")
    assert card in state.deck.unknown, "level-up step 5 shuffled the card into your deck"
    assert labels(state) == [
        "effect: effect 2 of Five Meters Under: deal 2 damage",
        "done: forfeit the remaining effects",
    ]
    act(state, "effect 2")  # its only target, the new on-deck threat, is taken by the rules
    assert state.sleeves[sleeve_named(state, "Neon Cutthroat")].damage == 2
    assert top_kind(state) == "main phase"


def test_the_fourth_resolution_of_an_effect_in_a_turn_eliminates_its_card() -> None:
    """ "if you resolve the same effect of the same card for the 4th time in a single turn, you must then eliminate
    that card. Return that card to the box." Echo Drill deals 1 damage and refreshes an ally (itself) when exhausted;
    the 4th time its damage resolves, it is eliminated; its refresh, counted apart, was resolved 3 times."""
    state = scenario(in_play=["Echo Drill"], battlefield=["Rust Golem", "Ash Wyrm", "Neon Cutthroat"], deck=["Strike"])
    drill = sleeve_named(state, "Echo Drill")
    for _ in range(3):
        act(state, "exhaust: drafted card 1 icon 1")
        act(state, "effect 1")
        target(state, "Ash Wyrm")
        act(state, "effect 2")  # refresh: the drill is the only exhausted ally, taken at once
        assert drill not in state.exhausted
    assert dict(((s, e), t) for s, e, t in state.repeats) == {
        (drill, effect_id(EXHAUST, 0)): 3,
        (drill, effect_id(EXHAUST, 1)): 3,
    }
    act(state, "exhaust: drafted card 1 icon 1")
    act(state, "effect 1")
    target(state, "Ash Wyrm")
    assert drill in state.eliminated and drill not in state.in_play
    assert top_kind(state) != "choose effect", "its refresh has no exhausted ally left: forfeited"
    assert state.sleeves[sleeve_named(state, "Ash Wyrm")].damage == 4


def test_the_repeat_count_is_per_card_and_per_turn() -> None:
    """ "the same effect of the same card ... in a single turn": counts of the last turn are forgotten at the next
    Upkeep, and another card's count is its own."""
    state = scenario(
        in_play=["Echo Drill", "Gadwick Goldenhand"],
        battlefield=["Rust Golem", "Ash Wyrm", "Neon Cutthroat"],
        deck=["Strike", "Strike"],
    )
    drill, gadwick = sleeve_named(state, "Echo Drill"), sleeve_named(state, "Gadwick Goldenhand")
    data = state.to_dict()
    data["repeats"] = [[drill, effect_id(EXHAUST, 0), 3], [gadwick, effect_id(EXHAUST, 0), 3]]
    state = state.game.state_from_dict(data)
    act(state, "exhaust: drafted card 2 icon 1")
    act(state, "effect 1")
    assert gadwick in state.eliminated, "Gadwick's 4th resolution this turn"
    assert drill in state.in_play, "the drill's count is its own"
    act(state, "end main phase")
    while state.turn == 1:  # Threat and Cleanup Phases: the test plays whatever they ask
        state.apply_action(state.chance_outcomes()[0][0] if state.current_player() < 0 else state.legal_actions()[0])
    assert state.repeats == ()


def test_a_fast_refill_goes_on_past_fast_threats() -> None:
    """ "There are only 2 active threats before you refill. The next threat, Junker Cyclist, has the Fast keyword.
    After adding it, you must also add the next threat, Ceresan Thief. Neither the Ceresan Thief nor the Commhacker
    revealed after that are Fast threats, so the refill is complete." """
    state = scenario(
        hand=["Spare Credits"],
        battlefield=["Rust Golem", "Ash Wyrm"],
        deck=["Junker Cyclist", "Ceresan Thief", "Commhacker"],
    )
    act(state, "end main phase")
    reveal(state, "Ceresan Thief")
    reveal(state, "Commhacker")
    assert [state.game.cards.threats[state.sleeves[s].threat].name for s in state.battlefield] == [
        "Rust Golem",
        "Ash Wyrm",
        "Junker Cyclist",
        "Ceresan Thief",
    ]
    assert state.deck.top == (sleeve_named(state, "Commhacker"),)


def test_a_fast_refill_levels_up_in_the_middle_and_resumes() -> None:
    """ "If adding new threats empties your deck, level up immediately, then resume adding new threats until there
    are 3 active threats"; "You level up if your deck is empty and a new threat must be added. Complete the process of
    leveling up, then resume adding new threats". The Junker Cyclist is your last card: after adding it a third
    non-Fast threat is still needed, so you level up, and the refill goes on from your reshuffled discard pile."""
    state = scenario(
        hand=["Spare Credits"],
        battlefield=["Rust Golem", "Ash Wyrm"],
        deck=["Junker Cyclist"],
        discard=["Neon Cutthroat", "Vinespider"],
    )
    act(state, "end main phase")
    assert state.level == 2, "the Cyclist emptied the deck and a third non-Fast threat must still be added"
    assert sleeve_named(state, "Junker Cyclist") in state.battlefield
    assert top_kind(state) == "eliminate", "level-up step 3"
    act(state, "eliminate nothing")
    chance(state, state.chance_outcomes()[0][0])  # the boss mat's level-up effect
    reveal(state, "Neon Cutthroat")
    reveal(state, "Vinespider")
    names = [state.game.cards.threats[state.sleeves[s].threat].name for s in state.battlefield]
    assert names == ["Rust Golem", "Ash Wyrm", "Junker Cyclist", "Neon Cutthroat"]
    assert state.deck.top == (sleeve_named(state, "Vinespider"),)
