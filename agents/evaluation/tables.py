"""Results tables on standard output: rich tables where rich is installed (the train extra), aligned plain text else.

Evaluating needs only the core dependencies; rich draws nicer tables when it is there. Both show the same title,
column names and cells, so what a log or a test reads does not depend on it.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any, Literal, TextIO

WIDTH_OFF_TERMINAL = 160
"""Width of rich's tables when standard output is not a terminal (logs and pipes: no wrapping at 80 columns)."""
COLUMN_GAP = "  "
"""Between the columns of a plain-text table."""

Justify = Literal["left", "right"]


@dataclass
class TextTable:
    """A titled table of text cells, each column left- or right-justified."""

    title: str
    columns: list[tuple[str, Justify]] = field(default_factory=list)
    rows: list[tuple[str, ...]] = field(default_factory=list)

    def add_column(self, name: str, justify: Justify = "left") -> None:
        """Append a column."""
        self.columns.append((name, justify))

    def add_row(self, *cells: str) -> None:
        """Append a row: one cell per column."""
        if len(cells) != len(self.columns):
            raise ValueError(f"a row of {self.title!r} needs {len(self.columns)} cells, got {len(cells)}")
        self.rows.append(tuple(cells))

    def plain(self) -> str:
        """The table as aligned plain text: the title, the header, a rule, a line per row."""
        header = tuple(name for name, _ in self.columns)
        widths = [max(len(line[i]) for line in (header, *self.rows)) for i in range(len(self.columns))]

        def line(cells: tuple[str, ...]) -> str:
            parts = [
                cell.rjust(width) if justify == "right" else cell.ljust(width)
                for cell, width, (_, justify) in zip(cells, widths, self.columns, strict=True)
            ]
            return COLUMN_GAP.join(parts).rstrip()

        rule = COLUMN_GAP.join("-" * width for width in widths)
        return "\n".join([self.title, line(header), rule, *(line(row) for row in self.rows)])


def rich_console(file: TextIO | None = None) -> Any | None:
    """A rich Console on `file` (standard output by default), or None where rich is not installed."""
    try:
        from rich.console import Console
    except ImportError:
        return None
    console = Console(file=file)
    if not console.is_terminal:
        console = Console(file=file, width=WIDTH_OFF_TERMINAL)
    return console


class ResultsConsole:
    """Prints headings, notes and TextTables: through rich where it is installed, else as plain text."""

    def __init__(self, file: TextIO | None = None, use_rich: bool = True) -> None:
        self.file = file
        self.rich = rich_console(file) if use_rich else None

    def _write(self, text: str) -> None:
        print(text, file=self.file if self.file is not None else sys.stdout, flush=True)

    def heading(self, text: str) -> None:
        """A heading line after a blank line (bold with rich)."""
        if self.rich is None:
            self._write(f"\n{text}")
        else:
            from rich.text import Text

            self.rich.print()
            self.rich.print(Text(text, style="bold"))

    def text(self, text: str) -> None:
        """A line of text, printed as it is (no markup)."""
        if self.rich is None:
            self._write(text)
        else:
            self.rich.print(text, markup=False, highlight=False)

    def table(self, table: TextTable) -> None:
        """A table: rich's where rich is installed, else `table.plain()`."""
        if self.rich is None:
            self._write("\n" + table.plain())
            return
        from rich.table import Table
        from rich.text import Text

        drawn = Table(title=Text(table.title))  # Text: a "[0.0%, 43.4%]" cell is a cell, never markup
        for name, justify in table.columns:
            drawn.add_column(Text(name), justify=justify)
        for row in table.rows:
            drawn.add_row(*(Text(cell) for cell in row))
        self.rich.print(drawn)
