"""The documentation site's generated pages: one per game, from its record, game and observer; the results page."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from envs.core.registration import discovered_games, make_game

DOCS = Path(__file__).resolve().parent.parent / "docs"


def load_generator() -> object:
    """docs/generate.py as a module (docs/ is not a package: Sphinx runs it from docs/conf.py)."""
    spec = importlib.util.spec_from_file_location("docs_generate", DOCS / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_game_gets_a_page_naming_its_ids_views_and_action_groups(tmp_path: Path) -> None:
    """Each game under envs/ has a page; it names every env id, every observation view and the action count."""
    generator = load_generator()
    generator.write_pages(tmp_path)  # type: ignore[attr-defined]
    for name, record in discovered_games().items():
        page = (tmp_path / "games" / f"{name}.md").read_text()
        game = make_game(record, {})
        for env_id in (*record.gym_env_ids, *record.pettingzoo_ids):
            assert f"`{env_id}`" in page
        for view in game.observer(0).views:
            assert f"| `{view}` |" in page
        assert f"Discrete({game.spec.num_actions})" in page
    results = (tmp_path / "results.md").read_text()
    assert "## core_components" in results and "python -m benchmarks.core_components" in results


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
    rows = [line for line in page.splitlines() if line.startswith("| `")]
    assert len(rows) > 60
    unexplained = [row.split("|")[1].strip() for row in rows if row.rstrip().endswith("|  |")]
    assert not unexplained, f"config keys without a docstring in agents/config.py: {unexplained}"
    for key in ("`train.total_timesteps`", "`algo.n_steps`", "`evaluation.episodes`", "`pretrain.dagger_rounds`"):
        assert f"| {key} |" in page


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
        missing = sorted(name for name, (_default, meaning) in extra.items() if not meaning)
        assert not missing, f"{record.name}: entry-point kwargs without a meaning: {missing}"
