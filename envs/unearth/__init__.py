"""Unearth: 2-4 players roll dice to claim Ruins and gather Stones into rings of Wonders; its registration record.

The record holds plain values only, so `import envs` does not load the rules (tests/core/test_registration.py
checks them against the rules).
"""

from envs.core.registration import GameRecord, GymEnvRecord

GAME = GameRecord(
    name="unearth",
    description="Unearth: 2-4 players claim Ruins with dice and build Wonders from rings of Stones.",
    game="envs.unearth.game:UnearthGame",
    gym_envs=(GymEnvRecord(id="tabletop/Unearth-v0", entry_point="envs.unearth.env:make_env", max_episode_steps=4000),),
    pettingzoo_modules=("envs.unearth.unearth_v0",),
    picture="envs.unearth.render:render_rgb",
    heuristic="agents.heuristics.unearth:UnearthHeuristicAgent",
    evaluation="agents.heuristics.unearth_evaluation:evaluate",
    settings={"num_players": (2, 3, 4)},
    main_setting="num_players",
    same_spaces_at_every_player_count=True,
    outcome_facts=("place",),
    headline_fact="place",
)
"""Unearth's registration record (see envs/core/registration.py)."""
