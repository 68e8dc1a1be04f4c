"""What the rules core's hot pieces cost: deck draws and placements, and the default chance sampler, before and after.

Each figure is microseconds per call, the median over alternating rounds in one run, so the reference and the
current code share the machine's state:

- **Deck** at `--card-ids` card ids, one copy each (a deck of distinct cards): `draw` from the unknown part and
  `put_on_bottom`, for `ReferenceDeck` (the Deck that re-validated every field on every update, kept here as the
  reference), today's `Deck` (validation at the boundary only) and `UniqueDeck` (the unknown part as a set);
- **sample_chance** on a two-outcome node and on a node with `--card-ids` outcomes: `reference_sample_chance` (the
  former numpy default, kept here as the reference) against today's `State.sample_chance`. The run also checks that
  both pick the same outcome for the same generator state, and the report says so.

    python -m benchmarks.core_components [--card-ids 126] [--number 20000] [--rounds 5] [--out STEM]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import timeit
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.common import RESULTS_DIR, write_report
from envs.core.components import Deck, UniqueDeck, pile_outcomes
from envs.core.game import CHANCE, State

# --- References: the implementations before boundary-only validation and the pure-Python sampler, verbatim ----------


@dataclass(frozen=True)
class ReferenceDeck:
    """The former `Deck`: `__post_init__` converts and range-checks every field on every `replace` (the reference)."""

    unknown: tuple[int, ...]
    top: tuple[int, ...] = ()
    bottom: tuple[int, ...] = ()

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
    def from_counts(cls, counts: Iterable[int]) -> ReferenceDeck:
        """A freshly shuffled deck: copies per card id, nothing known."""
        return cls(unknown=tuple(counts))

    @property
    def num_card_ids(self) -> int:
        """How many card ids the deck's counts cover."""
        return len(self.unknown)

    @property
    def unknown_size(self) -> int:
        """Number of cards in the unknown middle part."""
        return sum(self.unknown)

    def draw_outcomes(self) -> list[tuple[int, float]]:
        """Chance outcomes of a draw: a known top card surely, else the unknown part by copies, else the bottom."""
        if self.top:
            return [(self.top[0], 1.0)]
        if self.unknown_size:
            return pile_outcomes(self.unknown)
        if self.bottom:
            return [(self.bottom[0], 1.0)]
        raise ValueError("cannot draw from an empty deck")

    def draw(self, card: int) -> ReferenceDeck:
        """The deck after its top card turned out to be `card`."""
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

    def put_on_bottom(self, card: int) -> ReferenceDeck:
        """The deck with `card` placed face down underneath (a known card)."""
        return replace(self, bottom=(*self.bottom, card))


def reference_sample_chance(state: State, rng: np.random.Generator) -> int:
    """The former default `State.sample_chance`, built on numpy arrays (the reference)."""
    outcomes = state.chance_outcomes()
    if len(outcomes) == 1:
        return outcomes[0][0]
    probs = np.fromiter((p for _, p in outcomes), dtype=np.float64, count=len(outcomes))
    index = int(np.searchsorted(np.cumsum(probs), rng.random() * probs.sum(), side="right"))
    return outcomes[min(index, len(outcomes) - 1)][0]


class ChanceNodeState(State):
    """A state that is one chance node with fixed outcomes, to time `State.sample_chance` alone."""

    def __init__(self, outcomes: list[tuple[int, float]]) -> None:
        self.outcomes = outcomes

    def current_player(self) -> int:
        """Always nature's turn."""
        return CHANCE

    def legal_actions(self) -> list[int]:
        """None: a chance node."""
        return []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The fixed outcomes."""
        return self.outcomes

    def _apply(self, action: int) -> None:
        raise NotImplementedError("the benchmark only samples")

    def returns(self) -> list[float]:
        """No result."""
        return [0.0]

    def score(self) -> list[float]:
        """No score."""
        return [0.0]

    def to_dict(self) -> dict[str, Any]:
        """The outcomes."""
        return {"outcomes": self.outcomes}

    def clone(self) -> ChanceNodeState:
        """A copy."""
        return ChanceNodeState(list(self.outcomes))

    def chance_label(self, outcome: int) -> str:
        """The outcome's number."""
        return str(outcome)


# --- Timings -----------------------------------------------------------------------------------------------------


def deck_subjects(card_ids: int) -> dict[str, dict[str, Callable[[], object]]]:
    """Per operation, per implementation, a call to time: a draw from the unknown part and a put on the bottom."""
    middle = card_ids // 2
    ones = [1] * card_ids
    reference, deck, unique = ReferenceDeck.from_counts(ones), Deck.from_counts(ones), UniqueDeck.from_counts(ones)
    # put_on_bottom places a card the deck does not hold (a unique deck refuses a second copy).
    reference_less, deck_less, unique_less = reference.draw(middle), deck.draw(middle), unique.draw(middle)
    return {
        f"draw (unknown part, {card_ids} card ids)": {
            "reference Deck": lambda: reference.draw(middle),
            "Deck": lambda: deck.draw(middle),
            "UniqueDeck": lambda: unique.draw(middle),
        },
        f"put_on_bottom ({card_ids} card ids)": {
            "reference Deck": lambda: reference_less.put_on_bottom(middle),
            "Deck": lambda: deck_less.put_on_bottom(middle),
            "UniqueDeck": lambda: unique_less.put_on_bottom(middle),
        },
        f"draw_outcomes ({card_ids} card ids)": {
            "reference Deck": reference.draw_outcomes,
            "Deck": deck.draw_outcomes,
            "UniqueDeck": unique.draw_outcomes,
        },
    }


def chance_nodes(card_ids: int) -> dict[str, list[tuple[int, float]]]:
    """The chance nodes sampled: two unequal outcomes, and a draw from a deck of `card_ids` distinct cards."""
    return {
        "two outcomes": [(0, 0.25), (1, 0.75)],
        f"{card_ids} outcomes": Deck.from_counts([1] * card_ids).draw_outcomes(),
    }


def seeded_sampler(sampler: Callable[[State, np.random.Generator], int], state: State, seed: int) -> Callable[[], int]:
    """A call of `sampler` on `state` with a generator of its own, seeded with `seed`."""
    rng = np.random.default_rng(seed)
    return lambda: sampler(state, rng)


def sampler_subjects(card_ids: int, seed: int) -> dict[str, dict[str, Callable[[], object]]]:
    """Per chance node, the reference sampler and `State.sample_chance`, each with its own seeded generator."""
    return {
        f"sample_chance ({name})": {
            "reference sample_chance": seeded_sampler(reference_sample_chance, ChanceNodeState(outcomes), seed),
            "State.sample_chance": seeded_sampler(State.sample_chance, ChanceNodeState(outcomes), seed),
        }
        for name, outcomes in chance_nodes(card_ids).items()
    }


def samplers_agree(card_ids: int, seed: int, draws: int) -> bool:
    """Whether the reference and `State.sample_chance` pick the same outcome for `draws` generator states per node."""
    for outcomes in chance_nodes(card_ids).values():
        reference = seeded_sampler(reference_sample_chance, ChanceNodeState(outcomes), seed)
        current = seeded_sampler(State.sample_chance, ChanceNodeState(outcomes), seed)
        if any(reference() != current() for _ in range(draws)):
            return False
    return True


def time_subjects(
    subjects: Mapping[str, Mapping[str, Callable[[], object]]], number: int, rounds: int
) -> dict[str, dict[str, list[float]]]:
    """Microseconds per call of every subject, one figure per round; the implementations alternate in each round."""
    figures: dict[str, dict[str, list[float]]] = {op: {name: [] for name in calls} for op, calls in subjects.items()}
    for _ in range(rounds):
        for operation, calls in subjects.items():
            for name, call in calls.items():
                figures[operation][name].append(timeit.timeit(call, number=number) / number * 1e6)
    return figures


def build_parser() -> argparse.ArgumentParser:
    """The command line of the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--card-ids", type=int, default=126, help="card ids of the decks (one copy each)")
    parser.add_argument("--number", type=int, default=20000, help="calls per timing")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds; the report gives the medians")
    parser.add_argument("--seed", type=int, default=0, help="seed of the samplers' generators")
    parser.add_argument("--out", default=None, help="report path stem (default benchmarks/results/core_components)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Time the reference and current implementations in alternating rounds; print and write the medians."""
    parser = build_parser()
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if args.card_ids < 2 or args.number < 1 or args.rounds < 1:
        parser.error("--card-ids must be at least 2, --number and --rounds at least 1")
    subjects = {**deck_subjects(args.card_ids), **sampler_subjects(args.card_ids, args.seed)}
    rounds = time_subjects(subjects, args.number, args.rounds)
    medians = {op: {name: statistics.median(values) for name, values in calls.items()} for op, calls in rounds.items()}
    agree = samplers_agree(args.card_ids, args.seed, draws=10000)
    command = (
        f"python -m benchmarks.core_components --card-ids {args.card_ids} --number {args.number} "
        f"--rounds {args.rounds} --seed {args.seed}"
    )
    lines = [
        "# Core components: before (reference) and after",
        "",
        f"`{command}` (microseconds per call, medians of {args.rounds} alternating rounds of {args.number} calls)",
        "",
        "| operation | reference Deck | Deck | UniqueDeck |",
        "|---|---|---|---|",
        *(
            f"| {op} | {calls['reference Deck']:.2f} | {calls['Deck']:.2f} | {calls['UniqueDeck']:.2f} |"
            for op, calls in medians.items()
            if "reference Deck" in calls
        ),
        "",
        "| operation | reference sample_chance | State.sample_chance |",
        "|---|---|---|",
        *(
            f"| {op} | {calls['reference sample_chance']:.2f} | {calls['State.sample_chance']:.2f} |"
            for op, calls in medians.items()
            if "reference sample_chance" in calls
        ),
        "",
        "Same outcome as the reference for the same generator state on 10000 draws per node: "
        + ("yes" if agree else "NO"),
        "",
    ]
    markdown = "\n".join(lines)
    print(markdown)
    document: dict[str, Any] = {
        "command": command,
        "card_ids": args.card_ids,
        "number": args.number,
        "rounds": rounds,
        "us_per_call": medians,
        "samplers_agree": agree,
    }
    write_report(RESULTS_DIR / "core_components" if args.out is None else Path(args.out), markdown, document)
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
