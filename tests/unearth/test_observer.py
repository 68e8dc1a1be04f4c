"""Unearth's observer: one size for 2-4 players, values in [0, 1], seat-relative blocks, no hidden information leaks."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from collections.abc import Callable

import numpy as np
import pytest

from envs.core.game import CHANCE
from envs.core.testing import check_no_leak, check_resample_keeps_own_view
from envs.unearth.actions import MAX_PLAYERS
from envs.unearth.game import UnearthGame
from envs.unearth.observer import TABLEAU_PLANES, UnearthObserver
from envs.unearth.rules import DECISION_KINDS, NOWHERE, UnearthState
from envs.unearth.tableau import PLANE_NAMES
from tests.unearth.reference_observer import ReferenceUnearthObserver

SEATS = [2, 3, 4]
EQUIVALENCE_GAMES = {2: 10, 3: 7, 4: 5}
"""Seeded random games per player count in which the fast observer is checked against the reference at every step."""


def _play(game: UnearthGame, seed: int, until: Callable[[UnearthState], bool] | None = None) -> list[UnearthState]:
    """Clones of the states of one random game (decisions and chance outcomes from `seed`), up to `until`."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    states = [state.clone()]
    while not state.is_terminal() and not (until and until(state)):
        if state.current_player() == CHANCE:
            state.apply_action(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
        states.append(state.clone())
    return states


def _midgame(num_players: int) -> UnearthState:
    """A state in the middle of a random game: seat 1 holds Delver cards, a Ruin is claimed, the End of Age card is
    still face down, and a seat acts (the first seeded game that reaches one)."""

    def ready(state: UnearthState) -> bool:
        return (
            state.decision() is not None
            and not state.end_of_age_revealed
            and sum(state.hands[1]) > 0
            and sum(len(claimed) for claimed in state.claimed) >= 1
        )

    for seed in range(20):
        state = _play(UnearthGame(num_players), seed, until=ready)[-1]
        if ready(state):
            return state
    raise AssertionError("no mid-game state in 20 seeded games")


def _observers(game: UnearthGame) -> list[UnearthObserver]:
    observers = [UnearthObserver(game, seat) for seat in range(game.spec.num_players)]
    return [*observers, UnearthObserver(game, None)]


def test_one_size_and_layout_for_every_seat_and_player_count() -> None:
    """Every seat's view and the public view of 2-, 3- and 4-player games share one size, view list and shapes."""
    first = UnearthObserver(UnearthGame(2), 0)
    for num_players in SEATS:
        for observer in _observers(UnearthGame(num_players)):
            assert observer.size == first.size
            assert observer.views == first.views
            assert observer.view_shapes == first.view_shapes
            assert (observer.low, observer.high) == (0.0, 1.0)
    shapes = first.view_shapes
    assert shapes["tableaus"] == (MAX_PLAYERS, 19, 19, len(TABLEAU_PLANES))
    assert set(TABLEAU_PLANES) <= set(PLANE_NAMES)
    assert shapes["decision"][0] > len(DECISION_KINDS)
    assert shapes["table"][0] == 5 and shapes["dice"] == (MAX_PLAYERS, 5, 8)
    assert sum(int(np.prod(shape)) for shape in shapes.values()) == first.size


@pytest.mark.parametrize("num_players", SEATS)
def test_values_in_bounds_over_random_playouts(num_players: int) -> None:
    """Through a whole random game (chance nodes and the end included) every view is float32, finite, in [0, 1]."""
    game = UnearthGame(num_players)
    observers = _observers(game)
    states = _play(game, seed=num_players)
    assert states[-1].is_terminal()
    for state in states[::3] + states[-1:]:
        for observer in observers:
            tensor = observer.tensor(state)
            assert tensor.shape == (observer.size,) and tensor.dtype == np.float32
            assert np.all(np.isfinite(tensor))
            assert tensor.min() >= 0.0 and tensor.max() <= 1.0, (
                f"out of bounds: {[name for name in observer.views if observer.view(tensor, name).max() > 1]}"
            )
    assert isinstance(observers[0].text(states[-1]), str)


@pytest.mark.parametrize("num_players", SEATS)
def test_resampling_what_a_seat_cannot_see_never_changes_its_view(num_players: int) -> None:
    """`resample_hidden(seat)` (other hands, deck, hidden and removed Ruins, tokens, End of Age card) leaves the seat's
    tensor and text and the public text unchanged, and does redraw something (the check is not vacuous). The generic
    checkers (`check_no_leak`, `check_resample_keeps_own_view`) check the same on every state of whole games."""
    game = UnearthGame(num_players)
    rng = np.random.default_rng(num_players)
    observers = _observers(game)
    public = observers[-1]
    redrawn = 0
    for state in _play(game, seed=20 + num_players)[::9]:
        for observer in observers[:-1]:
            assert observer.player is not None
            other = state.resample_hidden(observer.player, rng)
            redrawn += other.to_dict() != state.to_dict()
            assert np.array_equal(observer.tensor(other), observer.tensor(state)), f"seat {observer.player} sees more"
            assert observer.text(other) == observer.text(state)
            assert public.text(other) == public.text(state)
            assert np.array_equal(public.tensor(other), public.tensor(state))
    assert redrawn > 0


def test_generic_hidden_information_checkers_pass() -> None:
    """envs/core/testing.py's `check_no_leak` and `check_resample_keeps_own_view` accept every state of a 2-player
    game (3 and 4 players pass too; they run through the registry's tests, being slower)."""
    game = UnearthGame(2)
    assert check_no_leak(game, seed=2, games=1, redraws=1) > 0
    assert check_resample_keeps_own_view(game, seed=2, games=1) > 0


def test_other_seats_secrets_leave_my_view_unchanged() -> None:
    """Another seat's hand, hidden Ruin and Wonder token values, the removed Ruins, the split of unseen Delver cards
    between the deck and the hands, and the face-down End of Age card are not in seat 0's view (they are in seat 1's
    when they are its own)."""
    state = _midgame(3)
    game = state.game
    me, other = UnearthObserver(game, 0), UnearthObserver(game, 1)
    seen, seen_by_other = me.tensor(state), other.tensor(state)
    hand = list(state.hands[1])
    given = next(t for t, count in enumerate(hand) if count)
    taken = next(t for t, count in enumerate(state.delver_deck) if count and t != given)
    hand[given] -= 1
    hand[taken] += 1
    deck = list(state.delver_deck)
    deck[given] += 1
    deck[taken] -= 1
    swapped = state.ruin_deck[0]
    changes = {
        "hand": {"hands": (state.hands[0], tuple(hand), state.hands[2]), "delver_deck": tuple(deck)},
        "hidden ruin": {
            "hidden_ruins": (state.hidden_ruins[0], (swapped,), state.hidden_ruins[2]),
            "ruin_deck": (*state.ruin_deck[1:], *state.hidden_ruins[1]),
        },
        "removed": {"removed": (*state.removed[1:], swapped), "ruin_deck": (*state.ruin_deck[1:], state.removed[0])},
    }
    if not state.end_of_age_revealed:
        changes["end of age"] = {"end_of_age": (state.end_of_age + 1) % len(game.cards.end_of_age)}
    for what, fields in changes.items():
        changed = dataclasses.replace(state, **fields)
        assert np.array_equal(me.tensor(changed), seen), f"seat 0 sees seat 1's {what}"
        if what in ("hand", "hidden ruin"):
            assert not np.array_equal(other.tensor(changed), seen_by_other), f"seat 1 does not see its own {what}"
    base = dataclasses.replace(state, lesser_built=((), (2,), ()), lesser_tokens=(3, 3, 4))
    own_tokens = dataclasses.replace(state, lesser_built=((), (4,), ()), lesser_tokens=(2, 3, 3))
    assert not np.array_equal(other.tensor(base), other.tensor(own_tokens)), "seat 1 does not see its token values"
    assert np.array_equal(me.tensor(base), me.tensor(own_tokens))


def test_own_hand_hidden_ruin_and_tokens_are_visible() -> None:
    """A seat sees its own Delver cards per type, its hidden Ruin and the points of its own Wonder tokens."""
    state = dataclasses.replace(_midgame(2), lesser_built=((3,), ()), greater_built=((7,), ()))
    game = state.game
    observer = UnearthObserver(game, 0)
    tensor = observer.tensor(state)
    copies = np.array([delver.count for delver in game.cards.delvers])
    assert np.allclose(observer.view(tensor, "hand"), np.array(state.hands[0]) / copies)
    assert np.flatnonzero(observer.view(tensor, "hidden_ruins")).tolist() == sorted(state.hidden_ruins[0])
    wonders = observer.view(tensor, "wonders")
    assert wonders[0, 2] > 0 and wonders[0, 3] > 0  # own token points
    assert wonders[1, 2] == wonders[1, 3] == 0


def test_seat_relative_order() -> None:
    """Seat 1's view puts seat 1's blocks first, then seat 2, then seat 0; the public view keeps absolute seats."""
    state = _midgame(3)
    game = state.game
    observer = UnearthObserver(game, 1)
    tensor = observer.tensor(state)
    tableaus = observer.view(tensor, "tableaus")
    order = [1, 2, 0]
    for relative, seat in enumerate(order):
        expected = state.tableaus[seat].to_array()[..., [PLANE_NAMES.index(name) for name in TABLEAU_PLANES]]
        assert np.array_equal(tableaus[relative], expected)
        claimed = observer.view(tensor, "claimed")[relative, : len(game.ruins)]
        assert np.flatnonzero(claimed).tolist() == sorted(state.claimed[seat])
    assert not tableaus[3].any()
    assert observer.view(tensor, "seats_present").tolist() == [1, 1, 1, 0]
    sizes = observer.view(tensor, "hand_sizes")
    assert [sizes[relative] for relative in range(3)] == [min(sum(state.hands[s]), 10) / 10 for s in order]
    active = observer.view(tensor, "turn")[:MAX_PLAYERS]
    assert active.tolist().index(1.0) == (state.active - 1) % 3
    public = UnearthObserver(game, None)
    public_tableaus = public.view(public.tensor(state), "tableaus")
    assert np.array_equal(public_tableaus[1], tableaus[0])
    dice = observer.view(tensor, "dice")
    for seat, die in state.placed_dice():
        place = state.die_place[seat][die]
        assert dice[(seat - 1) % 3, die, 1 + place] == 1.0


def test_public_view_has_no_hand_and_counts_every_unseen_card() -> None:
    """The public view shows no hand, hidden Ruin or token value; its unseen Delver pool is the deck and all hands."""
    state = dataclasses.replace(_midgame(4), lesser_built=((3,), (), (), ()))
    game = state.game
    public = UnearthObserver(game, None)
    tensor = public.tensor(state)
    for name in ("hand", "hidden_ruins", "removed_ruins"):
        assert not public.view(tensor, name).any(), name
    assert not public.view(tensor, "wonders")[:, 2:4].any()
    copies = np.array([delver.count for delver in game.cards.delvers])
    unseen = np.array(state.delver_deck) + np.sum(state.hands, axis=0)
    assert np.allclose(public.view(tensor, "unseen_delvers"), unseen / copies)
    hidden = {ruin for seat in range(4) for ruin in state.hidden_ruins[seat]}
    assert hidden <= set(np.flatnonzero(public.view(tensor, "unseen_ruins")).tolist())


def test_removed_ruins_only_once_seen() -> None:
    """The removed Ruins appear in a seat's view once it has looked at them (The Crumbling Memorial), not before,
    and then leave its unseen pool."""
    state = _midgame(2)
    observer = UnearthObserver(state.game, 0)
    before = observer.tensor(state)
    assert not observer.view(before, "removed_ruins").any()
    seen = dataclasses.replace(state, removed_seen=(True, False))
    after = observer.tensor(seen)
    assert np.flatnonzero(observer.view(after, "removed_ruins")).tolist() == sorted(state.removed)
    assert not set(state.removed) & set(np.flatnonzero(observer.view(after, "unseen_ruins")).tolist())
    assert np.array_equal(UnearthObserver(state.game, 1).tensor(seen), UnearthObserver(state.game, 1).tensor(state))


def test_end_of_age_card_shown_only_once_revealed() -> None:
    """The End of Age card's one-hot is zero while it is face down under the deck and names the card once revealed."""
    state = _midgame(2)
    observer = UnearthObserver(state.game, 0)
    cards = len(state.game.cards.end_of_age)
    hidden = observer.view(observer.tensor(state), "ruins_left")
    assert not state.end_of_age_revealed and not hidden[-cards:].any() and hidden[2] == 0
    revealed = dataclasses.replace(state, end_of_age_revealed=True)
    shown = observer.view(observer.tensor(revealed), "ruins_left")
    assert shown[2] == 1 and np.flatnonzero(shown[-cards:]).tolist() == [state.end_of_age]


@pytest.mark.parametrize("num_players", SEATS)
def test_decision_view_names_the_kind_and_the_decider(num_players: int) -> None:
    """At every decision of a game the decision view's kind is one-hot and the decider is given relative to me."""
    game = UnearthGame(num_players)
    observer = UnearthObserver(game, num_players - 1)
    kinds = set()
    for state in _play(game, seed=11)[:400]:
        decision = observer.view(observer.tensor(state), "decision")
        frame = state.decision()
        if frame is None:
            assert not decision.any()
            continue
        kinds.add(frame.kind)
        assert np.flatnonzero(decision[: len(DECISION_KINDS)]).tolist() == [DECISION_KINDS.index(frame.kind)]
        decider = decision[len(DECISION_KINDS) : len(DECISION_KINDS) + MAX_PLAYERS]
        assert np.flatnonzero(decider).tolist() == [(frame.seat - observer.player) % num_players]
    assert len(kinds) >= 4


def test_text_shows_own_secrets_only() -> None:
    """The text view names the seat's own hand and hidden Ruin, counts the others', and the omniscient text shows
    all; the face-down End of Age card is named only in the omniscient text."""
    state = _midgame(2)
    game = state.game
    own_ruin = game.ruins[state.hidden_ruins[0][0]].name
    other_ruin = game.ruins[state.hidden_ruins[1][0]].name
    mine = UnearthObserver(game, 0).text(state)
    assert f"hidden Ruins: {own_ruin}" in mine and f"hidden Ruins: {other_ruin}" not in mine
    assert "hidden Ruins: 1 face down" in mine
    public = UnearthObserver(game, None).text(state)
    assert f"hidden Ruins: {own_ruin}" not in public
    everything = state.debug_text()
    assert f"hidden Ruins: {own_ruin}" in everything and f"hidden Ruins: {other_ruin}" in everything
    card = game.cards.end_of_age[state.end_of_age].name
    assert f"[{card}]" in everything and f"[{card}]" not in mine
    assert state.table[0] == NOWHERE or game.ruins[state.table[0]].name in mine


@pytest.mark.parametrize("num_players", SEATS)
def test_fast_observer_equals_the_reference_at_every_step(num_players: int) -> None:
    """`UnearthObserver.tensor` is bit-identical to the straightforward reference implementation
    (tests/unearth/reference_observer.py) for every seat and the public view at every step (chance nodes, decisions
    and the end) of seeded random games; the observers live across the games, as an env's do across resets, and the
    states are the one live state changing in place, as the adapters hand it over."""
    game = UnearthGame(num_players)
    seats: list[int | None] = [*range(num_players), None]
    fast = [UnearthObserver(game, seat) for seat in seats]
    reference = [ReferenceUnearthObserver(game, seat) for seat in seats]
    checked = 0
    for seed in range(EQUIVALENCE_GAMES[num_players]):
        rng = np.random.default_rng(1000 * num_players + seed)
        state = game.new_initial_state()
        while True:
            for seat, observer, oracle in zip(seats, fast, reference, strict=True):
                expected, tensor = oracle.tensor(state), observer.tensor(state)
                if not np.array_equal(tensor, expected):
                    differ = [
                        name for name, part in oracle.views.items() if not np.array_equal(tensor[part], expected[part])
                    ]
                    raise AssertionError(f"seat {seat}, game {seed}, decision {state.decisions}: views {differ} differ")
                checked += 1
            if state.is_terminal():
                break
            if state.current_player() == CHANCE:
                state.apply_action(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])
    assert checked > 1000


def test_fast_observer_equals_the_reference_on_states_in_any_order() -> None:
    """The fast observer keeps nothing from one call that a later, unrelated state could see: clones of the states of
    two games, 3 and 4 players' observers over their own states, shuffled, still match the reference."""
    rng = np.random.default_rng(7)
    for num_players in (3, 4):
        game = UnearthGame(num_players)
        states = [state for seed in (1, 2) for state in _play(game, seed)]
        order = rng.permutation(len(states))[:150]
        for seat in [*range(num_players), None]:
            fast, oracle = UnearthObserver(game, seat), ReferenceUnearthObserver(game, seat)
            for index in order:
                assert np.array_equal(fast.tensor(states[index]), oracle.tensor(states[index])), (seat, index)


def test_pickled_and_copied_observers_still_equal_the_reference() -> None:
    """A pickled or deep-copied observer (an env sent to a worker process, a search's copy) rebuilds the tensor it
    keeps between calls: its views do not come back as arrays detached from it."""
    game = UnearthGame(3)
    states = _play(game, seed=5)
    for seat in (0, None):
        observer, oracle = UnearthObserver(game, seat), ReferenceUnearthObserver(game, seat)
        for state in states[:60]:
            observer.tensor(state)
        for copied in (pickle.loads(pickle.dumps(observer)), copy.deepcopy(observer)):
            for state in states[60:200]:
                assert np.array_equal(copied.tensor(state), oracle.tensor(state)), seat
