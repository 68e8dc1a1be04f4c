"""Results tables (agents/evaluation/tables.py): the same title, columns and cells through rich or as plain text."""

from __future__ import annotations

import io

import pytest

from agents.evaluation.tables import ResultsConsole, TextTable


def sample_table() -> TextTable:
    table = TextTable("Evaluation")
    table.add_column("agent")
    table.add_column("win rate", justify="right")
    table.add_column("95% CI", justify="right")
    table.add_row("heuristic", "40.0%", "[26.3%, 55.4%]")
    table.add_row("random", "0.0%", "[0.0%, 9.0%]")
    return table


def test_plain_text_aligns_the_columns_under_a_title_and_a_rule() -> None:
    assert sample_table().plain().splitlines() == [
        "Evaluation",
        "agent      win rate          95% CI",
        "---------  --------  --------------",
        "heuristic     40.0%  [26.3%, 55.4%]",
        "random         0.0%    [0.0%, 9.0%]",
    ]
    with pytest.raises(ValueError, match="needs 3 cells, got 2"):
        sample_table().add_row("mcts", "50%")


def test_without_rich_the_console_prints_plain_text() -> None:
    out = io.StringIO()
    console = ResultsConsole(out, use_rich=False)
    console.heading("card_duel: 2 seats")
    console.text("a [note] as it is")
    console.table(sample_table())
    assert out.getvalue() == "\ncard_duel: 2 seats\na [note] as it is\n\n" + sample_table().plain() + "\n"


def test_with_rich_cells_in_brackets_are_cells_not_markup() -> None:
    pytest.importorskip("rich")
    out = io.StringIO()
    console = ResultsConsole(out)
    assert console.rich is not None
    console.text("[bold]literal[/bold]")
    console.table(sample_table())
    text = out.getvalue()
    assert "[bold]literal[/bold]" in text
    for cell in ("Evaluation", "win rate", "heuristic", "[26.3%, 55.4%]", "[0.0%, 9.0%]"):
        assert cell in text
    assert "---------" not in text  # drawn by rich, not as plain text
