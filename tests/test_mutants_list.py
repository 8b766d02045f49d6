"""The mutation list (tools/mutants.toml) is current and covers what issue 16 asks.

Running the mutations takes half an hour (``make mutants``); this checks the list itself
in a second: no stale edit, every option of the rules and every strategy branch that
docs/strategies.md documents has at least one mutation, and no mutation may be caught by
a golden-output test alone.
"""
from __future__ import annotations

import importlib.util
import re
import sys
from dataclasses import fields
from pathlib import Path

import pytest

from thousand.rules import Rules

ROOT = Path(__file__).resolve().parent.parent


def _load_tool():
    spec = importlib.util.spec_from_file_location("mutants_tool", ROOT / "tools" / "mutants.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


TOOL = _load_tool()
LIST = TOOL.load_list()   # raises ListError on a stale or ambiguous find
COVERED = {c for m in LIST.mutants for c in m.covers}


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_every_rules_option_has_a_mutation():
    missing = [f.name for f in fields(Rules) if f.name not in COVERED]
    assert not missing, f"options of shared/RULES.md with no mutation in tools/mutants.toml: {missing}"


def test_every_documented_strategy_branch_has_a_mutation():
    missing = [b for b in LIST.strategy_branches if f"strategy:{b}" not in COVERED]
    assert not missing, f"strategy branches with no mutation: {missing}"


def test_strategy_branches_are_the_documented_ones():
    doc = _flat((ROOT / "docs" / "strategies.md").read_text(encoding="utf-8"))
    absent = {b: p for b, p in LIST.strategy_branches.items() if _flat(p) not in doc}
    assert not absent, f"branch phrases no longer in docs/strategies.md: {absent}"


# A documented item that is no decision between alternatives (nothing to mutate).
NOT_A_BRANCH = ("a single legal card is played at once",)


def _decision_items() -> list[str]:
    """Every item of docs/strategies.md's "Decisions" list: top-level bullets, the numbered
    lead steps and the following cases, each with its continuation lines."""
    text = (ROOT / "docs" / "strategies.md").read_text(encoding="utf-8")
    section = text.split("### Decisions", 1)[1].split("\n### ", 1)[0]
    items: list[list[str]] = []
    for line in section.splitlines():
        if re.match(r"\s*(\*|\d+\.) ", line):
            items.append([line])
        elif line.strip() and items:
            items[-1].append(line)
    return [_flat(" ".join(i)) for i in items]


def test_every_documented_decision_has_a_branch():
    phrases = [_flat(p) for p in LIST.strategy_branches.values()]
    items = _decision_items()
    assert len(items) >= 15, "the Decisions list of docs/strategies.md was not found"
    orphans = []
    for item in items:
        # a parent bullet ("Play, on lead:") holds only its children's header
        if item.rstrip().endswith(":"):
            continue
        if any(x in item for x in NOT_A_BRANCH):
            continue
        if not any(p in item for p in phrases):
            orphans.append(item[:80])
    assert not orphans, f"documented decisions with no branch in tools/mutants.toml: {orphans}"


def test_covers_name_known_things():
    options = {f.name for f in fields(Rules)}
    unknown = [c for c in COVERED if c not in options
               and not (c.startswith("strategy:") and c.removeprefix("strategy:") in LIST.strategy_branches)
               and not c.startswith("analysis:")]
    assert not unknown, f"covers entries that name no option, branch or formula: {unknown}"


# the Rules' derived values (Rules.barrel_contract) are the reference engine's side of a rule
REFERENCE_RULES = "src/thousand/rules.py"


def test_rule_mutations_edit_both_engines():
    # a rule lives in the kernel and in the reference engine: a mutation of one side only
    # would be caught by parity, which proves nothing about the tests that know the rule
    one_sided = [m.name for m in LIST.mutants if m.category == "rule" and not (
        any(e.file.startswith("src/_") for e in m.edits)
        and any(e.file.startswith("src/thousand/reference/") or e.file == REFERENCE_RULES
                for e in m.edits))]
    assert not one_sided, f"rule mutations that do not edit both engines: {one_sided}"


def test_golden_outputs_may_not_catch(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(
        'not_catchers = ["tests/test_output_hashes.py"]\n'
        '[[mutant]]\nname = "x"\ncategory = "rule"\ncovers = ["target"]\n'
        'tests = ["tests/test_output_hashes.py"]\n'
        '[[mutant.edit]]\nfile = "src/thousand/rules.py"\nfind = "CLASSIC = Rules()"\nreplace = "CLASSIC = Rules(target=900)"\n',
        encoding="utf-8")
    with pytest.raises(TOOL.ListError, match="may not catch"):
        TOOL.load_list(bad)
    assert LIST.not_catchers and all(
        not t.startswith(nc) for m in LIST.mutants for t in m.tests for nc in LIST.not_catchers)


def test_a_stale_find_is_refused_with_one_line(tmp_path):
    bad = tmp_path / "stale.toml"
    bad.write_text(
        '[[mutant]]\nname = "gone"\ncategory = "rule"\ncovers = ["target"]\ntests = ["tests/test_rules.py"]\n'
        '[[mutant.edit]]\nfile = "src/thousand/rules.py"\nfind = "no such text anywhere"\nreplace = "x"\n',
        encoding="utf-8")
    with pytest.raises(TOOL.ListError) as e:
        TOOL.load_list(bad)
    assert "stale" in str(e.value) and "gone" in str(e.value) and "\n" not in str(e.value)
    assert TOOL.main(["--file", str(bad), "--check"]) == 2
