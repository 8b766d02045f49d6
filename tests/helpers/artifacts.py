"""A failing engine comparison leaves its deal (or game) behind, and says how to look at it.

:func:`failure` writes the trace in the format ``thousand explain --json`` writes (a deal
carries its rules; a game trace carries them anyway) under :func:`artifacts_dir`, named
after the running test, and returns the failure message ending with the command that
replays and prints it::

    kernel deal row 17: columns differ (column, kernel, reference): [('score0', 60, 55)]
      deal17 trace: /repo/test-artifacts/test_parity.py-test_replay_deals_per_preset-classic-random-seed1-deal17.json
      show it: thousand explain --replay test-artifacts/test_parity.py-...-deal17.json

The folder is ``test-artifacts/`` at the top of the repository (ignored by git), or
``$THOUSAND_TEST_ARTIFACTS``.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

from thousand.rules import Rules
from thousand.trace import DealTrace, GameTrace

__all__ = ["ARTIFACTS_ENV", "artifacts_dir", "deal_payload", "failure", "replay_command"]

ARTIFACTS_ENV = "THOUSAND_TEST_ARTIFACTS"
REPO = Path(__file__).resolve().parents[2]


def artifacts_dir() -> Path:
    """Where failure traces go: ``$THOUSAND_TEST_ARTIFACTS`` or ``test-artifacts/``."""
    return Path(os.environ.get(ARTIFACTS_ENV) or REPO / "test-artifacts")


def _test_name() -> str:
    """The running test as a file name: ``test_parity.py-test_x-classic-random-seed1``."""
    current = os.environ.get("PYTEST_CURRENT_TEST", "no-test").rsplit(" (", 1)[0]
    current = current.split("/")[-1].replace("::", "-")
    return re.sub(r"[^A-Za-z0-9_.=+-]+", "-", current).strip("-")[:150]


def deal_payload(rules: Rules, trace: DealTrace) -> dict:
    """A deal trace with its rules, as ``thousand explain --json`` writes one."""
    return {"rules": GameTrace(rules=rules, first_dealer=trace.dealer).to_dict()["rules"], **trace.to_dict()}


def replay_command(path: Path) -> str:
    """The command that replays and prints the trace at ``path`` (relative when it can be)."""
    path = Path(path).resolve()
    try:
        shown = path.relative_to(Path.cwd())
    except ValueError:
        shown = path
    return f"thousand explain --replay {shown}"


def failure(message: str, rules: Rules, trace: DealTrace | GameTrace, label: str) -> str:
    """Write ``trace`` (a deal under ``rules``, or a whole game) to the artifacts folder as
    ``<test>-<label>.json`` and return ``message`` followed by the file and the command."""
    import json

    folder = artifacts_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{_test_name()}-{label}.json"
    payload = trace.to_dict() if isinstance(trace, GameTrace) else deal_payload(rules, trace)
    path.write_text(json.dumps(payload, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return f"{message}\n  {label} trace: {path}\n  show it: {replay_command(path)}"
