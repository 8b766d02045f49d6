"""Errors a user can cause.  The CLI prints their message on one line and exits 2."""
import numbers
import os

from thousand.cards import CardError
from thousand.rules import RulesError


class ThousandError(Exception):
    """Bad input or an impossible request; the message names the problem."""


class IllegalDecision(ThousandError):
    """A player or a replayed trace made a move the rules do not allow."""


def check_name(value: "str | os.PathLike[str] | None", flag: str, what: str) -> None:
    """Refuse an empty (or blank) file or folder name given to ``flag``: ``Path("")`` is the
    current folder, so an empty name is a slip to report, not a place to write to."""
    if value is not None and not os.fspath(value).strip():
        raise ThousandError(f"{flag} is an empty name: give {what}")


def check_seed(seed: object, name: str = "seed") -> int:
    """A root seed: a whole number >= 0 (what numpy's ``SeedSequence`` takes), numpy's
    integers too; anything else is refused naming ``name``, not by numpy deep inside."""
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ThousandError(f"{name} must be a non-negative whole number, got {seed!r}")
    return int(seed)


def check_jobs(jobs: object, name: str = "jobs") -> int:
    """A worker count: a whole number >= 1, or -1 for every core."""
    if isinstance(jobs, bool) or not isinstance(jobs, numbers.Integral) or jobs == 0 or jobs < -1:
        raise ThousandError(f"{name} must be a positive number of workers or -1 for all cores, got {jobs!r}")
    return int(jobs)


USER_ERRORS: tuple[type[BaseException], ...] = (ThousandError, CardError, RulesError)

__all__ = ["ThousandError", "IllegalDecision", "CardError", "RulesError", "USER_ERRORS", "check_name", "check_seed",
           "check_jobs"]
