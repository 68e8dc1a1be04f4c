"""Runebound (3rd edition) with the Unbreakable Bonds expansion; this file declares the package's games (`GAMES`).

Today the package holds one game, `runebound_combat`: one combat, the hero against an enemy run by its trait's combat
board (the combat's rules in combat.py on the core frame engine, held by the combat game's state in rules.py; its
content in cards.py and data/*.yaml; the solo Gymnasium env). The board game, built on the combat, will be declared
beside it under the name `runebound`.

A record holds plain values only, so `import envs` does not load the rules: `max_episode_steps` restates
`MAX_GAME_LENGTH` of the rules and the settings restate the traits and enemy-choice presets the game accepts
(tests/core/test_registration.py checks both against the game). The Act is swept by name where it matters
(`--sweep act=I,II`): as a setting its name would be a game's word, which generic code may not use
(tests/core/test_architecture.py), and every agent's `act` method is one.
"""

from envs.core.registration import GameRecord, GymEnvRecord

COMBAT = GameRecord(
    name="runebound_combat",
    description="Runebound with Unbreakable Bonds: one combat, a hero's tokens against an enemy run by its trait's "
    "combat board.",
    game="envs.runebound.game:RuneboundCombatGame",
    gym_envs=(
        GymEnvRecord(
            id="tabletop/RuneboundCombat-v0", entry_point="envs.runebound.env:make_env", max_episode_steps=800
        ),
    ),
    picture="envs.runebound.render:render_rgb",
    heuristic="agents.heuristics.runebound_combat:RuneboundHeuristicAgent",
    settings={"trait": ("Warrior", "Mystic", "Savage", "Trickster"), "enemy_choice": ("detrimental", "two_damage")},
    main_setting="trait",
    outcome_facts=("outcome", "rounds"),
    headline_fact="outcome",
    former_names=("runebound",),
)
"""The combat's registration record (see envs/core/registration.py)."""
BOARD = GameRecord(
    name="runebound",
    description="Runebound with Unbreakable Bonds on the board, solo: The Locust Swarm, a hero who travels, shops, "
    "takes adventures and fights the Uthuk warbands before time runs out.",
    game="envs.runebound.board_game:RuneboundGame",
    gym_envs=(
        GymEnvRecord(
            id="tabletop/Runebound-v0", entry_point="envs.runebound.board_env:make_env", max_episode_steps=2500
        ),
    ),
    picture="envs.runebound.board_picture:render_board_rgb",
    heuristic="agents.heuristics.runebound:RuneboundBoardHeuristicAgent",
    settings={"hero": ("Eliam", "Tatianna", "Master Thorn", "Corbin")},
    main_setting="hero",
    outcome_facts=("outcome", "warbands_defeated", "time"),
    headline_fact="outcome",
)
"""The board game's registration record."""
GAMES = (COMBAT, BOARD)
"""The games of the package."""
