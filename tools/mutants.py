"""The project's mutation check: change one rule at a time and require a test to fail.

Parity binds the kernel to the reference engine, so a rule changed in *both* engines at
once passes every parity test; only a test that knows the rule can catch it.  This tool
applies each mutation of ``tools/mutants.toml`` (exact text edits, in both engines where
the rule lives in both), rebuilds the kernel when a kernel source changed, runs the tests
named for it and reports the mutation as *caught* (a test failed) or *survived* (all
passed)::

    .venv/bin/python tools/mutants.py                    # the whole list (make mutants)
    .venv/bin/python tools/mutants.py --list             # names, what each covers
    .venv/bin/python tools/mutants.py --only round-defenders-digit-2 bolt-third
    .venv/bin/python tools/mutants.py --check            # only validate the list

Everything happens in a scratch copy of the working tree (tracked and untracked files,
not ignored ones) under a temporary directory: the real tree is never edited.  The
scratch copy builds its own kernel once (``THOUSAND_DEBUG=1``: ``-O0``, bounds checks on,
the same results) and runs the tests on it first (the *baseline*: every test named
anywhere in the list must pass unmutated).  Each mutation then starts from the pristine
files (the edited files, the generated C and the built modules are copied back and
compared byte for byte), so nothing leaks from one mutation into the next.

A mutation whose ``find`` text does not occur exactly once in its file is *stale*: the
list is refused with a one-line error naming it (exit 2), so it cannot rot silently.
Exit status: 0 when every mutation is caught, 1 when any survived, broke the build or
the test collection, or timed out.  docs/testing.md says how to add a mutation.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import filecmp
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIST_FILE = ROOT / "tools" / "mutants.toml"
# Files whose change needs a kernel rebuild (the Makefile's KERNEL_SRC)
KERNEL_SUFFIXES = (".pyx", ".pxi", ".pxd")
# What a rebuild produces, restored from the pristine copy after a kernel mutation
BUILT = ("src/_fastdeal.c", "src/_parquet.c")
CATEGORIES = ("rule", "strategy", "analysis")


class ListError(Exception):
    """A mutation list that cannot be used (stale find text, unknown test set, ...)."""


@dataclass(frozen=True)
class Edit:
    file: str
    find: str
    replace: str


@dataclass(frozen=True)
class Mutant:
    name: str
    category: str
    covers: tuple[str, ...]
    what: str
    edits: tuple[Edit, ...]
    tests: tuple[str, ...]

    @property
    def touches_kernel(self) -> bool:
        return any(e.file.endswith(KERNEL_SUFFIXES) for e in self.edits)


@dataclass
class Outcome:
    mutant: Mutant
    status: str              # caught, survived, broken, timeout
    by: str = ""             # the first failing test, or what broke
    seconds: float = 0.0
    build_seconds: float = 0.0


@dataclass
class MutantList:
    mutants: list[Mutant]
    test_sets: dict[str, tuple[str, ...]]
    not_catchers: tuple[str, ...]
    strategy_branches: dict[str, str] = field(default_factory=dict)


# --------------------------------------------------------------------------- the list
def load_list(path: Path = LIST_FILE, root: Path = ROOT) -> MutantList:
    """Read and validate the mutation list against the sources under ``root``.

    Raises :class:`ListError` naming the first problem: a stale or ambiguous ``find``,
    an edit that changes nothing, an unknown test set, a test file that does not exist or
    that may not be a catcher (golden hashes), a duplicate name.
    """
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise ListError(f"{path.name}: cannot read it: {e}") from None
    sets = {k: tuple(v) for k, v in data.get("test_sets", {}).items()}
    not_catchers = tuple(data.get("not_catchers", ()))
    branches = dict(data.get("strategy_branches", {}))
    mutants: list[Mutant] = []
    seen: set[str] = set()
    texts: dict[str, str] = {}
    for i, m in enumerate(data.get("mutant", [])):
        name = m.get("name") or f"#{i + 1}"
        where = f"{path.name}: mutant {name}"
        if name in seen:
            raise ListError(f"{where}: the name is used twice")
        seen.add(name)
        category = m.get("category")
        if category not in CATEGORIES:
            raise ListError(f"{where}: category must be one of {', '.join(CATEGORIES)}, got {category!r}")
        covers = tuple(m.get("covers", ()))
        if not covers:
            raise ListError(f"{where}: covers names nothing")
        edits = []
        for e in m.get("edit", []):
            file, find, replace = e.get("file"), e.get("find"), e.get("replace")
            if not file or not find or replace is None:
                raise ListError(f"{where}: an edit needs file, find and replace")
            if find == replace:
                raise ListError(f"{where}: an edit of {file} changes nothing")
            if file not in texts:
                try:
                    texts[file] = (root / file).read_text(encoding="utf-8")
                except OSError:
                    raise ListError(f"{where}: {file} does not exist") from None
            n = texts[file].count(find)
            if n != 1:
                first = find.strip().splitlines()[0][:60]
                raise ListError(f"{where}: stale: {file} holds {n} copies of {first!r} (exactly 1 needed)")
            edits.append(Edit(file, find, replace))
        if not edits:
            raise ListError(f"{where}: no edit")
        tests: list[str] = []
        for t in m.get("tests", []):
            for item in sets.get(t, (t,)):
                if item not in tests:
                    tests.append(item)
        if not tests:
            raise ListError(f"{where}: no tests to run")
        for t in tests:
            file = t.split("::")[0]
            if not (root / file).exists():
                raise ListError(f"{where}: test {t} does not exist")
            if any(file == nc or file.startswith(nc.rstrip("/") + "/") for nc in not_catchers):
                raise ListError(f"{where}: {file} only compares recorded outputs and may not catch a mutation")
        mutants.append(Mutant(name, category, covers, m.get("what", ""), tuple(edits), tuple(tests)))
    for name, tests in sets.items():
        for t in tests:
            if not (root / t.split("::")[0]).exists():
                raise ListError(f"{path.name}: test set {name}: {t} does not exist")
    return MutantList(mutants, sets, not_catchers, branches)


# --------------------------------------------------------------------------- scratch copies
def source_files(root: Path) -> list[str]:
    """The working tree's files as a fresh clone plus local changes would have them:
    tracked and untracked files, not ignored ones (no .venv, no build products)."""
    try:
        out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                             cwd=root, capture_output=True, check=True).stdout
        return [p for p in out.decode().split("\0") if p and (root / p).is_file()]
    except (OSError, subprocess.CalledProcessError):
        skip = {".git", ".venv", "build", "__pycache__", ".hypothesis", "test-artifacts", "report"}
        files = []
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = [d for d in dirnames if d not in skip]
            for f in filenames:
                files.append(os.path.relpath(os.path.join(dirpath, f), root))
        return files


def make_template(root: Path, dest: Path) -> None:
    for rel in source_files(root):
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / rel, target)
    # thousand.analysis lives in analysis/ (pyproject's package-dir); with the scratch
    # src on PYTHONPATH it must be found there, not through the editable install's finder
    link = dest / "src" / "thousand" / "analysis"
    if not link.exists():
        link.symlink_to(Path("..", "..", "analysis"), target_is_directory=True)


_CHILDREN: set[subprocess.Popen] = set()
_CHILDREN_LOCK = threading.Lock()


def run_child(cmd: list[str], cwd: Path, env: dict[str, str], stdout, timeout: float | None = None) -> int | None:
    """Run ``cmd`` in its own process group (so that an interrupted run can stop it and
    everything it started); None when it ran over ``timeout``."""
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=stdout, stderr=subprocess.STDOUT, start_new_session=True)
    with _CHILDREN_LOCK:
        _CHILDREN.add(proc)
    try:
        return proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        _stop(proc)
        return None
    except BaseException:                     # interrupted while waiting (main thread)
        _stop(proc)
        raise
    finally:
        with _CHILDREN_LOCK:
            _CHILDREN.discard(proc)


def _stop(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait()


def stop_children() -> None:
    with _CHILDREN_LOCK:
        children = list(_CHILDREN)
    for proc in children:
        _stop(proc)


def build_kernel(work: Path, python: str, log: Path) -> tuple[bool, float]:
    env = dict(os.environ, THOUSAND_DEBUG="1")
    t0 = time.perf_counter()
    with open(log, "w") as f:
        code = run_child([python, "setup.py", "-q", "build_ext", "--inplace"], work, env, f)
    return code == 0, time.perf_counter() - t0


def built_modules(work: Path) -> list[str]:
    return [str(p.relative_to(work)) for p in sorted((work / "src" / "thousand").glob("_*.so"))] + [
        str(p.relative_to(work)) for p in sorted((work / "src" / "thousand").glob("_*.pyd"))]


def restore(work: Path, template: Path, files: list[str]) -> None:
    """Copy ``files`` back from the pristine template (mtimes kept) and check them."""
    for rel in files:
        src, dst = template / rel, work / rel
        if src.exists():
            shutil.copy2(src, dst)
            if not filecmp.cmp(src, dst, shallow=False):
                raise RuntimeError(f"could not restore {rel} in {work}")
    shutil.rmtree(work / ".hypothesis", ignore_errors=True)   # no examples carried over
    shutil.rmtree(work / "test-artifacts", ignore_errors=True)


def test_env(work: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(work / "src")
    env["PYTHONDONTWRITEBYTECODE"] = "1"      # no bytecode of a mutated file survives it
    env["THOUSAND_TEST_ARTIFACTS"] = str(work / "test-artifacts")
    env.pop("THOUSAND_TEST_SEED", None)
    env.pop("THOUSAND_TEST_SEEDS", None)
    return env


_FAILED = re.compile(r"^(FAILED|ERROR) (\S+)", re.M)


def run_tests(work: Path, python: str, tests: tuple[str, ...], timeout: float, stop_first: bool = True,
              jobs: int = 1) -> tuple[int | None, str]:
    cmd = [python, "-m", "pytest", "-q", "-rfE", "--no-header", "-p", "no:cacheprovider", "-o", "addopts="]
    cmd += ["-x"] if stop_first else []
    cmd += ["-n", str(jobs)] if jobs > 1 else []
    cmd += list(tests)
    with tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace") as out:
        code = run_child(cmd, work, test_env(work), out, timeout)
        out.seek(0)
        return code, out.read()


def first_failure(output: str) -> str:
    m = _FAILED.search(output)
    return f"{m.group(1).lower()} {m.group(2)}" if m else (output.strip().splitlines() or ["?"])[-1][:120]


# --------------------------------------------------------------------------- one mutation
def apply(work: Path, mutant: Mutant) -> None:
    for e in mutant.edits:
        path = work / e.file
        text = path.read_text(encoding="utf-8")
        if text.count(e.find) != 1:   # load_list checked the real tree; the copy is the same
            raise RuntimeError(f"{mutant.name}: {e.file} changed under the scratch copy")
        path.write_text(text.replace(e.find, e.replace), encoding="utf-8")


def run_mutant(mutant: Mutant, work: Path, template: Path, python: str, timeout: float) -> Outcome:
    t0 = time.perf_counter()
    build_s = 0.0
    dirty = [e.file for e in mutant.edits]
    if mutant.touches_kernel:
        dirty += list(BUILT) + built_modules(template)
    try:
        apply(work, mutant)
        if mutant.touches_kernel:
            ok, build_s = build_kernel(work, python, work / "build-mutant.log")
            if not ok:
                log = (work / "build-mutant.log").read_text(errors="replace").strip().splitlines()
                err = next((ln for ln in log if "rror" in ln), log[-1] if log else "build failed")
                return Outcome(mutant, "broken", "build: " + err.strip()[:100], time.perf_counter() - t0, build_s)
        code, output = run_tests(work, python, mutant.tests, timeout)
        if code is None:
            return Outcome(mutant, "timeout", f"tests ran over {timeout:.0f} s", time.perf_counter() - t0, build_s)
        if code == 0:
            return Outcome(mutant, "survived", "", time.perf_counter() - t0, build_s)
        by = first_failure(output)
        status = "caught" if code == 1 and by.startswith("failed ") else "broken"
        return Outcome(mutant, status, by.removeprefix("failed "), time.perf_counter() - t0, build_s)
    finally:
        restore(work, template, dirty)


# --------------------------------------------------------------------------- the run
def print_table(outcomes: list[Outcome], out=sys.stdout) -> None:
    width = max(len(o.mutant.name) for o in outcomes)
    print(f"\n{'mutation':<{width}}  {'category':<8}  {'result':<8}  {'time':>6}  caught by", file=out)
    for o in outcomes:
        print(f"{o.mutant.name:<{width}}  {o.mutant.category:<8}  {o.status:<8}  {o.seconds:5.0f}s  {o.by}",
              file=out)
    print(file=out)
    for cat in CATEGORIES:
        group = [o for o in outcomes if o.mutant.category == cat]
        if group:
            caught = sum(o.status == "caught" for o in group)
            print(f"{cat:>8}: {caught}/{len(group)} caught", file=out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="tools/mutants.py", description=__doc__.split("\n\n")[0],
        epilog="example: .venv/bin/python tools/mutants.py --only bolt-third-counts --jobs 1",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--list", action="store_true", help="print the mutations and what each covers, then stop")
    parser.add_argument("--check", action="store_true", help="only validate the list (stale finds, test names)")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="run only these mutations")
    parser.add_argument("--category", choices=CATEGORIES, help="run only the mutations of one category")
    parser.add_argument("--jobs", type=int, default=2, help="mutations run at once, each in its own copy (2)")
    parser.add_argument("--timeout", type=float, default=900, help="seconds a mutation's tests may take (900)")
    parser.add_argument("--no-baseline", action="store_true",
                        help="skip running the tests on the unmutated copy first")
    parser.add_argument("--keep", action="store_true", help="keep the scratch copies (their path is printed)")
    parser.add_argument("--file", type=Path, default=LIST_FILE, help="the mutation list (tools/mutants.toml)")
    args = parser.parse_args(argv)

    try:
        mlist = load_list(args.file)
    except ListError as e:
        print(f"mutants: {e}", file=sys.stderr)
        return 2
    mutants = mlist.mutants
    if args.only:
        unknown = sorted(set(args.only) - {m.name for m in mutants})
        if unknown:
            print(f"mutants: no mutation named {', '.join(unknown)} (see --list)", file=sys.stderr)
            return 2
        mutants = [m for m in mutants if m.name in args.only]
    if args.category:
        mutants = [m for m in mutants if m.category == args.category]
    if args.list:
        for m in mutants:
            files = ", ".join(sorted({e.file for e in m.edits}))
            print(f"{m.name:<40} {m.category:<8} {', '.join(m.covers)}  ({files})\n    {m.what}")
        print(f"{len(mutants)} mutations")
        return 0
    if args.check:
        print(f"mutants: {len(mlist.mutants)} mutations, none stale")
        return 0
    if args.jobs < 1:
        print("mutants: --jobs must be at least 1", file=sys.stderr)
        return 2

    python = sys.executable
    # SIGTERM stops the run like Ctrl-C: the children are stopped, the copies removed
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    scratch = Path(tempfile.mkdtemp(prefix="thousand-mutants-"))
    started = time.perf_counter()
    try:
        template = scratch / "pristine"
        make_template(ROOT, template)
        ok, secs = build_kernel(template, python, scratch / "build-pristine.log")
        if not ok:
            print(f"mutants: the unmutated kernel does not build (see {scratch / 'build-pristine.log'})",
                  file=sys.stderr)
            args.keep = True
            return 2
        print(f"scratch copy {scratch}: kernel built (THOUSAND_DEBUG=1) in {secs:.0f} s", flush=True)
        if not args.no_baseline:
            all_tests = tuple(dict.fromkeys(t for m in mutants for t in m.tests))
            t0 = time.perf_counter()
            code, output = run_tests(template, python, all_tests, args.timeout * 4, stop_first=False,
                                     jobs=args.jobs)
            if code != 0:
                print(f"mutants: the unmutated tests fail ({first_failure(output)}); fix that first",
                      file=sys.stderr)
                return 2
            print(f"baseline: the {len(all_tests)} test files/ids pass unmutated ({time.perf_counter() - t0:.0f} s)",
                  flush=True)
        workers: queue.Queue[Path] = queue.Queue()
        for j in range(args.jobs):
            work = scratch / f"work{j}"
            shutil.copytree(template, work, symlinks=True)
            workers.put(work)
        lock = threading.Lock()
        done = 0
        outcomes: dict[str, Outcome] = {}

        stopping = threading.Event()

        def one(m: Mutant) -> Outcome:
            nonlocal done
            work = workers.get()
            try:
                o = run_mutant(m, work, template, python, args.timeout)
            finally:
                workers.put(work)
            with lock:
                if stopping.is_set():
                    return o
                done += 1
                note = f"{o.by}" if o.by else ""
                build = f" (build {o.build_seconds:.0f}s)" if o.build_seconds else ""
                print(f"[{done:>3}/{len(mutants)}] {o.status:<8} {m.name:<40} {o.seconds:5.0f}s{build}  {note}",
                      flush=True)
            return o

        pool = concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs)
        try:
            for o in pool.map(one, mutants):
                outcomes[o.mutant.name] = o
        finally:
            stopping.set()                    # an interrupted mutation reports nothing
            stop_children()
            pool.shutdown(wait=True, cancel_futures=True)
        ordered = [outcomes[m.name] for m in mutants]
        print_table(ordered)
        bad = [o for o in ordered if o.status != "caught"]
        total = time.perf_counter() - started
        print(f"{len(ordered) - len(bad)} of {len(ordered)} mutations caught in {total / 60:.1f} min "
              f"({args.jobs} job(s))")
        for o in bad:
            print(f"  {o.status}: {o.mutant.name} ({', '.join(o.mutant.covers)}){': ' + o.by if o.by else ''}")
        return 1 if bad else 0
    except KeyboardInterrupt:
        stop_children()
        print("mutants: interrupted (the lines above are final)", file=sys.stderr)
        return 130
    finally:
        if args.keep:
            print(f"scratch copies kept in {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:              # `--list | head`
        sys.stderr.close()
        sys.exit(1)
