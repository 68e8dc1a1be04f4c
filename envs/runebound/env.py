"""Gymnasium entry point for a Runebound combat, `tabletop/RuneboundCombat-v0`: the generic adapter over
RuneboundCombatGame, with the combat's picture for `rgb_array`."""

from __future__ import annotations

from pathlib import Path

from envs.adapters.gym_env import TabletopEnv
from envs.core.keywords import keyword_checked
from envs.runebound.game import RuneboundCombatGame
from envs.runebound.state import MAX_GAME_LENGTH

ENV_ID = "tabletop/RuneboundCombat-v0"
MAX_EPISODE_STEPS = MAX_GAME_LENGTH


@keyword_checked(ENV_ID)
def make_env(
    hero: str = "random",
    enemy: str = "random",
    trait: str = "all",
    act: str | int = "I",
    enemy_choice: str = "detrimental",
    flight: str = "draw",
    weapons: str = "loadout",
    reward: str = "win",
    illegal_action: str = "raise",
    flat: bool = False,
    render_mode: str | None = None,
    card_directory: str | Path | None = None,
) -> TabletopEnv:
    """One Runebound combat as a Gymnasium env; see its page on the documentation site for the kwargs, the
    observation views and the action groups.

    A misspelled keyword (`enemey=...`) raises TypeError naming it and listing the valid ones.
    """
    from envs.runebound.render import render_rgb

    game = RuneboundCombatGame(
        hero=hero,
        enemy=enemy,
        trait=trait,
        act=act,
        enemy_choice=enemy_choice,
        flight=flight,
        weapons=weapons,
        card_directory=card_directory,
    )
    return TabletopEnv(
        game,
        reward=reward,
        illegal_action=illegal_action,
        flat=flat,
        render_mode=render_mode,
        rgb_renderer=render_rgb,
    )
