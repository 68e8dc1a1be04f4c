"""Unbroken: solo survival card game (two printings as rule presets); this file is its registration record.

The record holds plain values only, so that `import envs` does not load the rules: `max_episode_steps` restates
`MAX_GAME_LENGTH` of the rules and the settings restate the difficulties and presets the rules accept
(tests/core/test_registration.py checks both against the rules).
"""

from envs.core.registration import GameRecord, GymEnvRecord

GAME = GameRecord(
    name="unbroken",
    description="Unbroken: a solo survival card game; fight four levels of monsters with effort and weapons.",
    game="envs.unbroken.game:UnbrokenGame",
    gym_envs=(
        GymEnvRecord(id="tabletop/Unbroken-v0", entry_point="envs.unbroken.env:make_env", max_episode_steps=1500),
    ),
    picture="envs.unbroken.render:render_rgb",
    heuristic="agents.heuristics.unbroken:UnbrokenHeuristicAgent",
    evaluation="agents.heuristics.unbroken_evaluation:evaluate",
    settings={"difficulty": ("easy", "normal", "hard"), "preset": ("english", "spanish")},
    main_setting="difficulty",
    outcome_facts=("title", "level", "end_reason"),
    headline_fact="title",
)
"""Unbroken's registration record (see envs/core/registration.py)."""
