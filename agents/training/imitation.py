"""Behaviour cloning and DAgger: warm-start a MaskablePPO policy from a teacher agent (e.g. the game's heuristic).

The teacher plays (or, in a DAgger round, labels the states the student reaches), every decision is recorded as
(observation, action mask, teacher action, discounted return of the episode's reward), and the policy is fitted by
masked cross-entropy on the teacher's actions plus a mean-squared error of its value head on the returns, so
that PPO starts from the teacher's play with a critic that already knows what those states are worth.

Episode i of a collection is played with env seed `seed + i`, so a dataset depends only on (teacher, student,
env kwargs, seed, steps), whatever the number of worker processes.

Both phases report their progress to an optional callback (decisions recorded, minibatches fitted), which train.py
draws as progress bars like the PPO phase's; worker processes send theirs over a queue, which changes no data.
"""

from __future__ import annotations

import math
import multiprocessing
import queue
import tempfile
from collections.abc import Callable, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from agents.common.config import OpponentsConfig
from agents.evaluation.environment import make_env
from agents.players.base import Agent, action_mask_of
from agents.players.registry import make_agent

HELD_OUT_SHARE = 0.1
"""Share of the recorded decisions kept aside to report the student's agreement with the teacher."""
EPISODE_SEED_STRIDE = 1_000_003
"""Each worker's episodes start this far apart in seed space, so workers never replay each other's episodes."""
PROGRESS_POLL_SECONDS = 0.2
"""How often the parent passes on the decisions its worker processes report (`collect_demonstrations`)."""

Progress = Callable[[int], None]
"""A progress callback: called with how many more items (decisions recorded, minibatches fitted) are done."""

_worker_progress: Any = None
"""In a worker process of `collect_demonstrations`: the queue it reports recorded decisions to (None: no report)."""


def _report_progress_to(progress_queue: Any) -> None:
    """Worker initializer: report recorded decisions to `progress_queue` (None: report nothing)."""
    global _worker_progress
    _worker_progress = progress_queue


@dataclass
class Demonstrations:
    """Recorded decisions: observations (a flat array, or a dict of arrays), masks, teacher actions, returns."""

    observations: Any
    masks: np.ndarray
    actions: np.ndarray
    returns: np.ndarray
    episodes: int
    wins: int

    def __len__(self) -> int:
        """Number of recorded decisions."""
        return int(self.actions.shape[0])

    @staticmethod
    def concatenate(parts: list[Demonstrations]) -> Demonstrations:
        """One dataset from several (in the order given)."""
        first = parts[0].observations
        if isinstance(first, dict):
            observations: Any = {key: np.concatenate([p.observations[key] for p in parts]) for key in first}
        else:
            observations = np.concatenate([p.observations for p in parts])
        return Demonstrations(
            observations=observations,
            masks=np.concatenate([p.masks for p in parts]),
            actions=np.concatenate([p.actions for p in parts]),
            returns=np.concatenate([p.returns for p in parts]),
            episodes=sum(p.episodes for p in parts),
            wins=sum(p.wins for p in parts),
        )

    def subset(self, index: np.ndarray) -> Demonstrations:
        """The decisions at `index` (episode counts are kept as they were)."""
        if isinstance(self.observations, dict):
            observations: Any = {key: value[index] for key, value in self.observations.items()}
        else:
            observations = self.observations[index]
        return Demonstrations(
            observations, self.masks[index], self.actions[index], self.returns[index], self.episodes, self.wins
        )


def _collect_chunk(
    env_id: str,
    env_kwargs: dict[str, Any],
    teacher_spec: str,
    steps: int,
    seed: int,
    gamma: float,
    student_path: str | None,
    student_share: float,
    opponents: OpponentsConfig | None = None,
    progress: Progress | None = None,
) -> Demonstrations:
    """Play whole episodes from `seed` on until `steps` decisions are recorded (a worker's share of the job).

    In a multi-player game the teacher plays the learner's seats against `opponents`; `snapshot` opponents, which
    do not exist before training, are played by the teacher too. Each finished episode's decisions are reported to
    `progress` (in a worker process: to the queue its initializer set).
    """
    if progress is None and _worker_progress is not None:
        progress = _worker_progress.put
    env = make_env(env_id, env_kwargs, opponents=opponents, snapshot_stand_in=teacher_spec)
    teacher = make_agent(teacher_spec, env)
    student: Agent | None = make_agent(student_path, env) if student_path else None
    chooser = np.random.default_rng(seed)
    observations: list[Any] = []
    masks: list[np.ndarray] = []
    actions: list[int] = []
    returns: list[float] = []
    episodes = wins = 0
    while len(actions) < steps:
        episode_seed = seed + episodes
        observation, _ = env.reset(seed=episode_seed)
        teacher.reset(episode_seed)
        if student is not None:
            student.reset(episode_seed)
        rewards: list[float] = []
        done = False
        info: dict[str, Any] = {}
        while not done:
            mask = action_mask_of(env, observation)
            state = env.unwrapped.state  # type: ignore[attr-defined]
            label = teacher.act(observation, mask, state=state)
            observations.append(observation)
            masks.append(np.asarray(mask, dtype=np.int8))
            actions.append(label)
            action = label
            if student is not None and chooser.random() < student_share:
                action = student.act(observation, mask, state=state)
            observation, reward, terminated, truncated, info = env.step(action)
            rewards.append(float(reward))
            done = terminated or truncated
        episodes += 1
        wins += bool(info.get("won", False))
        if progress is not None:
            progress(len(rewards))
        discounted = 0.0
        episode_returns = [0.0] * len(rewards)
        for t in range(len(rewards) - 1, -1, -1):
            discounted = rewards[t] + gamma * discounted
            episode_returns[t] = discounted
        returns.extend(episode_returns)
    env.close()
    if isinstance(observations[0], dict):
        stacked: Any = {key: np.stack([o[key] for o in observations]) for key in observations[0]}
    else:
        stacked = np.stack(observations)
    return Demonstrations(
        observations=stacked,
        masks=np.stack(masks),
        actions=np.asarray(actions, dtype=np.int64),
        returns=np.asarray(returns, dtype=np.float32),
        episodes=episodes,
        wins=wins,
    )


def collect_demonstrations(
    env_id: str,
    env_kwargs: Mapping[str, Any],
    teacher_spec: str,
    steps: int,
    seed: int,
    gamma: float,
    workers: int = 1,
    student_path: str | None = None,
    student_share: float = 0.0,
    opponents: OpponentsConfig | None = None,
    progress: Progress | None = None,
) -> Demonstrations:
    """Record at least `steps` teacher-labelled decisions; with a student, it acts with probability student_share.

    `progress` is told of the decisions recorded as episodes end, in every worker (at most `steps` in all).
    """
    workers = max(1, min(workers, steps))
    per_worker = math.ceil(steps / workers)
    jobs = [
        (
            env_id,
            dict(env_kwargs),
            teacher_spec,
            per_worker,
            seed + w * EPISODE_SEED_STRIDE,
            gamma,
            student_path,
            student_share,
            opponents,
        )
        for w in range(workers)
    ]
    report = _capped(progress, steps) if progress is not None else None
    if workers == 1:
        return _collect_chunk(*jobs[0], progress=report)
    context = multiprocessing.get_context("spawn")
    reports = context.Queue() if report is not None else None
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_report_progress_to, initargs=(reports,)) as pool:
        futures = [pool.submit(_collect_chunk, *job) for job in jobs]
        if report is not None and reports is not None:
            _relay_progress(futures, reports, report)
        parts = [future.result() for future in futures]
    if report is not None and reports is not None:
        _relay_progress([], reports, report)  # what the workers sent just before they ended
    return Demonstrations.concatenate(parts)


def _capped(progress: Progress, total: int) -> Progress:
    """`progress`, told of at most `total` items in all (the last episode of a collection may run past its budget)."""
    told = 0

    def report(count: int) -> None:
        nonlocal told
        count = min(count, total - told)
        if count > 0:
            told += count
            progress(count)

    return report


def _relay_progress(futures: list[Future[Any]], reports: Any, report: Progress) -> None:
    """Pass on the decisions the workers report until every worker's chunk is done (with none: what is queued)."""
    pending = set(futures)
    while True:
        if pending:
            _, pending = wait(pending, timeout=PROGRESS_POLL_SECONDS, return_when=FIRST_COMPLETED)
        while True:
            try:
                report(reports.get_nowait())
            except queue.Empty:
                break
        if not pending:
            return


def check_teacher(
    env_id: str, env_kwargs: Mapping[str, Any], teacher_spec: str, opponents: OpponentsConfig | None = None
) -> None:
    """Build the teacher once on the env, so a bad spec fails before any training (raises AgentSpecError)."""
    env = make_env(env_id, dict(env_kwargs), opponents=opponents)
    try:
        make_agent(teacher_spec, env)
    finally:
        env.close()


@dataclass
class CloneReport:
    """What behaviour cloning achieved: agreement with the teacher on held-out decisions, final losses."""

    decisions: int
    teacher_episodes: int
    teacher_win_rate: float
    train_accuracy: float
    held_out_accuracy: float
    policy_loss: float
    value_loss: float


def clone_batches(decisions: int, epochs: int, batch_size: int) -> int:
    """Minibatches `behaviour_clone` fits on `decisions` recorded decisions (the held-out share is not fitted)."""
    fitted = decisions - int(decisions * HELD_OUT_SHARE)
    return epochs * math.ceil(fitted / batch_size)


def _batches(n: int, batch_size: int, rng: np.random.Generator) -> list[np.ndarray]:
    order = rng.permutation(n)
    return [order[i : i + batch_size] for i in range(0, n, batch_size)]


def _as_tensor_obs(policy: Any, data: Demonstrations, index: np.ndarray) -> Any:
    if isinstance(data.observations, dict):
        return policy.obs_to_tensor({key: value[index] for key, value in data.observations.items()})[0]
    return policy.obs_to_tensor(data.observations[index])[0]


def _accuracy(policy: Any, data: Demonstrations, batch_size: int) -> float:
    """Share of decisions where the policy's most likely legal action is the teacher's."""
    import torch

    if len(data) == 0:
        return float("nan")
    hits = 0
    with torch.no_grad():
        for start in range(0, len(data), batch_size):
            index = np.arange(start, min(start + batch_size, len(data)))
            distribution = policy.get_distribution(_as_tensor_obs(policy, data, index), action_masks=data.masks[index])
            predicted = distribution.distribution.probs.argmax(dim=1).cpu().numpy()
            hits += int((predicted == data.actions[index]).sum())
    return hits / len(data)


def behaviour_clone(
    model: Any,
    data: Demonstrations,
    epochs: int,
    batch_size: int,
    learning_rate: float,
    value_coef: float,
    seed: int,
    log: Callable[[str, float, int], None] | None = None,
    progress: Progress | None = None,
) -> CloneReport:
    """Fit model.policy to the teacher's actions (masked cross-entropy) and its value head to the returns; each
    minibatch fitted is reported to `progress` (`clone_batches` of them in all)."""
    import torch

    policy = model.policy
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(data))
    held_out_size = int(len(data) * HELD_OUT_SHARE)
    held_out, train_set = data.subset(order[:held_out_size]), data.subset(order[held_out_size:])
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    policy.set_training_mode(True)
    policy_loss = value_loss = float("nan")
    step = 0
    for epoch in range(epochs):
        policy_losses, value_losses = [], []
        for index in _batches(len(train_set), batch_size, rng):
            observations = _as_tensor_obs(policy, train_set, index)
            actions = torch.as_tensor(train_set.actions[index], device=policy.device)
            returns = torch.as_tensor(train_set.returns[index], device=policy.device)
            values, log_prob, _ = policy.evaluate_actions(observations, actions, action_masks=train_set.masks[index])
            batch_policy_loss = -log_prob.mean()
            batch_value_loss = torch.nn.functional.mse_loss(values.flatten(), returns)
            loss = batch_policy_loss + value_coef * batch_value_loss
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optimizer.step()
            policy_losses.append(batch_policy_loss.item())
            value_losses.append(batch_value_loss.item())
            step += 1
            if progress is not None:
                progress(1)
        policy_loss, value_loss = float(np.mean(policy_losses)), float(np.mean(value_losses))
        if log is not None:
            log("pretrain/policy_loss", policy_loss, epoch)
            log("pretrain/value_loss", value_loss, epoch)
    policy.set_training_mode(False)
    report = CloneReport(
        decisions=len(data),
        teacher_episodes=data.episodes,
        teacher_win_rate=data.wins / max(1, data.episodes),
        train_accuracy=_accuracy(policy, train_set, 4 * batch_size),
        held_out_accuracy=_accuracy(policy, held_out, 4 * batch_size),
        policy_loss=policy_loss,
        value_loss=value_loss,
    )
    if log is not None:
        log("pretrain/held_out_accuracy", report.held_out_accuracy, epochs)
    return report


def save_student(model: Any, folder: Path) -> str:
    """Save the current student where DAgger workers can load it; returns the path."""
    path = Path(tempfile.mkdtemp(dir=folder, prefix="student_")) / "student.zip"
    model.save(path)
    return str(path)
