"""Unbroken's fixed action space: every decision of the game as a stable id with a label."""

from __future__ import annotations

from dataclasses import dataclass

from envs.core.actions import ActionCodec
from envs.unbroken.cards import CardSet
from envs.unbroken.state import MAX_REVEAL, MAX_SKILL_OFFER

MAX_EAT = 8
"""Most food one Hunger step can eat (the food bar)."""
MAX_ATTACKS = 3
"""Most attack options on one weapon sheet."""
MAX_ABILITIES = 2
"""Most abilities on one character sheet."""


@dataclass(frozen=True)
class UnbrokenActions:
    """Ids of every Unbroken action, built from the card set (append-only: new groups go at the end)."""

    codec: ActionCodec
    take_skill: int
    explore: int
    face_monster: int
    choose_card: int
    encounter: int
    rest: int
    discard_committed: int
    focus: int
    inspiration: int
    plan: int
    scout: int
    orienteer: int
    craft: int
    downgrade: int
    attack: int
    skip: int
    ability: int
    skill: int
    monster_action: int
    trick: int
    fight: int
    eat: int
    accept_roll: int

    @property
    def size(self) -> int:
        """Number of actions."""
        return len(self.codec)


def build_actions(cards: CardSet) -> UnbrokenActions:
    """Lay out the action space for a card set."""
    codec = ActionCodec()
    ids = {
        "take_skill": codec.add_group("take revealed skill", [f"card {i + 1}" for i in range(MAX_SKILL_OFFER)]),
        "explore": codec.add_group("decision: explore", [""]),
        "face_monster": codec.add_group("decision: face the monster", [""]),
        "choose_card": codec.add_group("choose revealed encounter", [f"card {i + 1}" for i in range(MAX_REVEAL)]),
        "encounter": codec.add_group("resolve the encounter", [""]),
        "rest": codec.add_group("rest", [""]),
        "discard_committed": codec.add_group("discard the committed encounter (cannot pay)", [""]),
        "focus": codec.add_group("general action: focus", [""]),
        "inspiration": codec.add_group("general action: inspiration", [""]),
        "plan": codec.add_group("general action: plan", [""]),
        "scout": codec.add_group("general action: scout", [""]),
        "orienteer": codec.add_group("travel action: orienteer", [""]),
        "craft": codec.add_group("craft weapon", [w.name for w in cards.weapons]),
        "downgrade": codec.add_group("downgrade weapon", [""]),
        "attack": codec.add_group("attack with weapon", [f"option {i + 1}" for i in range(MAX_ATTACKS)]),
        "skip": codec.add_group("skip turn", [""]),
        "ability": codec.add_group(
            "character ability",
            [
                f"{character.name}: {character.abilities[i].name}"
                if i < len(character.abilities)
                else f"{character.name}: -"
                for character in cards.characters
                for i in range(MAX_ABILITIES)
            ],
        ),
        "skill": codec.add_group("use skill", [s.name for s in cards.skills]),
        "monster_action": codec.add_group("monster special action", [""]),
        "trick": codec.add_group("trick the monster", [""]),
        "fight": codec.add_group("fight the monster", [""]),
        "eat": codec.add_group("eat food", [str(k) for k in range(MAX_EAT + 1)]),
        "accept_roll": codec.add_group("accept the monster's roll", [""]),
    }
    return UnbrokenActions(codec=codec, **ids)
