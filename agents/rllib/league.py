"""Self-play on RLlib from the config's `opponents` section: the learner on one seat, frozen copies of it (the
league) on the others.

Seats (`seat_roles`):
- a solo game, a cooperative game, or `opponents.learner_seats: all`: every seat is the learner (shared-policy
  self-play for a competitive game; the team policy for a co-op one). The pool must be empty.
- otherwise (`rotate`, `random` or a seat number) the pool must be `[{agent: snapshot}]` (the config refuses other
  entries on this route): the learner plays one
  seat per episode and every other seat plays a league member. On RLlib `rotate` and `random` both draw the
  learner's seat per episode (uniformly, from the run's seed and the episode id): episodes are spread over env
  runners, so there is no single counter to rotate. A seat number fixes the learner's seat.

League (`League`, driven from the training loop between iterations): the learner is frozen once before training
(module `league_0`), then at every check (every `opponents.snapshots.interval` env steps) when it scored at least
`win_rate_to_freeze` of its league games since the previous check (a win 1, a shared first place 1/2; at least
`min_games` of them), or at every check when `win_rate_to_freeze` is null. A frozen module is never trained
(`policies_to_train` is the learner alone). The league keeps the latest `max_kept` members (older ones leave the
algorithm); an opponent seat plays the latest member with probability `latest_share`, else one of the kept ones
uniformly. `league.json` in the run directory lists the members and every check.

The env runners report the learner's league games through `LeagueResults` (an RLlib callback: lifetime sums
`league_games` and `league_learner_points` among the env runners' results).
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from ray.rllib.callbacks.callbacks import RLlibCallback
from ray.rllib.core import COMPONENT_LEARNER, COMPONENT_LEARNER_GROUP, COMPONENT_RL_MODULE
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS

from agents.common.config import SNAPSHOT_AGENT, ConfigError, ExperimentConfig, SnapshotConfig
from agents.common.run_dir import write_text_atomically
from agents.players.snapshots import game_result
from agents.rllib.env import AGENT_PREFIX

LEARNER_MODULE_ID = "learner"
"""The id of the one trained RLModule (and the folder an `rllib:` agent loads it from)."""
LEAGUE_PREFIX = "league_"
"""League members are `league_<env steps at which the learner was frozen>`."""
GAMES_METRIC = "league_games"
"""Lifetime count of finished games in which the learner met at least one league member."""
POINTS_METRIC = "league_learner_points"
"""Lifetime sum of the learner's results in those games (1 won, 0.5 shared first place, 0 lost)."""
LEAGUE_FILE_NAME = "league.json"


def seat_of(agent_id: Any) -> int:
    """The seat of an agent id of agents.rllib.env (`player_<seat>`)."""
    return int(str(agent_id).removeprefix(AGENT_PREFIX))


def league_module_id(env_steps: int) -> str:
    """The module id of the learner frozen at `env_steps`."""
    return f"{LEAGUE_PREFIX}{env_steps}"


@dataclass(frozen=True)
class SeatRoles:
    """Who plays which seat: every seat the learner, or the learner on one seat (fixed or drawn) and the league."""

    num_seats: int
    league: bool
    """False: every seat maps to the learner. True: one learner seat, the league on the others."""
    fixed_learner_seat: int | None = None
    """The learner's seat when fixed; None draws it per episode."""


def seat_roles(config: ExperimentConfig, num_seats: int, cooperative: bool, source: str) -> SeatRoles:
    """The seat roles of an rllib_ppo config; a ConfigError naming the key for what the RLlib route cannot do."""
    opponents = config.opponents
    every_seat = num_seats == 1 or cooperative or opponents.learner_seats == "all"
    if every_seat:
        if opponents.pool:
            why = (
                "a cooperative game's every seat is the learner"
                if cooperative
                else "a solo game has no opponents"
                if num_seats == 1
                else "learner_seats: all makes every seat the learner"
            )
            raise ConfigError(source, "opponents.pool", f"must be empty on the RLlib route: {why}")
        return SeatRoles(num_seats, league=False)
    if not opponents.pool:
        raise ConfigError(
            source,
            "opponents.pool",
            f"learner_seats: {opponents.learner_seats} needs opponents: give [{{agent: {SNAPSHOT_AGENT}}}] (the league)"
            " or set learner_seats: all",
        )
    fixed = opponents.learner_seats if isinstance(opponents.learner_seats, int) else None
    if fixed is not None and fixed >= num_seats:
        raise ConfigError(source, "opponents.learner_seats", f"seat {fixed} does not exist in a {num_seats}-seat game")
    return SeatRoles(num_seats, league=True, fixed_learner_seat=fixed)


def _episode_key(episode: Any) -> int:
    """A stable number of an episode (its id), the same in every process."""
    return zlib.crc32(str(getattr(episode, "id_", "")).encode())


class LeagueMapping:
    """RLlib's agent-to-module mapping: per episode one learner seat, every other seat a league member.

    A pure function of (seed, episode id, agent): the seats of an episode agree however many times and in whichever
    process it is asked, and an episode under way keeps its learner seat when the league changes.
    """

    def __init__(self, roles: SeatRoles, members: tuple[str, ...], latest_share: float, seed: int) -> None:
        self.roles = roles
        self.members = members
        self.latest_share = latest_share
        self.seed = seed

    def __call__(self, agent_id: Any, episode: Any = None, **kwargs: Any) -> str:
        """The module that plays `agent_id` in `episode`."""
        roles = self.roles
        if not roles.league or not self.members:
            return LEARNER_MODULE_ID
        rng = np.random.default_rng([self.seed, _episode_key(episode)])
        drawn = int(rng.integers(roles.num_seats))
        learner_seat = drawn if roles.fixed_learner_seat is None else roles.fixed_learner_seat
        seat = seat_of(agent_id)
        if seat == learner_seat:
            return LEARNER_MODULE_ID
        picks = [self._member(rng) for _ in range(roles.num_seats)]
        return picks[seat]

    def _member(self, rng: np.random.Generator) -> str:
        """The latest member with probability latest_share, else any kept member uniformly."""
        if rng.random() < self.latest_share:
            return self.members[-1]
        return self.members[int(rng.integers(len(self.members)))]


def learner_spec(algorithm: Any) -> RLModuleSpec:
    """The spec of the learner module as the learners built it (RLlib's merged model config), for its copies."""

    def spec_of(learner: Any) -> RLModuleSpec:
        return RLModuleSpec.from_module(learner.module[LEARNER_MODULE_ID])

    first = next(iter(algorithm.learner_group.foreach_learner(spec_of)))  # every learner holds the same module
    spec: RLModuleSpec = first.get()
    return spec


def train_only_the_learner(module_id: str, batch: Any = None) -> bool:
    """RLlib's policies_to_train: the learner alone is updated (league members stay frozen)."""
    return module_id == LEARNER_MODULE_ID


class LeagueResults(RLlibCallback):
    """On every finished game where the learner met a league member: count it and add the learner's result."""

    def on_episode_end(self, *, episode: Any, metrics_logger: Any = None, **kwargs: Any) -> None:
        """Log the learner's result (lifetime sums, aggregated over env runners)."""
        modules = {seat_of(agent): episode.module_for(agent) for agent in episode.agent_episodes}
        learners = [seat for seat, module in modules.items() if module == LEARNER_MODULE_ID]
        if len(learners) != 1 or metrics_logger is None or len(modules) < 2:
            return
        returns = [0.0] * (max(modules) + 1)
        for agent, single in episode.agent_episodes.items():
            returns[seat_of(agent)] = float(single.get_return())
        metrics_logger.log_value(GAMES_METRIC, 1, reduce="lifetime_sum")
        metrics_logger.log_value(POINTS_METRIC, game_result(returns, learners[0]), reduce="lifetime_sum")


@dataclass
class League:
    """The frozen members and the freeze checks, kept by the training loop (in the driver process)."""

    roles: SeatRoles
    settings: SnapshotConfig
    seed: int
    path: Path
    members: list[str] = field(default_factory=list)
    checks: list[dict[str, Any]] = field(default_factory=list)
    next_check: int = 0
    _games: float = 0.0
    _points: float = 0.0

    def mapping(self) -> LeagueMapping:
        """The mapping of the current members (what the env runners must use from now on)."""
        return LeagueMapping(self.roles, tuple(self.members), self.settings.latest_share, self.seed)

    def start(self, algorithm: Any) -> None:
        """Freeze the untrained learner, so that the league is never empty."""
        if self.roles.league:
            self.freeze(algorithm, 0)
            self.next_check = self.settings.interval

    def after_iteration(self, algorithm: Any, result: dict[str, Any], env_steps: int) -> dict[str, Any] | None:
        """Judge a freeze at each check crossed: freeze when the learner scored enough; the check's record."""
        if not self.roles.league or env_steps < self.next_check:
            return None
        runners = result.get(ENV_RUNNER_RESULTS, {})
        games_lifetime = float(runners.get(GAMES_METRIC, self._games))
        points_lifetime = float(runners.get(POINTS_METRIC, self._points))
        games, points = games_lifetime - self._games, points_lifetime - self._points
        self._games, self._points = games_lifetime, points_lifetime
        self.next_check = (env_steps // self.settings.interval + 1) * self.settings.interval
        score = points / games if games else None
        threshold = self.settings.win_rate_to_freeze
        frozen = threshold is None or (games >= self.settings.min_games and score is not None and score >= threshold)
        record: dict[str, Any] = {"env_steps": env_steps, "games": int(games), "learner_score": score, "frozen": frozen}
        if frozen:
            record["member"] = self.freeze(algorithm, env_steps)
        self.checks.append(record)
        self._write()
        return record

    def freeze(self, algorithm: Any, env_steps: int) -> str:
        """Add a frozen copy of the learner to the league (the oldest beyond max_kept leaves); its module id."""
        member = league_module_id(env_steps)
        self.members.append(member)
        dropped = self.members[: -self.settings.max_kept]
        self.members = self.members[-self.settings.max_kept :]
        mapping = self.mapping()
        algorithm.add_module(
            module_id=member,
            module_spec=learner_spec(algorithm),
            new_agent_to_module_mapping_fn=mapping,
            new_should_module_be_updated=train_only_the_learner,
        )
        path = f"{COMPONENT_LEARNER}/{COMPONENT_RL_MODULE}/{LEARNER_MODULE_ID}"
        weights = algorithm.learner_group.get_state(components=path)[COMPONENT_LEARNER][COMPONENT_RL_MODULE]
        algorithm.set_state(
            {COMPONENT_LEARNER_GROUP: {COMPONENT_LEARNER: {COMPONENT_RL_MODULE: {member: weights[LEARNER_MODULE_ID]}}}}
        )
        algorithm.env_runner_group.sync_weights(
            from_worker_or_learner_group=algorithm.learner_group, policies=[member], inference_only=True
        )
        for old in dropped:
            algorithm.remove_module(old, new_agent_to_module_mapping_fn=mapping)
        self._write()
        return member

    def _write(self) -> None:
        """league.json: the members and the checks so far (rewritten whole, atomically)."""
        data = {"members": self.members, "checks": self.checks, "settings": self.settings.model_dump()}
        write_text_atomically(self.path, json.dumps(data, indent=1) + "\n")
