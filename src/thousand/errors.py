"""Errors a user can cause.  The CLI prints their message on one line and exits 2."""
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


USER_ERRORS: tuple[type[BaseException], ...] = (ThousandError, CardError, RulesError)

__all__ = ["ThousandError", "IllegalDecision", "CardError", "RulesError", "USER_ERRORS", "check_name"]
