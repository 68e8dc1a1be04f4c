"""Solo evaluation as a tournament of one seat (agents/evaluation/episodes.py over agents/evaluation/tournament.py):
the episodes are those a hand-written loop over the env plays under the documented seeds, the summary evaluate.py
prints is that of those episodes, and tournaments keep what solo evaluation kept (returns, outcome facts, replay
records, the env's reward mode)."""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import evaluate
from agents.common.config import OpponentConfig, OpponentsConfig
from agents.evaluation.environment import make_env
from agents.evaluation.episodes import EvaluationGroup, run_evaluation
from agents.evaluation.tournament import (
    ONE_SEAT_NOTE,
    Tournament,
    one_seat_tournament,
    recording_document,
    run_tournaments,
    seat_seed,
)
from agents.players.base import action_mask_of
from agents.players.registry import make_agent
from envs import replay
from envs.core.replays import ReplayRecord
from envs.core.replays import replay as replay_record
from tests.training.training_support import REPO_ROOT

UNBROKEN = "tabletop/Unbroken-v0"
UNBROKEN_KWARGS = {"difficulty": "normal", "preset": "english", "character": "random"}
UNEARTH_GYM = "tabletop/Unearth-v0"
UNEARTH_PETTINGZOO = "tabletop/unearth_v0"
CARD_DUEL = "envs.toys:tabletop/card_duel_v0"
UNBROKEN_FACTS = ("title", "level", "end_reason")


def hand_run_episodes(
    spec: str,
    env_id: str,
    env_kwargs: dict[str, Any],
    seeds: range,
    opponents: OpponentsConfig | None = None,
    facts: tuple[str, ...] = UNBROKEN_FACTS,
) -> list[dict[str, Any]]:
    """Each episode as a plain loop over the env plays it: env seeded with the episode's seed, the agent with the
    seat seed of seat 0, every decision by the agent until the episode ends; what the final info says."""
    env = make_env(env_id, env_kwargs, opponents=opponents)
    table: Any = env.unwrapped  # the tabletop env under Gymnasium's wrappers: its live state and history
    agent = make_agent(spec, env)
    episodes = []
    for seed in seeds:
        observation, info = env.reset(seed=seed)
        agent.reset(seat_seed(seed, 0))
        length, episode_return, done = 0, 0.0, False
        while not done:
            action = agent.act(observation, action_mask_of(env, observation), state=table.state)
            observation, reward, terminated, truncated, info = env.step(action)
            length += 1
            episode_return += float(reward)
            done = terminated or truncated
        episodes.append(
            {
                "seed": seed,
                "won": bool(info["won"]),
                "score": float(info["score"]),
                "length": length,
                "episode_return": episode_return,
                "facts": {fact: info.get(fact) for fact in facts},
                "events": list(table.history),
            }
        )
    env.close()
    return episodes


def played(result_episodes: list[Any]) -> list[dict[str, Any]]:
    """The fields of EpisodeResults a hand-run loop also gives."""
    keys = ("seed", "won", "score", "length", "episode_return", "facts", "events")
    return [{key: getattr(episode, key) for key in keys} for episode in result_episodes]


@pytest.mark.parametrize("spec", ["heuristic", "random"])
def test_a_one_seat_evaluation_plays_the_episodes_of_a_hand_run_loop(spec: str) -> None:
    """The deterministic heuristic, and the seeded random agent under the seat-seed rule, play the same episodes
    (every decision and chance outcome) as a loop written out by hand over the env."""
    group = EvaluationGroup(spec, UNBROKEN, UNBROKEN_KWARGS)
    (result,) = run_evaluation([group], episodes=4, seed=30, record=True)
    assert played(result.episodes) == hand_run_episodes(spec, UNBROKEN, UNBROKEN_KWARGS, range(30, 34))
    assert [episode.episode for episode in result.episodes] == [0, 1, 2, 3]


def test_a_multi_player_gymnasium_id_is_played_at_the_learners_seat_against_its_opponents() -> None:
    """At one seat of a multi-player Gymnasium id, the agent takes the learner's decisions and the opponents given
    play the other seats; the replay record names both, and replays to the recorded result."""
    opponents = OpponentsConfig(pool=[OpponentConfig(agent="random")], learner_seats=1)
    group = EvaluationGroup("heuristic", UNEARTH_GYM, {"num_players": 2})
    (result,) = run_evaluation([group], episodes=2, seed=8, record=True, opponents=opponents)
    expected = hand_run_episodes("heuristic", UNEARTH_GYM, {"num_players": 2}, range(8, 10), opponents, ("place",))
    assert played(result.episodes) == expected
    for episode in result.episodes:
        assert episode.players == ("random", "heuristic")
        assert episode.facts["place"] in (1, 2) and episode.won == (episode.facts["place"] == 1)
        record = ReplayRecord.model_validate_json(json.dumps(recording_document_of(group, episode)))
        assert record.players == ["random", "heuristic"] and record.game_kwargs == {"num_players": 2}
        replay_record(record)  # ReplayError if an event or the result differs


def recording_document_of(group: EvaluationGroup, episode: Any) -> dict[str, Any]:
    """The replay record evaluate.py --record writes for an episode of a group."""
    from agents.evaluation.episodes import recording_document

    return recording_document(group, episode)


def test_evaluate_prints_the_summary_of_the_hand_run_episodes(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """The row evaluate.py prints per agent holds the win rate, mean score and spread, mean length and top titles of
    exactly the episodes a hand-run loop plays; results.json holds those episodes."""
    out = tmp_path / "out"
    arguments = ["--agent", "heuristic", "--agent", "random", "--episodes", "6", "--seed", "12", "--no-progress"]
    assert evaluate.main([*arguments, "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"evaluating heuristic, random on {UNBROKEN}: 6 episodes per group, seeds 12..17" in printed
    rows = {
        cells[0]: cells
        for line in printed.splitlines()
        if (cells := [cell.strip() for cell in line.strip("│").split("│")])[0] in ("heuristic", "random")
    }
    document = json.loads((out / "results.json").read_text())
    for spec, group in zip(("heuristic", "random"), document["results"], strict=True):
        episodes = hand_run_episodes(spec, UNBROKEN, UNBROKEN_KWARGS, range(12, 18))
        assert [{key: e[key] for key in ("seed", "won", "score", "length")} for e in group["episodes"]] == [
            {key: e[key] for key in ("seed", "won", "score", "length")} for e in episodes
        ]
        scores = [episode["score"] for episode in episodes]
        mean = sum(scores) / len(scores)
        spread = math.sqrt(sum((score - mean) ** 2 for score in scores) / len(scores))
        titles = Counter(episode["facts"]["title"] or "(none)" for episode in episodes)
        top = sorted(titles.items(), key=lambda item: (-item[1], item[0]))[:3]
        agent, count, win_rate, _interval, score, length, top_titles = rows[spec]
        assert (agent, count) == (spec, "6")
        assert win_rate == f"{sum(episode['won'] for episode in episodes) / 6:.1%}"
        assert score == f"{mean:.2f} ± {spread:.2f}"
        assert length == f"{sum(episode['length'] for episode in episodes) / 6:.1f}"
        assert top_titles == ", ".join(f"{title} {count}" for title, count in top)


def card_duel(env_kwargs: dict[str, Any]) -> Tournament:
    """A two-seat Card Duel tournament of the heuristic against random with these env kwargs."""
    lineups = (("heuristic", "random"),)
    return Tournament(CARD_DUEL, {"num_players": 2, **env_kwargs}, {}, "card_duel", 2, False, lineups)


def test_a_tournament_plays_in_the_envs_reward_mode_and_keeps_win_mode_results() -> None:
    """The env kwargs reach the table: under `reward: score` each seat's return is its score, while the win-mode
    rewards, and so every table, are those of the default mode."""
    (scored,) = run_tournaments([card_duel({"reward": "score"})], deals=4, seed=2)
    (plain,) = run_tournaments([card_duel({})], deals=4, seed=2)
    assert scored.games == plain.games and scored.tables == plain.tables
    for game, default in zip(scored.games, plain.games, strict=True):
        assert game.returns == game.scores and default.returns == default.rewards
        top = max(game.scores)
        assert game.won == tuple(score == top and game.scores.count(top) == 1 for score in game.scores)


def test_a_tournament_keeps_each_seats_outcome_facts() -> None:
    """Unearth's `place` for every seat of every game: the seat's rank by score."""
    tournament = Tournament(UNEARTH_PETTINGZOO, {"num_players": 2}, {}, "unearth", 2, False, (("heuristic", "random"),))
    (result,) = run_tournaments([tournament], deals=1, seed=5)
    assert len(result.games) == 2
    for game in result.games:
        assert [facts["place"] for facts in game.facts] == list(game.ranks)
        assert game.won == tuple(rank == 1 for rank in game.ranks)


def test_evaluate_record_writes_a_replay_record_per_tournament_game(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    """evaluate.py --record on a multi-player game: one replay record per game (line-up, deal, rotation), naming who
    sat where, each replayed by envs.replay to the result results.json holds."""
    out = tmp_path / "out"
    config = REPO_ROOT / "configs" / "card_duel" / "eval.yaml"
    arguments = ["--config", str(config), "--agent", "heuristic", "--agent", "random", "--episodes", "2", "--record"]
    assert evaluate.main([*arguments, "--out", str(out), "--no-progress", "env.kwargs.num_players=2"]) == 0
    assert f"recordings: {out / 'recordings'}" in capsys.readouterr().out
    (tournament,) = json.loads((out / "results.json").read_text())["tournaments"]
    paths = sorted((out / "recordings").rglob("*.json"))
    assert [path.relative_to(out / "recordings").as_posix() for path in paths] == [
        f"lineup0__heuristic__random/deal_{deal:05d}_rotation_{rotation}.json" for deal in (0, 1) for rotation in (0, 1)
    ]
    for path, game in zip(paths, tournament["games"], strict=True):
        record = json.loads(path.read_text())
        assert record["players"] == game["seats"] and record["seed"] == game["seed"]
        assert record["result"]["scores"] == game["scores"] and record["result"]["returns"] == game["rewards"]
        assert "recordings" not in game and "events" not in game
        assert replay.main([str(path), "--render", "none"]) == 0
        assert "the replay matches the record" in capsys.readouterr().out


def test_a_one_seat_tournament_is_summarised_per_line_up_not_rated() -> None:
    """run_tournaments on a one-seat tournament: one game per deal and agent, no rotation, no ratings."""
    tournament = one_seat_tournament(["heuristic", "random"], UNBROKEN, UNBROKEN_KWARGS)
    assert (tournament.one_seat, tournament.num_players, tournament.rotations) == (True, 1, 1)
    (result,) = run_tournaments([tournament], deals=2, seed=0)
    assert [(game.lineup, game.deal, game.rotation) for game in result.games] == [
        (("heuristic",), 0, 0),
        (("heuristic",), 1, 0),
        (("random",), 0, 0),
        (("random",), 1, 0),
    ]
    assert result.tables == {"note": ONE_SEAT_NOTE}
    assert [game.players for game in result.games] == [("heuristic",)] * 2 + [("random",)] * 2
    with pytest.raises(ValueError, match="seed 0 was not recorded"):
        recording_document(tournament, result.games[0])
