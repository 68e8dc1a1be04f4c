"""Train an agent from a YAML config: `python train.py [--config FILE] [key=value ...]` or `--resume RUN_DIR`.

The command lives in agents/training/train_cli.py (installed as `tabletop-train`); `python train.py --help` lists its
options.
"""

from agents.training.train_cli import DEFAULT_CONFIG, INTERRUPTED_EXIT_CODE, main

__all__ = ["DEFAULT_CONFIG", "INTERRUPTED_EXIT_CODE", "main"]

if __name__ == "__main__":
    raise SystemExit(main())
