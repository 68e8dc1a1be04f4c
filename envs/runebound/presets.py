"""How enemy choices are made, as named rule presets (the RulePreset pattern of envs/unbroken/presets.py).

ENEMY CHOICES: "Make the choice in such a way as to be most detrimental to the hero, as best as you can. If you do
not feel like you can be unbiased enough when making a choice, instead of choosing, deal 2 damage to your hero in
place of the effect." The first sentence is the default preset (`detrimental`: the documented deterministic choice
of envs/runebound/combat_board.py); the second is the `two_damage` preset.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

CHOICE_DAMAGE = 2
"""ENEMY CHOICES: "deal 2 damage to your hero in place of the effect"."""


@dataclass(frozen=True)
class RulePreset:
    """Rule flags the text leaves to the players; each a field, so an ablation can change one."""

    name: str
    choice_as_damage: bool
    """True: an enemy effect that must pick among two or more tokens deals CHOICE_DAMAGE damage to the hero instead;
    False: the enemy picks the token most detrimental to the hero (combat_board.py)."""

    def with_flags(self, **flags: Any) -> RulePreset:
        """A copy with some flags changed (for ablations); unknown flags raise a clear error."""
        known = {f.name for f in fields(self)}
        for key in flags:
            if key not in known:
                raise ValueError(f"unknown rule flag {key!r}; flags are {sorted(known - {'name'})}")
        return replace(self, **flags)


DETRIMENTAL = RulePreset(name="detrimental", choice_as_damage=False)
TWO_DAMAGE = RulePreset(name="two_damage", choice_as_damage=True)
PRESETS = {"detrimental": DETRIMENTAL, "two_damage": TWO_DAMAGE}


def get_preset(preset: str | RulePreset) -> RulePreset:
    """Look a preset up by name (or pass a RulePreset through)."""
    if isinstance(preset, RulePreset):
        return preset
    if not isinstance(preset, str) or preset not in PRESETS:
        raise ValueError(f"unknown enemy_choice {preset!r}; choose one of {sorted(PRESETS)}")
    return PRESETS[preset]
