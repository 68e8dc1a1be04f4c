"""Suite-wide pytest options and fixtures: golden files compared as text, rewritten on purpose with --update-golden;
the `slow` marker on the tests that take more than a few seconds (`pytest -m "not slow"` for everyday work)."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

import tests.toys  # noqa: F401 - registers the toy games, so every per-game check runs on them too

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
"""Where the checked-in golden transcripts live."""
UPDATE_OPTION = "--update-golden"
DIFF_LINES = 60
"""Lines of unified diff shown when a golden file differs (the full files are a command away)."""


SLOW_TESTS = (
    "tests/rllib/",
    "tests/training/test_training_speedup.py",
    "tests/training/test_update_threads.py",
    "tests/unearth/test_simulation.py::test_random_games_keep_invariants",
    "tests/unearth/test_observer.py::test_fast_observer_equals_the_reference_at_every_step",
    "tests/unearth/test_observer.py::test_generic_hidden_information_checkers_pass",
    "tests/unearth/test_tableau.py::test_random_legal_placements_keep_every_invariant",
    "tests/unstoppable/test_environment.py::test_a_thousand_random_games_within_a_minute",
    "tests/unstoppable/test_environment.py::test_rendering_at_every_step_of_a_random_game",
    "tests/unstoppable/test_benchmarks.py::test_state_fuzz_refuses_or_accepts_soundly_with_the_games_invariants",
    "tests/runebound/test_simulation.py::test_ten_thousand_random_combats_keep_every_invariant",
    "tests/runebound/test_benchmarks.py::test_learning_curve_of_a_solo_run_reads_every_model_beside_the_reference",
    "tests/unbroken/test_card_fuzz.py::test_fuzz_changed_",
    "tests/core/test_checkers.py::test_clones_are_independent_on_every_registered_game",
    "tests/core/test_checkers.py::test_heuristics_never_peek_on_every_registered_game",
    "tests/core/test_checkers.py::test_no_seat_sees_what_is_hidden_from_it_on_every_registered_game",
    "tests/core/test_checkers.py::test_random_simulation_on_every_registered_game",
    "tests/core/test_checkers.py::test_resampling_keeps_each_seats_view_on_every_registered_game",
    "tests/core/test_checkers.py::test_resampling_offers_what_the_reloaded_position_offers_on_every_registered_game",
    "tests/core/test_card_duel_best_response.py::test_choosing_in_more_tricks_is_never_worse",
    "tests/core/test_card_duel_best_response.py::test_the_best_response_plays_whole_games_on_the_rules_core",
    "tests/core/test_chance.py::test_thresholds_on_the_running_totals_pick_as_numpy_where_its_total_differs",
    "tests/core/test_bad_input.py::test_stable_baselines3_actions_reach_the_env",
    "tests/test_readme.py::test_a_readme_example_runs",
    "tests/training/test_evaluate_cli.py::test_workers_end_when_their_parent_is_killed",
    "tests/training/test_fast_policy.py::test_forward_pass_choices_equal_the_distribution_objects_choices",
    "tests/training/test_lookahead.py::test_beats_random_on_unearth_two_players",
    "tests/training/test_packaging",
    "tests/training/test_resume.py::test_subproc_envs_resume_exactly_too",
    "tests/training/test_rllib_optional.py::",
    "tests/training/test_selfplay.py::test_self_play_trains_from_the_yaml_config_alone",
    "tests/training/test_solo_coop_routing.py::test_train_evaluate_and_play_on_the_",
    "tests/training/test_tournament.py::test_a_tournament_through_evaluate_rates_the_heuristic_above_random",
    "tests/training/test_train_cli.py::",
    "tests/view/test_browser.py::",
)
"""Node-id prefixes of the tests that take more than about 1.5 s each (`pytest --durations=0 --durations-min=1.5`):
random simulations, fuzzing, packaging builds, tiny training runs, Ray. Tests that use the `trained_run` fixture (a
tiny `train.py` run per game) are slow too. CI runs them all."""


def pytest_configure(config: pytest.Config) -> None:
    """Declare the `slow` marker (pyproject's `--strict-markers` refuses undeclared ones)."""
    config.addinivalue_line("markers", "slow: takes more than a few seconds; `pytest -m 'not slow'` leaves it out")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the slow tests; a SLOW_TESTS entry that matches no test of a whole-suite run is an error (a renamed
    test must not silently lose its mark), unless its file or folder is there and collected nothing (tests/rllib
    without the rllib extra)."""
    matched: set[str] = set()
    for item in items:
        prefix = next((prefix for prefix in SLOW_TESTS if item.nodeid.startswith(prefix)), None)
        if prefix is not None:
            matched.add(prefix)
        if prefix is not None or "trained_run" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)
    whole_suite = [str(arg) for arg in config.args] in ([], ["tests"]) and not config.getoption("keyword")
    root = Path(str(config.rootpath))
    collected_files = {item.nodeid.split("::")[0] for item in items}
    unmatched = [
        prefix
        for prefix in SLOW_TESTS
        if prefix not in matched and not uncollected_path(root, prefix.split("::")[0], collected_files)
    ]
    if whole_suite and unmatched and len(items) > 100:
        raise pytest.UsageError(f"tests/conftest.py SLOW_TESTS entries match no test: {unmatched}")


def uncollected_path(root: Path, path: str, collected_files: set[str]) -> bool:
    """Whether `path` (a test file, a folder, or a file-name prefix) exists but none of its tests was collected."""
    exists = (root / path).exists() or any((root / path).parent.glob(Path(path).name + "*"))
    return exists and not any(name.startswith(path) for name in collected_files)


def pytest_addoption(parser: pytest.Parser) -> None:
    """Add --update-golden: rewrite golden files from the current code instead of comparing with them."""
    parser.addoption(
        UPDATE_OPTION,
        action="store_true",
        default=False,
        help="rewrite the golden files under tests/golden/ from the current code (after a deliberate change)",
    )


class GoldenFiles:
    """Checked-in text files that a test's output must equal, or rewrites them when updating."""

    def __init__(self, directory: Path, update: bool, test_file: str = "") -> None:
        self.directory = directory
        self.update = update
        self.test_file = test_file

    def path(self, file_name: str) -> Path:
        """The golden file called `file_name`."""
        return self.directory / file_name

    def check(self, file_name: str, text: str, protects: str = "") -> None:
        """Fail unless `text` equals the golden file (with --update-golden: write `text` there instead).

        `protects` (what the golden guards) goes into the failure message, to help judge whether a diff is wanted.
        """
        path = self.path(file_name)
        if self.update:
            path.write_text(text, encoding="utf-8", newline="\n")
            return
        command = " ".join(["python -m pytest", *([self.test_file] if self.test_file else []), UPDATE_OPTION])
        hint = f"run `{command}` to (re)write it, then review and commit the file"
        if not path.exists():
            pytest.fail(f"golden file {path} is missing: {hint}", pytrace=False)
        expected = path.read_text(encoding="utf-8")
        if text != expected:
            diff = list(
                difflib.unified_diff(
                    expected.splitlines(), text.splitlines(), f"{file_name} (golden)", f"{file_name} (now)", lineterm=""
                )
            )
            shown = "\n".join(diff[:DIFF_LINES])
            if len(diff) > DIFF_LINES:
                shown += f"\n... {len(diff) - DIFF_LINES} more diff lines"
            guards = f" (it protects: {protects})" if protects else ""
            pytest.fail(
                f"{path} differs from what the code produces now{guards}.\n"
                f"If the change is deliberate, {hint}.\n{shown}",
                pytrace=False,
            )


@pytest.fixture
def golden(request: pytest.FixtureRequest) -> GoldenFiles:
    """The golden files of tests/golden/, in compare mode, or in rewrite mode under --update-golden."""
    update = bool(request.config.getoption(UPDATE_OPTION))
    return GoldenFiles(GOLDEN_DIR, update=update, test_file=request.node.nodeid.split("::")[0])
