"""One numerical path for torch on every x86 CPU, so that a training run's weights do not depend on the CPU model.

A seeded run's rollouts are the same on every machine, but the learned weights were not: torch picks its kernels by
the CPU's instruction set, and a float sum taken in AVX-512 lanes rounds differently from one taken in AVX2 lanes.
Three libraries choose separately, each reading an environment variable once, when it first runs:

- MKL (torch's BLAS: every linear layer's matrix products) takes the AVX-512 path on CPUs that have it; conditional
  numerical reproducibility (`MKL_CBWR=AVX2,STRICT`) makes it take the AVX2 path on every CPU that has AVX2, with
  results independent of memory alignment.
- ATen, torch's own vectorised kernels (activations, softmax, reductions, the optimizer's updates), dispatches to
  the widest instruction set it finds; `ATEN_CPU_CAPABILITY=avx2` caps it there.
- oneDNN (convolutions, some matrix products) dispatches the same way; `ONEDNN_MAX_CPU_ISA=AVX2` caps it.

AVX2 is the widest path that every x86-64 CPU of the last decade (Intel since 2013, AMD since 2015) runs, so a
run on an AVX-512 Xeon and one on an AVX2 EPYC give the same weights, bit for bit. The cost is the AVX-512 kernels'
speed on the CPUs that have them, small beside the env's share of a training step for the networks trained here.

`pin_cpu_kernels` sets the three variables unless the user set them already (a value already in the environment
wins: `ATEN_CPU_CAPABILITY=avx512 python train.py` trains on AVX-512 kernels). It takes effect only in a process that
has not loaded torch yet, and in the processes that process starts: train.py and evaluate.py call it first thing.
Elsewhere than x86-64 (an ARM machine), none of these libraries runs, and it sets nothing.
"""

from __future__ import annotations

import os
import platform

X86_64_MACHINES = ("x86_64", "amd64")
"""`platform.machine()` names of x86-64 CPUs (Linux and macOS say x86_64, Windows says AMD64)."""

PINNED_KERNELS: dict[str, str] = {
    "MKL_CBWR": "AVX2,STRICT",
    "ATEN_CPU_CAPABILITY": "avx2",
    "ONEDNN_MAX_CPU_ISA": "AVX2",
}
"""The environment variables that pin torch's CPU kernels to the AVX2 path, and their values."""


def pins_apply_here(machine: str | None = None) -> bool:
    """Whether this machine (by default the running one) is x86-64, where the pinned libraries run."""
    return (machine or platform.machine()).lower() in X86_64_MACHINES


def pin_cpu_kernels() -> dict[str, str]:
    """Pin torch's CPU kernels to the AVX2 path where a variable is unset; the variables in effect, by name.

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
