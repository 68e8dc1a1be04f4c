"""Console output of the command-line tools: the agents package's log messages, printed to standard output."""

from __future__ import annotations

import logging
import sys

PACKAGE_LOGGER = "agents"
"""Parent of every module logger in the agents package."""


class StdoutHandler(logging.Handler):
    """Writes each message to the current `sys.stdout` (looked up per message, so redirections are followed)."""

    def emit(self, record: logging.LogRecord) -> None:
        """Print the formatted message and flush (progress lines should appear as they happen)."""
        try:
            sys.stdout.write(self.format(record) + "\n")
            sys.stdout.flush()
        except Exception:
            self.handleError(record)


def log_to_console(level: int = logging.INFO) -> None:
    """Show the agents package's messages of `level` and above on stdout; calling it again adds no second handler."""
    package_logger = logging.getLogger(PACKAGE_LOGGER)
    package_logger.setLevel(level)
    if not any(isinstance(handler, StdoutHandler) for handler in package_logger.handlers):
        package_logger.addHandler(StdoutHandler())
