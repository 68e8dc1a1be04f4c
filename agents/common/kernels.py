"""Portable CPU kernels for torch: the same learned weights on every x86-64 CPU, whatever its model.

A seeded run's rollouts are the same on every machine, but the learned weights are not: torch picks its kernels by
the CPU it runs on, and a float sum taken in AVX-512 lanes rounds differently from one taken in AVX2 lanes. Three
libraries choose separately, each reading an environment variable once, when it first runs:

- MKL (torch's BLAS: every linear layer's matrix products) takes the widest branch of the CPU, and on a CPU not made
  by Intel another one again. Its conditional numerical reproducibility makes it take one branch everywhere; across
  CPU vendors only the `COMPATIBLE` branch (SSE2 without the approximate-reciprocal instructions) is offered: on an
  AMD CPU, `MKL_CBWR=AVX2` falls back to the AUTO branch, whose sums differ from an Intel CPU's AVX2 branch.
  `STRICT` makes the results independent of memory alignment too.
- ATen, torch's own vectorised kernels (activations, softmax, reductions, the optimizer's updates), dispatches to
  the widest instruction set it finds; `ATEN_CPU_CAPABILITY=avx2` caps it at the AVX2 kernels, which every x86-64
  CPU of the last decade (Intel since 2013, AMD since 2015) runs with the same results.
- oneDNN (convolutions, some matrix products) dispatches the same way; `ONEDNN_MAX_CPU_ISA=AVX2` caps it.

The price is speed: MKL's portable branch makes a small network's PPO update about twice as slow, so this is a
choice, `train.cpu_kernels: portable` (the main job's config takes it: CI checks its figures deal by deal on whatever
CPU it gets), not the default.

`pin_cpu_kernels` sets the three variables unless the user set them already (a value already in the environment
wins). It takes effect only in a process that has not loaded torch yet, and in the processes that process starts:
train.py calls it before torch loads. Elsewhere than x86-64 (an ARM machine), none of these libraries runs, and it
sets nothing.
"""

from __future__ import annotations

import os
import platform

X86_64_MACHINES = ("x86_64", "amd64")
"""`platform.machine()` names of x86-64 CPUs (Linux and macOS say x86_64, Windows says AMD64)."""

PINNED_KERNELS: dict[str, str] = {
    "MKL_CBWR": "COMPATIBLE,STRICT",
    "ATEN_CPU_CAPABILITY": "avx2",
    "ONEDNN_MAX_CPU_ISA": "AVX2",
}
"""The environment variables that pin torch's CPU kernels to the portable path, and their values."""


def pins_apply_here(machine: str | None = None) -> bool:
    """Whether this machine (by default the running one) is x86-64, where the pinned libraries run."""
    return (machine or platform.machine()).lower() in X86_64_MACHINES


def pin_cpu_kernels() -> dict[str, str]:
    """Pin torch's CPU kernels to the portable path where a variable is unset; the variables in effect, by name.

    On a machine that is not x86-64 nothing is set and the answer is empty.
    """
    if not pins_apply_here():
        return {}
    for name, value in PINNED_KERNELS.items():
        os.environ.setdefault(name, value)
    return {name: os.environ[name] for name in PINNED_KERNELS}


def kernel_path() -> str:
    """The numerical path this process's torch kernels take, as one line: the variables in effect and ATen's choice.

    Loads torch (call it after `pin_cpu_kernels`, or it reports the unpinned path).
    """
    import torch

    settings = ", ".join(f"{name}={os.environ.get(name, 'unset')}" for name in PINNED_KERNELS)
    return f"{platform.machine()}, ATen {torch.backends.cpu.get_cpu_capability()}, {settings}"
