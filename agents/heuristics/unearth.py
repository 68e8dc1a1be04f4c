"""A heuristic Unearth player: claims Ruins it can win, takes Stones toward rings, plays cards that swing a claim.

How it decides, from what its seat may see (its own hand, hidden Ruin and token values; the public table):

- **Ruin value**: the points a Ruin would add to the seat's Ruins (its colour's set step, a completed set of five
  colours, an End of Age Ruin's printed points), with the hidden Ruins counted as its own.
- **Excavation**: every (die, Ruin) pair is scored over the die's faces (each equally likely): a face that claims
  the Ruin for the seat gains the Ruin's value, one that claims it for another seat loses part of it, a face of 1-3
  gains a Stone's worth, and a high die left on a Ruin it leads is worth a share of the Ruin (it may win later).
- **Cards**: a card on a placed die (A New Discovery, Forlorn, Lost in the Ruins) is played when the best target
  makes the seat the claimer of a Ruin or takes a claim from a leader; the cards that help the coming roll
  (Ancient Map, Band of Delvers, Expedition, Reading the Stones, Ancestral Claim) are played at once.
- **Rolls**: a modifier's sign or order, and a reroll (Ancient Map, The Shattered Edifice), follow the same
  outcome value of the die's Ruin; a Named Wonder's modifier is used when it helps that value.
- **Stones and Wonders**: a Stone's colour is the one the seat holds most of (rings of one colour are Greater
  Wonders; Named formulas need several of one colour); a Stone goes where it brings empty cells closest to a full
  ring; a ring holds the Named Wonder worth most to the seat, else the generic Wonder.

It reads the state only through public queries and its own seat's fields; `check_no_peek` holds it to that.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.unearth.actions import GENERIC_WONDER, KEEP, MINUS, MODIFIER_AMOUNTS, PLUS, REROLL
from envs.unearth.claims import PlacedDie, dice_by_owner, leading_seats
from envs.unearth.game import UnearthGame
from envs.unearth.rules import (
    BUILD_WONDER,
    CHOOSE_REMOVED,
    DELVER_PHASE,
    EDIFICE_REROLL,
    EXCAVATION_DIE,
    EXCAVATION_RUIN,
    MAP_REROLL,
    MODIFIER_ORDER,
    NAME_NUMBER,
    NOWHERE,
    PLACE_STONE,
    READING_SIGN,
    TAKE_STONE,
    TARGET_DIE,
    WONDER_MODIFIER,
    UnearthState,
    modifier_results,
)
from envs.unearth.scoring import MIXED_SET_BONUS, RUIN_SET_POINTS
from envs.unearth.tableau import RING_SIZE

STONE_VALUE = 2.0
"""What one more Stone is worth, in points (a ring of six makes a Wonder of about 3-7 points plus bonuses)."""
RIVAL_CLAIM_SHARE = 0.5
"""Share of a Ruin's value lost when a roll hands the Ruin to another seat."""
LEAD_SHARE = 0.25
"""Share of a Ruin's value credited for leading it with a die left on it (it may be claimed later)."""
GENERIC_WONDER_POINTS = 4.0
"""Expected points of a generic Wonder token (Lesser 2-4, Greater 6-8)."""
ABILITY_POINTS = 2.0
"""Worth of a Named Wonder's ability during play, beside its printed points."""
CLAIM_MEMO_ENTRIES = 8192
"""Claim results the agent keeps across decisions before emptying the memo (a pure rule: any size is correct)."""


class UnearthHeuristicAgent:
    """Rule-of-thumb policy over the visible state (own hand, hidden Ruin and tokens; the public table)."""

    name = "heuristic"
    reads_observation = False
    """Opponent envs need not build its observation (it reads the state's public queries)."""

    def __init__(self, game: UnearthGame) -> None:
        self.game = game
        self.ids = game.actions
        self.cards = game.cards
        self._roll_values: dict[tuple[int, int, int, int], float] | None = None
        """Roll values computed during the current `act` call only (None outside it: states change in place)."""
        self._ruin_values: dict[tuple[int, int], float] | None = None
        """`ruin_value` by (seat, Ruin) during the current `act` call only (a seat's Ruins change between calls)."""
        self._placed_dice: list[tuple[int, int]] | None = None
        """`state.placed_dice()` during the current `act` call only (None outside it, or not yet asked)."""
        self._claim_results: dict[tuple[int, tuple[PlacedDie, ...]], tuple[bool, int | None]] = {}
        """`_claim_result` by its arguments, kept across decisions: a pure function of the claim and the dice."""

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the claim memo (checkpoints pickle the opponents at every rollout)."""
        return {**self.__dict__, "_claim_results": {}}

    def reset(self, seed: int | None = None) -> None:
        """Deterministic: nothing to reseed."""

    # ------------------------------------------------------------------------------------------ values
    def ruin_value(self, state: UnearthState, seat: int, ruin_id: int) -> float:
        """Points the Ruin would add to `seat`'s Ruins (its hidden Ruins included: it knows them)."""
        memo = self._ruin_values
        if memo is None:
            return self._ruin_value(state, seat, ruin_id)
        key = (seat, ruin_id)
        value = memo.get(key)
        if value is None:
            value = memo[key] = self._ruin_value(state, seat, ruin_id)
        return value

    def _ruin_value(self, state: UnearthState, seat: int, ruin_id: int) -> float:
        """`ruin_value` computed."""
        ruin = self.game.ruins[ruin_id]
        if ruin.colour is None:
            return float(ruin.points)
        held = [0] * len(self.cards.ruin_colours)
        for r in (*state.claimed[seat], *state.hidden_ruins[seat]):
            colour = self.game.ruins[r].colour
            if colour is not None:
                held[colour] += 1
        count = held[ruin.colour]
        gain = RUIN_SET_POINTS[min(count + 1, len(RUIN_SET_POINTS) - 1)] - RUIN_SET_POINTS[count]
        before = min(held)
        held[ruin.colour] += 1
        return float(gain + MIXED_SET_BONUS * (min(held) - before))

    def _claim_result(self, claim: int, dice: list[PlacedDie]) -> tuple[bool, int | None]:
        """Whether `dice` claim a Ruin of `claim`, and the seat leading them (None: no dice or a tie)."""
        if not dice:
            return False, None
        key = (claim, tuple(dice))
        result = self._claim_results.get(key)
        if result is None:
            leaders = leading_seats(dice_by_owner(dice))
            result = (sum(die.value for die in dice) >= claim, leaders[0] if len(leaders) == 1 else None)
            if len(self._claim_results) >= CLAIM_MEMO_ENTRIES:
                self._claim_results.clear()
            self._claim_results[key] = result
        return result

    def outcome_value(self, state: UnearthState, seat: int, place: int, dice: list[PlacedDie], stone: bool) -> float:
        """Worth to `seat` of the Ruin at `place` holding `dice` (after a roll), plus a Stone if one is gained."""
        stones_left = sum(state.ruin_stones[place]) + sum(state.bag)
        value = STONE_VALUE if stone and stones_left > 0 else 0.0
        ruin = state.table[place]
        if ruin == NOWHERE:
            return value
        return value + self._ruin_share(state, seat, ruin, dice)

    def _ruin_share(self, state: UnearthState, seat: int, ruin: int, dice: list[PlacedDie]) -> float:
        """Worth to `seat` of the Ruin `ruin` holding `dice`: won, lost to a rival, or a share of it for leading."""
        worth = self.ruin_value(state, seat, ruin)
        claim = self.game.ruins[ruin].claim
        claimed, leader = self._claim_result(claim, dice)
        if claimed:
            if leader == seat:
                return worth
            return -RIVAL_CLAIM_SHARE * worth if leader is not None else 0.0
        if leader == seat:
            return LEAD_SHARE * worth * sum(die.value for die in dice) / claim
        return 0.0

    def _dice_with(self, state: UnearthState, place: int, seat: int, die: int, value: int) -> list[PlacedDie]:
        """The dice on `place` with `seat`'s die `die` showing `value` (added, or changed if already there)."""
        faces = self.cards.die_sides[die]
        placed = self._placed_dice
        if placed is None:
            placed = state.placed_dice()
            if self._roll_values is not None:  # inside `act`: the state stays as it is until the call returns
                self._placed_dice = placed
        dice = [
            PlacedDie(s, self.cards.die_sides[d], state.die_value[s][d])
            for s, d in placed
            if state.die_place[s][d] == place and (s, d) != (seat, die)
        ]
        return [*dice, PlacedDie(seat, faces, value)]

    def roll_value(self, state: UnearthState, seat: int, die: int, place: int, bonus: int = 0) -> float:
        """Expected worth of rolling `seat`'s die onto `place` (each face equally likely, `bonus` added, clamped)."""
        memo = self._roll_values
        if memo is None:
            return self._roll_value(state, seat, die, place, bonus)
        key = (seat, die, place, bonus)
        if key not in memo:
            memo[key] = self._roll_value(state, seat, die, place, bonus)
        return memo[key]

    def _roll_value(self, state: UnearthState, seat: int, die: int, place: int, bonus: int) -> float:
        """`roll_value` computed: the Ruin's worth once per distinct clamped value, a Stone's worth per face 1-3."""
        faces = self.cards.die_sides[die]
        stone_value = STONE_VALUE if sum(state.ruin_stones[place]) + sum(state.bag) > 0 else 0.0
        ruin = state.table[place]
        others = self._dice_with(state, place, seat, die, 1)[:-1]
        shares: dict[int, float] = {}
        total = 0.0
        for face in range(1, faces + 1):
            value = min(max(face + bonus, 1), faces)
            if ruin != NOWHERE and value not in shares:
                shares[value] = self._ruin_share(state, seat, ruin, [*others, PlacedDie(seat, faces, value)])
            total += (stone_value if face <= 3 else 0.0) + shares.get(value, 0.0)
        return total / faces

    # ------------------------------------------------------------------------------------------ the policy
    def act(self, observation: Any, action_mask: np.ndarray, state: Any | None = None) -> int:
        """The heuristic's choice for the seat to decide in `state`."""
        self._roll_values, self._ruin_values = {}, {}
        try:
            return self._choose(action_mask, state)
        finally:
            self._roll_values = self._ruin_values = None
            self._placed_dice = None

    def _choose(self, action_mask: np.ndarray, state: Any) -> int:
        """The decision itself (`act` wraps it with the per-call memos: roll values, Ruin values, placed dice)."""
        assert isinstance(state, UnearthState), "the Unearth heuristic reads the rules-core state"
        frame = state.decision()
        assert frame is not None, "act() is called only when a seat decides"
        legal = [int(a) for a in np.flatnonzero(action_mask)]
        seat = frame.seat
        kind = frame.kind
        ids = self.ids
        if kind == DELVER_PHASE:
            return self._delver_phase(state, seat, legal)
        if kind == TARGET_DIE:
            return max(legal, key=lambda a: self._target_value(state, seat, frame.detail("card"), a))
        if kind == NAME_NUMBER:
            return max(legal, key=lambda a: self._song_value(state, seat, a - ids.name + 1))
        if kind == EXCAVATION_DIE:
            return max(legal, key=lambda a: self._best_ruin(state, seat, a - ids.roll_die)[1])
        if kind == EXCAVATION_RUIN:
            die = frame.detail("die")
            if frame.detail("step") is None:
                return ids.on_ruin + self._best_ruin(state, seat, die)[0]
            value = state.die_value[seat][die]
            return max(
                legal,
                key=lambda a: self.outcome_value(
                    state,
                    seat,
                    a - ids.on_ruin,
                    self._dice_with(state, a - ids.on_ruin, seat, die, value),
                    state.die_face[seat][die] <= 3,
                ),
            )
        if kind in (READING_SIGN, WONDER_MODIFIER, MODIFIER_ORDER):
            return self._modifier(state, frame.detail("seat"), frame.detail("die"), kind, legal)
        if kind in (MAP_REROLL, EDIFICE_REROLL):
            return self._reroll(state, frame.detail("seat"), frame.detail("die"))
        if kind == TAKE_STONE:
            held = state.tableaus[seat].stones_by_colour
            return max(legal, key=lambda a: (held[a - ids.take_stone], -a))
        if kind == PLACE_STONE:
            return max(legal, key=lambda a: (self._cell_value(state, seat, a - ids.place_stone), -a))
        if kind == BUILD_WONDER:
            return max(legal, key=lambda a: self._wonder_value(state, seat, a - ids.build))
        if kind == CHOOSE_REMOVED:
            return max(legal, key=lambda a: (self.ruin_value(state, seat, a - ids.removed_ruin), -a))
        return legal[0]

    def _delver_phase(self, state: UnearthState, seat: int, legal: list[int]) -> int:
        ids = self.ids
        delvers = self.cards.delvers
        for action in legal:
            if action == ids.excavate:
                continue
            kind = delvers[action - ids.play].effect.kind
            if kind in ("reroll_excavation", "two_dice", "choose_ruin_after_roll", "next_roll_modifier"):
                return action
            if kind == "next_d6_modifier":
                return action
            if kind in ("modify_placed_die", "reroll_placed_die"):
                if max(self._target_value(state, seat, action - ids.play, t) for t in self._targets(state, seat)) > 0:
                    return action
            if kind == "name_a_number_reroll":
                if max(self._song_value(state, seat, n) for n in range(1, 9)) > 0:
                    return action
            if kind == "reroll_own_dice":
                if self._restoration_value(state, seat) > 0:
                    return action
        return ids.excavate

    def _targets(self, state: UnearthState, seat: int) -> list[int]:
        n = state.num_players
        return [self.ids.target((s - seat) % n, d) for s, d in state.placed_dice()]

    def _place_value(self, state: UnearthState, seat: int, place: int, dice: list[PlacedDie]) -> float:
        return self.outcome_value(state, seat, place, dice, False)

    def _target_value(self, state: UnearthState, seat: int, card: int, action: int) -> float:
        """Gain in the target's Ruin worth from playing `card` on the die of `action`."""
        relative, die = divmod(action - self.ids.target_die, self.ids.dice_per_player)
        owner = (seat + relative) % state.num_players
        place = state.die_place[owner][die]
        faces = self.cards.die_sides[die]
        now = self._place_value(state, seat, place, state.dice_on(place))
        effect = self.cards.delvers[card].effect
        if effect.kind == "modify_placed_die":
            value = min(max(state.die_value[owner][die] + effect.amount, 1), faces)
            return self._place_value(state, seat, place, self._dice_with(state, place, owner, die, value)) - now
        expected = sum(
            self._place_value(state, seat, place, self._dice_with(state, place, owner, die, v))
            for v in range(1, faces + 1)
        )
        return expected / faces - now

    def _song_value(self, state: UnearthState, seat: int, number: int) -> float:
        """Rough gain of rerolling every die showing `number`: other seats' high dice lost, own ones at risk."""
        score = 0.0
        for s, d in state.placed_dice():
            if state.die_value[s][d] == number:
                mean = (self.cards.die_sides[d] + 1) / 2
                score += (number - mean) * (1 if s != seat else -1)
        return score - 1.0

    def _restoration_value(self, state: UnearthState, seat: int) -> float:
        score = 0.0
        for die, place in enumerate(state.die_place[seat]):
            if place != NOWHERE:
                score += (self.cards.die_sides[die] + 1) / 2 - state.die_value[seat][die]
        return score - 1.0

    def _best_ruin(self, state: UnearthState, seat: int, die: int) -> tuple[int, float]:
        """The table place where rolling `die` is worth most, and that worth."""
        bonus = state.roll_modifier + state.reading + (2 * state.ancestral if self.cards.die_sides[die] == 6 else 0)
        places = state.ruins_on_table()
        best = max(places, key=lambda p: (self.roll_value(state, seat, die, p, bonus), -p))
        return best, self.roll_value(state, seat, die, best, bonus)

    def _modifier(self, state: UnearthState, owner: int, die: int, kind: str, legal: list[int]) -> int:
        """The sign, use or order that leaves the die's Ruin worth most to the deciding seat."""
        decider = state.decision()
        assert decider is not None
        seat = decider.seat
        ids = self.ids
        place = state.die_place[owner][die]
        faces = self.cards.die_sides[die]
        value = state.die_value[owner][die]

        def worth(final: int) -> float:
            return self._place_value(state, seat, place, self._dice_with(state, place, owner, die, final))

        def after(action: int) -> float:
            if kind == MODIFIER_ORDER:
                amount = MODIFIER_AMOUNTS[action - ids.apply_next]
                rest = list(state.modifiers)
                rest.remove(amount)
                start = min(max(value + amount, 1), faces)
                return max(worth(v) for v in modifier_results(start, faces, tuple(sorted(rest))))
            index = action - ids.modifier
            amount = 1 if index == PLUS else -1 if index == MINUS else 0
            pending = tuple(sorted(state.modifiers))
            start = min(max(value + amount, 1), faces)
            return max(worth(v) for v in modifier_results(start, faces, pending))

        return max(legal, key=lambda a: (after(a), -a))

    def _reroll(self, state: UnearthState, owner: int, die: int) -> int:
        """Reroll when the expected reroll beats keeping what the die shows (with its Stone, if it gains one)."""
        ids = self.ids
        place = state.die_place[owner][die]
        face = state.die_face[owner][die]
        keep = self.outcome_value(
            state, owner, place, self._dice_with(state, place, owner, die, state.die_value[owner][die]), face <= 3
        )
        reroll = self.roll_value(state, owner, die, place, state.roll_modifier)
        return ids.reroll + (REROLL if reroll > keep else KEEP)

    def _cell_value(self, state: UnearthState, seat: int, cell: int) -> float:
        """How close the Stone on `cell` brings the empty cells around it to full rings (closing one counts most)."""
        tableau = state.tableaus[seat]
        geometry = tableau.geometry
        score = 0.0
        for n in geometry.on_grid_neighbours[cell]:
            if tableau.colour_at(n) < 0 and not tableau.is_wonder(n) and geometry.interior[n]:
                filled = tableau.stones_next_to(n) + 1
                score += filled * filled + (50 if filled == RING_SIZE else 0)
        return score

    def _wonder_value(self, state: UnearthState, seat: int, option: int) -> float:
        """Points the Wonder is worth to `seat`: a generic token's mean, or a Named Wonder's points and effect."""
        if option == GENERIC_WONDER:
            return GENERIC_WONDER_POINTS
        wonder = self.cards.named_wonders[option - 1]
        stones = state.tableaus[seat].stones_by_colour
        effect = wonder.effect
        value = float(wonder.points)
        if effect.kind == "points_per_stone" and effect.colour is not None:
            value += effect.points * stones[effect.colour]
        elif effect.kind == "points_per_stone_colour":
            value += effect.points * sum(1 for count in stones if count)
        elif effect.kind == "points_per_scarcest_stone":
            value += effect.points * min(stones)
        elif effect.kind != "none":
            value += ABILITY_POINTS
        return value
