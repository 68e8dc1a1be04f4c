"""An RLlib `MultiAgentEnv` over any rules-core Game, through the shared `GameDriver` (solo games: one agent).

Creation: `TabletopMultiAgentEnv({"env_id": "tabletop/unearth_v0", "kwargs": {"num_players": 2}})`, the form RLlib
hands an env class (`config.environment(env=TabletopMultiAgentEnv, env_config=...)`). The id is any Gymnasium or
PettingZoo id a game's registration record declares ("package:id" too); `kwargs` are the env keyword arguments of
the training config: the adapter's (`reward`, `illegal_action`, `max_decisions`) and the game's (the rest).

Agents: `player_0 .. player_{n-1}` (PettingZoo's names), seat i is `player_i`; a solo game has `player_0` alone.

Observations: only the seat to act receives one, `{"observations": Box(float32), "action_mask": Box(0, 1, (N,),
int8)}` from its own observer (hidden information stays hidden). RLlib's masking modules read the observation under
"observations", so the suite's "observation" key is renamed here and nowhere else. At the end of the game every seat
receives its last observation (its mask all zero).

Rewards: 0 for the seat that acted while the game runs (RLlib wants one for every agent that acted); at the end
every seat's final reward (`reward=` "win", "rank" or "score", as in the other adapters) in the same step, with
`terminateds` True for every seat and `"__all__"`. With `max_decisions=k` (default: the Gymnasium id's
`max_episode_steps`, else no limit) every seat is truncated after k decisions. `infos` of the last step hold each
seat's `episode_info` (`won`, `score`, the game's facts).

Chance: sampled inside `reset`/`step` by the driver from the generator `reset(seed=...)` seeds (a reset without a
seed keeps drawing from it), so an episode is a function of the seed and the agents' actions.

Illegal actions follow `illegal_action=` as in the other adapters: "raise" (the default) or "penalize" (the game
ends, -1 for the offender and 0 for every other seat).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from ray.rllib.env.multi_agent_env import MultiAgentEnv
from ray.rllib.utils.typing import MultiAgentDict

from envs.adapters.driver import GameDriver, ReplayViews, action_index, reset_start_state, split_env_kwargs
from envs.core.game import TERMINAL, Game, State
from envs.core.registration import game_record_of_env_id, make_env_game, resolve_env_id

AGENT_PREFIX = "player_"
"""Agent ids are AGENT_PREFIX + seat index, as in the PettingZoo adapter."""
OBSERVATIONS_KEY = "observations"
"""Where RLlib's masking modules read the observation (the suite's own key is "observation")."""
ACTION_MASK_KEY = "action_mask"
"""The legal-action mask of the seat to act, as in the suite's other adapters."""
ALL_AGENTS = "__all__"
"""RLlib's key for the whole episode in `terminateds` and `truncateds`."""
ADAPTER_KWARGS = ("reward", "illegal_action", "max_decisions")
"""Env keyword arguments this adapter takes; every other one is the game's (`flat` and `render_mode` are refused)."""


def agent_id(seat: int) -> str:
    """The agent id of seat `seat` (player_0, player_1, ...)."""
    return f"{AGENT_PREFIX}{seat}"


def masked_observation_space(game: Game, seat: int) -> spaces.Dict:
    """`Dict(observations=Box(float32), action_mask=Box(0, 1, (N,), int8))` of seat `seat`'s observer."""
    observer = game.observer(seat)
    box = spaces.Box(low=observer.low, high=observer.high, shape=(observer.size,), dtype=np.float32)
    mask = spaces.Box(0, 1, shape=(game.spec.num_actions,), dtype=np.int8)
    return spaces.Dict({OBSERVATIONS_KEY: box, ACTION_MASK_KEY: mask})


def build_game(env_id: str, kwargs: Mapping[str, Any]) -> tuple[Game, dict[str, Any], int | None]:
    """The Game of a config's env (id and kwargs), the adapter's kwargs and the id's default decision limit."""
    resolved = resolve_env_id(env_id)
    record = game_record_of_env_id(resolved)
    adapter, game_kwargs = split_env_kwargs(kwargs)
    refused = sorted(key for key in adapter if key not in ADAPTER_KWARGS)
    if refused:
        raise ValueError(f"the RLlib adapter takes no {', '.join(refused)} (it always gives a Dict with the mask)")
    limits = [gym_env.max_episode_steps for gym_env in record.gym_envs if gym_env.id == resolved]
    return make_env_game(resolved, game_kwargs), adapter, (limits[0] if limits else None)


class TabletopMultiAgentEnv(ReplayViews, MultiAgentEnv):
    """RLlib MultiAgentEnv over any Game: the seat to act observes, every seat gets its final reward at the end."""

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        config = dict(config or {})
        if "env_id" not in config:
            raise ValueError("the RLlib env config needs env_id (a game's Gymnasium or PettingZoo id) and kwargs")
        game, adapter, default_limit = build_game(config["env_id"], config.get("kwargs") or {})
        max_decisions = adapter.get("max_decisions", default_limit)
        if max_decisions is not None and (type(max_decisions) is not int or max_decisions < 1):
            raise ValueError(f"max_decisions must be a positive int or None, got {max_decisions!r}")
        self.game = game
        self.max_decisions: int | None = max_decisions
        self._driver = GameDriver(
            game, reward=adapter.get("reward", "win"), illegal_action=adapter.get("illegal_action", "raise")
        )
        num_players = game.spec.num_players
        self.possible_agents = [agent_id(seat) for seat in range(num_players)]
        self.agents = self.possible_agents[:]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._observers = [game.observer(seat) for seat in range(num_players)]
        self.observation_spaces = {
            agent: masked_observation_space(game, seat) for seat, agent in enumerate(self.possible_agents)
        }
        self.action_spaces = {agent: spaces.Discrete(game.spec.num_actions) for agent in self.possible_agents}
        self._no_mask = np.zeros(game.spec.num_actions, dtype=np.int8)

    @property
    def game_state(self) -> State | None:
        """The rules-core state being played (None before the first reset)."""
        return self._driver.state

    def _observe(self, seat: int) -> dict[str, np.ndarray]:
        """Seat `seat`'s own view and its mask (the driver's when it is to act, else all zero)."""
        driver = self._driver
        mask = driver.mask if driver.current_player() == seat else self._no_mask.copy()
        return {OBSERVATIONS_KEY: self._observers[seat].tensor(driver.live_state()), ACTION_MASK_KEY: mask}

    def reset(  # type: ignore[override]  # (gymnasium.Env's single-agent signature, as for step)
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[MultiAgentDict, MultiAgentDict]:
        """Start a new game (`options={"state": dict}` starts from a given state); the seat to act observes."""
        start = reset_start_state(self.game, options)  # an unknown option is refused before anything changes
        driver = self._driver
        driver.seed(seed)
        driver.reset(start)
        self.agents = self.possible_agents[:]
        seat = driver.current_player()
        if seat == TERMINAL:  # a position that is already over: nobody acts
            everyone: MultiAgentDict = {agent: self._observe(self._seat[agent]) for agent in self.agents}
            return everyone, {}
        observations: MultiAgentDict = {agent_id(seat): self._observe(seat)}
        infos: MultiAgentDict = {agent_id(seat): {}}
        return observations, infos

    def step(  # type: ignore[override]  # (gymnasium.Env's single-agent signature, which MultiAgentEnv overrides too)
        self, action_dict: MultiAgentDict
    ) -> tuple[MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict]:
        """Apply the acting seat's decision and the chance nodes after it; the next seat observes, or the game ends."""
        driver = self._driver
        seat = driver.current_player()
        if seat == TERMINAL:
            raise RuntimeError("the episode has ended; call reset()")
        acting = agent_id(seat)
        if acting not in action_dict:
            raise KeyError(f"{acting} is to act, but the actions are for {sorted(map(str, action_dict))}")
        driver.step(action_index(action_dict[acting], driver.num_actions))  # "penalize" ends the game, "raise" raises
        if driver.over:
            return self._finish(truncated=False)
        if driver.truncated(self.max_decisions):
            return self._finish(truncated=True)
        following = driver.current_player()
        observations: MultiAgentDict = {agent_id(following): self._observe(following)}
        rewards: MultiAgentDict = {acting: 0.0}  # RLlib wants a reward for every agent that acted, or refuses the step
        return observations, rewards, {ALL_AGENTS: False}, {ALL_AGENTS: False}, {}

    def _finish(
        self, truncated: bool
    ) -> tuple[MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict]:
        """Every seat's last observation, final reward (0 when truncated), done flags and end-of-game facts."""
        driver = self._driver
        agents = self.possible_agents
        observations: MultiAgentDict = {agent: self._observe(self._seat[agent]) for agent in agents}
        final = [0.0] * len(agents) if truncated else driver.rewards()
        rewards: MultiAgentDict = dict(zip(agents, final, strict=True))
        terminateds: MultiAgentDict = {**dict.fromkeys(agents, not truncated), ALL_AGENTS: not truncated}
        truncateds: MultiAgentDict = {**dict.fromkeys(agents, truncated), ALL_AGENTS: truncated}
        infos: MultiAgentDict = {}
        if not truncated:
            infos = {agent: driver.episode_info(self._seat[agent]) for agent in agents}
        self.agents = []
        return observations, rewards, terminateds, truncateds, infos
