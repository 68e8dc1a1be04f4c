"""Ten thousand random combats over every trait, Act and enemy-choice preset: the generic random-simulation checker
(chance outcomes, legal actions, mask, observations, JSON round trips, the length bound) and the combat's own
invariants after every step."""

from __future__ import annotations

import itertools

from envs.core.game import State
from envs.core.testing import random_simulation
from envs.runebound.game import RuneboundCombatGame
from envs.runebound.rules import CombatState
from envs.runebound.state import ROUND_CAP, Outcome

TRAITS = ("Warrior", "Mystic", "Savage", "Trickster")
SETTINGS = list(itertools.product(TRAITS, ("I", "II"), ("detrimental", "two_damage")))
COMBATS = 10_000


def combat_invariants(state: State) -> None:
    """Damage within health (at it only for the defeated side), the round within the cap, the tokens each side
    holds never changing within a combat, and the end matching the damage."""
    assert isinstance(state, CombatState)
    if state.hero < 0 or state.enemy < 0 or not state.combat_tokens[0]:
        return
    healths = (state.hero_card().health, state.enemy_card().health)
    assert all(0 <= damage <= health for damage, health in zip(state.combat_damage, healths, strict=True))
    assert 0 <= state.combat_round <= ROUND_CAP
    assert len(state.combat_tokens[0]) == len(state.game.cards.hero_tokens(state.hero, state.game.act))
    assert len(state.combat_tokens[1]) == 4 + state.game.act
    assert (state.combat_damage[1] == healths[1]) == (state.combat_outcome == Outcome.WON)
    assert (state.combat_damage[0] == healths[0]) == (state.combat_outcome == Outcome.LOST)


def test_ten_thousand_random_combats_keep_every_invariant() -> None:
    """10,000 combats in all (a random hero and enemy of each trait, both Acts, both presets): every step checked,
    observations on the first 40 combats of each setting, a JSON round trip every 97 steps."""
    played = 0
    outcomes: set[float] = set()
    per_setting = COMBATS // len(SETTINGS)
    for seed, (trait, act, choice) in enumerate(SETTINGS):
        game = RuneboundCombatGame(trait=trait, act=act, enemy_choice=choice)
        report = random_simulation(
            game, per_setting, seed, invariants=(combat_invariants,), check_roundtrip_every=97, observed_games=40
        )
        played += report.games
        outcomes.update(report.returns)
        assert report.longest <= game.spec.max_game_length
    assert played == COMBATS
    assert outcomes == {-1.0, 0.0, 1.0}
