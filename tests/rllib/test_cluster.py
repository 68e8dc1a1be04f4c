"""train.py joins an existing Ray cluster through `algo.ray.address`, as on a multi-node cluster: here a one-node
cluster that `ray start --head --block` runs for the test (stopping that command stops its cluster, and only it)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
RAY_CLI = Path(sys.executable).parent / "ray"


def free_port() -> int:
    """A TCP port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for_port(port: int, seconds: float) -> None:
    """Return once something accepts connections on the port (the cluster's GCS), or fail after `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.5)
    raise AssertionError(f"no Ray cluster came up on port {port} within {seconds} s")


def test_train_py_joins_a_running_cluster_by_its_address(tmp_path: Path) -> None:
    port = free_port()
    environment = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    # Ray's SIGTERM handler first drains the node (up to 30 s by default); nothing runs on it by then.
    head_environment = {**environment, "RAY_GRACEFUL_SHUTDOWN_DRAIN_TIMEOUT_S": "0"}
    head = subprocess.Popen(
        [
            str(RAY_CLI),
            "start",
            "--head",
            "--block",
            f"--port={port}",
            "--num-cpus=2",
            "--include-dashboard=false",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=head_environment,
        start_new_session=True,
    )
    try:
        wait_for_port(port, 90)
        address = "auto"  # the cluster this node runs, as on a cluster's head node (the token is found too)
        command = [
            sys.executable,
            "train.py",
            "--config",
            "configs/unbroken/rllib_ppo.yaml",
            "--no-progress",
            f"logging.run_root={tmp_path}",
            f"algo.ray.address={address}",
            "train.total_timesteps=100",
            "algo.training.train_batch_size_per_learner=100",
            "algo.training.minibatch_size=50",
            "algo.training.num_epochs=1",
            "algo.model.fcnet_hiddens=[16]",
            "train.final_eval_episodes=0",
        ]
        result = subprocess.run(
            command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=300, env=environment, check=False
        )
        assert result.returncode == 0, result.stdout + result.stderr
        assert f"on {address}" in result.stdout  # "1 env runners x 1 envs on auto": ray.init(address) never starts one
        (run_dir,) = tmp_path.iterdir()
        assert (run_dir / "final_checkpoint").is_dir()
    finally:
        # `ray start --block` stops the cluster it started. Signalled alone: a SIGTERM to its whole process group
        # would end the GCS under its drain request, which then waits out its 30 s timeout.
        head.send_signal(signal.SIGTERM)
        try:
            head.wait(timeout=60)
        finally:
            with contextlib.suppress(ProcessLookupError):  # anything of its session still there
                os.killpg(head.pid, signal.SIGKILL)
