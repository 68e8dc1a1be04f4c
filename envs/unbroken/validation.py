"""Which Unbroken positions can happen: ranges and cross-field checks of a state, each naming field and value.

`check_position` runs on every `state_from_dict` (and on every step of the random-simulation tests), so a saved
or hand-written position that the rules could never reach is refused with a `StateFormatError` instead of being
played on with a silently wrong reading (RULES.md, "Positions").
"""

from __future__ import annotations

from typing import Any

from envs.core.game import StateFormatError
from envs.unbroken.cards import TIME, CardSet
from envs.unbroken.economy import UnbrokenEconomy
from envs.unbroken.state import (
    BATTLE_PHASES,
    FINAL_LEVEL,
    MAX_REVEAL,
    MAX_SKILL_OFFER,
    AfterSkill,
    Outcome,
    Phase,
)

SETUP_PHASES = frozenset({Phase.CHANCE_CHARACTER, Phase.CHANCE_SETUP_MONSTER, Phase.CHANCE_BONUS_RESOURCE})
"""Setup happens at level I, before any card is drawn."""
BEFORE_BATTLE_PHASES = frozenset(
    {
        *SETUP_PHASES,
        Phase.DECIDE_TRAVEL,
        Phase.CHANCE_ENCOUNTER_DRAW,
        Phase.DECIDE_CARD,
        Phase.DECIDE_ENCOUNTER_OR_REST,
        Phase.CHANCE_MONSTER_REVEAL,
        Phase.DECIDE_TRICKERY,
    }
)
"""Phases in which this level's battle has not begun: no wounds, broken armor or changed figures yet."""
EXPLORATION_PHASES = frozenset({Phase.CHANCE_ENCOUNTER_DRAW, Phase.DECIDE_CARD, Phase.DECIDE_ENCOUNTER_OR_REST})
"""The exploration step, when an exploration may be the committed one."""
BATTLE_OR_END = frozenset({*BATTLE_PHASES, Phase.GAME_OVER})
"""Battle-only things (immediate conditions, a set-aside weapon, defending) exist here and nowhere else."""
AFTER_BATTLE_PHASES = frozenset({Phase.CHANCE_SKILL_DRAW, Phase.DECIDE_SKILL, Phase.DECIDE_HUNGER, Phase.GAME_OVER})
"""A tricked monster leads to the Rewards (English) or Hunger step."""
SKILL_PHASES = frozenset({Phase.CHANCE_SKILL_DRAW, Phase.DECIDE_SKILL})
"""The skill step: after a battle (Rewards) or, at Easy, in the setup."""
MAX_FIGURE_CHANGE = 20
"""Largest change of a monster's health or armor by effects in one battle accepted in a position (Spanish)."""
MAX_SET_ASIDE_ROUNDS = 10
"""A monster sets a weapon aside for at most 10 rounds (cards.py checks the card data against the same bound)."""


_HIT_BOUNDS: dict[int, tuple[CardSet, int]] = {}
"""id(card set) -> (the card set, its bound): card sets are unhashable (they hold dicts) but immutable."""


def most_wounds_in_one_hit(cards: CardSet) -> int:
    """An upper bound of the wounds one attack or ability can inflict: the overkill a defeated monster can show."""
    known = _HIT_BOUNDS.get(id(cards))
    if known is not None and known[0] is cards:
        return known[1]
    weapon_best = max(attack.wounds for weapon in cards.weapons for attack in weapon.attacks)
    bonuses = sum(s.passive["wound_bonus"][1] for s in cards.skills if "wound_bonus" in s.passive)
    actions = [*(a for c in cards.characters for a in c.abilities), *(s.action for s in cards.skills if s.action)]
    actions += [m.special_action for m in cards.monsters if m.special_action is not None]
    effect_best = max(
        (amount for card in actions for kind, amount in card.effects if kind in ("wounds", "wounds_ignore_armor")),
        default=0,
    )
    bound = max(weapon_best + bonuses, effect_best)
    _HIT_BOUNDS[id(cards)] = (cards, bound)
    return bound


def _largest_reveal_bonus(cards: CardSet) -> int:
    """The most one action adds to the next exploration's reveals: Orienteer's bonus or an ability's or skill's."""
    actions = [*(a for c in cards.characters for a in c.abilities), *(s.action for s in cards.skills if s.action)]
    bonuses = (amount for card in actions for kind, amount in card.effects if kind == "reveal_bonus")
    return max(cards.display.general.orienteer_reveal_bonus, *bonuses)


def _fail(field: str, value: Any, why: str) -> StateFormatError:
    return StateFormatError(field, f"{value!r}: {why}")


def _within(field: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise _fail(field, value, f"outside {low}..{high}")


def check_position(state: UnbrokenEconomy) -> None:
    """Raise StateFormatError (field and value) unless `state` is a position the rules can reach."""
    _check_scalars(state)
    _check_resources(state)
    _check_monsters(state)
    _check_battle(state)
    _check_cards(state)
    _check_conditions_and_uses(state)


def _check_scalars(state: UnbrokenEconomy) -> None:
    phase = state.phase
    _within("level", state.level, 1, FINAL_LEVEL)
    if phase in SETUP_PHASES and state.level != 1:
        raise _fail("level", state.level, f"setup ({phase.name}) happens at level 1")
    _within("setup_level", state.setup_level, 1, FINAL_LEVEL)
    if (phase == Phase.GAME_OVER) != (state.outcome != Outcome.ONGOING):
        raise _fail("outcome", state.outcome.name, f"the game is over exactly in phase GAME_OVER (phase {phase.name})")
    if (state.end_reason != "") != (state.outcome != Outcome.ONGOING):
        raise _fail("end_reason", state.end_reason, "a finished game has an end reason, an ongoing one none")
    _within("roll", state.roll, 0, 6)
    _within("last_roll", state.last_roll, 0, 6)
    _within("reveal_target", state.reveal_target, 0, MAX_REVEAL)
    _within("skill_target", state.skill_target, 0, MAX_SKILL_OFFER)
    if state.reveal_bonus < 0:
        raise _fail("reveal_bonus", state.reveal_bonus, "cannot be negative")
    most = state.game.spec.max_game_length * _largest_reveal_bonus(state.cards)
    if state.reveal_bonus > most:  # each raise is one decision (Orienteer, an ability, a skill)
        raise _fail("reveal_bonus", state.reveal_bonus, f"more than {most}: one action at each of a game's decisions")
    if state.character < 0 and phase != Phase.CHANCE_CHARACTER:
        raise _fail("character", None, f"only the setup's character draw has no character yet (phase {phase.name})")
    if state.character >= 0 and phase == Phase.CHANCE_CHARACTER:
        raise _fail("character", state.cards.characters[state.character].name, "the character is being drawn now")
    _within("ability_uses", state.ability_uses, 0, state.level)
    if state.committed_now and phase not in EXPLORATION_PHASES:
        raise _fail("committed_now", True, f"only an exploration can be the committed one (phase {phase.name})")
    if state.tricked and phase not in AFTER_BATTLE_PHASES:
        raise _fail("tricked", True, f"trickery leads to the Rewards or Hunger step (phase {phase.name})")
    _check_after_battle(state)
    reaction_bound = max((abs(s.reaction_roll_modifier) for s in state.cards.skills), default=0)
    _within("reaction_modifier", state.reaction_modifier, -reaction_bound, reaction_bound)


def _check_after_battle(state: UnbrokenEconomy) -> None:
    """The Rewards and Hunger steps follow this level's battle or trickery, against its revealed monster; the one
    skill step before any battle is the Easy setup's, at level I, which continues to the first travel."""
    phase = state.phase
    setup_skill_step = phase in SKILL_PHASES and state.after_skill == AfterSkill.TRAVEL
    if setup_skill_step:
        if state.level != 1:
            raise _fail(
                "after_skill", "TRAVEL", f"only the setup's skill step continues to travel (level {state.level})"
            )
        if state.tricked:
            raise _fail("tricked", True, "the setup's skill step comes before any trickery")
        if state.monster_revealed:
            raise _fail("monster_revealed", True, "the setup's skill step comes before any monster is revealed")
    elif phase in SKILL_PHASES or phase == Phase.DECIDE_HUNGER:
        if not state.monster_revealed:
            raise _fail("monster_revealed", False, f"{phase.name} follows a battle or trickery against it")


def _check_resources(state: UnbrokenEconomy) -> None:
    for name, amount, bar in zip(
        state.name_tables().names["resource"], state.resources, state.bar_maximum, strict=True
    ):
        _within(f"resources.{name}", amount, 0, bar)
    if state.time_token_removed:
        if not state.preset.remove_time_token_at_level_four or state.level != FINAL_LEVEL:
            raise _fail("time_token_removed", True, "only the Spanish printing removes it, at level IV's combat")
        if state.resources[TIME] != 0:
            raise _fail("resources.time", state.resources[TIME], "the time token has left the time bar")


def _check_monsters(state: UnbrokenEconomy) -> None:
    cards, phase = state.cards, state.phase
    names = state.name_tables().names["monster"]
    if len(state.monsters) != FINAL_LEVEL:
        raise _fail("monsters", state.monsters, f"one entry per level ({FINAL_LEVEL})")
    for level, monster in enumerate(state.monsters, start=1):
        field = f"monsters[{level - 1}]"
        if monster >= 0 and cards.monsters[monster].level != level:
            raise _fail(field, names[monster], f"is a level {cards.monsters[monster].level} monster, not level {level}")
        drawn = _monster_drawn(state, level)
        if drawn and monster < 0:
            raise _fail(field, None, f"the level {level} monster has been drawn by now (phase {phase.name})")
        if not drawn and monster >= 0:
            raise _fail(field, names[monster], f"the level {level} monster is not drawn yet (phase {phase.name})")
    if phase in BATTLE_PHASES or phase == Phase.DECIDE_TRICKERY:
        if not state.monster_revealed:
            raise _fail("monster_revealed", False, f"a battle is against a revealed monster (phase {phase.name})")
    if phase == Phase.CHANCE_MONSTER_REVEAL and state.monster_revealed:
        raise _fail("monster_revealed", True, "the monster is being revealed now")
    if phase in SETUP_PHASES and state.monster_revealed:
        raise _fail("monster_revealed", True, f"setup ({phase.name}) comes before any monster is revealed")


def _monster_drawn(state: UnbrokenEconomy, level: int) -> bool:
    """Whether the rules have chosen level `level`'s monster by now."""
    phase = state.phase
    if state.preset.monster_drawn_at_setup:  # English: stacked face down at setup
        if phase == Phase.CHANCE_CHARACTER:
            return False
        if phase == Phase.CHANCE_SETUP_MONSTER:
            return level < state.setup_level
        return True
    # Spanish: a d6 picks each level's monster when it is revealed.
    return level < state.level or (level == state.level and state.monster_revealed)


def _check_battle(state: UnbrokenEconomy) -> None:
    phase = state.phase
    in_battle = phase in BATTLE_PHASES
    if state.round < 0:  # a game over keeps the round it ended in (0 outside a battle)
        raise _fail("round", state.round, "rounds count 1, 2, ... in a battle and are 0 outside one")
    if in_battle and state.round < 1:
        raise _fail("round", state.round, f"a battle has rounds 1, 2, ... (phase {phase.name})")
    if not in_battle and phase != Phase.GAME_OVER and state.round != 0:
        raise _fail("round", state.round, f"there is no battle in phase {phase.name}")
    longest = state.game.spec.max_game_length
    if state.round > longest:  # RULES.md, Positions: a round holds a turn of the player (Dazed aside, a few rounds)
        raise _fail("round", state.round, f"a game lasts at most {longest} decisions (the spec's max_game_length)")
    if phase not in BATTLE_OR_END:
        for field in ("defending", "extra_turn"):
            if getattr(state, field):
                raise _fail(field, True, f"only in a battle (phase {phase.name})")
        if state.aside_weapon >= 0:
            raise _fail("aside_weapon", state.name_tables().names["weapon"][state.aside_weapon], "only in a battle")
    if not state.preset.monster_stat_changes:
        for field in ("health_delta", "armor_delta"):
            if getattr(state, field) != 0:
                raise _fail(field, getattr(state, field), f"the {state.preset.name} printing never changes it")
    for field in ("health_delta", "armor_delta"):
        _within(field, getattr(state, field), -MAX_FIGURE_CHANGE, MAX_FIGURE_CHANGE)
    if state.wounds < 0:
        raise _fail("wounds", state.wounds, "cannot be negative")
    if state.armor_broken < 0:
        raise _fail("armor_broken", state.armor_broken, "cannot be negative")
    fought = state.monster() >= 0 and state.monster_revealed
    if phase in BEFORE_BATTLE_PHASES or not fought:
        for field in ("wounds", "armor_broken", "health_delta", "armor_delta"):
            if getattr(state, field) != 0:
                raise _fail(field, getattr(state, field), f"this level's battle has not begun (phase {phase.name})")
        return
    health, armor = state.monster_health(), state.monster_armor()
    if in_battle and state.wounds >= health:
        raise _fail("wounds", state.wounds, f"a battle ends when the wounds reach the monster's health ({health})")
    _within("wounds", state.wounds, 0, health + most_wounds_in_one_hit(state.cards))
    _within("armor_broken", state.armor_broken, 0, armor)


def _check_cards(state: UnbrokenEconomy) -> None:
    cards, phase, tables = state.cards, state.phase, state.name_tables()
    weapons = tables.names["weapon"]
    if not state.weapons or state.weapons[0] != 0:
        raise _fail("weapons", [weapons[w] for w in state.weapons], f"the stack starts with {weapons[0]}")
    if 0 in state.weapons[1:] or len(set(state.weapons)) != len(state.weapons):
        raise _fail("weapons", [weapons[w] for w in state.weapons], "a weapon sheet is in the stack once")
    if state.aside_weapon >= 0:
        if state.aside_weapon in state.weapons or state.aside_weapon == 0:
            raise _fail("aside_weapon", weapons[state.aside_weapon], "a set-aside weapon is not in the stack")
        _within("aside_rounds", state.aside_rounds, 1, MAX_SET_ASIDE_ROUNDS)
    elif state.aside_rounds != 0:
        raise _fail("aside_rounds", state.aside_rounds, "no weapon is set aside")

    encounter_names = tables.names["encounter"]
    if len(state.revealed_cards) > state.reveal_target:
        raise _fail("revealed_cards", [encounter_names[c] for c in state.revealed_cards], "more than reveal_target")
    if state.revealed_cards and phase not in (Phase.CHANCE_ENCOUNTER_DRAW, Phase.DECIDE_CARD):
        raise _fail("revealed_cards", [encounter_names[c] for c in state.revealed_cards], f"none in {phase.name}")
    if phase == Phase.DECIDE_CARD and len(state.revealed_cards) < 2:
        raise _fail("revealed_cards", len(state.revealed_cards), "choosing needs two or more revealed cards")
    if phase == Phase.CHANCE_ENCOUNTER_DRAW:
        if len(state.revealed_cards) >= state.reveal_target:
            raise _fail(
                "reveal_target",
                state.reveal_target,
                f"an encounter card is being drawn, so fewer than the target are revealed "
                f"({len(state.revealed_cards)} are)",
            )
        if sum(state.encounter_deck) == 0:
            raise _fail("encounter_deck", "empty", "an encounter card is being drawn (an empty deck is refilled first)")
    if (state.chosen_card >= 0) != (phase == Phase.DECIDE_ENCOUNTER_OR_REST):
        shown = encounter_names[state.chosen_card] if state.chosen_card >= 0 else None
        raise _fail("chosen_card", shown, f"a card is chosen exactly at DECIDE_ENCOUNTER_OR_REST (phase {phase.name})")
    for i, encounter in enumerate(cards.encounters):
        held = state.encounter_deck[i] + state.encounter_discard[i] + state.revealed_cards.count(i)
        held += int(state.chosen_card == i)
        if held != encounter.copies:
            raise _fail(
                "encounter_deck",
                encounter.name,
                f"found {held} times across deck, discard, revealed and chosen; the deck has {encounter.copies}",
            )

    skill_names = tables.names["skill"]
    if phase in SKILL_PHASES:
        target = skill_reveal_target(state)
        if state.skill_target != target:
            raise _fail("skill_target", state.skill_target, f"the Rewards step reveals {target} skill cards here")
    if len(state.skill_offer) > state.skill_target:
        raise _fail("skill_offer", [skill_names[k] for k in state.skill_offer], "more than skill_target")
    if phase == Phase.CHANCE_SKILL_DRAW:
        if len(state.skill_offer) >= state.skill_target:
            raise _fail(
                "skill_target",
                state.skill_target,
                f"a skill card is being drawn, so fewer than the target are revealed ({len(state.skill_offer)} are)",
            )
        if sum(state.skill_deck) == 0:
            raise _fail("skill_deck", "empty", "a skill card is being drawn (an empty deck is refilled first)")
    if state.skill_offer and phase not in (Phase.CHANCE_SKILL_DRAW, Phase.DECIDE_SKILL):
        raise _fail("skill_offer", [skill_names[k] for k in state.skill_offer], f"none in {phase.name}")
    if phase == Phase.DECIDE_SKILL and not state.skill_offer:
        raise _fail("skill_offer", [], "choosing a skill needs a revealed skill card")
    for i, name in enumerate(skill_names):
        held = state.skill_deck[i] + state.skill_discard[i] + state.skills.count(i) + state.skill_offer.count(i)
        if held != 1:
            raise _fail("skill_deck", name, f"found {held} times across deck, discard, hand and offer; there is one")


def skill_reveal_target(state: UnbrokenEconomy) -> int:
    """Skill cards the Rewards step reveals: the display's number plus skills' bonuses, at most MAX_SKILL_OFFER (the
    target `rules._start_skill_draw` sets; skills and conditions do not change during the step)."""
    return min(MAX_SKILL_OFFER, state.cards.display.skill_reveal + state.passive_total("skill_reveal_bonus"))


def _check_conditions_and_uses(state: UnbrokenEconomy) -> None:
    tables, phase = state.name_tables(), state.phase
    names = tables.names["condition"]
    for field in ("conditions_active", "conditions_next"):
        held = getattr(state, field)
        if len(set(held)) != len(held):
            raise _fail(field, [names[c] for c in held], "a condition card is held once")
    if state.conditions_now and phase not in BATTLE_OR_END:
        raise _fail("conditions_now", [names[c] for c in state.conditions_now], "immediate ones end with the battle")
    for condition, rounds in state.conditions_now.items():
        if rounds != -1 and not 1 <= rounds <= MAX_SET_ASIDE_ROUNDS * 2:
            raise _fail(f"conditions_now.{names[condition]}", rounds, "rounds left are 1.. or -1 (the whole battle)")
    labels = tables.names["action"]
    once = _once_per_level_actions(state)
    for action in state.used_once:
        if action not in once:
            raise _fail("used_once", labels[action], "not a once-per-level ability or skill")
    if len(set(state.used_once)) != len(state.used_once):
        raise _fail("used_once", [labels[a] for a in state.used_once], "each is used once per level")


def _once_per_level_actions(state: UnbrokenEconomy) -> frozenset[int]:
    ids, cards = state.ids, state.cards
    actions = {
        ids.ability + c * 2 + slot
        for c, character in enumerate(cards.characters)
        for slot, ability in enumerate(character.abilities)
        if ability.once_per_level
    }
    actions |= {ids.skill + k for k, skill in enumerate(cards.skills) if skill.action and skill.action.once_per_level}
    return frozenset(actions)
