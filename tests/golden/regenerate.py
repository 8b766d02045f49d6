"""Write the golden playthroughs (the cases are in ``tests/helpers/golden.py``).

Run after an intended change of the engine, the strategies or the printer, then read the
diff:

    .venv/bin/python tests/golden/regenerate.py
"""
from __future__ import annotations

import sys
from pathlib import Path

# a script run from anywhere: the helpers package sits in tests/
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from helpers.golden import main  # noqa: E402

if __name__ == "__main__":
    raise SystemExit(main())
