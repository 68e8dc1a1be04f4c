"""Reference implementation of Unearth's observer: the oracle the fast `envs/unearth/observer.py` is checked against.

This is the straightforward observer as it stood before the fast one was optimised (commit 31524c7), kept verbatim
but for the class name (`ReferenceUnearthObserver`) and this docstring. tests/unearth/test_observer.py plays seeded
random games at 2, 3 and 4 players and asserts that `UnearthObserver.tensor` equals `ReferenceUnearthObserver.tensor`
bit for bit, for every seat and the public view, at every step. Keep it simple and slow: it says what the observation
is; the layout and the meaning of every view are documented in envs/unearth/observer.py.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import numpy as np

from envs.core.game import Observer
from envs.core.observation import ObservationLayout
from envs.unearth.actions import MAX_PLAYERS, MAX_TABLE, MODIFIER_AMOUNTS
from envs.unearth.render import state_text
from envs.unearth.rules import DECISION_KINDS, NOWHERE, REMOVED_AT_SETUP, UnearthState
from envs.unearth.tableau import NUM_COLOURS, PLANE_NAMES, RING_SIZE, Tableau, tableau_geometry

if TYPE_CHECKING:
    from envs.core.decisions import DecisionFrame
    from envs.core.game import State
    from envs.unearth.game import UnearthGame

TABLEAU_PLANES = tuple(name for name in PLANE_NAMES if name not in ("legal", "on grid"))
"""Tableau planes in the observation (`Tableau.to_array`'s, in its order). Left out: "legal" (derived from the
stones by the placement rules, and listed exactly by the action mask when a stone is placed) and "on grid" (the same
in every state); they would add a third to the largest view."""
_PLANE_INDEX = [PLANE_NAMES.index(name) for name in TABLEAU_PLANES]
HAND_SCALE = 10
"""Hand sizes are shown as min(size, 10) / 10 (hands stay far smaller in measured games)."""
COUNTER_SCALE = 5
"""This turn's card counters (Ancient Map rerolls, extra dice, ...) and pending modifiers are shown / 5, capped."""
DIE_FEATURES = 3 + MAX_TABLE
"""Per die in `dice`: in the pool, on place k (one-hot over MAX_TABLE), value shown / faces, face rolled / faces."""
TABLEAU_CACHE = 256
"""Tableaux whose planes are kept (`_tableau_planes`): a few games' worth of every seat's recent tableaux."""
POINTS_SCALE = 10
"""A Ruin's printed points (End of Age Ruins: +7, -4) are shown as gain and loss / 10, capped."""


class ReferenceUnearthObserver(Observer):
    """Seat `player`'s view of an Unearth state (None: the public view), equal in size for 2, 3 and 4 players."""

    def __init__(self, game: UnearthGame, player: int | None) -> None:
        self.game = game
        self.player = player
        cards = game.cards
        self.num_players = game.spec.num_players
        n_delvers, n_ruins, n_named = len(cards.delvers), len(game.ruins), len(cards.named_wonders)
        self.dice_per_player = len(cards.die_sides)
        self.ruin_colours = len(cards.ruin_colours)
        self.claim_values = tuple(sorted({ruin.claim for ruin in game.ruins}))
        geometry = tableau_geometry()
        rows, cols = geometry.grid.array_shape
        dice = self.dice_per_player
        layout = ObservationLayout()
        layout.add("hand", n_delvers)
        layout.add("hidden_ruins", n_ruins)
        layout.add("removed_ruins", n_ruins)
        layout.add("unseen_ruins", n_ruins)
        layout.add("unseen_delvers", n_delvers)
        layout.add("delver_discard", n_delvers)
        layout.add("hand_sizes", MAX_PLAYERS)
        layout.add("delver_deck_size", 1)
        layout.add("tableaus", (MAX_PLAYERS, rows, cols, len(TABLEAU_PLANES)))
        layout.add("wonders", (MAX_PLAYERS, 4 + n_named))
        layout.add("claimed", (MAX_PLAYERS, n_ruins + self.ruin_colours + 1 + len(self.claim_values) + 1))
        layout.add("table", (MAX_TABLE, 1 + self.ruin_colours + 1 + 3 + NUM_COLOURS + 1 + MAX_PLAYERS * dice))
        layout.add("dice", (MAX_PLAYERS, dice, DIE_FEATURES))
        layout.add("bag", NUM_COLOURS)
        layout.add("wonder_stacks", 2)
        layout.add("named_in_play", n_named)
        layout.add("ruins_left", 5 + len(cards.end_of_age))
        layout.add("turn", 2 * MAX_PLAYERS + 5 + len(MODIFIER_AMOUNTS) + NUM_COLOURS)
        context = MAX_PLAYERS + dice + MAX_TABLE + NUM_COLOURS + 2 + NUM_COLOURS + n_delvers + n_named
        layout.add("decision", len(DECISION_KINDS) + 2 * MAX_PLAYERS + context)
        layout.add("seats_present", MAX_PLAYERS)
        self.layout = layout
        self.size = layout.size
        self.views = layout.views
        self.view_shapes = layout.shapes
        # Scales, from the content: every entry is a count over the most there can be.
        self.copies = np.array([delver.count for delver in cards.delvers], dtype=np.float32)
        self.deck_size = float(cards.delver_deck_size)
        self.stones_per_colour = np.array([colour.count for colour in cards.stone_colours], dtype=np.float32)
        self.max_claim = float(max(ruin.claim for ruin in game.ruins))
        self.max_ruin_stones = float(max(ruin.stones for ruin in game.ruins))
        self.ruins_per_colour = float(max(sum(r.colour == c for r in game.ruins) for c in range(self.ruin_colours)))
        self.ruins_per_claim = np.array(
            [sum(r.claim == value for r in game.ruins) for value in self.claim_values], dtype=np.float32
        )
        self.lesser_total = float(max(1, len(cards.lesser_tokens)))
        self.greater_total = float(max(1, len(cards.greater_tokens)))
        self.lesser_points = float(max(1, sum(cards.lesser_tokens)))
        self.greater_points = float(max(1, sum(cards.greater_tokens)))
        self.max_hidden = float(
            1 + sum(w.effect.kind in ("draw_removed_ruin", "choose_removed_ruin") for w in cards.named_wonders)
        )
        self.library_draws = float(max([w.effect.draw for w in cards.named_wonders] + [1]))
        self.deck_ruins = float(len(cards.ruins))
        self.removed_scale = float(max(REMOVED_AT_SETUP.values()))
        self.die_sides = np.array(cards.die_sides, dtype=np.float32)
        self.radius = geometry.radius

    def relative(self, seat: int) -> int:
        """Seat `seat` as this observer sees it: 0 is "me", 1 the next seat in turn order (public view: absolute)."""
        return seat if self.player is None else (seat - self.player) % self.num_players

    # ------------------------------------------------------------------------------------------ the tensor
    def tensor(self, state: State) -> np.ndarray:
        """The flat float32 observation of this seat (see the module docstring for the views)."""
        assert isinstance(state, UnearthState)
        out = self.layout.zeros()
        views = self.layout.split(out)
        me = self.player
        n = state.num_players
        if me is not None:
            views["hand"][:] = np.asarray(state.hands[me], dtype=np.float32) / self.copies
            views["hidden_ruins"][list(state.hidden_ruins[me])] = 1.0
            if state.removed_seen[me]:
                views["removed_ruins"][list(state.removed)] = 1.0
        views["unseen_ruins"][list(self._unseen_ruins(state))] = 1.0
        views["unseen_delvers"][:] = np.asarray(self._unseen_delvers(state), dtype=np.float32) / self.copies
        views["delver_discard"][:] = np.asarray(state.delver_discard, dtype=np.float32) / self.copies
        views["delver_deck_size"][0] = sum(state.delver_deck) / self.deck_size
        for seat in range(n):
            rel = self.relative(seat)
            views["seats_present"][rel] = 1.0
            views["hand_sizes"][rel] = min(sum(state.hands[seat]), HAND_SCALE) / HAND_SCALE
            views["tableaus"][rel] = _tableau_planes(state.tableaus[seat])
            self._write_wonders(state, seat, views["wonders"][rel])
            self._write_claimed(state, seat, views["claimed"][rel])
        self._write_table(state, views["table"])
        self._write_dice(state, views["dice"])
        views["bag"][:] = np.asarray(state.bag, dtype=np.float32) / self.stones_per_colour
        views["wonder_stacks"][:] = (
            len(state.lesser_tokens) / self.lesser_total,
            len(state.greater_tokens) / self.greater_total,
        )
        views["named_in_play"][list(state.named_in_play)] = 1.0
        self._write_ruins_left(state, views["ruins_left"])
        self._write_turn(state, views["turn"])
        self._write_decision(state, views["decision"])
        return out

    def _unseen_ruins(self, state: UnearthState) -> list[int]:
        """Ruin ids this seat cannot see: the deck, the removed ones (unless seen), the other seats' hidden Ruins."""
        me = self.player
        unseen = [*state.ruin_deck]
        if me is None or not state.removed_seen[me]:
            unseen.extend(state.removed)
        unseen.extend(ruin for seat in range(state.num_players) if seat != me for ruin in state.hidden_ruins[seat])
        return unseen

    def _unseen_delvers(self, state: UnearthState) -> tuple[int, ...]:
        """Delver cards per type this seat cannot see (public view: the draw pile and every hand)."""
        if self.player is not None:
            return state.unseen_delvers(self.player)
        return tuple(sum(counts) for counts in zip(state.delver_deck, *state.hands, strict=True))

    def _write_wonders(self, state: UnearthState, seat: int, block: np.ndarray) -> None:
        """Lesser and Greater counts, Named Wonders built, and (own seat only) the points of its face-down tokens."""
        block[0] = len(state.lesser_built[seat]) / self.lesser_total
        block[1] = len(state.greater_built[seat]) / self.greater_total
        block[[4 + k for k in state.named_built[seat]]] = 1.0
        if seat == self.player:
            block[2] = sum(state.lesser_built[seat]) / self.lesser_points
            block[3] = sum(state.greater_built[seat]) / self.greater_points

    def _write_claimed(self, state: UnearthState, seat: int, block: np.ndarray) -> None:
        """Claimed Ruins (multi-hot), per Ruin colour (End of Age Ruins last), per claim value; hidden Ruins held."""
        n_ruins, colours = len(self.game.ruins), self.ruin_colours
        for ruin_id in state.claimed[seat]:
            ruin = self.game.ruins[ruin_id]
            block[ruin_id] = 1.0
            block[n_ruins + (colours if ruin.colour is None else ruin.colour)] += 1.0 / self.ruins_per_colour
            value = self.claim_values.index(ruin.claim)
            block[n_ruins + colours + 1 + value] += 1.0 / self.ruins_per_claim[value]
        block[-1] = len(state.hidden_ruins[seat]) / self.max_hidden

    def _write_table(self, state: UnearthState, table: np.ndarray) -> None:
        """Per place: present, colour (End of Age last), claim, points gained/lost, Stones per colour, dice."""
        colours = self.ruin_colours
        stones_at = 1 + colours + 1 + 3
        dice_at = stones_at + NUM_COLOURS + 1
        dice = self.dice_per_player
        for place, ruin_id in enumerate(state.table):
            if ruin_id == NOWHERE:
                continue
            ruin = self.game.ruins[ruin_id]
            row = table[place]
            row[0] = 1.0
            row[1 + (colours if ruin.colour is None else ruin.colour)] = 1.0
            row[2 + colours] = ruin.claim / self.max_claim
            row[3 + colours] = min(max(ruin.points, 0), POINTS_SCALE) / POINTS_SCALE
            row[4 + colours] = min(max(-ruin.points, 0), POINTS_SCALE) / POINTS_SCALE
            row[stones_at : stones_at + NUM_COLOURS] = np.asarray(state.ruin_stones[place]) / self.max_ruin_stones
            total = 0
            for seat, die in state.placed_dice():
                if state.die_place[seat][die] == place:
                    value = state.die_value[seat][die]
                    total += value
                    row[dice_at + self.relative(seat) * dice + die] = value / self.die_sides[die]
            row[dice_at - 1] = min(total / ruin.claim, 1.0)

    def _write_dice(self, state: UnearthState, block: np.ndarray) -> None:
        """Per seat and die: in the pool, its place (one-hot), value shown and face rolled over its faces."""
        for seat in range(state.num_players):
            rows = block[self.relative(seat)]
            for die, place in enumerate(state.die_place[seat]):
                row = rows[die]
                if place == NOWHERE:
                    row[0] = 1.0
                else:
                    row[1 + place] = 1.0
                value = state.die_value[seat][die]
                if value:  # a die in the pool shows nothing, unless an Expedition rolled it before its Ruin is chosen
                    row[1 + MAX_TABLE] = value / self.die_sides[die]
                    row[2 + MAX_TABLE] = state.die_face[seat][die] / self.die_sides[die]

    def _write_ruins_left(self, state: UnearthState, block: np.ndarray) -> None:
        """Ruins deck size, removed Ruins, End of Age revealed, the event's modifier, the card once revealed."""
        block[0] = len(state.ruin_deck) / self.deck_ruins
        block[1] = min(len(state.removed) / self.removed_scale, 1.0)
        block[2] = float(state.end_of_age_revealed)
        block[3] = min(max(state.roll_modifier, 0), COUNTER_SCALE) / COUNTER_SCALE
        block[4] = min(max(-state.roll_modifier, 0), COUNTER_SCALE) / COUNTER_SCALE
        if state.end_of_age_revealed:  # face down under the deck until then: never shown
            block[5 + state.end_of_age] = 1.0

    def _write_turn(self, state: UnearthState, block: np.ndarray) -> None:
        """Active seat, first player, this turn's counters, pending modifiers per amount, Underground Library draws."""
        if state.active != NOWHERE:
            block[self.relative(state.active)] = 1.0
        if state.first_player != NOWHERE:
            block[MAX_PLAYERS + self.relative(state.first_player)] = 1.0
        counters = (state.map_rerolls, state.extra_dice, state.expeditions, state.reading, state.ancestral)
        at = 2 * MAX_PLAYERS
        block[at : at + 5] = np.minimum(counters, COUNTER_SCALE) / COUNTER_SCALE
        at += 5
        for amount in state.modifiers:
            block[at + MODIFIER_AMOUNTS.index(amount)] += 1.0 / COUNTER_SCALE
        block[at : at + len(MODIFIER_AMOUNTS)] = np.minimum(block[at : at + len(MODIFIER_AMOUNTS)], 1.0)
        at += len(MODIFIER_AMOUNTS)
        for colour in state.library_draws:
            block[at + colour] += 1.0 / self.library_draws

    def _write_decision(self, state: UnearthState, block: np.ndarray) -> None:
        """The pending decision's kind, decider and turn owner, and its context (die, place, Stone, ring, card)."""
        frame = state.decision()
        if frame is None:
            return
        block[DECISION_KINDS.index(frame.kind)] = 1.0
        at = len(DECISION_KINDS)
        block[at + self.relative(frame.seat)] = 1.0
        at += MAX_PLAYERS
        if state.active != NOWHERE:
            block[at + self.relative(state.active)] = 1.0
        at += MAX_PLAYERS
        self._write_context(state, frame, block[at:])

    def _write_context(self, state: UnearthState, frame: DecisionFrame, block: np.ndarray) -> None:
        """The die being resolved (seat, index), the place, the Stone's colour, the ring's centre and colours, the
        Delver card played and the Named Wonder asking."""
        dice = self.dice_per_player
        seat, die, place = frame.detail("seat"), frame.detail("die"), frame.detail("place")
        if seat is not None and die is not None:
            block[self.relative(seat)] = 1.0
            block[MAX_PLAYERS + die] = 1.0
            if place is None:
                place = state.die_place[seat][die]
        at = MAX_PLAYERS + dice
        if place is not None and place != NOWHERE:
            block[at + place] = 1.0
        at += MAX_TABLE
        colour = frame.detail("colour")
        if colour is not None:
            block[at + colour] = 1.0
        at += NUM_COLOURS
        centre = frame.detail("centre")
        if centre is not None and seat is not None:
            q, r = tableau_geometry().grid.hex_at(centre)
            block[at : at + 2] = ((q + self.radius) / (2 * self.radius), (r + self.radius) / (2 * self.radius))
            for ring_colour in state.tableaus[seat].ring_colours(centre):
                if ring_colour >= 0:
                    block[at + 2 + ring_colour] += 1.0 / RING_SIZE
        at += 2 + NUM_COLOURS
        card = frame.detail("card")
        if card is not None:
            block[at + card] = 1.0
        at += len(self.game.cards.delvers)
        wonder = frame.detail("wonder")
        if wonder is not None:
            block[at + wonder] = 1.0

    # ------------------------------------------------------------------------------------------ text
    def text(self, state: State) -> str:
        """A readable table of everything this seat (or the public) may see."""
        assert isinstance(state, UnearthState)
        return state_text(state, self.player)


@functools.lru_cache(maxsize=TABLEAU_CACHE)
def _tableau_planes(tableau: Tableau) -> np.ndarray:
    """The observation's planes of one tableau (`TABLEAU_PLANES` of `Tableau.to_array`), read-only.

    Cached: a tableau is immutable and changes only when a Stone is placed, so most steps reuse every seat's planes
    (equal tableaux, equal planes: the planes depend on the cells alone)."""
    planes = np.ascontiguousarray(tableau.to_array()[..., _PLANE_INDEX])
    planes.flags.writeable = False
    return planes
