"""What the viewer makes of a game's picture: the width it shows it at (read from its stylesheet) and every text the
picture draws with its font size and box (recorded while it draws), so tests check readability without reading pixels.

The viewer puts the picture in its board column, beside the list of events, and scales it down to that column's width
(`max-width: 100%`), never up. The column is the window less the page's padding, the gap and the events list.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np
from PIL import ImageDraw, ImageFont

STYLESHEET = Path(__file__).resolve().parents[1] / "agents" / "view" / "static" / "viewer.css"
REFERENCE_WINDOW = 1280
"""Width (CSS pixels) of the browser window the pictures are checked at: a common laptop's, the smallest in use."""
MIN_READABLE_PX = 11
"""Smallest font size (pixels, once scaled to the viewer's width) that reads comfortably on a screen."""


def _rule(selector: str) -> str:
    """The declarations of a rule of the viewer's stylesheet."""
    match = re.search(rf"(?m)^{re.escape(selector)}\s*\{{([^}}]*)\}}", STYLESHEET.read_text(encoding="utf-8"))
    assert match, f"{STYLESHEET} has no rule for {selector!r}"
    return match.group(1)


def _pixels(declarations: str, name: str) -> list[int]:
    """The pixel values of one declaration ('padding: 8px 16px' -> [8, 16])."""
    match = re.search(rf"(?:^|;)\s*{re.escape(name)}\s*:\s*([^;]*)", declarations)
    assert match, f"no {name!r} in {declarations!r}"
    return [int(value) for value in re.findall(r"(\d+)px", match.group(1))]


def viewer_picture_width(window: int = REFERENCE_WINDOW) -> int:
    """The widest the viewer shows a picture in a window `window` pixels wide: the board column, i.e. the window less
    the page's side padding (`main`), the gap of `.table` and the events list (`.events`: flex basis and padding)."""
    main_padding = _pixels(_rule("main"), "padding")
    side = main_padding[1] if len(main_padding) > 1 else main_padding[0]
    gap = _pixels(_rule(".table"), "gap")[0]
    events = _rule(".events")
    basis = _pixels(events, "flex")[0]
    padding = _pixels(events, "padding-left")[0]
    return window - 2 * side - gap - basis - padding


def display_scale(picture: np.ndarray, window: int = REFERENCE_WINDOW) -> float:
    """The factor the viewer scales `picture` by (1 when it fits its column: pictures are never scaled up)."""
    return min(1.0, viewer_picture_width(window) / picture.shape[1])


@dataclass(frozen=True)
class DrawnText:
    """One text a picture drew: its words, its font size in pixels and its box (left, top, right, bottom)."""

    words: str
    size: float
    box: tuple[float, float, float, float]


def _font_size(font: Any) -> float:
    """A font's size in pixels: a FreeType font's em size, a bitmap font's height."""
    if isinstance(font, ImageFont.FreeTypeFont):
        return float(font.size)
    left, top, right, bottom = font.getbbox("Ag")
    return float(bottom - top)


@contextmanager
def recording_texts() -> Iterator[list[DrawnText]]:
    """Within the block, every `ImageDraw.text` call is recorded (and drawn as usual)."""
    texts: list[DrawnText] = []
    original = ImageDraw.ImageDraw.text

    def record(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        font = kwargs.get("font") or self.getfont()
        box = self.textbbox(xy, str(text), font=font)
        texts.append(DrawnText(str(text), _font_size(font), tuple(float(v) for v in box)))  # type: ignore[arg-type]
        original(self, xy, text, *args, **kwargs)

    with mock.patch.object(ImageDraw.ImageDraw, "text", record):
        yield texts


def drawn(draw: Callable[[Any], np.ndarray], state: Any) -> tuple[np.ndarray, list[DrawnText]]:
    """The picture of `state` and every text it drew."""
    with recording_texts() as texts:
        picture = np.asarray(draw(state))
    return picture, texts
