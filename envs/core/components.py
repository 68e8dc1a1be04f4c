"""Card piles as multisets of int ids: draws are chance nodes weighted by remaining copies.

`Deck` models an ordered face-down deck as one player can know it: known cards on top (`top`, top card first),
an unknown middle part held only as copies per card id (`unknown`, like the piles: its order is uniformly random,
so a draw from it is a chance node weighted by copies), and known cards at the bottom (`bottom`, in drawing order:
the first is drawn once the middle runs out, the last is the very bottom card). Cards a rule places on top or
underneath are known; a shuffle forgets every position. Card ids index the counts vector, so all decks of a game
cover the same card ids. Decks are immutable: every method returns a new deck, so clones of a state share them.
No randomness here: the caller samples `draw_outcomes()` and applies the outcome with `draw(card)`.

`UniqueDeck` is the same deck for games whose every card exists once (a deck of distinct named cards): its unknown
middle is the frozenset of the card ids in it, and a draw from it is uniform over that set. Which to use:

- `Deck` when a card id may have several copies (a deck of 38 cards over 10 kinds), or when most card ids are in
  the unknown part most of the time: its operations cost O(number of card ids).
- `UniqueDeck` when every card id has at most one copy, above all when the unknown part holds few of many card ids
  (a hand-picked deck of 20 cards out of 126): its operations cost O(cards in the unknown part), and it refuses a
  second copy of a card, which a count vector would silently accept.

Both check their input at the boundary only: the constructor, `from_counts`, `from_dict` and `empty` convert and
range-check every field and raise an error naming it; the methods then build new decks from parts already checked
(checking only the card they are given), so a draw costs about as much as the tuple or set update it makes.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, final


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


# --- Ordered decks (the model and when to use which are in the module docstring) ----------------------------------

_set_field = object.__setattr__
"""Sets a field of a frozen deck (its own `__setattr__` refuses): for the validating and the unchecked constructors."""


def _card_ids(values: Iterable[int], what: str) -> tuple[int, ...]:
    """`values` as a tuple of Python ints (numpy integers converted); TypeError naming `what` for anything else."""
    values = tuple(values)
    try:
        return tuple(map(operator.index, values))
    except TypeError:
        raise TypeError(f"{what} must be integer card ids, got {values!r}") from None


def _check_in_range(cards: Iterable[int], num_card_ids: int, what: str) -> None:
    """ValueError naming `what` and the cards that are not card ids 0..num_card_ids-1."""
    bad = [card for card in cards if not 0 <= card < num_card_ids]
    if bad:
        raise ValueError(f"{what} cards {bad} are not card ids 0..{num_card_ids - 1}")


def _placed_card(card: int, num_card_ids: int, what: str) -> int:
    """The card a method puts into a deck, as a Python int checked against the card ids."""
    try:
        card = operator.index(card)
    except TypeError:
        raise TypeError(f"{what}: card {card!r} is not an integer card id") from None
    if not 0 <= card < num_card_ids:
        raise ValueError(f"{what} cards {[card]} are not card ids 0..{num_card_ids - 1}")
    return card


@final
@dataclass(frozen=True, slots=True)
class Deck:
    """An ordered face-down deck: known cards on top, an unknown multiset in the middle, known cards below."""

    unknown: tuple[int, ...]
    """Copies per card id in the unknown middle part (its length is the number of card ids)."""
    top: tuple[int, ...] = ()
    """Known cards on top, top card first."""
    bottom: tuple[int, ...] = ()
    """Known cards at the bottom, in drawing order: `bottom[-1]` is the very bottom card."""
    _unknown_size: int = field(init=False, repr=False, compare=False)
    """Cache: the number of cards in the unknown part (`sum(unknown)`), so sizes cost O(1)."""

    def __post_init__(self) -> None:
        unknown = _card_ids(self.unknown, "deck unknown copies")
        top = _card_ids(self.top, "deck top")
        bottom = _card_ids(self.bottom, "deck bottom")
        if any(copies < 0 for copies in unknown):
            raise ValueError(f"deck unknown copies must be >= 0, got {unknown}")
        _check_in_range(top, len(unknown), "deck top")
        _check_in_range(bottom, len(unknown), "deck bottom")
        _set_field(self, "unknown", unknown)
        _set_field(self, "top", top)
        _set_field(self, "bottom", bottom)
        _set_field(self, "_unknown_size", sum(unknown))

    @staticmethod
    def _checked_parts(unknown: tuple[int, ...], top: tuple[int, ...], bottom: tuple[int, ...], size: int) -> Deck:
        """A deck from parts already checked and the unknown part's size (the methods' path: no validation)."""
        deck = object.__new__(Deck)
        _set_field(deck, "unknown", unknown)
        _set_field(deck, "top", top)
        _set_field(deck, "bottom", bottom)
        _set_field(deck, "_unknown_size", size)
        return deck

    @classmethod
    def from_counts(cls, counts: Iterable[int]) -> Deck:
        """A freshly shuffled deck: copies per card id, nothing known."""
        return cls(unknown=tuple(counts))

    @classmethod
    def empty(cls, num_card_ids: int) -> Deck:
        """An empty deck over `num_card_ids` card ids."""
        return cls(unknown=(0,) * operator.index(num_card_ids))

    @property
    def num_card_ids(self) -> int:
        """How many card ids the deck's counts cover."""
        return len(self.unknown)

    @property
    def unknown_size(self) -> int:
        """Number of cards in the unknown middle part."""
        return self._unknown_size

    @property
    def size(self) -> int:
        """Number of cards in the deck."""
        return len(self.top) + self._unknown_size + len(self.bottom)

    def __len__(self) -> int:
        return len(self.top) + self._unknown_size + len(self.bottom)

    def counts(self) -> tuple[int, ...]:
        """Copies per card id in the whole deck (known and unknown)."""
        counts = list(self.unknown)
        for card in self.top:
            counts[card] += 1
        for card in self.bottom:
            counts[card] += 1
        return tuple(counts)

    def draw_outcomes(self) -> list[tuple[int, float]]:
        """Chance outcomes of a draw: a known top card surely, else the unknown part by copies, else the bottom."""
        if self.top:
            return [(self.top[0], 1.0)]
        if self._unknown_size:
            total = self._unknown_size
            return [(card, copies / total) for card, copies in enumerate(self.unknown) if copies > 0]
        if self.bottom:
            return [(self.bottom[0], 1.0)]
        raise ValueError("cannot draw from an empty deck")

    def draw(self, card: int) -> Deck:
        """The deck after its top card turned out to be `card` (an outcome of `draw_outcomes`); ValueError otherwise."""
        top, unknown, bottom = self.top, self.unknown, self.bottom
        if top:
            if card != top[0]:
                raise ValueError(f"the top card is known to be {top[0]}, cannot draw {card}")
            return Deck._checked_parts(unknown, top[1:], bottom, self._unknown_size)
        if self._unknown_size:
            return Deck._checked_parts(self._unknown_without(card), top, bottom, self._unknown_size - 1)
        if bottom:
            if card != bottom[0]:
                raise ValueError(f"the next card is known to be {bottom[0]}, cannot draw {card}")
            return Deck._checked_parts(unknown, top, bottom[1:], 0)
        raise ValueError("cannot draw from an empty deck")

    def _unknown_without(self, card: int) -> tuple[int, ...]:
        """The unknown copies with one `card` fewer; ValueError if the unknown part holds no `card`."""
        unknown = self.unknown
        if not 0 <= card < len(unknown) or unknown[card] == 0:
            raise ValueError(f"card {card} is not in the deck's unknown part {unknown}")
        copies = list(unknown)
        copies[card] -= 1
        return tuple(copies)

    def reveal_next_unknown(self, card: int) -> Deck:
        """The deck after the first unknown card was looked at and is `card`: it joins the known top cards."""
        unknown = self._unknown_without(card)
        card = operator.index(card)
        return Deck._checked_parts(unknown, (*self.top, card), self.bottom, self._unknown_size - 1)

    def put_on_top(self, card: int) -> Deck:
        """The deck with `card` placed face down on top (a known card)."""
        card = _placed_card(card, len(self.unknown), "deck top")
        return Deck._checked_parts(self.unknown, (card, *self.top), self.bottom, self._unknown_size)

    def put_on_bottom(self, card: int) -> Deck:
        """The deck with `card` placed face down underneath (a known card)."""
        card = _placed_card(card, len(self.unknown), "deck bottom")
        return Deck._checked_parts(self.unknown, self.top, (*self.bottom, card), self._unknown_size)

    def shuffle_into_unknown(self) -> Deck:
        """The deck after a shuffle: every card joins the unknown multiset."""
        return Deck._checked_parts(self.counts(), (), (), self.size)

    def to_dict(self) -> dict[str, list[int]]:
        """JSON-able form: ``{"unknown": [...], "top": [...], "bottom": [...]}``."""
        return {"unknown": list(self.unknown), "top": list(self.top), "bottom": list(self.bottom)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Iterable[int]]) -> Deck:
        """Inverse of `to_dict`; `top` and `bottom` may be left out; a missing or unknown key is a ValueError."""
        _check_keys(data, required=("unknown",), optional=("top", "bottom"), what="Deck.from_dict")
        return cls(unknown=tuple(data["unknown"]), top=tuple(data.get("top", ())), bottom=tuple(data.get("bottom", ())))


def _check_keys(data: Mapping[str, object], required: tuple[str, ...], optional: tuple[str, ...], what: str) -> None:
    """ValueError naming the missing required keys and the keys that are neither required nor optional."""
    missing = [key for key in required if key not in data]
    if missing:
        raise ValueError(f"{what}: missing key(s) {missing}")
    unknown = sorted(str(key) for key in data if key not in required and key not in optional)
    if unknown:
        raise ValueError(f"{what}: unknown key(s) {unknown}; the keys are {[*required, *optional]}")


@final
@dataclass(frozen=True, slots=True)
class UniqueDeck:
    """An ordered face-down deck of single-copy cards: known top, an unknown set of card ids, known bottom."""

    num_card_ids: int
    """How many card ids the game has (the length of `counts()`); cards are ids 0..num_card_ids-1."""
    unknown: frozenset[int] = frozenset()
    """The card ids in the unknown middle part, in a uniformly random order."""
    top: tuple[int, ...] = ()
    """Known cards on top, top card first."""
    bottom: tuple[int, ...] = ()
    """Known cards at the bottom, in drawing order: `bottom[-1]` is the very bottom card."""

    def __post_init__(self) -> None:
        try:
            num_card_ids = operator.index(self.num_card_ids)
        except TypeError:
            raise TypeError(f"UniqueDeck num_card_ids must be an integer, got {self.num_card_ids!r}") from None
        if num_card_ids < 0:
            raise ValueError(f"UniqueDeck num_card_ids must be >= 0, got {num_card_ids}")
        unknown = _card_ids(self.unknown, "UniqueDeck unknown")
        top = _card_ids(self.top, "UniqueDeck top")
        bottom = _card_ids(self.bottom, "UniqueDeck bottom")
        for cards, what in ((unknown, "UniqueDeck unknown"), (top, "UniqueDeck top"), (bottom, "UniqueDeck bottom")):
            _check_in_range(cards, num_card_ids, what)
        every_card = (*top, *unknown, *bottom)
        if len(set(every_card)) != len(every_card):
            repeated = sorted({card for card in every_card if every_card.count(card) > 1})
            raise ValueError(
                f"UniqueDeck holds cards {repeated} more than once (top {list(top)}, unknown {sorted(unknown)}, "
                f"bottom {list(bottom)}): each card has one copy; use Deck for several copies"
            )
        _set_field(self, "num_card_ids", num_card_ids)
        _set_field(self, "unknown", frozenset(unknown))
        _set_field(self, "top", top)
        _set_field(self, "bottom", bottom)

    @staticmethod
    def _checked_parts(
        num_card_ids: int, unknown: frozenset[int], top: tuple[int, ...], bottom: tuple[int, ...]
    ) -> UniqueDeck:
        """A deck from parts already checked (the methods' path: no validation)."""
        deck = object.__new__(UniqueDeck)
        _set_field(deck, "num_card_ids", num_card_ids)
        _set_field(deck, "unknown", unknown)
        _set_field(deck, "top", top)
        _set_field(deck, "bottom", bottom)
        return deck

    @classmethod
    def from_cards(cls, num_card_ids: int, cards: Iterable[int]) -> UniqueDeck:
        """A freshly shuffled deck of `cards` (distinct card ids out of `num_card_ids`), nothing known."""
        return cls(num_card_ids, frozenset(_distinct_cards(cards)))

    @classmethod
    def from_counts(cls, counts: Iterable[int]) -> UniqueDeck:
        """A freshly shuffled deck from copies per card id, each 0 or 1 (the `Deck.from_counts` input)."""
        copies = _card_ids(counts, "UniqueDeck counts")
        several = [card for card, count in enumerate(copies) if count not in (0, 1)]
        if several:
            raise ValueError(
                f"UniqueDeck counts must be 0 or 1 per card id; cards {several} have "
                f"{[copies[card] for card in several]} (use Deck for several copies)"
            )
        return cls(len(copies), frozenset(card for card, count in enumerate(copies) if count))

    @classmethod
    def empty(cls, num_card_ids: int) -> UniqueDeck:
        """An empty deck over `num_card_ids` card ids."""
        return cls(num_card_ids)

    @property
    def unknown_size(self) -> int:
        """Number of cards in the unknown middle part."""
        return len(self.unknown)

    @property
    def size(self) -> int:
        """Number of cards in the deck."""
        return len(self.top) + len(self.unknown) + len(self.bottom)

    def __len__(self) -> int:
        return len(self.top) + len(self.unknown) + len(self.bottom)

    def counts(self) -> tuple[int, ...]:
        """Copies per card id in the whole deck (0 or 1 each, known and unknown)."""
        counts = [0] * self.num_card_ids
        for card in self.unknown:
            counts[card] = 1
        for card in self.top:
            counts[card] = 1
        for card in self.bottom:
            counts[card] = 1
        return tuple(counts)

    def draw_outcomes(self) -> list[tuple[int, float]]:
        """Chance outcomes of a draw: a known top card surely, else uniform over the unknown set in card id order,
        else the bottom (the outcomes and probabilities of a `Deck` with one copy of each card)."""
        if self.top:
            return [(self.top[0], 1.0)]
        if self.unknown:
            # Sorted, so equal decks list their outcomes in the same order and a seeded draw picks the same card.
            probability = 1 / len(self.unknown)
            return [(card, probability) for card in sorted(self.unknown)]
        if self.bottom:
            return [(self.bottom[0], 1.0)]
        raise ValueError("cannot draw from an empty deck")

    def draw(self, card: int) -> UniqueDeck:
        """The deck after its top card turned out to be `card` (an outcome of `draw_outcomes`); ValueError otherwise."""
        top, unknown, bottom = self.top, self.unknown, self.bottom
        if top:
            if card != top[0]:
                raise ValueError(f"the top card is known to be {top[0]}, cannot draw {card}")
            return UniqueDeck._checked_parts(self.num_card_ids, unknown, top[1:], bottom)
        if unknown:
            return UniqueDeck._checked_parts(self.num_card_ids, self._unknown_without(card), top, bottom)
        if bottom:
            if card != bottom[0]:
                raise ValueError(f"the next card is known to be {bottom[0]}, cannot draw {card}")
            return UniqueDeck._checked_parts(self.num_card_ids, unknown, top, bottom[1:])
        raise ValueError("cannot draw from an empty deck")

    def _unknown_without(self, card: int) -> frozenset[int]:
        """The unknown set without `card`; ValueError if it is not there."""
        if card not in self.unknown:
            raise ValueError(f"card {card} is not in the deck's unknown part {sorted(self.unknown)}")
        return self.unknown - {card}

    def reveal_next_unknown(self, card: int) -> UniqueDeck:
        """The deck after the first unknown card was looked at and is `card`: it joins the known top cards."""
        unknown = self._unknown_without(card)
        card = operator.index(card)
        return UniqueDeck._checked_parts(self.num_card_ids, unknown, (*self.top, card), self.bottom)

    def put_on_top(self, card: int) -> UniqueDeck:
        """The deck with `card` placed face down on top (a known card); ValueError if the deck already holds it."""
        card = self._new_card(card, "UniqueDeck top")
        return UniqueDeck._checked_parts(self.num_card_ids, self.unknown, (card, *self.top), self.bottom)

    def put_on_bottom(self, card: int) -> UniqueDeck:
        """The deck with `card` placed face down underneath (a known card); ValueError if the deck already holds it."""
        card = self._new_card(card, "UniqueDeck bottom")
        return UniqueDeck._checked_parts(self.num_card_ids, self.unknown, self.top, (*self.bottom, card))

    def _new_card(self, card: int, what: str) -> int:
        """`card` checked as a card id the deck does not hold yet, as a Python int."""
        card = _placed_card(card, self.num_card_ids, what)
        if card in self.unknown or card in self.top or card in self.bottom:
            raise ValueError(f"{what}: card {card} is already in the deck (a UniqueDeck holds one copy of each card)")
        return card

    def shuffle_into_unknown(self) -> UniqueDeck:
        """The deck after a shuffle: every card joins the unknown set."""
        return UniqueDeck._checked_parts(self.num_card_ids, self.unknown.union(self.top, self.bottom), (), ())

    def to_dict(self) -> dict[str, int | list[int]]:
        """JSON-able form: ``{"num_card_ids": n, "unknown": [sorted card ids], "top": [...], "bottom": [...]}``."""
        return {
            "num_card_ids": self.num_card_ids,
            "unknown": sorted(self.unknown),
            "top": list(self.top),
            "bottom": list(self.bottom),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> UniqueDeck:
        """Inverse of `to_dict`; `unknown`, `top` and `bottom` may be left out; a missing or unknown key is refused."""
        _check_keys(
            data, required=("num_card_ids",), optional=("unknown", "top", "bottom"), what="UniqueDeck.from_dict"
        )
        for key in ("unknown", "top", "bottom"):
            if isinstance(data.get(key, ()), (int, str)):
                raise TypeError(f"UniqueDeck.from_dict: {key} must be a list of card ids, got {data[key]!r}")
        unknown = frozenset(_distinct_cards(data.get("unknown", ())))
        return cls(data["num_card_ids"], unknown, tuple(data.get("top", ())), tuple(data.get("bottom", ())))


def _distinct_cards(cards: Iterable[int]) -> tuple[int, ...]:
    """`cards` as Python ints; ValueError naming the cards listed twice (a set would silently drop them)."""
    ids = _card_ids(cards, "UniqueDeck unknown")
    if len(set(ids)) != len(ids):
        repeated = sorted({card for card in ids if ids.count(card) > 1})
        raise ValueError(f"UniqueDeck unknown lists cards {repeated} more than once: each card has one copy")
    return ids
