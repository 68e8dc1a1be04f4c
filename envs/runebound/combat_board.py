"""Public rule queries of a combat: where enemy tokens sit on the board, surge plans and payments, and the enemy's
choices, as documented deterministic functions (RULES.md, "Enemy choices" and "Surges").

Agents read these too (the heuristic values tokens with `hero_worth`), so a rule is written once.

The enemy's choices. ENEMY CHOICES: "Make the choice in such a way as to be most detrimental to the hero, as best as
you can." Every choice an enemy makes between tokens is one of the functions below, each ranking its candidates by
the worth of faces (`hero_worth`, `enemy_worth`: half-points, so a charge's extra can be half a damage) with stated
tie-breaks, the lowest token index last:

- `flip_choice`: the hero's token whose flip loses the most worth (then the most worth now); only a flip that loses
  worth is a choice at all (a flip that would help the hero is no detriment).
- `recast_choice`: the hero's token whose worth now most exceeds its two faces' average (then the most worth now).
- `remove_choice`: the hero's token showing the symbol with the highest number.
- `recast_spent_choice`: the enemy's spent token with the highest average worth of its faces; only if the enemy has
  none, the hero's spent token with the lowest.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence

from envs.runebound.cards import Face
from envs.runebound.symbols import Symbol

PER_NUMBER = 2
"""Worth of each number on a damage, shield or surge face (in half-points)."""
CHARGE_EXTRA = 1
"""A charge is worth half a damage more than blockable damage of its number."""
TACTICS_WORTH = 3
"""A tactics copies any one symbol (about a number and a half)."""
ONE_USE_WORTH = 2
"""An agility or a double: one use."""
SURGE_SECTIONS = 3
"""SPENDING SURGES: "Each [surge] space has three sections" (for 1, 2 and 3 or more surges)."""


def hero_worth(face: Face, has_surge_abilities: bool) -> int:
    """What a face is worth to the hero (half-points): the yardstick of the enemy's choices."""
    return _worth(face, has_surge_abilities, HERO_NUMBERED)


def enemy_worth(face: Face, has_surge_abilities: bool) -> int:
    """What a face is worth to the enemy (half-points)."""
    return _worth(face, has_surge_abilities, ENEMY_NUMBERED)


HERO_NUMBERED = frozenset({Symbol.PHYSICAL, Symbol.MAGIC, Symbol.SHIELD})
"""The symbols whose worth to the hero is their number (a skull, which a hero cannot spend, is worth nothing)."""
ENEMY_NUMBERED = frozenset({Symbol.SKULL, Symbol.SHIELD})
"""The symbols whose worth to the enemy is their number."""


def _worth(face: Face, has_surge_abilities: bool, numbered: frozenset[Symbol]) -> int:
    """A face's worth to the side whose number-valued symbols are `numbered` (half-points)."""
    symbol = face.symbol
    if symbol in numbered:
        return PER_NUMBER * face.value
    if symbol == Symbol.CHARGE:
        return PER_NUMBER * face.value + CHARGE_EXTRA
    if symbol == Symbol.SURGE:
        return PER_NUMBER * face.value if has_surge_abilities else 0
    if symbol == Symbol.TACTICS:
        return TACTICS_WORTH
    if symbol in (Symbol.AGILITY, Symbol.DOUBLE):
        return ONE_USE_WORTH
    return 0  # blank


Candidate = tuple[int, Face, Face]
"""A token the enemy may choose: its index, the face it shows and its other face."""


def flip_choice(candidates: Sequence[Candidate], has_surge_abilities: bool) -> list[int]:
    """The hero's tokens a flip would harm, most detrimental first (the first is the enemy's choice)."""
    ranked = []
    for index, shown, other in candidates:
        now = hero_worth(shown, has_surge_abilities)
        loss = now - hero_worth(other, has_surge_abilities)
        if loss > 0:
            ranked.append((-loss, -now, index))
    return [index for _, _, index in sorted(ranked)]


def recast_choice(candidates: Sequence[Candidate], has_surge_abilities: bool) -> list[int]:
    """The hero's tokens a recast would harm on average, most detrimental first."""
    ranked = []
    for index, shown, other in candidates:
        now = hero_worth(shown, has_surge_abilities)
        loss = now - hero_worth(other, has_surge_abilities)  # twice the expected loss: now - the faces' average
        if loss > 0:
            ranked.append((-loss, -now, index))
    return [index for _, _, index in sorted(ranked)]


def remove_choice(candidates: Sequence[Candidate]) -> list[int]:
    """The hero's tokens showing the symbol to remove, highest number first."""
    return [index for _, index in sorted((-shown.value, index) for index, shown, _ in candidates)]


def recast_spent_choice(
    enemy_spent: Sequence[Candidate], hero_spent: Sequence[Candidate], enemy_surges: bool, hero_surges: bool
) -> list[tuple[int, int]]:
    """(side, token) of spent tokens to recast, most detrimental first: the enemy's by average worth (highest first),
    then the hero's (lowest first). Side 0 is the hero, 1 the enemy."""
    enemy = sorted(
        (-(enemy_worth(shown, enemy_surges) + enemy_worth(other, enemy_surges)), index)
        for index, shown, other in enemy_spent
    )
    hero = sorted(
        (hero_worth(shown, hero_surges) + hero_worth(other, hero_surges), index) for index, shown, other in hero_spent
    )
    return [(1, index) for _, index in enemy] + [(0, index) for _, index in hero]


@functools.lru_cache(maxsize=4096)
def cheapest_payment(units: tuple[tuple[int, int], ...], cost: int) -> tuple[int, ...] | None:
    """The units (index, value) that pay `cost` with the least overpay, then the fewest units, then the lowest
    indices; None when all of them fall short. SPENDING SURGES: "spend as many as it takes"."""
    best: tuple[int, int, tuple[int, ...]] | None = None
    for size in range(1, len(units) + 1):
        for chosen in itertools.combinations(units, size):
            total = sum(value for _, value in chosen)
            if total < cost:
                continue
            key = (total - cost, size, tuple(index for index, _ in chosen))
            if best is None or key < best:
                best = key
    return None if best is None else best[2]


@functools.lru_cache(maxsize=4096)
def cheapest_hero_payment(
    units: tuple[tuple[int, int], ...], doubles: tuple[int, ...], cost: int
) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """A hero's payment of `cost` by value: (tokens, doubles spent with them), each double doubling one of the
    chosen tokens (the highest first). Least overpay, then fewest doubles, then fewest tokens, then lowest indices."""
    best: tuple[int, int, int, tuple[int, ...]] | None = None
    best_doubles: tuple[int, ...] = ()
    for size in range(1, len(units) + 1):
        for chosen in itertools.combinations(units, size):
            values = sorted((value for _, value in chosen), reverse=True)
            for used in range(min(len(doubles), size) + 1):
                total = sum(values) + sum(values[:used])
                if total < cost:
                    continue
                key = (total - cost, used, size, tuple(index for index, _ in chosen))
                if best is None or key < best:
                    best, best_doubles = key, doubles[:used]
                break  # more doubles only overpay more
    return None if best is None else (best[3], best_doubles)


def most_value_with_doubles(values: Sequence[int], doubles: int) -> int:
    """The most a group of tokens is worth with `doubles` doubles, each doubling a different token (the highest)."""
    ordered = sorted(values, reverse=True)
    return sum(ordered) + sum(ordered[:doubles])


def surge_sections(units: Sequence[tuple[int, int]], costs: Sequence[tuple[int, int]]) -> dict[int, int]:
    """The section (1..3) of the surge space each surge unit (index, value) sits in: units are grouped to pay the
    most expensive untriggered abilities first (ability slot, cost; equal costs bottom of the card first), and each
    group sits in the section of its surge total ("stack both tokens in the 2 [surge] section"; a double on a surge
    moves the stack "to the section ... that matches the new [surge] total"); a unit in no group, in its own."""
    if len(units) == 1:  # a lone unit pays every cost it can on its own, and sits in its own section either way
        index, value = units[0]
        return {index: min(max(value, 1), SURGE_SECTIONS)}
    sections: dict[int, int] = {}
    left = tuple(units)
    values = dict(units)
    for _, cost in sorted(costs, key=lambda slot_cost: (-slot_cost[1], -slot_cost[0])):
        payment = cheapest_payment(left, cost)
        if payment is None:
            continue
        total = sum(values[index] for index in payment)
        for index in payment:
            sections[index] = min(total, SURGE_SECTIONS)
        left = tuple(unit for unit in left if unit[0] not in payment)
    for index, value in left:
        sections[index] = min(max(value, 1), SURGE_SECTIONS)
    return sections
