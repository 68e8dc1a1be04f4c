"""Play a tabletop game in the terminal: `tabletop-play GAME [--seat K] [--opponent SPEC ...] [--seed S]`.

Installed, the command is `tabletop-play` (pyproject.toml's [project.scripts]); `python -m agents.evaluation.play` is
the same command.

GAME is a game's record name (any case) or an env id; "package:id" imports the package first (which registers games
that discovery does not find, e.g. `envs.toys:tabletop/card_duel_v0`). `--env-kwarg KEY=VALUE` sets a keyword of the
game (`num_players=3`) or of the adapter (`reward=score`).

A game's name means its first Gymnasium id, else its first PettingZoo id. A Gymnasium id whose game has one seat is
played through its Gymnasium env, shown with the env's ansi render; after each move you are told every chance outcome
that followed, by label. Any other id (a PettingZoo id such as `tabletop/card_duel_v0`, or the Gymnasium id of a
multi-player game) is played through the opponent env (envs/adapters/opponents.py): you play seat K (`--seat`,
default 0) and agents play the others (`--opponent SPEC`, the specs evaluate.py takes: random, heuristic, mcts:N, a
model path; one spec for every other seat, or one per other seat in seat order; default random). You see your seat's
own view and, after each of your moves, what happened until your next turn: every agent's decision and every chance
outcome, by label (chance labels are the game's: a game whose deals name the cards shows them). At the end every
seat's result and rank (by score, ties sharing the better rank).

Each legal action is listed as the game's observer reads it in the position (`Observer.action_text`: a game names
the card, the cost, the effect), and under every event the game's observer says what it did (`Observer.report`:
gains, losses, the effects of a roll). A choice with a single legal action is taken without asking, and said so.
At the prompt a number plays that action, `h` asks the hint agent (`--hint SPEC`) for a suggestion, `q` quits.
`--record FILE` writes the game's replay record (envs/core/replays.py) when the game ends or you quit; replay it
with `python -m envs.replay FILE`. Ctrl-C ends with "interrupted" and exit status 130; a bad game, seat or agent
spec, or a model that cannot be loaded, with one error line and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from agents.common.config import ConfigError, parse_yaml
from agents.evaluation.environment import is_solo_gym_env, make_env
from agents.players.base import Agent, action_mask_of, game_of
from agents.players.registry import AgentSpecError, make_agent, make_opponent_policies
from envs.adapters.driver import split_env_kwargs
from envs.adapters.gym_env import TabletopEnv
from envs.adapters.opponents import OpponentEnv
from envs.core.game import CHANCE, Game, State
from envs.core.outcomes import ranks
from envs.core.registration import UnknownGameError, game_record, game_record_of_env_id, make_env_game
from envs.core.replays import apply_event, build_record, write_record

HUMAN = "human"
"""The label of the person's seat in results and replay records."""
DEFAULT_OPPONENT = "random"
"""The agent at every other seat when no --opponent is given."""
USAGE_EXIT_CODE = 2
"""Exit status of a bad command line (unknown game, seat out of range, bad agent spec)."""
INTERRUPTED_EXIT_CODE = 130
"""Exit status after Ctrl-C (128 + SIGINT), as shells report it."""
ONLY_CHOICE = "(the only legal action: taken automatically)"
"""Written after a move the person did not have to choose."""
REPORT_INDENT = "    "
"""What an event did (`Observer.report`) is written under the event, indented by this."""


def find_env_id(game: str) -> str:
    """The env id to play: an env id as given ("package:id" too), else the game's (by record name, any case)
    primary Gymnasium id, or its first PettingZoo id when it has no Gymnasium env. UnknownGameError otherwise."""
    if "/" in game:
        game_record_of_env_id(game)  # imports a "package:" prefix; UnknownGameError lists the declared ids
        return game
    record = game_record(game.lower())
    return record.primary_env_id or record.pettingzoo_ids[0]


def is_multiplayer(env_id: str, env_kwargs: Mapping[str, Any]) -> bool:
    """Whether `env_id` with `env_kwargs` is played at a table against agents: anything but a Gymnasium id whose game
    has one seat (`agents.evaluation.environment.is_solo_gym_env`: decided by the id and the built game, not by the
    record)."""
    return not is_solo_gym_env(env_id, env_kwargs)


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
            raise ConfigError(f"--env-kwarg {pair}", "", "expected key=value")
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


# ------------------------------------------------------------------------------------------------ seating
class SeatedAgents:
    """An opponent-env policy that seats one agent per seat: each decision goes to the agent of the seat to act."""

    def __init__(self, agents: Mapping[int, Agent]) -> None:
        self.agents = dict(agents)

    def reset(self, seed: int | None = None) -> None:
        """Reseed every agent (seat k's from seed + k); the opponent env calls this at each reset."""
        for seat, agent in self.agents.items():
            agent.reset(None if seed is None else seed + seat)

    def __call__(self, observation: Any, action_mask: np.ndarray, state: State, seat: int) -> int:
        """The decision of the agent at `seat` (it reads the live state, as the opponent env hands it)."""
        return int(self.agents[seat].act(observation, action_mask, state=state))


@dataclass(frozen=True)
class Table:
    """A multi-player game set up to play: the opponent env with the person's seat, and every seat's label."""

    env_id: str
    game_kwargs: dict[str, Any]
    env: OpponentEnv
    seat: int
    labels: tuple[str, ...]
    """Who plays each seat: HUMAN, or the agent's spec."""

    @property
    def game(self) -> Game:
        """The rules-core game."""
        return self.env.game


def opponent_specs(specs: Sequence[str], seat: int, num_players: int) -> dict[int, str]:
    """The agent spec of every seat but `seat`: one spec for all of them, or one per seat in seat order."""
    others = [other for other in range(num_players) if other != seat]
    given = list(specs) or [DEFAULT_OPPONENT]
    if len(given) == 1:
        given *= len(others)
    if len(given) != len(others):
        raise AgentSpecError(
            f"--opponent: give one spec for every other seat, or one per other seat (seats {others}), not {len(specs)}"
        )
    return dict(zip(others, given, strict=True))


def seat_table(env_id: str, env_kwargs: Mapping[str, Any], seat: int, specs: Sequence[str]) -> Table:
    """Build the game, an agent for every other seat and the opponent env; ValueError names a bad seat or kwarg,
    AgentSpecError a bad spec."""
    adapter_kwargs, game_kwargs = split_env_kwargs(env_kwargs)
    game = make_env_game(env_id, game_kwargs)
    num_players = game.spec.num_players
    if not 0 <= seat < num_players:
        raise ValueError(f"--seat {seat}: {game.spec.name} with {num_players} players has seats 0..{num_players - 1}")
    seated = opponent_specs(specs, seat, num_players)
    flat = bool(adapter_kwargs.get("flat", False))
    agents = make_opponent_policies(list(seated.values()), game, flat=flat)
    policy = SeatedAgents(dict(zip(seated, agents, strict=True)))
    env = OpponentEnv(game, [policy], learner_seats=seat, **adapter_kwargs)
    labels = tuple(HUMAN if other == seat else seated[other] for other in range(num_players))
    return Table(env_id, game_kwargs, env, seat, labels)


# ------------------------------------------------------------------------------------------------ playing
class Narrator:
    """Writes what happened since the person's last move: chance outcomes and other seats' decisions by label, and
    under every event (the person's own moves too) what the person sees it do (`Observer.report`).

    It replays the env's history on a state of its own (labels and reports need the state before each event).
    """

    def __init__(
        self,
        env: TabletopEnv | OpponentEnv,
        seat: int,
        labels: Sequence[str],
        write: Callable[[str], None],
    ) -> None:
        self.env = env
        self.seat = seat
        self.labels = list(labels)
        self.write = write
        self.observer = env.game.observer(seat)
        self.state: State | None = None
        self.seen = 0

    def __call__(self) -> None:
        """Write every event of the env's history not written yet (the person's own moves are echoed already)."""
        env, game = self.env, self.env.game
        if self.state is None:
            start = env.start_state
            self.state = game.new_initial_state() if start is None else game.state_from_dict(start)
        history = env.history
        for step in range(self.seen, len(history)):
            player, action = history[step]
            before = self.state.clone()
            label = apply_event(self.state, step + 1, player, action, view=self.seat)
            if player == CHANCE:
                self.write(f"  chance: {label}")
            elif player != self.seat:
                self.write(f"  seat {player} ({self.labels[player]}): {label}")
            for line in self.observer.report(before, player, action, self.state):
                self.write(f"{REPORT_INDENT}{line}")
        self.seen = len(history)


UNCHANGED_VIEW = "(the table is as shown above)"
"""What terminal play writes instead of a view identical to the last one it wrote."""
UNCHANGED_REST = "(the rest of the table is as shown above)"
"""What follows the parts of a view that changed since the last one written."""


def view_sections(text: str) -> list[str]:
    """A view's sections: each line that starts at the margin with the indented lines under it."""
    sections: list[str] = []
    for line in text.splitlines():
        if sections and line[:1].isspace():
            sections[-1] += "\n" + line
        else:
            sections.append(line)
    return sections


class ViewWriter:
    """Writes the person's view of the table before a choice: the whole view the first time, then only the sections
    that changed since the view written last (a person reads what moved, not the whole table again)."""

    def __init__(self, write: Callable[[str], None], view: Callable[[], Any]) -> None:
        self.write = write
        self.view = view
        self.last: list[str] | None = None

    def __call__(self, force: bool = False) -> None:
        """Write the current view's changed sections (all of it the first time, or when `force`)."""
        view = self.view()
        if view is None:
            return
        sections = view_sections(str(view))
        if self.last is None or force:
            self.write("\n".join(sections))
        else:
            shown = set(self.last)
            changed = [section for section in sections if section not in shown]
            if not changed:
                self.write(UNCHANGED_VIEW)
            else:
                self.write("\n".join(changed) + ("\n" + UNCHANGED_REST if len(changed) < len(sections) else ""))
        self.last = sections


def _play_turns(
    env: gym.Env,
    seat: int,
    seed: int | None,
    hint_agent: Agent | None,
    read_line: Callable[[str], str],
    write: Callable[[str], None],
    show: ViewWriter,
    narrate: Callable[[], None],
) -> dict[str, Any] | None:
    """The person's turns from reset to the end (the final info) or until they quit (None).

    `show` writes the view before each choice; `narrate` what happened since the reset or the last move. Each legal
    action is listed as the seat's observer reads it in the position (`Observer.action_text`); a choice with a
    single legal action is taken without asking, and said so.
    """
    game = game_of(env)
    observer = game.observer(seat)
    observation, info = env.reset(seed=seed)
    if hint_agent is not None:
        hint_agent.reset(seed)
    narrate()
    while True:
        mask = action_mask_of(env, observation)
        legal = [int(a) for a in mask.nonzero()[0]]
        state = getattr(env.unwrapped, "state", None)
        labels = [game.action_label(a) if state is None else observer.action_text(state, a) for a in legal]
        if len(legal) == 1:
            action: int | None = legal[0]
            write(f"> {labels[0]}  {ONLY_CHOICE}")
        else:
            show()

            def hint(mask: Any = mask, state: Any = state, observation: Any = observation) -> int:
                assert hint_agent is not None
                return hint_agent.act(observation, mask, state=state)

            action = choose_action(legal, labels, read_line, write, hint if hint_agent else None)
            if action is None:
                write("quit")
                return None
            write(f"> {labels[legal.index(action)]}")
        observation, _, terminated, truncated, info = env.step(action)
        narrate()
        if terminated or truncated:
            return dict(info)


def save_record(
    env: TabletopEnv | OpponentEnv,
    path: Path,
    env_id: str,
    game_kwargs: Mapping[str, Any],
    seed: int | None,
    labels: Sequence[str],
    write: Callable[[str], None],
) -> None:
    """Write the replay record of the game `env` played (finished or not) to `path`."""
    if env.state is None:
        raise RuntimeError("the env was never reset: there is no game to record")
    record = build_record(
        env.game,
        env.history,
        env.state,
        env_id=env_id,
        game_kwargs=game_kwargs,
        seed=seed,
        start_state=env.start_state,
        players=labels,
    )
    write_record(record, path)
    write(f"record: {path} (replay: python -m envs.replay {path})")


def play(
    env_id: str,
    env_kwargs: dict[str, Any],
    seed: int | None,
    hint_agent: Agent | None = None,
    read_line: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
    record_path: Path | None = None,
) -> dict[str, Any] | None:
    """One interactive episode of a solo game; returns the final info, or None when the player quit."""
    env = make_env(env_id, env_kwargs, render_mode="ansi")
    try:
        played = env.unwrapped
        if not isinstance(played, TabletopEnv):
            raise TypeError(f"{env_id} is not a tabletop env: it cannot be played here")
        narrator = Narrator(played, 0, [HUMAN], write)
        info = _play_turns(env, 0, seed, hint_agent, read_line, write, ViewWriter(write, env.render), narrator)
        if info is not None:
            write(str(env.render()))
            write(outcome_line(env_id, info))
        if record_path is not None:
            _, game_kwargs = split_env_kwargs(env_kwargs)
            save_record(played, record_path, env_id, game_kwargs, seed, [HUMAN], write)
        return info
    finally:
        env.close()


def result_lines(state: State, labels: Sequence[str], seat: int) -> list[str]:
    """The end of a multi-player game: the person's result, then every seat's result, score and rank by score."""
    if not state.is_terminal():
        return ["the game did not end"]
    returns, scores = state.returns(), state.score()
    places = ranks(scores)
    words = ["won" if value > 0 else "lost" if value < 0 else "drew" for value in returns]
    lines = [f"game over: you (seat {seat}) {words[seat]}, rank {places[seat]} of {len(places)}"]
    for other, label in enumerate(labels):
        lines.append(
            f"  seat {other} ({label}): {words[other]} (return {returns[other]:g}), score {scores[other]:g}, "
            f"rank {places[other]}"
        )
    return lines


def play_table(
    table: Table,
    seed: int | None,
    hint_agent: Agent | None = None,
    read_line: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
    record_path: Path | None = None,
) -> dict[str, Any] | None:
    """One interactive game of a multi-player table (`seat_table`); returns the final info, or None on quitting."""
    env, seat = table.env, table.seat
    observer = table.game.observer(seat)
    narrator = Narrator(env, seat, table.labels, write)
    write(
        f"you play seat {seat} of {len(table.labels)}: "
        + ", ".join(f"seat {s} {who}" for s, who in enumerate(table.labels))
    )

    show = ViewWriter(write, lambda: None if env.state is None else observer.text(env.state))
    try:
        info = _play_turns(env, seat, seed, hint_agent, read_line, write, show, narrator)
        if info is not None and env.state is not None:
            show(force=True)
            for line in result_lines(env.state, table.labels, seat):
                write(line)
        if record_path is not None:
            save_record(env, record_path, table.env_id, table.game_kwargs, seed, table.labels, write)
        return info
    finally:
        env.close()


def main(
    argv: list[str] | None = None, read_line: Callable[[str], str] = input, write: Callable[[str], None] = print
) -> int:
    """Parse the command line and play one game in the terminal."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", help="game name (as its registration record names it) or env id ('package:id' too)")
    parser.add_argument("--seat", type=int, default=None, help="your seat in a multi-player game (default 0)")
    parser.add_argument(
        "--opponent",
        action="append",
        default=[],
        metavar="SPEC",
        help=f"agent of the other seats (default {DEFAULT_OPPONENT}); repeat for one per other seat in seat order",
    )
    parser.add_argument("--hint", default=None, metavar="AGENT", help="agent asked for suggestions with h")
    parser.add_argument("--seed", type=int, default=None, help="seed of the game (random if omitted)")
    parser.add_argument("--env-kwarg", action="append", default=[], metavar="KEY=VALUE", help="game or adapter kwarg")
    parser.add_argument("--record", type=Path, default=None, metavar="FILE", help="write the game's replay record")
    args = parser.parse_args(argv)
    try:
        return _play_command(args, read_line, write)
    except KeyboardInterrupt:  # while the game, its agents or a model are being set up, or while playing
        write("\ninterrupted")
        return INTERRUPTED_EXIT_CODE


def _play_command(args: argparse.Namespace, read_line: Callable[[str], str], write: Callable[[str], None]) -> int:
    """Set up the game of a parsed command line and play it (main without the Ctrl-C handling)."""
    table: Table | None = None
    try:
        env_id = find_env_id(args.game)
        env_kwargs = parse_env_kwargs(args.env_kwarg)
        if is_multiplayer(env_id, env_kwargs):
            table = seat_table(env_id, env_kwargs, 0 if args.seat is None else args.seat, args.opponent)
            hint_agent = make_opponent_policies([args.hint], table.game, table.env.flat)[0] if args.hint else None
        else:
            if args.seat is not None or args.opponent:
                raise AgentSpecError(f"{env_id} is a solo game: it has no seats to choose and no opponents")
            probe = make_env(env_id, env_kwargs)
            hint_agent = make_agent(args.hint, probe) if args.hint else None
            probe.close()
    except (AgentSpecError, ConfigError, UnknownGameError, TypeError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return USAGE_EXIT_CODE
    if table is not None:
        play_table(table, args.seed, hint_agent, read_line, write, args.record)
    else:
        play(env_id, env_kwargs, args.seed, hint_agent, read_line, write, args.record)
    return 0


if __name__ == "__main__":
    sys.exit(main())
