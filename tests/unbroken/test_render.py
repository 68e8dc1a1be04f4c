"""The rgb_array picture: its panels stay inside the picture and never overlap, and the choice screens show the
cards on offer, the header the difficulty and printing."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from envs.unbroken.game import UnbrokenGame
from envs.unbroken.render import HEIGHT, WIDTH, Panel, Text, header_lines, layout, render_rgb, text_width
from envs.unbroken.rules import UnbrokenState
from envs.unbroken.state import Phase

from .conftest import encounter_index, make_state, skill_index

GAMES_PER_SETTING = 3
"""Seeded random games per difficulty and printing whose every screen is laid out."""


def words_of(panels: list[Panel]) -> str:
    """Every line of text of the panels, one per line."""
    return "\n".join(item.words for panel in panels for item in panel.items if isinstance(item, Text))


def check_layout(state: UnbrokenState) -> None:
    """Every panel inside the picture, its text within its box, and no two panels overlapping."""
    panels = layout(state)
    for panel in panels:
        x0, y0, x1, y1 = panel.box
        assert 0 <= x0 < x1 <= WIDTH and 0 <= y0 < y1 <= HEIGHT, f"{panel.box} leaves the picture"
        for item in panel.items:
            if isinstance(item, Text):
                assert text_width(item.words) <= x1 - x0, f"{item.words!r} is wider than its panel {panel.box}"
    for first, second in itertools.combinations(panels, 2):
        a, b = first.box, second.box
        apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
        assert apart, f"panels {a} and {b} overlap"


@pytest.mark.parametrize("preset", ["english", "spanish"])
@pytest.mark.parametrize("difficulty", ["easy", "hard"])
def test_no_screen_of_random_games_has_overlapping_panels(preset: str, difficulty: str) -> None:
    game = UnbrokenGame(difficulty=difficulty, preset=preset)
    for seed in range(GAMES_PER_SETTING):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
                continue
            check_layout(state)
            state.apply_action(int(rng.choice(state.legal_actions())))
        check_layout(state)


def test_choice_screens_show_the_revealed_cards_and_the_skill_offer(english) -> None:
    """Exploration step: the revealed encounter cards; Rewards step: the revealed skill cards."""
    cards = english.cards
    revealed = [encounter_index(english, name) for name in ("Forsaken shrine", "Rusted cage", "Sickly berries")]
    state = make_state(english, Phase.DECIDE_CARD, revealed_cards=revealed, reveal_target=3)
    text = words_of(layout(state))
    for i, card in enumerate(revealed, start=1):
        assert f"{i}. {cards.encounters[card].name}" in text
    offer = [skill_index(english, name) for name in ("Take a Peek", "Flexible")]
    state = make_state(english, Phase.DECIDE_SKILL, skill_offer=offer, skill_target=2)
    text = words_of(layout(state))
    for i, skill in enumerate(offer, start=1):
        assert f"{i}. {cards.skills[skill].name}" in text and cards.skills[skill].text.split(" ")[0] in text
    title, step = header_lines(state)
    assert "normal difficulty, english printing" in title and step == "choose a skill card"
    picture = render_rgb(state)
    assert picture.shape == (HEIGHT, WIDTH, 3) and picture.dtype == np.uint8
