"""Sleeved cards and piles: the face-up core decks and the draft, the sleeving of a drafted core, the player deck
threat side up, the threat and boss decks, the upgrade deck and its market, and the two sides of an upgrade."""

from __future__ import annotations

from typing import Any

from envs.core.game import CHANCE
from envs.unstoppable.effects import legal_targets, on_deck, threat_attack, threat_health, threat_keywords
from envs.unstoppable.state import NONE
from tests.unstoppable.scenarios import act, chance, labels, reveal, scenario, sleeve_named, top_kind

DRAFT_STACK: list[dict[str, Any]] = [
    {"seat": 0, "kind": kind, "reason": "", "details": {}}
    for kind in ("cleanup", "threat phase", "main start", "draft start")
]
"""The frames of a turn at its Draft Phase."""
THREATS = ["Rust Golem", "Ash Wyrm", "Neon Cutthroat"]


def core_index(state: Any, name: str) -> int:
    """A core's index by name."""
    return int(state.game.cards.core_index(name))


def test_the_draft_takes_three_from_the_small_discs_deck_and_returns_two_to_its_bottom_in_order() -> None:
    """ "Find the core deck where your small level disc is located. Draw the top 3 cards of that core deck. Keep 1
    of those cards and return the other 2 to the bottom of the same deck." The decks are face up ("Place these decks in
    a face-up row"): the top card is known, the cards under it are revealed as the top is taken; the two returned go to
    the bottom in the order drawn (RULES.md, "Readings")."""
    state = scenario(hand=["Strike"], battlefield=THREATS, deck=["Strike"], stack=DRAFT_STACK, phase="UPKEEP")
    names = state.game.cards.cores
    assert [names[c].name for c in state.draft] == ["Viren Strategy"], "the known top card, taken first"
    assert top_kind(state) == "reveal core", "the card under it is unknown until the top is taken"
    chance(state, core_index(state, "Quick Raid"))
    chance(state, core_index(state, "Royal Armorer"))
    chance(state, core_index(state, "Hired Guns"))  # the new top, revealed once the three are taken
    assert [names[c].name for c in state.draft] == ["Viren Strategy", "Quick Raid", "Royal Armorer"]
    assert labels(state) == ["draft: Viren Strategy", "draft: Royal Armorer", "draft: Quick Raid"] or sorted(
        labels(state)
    ) == ["draft: Quick Raid", "draft: Royal Armorer", "draft: Viren Strategy"]
    act(state, "draft: Quick Raid")
    deck = state.core_decks[0]
    assert [names[c].name for c in deck.top] == ["Hired Guns"]
    assert [names[c].name for c in deck.bottom] == ["Viren Strategy", "Royal Armorer"]


def test_a_drafted_core_is_sleeved_with_the_top_threat_unseen_and_goes_to_your_hand() -> None:
    """ "Take the top card of the threat deck, without viewing the threat side, and put your chosen core card into the
    same sleeve. Add the newly drafted card to your hand with the core side facing you. Reset your small level disc
    back to where your large level disc is located." """
    state = scenario(
        hand=["Strike"], battlefield=THREATS, deck=["Strike"], stack=DRAFT_STACK, phase="UPKEEP", small_level=2
    )
    while state.current_player() == CHANCE:
        chance(state, state.chance_outcomes()[0][0])
    act(state, "draft: Admiral Worley")
    assert top_kind(state) == "sleeve threat"
    stag = state.game.cards.threat_index("Virenian Stag")
    assert "Virenian Stag" not in state.chance_label_for(stag, 0), "the player does not see the threat side"
    before = sum(state.threat_deck.counts())
    chance(state, stag)
    sleeve = len(state.sleeves) - 1
    assert sleeve in state.hand
    assert state.sleeves[sleeve].core == core_index(state, "Admiral Worley")
    assert state.sleeves[sleeve].threat == stag and not state.sleeves[sleeve].seen
    assert sum(state.threat_deck.counts()) == before - 1
    assert state.small_level == state.level == 1


def test_the_on_deck_threat_is_revealed_and_seen_and_a_crazed_one_may_hurt_itself() -> None:
    """ "Virenian Stag has the Crazed 5 keyword. You defeat the current on-deck threat, revealing a Virenian Stag on top
    of your deck. If you only have 4 health when this occurs, it deals itself 2 damage." A drafted card's threat side,
    unseen until then, is seen once revealed."""
    for health, damage in ((4, 2), (6, 0)):
        state = scenario(
            hand=["Final Verdict"], battlefield=THREATS, deck=["Ceresan Thief"], unseen=["Virenian Stag"], health=health
        )
        stag = sleeve_named(state, "Virenian Stag")
        data = state.to_dict()
        data["hand"].remove(stag)
        data["deck"]["unknown"] = [stag]
        state = state.game.state_from_dict(data)
        assert not state.sleeves[stag].seen
        act(state, "play: drafted card")
        act(state, "effect 2")  # 4 damage
        act(state, "target: sleeve 1")  # the on-deck Ceresan Thief
        assert top_kind(state) == "reveal on-deck threat"
        reveal(state, "Virenian Stag")
        assert on_deck(state) == stag
        assert state.sleeves[stag].seen
        assert state.sleeves[stag].damage == damage


def test_a_crazed_self_defeat_chains_to_the_next_reveal() -> None:
    """A Crazed threat whose self-damage defeats it is defeated like any threat: to your hand, and the next card is
    revealed and checked in turn (RULES.md, "Readings"). "For the Crazy, Rage, and Terror keywords, the effect
    resolves once for each instance when triggered": a Virenian Stag (Crazed 5, 4 health) with Frenzy Serum (Crazed
    4) deals itself 2 + 2 damage at 4 health."""
    state = scenario(
        hand=["Final Verdict"],
        battlefield=THREATS,
        deck=["Ceresan Thief", "Virenian Stag", "Strike"],
        health=4,
        upgrades={"Virenian Stag": {"bottom": "Frenzy Serum"}},
    )
    stag = sleeve_named(state, "Virenian Stag")
    act(state, "play: drafted card")
    act(state, "effect 2")
    act(state, "target: sleeve 1")
    reveal(state, "Virenian Stag")
    assert stag in state.hand and state.sleeves[stag].damage == 0
    assert top_kind(state) == "reveal on-deck threat", "the next card is revealed in turn, before the bonuses"
    chance(state, 1)  # the Strike / Ceresan Thief under them
    assert on_deck(state) == 1
    assert state.credits == 3 + 1 + 1, "then the Stag's bonus and the Thief's"


def test_upgrades_modify_the_threat_side_too() -> None:
    """ "Upgrades are sleeved between cores and threats. They add modifiers to the core side and the threat side";
    "any attack value present on the threat side of those upgrades is added to the threat's attack value"; keywords
    stack. Spiked Plating (+1 defense, Taunt) and Sharpened Edge (+1 attack) on a Ceresan Thief (1 attack, 1
    defense)."""
    state = scenario(
        hand=["Spare Credits"],
        battlefield=["Rust Golem", "Ceresan Thief", "Ash Wyrm"],
        deck=["Strike"],
        upgrades={"Ceresan Thief": {"bottom": "Spiked Plating", "top": "Sharpened Edge"}},
    )
    thief = sleeve_named(state, "Ceresan Thief")
    assert (threat_attack(state, thief), threat_health(state, thief)) == (2, 4)
    assert threat_keywords(state, thief).taunt == 1
    assert legal_targets(state) == (thief,), "a Taunt threat must be targeted"
    assert len(legal_targets(state, ignore_taunt=True)) == 4


def test_buying_an_upgrade_spends_credits_less_the_discount_and_refills_the_market() -> None:
    """ "To buy an upgrade, you must spend credits equal to its cost ... add the upgrade to any tactic card or ally card
    in your hand or in play ... Some upgrades have a requirement ... Once you have sleeved the upgrade, refill the empty
    slot in the market with another upgrade revealed from the upgrade deck." Nerve Toxin costs 2, less 2 on a Viren
    card; Sharpened Edge needs a tactic; each sleeve has one top and one bottom cutout."""
    state = scenario(hand=["Viren Strategy", "Rally the Cells"], battlefield=THREATS, deck=["Strike"], credits=0)
    market = [state.game.cards.upgrades[u].name if u != NONE else None for u in state.market]
    offered = labels(state)
    toxin = market.index("Nerve Toxin") + 1
    assert f"buy: market slot {toxin} (Nerve Toxin) onto drafted card 1 (Viren Strategy) for 0 credits" in offered
    edge = market.index("Sharpened Edge") + 1
    assert not any(f"market slot {edge} " in label for label in offered), "no credits for Sharpened Edge"
    act(state, f"buy: market slot {toxin} (Nerve Toxin) onto drafted card 1")
    assert state.sleeves[sleeve_named(state, "Viren Strategy")].top == state.game.cards.upgrade_index("Nerve Toxin")
    assert state.current_player() == CHANCE and top_kind(state) == "reveal upgrade"
    outcomes = dict(state.chance_outcomes())
    assert {state.game.cards.upgrades[u].name for u in outcomes} == {"Field Medic Kit", "Overclock"}
    chance(state, state.game.cards.upgrade_index("Overclock"))
    assert state.market[toxin - 1] == state.game.cards.upgrade_index("Overclock")
    assert not any(f"market slot {toxin} (Overclock) onto drafted card 1" in label for label in labels(state)), (
        "Overclock needs an ally; and the top cutout of Viren Strategy is taken anyway"
    )


def test_market_cycle_moves_upgrades_to_the_known_bottom_of_the_deck_then_refills() -> None:
    """ "When the danger marker reaches this space, you may move any number of upgrades from the market to the
    bottom of the deck, then refill the market." """
    game_state = scenario(
        hand=["Spare Credits"], battlefield=THREATS, deck=["Strike", "Strike"], danger=9, health=10, armor=10
    )
    market_before = list(game_state.market)
    act(game_state, "end main phase")
    assert game_state.danger == 10 and top_kind(game_state) == "danger effect"
    act(game_state, "danger: take")
    act(game_state, "cycle: market slot 2")
    act(game_state, "cycle: market slot 5")
    act(game_state, "stop cycling")
    assert game_state.upgrade_deck.bottom == (market_before[1], market_before[4])
    while game_state.current_player() == CHANCE and top_kind(game_state) == "reveal upgrade":
        chance(game_state, game_state.chance_outcomes()[0][0])
    assert NONE not in game_state.market
    assert game_state.upgrade_deck.bottom == (market_before[1], market_before[4]), "the two unknown cards came first"


def test_a_level_up_shuffles_boss_cards_into_the_threat_deck() -> None:
    """ "Resolve any boss-specific effects that trigger when you level up. These effects, if any, are printed on the
    boss mat." The test boss shuffles the top card of its boss deck into the threat deck."""
    state = scenario(hand=["Five Meters Under"], battlefield=["Rust Golem"], deck=[], damage={"Rust Golem": 2})
    herald = state.game.cards.threat_index("Harbinger's Herald")
    act(state, "play: drafted card 1")
    act(state, "effect 1")
    act(state, "eliminate nothing")
    assert top_kind(state) == "boss card"
    chance(state, herald)
    assert state.boss_deck.counts()[herald] == 1 and state.threat_deck.counts()[herald] == 1
