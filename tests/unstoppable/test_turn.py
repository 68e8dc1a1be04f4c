"""The solo game's setup and the five phases of a turn, level up and the danger track, on the hand-made cards.

Each test quotes the Unstoppable rulebook; positions are written with card names.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from envs.core.game import CHANCE
from envs.unstoppable.effects import on_deck, threat_health
from envs.unstoppable.game import max_turns
from envs.unstoppable.state import MARKET_SIZE, NONE
from tests.unstoppable.scenarios import (
    act,
    chance,
    labels,
    reveal,
    rules_game,
    scenario,
    setup_dict,
    sleeve_named,
    target,
    top_kind,
)

THREATS = ["Rust Golem", "Ash Wyrm", "Neon Cutthroat"]


def frames(*kinds: str) -> list[dict[str, Any]]:
    """A stack of the player's frames of these kinds, bottom first."""
    return [{"seat": 0, "kind": kind, "reason": "", "details": {}} for kind in kinds]


def to_main_phase(state: Any, rng: np.random.Generator) -> None:
    """Play chance events and take the first draft option until the Main Phase decision."""
    while top_kind(state) != "main phase":
        state.apply_action(state.sample_chance(rng) if state.current_player() == CHANCE else state.legal_actions()[0])


# ---------------------------------------------------------------------------------------------- setup
def test_setup_follows_the_rulebook() -> None:
    """Player setup: "Set the markers at '10' on the health track and '0' on the armor track"; the 10-card character
    deck (6 Strike, 1 Spare Credits, the 3 character cards); "Draw 3 cards"; "Take 3 cards from your deck. Place these
    cards in a row next to your deck, threat side up"; 3 credits; 3 action points; both level discs above level 1.
    Common setup: 6 face-up core decks, the upgrade market of 6. Boss setup: the danger marker on the first space."""
    state = rules_game().new_initial_state()
    rng = np.random.default_rng(0)
    while state.current_player() == CHANCE:
        state.apply_action(state.sample_chance(rng))
    assert top_kind(state) == "draft", "the first turn's Upkeep is done: its Draft Phase asks"
    assert (state.health, state.armor, state.credits, state.action_points) == (10, 0, 3, 3)
    assert (state.level, state.small_level, state.danger, state.turn) == (1, 1, 0, 1)
    cores = [state.game.cards.cores[sleeve.core].name for sleeve in state.sleeves]
    assert sorted(cores) == sorted(["Strike"] * 6 + ["Spare Credits", "Blade Dance", "Spore Shield", "Scrap Ride"])
    assert len(state.hand) == 3 and len(state.battlefield) == 3 and len(state.deck) == 4
    assert on_deck(state) != NONE, "the on-deck threat is revealed"
    assert NONE not in state.market and len(state.market) == MARKET_SIZE
    for level, deck in enumerate(state.core_decks, start=1):
        assert deck.top or not deck.unknown_size, f"the face-up level-{level} deck shows its top card"
    assert len(state.draft) == 3


def test_the_first_turn_has_three_action_points() -> None:
    """ "Place 3 of them in the action points space" at setup, and the Upkeep's "Place 3 action point discs": the
    setup's discs are the first Upkeep's (RULES.md, "Readings")."""
    state = rules_game().new_initial_state()
    to_main_phase(state, np.random.default_rng(1))
    assert state.action_points == 3


# ---------------------------------------------------------------------------------------------- upkeep and draft
def test_upkeep_places_three_action_points_and_refreshes_allies() -> None:
    """ "Place 3 action point discs in the action points space ... Refresh all exhausted ally cards in play". The
    Cleanup Phase removed the last turn's points; gains are capped at 6."""
    state = scenario(
        in_play=["Royal Armorer", "Gadwick Goldenhand"],
        exhausted=["Royal Armorer"],
        battlefield=THREATS,
        deck=["Strike", "Strike"],
        stack=frames("end turn"),
        phase="CLEANUP",
        action_points=0,
    )
    assert state.turn == 2 and state.action_points == 3 and state.exhausted == ()


def test_training_drafts_from_a_higher_deck_until_the_draft_resets_the_small_disc() -> None:
    """ "Advance your small level disc 1 level"; "your small level disc advances temporarily when you train"; the
    draft uses "the core deck where your small level disc is located", then "Reset your small level disc back to where
    your large level disc is located"."""
    state = scenario(
        hand=["Exceed Your Limits", "Spare Credits"],
        battlefield=THREATS,
        deck=["Strike", "Strike"],
        health=10,
        armor=10,
    )
    act(state, "play: drafted card 1 (Exceed Your Limits)")
    act(state, "effect 1")
    assert (state.level, state.small_level) == (1, 2)
    act(state, "end main phase")
    while state.current_player() == CHANCE or top_kind(state) != "draft":
        state.apply_action(
            state.sample_chance(np.random.default_rng(0))
            if state.current_player() == CHANCE
            else state.legal_actions()[0]
        )
    assert {state.game.cards.cores[c].level for c in state.draft} == {2}
    act(state, labels(state)[0])
    while state.current_player() == CHANCE:
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.small_level == 1


# ---------------------------------------------------------------------------------------------- main phase
def test_a_card_costs_its_action_points_and_an_ally_stays_in_play() -> None:
    """ "To play a card from hand, you must spend action points equal to its cost"; "Once played, an ally card
    remains in play until the next time you level up"; a tactic "remains in play until the Cleanup Phase"."""
    state = scenario(
        hand=["Admiral Worley", "Royal Armorer", "Strike"], battlefield=THREATS, deck=["Strike"], action_points=3
    )
    assert "play: drafted card 1 (Admiral Worley)" in labels(state)
    act(state, "play: drafted card 2 (Royal Armorer)")
    assert state.action_points == 1
    assert "play: drafted card 1 (Admiral Worley)" not in labels(state), "3 action points needed, 1 left"
    assert sleeve_named(state, "Royal Armorer") in state.in_play


def test_exhausting_an_ally_resolves_one_icon_and_only_once_until_refreshed() -> None:
    """ "For an ally with multiple exhaust icons, you must choose only 1 to use for its effects"; "Once an ally has
    been exhausted ..., it cannot be exhausted again until it is refreshed"."""
    state = scenario(in_play=["Admiral Worley"], hand=["Spare Credits"], battlefield=THREATS, deck=["Strike"])
    assert {
        "exhaust: drafted card 1 icon 1 (Admiral Worley)",
        "exhaust: drafted card 1 icon 2 (Admiral Worley)",
    } <= set(labels(state))
    act(state, "icon 2")
    act(state, "effect 1")
    assert state.credits == 5
    assert not any(label.startswith("exhaust") for label in labels(state))


def test_refresh_rotates_an_exhausted_ally_upright() -> None:
    """Refresh an ally: it "can be exhausted again". Rally the Cells refreshes the exhausted Gadwick Goldenhand."""
    state = scenario(
        in_play=["Rally the Cells", "Gadwick Goldenhand"],
        exhausted=["Gadwick Goldenhand"],
        battlefield=THREATS,
        deck=["Strike"],
    )
    act(state, "exhaust: drafted card 1 icon 1")
    act(state, "effect 1")
    assert len(labels(state)) == 2, "both allies are exhausted now: Rally the Cells may refresh itself"
    act(state, "refresh: drafted card 2 (Gadwick Goldenhand)")
    assert state.exhausted == (sleeve_named(state, "Rally the Cells"),)
    assert "exhaust: drafted card 2 icon 1 (Gadwick Goldenhand)" in labels(state)


def test_eliminate_returns_a_card_from_hand_discard_or_play_to_the_box() -> None:
    """ "Choose 1 card in your hand, in your discard pile, or in play. Return that card to the box"."""
    state = scenario(
        hand=["Regional Target", "Strike"], battlefield=THREATS, deck=["Strike"], discard=["Viren Strategy"]
    )
    act(state, "play: drafted card 1 (Regional Target)")
    act(state, "effect 1")
    offered = labels(state)
    assert "eliminate: sleeve 1 (Strike)" in offered
    assert "eliminate: drafted card 1 (Regional Target)" in offered, "in play itself"
    assert len(offered) == 1 + 1 + 9, "the hand's Strike, itself, the discard pile (Viren Strategy and 8 more)"
    act(state, "(Viren Strategy)")
    assert sleeve_named(state, "Viren Strategy") in state.eliminated


def test_level_conditions_read_the_large_disc() -> None:
    """ "Guard Squadron is a Silver ally card with an effect that lets you gain 2 health when exhausted if you are
    Level 2 or higher." """
    for level, health in ((1, 5), (2, 7)):
        state = scenario(
            in_play=["Guard Squadron"],
            hand=["Spare Credits"],
            battlefield=THREATS,
            deck=["Strike"],
            health=5,
            level=level,
            small_level=level,
        )
        act(state, "exhaust: drafted card 1 icon 1")
        if level >= 2:
            act(state, "effect 1")
        assert state.health == health


# ---------------------------------------------------------------------------------------------- threat phase
def test_active_threats_deal_their_attack_armor_first() -> None:
    """ "The amount of damage dealt by each active threat is equal to its attack value. If the card has upgrades on it,
    any attack value present on the threat side of those upgrades is added"; "For each damage you are dealt, move the
    armor marker down 1 space ... If the armor marker reaches zero, move the health marker down"; the on-deck threat
    deals nothing; the damage a threat has taken does not lower its attack."""
    state = scenario(
        hand=["Spare Credits"],
        battlefield=["Rust Golem", "Ceresan Thief", "Ash Wyrm"],
        deck=["Deadwood Stalker"],
        armor=4,
        health=10,
        damage={"Rust Golem": 3},
        upgrades={"Ceresan Thief": {"top": "Sharpened Edge"}},
    )
    act(state, "end main phase")
    assert (state.armor, state.health) == (0, 10 - (2 + 2 + 3 - 4))


def test_rage_discards_an_ally_per_instance() -> None:
    """ "During the Threat Phase, for each Rage threat on the battlefield, you must discard 1 ally from play";
    Overclock adds Rage to a Rust Golem beside a Backalley Blademaster (Rage): two allies are discarded."""
    state = scenario(
        hand=["Spare Credits"],
        in_play=["Royal Armorer", "Gadwick Goldenhand", "Echo Drill"],
        exhausted=["Echo Drill"],
        battlefield=["Backalley Blademaster", "Guard Squadron / Rust Golem", "Ash Wyrm"],
        deck=["Strike", "Strike"],
        upgrades={"Guard Squadron": {"top": "Overclock"}},
        armor=10,
    )
    act(state, "end main phase")
    assert top_kind(state) == "rage"
    assert len(labels(state)) == 3, "available and exhausted allies alike"
    act(state, "discard: drafted card 3 (Echo Drill)")
    act(state, "discard: drafted card 1 (Royal Armorer)")
    assert state.in_play == (sleeve_named(state, "Gadwick Goldenhand"),)
    assert {sleeve_named(state, "Echo Drill"), sleeve_named(state, "Royal Armorer")} <= set(state.discard)


def test_rage_on_top_of_the_deck_does_nothing() -> None:
    """ "If this threat is on top of your deck, you are unaffected." """
    state = scenario(
        hand=["Spare Credits"],
        in_play=["Royal Armorer"],
        battlefield=THREATS,
        deck=["Backalley Blademaster", "Strike"],
        armor=10,
    )
    act(state, "end main phase")
    assert sleeve_named(state, "Royal Armorer") in state.in_play


# ---------------------------------------------------------------------------------------------- cleanup
def test_cleanup_discards_tactics_loses_action_points_and_armor_and_advances_danger() -> None:
    """ "Discard all tactic cards from play ... Remove all remaining action point discs ... Reset the armor marker to
    zero ... Add new threats ... Advance the danger marker 1 space"; allies stay; damage on threats persists."""
    state = scenario(hand=["Strike", "Royal Armorer"], battlefield=THREATS, deck=["Ceresan Thief", "Strike"], armor=10)
    act(state, "play: sleeve 1 (Strike)")
    act(state, "effect 1")
    target(state, "Rust Golem")
    act(state, "play: drafted card 1 (Royal Armorer)")
    act(state, "end main phase")
    assert (state.action_points, state.armor) == (3, 0), "the next turn's 3; armor back to 0"
    assert sleeve_named(state, "Strike") in state.discard
    assert sleeve_named(state, "Royal Armorer") in state.in_play
    assert state.sleeves[sleeve_named(state, "Rust Golem")].damage == 1
    assert state.danger == 1 and state.turn == 2


def test_a_threat_is_defeated_at_attack_plus_defense_and_skull_defense_is_the_danger_level() -> None:
    """ "When a threat has taken damage equal to or greater than its health, you have defeated it. The health of each
    threat is the sum of its attack and defense values"; "Commhacker ... with skull defense. If the current danger
    level is 2, then it has 2 defense." """
    state = scenario(
        hand=["Five Meters Under"], battlefield=["Commhacker", "Rust Golem", "Ash Wyrm"], deck=["Strike"], danger=5
    )
    hacker = sleeve_named(state, "Commhacker")
    assert threat_health(state, hacker) == 1 + 2
    act(state, "play: drafted card 1 (Five Meters Under)")
    act(state, "effect 2")
    target(state, "Commhacker")
    assert state.sleeves[hacker].damage == 2 and hacker in state.battlefield
    act(state, "effect 1")
    act(state, "target: drafted card 2 (Commhacker)")
    assert hacker in state.hand and state.sleeves[hacker].damage == 0
    assert state.small_level == 2, "its bonus: train 1"


# ---------------------------------------------------------------------------------------------- level up
def test_level_up_in_the_cleanup_follows_its_five_steps() -> None:
    """ "1. Advance both level discs ... 2. Discard all tactic cards and ally cards from play and discard down to 3
    cards in hand. 3. Optionally eliminate any 1 card ... 4. Resolve any boss-specific effects ... 5. Reshuffle all
    cards in your discard pile. Place the shuffled cards in the deck space ..., threat side up." """
    state = scenario(
        hand=["Strike", "Strike", "Strike", "Strike", "Spare Credits"],
        in_play=["Royal Armorer"],
        battlefield=["Rust Golem", "Ash Wyrm"],
        deck=[],
        discard=["Neon Cutthroat"],
        armor=10,
        small_level=3,
    )
    act(state, "end main phase")
    assert (state.level, state.small_level) == (2, 4), "each disc advances 1 space"
    assert sleeve_named(state, "Royal Armorer") in state.discard
    assert top_kind(state) == "discard down to 3"
    act(state, "discard: sleeve 2 (Strike)")
    act(state, "discard: sleeve 3 (Strike)")
    assert len(state.hand) == 3
    act(state, "eliminate: sleeve 2 (Strike)")
    assert sleeve_named(state, "Strike", 1) in state.eliminated
    herald = state.game.cards.threat_index("Harbinger's Herald")
    chance(state, herald)
    assert state.threat_deck.counts()[herald] == 1
    assert top_kind(state) == "reveal on-deck threat" and not state.discard
    reveal(state, "Neon Cutthroat")
    assert sleeve_named(state, "Neon Cutthroat") in state.battlefield, "the refill resumes"


def test_the_level_discs_stop_at_level_six() -> None:
    """Level-up step 1 advances each disc "1 space"; there are 6 core decks ("If your small level disc is already at
    the 6th level, nothing happens" when training)."""
    state = scenario(
        hand=["Spare Credits"],
        battlefield=["Rust Golem", "Ash Wyrm"],
        deck=[],
        discard=["Strike"],
        level=6,
        small_level=6,
        armor=10,
    )
    act(state, "end main phase")
    assert (state.level, state.small_level) == (6, 6)


# ---------------------------------------------------------------------------------------------- danger track
@pytest.mark.parametrize(
    ("difficulty", "landings"),
    [("normal", [1, 3, 4, 5, 6, 7, 9]), ("hard", [1, 2, 3, 5, 6, 7, 8]), ("expert", [1, 2, 3, 4, 5, 7, 8])],
)
def test_the_danger_marker_skips_the_difficultys_spaces(difficulty: str, landings: list[int]) -> None:
    """ "NORMAL: Skip all spaces with a green border. HARD: Skip all spaces with a yellow border. EXPERT: Skip all
    spaces with a red border." The test boss's track has green spaces 2 and 8, yellow 4 and 11, red 6 and 9."""
    state = scenario(hand=["Spare Credits"], battlefield=THREATS, deck=["Strike"] * 5, difficulty=difficulty, armor=10)
    seen: list[int] = []
    rng = np.random.default_rng(0)
    while len(seen) < len(landings):
        turn = state.turn
        while state.turn == turn:
            if state.current_player() == CHANCE:
                state.apply_action(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                end = state.game.actions.end_main
                state.apply_action(end if end in legal else legal[-1])
            state.health = 10  # the test watches the marker, not the threats
            state.drop_caches()
        seen.append(state.danger)
    assert seen == landings
    assert max_turns(state.game.boss, difficulty) == 13 - 2


def test_the_danger_eliminate_space_costs_a_credit() -> None:
    """ "Spend 1 credit to eliminate 1 card in your hand, in your discard pile, or in play." (optional)"""
    state = scenario(
        hand=["Spare Credits", "Strike"], battlefield=THREATS, deck=["Strike"] * 2, danger=4, armor=10, credits=2
    )
    act(state, "end main phase")
    assert state.danger == 5 and top_kind(state) == "danger effect"
    act(state, "danger: take")
    act(state, "eliminate: sleeve 1 (Strike)")
    assert state.credits == 1 and sleeve_named(state, "Strike") in state.eliminated


def test_an_effect_on_a_skipped_space_does_not_trigger() -> None:
    """ "When an effect space on the danger track is skipped due to difficulty level, the effect does not trigger."
    The test boss's space 8 (market cycle) is green: Normal skips it."""
    state = scenario(hand=["Spare Credits"], battlefield=THREATS, deck=["Strike"] * 2, danger=7, armor=10)
    act(state, "end main phase")
    assert state.danger == 9
    assert top_kind(state) != "danger effect"


def test_setup_dict_is_the_first_draft() -> None:
    """The seeded setup the scenarios start from is a real position: the first turn's draft."""
    data = setup_dict()
    assert data["phase"] == "DRAFT" and data["turn"] == 1
