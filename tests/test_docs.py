"""The documentation site's generated pages: one per game, from its record, game and observer; the results page.
And the hand-written prose reads as documentation, not as a diary of how it was written."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import json
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

from envs.core.registration import discovered_games, load_attribute, make_game

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

DIARY_PATTERNS = {
    r"\b20\d\d-\d\d-\d\d\b": "a date: a figure names its command and lives in the results page, not a day",
    r"\bthis session\b": "the session that wrote it",
    r"\bearlier (attempts?|default|version)\b": "history: say what is, and why",
    r"\b(we|also) tried\b|\bnot tried yet\b": "history: name what is open as an open direction",
    r"\banother (job|evaluation|run)\b.*\b(ran|running)\b": "the conditions of one measurement",
    r"\b(this|our|a|the) (shared|busy|idle) (\d+-core )?machine\b": "the conditions of one measurement",
    r"\b(on|of) (this|our) (\d+-core )?machines?\b": "the machine that wrote it: name the machine class",
    r"\bat the time\b": "history: say what is",
    r"\b(measured|rerun) on\b": "a dated measurement: the results page holds figures with their commands",
    r"\buntil issue \d+": "history of the issue tracker",
}
"""Diary phrases (regular expressions, case-insensitive) and why each is refused in the README, the docs and the
configs' comments: a figure states the command that produced it and lives in the generated results page
(benchmarks/results), and a passage says what is and why, not when and how it came to be."""
PROSE = sorted(
    [
        ROOT / "README.md",
        *(path for path in DOCS.rglob("*.md") if not {"_build", "_generated"} & set(path.relative_to(DOCS).parts)),
        *(ROOT / "configs").rglob("*.yaml"),
    ]
)
"""The hand-written prose: the README, the docs (not what the build generates) and the configs with their comments."""


def diary_phrases(text: str) -> list[str]:
    """Every diary phrase in `text`, as "line N: the phrase (why)"."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        for pattern, why in DIARY_PATTERNS.items():
            match = re.search(pattern, line, re.IGNORECASE)
            if match:
                found.append(f"line {number}: {match.group(0)!r} ({why})")
    return found


def test_diary_phrases_are_found() -> None:
    """The scan catches the phrases it is for (a scan that matched nothing would let them back in)."""
    text = (
        "Measured on 2026-11-23 on this shared 2-core machine while another job was running.\n"
        "An earlier attempt reached 49%; we tried a larger net. Not tried yet: shaping.\n"
        "It took 17 minutes on this machine; rerun on Monday.\n"
    )
    assert len(diary_phrases(text)) >= 7
    assert not diary_phrases("`python -m benchmarks.step_cost --game unearth` (a 2-core CPU machine): 1.05x.")


@pytest.mark.parametrize("path", PROSE, ids=[str(path.relative_to(ROOT)) for path in PROSE])
def test_prose_has_no_diary_phrases(path: Path) -> None:
    found = diary_phrases(path.read_text(encoding="utf-8"))
    assert not found, f"{path.relative_to(ROOT)}: " + "; ".join(found)


def load_generator() -> object:
    """docs/generate.py as a module (docs/ is not a package: Sphinx runs it from docs/conf.py)."""
    spec = importlib.util.spec_from_file_location("docs_generate", DOCS / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


RESULTS = ROOT / "benchmarks" / "results"
RESULTS_REFERENCE = re.compile(r"benchmarks/results/([\w.{},-]+?)\.(?:\{md,json\}|md|json)")
"""A results file named in prose: `benchmarks/results/NAME.md` (or .json, .{md,json}; NAME may hold {a,b})."""
TYPED_FIGURE = re.compile(r"(?<![\w.`-])\d+\.\d+(?![\w.])")
"""A figure with a decimal point (a rate, a time, a ratio) outside code spans."""


def expand_braces(name: str) -> list[str]:
    """`unearth_num_players{2,4}_step_cost` -> both names (one brace group at a time)."""
    match = re.search(r"\{([^{}]*)\}", name)
    if match is None:
        return [name]
    return [
        expanded
        for part in match.group(1).split(",")
        for expanded in expand_braces(name[: match.start()] + part + name[match.end() :])
    ]


def passages(text: str) -> list[str]:
    """Paragraphs and list items of a markdown text."""
    return [passage for passage in re.split(r"\n\s*\n|\n(?=\s*[-*] )", text) if passage.strip()]


def unbacked_figures(text: str) -> list[tuple[str, list[str]]]:
    """Each passage naming results files with the typed figures that none of those files holds."""
    problems = []
    for passage in passages(text):
        names = [name for found in RESULTS_REFERENCE.findall(passage) for name in expand_braces(found)]
        if not names:
            continue
        figures = set(TYPED_FIGURE.findall(re.sub(r"`[^`]*`", "", passage)))
        sources = "".join(
            path.read_text(encoding="utf-8")
            for name in names
            for path in (RESULTS / f"{name}.md", RESULTS / f"{name}.json")
            if path.is_file()
        )
        missing = sorted(figure for figure in figures if figure not in sources)
        if missing:
            problems.append((passage.strip()[:100], missing))
    return problems


def test_a_typed_figure_missing_from_its_results_file_is_found() -> None:
    """The check below finds a figure its passage's results file does not hold, and passes one it holds."""
    stale = "The step costs 99.9 us (`benchmarks/results/unstoppable_step_cost.md`)."
    assert unbacked_figures(stale) == [(stale[:100], ["99.9"])]
    step_cost = (RESULTS / "unstoppable_step_cost.json").read_text(encoding="utf-8")
    held = re.search(r"\d+\.\d+", step_cost)
    assert held is not None
    assert unbacked_figures(f"It takes {held.group(0)} (`benchmarks/results/unstoppable_step_cost.md`).") == []


@pytest.mark.parametrize("path", [path for path in PROSE if path.suffix == ".md"], ids=lambda path: path.name)
def test_typed_figures_are_those_of_the_results_files_they_cite(path: Path) -> None:
    """ "Every number in the README, the docs or a config comes from a command that writes it": a figure typed in a
    passage that cites a results file must be one that file holds (regenerate the file, then copy, or cite it
    without typing the figure)."""
    assert unbacked_figures(path.read_text(encoding="utf-8")) == []


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The generated pages, written once for the tests that read them (as `docs/conf.py` writes them on a build)."""
    folder = tmp_path_factory.mktemp("generated")
    load_generator().write_pages(folder)  # type: ignore[attr-defined]
    return folder


def kwarg_rows(page: str) -> dict[str, list[str]]:
    """The cells of each row of a page's tables whose first cell is a `kwarg`, by kwarg (the last table wins)."""
    rows = {}
    for line in page.split("## Keyword arguments", 1)[1].split("## Observation", 1)[0].splitlines():
        match = re.match(r"\| `(\w+)` \|(.*)\|$", line)
        if match:
            rows[match.group(1)] = [cell.strip() for cell in re.split(r"(?<!\\)\|", match.group(2))]
    return rows


@pytest.mark.slow
def test_every_game_gets_a_page_naming_its_ids_views_and_action_groups(site: Path) -> None:
    """Each game under envs/ has a page; it names every env id, every observation view and the action count."""
    for name, record in discovered_games().items():
        page = (site / "games" / f"{name}.md").read_text()
        game = make_game(record, {})
        for env_id in (*record.gym_env_ids, *record.pettingzoo_ids):
            assert f"`{env_id}`" in page
        for view in game.observer(0).views:
            assert f"| `{view}` |" in page
        assert f"Discrete({game.spec.num_actions})" in page
    results = (site / "results.md").read_text()
    assert "## core_components" in results and "python -m benchmarks.core_components" in results


@pytest.mark.slow
def test_players_read_as_the_spec_says(site: Path) -> None:
    """A solo game reads "Players: 1" (not "1-1"); a game for several, its range and default."""
    for name, record in discovered_games().items():
        spec = make_game(record, {}).spec
        page = (site / "games" / f"{name}.md").read_text()
        expected = (
            "Players: 1;"
            if spec.max_players == 1
            else f"Players: {spec.min_players}-{spec.max_players} (default {spec.num_players});"
        )
        assert expected in page and "Players: 1-1" not in page


@pytest.mark.slow
def test_kwarg_tables_give_every_default_and_value_from_the_code(site: Path) -> None:
    """Every game kwarg shows its signature's default and every value the game accepts (`Game.kwarg_values`: the
    content's names, so no `None` without what it plays); every adapter kwarg shows each env id's own default, and
    `flat` what the flat env really observes (the observer's vector alone, no mask appended)."""
    generator = load_generator()
    for name, record in discovered_games().items():
        game = make_game(record, {})
        page = (site / "games" / f"{name}.md").read_text()
        rows = kwarg_rows(page)
        for kwarg, default in generator.game_kwargs(game).items():  # type: ignore[attr-defined]
            default_cell, values_cell = rows[kwarg][:2]
            assert default_cell.startswith(f"`{default!r}`"), (name, kwarg, default_cell)
            for value in game.kwarg_values().get(kwarg, ()):
                assert f"`{value!r}`" in values_cell, (name, kwarg, value)
            if default is None and game.kwarg_values().get(kwarg):
                assert "plays" in default_cell, (name, kwarg, default_cell)
        entries = generator.entry_points(record)  # type: ignore[attr-defined]
        for column, (entry, kind) in enumerate(entries.values()):
            taken = generator.adapter_kwargs(entry, kind)  # type: ignore[attr-defined]
            for kwarg, default in taken.items():
                assert rows[kwarg][column] == f"`{default!r}`", (name, kwarg, rows[kwarg])
        assert "appended" not in page
        for env in record.gym_envs:  # a game kwarg an entry point does not take is said to be the class's alone
            taken = inspect.signature(load_attribute(env.entry_point)).parameters
            for kwarg in set(generator.game_kwargs(game)) - set(taken):  # type: ignore[attr-defined]
                assert re.search(rf"`{re.escape(env.id)}` does not take [^\n]*`{kwarg}`", page), (name, kwarg)
        if record.gym_envs:
            env = load_attribute(record.gym_envs[0].entry_point)(flat=True)
            assert env.observation_space.shape == (game.observer(0).size,)
            assert f"`Box(float32, {env.observation_space.shape})`" in rows["flat"][-1]


@pytest.mark.slow
def test_kwargs_only_some_ids_take_are_said_to_be_theirs(site: Path) -> None:
    """An entry point's own kwargs (an opponent env's `opponents`, ...) stand under "Only `<id>` takes these"."""
    generator = load_generator()
    found = 0
    for name, record in discovered_games().items():
        page = (site / "games" / f"{name}.md").read_text()
        for env_id, extra in generator.env_kwargs(record).items():  # type: ignore[attr-defined]
            section = page.split(f"Only `{env_id}` takes these:", 1)[1].split("## Observation", 1)[0]
            for kwarg in extra:
                assert f"| `{kwarg}` |" in section
                found += 1
    assert found  # the opponent env of a multi-player game has some


@pytest.mark.slow
def test_every_game_page_shows_its_picture_and_its_documents(site: Path) -> None:
    """Each game page shows a picture of a position in play (its rgb_array render) and lists its documents
    (RULES.md, CONTENT.md, REFERENCE.md, ...) and its results as pages of the site."""
    from PIL import Image

    generator = load_generator()
    for name, record in discovered_games().items():
        assert record.package is not None
        folder = record.package.rpartition(".")[2]  # a package's documents are shown once for all its games
        page = (site / "games" / f"{name}.md").read_text()
        picture = np.asarray(Image.open(site / "games" / f"{name}.png"))
        assert picture.ndim == 3 and picture.shape[2] == 3 and picture.std() > 0
        assert f"]({name}.png)" in page
        toctree = page.split("```{toctree}", 1)[1].split("```", 1)[0]
        documents = sorted((ROOT / "envs" / folder).glob("*.md"))
        assert {"RULES", "CONTENT", "REFERENCE"} <= {path.stem for path in documents}
        assert f"{name}/results" in toctree
        for path in documents:
            assert f"{folder}/{path.stem.lower()}" in toctree
            shown = (site / "games" / folder / f"{path.stem.lower()}.md").read_text()
            assert shown == generator.link_documents(path.read_text(), folder, "../")  # type: ignore[attr-defined]
            assert not re.search(r"(?<!\[)`(envs/\w+/)?(RULES|CONTENT|REFERENCE)\.md`", shown)  # cited as links
        assert f"{name}/results" in toctree


@pytest.mark.slow
def test_results_pages_give_win_rates_first_from_the_results_files(site: Path) -> None:
    """Each game's results page starts with the agents' win rates and intervals of every results file that holds
    them, formatted from the JSON (never typed), and its reports (timings and the rest) come after; a results file is
    the page of the longest game name that begins it (runebound_combat_balance is not runebound's)."""
    generator = load_generator()
    games = sorted(discovered_games())
    owner = generator.results_owner  # type: ignore[attr-defined]
    for name in games:
        page = (site / "games" / name / "results.md").read_text()
        strength, reports = page.split("## Reports", 1)
        assert "## Agents: win rates" in strength
        owned = [path for path in sorted(RESULTS.glob(f"{name}_*")) if owner(path.stem, games) == name]
        for path in [path for path in owned if path.suffix == ".json"]:
            report = json.loads(path.read_text(encoding="utf-8"))
            for _where, rows in generator.rate_tables(report):  # type: ignore[attr-defined]
                assert f"### {path.stem}" in strength
                for row in rows:
                    rate = row.get("win_rate", row.get("share"))
                    low, high = row.get("win_rate_ci95", row.get("ci95"))
                    assert f"| {100 * rate:.1f}% | [{100 * low:.1f}, {100 * high:.1f}] |" in strength
        for path in [path for path in owned if path.suffix == ".md"]:
            assert f"### {path.stem}" in reports
    assert "unbroken_balance" in (site / "games" / "unbroken" / "results.md").read_text().split("## Reports")[0]


def test_api_reference_documents_the_core_the_adapters_each_game_and_the_agents(tmp_path: Path) -> None:
    """The API reference has a page per module (autodoc) for the rules core, the adapters, each game's game class
    and heuristic and the agents' entry points, and the site's index lists it."""
    generator = load_generator()
    api = tmp_path / "api"
    generator.write_api_pages(api, generator.api_modules(list(discovered_games().values())))  # type: ignore[attr-defined]
    index = (api / "index.md").read_text()
    modules = [line for line in index.split("```{toctree}", 1)[1].split("```", 1)[0].splitlines()[2:] if line]
    assert {"envs.core.game", "envs.adapters.gym_env", "agents.players.registry", "agents.common.config"} <= set(
        modules
    )
    for record in discovered_games().values():
        assert record.game is not None and record.game.partition(":")[0] in modules
    for module in modules:
        importlib.import_module(module)
        assert f".. automodule:: {module}" in (api / f"{module}.md").read_text()
    assert "_generated/api/index" in (DOCS / "index.md").read_text()


def test_cited_game_documents_become_links() -> None:
    """A game document cited by its path (`envs/<game>/RULES.md`, or `CONTENT.md` in the game's own text) links to its
    page; a path that is no game document stays as written."""
    link = load_generator().link_documents  # type: ignore[attr-defined]
    text = "See `envs/unearth/RULES.md`, `CONTENT.md` and `envs/unearth/NOPE.md`."
    assert link(text, "unearth", "../") == (
        "See [`envs/unearth/RULES.md`](../unearth/rules.md), [`CONTENT.md`](../unearth/content.md) and "
        "`envs/unearth/NOPE.md`."
    )


def test_plain_docstrings_are_shown_as_written() -> None:
    """A docstring is plain text: its lines stay lines, `code` stays code, and nothing else is read as
    reStructuredText markup (a stray `*`, `|`, backtick or trailing underscore)."""
    plain = load_generator().plain_docstring  # type: ignore[attr-defined]
    assert plain(["Call `make_env(flat=True)` with *args | kwargs_ and a stray ` here.", "", "    indented"]) == [
        "| Call ``make_env(flat=True)`` with \\*args \\| kwargs\\_ and a stray \\` here.",
        "|",
        "|     indented",
        "",
    ]


SHARED_CITATION = re.compile(r"(\.\.|/work)/shared/")
"""A path into the folder beside the repository that held the rulebooks and public-fact sheets: a clone lacks it."""


def test_no_file_cites_sources_a_clone_lacks() -> None:
    """Every source the repository cites is in it (the public-fact sheets are envs/<game>/REFERENCE.md): no tracked
    text file but the CI script points beside the repository."""
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    citing = []
    for name in tracked.splitlines():
        path = ROOT / name
        if name == ".ci/run" or path.suffix not in {".py", ".md", ".yaml", ".toml", ".txt", ""} or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        citing += [f"{name}:{n}" for n, line in enumerate(text.splitlines(), 1) if SHARED_CITATION.search(line)]
    assert not citing, citing
    for record in discovered_games().values():
        assert record.package is not None
        assert (ROOT / record.package.replace(".", "/") / "REFERENCE.md").is_file(), record.name


def test_action_groups_cover_every_id_once(tmp_path: Path) -> None:
    """The action groups of a page partition the action space (first ids in order, counts adding up)."""
    generator = load_generator()
    for record in discovered_games().values():
        game = make_game(record, {})
        groups = generator.action_groups(game, game.spec.num_actions)  # type: ignore[attr-defined]
        assert sum(count for _, _, count, _ in groups) == game.spec.num_actions
        firsts = [first for _, first, _, _ in groups]
        assert firsts == sorted(firsts) and firsts[0] == 0


def test_every_config_key_has_a_meaning(tmp_path: Path) -> None:
    """The config reference lists every key of train.py's and evaluate.py's configs with its meaning (the docstring
    under the pydantic field): a new key without one fails here."""
    generator = load_generator()
    page = generator.config_page()  # type: ignore[attr-defined]
    entries = [line for line in page.splitlines() if line.startswith("- `")]
    assert len(entries) > 60
    unexplained = [entry.split("`")[1] for entry in entries if entry.rstrip().endswith("):")]
    assert not unexplained, f"config keys without a docstring in agents/common/config.py: {unexplained}"
    for key in ("train.total_timesteps", "algo.n_steps", "evaluation.episodes", "pretrain.dagger_rounds"):
        assert f"- `{key}` (" in page


def test_config_reference_is_a_list_not_a_table() -> None:
    """The config reference has no table (a four-column table of long meanings and defaults overflowed the page at
    1,400 px): each key is an entry whose meaning wraps."""
    generator = load_generator()
    page = generator.config_page()  # type: ignore[attr-defined]
    assert not [line for line in page.splitlines() if line.startswith("|")]
    assert "Annotated" not in page and " at 0x" not in page  # types as written, no validator's repr
    entry = generator.config_key_entry("train.seed", "int", "0", "the seed")  # type: ignore[attr-defined]
    assert entry == "- `train.seed` (`int`, default `0`): the seed"


def test_every_game_kwarg_has_a_meaning() -> None:
    """Each keyword argument of each game's constructor is explained on its page (`Game.KWARG_MEANINGS`)."""
    generator = load_generator()
    for record in discovered_games().values():
        game = make_game(record, {})
        kwargs = generator.game_kwargs(game)  # type: ignore[attr-defined]
        missing = sorted(set(kwargs) - set(type(game).KWARG_MEANINGS))
        assert not missing, f"{record.name}: kwargs without a meaning in KWARG_MEANINGS: {missing}"


def test_every_entry_point_kwarg_has_a_meaning() -> None:
    """Each keyword argument a game's Gymnasium entry point takes beyond the game's and the adapters' (an opponent
    env's `opponents`, `learner_seats`, ...) is explained on its page."""
    generator = load_generator()
    for record in discovered_games().values():
        extra = generator.env_kwargs(record)  # type: ignore[attr-defined]
        missing = sorted(name for taken in extra.values() for name, (_default, meaning) in taken.items() if not meaning)
        assert not missing, f"{record.name}: entry-point kwargs without a meaning: {missing}"


def test_every_listed_kwarg_value_builds_the_game() -> None:
    """`Game.kwarg_values` (what a game page lists as a kwarg's values) names only values the game accepts, for
    kwargs the game takes, its default among them; a default of None plays the first."""
    generator = load_generator()
    for name, record in discovered_games().items():
        game = make_game(record, {})
        defaults = generator.game_kwargs(game)  # type: ignore[attr-defined]
        listed = game.kwarg_values()
        assert set(listed) <= set(defaults), f"{name}: values listed for kwargs the game does not take"
        for kwarg, values in listed.items():
            assert values, f"{name}.{kwarg}: no values"
            default = defaults[kwarg]
            assert default is None or default in values, f"{name}.{kwarg}: default {default!r} not in {values}"
            for value in values:
                make_game(record, {kwarg: value})
            if default is None:
                first = make_game(record, {kwarg: values[0]})
                assert first.new_initial_state().to_dict() == game.new_initial_state().to_dict()


def test_a_results_file_belongs_to_the_longest_game_name_that_begins_it() -> None:
    """Two games of one package share a name's beginning (runebound, runebound_combat): each file is one game's."""
    owner = load_generator().results_owner  # type: ignore[attr-defined]
    games = ["runebound", "runebound_combat", "unbroken"]
    assert owner("runebound_combat_balance", games) == "runebound_combat"
    assert owner("runebound_balance", games) == "runebound"
    assert owner("throughput", games) is None
