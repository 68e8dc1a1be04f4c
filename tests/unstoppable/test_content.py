"""Unstoppable shipped content (envs/unstoppable/data): the rulebook's component counts, every card the rulebook names
with the printed facts it states, and the Harbinger's boss mat. Each test quotes the sentence it checks.

The rulebook is Unstoppable's (not shipped); the public facts are envs/unstoppable/REFERENCE.md.
"""

from __future__ import annotations

import re
import shutil
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from envs.unstoppable.cards import (
    DANGER_DEFENSE,
    FACTIONS,
    SKIPPED_BORDER,
    WORLDS,
    Boss,
    Core,
    Effect,
    Threat,
    load_unstoppable_cards,
)

DATA = Path(__file__).resolve().parents[2] / "envs" / "unstoppable" / "data"
CARDS = load_unstoppable_cards()
HARBINGER = CARDS.boss("The Harbinger")
MINIONS = (
    "Order Acolyte",
    "Order Archivist",
    "Triumvirate Informant",
    "Triumvirate Stronghold",
    "Triumvirate Enforcer",
)
BOSS_CARD_NUMBER = re.compile(r"Boss card #(\d\d)\.")
"""Boss cards carry their printed number in their text (the schema has no number field)."""


def core(name: str) -> Core:
    """The shipped core of that name."""
    return CARDS.cores[CARDS.core_index(name)]


def threat(name: str) -> Threat:
    """The shipped threat of that name."""
    return CARDS.threats[CARDS.threat_index(name)]


def copies(cards: Iterable[Core | Threat]) -> int:
    """Physical cards among the records (each record counts its copies)."""
    return sum(card.copies for card in cards)


def all_effects(card: Core) -> list[Effect]:
    """A core's play effects and the effects of every exhaust icon."""
    return [*card.effects, *(effect for icon in card.exhaust for effect in icon)]


def turns_before_maximum_danger(boss: Boss, difficulty: str) -> int:
    """Cleanup Phases until the marker reaches the last space: the spaces after the first, less the skipped ones."""
    skipped = SKIPPED_BORDER[difficulty]
    return sum(space.border != skipped for space in boss.danger_track[1:])


# ============================================================================================== counts
def test_component_counts() -> None:
    """Card Anatomy: "Core Cards (126x)", "Threat Cards (111x)", "Upgrade Cards (36x)"."""
    assert copies(CARDS.cores) == 126
    assert copies(CARDS.threats) == 111
    assert sum(upgrade.copies for upgrade in CARDS.upgrades) == 36


def test_one_hundred_levelled_cores_in_six_decks() -> None:
    """Common Setup: "Divide the 100 unsleeved core cards into 6 decks by level number." Card Anatomy: "This value
    indicates which core deck the card comes from (1-6)." CONTENT.md gives the per-level counts and why; every deck
    holds all four factions."""
    by_level = Counter(card.level for card in CARDS.cores for _ in range(card.copies) if card.level > 0)
    assert sum(by_level.values()) == 100
    assert by_level == {1: 17, 2: 17, 3: 17, 4: 17, 5: 16, 6: 16}
    for level in range(1, 7):
        assert {card.faction for card in CARDS.cores if card.level == level} >= set(FACTIONS)


def test_level_zero_cores_are_the_starting_and_character_cards() -> None:
    """Card Anatomy: "Character cards and starting cards are level-0 core cards." Sleeving Guide: "Strike ... 12x",
    "Spare Credits ... 2x"; Character Setup: "Choose 1 of the 4 characters available"."""
    assert core("Strike").copies == 12
    assert core("Spare Credits").copies == 2
    sleeved = {pair.core for pair in CARDS.starting_deck} | {
        pair.core for character in CARDS.characters for pair in character.cards
    }
    assert {card.name for card in CARDS.cores if card.level == 0} == sleeved
    assert len(CARDS.characters) == 4
    assert copies(card for card in CARDS.cores if card.level == 0) == 12 + 2 + 4 * 3


def test_starting_cards_are_factionless() -> None:
    """Faction Keywords: "Some factionless cards, like the starting cards, have no faction type.\""""
    assert core("Strike").faction == core("Spare Credits").faction == "none"


def test_the_public_characters_and_their_ten_card_decks() -> None:
    """Player Setup: "Construct your 10-card character deck ... 6x Strike / Ceresan Thief, 1x Spare Credits /
    Virenian Doe, 1x Character Card A / Backalley Blademaster, 1x Character Card B / Sporeling, 1x Character Card C /
    Junker Cyclist". Public facts: the characters Julida, Zephyr and Kai Silver."""
    assert {"Julida", "Zephyr", "Kai Silver"} <= {character.name for character in CARDS.characters}
    for character in CARDS.characters:
        deck = Counter((CARDS.cores[c].name, CARDS.threats[t].name) for c, t in CARDS.character_deck(character))
        assert deck[("Strike", "Ceresan Thief")] == 6
        assert deck[("Spare Credits", "Virenian Doe")] == 1
        assert [pair.threat for pair in character.cards] == ["Backalley Blademaster", "Sporeling", "Junker Cyclist"]
        assert sum(deck.values()) == 10


def test_character_cards_grow_with_the_level() -> None:
    """Effect Icons, Level X+: "This text indicates an effect that only resolves if your large level disc is Level X
    or higher. The character cards all have effects like this.\""""
    for character in CARDS.characters:
        for pair in character.cards:
            assert any(effect.level >= 2 for effect in all_effects(core(pair.core))), pair.core


def test_the_sleeving_table_threats() -> None:
    """Sleeving Guide: Ceresan Thief 12x, Virenian Doe 2x, Backalley Blademaster 4x, Sporeling 4x, Junker Cyclist 4x;
    "Ceres II Threats 13x", "Virenos Threats 13x", "Mithras Threats 13x"; "Boss Cards #00-22 23x"; Order Acolyte 5x,
    Order Archivist 5x, Triumvirate Informant 4x, Triumvirate Stronghold 3x, Triumvirate Enforcer 3x."""
    starting = {card.name: card.copies for card in CARDS.threats if card.group == "starting"}
    assert starting == {
        "Ceresan Thief": 12,
        "Virenian Doe": 2,
        "Backalley Blademaster": 4,
        "Sporeling": 4,
        "Junker Cyclist": 4,
    }
    for world in WORLDS:
        assert copies(card for card in CARDS.threats if card.group == "threat" and card.world == world) == 13
    assert [threat(name).copies for name in MINIONS] == [5, 5, 4, 3, 3]
    numbers = [match.group(1) for card in CARDS.threats if (match := BOSS_CARD_NUMBER.fullmatch(card.text))]
    assert sorted(numbers) == [f"{n:02d}" for n in range(23)]


def test_three_threats_beyond_the_sleeving_table() -> None:
    """Card Anatomy: "Threat Cards (111x)" against the sleeving table's 108: the three others are the Triumvirs, boss
    threats no sleeve of the table holds and no Harbinger deck uses (CONTENT.md)."""
    in_table = {"starting", "threat"}
    table = copies(card for card in CARDS.threats if card.group in in_table)
    table += copies(card for card in CARDS.threats if BOSS_CARD_NUMBER.fullmatch(card.text) or card.name in MINIONS)
    assert table == 108
    others = [card for card in CARDS.threats if card.group == "boss" and card.name.startswith("Triumvir ")]
    assert copies(others) == 111 - 108
    used = {CARDS.threats[index].name for index in CARDS.boss_deck(HARBINGER)}
    used |= {card.name for card, n in zip(CARDS.threats, CARDS.threat_deck(HARBINGER), strict=True) if n}
    assert not used & {card.name for card in others}


# ============================================================================================== named threats
def test_starting_threat_keywords() -> None:
    """Threat Keywords: "Backalley Blademaster has the Rage keyword"; "Sporeling is a threat with the Taunt keyword";
    the Fast example: "The next threat, Junker Cyclist, has the Fast keyword.\""""
    assert threat("Backalley Blademaster").keywords.rage == 1
    assert threat("Sporeling").keywords.taunt == 1
    assert threat("Junker Cyclist").keywords.fast == 1
    assert threat("Ceresan Thief").keywords.fast == 0  # "Neither the Ceresan Thief nor the Commhacker ... are Fast"
    assert threat("Commhacker").keywords.fast == 0


def test_deadwood_stalker() -> None:
    """Attack Value: "Deadwood Stalker is a Bug threat from Virenos that deals you 3 damage during the Threat Phase if
    active.\""""
    stalker = threat("Deadwood Stalker")
    assert (stalker.kind, stalker.world, stalker.attack) == ("Bug", "virenos", 3)


def test_fugitive_gunslinger() -> None:
    """Defense Value: "Fugitive Gunslinger is a Viren threat from Mithras with 2 attack and 1 defense for a total of
    3 health.\""""
    gunslinger = threat("Fugitive Gunslinger")
    assert (gunslinger.kind, gunslinger.world, gunslinger.attack, gunslinger.defense) == ("Viren", "mithras", 2, 1)


def test_commhacker() -> None:
    """Danger Level: "Commhacker is a Human threat from Ceres II with skull defense. If the current danger level is 2,
    then it has 2 defense.\""""
    commhacker = threat("Commhacker")
    assert (commhacker.kind, commhacker.world, commhacker.defense) == ("Human", "ceres_ii", DANGER_DEFENSE)


def test_virenian_stag() -> None:
    """Crazed: "Virenian Stag has the Crazed 5 keyword.\""""
    assert threat("Virenian Stag").keywords.crazed == (5,)


def test_vinespider() -> None:
    """Terror: "Vinespider is a threat with the Terror keyword.\""""
    assert threat("Vinespider").keywords.terror == 1


# ============================================================================================== named cores
def test_hired_guns() -> None:
    """Bargain: "Hired Guns is a Junker tactic card with a 'Bargain 3' effect.\""""
    card = core("Hired Guns")
    assert (card.faction, card.type) == ("junker", "tactic")
    assert [effect.bargain for effect in card.effects if effect.keyword == "bargain"] == [3]


def test_royal_armorer() -> None:
    """Conspire: "Royal Armorer is a Silver ally card with a Conspire effect to gain 2 health.\""""
    card = core("Royal Armorer")
    assert (card.faction, card.type) == ("silver", "ally")
    conspire = [effect for effect in all_effects(card) if effect.conspire]
    assert [(effect.kind, effect.amount) for effect in conspire] == [("health", 2)]


def test_viren_strategy() -> None:
    """Focus: "Viren Strategy is a Viren tactic card with a Focus effect to deal X damage. If you have 4 other Viren
    cards in your hand and/or in play, this effect deals 5 damage.\""""
    card = core("Viren Strategy")
    assert (card.faction, card.type) == ("viren", "tactic")
    (focus,) = [effect for effect in card.effects if effect.focus]
    assert (focus.kind, focus.scaling, focus.amount * 5, focus.instances) == ("damage", "amount", 5, 1)


def test_admiral_worley() -> None:
    """Unite: "Admiral Worley is a Council ally card with a Unite effect to deal X instances of 2 damage.\""""
    card = core("Admiral Worley")
    assert (card.faction, card.type) == ("council", "ally")
    (unite,) = [effect for effect in all_effects(card) if effect.unite]
    assert (unite.kind, unite.scaling, unite.amount) == ("damage", "instances", 2)


def test_five_meters_under() -> None:
    """Deal X damage: "Five Meters Under is a Silver tactic card that deals 2 separate instances of damage when
    played. You can deal 3 damage to 1 threat and 2 damage to another, or 5 total damage to the same threat.\""""
    card = core("Five Meters Under")
    assert (card.faction, card.type) == ("silver", "tactic")
    damage = [effect for effect in card.effects if effect.kind == "damage"]
    assert sorted(effect.amount for effect in damage) == [2, 3]
    assert all(effect.instances == 1 and effect.scaling is None for effect in damage)


def test_gadwick_goldenhand() -> None:
    """Gain X credits: "Gadwick Goldenhand is a Junker ally card with an effect that lets you gain 2 credits from the
    supply when exhausted.\""""
    card = core("Gadwick Goldenhand")
    assert (card.faction, card.type) == ("junker", "ally")
    assert any(any(e.kind == "credits" and e.amount == 2 for e in icon) for icon in card.exhaust)


def test_viren_solidarity() -> None:
    """Gain X action points: "Viren Solidarity is a Viren tactic card with an effect that lets you gain 2 action
    points and 1 credit when played.\""""
    card = core("Viren Solidarity")
    assert (card.faction, card.type) == ("viren", "tactic")
    assert {(effect.kind, effect.amount) for effect in card.effects} >= {("action_points", 2), ("credits", 1)}


def test_medical_nanites() -> None:
    """Gain X health: "Medical Nanites is a Council tactic card with an effect that lets you gain 2 health when
    played.\""""
    card = core("Medical Nanites")
    assert (card.faction, card.type) == ("council", "tactic")
    assert ("health", 2) in {(effect.kind, effect.amount) for effect in card.effects}


def test_aid_from_the_resistance() -> None:
    """Gain X armor: "Aid From the Resistance is a Viren tactic card with an effect that lets you gain 6 armor when
    played.\""""
    card = core("Aid From the Resistance")
    assert (card.faction, card.type) == ("viren", "tactic")
    assert ("armor", 6) in {(effect.kind, effect.amount) for effect in card.effects}


def test_exceed_your_limits() -> None:
    """Train 1 level: "Exceed Your Limits is a Silver tactic card with an effect that lets you train 1 level when
    played.\""""
    card = core("Exceed Your Limits")
    assert (card.faction, card.type) == ("silver", "tactic")
    assert ("train", 1) in {(effect.kind, effect.amount) for effect in card.effects}


def test_regional_target() -> None:
    """Eliminate 1 card: "Regional Target is a Council tactic card with an effect that lets you eliminate 1 card when
    played.\""""
    card = core("Regional Target")
    assert (card.faction, card.type) == ("council", "tactic")
    assert ("eliminate", 1) in {(effect.kind, effect.amount) for effect in card.effects}


def test_guard_squadron() -> None:
    """Level X+: "Guard Squadron is a Silver ally card with an effect that lets you gain 2 health when exhausted if
    you are Level 2 or higher.\""""
    card = core("Guard Squadron")
    assert (card.faction, card.type) == ("silver", "ally")
    assert any(any((e.kind, e.amount, e.level) == ("health", 2, 2) for e in icon) for icon in card.exhaust)


def test_scrap_hunter() -> None:
    """Taunt: "Scrap Hunter, however, is a Junker ally with a damage effect that tells you to ignore the Taunt
    keyword.\""""
    card = core("Scrap Hunter")
    assert (card.faction, card.type) == ("junker", "ally")
    assert any(effect.kind == "damage" and effect.ignore_taunt for effect in all_effects(card))


# ============================================================================================== the Harbinger
def test_harbinger_needs_twelve_boss_damage_from_its_minions_and_boss_cards() -> None:
    """Boss Damage: "The Harbinger can be dealt 1 boss damage when an Order Acolyte or Order Archivist enters your
    hand upon defeat." Public facts: "The Harbinger: deal 12 damage per player (12 solo, 24 co-op)." Boss Damage:
    "The ways you can deal boss damage are specified on their boss mat and/or boss cards.\""""
    assert (HARBINGER.win.kind, HARBINGER.win.amount) == ("boss_damage", 12)
    assert {(entry.kind, entry.threat, entry.amount) for entry in HARBINGER.boss_damage_sources} == {
        ("defeat", "Order Acolyte", 1),
        ("defeat", "Order Archivist", 1),
    }
    in_threat_deck = Counter(
        {CARDS.threats[index].name: count for index, count in enumerate(CARDS.threat_deck(HARBINGER)) if count}
    )
    assert (in_threat_deck["Order Acolyte"], in_threat_deck["Order Archivist"]) == (5, 5)
    from_minions = sum(in_threat_deck[entry.threat] * entry.amount for entry in HARBINGER.boss_damage_sources)
    assert from_minions == 10 < HARBINGER.win.amount  # the minions alone fall short, once each
    # Boss cards join the threat deck at each level-up, from the top; levels 1 to 6 take 5 level-ups.
    assert HARBINGER.level_up[0].kind == "boss_cards"
    joined = HARBINGER.level_up[0].amount * 5
    boss_cards = [CARDS.threats[index] for index in CARDS.boss_deck(HARBINGER)][:joined]
    from_boss_cards = sum(effect.amount for card in boss_cards for effect in card.bonus if effect.kind == "boss_damage")
    assert from_minions + from_boss_cards >= HARBINGER.win.amount


def test_boss_damage_comes_from_boss_mats_and_boss_cards_only() -> None:
    """Boss Damage: "The ways you can deal boss damage are specified on their boss mat and/or boss cards." No core,
    no upgrade and no threat outside the boss group deals boss damage."""
    effects = [effect for card in CARDS.cores for effect in all_effects(card)]
    effects += [effect for upgrade in CARDS.upgrades for effect in (*upgrade.on_play, *upgrade.on_exhaust)]
    effects += [effect for card in CARDS.threats if card.group != "boss" for effect in card.bonus]
    assert [effect for effect in effects if effect.kind == "boss_damage"] == []


def test_harbinger_danger_track() -> None:
    """Normal Difficulty: "The Harbinger has 2 green-bordered spaces that you skip on Normal difficulty." Boss Setup:
    "place it on the first "0" space of the danger track". Maximum Danger: "All bosses have this icon on the danger
    track." Public facts: the guide calls Normal "slower" and Expert "fastest"."""
    track = HARBINGER.danger_track
    assert sum(space.border == "green" for space in track) == 2
    assert track[0].value == 0 and sum(space.value == 0 for space in track) > 1
    values = [space.value for space in track]
    assert values == sorted(values)  # danger only rises
    normal, hard, expert = (turns_before_maximum_danger(HARBINGER, level) for level in ("normal", "hard", "expert"))
    assert normal > hard > expert > 0


def test_harbinger_threat_deck_outlasts_the_longest_game() -> None:
    """Draft Phase: "Take the top card of the threat deck, without viewing the threat side, and put your chosen core
    card into the same sleeve." One draft a turn: the threat deck at setup holds a threat for every turn before
    Maximum Danger on the slowest difficulty, boss cards joining it aside."""
    longest = max(turns_before_maximum_danger(HARBINGER, level) for level in SKIPPED_BORDER)
    assert sum(CARDS.threat_deck(HARBINGER)) >= longest


def test_harbinger_decks_hold_boss_cards_and_minions_only_where_they_belong() -> None:
    """Boss Setup: "Construct the boss deck according to the setup steps listed on the back side of the boss mat.",
    "Construct the threat deck ...". The boss deck holds the Harbinger's boss cards; the threat deck world threats
    and its minions, never a starting threat or another boss's card."""
    boss_deck = [CARDS.threats[index] for index in CARDS.boss_deck(HARBINGER)]
    assert boss_deck and all(card.group == "boss" and "Harbinger" in card.name for card in boss_deck)
    for index, count in enumerate(CARDS.threat_deck(HARBINGER)):
        card = CARDS.threats[index]
        if count:
            assert card.group == "threat" or card.name in ("Order Acolyte", "Order Archivist"), card.name


# ============================================================================================== upgrades and validity
def test_upgrades_modify_both_sides() -> None:
    """Upgrade Cards: "They add modifiers to the core side and the threat side." "These cards have 2 different
    cutouts". "Some upgrades require a tactic or an ally, while others can be added to a card of either type."
    Discount: "a discount to the upgrade cost that applies when it is added to a card of a specific faction.\""""
    for upgrade in CARDS.upgrades:
        assert upgrade.on_play or upgrade.on_exhaust, upgrade.name
        assert upgrade.attack or upgrade.defense or upgrade.keywords.text(), upgrade.name
    assert Counter(upgrade.cutout for upgrade in CARDS.upgrades) == {"top": 18, "bottom": 18}
    assert {upgrade.requirement for upgrade in CARDS.upgrades} == {"tactic", "ally", "any"}
    discounted = {upgrade.discount.faction for upgrade in CARDS.upgrades if upgrade.discount is not None}
    assert discounted == set(FACTIONS)


def test_every_card_validates_from_a_users_copy_too(tmp_path: Path) -> None:
    """The shipped files load through the schema from a user's directory as from the package, card for card, and
    every effect reads as words; no threat starts with 0 health."""
    for path in DATA.glob("*.yaml"):
        shutil.copy(path, tmp_path / path.name)
    assert load_unstoppable_cards(tmp_path) == CARDS
    for card in CARDS.cores:
        assert all(effect.text() for effect in all_effects(card)), card.name
    for foe in CARDS.threats:
        assert all(effect.text() for effect in foe.bonus), foe.name
        assert foe.attack + max(foe.defense, 0) > 0 or foe.defense == DANGER_DEFENSE, foe.name
