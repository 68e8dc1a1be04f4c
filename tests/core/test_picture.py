"""The drawing helpers the games' pictures share (envs/core/picture.py): text cut and wrapped to a width in pixels,
text centred on a point, framed panels with a title and bars of pips, checked on the pixels they draw."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw

from envs.core.picture import ELLIPSIS, fit, font, panel, pips, text_width, wrap, wrap_cut, write, write_centred

SIZE = 12
WORDS = "the quick brown fox jumps over the lazy dog while the cat sleeps on a warm windowsill all afternoon"
BLACK, WHITE, RED, BLUE = (0, 0, 0), (255, 255, 255), (255, 0, 0), (0, 0, 255)


def _canvas(width: int = 200, height: int = 60) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (width, height), BLACK)
    return image, ImageDraw.Draw(image)


def _where(image: Image.Image, colour: tuple[int, int, int]) -> np.ndarray:
    """A boolean mask of the pixels of exactly `colour`."""
    return np.all(np.asarray(image) == colour, axis=-1)


def _columns(mask: np.ndarray) -> tuple[int, int]:
    """The leftmost and rightmost column holding a pixel of `mask`."""
    columns = np.flatnonzero(mask.any(axis=0))
    return int(columns[0]), int(columns[-1])


def test_font_is_pillows_own_font_at_the_size_asked_and_made_once() -> None:
    """One font object per size, and a larger size writes wider text."""
    assert font(SIZE) is font(SIZE)
    assert text_width("wide words", 16) > text_width("wide words", 11)
    assert text_width("wide words", SIZE) == font(SIZE).getlength("wide words")


@pytest.mark.parametrize("width", [0, 8, 20, 57, 100])
def test_fit_cuts_to_the_width_with_an_ellipsis(width: int) -> None:
    """Text wider than the width is cut to a prefix ending in '...' no wider than the width (down to '...' alone)."""
    cut = fit(WORDS, width, SIZE)
    assert cut.endswith(ELLIPSIS)
    assert WORDS.startswith(cut[: -len(ELLIPSIS)])
    if cut != ELLIPSIS:
        assert text_width(cut, SIZE) <= width
        assert text_width(WORDS[: len(cut) - len(ELLIPSIS) + 1] + ELLIPSIS, SIZE) > width  # the longest that fits


def test_fit_leaves_text_that_fits_as_it_is() -> None:
    """Text no wider than the width comes back unchanged, to the pixel."""
    assert fit("short", 200, SIZE) == "short"
    exact = text_width("exactly", SIZE)
    assert fit("exactly", exact, SIZE) == "exactly"
    assert fit("exactly", exact - 1, SIZE).endswith(ELLIPSIS)


@pytest.mark.parametrize("width", [70, 90, 150, 400])
def test_wrap_never_exceeds_the_width_and_keeps_every_word(width: int) -> None:
    """Every line is at most `width` pixels (no word here is wider than a line), no line could take the next line's
    first word, and the words come back in order."""
    assert max(text_width(word, SIZE) for word in WORDS.split()) <= width
    lines = wrap(WORDS, width, SIZE)
    assert all(text_width(line, SIZE) <= width for line in lines)
    assert " ".join(lines).split() == WORDS.split()
    for line, following in zip(lines, lines[1:], strict=False):
        assert text_width(f"{line} {following.split()[0]}", SIZE) > width


def test_wrap_puts_a_word_wider_than_a_line_alone_and_uncut() -> None:
    """A word wider than the width stands on its own line as it is."""
    assert wrap("a incomprehensibilities b", 30, SIZE) == ["a", "incomprehensibilities", "b"]


def test_wrap_indents_the_lines_after_the_first_and_counts_the_indent() -> None:
    """Continuation lines start with the indent, which counts toward the width."""
    lines = wrap(WORDS, 90, SIZE, indent="  ")
    assert not lines[0].startswith(" ")
    assert len(lines) > 2 and all(line.startswith("  ") and not line.startswith("   ") for line in lines[1:])
    assert all(text_width(line, SIZE) <= 90 for line in lines)


def test_wrap_folds_white_space_unless_told_to_keep_spaces() -> None:
    """Any run of white space separates words; with keep_spaces a run of spaces inside a line stays."""
    assert wrap("name   DEFENDING\tnow", 400, SIZE) == ["name DEFENDING now"]
    assert wrap("name   DEFENDING", 400, SIZE, keep_spaces=True) == ["name   DEFENDING"]


def test_wrap_of_no_words_is_no_lines() -> None:
    """Empty or blank text gives no line."""
    assert wrap("", 100, SIZE) == []
    assert wrap("   ", 100, SIZE) == []
    assert wrap_cut("", 100, SIZE) == []


def test_wrap_cut_holds_at_most_the_lines_asked_each_within_the_width() -> None:
    """At most `most` lines, each within the width; the last one ends in '...' when words are left over."""
    every = wrap(WORDS, 90, SIZE)
    assert len(every) > 3
    lines = wrap_cut(WORDS, 90, SIZE, most=3)
    assert lines[:2] == every[:2]
    assert len(lines) == 3 and lines[2].endswith(ELLIPSIS)
    assert all(text_width(line, SIZE) <= 90 for line in lines)
    assert wrap_cut(WORDS, 90, SIZE) == every  # no limit: the same lines (none wider than the width to cut)
    assert wrap_cut("a incomprehensibilities", 40, SIZE)[1].endswith(ELLIPSIS)  # a word wider than a line is cut


def test_wrap_cut_refuses_fewer_than_one_line() -> None:
    """Asking for no line at all is an error naming the argument."""
    with pytest.raises(ValueError, match="most=0"):
        wrap_cut(WORDS, 90, SIZE, most=0)


def test_write_centred_centres_the_text_on_the_point() -> None:
    """The ink of a centred text is balanced around the centre (within a pixel of the glyphs' side bearings)."""
    image, draw = _canvas()
    write_centred(draw, 100, 10, "centred", SIZE, WHITE)
    left, right = _columns(_where(image, WHITE))
    assert abs((left + right) / 2 - 100) <= 1.5
    assert right - left + 1 <= text_width("centred", SIZE) + 1


def test_write_draws_at_the_point_in_the_size_asked() -> None:
    """The text's ink starts at the point given (not left of it) and is as wide as the font says."""
    image, draw = _canvas()
    write(draw, (30, 10), "words", SIZE, WHITE)
    left, right = _columns(_where(image, WHITE))
    assert 30 <= left <= 32
    assert right <= 30 + text_width("words", SIZE)


def test_panel_frames_fills_and_titles_the_box_and_cuts_a_long_title() -> None:
    """The frame is drawn on the box's edges in `outline`, the inside in `fill`, the title in `ink` from the inset,
    cut so that it stays inside the box less the inset."""
    image, draw = _canvas(120, 40)
    panel(draw, (10, 5, 100, 35), WORDS, SIZE, fill=BLUE, outline=RED, ink=WHITE, inset=(6, 4))
    frame = _where(image, RED)
    assert frame[5, 10:101].all() and frame[35, 10:101].all() and frame[5:36, 10].all() and frame[5:36, 100].all()
    assert _where(image, BLUE)[30, 20:90].all()
    left, right = _columns(_where(image, WHITE))
    assert left >= 10 + 6 and right <= 100 - 6
    assert not _where(image, BLUE)[:, :10].any() and not frame[:, 101:].any()


def test_panel_without_fill_leaves_the_inside_as_it_was() -> None:
    """fill=None draws the frame and the title only."""
    image, draw = _canvas(120, 40)
    panel(draw, (10, 5, 100, 35), "t", SIZE, fill=None, outline=RED, ink=WHITE, border=2)
    assert _where(image, RED)[6, 10:101].all()  # a two-pixel frame
    assert _where(image, BLACK)[30, 20:90].all()


@pytest.mark.parametrize(("filled", "total"), [(0, 5), (3, 5), (5, 5), (7, 10), (2, 3)])
def test_pips_fill_the_first_ones_in_proportion(filled: int, total: int) -> None:
    """`filled` of `total` pips in the fill colour, the rest in the empty colour, one every `step` pixels; the x after
    the bar is `step` past the last pip."""
    image, draw = _canvas(200, 20)
    after = pips(draw, (4, 2), filled, total, RED, BLUE, size=9, step=12)
    assert after == 4 + total * 12
    row = np.asarray(image)[6]
    for index in range(total):
        left = 4 + index * 12
        assert tuple(row[left + 4]) == (RED if index < filled else BLUE)
        assert tuple(row[left + 11]) == BLACK  # the gap between two pips
    assert _where(image, RED).sum() == filled * 10 * 10  # each pip covers its box, both edges drawn
    assert _where(image, BLUE).sum() == (total - filled) * 10 * 10


def test_pips_unfilled_empty_and_outlines_and_discs_and_sizes() -> None:
    """empty=None leaves the rest unfilled (outline only); a (width, height) size draws rectangles that shape; round
    pips are discs (their box's corners left)."""
    image, draw = _canvas(200, 30)
    pips(draw, (0, 0), 1, 2, RED, None, size=(20, 8), step=25, outline=WHITE)
    assert tuple(np.asarray(image)[4, 10]) == RED and tuple(np.asarray(image)[4, 35]) == BLACK
    assert _where(image, WHITE)[0, 25:46].all() and _where(image, WHITE)[8, 25:46].all()
    image, draw = _canvas(200, 30)
    pips(draw, (0, 0), 1, 1, RED, None, size=20, step=25, round_pips=True)
    assert tuple(np.asarray(image)[10, 10]) == RED and tuple(np.asarray(image)[0, 0]) == BLACK


def test_pips_with_fractional_steps_fill_a_bar_of_the_width_given() -> None:
    """A bar of many segments at a fractional step spans its width: its last segment ends at x + total * step."""
    image, draw = _canvas(200, 20)
    total, width = 7, 100
    step = width / total
    pips(draw, (10, 2), 3, total, RED, BLUE, size=(step - 2, 9), step=step)
    left, right = _columns(_where(image, RED) | _where(image, BLUE))
    assert left == 10 and abs(right - (10 + width - 2)) <= 1
