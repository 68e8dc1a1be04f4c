"""The content schema (envs/unstoppable/cards.py) on the hand-made cards of tests/unstoppable/cards/.

Each record reads the rulebook's card anatomy; a file that breaks the schema is refused with a DataError naming the
file, the card and the field.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from envs.unstoppable.cards import DANGER_DEFENSE, DataError, Effect, load_unstoppable_cards

CARDS = Path(__file__).resolve().parent / "cards"
"""The hand-made cards the rules tests play with."""


def edited_cards(tmp_path: Path, filename: str, edit: Callable[[Any], object]) -> Path:
    """A copy of the test cards with one file's document changed by `edit(document)`."""
    directory = Path(tempfile.mkdtemp(dir=tmp_path))
    shutil.copytree(CARDS, directory, dirs_exist_ok=True)
    path = directory / filename
    document = yaml.safe_load(path.read_text())
    edit(document)
    path.write_text(yaml.safe_dump(document))
    return directory


def refused(tmp_path: Path, filename: str, edit: Callable[[Any], object]) -> str:
    """The DataError message for the test cards with `edit` applied to `filename`."""
    with pytest.raises(DataError) as error:
        load_unstoppable_cards(edited_cards(tmp_path, filename, edit))
    return str(error.value)


def core(document: dict[str, Any], name: str) -> dict[str, Any]:
    """The core of that name in a cores.yaml document."""
    return next(card for card in document["cores"] if card["name"] == name)


def test_the_test_cards_load() -> None:
    """Every file of the hand-made set loads, and names resolve across files."""
    cards = load_unstoppable_cards(CARDS)
    worley = cards.cores[cards.core_index("Admiral Worley")]
    assert (worley.faction, worley.type, worley.level, worley.cost) == ("council", "ally", 2, 3)
    assert len(worley.exhaust) == 2
    boss = cards.boss("Test Harbinger")
    assert sum(cards.threat_deck(boss)) == 16  # 10 world threats (copies included) and 6 minions
    assert len(cards.character_deck(cards.character("Tester"))) == 10


def test_effects_read_the_rulebook_icons_and_keywords() -> None:
    """ "Viren Strategy is a Viren tactic card with a Focus effect to deal X damage"; "Admiral Worley ... a Unite
    effect to deal X instances of 2 damage"; "Hired Guns ... a 'Bargain 3' effect"; "Royal Armorer ... a Conspire
    effect to gain 2 health"; Conspire, Focus and Unite effects are mandatory, others optional."""
    cards = load_unstoppable_cards(CARDS)
    effect = {
        name: cards.cores[cards.core_index(name)].effects[0]
        for name in ("Viren Strategy", "Admiral Worley", "Hired Guns", "Royal Armorer", "Strike")
    }
    assert (effect["Viren Strategy"].kind, effect["Viren Strategy"].focus) == ("damage", "amount")
    assert (effect["Admiral Worley"].amount, effect["Admiral Worley"].unite) == (2, "instances")
    assert (effect["Hired Guns"].keyword, effect["Hired Guns"].bargain) == ("bargain", 3)
    assert (effect["Royal Armorer"].kind, effect["Royal Armorer"].keyword) == ("health", "conspire")
    mandatory = {name: e.mandatory for name, e in effect.items()}
    assert mandatory == {
        "Viren Strategy": True,
        "Admiral Worley": True,
        "Hired Guns": False,
        "Royal Armorer": True,
        "Strike": False,
    }


def test_threat_keywords_stack_in_instances_and_skull_defense_reads_the_danger_level() -> None:
    """ "Multiple instances of the same keyword can stack on a single threat"; "Commhacker is a Human threat from
    Ceres II with skull defense"."""
    cards = load_unstoppable_cards(CARDS)
    stag = cards.threats[cards.threat_index("Virenian Stag")]
    serum = cards.upgrades[cards.upgrade_index("Frenzy Serum")]
    assert stag.keywords.plus(serum.keywords).crazed == (5, 4)
    assert cards.threats[cards.threat_index("Commhacker")].defense == DANGER_DEFENSE


@pytest.mark.parametrize(
    ("effect", "message"),
    [
        ({"damage": 1, "credits": 1}, "exactly one icon key"),
        ({"instances": 2}, "exactly one icon key"),
        ({"credits": 1, "instances": 2}, "only a damage effect has instances"),
        ({"health": 2, "focus": "instances"}, "instances scales damage only"),
        ({"damage": 1, "focus": "amount", "conspire": True}, "at most one faction keyword"),
        ({"damage": 0}, "0 is outside [1, 10]"),
        ({"damage": 1, "level": 7}, "7 is outside [0, 6]"),
        ({"heal": 1}, "exactly one icon key"),
    ],
)
def test_a_malformed_effect_is_refused_naming_the_card_and_field(
    tmp_path: Path, effect: dict[str, Any], message: str
) -> None:
    """One icon per effect, one keyword at most, damage-only options on damage only, amounts in range."""
    text = refused(tmp_path, "cores.yaml", lambda doc: core(doc, "Strike").update(effects=[effect]))
    assert "cores.yaml: cores[0] (Strike).effects[0]" in text
    assert message in text


def test_card_types_and_exhaust_icons_agree(tmp_path: Path) -> None:
    """ "You may only exhaust allies": a tactic has no exhaust icon, an ally has one at least."""
    text = refused(tmp_path, "cores.yaml", lambda doc: core(doc, "Strike").update(exhaust=[[{"damage": 1}]]))
    assert "(Strike).exhaust" in text and "a tactic has no exhaust icon" in text
    text = refused(tmp_path, "cores.yaml", lambda doc: core(doc, "Royal Armorer").pop("exhaust"))
    assert "(Royal Armorer).exhaust" in text and "an ally has at least one exhaust icon" in text


def test_unknown_or_wrong_group_names_across_files_are_refused(tmp_path: Path) -> None:
    """A character's cards are level-0 cores sleeved with starting threats; a boss's decks name known threats."""
    text = refused(
        tmp_path, "characters.yaml", lambda doc: doc["characters"][0]["cards"][0].update(core="Viren Strategy")
    )
    assert "characters.yaml: characters[0] (Tester).cards[0].core" in text and "level-1 core" in text
    text = refused(tmp_path, "bosses.yaml", lambda doc: doc["bosses"][0]["boss_deck"][0].update(threat="Herald"))
    assert "bosses.yaml: bosses[0] (Test Harbinger).boss_deck[0].threat: unknown threat 'Herald'" in text
    text = refused(tmp_path, "bosses.yaml", lambda doc: doc["bosses"][0]["threat_deck"][3].update(threat="Sporeling"))
    assert "threat_deck[3].threat" in text and "starting threat" in text
    text = refused(
        tmp_path, "bosses.yaml", lambda doc: doc["bosses"][0]["boss_damage_sources"][0].update(threat="Acolyte")
    )
    assert "bosses[0] (Test Harbinger).boss_damage_sources[0].threat: unknown threat 'Acolyte'" in text


def test_a_boss_mat_record_takes_exactly_its_kinds_parameters(tmp_path: Path) -> None:
    """The boss-mat vocabulary (win, level-up effects, boss-damage sources, threat-deck parts) is read by kind: an
    unknown kind, a missing parameter or one the kind does not take is refused naming the field."""
    text = refused(tmp_path, "bosses.yaml", lambda doc: doc["bosses"][0]["win"].update(kind="chapters"))
    assert "bosses[0] (Test Harbinger).win.kind" in text
    text = refused(tmp_path, "bosses.yaml", lambda doc: doc["bosses"][0]["win"].update(kind="members"))
    assert "bosses[0] (Test Harbinger).win.members: missing required field" in text
    text = refused(tmp_path, "bosses.yaml", lambda doc: doc["bosses"][0]["win"].pop("amount"))
    assert "bosses[0] (Test Harbinger).win.amount" in text and "missing" in text
    text = refused(tmp_path, "bosses.yaml", lambda doc: doc["bosses"][0]["level_up"][0].update(threat="Wyrm"))
    assert "bosses[0] (Test Harbinger).level_up[0].threat" in text and "unknown field" in text
    text = refused(tmp_path, "bosses.yaml", lambda doc: doc["bosses"][0]["boss_damage_sources"][0].pop("threat"))
    assert "bosses[0] (Test Harbinger).boss_damage_sources[0].threat" in text
    text = refused(tmp_path, "bosses.yaml", lambda doc: doc["bosses"][0]["threat_deck"][0].update(copies=2))
    assert "bosses[0] (Test Harbinger).threat_deck[0].copies" in text and "kind 'world' takes no copies" in text
    text = refused(tmp_path, "bosses.yaml", lambda doc: doc["bosses"][0].update(threat_deck=[]))
    assert "bosses[0] (Test Harbinger).threat_deck" in text


def test_the_danger_track_starts_at_zero_and_ends_on_maximum_danger(tmp_path: Path) -> None:
    """ "place it on the first '0' space"; the last space is Maximum Danger, which no difficulty skips."""
    text = refused(tmp_path, "bosses.yaml", lambda doc: doc["bosses"][0]["danger_track"][0].update(value=1))
    assert "danger_track[0]" in text
    text = refused(tmp_path, "bosses.yaml", lambda doc: doc["bosses"][0]["danger_track"][-1].update(border="red"))
    assert "danger_track[13]" in text and "Maximum Danger" in text


def test_an_effect_built_in_code_reads_as_written() -> None:
    """The runtime record is a plain dataclass: its derived icon and amount, and its words."""
    effect = Effect(damage=2, instances=3, ignore_taunt=True, level=2)
    assert (effect.kind, effect.amount) == ("damage", 2)
    assert effect.text() == "Level 2+: 3 instances: deal 2 damage (ignoring Taunt)"
    assert Effect(credits=1, bargain=2).text() == "Bargain 2: gain 1 credits"
