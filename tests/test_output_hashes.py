"""The kernel's outputs for fixed seeds are pinned: a refactoring that claims unchanged
behaviour must leave these hashes alone (``tools/output_hashes.py`` runs the full set,
with ``compare``, ``bid`` and the report, on the old and the new code).

The recording is ``tests/golden/output_hashes.json``; a change of behaviour that is
meant re-records it (``tools/output_hashes.py --quick --write ...``) in the same commit
that documents why.
"""
from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("output_hashes", ROOT / "tools" / "output_hashes.py")
output_hashes = importlib.util.module_from_spec(_spec)
sys.modules["output_hashes"] = output_hashes      # dataclasses look their module up
_spec.loader.exec_module(output_hashes)

RECORDED = json.loads((ROOT / "tests" / "golden" / "output_hashes.json").read_text())
QUICK = [c for c in output_hashes.cases() if c.quick]


def test_every_quick_case_is_recorded():
    assert {c.name for c in QUICK} <= set(RECORDED)


@pytest.mark.parametrize("case", QUICK, ids=[c.name for c in QUICK])
def test_output_unchanged(case):
    assert output_hashes.run_case(case, in_process=True) == RECORDED[case.name]


def test_json_floats_hashed_to_ten_digits():
    # a last-bit difference (another summation order) must not change a hash; a
    # difference in what the number says must
    rounded = output_hashes._rounded
    a = {"mean": [0.1 + 0.2, 1], "ci": {"low": 2.0000000000000004}}
    b = {"mean": [0.3, 1], "ci": {"low": 2.0}}
    assert json.dumps(rounded(a)) == json.dumps(rounded(b))
    assert rounded({"x": 0.30001}) != rounded({"x": 0.3})
    assert rounded({"n": 7, "s": "7.0"}) == {"n": 7, "s": "7.0"}
