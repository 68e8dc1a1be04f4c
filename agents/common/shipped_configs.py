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


LISTING_NAME_WIDTH = 33
"""Columns of a config's short name in `config_listing` (its summary starts after them, and wraps under itself)."""
LISTING_WIDTH = 120
"""Width `config_listing` wraps to when the terminal's is unknown (and the least it wraps to)."""
COMMAND_STARTS = ("python ", "pip ", "tabletop-")
"""How a command in a config's header starts (`python train.py ...`): a line with one may end without a period."""


def _header_lines(path: Path) -> list[tuple[str, bool]]:
    """The comment header of a config (its leading `#` lines) as (text, is an indented command line) pairs."""
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        text = line[1:]
        lines.append((text.strip(), text.startswith("   ")))
    return lines


def _ends_a_sentence(text: str, command: bool) -> bool:
    """Whether a header line ends where a sentence does: a period, an indented command, or an inline command that
    introduces nothing after it (not ending in `:`, `,` or `then`)."""
    if text.endswith((".", "!", "?")) or command:
        return True
    introduces = text.endswith((":", ",")) or text.endswith(" then")
    return not introduces and any(start in text for start in COMMAND_STARTS)


def config_summary(path: Path) -> str:
    """A config's summary: the first line of its comment header and, where that line does not end a sentence (it
    introduces a command on the next line, or runs on), the lines up to where one ends, so no sentence is cut."""
    summary: list[str] = []
    for text, command in _header_lines(path):
        summary.append(text)
        if _ends_a_sentence(text, command):
            break
    return " ".join(" ".join(summary).split())


def config_listing(width: int | None = None) -> str:
    """The shipped configs, one per entry: the short name and the summary (`config_summary`), wrapped to `width`
    (the terminal's by default) under itself, commands never broken inside a word."""
    import shutil
    import textwrap

    columns = width or max(LISTING_WIDTH, shutil.get_terminal_size((LISTING_WIDTH, 24)).columns)
    entries = []
    for name, path in shipped_configs().items():
        lines = textwrap.wrap(
            config_summary(path),
            width=max(columns - LISTING_NAME_WIDTH, 20),
            break_long_words=False,
            break_on_hyphens=False,
        ) or [""]
        entries.append(f"{name:{LISTING_NAME_WIDTH - 1}} {lines[0]}")
        entries += [" " * LISTING_NAME_WIDTH + line for line in lines[1:]]
    return "\n".join(entries)
