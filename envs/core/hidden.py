"""Hidden information: redeal the cards one player cannot see, the base of every game's `resample_hidden`.

From one player's point of view the cards it cannot see form a pool (counts per card id) spread over holders
(other players' hands, a deck's unknown part, face-down piles), each of a publicly known size. Some of those cards
the player knows the whereabouts of (it saw a card passed, it put a card back). `redeal` deals the pool again,
uniformly at random among all deals consistent with what the player knows: every holder keeps its size and its
known cards, and the rest of the pool is shuffled over the remaining places. The caller passes the
`np.random.Generator`: this is the one place randomness enters, and a seeded generator gives the same deal.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from typing import TypeVar

import numpy as np

Holder = TypeVar("Holder", bound=Hashable)


def redeal(
    pool_counts: Iterable[int],
    holders_sizes: Mapping[Holder, int],
    known: Mapping[Holder, Iterable[int]],
    rng: np.random.Generator,
) -> dict[Holder, tuple[int, ...]]:
    """Deal the hidden pool back to its holders at random, keeping each holder's size and known cards.

    - `pool_counts`: copies per card id of every card the observing player cannot see, **including** the cards
      it knows the holder of (they are hidden from view, only their place is known).
    - `holders_sizes`: holder -> how many of the pool's cards it holds (known ones included); the sizes must add
      up to the pool's size, so a card out of play unseen is a holder too (e.g. "box").
    - `known`: holder -> card ids the player knows that holder has (a holder may be left out: nothing known).
    - `rng`: the caller's generator; holders are dealt in the iteration order of `holders_sizes`.

    Returns holder -> copies per card id (same length as `pool_counts`), for every holder of `holders_sizes`.
    The unknown cards are spread uniformly over the unknown places (each consistent deal equally likely).
    Raises ValueError when sizes, known cards and pool disagree.
    """
    pool = np.asarray(list(pool_counts), dtype=np.int64)
    if pool.ndim != 1 or (pool < 0).any():
        raise ValueError(f"pool_counts must be copies per card id (>= 0), got {pool.tolist()}")
    num_ids = len(pool)
    strangers = [holder for holder in known if holder not in holders_sizes]
    if strangers:
        raise ValueError(f"known cards for holders {strangers} that are not in holders_sizes")
    negative = {holder: size for holder, size in holders_sizes.items() if size < 0}
    if negative:
        raise ValueError(f"holder sizes must be >= 0, got {negative}")
    total_size = sum(holders_sizes.values())
    if total_size != int(pool.sum()):
        raise ValueError(
            f"holder sizes add up to {total_size} but the pool holds {int(pool.sum())} cards: "
            "every hidden card must have exactly one holder"
        )

    known_counts: dict[Holder, np.ndarray] = {}
    for holder in holders_sizes:
        cards = list(known.get(holder, ()))
        bad = [card for card in cards if not 0 <= card < num_ids]
        if bad:
            raise ValueError(f"known cards {bad} of holder {holder!r} are not card ids 0..{num_ids - 1}")
        if len(cards) > holders_sizes[holder]:
            raise ValueError(
                f"holder {holder!r} is known to hold {len(cards)} cards but holds only {holders_sizes[holder]}"
            )
        known_counts[holder] = np.bincount(np.asarray(cards, dtype=np.int64), minlength=num_ids)

    unknown = pool - sum(known_counts.values(), np.zeros(num_ids, dtype=np.int64))
    if (unknown < 0).any():
        short = {card: int(-unknown[card]) for card in np.flatnonzero(unknown < 0)}
        raise ValueError(f"known cards exceed the pool's copies (card id -> missing copies): {short}")

    # A uniform permutation of the unknown cards, cut into the holders' free places, is a uniform consistent deal.
    shuffled = rng.permutation(np.repeat(np.arange(num_ids), unknown))
    result: dict[Holder, tuple[int, ...]] = {}
    start = 0
    for holder, size in holders_sizes.items():
        free = size - int(known_counts[holder].sum())
        dealt = np.bincount(shuffled[start : start + free], minlength=num_ids)
        start += free
        result[holder] = tuple(int(c) for c in known_counts[holder] + dealt)
    return result
