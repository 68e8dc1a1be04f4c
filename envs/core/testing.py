"""Reusable checkers for any Game: random simulation with invariants, positions that reload, determinism, playthrough
transcripts."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from envs.core.game import CHANCE, TERMINAL, Game, Observer, State
from envs.core.registration import GameRecord

Invariant = Callable[[State], None]
"""A game-specific check run after every step; raises AssertionError with a message when broken."""
SeatPolicy = Callable[[State, int], int]
"""A deterministic decision policy for a seat: (state, seat to act) -> action. Agents adapt to it in the tests."""


@dataclass
class SimulationReport:
    """What a batch of random games did."""

    games: int = 0
    steps: int = 0
    decisions: int = 0
    longest: int = 0
    returns: list[float] = field(default_factory=list)
    """Seat 0's return of each game."""
    seat_returns: list[list[float]] = field(default_factory=list)
    """Every seat's returns of each game."""


def check_chance_node(state: State) -> None:
    """Outcomes are distinct, probabilities positive and summing to 1."""
    outcomes = state.chance_outcomes()
    assert outcomes, "a chance node with no outcomes"
    ids = [a for a, _ in outcomes]
    assert len(set(ids)) == len(ids), f"repeated chance outcomes {ids}"
    total = sum(p for _, p in outcomes)
    assert abs(total - 1.0) < 1e-9, f"chance probabilities sum to {total}"
    assert all(p > 0 for _, p in outcomes), "a chance outcome with probability 0"


def check_decision_node(state: State) -> None:
    """Legal actions are sorted, unique, in range, non-empty, and the mask agrees."""
    legal = state.legal_actions()
    n = state.game.spec.num_actions
    assert legal, f"no legal action at a decision node:\n{state.debug_text()}"
    assert legal == sorted(set(legal)), f"legal actions not sorted/unique: {legal}"
    assert all(0 <= a < n for a in legal), f"legal action out of range: {legal}"
    mask = state.legal_actions_mask()
    assert np.array_equal(np.flatnonzero(mask), np.asarray(legal)), "mask differs from legal_actions"


def random_simulation(
    game: Game,
    num_games: int,
    seed: int,
    invariants: tuple[Invariant, ...] = (),
    check_roundtrip_every: int = 0,
    observed_games: int | None = None,
) -> SimulationReport:
    """Play random legal games, checking the generic and the given invariants after every step.

    Every seat's observation is checked at every decision of the first `observed_games` games (None: all of them);
    a game whose observations are costly can check them on fewer games and the rules on many.
    """
    rng = np.random.default_rng(seed)
    report = SimulationReport()
    all_observers = seat_observers(game)
    for game_index in range(num_games):
        observers = all_observers if observed_games is None or game_index < observed_games else []
        state = game.new_initial_state()
        length = 0
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                check_chance_node(state)
                action = state.sample_chance(rng)
            else:
                check_decision_node(state)
                for observer in observers:
                    check_observation(observer, state)
                legal = state.legal_actions()
                action = legal[int(rng.integers(len(legal)))]
                report.decisions += 1
                length += 1
            state.apply_action(action)
            report.steps += 1
            for invariant in invariants:
                invariant(state)
            if check_roundtrip_every and report.steps % check_roundtrip_every == 0:
                check_json_round_trip(game, state)
            assert length <= game.spec.max_game_length, f"game longer than {game.spec.max_game_length} decisions"
        assert state.current_player() == TERMINAL
        assert state.legal_actions() == []
        returns = state.returns()
        assert len(returns) == game.spec.num_players, f"{len(returns)} returns for {game.spec.num_players} seats"
        if game.spec.cooperative:
            assert len(set(returns)) == 1, f"a cooperative game gave its seats different returns {returns}"
        report.games += 1
        report.longest = max(report.longest, length)
        report.returns.append(returns[0])
        report.seat_returns.append(list(returns))
    return report


def check_json_round_trip(game: Game, state: State) -> State:
    """The state saved with `to_dict`, written as JSON text and read back, rebuilds the same state; returns it.

    The dict must survive `json.dumps`/`json.loads` (the way positions are saved to files and sent between
    processes): JSON has no tuples, no integer keys and no sets, so a dict that holds them comes back different.
    The rebuilt state's `to_dict` must equal the original's exactly (a tuple written where a list comes back is a
    difference), and it must offer the same seat to act, legal actions and chance outcomes.
    """
    saved = state.to_dict()
    try:
        loaded = json.loads(json.dumps(saved))
    except (TypeError, ValueError) as error:
        raise AssertionError(f"to_dict() is not JSON-able ({error}):\n{state.debug_text()}") from error
    try:
        rebuilt = game.state_from_dict(loaded)
    except Exception as error:
        raise AssertionError(
            f"the state's dict does not survive JSON: state_from_dict raised {type(error).__name__}: {error}\n"
            f"{state.debug_text()}"
        ) from error
    assert rebuilt.to_dict() == saved, (
        f"to_dict -> JSON -> state_from_dict changed the state:\n{state.debug_text()}\n--- rebuilt ---\n"
        f"{rebuilt.debug_text()}"
    )
    assert rebuilt.current_player() == state.current_player(), "the rebuilt state has another seat to act"
    assert rebuilt.legal_actions() == state.legal_actions(), "the rebuilt state offers other legal actions"
    assert rebuilt.chance_outcomes() == state.chance_outcomes(), "the rebuilt state offers other chance outcomes"
    return rebuilt


def check_positions_reload(
    game: Game, seed: int = 0, games: int = 1, policy: SeatPolicy | None = None, positions: int = 0
) -> int:
    """Every position reached in play loads back from its dict: `game.state_from_dict(state.to_dict())` is accepted,
    writes an equal dict and offers the same seat to act, legal actions and chance outcomes.

    A position the rules reach but the game's validation refuses cannot be saved, restored, pickled, deep-copied or
    given to an env's `reset(options={"state": ...})`. The games are played by `policy` (a deterministic seat policy:
    a heuristic agent), or uniformly at random by a generator seeded with `seed` (which samples the chance nodes in
    both cases): `games` games, and more until `positions` positions are checked (a game of short episodes plays more
    of them). Every position is checked, the first and the last included. Fails naming how many positions did not
    load back and the first of them with the reason; returns the number of positions checked.
    """
    rng = np.random.default_rng(seed)
    checked = failed = played = 0
    first = ""
    while played < games or checked < positions:
        played += 1
        state = game.new_initial_state()
        while True:
            difference = _reload_difference(game, state)
            if difference and not failed:
                first = f"{difference}; the position:\n{state.debug_text()}"
            failed += bool(difference)
            checked += 1
            if state.is_terminal():
                break
            seat = state.current_player()
            if seat == CHANCE:
                action = state.sample_chance(rng)
            elif policy is None:
                legal = state.legal_actions()
                action = legal[int(rng.integers(len(legal)))]
            else:
                action = policy(state, seat)
            state.apply_action(action)
    assert not failed, (
        f"{failed} of {checked} positions reached in play did not load back from their dicts; the first: {first}"
    )
    return checked


def _reload_difference(game: Game, state: State) -> str:
    """How `game.state_from_dict(state.to_dict())` differs from `state` ("" when it does not)."""
    saved = state.to_dict()
    try:
        reloaded = game.state_from_dict(saved)
    except Exception as error:  # a refusal (StateFormatError) or a crash: either way the position cannot reload
        return f"state_from_dict raised {type(error).__name__}: {error}"
    again = reloaded.to_dict()
    if again != saved:
        keys = [key for key in saved if again.get(key) != saved[key]] + [key for key in again if key not in saved]
        return f"the reloaded position writes another dict (keys {keys})"
    return _offer_difference(state, reloaded)


def every_setting(record: GameRecord) -> list[dict[str, Any]]:
    """The game keyword arguments of every combination of the values a record's settings declare (`[{}]`, the game's
    default, for a record without settings)."""
    return list(record.setting_combinations())


def seat_observers(game: Game) -> list[Observer]:
    """Every seat's observer and the public one, checked to share one size and one set of views."""
    observers = [game.observer(seat) for seat in range(game.spec.num_players)] + [game.observer(None)]
    first = observers[0]
    for observer in observers[1:]:
        assert observer.size == first.size, f"seat {observer.player} has {observer.size} values, seat 0 {first.size}"
        assert list(observer.views) == list(first.views), f"seat {observer.player}'s views differ from seat 0's"
    return observers


def check_observation(observer: Observer, state: State) -> None:
    """One seat's observation: the declared size, float32, finite, within the observer's bounds."""
    tensor = observer.tensor(state)
    assert tensor.shape == (observer.size,) and tensor.dtype == np.float32, f"seat {observer.player}: bad tensor"
    assert np.all(np.isfinite(tensor)), f"seat {observer.player}: non-finite observation"
    assert tensor.min() >= observer.low and tensor.max() <= observer.high, f"seat {observer.player}: out of bounds"


def player_count_settings(record: GameRecord) -> list[dict[str, Any]]:
    """The game keyword arguments of every player count a record declares: `{"num_players": n}` for each value of
    its `num_players` setting, or `[{}]` (the game's default) for a record without that setting."""
    counts = record.settings.get("num_players")
    if counts is None:
        return [{}]
    return [{"num_players": count} for count in counts]


def check_spaces_equal_across_player_counts(games: Sequence[Game]) -> int:
    """The games (one game at several player counts) have equal observation and action spaces: every seat's and the
    public observer have one size, one set of named views with their shapes, and one set of bounds, and the games
    one number of actions. Returns the number of games compared with the first."""
    assert len(games) >= 2, "comparing spaces across player counts needs games at two player counts at least"

    def spaces(game: Game) -> tuple[object, ...]:
        observer = game.observer(0)
        public = game.observer(None)
        return (
            observer.size,
            list(observer.views.items()),
            observer.view_shapes,
            (observer.low, observer.high),
            public.size,
            game.spec.num_actions,
        )

    first = spaces(games[0])
    for game in games[1:]:
        other = spaces(game)
        parts = ("observation size", "views", "view shapes", "bounds", "public observation size", "number of actions")
        for part, mine, theirs in zip(parts, first, other, strict=True):
            assert mine == theirs, (
                f"{game.spec.name}: the {part} at {game.spec.num_players} players ({theirs}) differs from that at "
                f"{games[0].spec.num_players} players ({mine})"
            )
    return len(games) - 1


Policy = Callable[[State], int]
"""A decision policy for transcripts: the (legal) action to take at a decision node; it must not change the state."""


@dataclass(frozen=True)
class GoldenCase:
    """One golden transcript of a game: its file name, how to make its text, and what it protects."""

    file_name: str
    make: Callable[[], str]
    protects: str


def random_policy(seed: int) -> Policy:
    """A uniform choice among the legal actions, from its own generator seeded with `seed`."""
    rng = np.random.default_rng(seed)

    def choose(state: State) -> int:
        legal = state.legal_actions()
        return legal[int(rng.integers(len(legal)))]

    return choose


def transcript(
    game: Game,
    seed: int,
    policy_seed: int | None = None,
    policy: Policy | None = None,
    label: Callable[[State, int], str] | None = None,
) -> str:
    """A readable log of one seeded game: every chance outcome and decision by label, then returns and state.

    Chance nodes are sampled from a generator seeded with `seed`. Decisions come from `policy` (for example an
    agent wrapped as `state -> action`); without one, from `random_policy(policy_seed)` (`policy_seed` defaults
    to `seed`). Each decision is written as `label(state, action)` (default: the game's id label).
    """
    if policy is not None and policy_seed is not None:
        raise ValueError("transcript: give either a policy or a policy_seed for the random policy, not both")
    rng = np.random.default_rng(seed)
    decide = random_policy(seed if policy_seed is None else policy_seed) if policy is None else policy
    state = game.new_initial_state()
    lines = []
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            outcome = state.sample_chance(rng)
            lines.append(f"  chance: {state.chance_label(outcome)}")
            state.apply_action(outcome)
        else:
            action = decide(state)
            lines.append(f"decide: {game.action_label(action) if label is None else label(state, action)}")
            state.apply_action(action)
    lines.append("returns: " + ", ".join(f"{r:+.0f}" for r in state.returns()))
    lines.append(str(state))
    return "\n".join(lines) + "\n"


def _random_states(game: Game, seed: int, games: int) -> list[State]:
    """Copies of the states of a few seeded random games, decision and chance nodes alike (rebuilt from to_dict,
    so that a faulty clone cannot corrupt them)."""
    rng = np.random.default_rng(seed)
    states: list[State] = []
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            states.append(game.state_from_dict(state.to_dict()))
            if state.current_player() == CHANCE:
                state.apply_action(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])
    return states


def check_clone_independence(game: Game, seed: int = 0, games: int = 5, moves: int = 8) -> int:
    """Play on clones of states of random games: the original's `to_dict` never changes. Returns states checked.

    Catches a clone that shares a mutable container (a list or dict) with its original.
    """
    rng = np.random.default_rng(seed + 1)
    checked = 0
    for state in _random_states(game, seed, games):
        before = state.to_dict()
        clone = state.clone()
        for _ in range(moves):
            if clone.is_terminal():
                break
            if clone.current_player() == CHANCE:
                clone.apply_action(clone.sample_chance(rng))
            else:
                legal = clone.legal_actions()
                clone.apply_action(legal[int(rng.integers(len(legal)))])
        assert state.to_dict() == before, f"playing on a clone changed the original:\n{state.debug_text()}"
        checked += 1
    return checked


def check_sampler_matches_outcomes(
    game: Game, seed: int = 0, games: int = 3, draws: int = 2000, max_nodes: int = 40
) -> int:
    """At chance nodes of random games, `sample_chance` draws each outcome as often as `chance_outcomes()` says.

    Each outcome's frequency over `draws` samples must lie within 5 standard deviations (plus a small floor) of its
    probability, and no outcome outside the list may appear. Returns the number of chance nodes checked.
    """
    rng = np.random.default_rng(seed + 2)
    checked = 0
    for state in _random_states(game, seed, games):
        if state.current_player() != CHANCE or checked >= max_nodes:
            continue
        outcomes = dict(state.chance_outcomes())
        counts: dict[int, int] = {}
        for _ in range(draws):
            outcome = state.sample_chance(rng)
            counts[outcome] = counts.get(outcome, 0) + 1
        unknown = sorted(set(counts) - set(outcomes))
        assert not unknown, f"sample_chance drew outcomes {unknown} that chance_outcomes() does not list"
        for outcome, probability in outcomes.items():
            frequency = counts.get(outcome, 0) / draws
            tolerance = 5.0 * (probability * (1.0 - probability) / draws) ** 0.5 + 1.0 / draws
            assert abs(frequency - probability) <= tolerance, (
                f"{state.chance_label(outcome)}: drawn {frequency:.3f} of the time, probability {probability:.3f}"
            )
        checked += 1
    return checked


def check_no_leak(game: Game, seed: int = 0, games: int = 3, redraws: int = 3) -> int:
    """Each seat's observation is unchanged when what that seat cannot see is redrawn (`resample_hidden`).

    Catches an observer that shows hidden information (a face-down card, an opponent's hand, or exact remaining
    deck counts that reveal the hands). For a game with hidden information the redraws must sometimes change the
    state, so the check is not vacuous. Returns the number of (state, seat) pairs checked.
    """
    rng = np.random.default_rng(seed + 3)
    observers = [game.observer(seat) for seat in range(game.spec.num_players)]
    checked = changed = 0
    for state in _random_states(game, seed, games):
        before = state.to_dict()
        for observer in observers:
            assert observer.player is not None
            seen = observer.tensor(state)
            for _ in range(redraws):
                other = state.resample_hidden(observer.player, rng)
                changed += other.to_dict() != before
                assert np.array_equal(observer.tensor(other), seen), (
                    f"seat {observer.player}'s observation changed when hidden information was redrawn:\n"
                    f"{state.debug_text()}\n--- redrawn ---\n{other.debug_text()}"
                )
            checked += 1
    if game.spec.hidden_information:
        assert changed > 0, "resample_hidden never redrew anything: the leak check would be vacuous"
    return checked


def check_resample_keeps_own_view(game: Game, seed: int = 0, games: int = 3) -> int:
    """`resample_hidden(seat)` gives a valid position that keeps what the seat knows: its text view, the seat to act,
    the legal actions when it acts, and the public view. Returns the number of (state, seat) pairs checked."""
    rng = np.random.default_rng(seed + 4)
    public = game.observer(None)
    checked = 0
    for state in _random_states(game, seed, games):
        for seat in range(game.spec.num_players):
            other = state.resample_hidden(seat, rng)
            game.state_from_dict(other.to_dict())  # a position the rules can reach
            observer = game.observer(seat)
            assert observer.text(other) == observer.text(state), f"seat {seat}'s own view changed on resampling"
            assert public.text(other) == public.text(state), "the public view changed on resampling"
            assert other.current_player() == state.current_player(), "resampling changed who acts"
            if state.current_player() == seat:
                assert other.legal_actions() == state.legal_actions(), f"seat {seat}'s legal actions changed"
            checked += 1
    return checked


def check_resample_matches_reload(game: Game, seed: int = 0, games: int = 2, redraws: int = 1) -> int:
    """A state redrawn by `resample_hidden(seat)` offers what the same position reloaded from its dict offers: the
    seat to act, the legal actions, and the chance outcomes with their probabilities.

    The reloaded copy (`game.state_from_dict(resampled.to_dict())`) rebuilds every cache from scratch, so this
    catches a resample that keeps caches of the original position (its chance outcomes drawn from the original
    deck, the decider's original options): search that plays on a redrawn state would meet outcomes and actions
    of a position that is not the one it holds. The states are those of seeded random games as they are played
    (caches warm: their legal actions or chance outcomes are asked first, as an agent would). Returns the number
    of (state, seat, redraw) cases checked; fails naming how many disagreed and the first of them.
    """
    rng = np.random.default_rng(seed)
    hidden = np.random.default_rng(seed + 6)
    checked = disagreed = 0
    first = ""
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            chance = state.current_player() == CHANCE
            legal = [] if chance else state.legal_actions()
            state.chance_outcomes()  # warms the caches, as an agent asking would
            for seat in range(game.spec.num_players):
                for _ in range(redraws):
                    resampled = state.resample_hidden(seat, hidden)
                    reloaded = game.state_from_dict(resampled.to_dict())
                    difference = _offer_difference(resampled, reloaded)
                    if difference and not disagreed:
                        first = f"seat {seat}'s redraw: {difference}; the position:\n{state.debug_text()}"
                    disagreed += bool(difference)
                    checked += 1
            state.apply_action(state.sample_chance(rng) if chance else legal[int(rng.integers(len(legal)))])
    assert not disagreed, f"resample_hidden disagreed with its reloaded copy in {disagreed} of {checked} cases; {first}"
    return checked


def _offer_difference(resampled: State, reloaded: State) -> str:
    """How the two states differ in the seat to act, legal actions or chance outcomes ("" when they do not)."""
    if resampled.current_player() != reloaded.current_player():
        return f"the seat to act is {resampled.current_player()}, reloaded {reloaded.current_player()}"
    if resampled.legal_actions() != reloaded.legal_actions():
        return f"legal actions {resampled.legal_actions()}, reloaded {reloaded.legal_actions()}"
    mine, theirs = dict(resampled.chance_outcomes()), dict(reloaded.chance_outcomes())
    if mine.keys() != theirs.keys() or any(abs(mine[k] - theirs[k]) > 1e-12 for k in mine):
        return f"chance outcomes {sorted(mine.items())}, reloaded {sorted(theirs.items())}"
    return ""


def check_no_peek(game: Game, policy: SeatPolicy, seed: int = 0, games: int = 2, redraws: int = 2) -> int:
    """A deterministic policy's action is unchanged when what the acting seat cannot see is redrawn.

    Agents receive the full rules-core state (search needs it); this shows one does not read the hidden part.
    The games are played by the policy itself, so they reach the positions it reaches. Returns decisions checked.
    """
    chance = np.random.default_rng(seed)
    hidden = np.random.default_rng(seed + 5)
    checked = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            seat = state.current_player()
            if seat == CHANCE:
                state.apply_action(state.sample_chance(chance))
                continue
            choice = policy(state, seat)
            for _ in range(redraws):
                other = state.resample_hidden(seat, hidden)
                assert policy(other, seat) == choice, (
                    f"seat {seat}'s decision changed when hidden information was redrawn:\n{state.debug_text()}"
                )
            checked += 1
            state.apply_action(choice)
    return checked
