"""The two printings of Unbroken as named rule presets: every rule difference is its own flag."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Literal, get_args

Difficulty = Literal["easy", "normal", "hard"]
"""The difficulty settings of Appendix D (display.yaml gives each one's numbers)."""
DIFFICULTIES: tuple[Difficulty, ...] = get_args(Difficulty)


@dataclass(frozen=True)
class RulePreset:
    """Rule flags on which the English and Spanish printings differ (envs/unbroken/RULES.md, printing differences)."""

    name: str
    monster_drawn_at_setup: bool
    """True: one monster per level is stacked face down at setup; False: a d6 picks it when it is revealed."""
    trick_gives_skill: bool
    """True: tricking goes to the Rewards step (a skill card, no monster rewards); False: straight to Hunger."""
    committed_unpayable_discard: bool
    """True: a committed encounter you cannot pay is discarded; False: you may rest on it instead."""
    clamp_monster_roll: bool
    """True: a modified combat roll is kept within 1..6; False: a roll off the table matches no row."""
    extend_immediate_condition: bool
    """True: gaining an immediate condition you have extends its duration; False: nothing happens."""
    remove_time_token_at_level_four: bool
    """True: at level IV's combat the time token leaves the time bar (time shows 0)."""
    reveal_can_decrease: bool
    """True: effects may lower the exploration reveal count (to at least 1); False: only raise it."""
    monster_stat_changes: bool
    """True: effects may raise or lower a monster's health and armor values."""

    def with_flags(self, **flags: Any) -> RulePreset:
        """A copy with some flags changed (for ablations); unknown flags raise a clear error."""
        known = {f.name for f in fields(self)}
        for key in flags:
            if key not in known:
                raise ValueError(f"unknown rule flag {key!r}; flags are {sorted(known - {'name'})}")
        return replace(self, **flags)


ENGLISH = RulePreset(
    name="english",
    monster_drawn_at_setup=True,
    trick_gives_skill=True,
    committed_unpayable_discard=False,
    clamp_monster_roll=False,
    extend_immediate_condition=False,
    remove_time_token_at_level_four=False,
    reveal_can_decrease=False,
    monster_stat_changes=False,
)
SPANISH = RulePreset(
    name="spanish",
    monster_drawn_at_setup=False,
    trick_gives_skill=False,
    committed_unpayable_discard=True,
    clamp_monster_roll=True,
    extend_immediate_condition=True,
    remove_time_token_at_level_four=True,
    reveal_can_decrease=True,
    monster_stat_changes=True,
)
PRESETS = {"english": ENGLISH, "spanish": SPANISH}


def get_preset(preset: str | RulePreset) -> RulePreset:
    """Look a preset up by name (or pass a RulePreset through)."""
    if isinstance(preset, RulePreset):
        return preset
    if not isinstance(preset, str) or preset not in PRESETS:
        raise ValueError(f"unknown Unbroken preset {preset!r}; choose one of {sorted(PRESETS)}")
    return PRESETS[preset]
