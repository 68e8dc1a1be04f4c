"""End-of-game scoring in Unearth: each player's points by source, the tie-break by claim values, and the places.

A pure rule over what each player holds at the end; no game state. The rules, as decided (copied into RULES.md,
"Scoring"):

- **Ruin sets**: the Ruins of each of the 5 colours, face-up and hidden alike ("Players reveal their hidden Ruins
  Card and score points for each set"), score by the rulebook's table: 1 -> 2, 2 -> 6, 3 -> 12, 4 -> 20, 5 -> 30.
- **Sets of one of each colour**: +5 per complete set, as many sets as the colour held fewest ("This may be scored
  multiple times for multiple sets"); the same Ruins also count in their colour's set ("Ruins may be scored both
  within their type, and within a set of mixed types").
- **End of Age Ruins** have no colour: each scores only its printed points (City of Gold 7, City of Ash -4).
- **Wonders**: Lesser and Greater token values, Named Wonders' printed points, and the end-game effects of Named
  Wonders: `points_per_stone` (points per Stone of its colour), `points_per_stone_colour` (points per Stone colour
  held at least once), `points_per_scarcest_stone` (points per Stone of the colour held fewest of, a colour held 0
  times counting as 0). Other effect kinds act during play and score nothing here. Stones held are the Stones in the
  player's tableau.
- **Three or more Wonders** of any kind (Lesser, Greater, Named) score +5 once.
- **Tie-break**: "the player with the most Ruins of the highest claim value wins": each player's key counts their
  Ruins of each claim value from the highest down; the greater key wins. Hidden Ruins (revealed at the end) and End
  of Age Ruins (by their claim value) count. Players equal in points and key share the place.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from envs.core.outcomes import ranks
from envs.unearth.cards import RUIN_COLOURS, NamedWonder, Ruin

RUIN_SET_POINTS: tuple[int, ...] = (0, 2, 6, 12, 20, 30)
"""Points for a set of matching Ruins by its size: "One of any color 2 points" ... "Five of the same color 30"."""
MIXED_SET_BONUS = 5
"""Rulebook: "an additional 5 points for collecting a set of one of each of the 5 colors of Ruins"."""
WONDERS_FOR_BONUS = 3
"""Rulebook: "an additional 5 points for building three or more Wonders (irrespective of type)"."""
WONDER_COUNT_BONUS = 5

TieBreakKey = tuple[int, ...]
"""A player's number of Ruins of each claim value, from the highest claim value in the game down."""


@dataclass(frozen=True)
class PlayerHoldings:
    """What one player has at the end of the game, as the scoring reads it."""

    ruins: tuple[Ruin, ...] = ()
    """Claimed Ruins, face up (End of Age Ruins included)."""
    hidden_ruins: tuple[Ruin, ...] = ()
    """The hidden Ruin dealt at setup and any added by a Named Wonder, revealed at the end."""
    stones: tuple[int, ...] = ()
    """Stones in the tableau per Stone colour index (data/stones.yaml's order)."""
    lesser_wonders: tuple[int, ...] = ()
    """Points on each Lesser Wonder token built."""
    greater_wonders: tuple[int, ...] = ()
    """Points on each Greater Wonder token built."""
    named_wonders: tuple[NamedWonder, ...] = ()

    @property
    def all_ruins(self) -> tuple[Ruin, ...]:
        """Every Ruin the player scores: face-up and hidden."""
        return self.ruins + self.hidden_ruins

    @property
    def wonder_count(self) -> int:
        """Wonders built, of any kind."""
        return len(self.lesser_wonders) + len(self.greater_wonders) + len(self.named_wonders)


@dataclass(frozen=True)
class ScoreBreakdown:
    """One player's end-of-game points by source; `total` adds them."""

    ruin_sets: int
    """Sets of matching Ruins, by the table."""
    mixed_sets: int
    """+5 per set of one of each colour."""
    end_of_age_ruins: int
    """Printed points of End of Age Ruins."""
    wonder_tokens: int
    """Lesser and Greater Wonder token values."""
    named_wonders: int
    """Named Wonders' printed points."""
    named_wonder_effects: int
    """Named Wonders' end-game effects."""
    wonder_count_bonus: int
    """+5 for three or more Wonders."""

    @property
    def ruin_points(self) -> int:
        """Points from Ruins: matching sets, mixed sets and End of Age Ruins."""
        return self.ruin_sets + self.mixed_sets + self.end_of_age_ruins

    @property
    def wonder_points(self) -> int:
        """Points from Wonders: tokens, Named Wonders' points and effects, the three-Wonder bonus."""
        return self.wonder_tokens + self.named_wonders + self.named_wonder_effects + self.wonder_count_bonus

    @property
    def total(self) -> int:
        """The player's final score."""
        return self.ruin_points + self.wonder_points


@dataclass(frozen=True)
class FinalStandings:
    """Every player's breakdown, tie-break key and place (1 best; players still tied share a place)."""

    breakdowns: tuple[ScoreBreakdown, ...]
    tie_break_keys: tuple[TieBreakKey, ...]
    tie_broken_scores: tuple[float, ...]
    """Totals plus a fraction below 1 that orders players tied on points by their key: what `ranks` and
    `rank_returns` of envs.core.outcomes take."""
    places: tuple[int, ...]

    @property
    def totals(self) -> tuple[int, ...]:
        """Every player's final score."""
        return tuple(breakdown.total for breakdown in self.breakdowns)

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats in first place (more than one only if still tied after the tie-break)."""
        return tuple(seat for seat, place in enumerate(self.places) if place == 1)


def ruin_set_points(count: int) -> int:
    """Points for `count` Ruins of one colour; ValueError beyond the table."""
    if not 0 <= count < len(RUIN_SET_POINTS):
        raise ValueError(f"a colour set scores 0 to {len(RUIN_SET_POINTS) - 1} Ruins, got {count}")
    return RUIN_SET_POINTS[count]


def ruins_per_colour(ruins: Iterable[Ruin]) -> tuple[int, ...]:
    """How many Ruins of each of the 5 colours (End of Age Ruins, which have no colour, are not counted)."""
    counts = Counter(ruin.colour for ruin in ruins if ruin.colour is not None)
    return tuple(counts[colour] for colour in range(RUIN_COLOURS))


def matching_set_points(ruins: Iterable[Ruin]) -> int:
    """Points for the sets of matching Ruins, one set per colour."""
    return sum(ruin_set_points(count) for count in ruins_per_colour(ruins))


def mixed_set_points(ruins: Iterable[Ruin]) -> int:
    """+5 for each complete set of one Ruin of each colour."""
    return MIXED_SET_BONUS * min(ruins_per_colour(ruins))


def end_of_age_ruin_points(ruins: Iterable[Ruin]) -> int:
    """The printed points of the End of Age Ruins among `ruins`."""
    return sum(ruin.points for ruin in ruins if ruin.colour is None)


def named_wonder_end_points(wonder: NamedWonder, stones: Sequence[int]) -> int:
    """A Named Wonder's end-game effect in points, given the Stones per colour; 0 for effects that act in play."""
    effect = wonder.effect
    if effect.kind == "points_per_stone":
        if effect.colour is None or not 0 <= effect.colour < len(stones):
            raise ValueError(f"{wonder.name}: Stone colour {effect.colour!r} not among {len(stones)} colours")
        return effect.points * stones[effect.colour]
    if effect.kind == "points_per_stone_colour":
        return effect.points * sum(1 for count in stones if count > 0)
    if effect.kind == "points_per_scarcest_stone":
        return effect.points * min(stones, default=0)
    return 0


def score_player(holdings: PlayerHoldings) -> ScoreBreakdown:
    """One player's end-of-game points, by source."""
    ruins = holdings.all_ruins
    return ScoreBreakdown(
        ruin_sets=matching_set_points(ruins),
        mixed_sets=mixed_set_points(ruins),
        end_of_age_ruins=end_of_age_ruin_points(ruins),
        wonder_tokens=sum(holdings.lesser_wonders) + sum(holdings.greater_wonders),
        named_wonders=sum(wonder.points for wonder in holdings.named_wonders),
        named_wonder_effects=sum(named_wonder_end_points(wonder, holdings.stones) for wonder in holdings.named_wonders),
        wonder_count_bonus=WONDER_COUNT_BONUS if holdings.wonder_count >= WONDERS_FOR_BONUS else 0,
    )


def tie_break_key(ruins: Iterable[Ruin], claim_values: Sequence[int]) -> TieBreakKey:
    """The player's number of Ruins of each of `claim_values` (highest first): the greater key wins a tie."""
    counts = Counter(ruin.claim for ruin in ruins)
    return tuple(counts[value] for value in sorted(claim_values, reverse=True))


def tie_broken_scores(totals: Sequence[int], keys: Sequence[TieBreakKey]) -> list[float]:
    """Totals plus a fraction in [0, 1) ranking the players tied on points by key; equal keys get equal fractions."""
    scores = []
    for total, key in zip(totals, keys, strict=True):
        tied_keys = sorted({other for other_total, other in zip(totals, keys, strict=True) if other_total == total})
        scores.append(total + tied_keys.index(key) / len(tied_keys))
    return scores


def final_standings(players: Sequence[PlayerHoldings]) -> FinalStandings:
    """Score every player, break ties on points by claim values, and place them (shared places for full ties)."""
    breakdowns = tuple(score_player(holdings) for holdings in players)
    claim_values = sorted({ruin.claim for holdings in players for ruin in holdings.all_ruins}, reverse=True)
    keys = tuple(tie_break_key(holdings.all_ruins, claim_values) for holdings in players)
    scores = tuple(tie_broken_scores([breakdown.total for breakdown in breakdowns], keys))
    return FinalStandings(breakdowns, keys, scores, tuple(ranks(scores)))


__all__ = [
    "MIXED_SET_BONUS",
    "RUIN_SET_POINTS",
    "WONDERS_FOR_BONUS",
    "WONDER_COUNT_BONUS",
    "FinalStandings",
    "PlayerHoldings",
    "ScoreBreakdown",
    "TieBreakKey",
    "end_of_age_ruin_points",
    "final_standings",
    "matching_set_points",
    "mixed_set_points",
    "named_wonder_end_points",
    "ruin_set_points",
    "ruins_per_colour",
    "score_player",
    "tie_break_key",
    "tie_broken_scores",
]
