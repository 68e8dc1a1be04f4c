"""The combat symbols of Runebound's tokens, the two sides of a combat, and how a face is written.

A combat token has two faces; each face shows one symbol with a value and may have a gold rim. The symbols are the
base game's (physical and magic damage, shield, agility, double, surge, the enemies' skull, blank; public facts)
and the expansion's charge and tactics (rulebook, page 7). Which symbols a side may spend, and which a tactics may
copy, follow RULES.md ("Symbols").
"""

from __future__ import annotations

import enum


class Symbol(enum.IntEnum):
    """A combat symbol; the value order is the observation's one-hot order (append only)."""

    PHYSICAL = 0
    MAGIC = 1
    SHIELD = 2
    AGILITY = 3
    DOUBLE = 4
    SURGE = 5
    CHARGE = 6
    TACTICS = 7
    SKULL = 8
    BLANK = 9


SYMBOL_NAMES: tuple[str, ...] = tuple(symbol.name.lower() for symbol in Symbol)
"""Each symbol's name as data and state dicts write it ("physical", "skull", ...), by value."""
SYMBOL_BY_NAME: dict[str, Symbol] = {name: Symbol(index) for index, name in enumerate(SYMBOL_NAMES)}

NUMBERED = frozenset({Symbol.PHYSICAL, Symbol.MAGIC, Symbol.SHIELD, Symbol.SURGE, Symbol.CHARGE, Symbol.SKULL})
"""Symbols printed with a number ("2 physical"); the others count one each (blank counts nothing)."""
MAX_VALUE = 3
"""The largest number a face prints (content is checked against it; observations divide by it)."""
ATTACK_SYMBOLS = frozenset({Symbol.PHYSICAL, Symbol.MAGIC, Symbol.CHARGE})
"""Symbols a hero spends in groups to deal damage (charge: unblockable)."""
DAMAGE = frozenset({Symbol.PHYSICAL, Symbol.MAGIC, Symbol.SKULL})
"""Symbols spent to deal blockable damage (charge deals damage too, but unblockable)."""

HERO, ENEMY = 0, 1
"""The two sides of a combat (the hero is the env's one seat; the enemy is run by the rules)."""
SIDES = (HERO, ENEMY)
SIDE_NAMES = ("hero", "enemy")

HERO_ONLY = frozenset({Symbol.PHYSICAL, Symbol.MAGIC})
"""Symbols only a hero can spend (RULES.md, "Symbols": the lost glyphs of the TACTICS restrictions)."""
ENEMY_ONLY = frozenset({Symbol.SKULL})
"""Symbols only an enemy can spend ("only enemies can spend [skull]")."""
NOTHING_TO_DOUBLE = frozenset({Symbol.DOUBLE, Symbol.BLANK})
"""Faces a double cannot double ("[double] having nothing to double", COMBAT BOARDS): a double doubles a value, and a
blank or another double has none (RULES.md, "Moving tokens")."""
NEVER_COPIED = frozenset({Symbol.DOUBLE, Symbol.TACTICS, Symbol.BLANK})
"""Symbols no tactics copies: a double (reconstructed: "Since the [tactics] symbol is spent when it is used, it cannot
be used to copy the effect of a [double] symbol"), another tactics and a blank (nothing to do)."""


def spendable_by(side: int) -> frozenset[Symbol]:
    """The symbols `side` may spend (and so copy with a tactics)."""
    return frozenset(Symbol) - (ENEMY_ONLY if side == HERO else HERO_ONLY)


def face_text(symbol: Symbol, value: int) -> str:
    """How a face is written in data and state dicts: "physical 2", "surge 1", "agility", "blank"."""
    name = SYMBOL_NAMES[symbol]
    return f"{name} {value}" if symbol in NUMBERED else name


def parse_face_text(text: str) -> tuple[Symbol, int, bool]:
    """(symbol, value, gold) of a written face: "<symbol> [<value>] [gold]"; ValueError naming what is wrong."""
    words = text.split()
    gold = bool(words) and words[-1] == "gold"
    if gold:
        words = words[:-1]
    if not words or words[0] not in SYMBOL_BY_NAME:
        raise ValueError(f"a face starts with a symbol ({', '.join(SYMBOL_NAMES)}), got {text!r}")
    symbol = SYMBOL_BY_NAME[words[0]]
    if symbol in NUMBERED:
        if len(words) != 2 or not words[1].isdigit() or not 1 <= int(words[1]) <= MAX_VALUE:
            raise ValueError(f"{words[0]} is written with its number 1..{MAX_VALUE} ('{words[0]} 2'), got {text!r}")
        return symbol, int(words[1]), gold
    if len(words) != 1:
        raise ValueError(f"{words[0]} is written without a number, got {text!r}")
    return symbol, 0 if symbol == Symbol.BLANK else 1, gold
