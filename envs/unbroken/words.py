"""Unbroken in words, for people: cards, costs and effects as text, each action as the player reads it in a
position, and what an event did. The text view (observer.py), the picture (render.py) and terminal play (through
the observer's `action_text` and `report`) all read them, so the game is told one way.

Nothing here tells what the player may not see: the monster of a level appears only once it is revealed.
"""

from __future__ import annotations

from envs.core.game import CHANCE
from envs.unbroken.actions import MAX_ABILITIES
from envs.unbroken.cards import (
    RESOURCES,
    SMALL_EFFORT,
    TIME,
    ActionCard,
    Bag,
    CardSet,
    CombatRow,
    Effect,
)
from envs.unbroken.rules import UnbrokenState
from envs.unbroken.state import BATTLE_PHASES, FINAL_LEVEL, Outcome, Phase

RESOURCE_WORDS = tuple(name.replace("_", " ") for name in RESOURCES)
"""Each resource as people write it ("small effort")."""
ROMAN = ("", "I", "II", "III", "IV")
"""Level numbers as the rulebook writes them (index = level)."""
TIMING_WORDS = {"travel": "travel action", "combat": "combat action", "any": "action"}
"""How a card's timing reads (Appendix B: an action without a timing may be used in either phase)."""


# ------------------------------------------------------------------------------------------------ cards
def bag_text(bag: Bag, none: str = "nothing") -> str:
    """'2 small effort + 1 cunning', or `none` for an empty bag."""
    return " + ".join(f"{amount} {RESOURCE_WORDS[r]}" for r, amount in bag) or none


def plural(count: int, word: str) -> str:
    """'1 wound', '2 wounds'."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def action_effect_text(effect: Effect) -> str:
    """One effect of an ability, a skill's action or a monster's special action."""
    kind, argument = effect
    words = {
        "gain": lambda: f"gain {bag_text(argument)}",
        "wounds": lambda: plural(argument, "wound"),
        "wounds_ignore_armor": lambda: f"{plural(argument, 'wound')} ignoring armor",
        "break_armor": lambda: f"break {argument} armor",
        "extra_turn": lambda: "take another turn",
        "remove_condition": lambda: "discard a condition",
        "reveal_monster": lambda: "reveal this level's monster",
        "reveal_bonus": lambda: f"the next exploration reveals {plural(argument, 'more card')}",
        "monster_health": lambda: f"monster health {argument:+d}",
        "monster_armor": lambda: f"monster armor {argument:+d}",
    }
    return words[kind]() if kind in words else f"{kind} {argument}"


def action_card_text(card: ActionCard) -> str:
    """'travel action, once per level: pay 2 small effort: gain 1 wood'."""
    timing = TIMING_WORDS.get(card.timing, card.timing) + (", once per level" if card.once_per_level else "")
    cost = f"pay {bag_text(card.cost)}: " if card.cost else ""
    return f"{timing}: {cost}" + ", ".join(action_effect_text(effect) for effect in card.effects)


def monster_effect_text(cards: CardSet, effect: Effect) -> str:
    """One monster effect (ambush, combat table row)."""
    kind, argument = effect
    if kind == "miss":
        return "miss"
    if kind == "lose":
        return f"lose {bag_text(argument)}"
    if kind == "lose_time":
        return f"lose {argument} time"
    if kind == "condition":
        condition, when, rounds = argument
        name = cards.conditions[condition].name
        if when == "next_level":
            return f"{name} for the next level"
        return f"{name} now" + ("" if rounds < 0 else f" for {plural(rounds, 'round')}")
    if kind == "regain_armor":
        return f"regain {argument} armor"
    if kind == "heal":
        return f"heal {plural(argument, 'wound')}"
    if kind == "defend":
        return "defend (your next attack does nothing)"
    if kind == "downgrade_weapon":
        return "downgrade your weapon" + (" for " + plural(argument, "round") if argument else " for good")
    return f"{kind} {argument}"


def effects_text(cards: CardSet, effects: tuple[Effect, ...]) -> str:
    """Monster effects joined: 'lose 2 small effort, lose 1 time'."""
    return ", ".join(monster_effect_text(cards, effect) for effect in effects)


def row_text(cards: CardSet, row: CombatRow) -> str:
    """A combat table row with its bracketed alternative: 'lose 1 food [else lose 2 small effort]'."""
    alternative = "" if row.alt is None else f" [else {effects_text(cards, row.alt)}]"
    return effects_text(cards, row.effects) + alternative


def encounter_text(cards: CardSet, card: int) -> str:
    """'Rusted cage: spend 1 small effort -> gain 2 metal, costs 4 time'."""
    e = cards.encounters[card]
    commit = ", commit to next encounter" if e.commit else ""
    return f"{e.name}: spend {bag_text(e.spend)} -> gain {bag_text(e.gain)}, costs {e.time} time{commit}"


def skill_text(cards: CardSet, skill: int) -> str:
    """'Dodge - Reaction: pay 1 small effort to lower the monster's combat roll by 1.'"""
    card = cards.skills[skill]
    if card.text:
        return f"{card.name} - {card.text}"
    if card.action is not None:
        return f"{card.name} - {action_card_text(card.action)}"
    if card.reaction_cost is not None:
        return f"{card.name} - reaction: pay {bag_text(card.reaction_cost)}: roll {card.reaction_roll_modifier:+d}"
    return f"{card.name} - " + ", ".join(f"{key} {value}" for key, value in card.passive.items())


def condition_text(cards: CardSet, condition: int) -> str:
    """'Poisoned - Venom burns in your veins. ...' (the card's words, else its modifiers)."""
    card = cards.conditions[condition]
    words = card.text or ", ".join(f"{key} {value}" for key, value in card.modifiers.items())
    return f"{card.name} - {words}"


def rounds_left_text(rounds: int) -> str:
    """An immediate condition's time left: '2 rounds left', or 'until the battle ends'."""
    return "until the battle ends" if rounds < 0 else f"{plural(rounds, 'round')} left"


# ------------------------------------------------------------------------------------------------ positions
def attack_text(state: UnbrokenState, index: int) -> str:
    """Attack option `index` of the equipped weapon: '2 small effort (+1 small effort extra) -> 1 wound'."""
    weapon = state.cards.weapons[state.weapons[-1]]
    attack = weapon.attacks[index]
    extra = state.weapon_extra_cost() if state.monster_revealed else ()
    cost = bag_text(attack.cost) + (f" (+ {bag_text(extra)} extra)" if extra else "")
    if attack.break_armor:
        return f"{cost} -> break {attack.break_armor} armor"
    wounds = state.attack_wounds(index) if state.monster_revealed else attack.wounds
    ignoring = " ignoring armor" if attack.ignore_armor else ""
    return f"{cost} -> {plural(wounds, 'wound')}{ignoring}"


def monster_lines(state: UnbrokenState) -> list[str]:
    """The revealed monster's sheet: figures, trickery, special, ambush, the combat table, rewards."""
    s = state
    cards = s.cards
    monster = cards.monsters[s.monster()]
    lines = [
        f"monster: {monster.name} (level {ROMAN[monster.level]}) - wounds {s.wounds}/{s.monster_health()}, "
        f"armor broken {s.armor_broken}/{s.monster_armor()}" + (" - DEFENDING" if s.defending else "")
    ]
    trickery = "cannot be tricked" if monster.trickery is None else f"pay {bag_text(monster.trickery)}"
    lines.append(f"  trickery: {trickery}")
    if monster.attack_extra_cost:
        lines.append(f"  each weapon attack also costs {bag_text(monster.attack_extra_cost)}")
    if monster.special_name:
        lines.append(f"  special: {monster.special_name}: {monster.special_text}")
    if monster.special_action is not None:
        lines.append(f"  special action {monster.special_action.name}: {action_card_text(monster.special_action)}")
    lines.append(f"  ambush: {'none' if not monster.ambush else effects_text(cards, monster.ambush)}")
    modifier = s.roll_shift(monster)
    shift = f", every roll {modifier:+d}" if modifier else ""
    lines.append(f"  combat table (d6{shift}):")
    lines += [f"    {face}: {row_text(cards, row)}" for face, row in enumerate(monster.combat, start=1)]
    lines.append(f"  rewards: {bag_text(monster.rewards)}")
    return lines


def battle_roll(state: UnbrokenState) -> int:
    """The monster's last roll in this battle, 0 before its first (`last_roll` outlives a battle: a new battle in
    which the player acts first has no roll before round 2, unless the game ended on round 1's roll)."""
    if state.round == 0:
        return 0
    rolled = (
        state.round > 1
        or state.phase == Phase.DECIDE_REACTION
        or state.is_terminal()
        or state.game.setting["monster_first"]
    )
    return state.last_roll if rolled else 0


def roll_text(state: UnbrokenState, face: int, reaction_modifier: int = 0) -> str:
    """What a die face does on this monster's table now: 'row 4: lose 1 food [else lose 2 small effort]'."""
    monster = state.cards.monsters[state.monster()]
    value = state.roll_on_table(face, monster, reaction_modifier)
    if not 1 <= value <= len(monster.combat):
        return f"row {value} is off the table: nothing happens"
    return f"row {value}: {row_text(state.cards, monster.combat[value - 1])}"


# ------------------------------------------------------------------------------------------------ actions
def action_text(state: UnbrokenState, action: int) -> str:
    """A legal action as the player reads it in `state`: what it names (the card, the skill, the attack), its cost
    and what it does."""
    s = state
    cards, game = s.cards, s.game
    group, index = game.actions.codec.decode(action)
    general = cards.display.general
    extra = s.general_extra_cost()
    plus = f" (+ {bag_text(extra)} extra)" if extra else ""
    if group == "take revealed skill":
        return f"take skill card {index + 1}: {skill_text(cards, s.skill_offer[index])}"
    if group == "choose revealed encounter":
        chosen = s.revealed_cards[index]
        rest = s.rest_gain(chosen)
        return f"choose card {index + 1}: {encounter_text(cards, chosen)} (or rest: {rest} small effort)"
    if group == "resolve the encounter":
        return f"resolve the encounter {encounter_text(cards, s.chosen_card)}"
    encounter = cards.encounters[s.chosen_card] if s.chosen_card >= 0 else None
    if group == "rest" and encounter is not None:
        return f"rest: gain {s.rest_gain(s.chosen_card)} small effort, costs {encounter.time} time"
    if group == "discard the committed encounter (cannot pay)" and encounter is not None:
        return f"discard the committed encounter {encounter.name} (cannot pay), costs {encounter.time} time"
    conversion = dict(game.conversion_actions).get(action)
    if conversion is not None:
        return f"{group}: pay {bag_text(conversion.cost)}{plus} -> " + ", ".join(
            map(action_effect_text, conversion.effects)
        )
    if group == "general action: scout":
        return f"{group}: pay {bag_text(s.scout_cost())}{plus} -> reveal this level's monster"
    if group == "travel action: orienteer":
        more = plural(general.orienteer_reveal_bonus, "more card")
        return f"{group}: pay {bag_text(general.orienteer_cost)}{plus} -> the next exploration reveals {more}"
    if group == "craft weapon":
        return f"craft weapon {craft_text(s, index)}"
    if group == "downgrade weapon":
        return f"downgrade weapon: {cards.weapons[s.weapons[-1]].name} -> {cards.weapons[s.weapons[-2]].name}"
    if group == "attack with weapon":
        return f"attack with {cards.weapons[s.weapons[-1]].name}: {attack_text(s, index)}"
    if group == "character ability":
        character, slot = divmod(index, MAX_ABILITIES)
        ability = cards.characters[character].abilities[slot]
        return f"character ability {ability.name}: {action_card_text(ability)}"
    if group == "use skill":
        skill = cards.skills[index]
        if s.phase == Phase.DECIDE_REACTION:
            assert skill.reaction_cost is not None
            outcome = roll_text(s, s.roll, skill.reaction_roll_modifier)
            return f"use skill {skill.name}: pay {bag_text(skill.reaction_cost)} -> {outcome}"
        assert skill.action is not None
        return f"use skill {skill.name}: {action_card_text(skill.action)}"
    if group == "monster special action":
        special = cards.monsters[s.monster()].special_action
        assert special is not None
        return f"monster special action {special.name}: {action_card_text(special)}"
    if group == "trick the monster":
        monster = cards.monsters[s.monster()]
        after = "no rewards, but gain a skill card" if s.preset.trick_gives_skill else "no rewards and no skill card"
        return f"trick the monster: pay {bag_text(monster.trickery or ())} -> skip the battle ({after})"
    if group == "eat food":
        return eat_text(s, index)
    if group == "accept the monster's roll":
        return f"accept the monster's roll {s.roll}: {roll_text(s, s.roll)}"
    return game.action_label(action)


def craft_text(state: UnbrokenState, weapon: int) -> str:
    """'Dagger: pay 1 metal + 1 time -> attacks 1 small effort -> 1 wound; ...' (in level IV's battle the time is
    paid in small effort)."""
    cards = state.cards
    upgrade = next(u for u in cards.weapons[state.weapons[-1]].upgrades if u.to == weapon)
    time = ""
    if upgrade.time:
        in_battle = state.phase == Phase.DECIDE_PLAYER_TURN and state.level == FINAL_LEVEL
        time = f" + {upgrade.time} {RESOURCE_WORDS[SMALL_EFFORT if in_battle else TIME]}"
    new = cards.weapons[weapon]
    monster = cards.monsters[state.monster()] if state.monster_revealed else None
    attacks = []
    for attack in new.attacks:
        if attack.break_armor:
            attacks.append(f"{bag_text(attack.cost)} -> break {attack.break_armor} armor")
        else:
            wounds = state.weapon_wounds(new, attack.wounds, monster)
            ignoring = " ignoring armor" if attack.ignore_armor else ""
            attacks.append(f"{bag_text(attack.cost)} -> {plural(wounds, 'wound')}{ignoring}")
    return f"{new.name} ({new.kind}): pay {bag_text(upgrade.cost)}{time}; its attacks: " + "; ".join(attacks)


def eat_text(state: UnbrokenState, food: int) -> str:
    """'eat 1 of 2 food: gain 1 small effort; 1 not eaten costs 1 small effort'."""
    requirement = state.food_requirement()
    missing = requirement - food
    cost = f"; {missing} not eaten costs {state.starvation_cost(missing)} small effort" if missing > 0 else ""
    return f"eat {food} of {requirement} food: gain {food} small effort{cost}"


# ------------------------------------------------------------------------------------------------ reports
def report(before: UnbrokenState, player: int, action: int, after: UnbrokenState) -> list[str]:
    """What the player sees happen when `player` (or CHANCE) plays `action` in `before`, giving `after`."""
    lines: list[str] = []
    cards = after.cards
    if player == CHANCE and before.phase == Phase.CHANCE_MONSTER_ROLL:
        lines.append(roll_report(before, action, 0, after))
        lines += turn_start(before, after)
    elif player != CHANCE and before.phase == Phase.DECIDE_REACTION:
        lines.append(roll_report(before, before.roll, after.reaction_modifier, after))
        lines += turn_start(before, after)
    if after.monster_revealed and not before.monster_revealed:
        monster = cards.monsters[after.monster()]
        lines.append(
            f"monster revealed: {monster.name} (level {ROMAN[monster.level]}), health {after.monster_health()}, "
            f"armor {after.monster_armor()}"
        )
    if after.ambushed and not before.ambushed:
        ambush = cards.monsters[after.monster()].ambush
        # Whether a loss could be paid depends on what the event gained before the ambush: the changes below tell.
        applied = " - your skill ignores it" if ambush and any(before.ignores(kind) for kind, _ in ambush) else ""
        lines.append(f"ambushed! the monster's ambush: {effects_text(cards, ambush) if ambush else 'none'}{applied}")
    combat_step = after.phase == Phase.DECIDE_TRICKERY or after.round > 0
    if before.round == 0 and before.phase != Phase.DECIDE_TRICKERY and combat_step and after.level < FINAL_LEVEL:
        lines.append(f"time moves to the level {ROMAN[after.level + 1]} skull: {after.resources[TIME]}")
    if before.round == 0 and after.round > 0 and not after.is_terminal():
        first = " (the monster attacks first)" if after.game.setting["monster_first"] else ""
        lines.append(f"the battle begins{first}")
    elif after.round > before.round > 0:
        lines.append(f"combat round {after.round}")
    lines += monster_changes(before, after)
    lines += resource_changes(before, after)
    lines += condition_changes(before, after)
    lines += weapon_changes(before, after)
    if after.extra_turn and not before.extra_turn:
        lines.append("you take another turn")
    if after.committed and not before.committed:
        lines.append("committed: the next exploration reveals one card, which you must resolve")
    if after.reveal_bonus > before.reveal_bonus:
        lines.append(f"the next exploration reveals {after.reveal_count()} cards")
    if after.ability_uses < before.ability_uses and after.level == before.level:
        lines.append(f"ability uses left {after.ability_uses}")
    lines += [f"skill gained: {skill_text(cards, k)}" for k in after.skills[len(before.skills) :]]
    if after.tricked and not before.tricked:
        lines.append("you tricked the monster: no rewards")
    elif before.phase in BATTLE_PHASES and after.round == 0 and not after.tricked and after.outcome != Outcome.LOST:
        rewards = cards.monsters[before.monster()].rewards
        lines.append(f"the monster is defeated: rewards {bag_text(rewards)}")
    if after.phase == Phase.DECIDE_HUNGER and before.phase != Phase.DECIDE_HUNGER:
        lines.append(f"hunger step: food requirement {after.food_requirement()}")
    if after.level > before.level:
        lines.append(
            f"level {ROMAN[after.level]} begins: ability uses {after.ability_uses}, time {after.resources[TIME]}"
        )
    if after.time_token_removed and not before.time_token_removed:
        lines.append("the time token leaves the time bar: lost time now costs small effort")
    if after.is_terminal() and not before.is_terminal():
        if after.outcome == Outcome.WON:
            lines.append(f"you won: score {after.final_score()} ({after.title()})")
        else:
            lines.append(f"you lost: {after.end_reason}")
    return lines


def roll_report(before: UnbrokenState, face: int, reaction_modifier: int, after: UnbrokenState) -> str:
    """What the monster's roll does: its row, a reroll, a skill that ignores it, the alternative, or a reaction."""
    cards = before.cards
    monster = cards.monsters[before.monster()]
    if after.phase == Phase.DECIDE_REACTION:
        return f"the monster rolls {face}: {roll_text(before, face)} - you may react"
    value = before.roll_on_table(face, monster, reaction_modifier)
    changed = f" (modified {value - face:+d})" if value != face else ""
    if not 1 <= value <= len(monster.combat):
        return f"the monster's roll lands on row {value}{changed}: off the table, nothing happens"
    row = monster.combat[value - 1]
    text = f"the monster's roll lands on row {value}{changed}: {row_text(cards, row)}"
    if before.rolls_again(row):
        return f"{text} - that condition is already yours for the next level: the monster rolls again"
    return text + applied_text(before, row.effects, row.alt)


def applied_text(state: UnbrokenState, effects: tuple[Effect, ...], alternative: tuple[Effect, ...] | None) -> str:
    """How monster effects apply in `state`, the position they meet: '' when as written, else why not and what
    happens instead (a skill ignores them; they cannot be applied, so the bracketed alternative or nothing)."""
    if any(state.ignores(kind) for kind, _ in effects):
        return " - your skill ignores it"
    if not all(state.monster_effect_applicable(kind, argument) for kind, argument in effects):
        instead = "nothing happens" if alternative is None else f"instead {effects_text(state.cards, alternative)}"
        return f" - it cannot be applied: {instead}"
    return ""


def turn_start(before: UnbrokenState, after: UnbrokenState) -> list[str]:
    """After the monster's turn: what the conditions did at the start of the player's turn (a cost, a skipped turn)."""
    if after.round == 0 or after.is_terminal():
        return []
    if after.phase == Phase.DECIDE_PLAYER_TURN:
        loss = after.condition_bag("round_loss")
        return [f"start of your turn: your conditions cost {bag_text(loss)}"] if loss else []
    if after.phase == Phase.CHANCE_MONSTER_ROLL and after.round > before.round:  # a reroll keeps the round
        return ["your turn is skipped (a condition)"]
    return []


def monster_changes(before: UnbrokenState, after: UnbrokenState) -> list[str]:
    """Wounds, armor and the defence of the monster being fought (the same level's, revealed)."""
    if not (after.monster_revealed and before.monster_revealed and after.level == before.level):
        return []
    lines = []
    if after.wounds != before.wounds:
        healed = f"the monster heals {before.wounds - after.wounds}: " if after.wounds < before.wounds else ""
        lines.append(f"{healed}monster wounds {before.wounds} -> {after.wounds} of {after.monster_health()}")
    if after.armor_broken != before.armor_broken:
        lines.append(f"monster armor broken {before.armor_broken} -> {after.armor_broken} of {after.monster_armor()}")
    if after.monster_health() != before.monster_health() and after.round:
        lines.append(f"monster health {before.monster_health()} -> {after.monster_health()}")
    if after.defending and not before.defending:
        lines.append("the monster defends: your next attack does nothing")
    elif before.defending and not after.defending and after.round:
        lines.append("the monster's defence took your attack")
    return lines


def resource_changes(before: UnbrokenState, after: UnbrokenState) -> list[str]:
    """'small effort 13 -> 9, medium effort 0 -> 1' (gains and losses of one event)."""
    changes = []
    for r, word in enumerate(RESOURCE_WORDS):
        old, new = before.resources[r], after.resources[r]
        if r == TIME and after.time_token_removed:
            continue
        if old != new:
            changes.append(f"{word} {old} -> {new}")
    return [", ".join(changes)] if changes else []


def condition_changes(before: UnbrokenState, after: UnbrokenState) -> list[str]:
    """Conditions gained, ended or discarded, and the rounds left of the immediate ones."""
    cards = after.cards
    lines = [
        f"condition for the next level: {condition_text(cards, c)}"
        for c in after.conditions_next
        if c not in before.conditions_next
    ]
    if after.level != before.level:
        if after.conditions_active:
            active = ", ".join(cards.conditions[c].name for c in after.conditions_active)
            lines.append(f"conditions this level: {active}")
        return lines
    lines += [
        f"condition discarded: {cards.conditions[c].name}"
        for c in before.conditions_active
        if c not in after.conditions_active
    ]
    for condition, rounds in after.conditions_now.items():
        old = before.conditions_now.get(condition)
        if old is None:
            lines.append(f"condition now: {condition_text(cards, condition)} ({rounds_left_text(rounds)})")
        elif old != rounds:
            lines.append(f"{cards.conditions[condition].name}: {rounds_left_text(rounds)}")
    lines += [
        f"condition ends: {cards.conditions[c].name}" for c in before.conditions_now if c not in after.conditions_now
    ]
    return lines


def weapon_changes(before: UnbrokenState, after: UnbrokenState) -> list[str]:
    """Weapons crafted, lost, set aside and returned."""
    weapons = after.cards.weapons
    lines = [
        f"weapon crafted: {weapons[w].name}"
        for w in after.weapons
        if w not in before.weapons and w != before.aside_weapon
    ]
    for w in before.weapons:
        if w not in after.weapons and w != after.aside_weapon:
            lines.append(f"weapon lost: {weapons[w].name}")
    if after.aside_weapon >= 0 and after.aside_weapon != before.aside_weapon:
        lines.append(f"weapon set aside: {weapons[after.aside_weapon].name} for {plural(after.aside_rounds, 'round')}")
    if before.aside_weapon >= 0 and after.aside_weapon != before.aside_weapon and before.aside_weapon in after.weapons:
        lines.append(f"weapon back: {weapons[before.aside_weapon].name}")
    return lines
