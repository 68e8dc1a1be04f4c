"""A DummyVecEnv whose envs' opponents share forward passes: the decisions that several envs of one step wait for on the
same policy are answered by one forward pass.

Why: each env plays its opponents' turns inside its own `step` (envs/adapters/opponents.py), and a self-play
snapshot's decision is a forward pass of the learner's network, whose weights come from memory at every call: for a
shipped self-play network of 4 MB, on one thread, about 630 µs for one observation, 900 µs for 2, 1,200 µs for 8.
envs/ knows nothing of torch, so the envs cannot batch: this vec env splits their steps at those decisions instead.

Gain: only decisions that several envs wait for in the same step share a pass. With that self-play config (8 envs, a
snapshot in 1 of 4 opponent draws, turns of several decisions) 1,339 decisions took 1,227 passes (94 of 2, 9 of 3):
no gain that a training breakdown can tell from its noise; with snapshots alone in the pool, 12,023 took 6,446.

How (`TurnScheduler`): the calling thread runs the envs' steps in env order, as DummyVecEnv does. When an opponent asks
for a policy's probabilities (`policy_probabilities` of agents/players/forward_pass.py, which SnapshotPool calls), the
env's step waits there, its thread parked, and the next env's step runs in another thread. Once every env's step has
returned or waits, the waiting requests are answered by one forward pass per policy (rows in env order), and the
waiting envs resume one by one in env order, each until its step returns or it asks again; and so on until every
step has returned. Every forward pass runs in the calling thread (a pool thread that finds requests to answer hands
it the turn), as without batching: torch's settings per thread (OpenMP's intra-op thread count, which training
sets to 1 in rollouts and more in updates) stay the calling thread's, and no pool thread starts a team of OpenMP
threads, which would change how the update's team waits. A request that no other env can join any more (no env left
to start or resume, none waiting) is answered at once: a batch of one is the batch-1 pass itself.

- One thread runs at a time: a thread runs only while it holds the turn, and hands the turn to exactly one other
  thread (releasing that thread's lock) before it waits. What runs next follows from the schedule's state alone (env
  order), never from thread timing, so a run is deterministic: same seeds, same trajectories.
- Cost: an env whose step asks nothing never leaves the calling thread, so a step without such decisions costs what
  DummyVecEnv's does; each wait costs two thread switches (about 10 µs each on a loaded CPU). Pool threads start
  the first time they are needed (at most one more than the envs waiting at once) and idle between steps. This is
  cheaper than the alternative of one thread per env with the calling thread coordinating: that costs two switches
  per env at every step, whether or not an opponent asks anything. A request does not wait for the envs still to
  start whose opponents do not batch (an OpponentEnv's opponents of the episode, none `batches_forward_passes`): in a
  step where one env plays a snapshot, the calling thread answers it at once, without a switch.
- torch on one intra-op thread, as training's rollouts run (agents/training/callbacks.py UpdateThreadsCallback): with
  more, OpenMP's threads spin after each pass, and a pool thread woken then waits for a core (on 2 busy cores, a toy
  self-play step took 30 times as long).
- Results: each env samples its opponents' moves from its own generators, so its draws are the same however its
  decisions were batched. A batched row may differ from the batch-1 row in the last bits of a float32 (the matrix
  products of a batch run other kernels): a sampled move differs only where a uniform draw falls within such a
  difference of a boundary of the cumulative probabilities.
- Errors: an exception in an env's step is kept while the other envs' steps finish; then the first in env order is
  raised in the calling thread, unchanged (type, message, traceback). A forward pass's exception is raised in each
  waiting env's step. Ctrl-C (KeyboardInterrupt in the calling thread, while it runs an env's step or waits) propagates
  at once: the parked threads are cancelled (their steps unwound by an internal exception) and the vec env refuses to
  step again (its envs are mid-step).
- Threads end at `close()`, or when the vec env is garbage collected; pickling or copying the vec env leaves them out
  (checkpoints pickle the envs themselves, agents/training/resume.py).
"""

from __future__ import annotations

import threading
import weakref
from collections import deque
from collections.abc import Callable, Sequence
from copy import deepcopy
from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.vec_env import DummyVecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvObs, VecEnvStepReturn

from agents.players.forward_pass import batch_probabilities, serving_thread

__all__ = ["BatchedOpponentsVecEnv", "PolicyRequest", "TurnScheduler"]

HOLDER, IDLE, PARKED, RELEASED = "holder", "idle", "parked", "released"
"""An executor's states: running (holds the turn), waiting for the turn with no step of its own, waiting inside an
env's step for its request's answer, let go (the schedule was abandoned or closed)."""
JOIN_SECONDS = 5.0
"""How long `close()` waits for each pool thread to end (they are daemon threads: the process never waits for them)."""


class _Cancelled(BaseException):
    """Unwinds a parked env's step when its schedule is abandoned (not an Exception: env code must not catch it)."""


class _Executor:
    """A thread that runs env steps while it holds the turn: the calling thread, or a pool thread."""

    def __init__(self, scheduler: TurnScheduler) -> None:
        self.scheduler = scheduler
        self.wake = threading.Lock()
        """Locked while this executor waits; the thread handing it the turn releases it."""
        self.wake.acquire()
        self.state = IDLE
        self.index = -1
        """The env whose step this executor runs or waits in."""
        self.thread: threading.Thread | None = None
        """The pool thread (None for the calling thread's executor)."""

    def probabilities(
        self, player: Any, load_policy: Callable[[], Any], observation: Any, action_mask: np.ndarray
    ) -> np.ndarray:
        """The row of a request of the env this executor runs, once its batch is answered (ProbabilityBatcher)."""
        return self.scheduler.request(self, player, load_policy, observation, action_mask)


class PolicyRequest:
    """One env's pending decision: its policy, observation and mask, and the answer once computed."""

    __slots__ = (
        "action_mask",
        "answer",
        "error",
        "executor",
        "index",
        "load_policy",
        "observation",
        "player",
        "policy",
    )

    def __init__(
        self,
        index: int,
        player: Any,
        load_policy: Callable[[], Any],
        observation: Any,
        action_mask: np.ndarray,
        executor: _Executor,
    ) -> None:
        self.index = index
        self.player = player
        """The agent asking (a SnapshotPool): named by the training breakdown."""
        self.load_policy = load_policy
        self.policy: Any = None
        """The policy, once `load_policy` returned it in the calling thread."""
        # The env waits until the answer, so the observation and mask arrays stay as they are: no copy.
        self.observation = observation
        self.action_mask = action_mask
        self.executor = executor
        self.answer: np.ndarray | None = None
        self.error: Exception | None = None


class TurnScheduler:
    """Runs one task per env, one thread at a time, answering the tasks' forward-pass requests in batches.

    `run(task, n)` calls task(0), ..., task(n - 1) as the module docstring tells; `forward_passes` and `rows` count
    the batched passes and the decisions they answered.
    """

    def __init__(self) -> None:
        self._guard = threading.Lock()
        """Held while executors change state: an abort from the calling thread may race a running pool thread."""
        self._caller = _Executor(self)
        self._pool: list[_Executor] = []
        self._task: Callable[[int], None] | None = None
        self._errors: list[BaseException | None] = []
        self._to_start: deque[int] = deque()
        self._may_ask: Callable[[int], bool] = bool
        self._requests: list[PolicyRequest] = []
        self._to_resume: deque[PolicyRequest] = deque()
        self._unfinished = 0
        self._abandoned: BaseException | None = None
        """Why the schedule was abandoned mid-run (then no run starts again)."""
        self._closed = False
        self.forward_passes = 0
        """Forward passes run for requests (a batch of one included)."""
        self.rows = 0
        """Requests answered."""

    # ------------------------------------------------------------------ the calling thread
    def run(self, task: Callable[[int], None], count: int, may_ask: Callable[[int], bool] = lambda index: True) -> None:
        """Run task(index) for every index below `count` until each returned; then raise the first task's exception
        (in index order), if any. A request is answered without waiting for the tasks not yet started of which
        `may_ask(index)` is False (a guess: a task asking anyway is answered in a later batch)."""
        if self._abandoned is not None:
            raise RuntimeError(
                f"this vec env's envs are mid-step: a step was abandoned ({type(self._abandoned).__name__}); "
                "make a new vec env"
            ) from self._abandoned
        if self._closed:
            raise RuntimeError("this vec env is closed")
        self._task, self._errors, self._unfinished = task, [None] * count, count
        self._to_start = deque(range(count))
        self._may_ask = may_ask
        caller = self._caller
        caller.state = HOLDER
        try:
            with serving_thread(caller):
                while not self._drive(caller, None):  # handed the turn on: wait until handed it back
                    self._wait(caller)
        except _Cancelled:
            raise RuntimeError("a pool thread of the batched vec env failed mid-step") from self._abandoned
        except BaseException as error:
            self._abandon(error)
            raise
        finally:
            self._task = None
        errors, self._errors = self._errors, []
        first = next((error for error in errors if error is not None), None)
        if first is not None:
            raise first

    def close(self) -> None:
        """End the pool threads (waiting up to JOIN_SECONDS for each); no run starts afterwards."""
        with self._guard:
            self._closed = True
            for executor in self._pool:
                if executor.state in (IDLE, PARKED):
                    executor.state = RELEASED
                    executor.wake.release()
        for executor in self._pool:
            if executor.thread is not None and executor.thread is not threading.current_thread():
                executor.thread.join(JOIN_SECONDS)
        self._pool = []

    def _abandon(self, error: BaseException) -> None:
        """Give up the run (an interrupt in the calling thread): parked steps unwind and idle threads end."""
        with self._guard:
            self._abandoned = self._abandoned or error
            for executor in self._pool:
                if executor.state in (IDLE, PARKED):
                    executor.state = RELEASED
                    executor.wake.release()

    # ------------------------------------------------------------------ whoever holds the turn
    def request(
        self,
        executor: _Executor,
        player: Any,
        load_policy: Callable[[], Any],
        observation: Any,
        action_mask: np.ndarray,
    ) -> np.ndarray:
        """Park the executor's env step on a request until its batch is answered; the answer's row."""
        request = PolicyRequest(executor.index, player, load_policy, observation, action_mask, executor)
        self._requests.append(request)
        self._drive(executor, request)
        if request.error is not None:
            raise request.error
        assert request.answer is not None
        return request.answer

    def answer(self, requests: Sequence[PolicyRequest]) -> None:
        """Answer requests of one policy (in env order) by one forward pass; its exception goes to each of them."""
        try:
            rows = batch_probabilities(
                requests[0].policy, [each.observation for each in requests], [each.action_mask for each in requests]
            )
        except Exception as error:  # the waiting env steps raise it, as they would have without batching
            for each in requests:
                each.error = error
            return
        for each, row in zip(requests, rows, strict=True):
            each.answer = row
        self.forward_passes += 1
        self.rows += len(requests)

    def _answer_all(self) -> None:
        """Answer every pending request, one forward pass per policy, and queue their envs to resume in env order."""
        requests = sorted(self._requests, key=lambda each: each.index)
        self._requests = []
        by_policy: dict[int, list[PolicyRequest]] = {}
        for each in requests:
            try:
                each.policy = each.load_policy()
            except Exception as error:  # (a snapshot that cannot be loaded) raised in the waiting step
                each.error = error
                continue
            by_policy.setdefault(id(each.policy), []).append(each)
        for group in by_policy.values():
            self.answer(group)
        self._to_resume = deque(requests)

    def _drive(self, me: _Executor, parked: PolicyRequest | None) -> bool:
        """Run the schedule in `me`, which holds the turn, until `parked` (me's own request) is answered and its turn
        has come, until `me` (free) has handed the turn on, or until every task has returned; whether `me` holds the
        turn then (only the calling thread keeps it at the end). A parked executor handed the turn goes on here:
        to answer the requests (the calling thread), or to resume its step."""
        while True:
            if self._abandoned is not None:
                raise _Cancelled
            if self._to_resume:  # the resumed executor takes its request off the queue
                if self._to_resume[0] is parked:
                    self._to_resume.popleft()
                    return True
                target = self._to_resume[0].executor
            elif self._to_start and (parked is None or any(map(self._may_ask, self._to_start))):
                if parked is None:
                    self._run_task(me, self._to_start.popleft())
                    continue
                target = self._free_executor()  # me waits inside a step: a free executor starts the next env
            elif self._requests:
                if me is self._caller:
                    self._answer_all()
                    continue
                target = self._caller
            elif me is self._caller:  # every task has returned (a parked step's request would be pending)
                return True
            else:
                target = self._caller
            self.hand_over(me, target, PARKED if parked is not None else IDLE)
            if parked is None:
                return False
            self._wait(me)

    def _run_task(self, me: _Executor, index: int) -> None:
        task = self._task
        if task is None:  # the calling thread abandoned the run meanwhile
            raise _Cancelled
        me.index = index
        try:
            task(index)
        except _Cancelled:
            raise
        except BaseException as error:
            if me is self._caller and not isinstance(error, Exception):
                raise  # Ctrl-C: at once, not after the other envs' steps
            self._errors[index] = error
        self._unfinished -= 1

    def hand_over(self, me: _Executor, target: _Executor, my_state: str) -> None:
        """Give the turn to `target`; `me` is then parked or idle (the training breakdown marks its clock here)."""
        with self._guard:
            if self._abandoned is not None:
                raise _Cancelled
            me.state = my_state
            target.state = HOLDER
            target.wake.release()

    def _wait(self, me: _Executor) -> None:
        """Block until `me` is handed the turn (unwinds when the schedule was abandoned or closed meanwhile)."""
        me.wake.acquire()
        if me.state == RELEASED or self._abandoned is not None:
            raise _Cancelled

    def _free_executor(self) -> _Executor:
        """An executor waiting for the turn with no step of its own: the calling thread's, an idle pool thread's, or a
        new pool thread's."""
        if self._caller.state == IDLE:
            return self._caller
        for executor in self._pool:
            if executor.state == IDLE:
                return executor
        executor = _Executor(self)
        executor.thread = threading.Thread(
            target=self._serve, args=(executor,), name=f"batched-env-{len(self._pool)}", daemon=True
        )
        self._pool.append(executor)
        executor.thread.start()
        return executor

    # ------------------------------------------------------------------ pool threads
    def _serve(self, me: _Executor) -> None:
        """A pool thread: wait for the turn, run the schedule, repeat until released."""
        try:
            with serving_thread(me):
                while True:
                    self._wait(me)
                    self._drive(me, None)
        except _Cancelled:
            return
        except BaseException as error:  # a fault of the schedule itself: the calling thread must not wait forever
            self._abandon(error)
            if self._caller.wake.locked():
                self._caller.wake.release()


class BatchedOpponentsVecEnv(DummyVecEnv):
    """A DummyVecEnv whose envs' policy decisions (self-play snapshots) are answered in batches (module docstring)."""

    def __init__(self, env_fns: list[Callable[[], gym.Env]]) -> None:
        super().__init__(env_fns)
        self._scheduler: TurnScheduler | None = None

    @property
    def scheduler(self) -> TurnScheduler:
        """The scheduler of the envs' steps (started at the first step; its pool threads end with the vec env)."""
        if self._scheduler is None:
            self._scheduler = TurnScheduler()
            weakref.finalize(self, self._scheduler.close)
        return self._scheduler

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (or copied) without the scheduler and its threads: a copy starts its own."""
        return {**self.__dict__, "_scheduler": None}

    def step_wait(self) -> VecEnvStepReturn:
        """DummyVecEnv's step, each env's step (and reset at its episode's end) run by the scheduler."""
        self.scheduler.run(self._step_env, self.num_envs, self._may_ask)
        return self._obs_from_buf(), np.copy(self.buf_rews), np.copy(self.buf_dones), deepcopy(self.buf_infos)

    def _may_ask(self, env_idx: int) -> bool:
        """Whether an opponent of env `env_idx`'s episode batches its forward passes (`batches_forward_passes`, as
        SnapshotPool): a guess, since an episode ending in the step draws new opponents."""
        env = self.envs[env_idx].unwrapped
        policies: Sequence[Any] | None = getattr(env, "policies", None)
        seats: Sequence[int | None] | None = getattr(env, "opponents", None)  # OpponentEnv: each seat's pool index
        if policies is None or seats is None:
            return True
        return any(index is not None and getattr(policies[index], "batches_forward_passes", False) for index in seats)

    def _step_env(self, env_idx: int) -> None:
        """DummyVecEnv.step_wait's work for one env."""
        obs, self.buf_rews[env_idx], terminated, truncated, self.buf_infos[env_idx] = self.envs[env_idx].step(
            self.actions[env_idx]
        )
        self.buf_dones[env_idx] = terminated or truncated
        self.buf_infos[env_idx]["TimeLimit.truncated"] = truncated and not terminated
        if self.buf_dones[env_idx]:
            self.buf_infos[env_idx]["terminal_observation"] = obs
            obs, self.reset_infos[env_idx] = self.envs[env_idx].reset()
        self._save_obs(env_idx, obs)

    def reset(self) -> VecEnvObs:
        """DummyVecEnv's reset, each env's reset run by the scheduler (any env may ask: it draws new opponents)."""
        self.scheduler.run(self._reset_env, self.num_envs)
        self._reset_seeds()
        self._reset_options()
        return self._obs_from_buf()

    def _reset_env(self, env_idx: int) -> None:
        """DummyVecEnv.reset's work for one env."""
        maybe_options = {"options": self._options[env_idx]} if self._options[env_idx] else {}
        obs, self.reset_infos[env_idx] = self.envs[env_idx].reset(seed=self._seeds[env_idx], **maybe_options)
        self._save_obs(env_idx, obs)

    def close(self) -> None:
        """End the scheduler's threads, then close the envs."""
        if self._scheduler is not None:
            self._scheduler.close()
        super().close()
