"""The registry that builds agents from spec strings.

Spec strings (command line of evaluate.py, agents.evaluation.play, benchmarks, `pretrain.teacher` of a training config):

- ``random``: uniform over legal actions (seeded);
- ``heuristic``: the game's hand-written heuristic, named by the game's registration record;
- ``mcts`` or ``mcts:200``: Monte Carlo tree search over the rules core, optionally with the number of simulations;
- ``lookahead`` or ``lookahead:8``: each legal action played up to the seat's next decision and scored by the game's
  evaluation (its record's `evaluation`), averaged over that many determinizations (agents/players/lookahead.py);
  the other seats play the game's heuristic (options `others: random` for random play, `samples`, `chain`);
- a path to a saved MaskablePPO model (``.zip``) or to a run directory written by train.py;
- ``rllib:<checkpoint or run directory>``: the learner of an RLlib checkpoint (an `rllib_ppo` run; the `rllib` extra).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import gymnasium as gym

from agents.players.base import Agent, game_of
from agents.players.lookahead import LookaheadAgent
from agents.players.mcts import MCTSAgent
from agents.players.ppo import MaskablePPOAgent, ModelLoadError
from agents.players.random_agent import RandomAgent
from agents.players.value_model import load_value_model
from envs.core.registration import UnknownGameError, game_record, load_attribute, registered_games


class AgentSpecError(ValueError):
    """An agent spec string that names no known agent (or a model that cannot be loaded)."""


AgentFactory = Callable[[gym.Env, "str | None", Mapping[str, Any]], Agent]
"""(env, argument after the colon or None, options from the eval config) -> Agent."""

_REGISTRY: dict[str, AgentFactory] = {}


def register_agent(name: str, factory: AgentFactory) -> None:
    """Make `name` (and `name:ARG`) usable as an agent spec."""
    _REGISTRY[name] = factory


def registered_agent_names() -> list[str]:
    """Names accepted by make_agent (besides model paths)."""
    return sorted(_REGISTRY)


def is_model_path(spec: str) -> bool:
    """Whether an agent spec names a saved model file or a run directory."""
    path = Path(spec)
    return spec.endswith(".zip") or path.is_dir() or path.with_suffix(".zip").is_file()


def looks_like_a_path(spec: str) -> bool:
    """Whether an agent spec that names no file is still meant as one (it has a folder separator or a .zip suffix)."""
    return "/" in spec or "\\" in spec or spec.endswith(".zip")


def make_agent(spec: str, env: gym.Env, options: Mapping[str, Any] | None = None) -> Agent:
    """Build the agent a spec string names (see module docstring) for `env`; `options` holds per-kind defaults."""
    options = options or {}
    if is_model_path(spec):
        try:
            return MaskablePPOAgent.from_path(spec, env)
        except ModelLoadError as error:
            raise AgentSpecError(str(error)) from error
    name, colon, argument = spec.partition(":")
    factory = _REGISTRY.get(name)
    if factory is None:
        if looks_like_a_path(spec):
            raise AgentSpecError(
                f"cannot load {spec}: no such model file (.zip) or train.py run directory (from {Path.cwd()})"
            )
        known = ", ".join(registered_agent_names())
        close = difflib.get_close_matches(name, registered_agent_names(), n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise AgentSpecError(
            f"unknown agent {spec!r}: {hint}use one of {known} (mcts:N sets the simulations), "
            "or the path of a saved model (.zip) or a train.py run directory"
        )
    if colon and not argument.strip():
        raise AgentSpecError(f"agent {spec!r}: nothing after the colon (write {name}, or e.g. mcts:100)")
    return factory(env, argument or None, options.get(name, {}))


SNAPSHOT_SPEC = "snapshot"
"""The opponent spec of a frozen copy of the learner: made by the training loop, which holds the learner."""


def make_opponent_policies(
    specs: Sequence[str], game: Any, flat: bool = False, options: Mapping[str, Any] | None = None
) -> list[Agent]:
    """Opponent policies for `envs.adapters.opponents.OpponentEnv` from the spec strings evaluate.py accepts.

    They are built against the opponent env's own observation space (so a saved model of this game loads), and act
    for whichever seat the state says is to act. `snapshot` is refused here: the training loop makes those.
    """
    from envs.adapters.opponents import OpponentEnv

    probe = OpponentEnv(game, learner_seats="all", flat=flat)
    policies = []
    for spec in specs:
        if spec.partition(":")[0] == SNAPSHOT_SPEC:
            raise AgentSpecError("'snapshot' opponents are frozen copies of the learner: the training loop makes them")
        policies.append(make_agent(spec, probe, options))
    probe.close()
    return policies


def make_heuristic_agent(game: Any) -> Agent:
    """The heuristic agent of a rules-core game, as its registration record names it."""
    try:
        record = game_record(game.spec.name)
    except UnknownGameError as error:
        raise AgentSpecError(f"no heuristic agent: {error}") from None
    if record.heuristic is None:
        raise AgentSpecError(f"no heuristic agent is known for game {record.name!r}")
    try:
        factory = load_attribute(record.heuristic)
    except ImportError as error:
        raise AgentSpecError(
            f"the heuristic agent {record.heuristic} of {record.name!r} cannot be imported: {error}"
        ) from error
    agent: Agent = factory(game)
    return agent


def _make_random(env: gym.Env, argument: str | None, options: Mapping[str, Any]) -> Agent:
    if argument is not None:
        raise AgentSpecError(f"the random agent takes no argument, got 'random:{argument}'")
    return RandomAgent()


def _make_heuristic(env: gym.Env, argument: str | None, options: Mapping[str, Any]) -> Agent:
    if argument is not None:
        raise AgentSpecError(f"the heuristic agent takes no argument, got 'heuristic:{argument}'")
    try:
        game = game_of(env)
    except TypeError as error:
        raise AgentSpecError(str(error)) from None
    return make_heuristic_agent(game)


def _make_mcts(env: gym.Env, argument: str | None, options: Mapping[str, Any]) -> Agent:
    settings = dict(options)
    if argument is not None:
        try:
            simulations: int | None = int(argument)
        except ValueError:
            simulations = None
        if simulations is None or simulations < 1:
            raise AgentSpecError(
                f"agent 'mcts:{argument}': mcts:N needs a whole number of simulations of at least 1, like mcts:100"
            )
        settings["num_simulations"] = simulations
    rollout = settings.pop("rollout", "random")
    if rollout == "heuristic":
        settings["rollout_agent"] = _make_heuristic(env, None, {})
    elif rollout != "random":
        raise AgentSpecError(f"mcts rollout must be 'random' or 'heuristic', got {rollout!r}")
    prior = settings.pop("prior", "none")
    if prior == "heuristic":
        settings["prior_agent"] = _make_heuristic(env, None, {})
    elif prior != "none":
        raise AgentSpecError(f"mcts prior must be 'none' or 'heuristic', got {prior!r}")
    value = settings.pop("value", "none")
    if value == "learned":
        try:
            settings["value_function"] = load_value_model(game_of(env).spec.name).value
        except (TypeError, FileNotFoundError) as error:
            raise AgentSpecError(f"mcts value 'learned': {error}") from None
    elif value != "none":
        raise AgentSpecError(f"mcts value must be 'none' or 'learned', got {value!r}")
    return MCTSAgent(**settings)


def make_evaluation(game: Any) -> Callable[[Any, int], float]:
    """The position evaluation `evaluate(state, seat)` of a rules-core game, as its registration record names it."""
    try:
        record = game_record(game.spec.name)
    except UnknownGameError as error:
        raise AgentSpecError(f"no evaluation: {error}") from None
    if record.evaluation is None:
        having = [name for name, other in registered_games().items() if other.evaluation is not None]
        raise AgentSpecError(
            f"game {record.name!r} has no position evaluation (its registration record names no `evaluation`; "
            f"games with one: {', '.join(having) or 'none'})"
        )
    try:
        evaluation: Callable[[Any, int], float] = load_attribute(record.evaluation)
    except ImportError as error:
        raise AgentSpecError(
            f"the evaluation {record.evaluation} of {record.name!r} cannot be imported: {error}"
        ) from error
    return evaluation


def _make_lookahead(env: gym.Env, argument: str | None, options: Mapping[str, Any]) -> Agent:
    settings = dict(options)
    if argument is not None:
        try:
            samples: int | None = int(argument)
        except ValueError:
            samples = None
        if samples is None or samples < 1:
            raise AgentSpecError(
                f"agent 'lookahead:{argument}': lookahead:N needs a whole number of samples of at least 1, "
                "like lookahead:8"
            )
        settings["samples"] = samples
    try:
        game = game_of(env)
    except TypeError as error:
        raise AgentSpecError(str(error)) from None
    others = settings.pop("others", "heuristic")
    if others == "heuristic":
        # The game's heuristic models the other seats; a game without one (or a solo game) leaves them random.
        record_heuristic = _record_heuristic(game)
        settings["others"] = make_heuristic_agent(game) if record_heuristic and game.spec.num_players > 1 else None
    elif others == "random":
        settings["others"] = None
    else:
        raise AgentSpecError(f"lookahead others must be 'heuristic' or 'random', got {others!r}")
    try:
        evaluation = make_evaluation(game)
    except AgentSpecError as error:
        spec = "lookahead" if argument is None else f"lookahead:{argument}"
        raise AgentSpecError(
            f"agent {spec!r} scores actions with the game's position evaluation, and {error}: use heuristic, "
            "mcts:N or random on this game"
        ) from None
    return LookaheadAgent(evaluation, **settings)


def _record_heuristic(game: Any) -> str | None:
    """The heuristic named by the game's record (None: no record or no heuristic)."""
    try:
        return game_record(game.spec.name).heuristic
    except UnknownGameError:
        return None


RLLIB_EXTRA = "pip install 'tabletop-gym[rllib]'"
"""Where Ray RLlib comes from (the `rllib:` agents and the rllib_ppo route need it)."""
RLLIB_AGENT = "agents.rllib.agent:RLlibAgent"
"""The `rllib:` agent's class, named by a string as a game's heuristic is: players import nothing from agents.rllib
(which imports players), and Ray is imported only when an rllib agent is asked for."""


def _make_rllib(env: gym.Env, argument: str | None, options: Mapping[str, Any]) -> Agent:
    if argument is None:
        raise AgentSpecError("the rllib agent needs a checkpoint or an rllib_ppo run directory: rllib:<path>")
    try:
        rllib_agent = load_attribute(RLLIB_AGENT)
    except ImportError as error:
        raise AgentSpecError(f"agent 'rllib:{argument}' needs Ray RLlib: {RLLIB_EXTRA} ({error})") from None
    try:
        agent: Agent = rllib_agent.from_path(argument, env)
        return agent
    except ModelLoadError as error:
        raise AgentSpecError(str(error)) from error


register_agent("random", _make_random)
register_agent("rllib", _make_rllib)
register_agent("heuristic", _make_heuristic)
register_agent("mcts", _make_mcts)
register_agent("lookahead", _make_lookahead)
