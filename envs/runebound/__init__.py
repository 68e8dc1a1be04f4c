"""Runebound (3rd edition) with the Unbreakable Bonds expansion: one combat, the hero against an enemy run by its
trait's combat board.

The package holds the combat engine (rules.py on the core frame engine), its content (cards.py, data/*.yaml) and
the solo Gymnasium env; the board game builds on it later.
"""
