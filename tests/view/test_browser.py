"""The viewer in a real browser: headless Chromium from Debian, driven by Selenium through Debian's chromedriver
(.ci/run installs both). A replay is opened, stepped, played to its end and watched from another seat; a whole short
game is played as `human` against the heuristic, by keys, and its record replays to the result the page showed; the
home form's defaults start a game of whichever env is selected."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from agents.evaluation.play import ONLY_CHOICE
from benchmarks.viewer_screenshots import headless_chromium, open_page, record_game, running_viewer, wait_until
from envs.core.game import CHANCE
from envs.core.registration import game_record_of_env_id, make_env_game
from envs.core.replays import ReplayedEvent, read_record, replay, view_text

MULTI_SEAT_ENV = "tabletop/card_duel_v0"
"""A short multi-seat game with hidden hands (a toy): every seat's view differs."""
SOLO_ENV = "tabletop/Unbroken-v0"
"""A game of one seat (the form's first default once put two agents in it)."""


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    browser = headless_chromium()
    yield browser
    browser.quit()


def text_of(driver: Any, element_id: str) -> str:
    return str(driver.find_element(By.ID, element_id).text)


def events_shown(driver: Any) -> int:
    return len(driver.find_elements(By.CSS_SELECTOR, "#game-events li"))


def more_events_than(shown: int) -> Callable[[Any], bool]:
    """Whether the live game's list holds more than `shown` events (a condition to wait for)."""
    return lambda driver: events_shown(driver) > shown


def titled(title: str) -> Callable[[Any], bool]:
    """Whether the live game's title starts with `title` (a condition to wait for)."""
    return lambda driver: text_of(driver, "game-title").startswith(title)


def step_shown(driver: Any, step: int, steps: int) -> None:
    wait_until(driver, lambda d: text_of(d, "step-label") == f"step {step} / {steps}", f"step {step} / {steps}")


def test_a_replay_is_stepped_played_to_the_end_and_watched_from_each_seat(driver: Any, tmp_path: Path) -> None:
    path = record_game(MULTI_SEAT_ENV, 11, tmp_path / "duel.json")
    record = read_record(path)
    events: list[ReplayedEvent] = []
    final = replay(record, "public", events.append)
    steps = len(record.events)
    with running_viewer(tmp_path) as address:
        open_page(driver, f"{address}/#/")
        driver.find_element(By.CSS_SELECTOR, 'tr[data-name="duel.json"] a').click()
        step_shown(driver, 0, steps)
        driver.find_element(By.ID, "next").click()
        driver.find_element(By.ID, "next").click()
        step_shown(driver, 2, steps)
        assert events[1].label in text_of(driver, "event")
        driver.find_element(By.ID, "next-decision").click()
        decision = next(step for step, (player, _) in enumerate(record.events, 1) if step > 2 and player != CHANCE)
        step_shown(driver, decision, steps)
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
        step_shown(driver, steps, steps)
        wait_until(driver, lambda d: text_of(d, "text") == str(view_text(final, "public")).strip(), "the public view")
        # another seat's view, at the same step
        Select(driver.find_element(By.ID, "view")).select_by_value("1")
        wait_until(driver, lambda d: d.current_url.endswith(f"view=1&step={steps}"), "seat 1's view at the end")
        step_shown(driver, steps, steps)
        wait_until(driver, lambda d: text_of(d, "text") == str(view_text(final, 1)).strip(), "seat 1's text")
        assert view_text(final, 1) != view_text(final, 0)
        items = driver.find_elements(By.CSS_SELECTOR, "#events li")
        assert len(items) == steps and "current" in items[-1].get_attribute("class")
        # play from the start at the fastest speed: it stops at the end
        driver.find_element(By.ID, "start").click()
        step_shown(driver, 0, steps)
        Select(driver.find_element(By.ID, "speed")).select_by_value("30")
        driver.find_element(By.ID, "play").click()
        step_shown(driver, steps, steps)
        wait_until(driver, lambda d: text_of(d, "play") == "play", "playing to stop at the end")


def test_a_whole_short_game_is_played_by_keys_against_the_heuristic(driver: Any, tmp_path: Path) -> None:
    with running_viewer(tmp_path) as address:
        open_page(driver, f"{address}/#/")
        Select(driver.find_element(By.ID, "new-env")).select_by_value(MULTI_SEAT_ENV)
        agents = driver.find_element(By.ID, "new-agents")
        agents.clear()
        agents.send_keys("human, heuristic")
        driver.find_element(By.ID, "new-seed").send_keys("5")
        driver.find_element(By.CSS_SELECTOR, "#new-game button").click()
        moves = 0
        while True:
            wait_until(
                driver,
                lambda d: (
                    text_of(d, "status").startswith("game over")
                    or d.find_elements(By.CSS_SELECTOR, "#actions button[data-key]:not([disabled])")
                ),
                "the person's move or the end",
            )
            if text_of(driver, "status").startswith("game over"):
                break
            shown = events_shown(driver)
            key = driver.find_element(By.CSS_SELECTOR, "#actions button[data-key]").get_attribute("data-key")
            driver.find_element(By.TAG_NAME, "body").send_keys(key)
            moves += 1
            wait_until(driver, more_events_than(shown), "the move and the answers")
        status = text_of(driver, "status")
        taken_alone = sum(ONLY_CHOICE in item.text for item in driver.find_elements(By.CSS_SELECTOR, "#game-events li"))
    records = list(tmp_path.glob("live-*.json"))
    assert len(records) == 1
    record = read_record(records[0])
    assert record.players == ["human", "heuristic"] and record.env_id == MULTI_SEAT_ENV
    assert moves > 0 and moves + taken_alone == sum(1 for player, _ in record.events if player == 0)
    final = replay(record)
    assert final.is_terminal()
    won = "won" if final.returns()[0] > 0 else "lost" if final.returns()[0] < 0 else "drew"
    assert status.startswith(f"game over: seat 0: {won}")


def test_the_home_forms_defaults_start_a_game_of_the_env_selected(driver: Any, tmp_path: Path) -> None:
    """The env first in the list as the page opens, then a one-seat env and a two-seat one: each played by pressing
    `play` on the form as the page fills it."""
    with running_viewer(tmp_path) as address:
        open_page(driver, f"{address}/#/")
        first = str(Select(driver.find_element(By.ID, "new-env")).first_selected_option.get_attribute("value"))
        for env_id in dict.fromkeys([first, SOLO_ENV, MULTI_SEAT_ENV]):
            if env_id != first:
                open_page(driver, f"{address}/#/")
                Select(driver.find_element(By.ID, "new-env")).select_by_value(env_id)
            seats = make_env_game(env_id, {}).spec.num_players
            other = "heuristic" if game_record_of_env_id(env_id).heuristic else "random"
            expected = ", ".join([*([other] * (seats - 1)), "human"])
            assert driver.find_element(By.ID, "new-agents").get_attribute("value") == expected
            driver.find_element(By.CSS_SELECTOR, "#new-game button").click()  # nothing else changed
            wait_until(driver, titled(f"{env_id}: "), f"the game of {env_id}")
            assert text_of(driver, "status").startswith(f"you play seat {seats - 1}")
            assert driver.find_element(By.ID, "error").get_attribute("hidden")
