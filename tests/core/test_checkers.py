"""The generic checkers of envs/core/testing.py on every registered game, and each shown to fail on a planted defect.

DESIGN.md, tests: "A generic random-simulation checker run on every game". The multi-player platform issue adds
`check_clone_independence` (play on a clone, the original's `to_dict` is unchanged) and
`check_sampler_matches_outcomes` (a game's fast chance sampler matches `chance_outcomes()` in frequency), and asks
that each is shown to fail on a planted shared-list clone and a planted biased sampler.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from envs.core.game import CHANCE, TERMINAL, Game, GameSpec, Observer, State
from envs.core.outcomes import rank_returns, ranks
from envs.core.registration import GameRecord, GymEnvRecord, make_game, registered_games
from envs.core.testing import (
    check_clone_independence,
    check_json_round_trip,
    check_no_leak,
    check_no_peek,
    check_resample_keeps_own_view,
    check_resample_matches_reload,
    check_sampler_matches_outcomes,
    check_spaces_equal_across_player_counts,
    player_count_settings,
    random_simulation,
)

ROUNDS = 3
"""Rounds of the toy: roll a d3, then choose to bank the roll or double it."""


class DiceObserver(Observer):
    """The toy's observation: the running total, scaled."""

    size = 1
    views = {"total": slice(0, 1)}

    def tensor(self, state: State) -> np.ndarray:
        """The total over 20."""
        assert isinstance(state, DiceState)
        return np.array([min(sum(state.banked), 20) / 20.0], dtype=np.float32)

    def text(self, state: State) -> str:
        """The banked rolls."""
        assert isinstance(state, DiceState)
        return f"banked {state.banked}"


class DiceGame(Game):
    """A solo toy with a list in its state and a chance node each round."""

    def __init__(self, state_class: type[DiceState] | None = None) -> None:
        self.spec = GameSpec(
            name="dice_toy", num_players=1, num_actions=2, max_game_length=ROUNDS, reward_modes=("win", "score")
        )
        self.state_class = state_class or DiceState

    def new_initial_state(self) -> DiceState:
        """A fresh game: a roll is pending."""
        return self.state_class(self)

    def state_from_dict(self, data: dict[str, Any]) -> DiceState:
        """From to_dict()."""
        state = self.state_class(self)
        state.banked, state.roll = list(data["banked"]), data["roll"]
        return state

    def action_label(self, action: int) -> str:
        """bank or double."""
        return ("bank", "double")[action]

    def observer(self, player: int | None = 0) -> DiceObserver:
        """The one observer."""
        return DiceObserver()


class DiceState(State):
    """Banked rolls (a list) and the pending roll (0 while a roll is due)."""

    game: DiceGame

    def __init__(self, game: DiceGame) -> None:
        self.game = game
        self.banked: list[int] = []
        self.roll = 0

    def current_player(self) -> int:
        """Chance while a roll is due, the player after it, terminal after the last round."""
        if len(self.banked) == ROUNDS:
            return TERMINAL
        return CHANCE if self.roll == 0 else 0

    def legal_actions(self) -> list[int]:
        """Bank or double the roll."""
        return [0, 1] if self.current_player() == 0 else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """A d3: faces 1, 2 and 3, a third each."""
        return [(face, 1.0 / 3.0) for face in (1, 2, 3)] if self.current_player() == CHANCE else []

    def _apply(self, action: int) -> None:
        if self.current_player() == CHANCE:
            self.roll = action
        else:
            self.banked.append(self.roll * (2 if action == 1 and self.roll < 3 else 1))
            self.roll = 0

    def returns(self) -> list[float]:
        """A win with a total of at least 10."""
        if not self.is_terminal():
            return [0.0]
        return [1.0 if sum(self.banked) >= 10 else -1.0]

    def score(self) -> list[float]:
        """The total."""
        return [float(sum(self.banked))]

    def to_dict(self) -> dict[str, Any]:
        """The banked list and the pending roll."""
        return {"banked": list(self.banked), "roll": self.roll}

    def clone(self) -> DiceState:
        """An independent copy."""
        other = type(self)(self.game)
        other.banked, other.roll = list(self.banked), self.roll
        return other

    def chance_label(self, outcome: int) -> str:
        """d3 = face."""
        return f"d3 = {outcome}"


class SharedListState(DiceState):
    """Planted defect: the clone shares the banked list with its original."""

    def clone(self) -> DiceState:
        """A copy that aliases the list."""
        other = SharedListState(self.game)
        other.banked, other.roll = self.banked, self.roll
        return other


class BiasedSamplerState(DiceState):
    """Planted defect: the fast sampler rolls a 3 half of the time."""

    def sample_chance(self, rng: np.random.Generator) -> int:
        """A loaded die."""
        return 3 if rng.random() < 0.5 else int(rng.integers(1, 3))


class IntKeyedDictState(DiceState):
    """Planted defect: the saved dict keys the banked rolls by round number, which JSON turns into strings."""

    def to_dict(self) -> dict[str, Any]:
        """The banked rolls by round (integer keys)."""
        return {"banked": dict(enumerate(self.banked)), "roll": self.roll}


class IntKeyedDiceGame(DiceGame):
    """The toy reading the integer-keyed dict of IntKeyedDictState."""

    def __init__(self) -> None:
        super().__init__(IntKeyedDictState)

    def state_from_dict(self, data: dict[str, Any]) -> DiceState:
        """From IntKeyedDictState.to_dict(): the rolls of rounds 0, 1, ... in order."""
        state = self.state_class(self)
        state.banked = [data["banked"][round_index] for round_index in range(len(data["banked"]))]
        state.roll = data["roll"]
        return state


class TupleSavingState(DiceState):
    """Planted defect: the banked rolls are a tuple, saved as they are; JSON brings them back as a list, which the
    game's state_from_dict keeps (the frame-details defect of issue 19 in miniature)."""

    def _apply(self, action: int) -> None:
        self.banked = list(self.banked)
        super()._apply(action)
        self.banked = tuple(self.banked)  # type: ignore[assignment]

    def to_dict(self) -> dict[str, Any]:
        """The banked tuple as it is."""
        return {"banked": self.banked, "roll": self.roll}


class TupleSavingDiceGame(DiceGame):
    """The toy loading TupleSavingState's dict without turning lists back into tuples."""

    def __init__(self) -> None:
        super().__init__(TupleSavingState)

    def state_from_dict(self, data: dict[str, Any]) -> DiceState:
        """The values as given."""
        state = self.state_class(self)
        state.banked, state.roll = data["banked"], data["roll"]
        return state


class LoadedDiceState(DiceState):
    """The toy with a hidden die: a chance draw first picks a fair or a loaded d3 (rolling 3 two times in three), and
    the player never sees which. Its chance outcomes are cached, as a game caches what is costly to compute."""

    game: LoadedDiceGame

    def __init__(self, game: DiceGame) -> None:
        super().__init__(game)
        self.loaded: bool | None = None
        self.outcomes_cache: list[tuple[int, float]] | None = None

    def current_player(self) -> int:
        """Chance while the die is not picked yet, then as the toy."""
        return CHANCE if self.loaded is None else super().current_player()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Fair (0) or loaded (1) half the time each; then the faces of the picked die (cached)."""
        if self.current_player() != CHANCE:
            return []
        if self.outcomes_cache is None:
            if self.loaded is None:
                self.outcomes_cache = [(0, 0.5), (1, 0.5)]
            else:
                self.outcomes_cache = [(1, 1 / 6), (2, 1 / 6), (3, 2 / 3)] if self.loaded else super().chance_outcomes()
        return self.outcomes_cache

    def _apply(self, action: int) -> None:
        if self.loaded is None:
            self.loaded = action == 1
        else:
            super()._apply(action)
        self.outcomes_cache = None

    def to_dict(self) -> dict[str, Any]:
        """The toy's dict and the die."""
        return {**super().to_dict(), "loaded": self.loaded}

    def clone(self) -> DiceState:
        """An independent copy, its cache shared (the cached list is never edited)."""
        other = super().clone()
        assert isinstance(other, LoadedDiceState)
        other.loaded, other.outcomes_cache = self.loaded, self.outcomes_cache
        return other

    def resample_hidden(self, player: int, rng: np.random.Generator) -> DiceState:
        """The die redrawn once picked, and the cache dropped."""
        other = self.clone()
        assert isinstance(other, LoadedDiceState)
        if self.loaded is not None:
            other.loaded = bool(rng.integers(2))
            other.outcomes_cache = None
        return other


class StaleCacheResampleState(LoadedDiceState):
    """Planted defect: resampling redraws the die but keeps the original die's cached outcomes."""

    def resample_hidden(self, player: int, rng: np.random.Generator) -> DiceState:
        """The die redrawn, the cache kept."""
        other = self.clone()
        assert isinstance(other, LoadedDiceState)
        if self.loaded is not None:
            other.loaded = bool(rng.integers(2))
        return other


class LoadedDiceGame(DiceGame):
    """The toy with the hidden die (imperfect information)."""

    def __init__(self, state_class: type[LoadedDiceState] = LoadedDiceState) -> None:
        super().__init__(state_class)
        self.spec = GameSpec("loaded_dice_toy", 1, 2, ROUNDS, information="imperfect")

    def state_from_dict(self, data: dict[str, Any]) -> DiceState:
        """From to_dict()."""
        state = super().state_from_dict(data)
        assert isinstance(state, LoadedDiceState)
        state.loaded = data["loaded"]
        return state


def test_resample_checker_passes_the_honest_hidden_die() -> None:
    """A resample that drops its caches offers what its reloaded copy offers, and the die does get redrawn."""
    game = LoadedDiceGame()
    assert check_resample_matches_reload(game, seed=1, games=20) >= 100
    assert check_no_leak(game, seed=1) > 0  # the player never sees the die, and resampling redraws it


def test_resample_checker_catches_a_stale_cache() -> None:
    """Issue 19: a resample that keeps the original position's cached chance outcomes is caught, with a count."""
    with pytest.raises(
        AssertionError, match=r"resample_hidden disagreed with its reloaded copy in \d+ of \d+ cases; .*chance outcomes"
    ):
        check_resample_matches_reload(LoadedDiceGame(StaleCacheResampleState), seed=1, games=20)


@pytest.mark.parametrize("preset", ["english", "spanish"])
def test_resample_matches_reload_on_unbroken(preset: str) -> None:
    """Unbroken's resample_hidden (the face-down monsters of the English printing) keeps no stale cache."""
    from envs.unbroken.game import UnbrokenGame

    assert check_resample_matches_reload(UnbrokenGame(preset=preset), seed=2, games=10) >= 200


@pytest.mark.parametrize("cooperative", [False, True])
def test_resample_matches_reload_on_the_card_duel_toy(cooperative: bool) -> None:
    """The toy's resample_hidden (other seats' hands redrawn) at four seats agrees with its reloaded copy."""
    from envs.toys.card_duel import CardDuelGame

    assert check_resample_matches_reload(CardDuelGame(num_players=4, cooperative=cooperative), seed=2) >= 100


PLAYER_COUNTS_GAMES = 1
"""Random games each checker plays at a player count other than the game's default (the default count plays the
checker's own number): every count is covered, and CI time stays small for games that are slow at 4 seats."""
NOT_VACUOUS = 10
"""The least number of states (or decisions) a checker must have checked at a non-default player count."""


def registered_rules_games() -> list[Any]:
    """pytest parameters (game, at_default): the rules-core game of every registered game (the toys included) at
    every value of its record's `num_players` setting (a record without that setting: its default game), with
    whether that is the game's default player count; ids name the game and the count."""
    cases = []
    for name, record in registered_games().items():
        default = make_game(record, {}).spec.num_players
        for kwargs in player_count_settings(record):
            game = make_game(record, kwargs)
            count = game.spec.num_players
            cases.append(pytest.param(game, count == default, id=f"{name}-{count}p"))
    return cases


def games_and_least(at_default: bool, games: int, least: int) -> tuple[int, int]:
    """The random games a checker plays and the least number of checks expected: its own at the default player
    count, `PLAYER_COUNTS_GAMES` and `NOT_VACUOUS` at the others."""
    return (games, least) if at_default else (PLAYER_COUNTS_GAMES, NOT_VACUOUS)


@pytest.mark.parametrize(("game", "at_default"), registered_rules_games())
def test_clones_are_independent_on_every_registered_game(game: Game, at_default: bool) -> None:
    """Play on a clone, the original's to_dict is unchanged (every state of a few random games)."""
    games, least = games_and_least(at_default, 5, 51)
    assert check_clone_independence(game, seed=3, games=games) >= least


@pytest.mark.parametrize(("game", "at_default"), registered_rules_games())
def test_fast_sampler_matches_outcomes_on_every_registered_game(game: Game, at_default: bool) -> None:
    """A game's sample_chance draws outcomes with the probabilities chance_outcomes() lists."""
    games, least = games_and_least(at_default, 3, 11)
    assert check_sampler_matches_outcomes(game, seed=4, games=games) >= least


@pytest.mark.parametrize(("game", "at_default"), registered_rules_games())
def test_no_seat_sees_what_is_hidden_from_it_on_every_registered_game(game: Game, at_default: bool) -> None:
    """A seat's observation is unchanged when what it cannot see is redrawn (resample_hidden)."""
    games, least = games_and_least(at_default, 3, 21)
    assert check_no_leak(game, seed=5, games=games) >= least


@pytest.mark.parametrize(("game", "at_default"), registered_rules_games())
def test_resampling_keeps_each_seats_view_on_every_registered_game(game: Game, at_default: bool) -> None:
    """resample_hidden(seat) gives a valid position with the seat's own view, the public view and its options."""
    games, least = games_and_least(at_default, 3, 21)
    assert check_resample_keeps_own_view(game, seed=6, games=games) >= least


@pytest.mark.parametrize(("game", "at_default"), registered_rules_games())
def test_resampling_offers_what_the_reloaded_position_offers_on_every_registered_game(
    game: Game, at_default: bool
) -> None:
    """A redeal offers the chance outcomes and legal actions of the same position rebuilt from its dict (no stale
    cache of the true deal), on every registered game (a perfect-information game's resample is a plain copy)."""
    games, least = games_and_least(at_default, 2, 21)
    assert check_resample_matches_reload(game, seed=8, games=games) >= least


RANDOM_GAMES = 20
"""Random games of the generic random simulation at a game's default player count (the games' own tests play
thousands with their invariants; this one runs the generic checks on every registered game and player count)."""


@pytest.mark.parametrize(("game", "at_default"), registered_rules_games())
def test_random_simulation_on_every_registered_game(game: Game, at_default: bool) -> None:
    """Random legal games keep the generic invariants (chance nodes, legal actions, observations, lengths, returns)
    and every seventh state survives the JSON round trip."""
    games = RANDOM_GAMES if at_default else RANDOM_GAMES // 4
    report = random_simulation(game, games, seed=9, check_roundtrip_every=7, observed_games=games // 4)
    assert report.games == games and report.decisions >= games


def spaces_promised_records() -> list[GameRecord]:
    """The registered records that promise equal spaces at every player count."""
    return [record for record in registered_games().values() if record.same_spaces_at_every_player_count]


@pytest.mark.parametrize("record", spaces_promised_records(), ids=lambda record: record.name)
def test_spaces_are_equal_at_every_player_count_where_promised(record: GameRecord) -> None:
    """Issue 19: a game whose record promises it has the same observation and action spaces at every player count,
    in the rules core (observer size, views, bounds, number of actions)."""
    games = [make_game(record, kwargs) for kwargs in player_count_settings(record)]
    assert check_spaces_equal_across_player_counts(games) == len(record.settings["num_players"]) - 1


def test_some_registered_game_promises_equal_spaces() -> None:
    """The promise is checked on a real game, so the test above is not empty."""
    assert spaces_promised_records()


def test_spaces_checker_catches_a_growing_observation() -> None:
    """check_spaces_equal_across_player_counts fails on a game whose observation grows with the seats (here: a
    game with a "seats_present" entry per seat) and on one whose number of actions changes."""

    class PerSeatObserver(DiceObserver):
        def __init__(self, seats: int) -> None:
            self.size = 1 + seats
            self.views = {"total": slice(0, 1), "seats_present": slice(1, 1 + seats)}

    class SeatedDiceGame(DiceGame):
        def __init__(self, seats: int, num_actions: int = 2) -> None:
            super().__init__()
            self.seats = seats
            self.spec = GameSpec("seated_dice", seats, num_actions, ROUNDS, min_players=1, max_players=4)

        def observer(self, player: int | None = 0) -> DiceObserver:
            return PerSeatObserver(self.seats)

    with pytest.raises(AssertionError, match="observation size at 3 players"):
        check_spaces_equal_across_player_counts([SeatedDiceGame(2), SeatedDiceGame(3)])
    assert check_spaces_equal_across_player_counts([DiceGame(), DiceGame()]) == 1
    with pytest.raises(AssertionError, match="number of actions at 1 players"):
        check_spaces_equal_across_player_counts([SeatedDiceGame(1), SeatedDiceGame(1, num_actions=3)])


def test_player_count_settings_cover_every_declared_count() -> None:
    """A record's num_players values each give one keyword set; a record without the setting gives the default."""
    gym_record = GameRecord("x", "x", gym_envs=(GymEnvRecord("t/X-v0", "x:make"),))
    assert player_count_settings(gym_record) == [{}]
    counted = GameRecord("x", "x", gym_envs=(GymEnvRecord("t/X-v0", "x:make"),), settings={"num_players": (2, 4)})
    assert player_count_settings(counted) == [{"num_players": 2}, {"num_players": 4}]
    with pytest.raises(ValueError, match="same_spaces_at_every_player_count"):
        GameRecord("x", "x", gym_envs=(GymEnvRecord("t/X-v0", "x:make"),), same_spaces_at_every_player_count=True)


def test_checkers_pass_on_the_honest_toy() -> None:
    """The toy itself is sound, so the failures below come from the planted defects."""
    assert check_clone_independence(DiceGame()) > 0
    assert check_sampler_matches_outcomes(DiceGame()) > 0


def test_clone_checker_catches_a_shared_list() -> None:
    """A clone that shares a list with its original is caught."""
    with pytest.raises(AssertionError, match="changed the original"):
        check_clone_independence(DiceGame(SharedListState))


def test_sampler_checker_catches_a_biased_die() -> None:
    """A fast sampler that disagrees with chance_outcomes() is caught."""
    with pytest.raises(AssertionError, match=r"d3 = \d: drawn 0\.\d+ of the time, probability 0\.333"):
        check_sampler_matches_outcomes(DiceGame(BiasedSamplerState))


def test_random_simulation_round_trips_through_json() -> None:
    """Issue 19: the random-simulation checker's round trip goes through json.dumps/json.loads. The honest toy passes;
    a dict with integer keys (strings after JSON, so reloading fails) and a dict holding a tuple (a list after JSON)
    are caught, though each survives a round trip that skips JSON."""
    assert random_simulation(DiceGame(), 20, seed=0, check_roundtrip_every=1).games == 20
    game = IntKeyedDiceGame()
    state = game.new_initial_state()
    state.apply_action(2)
    state.apply_action(0)
    assert game.state_from_dict(state.to_dict()).to_dict() == state.to_dict()  # faithful without JSON
    with pytest.raises(AssertionError, match="does not survive JSON: state_from_dict raised KeyError"):
        random_simulation(game, 5, seed=0, check_roundtrip_every=1)
    with pytest.raises(AssertionError, match=r"to_dict -> JSON -> state_from_dict changed the state"):
        random_simulation(TupleSavingDiceGame(), 5, seed=0, check_roundtrip_every=1)


def test_json_round_trip_refuses_a_dict_json_cannot_write() -> None:
    """A dict holding a set is not JSON-able: the round trip names that."""

    class SetSavingState(DiceState):
        def to_dict(self) -> dict[str, Any]:
            return {"banked": set(self.banked), "roll": self.roll}

    game = DiceGame(SetSavingState)
    with pytest.raises(AssertionError, match="to_dict\\(\\) is not JSON-able"):
        check_json_round_trip(game, game.new_initial_state())


# ================================================================================================ results
def test_ranks_share_the_better_place_on_ties() -> None:
    """Competition ranking: the best score ranks 1, tied seats share the better rank."""
    assert ranks([3.0, 7.0, 7.0, 1.0]) == [3, 1, 1, 4]


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        ([5.0, 2.0], [1.0, -1.0]),
        ([1.0, 9.0, 5.0], [-1.0, 1.0, 0.0]),
        ([4.0, 4.0, 1.0, 0.0], [2.0 / 3.0, 2.0 / 3.0, -1.0 / 3.0, -1.0]),
        ([2.0, 2.0, 2.0], [0.0, 0.0, 0.0]),
        ([3.0], [0.0]),
    ],
)
def test_rank_returns_are_tie_aware(scores: list[float], expected: list[float]) -> None:
    """First +1, last -1, evenly spaced; tied seats share the mean of their places; the rewards sum to 0."""
    result = rank_returns(scores)
    assert result == pytest.approx(expected)
    assert sum(result) == pytest.approx(0.0)


def test_game_spec_declares_utility_and_information() -> None:
    """GameSpec says whether a game is cooperative and whether it has hidden information; bad values are refused."""
    coop = GameSpec("coop_toy", 2, 4, 10, min_players=2, max_players=4, utility="cooperative", information="imperfect")
    assert coop.cooperative and coop.hidden_information
    assert not GameSpec("solo_toy", 1, 2, 10).cooperative
    with pytest.raises(ValueError, match="utility"):
        GameSpec("bad", 1, 2, 10, utility="friendly")
    with pytest.raises(ValueError, match="num_players"):
        GameSpec("bad", 5, 2, 10, min_players=2, max_players=4)


def test_hidden_information_games_must_resample() -> None:
    """resample_hidden no longer defaults to a plain copy for a game with hidden information."""
    game = DiceGame()
    state = game.new_initial_state()
    assert state.resample_hidden(0, np.random.default_rng(0)).to_dict() == state.to_dict()
    game.spec = GameSpec(name="dice_toy", num_players=1, num_actions=2, max_game_length=ROUNDS, information="imperfect")
    with pytest.raises(NotImplementedError, match="dice_toy has hidden information"):
        state.resample_hidden(0, np.random.default_rng(0))


def test_reward_modes_read_the_game() -> None:
    """State.rewards(mode): "win" is returns(), "score" is score(); an unknown mode is refused."""
    game = DiceGame()
    state = game.state_from_dict({"banked": [3, 4, 6], "roll": 0})
    assert state.rewards("win") == [1.0] and state.rewards("score") == [13.0]
    with pytest.raises(ValueError, match="unknown reward mode"):
        state.rewards("elo")


def registered_games_with_a_heuristic() -> list[Any]:
    """registered_rules_games() of the records that name a heuristic agent (a game whose heuristic is not written
    yet declares `heuristic=None`: it has no agent to check)."""
    records = registered_games()
    return [case for case in registered_rules_games() if records[case.values[0].spec.name].heuristic is not None]


@pytest.mark.parametrize(("game", "at_default"), registered_games_with_a_heuristic())
def test_heuristics_never_peek_on_every_registered_game(game: Game, at_default: bool) -> None:
    """DESIGN.md: agents use the game's public rule queries, never hidden information: every registered game's
    heuristic decides the same when what its seat cannot see is redrawn."""
    from agents.players.registry import make_heuristic_agent

    agent = make_heuristic_agent(game)

    def policy(state: State, seat: int) -> int:
        observation = game.observer(seat).tensor(state)
        return agent.act(observation, state.legal_actions_mask(), state=state)

    games, least = games_and_least(at_default, 4, 40)
    checked = check_no_peek(game, policy, seed=7, games=games)
    if checked < least:  # a game of short episodes (one combat): more of them, for as many decisions checked
        checked += check_no_peek(game, policy, seed=8, games=2 * games)
    assert checked >= least


def test_peek_checker_catches_an_agent_that_reads_hidden_cards() -> None:
    """check_no_peek fails on a policy that reads the hidden part of the state (here: the whole saved state)."""
    game = registered_rules_games()[0].values[0]
    if not game.spec.hidden_information:
        pytest.fail("the first registered game's default setting should have hidden information for this test")

    def peeking(state: State, seat: int) -> int:
        legal = state.legal_actions()
        return legal[hash(repr(state.to_dict())) % len(legal)]

    with pytest.raises(AssertionError, match="decision changed when hidden information was redrawn"):
        check_no_peek(game, peeking, seed=8)
