"""`python -m agents.view`: the viewer's command line (agents/view/cli.py)."""

import sys

from agents.view.cli import main

if __name__ == "__main__":
    sys.exit(main())
