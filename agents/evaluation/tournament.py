"""Tournaments: agents against each other in a multi-player game, from every seat, on the same deals.

A tournament is one setting of the game (one combination of `evaluation.sweep`) and its line-ups, one agent spec
per seat. The default line-ups are every multiset of the agents over the seats with at least two different agents
(two agents at three seats: (A, A, B) and (A, B, B)); a single agent plays itself. In a cooperative game each
agent's own team is a line-up too, beside the mixed ones ((A, A, A), (A, A, B), (A, B, B), (B, B, B)): how well a
team of one agent does is the first question there. `evaluation.lineups` lists them explicitly instead.

Seat rotation on the same deals: deal i of a line-up is seeded `seed + i`, and every cyclic rotation of the line-up
is played on it with that same seed (rotation r seats `lineup[(s + r) % n]` at seat s), so each agent meets the
same cards, leads and draws from every seat. Each seat's agent is reset with a seed derived from the deal's seed and
the seat. Games are played through `OpponentEnv(game, learner_seats="all")`. A game depends only on its line-up,
deal and rotation, and games are sorted before any table is made, so the tables are the same whatever the number
of worker processes and whatever order the games finished in.

A game's result holds every seat's win-mode reward (`State.rewards("win")`), score and rank by score
(`envs.core.outcomes.ranks`, the order the `rank` reward mode uses; tied seats share a rank). The tables are pure
functions of the list of games:

- ratings: Plackett-Luce (Bradley-Terry for two seats) on the Elo scale from each game's finishing order, with
  seeded 95% bootstrap intervals (`agents.evaluation.ratings.rate`; an agent in several seats is one entry per seat);
- pairwise: for each ordered pair of different agents, the share of the games where both played in which the first
  placed above the second (a tie counts half; an agent in several seats: the share over the pairs of their seats),
  with a Wilson interval;
- seats: for each seat, the first-place share of whoever sat there (a first place shared by k seats counts 1/k, so
  in an even game every seat expects 1/n) with a Wilson interval, and the mean reward;
- per seat: for each agent and seat, the games it played there, its first-place share and mean score.

A cooperative game (every seat shares one result) has no ratings or pairwise table, since nobody places above
anybody: it reports each line-up's team win rate (a win: reward > 0) with a Wilson interval, and the seat tables
count team wins.
"""

from __future__ import annotations

import itertools
from collections.abc import Generator, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, TypeVar

import numpy as np

from agents.common.config import ConfigError, EvalConfig
from agents.evaluation.episodes import (
    agent_label,
    chunk_size,
    stream_in_workers,
    sweep_combinations,
    use_one_torch_thread,
    wilson_interval,
)
from agents.evaluation.ratings import BOOTSTRAP_SAMPLES, places_from_scores, rate
from agents.evaluation.tables import ResultsConsole, TextTable
from agents.players.base import Agent
from agents.players.registry import make_opponent_policies
from envs.adapters.driver import split_env_kwargs
from envs.adapters.opponents import OpponentEnv
from envs.core.game import Game
from envs.core.outcomes import ranks
from envs.core.registration import UnknownGameError, game_record_of_env_id, make_env_game, resolve_env_id

REWARD_MODE = "win"
"""Tournament results are recorded in win mode (+1 win, -1 loss, 0 shared top), whatever the env kwargs say."""
LINEUPS_KEY = "evaluation.lineups"
COOPERATIVE_NOTE = "cooperative game: every seat shares the result, so no ratings or pairwise table; team win rates"
SELF_PLAY_NOTE = "one agent plays itself: no ratings or pairwise table"
NO_GAMES_NOTE = "no game finished (interrupted): no tables"
NO_RATINGS_NOTE = "no ratings: they need choix (pip install 'tabletop-gym[train]' installs it)"

SeatedT = TypeVar("SeatedT")


@dataclass(frozen=True)
class Tournament:
    """One game setting (a sweep combination) and the line-ups that play it, one agent spec per seat."""

    env_id: str
    env_kwargs: dict[str, Any]
    sweep: dict[str, Any]
    game_name: str
    num_players: int
    cooperative: bool
    lineups: tuple[tuple[str, ...], ...]

    @property
    def agents(self) -> list[str]:
        """The distinct agent specs of the line-ups, in order of first appearance."""
        return list(dict.fromkeys(spec for lineup in self.lineups for spec in lineup))

    @property
    def flat(self) -> bool:
        """Whether agents see flat observations (the env kwarg `flat`) rather than Dict ones."""
        return bool(self.env_kwargs.get("flat", False))

    def build_game(self) -> Game:
        """The rules-core game of this setting."""
        return build_game(self.env_id, self.env_kwargs)


@dataclass(frozen=True, order=True)
class GameResult:
    """One game of a tournament: who sat where and every seat's reward (win mode), score and rank.

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
    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    length: int
    """Decisions taken in the game."""


@dataclass
class TournamentResult:
    """Every game of a tournament, in canonical order, and its tables."""

    tournament: Tournament
    games: list[GameResult]
    tables: dict[str, Any] = field(default_factory=dict)


# ------------------------------------------------------------------------------------------------------------------
# Planning: games, line-ups, rotations
# ------------------------------------------------------------------------------------------------------------------


def game_kwargs_of(env_kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """The game's keyword arguments among the env kwargs (all but the adapter's)."""
    return split_env_kwargs(env_kwargs)[1]


def build_game(env_id: str, env_kwargs: Mapping[str, Any]) -> Game:
    """The rules-core game behind a multi-player env id, built by the id's own entry point (`make_env_game`) with
    the game's part of the env kwargs."""
    game: Game = make_env_game(env_id, game_kwargs_of(env_kwargs))
    return game


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
    """The seed the agent at `seat` is reset with on the deal seeded `deal_seed` (independent streams per seat)."""
    return int(np.random.SeedSequence((deal_seed, seat)).generate_state(1)[0])


def _setting_text(game_name: str, combination: Mapping[str, Any]) -> str:
    """'card_duel (num_players=3)' or 'card_duel' for an empty sweep combination."""
    swept = ", ".join(f"{key}={value}" for key, value in combination.items())
    return f"{game_name} ({swept})" if swept else game_name


def plan_tournaments(config: EvalConfig, source: str) -> list[Tournament] | None:
    """One tournament per sweep combination of a multi-player game; None when the env is not a multi-player game.

    Multi-player games are reached by their PettingZoo id (`tabletop/<module>`, or `package:tabletop/<module>`);
    a Gymnasium id is single-agent and evaluated as before. ConfigError names the key of a setting that does not
    build a game or a line-up that does not fit its seats.
    """
    try:
        record = game_record_of_env_id(config.env.id)
    except UnknownGameError:
        return None  # the solo path reports unknown ids as it always has
    if resolve_env_id(config.env.id) not in record.pettingzoo_ids:
        return None
    settings = config.evaluation
    tournaments = []
    for combination in sweep_combinations(settings.sweep):
        env_kwargs = {**config.env.kwargs, **combination}
        setting = _setting_text(record.name, combination)
        try:
            game = build_game(config.env.id, env_kwargs)
        except (TypeError, ValueError) as error:
            key = "evaluation.sweep" if combination else "env.kwargs"
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
        make_opponent_policies(tournament.agents, tournament.build_game(), tournament.flat, agent_options)


# ------------------------------------------------------------------------------------------------------------------
# Playing
# ------------------------------------------------------------------------------------------------------------------


def play_game(env: OpponentEnv, seat_agents: Sequence[Agent], seed: int) -> tuple[list[float], list[float], int]:
    """One game with `seat_agents[s]` at seat s: (every seat's reward, every seat's score, decisions taken)."""
    observation, info = env.reset(seed=seed)
    for seat, agent in enumerate(seat_agents):
        agent.reset(seat_seed(seed, seat))
    length = 0
    while True:
        agent = seat_agents[info["seat"]]
        action = agent.act(observation, info["action_mask"], state=env.state)
        observation, _, terminated, truncated, info = env.step(action)
        length += 1
        if terminated or truncated:
            break
    assert env.state is not None
    scores = [float(score) for score in env.state.score()]
    return [float(reward) for reward in info["seat_rewards"]], scores, length


@dataclass(frozen=True)
class _Chunk:
    """Some deals of one line-up of one tournament, played by one worker with one agent instance per position."""

    tournament_index: int
    tournament: Tournament
    lineup_index: int
    deals: tuple[int, ...]
    base_seed: int
    agent_options: Mapping[str, Any]


def _play_chunk(chunk: _Chunk) -> Iterator[tuple[int, GameResult]]:
    """Worker entry point: build the game, the env and the line-up's agents once, play every rotation of each deal,
    yielding each game as it ends."""
    tournament = chunk.tournament
    game = tournament.build_game()
    lineup = tournament.lineups[chunk.lineup_index]
    agents = make_opponent_policies(lineup, game, tournament.flat, chunk.agent_options)  # one per position
    use_one_torch_thread()
    env = OpponentEnv(game, learner_seats="all", reward=REWARD_MODE, flat=tournament.flat)
    n = len(lineup)
    try:
        for deal in chunk.deals:
            seed = chunk.base_seed + deal
            for rotation in range(n):
                rewards, scores, length = play_game(env, rotation_seats(agents, rotation), seed)
                yield (
                    chunk.tournament_index,
                    GameResult(
                        chunk.lineup_index,
                        deal,
                        rotation,
                        lineup,
                        seed,
                        rotation_seats(lineup, rotation),
                        tuple(rewards),
                        tuple(scores),
                        tuple(ranks(scores)),
                        length,
                    ),
                )
    finally:
        env.close()


def games_planned(tournaments: Sequence[Tournament], deals: int) -> int:
    """How many games `deals` deals of every line-up of every tournament are (every rotation of each deal)."""
    return sum(deals * len(tournament.lineups) * tournament.num_players for tournament in tournaments)


def stream_tournaments(
    tournaments: Sequence[Tournament],
    deals: int,
    seed: int,
    workers: int = 1,
    agent_options: Mapping[str, Any] | None = None,
) -> Generator[tuple[int, GameResult], None, None]:
    """(tournament index, game) of every game as it ends (deal i seeded seed + i) on `workers` processes; stopping
    early (Ctrl-C, or closing the iterator) keeps what was yielded."""
    agent_options = dict(agent_options or {})
    size = chunk_size(deals, workers)
    chunks = [
        _Chunk(index, tournament, lineup_index, tuple(range(start, min(start + size, deals))), seed, agent_options)
        for index, tournament in enumerate(tournaments)
        for lineup_index in range(len(tournament.lineups))
        for start in range(0, deals, size)
    ]
    return stream_in_workers(_play_chunk, chunks, workers)


def tournament_results(
    tournaments: Sequence[Tournament],
    games: Sequence[Sequence[GameResult]],
    seed: int,
    bootstrap_samples: int = BOOTSTRAP_SAMPLES,
) -> list[TournamentResult]:
    """Each tournament's games (`games[i]` for `tournaments[i]`, in any order, any number) sorted, with its tables."""
    results = []
    for tournament, played in zip(tournaments, games, strict=True):
        ordered = sorted(played)
        tables = tournament_tables(ordered, tournament.cooperative, seed, bootstrap_samples)
        results.append(TournamentResult(tournament, ordered, tables))
    return results


def run_tournaments(
    tournaments: Sequence[Tournament],
    deals: int,
    seed: int,
    workers: int = 1,
    agent_options: Mapping[str, Any] | None = None,
    bootstrap_samples: int = BOOTSTRAP_SAMPLES,
) -> list[TournamentResult]:
    """Play `deals` deals of every line-up of every tournament (deal i seeded seed + i) on `workers` processes."""
    collected: list[list[GameResult]] = [[] for _ in tournaments]
    for index, game in stream_tournaments(tournaments, deals, seed, workers, agent_options):
        collected[index].append(game)
    return tournament_results(tournaments, collected, seed, bootstrap_samples)


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


def rating_table(games: Sequence[GameResult], seed: int, samples: int = BOOTSTRAP_SAMPLES) -> list[dict[str, Any]]:
    """Plackett-Luce ratings (Elo scale) of the agents from the games' finishing orders, best first, with seeded
    bootstrap 95% intervals; empty with fewer than two agents."""
    if len(distinct_agents(games)) < 2:
        return []
    results = [places_from_scores(game.seats, [-rank for rank in game.ranks]) for game in sorted(games)]
    return [
        {"agent": rating.agent, "rating": rating.rating, "ci95": [rating.low, rating.high], "games": rating.games}
        for rating in rate(results, seed=seed, samples=samples)
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


def tournament_tables(
    games: Sequence[GameResult], cooperative: bool, seed: int, samples: int = BOOTSTRAP_SAMPLES
) -> dict[str, Any]:
    """Every table of a tournament (see the module docstring); a `note` says why a table is absent."""
    if not games:
        return {"note": NO_GAMES_NOTE}
    seats = {"seats": seat_table(games, cooperative), "per_seat": per_seat_renderable(games, cooperative)}
    if cooperative:
        return {"note": COOPERATIVE_NOTE, "team": team_table(games), **seats}
    try:
        ratings = rating_table(games, seed, samples)
    except ImportError:
        ratings = []
    tables: dict[str, Any] = {"ratings": ratings, "pairwise": pairwise_table(games), **seats}
    if len(distinct_agents(games)) < 2:
        tables["note"] = SELF_PLAY_NOTE
    elif not ratings:
        tables["note"] = NO_RATINGS_NOTE
    return tables


def tournament_document(results: Sequence[TournamentResult], meta: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON document of a tournament run: metadata and, per tournament, its setting, tables and every game."""
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
                "games": [asdict(game) for game in result.games],
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
