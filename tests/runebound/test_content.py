"""Runebound's shipped combat content: what the rulebook and the public facts fix is there as they say (CONTENT.md),
every shipped combat plays, and malformed data fails naming the file, the entry and the field.

Rulebook: Unbreakable Bonds (not shipped); public facts: envs/runebound/REFERENCE.md. Each
malformed-data test copies the shipped YAML to tmp_path and corrupts one thing.
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
from envs.core.testing import random_simulation
from envs.runebound.cards import ENEMY_BASE_TOKENS, MAX_HERO_TOKENS, load_runebound_cards
from envs.runebound.game import RuneboundCombatGame
from envs.runebound.symbols import Symbol

DATA = Path(__file__).resolve().parents[2] / "envs" / "runebound" / "data"
BASE_HEROES = {  # public facts 3.6: health, hand, body/mind/spirit
    "Master Thorn": (8, 4, (0, 3, 2)),
    "Elder Mok": (9, 3, (2, 1, 2)),
    "Lissa": (9, 3, (2, 2, 2)),
    "Laurel of Bloodwood": (8, 4, (2, 2, 1)),
    "Lord Hawthorne": (9, 3, (3, 1, 1)),
    "Corbin": (10, 3, (3, 2, 0)),
}
WARRIOR_SET = [  # public facts 3.5, in their order
    ("skull 1", "blank gold"),
    ("shield 1", "skull 1"),
    ("agility", "skull 1"),
    ("skull 1 gold", "surge 1"),
    ("double", "blank gold"),
    ("skull 2", "surge 1 gold"),
]
FACTS_HEALTH = {  # public facts 3.5
    "Dreadbringer": 7,
    "Undead Horde": 3,
    "Dragon Hybrid": 6,
    "Barrow Wyrm": 8,
    "Witch": 6,
    "Ettin": 7,
    "Ogre": 8,
    "Deep Elf": 5,
    "Death Knight": 6,
    "Razorwing": 5,
    "Beastman": 6,
    "Moon Cat": 6,
    "Restless Serpent": 8,
    "Rogue Orc": 6,
}


def written(face: Any) -> str:
    """A face as the data writes it, rim included."""
    return f"{face.text} gold" if face.gold else face.text


def test_eight_heroes_with_the_public_facts_numbers() -> None:
    """The expansion's heroes ("2 HERO CARDS": Tatianna and Eliam, facts 3.7) and the six base heroes with the facts'
    health, hand size and attributes; three tokens each."""
    cards = load_runebound_cards()
    heroes = {hero.name: hero for hero in cards.heroes}
    assert set(heroes) == {"Eliam", "Tatianna", *BASE_HEROES}
    for name, (health, hand, stats) in BASE_HEROES.items():
        hero = heroes[name]
        assert (hero.health, hero.hand_size, (hero.body, hero.mind, hero.spirit)) == (health, hand, stats)
    assert all(len(hero.tokens) == 3 and hero.abilities for hero in heroes.values())


def test_twin_blades_is_eliams_and_tatianna_has_her_own() -> None:
    """The combat example: "he uses his Twin Blades ability to remove 2 of his [physical] tokens to deal 3 [physical]
    that cannot be blocked" (RULES.md, "Readings": the text wins over the facts, which credit Tatianna)."""
    heroes = {hero.name: hero for hero in load_runebound_cards().heroes}
    twin = next(ability for ability in heroes["Eliam"].abilities if ability.name == "Twin Blades")
    assert (twin.cost.symbol, twin.cost.amount, twin.cost.tokens) == (Symbol.PHYSICAL, 2, True)
    assert (twin.effect.kind, twin.effect.amount, twin.effect.unblockable) == ("damage", 3, True)
    assert twin.once_per_round and twin.exert
    assert "Twin Blades" not in {ability.name for ability in heroes["Tatianna"].abilities}


def test_the_four_traits_and_the_warrior_set_of_the_base_game() -> None:
    """ENEMY TOKENS: "The enemy combat tokens that appear in the base game make up the token set for the Warrior
    trait. This expansion contains a six-token set for the Mystic trait (purple), the Savage trait (red), and the
    Trickster trait (green)." Each board has one ability ("an ability under the board's title")."""
    cards = load_runebound_cards()
    assert [trait.name for trait in cards.traits] == ["Warrior", "Mystic", "Savage", "Trickster"]
    tokens = {token.name: token for token in cards.tokens}
    warrior = [tuple(written(face) for face in tokens[name].faces) for name in cards.traits[0].tokens]
    assert warrior == WARRIOR_SET
    for trait in cards.traits:
        assert len(trait.tokens) == 6 and trait.board.ability.name
    skull = cards.traits[0].board.spaces[cards.traits[0].board.space_of(Symbol.SKULL)]
    assert skull.bonus == 1  # + SYMBOLS: "The [skull] space on the warrior combat board has "+1 [skull]""


def test_sixteen_enemies_four_per_trait_with_the_texts_three() -> None:
    """At least 16 enemies, 4 per trait, including the Sorcerer (Mystic: "The Sorcerer has the Mystic trait"), the
    Orc Brigand and the Undead Horde; health as the facts give it; Relentless and the Brigand's prevented flip as
    the text quotes them."""
    cards = load_runebound_cards()
    enemies = {enemy.name: enemy for enemy in cards.enemies}
    assert Counter(enemy.trait for enemy in cards.enemies) == dict.fromkeys(
        ("Warrior", "Mystic", "Savage", "Trickster"), 4
    )
    assert enemies["Sorcerer"].trait == "Mystic"
    assert {name: enemies[name].health for name in FACTS_HEALTH} == FACTS_HEALTH
    relentless = next(a for a in enemies["Undead Horde"].abilities if a.name == "Relentless")
    assert relentless.effect.kind == "recast_spent" and relentless.text == "Recast any spent token."
    brigand = next(a for a in enemies["Orc Brigand"].abilities if a.timing == "prevent_flip")
    assert brigand.optional and brigand.cost.symbol == Symbol.AGILITY and brigand.cost.amount == 1
    blast = next(a for a in enemies["Sorcerer"].abilities if a.name == "Blast")
    assert (blast.cost.amount, blast.effect.amount) == (2, 3)


def test_weapons_bring_tokens_and_loadouts_fit_the_action_space() -> None:
    """ "Buying a weapon gives you its combat token" (facts); a hero carries one weapon in Act I and two in Act II,
    never more tokens than the action space holds."""
    cards = load_runebound_cards()
    assert len(cards.weapons) >= 8
    for hero in range(len(cards.heroes)):
        for act in (1, 2):
            assert len(cards.hero_tokens(hero, act)) == 3 + act <= MAX_HERO_TOKENS
    assert cards.enemy_tokens(0, 1) == cards.enemy_tokens(0, 2)[: ENEMY_BASE_TOKENS + 1]


@pytest.mark.parametrize("act", ["I", "II"])
def test_every_hero_fights_every_trait(act: str) -> None:
    """Every shipped hero against every trait's enemies plays to the end under random play, the generic checks
    holding at every step."""
    cards = load_runebound_cards()
    for hero in cards.heroes:
        random_simulation(RuneboundCombatGame(hero=hero.name, act=act), num_games=12, seed=len(hero.name))


# ---------------------------------------------------------------------------------------------- malformed data
@pytest.fixture
def cards_dir(tmp_path: Path) -> Path:
    """A user's copy of the shipped data files."""
    for path in DATA.glob("*.yaml"):
        shutil.copy(path, tmp_path / path.name)
    return tmp_path


def edit(directory: Path, filename: str, change: Callable[[Any], None]) -> None:
    """Load one YAML file of the copy, change its document, write it back."""
    path = directory / filename
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(document)
    path.write_text(yaml.safe_dump(document, sort_keys=False, allow_unicode=True), encoding="utf-8")


def test_a_users_copy_loads_the_same_content(cards_dir: Path) -> None:
    """`card_directory` reads the same files."""
    assert load_runebound_cards(cards_dir) == load_runebound_cards()


def set_key(path: list[Any], value: Any) -> Callable[[Any], None]:
    """An edit that sets one key of a document."""

    def change(document: Any) -> None:
        node = document
        for step in path[:-1]:
            node = node[step]
        node[path[-1]] = value

    return change


MALFORMED = [
    (
        "tokens.yaml",
        set_key(["tokens", 0, "faces"], ["physical 1", "physical 1"]),
        "tokens[0] (Eliam 1).faces",
        "different",
    ),
    (
        "tokens.yaml",
        set_key(["tokens", 0, "faces"], ["sword 1", "blank"]),
        "tokens[0] (Eliam 1).faces",
        "starts with a symbol",
    ),
    (
        "tokens.yaml",
        set_key(["tokens", 0, "faces"], ["physical 4", "blank"]),
        "tokens[0] (Eliam 1).faces",
        "number 1..3",
    ),
    ("heroes.yaml", set_key(["heroes", 0, "tokens", 0], "Warrior 1"), "heroes[0] (Eliam).tokens[0]", "cannot spend"),
    (
        "heroes.yaml",
        set_key(["heroes", 0, "loadout", "II"], ["Dagger", "Axe of Nowhere"]),
        "heroes[0] (Eliam).loadout.II[1]",
        "unknown weapon",
    ),
    (
        "heroes.yaml",
        set_key(["heroes", 0, "abilities", 0, "effect"], {"kind": "flip_foe"}),
        "heroes[0] (Eliam).abilities[0] (Twin Blades).effect.kind",
        "picks no token",
    ),
    ("enemies.yaml", set_key(["enemies", 0, "trait"], "Wizard"), "enemies[0] (Orc Brigand).trait", "unknown trait"),
    (
        "enemies.yaml",
        set_key(["enemies", 0, "abilities", 1, "cost", "symbol"], "physical"),
        "enemies[0] (Orc Brigand).abilities[1] (Cudgel).cost.symbol",
        "surges or agility",
    ),
    (
        "enemies.yaml",
        set_key(["enemies", 0, "abilities", 1, "effect", "amount"], 0),
        "enemies[0] (Orc Brigand).abilities[1] (Cudgel).effect.amount",
        "at least 1",
    ),
    ("traits.yaml", set_key(["traits", 0, "tokens", 0], "Eliam 1"), "traits[0] (Warrior).tokens[0]", "cannot spend"),
    (
        "traits.yaml",
        set_key(["traits", 2, "board", "spaces", 0, "bonus"], 9),
        "traits[2] (Savage).board.spaces[0].bonus",
        "outside",
    ),
    (
        "traits.yaml",
        set_key(["traits", 3, "board", "spaces", 4], {"symbol": "skull", "instruction": "surge", "text": "x"}),
        "traits[3] (Trickster).board.spaces[4].symbol",
        "holds surge",
    ),
]


@pytest.mark.parametrize(
    ("filename", "change", "where", "words"), MALFORMED, ids=[f"{m[0]}-{i}" for i, m in enumerate(MALFORMED)]
)
def test_malformed_data_names_the_file_the_entry_and_the_field(
    cards_dir: Path, filename: str, change: Callable[[Any], None], where: str, words: str
) -> None:
    """A DataError names the file, the entry (with its name) and the field, and says what is wrong."""
    edit(cards_dir, filename, change)
    with pytest.raises(DataError) as error:
        load_runebound_cards(cards_dir)
    message = str(error.value)
    assert message.startswith(f"{cards_dir / filename}: {where}"), message
    assert words in message, message
