"""Pages of the documentation site written from the code: one per game, and the results page.

`write_pages(folder)` is called by `docs/conf.py` on every build. A game's page lists its env ids, its keyword
arguments (the game's own, with defaults and the values evaluation sweeps, then the adapters' and the entry point's
own, such as an opponent env's `opponents`), its observation views
(name, shape, axis roles) and its action groups (first id, count, an example label), read from the registration
record, the rules-core game and its observer. The results page includes every `benchmarks/results/*.md` report, each
of which starts with the command that wrote it.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

from envs.adapters.opponents import OPPONENT_ENV_KWARGS
from envs.core.observation import observer_view_axes
from envs.core.registration import GameRecord, discovered_games, load_attribute, make_game

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
NOTES = ROOT / "docs" / "notes"
"""Each game's hand-written part of its page (`docs/notes/<game>.md`), placed above the generated tables."""

ADAPTER_KWARGS = {
    "reward": "what a terminal reward measures: one of the game's declared reward modes (default `win`)",
    "illegal_action": "`raise` (default) or `penalize`: end the episode with a penalty instead of raising",
    "flat": "Gymnasium only: a flat Box observation (the action mask appended) instead of the Dict",
    "render_mode": "`ansi` (text) or `rgb_array` (a picture)",
    "max_decisions": "truncate the episode after this many decisions (default: the game's bound)",
}
"""The keyword arguments every env takes from the shared adapters (envs/adapters/driver.py)."""


def write_pages(folder: Path) -> None:
    """Write `games/<game>.md` for every game under envs/ and `results.md` into `folder`."""
    (folder / "games").mkdir(parents=True, exist_ok=True)
    for name, record in sorted(discovered_games().items()):
        (folder / "games" / f"{name}.md").write_text(game_page(record))
    (folder / "results.md").write_text(results_page())
    (folder / "configs.md").write_text(config_page())


def game_page(record: GameRecord) -> str:
    """A game's reference page."""
    game = make_game(record, {})
    spec = game.spec
    lines = [f"# {record.name.capitalize()}", "", record.description, ""]
    lines += [
        f"Players: {spec.min_players}-{spec.max_players} (default {spec.num_players}); utility: {spec.utility}; "
        f"information: {spec.information}; reward modes: {', '.join(f'`{m}`' for m in spec.reward_modes)}; "
        f"{spec.num_actions} actions; at most {spec.max_game_length} decisions.",
        "",
        f"Rules and every reading of an ambiguity: `envs/{record.name}/RULES.md`; content provenance: "
        f"`envs/{record.name}/CONTENT.md`.",
        "",
    ]
    notes = NOTES / f"{record.name}.md"
    if notes.exists():  # the game's hand-written page: results, interpretations, how it plays
        lines += [notes.read_text().strip(), ""]
    lines += [
        "## Environments",
        "",
        "| id | kind |",
        "|---|---|",
    ]
    lines += [f"| `{env_id}` | Gymnasium |" for env_id in record.gym_env_ids]
    lines += [f"| `{env_id}` | PettingZoo AEC |" for env_id in record.pettingzoo_ids]
    lines += [
        "",
        "## Keyword arguments",
        "",
        "| kwarg | default | values swept by evaluation | meaning |",
        "|---|---|---|---|",
    ]
    meanings = type(game).KWARG_MEANINGS
    for kwarg, default in game_kwargs(game).items():
        swept = ", ".join(f"`{value}`" for value in record.settings.get(kwarg, ())) or ""
        lines.append(f"| `{kwarg}` | `{default!r}` | {swept} | {meanings.get(kwarg, '')} |")
    lines += [f"| `{kwarg}` | | | {meaning} |" for kwarg, meaning in ADAPTER_KWARGS.items()]
    for kwarg, (default, meaning) in env_kwargs(record).items():
        lines.append(f"| `{kwarg}` | `{default!r}` | | {meaning} |")
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


def game_kwargs(game: Any) -> dict[str, Any]:
    """The keyword arguments of the game's class with their defaults."""
    parameters = inspect.signature(type(game).__init__).parameters
    return {
        name: parameter.default
        for name, parameter in parameters.items()
        if name != "self" and parameter.kind in (parameter.KEYWORD_ONLY, parameter.POSITIONAL_OR_KEYWORD)
    }


def env_kwargs(record: Any) -> dict[str, tuple[Any, str]]:
    """The keyword arguments of the game's Gymnasium entry points beyond the game's and the adapter's (an opponent
    env's `opponents`, `learner_seats`, ...), with their defaults and meanings."""
    game = make_game(record, {})
    known = set(game_kwargs(game)) | set(ADAPTER_KWARGS)
    extra: dict[str, tuple[Any, str]] = {}
    for env in record.gym_envs:
        entry_point = load_attribute(env.entry_point)
        for name, parameter in inspect.signature(entry_point).parameters.items():
            if name not in known and parameter.kind in (parameter.KEYWORD_ONLY, parameter.POSITIONAL_OR_KEYWORD):
                extra[name] = (parameter.default, OPPONENT_ENV_KWARGS.get(name, ""))
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


def config_page() -> str:
    """Every config key of train.py and evaluate.py: its type, default and meaning, from the pydantic models."""
    from agents.common.config import ALGORITHM_HYPERPARAMETERS, AlgoConfig, EvalConfig, ExperimentConfig

    lines = [
        "# Config reference",
        "",
        "Every key of the YAML configs, read from the pydantic models that validate them",
        "(`agents/common/config.py`): an unknown key or a wrong type is an error naming the key and the file.",
        "`python train.py --show-config [--config FILE] [key=value ...]` prints a config with every default filled in.",
        "",
    ]
    for title, model in (("Training runs: `train.py`", ExperimentConfig), ("Evaluations: `evaluate.py`", EvalConfig)):
        lines += [f"## {title}", "", *_config_table(model, "", skip=AlgoConfig), ""]
    for name, hyperparameters in ALGORITHM_HYPERPARAMETERS.items():
        lines += [f"## `algo:` with `name: {name}`", "", *_config_table(hyperparameters, "algo."), ""]
    return "\n".join(lines)


def _config_table(model: Any, prefix: str, skip: Any = None) -> list[str]:
    """The rows of one model's keys, sections expanded under their dotted prefix."""
    from pydantic import BaseModel
    from pydantic_core import PydanticUndefined

    rows = ["| key | type | default | meaning |", "|---|---|---|---|"] if not prefix or prefix == "algo." else []
    for name, field in model.model_fields.items():
        annotation = field.annotation
        key = f"{prefix}{name}"
        meaning = " ".join((field.description or "").split()).replace("|", "\\|")
        if inspect.isclass(annotation) and issubclass(annotation, BaseModel):
            summary = (annotation.__doc__ or "").strip().splitlines()[0].replace("|", "\\|")
            rows.append(f"| `{key}` | section | | {summary} |")
            if annotation is skip:
                rows.append(f"| `{key}.*` | | | the algorithm's keys: see the `algo:` tables below |")
            else:
                rows += _config_table(annotation, f"{key}.")
            continue
        if field.default_factory is not None:
            default = repr(field.default_factory())
        elif field.default is PydanticUndefined:
            default = "required"
        else:
            default = repr(field.default)
        kind = getattr(annotation, "__name__", None) or str(annotation).replace("typing.", "")
        rows.append(f"| `{key}` | `{kind}` | `{default}` | {meaning} |")
    return rows


def results_page() -> str:
    """Every benchmark report of benchmarks/results, each under its file name."""
    lines = [
        "# Results",
        "",
        "Every figure here was written by a benchmark; each report starts with the command that produced it. Re-run",
        "the command to regenerate the report, then rebuild the site.",
        "",
    ]
    for path in sorted(RESULTS.glob("*.md")):
        text = path.read_text()
        body = "\n".join("#" + line if line.startswith("#") else line for line in text.splitlines())
        lines += [f"## {path.stem}", "", body, ""]
    return "\n".join(lines)
