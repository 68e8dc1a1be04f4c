"""How often the tableau grid's edge binds in whole Unearth games (a measurement, not a test).

`benchmarks.unearth_tableau_edge` measures the edge on tableaux alone; this plays whole games under the full rules
(random play and the heuristic, 2 and 4 players) and, at every Stone placement, compares the seat's legal cells
with those of a mirror tableau of radius R + 2 holding the same Stones and Wonders (every cell that can touch a
Stone within R has its whole ring on the mirror, so its legal cells are an unbounded table's). It reports the share
of games in which the edge removed at least one legal cell, the share of placements it did, the placements
checked, and the farthest Stone's distance from the centre:

    python -m benchmarks.unearth_edge_in_play [--games 300] [--seed 0]

Writes benchmarks/results/unearth_edge_in_play.{json,md}.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from agents.heuristics.unearth import UnearthHeuristicAgent
from benchmarks.common import RESULTS_DIR, write_report
from envs.core.game import CHANCE
from envs.core.hexgrid import distance
from envs.unearth.game import UnearthGame
from envs.unearth.rules import PLACE_STONE, UnearthState
from envs.unearth.tableau import CENTRE_HEX, Tableau

MIRROR_MARGIN = 2
"""The mirror grid's extra radius (as in benchmarks.unearth_tableau_edge)."""
REPORT_STEM = "unearth_edge_in_play"
"""File name (without suffix) of the reports under benchmarks/results/."""


@dataclass
class InPlayRow:
    """One (players, policy) row."""

    players: int
    policy: str
    games: int
    placements: int
    games_edge_removed_share: float
    placements_edge_removed_share: float
    farthest_max: int
    farthest_p99: float
    radius: int


def mirror_of(tableau: Tableau) -> Tableau:
    """The same Stones and Wonders on a grid MIRROR_MARGIN larger."""
    data = tableau.to_dict()
    return Tableau.from_dict({**data, "radius": tableau.radius + MIRROR_MARGIN})


def play(players: int, policy: str, games: int, seed: int) -> InPlayRow:
    """Play `games` whole games and count the placements where the edge removed a legal cell."""
    game = UnearthGame(num_players=players)
    heuristic = UnearthHeuristicAgent(game)
    rng = np.random.default_rng([seed, players, len(policy)])
    placements = removed_placements = games_removed = 0
    farthest: list[int] = []
    radius = 0
    for _ in range(games):
        state = game.new_initial_state()
        assert isinstance(state, UnearthState)
        removed = False
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                state.apply_action(state.sample_chance(rng))
                continue
            frame = state.decision()
            if frame is not None and frame.kind == PLACE_STONE:
                tableau = state.tableaus[player]
                radius = tableau.radius
                placements += 1
                if mirror_of(tableau).legal_count > tableau.legal_count:
                    removed_placements += 1
                    removed = True
            legal = state.legal_actions()
            if policy == "heuristic":
                mask = np.zeros(game.spec.num_actions, dtype=np.int8)
                mask[legal] = 1
                action = heuristic.act(None, mask, state=state)
            else:
                action = legal[int(rng.integers(len(legal)))]
            state.apply_action(action)
        games_removed += removed
        for tableau in state.tableaus:
            cells = [distance(CENTRE_HEX, tableau.hex_at(cell)) for cell, _ in tableau.stones()]
            farthest.append(max(cells, default=0))
    return InPlayRow(
        players=players,
        policy=policy,
        games=games,
        placements=placements,
        games_edge_removed_share=games_removed / games,
        placements_edge_removed_share=removed_placements / max(placements, 1),
        farthest_max=max(farthest),
        farthest_p99=float(np.percentile(farthest, 99)),
        radius=radius,
    )


def markdown(rows: list[InPlayRow], seed: int, seconds: float) -> str:
    """The table as Markdown."""
    lines = [
        "# Unearth: the tableau grid's edge in whole games",
        "",
        f"`python -m benchmarks.unearth_edge_in_play` (seed {seed}, {seconds:.0f} s). At every Stone placement the "
        "seat's legal cells are compared with a mirror tableau of radius R + 2 (an unbounded table). Farthest: the "
        "farthest Stone of each final tableau from the centre (max / 99th percentile over every seat's tableau).",
        "",
        "| players | policy | games | placements | games where the edge removed a legal cell | placements | "
        "farthest max / p99 | radius |",
        "|---:|---|---:|---:|---:|---:|---|---:|",
    ]
    for row in rows:
        lines.append(
            f"| {row.players} | {row.policy} | {row.games} | {row.placements} | "
            f"{100 * row.games_edge_removed_share:.2f}% | {100 * row.placements_edge_removed_share:.3f}% | "
            f"{row.farthest_max} / {row.farthest_p99:.0f} | {row.radius} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Measure and write the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=300, help="games per (players, policy)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out-dir", type=Path, default=RESULTS_DIR, help="where the .json and .md go")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    start = time.perf_counter()
    rows = [play(players, policy, args.games, args.seed) for players in (2, 4) for policy in ("random", "heuristic")]
    seconds = time.perf_counter() - start
    report = markdown(rows, args.seed, seconds)
    print(report)
    document = {"seed": args.seed, "seconds": seconds, "rows": [asdict(row) for row in rows]}
    write_report(args.out_dir / REPORT_STEM, report, document)
    return 0


if __name__ == "__main__":
    sys.exit(main())
