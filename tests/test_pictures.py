"""Every game's picture reads in the viewer (issue 32: "Unearth's picture is unreadable in the viewer (about 5 px text
once scaled) ... check every game's picture at that size"): at the width the viewer shows it in a 1,280-pixel window
(`tests.pictures`), no text is smaller than 11 pixels, every text lies inside the picture, and the picture keeps one
size through a game, so the viewer's page does not jump from step to step."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from agents.view.board import picture_function
from envs.core.game import State
from envs.core.registration import make_game, registered_games
from tests.pictures import MIN_READABLE_PX, display_scale, drawn

EVERY = 12
"""Every EVERY-th position of a game is drawn (and its last)."""
SEEDS = (1, 2)
"""The seeded random games drawn (Runebound's combats and Unbroken's random games are short)."""
GAME_KWARGS: dict[str, list[dict[str, Any]]] = {"unearth": [{"num_players": 2}, {"num_players": 3}, {"num_players": 4}]}
"""Settings whose pictures differ in layout, each checked."""


def drawn_positions(name: str, kwargs: dict[str, Any], seed: int) -> list[State]:
    """Every EVERY-th position of a seeded random game of `name` (and its last)."""
    game = make_game(registered_games()[name], kwargs)
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    positions = []
    step = 0
    while not state.is_terminal():
        if step % EVERY == 0:
            positions.append(state.clone())
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
        step += 1
    return [*positions, state]


CASES = [
    (name, kwargs)
    for name in sorted(registered_games())
    if picture_function(name) is not None
    for kwargs in GAME_KWARGS.get(name, [{}])
]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "kwargs"), CASES, ids=[f"{name}-{kwargs}" for name, kwargs in CASES])
def test_every_picture_reads_at_the_viewers_size(name: str, kwargs: dict[str, Any]) -> None:
    """Through seeded random games, each picture keeps the first one's size, its smallest text is at least
    MIN_READABLE_PX once the viewer scales it, and every text's box is inside the picture."""
    draw = picture_function(name)
    assert draw is not None
    sizes = set()
    smallest = float("inf")
    for seed in SEEDS:
        for state in drawn_positions(name, kwargs, seed):
            picture, texts = drawn(draw, state)
            sizes.add(picture.shape)
            height, width = picture.shape[:2]
            scale = display_scale(picture)
            for text in texts:
                smallest = min(smallest, text.size * scale)
                left, top, right, bottom = text.box
                assert 0 <= left and 0 <= top and right <= width and bottom <= height, (
                    f"{name}: {text.words!r} drawn at {text.box} outside the {width}x{height} picture"
                )
    assert len(sizes) == 1, f"{name}: the picture changes size during a game: {sorted(sizes)}"
    assert smallest >= MIN_READABLE_PX, f"{name}: text {smallest:.1f} px high in the viewer"
