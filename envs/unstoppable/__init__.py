"""Unstoppable: a solo card-crafting deck-builder against a boss (co-op for two later); the rules core.

Not registered yet: the game's registration record (`GAME`) arrives with its shipped content (data/*.yaml). Until
then the rules run on a directory of cards in the same schema (`card_directory`), as tests/unstoppable/ does.
"""
