"""Replay a recorded episode: `python -m envs.replay FILE [--render ansi]`.

A recording (written by `evaluate.py --record`) is JSON with the env id, its kwargs, the reset seed and the list of
actions. Chance is sampled inside the env from the generator seeded by reset(seed), so resetting with the same seed
and stepping the same actions replays the episode exactly; the recorded result, when present, is checked: won,
score, return and every outcome fact the recording lists.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from numbers import Real
from pathlib import Path
from typing import Any

import gymnasium as gym

import envs  # noqa: F401 - registers the tabletop ids
from envs.core.game import IllegalActionError


class ReplayError(ValueError):
    """A recording that cannot be replayed (bad file, illegal action, or a result that differs)."""


def load_recording(path: Path) -> dict[str, Any]:
    """Read and check a recording file (env_id, kwargs, seed, actions)."""
    try:
        recording = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ReplayError(f"{path}: cannot read: {error}") from error
    except json.JSONDecodeError as error:
        raise ReplayError(f"{path}: not valid JSON: {error}") from error
    for key, kind in (("env_id", str), ("seed", int), ("actions", list)):
        if not isinstance(recording.get(key), kind):
            raise ReplayError(f"{path}: {key}: missing or not a {kind.__name__}")
    if not isinstance(recording.get("kwargs", {}), dict):
        raise ReplayError(f"{path}: kwargs: not a mapping")
    return recording


def replay(recording: dict[str, Any], render_mode: str | None = "ansi", echo: bool = True) -> dict[str, Any]:
    """Reset with the recorded seed, step the recorded actions, and return the final info (won, score, ...)."""
    env = gym.make(recording["env_id"], render_mode=render_mode, **recording.get("kwargs", {}))
    try:
        game = env.unwrapped.game  # type: ignore[attr-defined]
        _, info = env.reset(seed=recording["seed"])
        _show(env, render_mode, echo, "start")
        actions = recording["actions"]
        total_reward = 0.0
        for step, action in enumerate(actions):
            if echo:
                print(f"--- step {step + 1}/{len(actions)}: {action} = {game.action_label(int(action))}")
            try:
                _, reward, terminated, truncated, info = env.step(int(action))
            except IllegalActionError as error:
                raise ReplayError(f"step {step + 1}: {error}") from error
            total_reward += float(reward)
            _show(env, render_mode, echo, None)
            if (terminated or truncated) and step != len(actions) - 1:
                raise ReplayError(f"the episode ended at step {step + 1} but {len(actions)} actions were recorded")
        if actions and not (terminated or truncated):
            raise ReplayError(f"the episode did not end after the {len(actions)} recorded actions")
    finally:
        env.close()
    return {**info, "return": total_reward}


def _show(env: gym.Env, render_mode: str | None, echo: bool, heading: str | None) -> None:
    if not echo or render_mode is None:
        return
    if heading:
        print(f"--- {heading}")
    frame = env.render()
    if isinstance(frame, str):
        print(frame)


RESULT_KEYS_NOT_COMPARED = ("length", "facts")
"""Keys of a recorded result that are not info keys (the length is checked by replay(); facts are unpacked)."""
SUMMARY_FIRST_KEYS = ("won", "score")
"""Info keys the end-of-replay summary starts with."""
INFO_KEYS_NOT_SHOWN = ("action_mask",)
"""Keys of the final info left out of the end-of-replay summary."""


def expected_result(recording: dict[str, Any]) -> dict[str, Any]:
    """What the replay must reproduce: won, score, return and every recorded outcome fact."""
    result = recording.get("result") or {}
    expected = {key: value for key, value in result.items() if key not in RESULT_KEYS_NOT_COMPARED}
    expected.update(result.get("facts") or {})
    return expected


def check_result(recording: dict[str, Any], info: dict[str, Any]) -> list[str]:
    """Differences between the recorded result and the replayed one (empty when they agree)."""
    differences = []
    for key, recorded in expected_result(recording).items():
        if key not in info:
            differences.append(f"{key}: recorded {recorded!r}, missing from the replay")
            continue
        replayed = info[key]
        numbers = [value for value in (recorded, replayed) if isinstance(value, Real) and not isinstance(value, bool)]
        same = (
            math.isclose(float(recorded), float(replayed), abs_tol=1e-9) if len(numbers) == 2 else recorded == replayed
        )
        if not same:
            differences.append(f"{key}: recorded {recorded!r}, replayed {replayed!r}")
    return differences


def main(argv: list[str] | None = None) -> int:
    """Replay a recording file, print each step's render, and check the recorded result."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", type=Path, help="recording JSON (evaluate.py --record)")
    parser.add_argument("--render", choices=["ansi", "none"], default="ansi", help="print the ansi render of each step")
    args = parser.parse_args(argv)
    try:
        recording = load_recording(args.file)
        render_mode = None if args.render == "none" else args.render
        info = replay(recording, render_mode=render_mode)
    except ReplayError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    shown = [key for key in SUMMARY_FIRST_KEYS if key in info]
    shown += [key for key in info if key not in SUMMARY_FIRST_KEYS and key not in INFO_KEYS_NOT_SHOWN]
    summary = {key: info[key] for key in shown}
    print(f"--- end: {summary}")
    differences = check_result(recording, info)
    if differences:
        print("error: the replay differs from the recording: " + "; ".join(differences), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
