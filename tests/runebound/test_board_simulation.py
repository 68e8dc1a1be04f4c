"""Random games of Runebound on the board: every step keeps the generic invariants (envs/core/testing.py) and the
board's (tests/runebound/board_invariants.py: every card, skill and warband in exactly one place, a fight on exactly
while the combat's frames are on top, markets of 3 but while cards are dealt, the end exactly when the outcome is
set), observations stay in their bounds, and reached positions round-trip through their dicts. 100 games in the fast
tests, 1,000 in the slow ones."""

from __future__ import annotations

import pytest

from envs.core.testing import random_simulation
from envs.runebound.board_game import RuneboundGame
from tests.runebound.board_invariants import state_invariants

HEROES = ("Eliam", "Tatianna", "Master Thorn", "Corbin")


def play(games_per_hero: int, roundtrip_every: int, observed_games: int) -> set[float]:
    """Random games on every hero, checked at every step; the returns seen."""
    returns: set[float] = set()
    for seed, hero in enumerate(HEROES):
        game = RuneboundGame(hero=hero)
        report = random_simulation(
            game,
            games_per_hero,
            seed,
            invariants=(state_invariants,),
            check_roundtrip_every=roundtrip_every,
            observed_games=observed_games,
        )
        assert report.games == games_per_hero
        assert report.longest <= game.spec.max_game_length
        returns.update(report.returns)
    return returns


def test_a_hundred_random_games_keep_every_invariant() -> None:
    """25 random games per hero (100 in all): every step checked, a JSON round trip every 11 steps, observations on
    the first 5 games of each hero; random play loses (the time runs out or the hero falls: -1)."""
    assert play(25, roundtrip_every=11, observed_games=5) == {-1.0}


@pytest.mark.slow
def test_a_thousand_random_games_keep_every_invariant() -> None:
    """250 random games per hero (1,000 in all), every 13th step round-tripped, observations on 10 games each."""
    returns = play(250, roundtrip_every=13, observed_games=10)
    assert -1.0 in returns
