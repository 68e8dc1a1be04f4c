"""Suite-wide pytest options and fixtures: golden files compared as text, rewritten on purpose with --update-golden."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

import tests.toys  # noqa: F401 - registers the toy games, so every per-game check runs on them too

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
"""Where the checked-in golden transcripts live."""
UPDATE_OPTION = "--update-golden"
DIFF_LINES = 60
"""Lines of unified diff shown when a golden file differs (the full files are a command away)."""


def pytest_addoption(parser: pytest.Parser) -> None:
    """Add --update-golden: rewrite golden files from the current code instead of comparing with them."""
    parser.addoption(
        UPDATE_OPTION,
        action="store_true",
        default=False,
        help="rewrite the golden files under tests/golden/ from the current code (after a deliberate change)",
    )


class GoldenFiles:
    """Checked-in text files that a test's output must equal, or rewrites them when updating."""

    def __init__(self, directory: Path, update: bool, test_file: str = "") -> None:
        self.directory = directory
        self.update = update
        self.test_file = test_file

    def path(self, file_name: str) -> Path:
        """The golden file called `file_name`."""
        return self.directory / file_name

    def check(self, file_name: str, text: str, protects: str = "") -> None:
        """Fail unless `text` equals the golden file (with --update-golden: write `text` there instead).

        `protects` (what the golden guards) goes into the failure message, to help judge whether a diff is wanted.
        """
        path = self.path(file_name)
        if self.update:
            path.write_text(text, encoding="utf-8", newline="\n")
            return
        command = " ".join(["python -m pytest", *([self.test_file] if self.test_file else []), UPDATE_OPTION])
        hint = f"run `{command}` to (re)write it, then review and commit the file"
        if not path.exists():
            pytest.fail(f"golden file {path} is missing: {hint}", pytrace=False)
        expected = path.read_text(encoding="utf-8")
        if text != expected:
            diff = list(
                difflib.unified_diff(
                    expected.splitlines(), text.splitlines(), f"{file_name} (golden)", f"{file_name} (now)", lineterm=""
                )
            )
            shown = "\n".join(diff[:DIFF_LINES])
            if len(diff) > DIFF_LINES:
                shown += f"\n... {len(diff) - DIFF_LINES} more diff lines"
            guards = f" (it protects: {protects})" if protects else ""
            pytest.fail(
                f"{path} differs from what the code produces now{guards}.\n"
                f"If the change is deliberate, {hint}.\n{shown}",
                pytrace=False,
            )


@pytest.fixture
def golden(request: pytest.FixtureRequest) -> GoldenFiles:
    """The golden files of tests/golden/, in compare mode, or in rewrite mode under --update-golden."""
    update = bool(request.config.getoption(UPDATE_OPTION))
    return GoldenFiles(GOLDEN_DIR, update=update, test_file=request.node.nodeid.split("::")[0])
