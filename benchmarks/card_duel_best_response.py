"""Card Duel at 2 seats: the exact value of the best response to the toy's heuristic, and a simulated check.

Usage: python -m benchmarks.card_duel_best_response [--hand-size 4] [--games 3000] [--seed 0]

At 2 seats the only real decisions are card plays (the trick's winner must blame the one other seat), and the
heuristic (envs/toys/card_duel_heuristic.py) is deterministic. The best responder sees its own hand and the
public history only. Every deal of the 20 cards is equally likely, so each opponent hand is weighted by the number
of card-level deals behind it; a world (an opponent hand) stays consistent while the heuristic, holding it, would
have played the cards seen. At each of its decisions the best responder picks the card maximizing the expected
result over the consistent worlds, its later decisions being best responses too (a one-agent decision problem,
solved exactly by recursion with memoised information sets). Results are exact fractions: win +1, tie 0, loss -1,
and the win share with ties half. The heuristic's value against itself (must be 1/2) checks the recursion, and
games of the best-response policy against the heuristic on the rules core (`CardDuelGame`) check it by simulation.

Hands are rank multisets: the heuristic's choices and the trick's winner depend on ranks only.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from math import comb

import numpy as np

from agents.evaluation.episodes import wilson_interval
from envs.toys.card_duel import BLAME, CHANCE, DECK_SIZE, HAND_SIZE, PLAY, TERMINAL, CardDuelGame, CardDuelState
from envs.toys.card_duel import rank as card_rank
from envs.toys.card_duel_heuristic import CardDuelHeuristic

RANKS = DECK_SIZE // 2
COPIES = 2
ME, OPP, NOBODY = 0, 1, -1

Hand = tuple[int, ...]
"""A rank multiset, sorted ascending."""
Worlds = tuple[tuple[Hand, int], ...]
"""Consistent opponent hands (remaining cards) with their weights (card-level deals), sorted."""


def hands_of_size(size: int, taken: Counter[int] | None = None) -> list[tuple[Hand, int]]:
    """Every rank multiset of `size` cards from the undealt copies, with the number of card-level hands behind it."""
    taken = taken or Counter()
    out: list[tuple[Hand, int]] = []

    def extend(start: int, hand: list[int], weight: int) -> None:
        if len(hand) == size:
            out.append((tuple(hand), weight))
            return
        for r in range(start, RANKS + 1):
            left = COPIES - taken[r]
            for k in range(1, min(left, size - len(hand)) + 1):
                extend(r + 1, hand + [r] * k, weight * comb(left, k))

    extend(1, [], 1)
    return out


def heuristic_lead(hand: Hand) -> int:
    """The heuristic leads its highest card."""
    return hand[-1]


def heuristic_follow(hand: Hand, led: int, leader_blamed: bool, me_blamed: bool) -> int:
    """The heuristic follows with its lowest card that takes the trick, else its lowest card."""
    best = led - (1 if leader_blamed else 0)
    for card in hand:
        if card - (1 if me_blamed else 0) > best:
            return card
    return hand[0]


def remove(hand: Hand, card: int) -> Hand:
    """`hand` less one copy of `card`."""
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]


def trick_winner(leader: int, led: int, followed: int, blamed: int) -> int:
    """ME or OPP: the higher strength wins, ties to the leader; the blamed seat's card counts one rank lower."""
    follower = OPP if leader == ME else ME
    lead_strength = led - (1 if blamed == leader else 0)
    follow_strength = followed - (1 if blamed == follower else 0)
    return follower if follow_strength > lead_strength else leader


def group(pairs: list[tuple[int, Hand, int]]) -> dict[int, Worlds]:
    """Worlds grouped by the card the opponent shows in them: {card: worlds}."""
    groups: dict[int, list[tuple[Hand, int]]] = {}
    for card, hand, weight in pairs:
        groups.setdefault(card, []).append((hand, weight))
    return {card: tuple(sorted(worlds)) for card, worlds in groups.items()}


class Solver:
    """Exact best response (or heuristic play, `mine="heuristic"`) of seat ME against the heuristic at OPP.

    `best_tricks`: the best responder chooses in the first `best_tricks` tricks only and plays the heuristic's card
    after them (None: in every trick), knowing it will.
    """

    def __init__(self, mine: str = "best", best_tricks: int | None = None, hand_size: int = 4) -> None:
        self.mine = mine
        self.first_heuristic_hand = -1 if best_tricks is None else hand_size - best_tricks
        """With this many cards or fewer left in hand, ME plays the heuristic's card."""
        self.value = lru_cache(maxsize=None)(self._value)

    def _value(self, my: Hand, worlds: Worlds, blamed: int, diff: int) -> int:
        """2^(cards left) x the sum over worlds of weight x expected result (ME's view), from the next lead draw.

        Each lead draw halves the probability: scaling by 2 per trick left keeps every figure an exact integer.
        """
        if not my:
            sign = (diff > 0) - (diff < 0)
            return sign * sum(weight for _, weight in worlds)
        return self.lead_me(my, worlds, blamed, diff)[0] + self.lead_opp(my, worlds, blamed, diff)

    def chooses(self, my: Hand) -> bool:
        """Whether ME picks the best card with `my` in hand (else it plays the heuristic's)."""
        return self.mine == "best" and len(my) > self.first_heuristic_hand

    def after_trick(
        self, my: Hand, worlds: Worlds, leader: int, led: int, followed: int, blamed: int, diff: int
    ) -> int:
        """The (scaled) value once the trick is played (`my` and `worlds` already less the cards played)."""
        winner = trick_winner(leader, led, followed, blamed)
        return self.value(my, worlds, OPP if winner == ME else ME, diff + (1 if winner == ME else -1))

    def lead_me(self, my: Hand, worlds: Worlds, blamed: int, diff: int) -> tuple[int, int]:
        """ME leads: the best card (or the heuristic's) and its value summed over the worlds."""
        options = sorted(set(my)) if self.chooses(my) else [heuristic_lead(my)]
        best: tuple[int, int] | None = None
        for card in options:
            rest = remove(my, card)
            pairs = []
            for hand, weight in worlds:
                answer = heuristic_follow(hand, card, blamed == ME, blamed == OPP)
                pairs.append((answer, remove(hand, answer), weight))
            total = 0
            for answer, group_worlds in group(pairs).items():
                total += self.after_trick(rest, group_worlds, ME, card, answer, blamed, diff)
            if best is None or total > best[0]:
                best = (total, card)
        assert best is not None
        return best

    def lead_opp(self, my: Hand, worlds: Worlds, blamed: int, diff: int) -> int:
        """OPP leads its highest card (public), then ME answers at the information set that card leaves."""
        pairs = [(heuristic_lead(hand), remove(hand, heuristic_lead(hand)), weight) for hand, weight in worlds]
        total = 0
        for led, group_worlds in group(pairs).items():
            total += self.follow_me(my, group_worlds, led, blamed, diff)[0]
        return total

    def follow_me(self, my: Hand, worlds: Worlds, led: int, blamed: int, diff: int) -> tuple[int, int]:
        """ME answers `led`: the best card (or the heuristic's) and its value over the (already grouped) worlds."""
        if self.chooses(my):
            options = sorted(set(my))
        else:
            options = [heuristic_follow(my, led, blamed == OPP, blamed == ME)]
        best: tuple[int, int] | None = None
        for card in options:
            total = self.after_trick(remove(my, card), worlds, OPP, led, card, blamed, diff)
            if best is None or total > best[0]:
                best = (total, card)
        assert best is not None
        return best


def exact_value(solver: Solver, hand_size: int) -> tuple[Fraction, Fraction]:
    """(expected result, win share with ties half) of seat ME over the uniform deal."""
    total = 0
    weight_all = 0
    for my, weight in hands_of_size(hand_size):
        worlds = tuple(sorted(hands_of_size(hand_size, Counter(my))))
        total += weight * solver.value(my, worlds, NOBODY, 0)
        weight_all += weight * sum(w for _, w in worlds)
    expected = Fraction(total, weight_all * 2**hand_size)
    assert weight_all == comb(DECK_SIZE, hand_size) * comb(DECK_SIZE - hand_size, hand_size)
    return expected, (1 + expected) / 2


class BestResponseAgent:
    """Plays the solver's best response on the rules core, from its own hand and the public history only."""

    def __init__(self, solver: Solver, seat: int, hand_size: int) -> None:
        self.solver = solver
        self.seat = seat
        self.hand_size = hand_size

    def act(self, state: CardDuelState, log: list[tuple[int, int]]) -> int:
        """The best-response card for `state` (this seat to play); `log` is every (seat, card) of finished tricks."""
        me = self.seat
        my_cards = sorted(state.hands[me])
        my = tuple(card_rank(card) for card in my_cards)
        played = [card_rank(card) for seat, card in log if seat == me]
        worlds, blamed, diff = self.consistent(tuple(sorted(my + tuple(played))), log)
        assert blamed == (NOBODY if state.blamed < 0 else ME if state.blamed == me else OPP)
        assert diff == state.points[me] - state.points[1 - me]
        if not state.trick:
            choice = self.solver.lead_me(my, worlds, blamed, diff)[1]
        else:
            led = card_rank(state.trick[0][1])
            worlds = tuple(sorted((remove(h, led), w) for h, w in worlds if heuristic_lead(h) == led))
            choice = self.solver.follow_me(my, worlds, led, blamed, diff)[1]
        return next(card for card in my_cards if card_rank(card) == choice)

    def consistent(self, start: Hand, log: list[tuple[int, int]]) -> tuple[Worlds, int, int]:
        """The opponent hands consistent with the finished tricks, the blamed seat and ME's lead in points."""
        worlds = tuple(sorted(hands_of_size(self.hand_size, Counter(start))))
        blamed, diff = NOBODY, 0
        for i in range(0, len(log), 2):
            (lead_seat, lead_card), (_, follow_card) = log[i], log[i + 1]
            leader = ME if lead_seat == self.seat else OPP
            led, followed = card_rank(lead_card), card_rank(follow_card)
            if leader == OPP:
                kept = [(remove(h, led), w) for h, w in worlds if heuristic_lead(h) == led]
            else:
                kept = [
                    (remove(h, followed), w)
                    for h, w in worlds
                    if heuristic_follow(h, led, blamed == ME, blamed == OPP) == followed
                ]
            worlds = tuple(sorted(kept))
            winner = trick_winner(leader, led, followed, blamed)
            diff += 1 if winner == ME else -1
            blamed = OPP if winner == ME else ME
        return worlds, blamed, diff


def model_heuristic(state: CardDuelState, player: int) -> int:
    """The rank the solver's model of the heuristic (`heuristic_lead`, `heuristic_follow`) plays for `player`."""
    hand = tuple(sorted(card_rank(card) for card in state.hands[player]))
    if not state.trick:
        return heuristic_lead(hand)
    led = card_rank(state.trick[0][1])
    return heuristic_follow(hand, led, state.blamed == state.trick[0][0], state.blamed == player)


def simulate(solver: Solver, games: int, seed: int, hand_size: int) -> dict[int, tuple[float, float, float]]:
    """Per seat of the best responder: (win share with ties half, its 95% interval) over `games` rules-core games."""
    game = CardDuelGame(num_players=2)
    heuristic = CardDuelHeuristic(game)
    out = {}
    for seat in (0, 1):
        agent = BestResponseAgent(solver, seat, hand_size)
        share = 0.0
        for i in range(games):
            rng = np.random.default_rng([seed, i])
            state = game.new_initial_state()
            log: list[tuple[int, int]] = []
            while (player := state.current_player()) != TERMINAL:
                if player == CHANCE:
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.choice(len(outcomes), p=[p for _, p in outcomes])][0])
                elif state.phase == BLAME:
                    state.apply_action(state.legal_actions()[0])
                else:
                    assert state.phase == PLAY
                    if player == seat:
                        action = agent.act(state, log)
                    else:
                        action = heuristic.act(None, state.legal_actions_mask(), state)
                        assert card_rank(action) == model_heuristic(state, player), "the rank model left the heuristic"
                    trick = [*state.trick, (player, action)]
                    state.apply_action(action)
                    if len(trick) == 2:
                        log += trick
            share += (1 + state.returns()[seat]) / 2
        low, high = wilson_interval(share, games)
        out[seat] = (share / games, low, high)
    return out


def main() -> None:
    """Exact values, then the simulated check."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--hand-size", type=int, default=HAND_SIZE, help="cards per hand (simulated only at the game's own)"
    )
    parser.add_argument("--games", type=int, default=3000, help="simulated games per seat (0: none)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    started = time.perf_counter()
    lines = [("heuristic", None), *(("best", tricks) for tricks in range(1, args.hand_size)), ("best", None)]
    for mine, tricks in lines:
        solver = Solver(mine, tricks, args.hand_size)
        expected, share = exact_value(solver, args.hand_size)
        name = mine if mine == "heuristic" or tricks is None else f"best in tricks 1-{tricks}"
        print(
            f"{name:18s} vs heuristic: expected result {float(expected):+.5f} = {expected}, "
            f"win share (ties half) {float(share):.4%}  [{time.perf_counter() - started:.1f}s]"
        )
    if args.games and args.hand_size == HAND_SIZE:
        for seat, (share_sim, low, high) in simulate(solver, args.games, args.seed, args.hand_size).items():
            print(f"simulated best response at seat {seat}: {share_sim:.2%} [{low:.2%}, {high:.2%}] over {args.games}")
    print(f"total {time.perf_counter() - started:.1f}s")


if __name__ == "__main__":
    main()
