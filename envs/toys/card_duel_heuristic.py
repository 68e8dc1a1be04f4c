"""A hand-written Card Duel player: win the trick as cheaply as possible, blame the leader in points.

It reads only what the acting seat may see (its own hand, the trick on the table, points, who is blamed), as
every heuristic must (`check_no_peek` holds it to that).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.toys.card_duel import BLAME, BLAME_BASE, PLAY, CardDuelGame, CardDuelState, rank


class CardDuelHeuristic:
    """Plays the lowest card that takes the trick (leading: the highest card), else the lowest; blames the leader."""

    name = "heuristic"

    def __init__(self, game: CardDuelGame) -> None:
        self.game = game

    def reset(self, seed: int | None = None) -> None:
        """Deterministic: nothing to reseed."""

    def act(self, observation: Any, action_mask: np.ndarray, state: Any | None = None) -> int:
        """The heuristic's choice for the seat to act in `state`."""
        assert isinstance(state, CardDuelState), "the Card Duel heuristic reads the rules-core state"
        seat = state.to_play
        if state.phase == BLAME:
            others = [other for other in range(state.num_players) if other != seat]
            return BLAME_BASE + max(others, key=lambda other: (state.points[other], -other))
        assert state.phase == PLAY
        hand = sorted(state.hands[seat])
        if not state.trick:
            return hand[-1]

        def strength(player: int, card: int) -> int:
            return rank(card) - (1 if player == state.blamed else 0)

        best = max(strength(player, card) for player, card in state.trick)
        winning = [card for card in hand if strength(seat, card) > best]
        return winning[0] if winning else hand[0]
