"""The default `State.sample_chance` picks exactly what the former numpy formula picked, for every generator state."""

from __future__ import annotations

from itertools import accumulate
from typing import cast

import numpy as np
import pytest

from benchmarks.core_components import ChanceNodeState, reference_sample_chance
from envs.core.chance import numpy_sum, sample_outcome
from envs.core.components import pile_outcomes, uniform_outcomes


def random_outcome_lists(rng: np.random.Generator, count: int) -> list[list[tuple[int, float]]]:
    """Outcome lists as games build them (piles by copies, fair picks) and skewed ones, 2 to 300 outcomes."""
    lists = []
    for index in range(count):
        size = int(rng.integers(2, 20)) if index % 3 else int(rng.integers(20, 300))
        kind = index % 4
        if kind == 0:
            copies = rng.integers(0, 5, size=size)
            copies[0] += 1  # a pile with a card in it
            lists.append(pile_outcomes(int(c) for c in copies))
        elif kind == 1:
            lists.append(uniform_outcomes(rng.permutation(size).tolist()))
        else:
            weights = rng.random(size) ** (3 if kind == 2 else 1)
            weights[rng.random(size) < 0.2] = 0.0  # impossible outcomes listed too
            weights[0] += 1e-3
            lists.append([(outcome, float(w)) for outcome, w in enumerate(weights / weights.sum())])
    return lists


@pytest.mark.parametrize("seed", range(4))
def test_default_sample_chance_matches_the_numpy_formula_and_consumes_the_same_draws(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for outcomes in random_outcome_lists(rng, 150):
        state = ChanceNodeState(outcomes)
        generator_seed = int(rng.integers(2**32))
        reference_rng, rng_under_test = np.random.default_rng(generator_seed), np.random.default_rng(generator_seed)
        for _ in range(40):
            assert state.sample_chance(rng_under_test) == reference_sample_chance(state, reference_rng), outcomes
        assert rng_under_test.bit_generator.state == reference_rng.bit_generator.state


class FixedDraws:
    """A stand-in generator whose `random()` returns the given values in turn (thresholds placed on purpose)."""

    def __init__(self, draws: list[float]) -> None:
        self.draws = list(draws)

    def random(self) -> float:
        """The next given value."""
        return self.draws.pop(0)


def test_thresholds_on_the_running_totals_pick_as_numpy_where_its_total_differs() -> None:
    # Where numpy's pairwise total differs from the running total, a threshold on or next to a running total is the
    # one case in which the two could pick differently: place draws exactly there.
    rng = np.random.default_rng(7)
    differing = []
    for outcomes in random_outcome_lists(rng, 600):
        probabilities = [p for _, p in outcomes]
        if len(outcomes) >= 8 and numpy_sum(probabilities) != list(accumulate(probabilities))[-1]:
            differing.append(outcomes)
    assert len(differing) >= 20, "the lists must include totals where numpy's and the running total differ"
    for outcomes in differing:
        running = list(accumulate(p for _, p in outcomes))
        draws = []
        for boundary in running[:-1]:
            draw = boundary / running[-1]
            draws += [draw, float(np.nextafter(draw, 0.0)), float(np.nextafter(draw, 1.0))]
        draws = [d for d in draws if 0.0 <= d < 1.0] + [0.0, float(np.nextafter(1.0, 0.0))]
        state = ChanceNodeState(outcomes)
        for draw in draws:
            picked = state.sample_chance(cast(np.random.Generator, FixedDraws([draw])))
            assert picked == reference_sample_chance(state, cast(np.random.Generator, FixedDraws([draw]))), draw


def test_a_single_outcome_consumes_no_draw_and_no_outcome_is_refused() -> None:
    rng = np.random.default_rng(3)
    before = rng.bit_generator.state
    assert ChanceNodeState([(5, 1.0)]).sample_chance(rng) == 5
    assert rng.bit_generator.state == before
    with pytest.raises(ValueError, match="lists no outcomes"):
        sample_outcome([], rng)


def test_sample_chance_draws_each_outcome_as_often_as_its_probability() -> None:
    outcomes = [(3, 0.5), (8, 0.25), (1, 0.125), (4, 0.125)]
    rng = np.random.default_rng(11)
    draws = [sample_outcome(outcomes, rng) for _ in range(16000)]
    for outcome, probability in outcomes:
        assert abs(draws.count(outcome) / len(draws) - probability) < 0.015


@pytest.mark.parametrize("size", [1, 2, 7, 8, 9, 15, 16, 17, 127, 128, 129, 255, 256, 257, 1000, 5000])
def test_numpy_sum_is_numpy_total_to_the_last_bit(size: int) -> None:
    rng = np.random.default_rng(size)
    for _ in range(20):
        values = (rng.random(size) ** 4).tolist()
        assert numpy_sum(values) == np.array(values).sum()
