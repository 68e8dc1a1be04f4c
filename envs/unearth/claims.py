"""Resolving a claim on one Unearth Ruin: is it claimed, who wins it (or is the tie unbreakable), who draws Delvers.

A pure rule over the dice on one Ruin; no game state. The rules, as decided (copied into RULES.md, "Claims"):

- **Claimed** when the dice on the Ruin total at least its claim value ("check to see if the total of all the dice
  on any Ruins Card is greater than or equal to the claim value"); below it nothing happens.
- **The winner** is decided between players, never between one player's own dice. Each player's dice are ranked by
  value shown, highest first, and on equal values by size, bigger first: the player's *tie-break key* is that list
  of ``(value, faces)`` pairs, padded with ``(0, 0)`` for missing dice ("assumed to have a zero value"). The player
  with the greatest key wins: compare the highest dice by value, then by size ("the bigger die wins"), then the
  second highest dice by value and size, and so on. The rulebook's second picture (both 5s on d6s, then Blue's d8
  showing 4 beats Red's d6 showing 4) shows that size decides again at the next-highest step.
- **Unbreakable tie**: two or more players with equal keys at the top (the same values on the same sizes of dice,
  e.g. "only two opposing six-sided dice showing the same value"). Nobody gets the Ruin.
- **Delver draws**: every player other than the winner draws one Delver card per die they had on the Ruin; on an
  unbreakable tie every player with dice there does, the tied players included.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

MISSING_DIE: tuple[int, int] = (0, 0)
"""A die a player does not have, in the tie-break: "they are assumed to have a zero value" (and no size)."""

TieBreakKey = tuple[tuple[int, int], ...]
"""A player's dice on a Ruin as ``(value, faces)`` pairs, strongest first, for comparing players."""


class PlacedDie(NamedTuple):
    """A die on a Ruin: its owner's seat, its number of faces (4, 6 or 8) and the value it shows."""

    owner: int
    faces: int
    value: int


@dataclass(frozen=True)
class ClaimResult:
    """The outcome of checking one Ruin: claimed or not, the winner or an unbreakable tie, and the Delver draws."""

    claimed: bool
    """The dice total at least the claim value."""
    winner: int | None
    """The seat that takes the Ruin; None if not claimed or on an unbreakable tie."""
    tied: tuple[int, ...]
    """The seats tied beyond breaking (sorted), empty unless the tie is unbreakable."""
    delver_draws: Mapping[int, int]
    """Delver cards each seat draws (seats with dice on the Ruin only); empty if not claimed."""

    @property
    def unbreakable_tie(self) -> bool:
        """Whether the claim ended in an unbreakable tie (the Ruin goes back to the box)."""
        return bool(self.tied)


def dice_total(dice: Iterable[PlacedDie]) -> int:
    """The total of all the dice on a Ruin."""
    return sum(die.value for die in dice)


def is_claimed(claim_value: int, dice: Iterable[PlacedDie]) -> bool:
    """Whether the dice on a Ruin reach its claim value ("greater than or equal to the claim value")."""
    return dice_total(dice) >= claim_value


def dice_by_owner(dice: Iterable[PlacedDie]) -> dict[int, list[PlacedDie]]:
    """The dice on a Ruin grouped by owner seat (seats in ascending order)."""
    grouped: dict[int, list[PlacedDie]] = {}
    for die in sorted(dice, key=lambda die: die.owner):
        grouped.setdefault(die.owner, []).append(die)
    return grouped


def tie_break_key(player_dice: Iterable[PlacedDie], length: int = 0) -> TieBreakKey:
    """One player's dice as ``(value, faces)``, highest value first and bigger die first on equal values, padded with
    MISSING_DIE to `length`."""
    ranked = sorted(((die.value, die.faces) for die in player_dice), reverse=True)
    return tuple(ranked) + (MISSING_DIE,) * max(0, length - len(ranked))


def leading_seats(by_owner: dict[int, list[PlacedDie]]) -> tuple[int, ...]:
    """The seats whose dice rank first by the tie-break (one seat: it would claim; several: an unbreakable tie).

    `by_owner` is `dice_by_owner` of a Ruin's dice (not empty); keys as `tie_break_key`, padded to the longest."""
    longest = max(len(owned) for owned in by_owner.values())
    keys = {seat: tie_break_key(owned, longest) for seat, owned in by_owner.items()}
    best = max(keys.values())
    return tuple(seat for seat, key in keys.items() if key == best)


def _check_die(die: PlacedDie) -> None:
    """Raise ValueError unless the die is a real die showing one of its faces."""
    if die.owner < 0 or die.faces < 1 or not 1 <= die.value <= die.faces:
        raise ValueError(f"not a die on a Ruin (owner >= 0, value between 1 and its faces): {die!r}")


def resolve_claim(claim_value: int, dice: Sequence[PlacedDie]) -> ClaimResult:
    """Check a Ruin with `claim_value` holding `dice`: claimed or not, its winner or unbreakable tie, Delver draws."""
    placed = [PlacedDie(*die) for die in dice]
    for die in placed:
        _check_die(die)
    if not placed or not is_claimed(claim_value, placed):  # a Ruin without dice is never claimed
        return ClaimResult(claimed=False, winner=None, tied=(), delver_draws={})
    by_owner = dice_by_owner(placed)
    leaders = leading_seats(by_owner)
    winner = leaders[0] if len(leaders) == 1 else None
    draws = {seat: len(owned) for seat, owned in by_owner.items() if seat != winner}
    return ClaimResult(claimed=True, winner=winner, tied=leaders if winner is None else (), delver_draws=draws)


__all__ = [
    "MISSING_DIE",
    "ClaimResult",
    "PlacedDie",
    "TieBreakKey",
    "dice_by_owner",
    "dice_total",
    "is_claimed",
    "leading_seats",
    "resolve_claim",
    "tie_break_key",
]
