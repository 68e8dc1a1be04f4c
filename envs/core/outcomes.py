"""Ranks and rank rewards with ties, for games of 2-4 seats and shared wins."""

from __future__ import annotations

from collections.abc import Sequence


def ranks(scores: Sequence[float]) -> list[int]:
    """Competition ranks, best first: the highest score ranks 1, tied seats share the better rank (1, 1, 3)."""
    return [1 + sum(other > score for other in scores) for score in scores]


def rank_returns(scores: Sequence[float]) -> list[float]:
    """Rewards in [-1, 1] from the seats' scores: first +1, last -1, evenly spaced between; tied seats share the
    mean of the places they occupy (two seats tied for first of four get (1 + 1/3) / 2 = 2/3 each).

    A solo game has no rank: its single seat gets 0. All seats tied: every seat gets 0. The rewards sum to 0.
    """
    seats = len(scores)
    if seats < 2:
        return [0.0] * seats
    place_reward = [1.0 - 2.0 * place / (seats - 1) for place in range(seats)]
    result = []
    for rank in ranks(scores):
        tied = sum(1 for other in ranks(scores) if other == rank)
        places = place_reward[rank - 1 : rank - 1 + tied]
        result.append(sum(places) / tied)
    return result
