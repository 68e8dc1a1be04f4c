"""Each game's heuristic player and position evaluation (`<game>.py`, `<game>_evaluation.py`), named by the game's
record as strings ("module:attribute"): no generic code imports them."""
