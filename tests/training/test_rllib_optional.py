"""Without the `rllib` extra, envs and agents still import and work; only the RLlib route names what is missing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]

WITHOUT_RAY = r'''
import importlib, pkgutil, sys

class NoRay:
    """Makes `import ray` fail as if the rllib extra were not installed."""
    def find_spec(self, name, path=None, target=None):
        if name == "ray" or name.startswith("ray."):
            raise ModuleNotFoundError(f"No module named {name!r}")
        return None

sys.meta_path.insert(0, NoRay())
import agents, envs
for package in (envs, agents):
    for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        if not module.name.startswith("agents.rllib."):
            importlib.import_module(module.name)
assert "ray" not in sys.modules, "a module outside agents.rllib imported ray"

import gymnasium
from agents.players.registry import AgentSpecError, make_agent
env = gymnasium.make("tabletop/Unbroken-v0")
try:
    make_agent("rllib:runs/x", env)
except AgentSpecError as error:
    assert "tabletop-gym[rllib]" in str(error), error
else:
    raise AssertionError("an rllib agent without Ray")

from agents.training import train_cli
assert train_cli.main(["--config", "configs/unbroken/rllib_ppo.yaml", "logging.run_root=/nonexistent"]) == 2
print("ok")
'''


def test_envs_and_agents_work_without_ray_and_the_rllib_route_names_the_extra() -> None:
    result = subprocess.run(
        [sys.executable, "-c", WITHOUT_RAY], cwd=REPO_ROOT, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("ok")
    assert "algo.name: rllib_ppo needs Ray RLlib" in result.stderr
