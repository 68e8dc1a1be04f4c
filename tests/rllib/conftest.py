"""The RLlib tests need the `rllib` extra (Ray): without it they are not collected (the rest of the suite runs)."""

from __future__ import annotations

import importlib.util

if importlib.util.find_spec("ray") is None:
    collect_ignore_glob = ["test_*.py"]
