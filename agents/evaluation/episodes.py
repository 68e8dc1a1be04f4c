"""Solo evaluation: each agent at one seat, on every swept env setting, with summary statistics and plots.

An evaluation is a list of groups, one per agent and per combination of swept env kwargs, and each group is played
as a tournament of one seat (`agents.evaluation.tournament.one_seat_tournament`): the same game loop, workers and
seeds as every tournament. Episode i of a group is deal i: the env is reset with seed `seed + i` and the agent with
`seat_seed(seed + i, 0)` (the seat seed of the table's one seat), so an episode's outcome depends only on (agent,
env kwargs, seed + i): results are identical whatever the number of worker processes, and are always reported in
episode order. The agent takes every decision the env `make_env` builds asks for: a solo game's, or the learner's
seats of a multi-player Gymnasium id against the `opponents` given.

What a finished episode reports besides won/score (its outcome facts) comes from the game's registration record.
"""

from __future__ import annotations

import math
import textwrap
from collections import Counter
from collections.abc import Generator, Mapping, Sequence
from contextlib import closing
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import gymnasium as gym

from agents.common.config import ConfigError, OpponentsConfig, parse_yaml
from agents.common.run_dir import TENSORBOARD_DIR_NAME
from agents.evaluation.ratings import wilson_interval
from agents.evaluation.tournament import (
    GameResult,
    Tournament,
    agent_label,
    check_tournament_agents,
    one_seat_tournament,
    outcome_facts_of,
    play_game,
    replay_document,
    slug,
    stream_tournaments,
    sweep_combinations,
    sweep_folder,
)
from agents.players.base import Agent
from envs.core.registration import UnknownGameError, game_record_of_env_id
from envs.core.replays import ReplayResult

NO_VALUE = "(none)"
"""Distribution key of episodes whose outcome fact is empty or absent (a fact only some endings report)."""
RECORDING_FIELDS = ("events", "replay_result", "players")
"""EpisodeResult fields kept for replay records only (results.json leaves them out)."""


@dataclass
class EpisodeResult:
    """The outcome of one evaluation episode: won, score, the game's outcome facts (events only when recording)."""

    episode: int
    seed: int
    won: bool
    score: float
    facts: dict[str, Any]
    length: int
    episode_return: float
    events: list[tuple[int, int]] | None = None
    """Every decision and chance outcome, as the env's `history` (only when recording)."""
    replay_result: ReplayResult | None = None
    """The rules-core result a replay record checks (only when recording)."""
    players: tuple[str, ...] = ()
    """Who played each seat of the game (empty: the group's agent alone), for replay records."""


@dataclass(frozen=True)
class EvaluationGroup:
    """One agent on one env setting (one row of the results table); `sweep` holds the swept kwargs of the group."""

    agent: str
    env_id: str
    env_kwargs: dict[str, Any]
    sweep: dict[str, Any] = field(default_factory=dict)


def parse_sweep_flag(flag: str) -> tuple[str, list[Any]]:
    """`KEY=V1,V2` (a command-line sweep) -> (KEY, [V1, V2]), each value read as a YAML scalar."""
    key, separator, values = flag.partition("=")
    source = f"--sweep {flag}"
    if not separator or not key.strip() or not values.strip():
        raise ConfigError(source, "", "expected KEY=V1,V2 (an env keyword argument and its values)")
    return key.strip(), [parse_yaml(value.strip(), source) for value in values.split(",")]


def build_groups(
    agents: Sequence[str], env_id: str, env_kwargs: Mapping[str, Any], sweep: Mapping[str, Sequence[Any]]
) -> list[EvaluationGroup]:
    """One group per agent and per combination of the sweep (agent-major), each with the env kwargs it sets."""
    return [
        EvaluationGroup(agent, env_id, {**env_kwargs, **combination}, combination)
        for agent in agents
        for combination in sweep_combinations(sweep)
    ]


def headline_fact_of(env_id: str) -> str | None:
    """The categorical outcome fact results tables show for the game behind `env_id`, if it names one."""
    try:
        return game_record_of_env_id(env_id).headline_fact
    except UnknownGameError:
        return None


@dataclass
class GroupResult:
    """Every episode of a group and its summary statistics."""

    group: EvaluationGroup
    episodes: list[EpisodeResult]
    summary: dict[str, Any] = field(default_factory=dict)


def summarize(episodes: Sequence[EpisodeResult], facts: Sequence[str] = ()) -> dict[str, Any]:
    """Win rate (95% Wilson interval), score distribution, a `<fact>_distribution` per fact, means of the rest."""
    count = len(episodes)
    wins = sum(episode.won for episode in episodes)
    low, high = wilson_interval(wins, count)
    scores = [episode.score for episode in episodes]
    mean_score = sum(scores) / count if count else math.nan
    score_std = math.sqrt(sum((s - mean_score) ** 2 for s in scores) / count) if count else math.nan
    score_counts = Counter(_plain_number(score) for score in scores)
    summary: dict[str, Any] = {
        "episodes": count,
        "wins": wins,
        "win_rate": wins / count if count else math.nan,
        "win_rate_ci95": [low, high],
        "mean_score": mean_score,
        "score_std": score_std,
        "score_distribution": {str(score): score_counts[score] for score in sorted(score_counts)},
    }
    for fact in facts:
        counts = Counter(_distribution_key(episode.facts.get(fact)) for episode in episodes)
        summary[f"{fact}_distribution"] = dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))
    summary["mean_length"] = sum(episode.length for episode in episodes) / count if count else math.nan
    summary["mean_return"] = sum(episode.episode_return for episode in episodes) / count if count else math.nan
    return summary


def _distribution_key(value: Any) -> str:
    """A fact's value as a distribution key: its text, or NO_VALUE when empty or absent."""
    if value is None or value == "":
        return NO_VALUE
    return str(value)


def _plain_number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


# ------------------------------------------------------------------------------------------------------------------
# Playing: groups as one-seat tournaments
# ------------------------------------------------------------------------------------------------------------------


def play_episode(
    env: gym.Env, agent: Agent, episode: int, seed: int, record: bool = False, facts: Sequence[str] = ()
) -> EpisodeResult:
    """Play one episode in `env` at its one seat (`agents.evaluation.tournament.play_game`: env.reset(seed=seed),
    agent.reset(seat_seed(seed, 0)), masks applied), keeping `facts` of the final info.

    With `record`, the episode also keeps the env's history and rules-core result, for its replay record.
    """
    played = play_game(env, [agent], seed, record, facts)
    return EpisodeResult(
        episode=episode,
        seed=seed,
        won=played.won[0],
        score=played.scores[0],
        facts=played.facts[0],
        length=played.length,
        episode_return=played.returns[0],
        events=played.events,
        replay_result=played.replay_result,
    )


def episode_of(game: GameResult) -> EpisodeResult:
    """A game of a one-seat tournament as the episode of its agent (deal i is episode i)."""
    return EpisodeResult(
        episode=game.deal,
        seed=game.seed,
        won=game.won[0],
        score=game.scores[0],
        facts=game.facts[0],
        length=game.length,
        episode_return=game.returns[0],
        events=None if game.events is None else list(game.events),
        replay_result=game.replay_result,
        players=game.players,
    )


def group_tournament(group: EvaluationGroup, opponents: OpponentsConfig | None = None) -> Tournament:
    """The one-seat tournament a group is played as: its agent, alone, on its env setting."""
    return one_seat_tournament([group.agent], group.env_id, group.env_kwargs, group.sweep, opponents)


def stream_evaluation(
    groups: Sequence[EvaluationGroup],
    episodes: int,
    seed: int,
    workers: int = 1,
    agent_options: Mapping[str, Any] | None = None,
    record: bool = False,
    opponents: OpponentsConfig | None = None,
) -> Generator[tuple[int, EpisodeResult], None, None]:
    """(group index, episode result) of every episode of every group as it finishes (episode i is deal i, seeded
    seed + i), on `workers` processes, in group then episode order with one worker; stopping early (Ctrl-C, or
    closing the iterator) keeps what was yielded. `opponents` play the other seats of a multi-player game."""
    tournaments = [group_tournament(group, opponents) for group in groups]
    games = stream_tournaments(tournaments, episodes, seed, workers, agent_options, record)

    def episodes_of_games() -> Generator[tuple[int, EpisodeResult], None, None]:
        with closing(games):  # closing this stream closes the games' stream, which stops its worker processes
            for index, game in games:
                yield index, episode_of(game)

    return episodes_of_games()


def group_results(groups: Sequence[EvaluationGroup], episodes: Sequence[Sequence[EpisodeResult]]) -> list[GroupResult]:
    """Each group's episodes (`episodes[i]` for `groups[i]`, in any order, any number) sorted, with their summary."""
    results = []
    for group, played in zip(groups, episodes, strict=True):
        ordered = sorted(played, key=lambda result: result.episode)
        results.append(GroupResult(group, ordered, summarize(ordered, outcome_facts_of(group.env_id))))
    return results


def run_evaluation(
    groups: Sequence[EvaluationGroup],
    episodes: int,
    seed: int,
    workers: int = 1,
    agent_options: Mapping[str, Any] | None = None,
    record: bool = False,
    opponents: OpponentsConfig | None = None,
) -> list[GroupResult]:
    """Play `episodes` episodes of every group (episode i with seed seed + i) on `workers` processes."""
    collected: list[list[EpisodeResult]] = [[] for _ in groups]
    for group_index, result in stream_evaluation(groups, episodes, seed, workers, agent_options, record, opponents):
        collected[group_index].append(result)
    return group_results(groups, collected)


def check_agents(specs: Sequence[str], env_id: str, env_kwargs: dict[str, Any], agent_options: Mapping) -> None:
    """Build each agent once against the env so a bad spec fails before any worker starts."""
    check_tournament_agents([one_seat_tournament(specs, env_id, env_kwargs)], agent_options)


# ------------------------------------------------------------------------------------------------------------------
# Results, replay records and labels
# ------------------------------------------------------------------------------------------------------------------


def results_document(results: Sequence[GroupResult], meta: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON document of an evaluation: metadata and, per group, the summary and every episode."""
    return {
        "meta": dict(meta),
        "results": [
            {
                "agent": result.group.agent,
                "sweep": result.group.sweep,
                "env_id": result.group.env_id,
                "env_kwargs": result.group.env_kwargs,
                "summary": result.summary,
                "episodes": [
                    {key: value for key, value in asdict(episode).items() if key not in RECORDING_FIELDS}
                    for episode in result.episodes
                ],
            }
            for result in results
        ],
    }


def recording_document(group: EvaluationGroup, episode: EpisodeResult) -> dict[str, Any]:
    """The JSON document of an episode's rules-core replay record (envs/core/replays.py; `python -m envs.replay`)."""
    if episode.events is None:
        raise ValueError(f"episode {episode.episode} was not recorded (run_evaluation(..., record=True))")
    players = episode.players or (group.agent,)
    return replay_document(group.env_id, group.env_kwargs, episode.seed, players, episode.events, episode.replay_result)


def sweep_label(sweep: Mapping[str, Any]) -> str:
    """The swept kwargs of a group as `key=value, key=value` ("" when not sweeping)."""
    return ", ".join(f"{key}={value}" for key, value in sweep.items())


def group_label(group: EvaluationGroup) -> str:
    """Short label of a group for plots: the agent, and its swept kwargs in parentheses."""
    name = agent_label(group.agent)
    return f"{name} ({sweep_label(group.sweep)})" if group.sweep else name


def group_folder(group: EvaluationGroup) -> Path:
    """Relative folder of a group's files (recordings): the agent, then one level naming the swept kwargs."""
    return Path(slug(group.agent)) / sweep_folder(group.sweep)


def plot_score_histograms(results: Sequence[GroupResult], path: Path) -> None:
    """One score histogram per group (agent and swept kwargs) in a single PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    count = len(results)
    columns = min(count, 3)
    rows = math.ceil(count / columns)
    figure, axes = plt.subplots(rows, columns, figsize=(4.5 * columns, 3.2 * rows), squeeze=False)
    finite = [e.score for r in results for e in r.episodes if math.isfinite(e.score)]
    low, high = (min(finite), max(finite)) if finite else (0.0, 1.0)
    bins = _integer_bins(low, high)
    for axis, result in zip(axes.flat, results, strict=False):
        scores = [e.score for e in result.episodes if math.isfinite(e.score)]
        axis.hist(scores, bins=bins, color="tab:blue", edgecolor="white")
        summary = result.summary
        label = "\n".join(textwrap.wrap(group_label(result.group), TITLE_WIDTH, break_on_hyphens=False))
        axis.set_title(f"{label}\nwin {summary['win_rate']:.1%}, mean {summary['mean_score']:.2f}", fontsize="small")
        axis.set_xlabel("score")
        axis.set_ylabel("episodes")
    for axis in list(axes.flat)[count:]:
        axis.set_visible(False)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def _integer_bins(low: float, high: float) -> Any:
    import numpy as np

    if high - low <= 60 and float(low).is_integer() and float(high).is_integer():
        return np.arange(low - 0.5, high + 1.5, 1.0)
    return 30


TITLE_WIDTH = 40
"""Characters per line of a histogram's title (long run-directory names wrap instead of overlapping)."""
TRAINING_WIN_RATE_TAGS = {"eval/success_rate": "evaluation (greedy)", "episode/win_rate": "training rollouts"}
"""TensorBoard tags of a train.py run that measure the win rate, with their plot labels."""


def training_win_rates(run_dir: Path) -> dict[str, list[tuple[int, float]]]:
    """(step, win rate) series from a run directory's TensorBoard event files, per tag that is present."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    series: dict[str, list[tuple[int, float]]] = {}
    folder = run_dir / TENSORBOARD_DIR_NAME
    if not folder.is_dir():
        return series
    accumulator = EventAccumulator(str(folder), size_guidance={"scalars": 0})
    accumulator.Reload()
    available = set(accumulator.Tags().get("scalars", []))
    for tag in TRAINING_WIN_RATE_TAGS:
        if tag in available:
            points = {event.step: event.value for event in accumulator.Scalars(tag)}
            series[tag] = sorted(points.items())
    return series


def plot_training_win_rates(runs: Mapping[str, dict[str, list[tuple[int, float]]]], path: Path) -> bool:
    """Win rate over training for each run directory agent; False (and no file) when there is nothing to plot."""
    if not any(runs.values()):
        return False
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(7, 4))
    for run_name, series in runs.items():
        for tag, points in series.items():
            steps, values = zip(*points, strict=True)
            axis.plot(
                steps,
                values,
                marker="o" if len(points) < 30 else None,
                label=f"{run_name}: {TRAINING_WIN_RATE_TAGS[tag]}",
            )
    axis.set_xlabel("environment steps")
    axis.set_ylabel("win rate")
    axis.set_ylim(-0.02, 1.02)
    axis.legend(fontsize="small")
    axis.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return True
