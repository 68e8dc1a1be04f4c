"""Sampling a chance node's outcome from a seeded generator, in pure Python, bit for bit as numpy would pick it.

`sample_outcome` is what `State.sample_chance` does by default. It reproduces the numpy formula

    probs = np.array([p for _, p in outcomes])
    index = np.searchsorted(np.cumsum(probs), rng.random() * probs.sum(), side="right")
    outcome = outcomes[min(index, len(outcomes) - 1)][0]

without building arrays (a two-outcome node costs a tenth of the numpy version), so the same generator state gives
the same outcome and recorded games replay unchanged. `np.cumsum` adds left to right, as `sample_outcome` does, but
`ndarray.sum` adds pairwise from 8 values on, so the scaled threshold can differ from a running total's in the last
bits: `numpy_sum` reproduces numpy's total, and from 8 outcomes on `sample_outcome` only computes it when a running
total lies so close to the threshold that those bits could change the pick. Probabilities are non-negative, as
`State.chance_outcomes` promises.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import reduce
from operator import add

import numpy as np

PAIRWISE_UNROLL = 8
"""numpy's pairwise sum adds fewer values than this left to right, and more in this many interleaved partial sums."""
PAIRWISE_BLOCK = 128
"""numpy's pairwise sum splits a run of more values than this in two halves (PW_BLOCKSIZE in numpy's loops)."""

SUM_ERROR_PER_OUTCOME = 2.0**-48
"""How far, per outcome and relative to the total, numpy's pairwise and a running float64 total of the same
non-negative probabilities may lie apart, with room to spare: each lies within (n - 1) * 2**-53 of the exact sum,
so they lie within n * 2**-52 of each other; this is 16 times that, which also covers rounding the scaled threshold."""


def numpy_sum(values: Sequence[float]) -> float:
    """The float64 total `np.array(values).sum()` gives, to the last bit (numpy's pairwise summation)."""
    return _pairwise_sum(values, 0, len(values))


def _pairwise_sum(values: Sequence[float], start: int, count: int) -> float:
    """numpy's `pairwise_sum` of `values[start:start + count]` (numpy/_core/src/umath/loops_utils.h.src)."""
    if count < PAIRWISE_UNROLL:
        total = 0.0
        for index in range(start, start + count):
            total += values[index]
        return total
    if count <= PAIRWISE_BLOCK:
        # Eight running sums over strided values (each left to right: `reduce`, never `sum`, which compensates from
        # Python 3.12 on), combined as a balanced tree, then the values past the last multiple of eight in order.
        unrolled_end = start + count - count % PAIRWISE_UNROLL
        lanes = range(start, start + PAIRWISE_UNROLL)
        partial = [reduce(add, values[lane:unrolled_end:PAIRWISE_UNROLL]) for lane in lanes]
        total = ((partial[0] + partial[1]) + (partial[2] + partial[3])) + (
            (partial[4] + partial[5]) + (partial[6] + partial[7])
        )
        for index in range(unrolled_end, start + count):
            total += values[index]
        return total
    half = count // 2
    half -= half % PAIRWISE_UNROLL
    return _pairwise_sum(values, start, half) + _pairwise_sum(values, start + half, count - half)


def sample_outcome(outcomes: Sequence[tuple[int, float]], rng: np.random.Generator) -> int:
    """One of `outcomes` ((outcome, probability) pairs) drawn with its probability: one `rng.random()` if 2+ outcomes.

    A single outcome is returned without touching `rng`. The probabilities are scaled by their total, and a
    rounding shortfall at the end falls to the last outcome, exactly as the numpy formula in the module docstring.
    """
    count = len(outcomes)
    if count == 2:  # the commonest node, unrolled: the running totals are p0 and p0 + p1
        (first, first_probability), (second, second_probability) = outcomes
        return first if rng.random() * (first_probability + second_probability) < first_probability else second
    if count == 1:
        return outcomes[0][0]
    if not count:
        raise ValueError("sample_outcome: the chance node lists no outcomes")
    total = 0.0
    for _, probability in outcomes:
        total += probability
    draw = rng.random()
    threshold = draw * total
    if count < PAIRWISE_UNROLL:
        # numpy's total of fewer than 8 values is this running total: the first outcome whose running total exceeds
        # the threshold (searchsorted(..., side="right") on the cumsum) is numpy's pick.
        cumulative = 0.0
        for outcome, probability in outcomes:
            cumulative += probability
            if threshold < cumulative:
                return outcome
        return outcomes[-1][0]  # a rounding shortfall: numpy's clamp to the last outcome
    return _pick_from_many(outcomes, draw, total)


def _pick_from_many(outcomes: Sequence[tuple[int, float]], draw: float, total: float) -> int:
    """`sample_outcome` from 8 outcomes on, where numpy's pairwise total may differ from the running `total`."""
    threshold = draw * total
    # The pick by the running total, and the running totals on either side of the threshold.
    picked, below, above, cumulative = outcomes[-1][0], 0.0, math.inf, 0.0
    for outcome, probability in outcomes:
        cumulative += probability
        if threshold < cumulative:
            picked, above = outcome, cumulative
            break
        below = cumulative
    # The totals differ in the last bits at most, which can only change the pick where a running total lies that
    # close to the threshold: then scale by numpy's exact total.
    margin = len(outcomes) * SUM_ERROR_PER_OUTCOME * total
    if below < threshold - margin and threshold + margin < above:
        return picked
    return first_above(outcomes, draw * numpy_sum([probability for _, probability in outcomes]))


def first_above(outcomes: Sequence[tuple[int, float]], threshold: float) -> int:
    """The first outcome whose running total of probabilities exceeds `threshold`, else the last outcome."""
    cumulative = 0.0
    for outcome, probability in outcomes:
        cumulative += probability
        if threshold < cumulative:
            return outcome
    return outcomes[-1][0]
