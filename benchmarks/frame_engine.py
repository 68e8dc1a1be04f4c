"""What the frame engine (envs/core/engine.py) costs per frame and per step, timed on the toys of envs/toys.

- **automatic frame**: `_run` over a stack of automatic frames (one pop, one table look-up, one call each);
- **decision**: one decision frame asked and answered (`legal_actions` then `_apply` of an action that pushes the
  same decision again: options computed, sorted and cached, the frame popped and resolved);
- **random play, per step**: every step (decisions and chance outcomes) of seeded random games of each toy, rules
  only (`legal_actions`, `sample_chance`, `apply_unchecked`), the toy's own rules included.

Times are CPU times of the process (best of `--repeat`).

    python -m benchmarks.frame_engine [--repeat 5]
"""

from __future__ import annotations

import argparse
import time
import timeit

import numpy as np

from envs.core.decisions import DecisionFrame
from envs.core.engine import new_frame
from envs.core.game import CHANCE, Game
from envs.toys.party import PartyGame
from envs.toys.spellbook import SpellbookGame
from envs.toys.tug import PULL, Kind, TugGame, TugState

RUN_LENGTH = 10
"""Automatic frames in one timed `_run` (a stack as deep as a game's: popping copies the rest of it)."""
TIMER = time.process_time
"""CPU time of this process: other processes on a shared machine do not count."""


class _Ticking(TugState):
    """Tug whose end-of-round step only pops (the automatic frame's own work is nothing)."""

    def _end_round(self, frame: DecisionFrame) -> None:
        """Nothing: the timing is the engine's."""


def automatic_frame_seconds(repeat: int) -> float:
    """Best seconds per automatic frame resolved by `_run`."""
    state = _Ticking(game=TugGame())
    stack = (new_frame(0, Kind.END_ROUND),) * RUN_LENGTH

    def run() -> None:
        state.stack = stack
        state._run()

    return min(timeit.repeat(run, number=20_000, repeat=repeat, timer=TIMER)) / (20_000 * RUN_LENGTH)


def decision_seconds(repeat: int) -> float:
    """Best seconds per decision asked and answered (a pull that keeps the initiative)."""
    state = TugGame().new_initial_state()
    state.apply_action(0)
    energy = (10**9, 10**9)
    state.energy = energy
    state.drop_caches()

    def step() -> None:
        state.legal_actions()
        state._apply(PULL)

    return min(timeit.repeat(step, number=20_000, repeat=repeat, timer=TIMER)) / 20_000


def random_play_seconds(game: Game, games: int, repeat: int) -> float:
    """Best seconds per step of seeded random play (decisions and chance outcomes), rules only."""

    def play() -> int:
        rng = np.random.default_rng(0)
        steps = 0
        for _ in range(games):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.current_player() == CHANCE:
                    state.apply_unchecked(state.sample_chance(rng))
                else:
                    legal = state.legal_actions()
                    state.apply_unchecked(legal[int(rng.integers(len(legal)))])
                steps += 1
        return steps

    steps = play()
    return min(timeit.repeat(play, number=1, repeat=repeat, timer=TIMER)) / steps


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="timings per figure; the best is kept")
    args = parser.parse_args()
    print(f"automatic frame: {automatic_frame_seconds(args.repeat) * 1e9:.0f} ns")
    print(f"decision asked and answered: {decision_seconds(args.repeat) * 1e6:.2f} us")
    for name, game in (("tug", TugGame()), ("party (3 seats)", PartyGame(3)), ("spellbook", SpellbookGame())):
        print(f"random play, {name}: {random_play_seconds(game, 300, args.repeat) * 1e6:.2f} us per step")


if __name__ == "__main__":
    main()
