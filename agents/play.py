"""Play a tabletop game in the terminal: `python -m agents.play GAME [--seed S] [--env-kwarg KEY=VALUE]`.

The state is shown with the env's ansi render; the legal actions are listed by label and chosen by number.
Commands at the prompt: a number plays that action, `h` asks the hint agent (if given) for a suggestion, `q` quits.
`--opponent AGENT` sets the opponents of a multi-player game (solo games have none).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from agents.base import Agent, action_mask_of, game_of
from agents.config import ConfigError, parse_yaml
from agents.environment import make_env
from agents.registry import AgentSpecError, make_agent
from envs.core.registration import UnknownGameError, game_record, game_record_of_env_id


def find_env_id(game: str) -> str:
    """The primary Gymnasium id of a game's record (by its name, any case), or a registered id given as is."""
    from agents.environment import tabletop_env_ids

    if game in tabletop_env_ids():
        return game
    try:
        record = game_record(game.lower())
    except UnknownGameError as error:
        raise SystemExit(f"error: {error}") from None
    if record.primary_env_id is None:
        raise SystemExit(f"error: {record.name} has no Gymnasium env; terminal play supports solo games so far")
    return record.primary_env_id


def outcome_line(env_id: str, info: dict[str, Any]) -> str:
    """The end-of-game line: won or lost, the score, and each outcome fact of the game's record that has a value."""
    outcome = "won" if info.get("won") else "lost"
    try:
        facts = game_record_of_env_id(env_id).outcome_facts
    except UnknownGameError:
        facts = ()
    details = "".join(f", {fact} {info[fact]!r}" for fact in facts if info.get(fact) not in (None, ""))
    return f"game over: you {outcome}, score {info.get('score')}{details}"


def parse_env_kwargs(pairs: list[str]) -> dict[str, Any]:
    """`key=value` pairs (values read as YAML scalars) -> env kwargs."""
    kwargs = {}
    for pair in pairs:
        key, separator, value = pair.partition("=")
        if not separator or not key:
            raise SystemExit(f"error: --env-kwarg expects key=value, got {pair!r}")
        kwargs[key] = parse_yaml(value, f"--env-kwarg {pair}")
    return kwargs


def choose_action(
    legal: list[int],
    labels: list[str],
    read_line: Callable[[str], str],
    write: Callable[[str], None],
    hint: Callable[[], int] | None,
) -> int | None:
    """Ask for a number until it names a legal action; None when the player quits."""
    while True:
        for number, (action, label) in enumerate(zip(legal, labels, strict=True), start=1):
            write(f"  [{number}] {label}  (action {action})")
        try:
            answer = read_line("your choice (number, h for a hint, q to quit): ").strip().lower()
        except EOFError:
            return None
        if answer in ("q", "quit", "exit"):
            return None
        if answer in ("h", "hint"):
            if hint is None:
                write("no hint agent: start with --hint AGENT (e.g. --hint mcts:200)")
            else:
                suggestion = hint()
                write(f"hint: [{legal.index(suggestion) + 1}] {labels[legal.index(suggestion)]}")
            continue
        if answer.isdigit() and 1 <= int(answer) <= len(legal):
            return legal[int(answer) - 1]
        write(f"please type a number from 1 to {len(legal)}")


def play(
    env_id: str,
    env_kwargs: dict[str, Any],
    seed: int | None,
    hint_agent: Agent | None = None,
    read_line: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
) -> dict[str, Any] | None:
    """One interactive episode; returns the final info, or None when the player quit."""
    env = make_env(env_id, env_kwargs, render_mode="ansi")
    try:
        game = game_of(env)
        observation, info = env.reset(seed=seed)
        if hint_agent is not None:
            hint_agent.reset(seed)
        while True:
            write(str(env.render()))
            mask = action_mask_of(env, observation)
            legal = [int(a) for a in mask.nonzero()[0]]
            labels = [game.action_label(a) for a in legal]
            state = getattr(env.unwrapped, "state", None)

            def hint(mask: Any = mask, state: Any = state, observation: Any = observation) -> int:
                assert hint_agent is not None
                return hint_agent.act(observation, mask, state=state)

            action = choose_action(legal, labels, read_line, write, hint if hint_agent else None)
            if action is None:
                write("quit")
                return None
            write(f"> {game.action_label(action)}")
            observation, _, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                write(str(env.render()))
                write(outcome_line(env_id, info))
                return dict(info)
    finally:
        env.close()


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and play one game in the terminal."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", help="game name (as its registration record names it) or Gymnasium id")
    parser.add_argument("--opponent", action="append", default=[], help="opponent agent of multi-player games")
    parser.add_argument("--hint", default=None, metavar="AGENT", help="agent asked for suggestions with h")
    parser.add_argument("--seed", type=int, default=None, help="seed of the game (random if omitted)")
    parser.add_argument("--env-kwarg", action="append", default=[], metavar="KEY=VALUE", help="gymnasium.make kwarg")
    args = parser.parse_args(argv)
    try:
        env_id = find_env_id(args.game)
        env_kwargs = parse_env_kwargs(args.env_kwarg)
        probe = make_env(env_id, env_kwargs)
        num_players = game_of(probe).spec.num_players
        if args.opponent and num_players == 1:
            raise AgentSpecError(f"{env_id} is a solo game: it has no opponents, drop --opponent")
        if num_players > 1:
            # Seating opponents needs the multi-player opponent adapter (envs/adapters/opponents.py).
            raise AgentSpecError(f"{env_id} has {num_players} players; terminal play supports solo games so far")
        hint_agent = make_agent(args.hint, probe) if args.hint else None
        probe.close()
    except (AgentSpecError, ConfigError, TypeError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    play(env_id, env_kwargs, args.seed, hint_agent)
    return 0


if __name__ == "__main__":
    sys.exit(main())
