"""Tournaments: agents against each other in a game, from every seat, on the same deals; a solo evaluation is a
tournament of one seat.

A tournament is one setting of the game (one combination of `evaluation.sweep`) and its line-ups, one agent spec
per seat of its table. The default line-ups are every multiset of the agents over the seats with at least two
different agents (two agents at three seats: (A, A, B) and (A, B, B)); a single agent plays itself. In a cooperative
game each agent's own team is a line-up too, beside the mixed ones ((A, A, A), (A, A, B), (A, B, B), (B, B, B)): how
well a team of one agent does is the first question there. `evaluation.lineups` lists them explicitly instead.

Two kinds of table, one game loop (`play_game`):

- every seat (a multi-player game reached by its PettingZoo id): the line-up's agents play every seat of the opponent
  env `make_opponent_env` builds with `learner_seats="all"` and the env kwargs (reward mode, illegal actions, flat
  observations). Seat rotation on the same deals: every cyclic rotation of the line-up is played on each deal
  (rotation r seats `lineup[(s + r) % n]` at seat s), so each agent meets the same cards, leads and draws from
  every seat.
- one seat (`one_seat_tournament`, what `evaluate.py` plays on a solo game, agents/evaluation/episodes.py): each
  line-up is one agent, which takes every decision the env `make_env` builds asks for: a solo game's Gymnasium env,
  or the opponent env of a multi-player Gymnasium id, whose other seats its `opponents` play. No rotation.

Seeds, one rule for both: deal i is seeded `seed + i` (the env's `reset(seed=...)`: chance, and the env's own
opponents), and the agent at seat k of the table (k = 0 for a one-seat table's agent) is reset with
`seat_seed(seed + i, k)`, a stream of its own, independent of the env's and of every other seat's. A game depends
only on its line-up, deal and rotation, and games are sorted before any table is made, so the results are the same
whatever the number of worker processes and whatever order the games finished in.

A game's result (`GameResult`) holds, for every seat of its table: the win-mode reward (`State.rewards("win")`,
which the tables read whatever the env's reward mode), the return in the env's own reward mode, the score, the rank
by score (`envs.core.outcomes.ranks`, the order the `rank` reward mode uses; tied seats share a rank), whether it
won, and the game's outcome facts (its registration record's `outcome_facts`); and the decisions taken. With
`record`, also what its replay record needs (`recording_document`; `python -m envs.replay`).

The tables of a table of every seat are pure functions of the list of games:

- ratings: Plackett-Luce (Bradley-Terry for two seats) on the Elo scale from each game's finishing order, with
  95% Laplace intervals under a stated prior (`agents.evaluation.ratings.rate`; an agent in several seats is one
  entry per seat);
- pairwise: for each ordered pair of different agents, the share of the games where both played in which the first
  placed above the second (a tie counts half; an agent in several seats: the share over the pairs of their seats),
  with a Wilson interval;
- seats: for each seat, the first-place share of whoever sat there (a first place shared by k seats counts 1/k, so
  in an even game every seat expects 1/n) with a Wilson interval, and the mean reward;
- per seat: for each agent and seat, the games it played there, its first-place share and mean score.

A cooperative game (every seat shares one result) has no ratings or pairwise table, since nobody places above
anybody: it reports each line-up's team win rate (a win: reward > 0) with a Wilson interval, and the seat tables
count team wins. A one-seat table is summarised per line-up instead (`agents.evaluation.episodes.summarize`).
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, TypeVar

import gymnasium as gym
import numpy as np

from agents.common.config import ConfigError, EvalConfig, OpponentsConfig
from agents.common.run_dir import run_dir_of_model
from agents.evaluation.environment import make_env, make_opponent_env
from agents.evaluation.parallel import chunk_size, stream_in_workers, use_one_torch_thread
from agents.evaluation.ratings import places_from_scores, rate, wilson_interval
from agents.evaluation.tables import ResultsConsole, TextTable
from agents.players.base import Agent, action_mask_of
from agents.players.registry import is_model_path, make_agent, make_opponent_policies
from envs.adapters.driver import ILLEGAL_ACTION_PENALTY, ReplayViews, split_env_kwargs
from envs.core.game import Game
from envs.core.outcomes import ranks
from envs.core.registration import UnknownGameError, game_record_of_env_id, make_env_game, resolve_env_id
from envs.core.replays import ReplayRecord, ReplayResult, plain_json, result_of

LINEUPS_KEY = "evaluation.lineups"
COOPERATIVE_NOTE = "cooperative game: every seat shares the result, so no ratings or pairwise table; team win rates"
SELF_PLAY_NOTE = "one agent plays itself: no ratings or pairwise table"
NO_GAMES_NOTE = "no game finished (interrupted): no tables"
ONE_SEAT_NOTE = "one seat: each line-up is summarised on its own (agents.evaluation.episodes.summarize)"
RECORDING_FIELDS = ("players", "events", "replay_result")
"""GameResult fields kept for replay records only (results.json leaves them out)."""

SeatedT = TypeVar("SeatedT")


@dataclass(frozen=True)
class Tournament:
    """One game setting (a sweep combination) and the line-ups that play it, one agent spec per seat of its table."""

    env_id: str
    env_kwargs: dict[str, Any]
    sweep: dict[str, Any]
    game_name: str
    num_players: int
    cooperative: bool
    lineups: tuple[tuple[str, ...], ...]
    one_seat: bool = False
    """Whether each line-up is one agent taking every decision of the env `make_env` builds (a solo evaluation),
    rather than one agent per seat of the game."""
    opponents: OpponentsConfig | None = None
    """A one-seat table of a multi-player game: who plays the other seats (`make_env`'s opponents)."""

    @property
    def agents(self) -> list[str]:
        """The distinct agent specs of the line-ups, in order of first appearance."""
        return list(dict.fromkeys(spec for lineup in self.lineups for spec in lineup))

    @property
    def flat(self) -> bool:
        """Whether agents see flat observations (the env kwarg `flat`) rather than Dict ones."""
        return bool(self.env_kwargs.get("flat", False))

    @property
    def rotations(self) -> int:
        """How many times each deal is played: once per seat rotation, once at a one-seat table."""
        return 1 if self.one_seat else self.num_players

    def build_game(self) -> Game:
        """The rules-core game of this setting."""
        return build_game(self.env_id, self.env_kwargs)

    def make_env(self) -> gym.Env:
        """The env the games are played in, built with the env kwargs: the learner's env at a one-seat table (with
        `opponents`), else the opponent env whose every seat a line-up's agent plays."""
        if self.one_seat:
            return make_env(self.env_id, self.env_kwargs, opponents=self.opponents)
        return make_opponent_env(self.env_id, self.env_kwargs, OpponentsConfig(learner_seats="all"))

    def make_agents(self, specs: Sequence[str], env: gym.Env, agent_options: Mapping[str, Any]) -> list[Agent]:
        """One agent per spec, built for `env` (this tournament's `make_env`): against its observation space at a
        one-seat table, as seat policies of its game otherwise (AgentSpecError names a bad spec)."""
        if self.one_seat:
            return [make_agent(spec, env, agent_options) for spec in specs]
        return make_opponent_policies(specs, env.unwrapped.game, self.flat, agent_options)  # type: ignore[attr-defined]


@dataclass(frozen=True, order=True)
class GameResult:
    """One game of a tournament: who sat where and, per seat of its table, the result (module docstring).

    Games sort by line-up, deal and rotation: the canonical order every table is made in.
    """

    lineup_index: int
    deal: int
    rotation: int
    lineup: tuple[str, ...]
    """The line-up as listed; `seats` is it rotated: seat s holds lineup[(s + rotation) % n]."""
    seed: int
    seats: tuple[str, ...]
    rewards: tuple[float, ...]
    """Win-mode rewards (+1 win, -1 loss, 0 shared top or no result), whatever the env's reward mode."""
    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    length: int
    """Decisions taken in the game (by the one agent, at a one-seat table)."""
    returns: tuple[float, ...] = field(default=(), compare=False)
    """What each seat's agent received in the env's own reward mode, summed over the game."""
    won: tuple[bool, ...] = field(default=(), compare=False)
    """The game's `won` fact for each seat."""
    facts: tuple[dict[str, Any], ...] = field(default=(), compare=False)
    """The game's outcome facts (its record's `outcome_facts`) for each seat."""
    players: tuple[str, ...] = field(default=(), compare=False)
    """Who played each seat of the game (a one-seat table: the agent and the env's opponents), for replay records."""
    events: tuple[tuple[int, int], ...] | None = field(default=None, compare=False)
    """Every decision and chance outcome, as the env's `history` (only when recording)."""
    replay_result: ReplayResult | None = field(default=None, compare=False)
    """The rules-core result a replay record checks (only when recording)."""


@dataclass
class TournamentResult:
    """Every game of a tournament, in canonical order, and its tables."""

    tournament: Tournament
    games: list[GameResult]
    tables: dict[str, Any] = field(default_factory=dict)


# ------------------------------------------------------------------------------------------------------------------
# Planning: games, line-ups, rotations
# ------------------------------------------------------------------------------------------------------------------


def sweep_combinations(sweep: Mapping[str, Sequence[Any]]) -> list[dict[str, Any]]:
    """Every combination of the swept values, the first key varying slowest; [{}] for an empty sweep."""
    keys = list(sweep)
    return [dict(zip(keys, values, strict=True)) for values in itertools.product(*(sweep[key] for key in keys))]


def game_kwargs_of(env_kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """The game's keyword arguments among the env kwargs (all but the adapter's)."""
    return split_env_kwargs(env_kwargs)[1]


def build_game(env_id: str, env_kwargs: Mapping[str, Any]) -> Game:
    """The rules-core game behind an env id, built by the id's own entry point (`make_env_game`) with the game's part
    of the env kwargs."""
    game: Game = make_env_game(env_id, game_kwargs_of(env_kwargs))
    return game


def outcome_facts_of(env_id: str) -> tuple[str, ...]:
    """The outcome facts the game behind `env_id` reports (none for an env id no game record declares)."""
    try:
        return game_record_of_env_id(env_id).outcome_facts
    except UnknownGameError:
        return ()


def one_seat_tournament(
    agents: Sequence[str],
    env_id: str,
    env_kwargs: Mapping[str, Any],
    sweep: Mapping[str, Any] | None = None,
    opponents: OpponentsConfig | None = None,
) -> Tournament:
    """The tournament of `agents` at one seat, each its own line-up, taking every decision of the env
    `make_env(env_id, env_kwargs, opponents=opponents)` builds (`sweep`: the swept kwargs among `env_kwargs`)."""
    try:
        name = game_record_of_env_id(env_id).name
        spec = build_game(env_id, env_kwargs).spec
        num_players, cooperative = spec.num_players, spec.cooperative
    except UnknownGameError:  # a Gymnasium env of no tabletop game: what it lacks shows when it is played
        name, num_players, cooperative = env_id, 1, False
    return Tournament(
        env_id,
        dict(env_kwargs),
        dict(sweep or {}),
        name,
        num_players,
        cooperative,
        tuple((agent,) for agent in agents),
        one_seat=True,
        opponents=opponents,
    )


def default_lineups(agents: Sequence[str], num_players: int, cooperative: bool = False) -> list[tuple[str, ...]]:
    """Every multiset of `num_players` agents with at least two different ones; a single agent plays itself. In a
    cooperative game every multiset: each agent's own team (every seat the same agent) beside the mixed ones."""
    distinct = list(dict.fromkeys(agents))
    multisets = list(itertools.combinations_with_replacement(distinct, num_players))
    if cooperative or len(distinct) == 1:
        return multisets
    return [lineup for lineup in multisets if len(set(lineup)) > 1]


def check_lineups(lineups: Sequence[Sequence[str]], num_players: int, setting: str, source: str) -> None:
    """ConfigError naming `evaluation.lineups[i]` unless every line-up has one agent spec per seat."""
    for index, lineup in enumerate(lineups):
        if len(lineup) != num_players:
            raise ConfigError(
                source,
                f"{LINEUPS_KEY}[{index}]",
                f"{list(lineup)} has {len(lineup)} agent specs, but {setting} has {num_players} seats: "
                "give one agent spec per seat",
            )


def rotation_seats(lineup: Sequence[SeatedT], rotation: int) -> tuple[SeatedT, ...]:
    """Who sits where in rotation r of a line-up (specs or agents): seat s holds lineup[(s + r) % n]."""
    n = len(lineup)
    return tuple(lineup[(seat + rotation) % n] for seat in range(n))


def seat_seed(deal_seed: int, seat: int) -> int:
    """The seed the agent at `seat` of the table is reset with on the deal seeded `deal_seed`: an independent stream
    per seat, and none of them the env's own (which `deal_seed` seeds)."""
    return int(np.random.SeedSequence((deal_seed, seat)).generate_state(1)[0])


def _setting_text(game_name: str, combination: Mapping[str, Any]) -> str:
    """'card_duel (num_players=3)' or 'card_duel' for an empty sweep combination."""
    swept = ", ".join(f"{key}={value}" for key, value in combination.items())
    return f"{game_name} ({swept})" if swept else game_name


def plan_tournaments(config: EvalConfig, source: str) -> list[Tournament] | None:
    """One tournament per sweep combination of a multi-player game; None when the env is not a multi-player game.

    Multi-player games are reached by their PettingZoo id (`tabletop/<module>`, or `package:tabletop/<module>`);
    a Gymnasium id is played at one seat (`one_seat_tournament`, by the evaluation of agents/evaluation/episodes.py).
    ConfigError names the key of a setting that does not build a game or its env, or a line-up that does not fit its
    seats.
    """
    try:
        record = game_record_of_env_id(config.env.id)
    except UnknownGameError:
        return None  # the one-seat evaluation reports unknown ids as it always has
    if resolve_env_id(config.env.id) not in record.pettingzoo_ids:
        return None
    settings = config.evaluation
    tournaments = []
    for combination in sweep_combinations(settings.sweep):
        env_kwargs = {**config.env.kwargs, **combination}
        setting = _setting_text(record.name, combination)
        key = "evaluation.sweep" if combination else "env.kwargs"
        try:
            game = build_game(config.env.id, env_kwargs)
        except (TypeError, ValueError) as error:
            raise ConfigError(source, key, f"{setting} cannot be built: {error}") from None
        num_players = game.spec.num_players
        if settings.lineups is not None:
            check_lineups(settings.lineups, num_players, setting, source)
            lineups = [tuple(lineup) for lineup in settings.lineups]
        else:
            lineups = default_lineups(settings.agents, num_players, game.spec.cooperative)
        tournament = Tournament(
            config.env.id, env_kwargs, combination, record.name, num_players, game.spec.cooperative, tuple(lineups)
        )
        if num_players > 1:  # its env, as every game will be played in it (reward mode, illegal actions)
            try:
                tournament.make_env().close()
            except (TypeError, ValueError) as error:
                raise ConfigError(source, key, f"{setting} cannot be played: {error}") from None
        tournaments.append(tournament)
    solo = [tournament for tournament in tournaments if tournament.num_players == 1]
    if len(solo) == len(tournaments):
        return None
    if solo:
        raise ConfigError(
            source, "evaluation.sweep", "mixes one-player and multi-player settings: evaluate them separately"
        )
    return tournaments


def check_tournament_agents(tournaments: Sequence[Tournament], agent_options: Mapping[str, Any]) -> None:
    """Build every agent of every tournament once, so a bad spec fails (AgentSpecError) before any game."""
    for tournament in tournaments:
        env = tournament.make_env()
        try:
            tournament.make_agents(tournament.agents, env, agent_options)
        finally:
            env.close()


# ------------------------------------------------------------------------------------------------------------------
# Playing: the one game loop
# ------------------------------------------------------------------------------------------------------------------


@dataclass
class PlayedGame:
    """One game as its table saw it, per seat of the table (the agent's seat alone at a one-seat table)."""

    rewards: list[float]
    """Win-mode rewards."""
    returns: list[float]
    """Rewards in the env's own reward mode, summed over the game."""
    scores: list[float]
    won: list[bool]
    facts: list[dict[str, Any]]
    length: int
    """Decisions the agents took."""
    events: list[tuple[int, int]] | None = None
    """Every decision and chance outcome, as the env's `history` (only when recording)."""
    replay_result: ReplayResult | None = None
    """The rules-core result a replay record checks (only when recording)."""


def plain_value(value: Any) -> Any:
    """numpy scalars -> Python scalars, so that facts go into JSON as they are."""
    item = getattr(value, "item", None)
    return item() if callable(item) and getattr(value, "shape", None) == () else value


def win_mode_rewards(table: Any, info: Mapping[str, Any]) -> list[float]:
    """Every seat's win-mode reward at the end of a game in `table` (an env's `unwrapped`): `State.rewards("win")`;
    -1 for the offender and 0 for the others where an illegal action ended it (the penalty of every reward mode);
    0 for every seat of a game cut short before its end (no result)."""
    state = table.state
    num_players = state.game.spec.num_players
    if "illegal_action" in info:
        rewards = [0.0] * num_players
        rewards[int(info.get("offender", 0))] = ILLEGAL_ACTION_PENALTY
        return rewards
    if not state.is_terminal():
        return [0.0] * num_players
    return [float(value) for value in state.rewards("win")]


def play_game(
    env: gym.Env, seat_agents: Sequence[Agent], seed: int, record: bool = False, facts: Sequence[str] = ()
) -> PlayedGame:
    """One game: `env.reset(seed=seed)`, the agent at seat k reset with `seat_seed(seed, k)`, then every decision by
    the agent of the seat to act (`info["seat"]`), or by the only agent (a one-seat table: every decision the env
    asks for), with the legal-action mask and the live state, until the game ends or is cut short.

    The end keeps, per seat of the table, the win-mode reward, the return, the score (`State.score()`; a one-seat
    table: `info["score"]`), `won` and the `facts` named (from the final info at a one-seat table, from
    `State.episode_info(seat)` otherwise). With `record`, also the env's history and rules-core result.
    """
    table: Any = env.unwrapped  # a TabletopEnv or an OpponentEnv: both hold the live rules-core `state`
    if not hasattr(table, "state"):
        raise TypeError(f"a game is played in a tabletop env (one with a rules-core `state`), got {table!r}")
    observation, info = env.reset(seed=seed)
    for seat, agent in enumerate(seat_agents):
        agent.reset(seat_seed(seed, seat))
    one_seat = len(seat_agents) == 1
    length = 0
    episode_return = 0.0
    while True:
        agent = seat_agents[0 if one_seat else info["seat"]]
        action = agent.act(observation, action_mask_of(env, observation), state=table.state)
        observation, reward, terminated, truncated, info = env.step(action)
        length += 1
        episode_return += float(reward)
        if terminated or truncated:
            break
    state = table.state
    if one_seat:
        seat_infos: list[Mapping[str, Any]] = [info]
        rewards = [win_mode_rewards(table, info)[int(info.get("seat", 0))]]
        returns = [episode_return]
        scores = [float(info.get("score", math.nan))]
    else:
        seat_infos = [state.episode_info(seat) for seat in range(len(seat_agents))]
        rewards = win_mode_rewards(table, info)
        returns = [float(value) for value in info["seat_rewards"]]  # rewards come at the end only
        scores = [float(score) for score in state.score()]
    played = PlayedGame(
        rewards=rewards,
        returns=returns,
        scores=scores,
        won=[bool(seat_info.get("won", False)) for seat_info in seat_infos],
        facts=[{fact: plain_value(seat_info.get(fact)) for fact in facts} for seat_info in seat_infos],
        length=length,
    )
    if record:
        if not isinstance(table, ReplayViews):
            raise TypeError(f"recording needs a tabletop env with a history, got {table!r}")
        played.events = list(table.history)
        played.replay_result = result_of(state)
    return played


def seat_players(tournament: Tournament, seats: Sequence[str], table: Any) -> tuple[str, ...]:
    """Who played each seat of the game just played in `table`: the seats' agents, and at a one-seat table of a
    multi-player game the agent at its seat and the opponents' specs at the others."""
    opponents = getattr(table, "opponents", None)  # an opponent env: each seat's pool index, None for the learner
    if not tournament.one_seat or opponents is None:
        return tuple(seats)
    pool = tournament.opponents.pool if tournament.opponents is not None else []
    return tuple(seats[0] if index is None else pool[index].agent for index in opponents)


@dataclass(frozen=True)
class _Chunk:
    """Some deals of one line-up of one tournament, played by one worker with one agent instance per position."""

    tournament_index: int
    tournament: Tournament
    lineup_index: int
    deals: tuple[int, ...]
    base_seed: int
    agent_options: Mapping[str, Any]
    record: bool = False
    facts: tuple[str, ...] = ()


def _play_chunk(chunk: _Chunk) -> Iterator[tuple[int, GameResult]]:
    """Worker entry point: build the env and the line-up's agents once, play every rotation of each deal, yielding
    each game as it ends."""
    tournament = chunk.tournament
    lineup = tournament.lineups[chunk.lineup_index]
    env = tournament.make_env()
    try:
        agents = tournament.make_agents(lineup, env, chunk.agent_options)  # one per position
        use_one_torch_thread()
        for deal in chunk.deals:
            seed = chunk.base_seed + deal
            for rotation in range(tournament.rotations):
                played = play_game(env, rotation_seats(agents, rotation), seed, chunk.record, chunk.facts)
                seats = rotation_seats(lineup, rotation)
                result = GameResult(
                    chunk.lineup_index,
                    deal,
                    rotation,
                    lineup,
                    seed,
                    seats,
                    tuple(played.rewards),
                    tuple(played.scores),
                    (1,) if tournament.one_seat else tuple(ranks(played.scores)),
                    played.length,
                    returns=tuple(played.returns),
                    won=tuple(played.won),
                    facts=tuple(played.facts),
                    players=seat_players(tournament, seats, env.unwrapped),
                    events=None if played.events is None else tuple(played.events),
                    replay_result=played.replay_result,
                )
                yield chunk.tournament_index, result
    finally:
        env.close()


def games_planned(tournaments: Sequence[Tournament], deals: int) -> int:
    """How many games `deals` deals of every line-up of every tournament are (every rotation of each deal)."""
    return sum(deals * len(tournament.lineups) * tournament.rotations for tournament in tournaments)


def stream_tournaments(
    tournaments: Sequence[Tournament],
    deals: int,
    seed: int,
    workers: int = 1,
    agent_options: Mapping[str, Any] | None = None,
    record: bool = False,
) -> Generator[tuple[int, GameResult], None, None]:
    """(tournament index, game) of every game as it ends (deal i seeded seed + i) on `workers` processes, in
    tournament, line-up and deal order with one worker; stopping early (Ctrl-C, or closing the iterator) keeps what
    was yielded. With `record`, each game keeps what its replay record needs."""
    agent_options = dict(agent_options or {})
    size = chunk_size(deals, workers)
    chunks = [
        _Chunk(
            index,
            tournament,
            lineup_index,
            tuple(range(start, min(start + size, deals))),
            seed,
            agent_options,
            record,
            outcome_facts_of(tournament.env_id),
        )
        for index, tournament in enumerate(tournaments)
        for lineup_index in range(len(tournament.lineups))
        for start in range(0, deals, size)
    ]
    return stream_in_workers(_play_chunk, chunks, workers)


def tournament_results(
    tournaments: Sequence[Tournament],
    games: Sequence[Sequence[GameResult]],
) -> list[TournamentResult]:
    """Each tournament's games (`games[i]` for `tournaments[i]`, in any order, any number) sorted, with its tables."""
    results = []
    for tournament, played in zip(tournaments, games, strict=True):
        ordered = sorted(played)
        if tournament.one_seat:
            tables: dict[str, Any] = {"note": ONE_SEAT_NOTE}
        else:
            complete, note = complete_rotations(tournament, ordered)
            tables = tournament_tables(complete, tournament.cooperative)
            if note:
                tables["note"] = f"{note}. {tables['note']}" if "note" in tables else note
        results.append(TournamentResult(tournament, ordered, tables))
    return results


def complete_rotations(tournament: Tournament, games: Sequence[GameResult]) -> tuple[list[GameResult], str]:
    """The games of the deals whose every seat rotation was played, and a note saying what an interrupted tournament
    left out of its tables ("" when nothing): a deal played from some seats only would favour the agents that sat
    where it was played, and a line-up never reached would leave its agents' ratings to the others."""
    by_deal: dict[tuple[int, int], list[GameResult]] = {}
    for game in games:
        by_deal.setdefault((game.lineup_index, game.deal), []).append(game)
    complete = [game for deal in by_deal.values() if len(deal) == tournament.rotations for game in deal]
    left_out = len(games) - len(complete)
    reached = {lineup for lineup, _ in by_deal}
    missing = [i for i in range(len(tournament.lineups)) if i not in reached]
    if not left_out and not missing:
        return list(games), ""
    parts = [f"interrupted: the tables summarise the {len(complete)} games of deals played from every seat rotation"]
    if left_out:
        parts.append(f"{left_out} game{'s' if left_out != 1 else ''} of deals with rotations unplayed left out")
    if missing:
        names = "; ".join(", ".join(tournament.lineups[i]) for i in missing)
        parts.append(f"line-ups not reached: {names}")
    return complete, "; ".join(parts)


def run_tournaments(
    tournaments: Sequence[Tournament],
    deals: int,
    seed: int,
    workers: int = 1,
    agent_options: Mapping[str, Any] | None = None,
    record: bool = False,
) -> list[TournamentResult]:
    """Play `deals` deals of every line-up of every tournament (deal i seeded seed + i) on `workers` processes."""
    collected: list[list[GameResult]] = [[] for _ in tournaments]
    for index, game in stream_tournaments(tournaments, deals, seed, workers, agent_options, record):
        collected[index].append(game)
    return tournament_results(tournaments, collected)


# ------------------------------------------------------------------------------------------------------------------
# Replay records and labels
# ------------------------------------------------------------------------------------------------------------------


def replay_document(
    env_id: str,
    env_kwargs: Mapping[str, Any],
    seed: int,
    players: Sequence[str],
    events: Sequence[tuple[int, int]] | None,
    result: ReplayResult | None,
) -> dict[str, Any]:
    """The JSON document of a recorded game's rules-core replay record (envs/core/replays.py; `python -m
    envs.replay`): the game's part of the env kwargs, the deal's seed, who played each seat, the events, the result."""
    if events is None:
        raise ValueError(f"the game of seed {seed} was not recorded (play it with record=True)")
    record = ReplayRecord(
        env_id=env_id,
        game=game_record_of_env_id(env_id).name,
        game_kwargs=plain_json(game_kwargs_of(env_kwargs)),
        seed=seed,
        players=list(players),
        events=list(events),
        result=result,
    )
    return record.model_dump(mode="json")


def recording_document(tournament: Tournament, game: GameResult) -> dict[str, Any]:
    """The JSON document of a tournament game's replay record (`replay_document`)."""
    return replay_document(
        tournament.env_id, tournament.env_kwargs, game.seed, game.players, game.events, game.replay_result
    )


def slug(text: str) -> str:
    """A file-name-safe version of an agent spec or label."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_") or "agent"


def sweep_folder(sweep: Mapping[str, Any]) -> Path:
    """The folder naming a setting's swept kwargs (`key-value__key-value`), or no folder when not sweeping."""
    return Path(slug("__".join(f"{key}-{value}" for key, value in sweep.items()))) if sweep else Path()


def recording_path(tournament: Tournament, game: GameResult) -> Path:
    """Where a game's replay record goes under the recordings folder: the setting, the line-up, the deal and the
    rotation."""
    lineup = f"lineup{game.lineup_index}__{'__'.join(slug(spec) for spec in game.lineup)}"
    return sweep_folder(tournament.sweep) / lineup / f"deal_{game.deal:05d}_rotation_{game.rotation}.json"


def agent_label(spec: str) -> str:
    """Short display name of an agent spec: a model path shows as its run directory's or file's name."""
    if not is_model_path(spec):
        return spec
    path = Path(spec)
    if path.is_dir():
        return path.name
    run_dir = run_dir_of_model(path)
    return f"{run_dir.name}/{path.stem}" if run_dir is not None else path.name


# ------------------------------------------------------------------------------------------------------------------
# Tables: pure functions of the games
# ------------------------------------------------------------------------------------------------------------------


def distinct_agents(games: Sequence[GameResult]) -> list[str]:
    """Every agent that played, sorted."""
    return sorted({agent for game in games for agent in game.seats})


def win_credits(game: GameResult, cooperative: bool) -> list[float]:
    """Each seat's share of the win: a team win (reward > 0) in a cooperative game, else its share of first place
    (1 for a sole first place, 1/k for a first place shared by k seats)."""
    if cooperative:
        return [1.0 if reward > 0 else 0.0 for reward in game.rewards]
    firsts = sum(1 for rank in game.ranks if rank == 1)
    return [1.0 / firsts if rank == 1 else 0.0 for rank in game.ranks]


def _interval(successes: float, trials: int) -> list[float]:
    low, high = wilson_interval(successes, trials)
    return [low, high]


def rating_table(games: Sequence[GameResult]) -> list[dict[str, Any]]:
    """Plackett-Luce ratings (Elo scale) of the agents from the games' finishing orders, best first, with 95% Laplace
    intervals; empty with fewer than two agents."""
    if len(distinct_agents(games)) < 2:
        return []
    results = [places_from_scores(game.seats, [-rank for rank in game.ranks]) for game in sorted(games)]
    return [
        {"agent": rating.agent, "rating": rating.rating, "ci95": [rating.low, rating.high], "games": rating.games}
        for rating in rate(results)
    ]


def _placed_above_share(game: GameResult, agent: str, opponent: str) -> float:
    """Over the pairs of `agent`'s and `opponent`'s seats: the share where agent placed above (a tie counts half)."""
    mine = [rank for seated, rank in zip(game.seats, game.ranks, strict=True) if seated == agent]
    theirs = [rank for seated, rank in zip(game.seats, game.ranks, strict=True) if seated == opponent]
    points = [1.0 if a < b else 0.5 if a == b else 0.0 for a in mine for b in theirs]
    return sum(points) / len(points)


def pairwise_table(games: Sequence[GameResult]) -> list[dict[str, Any]]:
    """For each ordered pair of different agents that met: the share of their games in which the first placed above
    the second (ties half), with a Wilson interval; sorted by agent, then opponent."""
    games = sorted(games)
    table = []
    for agent, opponent in itertools.permutations(distinct_agents(games), 2):
        met = [game for game in games if agent in game.seats and opponent in game.seats]
        if not met:
            continue
        above = sum(_placed_above_share(game, agent, opponent) for game in met)
        table.append(
            {
                "agent": agent,
                "opponent": opponent,
                "games": len(met),
                "share": above / len(met),
                "ci95": _interval(above, len(met)),
            }
        )
    return table


def seat_table(games: Sequence[GameResult], cooperative: bool) -> list[dict[str, Any]]:
    """For each seat: games, the win share of whoever sat there with a Wilson interval, the share an even game
    gives (1/n; none for a cooperative game) and the mean reward."""
    games = sorted(games)
    num_players = len(games[0].seats) if games else 0
    table = []
    for seat in range(num_players):
        wins = sum(win_credits(game, cooperative)[seat] for game in games)
        table.append(
            {
                "seat": seat,
                "games": len(games),
                "win_share": wins / len(games),
                "ci95": _interval(wins, len(games)),
                "even_share": None if cooperative else 1.0 / num_players,
                "mean_reward": sum(game.rewards[seat] for game in games) / len(games),
            }
        )
    return table


def per_seat_renderable(games: Sequence[GameResult], cooperative: bool) -> list[dict[str, Any]]:
    """For each agent and seat it sat at: games, win share and mean score there; sorted by agent, then seat."""
    games = sorted(games)
    table = []
    for agent in distinct_agents(games):
        seats = sorted({seat for game in games for seat, seated in enumerate(game.seats) if seated == agent})
        for seat in seats:
            played = [game for game in games if game.seats[seat] == agent]
            wins = sum(win_credits(game, cooperative)[seat] for game in played)
            table.append(
                {
                    "agent": agent,
                    "seat": seat,
                    "games": len(played),
                    "win_share": wins / len(played),
                    "mean_score": sum(game.scores[seat] for game in played) / len(played),
                }
            )
    return table


def team_table(games: Sequence[GameResult]) -> list[dict[str, Any]]:
    """Cooperative games: each line-up's team win rate (reward > 0) with a Wilson interval and mean team score."""
    games = sorted(games)
    lineups = list(dict.fromkeys((game.lineup_index, game.lineup) for game in games))
    table = []
    for lineup_index, lineup in lineups:
        played = [game for game in games if game.lineup_index == lineup_index]
        wins = sum(1 for game in played if game.rewards[0] > 0)
        table.append(
            {
                "lineup": list(lineup),
                "games": len(played),
                "wins": wins,
                "win_rate": wins / len(played),
                "ci95": _interval(wins, len(played)),
                "mean_score": sum(game.scores[0] for game in played) / len(played),
            }
        )
    return table


def tournament_tables(games: Sequence[GameResult], cooperative: bool) -> dict[str, Any]:
    """Every table of a tournament (see the module docstring); a `note` says why a table is absent."""
    if not games:
        return {"note": NO_GAMES_NOTE}
    seats = {"seats": seat_table(games, cooperative), "per_seat": per_seat_renderable(games, cooperative)}
    if cooperative:
        return {"note": COOPERATIVE_NOTE, "team": team_table(games), **seats}
    tables: dict[str, Any] = {"ratings": rating_table(games), "pairwise": pairwise_table(games), **seats}
    if len(distinct_agents(games)) < 2:
        tables["note"] = SELF_PLAY_NOTE
    return tables


def game_document(game: GameResult) -> dict[str, Any]:
    """A game as results.json holds it: every field of its GameResult but those only replay records keep."""
    return {entry.name: getattr(game, entry.name) for entry in fields(game) if entry.name not in RECORDING_FIELDS}


def tournament_document(results: Sequence[TournamentResult], meta: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON document of a tournament run: metadata and, per tournament, its setting, tables and every game (its
    GameResult without what only replay records keep)."""
    return {
        "meta": dict(meta),
        "tournaments": [
            {
                "game": result.tournament.game_name,
                "env_id": result.tournament.env_id,
                "env_kwargs": result.tournament.env_kwargs,
                "sweep": result.tournament.sweep,
                "num_players": result.tournament.num_players,
                "cooperative": result.tournament.cooperative,
                "lineups": [list(lineup) for lineup in result.tournament.lineups],
                "tables": result.tables,
                "games": [game_document(game) for game in result.games],
            }
            for result in results
        ],
    }


# ------------------------------------------------------------------------------------------------------------------
# Printing
# ------------------------------------------------------------------------------------------------------------------


def _percent_interval(interval: Sequence[float]) -> str:
    return f"[{interval[0]:.0%}, {interval[1]:.0%}]"


def print_tournament(result: TournamentResult, console: ResultsConsole) -> None:
    """The tournament's tables (ratings by rating, pairwise matrix, seats, per-seat results) on `console`."""
    tournament, tables = result.tournament, result.tables
    setting = _setting_text(tournament.game_name, tournament.sweep)
    console.heading(
        f"{setting}: {tournament.num_players} seats, {len(tournament.lineups)} line-up(s), {len(result.games)} games"
    )
    if "note" in tables:
        console.text(tables["note"])
    if tables.get("ratings"):
        console.table(_ratings_renderable(tables["ratings"], setting))
    if tables.get("pairwise"):
        order = [row["agent"] for row in tables.get("ratings") or []] or distinct_agents(result.games)
        console.table(_pairwise_renderable(tables["pairwise"], order, setting))
    if "team" in tables:
        console.table(_team_renderable(tables["team"], setting))
    if "seats" in tables:
        console.table(_seat_renderable(tables["seats"], setting))
        console.table(_per_seat_renderable(tables["per_seat"], tournament.num_players, setting))


def _ratings_renderable(rows: Sequence[Mapping[str, Any]], setting: str) -> TextTable:
    table = TextTable(f"Ratings, {setting} (Plackett-Luce, Elo scale)")
    table.add_column("#", justify="right")
    table.add_column("agent")
    for name in ("rating", "95% CI", "games"):
        table.add_column(name, justify="right")
    for place, row in enumerate(rows, start=1):
        low, high = row["ci95"]
        table.add_row(
            str(place), agent_label(row["agent"]), f"{row['rating']:.0f}", f"[{low:.0f}, {high:.0f}]", str(row["games"])
        )
    return table


def _pairwise_renderable(rows: Sequence[Mapping[str, Any]], order: Sequence[str], setting: str) -> TextTable:
    table = TextTable(f"Pairwise, {setting}: row placed above column (ties half)")
    table.add_column("agent")
    for opponent in order:
        table.add_column(agent_label(opponent), justify="right")
    cells = {(row["agent"], row["opponent"]): row for row in rows}
    for agent in order:
        line = [agent_label(agent)]
        for opponent in order:
            row = cells.get((agent, opponent))
            line.append("-" if row is None else f"{row['share']:.0%} {_percent_interval(row['ci95'])}")
        table.add_row(*line)
    return table


def _seat_renderable(rows: Sequence[Mapping[str, Any]], setting: str) -> TextTable:
    table = TextTable(f"Seat advantage, {setting}")
    for name in ("seat", "games", "win share", "95% CI", "even game", "mean reward"):
        table.add_column(name, justify="right")
    for row in rows:
        even = "-" if row["even_share"] is None else f"{row['even_share']:.0%}"
        table.add_row(
            str(row["seat"]),
            str(row["games"]),
            f"{row['win_share']:.1%}",
            _percent_interval(row["ci95"]),
            even,
            f"{row['mean_reward']:+.2f}",
        )
    return table


def _per_seat_renderable(rows: Sequence[Mapping[str, Any]], num_players: int, setting: str) -> TextTable:
    table = TextTable(f"Per-seat results, {setting}: win share · mean score (games)")
    table.add_column("agent")
    for seat in range(num_players):
        table.add_column(f"seat {seat}", justify="right")
    cells = {(row["agent"], row["seat"]): row for row in rows}
    for agent in dict.fromkeys(row["agent"] for row in rows):
        line = [agent_label(agent)]
        for seat in range(num_players):
            row = cells.get((agent, seat))
            line.append("-" if row is None else f"{row['win_share']:.0%} · {row['mean_score']:.2f} ({row['games']})")
        table.add_row(*line)
    return table


def _team_renderable(rows: Sequence[Mapping[str, Any]], setting: str) -> TextTable:
    table = TextTable(f"Team win rate per line-up, {setting}")
    table.add_column("line-up (seat 0 first, every rotation played)")
    for name in ("games", "win rate", "95% CI", "mean team score"):
        table.add_column(name, justify="right")
    for row in rows:
        table.add_row(
            ", ".join(agent_label(agent) for agent in row["lineup"]),
            str(row["games"]),
            f"{row['win_rate']:.1%}",
            _percent_interval(row["ci95"]),
            f"{row['mean_score']:.2f}",
        )
    return table
