"""Unearth's text table (`state_text`) and picture (`render_rgb`)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from envs.core.game import CHANCE
from envs.unearth.game import UnearthGame
from envs.unearth.render import (
    STONE_RGB,
    WONDER_RGB,
    crop_ascii,
    legal_cell_keys,
    picture_size,
    render_rgb,
    state_text,
)
from envs.unearth.rules import PLACE_STONE, UnearthState
from envs.unearth.state import NOWHERE
from envs.unearth.tableau import Tableau
from tests.pictures import MIN_READABLE_PX, display_scale, drawn


def _state(num_players: int, seed: int, decisions: int) -> UnearthState:
    """A random game of `num_players` after about `decisions` decisions (or at its end)."""
    rng = np.random.default_rng(seed)
    state = UnearthGame(num_players).new_initial_state()
    while not state.is_terminal() and state.decisions < decisions:
        if state.current_player() == CHANCE:
            state.apply_action(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
    return state


def _ring_tableau() -> Tableau:
    """A tableau with one closed ring around (1, 0), its Wonder a Lesser one."""
    tableau = Tableau()
    for hex_ in ((0, 0), (1, -1), (2, -1), (2, 0), (1, 1), (0, 1)):
        placement = tableau.place(tableau.index(hex_), colour=hex_[0] % 4)
        tableau = placement.tableau
    centre = tableau.index((1, 0))
    assert tableau.unchosen_wonder_centres() == (centre,)
    return tableau.with_wonder(centre, 0)


def test_text_lists_the_table_and_each_seat() -> None:
    """Every table place, every seat, the bag, the End of Age status and the pending decision are in the text."""
    state = _state(3, seed=1, decisions=60)
    text = state_text(state, 1)
    assert "seat 1's view" in text and "Seat 1 (you)" in text
    for place in range(len(state.table)):
        assert f"place {place + 1}:" in text
    for seat in range(3):
        assert f"Seat {seat}" in text
    assert "Bag: red" in text and "End of Age: face down" in text
    frame = state.decision()
    assert frame is not None and f"Decision: seat {frame.seat} decides: {frame.kind}" in text


def test_text_hides_hands_unless_own_or_omniscient() -> None:
    """A seat's text lists its own hand only; the public text none; the omniscient text every hand and the deck."""
    state = _state(2, seed=3, decisions=40)
    cards = state.game.cards.delvers
    hand = (2,) + (0,) * (len(cards) - 1)
    state = dataclasses.replace(state, hands=(hand, state.hands[1]))
    listed = f"Seat 0: 2 Delver cards: {cards[0].name} x2"
    assert f"Seat 0 (you): 2 Delver cards: {cards[0].name} x2" in state_text(state, 0)
    assert "Seat 0: 2 Delver cards\n" in state_text(state, 1) and cards[0].name + " x2" not in state_text(state, 1)
    assert "Seat 0: 2 Delver cards\n" in state_text(state, None)
    everything = state_text(state, None, omniscient=True)
    assert listed in everything
    assert "[deck]" in everything and "[Ruins deck]" in everything and "Removed at setup" in everything
    assert "[deck]" not in state_text(state, 0)


def test_wonder_tokens_face_down_for_others_revealed_at_the_end() -> None:
    """Another seat's Lesser Wonder shows as face down, its owner sees its points, and the end reveals them."""
    state = dataclasses.replace(_state(2, seed=3, decisions=40), lesser_built=((3,), ()))
    assert "Wonders: Lesser (3 pts)" in state_text(state, 0)
    assert "Wonders: Lesser x1 (face down)" in state_text(state, 1)
    assert "Wonders: Lesser (3 pts)" in state_text(dataclasses.replace(state, over=True, stack=()), 1)


def test_crop_keeps_the_stones_with_a_margin() -> None:
    """A cropped tableau drawing keeps every stone and wonder letter, one empty row around, and drops the rest."""
    tableau = _ring_tableau()
    full = tableau.draw_ascii()
    cropped = crop_ascii(full)
    letters = [char for char in full if char not in " .\n"]
    assert sorted(char for char in cropped if char not in " .\n") == sorted(letters)
    rows = cropped.splitlines()
    assert len(rows) == 3 + 2  # rows -1..1 and one row either side
    assert "." in rows[0] and not rows[0].replace(".", "").strip()
    assert len(full.splitlines()) == 19
    assert crop_ascii(Tableau().draw_ascii()) == ""


def test_legal_cells_lettered_while_placing_and_named_by_the_choices() -> None:
    """While a seat places a Stone, its drawn tableau marks each legal cell with a letter, and each place-stone
    choice a person reads (`action_text`) names the letter of its cell: a person can place by the map."""
    for seed in range(10):
        game = UnearthGame(2)
        state = game.new_initial_state()
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            frame = state.decision()
            if frame is not None and frame.kind == PLACE_STONE and state.tableaus[frame.detail("seat")].stone_count:
                seat = frame.detail("seat")
                section = state_text(state, seat).split(f"Seat {seat}")[1].split("Seat")[0]
                keys = legal_cell_keys(state.tableaus[seat])
                assert len(keys) == len(state.legal_actions()) >= 1
                drawn = {char for char in section.split("tableau:")[1] if char.islower()}
                assert set(keys.values()) <= drawn
                observer = game.observer(seat)
                for action in state.legal_actions():
                    cell = action - game.actions.place_stone
                    assert observer.action_text(state, action) == f"place stone on {keys[cell]} (cell {cell})"
                return
            if state.current_player() == CHANCE:
                state.apply_action(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])
    pytest.fail("no Stone placement found")


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_picture_is_an_rgb_array(num_players: int) -> None:
    """render_rgb gives a uint8 picture of `picture_size` of the table and every tableau, Wonders included."""
    state = _state(num_players, seed=num_players, decisions=150)
    tableaus = list(state.tableaus)
    tableaus[0] = _ring_tableau()
    picture = render_rgb(dataclasses.replace(state, tableaus=tuple(tableaus)))
    width, height = picture_size(num_players)
    assert picture.shape == (height, width, 3) and picture.dtype == np.uint8
    colours = {tuple(pixel) for pixel in picture[::4, ::4].reshape(-1, 3).tolist()}
    assert WONDER_RGB in colours and STONE_RGB["red"] in colours and STONE_RGB["blue"] in colours


def test_card_texts_shown_to_a_person() -> None:
    """The table shows each Named Wonder in play with its formula, points and text (not the bare formula), and a
    seat's own Delver cards with their texts; choosing one to play names what it does."""
    game = UnearthGame(2)
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    while state.current_player() == CHANCE:
        state.apply_action(state.sample_chance(rng))
    seat = state.current_player()
    text = state_text(state, seat)
    for k in state.named_in_play:
        wonder = game.cards.named_wonders[k]
        assert f"{wonder.name} [{wonder.formula.notation}], {wonder.points} points: {wonder.text}" in text
    held = [t for t, count in enumerate(state.hands[seat]) if count]
    assert held
    for t in held:
        assert f"{game.cards.delvers[t].name}: {game.cards.delvers[t].text}" in text
    observer = game.observer(seat)
    plays = [a for a in state.legal_actions() if game.actions.play <= a < game.actions.play + len(game.cards.delvers)]
    for action in plays:
        assert observer.action_text(state, action).endswith(f"({game.cards.delvers[action - game.actions.play].text})")


def test_a_die_modified_on_a_ruin_is_reported_with_its_old_and_new_result() -> None:
    """A New Discovery: "Give +2 to any one die already on a Ruin." With one die on the Ruins the rules choose it
    themselves (RULES.md, "Decisions"), so terminal play reports which die changed: its seat, place and results."""
    game = UnearthGame(2)
    observer = game.observer(0)
    rng = np.random.default_rng(2)
    state = game.new_initial_state()
    played = None
    while not state.is_terminal() and played is None:
        player = state.current_player()
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            action = outcomes[rng.choice(len(outcomes), p=[p for _, p in outcomes])][0]
        else:
            legal = state.legal_actions()
            action = legal[rng.integers(len(legal))]
        before = state.clone()
        state.apply_action(action)
        if player != CHANCE and game.action_label(action) == "play: A New Discovery":
            played = (before, player, action)
    assert played is not None
    before, player, action = played
    changed = [
        (seat, die)
        for seat in range(2)
        for die, place in enumerate(before.die_place[seat])
        if place != NOWHERE and before.die_value[seat][die] != state.die_value[seat][die]
    ]
    assert len(changed) == 1
    seat, die = changed[0]
    old, new = before.die_value[seat][die], state.die_value[seat][die]
    assert new - old in (1, 2)  # +2, up to the die's highest face
    place = before.die_place[seat][die] + 1
    assert observer.report(before, player, action, state) == [
        f"seat {seat}'s die {die + 1} (d{game.cards.die_sides[die]}) on place {place}: {old} -> {new}"
    ]
    assert observer.report(state, player, action, state) == []


@pytest.mark.parametrize("num_players", [2, 4])
def test_picture_names_the_named_wonders_in_play_and_built(num_players: int) -> None:
    """The picture draws every Named Wonder in play by its full name with its points and formula (issue 32: "the
    Named Wonders not drawn"), and a built one by name in its builder's panel."""
    state = _state(num_players, seed=4, decisions=40)
    named = state.game.cards.named_wonders
    built = state.named_in_play[0]
    rest = tuple(k for k in state.named_in_play if k != built)
    owned = tuple((built,) if seat == 1 else state.named_built[seat] for seat in range(num_players))
    state = dataclasses.replace(state, named_in_play=rest, named_built=owned)
    _, texts = drawn(render_rgb, state)
    words = [text.words for text in texts]
    for k in rest:
        assert named[k].name in words, f"{named[k].name} is not drawn"
        formula = [text.words for text in texts if text.words in ("?", "1", "2", "3")]
        assert named[k].formula.notation.count("?") <= formula.count("?")
    assert named[built].name in words


def test_picture_text_reads_at_the_viewers_width() -> None:
    """Issue 32: "about 5 px text once scaled": the picture fits the viewer's column in a 1,280-pixel window, so its
    text is shown unscaled, none under MIN_READABLE_PX."""
    state = _state(4, seed=6, decisions=150)
    picture, texts = drawn(render_rgb, state)
    assert display_scale(picture) == 1.0
    assert min(text.size for text in texts) >= MIN_READABLE_PX
