"""Tournaments (agents/evaluation/tournament.py) and evaluate.py on multi-player games: line-ups, seat rotation on
the same deals, the tables on games of known outcome, and whole runs on the toy Card Duel."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml

import evaluate
from agents.common.config import ConfigError, EvalConfig, validate_config
from agents.evaluation.tournament import (
    COOPERATIVE_NOTE,
    NO_GAMES_NOTE,
    GameResult,
    default_lineups,
    plan_tournaments,
    rotation_seats,
    run_tournaments,
    tournament_tables,
)
from envs.core.outcomes import ranks
from tests.training.training_support import REPO_ROOT, interrupt_after, write_yaml

TOY_CONFIG = REPO_ROOT / "configs" / "card_duel" / "eval.yaml"
COOP_ENV_ID = "envs.toys:tabletop/card_duel_coop_v0"


def toy_config(tmp_path: Path, num_players: int, env_id: str | None = None, **evaluation: Any) -> Path:
    """The shipped Card Duel eval config at `num_players` seats (another toy's env id, other evaluation settings)."""
    config = yaml.safe_load(TOY_CONFIG.read_text())
    config["env"]["kwargs"]["num_players"] = num_players
    if env_id is not None:
        config["env"]["id"] = env_id
    config["evaluation"].update(evaluation)
    return write_yaml(tmp_path / f"eval_{num_players}.yaml", config)


def eval_config(num_players: int, env_id: str | None = None, **evaluation: Any) -> EvalConfig:
    """An EvalConfig of Card Duel (or another toy's env id) at `num_players` seats."""
    data = yaml.safe_load(TOY_CONFIG.read_text())
    data["env"]["kwargs"]["num_players"] = num_players
    if env_id is not None:
        data["env"]["id"] = env_id
    data["evaluation"].update(evaluation)
    return validate_config(EvalConfig, data, "pretend.yaml")


def run_main(config: Path, out: Path, *arguments: str) -> dict[str, Any]:
    """evaluate.main on `config` writing to `out`; asserts exit 0 and returns results.json."""
    assert evaluate.main(["--config", str(config), "--out", str(out), *arguments]) == 0
    document: dict[str, Any] = json.loads((out / "results.json").read_text())
    return document


# ------------------------------------------------------------------------------------------------------------------
# Line-ups and rotation
# ------------------------------------------------------------------------------------------------------------------


def test_default_lineups_are_the_multisets_with_two_different_agents() -> None:
    assert default_lineups(["a", "b"], 3) == [("a", "a", "b"), ("a", "b", "b")]
    assert default_lineups(["a", "b", "c"], 2) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert len(default_lineups(["a", "b", "c"], 3)) == 10 - 3  # every multiset of 3 but the three self-plays
    assert default_lineups(["solo", "solo"], 3) == [("solo", "solo", "solo")]  # a single agent plays itself


def test_cooperative_lineups_add_each_agents_own_team() -> None:
    """A co-op game's default line-ups: each agent's own team beside the mixed ones; a competitive game's unchanged."""
    assert default_lineups(["m", "h"], 2, cooperative=True) == [("m", "m"), ("m", "h"), ("h", "h")]
    teams = default_lineups(["m", "h", "r"], 3, cooperative=True)
    assert len(teams) == 10 and {("m",) * 3, ("h",) * 3, ("r",) * 3} <= set(teams)
    assert set(default_lineups(["m", "h", "r"], 3)) == set(teams) - {("m",) * 3, ("h",) * 3, ("r",) * 3}
    assert default_lineups(["m"], 2, cooperative=True) == [("m", "m")]
    (coop,) = plan_tournaments(eval_config(2, env_id=COOP_ENV_ID), "pretend.yaml") or []
    assert coop.cooperative
    assert coop.lineups == (("heuristic", "heuristic"), ("heuristic", "random"), ("random", "random"))
    (competitive,) = plan_tournaments(eval_config(2), "pretend.yaml") or []
    assert not competitive.cooperative and competitive.lineups == (("heuristic", "random"),)
    assert rotation_seats(("a", "b", "c"), 1) == ("b", "c", "a")


def test_explicit_lineups_are_used_as_given_and_must_fit_the_seats() -> None:
    lineups = [["heuristic", "random", "random"], ["random", "heuristic", "mcts:4"]]
    (tournament,) = plan_tournaments(eval_config(3, lineups=lineups), "pretend.yaml") or []
    assert tournament.lineups == (("heuristic", "random", "random"), ("random", "heuristic", "mcts:4"))
    assert tournament.agents == ["heuristic", "random", "mcts:4"]
    with pytest.raises(ConfigError, match=r"evaluation\.lineups\[1\].*has 2 agent specs.*3 seats") as error:
        plan_tournaments(eval_config(3, lineups=[["heuristic", "random", "random"], ["heuristic", "random"]]), "f")
    assert error.value.key == "evaluation.lineups[1]"


def test_every_rotation_of_a_deal_is_played_with_the_deal_seed() -> None:
    """Each deal is played once per rotation with seed + deal, so every agent sits at every seat on the same deal;
    agents are reset by deal seed and seat, so two identical agents make every rotation the same game."""
    (tournament,) = plan_tournaments(eval_config(3, lineups=[["heuristic", "random", "random"]]), "f") or []
    (result,) = run_tournaments([tournament], deals=3, seed=40)
    assert [(game.deal, game.rotation, game.seed) for game in result.games] == [
        (deal, rotation, 40 + deal) for deal in range(3) for rotation in range(3)
    ]
    for deal in range(3):
        seatings = [game.seats for game in result.games if game.deal == deal]
        assert {seating.index("heuristic") for seating in seatings} == {0, 1, 2}

    (mirror,) = plan_tournaments(eval_config(2, lineups=[["random", "random"]]), "f") or []
    (result,) = run_tournaments([mirror], deals=6, seed=3)
    outcomes = [(game.rewards, game.scores, game.length) for game in result.games]
    assert outcomes[0::2] == outcomes[1::2]  # rotations 0 and 1 of each deal: the same deal, the same seat seeds
    assert len(set(outcomes[0::2])) > 1  # while different deals are different games


# ------------------------------------------------------------------------------------------------------------------
# Tables on games of known outcome
# ------------------------------------------------------------------------------------------------------------------


def synthetic_game(index: int, seats: tuple[str, ...], scores: list[float], cooperative: bool = False) -> GameResult:
    """A finished game with the given seating and scores (win-mode rewards as the toy computes them)."""
    top = max(scores)
    firsts = scores.count(top)
    if cooperative:
        rewards = [1.0 if top > 0 else -1.0] * len(seats)
    else:
        rewards = [(1.0 if firsts == 1 else 0.0) if score == top else -1.0 for score in scores]
    return GameResult(0, index, 0, seats, index, seats, tuple(rewards), tuple(scores), tuple(ranks(scores)), 10)


def test_an_agent_that_always_wins_tops_the_ratings_and_the_pairwise_table() -> None:
    rng = np.random.default_rng(0)
    games = []
    for index in range(60):
        seats = rotation_seats(("ace", "bob", "cat"), index % 3)
        scores = [3.0 if agent == "ace" else float(rng.integers(0, 3)) for agent in seats]
        games.append(synthetic_game(index, seats, scores))
    tables = tournament_tables(games, cooperative=False)
    ratings = {row["agent"]: row for row in tables["ratings"]}
    assert tables["ratings"][0]["agent"] == "ace"
    assert ratings["ace"]["ci95"][0] > max(ratings["bob"]["ci95"][1], ratings["cat"]["ci95"][1])
    pairwise = {(row["agent"], row["opponent"]): row for row in tables["pairwise"]}
    assert pairwise["ace", "bob"]["share"] == pairwise["ace", "cat"]["share"] == 1.0
    assert pairwise["ace", "bob"]["ci95"][1] == 1.0 and pairwise["ace", "bob"]["ci95"][0] > 0.9
    assert pairwise["bob", "ace"]["share"] == 0.0 and pairwise["bob", "ace"]["games"] == 60
    # bob and cat split the rest, ties counted half: the two directions of a pair add up to one.
    assert pairwise["bob", "cat"]["share"] + pairwise["cat", "bob"]["share"] == pytest.approx(1.0)
    # The tables are a function of the set of games, not of their order.
    shuffled = [games[i] for i in rng.permutation(len(games))]
    assert tournament_tables(shuffled, False) == tables


def test_seat_advantage_recovers_a_planted_seat_bias() -> None:
    """Equal agents, but seat 0 wins 7 games in 10 (and shares first place in 1 of 10): the seat table shows it."""
    games = []
    for index in range(200):
        seats = rotation_seats(("x", "y"), index // 10 % 2)  # x at seat 0 in every other block of ten games
        scores = {0: [1.0, 1.0]}.get(index % 10, [2.0, 1.0] if index % 10 < 8 else [1.0, 2.0])
        games.append(synthetic_game(index, seats, scores))
    tables = tournament_tables(games, cooperative=False)
    seat0, seat1 = tables["seats"]
    assert seat0["win_share"] == pytest.approx(0.75) and seat1["win_share"] == pytest.approx(0.25)  # ties half
    assert seat0["even_share"] == 0.5 and seat0["ci95"][0] > 0.5 > seat1["ci95"][1]
    assert seat0["mean_reward"] == pytest.approx(0.7 - 0.2) and seat0["games"] == 200
    ratings = {row["agent"]: row["rating"] for row in tables["ratings"]}
    assert ratings["x"] == pytest.approx(ratings["y"])  # both sat at seat 0 equally often
    per_seat = {(row["agent"], row["seat"]): row for row in tables["per_seat"]}
    assert per_seat["x", 0]["win_share"] == pytest.approx(0.75) and per_seat["x", 0]["games"] == 100
    assert per_seat["y", 1]["mean_score"] == pytest.approx((1.0 + 7 * 1.0 + 2 * 2.0) / 10)


# ------------------------------------------------------------------------------------------------------------------
# evaluate.py on the toy games
# ------------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("num_players", "deals"), [(2, 40), (3, 20)])
def test_a_tournament_through_evaluate_rates_the_heuristic_above_random(
    num_players: int, deals: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = toy_config(tmp_path, num_players)
    arguments = ("--agent", "heuristic", "--agent", "random", "--episodes", str(deals), "--seed", "7")
    document = run_main(config, tmp_path / "first", *arguments)
    printed = capsys.readouterr().out
    for title in ("Ratings", "95% CI", "Pairwise", "Seat advantage", "Per-seat results"):
        assert title in printed
    (tournament,) = document["tournaments"]
    assert tournament["num_players"] == num_players and not tournament["cooperative"]
    lineups = [lineup for lineup in tournament["lineups"] if len(lineup) == num_players]
    assert len(tournament["games"]) == len(lineups) * deals * num_players
    tables = tournament["tables"]
    ratings = {row["agent"]: row for row in tables["ratings"]}
    assert ratings["heuristic"]["ci95"][0] > ratings["random"]["ci95"][1]
    assert [row["seat"] for row in tables["seats"]] == list(range(num_players))
    assert document["meta"]["config"]["evaluation"]["episodes"] == deals
    again = run_main(config, tmp_path / "second", *arguments)
    assert again["tournaments"][0]["tables"] == tables
    assert again["tournaments"][0]["games"] == tournament["games"]


def test_the_worker_count_does_not_change_the_tables(tmp_path: Path) -> None:
    config = toy_config(tmp_path, 3)
    arguments = ("--agent", "random", "--agent", "mcts:2", "--episodes", "4")  # two seeded, stochastic agents
    one = run_main(config, tmp_path / "one", *arguments, "--workers", "1")
    two = run_main(config, tmp_path / "two", *arguments, "--workers", "2")
    assert two["tournaments"][0]["tables"] == one["tournaments"][0]["tables"]
    assert two["tournaments"][0]["games"] == one["tournaments"][0]["games"]


def test_a_sweep_of_num_players_is_a_tournament_per_value(tmp_path: Path) -> None:
    config = toy_config(tmp_path, 2)
    arguments = ("--agent", "heuristic", "--agent", "random", "--episodes", "2", "--sweep", "num_players=2,4")
    document = run_main(config, tmp_path / "out", *arguments)
    assert [t["sweep"] for t in document["tournaments"]] == [{"num_players": 2}, {"num_players": 4}]
    assert [len(t["lineups"]) for t in document["tournaments"]] == [1, 3]  # (h,r); (h,h,h,r), (h,h,r,r), (h,r,r,r)
    assert [len(t["games"]) for t in document["tournaments"]] == [1 * 2 * 2, 3 * 2 * 4]


def test_a_cooperative_tournament_reports_team_win_rates_not_ratings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = toy_config(tmp_path, 3, env_id=COOP_ENV_ID)
    document = run_main(config, tmp_path / "out", "--agent", "heuristic", "--agent", "random", "--episodes", "8")
    printed = capsys.readouterr().out
    assert "Team win rate" in printed and COOPERATIVE_NOTE in printed and "Ratings" not in printed
    (tournament,) = document["tournaments"]
    tables = tournament["tables"]
    assert tournament["cooperative"] and "ratings" not in tables and "pairwise" not in tables
    assert [row["lineup"] for row in tables["team"]] == tournament["lineups"]
    for row, lineup in zip(tables["team"], tournament["lineups"], strict=True):
        games = [game for game in tournament["games"] if game["lineup"] == lineup]
        assert row["games"] == len(games) == 8 * 3
        assert row["wins"] == sum(game["rewards"][0] > 0 for game in games)
        assert row["ci95"][0] <= row["win_rate"] <= row["ci95"][1]
    team_wins = sum(row["wins"] for row in tables["team"])
    assert all(seat["win_share"] * seat["games"] == pytest.approx(team_wins) for seat in tables["seats"])


def test_a_bad_agent_spec_exits_2_with_one_line_naming_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = toy_config(tmp_path, 3)
    code = evaluate.main(["--config", str(config), "--out", str(tmp_path), "--agent", "heuristic", "--agent", "bogus"])
    assert code == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and error.startswith("error: ") and "'bogus'" in error
    assert not (tmp_path / "results.json").exists()


def test_ctrl_c_keeps_the_finished_games_with_their_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    interrupt_after(monkeypatch, 7)
    config = toy_config(tmp_path, 2)
    out = tmp_path / "out"
    arguments = ["--config", str(config), "--out", str(out), "--agent", "heuristic", "--agent", "random"]
    assert evaluate.main([*arguments, "--episodes", "30"]) == 130
    captured = capsys.readouterr()
    results = out / "results.json"
    assert captured.err.splitlines()[-1] == f"interrupted: 7 of 60 games finished; their results: {results}"
    document = json.loads(results.read_text())
    assert (document["meta"]["interrupted"], document["meta"]["games_finished"]) == (True, 7)
    (tournament,) = document["tournaments"]
    assert len(tournament["games"]) == 7  # every finished game is kept
    # The tables summarise the 3 deals played from both seats; the 7th game's deal lacks its other rotation.
    assert sum(row["games"] for row in tournament["tables"]["per_seat"]) == 6 * 2
    assert tournament["tables"]["note"] == (
        "interrupted: the tables summarise the 6 games of deals played from every seat rotation; "
        "1 game of deals with rotations unplayed left out"
    )
    assert "Seat advantage" in captured.out
    assert tournament_tables([], cooperative=False) == {"note": NO_GAMES_NOTE}  # interrupted before any game


def test_an_interrupted_tournament_says_which_line_ups_it_never_reached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Stopped during its first line-up, a tournament's tables summarise the complete rotations only and its note
    names the line-ups never reached (their agents' ratings would otherwise rest on the first line-up alone)."""
    interrupt_after(monkeypatch, 3)
    config = toy_config(tmp_path, 2)
    out = tmp_path / "out"
    agents = ["--agent", "heuristic", "--agent", "random", "--agent", "mcts:2"]
    assert evaluate.main(["--config", str(config), "--out", str(out), *agents, "--episodes", "5"]) == 130
    (tournament,) = json.loads((out / "results.json").read_text())["tournaments"]
    lineups = [", ".join(lineup) for lineup in tournament["lineups"]]
    note = tournament["tables"]["note"]
    assert note.startswith("interrupted: the tables summarise the 2 games of deals played from every seat rotation")
    assert note.endswith(f"line-ups not reached: {'; '.join(lineups[1:])}")
    capsys.readouterr()
