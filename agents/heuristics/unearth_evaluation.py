"""Unearth's evaluation for search agents: how good a position is for a seat, in points, from what it may see.

`evaluate(state, seat)` is the seat's points in sight minus the best other seat's (the record's `evaluation`; the
lookahead agent, agents/players/lookahead.py, scores positions by it):

- **Points in sight** follow the rulebook's scoring (envs/unearth/scoring.py `score_player`): claimed Ruins, Named
  Wonders and their end-game effects, the three-Wonder bonus. The seat counts its own hidden Ruins and its own
  face-down Wonder tokens, which it knows; another seat's face-down tokens count at the mean value of the tokens the
  seat has not seen (the game's tokens less its own), and another seat's hidden Ruins are not counted (unknown).
- **Progress** not yet in the score: a Stone on the tableau is worth `STONE_POINTS` (rings of Stones make Wonders),
  a Delver card in hand `HAND_CARD_POINTS`, and the Ruin the seat alone leads with dice on it a share of what the
  Ruin would add to its sets (`LEAD_SHARE` times the dice's progress toward the claim value).
- **At the end** the real standings (every hidden Ruin and token is revealed then): the points difference plus
  `WIN_POINTS` times the seat's result (+1 win, -1 loss, 0 shared first place).
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from envs.unearth.claims import dice_by_owner, dice_total, leading_seats
from envs.unearth.rules import UnearthState
from envs.unearth.scoring import (
    PlayerHoldings,
    end_of_age_ruin_points,
    matching_set_points,
    mixed_set_points,
    score_player,
)
from envs.unearth.tableau import RING_SIZE, Tableau

STONE_POINTS = 1.0
"""Worth of a Stone on the tableau (six around an empty cell close a ring: a Wonder of about 3-7 points)."""
RING_POINTS = 3.0
"""Worth of a ring under way, times the squared share of its six cells holding Stones (summed over the centres)."""
HAND_CARD_POINTS = 0.5
"""Worth of a Delver card in hand (it can swing a claim later)."""
LEAD_SHARE = 0.5
"""Share of a Ruin's worth credited to the sole leader of the dice on it, times their progress toward its claim."""
WIN_POINTS = 20.0
"""Points a finished game's result (+1 win, -1 loss) is worth beside the final points difference."""


def evaluate(state: UnearthState, seat: int) -> float:
    """`seat`'s points in sight minus the best other seat's (progress included); at the end, the result and margin."""
    others = [other for other in range(state.num_players) if other != seat]
    if state.over:
        totals = state.standings().tie_broken_scores
        margin = totals[seat] - max(totals[other] for other in others)
        return WIN_POINTS * state.returns()[seat] + margin
    own = points_in_sight(state, seat, seat)
    return own - max(points_in_sight(state, seat, other) for other in others)


def points_in_sight(state: UnearthState, viewer: int, seat: int) -> float:
    """`seat`'s points and progress as `viewer` may count them (its own hidden cards only when seat == viewer)."""
    ruins = state.game.ruins
    named = state.game.cards.named_wonders
    own = seat == viewer
    lesser, greater = state.lesser_built[seat], state.greater_built[seat]
    holdings = PlayerHoldings(
        ruins=tuple(ruins[r] for r in state.claimed[seat]),
        hidden_ruins=tuple(ruins[r] for r in state.hidden_ruins[seat]) if own else (),
        stones=state.tableaus[seat].stones_by_colour,
        lesser_wonders=lesser if own else (0,) * len(lesser),
        greater_wonders=greater if own else (0,) * len(greater),
        named_wonders=tuple(named[k] for k in state.named_built[seat]),
    )
    points = float(score_player(holdings).total)
    if not own:
        cards = state.game.cards
        points += len(lesser) * _unseen_token_mean(cards.lesser_tokens, state.lesser_built[viewer])
        points += len(greater) * _unseen_token_mean(cards.greater_tokens, state.greater_built[viewer])
    points += STONE_POINTS * state.tableaus[seat].stone_count + _ring_progress(state.tableaus[seat])
    points += HAND_CARD_POINTS * sum(state.hands[seat])
    return points + _leads(state, seat, holdings)


def _ring_progress(tableau: Tableau) -> float:
    """Credit for the rings under way: RING_POINTS times the squared share of each empty centre's ring filled."""
    interior = np.frombuffer(tableau.geometry.interior, dtype=np.uint8).astype(bool)
    filled = tableau.ring_progress()[interior].astype(np.float64) / RING_SIZE
    return RING_POINTS * float(np.dot(filled, filled))


def _unseen_token_mean(tokens: tuple[int, ...], known: tuple[int, ...]) -> float:
    """Mean value of the Wonder tokens a seat has not seen: every token of the game less the ones it built."""
    unseen = Counter(tokens)
    unseen.subtract(known)
    values = list(unseen.elements())
    return sum(values) / len(values) if values else 0.0


def _ruin_points(holdings: PlayerHoldings) -> int:
    """Points the Ruins of `holdings` score (sets, mixed sets, End of Age Ruins)."""
    ruins = holdings.all_ruins
    return matching_set_points(ruins) + mixed_set_points(ruins) + end_of_age_ruin_points(ruins)


def _leads(state: UnearthState, seat: int, holdings: PlayerHoldings) -> float:
    """Credit for the Ruins on the table whose dice `seat` alone leads: a share of what each would add."""
    ruins = state.game.ruins
    before = _ruin_points(holdings)
    credit = 0.0
    for place in state.ruins_on_table():
        dice = state.dice_on(place)
        if not dice or leading_seats(dice_by_owner(dice)) != (seat,):
            continue
        ruin = ruins[state.table[place]]
        gain = _ruin_points(PlayerHoldings(ruins=(*holdings.ruins, ruin), hidden_ruins=holdings.hidden_ruins)) - before
        credit += LEAD_SHARE * gain * min(1.0, dice_total(dice) / ruin.claim)
    return credit


__all__ = ["HAND_CARD_POINTS", "LEAD_SHARE", "STONE_POINTS", "WIN_POINTS", "evaluate", "points_in_sight"]
