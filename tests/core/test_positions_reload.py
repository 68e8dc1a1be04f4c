"""Every position reached in play loads back from its dict, on every registered game at every combination of its
declared settings, in random and heuristic play (`envs.core.testing.check_positions_reload`); the checker is shown to
fail on planted defects.

Issue 32: Runebound combats reached positions its own validation refused (about 0.5% of combats), which could not be
saved, restored, pickled, deep-copied or given to `reset(options={"state": ...})`. DESIGN.md: "Every position the
rules reach loads back from its dict".
"""

from __future__ import annotations

from typing import Any

import pytest

from envs.core.game import Game, State, StateFormatError
from envs.core.registration import make_game, registered_games
from envs.core.testing import check_positions_reload, every_setting

from .test_checkers import DiceGame, DiceState

POSITIONS = 300
"""Positions each case checks at least (whole games: a game of short episodes plays several; one of long episodes,
one)."""


def every_game_and_setting(heuristic: bool) -> list[Any]:
    """pytest parameters (game): the rules-core game of every registered game (the toys included) at every combination
    of its record's settings; with `heuristic`, only the records that name a heuristic agent."""
    cases = []
    for name, record in registered_games().items():
        if heuristic and record.heuristic is None:
            continue
        for kwargs in every_setting(record):
            label = ",".join(f"{key}={value}" for key, value in kwargs.items()) or "default"
            cases.append(pytest.param(make_game(record, kwargs), id=f"{name}-{label}"))
    return cases


@pytest.mark.slow
@pytest.mark.parametrize("game", every_game_and_setting(heuristic=False))
def test_positions_of_random_play_reload_on_every_game_and_setting(game: Game) -> None:
    """Every position of random legal games loads back with an equal dict, the same seat and the same options."""
    assert check_positions_reload(game, seed=11, games=1, positions=POSITIONS) >= POSITIONS


@pytest.mark.slow
@pytest.mark.parametrize("game", every_game_and_setting(heuristic=True))
def test_positions_of_heuristic_play_reload_on_every_game_and_setting(game: Game) -> None:
    """Every position of games the game's heuristic agent plays (every seat) loads back the same: the heuristic reaches
    positions random play rarely does (long games, the late rounds)."""
    from agents.players.registry import make_heuristic_agent

    agent = make_heuristic_agent(game)

    def policy(state: State, seat: int) -> int:
        observation = game.observer(seat).tensor(state)
        return agent.act(observation, state.legal_actions_mask(), state=state)

    assert check_positions_reload(game, seed=12, games=1, positions=POSITIONS, policy=policy) >= POSITIONS


def test_every_setting_is_every_combination_of_the_declared_values() -> None:
    """A record's settings give every combination of their values; none give the default game."""
    from envs.core.registration import GameRecord, GymEnvRecord

    gym = (GymEnvRecord("t/X-v0", "x:make"),)
    assert every_setting(GameRecord("x", "x", gym_envs=gym)) == [{}]
    swept = GameRecord("x", "x", gym_envs=gym, settings={"a": (1, 2), "b": ("p", "q", "r")})
    assert len(every_setting(swept)) == 6 and {"a": 2, "b": "q"} in every_setting(swept)


# ------------------------------------------------------------------------------------------------ planted defects
class DoubledFourRefusingGame(DiceGame):
    """Planted defect: the toy's validation refuses a banked 4, which doubling a rolled 2 reaches (as Runebound's
    validation refused a double left on a token flipped to a blank)."""

    def state_from_dict(self, data: dict[str, Any]) -> DiceState:
        """The toy's dict, refusing a banked 4."""
        if 4 in data["banked"]:
            raise StateFormatError("banked", "a 4 cannot be banked")
        return super().state_from_dict(data)


class UnsavedDoubleState(DiceState):
    """Planted defect: a state that remembers whether it doubled already (then it may only bank) but does not save it,
    so a reloaded position offers the double again."""

    def __init__(self, game: DiceGame) -> None:
        super().__init__(game)
        self.doubled = False

    def legal_actions(self) -> list[int]:
        """Bank, and double while the player has not doubled yet."""
        legal = super().legal_actions()
        return legal[:1] if self.doubled and legal else legal

    def _apply(self, action: int) -> None:
        if self.current_player() == 0 and action == 1:
            self.doubled = True
        super()._apply(action)

    def clone(self) -> DiceState:
        """A copy keeping the flag."""
        other = super().clone()
        assert isinstance(other, UnsavedDoubleState)
        other.doubled = self.doubled
        return other


class RoundingGame(DiceGame):
    """Planted defect: loading caps every banked roll at 3, so a doubled roll reloads as another position."""

    def state_from_dict(self, data: dict[str, Any]) -> DiceState:
        """The toy's dict with the banked rolls capped."""
        state = super().state_from_dict(data)
        state.banked = [min(roll, 3) for roll in state.banked]
        return state


def test_the_reload_checker_passes_the_honest_toy() -> None:
    """The toy's positions all reload, so the failures below come from the planted defects."""
    assert check_positions_reload(DiceGame(), seed=0, games=20) == 20 * 7


def test_the_reload_checker_catches_a_refused_position() -> None:
    """A reachable position the game's validation refuses is caught, with the count and the error."""
    with pytest.raises(
        AssertionError,
        match=r"\d+ of \d+ positions reached in play did not load back .*StateFormatError: .*a 4 cannot be banked",
    ):
        check_positions_reload(DoubledFourRefusingGame(), seed=0, games=20)


def test_the_reload_checker_catches_other_legal_actions() -> None:
    """A state whose dict leaves out what decides its legal actions reloads offering others: caught."""
    with pytest.raises(AssertionError, match=r"legal actions \[0\], reloaded \[0, 1\]"):
        check_positions_reload(DiceGame(UnsavedDoubleState), seed=0, games=20)


def test_the_reload_checker_catches_another_dict() -> None:
    """A position that reloads as another (a banked 4 read back as 3) is caught, naming the key."""
    with pytest.raises(AssertionError, match=r"writes another dict \(keys \['banked'\]\)"):
        check_positions_reload(RoundingGame(), seed=0, games=20)


def test_the_reload_checker_plays_by_a_policy() -> None:
    """With a policy the games follow it: always doubling reaches the refused 4 (a doubled 2) and is caught, always
    banking never does."""
    with pytest.raises(AssertionError, match="a 4 cannot be banked"):
        check_positions_reload(DoubledFourRefusingGame(), seed=0, games=20, policy=lambda state, seat: 1)
    assert check_positions_reload(DoubledFourRefusingGame(), seed=0, games=20, policy=lambda state, seat: 0) == 140
