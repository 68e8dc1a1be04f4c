"""The Agent protocol every policy implements, and the registry that builds agents from a spec string.

Spec strings (command line of evaluate.py, agents.play, benchmarks):

- ``random``: uniform over legal actions (seeded);
- ``heuristic``: the game's hand-written heuristic (looked up by the game's name);
- ``mcts`` or ``mcts:200``: Monte Carlo tree search over the rules core, optionally with the number of simulations;
- a path to a saved MaskablePPO model (``.zip``) or to a run directory written by train.py.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import gymnasium as gym
import numpy as np


@runtime_checkable
class Agent(Protocol):
    """A policy that picks a legal action id; `state` is the rules-core State, used by search agents."""

    name: str

    def reset(self, seed: int | None = None) -> None:
        """Start a new episode; reseed every source of randomness the agent has."""

    def act(self, observation: Any, action_mask: np.ndarray, state: Any | None = None) -> int:
        """Return a legal action id (action_mask[a] == 1) for the current decision."""


class BaseAgent:
    """Convenience base: a name and a no-op reset; subclasses implement act()."""

    name = "agent"

    def reset(self, seed: int | None = None) -> None:
        """Start a new episode (nothing to reset by default)."""

    def act(self, observation: Any, action_mask: np.ndarray, state: Any | None = None) -> int:
        """Return a legal action id for the current decision."""
        raise NotImplementedError


class AgentSpecError(ValueError):
    """An agent spec string that names no known agent (or a model that cannot be loaded)."""


AgentFactory = Callable[[gym.Env, "str | None", Mapping[str, Any]], Agent]
"""(env, argument after the colon or None, options from the eval config) -> Agent."""

_REGISTRY: dict[str, AgentFactory] = {}

HEURISTIC_AGENTS: dict[str, str] = {"unbroken": "agents.heuristics.unbroken:UnbrokenHeuristicAgent"}
"""Game name (GameSpec.name) -> 'module:Class' of its heuristic agent, imported only when asked for."""


def register_agent(name: str, factory: AgentFactory) -> None:
    """Make `name` (and `name:ARG`) usable as an agent spec."""
    _REGISTRY[name] = factory


def registered_agent_names() -> list[str]:
    """Names accepted by make_agent (besides model paths)."""
    return sorted(_REGISTRY)


def game_of(env: gym.Env) -> Any:
    """The rules-core Game behind a Gymnasium env built by envs/ (env.unwrapped.game)."""
    game = getattr(env.unwrapped, "game", None)
    if game is None:
        raise AgentSpecError(f"{env.unwrapped!r} has no rules-core `game` attribute; is it a tabletop env?")
    return game


def action_mask_of(env: gym.Env, observation: Any) -> np.ndarray:
    """The legal-action mask for the current decision: the Dict observation's mask, else env.action_masks()."""
    if isinstance(observation, dict) and "action_mask" in observation:
        return np.asarray(observation["action_mask"])
    return np.asarray(env.unwrapped.action_masks())  # type: ignore[attr-defined]


def is_model_path(spec: str) -> bool:
    """Whether an agent spec names a saved model file or a run directory."""
    path = Path(spec)
    return spec.endswith(".zip") or path.is_dir() or path.with_suffix(".zip").is_file()


def make_agent(spec: str, env: gym.Env, options: Mapping[str, Any] | None = None) -> Agent:
    """Build the agent a spec string names (see module docstring) for `env`; `options` holds per-kind defaults."""
    options = options or {}
    if is_model_path(spec):
        from agents.ppo import MaskablePPOAgent

        return MaskablePPOAgent.from_path(spec, env)
    name, _, argument = spec.partition(":")
    factory = _REGISTRY.get(name)
    if factory is None:
        known = ", ".join(registered_agent_names())
        raise AgentSpecError(
            f"unknown agent {spec!r}: use one of {known} (mcts:N sets the simulations), "
            "or the path of a saved model (.zip) or a train.py run directory"
        )
    return factory(env, argument or None, options.get(name, {}))


def _make_random(env: gym.Env, argument: str | None, options: Mapping[str, Any]) -> Agent:
    from agents.random_agent import RandomAgent

    if argument is not None:
        raise AgentSpecError(f"the random agent takes no argument, got 'random:{argument}'")
    return RandomAgent()


def _make_heuristic(env: gym.Env, argument: str | None, options: Mapping[str, Any]) -> Agent:
    game = game_of(env)
    game_name = game.spec.name
    # A game module may offer its own factory; otherwise use the table of known heuristic classes.
    game_module = _import_optional(f"envs.{game_name}")
    factory = getattr(game_module, "heuristic_agent", None) if game_module is not None else None
    if factory is not None:
        return factory(game)
    target = HEURISTIC_AGENTS.get(game_name)
    if target is None:
        raise AgentSpecError(f"no heuristic agent is known for game {game_name!r}")
    module_name, _, class_name = target.partition(":")
    try:
        agent_class = getattr(importlib.import_module(module_name), class_name)
    except (ImportError, AttributeError) as error:
        raise AgentSpecError(f"the heuristic agent {target} of {game_name!r} cannot be imported: {error}") from error
    return agent_class(game)


def _make_mcts(env: gym.Env, argument: str | None, options: Mapping[str, Any]) -> Agent:
    from agents.mcts import MCTSAgent

    settings = dict(options)
    if argument is not None:
        try:
            settings["num_simulations"] = int(argument)
        except ValueError:
            raise AgentSpecError(f"mcts:N needs an integer number of simulations, got 'mcts:{argument}'") from None
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
    return MCTSAgent(**settings)


def _import_optional(module_name: str) -> Any:
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name is not None and module_name.startswith(error.name):
            return None
        raise


register_agent("random", _make_random)
register_agent("heuristic", _make_heuristic)
register_agent("mcts", _make_mcts)
