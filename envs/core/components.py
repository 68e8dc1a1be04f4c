"""Card piles as multisets of int ids: draws are chance nodes weighted by remaining copies."""

from __future__ import annotations

from collections.abc import Iterable


def pile_outcomes(counts: Iterable[int]) -> list[tuple[int, float]]:
    """Chance outcomes of drawing one card from a pile given copies per card id (exact probabilities)."""
    counts = list(counts)
    total = sum(counts)
    if total <= 0:
        raise ValueError("cannot draw from an empty pile")
    return [(card, copies / total) for card, copies in enumerate(counts) if copies > 0]


def uniform_outcomes(values: Iterable[int]) -> list[tuple[int, float]]:
    """Chance outcomes of a fair pick among `values` (e.g. a die's faces)."""
    values = list(values)
    return [(value, 1.0 / len(values)) for value in values]
