"""Card components: the ordered Deck (known top and bottom, unknown multiset) and the hidden-card redeal."""

from __future__ import annotations

import dataclasses
from collections import Counter

import numpy as np
import pytest

from envs.core.components import Deck
from envs.core.hidden import redeal

# --- Deck --------------------------------------------------------------------------------------------------------


def test_fresh_deck_draws_weighted_by_copies() -> None:
    deck = Deck.from_counts([2, 0, 1, 1])
    assert deck.size == len(deck) == 4
    assert deck.counts() == (2, 0, 1, 1)
    assert deck.draw_outcomes() == [(0, 0.5), (2, 0.25), (3, 0.25)]


def test_known_top_card_is_drawn_surely_then_the_unknown_part() -> None:
    deck = Deck.from_counts([1, 1]).put_on_top(1).put_on_top(0)
    assert deck.top == (0, 1)
    assert deck.draw_outcomes() == [(0, 1.0)]
    with pytest.raises(ValueError, match="known to be 0"):
        deck.draw(1)
    deck = deck.draw(0)
    assert deck.draw_outcomes() == [(1, 1.0)]
    deck = deck.draw(1)
    assert deck.draw_outcomes() == [(0, 0.5), (1, 0.5)]


def test_bottom_cards_come_after_the_unknown_part_in_order() -> None:
    deck = Deck.from_counts([0, 1, 0]).put_on_bottom(2).put_on_bottom(0)
    assert deck.bottom == (2, 0)
    assert deck.draw_outcomes() == [(1, 1.0)]
    deck = deck.draw(1)
    assert deck.draw_outcomes() == [(2, 1.0)]
    with pytest.raises(ValueError, match="known to be 2"):
        deck.draw(0)
    deck = deck.draw(2)
    assert deck.draw_outcomes() == [(0, 1.0)]
    deck = deck.draw(0)
    assert deck.size == 0
    with pytest.raises(ValueError, match="empty deck"):
        deck.draw_outcomes()
    with pytest.raises(ValueError, match="empty deck"):
        deck.draw(0)


def test_drawing_a_card_not_in_the_unknown_part_is_refused() -> None:
    deck = Deck.from_counts([1, 0, 2])
    with pytest.raises(ValueError, match="not in the deck"):
        deck.draw(1)
    with pytest.raises(ValueError, match="not in the deck"):
        deck.draw(7)
    assert deck.draw(2).unknown == (1, 0, 1)


def test_methods_return_new_decks_and_leave_the_old_one_alone() -> None:
    deck = Deck.from_counts([1, 2])
    drawn = deck.draw(1)
    assert deck.unknown == (1, 2)
    assert drawn.unknown == (1, 1)
    assert deck.put_on_top(0) != deck
    assert deck.put_on_top(0).counts() == (2, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        deck.top = (0,)  # type: ignore[misc]
    assert hash(deck) == hash(Deck.from_counts([1, 2]))


def test_shuffle_forgets_every_position_and_keeps_the_cards() -> None:
    deck = Deck.from_counts([1, 0, 1]).put_on_top(1).put_on_bottom(2).put_on_bottom(1)
    assert deck.counts() == (1, 2, 2)
    shuffled = deck.shuffle_into_unknown()
    assert shuffled == Deck(unknown=(1, 2, 2))
    assert shuffled.top == () and shuffled.bottom == ()
    assert shuffled.draw_outcomes() == [(0, 0.2), (1, 0.4), (2, 0.4)]


def test_reveal_next_unknown_card_joins_the_known_top() -> None:
    deck = Deck.from_counts([1, 1, 1]).put_on_top(0)
    deck = deck.reveal_next_unknown(2)
    assert deck.top == (0, 2)
    assert deck.unknown == (1, 1, 0)
    assert deck.counts() == (2, 1, 1)
    with pytest.raises(ValueError):
        deck.reveal_next_unknown(2)


def test_draw_outcomes_are_exact_probabilities_of_the_unknown_part() -> None:
    deck = Deck.from_counts([3, 1, 0, 4])
    outcomes = deck.draw_outcomes()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert dict(outcomes) == {0: 3 / 8, 1: 1 / 8, 3: 4 / 8}


def test_drawing_every_card_conserves_the_multiset() -> None:
    deck = Deck.from_counts([2, 1, 3]).put_on_top(1).put_on_bottom(0)
    drawn: Counter[int] = Counter()
    while deck.size:
        card = max(deck.draw_outcomes(), key=lambda o: (o[1], o[0]))[0]
        drawn[card] += 1
        deck = deck.draw(card)
    assert [drawn[c] for c in range(3)] == [3, 2, 3]


def test_deck_validation_and_dict_round_trip() -> None:
    with pytest.raises(ValueError, match=">= 0"):
        Deck.from_counts([1, -1])
    with pytest.raises(ValueError, match="not card ids"):
        Deck(unknown=(1, 1), top=(2,))
    with pytest.raises(ValueError, match="not card ids"):
        Deck.empty(2).put_on_bottom(5)
    deck = Deck.from_counts([1, 2]).put_on_top(0).put_on_bottom(1)
    assert Deck.from_dict(deck.to_dict()) == deck
    assert deck.to_dict() == {"unknown": [1, 2], "top": [0], "bottom": [1]}
    assert Deck.empty(3).size == 0 and Deck.empty(3).num_card_ids == 3


# --- redeal ------------------------------------------------------------------------------------------------------

POOL = [2, 1, 1, 0, 3, 1]
SIZES = {"left": 3, "right": 2, "deck": 3}
KNOWN = {"left": [4, 0], "deck": [5]}


@pytest.mark.parametrize("seed", range(20))
def test_redeal_keeps_sizes_known_cards_and_the_pool(seed: int) -> None:
    dealt = redeal(POOL, SIZES, KNOWN, np.random.default_rng(seed))
    assert list(dealt) == list(SIZES)
    for holder, counts in dealt.items():
        assert len(counts) == len(POOL)
        assert sum(counts) == SIZES[holder]
        assert all(c >= 0 for c in counts)
        for card, copies in Counter(KNOWN.get(holder, [])).items():
            assert counts[card] >= copies
    assert [sum(counts[card] for counts in dealt.values()) for card in range(len(POOL))] == POOL


def test_redeal_is_deterministic_for_a_seeded_generator() -> None:
    first = [redeal(POOL, SIZES, KNOWN, np.random.default_rng(seed)) for seed in range(10)]
    again = [redeal(POOL, SIZES, KNOWN, np.random.default_rng(seed)) for seed in range(10)]
    assert first == again
    assert len({tuple(sorted(d.items())) for d in first}) > 1


def test_every_unknown_card_can_reach_every_holder() -> None:
    reached: dict[str, set[int]] = {holder: set() for holder in SIZES}
    for seed in range(300):
        for holder, counts in redeal(POOL, SIZES, {}, np.random.default_rng(seed)).items():
            reached[holder].update(card for card, c in enumerate(counts) if c)
    every_card = {card for card, c in enumerate(POOL) if c}
    assert all(cards == every_card for cards in reached.values())


def test_known_cards_pin_the_only_copy() -> None:
    # Card 5 has one copy, known to be in the deck: no seed may deal it anywhere else.
    for seed in range(100):
        dealt = redeal(POOL, SIZES, KNOWN, np.random.default_rng(seed))
        assert dealt["deck"][5] == 1
        assert dealt["left"][5] == dealt["right"][5] == 0


def test_redeal_is_uniform_over_the_unknown_places() -> None:
    # One copy of card 0 among 4 free places (left 1 of 2 free, right 3): P(left) = 1/4.
    trials = 4000
    rng = np.random.default_rng(1234)
    in_left = sum(redeal([1, 4], {"left": 2, "right": 3}, {"left": [1]}, rng)["left"][0] for _ in range(trials))
    assert abs(in_left / trials - 0.25) < 0.03


def test_redeal_refuses_inconsistent_inputs() -> None:
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="add up to 4 but the pool holds 5"):
        redeal([2, 3], {"a": 2, "b": 2}, {}, rng)
    with pytest.raises(ValueError, match="holds only 1"):
        redeal([1, 1], {"a": 1, "b": 1}, {"a": [0, 1]}, rng)
    with pytest.raises(ValueError, match="exceed the pool"):
        redeal([1, 1], {"a": 1, "b": 1}, {"a": [0], "b": [0]}, rng)
    with pytest.raises(ValueError, match="not in holders_sizes"):
        redeal([1, 1], {"a": 2}, {"z": [0]}, rng)
    with pytest.raises(ValueError, match="not card ids"):
        redeal([1, 1], {"a": 2}, {"a": [9]}, rng)
    with pytest.raises(ValueError, match=">= 0"):
        redeal([1, 1], {"a": 3, "b": -1}, {}, rng)


def test_redeal_with_no_hidden_cards_returns_empty_holders() -> None:
    assert redeal([0, 0], {"a": 0}, {}, np.random.default_rng(0)) == {"a": (0, 0)}
