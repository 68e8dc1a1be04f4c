"""Card components: the ordered Deck (known top and bottom, unknown multiset), its single-copy twin UniqueDeck, and
the hidden-card redeal."""

from __future__ import annotations

import dataclasses
import json
import pickle
from collections import Counter

import numpy as np
import pytest

from envs.core.components import Deck, UniqueDeck
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


def test_boundary_refuses_bad_fields_naming_them() -> None:
    with pytest.raises(TypeError, match="deck unknown copies must be integer card ids"):
        Deck(unknown=(1, "2"))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="deck top must be integer card ids"):
        Deck(unknown=(1, 1), top=(0.5,))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"deck bottom cards \[-1\] are not card ids 0..1"):
        Deck(unknown=(1, 1), bottom=(-1,))
    with pytest.raises(ValueError, match=r"deck top cards \[2\] are not card ids 0..1"):
        Deck.from_counts([1, 1]).put_on_top(2)
    with pytest.raises(TypeError, match="deck top: card 1.0 is not an integer card id"):
        Deck.from_counts([1, 1]).put_on_top(1.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"missing key\(s\) \['unknown'\]"):
        Deck.from_dict({"top": [0]})
    with pytest.raises(ValueError, match=r"unknown key\(s\) \['middle'\]"):
        Deck.from_dict({"unknown": [1], "middle": [0]})
    with pytest.raises(ValueError, match="not card ids"):
        dataclasses.replace(Deck.from_counts([1, 1]), top=(3,))


def test_numpy_card_ids_are_stored_as_python_ints() -> None:
    deck = Deck.from_counts(np.array([2, 1])).put_on_top(np.int64(1))  # type: ignore[arg-type]
    deck = deck.put_on_bottom(np.int64(0)).reveal_next_unknown(np.int64(0))  # type: ignore[arg-type]
    assert all(type(card) is int for card in (*deck.unknown, *deck.top, *deck.bottom))
    assert json.loads(json.dumps(deck.to_dict())) == {"unknown": [1, 1], "top": [1, 0], "bottom": [0]}


def random_operations(deck: Deck | UniqueDeck, rng: np.random.Generator, steps: int) -> list[Deck | UniqueDeck]:
    """The decks along `steps` random operations (draws by the outcomes, reveals, placements of drawn cards,
    shuffles), a card drawn going to a hand from which placements take it back."""
    decks = [deck]
    hand: list[int] = []
    for _ in range(steps):
        roll = rng.random()
        if deck.size and roll < 0.45:
            outcomes = deck.draw_outcomes()
            card = outcomes[int(rng.integers(len(outcomes)))][0]
            deck = deck.draw(card)
            hand.append(card)
        elif deck.unknown_size and roll < 0.6:
            unknown = (
                sorted(deck.unknown) if isinstance(deck, UniqueDeck) else [c for c, n in enumerate(deck.unknown) if n]
            )
            deck = deck.reveal_next_unknown(unknown[int(rng.integers(len(unknown)))])
        elif hand and roll < 0.95:
            card = hand.pop(int(rng.integers(len(hand))))
            deck = deck.put_on_top(card) if rng.random() < 0.5 else deck.put_on_bottom(card)
        else:
            deck = deck.shuffle_into_unknown()
        decks.append(deck)
    return decks


@pytest.mark.parametrize("seed", range(10))
def test_methods_build_the_same_deck_the_boundary_builds(seed: int) -> None:
    rng = np.random.default_rng(seed)
    copies = rng.integers(0, 4, size=int(rng.integers(1, 12))).tolist()
    for deck in random_operations(Deck.from_counts(copies), rng, 60):
        assert isinstance(deck, Deck)
        checked = Deck(unknown=deck.unknown, top=deck.top, bottom=deck.bottom)
        assert deck == checked and hash(deck) == hash(checked) and repr(deck) == repr(checked)
        assert deck.unknown_size == sum(deck.unknown) == checked.unknown_size
        assert deck.size == len(deck) == sum(deck.counts())
        assert pickle.loads(pickle.dumps(deck)) == deck and pickle.loads(pickle.dumps(deck)).size == deck.size


def test_deck_methods_leave_the_deck_alone() -> None:
    deck = Deck.from_counts([2, 1, 1]).put_on_top(0).put_on_bottom(2)
    before = deck.to_dict()
    deck.draw(0), deck.put_on_top(1), deck.put_on_bottom(1), deck.reveal_next_unknown(1), deck.shuffle_into_unknown()
    assert deck.to_dict() == before and deck.size == 6


# --- UniqueDeck ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_unique_deck_behaves_like_a_deck_with_one_copy_each(seed: int) -> None:
    rng = np.random.default_rng(seed)
    num_card_ids = int(rng.integers(1, 40))
    copies = (rng.random(num_card_ids) < 0.7).astype(int).tolist()
    plain = Deck.from_counts(copies)
    unique = UniqueDeck.from_counts(copies)
    # The same random operations on both (same generator state), compared step by step.
    plain_decks = random_operations(plain, np.random.default_rng(seed + 100), 80)
    unique_decks = random_operations(unique, np.random.default_rng(seed + 100), 80)
    for plain_deck, unique_deck in zip(plain_decks, unique_decks, strict=True):
        assert isinstance(plain_deck, Deck) and isinstance(unique_deck, UniqueDeck)
        assert unique_deck.counts() == plain_deck.counts()
        assert (unique_deck.top, unique_deck.bottom) == (plain_deck.top, plain_deck.bottom)
        assert unique_deck.unknown == {card for card, c in enumerate(plain_deck.unknown) if c}
        assert (unique_deck.size, unique_deck.unknown_size) == (plain_deck.size, plain_deck.unknown_size)
        if plain_deck.size:
            assert unique_deck.draw_outcomes() == plain_deck.draw_outcomes()
        for card in range(num_card_ids):
            assert _draw_result(unique_deck, card) == _draw_result(plain_deck, card)


def _draw_result(deck: Deck | UniqueDeck, card: int) -> tuple[int, ...] | str:
    """The counts after drawing `card`, or "refused" if the deck refuses that draw."""
    try:
        return deck.draw(card).counts()
    except ValueError:
        return "refused"


def test_unique_deck_draws_uniformly_over_its_unknown_set_in_card_order() -> None:
    deck = UniqueDeck.from_cards(6, [5, 1, 3])
    assert deck.draw_outcomes() == [(1, 1 / 3), (3, 1 / 3), (5, 1 / 3)]
    deck = deck.draw(3).put_on_bottom(3).put_on_top(0)
    assert deck.draw_outcomes() == [(0, 1.0)]
    deck = deck.draw(0)
    assert deck.draw_outcomes() == [(1, 0.5), (5, 0.5)]
    with pytest.raises(ValueError, match="not in the deck's unknown part"):
        deck.draw(3)
    deck = deck.draw(5).draw(1)
    assert deck.draw_outcomes() == [(3, 1.0)]
    assert deck.draw(3).size == 0


def test_unique_deck_refuses_a_second_copy_and_bad_fields() -> None:
    with pytest.raises(ValueError, match=r"cards \[2\] more than once"):
        UniqueDeck(4, frozenset({1, 2}), top=(2,))
    with pytest.raises(ValueError, match=r"UniqueDeck unknown lists cards \[1\] more than once"):
        UniqueDeck.from_cards(4, [1, 3, 1])
    with pytest.raises(ValueError, match=r"counts must be 0 or 1 per card id; cards \[1\] have \[2\]"):
        UniqueDeck.from_counts([1, 2, 0])
    with pytest.raises(ValueError, match=r"UniqueDeck unknown cards \[4\] are not card ids 0..3"):
        UniqueDeck.from_cards(4, [4])
    with pytest.raises(ValueError, match="num_card_ids must be >= 0"):
        UniqueDeck.empty(-1)
    deck = UniqueDeck.from_cards(4, [0, 1])
    with pytest.raises(ValueError, match="UniqueDeck top: card 1 is already in the deck"):
        deck.put_on_top(1)
    with pytest.raises(ValueError, match="UniqueDeck bottom: card 2 is already in the deck"):
        deck.put_on_bottom(2).put_on_bottom(2)
    with pytest.raises(ValueError, match=r"UniqueDeck bottom cards \[9\] are not card ids 0..3"):
        deck.put_on_bottom(9)
    with pytest.raises(ValueError, match=r"missing key\(s\) \['num_card_ids'\]"):
        UniqueDeck.from_dict({"unknown": [0]})
    with pytest.raises(TypeError, match="top must be a list of card ids"):
        UniqueDeck.from_dict({"num_card_ids": 3, "top": 1})


def test_unique_deck_round_trips_and_is_immutable() -> None:
    deck = UniqueDeck.from_cards(5, [4, 0, 2]).put_on_top(1).put_on_bottom(3)
    assert deck.to_dict() == {"num_card_ids": 5, "unknown": [0, 2, 4], "top": [1], "bottom": [3]}
    assert UniqueDeck.from_dict(json.loads(json.dumps(deck.to_dict()))) == deck
    assert hash(UniqueDeck.from_dict(deck.to_dict())) == hash(deck)
    assert pickle.loads(pickle.dumps(deck)) == deck
    assert deck.shuffle_into_unknown() == UniqueDeck.from_cards(5, range(5))
    drawn = deck.draw(1).reveal_next_unknown(2)
    assert drawn.top == (2,) and deck.top == (1,) and deck.unknown == {0, 2, 4}
    with pytest.raises(dataclasses.FrozenInstanceError):
        deck.unknown = frozenset()  # type: ignore[misc]
    assert UniqueDeck.empty(3).size == 0 and UniqueDeck.empty(3).counts() == (0, 0, 0)


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
