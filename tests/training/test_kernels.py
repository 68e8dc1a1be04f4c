"""torch's CPU kernels pinned to the portable path (agents/common/kernels.py, `train.cpu_kernels: portable`), and the
main job's check on a machine whose kernels take another path (benchmarks/main_job.py): a run's weights must not depend
on the CPU model."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from agents.common.kernels import PINNED_KERNELS, pin_cpu_kernels, pins_apply_here
from benchmarks.main_job import check_on_another_path, same_kernel_path

REPO_ROOT = Path(__file__).resolve().parents[2]


def without_pins() -> dict[str, str]:
    """This process's environment less the pinned variables (a fresh user's shell)."""
    return {name: value for name, value in os.environ.items() if name not in PINNED_KERNELS}


def test_pins_fill_only_the_variables_the_user_left_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each unset variable gets its pinned value; a value the user set is kept (their choice of kernels wins)."""
    if not pins_apply_here():
        pytest.skip("the pinned libraries run on x86-64 only")
    for name in PINNED_KERNELS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ATEN_CPU_CAPABILITY", "default")
    in_effect = pin_cpu_kernels()
    assert in_effect == {**PINNED_KERNELS, "ATEN_CPU_CAPABILITY": "default"}
    assert os.environ["MKL_CBWR"] == "COMPATIBLE,STRICT"


def test_pins_apply_to_x86_64_machines_only() -> None:
    """Linux's, macOS's and Windows' names of x86-64 CPUs are pinned; an ARM machine runs none of those libraries."""
    assert pins_apply_here("x86_64") and pins_apply_here("AMD64")
    assert not pins_apply_here("aarch64") and not pins_apply_here("arm64")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("override", "pinned"), [("train.cpu_kernels=portable", True), ("train.cpu_kernels=native", False)]
)
def test_train_pins_the_kernels_before_torch_loads_when_the_config_asks(override: str, pinned: bool) -> None:
    """train.py with `train.cpu_kernels: portable` sets the variables once the config is read, before anything loads
    torch (which reads them once); with `native` it sets none."""
    if not pins_apply_here():
        pytest.skip("the pinned libraries run on x86-64 only")
    script = (
        "import os, sys\n"
        "from agents.training.train_cli import main\n"
        f"main(['--show-config', {override!r}])\n"
        f"print('torch' in sys.modules, [os.environ.get(name) for name in {list(PINNED_KERNELS)!r}])"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO_ROOT, env=without_pins(), check=False
    )
    expected = list(PINNED_KERNELS.values()) if pinned else [None] * len(PINNED_KERNELS)
    assert result.stdout.splitlines()[-1] == f"False {expected!r}", result.stderr[-2000:]


@pytest.mark.slow
def test_pinned_torch_takes_the_avx2_kernels_on_any_x86_cpu() -> None:
    """Under the pins, ATen dispatches to its AVX2 kernels even where the CPU has AVX-512 (or to its portable ones
    where it lacks AVX2): never to a wider path than every CI machine has."""
    if not pins_apply_here():
        pytest.skip("the pinned libraries run on x86-64 only")
    script = (
        "from agents.common.kernels import pin_cpu_kernels, kernel_path\n"
        "pin_cpu_kernels()\n"
        "import torch\n"
        "print(torch.backends.cpu.get_cpu_capability())\n"
        "print(kernel_path())"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO_ROOT, env=without_pins(), check=True
    )
    capability, path = result.stdout.splitlines()[-2:]
    assert capability in ("AVX2", "DEFAULT")
    assert "MKL_CBWR=COMPATIBLE,STRICT" in path and f"ATen {capability}" in path


def report(kernel_path: str, final: list[int], pretrained: list[int]) -> dict[str, object]:
    """A main-job report with the two models' outcomes on the same deals."""
    agents = [
        {"agent": "final model", "won": [bool(w) for w in final]},
        {"agent": "pretrained model", "won": [bool(w) for w in pretrained]},
    ]
    return {"kernel_path": kernel_path, "agents": agents}


def test_the_check_on_another_kernel_path_asks_for_a_gain_above_zero(capsys: pytest.CaptureFixture[str]) -> None:
    """Reports of one path are compared deal by deal; on another path (or one not recorded) the check passes when the
    PPO phase's paired interval lies above zero, and fails, saying so, when it reaches zero."""
    pinned = "x86_64, ATen AVX2, MKL_CBWR=COMPATIBLE,STRICT"
    assert same_kernel_path(report(pinned, [1], [0]), report(pinned, [0], [0]))
    assert not same_kernel_path(report("", [1], [0]), report("", [1], [0]))
    other = "aarch64, ATen DEFAULT"
    clear_gain = report(other, [1] * 60 + [0] * 40, [0] * 60 + [0] * 40)
    assert check_on_another_path(report(pinned, [1], [0]), clear_gain, Path("shipped.json")) == 0
    no_gain = report(other, [1] * 30 + [0] * 70, [1] * 30 + [0] * 70)
    assert check_on_another_path(report(pinned, [1], [0]), no_gain, Path("shipped.json")) == 1
    assert "does not stay above zero" in capsys.readouterr().err
