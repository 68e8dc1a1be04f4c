"""Sphinx configuration of the tabletop-gym documentation site (MyST Markdown, the furo theme).

The pages that describe code are written from the code at build time (`docs/generate.py`): each game's env ids,
keyword arguments, observation views and action groups come from its registration record, its game and its observer,
and the results page from `benchmarks/results/*.md`, so no table can drift from what it describes.
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
extensions = ["myst_parser"]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build", "notes"]  # notes/<game>.md are parts of the generated game pages
html_theme = "furo"
html_title = "tabletop-gym"
myst_heading_anchors = 3
suppress_warnings = ["myst.header"]  # result files start below the top heading level on purpose
