"""Where a training run's CPU time goes, per learner step: rules, observation, env glue, each opponent, the learner.

Trains any config for a short run (pretraining, evaluations and checkpoints off, a subproc vec env replaced by a
DummyVecEnv so that everything runs in this process) with timers wrapped around the parts of a step, and writes the
CPU time of each part per learner step:

    python -m benchmarks.training_breakdown --config configs/<game>/<recipe>.yaml [--steps 8192] [--set KEY=VALUE]

- **rules**: the game driver's `reset` and `step` (the rules core: transitions, chance, the legal mask);
- **observation**: the observers' tensors (the learner's, and an opponent's that reads observations);
- **opponent: NAME**: each opponent policy's `act` (a heuristic's own rule queries included);
- **opponent: loading saved policies**: loading each snapshot (or saved model) an opponent plays, once per process;
- **env glue**: the rest of the vec env's step, reset and `env_method` (wrappers, the opponent loop, masks);
- **rollout forward**: the learner's policy forward passes while collecting rollouts (and the last values);
- **rollout buffer and callbacks**: the rest of `collect_rollouts` (tensors, the buffer, callbacks);
- **checkpoint capture**: the checkpoint's bytes captured at every rollout boundary (what Ctrl-C saves; with
  `train.checkpoint_interval=0`, as here, nothing is written to disk);
- **PPO update**: `MaskablePPO.train`, the epochs of minibatch gradient steps;
- **learn loop, other**: the rest of `learn` (logging, progress);
- **setup** (once, not counted per step): building the model and envs, the first snapshot, saving the model.

Each part's time is its own, without the parts timed inside it (an opponent's observation counts as observation).
A BatchedOpponentsVecEnv (self-play) runs envs' steps in pool threads, one thread at a time: each thread has its own
sections, the clock is marked where one hands the CPU to another, a pool thread's time outside sections is env glue,
and a batched forward pass counts for its opponent (its decisions are the calls).
Times are CPU time of this process (`time.process_time_ns`, every thread of it), so other processes on the machine
slow the run without changing the figures much, and wall time beside them: with more than one torch thread the CPU
time counts each thread's (torch's waiting threads spin), and the wall time is what a run's speed is; the timers cost
under a microsecond each (about 1% of a learner step). The table of each
run is kept in benchmarks/results/<game>_training_breakdown.{md,json} under a label (default: the git commit, with
"+changes" when the tree differs from it); a run of the same label and command replaces that table.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from benchmarks.common import RESULTS_DIR, git_label, write_report

PARTS = (
    "rules",
    "observation",
    "env glue",
    "rollout forward",
    "rollout buffer and callbacks",
    "checkpoint capture",
    "PPO update",
    "learn loop, other",
)
"""The parts of a learner step every table lists (the opponents' parts go after env glue, one per opponent kind)."""
CAPTURE = "checkpoint capture"
"""The resume state captured at every rollout boundary (what Ctrl-C saves), inside the callbacks."""
LOADING = "opponent: loading saved policies"
"""Loading a saved policy an opponent plays (a snapshot), once per process: apart from the decisions' own time."""
SETUP = "setup"
"""Building the model and envs and the first snapshot: once per run, left out of the per-step figures."""


class SectionClock:
    """Exclusive CPU and wall time per named section: time inside a nested section counts for the inner one only.

    Each thread nests its own sections; the threads must run one at a time, and a thread about to hand the CPU to
    another calls `mark`: the time since the previous mark counts for the innermost section of the thread that marks
    (or for `thread_section` in a thread outside every section, but the one that made the clock).
    """

    def __init__(self, thread_section: str | None = None) -> None:
        self.nanoseconds: dict[str, int] = {}
        """CPU time of the process (all its threads) per section."""
        self.wall_nanoseconds: dict[str, int] = {}
        """Wall time per section."""
        self.calls: dict[str, int] = {}
        self.thread_section = thread_section
        self._owner = threading.get_ident()
        self._stacks: dict[int, list[str]] = {self._owner: []}
        self._mark = time.process_time_ns()
        self._wall_mark = time.perf_counter_ns()

    def _charge(self, stack: list[str]) -> None:
        now, wall_now = time.process_time_ns(), time.perf_counter_ns()
        top = stack[-1] if stack else (self.thread_section if stack is not self._stacks[self._owner] else None)
        if top is not None:
            self.nanoseconds[top] = self.nanoseconds.get(top, 0) + now - self._mark
            self.wall_nanoseconds[top] = self.wall_nanoseconds.get(top, 0) + wall_now - self._wall_mark
        self._mark, self._wall_mark = now, wall_now

    def mark(self) -> None:
        """Charge the time since the previous mark to this thread's innermost section (before it hands on the CPU)."""
        self._charge(self._stacks.setdefault(threading.get_ident(), []))

    def enter(self, name: str, count: bool = True) -> None:
        """Start a section (the enclosing one pauses); `count`: one more call of it."""
        stack = self._stacks.setdefault(threading.get_ident(), [])
        self._charge(stack)
        stack.append(name)
        if count:
            self.calls[name] = self.calls.get(name, 0) + 1

    def leave(self) -> None:
        """End the innermost section (the enclosing one resumes)."""
        stack = self._stacks[threading.get_ident()]
        self._charge(stack)
        stack.pop()

    def wrap(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        """`function` timed as section `name`."""

        @functools.wraps(function)
        def timed(*args: Any, **kwargs: Any) -> Any:
            self.enter(name)
            try:
                return function(*args, **kwargs)
            finally:
                self.leave()

        return timed


@contextmanager
def patched(owner: Any, attribute: str, replacement: Any) -> Iterator[None]:
    """Set `owner.attribute` for the duration (restored afterwards)."""
    original = owner.__dict__[attribute]
    setattr(owner, attribute, replacement)
    try:
        yield
    finally:
        setattr(owner, attribute, original)


def opponent_section(clock: SectionClock, function: Callable[..., Any]) -> Callable[..., Any]:
    """An opponent class's `act` timed as section `opponent: NAME`, NAME the acting instance's policy name."""
    from envs.adapters.opponents import policy_name

    @functools.wraps(function)
    def timed(self: Any, *args: Any, **kwargs: Any) -> Any:
        clock.enter(f"opponent: {policy_name(self)}")
        try:
            return function(self, *args, **kwargs)
        finally:
            clock.leave()

    return timed


def batch_section(clock: SectionClock, function: Callable[..., Any]) -> Callable[..., Any]:
    """TurnScheduler.answer (one forward pass for several envs' decisions) timed as its requests' opponent's section,
    counting no call (the opponent's `act` counts each decision)."""
    from envs.adapters.opponents import policy_name

    @functools.wraps(function)
    def timed(self: Any, requests: Any) -> Any:
        clock.enter(f"opponent: {policy_name(requests[0].player)}", count=False)
        try:
            return function(self, requests)
        finally:
            clock.leave()

    return timed


def marked(clock: SectionClock, function: Callable[..., Any]) -> Callable[..., Any]:
    """`function` (a hand-over to another thread) after a mark of `clock`: the time so far is the caller's."""

    @functools.wraps(function)
    def with_mark(*args: Any, **kwargs: Any) -> Any:
        clock.mark()
        return function(*args, **kwargs)

    return with_mark


@contextmanager
def instrumented(clock: SectionClock) -> Iterator[None]:
    """Wrap the parts of a training step in `clock`'s sections while the block runs.

    Methods are wrapped on their classes, never on instances: the checkpoint callback pickles the envs at every
    rollout boundary. The classes of the observers and opponents are found as the envs are built.
    """
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from stable_baselines3.common.vec_env import DummyVecEnv

    import agents.players.forward_pass as forward_pass
    from agents.common.lean_learner import LeanMaskablePolicy
    from agents.training import callbacks as training_callbacks
    from agents.training.batched_vec_env import BatchedOpponentsVecEnv, TurnScheduler
    from envs.adapters.driver import GameDriver
    from envs.adapters.gym_env import TabletopEnv
    from envs.adapters.opponents import OpponentEnv

    stack = ExitStack()
    wrapped: set[tuple[type, str]] = set()

    def wrap_method(owner: type, attribute: str, make: Callable[[Callable[..., Any]], Callable[..., Any]]) -> None:
        """Wrap the method `owner.attribute` (where it is defined) once."""
        definer = next((cls for cls in owner.__mro__ if attribute in cls.__dict__), None)
        if definer is None or (definer, attribute) in wrapped:
            return
        wrapped.add((definer, attribute))
        stack.enter_context(patched(definer, attribute, make(definer.__dict__[attribute])))

    def instrument_env(env: Any) -> None:
        """Wrap the env's observer and opponent classes (observation; opponent: NAME)."""
        for observer in [*getattr(env, "observers", []), getattr(env, "observer", None)]:
            if observer is not None:
                wrap_method(type(observer), "tensor", functools.partial(clock.wrap, "observation"))
        for policy in getattr(env, "policies", []):
            if getattr(policy, "act", None) is not None:
                wrap_method(type(policy), "act", functools.partial(opponent_section, clock))

    def instrumented_init(original: Callable[..., None]) -> Callable[..., None]:
        @functools.wraps(original)
        def init(self: Any, *args: Any, **kwargs: Any) -> None:
            original(self, *args, **kwargs)
            instrument_env(self)

        return init

    with stack:
        for owner, attribute, name in (
            (GameDriver, "reset", "rules"),
            (GameDriver, "step", "rules"),
            (DummyVecEnv, "step_wait", "env glue"),
            (DummyVecEnv, "reset", "env glue"),
            (DummyVecEnv, "env_method", "env glue"),
            (BatchedOpponentsVecEnv, "step_wait", "env glue"),
            (BatchedOpponentsVecEnv, "reset", "env glue"),
            (MaskableActorCriticPolicy, "forward", "rollout forward"),
            (LeanMaskablePolicy, "forward", "rollout forward"),
            (MaskableActorCriticPolicy, "predict_values", "rollout forward"),
            (MaskablePPO, "collect_rollouts", "rollout buffer and callbacks"),
            (MaskablePPO, "train", "PPO update"),
            (MaskablePPO, "learn", "learn loop, other"),
        ):
            wrap_method(owner, attribute, functools.partial(clock.wrap, name))
        wrap_method(TurnScheduler, "answer", functools.partial(batch_section, clock))
        loading = clock.wrap(LOADING, forward_pass.load_policy_quietly)
        stack.enter_context(patched(forward_pass, "load_policy_quietly", loading))
        wrap_method(TurnScheduler, "hand_over", functools.partial(marked, clock))
        for env_class in (TabletopEnv, OpponentEnv):
            wrap_method(env_class, "__init__", instrumented_init)
        capture = clock.wrap(CAPTURE, training_callbacks.capture_checkpoint)
        stack.enter_context(patched(training_callbacks, "capture_checkpoint", capture))
        yield


@dataclass
class PartRow:
    """One part's share of the run."""

    part: str
    calls: int
    cpu_seconds: float
    microseconds_per_step: float
    share: float
    wall_microseconds_per_step: float | None = None
    """Wall time per learner step (None in runs measured before wall times were kept)."""


@dataclass
class Breakdown:
    """One measured run."""

    label: str
    command: str
    config: str
    steps: int
    cpu_seconds: float
    """CPU time of the learner steps (setup left out)."""
    setup_cpu_seconds: float
    wall_seconds: float
    """Wall time of the whole run, setup included."""
    rows: list[PartRow]
    steps_wall_seconds: float | None = None
    """Wall time of the learner steps (setup left out; None in runs measured before wall times were kept)."""


@contextmanager
def update_autocast(dtype_name: str | None) -> Iterator[None]:
    """With a dtype name (bfloat16), MaskablePPO's update runs under `torch.autocast("cpu", dtype)` in the block."""
    if dtype_name is None:
        yield
        return
    import torch
    from sb3_contrib import MaskablePPO

    update = MaskablePPO.__dict__["train"]
    dtype = getattr(torch, dtype_name)

    @functools.wraps(update)
    def autocast_update(self: Any) -> None:
        with torch.autocast("cpu", dtype=dtype):
            update(self)

    with patched(MaskablePPO, "train", autocast_update):
        yield


def measure(
    config_path: Path,
    steps: int,
    seed: int,
    label: str,
    command: str,
    overrides: Sequence[str] = (),
    autocast: str | None = None,
) -> tuple[Breakdown, str]:
    """Train the config (with `overrides`, `key=value` as train.py takes them) for `steps` learner steps (whole
    rollouts) under the timers, the update under `autocast` when given; the run and the game's name."""
    from agents.common.config import load_experiment_config
    from agents.evaluation.environment import probe_env
    from agents.training.maskable_ppo import maskable_ppo_hyperparameters, train

    with tempfile.TemporaryDirectory(prefix="training_breakdown_") as scratch:
        settings = [
            *overrides,
            "pretrain.steps=0",
            "train.eval_interval=0",
            "train.checkpoint_interval=0",
            f"train.total_timesteps={steps}",
            f"train.seed={seed}",
            "logging.tensorboard=false",
            f"logging.run_root={scratch}",
        ]
        config = load_experiment_config(config_path, settings)
        if config.train.vec_env == "subproc":  # every part must run in this process, under the timers
            config = load_experiment_config(config_path, [*settings, "train.vec_env=dummy"])
        game = probe_env(config.env, str(config_path), config.opponents).game_name
        run_dir = Path(scratch) / "run"
        run_dir.mkdir()
        clock = SectionClock(thread_section="env glue")
        wall = time.perf_counter()
        with update_autocast(autocast), instrumented(clock):
            clock.enter(SETUP)
            try:
                train(config, run_dir, progress_bar=False)
            finally:
                clock.leave()
        wall = time.perf_counter() - wall
    # train() stops at the first rollout boundary at or after its budget: the steps run are whole rollouts.
    rollout = maskable_ppo_hyperparameters(config).n_steps * config.train.n_envs
    trained = -(-steps // rollout) * rollout
    total = sum(clock.nanoseconds.values()) - clock.nanoseconds.get(SETUP, 0)
    opponents = sorted(name for name in clock.nanoseconds if name.startswith("opponent: "))
    order = [*PARTS[:3], *opponents, *PARTS[3:]]
    rows = [
        PartRow(
            part=name,
            calls=clock.calls.get(name, 0),
            cpu_seconds=round(clock.nanoseconds.get(name, 0) / 1e9, 3),
            microseconds_per_step=round(clock.nanoseconds.get(name, 0) / 1e3 / trained, 1),
            share=round(clock.nanoseconds.get(name, 0) / total, 4),
            wall_microseconds_per_step=round(clock.wall_nanoseconds.get(name, 0) / 1e3 / trained, 1),
        )
        for name in order
    ]
    setup = clock.nanoseconds.get(SETUP, 0) / 1e9
    steps_wall = sum(clock.wall_nanoseconds.values()) - clock.wall_nanoseconds.get(SETUP, 0)
    run = Breakdown(
        label,
        command,
        str(config_path),
        trained,
        round(total / 1e9, 2),
        round(setup, 2),
        round(wall, 2),
        rows,
        round(steps_wall / 1e9, 2),
    )
    return run, game


def table(run: Breakdown) -> str:
    """One run as a Markdown section."""
    per_step = 1e6 * run.cpu_seconds / run.steps
    walls = run.steps_wall_seconds is not None
    wall_figure = f", **{1e6 * run.steps_wall_seconds / run.steps:,.0f} µs wall**" if walls else ""  # type: ignore[operator]
    lines = [
        f"## {run.label}",
        "",
        f"`{run.command}`",
        "",
        f"{run.steps} learner steps, {run.cpu_seconds:.1f} s CPU (setup {run.setup_cpu_seconds:.1f} s CPU more; "
        f"{run.wall_seconds:.1f} s wall in all): **{per_step:,.0f} µs CPU per learner step**{wall_figure}.",
        "",
        "| part | calls | CPU s | µs per learner step | share |" + (" wall µs per learner step |" if walls else ""),
        "|---|---:|---:|---:|---:|" + ("---:|" if walls else ""),
    ]
    for row in run.rows:
        wall_cell = f" {row.wall_microseconds_per_step:,.1f} |" if walls else ""
        lines.append(
            f"| {row.part} | {row.calls:,} | {row.cpu_seconds:.2f} | {row.microseconds_per_step:,.1f} | "
            f"{100 * row.share:.1f}% |{wall_cell}"
        )
    return "\n".join(lines) + "\n"


def report(runs: list[Breakdown], game: str) -> str:
    """Every kept run of the game's results file, in the order they were first written."""
    head = f"# Training time per learner step: {game}\n\n{__doc__.splitlines()[0]}\n\n"
    return head + "\n".join(table(run) for run in runs)


def main(argv: list[str] | None = None) -> int:
    """Measure one config and add (or replace) its table in the game's results file."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", type=Path, required=True, help="a training config (configs/<game>/<name>.yaml)")
    parser.add_argument("--steps", type=int, default=8192, help="learner steps to train (whole rollouts)")
    parser.add_argument("--seed", type=int, default=0, help="the run's seed (train.seed)")
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a config override as train.py takes it (repeatable), e.g. --set algo.batch_size=256",
    )
    parser.add_argument(
        "--update-autocast",
        choices=["bfloat16"],
        default=None,
        help="run the PPO update under torch.autocast on the CPU with this dtype (an experiment)",
    )
    parser.add_argument("--label", default=None, help="the table's heading (default: the git commit)")
    parser.add_argument("--out", type=Path, default=None, help="path prefix of the .md and .json files")
    arguments = sys.argv[1:] if argv is None else argv
    args = parser.parse_args(arguments)
    from agents.common.config import limit_openmp_spinning

    limit_openmp_spinning()  # as train.py does, before torch loads
    command = "python -m benchmarks.training_breakdown " + " ".join(arguments)
    label = args.label or git_label()
    run, game = measure(args.config, args.steps, args.seed, label, command, args.set, args.update_autocast)
    print(table(run))
    keep_run(args.out or RESULTS_DIR / f"{game}_training_breakdown", run, game)
    return 0


def keep_run(stem: Path, run: Breakdown, game: str) -> list[Breakdown]:
    """Add `run` to the results `stem`.{json,md} (replacing a run of the same label and command); the runs kept."""
    json_path = stem.with_suffix(".json")
    kept = json.loads(json_path.read_text(encoding="utf-8"))["runs"] if json_path.is_file() else []
    runs = [Breakdown(**{**old, "rows": [PartRow(**row) for row in old["rows"]]}) for old in kept]
    same = [index for index, old in enumerate(runs) if (old.label, old.command) == (run.label, run.command)]
    if same:
        runs[same[0]] = run
    else:
        runs.append(run)
    write_report(stem, report(runs, game), {"game": game, "runs": [asdict(each) for each in runs]})
    return runs


if __name__ == "__main__":
    sys.exit(main())
