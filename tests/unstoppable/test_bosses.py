"""The bosses beyond the Harbinger, each rule alone on the hand-made cards (tests/unstoppable/cards/bosses.yaml), and
the shipped mats' rulebook examples. The Test Triumvirate: three members of 2 boss damage each; its Informants,
Strongholds and Enforcers deal 1 to the Triumvir of Whispers, of Coin and of Steel; boss card Triumvirate Edict (2 boss
damage)."""

from __future__ import annotations

from typing import Any

import pytest

from envs.core.game import TERMINAL, StateFormatError
from envs.core.testing import random_simulation
from envs.unstoppable.cards import SKIPPED_BORDER, load_unstoppable_cards
from envs.unstoppable.game import UnstoppableGame, max_turns
from tests.unstoppable.scenarios import act, rules_game, scenario, scenario_dict, target, top_kind

TRIUMVIRATE = "Test Triumvirate"
THREATS = ["Rust Golem", "Ash Wyrm", "Neon Cutthroat"]
SHIPPED = load_unstoppable_cards()


def triumvirate(**fields: Any) -> Any:
    """A Main Phase position against the Test Triumvirate."""
    return scenario(boss=TRIUMVIRATE, **fields)


def defeat_with_five_meters_under(state: Any, threat: str) -> None:
    """Play Five Meters Under (3 damage, then 2) and spend its 3 damage on `threat`."""
    act(state, "play: drafted card 1 (Five Meters Under)")
    act(state, "effect 1")
    target(state, threat)


@pytest.mark.parametrize(
    ("minion", "member_damage"),
    [
        ("Triumvirate Informant", (0, 0, 1)),
        ("Triumvirate Stronghold", (1, 0, 0)),
        ("Triumvirate Enforcer", (0, 1, 0)),
    ],
)
def test_a_minion_entering_your_hand_deals_boss_damage_to_its_own_member(
    minion: str, member_damage: tuple[int, ...]
) -> None:
    """Boss Damage: "The ways you can deal boss damage are specified on their boss mat and/or boss cards"; the
    Triumvirate's mat (RULES.md, "The Triumvirate", designed): each minion deals 1 boss damage to its own member when it
    enters your hand upon defeat."""
    hand = ["Five Meters Under/Fugitive Gunslinger"]
    state = triumvirate(hand=hand, battlefield=[minion, "Rust Golem", "Ash Wyrm"], deck=["Strike"])
    defeat_with_five_meters_under(state, minion)
    assert state.member_damage == member_damage and state.boss_damage == 1 and not state.over


def test_boss_damage_naming_no_member_goes_to_the_member_with_the_most_still_to_take() -> None:
    """RULES.md, "The Triumvirate" (designed): a card's boss damage icon names no member: the member with the most
    boss damage still to take takes it (the first on the mat on a tie). With Coin 1, Steel 0, Whispers 1: Steel."""
    state = triumvirate(
        hand=["Final Verdict/Commhacker"], battlefield=THREATS, deck=["Strike"], member_damage=[1, 0, 1], boss_damage=2
    )
    act(state, "play: drafted card 1 (Final Verdict)")
    act(state, "effect 1")
    assert state.member_damage == (1, 1, 1) and state.boss_damage == 3


def test_on_a_tie_the_first_member_on_the_mat_takes_it() -> None:
    """RULES.md, "The Triumvirate": ties go to the first member on the mat (the Triumvir of Coin)."""
    state = triumvirate(hand=["Final Verdict/Commhacker"], battlefield=THREATS, deck=["Strike"])
    act(state, "play: drafted card 1 (Final Verdict)")
    act(state, "effect 1")
    assert state.member_damage == (1, 0, 0)


def test_a_member_down_takes_no_more_boss_damage() -> None:
    """RULES.md, "The Triumvirate": a member takes at most its boss damage; a Stronghold defeated with the Triumvir
    of Coin down deals none (the boss damage taken stays 2)."""
    state = triumvirate(
        hand=["Five Meters Under/Fugitive Gunslinger"],
        battlefield=["Triumvirate Stronghold", "Rust Golem", "Ash Wyrm"],
        deck=["Strike"],
        member_damage=[2, 0, 0],
        boss_damage=2,
    )
    defeat_with_five_meters_under(state, "Triumvirate Stronghold")
    assert state.member_damage == (2, 0, 0) and state.boss_damage == 2


def test_the_triumvirate_is_defeated_when_its_last_member_goes_down() -> None:
    """ "You win the game if... you defeat the boss": the Triumvirate is defeated once every member has taken its
    boss damage (RULES.md, "The Triumvirate"); the game ends at once, in the middle of the card's effects."""
    state = triumvirate(
        hand=["Five Meters Under/Fugitive Gunslinger"],
        battlefield=["Triumvirate Informant", "Rust Golem", "Ash Wyrm"],
        deck=["Strike"],
        member_damage=[2, 2, 1],
        boss_damage=5,
    )
    defeat_with_five_meters_under(state, "Triumvirate Informant")
    assert state.current_player() == TERMINAL and state.won and state.ending() == "boss defeated"
    assert state.returns() == [1.0] and state.score() == [1.0]


def test_the_score_is_the_share_of_the_boss_damage_the_members_took() -> None:
    """RULES.md, "Reward modes": `score` is the boss's progress measure; the Triumvirate's is the boss damage its
    members took over what all of them need (3 of 6)."""
    state = triumvirate(
        hand=["Spare Credits"], battlefield=THREATS, deck=["Strike"], member_damage=[2, 1, 0], boss_damage=3
    )
    assert state.boss_damage == 3 and state.score() == [0.5]


@pytest.mark.parametrize(
    ("member_damage", "boss_damage", "field"),
    [([0, 0], 0, "member_damage"), ([3, 0, 0], 3, r"member_damage\[0\]"), ([1, 1, 0], 1, "boss_damage")],
)
def test_a_saved_position_with_impossible_member_damage_is_refused(
    member_damage: list[int], boss_damage: int, field: str
) -> None:
    """A saved position names the field it gets wrong: one entry per member, none above its boss damage, and the boss
    damage their sum."""
    data = scenario_dict(boss=TRIUMVIRATE, hand=["Spare Credits"], battlefield=THREATS, deck=["Strike"])
    data.update(member_damage=member_damage, boss_damage=boss_damage)
    with pytest.raises(StateFormatError, match=field):
        rules_game("normal", TRIUMVIRATE).state_from_dict(data)


def test_a_boss_without_members_saves_no_member_damage() -> None:
    """The Harbinger's boss damage is one number: a member entry on its saved position is refused."""
    data = scenario_dict(hand=["Spare Credits"], battlefield=THREATS, deck=["Strike"])
    data.update(member_damage=[0])
    with pytest.raises(StateFormatError, match="member_damage"):
        rules_game().state_from_dict(data)


def test_the_triumvirates_first_2_space_offers_the_card_elimination() -> None:
    """Card Elimination: "When the danger marker reaches this space, you may spend 1 credit to eliminate 1 card";
    "The Triumvirate has an optional card elimination effect when the danger marker reaches the first "2" space."
    The test mat's first "2" is space 4."""
    state = triumvirate(hand=["Spare Credits", "Strike"], battlefield=THREATS, deck=["Strike"] * 2, danger=3, armor=10)
    act(state, "end main phase")
    assert state.danger == 4 and top_kind(state) == "danger effect"


# ---------------------------------------------------------------------------------------------- the shipped mats
def test_the_triumvirates_mat_has_its_rulebook_spaces() -> None:
    """Card Elimination: "The Triumvirate has an optional card elimination effect when the danger marker reaches the
    first "2" space"; Hard Difficulty: "The Triumvirate has 3 yellow-bordered spaces that you skip on Hard
    difficulty"; Maximum Danger: "All bosses have this icon on the danger track"."""
    boss = SHIPPED.boss("The Triumvirate")
    track = boss.danger_track
    first_two = next(space for space in track if space.value == 2)
    assert first_two.effect == "eliminate" and first_two.border == "none"
    assert sum(space.border == "yellow" for space in track) == 3
    normal, hard, expert = (max_turns(boss, level) for level in ("normal", "hard", "expert"))
    assert normal > hard > expert > 0
    assert sum(SHIPPED.threat_deck(boss)) >= max(max_turns(boss, level) for level in SKIPPED_BORDER)


def test_the_triumvirates_members_and_minions() -> None:
    """Public facts: "The Triumvirate: 5 damage per player [INF: probably 5 to each of 3 members]" (decided: 5 to each
    of 3 members, RULES.md); the sleeving guide's Triumvirate Informant 4x, Stronghold 3x, Enforcer 3x, each dealing
    boss damage to one member."""
    boss = SHIPPED.boss("The Triumvirate")
    assert (boss.win.kind, boss.win.amount, len(boss.win.members)) == ("members", 5, 3)
    minions = {source.threat: source.member for source in boss.boss_damage_sources}
    assert set(minions) == {"Triumvirate Informant", "Triumvirate Stronghold", "Triumvirate Enforcer"}
    assert sorted(minions.values()) == sorted(boss.win.members)
    deck = SHIPPED.threat_deck(boss)
    copies = {name: deck[SHIPPED.threat_index(name)] for name in minions}
    assert copies == {"Triumvirate Informant": 4, "Triumvirate Stronghold": 3, "Triumvirate Enforcer": 3}


# ---------------------------------------------------------------------------------------------- whole games
@pytest.mark.parametrize("boss", SHIPPED.bosses.names)
def test_a_hundred_random_games_against_each_shipped_boss(boss: str) -> None:
    """Whole random games against each boss of the shipped content: every step keeps the generic invariants (legal
    actions and their mask, chance odds, observations), every 7th state rebuilds from its dict, every game ends
    within the bound, and random play never wins."""
    game = UnstoppableGame(boss=boss)
    report = random_simulation(game, num_games=100, seed=31, check_roundtrip_every=7, observed_games=5)
    assert report.games == 100 and report.longest <= game.spec.max_game_length
    assert report.returns.count(1.0) == 0


@pytest.mark.slow
@pytest.mark.parametrize("boss", SHIPPED.bosses.names)
def test_a_thousand_random_games_against_each_shipped_boss(boss: str) -> None:
    """The same over 1,000 games per boss (every 29th state rebuilt from its dict); random play wins at most 1%."""
    game = UnstoppableGame(boss=boss)
    report = random_simulation(game, num_games=1000, seed=32, check_roundtrip_every=29, observed_games=10)
    assert report.games == 1000 and report.longest <= game.spec.max_game_length
    assert report.returns.count(1.0) <= 10
