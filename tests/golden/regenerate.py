"""Rewrite the golden transcripts (run on purpose after a deliberate rules or content change)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

HERE = Path(__file__).resolve().parent
spec = importlib.util.spec_from_file_location("test_golden", HERE.parent / "unbroken" / "test_golden.py")
assert spec is not None and spec.loader is not None
golden = importlib.util.module_from_spec(spec)
spec.loader.exec_module(golden)

if __name__ == "__main__":
    for case in golden.CASES:
        path = golden.golden_path(*case)
        path.write_text(golden.make_transcript(*case), encoding="utf-8")
        print(f"wrote {path}")
