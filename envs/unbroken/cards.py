"""Unbroken card content: typed, validated records loaded from data/*.yaml (schema in CONTENT.md)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from envs.core.data import Checker, DataError, load_yaml

PACKAGE = "envs.unbroken"

RESOURCES = (
    "small_effort",
    "medium_effort",
    "large_effort",
    "cunning",
    "food",
    "wood",
    "metal",
    "treasure",
    "time",
)
SMALL_EFFORT, MEDIUM_EFFORT, LARGE_EFFORT, CUNNING, FOOD, WOOD, METAL, TREASURE, TIME = range(9)
EFFORTS = (SMALL_EFFORT, MEDIUM_EFFORT, LARGE_EFFORT)
RESOURCE_INDEX = {name: index for index, name in enumerate(RESOURCES)}
LEVELS = (1, 2, 3, 4)
MONSTERS_PER_LEVEL = 6

Bag = tuple[tuple[int, int], ...]
"""A resource bag: ((resource index, amount), ...), sorted by resource index."""
Effect = tuple[str, Any]
"""One effect: (kind, argument), e.g. ("gain", bag) or ("wounds", 2)."""

MONSTER_EFFECTS = (
    "miss",
    "lose",
    "lose_time",
    "condition",
    "regain_armor",
    "heal",
    "defend",
    "downgrade_weapon",
)
ACTION_EFFECTS = (
    "gain",
    "wounds",
    "wounds_ignore_armor",
    "break_armor",
    "extra_turn",
    "remove_condition",
    "reveal_monster",
    "reveal_bonus",
    "monster_health",
    "monster_armor",
)
PASSIVES = (
    "reveal_bonus",
    "skill_reveal_bonus",
    "rest_bonus",
    "food_requirement",
    "ignore",
    "wound_bonus",
    "scout_discount",
)
CONDITION_MODIFIERS = (
    "rest_penalty",
    "reveal_modifier",
    "food_requirement",
    "weapon_extra_cost",
    "wound_penalty",
    "skip_turn",
    "no_weapon",
    "round_loss",
    "monster_roll_modifier",
    "start_time_penalty",
    "ability_uses_penalty",
    "general_action_extra_cost",
)
MONSTER_MODIFIERS = ("wound_cap", "roll_modifier", "regen")
TIMINGS = ("travel", "combat", "any")


@dataclass(frozen=True)
class Attack:
    """One way a weapon turns effort into wounds or broken armor."""

    cost: Bag
    wounds: int
    break_armor: int
    ignore_armor: bool


@dataclass(frozen=True)
class Upgrade:
    """A craft option: pay `cost` and `time` to lay weapon `to` on top of this one."""

    to: int
    cost: Bag
    time: int


@dataclass(frozen=True)
class Weapon:
    """A weapon sheet."""

    name: str
    kind: str
    attacks: tuple[Attack, ...]
    upgrades: tuple[Upgrade, ...]


@dataclass(frozen=True)
class ActionCard:
    """An activatable ability (character, skill or monster special): timing, cost, effects."""

    name: str
    timing: str
    cost: Bag
    effects: tuple[Effect, ...]
    once_per_level: bool


@dataclass(frozen=True)
class Character:
    """A character sheet with its ability bar abilities."""

    name: str
    abilities: tuple[ActionCard, ...]


@dataclass(frozen=True)
class CombatRow:
    """One row of a monster's combat action table; `alt` is the bracketed alternative."""

    effects: tuple[Effect, ...]
    alt: tuple[Effect, ...] | None


@dataclass(frozen=True)
class Monster:
    """A monster sheet."""

    name: str
    level: int
    number: int
    health: int
    armor: int
    trickery: Bag | None
    ambush: tuple[Effect, ...] | None
    attack_extra_cost: Bag
    special_name: str | None
    special_text: str
    modifiers: dict[str, int]
    special_action: ActionCard | None
    combat: tuple[CombatRow, ...]
    rewards: Bag


@dataclass(frozen=True)
class Encounter:
    """An encounter card type (with its number of copies in the deck)."""

    name: str
    spend: Bag
    gain: Bag
    time: int
    commit: bool
    copies: int


@dataclass(frozen=True)
class Skill:
    """A skill card: exactly one of passive, action or reaction."""

    name: str
    passive: dict[str, Any]
    action: ActionCard | None
    reaction_cost: Bag | None
    reaction_roll_modifier: int


@dataclass(frozen=True)
class Condition:
    """A condition card with its modifiers."""

    name: str
    modifiers: dict[str, Any]


@dataclass(frozen=True)
class GeneralActions:
    """The general actions sheet."""

    focus: ActionCard
    inspiration: ActionCard
    plan: ActionCard
    scout_cost_by_level: dict[int, Bag]
    orienteer_cost: Bag
    orienteer_reveal_bonus: int


@dataclass(frozen=True)
class Display:
    """The display sheets: bars, time skulls, score table, titles, difficulty settings."""

    bar_maximum: tuple[int, ...]
    time_skull: dict[int, int]
    score_points: tuple[int, ...]
    titles: tuple[tuple[str, int], ...]
    difficulty: dict[str, dict[str, Any]]
    easy_bonus_resource: dict[int, int]
    general: GeneralActions
    exploration_reveal: int
    skill_reveal: int


@dataclass(frozen=True)
class CardSet:
    """Every component of the game, as loaded and cross-checked."""

    display: Display
    characters: tuple[Character, ...]
    weapons: tuple[Weapon, ...]
    monsters: tuple[Monster, ...]
    encounters: tuple[Encounter, ...]
    skills: tuple[Skill, ...]
    conditions: tuple[Condition, ...]

    def monster_index(self, level: int, number: int) -> int:
        """Index of the monster of `level` with d6 number `number`."""
        return self._monster_lookup[(level, number)]

    @property
    def _monster_lookup(self) -> dict[tuple[int, int], int]:
        lookup = self.__dict__.get("_lookup")
        if lookup is None:
            lookup = {(m.level, m.number): i for i, m in enumerate(self.monsters)}
            object.__setattr__(self, "_lookup", lookup)
        return lookup


def _bag(check: Checker, value: Any, where: str) -> Bag:
    bag = check.bag(value, where, RESOURCES)
    return tuple(sorted((RESOURCE_INDEX[name], amount) for name, amount in bag.items()))


def _action_effects(check: Checker, value: Any, where: str) -> tuple[Effect, ...]:
    effects: list[Effect] = []
    for i, item in enumerate(check.sequence(value, where)):
        spot = f"{where}[{i}]"
        item = check.mapping(item, spot, ACTION_EFFECTS)
        if len(item) != 1:
            raise check.fail(spot, "each effect has exactly one key")
        ((kind, argument),) = item.items()
        if kind == "gain":
            effects.append((kind, _bag(check, argument, f"{spot}.gain")))
        elif kind in ("extra_turn", "remove_condition", "reveal_monster"):
            check.boolean(argument, f"{spot}.{kind}")
            effects.append((kind, True))
        elif kind in ("monster_health", "monster_armor"):
            effects.append((kind, check.integer(argument, f"{spot}.{kind}", -5, 5)))
        else:
            effects.append((kind, check.integer(argument, f"{spot}.{kind}", 1, 10)))
    return tuple(effects)


def _action_card(check: Checker, value: Any, where: str, name: str) -> ActionCard:
    card = check.mapping(value, where, ("name", "timing", "cost", "effects", "once_per_level"), ("effects",))
    return ActionCard(
        name=check.string(card.get("name", name), f"{where}.name"),
        timing=check.string(card.get("timing", "combat"), f"{where}.timing", TIMINGS),
        cost=_bag(check, card.get("cost"), f"{where}.cost"),
        effects=_action_effects(check, card["effects"], f"{where}.effects"),
        once_per_level=check.boolean(card.get("once_per_level", False), f"{where}.once_per_level"),
    )


def _monster_effects(check: Checker, value: Any, where: str, conditions: dict[str, int]) -> tuple[Effect, ...]:
    effects: list[Effect] = []
    for i, item in enumerate(check.sequence(value, where)):
        spot = f"{where}[{i}]"
        item = check.mapping(item, spot, MONSTER_EFFECTS)
        if len(item) != 1:
            raise check.fail(spot, "each effect has exactly one key")
        ((kind, argument),) = item.items()
        if kind in ("miss", "defend"):
            check.boolean(argument, f"{spot}.{kind}")
            effects.append((kind, True))
        elif kind == "lose":
            bag = _bag(check, argument, f"{spot}.lose")
            if any(resource == TIME for resource, _ in bag):
                raise check.fail(f"{spot}.lose.time", "use lose_time for time")
            effects.append((kind, bag))
        elif kind == "condition":
            cond = check.mapping(argument, f"{spot}.condition", ("name", "when", "rounds"), ("name", "when"))
            name = check.string(cond["name"], f"{spot}.condition.name")
            if name not in conditions:
                raise check.fail(f"{spot}.condition.name", f"unknown condition {name!r}")
            when = check.string(cond["when"], f"{spot}.condition.when", ("next_level", "now"))
            rounds = cond.get("rounds")
            if rounds is not None:
                if when != "now":
                    raise check.fail(f"{spot}.condition.rounds", "rounds only apply to when: now")
                rounds = check.integer(rounds, f"{spot}.condition.rounds", 1, 10)
            effects.append((kind, (conditions[name], when, -1 if rounds is None else rounds)))
        elif kind == "downgrade_weapon":
            if argument == "permanent":
                effects.append((kind, 0))
            else:
                spec = check.mapping(argument, f"{spot}.downgrade_weapon", ("rounds",), ("rounds",))
                effects.append((kind, check.integer(spec["rounds"], f"{spot}.downgrade_weapon.rounds", 1, 10)))
        else:
            effects.append((kind, check.integer(argument, f"{spot}.{kind}", 1, 10)))
    return tuple(effects)


def _entry_where(key: str, index: int, entry: Any) -> str:
    """'monsters[3] (Kobold)' when the entry has a name, so that every error names the card."""
    name = entry.get("name") if isinstance(entry, dict) else None
    return f"{key}[{index}] ({name})" if isinstance(name, str) and name else f"{key}[{index}]"


def _entries(check: Checker, document: Any, key: str, count: int | None) -> list:
    top = check.mapping(document, "file", (key,), (key,))
    return check.sequence(top[key], key, count)


def _names_unique(check: Checker, names: list[str], key: str) -> dict[str, int]:
    seen: dict[str, int] = {}
    for i, name in enumerate(names):
        if name in seen:
            raise check.fail(f"{key}[{i}].name", f"duplicate name {name!r}")
        seen[name] = i
    return seen


def load_display(directory: Path | None = None) -> Display:
    """Load and check display.yaml."""
    check = Checker(_shown(directory, "display.yaml"))
    doc = check.mapping(
        load_yaml(PACKAGE, "display.yaml", directory),
        "file",
        (
            "bar_maximum", "time_skull", "starting_small_effort", "score_points", "titles",
            "difficulty", "easy_bonus_resource", "general_actions", "exploration_reveal", "skill_reveal",
        ),
    )  # fmt: skip
    bars = check.mapping(doc["bar_maximum"], "bar_maximum", RESOURCES, RESOURCES)
    bar_maximum = tuple(check.integer(bars[r], f"bar_maximum.{r}", 1, 99) for r in RESOURCES)
    skulls = check.mapping(doc["time_skull"], "time_skull", LEVELS, LEVELS)
    time_skull = {lv: check.integer(skulls[lv], f"time_skull.{lv}", 1, bar_maximum[TIME]) for lv in LEVELS}
    points = check.mapping(doc["score_points"], "score_points", RESOURCES)
    score_points = tuple(check.integer(points.get(r, 0), f"score_points.{r}", 0, 99) for r in RESOURCES)
    titles = []
    for i, title in enumerate(check.sequence(doc["titles"], "titles", 6)):
        title = check.mapping(title, f"titles[{i}]", ("name", "min_score"), ("name", "min_score"))
        titles.append(
            (
                check.string(title["name"], f"titles[{i}].name"),
                check.integer(title["min_score"], f"titles[{i}].min_score", 0),
            )
        )
    difficulty = {}
    levels = check.mapping(doc["difficulty"], "difficulty", ("easy", "normal", "hard"), ("easy", "normal", "hard"))
    for name, setting in levels.items():
        where = f"difficulty.{name}"
        keys = ("starting_small_effort", "monster_first", "bonus_resource", "bonus_skill")
        setting = check.mapping(setting, where, keys, keys)
        difficulty[name] = {
            "starting_small_effort": check.integer(
                setting["starting_small_effort"], f"{where}.starting_small_effort", 0, bar_maximum[0]
            ),
            "monster_first": check.boolean(setting["monster_first"], f"{where}.monster_first"),
            "bonus_resource": check.boolean(setting["bonus_resource"], f"{where}.bonus_resource"),
            "bonus_skill": check.boolean(setting["bonus_skill"], f"{where}.bonus_skill"),
        }
    faces = check.mapping(doc["easy_bonus_resource"], "easy_bonus_resource", range(1, 7), range(1, 7))
    easy_bonus = {
        face: RESOURCE_INDEX[check.string(faces[face], f"easy_bonus_resource.{face}", RESOURCES)]
        for face in range(1, 7)
    }
    general = check.mapping(
        doc["general_actions"], "general_actions", ("focus", "inspiration", "plan", "scout", "orienteer")
    )
    simple = {}
    for name in ("focus", "inspiration", "plan"):
        where = f"general_actions.{name}"
        spec = check.mapping(general[name], where, ("timing", "cost", "gain"), ("cost", "gain"))
        simple[name] = ActionCard(
            name=name,
            timing=check.string(spec.get("timing", "any"), f"{where}.timing", TIMINGS),
            cost=_bag(check, spec["cost"], f"{where}.cost"),
            effects=(("gain", _bag(check, spec["gain"], f"{where}.gain")),),
            once_per_level=False,
        )
    scout = check.mapping(general["scout"], "general_actions.scout", ("timing", "cost_by_level"), ("cost_by_level",))
    by_level = check.mapping(scout["cost_by_level"], "general_actions.scout.cost_by_level", LEVELS, LEVELS)
    orienteer = check.mapping(
        general["orienteer"],
        "general_actions.orienteer",
        ("timing", "cost", "reveal_bonus"),
        ("cost", "reveal_bonus"),
    )
    return Display(
        bar_maximum=bar_maximum,
        time_skull=time_skull,
        score_points=score_points,
        titles=tuple(titles),
        difficulty=difficulty,
        easy_bonus_resource=easy_bonus,
        general=GeneralActions(
            focus=simple["focus"],
            inspiration=simple["inspiration"],
            plan=simple["plan"],
            scout_cost_by_level={
                lv: _bag(check, by_level[lv], f"general_actions.scout.cost_by_level.{lv}") for lv in LEVELS
            },
            orienteer_cost=_bag(check, orienteer["cost"], "general_actions.orienteer.cost"),
            orienteer_reveal_bonus=check.integer(
                orienteer["reveal_bonus"], "general_actions.orienteer.reveal_bonus", 1, 5
            ),
        ),
        exploration_reveal=check.integer(doc["exploration_reveal"], "exploration_reveal", 1, 4),
        skill_reveal=check.integer(doc["skill_reveal"], "skill_reveal", 1, 4),
    )


def _shown(directory: Path | None, filename: str) -> str:
    return str(Path(directory) / filename) if directory is not None else f"envs/unbroken/data/{filename}"


_SHIPPED_CARDS: list[CardSet] = []


def load_cards(directory: str | Path | None = None) -> CardSet:
    """Load every Unbroken component from the package data (or a user's directory of the same files).

    The shipped cards are parsed once per process (a CardSet is immutable); a user's directory is read every call.
    """
    if directory is None:
        if not _SHIPPED_CARDS:
            _SHIPPED_CARDS.append(_load_cards(None))
        return _SHIPPED_CARDS[0]
    return _load_cards(Path(directory))


def _load_cards(directory: Path | None) -> CardSet:
    display = load_display(directory)

    check = Checker(_shown(directory, "conditions.yaml"))
    raw = _entries(check, load_yaml(PACKAGE, "conditions.yaml", directory), "conditions", 10)
    conditions = []
    for i, entry in enumerate(raw):
        entry = check.mapping(
            entry, _entry_where("conditions", i, entry), ("name", "text", "modifiers"), ("name", "modifiers")
        )
        name = check.string(entry["name"], f"conditions[{i}].name")
        where = f"conditions[{i}] ({name}).modifiers"
        mods = check.mapping(entry["modifiers"], where, CONDITION_MODIFIERS)
        parsed: dict[str, Any] = {}
        for key, value in mods.items():
            if key in ("weapon_extra_cost", "round_loss", "general_action_extra_cost"):
                parsed[key] = _bag(check, value, f"{where}.{key}")
            elif key in ("skip_turn", "no_weapon"):
                parsed[key] = check.boolean(value, f"{where}.{key}")
            else:
                parsed[key] = check.integer(value, f"{where}.{key}", -5, 5)
        conditions.append(Condition(name=name, modifiers=parsed))
    condition_index = _names_unique(check, [c.name for c in conditions], "conditions")

    check = Checker(_shown(directory, "weapons.yaml"))
    raw = _entries(check, load_yaml(PACKAGE, "weapons.yaml", directory), "weapons", 7)
    names = [
        check.string(
            check.mapping(w, _entry_where("weapons", i, w), ("name",) + ("kind", "attacks", "upgrades", "text")).get(
                "name"
            ),
            f"weapons[{i}].name",
        )
        for i, w in enumerate(raw)
    ]  # noqa: E501
    weapon_index = _names_unique(check, names, "weapons")
    if names[0] != "Bare Hands":
        raise check.fail("weapons[0].name", "the first weapon must be Bare Hands")
    weapons = []
    for i, entry in enumerate(raw):
        where = f"weapons[{i}] ({names[i]})"
        entry = check.mapping(
            entry, where, ("name", "kind", "attacks", "upgrades", "text"), ("name", "kind", "attacks")
        )
        attacks = []
        for j, attack in enumerate(check.sequence(entry["attacks"], f"{where}.attacks")):
            spot = f"{where}.attacks[{j}]"
            attack = check.mapping(attack, spot, ("cost", "wounds", "break_armor", "ignore_armor"), ("cost",))
            if ("wounds" in attack) == ("break_armor" in attack):
                raise check.fail(spot, "exactly one of wounds / break_armor")
            attacks.append(
                Attack(
                    cost=_bag(check, attack["cost"], f"{spot}.cost"),
                    wounds=check.integer(attack.get("wounds", 0), f"{spot}.wounds", 0, 10),
                    break_armor=check.integer(attack.get("break_armor", 0), f"{spot}.break_armor", 0, 10),
                    ignore_armor=check.boolean(attack.get("ignore_armor", False), f"{spot}.ignore_armor"),
                )
            )
        if not 1 <= len(attacks) <= 3:
            raise check.fail(f"{where}.attacks", "a weapon has 1 to 3 attacks")
        upgrades = []
        for j, upgrade in enumerate(check.sequence(entry.get("upgrades") or [], f"{where}.upgrades")):
            spot = f"{where}.upgrades[{j}]"
            upgrade = check.mapping(upgrade, spot, ("to", "cost", "time"), ("to", "cost"))
            target = check.string(upgrade["to"], f"{spot}.to")
            if target not in weapon_index or target == "Bare Hands":
                raise check.fail(f"{spot}.to", f"unknown weapon {target!r}")
            upgrades.append(
                Upgrade(
                    to=weapon_index[target],
                    cost=_bag(check, upgrade["cost"], f"{spot}.cost"),
                    time=check.integer(upgrade.get("time", 0), f"{spot}.time", 0, 5),
                )
            )
        if len(upgrades) > 2:
            raise check.fail(f"{where}.upgrades", "a weapon lists at most 2 upgrades")
        weapons.append(
            Weapon(
                name=names[i],
                kind=check.string(entry["kind"], f"{where}.kind", ("basic", "advanced")),
                attacks=tuple(attacks),
                upgrades=tuple(upgrades),
            )
        )

    check = Checker(_shown(directory, "characters.yaml"))
    raw = _entries(check, load_yaml(PACKAGE, "characters.yaml", directory), "characters", 4)
    characters = []
    for i, entry in enumerate(raw):
        entry = check.mapping(
            entry, _entry_where("characters", i, entry), ("name", "abilities", "text"), ("name", "abilities")
        )
        name = check.string(entry["name"], f"characters[{i}].name")
        where = f"characters[{i}] ({name}).abilities"
        abilities = tuple(
            _action_card(check, ability, f"{where}[{j}]", f"ability {j}")
            for j, ability in enumerate(check.sequence(entry["abilities"], where))
        )
        if not 1 <= len(abilities) <= 2:
            raise check.fail(where, "a character has 1 or 2 abilities")
        characters.append(Character(name=name, abilities=abilities))
    _names_unique(check, [c.name for c in characters], "characters")

    check = Checker(_shown(directory, "monsters.yaml"))
    raw = _entries(check, load_yaml(PACKAGE, "monsters.yaml", directory), "monsters", 24)
    monsters = []
    fields = (
        "name", "level", "number", "health", "armor", "trickery", "ambush", "attack_extra_cost",
        "special", "combat", "rewards", "text",
    )  # fmt: skip
    required = ("name", "level", "number", "health", "armor", "combat", "rewards")
    for i, entry in enumerate(raw):
        entry = check.mapping(entry, _entry_where("monsters", i, entry), fields, required)
        name = check.string(entry["name"], f"monsters[{i}].name")
        where = f"monsters[{i}] ({name})"
        level = check.integer(entry["level"], f"{where}.level", 1, 4)
        trickery = entry.get("trickery")
        if level == 4 and trickery is not None:
            raise check.fail(f"{where}.trickery", "level IV monsters cannot be tricked (must be null)")
        rows = []
        for j, row in enumerate(check.sequence(entry["combat"], f"{where}.combat", 6)):
            spot = f"{where}.combat[{j}]"
            row = check.mapping(row, spot, ("effects", "alt"), ("effects",))
            alt = row.get("alt")
            rows.append(
                CombatRow(
                    effects=_monster_effects(check, row["effects"], f"{spot}.effects", condition_index),
                    alt=None if alt is None else _monster_effects(check, alt, f"{spot}.alt", condition_index),
                )
            )
        special = entry.get("special")
        special_name, special_text, modifiers, special_action = None, "", {}, None
        if special is not None:
            spot = f"{where}.special"
            special = check.mapping(special, spot, ("name", "text", "modifiers", "action"), ("name",))
            special_name = check.string(special["name"], f"{spot}.name")
            special_text = str(special.get("text", ""))
            mods = check.mapping(special.get("modifiers") or {}, f"{spot}.modifiers", MONSTER_MODIFIERS)
            modifiers = {k: check.integer(v, f"{spot}.modifiers.{k}", -5, 10) for k, v in mods.items()}
            if special.get("action") is not None:
                special_action = _action_card(check, special["action"], f"{spot}.action", special_name)
        ambush = entry.get("ambush")
        monsters.append(
            Monster(
                name=name,
                level=level,
                number=check.integer(entry["number"], f"{where}.number", 1, 6),
                health=check.integer(entry["health"], f"{where}.health", 1, 30),
                armor=check.integer(entry["armor"], f"{where}.armor", 0, 10),
                trickery=None if trickery is None else _bag(check, trickery, f"{where}.trickery"),
                ambush=None if ambush is None else _monster_effects(check, ambush, f"{where}.ambush", condition_index),
                attack_extra_cost=_bag(check, entry.get("attack_extra_cost"), f"{where}.attack_extra_cost"),
                special_name=special_name,
                special_text=special_text,
                modifiers=modifiers,
                special_action=special_action,
                combat=tuple(rows),
                rewards=_bag(check, entry["rewards"], f"{where}.rewards"),
            )
        )
    _names_unique(check, [m.name for m in monsters], "monsters")
    slots = sorted((m.level, m.number) for m in monsters)
    expected = [(lv, n) for lv in LEVELS for n in range(1, MONSTERS_PER_LEVEL + 1)]
    if slots != expected:
        raise check.fail("monsters", "need exactly one monster numbered 1..6 for each level I..IV")

    check = Checker(_shown(directory, "encounters.yaml"))
    raw = _entries(check, load_yaml(PACKAGE, "encounters.yaml", directory), "encounters", None)
    encounters = []
    for i, entry in enumerate(raw):
        encounter_fields = ("name", "spend", "gain", "time", "commit", "copies", "group", "text")
        entry = check.mapping(entry, _entry_where("encounters", i, entry), encounter_fields, ("name", "time"))
        name = check.string(entry["name"], f"encounters[{i}].name")
        where = f"encounters[{i}] ({name})"
        spend = _bag(check, entry.get("spend"), f"{where}.spend")
        if any(resource == TIME for resource, _ in spend):
            raise check.fail(f"{where}.spend.time", "an encounter's time is its time value, not a spend")
        encounters.append(
            Encounter(
                name=name,
                spend=spend,
                gain=_bag(check, entry.get("gain"), f"{where}.gain"),
                time=check.integer(entry["time"], f"{where}.time", 0, 9),
                commit=check.boolean(entry.get("commit", False), f"{where}.commit"),
                copies=check.integer(entry.get("copies", 1), f"{where}.copies", 1, 10),
            )
        )
    _names_unique(check, [e.name for e in encounters], "encounters")
    total = sum(e.copies for e in encounters)
    if total != 88:
        raise check.fail("encounters", f"the encounter deck has 88 cards, these entries make {total}")

    check = Checker(_shown(directory, "skills.yaml"))
    raw = _entries(check, load_yaml(PACKAGE, "skills.yaml", directory), "skills", 24)
    skills = []
    for i, entry in enumerate(raw):
        entry = check.mapping(
            entry, _entry_where("skills", i, entry), ("name", "text", "passive", "action", "reaction"), ("name",)
        )
        name = check.string(entry["name"], f"skills[{i}].name")
        where = f"skills[{i}] ({name})"
        kinds = [k for k in ("passive", "action", "reaction") if k in entry]
        if len(kinds) != 1:
            raise check.fail(where, "a skill has exactly one of passive / action / reaction")
        passive: dict[str, Any] = {}
        action = None
        reaction_cost = None
        roll_modifier = 0
        if "passive" in entry:
            spec = check.mapping(entry["passive"], f"{where}.passive", PASSIVES)
            for key, value in spec.items():
                spot = f"{where}.passive.{key}"
                if key == "ignore":
                    passive[key] = tuple(
                        check.string(v, f"{spot}[{j}]", MONSTER_EFFECTS)
                        for j, v in enumerate(check.sequence(value, spot))
                    )
                elif key == "wound_bonus":
                    bonus = check.mapping(value, spot, ("kind", "amount"), ("kind", "amount"))
                    passive[key] = (
                        check.string(bonus["kind"], f"{spot}.kind", ("basic", "advanced", "any")),
                        check.integer(bonus["amount"], f"{spot}.amount", 1, 5),
                    )
                elif key == "scout_discount":
                    passive[key] = check.boolean(value, spot)
                else:
                    passive[key] = check.integer(value, spot, -5, 5)
        elif "action" in entry:
            action = _action_card(check, entry["action"], f"{where}.action", name)
        else:
            spec = check.mapping(entry["reaction"], f"{where}.reaction", ("cost", "roll_modifier"), ("roll_modifier",))
            reaction_cost = _bag(check, spec.get("cost"), f"{where}.reaction.cost")
            roll_modifier = check.integer(spec["roll_modifier"], f"{where}.reaction.roll_modifier", -3, 3)
            if roll_modifier == 0:
                raise check.fail(f"{where}.reaction.roll_modifier", "must not be 0")
        skills.append(
            Skill(
                name=name,
                passive=passive,
                action=action,
                reaction_cost=reaction_cost,
                reaction_roll_modifier=roll_modifier,
            )
        )
    _names_unique(check, [s.name for s in skills], "skills")

    return CardSet(
        display=display,
        characters=tuple(characters),
        weapons=tuple(weapons),
        monsters=tuple(monsters),
        encounters=tuple(encounters),
        skills=tuple(skills),
        conditions=tuple(conditions),
    )


__all__ = ["CardSet", "DataError", "load_cards"]
