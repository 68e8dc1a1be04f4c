"""Where the shipped configs are, and the default game the commands use when nothing names one.

configs/<game>/ holds each game's configs; they ship as package data of agents (agents/configs links to the
top-level configs/ in a checkout). configs/defaults.yaml names the default game as data, since generic code names
no game: `python train.py` trains on configs/<game>/maskable_ppo.yaml, `evaluate.py` reads configs/<game>/eval.yaml.
"""

from __future__ import annotations

import difflib
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


def shipped_configs() -> dict[str, Path]:
    """Every shipped config by its short name, `<game>/<name>` (configs/<game>/selfplay.yaml is <game>/selfplay)."""
    return {
        f"{path.parent.name}/{path.stem}": path
        for path in sorted(CONFIGS_DIR.glob("*/*.yaml"))
        if path.parent.name != "." and path.is_file()
    }


def short_name(spec: str | Path) -> str:
    """The short name a config path or name stands for: `configs/<game>/selfplay.yaml` and `<game>/selfplay.yaml`
    are `<game>/selfplay`."""
    parts = Path(spec).with_suffix("").parts
    return "/".join(parts[-2:])


def resolve_config_path(spec: str | Path) -> Path:
    """The config file `spec` names: an existing file as given; else a shipped config by its short name or by its path
    in a checkout (`<game>/selfplay`, `configs/<game>/selfplay.yaml`), so the names of the README work from any
    folder and in an installed package. A name that matches nothing is returned as given (its reading then fails,
    naming it)."""
    path = Path(spec)
    if path.is_file():
        return path
    return shipped_configs().get(short_name(spec), path)


def config_not_found_hint(spec: str | Path) -> str:
    """What to say after "config file not found": the closest shipped config name, and how to list them."""
    names = list(shipped_configs())
    close = difflib.get_close_matches(short_name(spec), names, n=1)
    near = f"did you mean {close[0]!r}? " if close else ""
    return f"{near}a shipped config can be named by its short name (e.g. {names[0]!r}); --list-configs lists them"


def config_listing() -> str:
    """The shipped configs, one per line: short name and the first line of its comment header."""
    lines = []
    for name, path in shipped_configs().items():
        first = next((line for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("#")), "")
        lines.append(f"{name:32} {first.lstrip('# ').strip()}")
    return "\n".join(lines)
