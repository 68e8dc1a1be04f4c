"""BatchedOpponentsVecEnv: the snapshot decisions of a DummyVecEnv's envs answered in batches, with the same results.

On the toy Card Duel, whose every opponent seat plays a snapshot of a small MaskablePPO policy (two snapshots kept, so
that a step's requests split by policy).
"""

from __future__ import annotations

import copy
import functools
import itertools
import pickle
import signal
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import pytest
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv

from agents.common.config import OpponentConfig, OpponentsConfig, SnapshotConfig, load_experiment_config
from agents.common.run_dir import snapshot_file_name
from agents.evaluation.environment import make_env
from agents.players.forward_pass import masked_action_probabilities, sample_index
from agents.players.snapshots import SnapshotPool
from agents.training.batched_vec_env import BatchedOpponentsVecEnv, PolicyRequest, TurnScheduler
from agents.training.maskable_ppo import make_vec_env
from envs.adapters.opponents import OpponentEnv
from tests.training.training_support import REPO_ROOT

TOY_ID = "envs.toys:tabletop/card_duel_v0"
N_ENVS = 8
SNAPSHOTS = OpponentsConfig(
    pool=[OpponentConfig(agent="snapshot")], snapshots=SnapshotConfig(max_kept=2, latest_share=0.5)
)
"""Every opponent plays one of two snapshots: a step's requests come from several envs and split by policy."""
V = TypeVar("V", bound=DummyVecEnv)


pytestmark = pytest.mark.usefixtures("one_torch_thread")
"""torch on one thread (tests/training/conftest.py), as training's rollouts run."""


@pytest.fixture(scope="module")
def snapshot_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two snapshots of a small MaskablePPO policy on the 2-seat toy (different initial weights)."""
    folder = tmp_path_factory.mktemp("snapshots")
    env = make_env(TOY_ID, {"num_players": 2}, opponents=OpponentsConfig(pool=[OpponentConfig(agent="random")]))
    for seed in (0, 1):
        model = MaskablePPO("MultiInputPolicy", env, n_steps=64, policy_kwargs={"net_arch": [64, 64]}, seed=seed)
        model.save(folder / snapshot_file_name(seed))
    env.close()
    return folder


def vec_env(
    cls: type[V],
    snapshot_dir: Path,
    wrap: Callable[[int, Any], Any] | None = None,
    opponents: OpponentsConfig = SNAPSHOTS,
) -> V:
    """N_ENVS seeded toy envs against `opponents`, in `cls`; `wrap` wraps each env (index, env) -> env."""

    def build(index: int) -> Any:
        env = make_env(TOY_ID, {"num_players": 2}, opponents=opponents, env_index=index, snapshot_dir=snapshot_dir)
        return wrap(index, env) if wrap is not None else env

    vectorized = cls([functools.partial(build, index) for index in range(N_ENVS)])
    vectorized.seed(0)
    return vectorized


def observation_dict(observations: Any) -> dict[str, np.ndarray]:
    """A Dict space's observations (the toy's) as the dict they are."""
    assert isinstance(observations, dict)
    return observations


def play(vectorized: DummyVecEnv, steps: int, seed: int = 1) -> list[tuple[Any, ...]]:
    """Observations, rewards, dones and infos of `steps` steps of seeded random legal learner actions."""
    rng = np.random.default_rng(seed)
    trace: list[tuple[Any, ...]] = [tuple(np.copy(value) for value in observation_dict(vectorized.reset()).values())]
    for _ in range(steps):
        masks = vectorized.env_method("action_masks")
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])
        observations, rewards, dones, infos = vectorized.step(actions)
        seats = [(info["seat"], info.get("seat_rewards")) for info in infos]
        trace.append((*(np.copy(value) for value in observation_dict(observations).values()), rewards, dones, seats))
    return trace


def assert_same_trace(one: list[tuple[Any, ...]], other: list[tuple[Any, ...]]) -> None:
    assert len(one) == len(other)
    for step, (first, second) in enumerate(zip(one, other, strict=True)):
        for a, b in zip(first, second, strict=True):
            assert np.array_equal(a, b) if isinstance(a, np.ndarray) else a == b, f"step {step} differs"


def batched_threads() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name.startswith("batched-env-")]


@pytest.fixture
def no_thread_left() -> Iterator[None]:
    """The test leaves no pool thread running."""
    before = set(batched_threads())
    yield
    deadline = time.monotonic() + 5
    while set(batched_threads()) - before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not set(batched_threads()) - before


MIXED = SNAPSHOTS.model_copy(update={"pool": [OpponentConfig(agent="snapshot"), OpponentConfig(agent="random")]})
"""Half the episodes against a snapshot, half against random play (whose envs a request does not wait for)."""


@pytest.mark.parametrize(("opponents", "rows_per_pass"), [(SNAPSHOTS, 2.0), (MIXED, 1.1)])
def test_batched_envs_play_as_the_dummy_vec_env_with_fewer_forward_passes(
    opponents: OpponentsConfig, rows_per_pass: float, snapshot_dir: Path, no_thread_left: None
) -> None:
    """The same trajectories as DummyVecEnv's (same seeds, same learner actions), from fewer forward passes."""
    reference = vec_env(DummyVecEnv, snapshot_dir, opponents=opponents)
    batched = vec_env(BatchedOpponentsVecEnv, snapshot_dir, opponents=opponents)
    assert_same_trace(play(batched, 150), play(reference, 150))
    scheduler = batched.scheduler
    assert scheduler.rows > rows_per_pass * scheduler.forward_passes > 0
    batched.close()
    reference.close()


def test_batched_rows_are_the_batch_one_rows_within_float_rounding(
    snapshot_dir: Path, monkeypatch: pytest.MonkeyPatch, no_thread_left: None
) -> None:
    """Every batched row equals the batch-1 pass's to 1e-6, and draws sample the same action from nearly all."""
    answered: list[tuple[PolicyRequest, np.ndarray]] = []
    answer = TurnScheduler.answer

    def recorded(self: TurnScheduler, requests: list[PolicyRequest]) -> None:
        answer(self, requests)
        answered.extend((each, np.copy(each.observation["observation"])) for each in requests if len(requests) > 1)

    monkeypatch.setattr(TurnScheduler, "answer", recorded)
    batched = vec_env(BatchedOpponentsVecEnv, snapshot_dir)
    play(batched, 150)
    batched.close()
    assert len(answered) > 500
    rng, same = np.random.default_rng(0), 0
    for request, tensor in answered:
        observation = {**request.observation, "observation": tensor}
        alone = masked_action_probabilities(request.policy, observation, request.action_mask)[0]
        assert request.answer is not None
        np.testing.assert_allclose(request.answer, alone, rtol=0, atol=1e-6)
        draw = rng.bit_generator.state
        choice = sample_index(request.answer.astype(np.float64) / request.answer.sum(dtype=np.float64), rng)
        rng.bit_generator.state = draw
        same += choice == sample_index(alone.astype(np.float64) / alone.sum(dtype=np.float64), rng)
    assert same >= 0.999 * len(answered)


def test_the_thread_timing_never_changes_a_training_rollout(
    snapshot_dir: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, no_thread_left: None
) -> None:
    """Two trainings of the same seed, one with random delays in the opponents' moves, fill the same buffers."""
    config = load_experiment_config(
        REPO_ROOT / "configs" / "card_duel" / "selfplay.yaml",
        ["algo.n_steps=32", "algo.batch_size=64", "algo.n_epochs=1", f"logging.run_root={tmp_path}"],
    )
    config = config.model_copy(update={"opponents": SNAPSHOTS})

    def rollouts() -> dict[str, np.ndarray]:
        vectorized = make_vec_env(config, N_ENVS, "batched", 5, snapshot_dir=snapshot_dir)
        assert isinstance(vectorized, BatchedOpponentsVecEnv)
        model = MaskablePPO(
            "MultiInputPolicy",
            vectorized,
            n_steps=32,
            batch_size=64,
            n_epochs=1,
            policy_kwargs={"net_arch": [16]},
            seed=5,
        )
        model.learn(3 * 32 * N_ENVS)
        buffer = model.rollout_buffer
        vectorized.close()
        return {
            "observations": np.copy(observation_dict(buffer.observations)["observation"]),
            "actions": np.copy(buffer.actions),
            "rewards": np.copy(buffer.rewards),
            "log_probs": np.copy(buffer.log_probs),
        }

    steady = rollouts()
    act = SnapshotPool.act
    jitter = np.random.default_rng()  # unseeded on purpose: the delays must not matter

    def delayed(self: SnapshotPool, *args: Any, **kwargs: Any) -> int:
        time.sleep(float(jitter.uniform(0, 2e-4)))
        return act(self, *args, **kwargs)

    monkeypatch.setattr(SnapshotPool, "act", delayed)
    jittered = rollouts()
    for key, values in steady.items():
        np.testing.assert_array_equal(values, jittered[key], err_msg=key)


class FailingAt:
    """Wraps env `index`'s step: raises `error` at its `at`-th step, after the other envs asked for snapshot moves."""

    def __init__(self, index: int, at: int, error: BaseException) -> None:
        self.index, self.at, self.error = index, at, error

    def __call__(self, index: int, env: Any) -> Any:
        if index != self.index:
            return env
        failing, steps = self, [0]
        inner = env.unwrapped
        original = inner.step

        def step(action: Any) -> Any:
            steps[0] += 1
            if steps[0] == failing.at:
                raise failing.error
            return original(action)

        inner.step = step
        return env


def test_an_env_error_surfaces_unchanged_and_the_vec_env_steps_on(snapshot_dir: Path, no_thread_left: None) -> None:
    """An env's exception reaches the caller with its type and message, as DummyVecEnv's does; later steps work."""
    failing = FailingAt(5, 3, ValueError("card 7 is not in seat 1's hand"))
    reference = vec_env(DummyVecEnv, snapshot_dir, failing)
    with pytest.raises(ValueError, match="^card 7 is not in seat 1's hand$"):
        play(reference, 10)
    batched = vec_env(
        BatchedOpponentsVecEnv, snapshot_dir, FailingAt(5, 3, ValueError("card 7 is not in seat 1's hand"))
    )
    with pytest.raises(ValueError, match="^card 7 is not in seat 1's hand$") as caught:
        play(batched, 10)
    assert any(frame.name == "step" for frame in caught.traceback)  # the env's own frames are kept
    assert batched_threads()  # envs waited for snapshot moves in pool threads
    batched.step(np.array([np.flatnonzero(mask)[0] for mask in batched.env_method("action_masks")]))
    batched.close()
    reference.close()


def test_a_forward_pass_error_reaches_each_waiting_env(
    snapshot_dir: Path, monkeypatch: pytest.MonkeyPatch, no_thread_left: None
) -> None:
    """A batch's forward pass that fails raises its exception in the steps that waited for it."""
    import agents.training.batched_vec_env as batched_module

    def broken(policy: Any, observations: Any, action_masks: Any) -> np.ndarray:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({len(observations)}x9 and 12x64)")

    batched = vec_env(BatchedOpponentsVecEnv, snapshot_dir)
    batched.reset()
    monkeypatch.setattr(batched_module, "batch_probabilities", broken)
    with pytest.raises(RuntimeError, match=r"^mat1 and mat2 shapes cannot be multiplied \(\d+x9 and 12x64\)$"):
        for _ in range(20):
            batched.step(np.array([np.flatnonzero(mask)[0] for mask in batched.env_method("action_masks")]))
    batched.close()


def test_ctrl_c_while_envs_wait_propagates_at_once_and_close_ends_the_threads(
    snapshot_dir: Path, no_thread_left: None
) -> None:
    """SIGINT to the main thread while it waits for a pool thread: KeyboardInterrupt at once, no hang, no thread left,
    and the vec env refuses to step on from envs left mid-step."""
    interrupted = threading.Event()

    def interrupting(index: int, env: Any) -> Any:
        inner = env.unwrapped
        original = inner.step

        def step(action: Any) -> Any:
            if threading.current_thread() is not threading.main_thread() and not interrupted.is_set():
                interrupted.set()
                signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)
                time.sleep(0.3)  # still running when the main thread takes the interrupt
            return original(action)

        inner.step = step
        return env

    batched = vec_env(BatchedOpponentsVecEnv, snapshot_dir, interrupting)
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        play(batched, 50)
    assert interrupted.is_set() and time.monotonic() - started < 10
    with pytest.raises(RuntimeError, match="mid-step"):
        batched.step(np.zeros(N_ENVS, dtype=int))
    batched.close()


def test_pickling_or_copying_leaves_the_threads_out(snapshot_dir: Path, no_thread_left: None) -> None:
    """A copy of a stepping vec env (its envs mid-episode) starts threads of its own and continues as the original."""
    batched = vec_env(BatchedOpponentsVecEnv, snapshot_dir)
    play(batched, 5)
    assert batched_threads()
    copies = [pickle.loads(pickle.dumps(batched)), copy.deepcopy(batched)]
    assert all(each._scheduler is None for each in copies)
    rng = np.random.default_rng(2)
    for _ in range(10):
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in batched.env_method("action_masks")])
        observations, rewards, dones, _ = batched.step(actions)
        for each in copies:
            theirs, their_rewards, their_dones, _ = each.step(actions)
            assert all(
                np.array_equal(value, observation_dict(theirs)[key])
                for key, value in observation_dict(observations).items()
            )
            assert np.array_equal(rewards, their_rewards) and np.array_equal(dones, their_dones)
    for each in [batched, *copies]:
        each.close()


def test_make_vec_env_batches_only_the_batched_envs_of_snapshot_pools(snapshot_dir: Path, tmp_path: Path) -> None:
    """`train.vec_env: batched` asks for it; envs that play no snapshot stay a DummyVecEnv, as does `dummy`."""
    config = load_experiment_config(
        REPO_ROOT / "configs" / "card_duel" / "selfplay.yaml", [f"logging.run_root={tmp_path}"]
    )
    assert config.opponents.uses_snapshots
    kinds = {
        "snapshots": make_vec_env(config, 2, "batched", 0, snapshot_dir=snapshot_dir),
        "stand-in": make_vec_env(config, 2, "batched", 0),  # no snapshot folder: a random stand-in plays them
        "evaluation": make_vec_env(config, 2, "batched", 0, config.opponents.evaluation_opponents(), snapshot_dir),
        "dummy": make_vec_env(config, 2, "dummy", 0, snapshot_dir=snapshot_dir),
    }
    assert [type(each).__name__ for each in kinds.values()] == [
        "BatchedOpponentsVecEnv",
        "DummyVecEnv",
        "DummyVecEnv",
        "DummyVecEnv",
    ]
    assert isinstance(kinds["snapshots"].envs[0].unwrapped, OpponentEnv)
    for each in kinds.values():
        each.close()


def test_every_forward_pass_runs_in_the_calling_thread_with_its_torch_threads(
    snapshot_dir: Path, monkeypatch: pytest.MonkeyPatch, no_thread_left: None
) -> None:
    """Training sets torch's threads to 1 in rollouts and more in updates, per thread (OpenMP's setting): the
    batched passes and the snapshots' loading run in the calling thread, on its setting, while pool threads play the
    envs' steps."""
    import agents.players.forward_pass as forward_pass
    import agents.training.batched_vec_env as batched_module

    seen: list[tuple[bool, int]] = []
    batch, load = batched_module.batch_probabilities, forward_pass.load_policy_quietly
    loaded_in_main: list[bool] = []

    def counted(*args: Any) -> np.ndarray:
        seen.append((threading.current_thread() is threading.main_thread(), torch.get_num_threads()))
        return batch(*args)

    def loading(path: Path) -> Any:
        loaded_in_main.append(threading.current_thread() is threading.main_thread())
        return load(path)

    monkeypatch.setattr(batched_module, "batch_probabilities", counted)
    monkeypatch.setattr(forward_pass, "load_policy_quietly", loading)
    monkeypatch.setattr(forward_pass, "_POLICIES", weakref.WeakValueDictionary())  # every snapshot loads anew
    threads = torch.get_num_threads()
    batched = vec_env(BatchedOpponentsVecEnv, snapshot_dir)
    try:
        for setting in (2, 1):
            torch.set_num_threads(setting)
            seen.clear()
            play(batched, 3)
            assert seen and set(seen) == {(True, setting)}
        assert batched_threads() and loaded_in_main == [True, True]  # both snapshots, once each
    finally:
        torch.set_num_threads(threads)
        batched.close()


def test_the_breakdowns_clock_times_each_thread_in_its_own_sections(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pool thread's sections nest on their own; its time outside them is the thread section; a thread handing the
    CPU on marks the clock, so its time so far stays its own."""
    from benchmarks import training_breakdown
    from benchmarks.training_breakdown import SectionClock

    ticks = itertools.count(0, 10)
    monkeypatch.setattr(training_breakdown.time, "process_time_ns", lambda: next(ticks))
    clock = SectionClock(thread_section="env glue")  # reads 0
    clock.enter("outer")  # 10: nothing open yet
    clock.enter("opponent")  # 20: outer 10

    def pool_thread() -> None:
        clock.enter("rules")  # 40: env glue 10 (the thread outside its sections)
        clock.leave()  # 50: rules 10
        clock.mark()  # 60: env glue 10

    clock.mark()  # 30: opponent 10 (then the main thread waits)
    worker = threading.Thread(target=pool_thread)
    worker.start()
    worker.join()
    clock.leave()  # 70: opponent 10 more
    clock.leave()  # 80: outer 10 more
    assert clock.nanoseconds == {"outer": 20, "opponent": 20, "env glue": 20, "rules": 10}
    assert clock.calls == {"outer": 1, "opponent": 1, "rules": 1}


@pytest.mark.parametrize(
    ("asks", "may_ask", "passes", "switches"),
    [
        ({1: 2, 3: 1, 6: 1}, "all", [3, 1], True),  # round 1: envs 1, 3, 6; then env 1's second decision
        ({1: 2, 3: 1, 6: 1}, "askers", [3, 1], True),
        ({1: 2, 3: 1, 6: 1}, "none", [1, 1, 1, 1], False),  # nobody to wait for: each answered at once, inline
        ({3: 1}, "askers", [1], False),
        ({3: 1}, "all", [1], True),  # env 3 waits for envs 4 to 7 in vain
        ({0: 1, 5: 1}, "none", [1, 1], False),  # a wrong guess: env 5 asks anyway, answered in its own batch
    ],
)
def test_a_request_waits_for_the_envs_that_may_ask_only(
    asks: dict[int, int], may_ask: str, passes: list[int], switches: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each decision gets its own row; a request waits for the envs still to start that may ask, and no other."""
    import agents.training.batched_vec_env as batched_module
    from agents.players.forward_pass import policy_probabilities

    batches: list[int] = []

    def rows(policy: Any, observations: list[float], action_masks: Any) -> np.ndarray:
        batches.append(len(observations))
        return np.array([[observation, -observation] for observation in observations])

    hand_overs: list[str] = []
    hand_over = TurnScheduler.hand_over

    def counted(self: TurnScheduler, *args: Any) -> None:
        hand_overs.append(threading.current_thread().name)
        hand_over(self, *args)

    monkeypatch.setattr(batched_module, "batch_probabilities", rows)
    monkeypatch.setattr(TurnScheduler, "hand_over", counted)
    answers: dict[int, list[float]] = {}

    def task(index: int) -> None:
        answers[index] = [
            float(policy_probabilities("player", lambda: "policy", 10 * index + k, np.ones(2, bool))[0])
            for k in range(asks.get(index, 0))
        ]

    guesses = {"all": lambda index: True, "askers": lambda index: index in asks, "none": lambda index: False}
    scheduler = TurnScheduler()
    try:
        scheduler.run(task, N_ENVS, guesses[may_ask])
    finally:
        scheduler.close()
    assert answers == {index: [10.0 * index + k for k in range(asks.get(index, 0))] for index in range(N_ENVS)}
    assert batches == passes
    assert bool(hand_overs) == switches
