"""Runebound's board game content: the shipped files (data/board_heroes.yaml, assets.yaml, twists.yaml, skills.yaml,
adventures.yaml, story.yaml, warbands.yaml, locust_swarm.yaml) load with the expansion's counts where its text gives
them and refer only to heroes, weapons, enemies and sites that exist; malformed files fail naming the file, the entry
and the field.

Rulebook: Unbreakable Bonds (not shipped), COMPONENTS and SOLO RULES; public facts: envs/runebound/REFERENCE.md
(3.3 actions and assets, 3.6 heroes, 3.7 The Locust Swarm); provenance: envs/runebound/CONTENT.md, "The board game".
Each malformed-file test copies the whole data directory to tmp_path and breaks one file.
"""

from __future__ import annotations

import re
import shutil
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import yaml

from envs.core.data import DataError
from envs.runebound.board_cards import (
    ATTRIBUTES,
    BOARD_EFFECT_KINDS,
    HERO_ABILITY_KINDS,
    TROPHY_KINDS,
    BoardCards,
    load_board_cards,
)

DATA = Path(__file__).resolve().parents[2] / "envs" / "runebound" / "data"
CONTENT = DATA.parent / "CONTENT.md"
QUEST_SITES = {"town", "stronghold", "shrine"}
"""The sites a quest sends the hero to (CONTENT.md, "The board game"): the civilized hexes but the cities."""
OTHER_HERO = re.compile(r"\banother hero\b", re.IGNORECASE)
"""How a card's text refers to another hero (SOLO RULES: such a card is discarded and replaced)."""


@pytest.fixture(scope="module")
def shipped() -> BoardCards:
    """The shipped board content, loaded once for the module."""
    return load_board_cards()


# ---------------------------------------------------------------------------------------------- shipped content
def test_the_expansions_counts(shipped: BoardCards) -> None:
    """COMPONENTS: "60 ADVENTURE CARDS", "20 ASSET CARDS", "30 SKILL CARDS", "10 TWIST CARDS"; The Locust Swarm:
    "take all 5 warbands out of the story deck" (public facts 3.7)."""
    counts = (len(shipped.assets), len(shipped.twists), len(shipped.skills), len(shipped.adventures))
    assert counts == (20, 10, 30, 60)
    assert len(shipped.warbands) == 5
    assert len(shipped.scenario.warband_spaces) == len(shipped.warbands)


def test_content_md_counts_what_ships(shipped: BoardCards) -> None:
    """CONTENT.md's table of the board game's files ("What the shipped content holds") says what the files hold."""
    section = CONTENT.read_text(encoding="utf-8").split("## The board game", 1)[1].split("\n## ", 1)[0]
    table = {name: int(count) for name, count in re.findall(r"^\| `(\w+)\.yaml` \| (\d+) \|$", section, re.M)}
    assert table == {
        "board_heroes": len(shipped.heroes),
        "assets": len(shipped.assets),
        "twists": len(shipped.twists),
        "skills": len(shipped.skills),
        "adventures": len(shipped.adventures),
        "story": len(shipped.story),
        "warbands": len(shipped.warbands),
    }


def test_four_heroes_with_the_facts_speed_and_gold_each_starting_in_a_city(shipped: BoardCards) -> None:
    """Eliam and Tatianna ("2 HERO CARDS"; facts 3.7) and two base heroes, Master Thorn and Corbin; "Speed is 3 for
    everyone", their starting gold 2 (facts 3.6); Tatianna's "Setup: gain 1 trophy" (facts 3.7)."""
    heroes = {hero.name: hero for hero in shipped.heroes}
    assert set(heroes) == {"Eliam", "Tatianna", "Master Thorn", "Corbin"}
    assert set(heroes) <= set(shipped.combat.heroes.names)
    assert all(hero.speed == 3 for hero in heroes.values())
    assert (heroes["Master Thorn"].gold, heroes["Corbin"].gold) == (2, 2)
    setup = heroes["Tatianna"].ability
    assert (setup.kind, setup.amount, setup.text) == ("setup_trophy", 1, "Setup: gain 1 trophy.")
    cities = {site.name for site in shipped.map.sites if site.kind == "city"}
    assert {hero.start for hero in heroes.values()} == cities
    assert len({hero.ability.kind for hero in heroes.values()}) == len(heroes)


def test_every_weapon_is_an_asset_and_each_type_is_sold(shipped: BoardCards) -> None:
    """ "Buying a weapon gives you its combat token" (facts 3.3): each weapon of weapons.yaml is one asset; the four
    asset types ("Only 1 asset of each type may be held") are all on sale."""
    weapons = Counter(asset.weapon for asset in shipped.assets if asset.type == "weapon")
    assert weapons == Counter(shipped.combat.weapons.names)
    assert Counter(asset.type for asset in shipped.assets) == {"weapon": 8, "armor": 4, "trinket": 4, "mount": 4}


def test_three_decks_of_twenty_fights_tests_and_quests(shipped: BoardCards) -> None:
    """An adventure is drawn "from the matching-colour deck" (facts 3.3): three decks of 20; the combat deck fights
    enemies of enemies.yaml, the others test attributes or send the hero to a site of the map, and every card's
    reward gives a trophy of its deck."""
    enemies = set(shipped.combat.enemies.names)
    sites = {site.name: site.kind for site in shipped.map.sites}
    for deck in TROPHY_KINDS:
        cards = [shipped.adventures[index] for index in shipped.deck(deck)]
        assert len(cards) == 20, deck
        for card in cards:
            assert any(e.kind == "gain_trophy" and e.trophy == deck for e in card.reward), card.name
            if card.kind == "test":
                assert card.difficulty is not None and 4 <= card.difficulty <= 9 and card.failure, card.name
    fights = [card for card in shipped.adventures if card.kind == "fight"]
    assert {card.deck for card in fights} == {"combat"} and len(fights) == 20
    assert {card.enemy for card in fights} == enemies
    quests = [card for card in shipped.adventures if card.kind == "quest"]
    assert {card.deck for card in quests} == {"exploration", "social"}
    assert all(sites[card.target] in QUEST_SITES for card in quests if card.target is not None)


def test_cards_that_refer_to_another_hero_are_marked_for_the_solo_discard(shipped: BoardCards) -> None:
    """SOLO RULES: "when you draw an adventure, skill, or asset card that refers to another hero, discard it and draw
    a replacement": a card is marked `other_hero` exactly when its text refers to another hero, and each deck keeps
    most of its cards for a solo hero."""
    for kind, cards in (
        ("assets", shipped.assets),
        ("twists", shipped.twists),
        ("skills", shipped.skills),
        ("adventures", shipped.adventures),
    ):
        for card in cards:
            assert card.other_hero == bool(OTHER_HERO.search(card.text)), f"{kind}: {card.name}"
    assert sum(asset.other_hero for asset in shipped.assets) == 2
    assert not any(asset.other_hero for asset in shipped.assets if asset.type == "weapon")
    assert sum(twist.other_hero for twist in shipped.twists) == 1
    assert sum(skill.other_hero for skill in shipped.skills) == 2
    assert Counter(card.deck for card in shipped.adventures if card.other_hero) == dict.fromkeys(TROPHY_KINDS, 2)


def test_skills_ten_per_attribute_few_raise_speed(shipped: BoardCards) -> None:
    """Skills are learned by paying trophies and exerted to boost a test (facts 3.3): ten per attribute, a cost of
    1-3 trophies of one or two kinds, and speed (more terrain dice) a rare thing to learn."""
    assert Counter(skill.attribute for skill in shipped.skills) == dict.fromkeys(ATTRIBUTES, 10)
    assert all(1 <= len(skill.cost) <= 2 and sum(skill.cost.values()) <= 3 for skill in shipped.skills)
    assert sum(skill.learned == "speed" for skill in shipped.skills) <= 3


def test_warbands_grow_into_stronger_enemies_and_spawn_in_the_track(shipped: BoardCards) -> None:
    """Each warband's enemy at 1 to 4 units (a warband grows: facts 3.7) is no weaker than at fewer units; the
    scenario's spawns and story spaces lie on its track, the first at setup ("Put 1 face up on story space I and
    spawn it at Outlaw Glade")."""
    health = {enemy.name: enemy.health for enemy in shipped.combat.enemies}
    for warband in shipped.warbands:
        strengths = [health[name] for name in warband.enemies]
        assert strengths == sorted(strengths), warband.name
    assert len({warband.enemies for warband in shipped.warbands}) == len(shipped.warbands)
    scenario = shipped.scenario
    assert scenario.name == "The Locust Swarm" and scenario.warband_spaces[0] == 0
    assert max(scenario.story_spaces) <= scenario.act_length
    assert max(scenario.warband_spaces) <= 2 * scenario.act_length


def test_every_effect_and_ability_kind_is_on_some_card(shipped: BoardCards) -> None:
    """Each board effect kind and each hero ability kind the rules implement is used by the shipped content, so every
    one of those rules is reached in play."""
    effects = [
        *(effect for twist in shipped.twists for effect in twist.effects),
        *(effect for card in shipped.story for effect in card.effects),
        *(effect for card in shipped.adventures for effect in (*card.reward, *card.failure)),
    ]
    assert {effect.kind for effect in effects} == set(BOARD_EFFECT_KINDS)
    assert {hero.ability.kind for hero in shipped.heroes} == set(HERO_ABILITY_KINDS)


def test_a_users_copy_loads_the_same_content(tmp_path: Path, shipped: BoardCards) -> None:
    """`card_directory` reads the same files (the map, which has no equality of its own, by its sites)."""
    copy = load_board_cards(copy_of_the_data(tmp_path))
    assert replace(copy, map=shipped.map) == shipped
    assert copy.map.sites == shipped.map.sites


# ---------------------------------------------------------------------------------------------- malformed files
def copy_of_the_data(tmp_path: Path) -> Path:
    """A user's copy of the whole shipped data directory."""
    return Path(shutil.copytree(DATA, tmp_path / "data"))


def entry(document: Any, key: str, name: str) -> dict[str, Any]:
    """The entry of a named list called `name`."""
    return next(item for item in document[key] if item["name"] == name)


def setting(key: str, name: str, path: list[Any], value: Any) -> Callable[[Any], None]:
    """An edit that sets the field at `path` of entry `name` of list `key`."""

    def change(document: Any) -> None:
        node: Any = entry(document, key, name)
        for step in path[:-1]:
            node = node[step]
        node[path[-1]] = value

    return change


def removing(key: str, name: str, field: str) -> Callable[[Any], None]:
    """An edit that removes one field of entry `name` of list `key`."""

    def change(document: Any) -> None:
        del entry(document, key, name)[field]

    return change


def dropping(key: str, name: str) -> Callable[[Any], None]:
    """An edit that removes the entry `name` of list `key`."""

    def change(document: Any) -> None:
        document[key].remove(entry(document, key, name))

    return change


def scenario(field: str, value: Any) -> Callable[[Any], None]:
    """An edit of one field of the scenario document."""

    def change(document: Any) -> None:
        document[field] = value

    return change


MALFORMED: list[tuple[str, str, Callable[[Any], None], str, str, str]] = [
    (
        "unknown key",
        "assets.yaml",
        setting("assets", "Short Sword", ["colour"], "red"),
        "assets.yaml",
        "assets[0] (Short Sword).colour",
        "colour",
    ),
    (
        "wrong type",
        "board_heroes.yaml",
        setting("board_heroes", "Eliam", ["speed"], "fast"),
        "board_heroes.yaml",
        "board_heroes[0] (Eliam).speed",
        "integer",
    ),
    (
        "unknown effect kind",
        "twists.yaml",
        setting("twists", "Merchant's Windfall", ["effects", 0, "kind"], "teleport"),
        "twists.yaml",
        "twists[0] (Merchant's Windfall).effects[0].kind",
        "gain_gold",
    ),
    (
        "effect parameter its kind does not take",
        "twists.yaml",
        setting("twists", "Street Healer", ["effects", 0, "trophy"], "combat"),
        "twists.yaml",
        "twists[2] (Street Healer).effects[0].trophy",
        "takes no trophy",
    ),
    (
        "effect without its required parameter",
        "story.yaml",
        setting("story", "Word on the Road", ["effects", 0], {"kind": "reveal_gems"}),
        "story.yaml",
        "story[3] (Word on the Road).effects[0].amount",
        "missing",
    ),
    (
        "fight without enemy",
        "adventures.yaml",
        removing("adventures", "Restless Dead", "enemy"),
        "adventures.yaml",
        "adventures[0] (Restless Dead).enemy",
        "names its enemy",
    ),
    (
        "fight naming no enemy of enemies.yaml",
        "adventures.yaml",
        setting("adventures", "Restless Dead", ["enemy"], "Kraken"),
        "adventures.yaml",
        "adventures[0] (Restless Dead).enemy",
        "no enemy 'Kraken'",
    ),
    (
        "test without its attribute",
        "adventures.yaml",
        removing("adventures", "Rope Bridge", "attribute"),
        "adventures.yaml",
        "adventures[20] (Rope Bridge).attribute",
        "attribute and difficulty",
    ),
    (
        "difficulty on a fight",
        "adventures.yaml",
        setting("adventures", "Restless Dead", ["difficulty"], 5),
        "adventures.yaml",
        "adventures[0] (Restless Dead).difficulty",
        "only a test",
    ),
    (
        "weapon asset naming no weapon",
        "assets.yaml",
        removing("assets", "Short Sword", "weapon"),
        "assets.yaml",
        "assets[0] (Short Sword).weapon",
        "names its weapon",
    ),
    (
        "weapon asset naming an unknown weapon",
        "assets.yaml",
        setting("assets", "Short Sword", ["weapon"], "Axe of Nowhere"),
        "assets.yaml",
        "assets[0] (Short Sword).weapon",
        "no weapon 'Axe of Nowhere'",
    ),
    (
        "speed on an armor",
        "assets.yaml",
        setting("assets", "Leather Jerkin", ["speed"], 1),
        "assets.yaml",
        "assets[8] (Leather Jerkin).speed",
        "only a mount",
    ),
    (
        "ability parameter its kind does not take",
        "board_heroes.yaml",
        setting("board_heroes", "Eliam", ["ability", "attribute"], "body"),
        "board_heroes.yaml",
        "board_heroes[0] (Eliam).ability.attribute",
        "only a test_bonus",
    ),
    (
        "unknown enemy in a warband",
        "warbands.yaml",
        setting("warbands", "The Blood Harvest", ["enemies", 2], "Kraken"),
        "warbands.yaml",
        "warbands[0] (The Blood Harvest).enemies[2]",
        "no enemy 'Kraken'",
    ),
    (
        "warband of three enemies",
        "warbands.yaml",
        setting("warbands", "The Blood Harvest", ["enemies"], ["Razorwing", "Beastman", "Ogre"]),
        "warbands.yaml",
        "warbands[0] (The Blood Harvest).enemies",
        "4",
    ),
    (
        "quest target not on the map",
        "adventures.yaml",
        setting("adventures", "Pilgrimage to the Moonwell", ["target"], "Atlantis"),
        "adventures.yaml",
        "adventures[35] (Pilgrimage to the Moonwell).target",
        "no site 'Atlantis'",
    ),
    (
        "hero start that is not a city",
        "board_heroes.yaml",
        setting("board_heroes", "Eliam", ["start"], "Millford"),
        "board_heroes.yaml",
        "board_heroes[0] (Eliam).start",
        "not a city",
    ),
    (
        "board hero without a combat card",
        "board_heroes.yaml",
        setting("board_heroes", "Eliam", ["name"], "Elyam"),
        "board_heroes.yaml",
        "board_heroes[0] (Elyam).name",
        "no hero 'Elyam'",
    ),
    (
        "more warband spawns than warbands",
        "warbands.yaml",
        dropping("warbands", "The Black Tithe"),
        "locust_swarm.yaml",
        "warband_spaces",
        "5 spawns, but warbands.yaml holds 4",
    ),
    (
        "story space beyond the act",
        "locust_swarm.yaml",
        scenario("story_spaces", [3, 6, 9, 13]),
        "locust_swarm.yaml",
        "story_spaces[3]",
        "beyond the Act's 12 spaces",
    ),
    (
        "unknown skill learning",
        "skills.yaml",
        setting("skills", "Brawler", ["learned"], "luck"),
        "skills.yaml",
        "skills[3] (Brawler).learned",
        "hand_size",
    ),
    (
        "skill cost in an unknown trophy",
        "skills.yaml",
        setting("skills", "Brawler", ["cost"], {"glory": 1}),
        "skills.yaml",
        "skills[3] (Brawler).cost.glory",
        "unknown field",
    ),
]
"""(what is broken, the file broken, the edit, the file the error names, where in it, words of its message)."""


@pytest.mark.parametrize(
    ("filename", "change", "refused", "where", "words"),
    [case[1:] for case in MALFORMED],
    ids=[case[0].replace(" ", "_") for case in MALFORMED],
)
def test_a_malformed_file_is_refused_naming_the_file_the_entry_and_the_field(
    tmp_path: Path,
    filename: str,
    change: Callable[[Any], None],
    refused: str,
    where: str,
    words: str,
) -> None:
    """Board content is validated on load: a DataError names the file, the entry (with its name) and the field, and
    says what is wrong (never a silent fix); a break across files (fewer warbands than spawns) names the file that
    counts on the other."""
    directory = copy_of_the_data(tmp_path)
    path = directory / filename
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(document)
    path.write_text(yaml.safe_dump(document, sort_keys=False, allow_unicode=True), encoding="utf-8")
    with pytest.raises(DataError) as error:
        load_board_cards(directory)
    assert error.value.file == str(directory / refused), error.value
    assert error.value.where == where, error.value
    assert words in str(error.value), error.value
