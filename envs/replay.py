"""Replay a rules-core replay record: `python -m envs.replay FILE [--view public|omniscient|seat K] [--render none]`.

A record (envs/core/replays.py; written by `evaluate.py --record` and `agents.evaluation.play --record`) holds the
game, its kwargs, its start and every decision and chance outcome in order, so the replay draws nothing: it rebuilds
the game from its registration record, applies each event (checking that the recorded player is the one to act and
that the action is legal) and checks that the result equals the recorded one. Each event is printed with its label;
after each decision the chosen view's text: `public` (what a spectator sees, the default), `omniscient` (everything,
hidden cards included) or `seat K` (that seat's own view). `--render none` prints the events without the views.

Exit status 0 when the replay matches the record, 1 with one line naming the problem otherwise. Recordings of
earlier versions (env_id, seed and actions) are refused with an "old format" error: record the episode again.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from envs.core.game import CHANCE
from envs.core.replays import VIEWS, ReplayedEvent, ReplayError, ReplayRecord, View, read_record, replay, view_text

RENDER_MODES = ("ansi", "none")
"""`--render`: "ansi" prints the view's text after each decision, "none" only the events."""


def parse_view(words: list[str]) -> View:
    """`--view` words -> a view: ["public"], ["omniscient"] or ["seat", "K"] (ValueError otherwise)."""
    if len(words) == 1 and words[0] in VIEWS:
        return words[0]
    if len(words) == 2 and words[0] == "seat" and words[1].isdigit():
        return int(words[1])
    raise ValueError(f"--view expects public, omniscient or seat K, got {' '.join(words)!r}")


def seat_name(record: ReplayRecord, player: int) -> str:
    """ "chance", or "seat 2" with the seat's label from the record ("seat 2 (heuristic)")."""
    if player == CHANCE:
        return "chance"
    label = record.players[player] if record.players is not None and 0 <= player < len(record.players) else None
    return f"seat {player} ({label})" if label else f"seat {player}"


def print_event(record: ReplayRecord, event: ReplayedEvent) -> None:
    """One event line, and the view's text after a decision."""
    print(f"--- step {event.step}/{len(record.events)}: {seat_name(record, event.player)}: {event.label}")
    if event.text is not None:
        print(event.text)


def print_result(record: ReplayRecord) -> None:
    """The recorded (and now replayed) result, a line per seat."""
    result = record.result
    if result is None:
        print("--- end (the record has no result)")
        return
    print(f"--- end: {'game over' if result.terminal else 'the game did not end'}")
    for seat, value in enumerate(result.returns):
        score = f", score {result.scores[seat]:g}" if result.scores is not None else ""
        facts = result.facts[seat] if seat < len(result.facts) else {}
        shown = "".join(f", {key} {fact!r}" for key, fact in facts.items() if fact not in (None, ""))
        print(f"{seat_name(record, seat)}: return {value:g}{score}{shown}")


def main(argv: list[str] | None = None) -> int:
    """Replay a record file, print every event (and the chosen view), and check the recorded result."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", type=Path, help="replay record JSON (evaluate.py / agents.evaluation.play --record)")
    parser.add_argument("--view", nargs="+", default=["public"], metavar="VIEW", help="public, omniscient or seat K")
    parser.add_argument("--render", choices=RENDER_MODES, default="ansi", help="none: print the events only")
    args = parser.parse_args(argv)
    try:
        view = parse_view(args.view)
    except ValueError as error:
        parser.error(str(error))
    try:
        record = read_record(args.file)
        header = f"replay of {record.game} {record.game_kwargs}" + (f" ({record.env_id})" if record.env_id else "")
        seed = f", seed {record.seed}" if record.seed is not None else ""
        start = ", from a set position" if record.start_state is not None else ""
        print(f"{header}{seed}{start}: {len(record.events)} events")
        final = replay(record, None if args.render == "none" else view, lambda event: print_event(record, event))
    except (ReplayError, TypeError, LookupError) as error:  # ValueErrors are ReplayErrors; a game's own errors too
        print(f"error: {error}", file=sys.stderr)
        return 1
    if args.render != "none" and (not record.events or record.events[-1][0] == CHANCE):
        print(view_text(final, view))  # the final position, unless the last decision's view just showed it
    print_result(record)
    print("the replay matches the record" if record.result is not None else "every event replayed (no result to check)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
