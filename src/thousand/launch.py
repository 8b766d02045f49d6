"""The ``thousand`` command's entry point: light, so that it is in place before the heavy
imports (numpy, polars) that a Ctrl-C may interrupt."""
from __future__ import annotations

import signal
import sys
from typing import NoReturn

__all__ = ["entry"]


def entry() -> NoReturn:
    """Run :func:`thousand.cli.main` and exit with its code.

    A Ctrl-C while the command loads, before ``main`` handles interruptions itself, is
    its one line and exit 130, not a traceback.  Once the command is done, a Ctrl-C must
    not break the shutdown that follows: at exit loky joins its worker processes, and an
    interrupt there printed a traceback or left the process waiting on a worker for good
    (a hostile try-out, 2026-12-03); so it is ignored from then on (SIGTERM still ends
    the process).
    """
    try:
        from thousand.cli import main
        code = main()
    except KeyboardInterrupt:
        print("thousand: interrupted", file=sys.stderr)
        code = 130
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.exit(code)
