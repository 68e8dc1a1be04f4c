"""How often the edge of Unearth's fixed tableau grid matters, and what a placement costs (a measurement, not a test).

For each grid radius (5 to 9) and placement policy, plays --games tableaux of 30 stones from an empty grid and
reports, after the first 20, 25 and 30 stones of each game (the shorter rows are the first stones of the same
games, so each row has --games games):

- edge removed a legal cell: the share of games in which, before some stone, the edge removed at least one cell
  that an unbounded table would allow. The unbounded table is a mirror tableau of radius R + 2 given the same
  stones: every cell within R + 1 (all that can touch a stone within R) has its whole ring on it, so its legal
  cells are exactly the unbounded table's;
- no legal cell: the share of games in which a stone found no legal cell (it goes back to the bag and the next
  stone is tried; on an unbounded table this never happens);
- the mean stones placed and wonders built, and the farthest stone's distance from the centre (median and 99th
  percentile over the games).

Policies: `random` places on a legal cell drawn uniformly; `ring_seeking` prefers the legal cells that raise a
ring's progress most (the most stones around an empty space next to the cell; a cell that closes a ring scores 5),
drawing uniformly among the best. Colours are drawn uniformly (they do not change where a stone may go).

Then a micro-timing on the default radius: microseconds per stone for `legal_cells()` + `place()` under random
play (the median of --rounds rounds), and each alone.

    python -m benchmarks.unearth_tableau_edge [--games 10000] [--jobs 2] [--seed 0]

Writes benchmarks/results/unearth_tableau_edge.json (every figure) and .md (the tables).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from benchmarks.common import RESULTS_DIR, write_report
from envs.core.hexgrid import distance
from envs.unearth.tableau import CENTRE_HEX, NUM_COLOURS, TABLEAU_RADIUS, Tableau, tableau_geometry

RADII = (5, 6, 7, 8, 9)
"""Grid radii measured (8 and 9: how much larger a grid would have to be)."""
STONE_COUNTS = (20, 25, 30)
"""Stones drawn per game, reported at each count (the games run to the largest)."""
POLICIES = ("random", "ring_seeking")
"""Placement policies."""
MIRROR_MARGIN = 2
"""The mirror grid's extra radius: R + 2 holds the whole ring of every cell that can touch a stone within R."""
REPORT_STEM = "unearth_tableau_edge"
"""File name (without suffix) of the reports under benchmarks/results/."""


@dataclass
class EdgeRow:
    """One (radius, policy, stones) row of the edge table."""

    radius: int
    cells: int
    policy: str
    stones: int
    games: int
    edge_removed_share: float
    no_legal_cell_share: float
    mean_placed: float
    mean_wonders: float
    farthest_p50: float
    farthest_p99: float


def choose_cell(tableau: Tableau, policy: str, rng: np.random.Generator) -> int:
    """A legal cell of `tableau` chosen by `policy` (the tableau has one)."""
    legal = tableau.legal_cells()
    if policy == "ring_seeking":
        geometry = tableau.geometry
        # Progress of each empty cell that can hold a wonder; index -1 (off the grid) reads the appended 0.
        progress = np.append(tableau.ring_progress() * np.frombuffer(geometry.interior, dtype=np.uint8), 0)
        scores = progress[geometry.neighbour_array[legal]].max(axis=1)
        legal = legal[scores == scores.max()]
    return int(legal[rng.integers(len(legal))])


def play_games(radius: int, policy: str, games: int, seed: int) -> list[EdgeRow]:
    """Play `games` games of max(STONE_COUNTS) stones; one row per stone count."""
    rng = np.random.default_rng([seed, radius, POLICIES.index(policy)])
    grid = tableau_geometry(radius).grid
    mirror_grid = tableau_geometry(radius + MIRROR_MARGIN).grid
    to_mirror = [mirror_grid.index(hex_) for hex_ in grid.hexes]
    distance_of = [distance(CENTRE_HEX, hex_) for hex_ in grid.hexes]
    most = max(STONE_COUNTS)
    # Per game and stone count: edge removed a cell yet, a stone found no cell yet, stones placed, wonders, farthest.
    edge_removed = np.zeros((games, most), dtype=bool)
    no_cell = np.zeros((games, most), dtype=bool)
    placed = np.zeros((games, most), dtype=np.int32)
    wonders = np.zeros((games, most), dtype=np.int32)
    farthest = np.zeros((games, most), dtype=np.int32)
    for game in range(games):
        tableau, mirror = Tableau(radius), Tableau(radius + MIRROR_MARGIN)
        removed = missing = False
        reach = 0
        for stone in range(most):
            if mirror.legal_count > tableau.legal_count:
                removed = True
            if tableau.has_legal_cell:
                cell = choose_cell(tableau, policy, rng)
                colour = int(rng.integers(NUM_COLOURS))
                tableau, _ = tableau.place(cell, colour)
                mirror, _ = mirror.place(to_mirror[cell], colour)
                reach = max(reach, distance_of[cell])
            else:
                missing = True  # the stone goes back to the bag
            edge_removed[game, stone] = removed
            no_cell[game, stone] = missing
            placed[game, stone] = tableau.stone_count
            wonders[game, stone] = tableau.wonder_count
            farthest[game, stone] = reach
    rows = []
    for stones in STONE_COUNTS:
        last = stones - 1
        rows.append(
            EdgeRow(
                radius=radius,
                cells=len(grid),
                policy=policy,
                stones=stones,
                games=games,
                edge_removed_share=float(edge_removed[:, last].mean()),
                no_legal_cell_share=float(no_cell[:, last].mean()),
                mean_placed=float(placed[:, last].mean()),
                mean_wonders=float(wonders[:, last].mean()),
                farthest_p50=float(np.percentile(farthest[:, last], 50)),
                farthest_p99=float(np.percentile(farthest[:, last], 99)),
            )
        )
    return rows


def time_placement(radius: int, stones: int, games: int, rounds: int, seed: int) -> dict[str, float]:
    """Microseconds per stone of legal_cells() + place() under random play, and of each alone (medians of rounds)."""
    rng = np.random.default_rng(seed)
    draws = rng.random((games, stones))
    colours = rng.integers(NUM_COLOURS, size=(games, stones)).tolist()
    both: list[float] = []
    place_only: list[float] = []
    legal_only: list[float] = []
    for _ in range(rounds):
        sequences: list[list[int]] = []
        count = 0
        start = time.perf_counter()
        for game in range(games):
            tableau = Tableau(radius)
            cells: list[int] = []
            for stone in range(stones):
                legal = tableau.legal_cells()
                if len(legal) == 0:
                    break
                cell = int(legal[int(draws[game, stone] * len(legal))])
                tableau, _ = tableau.place(cell, colours[game][stone])
                cells.append(cell)
            count += len(cells)
            sequences.append(cells)
        both.append((time.perf_counter() - start) / count * 1e6)
        start = time.perf_counter()
        final = []
        for game, cells in enumerate(sequences):
            tableau = Tableau(radius)
            for stone, cell in enumerate(cells):
                tableau, _ = tableau.place(cell, colours[game][stone])
            final.append(tableau)
        place_only.append((time.perf_counter() - start) / count * 1e6)
        start = time.perf_counter()
        for tableau in final:
            for _ in range(stones):
                tableau.legal_cells()
        legal_only.append((time.perf_counter() - start) / (len(final) * stones) * 1e6)
    return {
        "radius": radius,
        "stones_per_game": stones,
        "games_per_round": games,
        "rounds": rounds,
        "legal_cells_and_place_us": statistics.median(both),
        "place_us": statistics.median(place_only),
        "legal_cells_us": statistics.median(legal_only),
    }


def markdown(rows: list[EdgeRow], timing: dict[str, float], seed: int, seconds: float) -> str:
    """The edge table and the timing as Markdown."""
    lines = [
        "# Unearth tableau: how often the grid's edge matters",
        "",
        f"`python -m benchmarks.unearth_tableau_edge` (seed {seed}, {rows[0].games} games per row, {seconds:.0f} s). "
        "Rows for 20 and 25 stones are the first stones of the 30-stone games. Edge removed: before some stone, a "
        "cell legal on an unbounded table was refused or missing; no legal cell: a stone had nowhere to go (back to "
        "the bag). Farthest: the farthest stone's distance from the centre (median / 99th percentile).",
        "",
        "| radius | cells | policy | stones | edge removed a legal cell | no legal cell | mean placed | mean wonders "
        "| farthest p50 / p99 |",
        "|---:|---:|---|---:|---:|---:|---:|---:|---|",
    ]
    for row in rows:
        lines.append(
            f"| {row.radius} | {row.cells} | {row.policy} | {row.stones} | {100 * row.edge_removed_share:.2f}% "
            f"| {100 * row.no_legal_cell_share:.2f}% | {row.mean_placed:.2f} | {row.mean_wonders:.2f} "
            f"| {row.farthest_p50:.0f} / {row.farthest_p99:.0f} |"
        )
    lines += [
        "",
        f"Timing (radius {timing['radius']}, random play, {timing['stones_per_game']} stones a game, "
        f"{timing['games_per_round']} games a round, median of {timing['rounds']} rounds): "
        f"legal_cells + place {timing['legal_cells_and_place_us']:.1f} us per stone "
        f"(place {timing['place_us']:.1f} us, legal_cells {timing['legal_cells_us']:.1f} us).",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Measure the edge table and the timing; print them and write the reports."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10_000, help="games per (radius, policy)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the placement draws")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes ((radius, policy) pairs in parallel)")
    parser.add_argument("--timing-games", type=int, default=2000, help="games per timing round")
    parser.add_argument("--rounds", type=int, default=5, help="timing rounds")
    parser.add_argument("--out-dir", type=Path, default=RESULTS_DIR, help="where the .json and .md go")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    plans = [(radius, policy, args.games, args.seed) for radius in RADII for policy in POLICIES]
    start = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            batches = list(pool.map(play_games, *zip(*plans, strict=True)))
    else:
        batches = [play_games(*plan) for plan in plans]
    seconds = time.perf_counter() - start
    rows = [row for batch in batches for row in batch]
    timing = time_placement(TABLEAU_RADIUS, min(STONE_COUNTS), args.timing_games, args.rounds, args.seed)
    report = markdown(rows, timing, args.seed, seconds)
    print(report)
    document = {"seed": args.seed, "seconds": seconds, "rows": [asdict(row) for row in rows], "timing": timing}
    write_report(args.out_dir / REPORT_STEM, report, document)
    print(f"wrote {args.out_dir / REPORT_STEM}.json and .md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
