"""Hash what the commands produce, to prove that a refactoring changed no output.

Runs ``simulate``, ``games``, ``explain``, ``compare``, ``bid`` and ``report`` through the
command line on a few seeds, rule sets and strategies, and hashes their *content*: the
columns of every Parquet dataset (values and dtypes, in the order written), the JSON that
``--json`` prints, and the report's tables and Markdown (minus its timing lines).  Run it
on the old and the new code and compare::

    .venv/bin/python tools/output_hashes.py --write before.json     # on the old commit
    .venv/bin/python tools/output_hashes.py --check before.json     # on the new one

``--check`` prints every case that differs and exits 1 if any does.  Cases tagged with a
``changes`` reason (``--allow TAG``) may differ on purpose; the check lists them apart.
A quick subset (``--quick``: the kernel's own outputs, which depend only on numpy's PCG64
stream and this code, not on how a polars version sums floats) runs in the test suite
against ``tests/golden/output_hashes.json``.
"""
from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl

# Rule sets that exercise every rule the kernel has (deals and games).
RULE_SETS = [
    "classic",
    "russian",
    "polish",
    "classic:players=4",
    "classic:players=2",
    "classic:blind=on,golden_kon=on,cut_nine_penalty=on,samozval_555=on",
    "classic:must_beat=on,marriage_first_trick=on,ace_marriage=200,last_trick_bonus=10,must_trump=off",
    "classic:resign=sixty_two_free,bolts=not_on_barrel,bolt_when=zero_points,barrel_bid_min=120,barrel_third_reset=on",
    "russian:players=4,dealer_scores=aces_40",
]
STRATEGY_SETS = [
    [],
    ["--strategy", "random"],
    ["--strategy", "greedy", "--strategy", "cautious", "--strategy", "aggressive:margin=5,blind_gap=150"],
]
# Why a case may differ from an older recording (``--allow``).
BARREL_121 = "barrel121"   # issue 12: the sensible players aim for barrel_target, not 120


@dataclass
class Case:
    name: str
    args: list[str]
    outputs: list[str] = field(default_factory=list)   # datasets / folders written
    stdout: str = "none"                                 # none | json | text
    quick: bool = False
    changes: str = ""                                    # tag of an intended change


def _barrel_121(spec: str, kind: str, strategies: list[str]) -> str:
    # Only whole games have a barrel sitter; the random and greedy players never look.
    sensible = not strategies or any(s in " ".join(strategies) for s in ("standard", "cautious", "aggressive"))
    return BARREL_121 if kind == "games" and spec.startswith("russian") and sensible else ""


def cases() -> list[Case]:
    out: list[Case] = []
    for i, spec in enumerate(RULE_SETS):
        for j, strat in enumerate(STRATEGY_SETS):
            if "players=2" in spec and len(strat) > 2:
                strat = ["--strategy", "greedy", "--strategy", "aggressive:blind_gap=150"]
            elif "players=4" in spec and len(strat) > 2:
                strat = [*strat, "--strategy", "standard:resign_bias=-20"]
            seed = str(11 + i + 7 * j)
            quick = j < 2
            out.append(Case(f"simulate[{spec}|{' '.join(strat) or 'standard'}]",
                            ["simulate", "--deals", "12000", "--chunk-size", "5000", "--rules", spec, "--seed", seed,
                             *strat, "--out", "d"], ["d"], quick=quick))
            out.append(Case(f"games[{spec}|{' '.join(strat) or 'standard'}]",
                            ["games", "--games", "60", "--chunk-size", "25", "--rules", spec, "--seed", seed, *strat,
                             "--out", "g", "--deals-out", "gd"], ["g", "gd"], quick=quick,
                            changes=_barrel_121(spec, "games", strat)))
        out.append(Case(f"explain[{spec}]", ["explain", "--seed", str(3 + i), "--rules", spec, "--json"],
                        stdout="json", quick=True))
        out.append(Case(f"explain-game[{spec}]", ["explain", "--game", "--seed", str(5 + i), "--rules", spec, "--json"],
                        stdout="json", changes=_barrel_121(spec, "games", [])))
    out.append(Case("compare[deals]", ["compare", "--rules", "classic", "--rules", "classic:bolts=off", "--rules",
                                       "russian", "--deals", "20000", "--seed", "4", "--json"], stdout="json",
                    ))
    out.append(Case("compare[games]", ["compare", "--rules", "classic", "--rules", "classic:barrel_at=900",
                                       "--games", "400", "--seed", "5", "--json"], stdout="json"))
    out.append(Case("compare[games-russian]", ["compare", "--rules", "russian", "--rules", "polish",
                                               "--games", "300", "--seed", "6", "--json", "--strategy",
                                               "cautious"], stdout="json", changes=BARREL_121))
    for hand, extra in (("AH TH KH QH AD 9S JC", ["--samples", "20000"]),
                        ("AS KS QS TC 9C JD QH", ["--samples", "20000", "--position", "middle", "--rules", "russian"]),
                        ("AH AS AD AC KH QH 9S", ["--samples", "10000", "--position", "rear", "--per-bid",
                                                  "--rules", "classic:ace_marriage=200"]),
                        ("KD QD KC QC AS TS 9H", ["--exact"])):
        out.append(Case(f"bid[{hand}|{' '.join(extra)}]", ["bid", hand, "--seed", "8", *extra, "--json"],
                        stdout="json"))
    out.append(Case("report", ["report", "--deals", "20000", "--games", "200", "--hands", "120", "--samples", "150",
                               "--seed", "5", "--out", "rep", "--no-progress"], ["rep"]))
    return out


# --------------------------------------------------------------------------- hashing
def _hash_frame(h: "hashlib._Hash", df: pl.DataFrame) -> None:
    for name in df.columns:
        col = df.get_column(name)
        h.update(f"{name}:{col.dtype}\n".encode())
        arr = col.to_numpy()
        if arr.dtype == object:
            h.update(repr(arr.tolist()).encode())
        else:
            h.update(np.ascontiguousarray(arr).tobytes())


def _hash_dataset(h: "hashlib._Hash", folder: Path) -> None:
    files = sorted(folder.glob("*.parquet"))
    for f in files:
        h.update(f.name.encode())
        _hash_frame(h, pl.read_parquet(f))


_TIMING = re.compile(r"(\d[\d,.]*\s*(s|ms|µs|min)\b|in \d+ s|deals/s|games/s|\d{4}-\d\d-\d\d)")


def _hash_report(h: "hashlib._Hash", folder: Path) -> None:
    for f in sorted((folder / "tables").glob("*.csv")):
        h.update(f.name.encode())
        h.update(f.read_bytes())
    md = (folder / "report.md").read_text(encoding="utf-8")
    h.update("\n".join(line for line in md.splitlines() if not _TIMING.search(line)).encode())
    for sub in sorted((folder / "data").iterdir()):
        if sub.is_dir():
            _hash_dataset(h, sub)
    forced = folder / "data" / "forced_hands.parquet"
    if forced.exists():
        _hash_frame(h, pl.read_parquet(forced))


def _rounded(obj):
    """``obj`` with every float to 10 significant digits: a mean or an interval that polars
    or numpy sums in another order under other package versions differs in its last bits
    (compare[deals] did between two machines with the same code), not in what it says."""
    if isinstance(obj, float):
        return float(f"{obj:.10g}")
    if isinstance(obj, dict):
        return {k: _rounded(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_rounded(v) for v in obj]
    return obj


def _run_in_process(args: list[str], cwd: str) -> tuple[int, str, str]:
    from thousand.cli import main as cli_main
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(cwd), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli_main(args)
    return code, out.getvalue(), err.getvalue()


def run_case(case: Case, in_process: bool = False) -> str:
    """The case's hash (or ``exit N: ...`` when the command failed).  ``in_process`` runs
    the command line in this interpreter with one worker (the suite's way: no start-up
    cost; the number of workers never changes a result, as the runner's tests show)."""
    with tempfile.TemporaryDirectory() as tmp:
        if in_process:
            jobs = ["--jobs", "1"] if case.args[0] in ("simulate", "games", "compare", "report") else []
            code, stdout, stderr = _run_in_process([*case.args, *jobs], tmp)
        else:
            proc = subprocess.run([sys.executable, "-m", "thousand", *case.args], cwd=tmp, capture_output=True,
                                  text=True, env={**os.environ, "PYTHONHASHSEED": "0"})
            code, stdout, stderr = proc.returncode, proc.stdout, proc.stderr
        if code != 0:
            return f"exit {code}: {stderr.strip().splitlines()[-1:]}"
        h = hashlib.sha256()
        if case.stdout == "json":
            h.update(json.dumps(_rounded(json.loads(stdout)), sort_keys=True).encode())
        for name in case.outputs:
            path = Path(tmp) / name
            if name == "rep":
                _hash_report(h, path)
            else:
                _hash_dataset(h, path)
        return h.hexdigest()[:20]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", metavar="FILE", help="record the hashes into FILE")
    ap.add_argument("--check", metavar="FILE", help="compare with the hashes recorded in FILE")
    ap.add_argument("--quick", action="store_true", help="only the quick subset")
    ap.add_argument("--allow", action="append", default=[], help="a change tag that may differ (e.g. barrel121)")
    ap.add_argument("--match", default="", help="only cases whose name contains this")
    args = ap.parse_args(argv)
    chosen = [c for c in cases() if (c.quick or not args.quick) and args.match in c.name]
    got: dict[str, str] = {}
    for c in chosen:
        got[c.name] = run_case(c)
        print(f"{got[c.name]}  {c.name}", flush=True)
    if args.write:
        Path(args.write).write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
    if args.check:
        want = json.loads(Path(args.check).read_text())
        tags = {c.name: c.changes for c in chosen}
        differ = [n for n in got if n in want and want[n] != got[n]]
        allowed = [n for n in differ if tags[n] and tags[n] in args.allow]
        bad = [n for n in differ if n not in allowed]
        missing = [n for n in got if n not in want]
        for n in allowed:
            print(f"changed (allowed: {tags[n]}): {n}")
        for n in bad:
            print(f"DIFFERS: {n}  {want[n]} -> {got[n]}")
        for n in missing:
            print(f"not recorded: {n}")
        print(f"{len(got) - len(differ) - len(missing)} identical, {len(allowed)} allowed changes, "
              f"{len(bad)} differ, {len(missing)} not recorded")
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
