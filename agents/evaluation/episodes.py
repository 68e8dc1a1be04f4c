"""Deterministic, parallel evaluation of agents on tabletop envs, with summary statistics and plots.

Episode i of an evaluation is played with seed `seed + i` for both the env (`reset(seed=...)`) and the agent
(`agent.reset(seed)`), so an episode's outcome depends only on (agent, env kwargs, seed + i): results are identical
whatever the number of worker processes, and are always reported in episode order.

An evaluation is a list of groups, one per agent and per combination of swept env kwargs. What a finished episode
reports besides won/score (its outcome facts) comes from the game's registration record.
"""

from __future__ import annotations

import itertools
import math
import multiprocessing
import os
import queue
import re
import signal
import sys
import textwrap
import threading
import time
from collections import Counter
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import gymnasium as gym

from agents.common.config import ConfigError, parse_yaml
from agents.common.run_dir import TENSORBOARD_DIR_NAME, run_dir_of_model
from agents.evaluation.environment import make_env
from agents.players.base import Agent, action_mask_of
from agents.players.registry import is_model_path, make_agent
from envs.adapters.driver import split_env_kwargs
from envs.adapters.gym_env import TabletopEnv
from envs.core.registration import UnknownGameError, game_record_of_env_id
from envs.core.replays import ReplayRecord, ReplayResult, plain_json, result_of

WILSON_Z_95 = 1.959963984540054
"""Standard normal quantile of a two-sided 95% interval."""
NO_VALUE = "(none)"
"""Distribution key of episodes whose outcome fact is empty or absent (a fact only some endings report)."""
CHUNKS_PER_WORKER = 2
"""Episodes are handed to workers in this many chunks per worker (balance vs. per-chunk agent loading)."""
RECORDING_FIELDS = ("events", "replay_result")
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


def sweep_combinations(sweep: Mapping[str, Sequence[Any]]) -> list[dict[str, Any]]:
    """Every combination of the swept values, the first key varying slowest; [{}] for an empty sweep."""
    keys = list(sweep)
    return [dict(zip(keys, values, strict=True)) for values in itertools.product(*(sweep[key] for key in keys))]


def build_groups(
    agents: Sequence[str], env_id: str, env_kwargs: Mapping[str, Any], sweep: Mapping[str, Sequence[Any]]
) -> list[EvaluationGroup]:
    """One group per agent and per combination of the sweep (agent-major), each with the env kwargs it sets."""
    return [
        EvaluationGroup(agent, env_id, {**env_kwargs, **combination}, combination)
        for agent in agents
        for combination in sweep_combinations(sweep)
    ]


def outcome_facts_of(env_id: str) -> tuple[str, ...]:
    """The outcome facts the game behind `env_id` reports (none for an env id no game record declares)."""
    try:
        return game_record_of_env_id(env_id).outcome_facts
    except UnknownGameError:
        return ()


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


def wilson_interval(successes: float, trials: int, z: float = WILSON_Z_95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion (95% by default); (0, 1) when there are no trials.

    `successes` may be fractional (a shared first place or a draw counted as a part of a success).
    """
    if trials == 0:
        return 0.0, 1.0
    proportion = successes / trials
    denominator = 1.0 + z * z / trials
    center = (proportion + z * z / (2 * trials)) / denominator
    half_width = z * math.sqrt(proportion * (1 - proportion) / trials + z * z / (4 * trials * trials)) / denominator
    # At 0 or `trials` successes the bound is exactly 0 or 1; the formula leaves rounding residue there.
    low = 0.0 if successes == 0 else max(0.0, center - half_width)
    high = 1.0 if successes == trials else min(1.0, center + half_width)
    return low, high


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


def _plain_value(value: Any) -> Any:
    """numpy scalars -> Python scalars, so that facts go into JSON as they are."""
    item = getattr(value, "item", None)
    return item() if callable(item) and getattr(value, "shape", None) == () else value


def _plain_number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def play_episode(
    env: gym.Env, agent: Agent, episode: int, seed: int, record: bool = False, facts: Sequence[str] = ()
) -> EpisodeResult:
    """Play one episode (env.reset(seed=seed), agent.reset(seed), masks applied), keeping `facts` of the final info.

    With `record`, the episode also keeps the env's history and rules-core result, for its replay record.
    """
    observation, info = env.reset(seed=seed)
    agent.reset(seed)
    length = 0
    episode_return = 0.0
    while True:
        mask = action_mask_of(env, observation)
        action = agent.act(observation, mask, state=getattr(env.unwrapped, "state", None))
        length += 1
        observation, reward, terminated, truncated, info = env.step(action)
        episode_return += float(reward)
        if terminated or truncated:
            break
    result = EpisodeResult(
        episode=episode,
        seed=seed,
        won=bool(info.get("won", False)),
        score=float(info.get("score", math.nan)),
        facts={fact: _plain_value(info.get(fact)) for fact in facts},
        length=length,
        episode_return=episode_return,
    )
    if record:
        played = env.unwrapped
        if not isinstance(played, TabletopEnv) or played.state is None:
            raise TypeError(f"recording needs a tabletop env, got {played!r}")
        result.events = list(played.history)
        result.replay_result = result_of(played.state)
    return result


def use_one_torch_thread() -> None:
    """One intra-op torch thread once torch is loaded: identical floating-point results whatever the worker count
    (and faster)."""
    torch = sys.modules.get("torch")  # None where an import of torch is blocked
    if torch is not None:
        torch.set_num_threads(1)


def chunk_size(episodes: int, workers: int) -> int:
    """Episodes per chunk: all of them in one process (an agent is built once per chunk), else enough chunks to
    balance the load (CHUNKS_PER_WORKER per worker)."""
    return episodes if workers == 1 else max(1, math.ceil(episodes / (workers * CHUNKS_PER_WORKER)))


ChunkT = TypeVar("ChunkT")
ItemT = TypeVar("ItemT")
WORKER_POLL_SECONDS = 0.1
"""How often the parent checks its workers while it waits for their next result."""
_worker_items: Any = None
"""In a worker process: the queue its results go to (set by `_start_worker`)."""


PARENT_POLL_SECONDS = 1.0
"""How often a worker checks that the process that started it is still alive."""


def _exit_when_orphaned(parent: int) -> None:
    """Worker watchdog: end this worker at once when `parent` is gone (killed by SIGTERM or SIGKILL, it could not
    stop its workers, which would otherwise go on playing for nobody)."""
    while True:
        time.sleep(PARENT_POLL_SECONDS)
        try:
            os.kill(parent, 0)
        except ProcessLookupError:
            os._exit(1)
        except PermissionError:  # another user's process took the number: the parent is gone
            os._exit(1)


def _start_worker(items: Any, parent: int | None = None) -> None:
    """Worker initializer: keep the results queue; ignore Ctrl-C, which the parent handles by stopping the workers;
    watch the parent process `parent` and exit when it is gone."""
    global _worker_items
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker_items = items
    if parent is not None:
        threading.Thread(target=_exit_when_orphaned, args=(parent,), daemon=True, name="parent-watchdog").start()


def _stream_chunk(task: tuple[Callable[[Any], Iterator[Any]], Any]) -> int:
    """Worker side of `stream_in_workers`: each item of `play(chunk)` to the parent as it is made; their count."""
    play, chunk = task
    count = 0
    for item in play(chunk):
        _worker_items.put(item)
        count += 1
    return count


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Terminate the pool's worker processes now (an interrupt or a failed chunk: nothing more is wanted)."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14+
    if terminate is not None:
        terminate()
    else:
        for process in list(pool._processes.values()):  # before 3.14 the pool has no public way
            process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)


def stream_in_workers(
    play: Callable[[ChunkT], Iterator[ItemT]], chunks: Sequence[ChunkT], workers: int
) -> Generator[ItemT, None, None]:
    """Every item of `play(chunk)` for every chunk, as each is made: here in chunk order (one worker), or from
    `workers` processes in the order they finish. Closing the iterator early (Ctrl-C) terminates the workers."""
    if workers == 1:
        for chunk in chunks:
            yield from play(chunk)
        return
    # forkserver/spawn, not fork: the parent may hold torch threads, which fork does not copy safely.
    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    items = context.Queue()
    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_start_worker, initargs=(items, os.getpid())
    )
    finished = False
    try:
        futures = [pool.submit(_stream_chunk, (play, chunk)) for chunk in chunks]
        received = 0
        while True:
            try:
                item = items.get(timeout=WORKER_POLL_SECONDS)
            except queue.Empty:
                for future in futures:
                    if future.done() and future.exception() is not None:
                        future.result()  # a worker's error, raised here
                if all(future.done() for future in futures) and received >= sum(f.result() for f in futures):
                    break
                continue
            received += 1
            yield item
        finished = True
    finally:
        if finished:
            pool.shutdown(wait=True)
        else:
            _stop_workers(pool)
        items.close()


@dataclass(frozen=True)
class _Chunk:
    """A slice of one group's episodes, played by one worker with one agent instance."""

    group_index: int
    group: EvaluationGroup
    episodes: tuple[int, ...]
    base_seed: int
    agent_options: Mapping[str, Any]
    record: bool
    facts: tuple[str, ...]


def _play_chunk(chunk: _Chunk) -> Iterator[tuple[int, EpisodeResult]]:
    """Worker entry point: build the env and the agent once, then play the chunk's episodes, yielding each one."""
    env = make_env(chunk.group.env_id, chunk.group.env_kwargs)
    try:
        agent = make_agent(chunk.group.agent, env, chunk.agent_options)
        use_one_torch_thread()
        for episode in chunk.episodes:
            result = play_episode(env, agent, episode, chunk.base_seed + episode, chunk.record, chunk.facts)
            yield chunk.group_index, result
    finally:
        env.close()


def stream_evaluation(
    groups: Sequence[EvaluationGroup],
    episodes: int,
    seed: int,
    workers: int = 1,
    agent_options: Mapping[str, Any] | None = None,
    record: bool = False,
) -> Generator[tuple[int, EpisodeResult], None, None]:
    """(group index, episode result) of every episode of every group as it finishes (episode i with seed seed + i),
    on `workers` processes; stopping early (Ctrl-C, or closing the iterator) keeps what was yielded."""
    agent_options = dict(agent_options or {})
    size = chunk_size(episodes, workers)
    chunks = [
        _Chunk(
            index,
            group,
            tuple(range(start, min(start + size, episodes))),
            seed,
            agent_options,
            record,
            outcome_facts_of(group.env_id),
        )
        for index, group in enumerate(groups)
        for start in range(0, episodes, size)
    ]
    return stream_in_workers(_play_chunk, chunks, workers)


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
) -> list[GroupResult]:
    """Play `episodes` episodes of every group (episode i with seed seed + i) on `workers` processes."""
    collected: list[list[EpisodeResult]] = [[] for _ in groups]
    for group_index, result in stream_evaluation(groups, episodes, seed, workers, agent_options, record):
        collected[group_index].append(result)
    return group_results(groups, collected)


def check_agents(specs: Sequence[str], env_id: str, env_kwargs: dict[str, Any], agent_options: Mapping) -> None:
    """Build each agent once against the env so a bad spec fails before any worker starts."""
    env = make_env(env_id, env_kwargs)
    try:
        for spec in specs:
            make_agent(spec, env, agent_options)
    finally:
        env.close()


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


def slug(text: str) -> str:
    """A file-name-safe version of an agent spec or label."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_") or "agent"


def recording_document(group: EvaluationGroup, episode: EpisodeResult) -> dict[str, Any]:
    """The JSON document of an episode's rules-core replay record (envs/core/replays.py; `python -m envs.replay`)."""
    if episode.events is None:
        raise ValueError(f"episode {episode.episode} was not recorded (run_evaluation(..., record=True))")
    _, game_kwargs = split_env_kwargs(group.env_kwargs)
    record = ReplayRecord(
        env_id=group.env_id,
        game=game_record_of_env_id(group.env_id).name,
        game_kwargs=plain_json(game_kwargs),
        seed=episode.seed,
        players=[group.agent],
        events=episode.events,
        result=episode.replay_result,
    )
    return record.model_dump(mode="json")


def agent_label(spec: str) -> str:
    """Short display name of an agent spec: a model path shows as its run directory's or file's name."""
    if not is_model_path(spec):
        return spec
    path = Path(spec)
    if path.is_dir():
        return path.name
    run_dir = run_dir_of_model(path)
    return f"{run_dir.name}/{path.stem}" if run_dir is not None else path.name


def sweep_label(sweep: Mapping[str, Any]) -> str:
    """The swept kwargs of a group as `key=value, key=value` ("" when not sweeping)."""
    return ", ".join(f"{key}={value}" for key, value in sweep.items())


def group_label(group: EvaluationGroup) -> str:
    """Short label of a group for plots: the agent, and its swept kwargs in parentheses."""
    name = agent_label(group.agent)
    return f"{name} ({sweep_label(group.sweep)})" if group.sweep else name


def group_folder(group: EvaluationGroup) -> Path:
    """Relative folder of a group's files (recordings): the agent, then one level naming the swept kwargs."""
    folder = Path(slug(group.agent))
    if group.sweep:
        folder = folder / slug("__".join(f"{key}-{value}" for key, value in group.sweep.items()))
    return folder


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
