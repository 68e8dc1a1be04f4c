"""Every Python example of the README and of the documentation pages runs (each in a fresh process, from an empty
folder)."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```$", re.MULTILINE | re.DOTALL)
DOCUMENTS = [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").rglob("*.md"))]
"""The README and the hand-written documentation pages (generated pages hold no examples)."""
EXAMPLES = [
    example
    for document in DOCUMENTS
    if "_build" not in document.parts and "_generated" not in document.parts
    for example in PYTHON_BLOCK.findall(document.read_text(encoding="utf-8"))
]
TRAIN_EXTRA_IMPORTS = ("sb3_contrib", "stable_baselines3")
"""Imports of examples that need the train extra (skipped where it is not installed)."""


def example_id(example: str) -> str:
    """The example's first line that is no import, for the test's name."""
    lines = [line for line in example.splitlines() if line and not line.startswith(("import ", "from "))]
    return lines[0][:40] if lines else "example"


def test_the_readme_has_its_examples() -> None:
    assert len(EXAMPLES) >= 4
    assert any("MaskablePPO" in example for example in EXAMPLES)
    assert any("SubprocVecEnv" in example for example in EXAMPLES)


@pytest.mark.parametrize("example", EXAMPLES, ids=[example_id(example) for example in EXAMPLES])
def test_a_readme_example_runs(example: str, tmp_path: Path) -> None:
    for module in TRAIN_EXTRA_IMPORTS:
        if re.search(rf"^(from|import) {module}\b", example, re.MULTILINE) and importlib.util.find_spec(module) is None:
            pytest.skip(f"needs {module} (the train extra)")
    path = os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")]))
    environment = {**os.environ, "PYTHONPATH": path}
    result = subprocess.run(
        [sys.executable, "-c", example],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
