"""Ray RLlib route (the `rllib` extra): a MultiAgentEnv adapter, a masked RLModule, training and `rllib:` agents.

Every module here imports ray; nothing outside this package imports them at module level, so `envs` and the rest
of `agents` work without the extra (tests/training/test_rllib_optional.py checks it).
"""
