"""Pages of the documentation site written from the code: one per game with its own pages, and the results pages.

`write_pages(folder)` is called by `docs/conf.py` on every build. Every fact on a generated page is read from the one
place that holds it, never retyped here:

- a game's page: its env ids (the registration record); its players, reward modes, actions and bound (`GameSpec`);
  its keyword arguments with the defaults of the signatures that take them (the game class, each Gymnasium entry
  point, the PettingZoo adapter), the values the game accepts (`Game.kwarg_values`), the values evaluation sweeps
  (the record's settings) and their meanings (`Game.KWARG_MEANINGS`, the opponent env's `OPPONENT_ENV_KWARGS`);
  its observation views (the observer) and action groups (the action labels); a picture of a position reached in
  play (the env's `rgb_array` render); the hand-written part of the page (`docs/notes/<game>.md`);
- the game's documents (`envs/<game>/*.md`: RULES.md, CONTENT.md, REFERENCE.md, ...), each as a page of its own;
- a results page per game: the agents' win rates with their 95% intervals, read from `benchmarks/results/<game>_*.json`,
  then every report of the game (`benchmarks/results/<game>_*.md`, each starting with the command that wrote it);
  the platform's reports (those of no game) on the results page.
"""

from __future__ import annotations

import importlib
import inspect
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from envs.adapters.driver import ENV_ADAPTER_KWARGS
from envs.adapters.opponents import OPPONENT_ENV_KWARGS
from envs.adapters.pettingzoo_env import ADAPTER_KWARGS as PETTINGZOO_ADAPTER_KWARGS
from envs.adapters.pettingzoo_env import TabletopAECEnv
from envs.core import game as game_module
from envs.core.observation import observer_view_axes
from envs.core.registration import GameRecord, discovered_games, load_attribute, make_game

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
NOTES = ROOT / "docs" / "notes"
"""Each game's hand-written part of its page (`docs/notes/<game>.md`), placed above the generated tables."""
GAMES = ROOT / "envs"

ADAPTER_KWARG_MEANINGS = {
    "reward": "what a terminal reward measures: one of the game's reward modes (above)",
    "illegal_action": "`raise`: an illegal action raises IllegalActionError naming it and the legal ones; `penalize`: "
    "the episode ends with -1 for the offender and 0 for every other seat",
    "flat": "`True`: the observation is the float32 vector alone ({flat}), not the Dict; the mask is then read from "
    '`env.action_masks()` or `info["action_mask"]`',
    "render_mode": "`ansi`: the player's view as text; `rgb_array`: a picture (an HxWx3 uint8 array, as above)",
    "max_decisions": "truncate the episode after this many decisions (default: no limit beyond the game's)",
}
"""What each keyword argument of the shared adapters does (`envs.adapters.driver.ENV_ADAPTER_KWARGS`); `{flat}` is
filled with the flat observation space of the game's env."""

PICTURE_DECISIONS = 40
"""Decisions played from a seeded reset before a game's picture is taken: a position in play."""
RATE_KEYS = ("win_rate", "share")
"""Keys of a results row holding an agent's rate: games won, or (in a game of places) the share of placings above
the reference agent."""
INTERVAL_KEYS = ("win_rate_ci95", "ci95")
"""Keys of a results row holding the 95% interval of its rate."""
COUNT_KEYS = ("games", "episodes")
"""Keys of a results row holding the number of games its rate is measured on."""
API_PACKAGES = ("envs.core", "envs.adapters")
"""Packages whose every module the API reference documents (the rules-core contract and the adapters)."""
API_MODULES = (
    "envs.core.registration",
    "agents.players.base",
    "agents.players.registry",
    "agents.players.random_agent",
    "agents.players.lookahead",
    "agents.players.mcts",
    "agents.players.ppo",
    "agents.evaluation.tournament",
    "agents.evaluation.episodes",
    "agents.evaluation.play",
    "agents.training.train_cli",
    "agents.evaluation.evaluate_cli",
    "agents.common.config",
)
"""The agents' public entry points the API reference documents besides those packages and each game's modules (its
rules-core game class and its heuristic, named by its registration record)."""
LABEL_NUMBER_KEYS = ("steps", "simulations")
"""Integer keys that name what a row measures (training steps of a model, an MCTS agent's simulations)."""


def write_pages(folder: Path) -> None:
    """Write every generated page into `folder`: `games/<game>.md` (with its picture), `games/<game>/results.md`,
    the documents of each game package in `games/<package>/*.md`, `results.md` and `configs.md`."""
    games = folder / "games"
    for generated in (games, folder / "api"):  # pages of a renamed game or module must not linger
        shutil.rmtree(generated, ignore_errors=True)
    games.mkdir(parents=True, exist_ok=True)
    records = discovered_games()
    for name, record in sorted(records.items()):
        folder_name = package_folder(record)
        documents = game_documents(folder_name)
        (games / folder_name).mkdir(exist_ok=True)
        for stem, text in documents.items():  # a package's documents, once for all the games it declares
            (games / folder_name / f"{stem}.md").write_text(text)
        (games / name).mkdir(exist_ok=True)
        (games / name / "results.md").write_text(game_results_page(name, sorted(records)))
        picture = game_picture(record)
        if picture is not None:
            from PIL import Image

            Image.fromarray(picture).save(games / f"{name}.png")
        subpages = [*(f"{folder_name}/{stem}" for stem in documents), f"{name}/results"]
        (games / f"{name}.md").write_text(game_page(record, subpages, picture is not None))
    (folder / "results.md").write_text(results_page(sorted(records)))
    write_api_pages(folder / "api", api_modules(list(records.values())))
    (folder / "configs.md").write_text(config_page())


def package_folder(record: GameRecord) -> str:
    """The folder under envs/ of the package that holds the record's game ("runebound" for runebound_combat)."""
    if record.package is None:
        raise ValueError(f"game record {record.name!r} names no rules-core game (its `game` field)")
    return record.package.rpartition(".")[2]


def title_of(name: str) -> str:
    """A game name as a title: "Runebound combat" for runebound_combat."""
    return name.replace("_", " ").capitalize()


def players_text(spec: Any) -> str:
    """`1` for a solo game, else the range and the default (`2-4 (default 2)`)."""
    if spec.min_players == spec.max_players:
        return str(spec.min_players)
    return f"{spec.min_players}-{spec.max_players} (default {spec.num_players})"


def game_page(record: GameRecord, subpages: list[str], has_picture: bool) -> str:
    """A game's reference page: facts, picture, its documents, the hand-written notes, then the generated tables."""
    game = make_game(record, {})
    spec = game.spec
    title = title_of(record.name)
    lines = [f"# {title}", "", record.description, ""]
    if has_picture:
        lines += [f"![{title}: a position in play, as the rgb_array render draws it]({record.name}.png)", ""]
    lines += [
        f"Players: {players_text(spec)}; utility: {spec.utility}; information: {spec.information}; reward modes: "
        f"{', '.join(f'`{m}`' for m in spec.reward_modes)}; {spec.num_actions} actions; at most "
        f"{spec.max_game_length} decisions.",
        "",
        "```{toctree}",
        ":maxdepth: 1",
        "",
        *subpages,
        "```",
        "",
    ]
    notes = NOTES / f"{record.name}.md"
    if notes.exists():  # the game's hand-written page: results, interpretations, how it plays
        lines += [link_documents(notes.read_text().strip(), package_folder(record), ""), ""]
    lines += ["## Environments", "", "| id | kind |", "|---|---|"]
    lines += [f"| `{env_id}` | Gymnasium |" for env_id in record.gym_env_ids]
    lines += [f"| `{env_id}` | PettingZoo AEC |" for env_id in record.pettingzoo_ids]
    lines += ["", *kwargs_section(record, game)]
    observer = game.observer(0)
    axes = observer_view_axes(observer)
    lines += ["", "## Observation", "", f"One float32 vector of {observer.size} values, in these views:", ""]
    lines += ["| view | shape | axes |", "|---|---|---|"]
    for view, shape in observer.view_shapes.items():
        roles = ", ".join(axes.get(view, ())) if axes.get(view) else "features"
        lines.append(f"| `{view}` | {tuple(shape)} | {roles} |")
    lines += ["", "## Actions", "", f"`Discrete({spec.num_actions})`, masked, in these groups:", ""]
    lines += ["| group | first id | ids | example label |", "|---|---|---|---|"]
    for group, first, count, example in action_groups(game, spec.num_actions):
        lines.append(f"| {group} | {first} | {count} | `{example}` |")
    return "\n".join(lines) + "\n"


def _code(value: Any) -> str:
    """A value as inline code in a table cell."""
    return "`" + repr(value).replace("|", "\\|").replace("`", "'") + "`"


def _cell(text: str) -> str:
    """Text in a table cell (one line, pipes escaped)."""
    return " ".join(text.split()).replace("|", "\\|")


def kwargs_section(record: GameRecord, game: Any) -> list[str]:
    """The keyword arguments: the game's, the adapters' by entry point, and those only some entry points take."""
    defaults = game_kwargs(game)
    accepted = game.kwarg_values()
    meanings = type(game).KWARG_MEANINGS
    lines = [
        "## Keyword arguments",
        "",
        "The game's (its rules-core class takes them, and so does every env id but where said below the table):",
        "",
        "| kwarg | default | values | swept by evaluation | meaning |",
        "|---|---|---|---|---|",
    ]
    for kwarg, default in defaults.items():
        values = accepted.get(kwarg, ())
        shown = _code(default)
        if default is None and values:
            shown += f" (plays {_code(values[0])})"
        listed = ", ".join(_code(value) for value in values)
        swept = ", ".join(_code(value) for value in record.settings.get(kwarg, ()))
        lines.append(f"| `{kwarg}` | {shown} | {listed} | {swept} | {_cell(meanings.get(kwarg, ''))} |")
    for env in record.gym_envs:
        taken = inspect.signature(load_attribute(env.entry_point)).parameters
        missing = [f"`{kwarg}`" for kwarg in defaults if kwarg not in taken]
        if missing:
            lines += ["", f"`{env.id}` does not take {', '.join(missing)} (the game class alone, from Python)."]
    entries = entry_points(record)
    adapter_defaults = {env_id: adapter_kwargs(entry, kind) for env_id, (entry, kind) in entries.items()}
    header = " | ".join(f"`{env_id}` ({kind})" for env_id, (_entry, kind) in entries.items())
    lines += [
        "",
        "The adapters' (the default each env id takes; `-`: the id does not take it):",
        "",
        f"| kwarg | {header} | meaning |",
        "|---|" + "---|" * len(entries) + "---|",
    ]
    meanings_here = adapter_meanings(record, game)
    for kwarg in ENV_ADAPTER_KWARGS:
        cells = [_code(taken[kwarg]) if kwarg in taken else "-" for taken in adapter_defaults.values()]
        if any(cell != "-" for cell in cells):
            lines.append(f"| `{kwarg}` | {' | '.join(cells)} | {_cell(meanings_here[kwarg])} |")
    for env_id, (entry, kind) in entries.items():
        if kind == "PettingZoo AEC":
            wrapped = inspect.getdoc(importlib.import_module(entry).env) or ""
            lines += ["", f"`{env_id}`: the defaults are `raw_env`'s. `env()`: {_cell(wrapped)}"]
    for env_id, extra in env_kwargs(record).items():
        lines += [
            "",
            f"Only `{env_id}` takes these:",
            "",
            "| kwarg | default | meaning |",
            "|---|---|---|",
            *(f"| `{kwarg}` | {_code(default)} | {_cell(meaning)} |" for kwarg, (default, meaning) in extra.items()),
        ]
    return lines


def entry_points(record: GameRecord) -> dict[str, tuple[str, str]]:
    """Each env id of the game with what builds it: a Gymnasium entry point ("module:function") or a PettingZoo
    module, and its kind."""
    entries = {env.id: (env.entry_point, "Gymnasium") for env in record.gym_envs}
    entries |= {
        env_id: (module, "PettingZoo AEC")
        for env_id, module in zip(record.pettingzoo_ids, record.pettingzoo_modules, strict=True)
    }
    return entries


def adapter_kwargs(entry: str, kind: str) -> dict[str, Any]:
    """The adapter keyword arguments an entry point takes, with its defaults (a PettingZoo module's `raw_env` takes
    those of the PettingZoo adapter)."""
    if kind == "Gymnasium":
        parameters = inspect.signature(load_attribute(entry)).parameters
        return {name: p.default for name, p in parameters.items() if name in ENV_ADAPTER_KWARGS}
    parameters = inspect.signature(TabletopAECEnv.__init__).parameters
    return {name: parameters[name].default for name in PETTINGZOO_ADAPTER_KWARGS}


def adapter_meanings(record: GameRecord, game: Any) -> dict[str, str]:
    """The adapters' kwargs' meanings, with what this game's flat observation and reward modes are."""
    meanings = dict(ADAPTER_KWARG_MEANINGS)
    if record.gym_envs:
        env = load_attribute(record.gym_envs[0].entry_point)(flat=True)
        space = env.observation_space
        env.close()
        meanings["flat"] = meanings["flat"].format(flat=f"`Box({space.dtype}, {space.shape})`")
    else:
        meanings["flat"] = meanings["flat"].format(flat="the observer's vector")
    state_class = type(game.new_initial_state())
    overridden = state_class.rewards.__qualname__.split(".")[0] != "State"
    said = inspect.getdoc(state_class.rewards if overridden else state_class.score) or ""
    modes = ", ".join(f"`{mode}`" for mode in game.spec.reward_modes)
    meanings["reward"] = f"{attribute_docstring(game_module, 'REWARD_MODES')} This game takes {modes}; " + (
        said if overridden else f"`score` is {said[0].lower()}{said[1:]}"
    )
    return meanings


def attribute_docstring(module: Any, name: str) -> str:
    """The docstring written under a module-level assignment (`NAME = ...` then a string), read from the source."""
    import ast

    body = ast.parse(inspect.getsource(module)).body
    for statement, following in zip(body, body[1:], strict=False):
        targets = statement.targets if isinstance(statement, ast.Assign) else []
        if any(isinstance(target, ast.Name) and target.id == name for target in targets):
            if isinstance(following, ast.Expr) and isinstance(following.value, ast.Constant):
                return " ".join(str(following.value.value).split())
    raise LookupError(f"{module.__name__}.{name} has no docstring under its assignment")


def game_kwargs(game: Any) -> dict[str, Any]:
    """The keyword arguments of the game's class with their defaults."""
    parameters = inspect.signature(type(game).__init__).parameters
    return {
        name: parameter.default
        for name, parameter in parameters.items()
        if name != "self" and parameter.kind in (parameter.KEYWORD_ONLY, parameter.POSITIONAL_OR_KEYWORD)
    }


def env_kwargs(record: Any) -> dict[str, dict[str, tuple[Any, str]]]:
    """By Gymnasium id, the keyword arguments its entry point takes beyond the game's and the adapters' (an opponent
    env's `opponents`, `learner_seats`, ...), with their defaults and meanings; ids that take none are left out."""
    game = make_game(record, {})
    known = set(game_kwargs(game)) | set(ENV_ADAPTER_KWARGS)
    extra: dict[str, dict[str, tuple[Any, str]]] = {}
    for env in record.gym_envs:
        entry_point = load_attribute(env.entry_point)
        for name, parameter in inspect.signature(entry_point).parameters.items():
            if name not in known and parameter.kind in (parameter.KEYWORD_ONLY, parameter.POSITIONAL_OR_KEYWORD):
                extra.setdefault(env.id, {})[name] = (parameter.default, OPPONENT_ENV_KWARGS.get(name, ""))
    return extra


def action_groups(game: Any, num_actions: int) -> list[tuple[str, int, int, str]]:
    """(group, first id, count, first label) of each run of ids whose labels share the part before ':'."""
    groups: list[tuple[str, int, int, str]] = []
    for action in range(num_actions):
        label = game.action_label(action)
        group = label.split(":")[0]
        if groups and groups[-1][0] == group:
            name, first, count, example = groups[-1]
            groups[-1] = (name, first, count + 1, example)
        else:
            groups.append((group, action, 1, label))
    return groups


def game_picture(record: GameRecord) -> np.ndarray | None:
    """The game's picture (`GameRecord.picture`) of its first Gymnasium env after a seeded reset and up to
    `PICTURE_DECISIONS` decisions of the game's heuristic (random legal ones without a heuristic): the last position
    before the end; None for a game without a Gymnasium env or a picture."""
    from agents.players.registry import make_agent

    if not record.gym_envs or record.picture is None:
        return None
    draw = load_attribute(record.picture)
    env = gym.make(record.gym_envs[0].id)
    rng = np.random.default_rng(0)
    agent = make_agent("heuristic", env) if record.heuristic else None
    observation, info = env.reset(seed=0)
    picture: Any = draw(env.unwrapped.state)  # type: ignore[attr-defined]
    for _ in range(PICTURE_DECISIONS):
        mask = info["action_mask"]
        if agent is not None:
            action = agent.act(observation, mask, state=env.unwrapped.state)  # type: ignore[attr-defined]
        else:
            action = int(rng.choice(np.flatnonzero(mask)))
        observation, _reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
        picture = draw(env.unwrapped.state)  # type: ignore[attr-defined]
    env.close()
    return np.asarray(picture, dtype=np.uint8)


def game_documents(name: str) -> dict[str, str]:
    """The game's documents (`envs/<game>/*.md`: its rules, content, public-fact sheet), by page name, each citation
    of a game document linked to its page."""
    documents = {}
    for path in sorted((GAMES / name).glob("*.md"), key=lambda path: (path.stem != "RULES", path.stem)):
        documents[path.stem.lower()] = link_documents(path.read_text(encoding="utf-8"), name, "../")
    return documents


DOCUMENT_CITATION = re.compile(r"`(?:envs/(\w+)/)?([A-Z][A-Z_]*)\.md`")
"""A game document cited by its path in code: `envs/<game>/RULES.md`, or `CONTENT.md` within the game's own text."""


def link_documents(text: str, name: str, to_games: str) -> str:
    """`text` of game `name` with every cited game document (`envs/<game>/RULES.md`, `CONTENT.md`, ...) a link to its
    page; `to_games` leads from the page holding the text to the folder of game pages ("" or "../")."""

    def link(match: re.Match[str]) -> str:
        game = match.group(1) or name
        if not (GAMES / game / f"{match.group(2)}.md").is_file():
            return match.group(0)
        return f"[{match.group(0)}]({to_games}{game}/{match.group(2).lower()}.md)"

    return DOCUMENT_CITATION.sub(link, text)


# ------------------------------------------------------------------ results


def rate_tables(report: Any, where: str = "") -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """Every list of rows in a results report (a JSON document) whose rows hold a rate and its interval, with the
    path of keys that leads to it."""
    if isinstance(report, dict):
        for key, value in report.items():
            yield from rate_tables(value, f"{where}.{key}" if where else key)
    elif isinstance(report, list) and report and all(isinstance(row, dict) for row in report):
        first = report[0]
        if any(key in first for key in RATE_KEYS) and any(key in first for key in INTERVAL_KEYS):
            yield where, report


def _label_keys(rows: list[dict[str, Any]]) -> list[str]:
    """The keys that name what each row measures: text values, settings, training steps, simulations."""
    keys: list[str] = []
    for key in rows[0]:
        values = [row.get(key) for row in rows]
        text = all(isinstance(value, str) for value in values)
        setting = key == "setting" and all(isinstance(value, dict) for value in values)
        number = key in LABEL_NUMBER_KEYS
        duplicate = any(values == [row.get(other) for row in rows] for other in keys)
        if (text or setting or number) and not duplicate:
            keys.append(key)
    return keys


def _label(value: Any) -> str:
    """A row's label value as table text."""
    if isinstance(value, dict):
        return ", ".join(f"{key}={item}" for key, item in value.items())
    return "" if value is None else f"{value:,}" if isinstance(value, int) else str(value)


def rate_table(rows: list[dict[str, Any]], reference: str | None = None) -> list[str]:
    """A table of rows with a rate: what each row measures, its games, the rate and its 95% interval (percent); a
    share is named with the `reference` agent its placings are counted above."""
    rate = next(key for key in RATE_KEYS if key in rows[0])
    interval = next(key for key in INTERVAL_KEYS if key in rows[0])
    count = next((key for key in COUNT_KEYS if key in rows[0]), None)
    labels = _label_keys(rows)
    named = f"share above {reference}" if rate == "share" and reference else rate.replace("_", " ")
    header = [*labels, *([count] if count else []), named, "95% interval"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row in rows:
        low, high = row[interval]
        cells = [_cell(_label(row.get(key))) for key in labels]
        if count:
            cells.append(f"{row[count]:,}")
        cells += [f"{100 * row[rate]:.1f}%", f"[{100 * low:.1f}, {100 * high:.1f}]"]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def _command(report: dict[str, Any], markdown: Path) -> str:
    """The command that wrote a report: the JSON's own `command`, else the one its markdown report names first."""
    if isinstance(report.get("command"), str):
        return report["command"]
    if markdown.is_file():
        text = markdown.read_text(encoding="utf-8")
        for start in ("`python -m benchmarks.", "`python "):  # a benchmark's own command before a command it runs
            if start in text:
                return start[1:] + text.split(start, 1)[1].split("`", 1)[0]
    return ""


def _report_body(path: Path, below: int) -> str:
    """A markdown report, its headings moved below a heading of level `below` (it sits under one on the page)."""
    text = path.read_text(encoding="utf-8")
    return "\n".join("#" * below + line if line.startswith("#") else line for line in text.splitlines())


def results_owner(stem: str, games: list[str]) -> str | None:
    """The game whose results file `stem` is: the longest of `games` whose name and "_" begin it
    (`runebound_combat_balance` is runebound_combat's, not runebound's); None for a file of no game."""
    owners = [game for game in games if stem.startswith(f"{game}_")]
    return max(owners, key=len) if owners else None


def results_files(owner: str | None, games: list[str]) -> list[Path]:
    """The results files (JSON and markdown) of game `owner` among `games`, or with None those of no game."""
    paths = sorted(RESULTS.glob("*.json")) + sorted(RESULTS.glob("*.md"))
    return [path for path in paths if results_owner(path.stem, games) == owner]


def game_results_page(name: str, games: list[str]) -> str:
    """A game's results: the agents' win rates with their intervals first, then every report of the game."""
    import json

    lines = [
        f"# {title_of(name)}: results",
        "",
        "Every figure here is read from `benchmarks/results/`; each table names the command that wrote its file.",
        "Re-run the command to regenerate the file, then rebuild the site.",
        "",
        "## Agents: win rates",
        "",
    ]
    strength: list[str] = []
    for path in results_files(name, games):
        if path.suffix != ".json":
            continue
        report = json.loads(path.read_text(encoding="utf-8"))
        tables = list(rate_tables(report))
        if not tables:
            continue
        strength.append(path.stem)
        command = _command(report, path.with_suffix(".md")) if isinstance(report, dict) else ""
        lines += [f"### {path.stem}", ""]
        lines += [f"`{command}` (`benchmarks/results/{path.name}`)" if command else f"`benchmarks/results/{path.name}`"]
        if isinstance(report, dict) and isinstance(report.get("env_id"), str):
            settings = ", ".join(f"{key}={value}" for key, value in (report.get("env_kwargs") or {}).items())
            lines[-1] += f"; on `{report['env_id']}`" + (f" with {settings}" if settings else "")
        for where, rows in tables:
            reference = report.get("reference") if isinstance(report, dict) else None
            lines += ["", *([f"`{where}`:", ""] if len(tables) > 1 else []), *rate_table(rows, reference)]
        lines.append("")
    if not strength:
        lines += ["No results file of this game holds a win rate yet.", ""]
    reports = [path for path in results_files(name, games) if path.suffix == ".md"]
    lines += [
        "## Reports",
        "",
        "Each report in full (timings, breakdowns, fuzzing, the win-rate reports' details).",
        "",
    ]
    for path in sorted(reports, key=lambda path: (path.stem in strength, path.stem)):
        lines += [f"### {path.stem}", "", _report_body(path, 3), ""]
    return "\n".join(lines)


def results_page(games: list[str]) -> str:
    """The platform's benchmark reports (those of no game) and a link to each game's results page."""
    lines = [
        "# Results",
        "",
        "Every figure here was written by a benchmark; each report starts with the command that produced it. Re-run",
        "the command to regenerate the report, then rebuild the site. Each game's results (its agents' win rates",
        "first) are on its own page:",
        "",
        *(f"- {{doc}}`{title_of(game)} <games/{game}/results>`" for game in games),
        "",
    ]
    for path in results_files(None, games):
        if path.suffix == ".md":
            lines += [f"## {path.stem}", "", _report_body(path, 2), ""]
    return "\n".join(lines)


# ------------------------------------------------------------------ API reference


def api_modules(records: list[GameRecord]) -> list[str]:
    """The modules the API reference documents: every module of `API_PACKAGES`, `API_MODULES`, and each game's
    rules-core game module and heuristic module (from its record)."""
    import pkgutil

    modules: list[str] = []
    for package in API_PACKAGES:
        found = importlib.import_module(package)
        modules += [package, *(f"{package}.{info.name}" for info in pkgutil.iter_modules(found.__path__))]
    modules += API_MODULES
    for record in sorted(records, key=lambda record: record.name):
        modules += [target.partition(":")[0] for target in (record.game, record.heuristic) if target is not None]
    return list(dict.fromkeys(modules))


PLAIN_MARKUP = re.compile(r"([*|`\\]|(?<=\w)_(?=\W|$))")
"""Characters of a plain-text docstring that reStructuredText would read as markup: emphasis, substitutions, a stray
backtick, backslashes, a reference's trailing underscore."""
CODE_SPAN = re.compile(r"(?<!`)`([^`\s](?:[^`]*[^`\s])?)`(?!`)")
"""A `code` span of a plain-text docstring."""


def plain_docstring(lines: list[str]) -> list[str]:
    """A plain-text docstring (the project writes them for `help()`, not as reStructuredText) as a reST line block:
    every line as written, `code` spans as code, nothing else read as markup."""
    converted = []
    for line in lines:
        parts = CODE_SPAN.split(line)  # text, code, text, code, ... text
        text = "".join(
            f"``{part}``" if index % 2 else PLAIN_MARKUP.sub(r"\\\1", part) for index, part in enumerate(parts)
        )
        converted.append(f"| {text}" if text.strip() else "|")
    while converted and converted[-1] == "|":
        converted.pop()
    return [*converted, ""] if converted else []


def write_api_pages(folder: Path, modules: list[str]) -> None:
    """`index.md` (the modules, in order) and one page per module: its docstring and public members (autodoc)."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = [
        "# API reference",
        "",
        "The public classes and functions of the rules core, the adapters, each game's game class and heuristic, and",
        "the agents' entry points, from their docstrings.",
        "",
        "```{toctree}",
        ":maxdepth: 1",
        "",
        *modules,
        "```",
        "",
    ]
    (folder / "index.md").write_text("\n".join(lines))
    for module in modules:
        directive = [f".. automodule:: {module}", "   :members:", "   :show-inheritance:"]
        page = [f"# `{module}`", "", "```{eval-rst}", *directive, "```", ""]
        (folder / f"{module}.md").write_text("\n".join(page))


# ------------------------------------------------------------------ configs


def config_page() -> str:
    """Every config key of train.py and evaluate.py: its type, default and meaning, from the pydantic models; one
    entry per key (a list, not a table, so a long meaning or default wraps at any page width)."""
    from agents.common.config import ALGORITHM_HYPERPARAMETERS, AlgoConfig, EvalConfig, ExperimentConfig

    lines = [
        "# Config reference",
        "",
        "Every key of the YAML configs, read from the pydantic models that validate them",
        "(`agents/common/config.py`): an unknown key or a wrong type is an error naming the key and the file.",
        "`python train.py --show-config [--config FILE] [key=value ...]` prints a config with every default filled in.",
        "Each entry reads: the key (its type, its default), then what it means.",
        "",
    ]
    for title, model in (("Training runs: `train.py`", ExperimentConfig), ("Evaluations: `evaluate.py`", EvalConfig)):
        lines += [f"## {title}", "", *_config_entries(model, "", skip=AlgoConfig), ""]
    for name, hyperparameters in ALGORITHM_HYPERPARAMETERS.items():
        lines += [f"## `algo:` with `name: {name}`", "", *_config_entries(hyperparameters, "algo."), ""]
    return "\n".join(lines)


def type_text(annotation: Any) -> str:
    """A config key's type as a reader writes it: `int | None`, `Literal['a', 'b']`, `list[str]` (validators and
    constraints of `Annotated` left out)."""
    import types
    import typing

    origin, arguments = typing.get_origin(annotation), typing.get_args(annotation)
    if annotation is type(None):
        return "None"
    if origin is typing.Annotated:
        return type_text(arguments[0])
    if origin is typing.Literal:
        return f"Literal[{', '.join(repr(argument) for argument in arguments)}]"
    if origin in (typing.Union, types.UnionType):
        return " | ".join(type_text(argument) for argument in arguments)
    if origin is not None:
        return f"{getattr(origin, '__name__', str(origin))}[{', '.join(type_text(argument) for argument in arguments)}]"
    return getattr(annotation, "__name__", str(annotation).replace("typing.", ""))


def config_key_entry(key: str, kind: str, default: str, meaning: str) -> str:
    """One key of the config reference as a list item: the key, its type and default, then its meaning."""
    shown = "required" if default == "required" else f"default `{default}`"
    return f"- `{key}` (`{kind}`, {shown}): {meaning}"


def _config_entries(model: Any, prefix: str, skip: Any = None) -> list[str]:
    """The entries of one model's keys: its own keys first, then each section under a heading of its dotted key."""
    from pydantic import BaseModel
    from pydantic_core import PydanticUndefined

    keys: list[str] = []
    sections: list[str] = []
    for name, field in model.model_fields.items():
        annotation = field.annotation
        key = f"{prefix}{name}"
        if inspect.isclass(annotation) and issubclass(annotation, BaseModel):  # a section of keys
            summary = " ".join((inspect.getdoc(annotation) or "").split("\n\n")[0].split())
            sections += ["", f"### `{key}`", "", summary, ""]
            if annotation is skip:
                sections.append("The algorithm's keys: the `algo:` sections below.")
            else:
                sections += _config_entries(annotation, f"{key}.")
            continue
        if field.default_factory is not None:
            default = repr(field.default_factory())
        elif field.default is PydanticUndefined:
            default = "required"
        else:
            default = repr(field.default)
        keys.append(config_key_entry(key, type_text(annotation), default, " ".join((field.description or "").split())))
    return [*keys, *sections]
