"""Card piles as multisets of int ids: draws are chance nodes weighted by remaining copies.

`Deck` models an ordered face-down deck as one player can know it: known cards on top (`top`, top card first),
an unknown middle part held only as copies per card id (`unknown`, like the piles: its order is uniformly random,
so a draw from it is a chance node weighted by copies), and known cards at the bottom (`bottom`, in drawing order:
the first is drawn once the middle runs out, the last is the very bottom card). Cards a rule places on top or
underneath are known; a shuffle forgets every position. Card ids index the counts vector, so all decks of a game
cover the same card ids. Decks are immutable: every method returns a new deck, so clones of a state share them.
No randomness here: the caller samples `draw_outcomes()` and applies the outcome with `draw(card)`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace


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


# --- Ordered decks (the model is described in the module docstring) ---------------------------------------------


@dataclass(frozen=True)
class Deck:
    """An ordered face-down deck: known cards on top, an unknown multiset in the middle, known cards below."""

    unknown: tuple[int, ...]
    """Copies per card id in the unknown middle part (its length is the number of card ids)."""
    top: tuple[int, ...] = ()
    """Known cards on top, top card first."""
    bottom: tuple[int, ...] = ()
    """Known cards at the bottom, in drawing order: `bottom[-1]` is the very bottom card."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "unknown", tuple(int(c) for c in self.unknown))
        object.__setattr__(self, "top", tuple(int(c) for c in self.top))
        object.__setattr__(self, "bottom", tuple(int(c) for c in self.bottom))
        if any(copies < 0 for copies in self.unknown):
            raise ValueError(f"deck copies must be >= 0, got {self.unknown}")
        num_ids = len(self.unknown)
        bad = [card for card in (*self.top, *self.bottom) if not 0 <= card < num_ids]
        if bad:
            raise ValueError(f"deck cards {bad} are not card ids 0..{num_ids - 1}")

    @classmethod
    def from_counts(cls, counts: Iterable[int]) -> Deck:
        """A freshly shuffled deck: copies per card id, nothing known."""
        return cls(unknown=tuple(counts))

    @classmethod
    def empty(cls, num_card_ids: int) -> Deck:
        """An empty deck over `num_card_ids` card ids."""
        return cls(unknown=(0,) * num_card_ids)

    @property
    def num_card_ids(self) -> int:
        """How many card ids the deck's counts cover."""
        return len(self.unknown)

    @property
    def unknown_size(self) -> int:
        """Number of cards in the unknown middle part."""
        return sum(self.unknown)

    @property
    def size(self) -> int:
        """Number of cards in the deck."""
        return len(self.top) + self.unknown_size + len(self.bottom)

    def __len__(self) -> int:
        return self.size

    def counts(self) -> tuple[int, ...]:
        """Copies per card id in the whole deck (known and unknown)."""
        counts = list(self.unknown)
        for card in (*self.top, *self.bottom):
            counts[card] += 1
        return tuple(counts)

    def draw_outcomes(self) -> list[tuple[int, float]]:
        """Chance outcomes of a draw: a known top card surely, else the unknown part by copies, else the bottom."""
        if self.top:
            return [(self.top[0], 1.0)]
        if self.unknown_size:
            return pile_outcomes(self.unknown)
        if self.bottom:
            return [(self.bottom[0], 1.0)]
        raise ValueError("cannot draw from an empty deck")

    def draw(self, card: int) -> Deck:
        """The deck after its top card turned out to be `card` (an outcome of `draw_outcomes`); ValueError otherwise."""
        if self.top:
            if card != self.top[0]:
                raise ValueError(f"the top card is known to be {self.top[0]}, cannot draw {card}")
            return replace(self, top=self.top[1:])
        if self.unknown_size:
            if not 0 <= card < self.num_card_ids or self.unknown[card] == 0:
                raise ValueError(f"card {card} is not in the deck's unknown part {self.unknown}")
            unknown = list(self.unknown)
            unknown[card] -= 1
            return replace(self, unknown=tuple(unknown))
        if self.bottom:
            if card != self.bottom[0]:
                raise ValueError(f"the next card is known to be {self.bottom[0]}, cannot draw {card}")
            return replace(self, bottom=self.bottom[1:])
        raise ValueError("cannot draw from an empty deck")

    def reveal_next_unknown(self, card: int) -> Deck:
        """The deck after the first unknown card was looked at and is `card`: it joins the known top cards."""
        if not 0 <= card < self.num_card_ids or self.unknown[card] == 0:
            raise ValueError(f"card {card} is not in the deck's unknown part {self.unknown}")
        unknown = list(self.unknown)
        unknown[card] -= 1
        return replace(self, unknown=tuple(unknown), top=(*self.top, card))

    def put_on_top(self, card: int) -> Deck:
        """The deck with `card` placed face down on top (a known card)."""
        return replace(self, top=(card, *self.top))

    def put_on_bottom(self, card: int) -> Deck:
        """The deck with `card` placed face down underneath (a known card)."""
        return replace(self, bottom=(*self.bottom, card))

    def shuffle_into_unknown(self) -> Deck:
        """The deck after a shuffle: every card joins the unknown multiset."""
        return Deck(unknown=self.counts())

    def to_dict(self) -> dict[str, list[int]]:
        """JSON-able form: ``{"unknown": [...], "top": [...], "bottom": [...]}``."""
        return {"unknown": list(self.unknown), "top": list(self.top), "bottom": list(self.bottom)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Iterable[int]]) -> Deck:
        """Inverse of `to_dict`; `top` and `bottom` may be left out."""
        return cls(unknown=tuple(data["unknown"]), top=tuple(data.get("top", ())), bottom=tuple(data.get("bottom", ())))
