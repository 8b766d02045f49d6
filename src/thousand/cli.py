"""The ``thousand`` command line.

Each subcommand lives in ``thousand.commands.<module>`` and exposes ``NAME``, ``HELP``
(one line), ``DESCRIPTION`` (the ``--help`` text, with an example), ``add_arguments(parser)``
and ``run(args) -> int``.  User errors print one line and exit 2; Ctrl-C exits 130, and
SIGTERM (143) and SIGHUP (129) stop a command the same way.
"""
from __future__ import annotations

import argparse
import difflib
import errno
import importlib
import os
import re
import sys
from typing import NoReturn

from thousand import __version__
from thousand.console import degrade_streams
from thousand.errors import USER_ERRORS

# Order shown in `thousand --help`.
COMMAND_MODULES = [
    "rules_cmd", "explain", "simulate_cmd", "games_cmd", "bid", "solve", "compare", "match", "report", "play",
]

EPILOG = """examples:
  thousand rules classic                    every option of a preset with its meaning
  thousand explain --seed 7                 one deal played out, decision by decision
  thousand bid "AH TH KH QH AD 9S JC"       how high can this hand bid?
  thousand solve --seed 7                   the deal's open-hand value, card by card
  thousand simulate --deals 1000000 --out runs/classic
  thousand compare --rules classic --rules classic:bolts=off --games 20000
  thousand match --strategy greedy --strategy standard   duplicate match: same decks, seats rotated
  thousand report --out report              the full report (what `make report` runs)
  thousand play --save game.json            sit at the table and play the bots

Rule sets are named as a preset (classic, russian, polish), a preset with overrides
(classic:bolts=off,barrel_at=900) or a TOML file; `--set name=value` overrides further.
"""


class OneLineErrorParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line like every other error of the tool, and a
    value that starts like a negative number is a value.

    argparse takes a word after ``--taken`` that begins with ``-`` for an option unless it
    is a plain negative number (``-5``, ``-0.5``): ``--taken -5,0,0`` or ``--precision
    -1e-3`` then failed as "expected one argument" instead of reaching the option's own
    check.  No option of the tool starts with a digit, so a word ``-<digit>...`` or
    ``-.<digit>...`` is never an option: argparse's own matcher for negative numbers
    (the rule its documentation states, "Arguments containing -") is widened to it.

    An option is never shortened (``allow_abbrev=False``): argparse would take ``games
    --deals 50``, a command without ``--deals``, for ``--deals-out 50`` and write a dataset
    into a folder named 50.

    >>> p = OneLineErrorParser(prog="x")
    >>> _ = p.add_argument("--taken")
    >>> p.parse_args(["--taken", "-5,0,0"]).taken
    '-5,0,0'
    """

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)
        self._negative_number_matcher = re.compile(r"^-\.?\d")

    def parse_known_args(self, args=None, namespace=None):  # type: ignore[override]
        self._argv = list(sys.argv[1:] if args is None else args)   # for error(): what was typed
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> "NoReturn":  # type: ignore[override]
        if message.startswith(("the following arguments are required", "one of the arguments")):
            # argparse checks the required options before it reports unknown ones: a
            # misspelt `--deal 5` read "--deals is required" without naming --deal
            unknown = self._unknown_options()
            if unknown:
                message = "unrecognized arguments: " + ", ".join(unknown) + "; " + message
        self.exit(2, f"{self.prog}: error: {clipped(message)} (see {self.prog} --help)\n")

    def _unknown_options(self) -> list[str]:
        """The words typed as options (``--x`` or ``--x=1``) that this parser does not have,
        each with the nearest option it has."""
        known = list(self._option_string_actions)
        out = []
        for word in getattr(self, "_argv", []):
            if not word.startswith("-") or word == "--" or self._negative_number_matcher.match(word):
                continue
            name = word.split("=", 1)[0]
            if name in known:
                continue
            near = difflib.get_close_matches(name, [k for k in known if k.startswith("--")], n=1)
            out.append(f"{name} (did you mean {near[0]}?)" if near else name)
        return out


def clipped(message: object) -> str:
    """An error message with every run of over 200 characters without a space (an input
    the message quotes back: 5,000 pasted characters, a number thousands of digits long)
    cut to its first 60 and its length, so that the one line stays one line to read.

    >>> clipped(f"bad card {'X' * 300!r}: unknown suit")
    "bad card 'XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX... (303 characters)': unknown suit"
    """
    def cut(m: re.Match) -> str:
        run, tail = re.fullmatch(r"(.*?)(\W{0,3})", m.group(), re.DOTALL).groups()  # keep its closing "':"
        return f"{run[:60]}... ({len(m.group()):,} characters){tail}"
    return re.sub(r"\S{201,}", cut, str(message))


class MissingCommand(ImportError):
    """A module of :data:`COMMAND_MODULES` is not installed."""


def _load_commands() -> list:
    """The command modules of :data:`COMMAND_MODULES`; a missing one is a broken install, not
    a command to leave out of ``--help`` without a word."""
    mods = []
    for name in COMMAND_MODULES:
        try:
            mods.append(importlib.import_module(f"thousand.commands.{name}"))
        except ModuleNotFoundError as e:
            if e.name != f"thousand.commands.{name}":
                raise
            raise MissingCommand(f"thousand is installed incompletely: the command module thousand.commands.{name} "
                                 "is missing; reinstall it (`make build` in a checkout)") from None
    return mods


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineErrorParser(
        prog="thousand",
        description="Simulator and strategy lab for the card game Thousand (1000, Tysiąc, Тысяча).",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"thousand {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineErrorParser)
    for mod in _load_commands():
        p = sub.add_parser(
            mod.NAME, help=mod.HELP.replace("%", "%%"), description=mod.DESCRIPTION,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run, _parser=p)
    return parser


def _stop_in(error: BaseException) -> KeyboardInterrupt | None:
    """The interruption (Ctrl-C, SIGTERM, SIGHUP) in ``error``'s chain, if any."""
    from thousand.runner.pool import exception_chain
    return next((e for e in exception_chain(error) if isinstance(e, KeyboardInterrupt)), None)


def _interrupted(command: str, stop: BaseException | None) -> int:
    """Say that the command was interrupted; the shell's code for the signal (130 Ctrl-C,
    143 SIGTERM, 129 SIGHUP)."""
    print(f"thousand {command}: interrupted", file=sys.stderr)
    return 128 + getattr(stop, "signum", 2)


def _note_oversubscribed(jobs: int, backend: str) -> None:
    """A ``note:`` when ``--jobs`` asks for more local workers than the machine has cores:
    allowed (the result is the same), but the extra workers only share the cores, and each
    one holds its own memory.  A Dask cluster's workers are not this machine's.  Said when
    the first workers start (``pool.before_first_run``), not before a command refuses its
    options."""
    cores = os.cpu_count() or 1
    if jobs > cores and backend != "dask":
        print(f"note: --jobs {jobs} is more than this machine's {cores} cores: the extra workers share them "
              f"(no faster, more memory); -1 uses every core", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    # A console that cannot show suit symbols or the names in the help gets letters,
    # not a UnicodeEncodeError (a Windows console, a Latin-1 locale).
    degrade_streams()
    try:
        parser = build_parser()
    except MissingCommand as e:
        print(f"thousand: error: {e}", file=sys.stderr)
        return 1
    # parse_args would blame an unknown option on `thousand`; the subcommand names it
    args, extra = parser.parse_known_args(argv)
    if not getattr(args, "_run", None):
        if extra:
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
        parser.print_help()
        return 0
    if extra:
        args._parser.error(f"unrecognized arguments: {' '.join(extra)}")
    from thousand.runner import pool
    pool.before_first_run = _note_oversubscribed
    try:
        return _run_command(args)
    finally:
        pool.before_first_run = None


def out_of_memory(args: argparse.Namespace, error: MemoryError) -> str:
    """The one line for a refused allocation: what was refused (numpy says how much) and
    what to lower."""
    from thousand.runner.pool import memory_refused
    what = memory_refused(error)
    knobs = [k for k, attr in (("--chunk-size", "chunk_size"), ("--jobs", "jobs")) if hasattr(args, attr)]
    advice = f"; lower {' or '.join(knobs)}" if knobs else ""
    if getattr(args, "out", None) is not None and hasattr(args, "resume"):
        advice += " (a run with --out keeps the chunks it finished, and --resume continues it)"
    return f"out of memory ({what}){advice}"


def _run_command(args: argparse.Namespace) -> int:
    """The command, its user errors, interruptions and dead workers each as one line."""
    from concurrent.futures import BrokenExecutor

    from thousand.runner.pool import stop_signals_interrupt
    try:
        # SIGTERM (kill) and SIGHUP (a closed terminal) stop a command as Ctrl-C does:
        # its workers stopped, its data kept or its temporary files removed, one line said.
        with stop_signals_interrupt():
            return int(args._run(args) or 0)
    except USER_ERRORS as e:
        print(f"thousand {args.command}: error: {clipped(e)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as e:
        return _interrupted(args.command, e)
    except MemoryError as e:
        # An allocation refused (a container's memory limit, ulimit -v): in this process
        # or a worker's (joblib raises it again here).  What a user can change is how
        # much one chunk holds, and how many chunks are held at once.
        print(f"thousand {args.command}: error: {out_of_memory(args, e)}", file=sys.stderr)
        return 2
    except BrokenExecutor as e:
        # A worker process died under a command that keeps no data of its own (compare,
        # games, bid, ...): killed by the system short of memory, or by Ctrl-C sent to it.
        from thousand.runner.pool import killed_by_interrupt, worker_death
        if killed_by_interrupt(e):
            return _interrupted(args.command, _stop_in(e))
        print(f"thousand {args.command}: error: {worker_death(e)}", file=sys.stderr)
        return 2
    except BrokenPipeError as e:
        # A reader closed our output (`| head`): he has what he wanted.  But a pipe that
        # broke while an interruption was being handled (a killed worker's) is the
        # interruption: never exit 0 from a run that was stopped.
        stop = _stop_in(e)
        return 0 if stop is None else _interrupted(args.command, stop)
    except OSError as e:  # after BrokenPipeError, one of its kind
        # The file system refused (permissions, a full disk, a folder where a file was
        # meant): the command's own checks missed it, but it is still the user's to fix.
        where = f": {e.filename!r}" if e.filename else ""
        if e.errno == errno.ENOSPC:
            where += " (free some room; a run with --out keeps what it wrote, and --resume continues it)"
        print(f"thousand {args.command}: error: {clipped(f'{e.strerror or e}{where}')}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    from thousand.launch import entry
    entry()
