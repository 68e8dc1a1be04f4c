"""Unearth's observation: one flat float32 vector of named, shaped views, the same size for 2, 3 and 4 players.

Per-seat blocks are sized for `MAX_PLAYERS` (4) and ordered seat-relative: "me" first, then the seats after me in
turn order (`UnearthObserver.relative`); the public view (player None) uses absolute seats. Seats beyond the game's
players are zero, and `seats_present` says which blocks are real. Every entry lies in [0, 1]: counts are divided by
the most there can be (the copies of a card type, the tokens of a stack), a few open-ended counts are divided by a
named scale and capped at 1.

Hidden information stays hidden (each item is a field that `UnearthState.resample_hidden` redraws): the other
seats' Delver cards (only the pool this seat cannot see is shown, `unseen_delvers`: the draw pile and the other
hands together, never either alone), the other seats' hidden Ruins and face-down Wonder token values, the Ruins
removed at setup (unless this seat looked at them: The Crumbling Memorial), the End of Age card until it is revealed,
and the order and content of the decks (only their sizes, and the pool of Ruins this seat has not seen).

Speed: an observer keeps its last tensor and rewrites a part of it (`UnearthObserver._parts`) only when a state
field that part reads is no longer the same (the fields are immutable, so the same field means the same values), and
a changed tableau only in the cells whose planes changed; each call returns a copy. tests/unearth/test_observer.py
checks the result bit for bit against the straightforward reference implementation
(tests/unearth/reference_observer.py) at every step of seeded games.

Views (`UnearthObserver.view_shapes`; `Observer.view(observation, name)` returns one reshaped):

| view | shape | contents |
|---|---|---|
| `hand` | (Delver types,) | own Delver cards per type / copies of the type (zero in the public view) |
| `hidden_ruins` | (Ruins,) | own hidden Ruins, one-hot over Ruin ids (zero in the public view) |
| `removed_ruins` | (Ruins,) | the Ruins removed at setup, only once this seat has seen them |
| `unseen_ruins` | (Ruins,) | Ruins this seat cannot see: the deck, the removed ones (unless seen), others' hidden |
| `unseen_delvers` | (Delver types,) | Delver cards this seat cannot see (draw pile + other hands) / copies |
| `delver_discard` | (Delver types,) | the Delver discard pile / copies |
| `hand_sizes` | (4,) | cards in each seat's hand / `HAND_SCALE` (capped) |
| `delver_deck_size` | (1,) | cards in the Delver draw pile / the deck's size |
| `tableaus` | (4, 19, 19, 6) | each seat's tableau planes (`TABLEAU_PLANES`) in the grid's axial array layout |
| `wonders` | (4, 4 + Named) | Lesser, Greater Wonders built / tokens; own token points; Named Wonders built |
| `claimed` | (4, Ruins + 6 + claims + 1) | claimed Ruins; per colour (End of Age last), per claim value; hidden held |
| `table` | (5, 15 + 4 * 5) | per place: Ruin present, colour, claim, points, Stones, dice total / claim, die values |
| `dice` | (4, 5, 8) | per seat and die: in the pool, its place (one-hot), value shown / faces, face rolled / faces |
| `bag` | (4,) | Stones in the bag per colour / Stones of the colour |
| `wonder_stacks` | (2,) | Lesser and Greater Wonder tokens left in their stacks / tokens |
| `named_in_play` | (Named,) | Named Wonders on the table, not built yet |
| `ruins_left` | (5 + End of Age cards,) | deck size, removed, End of Age revealed, modifier (+, -), its card |
| `turn` | (21,) | active seat, first player, this turn's card counters, pending modifiers per amount, library draws |
| `decision` | (kinds + 8 + 24 + Delvers + Named,) | pending decision: kind, decider, turn owner, its context |
| `seats_present` | (4,) | 1 for each seat in the game |
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from envs.core.game import Observer, State
from envs.core.observation import ENTITY, FEATURE, GRID, SEAT, ObservationLayout
from envs.unearth.actions import MAX_PLAYERS, MAX_TABLE, MODIFIER_AMOUNTS
from envs.unearth.render import legal_cell_keys, state_text
from envs.unearth.rules import DECISION_KINDS, NOWHERE, REMOVED_AT_SETUP, UnearthState
from envs.unearth.state import die_names
from envs.unearth.tableau import NUM_COLOURS, PLANE_NAMES, RING_SIZE, Tableau, plane_table, tableau_geometry

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
"""Tableaux whose plane keys are kept (`_plane_keys`): a few games' worth of every seat's recent tableaux."""
_REBUILT = (
    "_buffer",
    "_views",
    "_table",
    "_dice",
    "_table_rows",
    "_tableau_rows",
    "_delver_fractions",
    "_bag_fractions",
    "_tableaus_shown",
    "_tableau_keys",
    "_dice_shown",
    "_keys",
)
"""The observer's attributes that `UnearthObserver._start_afresh` makes (not pickled or copied: rebuilt)."""
FRACTION_CACHE = 4096
"""Count tuples whose fractions an observer keeps (`UnearthObserver._fractions`) before it starts afresh."""
POINTS_SCALE = 10
"""A Ruin's printed points (End of Age Ruins: +7, -4) are shown as gain and loss / 10, capped."""
_TURN_FIELDS = (
    "active",
    "first_player",
    "map_rerolls",
    "extra_dice",
    "expeditions",
    "reading",
    "ancestral",
    "modifiers",
    "library_draws",
)
"""The state fields the `turn` view shows."""


class UnearthObserver(Observer):
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
        layout.add("hand_sizes", MAX_PLAYERS, (SEAT,))
        layout.add("delver_deck_size", 1)
        layout.add("tableaus", (MAX_PLAYERS, rows, cols, len(TABLEAU_PLANES)), (SEAT, GRID, GRID, FEATURE))
        layout.add("wonders", (MAX_PLAYERS, 4 + n_named), (SEAT, FEATURE))
        layout.add(
            "claimed", (MAX_PLAYERS, n_ruins + self.ruin_colours + 1 + len(self.claim_values) + 1), (SEAT, FEATURE)
        )
        table_features = 1 + self.ruin_colours + 1 + 3 + NUM_COLOURS + 1 + MAX_PLAYERS * dice
        layout.add("table", (MAX_TABLE, table_features), (ENTITY, FEATURE))
        layout.add("dice", (MAX_PLAYERS, dice, DIE_FEATURES), (SEAT, ENTITY, FEATURE))
        layout.add("bag", NUM_COLOURS)
        layout.add("wonder_stacks", 2)
        layout.add("named_in_play", n_named)
        layout.add("ruins_left", 5 + len(cards.end_of_age))
        layout.add("turn", 2 * MAX_PLAYERS + 5 + len(MODIFIER_AMOUNTS) + NUM_COLOURS)
        context = MAX_PLAYERS + dice + MAX_TABLE + NUM_COLOURS + 2 + NUM_COLOURS + n_delvers + n_named
        layout.add("decision", len(DECISION_KINDS) + 2 * MAX_PLAYERS + context)
        layout.add("seats_present", MAX_PLAYERS, (SEAT,))
        self.layout = layout
        self.size = layout.size
        self.views = layout.views
        self.view_shapes = layout.shapes
        self.view_axes = layout.axes
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
        self._rel = tuple(self.relative(seat) for seat in range(self.num_players))
        """Seat -> its block in the per-seat views."""
        self._kind_index = {kind: index for index, kind in enumerate(DECISION_KINDS)}
        # Per Ruin id: the start of its `table` row (present, colour, claim, points), its claim, and the slots of its
        # colour and claim value in `claimed` (written as the reference arithmetic writes them: same float32 values).
        colours = self.ruin_colours
        heads = np.zeros((n_ruins, 1 + colours + 1 + 3), dtype=np.float32)
        for ruin_id, ruin in enumerate(game.ruins):
            head = heads[ruin_id]
            head[0] = 1.0
            head[1 + (colours if ruin.colour is None else ruin.colour)] = 1.0
            head[2 + colours] = ruin.claim / self.max_claim
            head[3 + colours] = min(max(ruin.points, 0), POINTS_SCALE) / POINTS_SCALE
            head[4 + colours] = min(max(-ruin.points, 0), POINTS_SCALE) / POINTS_SCALE
        self._ruin_claim = tuple(ruin.claim for ruin in game.ruins)
        self._ruin_heads = tuple(heads)
        self._stones_at = heads.shape[1]
        self._die_fractions = tuple(
            tuple(float(value / sides) for value in range(max(cards.die_sides) + 1)) for sides in self.die_sides
        )
        """Per die, value / its faces as float32 computes it, for every value a die may show (0 to the most faces)."""
        self._ruin_colour_slot = tuple(colours if ruin.colour is None else ruin.colour for ruin in game.ruins)
        self._ruin_claim_slot = tuple(self.claim_values.index(ruin.claim) for ruin in game.ruins)
        self._table_width = layout.shapes["table"][1]
        self._tableau_cells = geometry.array_cells
        self._plane_table = plane_table(tuple(_PLANE_INDEX))
        self._parts: tuple[tuple[Callable[[UnearthState], object], Callable[[UnearthState], None]], ...] = (
            (operator.attrgetter("hands", "delver_deck", "delver_discard"), self._write_cards),
            (operator.attrgetter("ruin_deck", "removed", "removed_seen", "hidden_ruins"), self._write_ruins),
            (operator.attrgetter("tableaus"), self._write_tableaus),
            (operator.attrgetter("lesser_built", "greater_built", "named_built"), self._write_wonders),
            (operator.attrgetter("claimed", "hidden_ruins"), self._write_claimed),
            (operator.attrgetter("table", "ruin_stones"), self._write_table),
            (operator.attrgetter("table", "die_place", "die_value"), self._write_table_dice),
            (operator.attrgetter("die_place", "die_value", "die_face"), self._write_dice),
            (operator.attrgetter("bag", "lesser_tokens", "greater_tokens", "named_in_play"), self._write_supply),
            (
                operator.attrgetter("ruin_deck", "removed", "end_of_age_revealed", "roll_modifier", "end_of_age"),
                self._write_ruins_left,
            ),
            (operator.attrgetter(*_TURN_FIELDS), self._write_turn),
            (operator.attrgetter("over", "stack", "active", "die_place", "tableaus"), self._write_decision),
        )
        """(the state fields a part reads, its writer): every value of the observation is written by one part."""
        self._start_afresh()

    def _start_afresh(self) -> None:
        """A zero buffer and its views, nothing shown yet: the next `tensor` writes every part.

        The observation is kept between calls and each part is rewritten only when the state fields it reads
        changed (`tensor`); the fields are immutable, so a part whose fields are unchanged holds the right values."""
        layout = self.layout
        self._buffer = layout.zeros()
        self._views = layout.split(self._buffer)
        self._views["seats_present"][list(self._rel)] = 1.0
        self._table = self._buffer[layout.views["table"]]
        self._dice = self._buffer[layout.views["dice"]]
        """Flat views of `table` and `dice`, written one value at a time."""
        self._table_rows = self._views["table"]
        self._tableau_rows = self._views["tableaus"].reshape(MAX_PLAYERS, -1, len(TABLEAU_PLANES))
        """Per seat block, its planes as one row per array cell (a view of the buffer)."""
        self._delver_fractions: dict[tuple[int, ...], np.ndarray] = {}
        self._bag_fractions: dict[tuple[int, ...], np.ndarray] = {}
        """`_fractions` already computed: Delver cards per type / copies, Stones per colour / Stones of the colour."""
        self._tableaus_shown: list[Tableau | None] = [None] * self.num_players
        self._tableau_keys: list[np.ndarray | None] = [None] * self.num_players
        """Per seat, the tableau whose planes the buffer holds, and its `Tableau.plane_keys`."""
        self._dice_shown: list[tuple[tuple[int, ...], ...] | None] = [None] * self.num_players
        self._keys: list[object] = [None] * len(self._parts)
        """The fields each part was last written from."""

    def __getstate__(self) -> dict[str, object]:
        # The buffer's views would come back from pickle or deepcopy as separate arrays: they are rebuilt instead.
        return {name: value for name, value in self.__dict__.items() if name not in _REBUILT}

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._start_afresh()

    def relative(self, seat: int) -> int:
        """Seat `seat` as this observer sees it: 0 is "me", 1 the next seat in turn order (public view: absolute)."""
        return seat if self.player is None else (seat - self.player) % self.num_players

    # ------------------------------------------------------------------------------------------ the tensor
    def tensor(self, state: State) -> np.ndarray:
        """The flat float32 observation of this seat (see the module docstring for the views)."""
        assert isinstance(state, UnearthState)
        keys = self._keys
        for index, (key_of, write) in enumerate(self._parts):
            key = key_of(state)
            if key != keys[index]:  # immutable fields: equal (mostly identical) inputs write the same values
                keys[index] = key
                write(state)
        return self._buffer.copy()

    def _write_cards(self, state: UnearthState) -> None:
        """Own hand, the unseen Delver cards, the discard pile, the draw pile's size and every hand's size."""
        views = self._views
        me = self.player
        if me is not None:
            views["hand"][:] = self._fractions(state.hands[me], self.copies, self._delver_fractions)
        views["unseen_delvers"][:] = self._fractions(self._unseen_delvers(state), self.copies, self._delver_fractions)
        views["delver_discard"][:] = self._fractions(state.delver_discard, self.copies, self._delver_fractions)
        views["delver_deck_size"][0] = sum(state.delver_deck) / self.deck_size
        sizes = views["hand_sizes"]
        for seat, rel in enumerate(self._rel):
            sizes[rel] = min(sum(state.hands[seat]), HAND_SCALE) / HAND_SCALE

    def _write_ruins(self, state: UnearthState) -> None:
        """Own hidden Ruins, the removed Ruins once seen, and the Ruins this seat cannot see (multi-hot)."""
        views = self._views
        hidden, removed, unseen = views["hidden_ruins"], views["removed_ruins"], views["unseen_ruins"]
        hidden.fill(0.0)
        removed.fill(0.0)
        unseen.fill(0.0)
        me = self.player
        if me is not None:
            for ruin in state.hidden_ruins[me]:
                hidden[ruin] = 1.0
            if state.removed_seen[me]:
                removed[list(state.removed)] = 1.0
        unseen[self._unseen_ruins(state)] = 1.0

    def _write_tableaus(self, state: UnearthState) -> None:
        """The planes of each seat's tableau that changed since the last call: only its cells whose planes changed
        (a Stone changes a few: its cell, the ring progress around it, the rings it closes)."""
        shown, shown_keys = self._tableaus_shown, self._tableau_keys
        cells, table = self._tableau_cells, self._plane_table
        for seat, tableau in enumerate(state.tableaus):
            if tableau is shown[seat]:
                continue
            shown[seat] = tableau
            keys = _plane_keys(tableau)
            old = shown_keys[seat]
            shown_keys[seat] = keys
            planes = self._tableau_rows[self._rel[seat]]
            if old is None or old.shape != keys.shape:
                planes[cells] = table.take(keys, axis=0)
            else:
                changed = np.flatnonzero(keys != old)
                planes[cells[changed]] = table.take(keys[changed], axis=0)

    def _write_wonders(self, state: UnearthState) -> None:
        """Per seat: Lesser and Greater counts, Named Wonders built, and (own seat only) its face-down tokens' value."""
        wonders = self._views["wonders"]
        wonders.fill(0.0)
        for seat, rel in enumerate(self._rel):
            block = wonders[rel]
            block[0] = len(state.lesser_built[seat]) / self.lesser_total
            block[1] = len(state.greater_built[seat]) / self.greater_total
            block[[4 + k for k in state.named_built[seat]]] = 1.0
            if seat == self.player:
                block[2] = sum(state.lesser_built[seat]) / self.lesser_points
                block[3] = sum(state.greater_built[seat]) / self.greater_points

    def _write_claimed(self, state: UnearthState) -> None:
        """Per seat: claimed Ruins (multi-hot), per colour (End of Age last), per claim value; hidden Ruins held."""
        claimed = self._views["claimed"]
        claimed.fill(0.0)
        n_ruins = len(self.game.ruins)
        by_colour, by_claim = self._ruin_colour_slot, self._ruin_claim_slot
        for seat, rel in enumerate(self._rel):
            block = claimed[rel]
            for ruin_id in state.claimed[seat]:
                block[ruin_id] = 1.0
                colour, value = by_colour[ruin_id], by_claim[ruin_id]
                block[n_ruins + colour] += 1.0 / self.ruins_per_colour
                block[n_ruins + self.ruin_colours + 1 + value] += 1.0 / self.ruins_per_claim[value]
            block[-1] = len(state.hidden_ruins[seat]) / self.max_hidden

    def _write_table(self, state: UnearthState) -> None:
        """Per place: present, colour (End of Age last), claim, points gained/lost, Stones per colour."""
        table, width, heads = self._table, self._table_width, self._ruin_heads
        stones_at = self._stones_at
        self._table_rows[:, : stones_at + NUM_COLOURS] = 0.0
        for place, ruin_id in enumerate(state.table):
            if ruin_id == NOWHERE:
                continue
            row = place * width
            table[row : row + stones_at] = heads[ruin_id]
            for colour, stones in enumerate(state.ruin_stones[place]):
                if stones:
                    table[row + stones_at + colour] = stones / self.max_ruin_stones

    def _write_table_dice(self, state: UnearthState) -> None:
        """Per place holding a Ruin: the dice total / the claim (capped), and the value of each die on it."""
        table, width, fractions = self._table, self._table_width, self._die_fractions
        total_at = self._stones_at + NUM_COLOURS
        self._table_rows[:, total_at:] = 0.0
        places = state.table
        totals = [0] * len(places)
        for seat, rel in enumerate(self._rel):
            at = total_at + 1 + rel * self.dice_per_player
            values = state.die_value[seat]
            for die, place in enumerate(state.die_place[seat]):
                if place != NOWHERE and places[place] != NOWHERE:
                    value = values[die]
                    totals[place] += value
                    fraction = fractions[die]
                    table[place * width + at + die] = (
                        fraction[value] if 0 <= value < len(fraction) else self._die_fraction(die, value)
                    )
        for place, ruin_id in enumerate(places):
            if ruin_id != NOWHERE:
                table[place * width + total_at] = min(totals[place] / self._ruin_claim[ruin_id], 1.0)

    def _write_dice(self, state: UnearthState) -> None:
        """Per seat and die (only the seats whose dice changed): in the pool, its place (one-hot), value and face."""
        dice, shown, fractions = self._dice, self._dice_shown, self._die_fractions
        block = self.dice_per_player * DIE_FEATURES
        for seat, rel in enumerate(self._rel):
            places, values, faces = state.die_place[seat], state.die_value[seat], state.die_face[seat]
            if shown[seat] == (places, values, faces):
                continue
            shown[seat] = (places, values, faces)
            start = rel * block
            dice[start : start + block] = 0.0
            for die, place in enumerate(places):
                row = start + die * DIE_FEATURES
                dice[row + 1 + place] = 1.0  # NOWHERE (-1): column 0, "in the pool"
                value = values[die]
                if value:  # a die in the pool shows nothing, unless an Expedition rolled it before its Ruin is chosen
                    fraction, face = fractions[die], faces[die]
                    in_table = 0 <= value < len(fraction) and 0 <= face < len(fraction)
                    dice[row + 1 + MAX_TABLE] = fraction[value] if in_table else self._die_fraction(die, value)
                    dice[row + 2 + MAX_TABLE] = fraction[face] if in_table else self._die_fraction(die, face)

    def _die_fraction(self, die: int, value: int) -> float:
        """`value` / the faces of die `die` as float32 computes it (what `_die_fractions` holds for 0 to the most faces
        of any die)."""
        return float(value / self.die_sides[die])

    def _write_supply(self, state: UnearthState) -> None:
        """Stones in the bag, Wonder tokens left in their stacks, Named Wonders in play."""
        views = self._views
        views["bag"][:] = self._fractions(state.bag, self.stones_per_colour, self._bag_fractions)
        stacks = views["wonder_stacks"]
        stacks[0] = len(state.lesser_tokens) / self.lesser_total
        stacks[1] = len(state.greater_tokens) / self.greater_total
        named = views["named_in_play"]
        named.fill(0.0)
        for wonder in state.named_in_play:
            named[wonder] = 1.0

    @staticmethod
    def _fractions(counts: tuple[int, ...], most: np.ndarray, cache: dict[tuple[int, ...], np.ndarray]) -> np.ndarray:
        """`counts` / `most` (the float32 quotients), kept in `cache` (one per divisor): hands, piles and the bag
        recur."""
        fractions = cache.get(counts)
        if fractions is None:
            if len(cache) >= FRACTION_CACHE:
                cache.clear()
            fractions = cache[counts] = np.asarray(counts, dtype=np.float32) / most
            fractions.flags.writeable = False
        return fractions

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

    def _write_ruins_left(self, state: UnearthState) -> None:
        """Ruins deck size, removed Ruins, End of Age revealed, the event's modifier, the card once revealed."""
        block = self._views["ruins_left"]
        block.fill(0.0)
        block[0] = len(state.ruin_deck) / self.deck_ruins
        block[1] = min(len(state.removed) / self.removed_scale, 1.0)
        block[2] = float(state.end_of_age_revealed)
        block[3] = min(max(state.roll_modifier, 0), COUNTER_SCALE) / COUNTER_SCALE
        block[4] = min(max(-state.roll_modifier, 0), COUNTER_SCALE) / COUNTER_SCALE
        if state.end_of_age_revealed:  # face down under the deck until then: never shown
            block[5 + state.end_of_age] = 1.0

    def _write_turn(self, state: UnearthState) -> None:
        """Active seat, first player, this turn's counters, pending modifiers per amount, Underground Library draws."""
        block = self._views["turn"]
        block.fill(0.0)
        if state.active != NOWHERE:
            block[self._rel[state.active]] = 1.0
        if state.first_player != NOWHERE:
            block[MAX_PLAYERS + self._rel[state.first_player]] = 1.0
        counters = (state.map_rerolls, state.extra_dice, state.expeditions, state.reading, state.ancestral)
        at = 2 * MAX_PLAYERS
        for offset, counter in enumerate(counters):
            block[at + offset] = min(counter, COUNTER_SCALE) / COUNTER_SCALE
        at += 5
        if state.modifiers:
            for amount in state.modifiers:
                block[at + MODIFIER_AMOUNTS.index(amount)] += 1.0 / COUNTER_SCALE
            block[at : at + len(MODIFIER_AMOUNTS)] = np.minimum(block[at : at + len(MODIFIER_AMOUNTS)], 1.0)
        at += len(MODIFIER_AMOUNTS)
        for colour in state.library_draws:
            block[at + colour] += 1.0 / self.library_draws

    def _write_decision(self, state: UnearthState) -> None:
        """The pending decision's kind, decider and turn owner, and its context (die, place, Stone, ring, card)."""
        block = self._views["decision"]
        block.fill(0.0)
        frame = state.decision()
        if frame is None:
            return
        block[self._kind_index[frame.kind]] = 1.0
        at = len(DECISION_KINDS)
        block[at + self._rel[frame.seat]] = 1.0
        at += MAX_PLAYERS
        if state.active != NOWHERE:
            block[at + self._rel[state.active]] = 1.0
        at += MAX_PLAYERS
        if frame.details:
            self._write_context(state, frame, block[at:])

    def _write_context(self, state: UnearthState, frame: DecisionFrame, block: np.ndarray) -> None:
        """The die being resolved (seat, index), the place, the Stone's colour, the ring's centre and colours, the
        Delver card played and the Named Wonder asking."""
        details = dict(frame.details)
        dice = self.dice_per_player
        seat, die, place = details.get("seat"), details.get("die"), details.get("place")
        if seat is not None and die is not None:
            block[self._rel[seat]] = 1.0
            block[MAX_PLAYERS + die] = 1.0
            if place is None:
                place = state.die_place[seat][die]
        at = MAX_PLAYERS + dice
        if place is not None and place != NOWHERE:
            block[at + place] = 1.0
        at += MAX_TABLE
        colour = details.get("colour")
        if colour is not None:
            block[at + colour] = 1.0
        at += NUM_COLOURS
        centre = details.get("centre")
        if centre is not None and seat is not None:
            q, r = tableau_geometry().grid.hex_at(centre)
            block[at : at + 2] = ((q + self.radius) / (2 * self.radius), (r + self.radius) / (2 * self.radius))
            for ring_colour in state.tableaus[seat].ring_colours(centre):
                if ring_colour >= 0:
                    block[at + 2 + ring_colour] += 1.0 / RING_SIZE
        at += 2 + NUM_COLOURS
        card = details.get("card")
        if card is not None:
            block[at + card] = 1.0
        at += len(self.game.cards.delvers)
        wonder = details.get("wonder")
        if wonder is not None:
            block[at + wonder] = 1.0

    # ------------------------------------------------------------------------------------------ text
    def text(self, state: State) -> str:
        """A readable table of everything this seat (or the public) may see."""
        assert isinstance(state, UnearthState)
        return state_text(state, self.player)

    def action_text(self, state: State, action: int) -> str:
        """The action's label, with the letter its cell has on the drawn tableau (a Stone's place) or the card's text
        (a Delver card played, a Named Wonder built)."""
        assert isinstance(state, UnearthState)
        label = self.game.action_label(action)
        actions, cards = self.game.actions, self.game.cards
        if actions.place_stone <= action < actions.place_stone + actions.cells:
            frame = state.decision()
            seat = frame.detail("seat") if frame is not None else state.active
            key = legal_cell_keys(state.tableaus[seat]).get(action - actions.place_stone)
            return f"place stone on {key} ({label.removeprefix('place stone: ')})" if key else label
        if actions.play <= action < actions.play + len(cards.delvers):
            return f"{label} ({cards.delvers[action - actions.play].text})"
        if actions.build < action <= actions.build + len(cards.named_wonders):
            return f"{label} ({cards.named_wonders[action - actions.build - 1].text})"
        return label

    def report(self, before: State, player: int, action: int, after: State) -> list[str]:
        """Every die already on a Ruin whose result the event changed (a Delver card's modifier or reroll), with its
        seat, place and old and new result: the rules take a choice with one legal option themselves (RULES.md,
        "Decisions"), so a card's single possible target shows here and nowhere else. Dice on Ruins are public."""
        assert isinstance(before, UnearthState) and isinstance(after, UnearthState)
        names = die_names(self.game.cards.die_sides)
        lines = []
        for seat, (places, old_values, new_places, new_values) in enumerate(
            zip(before.die_place, before.die_value, after.die_place, after.die_value, strict=True)
        ):
            for die, (place, old, new_place, new) in enumerate(
                zip(places, old_values, new_places, new_values, strict=True)
            ):
                if place != NOWHERE and place == new_place and old != new:
                    lines.append(f"seat {seat}'s {names[die]} on place {place + 1}: {old} -> {new}")
        return lines


@functools.lru_cache(maxsize=TABLEAU_CACHE)
def _plane_keys(tableau: Tableau) -> np.ndarray:
    """`Tableau.plane_keys` of `tableau`, read-only; cached, as every observer of a game sees each new tableau."""
    keys = tableau.plane_keys()
    keys.flags.writeable = False
    return keys
