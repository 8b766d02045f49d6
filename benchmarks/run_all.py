"""Run every benchmark in this folder, one after the other, and print their figures.

    .venv/bin/python benchmarks/run_all.py            # what `make bench` runs
    .venv/bin/python benchmarks/run_all.py --quick    # smaller counts, a rough look

Each script measures its figures as ratios within its own run, because these machines
are shared and absolute rates drift; compare ratios across runs, not raw numbers.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
QUICK_ARGS = {
    "bench_kernel.py": ["--deals", "200000", "--repeat", "2"],
    "bench_simulate.py": ["--deals", "1000000"],
    "bench_strategies.py": ["--deals", "200000"],
    "bench_bid.py": [],
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="smaller counts for a rough look")
    args = parser.parse_args()
    failed = []
    for script in sorted(HERE.glob("bench_*.py")):
        cmd = [sys.executable, str(script)] + (QUICK_ARGS.get(script.name, []) if args.quick else [])
        print(f"== {script.name}", flush=True)
        t = time.perf_counter()
        rc = subprocess.call(cmd)
        print(f"   ({time.perf_counter() - t:.1f} s, exit {rc})\n", flush=True)
        if rc:
            failed.append(script.name)
    if failed:
        print("failed: " + ", ".join(failed), file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
