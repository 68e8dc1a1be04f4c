"""Unbroken card content: the shipped data has the rulebook's components, and malformed data fails clearly.

A malformed file must raise envs.core.data.DataError naming the file, the card and the field (CONTENT.md: "an error
names the file, the card and the field"). Each test copies the shipped YAML to tmp_path and corrupts one thing.
"""

from __future__ import annotations

import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from envs.core.data import DataError
from envs.unbroken.cards import RESOURCE_INDEX, load_cards

from .conftest import KIRA, new_game

FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
FAST_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
DATA = Path(__file__).resolve().parents[2] / "envs" / "unbroken" / "data"


@pytest.fixture
def cards_dir(tmp_path: Path) -> Path:
    """A user's copy of the shipped card files."""
    for path in DATA.glob("*.yaml"):
        shutil.copy(path, tmp_path / path.name)
    return tmp_path


def edit(directory: Path, filename: str, change: Callable[[Any], None]) -> None:
    """Load one YAML file of the copy, change its document, write it back."""
    path = directory / filename
    document = yaml.load(path.read_text(encoding="utf-8"), Loader=FAST_LOADER)
    change(document)
    path.write_text(yaml.dump(document, Dumper=FAST_DUMPER, sort_keys=False, allow_unicode=True), encoding="utf-8")


def load_error(directory: Path) -> DataError:
    """The DataError raised by loading the corrupted copy."""
    with pytest.raises(DataError) as error:
        load_cards(directory)
    return error.value


def first_monster(document: Any) -> dict:
    """The first monster sheet of a monsters.yaml document (the Kobold in the shipped data)."""
    monster = document["monsters"][0]
    assert monster["name"] == "Kobold"
    return monster


# =============================================================================================== shipped content
def test_component_counts() -> None:
    """unbroken.en.txt, Components: "4 character sheets, 7 weapon sheets, 24 monster sheets, 24 skill cards, 10
    condition cards, 88 encounter cards"."""
    cards = load_cards()
    assert len(cards.characters) == 4
    assert len(cards.weapons) == 7
    assert len(cards.monsters) == 24
    assert len(cards.skills) == 24
    assert len(cards.conditions) == 10
    assert sum(e.copies for e in cards.encounters) == 88
    for group in (cards.characters, cards.weapons, cards.monsters, cards.skills, cards.conditions, cards.encounters):
        assert len({card.name for card in group}) == len(group)


def test_monsters_six_per_level_numbered_by_die_face() -> None:
    """unbroken.en.txt, Card types: monster sheets "are split into four categories by level". unbroken.es.txt: "Elija
    el monstruo marcado con el número que ha obtenido de las hojas de monstruos del nivel en el que se encuentra."
    """
    cards = load_cards()
    assert Counter(m.level for m in cards.monsters) == {1: 6, 2: 6, 3: 6, 4: 6}
    for level in (1, 2, 3, 4):
        assert sorted(m.number for m in cards.monsters if m.level == level) == [1, 2, 3, 4, 5, 6]
        for number in range(1, 7):
            monster = cards.monsters[cards.monster_index(level, number)]
            assert (monster.level, monster.number) == (level, number)
    assert all(len(m.combat) == 6 for m in cards.monsters)


def test_level_four_monsters_cannot_be_tricked() -> None:
    """unbroken.en.txt, Monster stats: "Some monsters (including all of the level IV monsters) cannot be bypassed with
    trickery"."""
    cards = load_cards()
    assert all(m.trickery is None for m in cards.monsters if m.level == 4)
    assert any(m.trickery is not None for m in cards.monsters if m.level < 4)


def test_some_monsters_have_no_ambush_effect() -> None:
    """unbroken.es.txt, Paso de emboscada: "No todos los monstruos tienen efectos de Emboscada. En raras ocasiones, un
    "-" indica que no hay ningún efecto"."""
    cards = load_cards()
    without = [m.name for m in cards.monsters if m.ambush is None]
    assert 0 < len(without) < len(cards.monsters)


def test_bare_hands_starts_and_weapons_are_basic_or_advanced() -> None:
    """unbroken.en.txt, Setting up 4: "Find the Bare Hands weapon sheet". Appendix A: "Some weapons are listed as
    "basic weapons" and others as "advanced weapons"" ... "Most weapons lists two potential options to upgrade it"."""
    cards = load_cards()
    assert cards.weapons[0].name == "Bare Hands"
    assert {w.kind for w in cards.weapons} == {"basic", "advanced"}
    assert all(len(w.upgrades) <= 2 for w in cards.weapons)
    assert len(cards.weapons[0].upgrades) >= 1
    # every weapon can be reached from Bare Hands
    reached, frontier = {0}, [0]
    while frontier:
        for upgrade in cards.weapons[frontier.pop()].upgrades:
            if upgrade.to not in reached:
                reached.add(upgrade.to)
                frontier.append(upgrade.to)
    assert reached == set(range(len(cards.weapons)))


def test_display_values_are_the_rulebook_values() -> None:
    """unbroken.en.txt, Setting up 1-2 (7 time on skull I, 13 small effort), Calculating your score (the point table
    and titles), Appendix D (Easy d6 bonus resources, Hard 10 small effort, monsters first)."""
    display = load_cards().display
    assert display.time_skull[1] == 7
    assert display.difficulty["normal"]["starting_small_effort"] == 13
    assert display.difficulty["easy"]["starting_small_effort"] == 13
    assert display.difficulty["hard"]["starting_small_effort"] == 10
    assert display.difficulty["hard"]["monster_first"] and not display.difficulty["normal"]["monster_first"]
    assert display.difficulty["easy"]["bonus_resource"] and display.difficulty["easy"]["bonus_skill"]
    assert display.exploration_reveal == 2 and display.skill_reveal == 2
    points = {"medium_effort": 3, "large_effort": 5, "cunning": 2, "metal": 3, "wood": 2, "food": 3, "treasure": 10}
    for name, index in RESOURCE_INDEX.items():
        assert display.score_points[index] == points.get(name, 0), name
    assert display.titles == (
        ("Prey", 0),
        ("Castoff", 1),
        ("Survivor", 11),
        ("Avenger", 21),
        ("Revenant", 31),
        ("Nemesis", 41),
    )
    bonus = {1: "metal", 2: "wood", 3: "food", 4: "cunning", 5: "medium_effort", 6: "treasure"}
    assert display.easy_bonus_resource == {face: RESOURCE_INDEX[name] for face, name in bonus.items()}
    assert all(display.time_skull[lv] <= display.bar_maximum[RESOURCE_INDEX["time"]] for lv in (1, 2, 3, 4))


def test_rulebook_example_character_exists() -> None:
    """unbroken.es.txt, Paso del hambre, Ejemplo: "la Cazadora de Kira" (Kira the Huntress is a character)."""
    game = new_game(character=KIRA)
    assert game.cards.characters[game.character].name == KIRA
    assert all(1 <= len(c.abilities) <= 2 for c in game.cards.characters)


def test_a_users_copy_of_the_files_loads_the_same_cards(cards_dir: Path) -> None:
    """CONTENT.md: "A user who owns the game can type the printed cards into the same schema." A copy of the shipped
    files, even rewritten by a YAML dumper, loads to the same card set."""
    assert load_cards(cards_dir) == load_cards()
    edit(cards_dir, "monsters.yaml", lambda doc: None)
    assert load_cards(cards_dir) == load_cards()
    game = new_game(cards=load_cards(cards_dir))
    assert game.new_initial_state().current_player() == -1


# =============================================================================================== malformed content
def test_unknown_key_in_a_monster(cards_dir: Path) -> None:
    """CONTENT.md: "Every file is validated on load; an error names the file, the card and the field."
    (An unknown key in a monster sheet.)"""
    edit(cards_dir, "monsters.yaml", lambda doc: first_monster(doc).update(poison_bite=2))
    error = load_error(cards_dir)
    message = str(error)
    assert "monsters.yaml" in message
    assert "poison_bite" in message
    assert "Kobold" in message


def test_wrong_type_of_health(cards_dir: Path) -> None:
    """CONTENT.md: monsters have `health: 3` (an integer); the error names file, card and field."""
    edit(cards_dir, "monsters.yaml", lambda doc: first_monster(doc).update(health="three"))
    message = str(load_error(cards_dir))
    assert "monsters.yaml" in message and "Kobold" in message and "health" in message and "'three'" in message


def test_condition_that_does_not_exist(cards_dir: Path) -> None:
    """CONTENT.md: `condition: {name: X, when: ...}` names one of the 10 condition cards."""

    def change(doc: Any) -> None:
        first_monster(doc)["combat"][3] = {"effects": [{"condition": {"name": "Sleepy", "when": "now", "rounds": 1}}]}

    edit(cards_dir, "monsters.yaml", change)
    message = str(load_error(cards_dir))
    assert "monsters.yaml" in message and "Kobold" in message
    assert "combat[3]" in message and "condition.name" in message and "Sleepy" in message


def test_encounter_total_must_be_88(cards_dir: Path) -> None:
    """unbroken.en.txt, Components: "88 encounter cards"."""

    def change(doc: Any) -> None:
        doc["encounters"][0]["copies"] = doc["encounters"][0].get("copies", 1) + 1

    edit(cards_dir, "encounters.yaml", change)
    error = load_error(cards_dir)
    assert "encounters.yaml" in str(error) and "88" in str(error) and "89" in str(error)


def test_invalid_yaml_syntax(cards_dir: Path) -> None:
    """CONTENT.md: every file is validated on load (here: not YAML at all)."""
    path = cards_dir / "skills.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "\n  - {name: Broken, passive: [\n", encoding="utf-8")
    error = load_error(cards_dir)
    assert "skills.yaml" in str(error) and "YAML" in str(error)
    assert error.file.endswith("skills.yaml")


def test_missing_required_field(cards_dir: Path) -> None:
    """CONTENT.md: a monster sheet has a health value; leaving it out names the file, the card and the field."""
    edit(cards_dir, "monsters.yaml", lambda doc: first_monster(doc).pop("health"))
    message = str(load_error(cards_dir))
    assert "monsters.yaml" in message
    assert "health" in message and "missing" in message
    assert "Kobold" in message


def test_level_four_monster_with_trickery_is_rejected(cards_dir: Path) -> None:
    """unbroken.en.txt, Monster stats: "(including all of the level IV monsters) cannot be bypassed with trickery"."""

    def change(doc: Any) -> None:
        troll = next(m for m in doc["monsters"] if m["name"] == "Troll")
        troll["trickery"] = {"cunning": 5}

    edit(cards_dir, "monsters.yaml", change)
    message = str(load_error(cards_dir))
    assert "monsters.yaml" in message and "Troll" in message and "trickery" in message


def test_upgrade_to_unknown_weapon(cards_dir: Path) -> None:
    """unbroken.en.txt, Appendix A: an upgrade lays another weapon sheet on top; it must name one of the 7 weapons."""
    edit(cards_dir, "weapons.yaml", lambda doc: doc["weapons"][1]["upgrades"][0].update(to="Laser"))
    message = str(load_error(cards_dir))
    assert "weapons.yaml" in message and "Club" in message and "upgrades[0].to" in message and "Laser" in message


def test_unknown_resource_in_an_encounter(cards_dir: Path) -> None:
    """unbroken.en.txt, Resource types: effort, cunning, food, wood/metal, treasure, time (no other resource)."""
    edit(cards_dir, "encounters.yaml", lambda doc: doc["encounters"][0].update(gain={"gold": 1}))
    message = str(load_error(cards_dir))
    name = yaml.safe_load((DATA / "encounters.yaml").read_text(encoding="utf-8"))["encounters"][0]["name"]
    assert "encounters.yaml" in message and name in message and "gain.gold" in message


def test_wrong_number_of_skill_cards(cards_dir: Path) -> None:
    """unbroken.en.txt, Components: "24 skill cards"."""
    edit(cards_dir, "skills.yaml", lambda doc: doc["skills"].pop())
    message = str(load_error(cards_dir))
    assert "skills.yaml" in message and "24" in message and "23" in message


def test_missing_file(cards_dir: Path) -> None:
    """A user's card directory without one of the files fails naming the file."""
    (cards_dir / "conditions.yaml").unlink()
    error = load_error(cards_dir)
    assert "conditions.yaml" in str(error)


# =============================================================================================== malformed content,
# caught by the declarative schema (pydantic models in envs/unbroken/cards.py)
def test_weapon_attack_with_both_wounds_and_break_armor(cards_dir: Path) -> None:
    """CONTENT.md, weapons.yaml: "An attack has exactly one of `wounds: n` / `break_armor: n`"."""
    edit(cards_dir, "weapons.yaml", lambda doc: doc["weapons"][1]["attacks"][0].update(wounds=1, break_armor=1))
    message = str(load_error(cards_dir))
    assert "weapons.yaml" in message and "weapons[1] (Club).attacks[0]:" in message
    assert "exactly one of wounds / break_armor" in message


def test_first_weapon_must_be_bare_hands(cards_dir: Path) -> None:
    """unbroken.en.txt, Setting up 4: "Find the Bare Hands weapon sheet"; CONTENT.md: "exactly 7 weapons, `Bare Hands`
    first"."""
    edit(cards_dir, "weapons.yaml", lambda doc: doc["weapons"].reverse())
    message = str(load_error(cards_dir))
    last = yaml.safe_load((DATA / "weapons.yaml").read_text(encoding="utf-8"))["weapons"][-1]["name"]
    assert "weapons.yaml" in message and f"weapons[0] ({last}).name" in message and "Bare Hands" in message


def test_skill_with_both_passive_and_action(cards_dir: Path) -> None:
    """CONTENT.md, skills.yaml: "Each skill has exactly one of `passive`, `action`, `reaction`"."""

    def change(doc: Any) -> None:
        skill = doc["skills"][0]
        assert "passive" in skill
        skill["action"] = {"timing": "combat", "effects": [{"wounds": 1}]}

    edit(cards_dir, "skills.yaml", change)
    message = str(load_error(cards_dir))
    name = yaml.safe_load((DATA / "skills.yaml").read_text(encoding="utf-8"))["skills"][0]["name"]
    assert "skills.yaml" in message and f"skills[0] ({name}):" in message
    assert "exactly one of passive / action / reaction" in message


def test_negative_copies_of_an_encounter(cards_dir: Path) -> None:
    """CONTENT.md, encounters.yaml: "88 cards in total (sum of `copies`)" (a card type has at least one copy)."""
    edit(cards_dir, "encounters.yaml", lambda doc: doc["encounters"][0].update(copies=-1))
    message = str(load_error(cards_dir))
    name = yaml.safe_load((DATA / "encounters.yaml").read_text(encoding="utf-8"))["encounters"][0]["name"]
    assert "encounters.yaml" in message and f"encounters[0] ({name}).copies" in message and "-1" in message


def test_encounter_that_spends_time(cards_dir: Path) -> None:
    """CONTENT.md, encounters.yaml: "Encounters may gain `time` (a respite), never spend it"."""
    edit(cards_dir, "encounters.yaml", lambda doc: doc["encounters"][0].update(spend={"time": 1}))
    message = str(load_error(cards_dir))
    name = yaml.safe_load((DATA / "encounters.yaml").read_text(encoding="utf-8"))["encounters"][0]["name"]
    assert "encounters.yaml" in message and f"encounters[0] ({name}).spend.time" in message


def test_duplicate_monster_name(cards_dir: Path) -> None:
    """unbroken.en.txt, Components: "24 monster sheets" (24 different monsters, each picked by its name or number)."""

    def change(doc: Any) -> None:
        first_monster(doc)
        doc["monsters"][1]["name"] = "Kobold"

    edit(cards_dir, "monsters.yaml", change)
    message = str(load_error(cards_dir))
    assert (
        "monsters.yaml" in message and "monsters[1] (Kobold).name" in message and "duplicate name 'Kobold'" in message
    )


def test_two_monsters_on_the_same_die_face(cards_dir: Path) -> None:
    """unbroken.es.txt: "Elija el monstruo marcado con el número que ha obtenido de las hojas de monstruos del nivel
    en el que se encuentra" (one monster per number and level; CONTENT.md: "6 per level, numbered 1..6")."""

    def change(doc: Any) -> None:
        kobold, second = first_monster(doc), doc["monsters"][1]
        assert second["level"] == kobold["level"] and second["number"] != kobold["number"]
        second["number"] = kobold["number"]

    edit(cards_dir, "monsters.yaml", change)
    message = str(load_error(cards_dir))
    name = yaml.safe_load((DATA / "monsters.yaml").read_text(encoding="utf-8"))["monsters"][1]["name"]
    assert "monsters.yaml" in message and f"monsters[1] ({name}).number" in message


def test_monster_effect_with_two_keys(cards_dir: Path) -> None:
    """CONTENT.md: "MONSTER EFFECTS (each list item has exactly one key)"."""
    edit(
        cards_dir,
        "monsters.yaml",
        lambda doc: first_monster(doc)["combat"][0].update(effects=[{"miss": True, "heal": 1}]),
    )
    message = str(load_error(cards_dir))
    assert "monsters.yaml" in message and "monsters[0] (Kobold).combat[0].effects[0]:" in message
    assert "exactly one key" in message


def test_downgrade_for_zero_rounds(cards_dir: Path) -> None:
    """CONTENT.md: "`downgrade_weapon: permanent` or `downgrade_weapon: {rounds: n}`" (set aside for n rounds)."""
    change = {"effects": [{"downgrade_weapon": {"rounds": 0}}]}
    edit(cards_dir, "monsters.yaml", lambda doc: first_monster(doc)["combat"].__setitem__(5, change))
    message = str(load_error(cards_dir))
    assert "monsters.yaml" in message and "Kobold" in message
    assert "combat[5].effects[0].downgrade_weapon.rounds" in message and "0 is outside [1, 10]" in message


def test_extra_turn_false_is_rejected(cards_dir: Path) -> None:
    """CONTENT.md, ACTION EFFECTS: "`extra_turn: true` | take another player turn" (false is not a way to write it)."""

    def change(doc: Any) -> None:
        doc["characters"][0]["abilities"][0]["effects"] = [{"extra_turn": False}]

    edit(cards_dir, "characters.yaml", change)
    message = str(load_error(cards_dir))
    assert "characters.yaml" in message and f"characters[0] ({KIRA}).abilities[0]" in message
    assert "effects[0].extra_turn" in message and "False" in message


def test_time_skull_for_a_fifth_level(cards_dir: Path) -> None:
    """unbroken.en.txt, Card types: monster sheets "are split into four categories by level" (skulls for levels 1-4;
    CONTENT.md: "time skulls per level")."""
    edit(cards_dir, "display.yaml", lambda doc: doc["time_skull"].update({5: 3}))
    message = str(load_error(cards_dir))
    assert "display.yaml" in message and "time_skull.5" in message and "1, 2, 3, 4" in message
