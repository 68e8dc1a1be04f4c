"""Unbroken's observation: one flat float32 vector with named views, and a text table.

Hidden information stays hidden: an unrevealed monster, the order of the decks (they hold no order: draws are
chance nodes) and the skill cards not yet seen. The remaining deck composition is public (discards are seen).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from envs.core.game import Observer
from envs.core.observation import ENTITY, FEATURE, ObservationLayout
from envs.unbroken.actions import MAX_EAT
from envs.unbroken.cards import RESOURCES, TIME
from envs.unbroken.presets import DIFFICULTIES, RulePreset
from envs.unbroken.rules import DECIDE_HUNGER, DECIDE_REACTION, DECIDE_TRAVEL, DIE_FACES, UnbrokenState
from envs.unbroken.state import FINAL_LEVEL, MAX_REVEAL, MAX_SKILL_OFFER, PHASE_NAMES, Outcome
from envs.unbroken.words import (
    RESOURCE_WORDS,
    ROMAN,
    action_card_text,
    action_text,
    attack_text,
    battle_roll,
    condition_text,
    craft_text,
    encounter_text,
    monster_lines,
    report,
    roll_text,
    rounds_left_text,
    skill_text,
)

if TYPE_CHECKING:
    from envs.core.game import State
    from envs.unbroken.game import UnbrokenGame

ROUND_SCALE = 20.0
"""Combat rounds are shown as min(round, 20) / 20."""
CONDITION_ROUND_SCALE = 10.0
"""Durations are at most 10 rounds (cards.py validates it); extended ones are capped."""
CARD_FEATURES = 1 + 2 * len(RESOURCES) + 2
"""Per encounter card: present, spend bag, gain bag, time value, commit flag."""
NO_MONSTER_STATS = (0.0,) * 8
PRESET_FLAGS = (
    "monster_drawn_at_setup", "trick_gives_skill", "committed_unpayable_discard", "clamp_monster_roll",
    "extend_immediate_condition", "remove_time_token_at_level_four", "reveal_can_decrease", "monster_stat_changes",
)  # fmt: skip


class UnbrokenObserver(Observer):
    """The solo player's view of an Unbroken state."""

    def __init__(self, game: UnbrokenGame) -> None:
        cards = game.cards
        self.game = game
        n_weapons, n_monsters = len(cards.weapons), len(cards.monsters)
        n_conditions, n_skills, n_encounters = len(cards.conditions), len(cards.skills), len(cards.encounters)
        layout = ObservationLayout()
        # One-hot and multi-hot views (written together with one fancy-index assignment).
        self.v_phase = layout.add("phase", len(PHASE_NAMES))
        self.v_level = layout.add("level", FINAL_LEVEL)
        self.v_character = layout.add("character", len(cards.characters))
        self.v_weapon = layout.add("weapon", n_weapons)
        self.v_weapon_stack = layout.add("weapon_stack", n_weapons)
        self.v_aside = layout.add("weapon_aside", n_weapons)
        self.v_monster = layout.add("monster", n_monsters)
        self.v_roll = layout.add("roll", 2 * len(DIE_FACES))
        self.v_conditions_active = layout.add("conditions_active", n_conditions)
        self.v_conditions_next = layout.add("conditions_next", n_conditions)
        self.v_skills = layout.add("skills", n_skills)
        self.v_skill_offer = layout.add("skill_offer", (MAX_SKILL_OFFER, n_skills), (ENTITY, FEATURE))
        self.v_conditions_now = layout.add("conditions_now", n_conditions)
        self.v_revealed = layout.add("revealed_cards", (MAX_REVEAL, CARD_FEATURES), (ENTITY, FEATURE))
        self.v_chosen = layout.add("chosen_card", CARD_FEATURES)
        # Dense values then deck counts, contiguous: written raw and scaled with one multiplication.
        self.v_resources = layout.add("resources", len(RESOURCES))
        self.v_ability = layout.add("ability_uses", 1)
        self.v_aside_rounds = layout.add("weapon_aside_rounds", 1)
        self.v_monster_stats = layout.add("monster_stats", 8)
        self.v_combat = layout.add("combat", 3)
        self.v_travel = layout.add("travel", 6)
        # Remaining deck composition (public), contiguous.
        self.v_encounter_deck = layout.add("encounter_deck", n_encounters)
        self.v_skill_deck = layout.add("skill_deck", n_skills)
        self.v_dense = slice(self.v_resources.start, self.v_travel.stop)
        self.v_decks = slice(self.v_encounter_deck.start, self.v_skill_deck.stop)
        self.v_setting = layout.add("setting", len(DIFFICULTIES) + len(PRESET_FLAGS))
        self.layout = layout
        self.size = layout.size
        self.views = layout.views
        self.view_shapes = layout.shapes
        self.view_axes = layout.axes

        self.inverse_bars = [1.0 / bar for bar in cards.display.bar_maximum]
        # Scales from the content, so that every entry lies in [0, 1].
        self.health_scale = float(max(m.health for m in cards.monsters) + 5)
        self.armor_scale = float(max(m.armor for m in cards.monsters) + 5)
        self.card_amount_scale = float(max(a for e in cards.encounters for _, a in (*e.spend, *e.gain)))
        self.card_time_scale = float(max(e.time for e in cards.encounters))
        monster_scale = [1.0, 1.0 / self.health_scale, 1.0 / self.armor_scale, 1.0 / self.health_scale,
                         1.0 / self.armor_scale, 1.0 / self.armor_scale, 1.0 / self.health_scale, 1.0]  # fmt: skip
        self.dense_scale_values = (
            self.inverse_bars
            + [1.0 / FINAL_LEVEL, 1.0 / CONDITION_ROUND_SCALE]
            + monster_scale
            + [1.0, 1.0 / ROUND_SCALE, 1.0]
            + [1.0, 1.0, 1.0 / MAX_REVEAL, 1.0 / MAX_EAT, 1.0, 1.0]
        )
        features = np.zeros((n_encounters, CARD_FEATURES), dtype=np.float32)
        for i, card in enumerate(cards.encounters):
            features[i, 0] = 1.0
            for r, amount in card.spend:
                features[i, 1 + r] = amount / self.card_amount_scale
            for r, amount in card.gain:
                features[i, 1 + len(RESOURCES) + r] = amount / self.card_amount_scale
            features[i, -2] = card.time / self.card_time_scale
            features[i, -1] = float(card.commit)
        self.card_features = features
        deck_scale = [1.0 / e.copies for e in cards.encounters] + [1.0] * n_skills
        setting = np.zeros(len(DIFFICULTIES) + len(PRESET_FLAGS), dtype=np.float32)
        setting[DIFFICULTIES.index(game.difficulty)] = 1.0
        preset: RulePreset = game.preset
        for i, flag in enumerate(PRESET_FLAGS):
            setting[len(DIFFICULTIES) + i] = float(getattr(preset, flag))
        self.setting = setting
        self.n_skills = n_skills
        self.dense_scale = np.array(self.dense_scale_values, dtype=np.float32)
        self.n_dense = self.dense_scale.size
        self.deck_scale = np.array(deck_scale, dtype=np.float32)
        assert self.dense_scale.size == self.v_dense.stop - self.v_dense.start
        self.template = layout.zeros()
        self.template[self.v_setting] = setting
        self.o_phase, self.o_level = self.v_phase.start, self.v_level.start
        self.o_weapon, self.o_weapon_stack = self.v_weapon.start, self.v_weapon_stack.start
        self.o_character, self.o_ability = self.v_character.start, self.v_ability.start
        self.o_conditions_active, self.o_conditions_next = self.v_conditions_active.start, self.v_conditions_next.start
        self.o_conditions_now, self.o_skills = self.v_conditions_now.start, self.v_skills.start
        self.o_skill_offer, self.o_monster, self.o_roll = (
            self.v_skill_offer.start,
            self.v_monster.start,
            self.v_roll.start,
        )

    def tensor(self, state: State) -> np.ndarray:
        """The flat observation (see `views` for the layout)."""
        assert isinstance(state, UnbrokenState)
        s = state
        obs = self.template.copy()
        ones = [self.o_phase + s.phase, self.o_level + s.level - 1, self.o_weapon + s.weapons[-1]]
        if s.character >= 0:
            ones.append(self.o_character + s.character)
        start = self.o_weapon_stack
        ones += [start + w for w in s.weapons]
        if s.conditions_active:
            start = self.o_conditions_active
            ones += [start + c for c in s.conditions_active]
        if s.conditions_next:
            start = self.o_conditions_next
            ones += [start + c for c in s.conditions_next]
        if s.skills:
            start = self.o_skills
            ones += [start + k for k in s.skills]
        if s.skill_offer:
            start, n_skills = self.o_skill_offer, self.n_skills
            ones += [start + slot * n_skills + k for slot, k in enumerate(s.skill_offer)]
        dense = s.resources + [s.ability_uses, min(s.aside_rounds, CONDITION_ROUND_SCALE)]
        if s.aside_weapon >= 0:
            ones.append(self.v_aside.start + s.aside_weapon)
        if s.monster_revealed:
            ones.append(self.o_monster + s.monster())
            health = min(s.monster_health(), self.health_scale)
            armor = min(s.monster_armor(), self.armor_scale)
            wounds = min(s.wounds, health)
            broken = min(s.armor_broken, armor)
            dense += (1.0, health, armor, wounds, broken, armor - broken, health - wounds, s.defending)
        else:
            dense += NO_MONSTER_STATS
        dense += (
            s.round > 0,
            min(s.round, ROUND_SCALE),
            s.extra_turn,
            s.committed,
            s.committed_now,
            s.reveal_count(),
            min(s.food_requirement(), MAX_EAT),
            s.ambushed,
            s.time_token_removed,
        )
        if s.last_roll:
            ones.append(self.o_roll + s.last_roll - 1)
            if s.phase == DECIDE_REACTION:
                modified = s.modified_roll()
                if 1 <= modified <= 6:
                    ones.append(self.o_roll + 5 + modified)
        if s.conditions_now:
            start = self.o_conditions_now
            for c, rounds in s.conditions_now.items():
                obs[start + c] = 1.0 if rounds < 0 else min(rounds, CONDITION_ROUND_SCALE) / CONDITION_ROUND_SCALE
        if s.revealed_cards:
            start = self.v_revealed.start
            block = self.card_features[s.revealed_cards].ravel()
            obs[start : start + block.size] = block
        if s.chosen_card >= 0:
            obs[self.v_chosen] = self.card_features[s.chosen_card]
        # fromiter converts the mixed bool/int list about twice as fast as np.multiply(list, ...)
        np.multiply(np.fromiter(dense, np.float32, self.n_dense), self.dense_scale, out=obs[self.v_dense])
        # The decks change only on draws and reshuffles, which replace their tuples (state.py): checked by identity.
        cache = s.deck_view_cache
        if cache is None or cache[0] is not s.encounter_deck or cache[1] is not s.skill_deck:
            cache = s.deck_view_cache = (s.encounter_deck, s.skill_deck, self._decks(s))
        obs[self.v_decks] = cache[2]
        obs[ones] = 1.0
        return obs

    def _decks(self, state: UnbrokenState) -> np.ndarray:
        """The scaled remaining counts of the encounter and skill decks."""
        counts = np.fromiter((*state.encounter_deck, *state.skill_deck), np.float32, self.deck_scale.size)
        return np.multiply(counts, self.deck_scale)

    def text(self, state: State) -> str:
        """A readable table of everything the player may see that matters for a decision: the display, the weapon's
        attacks, the revealed monster's sheet (trickery, combat table), conditions with their rounds, the cards on
        offer."""
        assert isinstance(state, UnbrokenState)
        s = state
        cards = self.game.cards
        bars = cards.display.bar_maximum
        lines = [
            f"Unbroken ({self.game.difficulty} difficulty, {self.game.preset.name} printing) - level {ROMAN[s.level]}"
            f" - {PHASE_NAMES[s.phase]}",
        ]
        if s.character >= 0:
            character = cards.characters[s.character]
            lines.append(f"character: {character.name} (ability uses left {s.ability_uses})")
            lines += [f"  {ability.name}: {action_card_text(ability)}" for ability in character.abilities]
        else:
            lines.append("character: ?")
        resources = []
        for r, name in enumerate(RESOURCE_WORDS):
            if r == TIME and s.time_token_removed:
                resources.append("time -")
            else:
                resources.append(f"{name} {s.resources[r]}/{bars[r]}")
        lines.append("resources: " + ", ".join(resources))
        weapon = cards.weapons[s.weapons[-1]]
        stack = f" (stack: {' > '.join(cards.weapons[w].name for w in s.weapons)})" if len(s.weapons) > 1 else ""
        lines.append(f"weapon: {weapon.name} ({weapon.kind}){stack}")
        lines += [f"  attack {i + 1}: {attack_text(s, i)}" for i in range(len(weapon.attacks))]
        lines += [f"  craft {craft_text(s, upgrade.to)}" for upgrade in weapon.upgrades]
        if s.aside_weapon >= 0:
            lines.append(f"  set aside: {cards.weapons[s.aside_weapon].name} for {s.aside_rounds} rounds")
        if s.monster_revealed:
            lines += monster_lines(s)
        else:
            lines.append(f"monster: face down (level {ROMAN[s.level]})")
        if s.round:
            roll = battle_roll(s)
            lines.append(f"combat round {s.round}" + (f", last roll {roll}" if roll else ""))
        if s.phase == DECIDE_REACTION:
            lines.append(f"the monster rolled {s.roll}: {roll_text(s, s.roll)} - react with a skill or accept it")
        for title, conditions in (
            ("conditions this level", s.conditions_active),
            ("for the next level", s.conditions_next),
        ):
            if conditions:
                lines.append(f"{title}:")
                lines += [f"  {condition_text(cards, c)}" for c in conditions]
        if s.conditions_now:
            lines.append("immediate conditions:")
            lines += [f"  {condition_text(cards, c)} ({rounds_left_text(r)})" for c, r in s.conditions_now.items()]
        if s.skills:
            lines.append("skills:")
            lines += [f"  {skill_text(cards, k)}" for k in s.skills]
        if s.skill_offer:
            lines.append("skill offer (keep one):")
            lines += [f"  card {i + 1}: {skill_text(cards, k)}" for i, k in enumerate(s.skill_offer)]
        if s.revealed_cards:
            lines.append("revealed encounters (choose one):")
            lines += [f"  card {i + 1}: {encounter_text(cards, card)}" for i, card in enumerate(s.revealed_cards)]
        if s.chosen_card >= 0:
            lines.append(f"chosen: {encounter_text(cards, s.chosen_card)} (rest gains {s.rest_gain(s.chosen_card)})")
        if s.committed or s.committed_now:
            lines.append("committed to the next encounter")
        elif s.phase == DECIDE_TRAVEL:
            lines.append(f"an exploration reveals {s.reveal_count()} cards")
        if s.phase == DECIDE_HUNGER:
            lines.append(
                f"food requirement {s.food_requirement()}: each food eaten gains 1 small effort; food not eaten costs "
                "1, 2, 3... small effort"
            )
        lines.append(f"encounter deck: {sum(s.encounter_deck)} cards, discard {sum(s.encounter_discard)}")
        if s.is_terminal():
            result = (
                f"WON - score {s.final_score()} ({s.title()})" if s.outcome == Outcome.WON else f"LOST - {s.end_reason}"
            )
            lines.append(result)
        return "\n".join(lines)

    def action_text(self, state: State, action: int) -> str:
        """A legal action as the player reads it here: the card, skill or attack it names, its cost, its effect."""
        assert isinstance(state, UnbrokenState)
        return action_text(state, action)

    def report(self, before: State, player: int, action: int, after: State) -> list[str]:
        """What the player sees an event do: the roll's row, gains and losses, conditions, weapons, the result."""
        assert isinstance(before, UnbrokenState) and isinstance(after, UnbrokenState)
        return report(before, player, action, after)
