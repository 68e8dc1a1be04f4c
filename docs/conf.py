"""Sphinx configuration of the tabletop-gym documentation site (MyST Markdown, the furo theme, autodoc).

The pages that describe code are written from the code at build time (`docs/generate.py`): each game's page (env
ids, keyword arguments, observation views, action groups, a picture from its render) from its registration record,
its game, its entry points and its observer; its RULES.md, CONTENT.md and REFERENCE.md as pages; its results page
from `benchmarks/results/`; the config reference from the config models; the API reference by autodoc, each
docstring shown as written (they are plain text, not reStructuredText). No table can drift from what it describes.
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS.parent))  # the repository root: envs, agents, benchmarks
sys.path.insert(0, str(DOCS))

import generate  # noqa: E402 - after the path: docs/generate.py

generate.write_pages(DOCS / "_generated")

project = "tabletop-gym"
author = "the tabletop-gym developers"
extensions = ["myst_parser", "sphinx.ext.autodoc"]
autodoc_default_options = {"member-order": "bysource"}
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build", "notes"]  # notes/<game>.md are parts of the generated game pages
html_theme = "furo"
html_title = "tabletop-gym"
myst_heading_anchors = 3
suppress_warnings = ["myst.header"]  # result files start below the top heading level on purpose


def _plain_docstring(app: object, what: str, name: str, obj: object, options: object, lines: list[str]) -> None:
    """Show a docstring as written (plain text, not reStructuredText): `generate.plain_docstring`."""
    lines[:] = generate.plain_docstring(lines)


def setup(app: object) -> None:
    """Docstrings are plain text: autodoc shows them line by line."""
    app.connect("autodoc-process-docstring", _plain_docstring)  # type: ignore[attr-defined]
