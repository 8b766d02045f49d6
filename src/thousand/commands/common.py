"""Argument helpers shared by subcommands, so every command names rules and seeds alike."""
from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from typing import Any

from thousand.errors import ThousandError
from thousand.rules import Rules, parse_rules_spec


#: explain and solve deal one seed's deal again while it is redealt, this many times at most
REDEAL_ATTEMPTS = 1000


def add_rules_arguments(p: argparse.ArgumentParser, multiple: bool = False) -> None:
    if multiple:
        p.add_argument("--rules", action="append", metavar="SPEC",
                       help="a rule set: preset, preset:k=v,... or a TOML file (repeat to compare)")
    else:
        p.add_argument("--rules", default="classic", metavar="SPEC", action=_GivenOnce,
                       help="rule set: classic, russian, polish, classic:bolts=off,..., or FILE.toml (default classic)")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", dest="overrides",
                   help="override one rule option, e.g. --set bolts=off (repeatable)")


class _GivenOnce(argparse.Action):
    """An option of one value that refuses a second: ``--rules classic --rules russian``
    kept the last one without a word where compare and report would compare them."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        seen = f"_{self.dest}_given"
        if getattr(namespace, seen, None) is not None:
            raise argparse.ArgumentError(self, f"given twice ({getattr(namespace, seen)!r} and {values!r}): this "
                                               "command takes one rule set (compare and report take several)")
        setattr(namespace, seen, values)
        setattr(namespace, self.dest, values)


def rules_on_command_line(args: argparse.Namespace) -> bool:
    """Whether --rules or --set was on the command line (``--rules classic`` too:
    :class:`_GivenOnce` records it), as against the default."""
    return getattr(args, "_rules_given", None) is not None or bool(args.overrides)


def rules_from_args(args: argparse.Namespace, spec: str | None = None) -> Rules:
    return parse_rules_spec(spec if spec is not None else args.rules, args.overrides)


WHOLE = re.compile(r"\s*-?[0-9]+\s*")   # ASCII digits: int() also reads "1_0", "+5" and other scripts' digits


def whole(text: str) -> int:
    """An argparse type: a whole number written in ASCII digits (a sign only for a negative
    one, which the option's own check then refuses with its reason)."""
    if not WHOLE.fullmatch(text):
        raise argparse.ArgumentTypeError(f"must be a whole number written in digits, got {text!r}")
    try:
        return int(text)
    except ValueError:  # past Python's cap on the digits of an integer
        raise argparse.ArgumentTypeError(f"must have at most {sys.get_int_max_str_digits():,} digits, "
                                         f"got {len(text.strip()):,}") from None


def seed_value(text: str) -> int:
    """A root seed: a whole number >= 0 (what numpy's SeedSequence accepts)."""
    if not WHOLE.fullmatch(text):
        raise argparse.ArgumentTypeError(f"must be a whole number >= 0, got {text!r}")
    value = whole(text)   # its own reason past Python's cap on the digits of an integer
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a whole number >= 0, got {value}")
    return value


def add_seed_argument(p: argparse.ArgumentParser, default: int | None = 1) -> None:
    p.add_argument("--seed", type=seed_value, default=default, metavar="S",
                   help=f"root seed; the same seed gives the same result (default {default})")


def add_pool_arguments(p: argparse.ArgumentParser, local_cluster: bool = False) -> None:
    """--jobs, --backend and --scheduler: the worker pool of a command that runs chunks
    (simulate, games, compare, match); ``local_cluster``: the command starts a local Dask
    cluster when no scheduler is given."""
    p.add_argument("--jobs", "-j", type=whole, default=-1, metavar="J",
                   help="parallel workers, -1 for all cores (default -1); never changes the result")
    p.add_argument("--backend", default="loky", metavar="loky|threads|dask",
                   help="worker pool: loky processes (default), threads of this process, or a "
                        "dask.distributed cluster; never changes the result")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="Dask scheduler address (e.g. tcp://host:8786) for --backend dask"
                        + ("; without it a local cluster of --jobs workers is started" if local_cluster else ""))


def check_pool_arguments(args: argparse.Namespace) -> None:
    """The options of :func:`add_pool_arguments`, each refused in one line before any work."""
    from thousand.errors import check_jobs
    from thousand.runner.pool import check_scheduler

    check_jobs(args.jobs, "--jobs")
    check_scheduler(args.backend, args.scheduler)


def seat_strategies(specs: list[str], n: int) -> list[str]:
    """One player spec per seat from ``--strategy`` given once (every seat) or once per
    seat, every name checked against the one registry of players (explain, solve)."""
    from thousand.players import names

    if len(specs) not in (1, n):
        raise ThousandError(f"--strategy: give it once, or once per seat ({n} seats), not {len(specs)} times")
    specs = specs * n if len(specs) == 1 else list(specs)
    for spec in specs:
        name = spec.partition(":")[0].strip()
        if name not in names():
            raise ThousandError(f"unknown strategy {name!r}: use {', '.join(names())}")
    return specs


def print_result(result: Any, as_json: bool, table: Callable[[], str], wrote: str | None = None) -> None:
    """A command's answer: ``result.to_json()`` with ``--json``, else its table and, when it
    wrote files, a line saying where."""
    if as_json:
        json.dump(result.to_json(), sys.stdout, indent=1)
        print()
        return
    print(table())
    if wrote:
        print(wrote)
