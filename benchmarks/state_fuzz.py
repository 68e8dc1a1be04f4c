"""Mutation fuzzing of a game's saved states: is every impossible dict refused, naming the field, and nothing else?

`Game.state_from_dict` promises to rebuild any position the rules can reach and to refuse every other dict with a
`StateFormatError` naming the bad field. This benchmark measures how far a game keeps that promise. It saves states
drawn from seeded random games (decision, chance and end nodes alike) as JSON, makes one change in each copy and
loads it back. The change sits at a path drawn by first drawing a top-level field uniformly, then a place inside it
uniformly (the field itself included, which may also be left out):

- an integer moved by +-1 or +-100, replaced by 10**9, 10**40, -1 or 2**63 (past any bound, beyond a machine word,
  negative), or written as a float, a string or null;
- a boolean flipped, or written as an integer or a string;
- a string swapped for another name found in the game's saved states (a card, a phase, a kind of decision), or for
  an unknown one, or written as an integer or null;
- a list shortened, extended with a copy of its last item, two of its items swapped, or written as a mapping or a
  string;
- a mapping with a key removed, an unknown key added, a key renamed to another name of the game, or written as a
  list; null written as 0, a name or a list.

Each mutated dict falls in one class:

- **refused**: `state_from_dict` raised `StateFormatError` naming a field (what the game promises for a bad dict);
- **raised something else**: it raised any other exception (`KeyError`, `TypeError`, `OverflowError`,
  `AssertionError`, a `MemoryError` under the memory cap...), a `StateFormatError` naming no field, or loading and
  checking it ran past the time limit: a bad dict must cost little and fail clearly;
- **accepted, same state**: the state loaded writes back the original dict (the change did not matter);
- **accepted, checks pass**: a different state that passes every check below (a food count one lower is a position
  the rules can reach; so, as far as these checks can tell, is a flag the current phase never reads);
- **accepted though invalid**: a different state that fails one of the checks below.

The checks of an accepted, different state, in order (the first failure gives the kind of failure counted):

1. it survives JSON: `envs.core.testing.check_json_round_trip` (the reloaded state writes the same dict and offers
   the same seat, legal actions and chance outcomes);
2. its node is sound: a chance node's outcomes are distinct with positive probabilities summing to 1; a decision
   node's legal actions are sorted, unique, in range and agree with the mask; at a decision node and at the end
   (where the adapters observe) every seat's and the public observation has its declared size and is finite and
   within bounds; the end gives one return per seat; and the game's own invariants given with `--invariants` hold;
3. for a game with hidden information, each seat's `resample_hidden` gives a state whose dict the game accepts;
4. a random continuation of up to `--steps` steps (seeded legal decisions and sampled chance outcomes) applies
   without raising, every node on the way is sound as in 2, and every tenth state and the last survive JSON as in 1
   (so the rules never lead from an accepted position to one the game refuses).

"Accepted though invalid" is therefore a lower bound: a changed value that no rule reads soon, or that breaks no
check, passes. A field whose changes are often accepted is worth a look in the report's table of accepted changes.
A **control** runs the same checks on every unmutated state: a failure there is a fault of the game or of its
validator, not of a mutation, and is reported beside the figures (it should be 0).

    python -m benchmarks.state_fuzz --game GAME [--kwargs KEY=VALUE] [--states 100] [--mutations 10] [--steps 40]
        [--invariants MODULE:FUNCTION]
    python -m benchmarks.state_fuzz --game envs.toys:card_duel --states 20     # "package:name"

Without --kwargs every combination of the record's settings is fuzzed (the default game for a record without any).
Reports: benchmarks/results/<game>_state_fuzz.md and .json (the classes per setting and per top-level field, and
examples of each kind of failure and of each field's accepted changes).
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import json
import math
import resource
import signal
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.common import RESULTS_DIR, write_report
from benchmarks.throughput import parse_kwargs
from envs.core.game import CHANCE, Game, State, StateFormatError
from envs.core.registration import (
    GameRecord,
    UnknownGameError,
    game_record,
    load_attribute,
    make_game,
    resolve_env_id,
)
from envs.core.testing import (
    Invariant,
    check_chance_node,
    check_decision_node,
    check_json_round_trip,
    check_observation,
)

CLASSES = (
    "refused",
    "raised something else",
    "accepted, same state",
    "accepted, checks pass",
    "accepted though invalid",
)
"""What happens to a mutated dict (the module docstring defines each)."""
LARGE_STEP = 100
"""The large change of an integer (the small one is 1)."""
HUGE_INTEGERS = (10**9, 10**40, -1, 2**63)
"""Integers written in place of any integer: past every bound a field may have, beyond what a machine word holds
(`len()` and numpy raise OverflowError), and a negative one where counts and indices are never negative."""
UNKNOWN_NAME = "no such name"
"""A string no game uses, for the unknown-name mutations."""
CLOSURE_EVERY = 10
"""Every how many continuation steps the reached state is saved and loaded again."""
EXAMPLES = 3
"""Examples kept for each kind of failure."""

Where = tuple[str | int, ...]
"""Where a value sits inside a saved state: dict keys and list indices."""
FAILED = ("raised something else", "accepted though invalid")
"""The classes the game promises never to produce."""


class TimeLimitExceeded(Exception):
    """A mutated dict took longer than the time limit to load and check."""


@dataclass
class SettingReport:
    """What the mutated dicts of one game setting did."""

    mutated: int = 0
    classes: Counter[str] = field(default_factory=Counter)
    by_field: dict[str, Counter[str]] = field(default_factory=dict)
    """Top-level field -> class -> count."""
    failures: dict[str, list[str]] = field(default_factory=dict)
    """Kind of failure ("raised KeyError", "invalid: rules raised IndexError", ...) -> examples."""
    failure_counts: Counter[str] = field(default_factory=Counter)
    accepted_examples: dict[str, list[str]] = field(default_factory=dict)
    """Top-level field -> changes accepted as a different state that passed the checks (a few)."""
    control_states: int = 0
    control_failures: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def add(self, field_name: str, outcome: str, kind: str = "", example: str = "") -> None:
        """Count one mutated dict's class under its top-level field, and its kind of failure with an example."""
        self.mutated += 1
        self.classes[outcome] += 1
        self.by_field.setdefault(field_name, Counter())[outcome] += 1
        if kind:
            self.failure_counts[kind] += 1
            examples = self.failures.setdefault(kind, [])
            if len(examples) < EXAMPLES:
                examples.append(example)
        elif outcome == "accepted, checks pass":
            accepted = self.accepted_examples.setdefault(field_name, [])
            if len(accepted) < EXAMPLES:
                accepted.append(example)


# ================================================================================================ states
def sampled_states(game: Game, seed: int, games: int, states: int) -> list[State]:
    """`states` states drawn uniformly from those of `games` seeded random games (terminal ones included)."""
    rng = np.random.default_rng(seed)
    reached: list[State] = []
    for _ in range(games):
        state = game.new_initial_state()
        while True:
            reached.append(state.clone())
            if state.is_terminal():
                break
            if state.current_player() == CHANCE:
                state.apply_action(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])
    chosen = rng.choice(len(reached), size=min(states, len(reached)), replace=False)
    return [reached[int(index)] for index in sorted(chosen)]


def saved(state: State) -> dict[str, Any]:
    """The state's dict as a user's JSON file holds it."""
    loaded: dict[str, Any] = json.loads(json.dumps(state.to_dict()))
    return loaded


def names_in(value: Any, found: set[str]) -> None:
    """Add every string value and mapping key inside a saved state to `found` (the game's names)."""
    if isinstance(value, str):
        found.add(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            found.add(key)
            names_in(item, found)
    elif isinstance(value, list):
        for item in value:
            names_in(item, found)


# ================================================================================================ mutations
def paths_in(value: Any, prefix: Where) -> list[Where]:
    """Every place inside `value` (itself included), as paths from the top of the saved state."""
    paths = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            paths += paths_in(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            paths += paths_in(item, (*prefix, index))
    return paths


def mutations_of(value: Any, names: list[str], rng: np.random.Generator) -> list[tuple[str, Any]]:
    """The changes offered for one value, each as (description, new value)."""
    other_name = names[int(rng.integers(len(names)))] if names else UNKNOWN_NAME
    if isinstance(value, bool):
        return [("flipped", not value), ("as an integer", int(value)), ("as a string", str(value).lower())]
    if isinstance(value, int):
        steps = [("+1", value + 1), ("-1", value - 1), (f"+{LARGE_STEP}", value + LARGE_STEP)]
        steps += [(f"-{LARGE_STEP}", value - LARGE_STEP)]
        steps += [(f"set to {huge_text(huge)}", huge) for huge in HUGE_INTEGERS if huge != value]
        return [*steps, ("as a float", value + 0.5), ("as a string", str(value)), ("as null", None)]
    if isinstance(value, float):
        return [("+1", value + 1.0), ("negated", -value - 1.0), ("as a string", str(value)), ("as null", None)]
    if isinstance(value, str):
        changes = [("an unknown name", UNKNOWN_NAME), ("as an integer", 0), ("as null", None)]
        return [*changes, ("swapped for another name", other_name)] if other_name != value else changes
    if isinstance(value, list):
        changes = [("as a mapping", {}), ("as a string", UNKNOWN_NAME)]
        if value:
            changes += [("shortened", value[:-1]), ("extended", [*value, copy.deepcopy(value[-1])])]
        else:
            changes += [("extended", [0])]
        if len(value) >= 2:
            i, j = (int(index) for index in rng.choice(len(value), size=2, replace=False))
            swapped = list(value)
            swapped[i], swapped[j] = swapped[j], swapped[i]
            changes.append((f"items {i} and {j} swapped", swapped))
        return changes
    if isinstance(value, dict):
        changes = [("as a list", []), ("an unknown key added", {**value, UNKNOWN_NAME: 0})]
        if value:
            key = list(value)[int(rng.integers(len(value)))]
            changes.append((f"key {key!r} removed", {k: v for k, v in value.items() if k != key}))
            if other_name not in value:
                renamed = {other_name if k == key else k: v for k, v in value.items()}
                changes.append((f"key {key!r} renamed to {other_name!r}", renamed))
        return changes
    return [("as 0", 0), ("as a name", other_name), ("as a list", [])]  # null


def huge_text(number: int) -> str:
    """A huge integer as a power (10**40, 2**63) where it is one, else its digits."""
    for base in (10, 2):
        exponent = round(math.log(number, base)) if number > 0 else 0
        if exponent > 6 and base**exponent == number:
            return f"{base}**{exponent}"
    return str(number)


def mutate(data: dict[str, Any], names: list[str], rng: np.random.Generator) -> tuple[dict[str, Any], str, str]:
    """A copy of `data` with one change: (the copy, its top-level field, a description of the change)."""
    top = list(data)[int(rng.integers(len(data)))]
    paths = paths_in(data[top], (top,))
    path = paths[int(rng.integers(len(paths)))]
    mutated = copy.deepcopy(data)
    parent: Any = mutated
    for key in path[:-1]:
        parent = parent[key]
    current = parent[path[-1]]
    changes = mutations_of(current, names, rng)
    if len(path) == 1:  # a top-level field may also be left out
        changes.append(("removed", None))
    description, new_value = changes[int(rng.integers(len(changes)))]
    where = "".join(f"[{key}]" if isinstance(key, int) else f".{key}" for key in path).lstrip(".")
    if description == "removed":
        del parent[path[-1]]
    else:
        parent[path[-1]] = new_value
    if description == "removed":
        return mutated, top, f"{where} removed"
    return mutated, top, f"{where} {description} ({shorten(current)} -> {shorten(new_value)})"


def shorten(value: Any, limit: int = 60) -> str:
    """A value's repr (a huge integer as a power), cut to `limit` characters."""
    text = huge_text(value) if type(value) is int and abs(value) >= 10**7 else repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


# ================================================================================================ checks
def check_node(game: Game, state: State, invariants: tuple[Invariant, ...] = ()) -> None:
    """The node is sound: a chance node's outcomes; a decision node's legal actions and mask; at a decision node and
    at the end (where the adapters observe) every seat's and the public observation; the returns at the end; and
    the given invariants everywhere."""
    if state.current_player() == CHANCE:
        check_chance_node(state)
    else:
        if state.is_terminal():
            returns = state.returns()
            assert len(returns) == game.spec.num_players, f"{len(returns)} returns for {game.spec.num_players} seats"
        else:
            check_decision_node(state)
        for seat in [*range(game.spec.num_players), None]:
            check_observation(game.observer(seat), state)
    for invariant in invariants:
        invariant(state)


def invalid_reason(
    game: Game, state: State, rng: np.random.Generator, steps: int, invariants: tuple[Invariant, ...] = ()
) -> tuple[str, str]:
    """Why an accepted state is not a position the rules could reach, as (kind, details): the kind names the stage
    that failed and the error's type (an AssertionError is a check's, or one the rules raise); ("", "") when every
    check passes."""
    stage, step = "round trip", 0
    try:
        check_json_round_trip(game, state)
        stage = "node"
        check_node(game, state, invariants)
        if game.spec.hidden_information:
            stage = "resampling"
            for seat in range(game.spec.num_players):
                game.state_from_dict(state.resample_hidden(seat, rng).to_dict())
        state = state.clone()
        for step in range(1, steps + 1):
            if state.is_terminal():
                break
            stage = "continuation: rules"
            if state.current_player() == CHANCE:
                state.apply_action(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])
            stage = "continuation: node"
            check_node(game, state, invariants)
            if step % CLOSURE_EVERY == 0 or state.is_terminal() or step == steps:
                stage = "continuation: round trip"
                check_json_round_trip(game, state)
    except TimeLimitExceeded:
        raise
    except Exception as error:
        where = f" at step {step}" if stage.startswith("continuation") else ""
        return f"{stage}: {type(error).__name__}", f"{stage}{where}: {type(error).__name__}: {first_line(error)}"
    return "", ""


def first_line(error: BaseException) -> str:
    """The first line of an error's message, cut to 160 characters."""
    lines = str(error).strip().splitlines()
    return shorten(lines[0] if lines else "", 160)


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise TimeLimitExceeded in the block after `seconds` (a real-time interval timer; main thread only)."""

    def expire(signum: int, frame: Any) -> None:
        raise TimeLimitExceeded(f"over {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@contextlib.contextmanager
def memory_limit(gigabytes: float) -> Iterator[None]:
    """Cap this process's address space in the block (0: no cap), so that a dict that asks for gigabytes raises
    MemoryError instead of exhausting the machine; the previous cap comes back after."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if gigabytes > 0:
        cap = int(gigabytes * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (cap if hard == resource.RLIM_INFINITY else min(cap, hard), hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


# ================================================================================================ the fuzz
def fuzz_game(
    game: Game,
    seed: int = 0,
    games: int = 4,
    states: int = 100,
    mutations: int = 10,
    steps: int = 40,
    seconds: float = 10.0,
    invariants: tuple[Invariant, ...] = (),
) -> SettingReport:
    """Mutate `mutations` copies of each of `states` random-play states of `game` and class every one."""
    start = time.perf_counter()
    report = SettingReport()
    rng = np.random.default_rng(seed + 1)
    originals = sampled_states(game, seed, games, states)
    found: set[str] = set()
    dicts = [saved(state) for state in originals]
    for data in dicts:
        names_in(data, found)
    names = sorted(found)
    for data in dicts:
        report.control_states += 1
        try:
            _, reason = invalid_reason(game, game.state_from_dict(data), rng, steps, invariants)
        except Exception as error:  # a reached position refused: the validator's fault, reported as such
            reason = f"state_from_dict: {type(error).__name__}: {first_line(error)}"
        if reason:
            report.control_failures.append(reason)
    for data in dicts:
        for _ in range(mutations):
            mutated, top, change = mutate(data, names, rng)
            try:
                with time_limit(seconds):
                    classify(game, data, mutated, top, change, rng, steps, invariants, report)
            except TimeLimitExceeded:
                report.add(top, "raised something else", f"over the time limit ({seconds:g} s)", change)
    report.seconds = time.perf_counter() - start
    return report


def classify(
    game: Game,
    original: dict[str, Any],
    mutated: dict[str, Any],
    top: str,
    change: str,
    rng: np.random.Generator,
    steps: int,
    invariants: tuple[Invariant, ...],
    report: SettingReport,
) -> None:
    """Load one mutated dict and count its class (and its kind of failure) in `report`."""
    try:
        state = game.state_from_dict(mutated)
    except StateFormatError as error:
        if error.field:
            report.add(top, "refused")
        else:  # the promise is a refusal naming the field
            kind = "StateFormatError naming no field"
            report.add(top, "raised something else", kind, f"{change}: {first_line(error)}")
        return
    except TimeLimitExceeded:
        raise
    except Exception as error:  # what the game promises never to do: count it by its type
        report.add(top, "raised something else", f"raised {type(error).__name__}", f"{change}: {first_line(error)}")
        return
    try:
        same = saved(state) == original
    except TimeLimitExceeded:
        raise
    except Exception as error:
        kind = f"to_dict: {type(error).__name__}"
        report.add(top, "accepted though invalid", kind, f"{change}: {kind}: {first_line(error)}")
        return
    if same:
        report.add(top, "accepted, same state")
        return
    kind, reason = invalid_reason(game, state, rng, steps, invariants)
    if kind:
        report.add(top, "accepted though invalid", kind, f"{change}: {reason}")
    else:
        report.add(top, "accepted, checks pass", example=change)


# ================================================================================================ the report
def percent(count: int, total: int) -> str:
    """`count` as a percentage of `total`, with the count."""
    return f"{100.0 * count / total:.2f}% ({count})" if total else "-"


def setting_label(record: GameRecord, kwargs: dict[str, Any]) -> str:
    """How a setting is named in the report: the game and its kwargs."""
    arguments = ", ".join(f"{key}={value!r}" for key, value in kwargs.items())
    return f"{record.name}({arguments})"


def markdown_report(command: str, reports: dict[str, SettingReport]) -> str:
    """The tables: classes per setting; then, per setting, the fields and kinds of failure with examples."""
    lines = [
        "# Mutation fuzzing of saved states",
        "",
        f"`{command}` (benchmarks/state_fuzz.py defines the mutations, the classes and the checks)",
        "",
        "| setting | mutated dicts | " + " | ".join(CLASSES) + " | control failures | seconds |",
        "|---|---|" + "---|" * len(CLASSES) + "---|---|",
    ]
    for label, report in reports.items():
        shares = " | ".join(percent(report.classes[name], report.mutated) for name in CLASSES)
        control = f"{len(report.control_failures)} of {report.control_states}"
        lines.append(f"| {label} | {report.mutated} | {shares} | {control} | {report.seconds:.0f} |")
    for label, report in reports.items():
        bad = [name for name, counts in report.by_field.items() if any(counts[kind] for kind in FAILED)]
        lines += ["", f"## {label}", ""]
        if report.control_failures:
            lines += [f"Control failures (unmutated states): {sorted(set(report.control_failures))[:EXAMPLES]}", ""]
        lines += accepted_table(report)
        if not bad:
            lines.append("Every other mutated dict was refused.")
            continue
        lines += ["| field | mutated | raised something else | accepted though invalid |", "|---|---|---|---|"]
        for name in sorted(bad):
            counts = report.by_field[name]
            total = sum(counts.values())
            lines.append(
                f"| {name} | {total} | {counts['raised something else']} | {counts['accepted though invalid']} |"
            )
        lines += ["", "| kind of failure | count | examples |", "|---|---|---|"]
        for kind, count in report.failure_counts.most_common():
            examples = "<br>".join(example.replace("|", "\\|") for example in report.failures[kind])
            lines.append(f"| {kind} | {count} | {examples} |")
    return "\n".join(lines) + "\n"


def accepted_table(report: SettingReport) -> list[str]:
    """Markdown lines: the fields whose changes were accepted as different states that pass the checks, the most
    often accepted first, with examples (to judge by eye whether each could happen)."""
    rows = sorted(report.accepted_examples, key=lambda name: -report.by_field[name]["accepted, checks pass"])
    if not rows:
        return []
    lines = ["| field | accepted, checks pass | examples |", "|---|---|---|"]
    for name in rows:
        examples = "<br>".join(example.replace("|", "\\|") for example in report.accepted_examples[name])
        lines.append(f"| {name} | {report.by_field[name]['accepted, checks pass']} | {examples} |")
    return [*lines, ""]


def build_parser() -> argparse.ArgumentParser:
    """The command line of the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", required=True, help='registered game, or "package:name" for one registered there')
    parser.add_argument(
        "--kwargs", action="append", default=[], metavar="KEY=VALUE", help="game kwarg (YAML scalar), repeatable"
    )
    parser.add_argument("--games", type=int, default=4, help="random games per setting to draw states from")
    parser.add_argument("--states", type=int, default=100, help="states drawn per setting")
    parser.add_argument("--mutations", type=int, default=10, help="mutated copies of each state")
    parser.add_argument("--steps", type=int, default=40, help="steps of the random continuation of an accepted state")
    parser.add_argument("--seconds", type=float, default=10.0, help="time limit of one mutated dict")
    parser.add_argument("--memory-gb", type=float, default=4.0, help="address-space cap while fuzzing (0: none)")
    parser.add_argument(
        "--invariants",
        action="append",
        default=[],
        metavar="MODULE:FUNCTION",
        help="a game's own invariant (state -> None, AssertionError when broken), checked too; repeatable",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None, help="report path stem (default benchmarks/results/<game>_state_fuzz)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Fuzz every setting of the game, print the tables and write the report."""
    parser = build_parser()
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        record = game_record(resolve_env_id(args.game))
        settings = [parse_kwargs(args.kwargs)] if args.kwargs else record.setting_combinations()
        games = {setting_label(record, kwargs): make_game(record, kwargs) for kwargs in settings}
        invariants = tuple(load_attribute(target) for target in args.invariants)
    except (UnknownGameError, TypeError, ValueError, ImportError) as error:
        parser.error(str(error))
    reports: dict[str, SettingReport] = {}
    with memory_limit(args.memory_gb):
        for label, game in games.items():
            reports[label] = fuzz_game(
                game,
                seed=args.seed,
                games=args.games,
                states=args.states,
                mutations=args.mutations,
                steps=args.steps,
                seconds=args.seconds,
                invariants=invariants,
            )
    command = "python -m benchmarks.state_fuzz " + " ".join(sys.argv[1:] if argv is None else argv)
    markdown = markdown_report(command, reports)
    print(markdown)
    document = {
        "game": record.name,
        "arguments": vars(args),
        "classes": list(CLASSES),
        "huge_integers": [huge_text(huge) for huge in HUGE_INTEGERS],
        "settings": {
            label: {
                "mutated": report.mutated,
                "classes": {name: report.classes[name] for name in CLASSES},
                "by_field": {name: dict(counts) for name, counts in sorted(report.by_field.items())},
                "failure_counts": dict(report.failure_counts.most_common()),
                "failure_examples": report.failures,
                "accepted_examples": report.accepted_examples,
                "control_states": report.control_states,
                "control_failures": report.control_failures,
                "seconds": report.seconds,
            }
            for label, report in reports.items()
        },
    }
    stem = RESULTS_DIR / f"{record.name}_state_fuzz" if args.out is None else Path(args.out)
    write_report(stem, markdown, document)
    return 0


if __name__ == "__main__":
    sys.exit(main())
