"""Evaluate agents: `python evaluate.py [--game GAME | --config FILE] --agent heuristic --agent runs/RUN`.

The command lives in agents/evaluation/evaluate_cli.py (installed as `tabletop-evaluate`); `python evaluate.py
--help` lists its options.
"""

from __future__ import annotations

import sys

from agents.evaluation.evaluate_cli import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
