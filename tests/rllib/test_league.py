"""The league's agent-to-module mapping (agents/rllib/league.py): one learner seat per episode, league opponents."""

from __future__ import annotations

import pickle
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from agents.common.config import load_experiment_config
from agents.rllib.league import LEARNER_MODULE_ID, LeagueMapping, SeatRoles, seat_roles

REPO_ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Episode:
    """What the mapping reads of an RLlib episode: its id."""

    id_: str


def modules_of(mapping: LeagueMapping, episode: Episode, seats: int) -> list[str]:
    """The module of every seat of an episode."""
    return [mapping(f"player_{seat}", episode) for seat in range(seats)]


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_each_episode_has_one_learner_seat_drawn_evenly_and_league_members_elsewhere(seats: int) -> None:
    members = ("league_0", "league_500", "league_900")
    mapping = LeagueMapping(SeatRoles(seats, league=True), members, latest_share=0.5, seed=7)
    learner_seats: Counter[int] = Counter()
    opponents: Counter[str] = Counter()
    for index in range(2000):
        episode = Episode(f"{index:032x}")
        modules = modules_of(mapping, episode, seats)
        assert modules.count(LEARNER_MODULE_ID) == 1
        assert modules == modules_of(mapping, episode, seats)  # asked again: the same seats
        assert modules == modules_of(pickle.loads(pickle.dumps(mapping)), episode, seats)  # in another process too
        learner_seats[modules.index(LEARNER_MODULE_ID)] += 1
        opponents.update(module for module in modules if module != LEARNER_MODULE_ID)
    assert set(learner_seats) == set(range(seats))
    assert max(learner_seats.values()) < 1.25 * 2000 / seats  # about even
    total = sum(opponents.values())
    # The latest with probability latest_share, else uniformly among the kept ones: 0.5 + 0.5/3 for the latest.
    assert abs(opponents["league_900"] / total - (0.5 + 0.5 / 3)) < 0.04
    assert abs(opponents["league_0"] / total - 0.5 / 3) < 0.04


def test_a_fixed_seat_and_the_every_seat_mode() -> None:
    fixed = LeagueMapping(SeatRoles(3, league=True, fixed_learner_seat=2), ("league_0",), 0.5, seed=0)
    every = LeagueMapping(SeatRoles(3, league=False), (), 0.5, seed=0)
    for index in range(50):
        episode = Episode(str(index))
        assert modules_of(fixed, episode, 3) == ["league_0", "league_0", LEARNER_MODULE_ID]
        assert modules_of(every, episode, 3) == [LEARNER_MODULE_ID] * 3


def test_a_cooperative_game_maps_every_seat_to_the_learner() -> None:
    """Issue 11: "co-op games map every seat to the learner" (a team policy), whatever learner_seats says."""
    config = load_experiment_config(
        REPO_ROOT / "configs/unearth/rllib_selfplay.yaml",
        ["env.id=envs.toys:tabletop/card_duel_coop_v0", "env.kwargs={num_players: 3}", "opponents.pool=[]"],
    )
    roles = seat_roles(config, num_seats=3, cooperative=True, source="test")
    assert roles == SeatRoles(3, league=False)
    mapping = LeagueMapping(roles, ("league_0",), 0.5, seed=0)
    assert modules_of(mapping, Episode("any"), 3) == [LEARNER_MODULE_ID] * 3
