"""Unstoppable: a solo card-crafting deck-builder against a boss (co-op for two later); its registration record.

The record holds plain values only, so `import envs` does not load the rules: `max_episode_steps` restates
`MAX_GAME_LENGTH` of game.py and the settings restate the difficulties and bosses the rules accept
(tests/core/test_registration.py checks both against the rules). The heuristic agent is
agents/heuristics/unstoppable.py; there is no `evaluation` (the one-decision lookahead agent does not fit a game
whose turn is many decisions of one player: it plays far below the heuristic).
"""

from envs.core.registration import GameRecord, GymEnvRecord

GAME = GameRecord(
    name="unstoppable",
    description="Unstoppable: a solo card-crafting deck-builder; draft, upgrade and fight threats to defeat a boss.",
    game="envs.unstoppable.game:UnstoppableGame",
    gym_envs=(
        GymEnvRecord(id="tabletop/Unstoppable-v0", entry_point="envs.unstoppable.env:make_env", max_episode_steps=5000),
    ),
    picture="envs.unstoppable.render:render_rgb",
    heuristic="agents.heuristics.unstoppable:UnstoppableHeuristicAgent",
    settings={"difficulty": ("normal", "hard", "expert"), "boss": ("The Harbinger", "The Triumvirate")},
    main_setting="difficulty",
    outcome_facts=("ending", "boss_damage", "turns", "level"),
    headline_fact="ending",
)
"""Unstoppable's registration record (see envs/core/registration.py)."""
