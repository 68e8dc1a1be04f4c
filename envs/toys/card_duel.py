"""Card Duel: a small N-player (2-4) trick game on the rules-core contract, the multi-player platform's example.

Rules (every random step is an explicit chance node with exact probabilities):

1. Deal: `HAND_SIZE` cards to each seat, one card at a time in seat order, each card drawn uniformly from the
   undealt deck of `DECK_SIZE` cards (card `c` has rank `c // 2 + 1`: two copies of ranks 1..10). Hands are private.
2. Lead draw: before every trick a chance outcome picks the seat that leads, uniformly (chance decides who acts).
3. Trick: the leader plays any card from its hand, then every other seat in seat order after it. The highest rank
   wins (a blamed seat's card counts one rank lower; ties go to the card played first).
4. Blame: after every trick but the last, the trick's winner acts out of turn: it blames another seat, whose card
   in the next trick counts one rank lower.

Scoring. Competitive: each trick won is a point; the single top scorer gets +1, everyone else -1 (tied top
scorers 0). Cooperative: the team scores a point for each trick won with a rank of at least `COOP_BAR_BASE` plus
the number of seats, and every
seat gets +1 if the team reaches `COOP_TARGET` points, else -1.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from envs.core.game import CHANCE, TERMINAL, Game, GameSpec, Observer, State, StateFormatError
from envs.core.hidden import redeal

MAX_PLAYERS = 4
DECK_SIZE = 20
HAND_SIZE = 4
NO_SEAT = -1
COOP_BAR_BASE = 5
"""Cooperative: a trick counts for the team if won with a rank of at least COOP_BAR_BASE + number of seats."""
COOP_TARGET = 3
BLAME_BASE = DECK_SIZE
"""Action ids: 0..DECK_SIZE-1 play that card; BLAME_BASE + k blames seat k."""
NUM_ACTIONS = DECK_SIZE + MAX_PLAYERS
DEAL, LEAD_DRAW, PLAY, BLAME, OVER = range(5)
PHASE_NAMES = ("deal", "lead draw", "play", "blame", "over")


def rank(card: int) -> int:
    """The rank (1..10) of a card id."""
    return card // 2 + 1


@dataclasses.dataclass
class CardDuelState(State):
    """Hands, undealt deck, current trick, points and whose turn it is."""

    game: CardDuelGame
    deck: tuple[int, ...] = tuple(range(DECK_SIZE))
    hands: tuple[tuple[int, ...], ...] = ()
    played: tuple[int, ...] = ()
    trick: tuple[tuple[int, int], ...] = ()
    """(seat, card) in the order played."""
    phase: int = DEAL
    to_play: int = NO_SEAT
    leader: int = NO_SEAT
    blamed: int = NO_SEAT
    points: tuple[int, ...] = ()
    team_points: int = 0
    tricks_done: int = 0

    @property
    def num_players(self) -> int:
        """Seats in this game."""
        return self.game.spec.num_players

    def current_player(self) -> int:
        """The seat to act, CHANCE while dealing or drawing the leader, TERMINAL at the end."""
        if self.phase in (DEAL, LEAD_DRAW):
            return CHANCE
        if self.phase == OVER:
            return TERMINAL
        return self.to_play

    def legal_actions(self) -> list[int]:
        """Cards in hand while playing; another seat to blame after a trick."""
        if self.phase == PLAY:
            return sorted(self.hands[self.to_play])
        if self.phase == BLAME:
            return [BLAME_BASE + seat for seat in range(self.num_players) if seat != self.to_play]
        return []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Deal: each undealt card equally likely; lead draw: each seat equally likely."""
        if self.phase == DEAL:
            return [(card, 1.0 / len(self.deck)) for card in self.deck]
        if self.phase == LEAD_DRAW:
            return [(seat, 1.0 / self.num_players) for seat in range(self.num_players)]
        return []

    def chance_label(self, outcome: int) -> str:
        """'deal card c (rank r) to seat s' or 'seat s leads'."""
        if self.phase == DEAL:
            return f"deal card {outcome} (rank {rank(outcome)}) to seat {self._next_dealt_seat()}"
        return f"seat {outcome} leads"

    def chance_label_for(self, outcome: int, player: int | None) -> str:
        """A card dealt to another seat (or to anyone, for a spectator) is not named; the leader draw is public."""
        if self.phase == DEAL and self._next_dealt_seat() != player:
            return f"a card is dealt to seat {self._next_dealt_seat()}"
        return self.chance_label(outcome)

    def _next_dealt_seat(self) -> int:
        return sum(len(hand) for hand in self.hands) % self.num_players

    def _apply(self, action: int) -> None:
        if self.phase == DEAL:
            seat = self._next_dealt_seat()
            self.deck = tuple(card for card in self.deck if card != action)
            hands = list(self.hands)
            hands[seat] = tuple(sorted((*hands[seat], action)))
            self.hands = tuple(hands)
            if all(len(hand) == HAND_SIZE for hand in self.hands):
                self.phase = LEAD_DRAW
        elif self.phase == LEAD_DRAW:
            self.leader = self.to_play = action
            self.phase = PLAY
        elif self.phase == PLAY:
            hands = list(self.hands)
            hands[self.to_play] = tuple(card for card in hands[self.to_play] if card != action)
            self.hands = tuple(hands)
            self.trick = (*self.trick, (self.to_play, action))
            if len(self.trick) < self.num_players:
                self.to_play = (self.to_play + 1) % self.num_players
            else:
                self._finish_trick()
        elif self.phase == BLAME:
            self.blamed = action - BLAME_BASE
            self.phase = LEAD_DRAW
            self.to_play = NO_SEAT

    def _finish_trick(self) -> None:
        """Score the trick; the winner blames next (out of turn), or the game ends after the last trick."""
        blamed = self.blamed

        def strength(seat: int, card: int) -> int:
            return rank(card) - (1 if seat == blamed else 0)

        winner, best = self.trick[0][0], strength(*self.trick[0])
        for seat, card in self.trick[1:]:
            if strength(seat, card) > best:
                winner, best = seat, strength(seat, card)
        points = list(self.points)
        points[winner] += 1
        self.points = tuple(points)
        if best >= COOP_BAR_BASE + self.num_players:
            self.team_points += 1
        self.played = (*self.played, *(card for _, card in self.trick))
        self.trick = ()
        self.blamed = NO_SEAT
        self.tricks_done += 1
        if self.tricks_done == HAND_SIZE:
            self.phase, self.to_play = OVER, NO_SEAT
        else:
            self.phase, self.to_play = BLAME, winner

    def returns(self) -> list[float]:
        """Competitive: single top scorer +1, tied top 0, the rest -1; cooperative: all +1 or all -1."""
        n = self.num_players
        if self.phase != OVER:
            return [0.0] * n
        if self.game.spec.cooperative:
            return [1.0 if self.team_points >= COOP_TARGET else -1.0] * n
        top = max(self.points)
        tops = [seat for seat in range(n) if self.points[seat] == top]
        return [(1.0 if len(tops) == 1 else 0.0) if seat in tops else -1.0 for seat in range(n)]

    def score(self) -> list[float]:
        """Tricks won per seat (competitive) or the team's points for every seat (cooperative)."""
        if self.game.spec.cooperative:
            return [float(self.team_points)] * self.num_players
        return [float(p) for p in self.points]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict of every field."""
        data = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "game"}
        return json_plain(data)

    def clone(self) -> CardDuelState:
        """An independent copy (every field is immutable)."""
        return dataclasses.replace(self)

    def resample_hidden(self, player: int, rng: np.random.Generator) -> CardDuelState:
        """A clone whose other hands and undealt deck are redrawn from the cards `player` has not seen."""
        seen = set(self.hands[player]) | set(self.played) | {card for _, card in self.trick}
        pool = [0 if card in seen else 1 for card in range(DECK_SIZE)]
        holders: dict[int | str, int] = {seat: len(self.hands[seat]) for seat in range(self.num_players)}
        del holders[player]
        holders["deck"] = len(self.deck)
        dealt = redeal(pool, holders, {}, rng)
        clone = self.clone()
        hands = list(self.hands)
        for holder, counts in dealt.items():
            cards = tuple(card for card, count in enumerate(counts) if count)
            if holder == "deck":
                clone.deck = cards
            else:
                hands[int(holder)] = cards
        clone.hands = tuple(hands)
        return clone


def json_plain(value: Any) -> Any:
    """Tuples to lists, recursively (what json.dumps gives back)."""
    if isinstance(value, (tuple, list)):
        return [json_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: json_plain(item) for key, item in value.items()}
    return value


def tuples(value: Any) -> Any:
    """Lists to tuples, recursively."""
    if isinstance(value, list):
        return tuple(tuples(item) for item in value)
    return value


class CardDuelGame(Game):
    """Card Duel for 2-4 seats, competitive (default) or cooperative."""

    def __init__(self, num_players: int = 2, cooperative: bool = False) -> None:
        if cooperative:
            utility = "cooperative"
        else:
            utility = "zero_sum" if num_players == 2 else "general_sum"
        self.spec = GameSpec(
            name="card_duel_coop" if cooperative else "card_duel",
            num_players=num_players,
            num_actions=NUM_ACTIONS,
            max_game_length=HAND_SIZE * (MAX_PLAYERS + 1),
            min_players=2,
            max_players=MAX_PLAYERS,
            utility=utility,
            information="imperfect",
            # Cooperative: the score is the team's points, one result shared by every seat, so nothing to rank.
            reward_modes=("win", "score") if cooperative else ("win", "score", "rank"),
        )

    def new_initial_state(self) -> CardDuelState:
        """Nothing dealt yet: the first node deals a card."""
        n = self.spec.num_players
        return CardDuelState(game=self, hands=((),) * n, points=(0,) * n)

    def state_from_dict(self, data: dict[str, Any]) -> CardDuelState:
        """The state `CardDuelState.to_dict` described."""
        names = [f.name for f in dataclasses.fields(CardDuelState) if f.name != "game"]
        missing = [name for name in names if name not in data]
        if missing:
            raise StateFormatError(missing[0], "missing")
        return CardDuelState(game=self, **{name: tuples(data[name]) for name in names})

    def action_label(self, action: int) -> str:
        """'play card c (rank r)' or 'blame seat k'."""
        if action < BLAME_BASE:
            return f"play card {action} (rank {rank(action)})"
        return f"blame seat {action - BLAME_BASE}"

    def observer(self, player: int | None = 0) -> CardDuelObserver:
        """Seat `player`'s view (seat-relative, own hand shown), or with None the public view."""
        return CardDuelObserver(self, player)


class CardDuelObserver(Observer):
    """Equal-size views for every seat: per-seat blocks in seat-relative order ("me" first), sized for 4 seats."""

    def __init__(self, game: CardDuelGame, player: int | None) -> None:
        self.game = game
        self.player = player
        layout = [
            ("hand", DECK_SIZE),
            ("played", DECK_SIZE),
            ("trick", MAX_PLAYERS * DECK_SIZE),
            ("points", MAX_PLAYERS),
            ("hand_sizes", MAX_PLAYERS),
            ("to_act", MAX_PLAYERS),
            ("leader", MAX_PLAYERS),
            ("blamed", MAX_PLAYERS),
            ("seats_present", MAX_PLAYERS),
            ("phase", len(PHASE_NAMES)),
            ("team_points", 1),
        ]
        self.views = {}
        start = 0
        for name, width in layout:
            self.views[name] = slice(start, start + width)
            start += width
        self.size = start

    def _relative(self, seat: int) -> int:
        """Seat `seat` seen from this observer ("me" is 0; the public view uses absolute seats)."""
        n = self.game.spec.num_players
        return seat if self.player is None else (seat - self.player) % n

    def tensor(self, state: State) -> np.ndarray:
        """The flat float32 view: own hand, public cards, per-seat facts in relative order."""
        assert isinstance(state, CardDuelState)
        out = np.zeros(self.size, dtype=np.float32)
        views = {name: out[part] for name, part in self.views.items()}
        if self.player is not None:
            views["hand"][list(state.hands[self.player])] = 1.0
        views["played"][list(state.played)] = 1.0
        trick = views["trick"].reshape(MAX_PLAYERS, DECK_SIZE)
        for seat, card in state.trick:
            trick[self._relative(seat), card] = 1.0
        for seat in range(state.num_players):
            me = self._relative(seat)
            views["points"][me] = state.points[seat] / HAND_SIZE
            views["hand_sizes"][me] = len(state.hands[seat]) / HAND_SIZE
            views["seats_present"][me] = 1.0
        for name, seat in (("to_act", state.to_play), ("leader", state.leader), ("blamed", state.blamed)):
            if seat != NO_SEAT:
                views[name][self._relative(seat)] = 1.0
        views["phase"][state.phase] = 1.0
        views["team_points"][0] = state.team_points / HAND_SIZE
        return out

    def text(self, state: State) -> str:
        """A few readable lines of what this seat (or the public) may see."""
        assert isinstance(state, CardDuelState)
        who = "public" if self.player is None else f"seat {self.player}"
        lines = [f"card duel ({who}): phase {PHASE_NAMES[state.phase]}, trick {state.tricks_done + 1}/{HAND_SIZE}"]
        if self.player is not None:
            lines.append(f"hand: {[rank(card) for card in state.hands[self.player]]}")
        lines.append(f"trick: {[(seat, rank(card)) for seat, card in state.trick]}")
        lines.append(f"points: {list(state.points)}  team points: {state.team_points}")
        lines.append(f"to act: {state.to_play}  leader: {state.leader}  blamed: {state.blamed}")
        return "\n".join(lines)


class CardDuelCoopGame(CardDuelGame):
    """Card Duel's cooperative variant (`CardDuelGame(cooperative=True)`), a class of its own for registration."""

    def __init__(self, num_players: int = 2) -> None:
        super().__init__(num_players=num_players, cooperative=True)
