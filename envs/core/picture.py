"""Drawing helpers every game's picture (`render.py`) shares, over Pillow: its own font by size, text cut or wrapped
to a width in pixels, text centred on a point, framed panels with a title and rows of pips (bars).

Every text is drawn in Pillow's own font (`font`), the same on every machine, so a picture is the same pixel for pixel
wherever it is drawn. Sizes are in pixels; a colour is an (r, g, b) triple.
"""

from __future__ import annotations

from functools import cache
from typing import TypeAlias

from PIL import ImageDraw, ImageFont

Colour: TypeAlias = tuple[int, int, int]
Font: TypeAlias = ImageFont.FreeTypeFont | ImageFont.ImageFont
Box: TypeAlias = tuple[float, float, float, float]
"""(left, top, right, bottom) in pixels, both edges drawn (Pillow's convention)."""

ELLIPSIS = "..."
"""What ends a text cut to its width (`fit`)."""


@cache
def font(size: int) -> Font:
    """Pillow's own font at `size` pixels (Pillow before 10.1 has one size only)."""
    try:
        return ImageFont.load_default(size=size)
    except TypeError:
        return ImageFont.load_default()


def text_width(words: str, size: int) -> float:
    """Width in pixels of `words` in the font of `size`."""
    return font(size).getlength(words)


def fit(words: str, width: float, size: int) -> str:
    """`words` as they are if at most `width` pixels wide, else cut (ending in "...") to at most `width` pixels."""
    face = font(size)
    if face.getlength(words) <= width:
        return words
    while words and face.getlength(words + ELLIPSIS) > width:
        words = words[:-1]
    return words + ELLIPSIS


def wrap(words: str, width: float, size: int, indent: str = "", keep_spaces: bool = False) -> list[str]:
    """`words` broken between words into lines at most `width` pixels wide; a word wider than a line stands alone on
    its line, uncut (`wrap_cut` cuts it). Lines after the first start with `indent`. Words are split on any run of
    whitespace, or only on single spaces with `keep_spaces` (a run of spaces inside a line is kept). No words, no
    lines."""
    face = font(size)
    lines: list[str] = []
    current = ""
    for word in words.split(" ") if keep_spaces else words.split():
        candidate = f"{current} {word}" if current else word
        if current and face.getlength(candidate) > width:
            lines.append(current)
            current = indent + word
        else:
            current = candidate
    if current:
        lines.append(current)
    return lines


def wrap_cut(words: str, width: float, size: int, most: int | None = None) -> list[str]:
    """`words` wrapped (`wrap`) into at most `most` lines (None: as many as it takes), each cut (`fit`) to `width`
    pixels: a word wider than a line, and the last line when more words are left."""
    if most is not None and most < 1:
        raise ValueError(f"wrap_cut: most={most} lines, expected at least 1 (or None for no limit)")
    lines = wrap(words, width, size)
    if most is not None and len(lines) > most:
        lines = [*lines[: most - 1], " ".join(lines[most - 1 :])]
    return [fit(line, width, size) for line in lines]


def write(draw: ImageDraw.ImageDraw, xy: tuple[float, float], words: str, size: int, fill: Colour) -> None:
    """Draw `words` with their top-left corner at `xy`, in the font of `size`."""
    draw.text(xy, words, fill=fill, font=font(size))


def write_centred(draw: ImageDraw.ImageDraw, centre: float, y: float, words: str, size: int, fill: Colour) -> None:
    """Draw `words` centred across x = `centre`, their top at `y`."""
    write(draw, (centre - text_width(words, size) / 2, y), words, size, fill)


def panel(
    draw: ImageDraw.ImageDraw,
    box: Box,
    title: str,
    size: int,
    *,
    fill: Colour | None,
    outline: Colour,
    ink: Colour,
    inset: tuple[float, float] = (8, 5),
    border: int = 1,
) -> None:
    """A box filled with `fill`, framed in `outline` (`border` pixels), its title written in `ink` at `inset`
    (x, y) from its top-left corner and cut to the box's width less that inset on both sides."""
    left, top, right, _ = box
    draw.rectangle(box, fill=fill, outline=outline, width=border)
    write(draw, (left + inset[0], top + inset[1]), fit(title, right - left - 2 * inset[0], size), size, ink)


def pips(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    filled: int,
    total: int,
    fill: Colour,
    empty: Colour | None,
    *,
    size: float | tuple[float, float],
    step: float,
    outline: Colour | None = None,
    round_pips: bool = False,
) -> float:
    """A bar of `total` pips from `xy` rightwards, one every `step` pixels, each `size` pixels (a number: square, or
    (width, height)): the first `filled` in `fill`, the others in `empty` (None: left unfilled), drawn as rectangles or
    (`round_pips`) ellipses; the x after the bar."""
    x, y = xy
    width, height = size if isinstance(size, tuple) else (size, size)
    shape = draw.ellipse if round_pips else draw.rectangle
    for index in range(total):
        left = x + index * step
        shape((left, y, left + width, y + height), fill=fill if index < filled else empty, outline=outline)
    return x + total * step
