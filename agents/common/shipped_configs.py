"""Where the shipped configs are, and the default game the commands use when nothing names one.

configs/<game>/ holds each game's configs; they ship as package data of agents (agents/configs links to the
top-level configs/ in a checkout). configs/defaults.yaml names the default game as data, since generic code names
no game: `python train.py` trains on configs/<game>/maskable_ppo.yaml, `evaluate.py` reads configs/<game>/eval.yaml.
"""

from __future__ import annotations

from pathlib import Path

from agents.common.config import ConfigError, read_yaml_file


def _configs_dir() -> Path:
    """The shipped configs: agents/configs in the package (in a checkout, a link to the top-level configs/)."""
    agents_dir = Path(__file__).resolve().parents[1]
    packaged = agents_dir / "configs"
    # A checkout without symbolic links (git on Windows by default) has a text file there: use configs/ itself.
    return packaged.resolve() if packaged.is_dir() else agents_dir.parent / "configs"


CONFIGS_DIR = _configs_dir()
"""configs/<game>/ holds each game's configs."""
DEFAULTS_FILE = CONFIGS_DIR / "defaults.yaml"
"""Names the default game (`game: NAME`)."""


def default_game() -> str:
    """The game configs/defaults.yaml names (its configs folder); ConfigError naming the file and key otherwise."""
    game = read_yaml_file(DEFAULTS_FILE).get("game")
    if not isinstance(game, str) or not game or not (CONFIGS_DIR / game).is_dir():
        raise ConfigError(str(DEFAULTS_FILE), "game", f"expected the name of a game's configs folder, got {game!r}")
    return game
