"""Errors a user can cause.  The CLI prints their message on one line and exits 2."""
from thousand.cards import CardError
from thousand.rules import RulesError


class ThousandError(Exception):
    """Bad input or an impossible request; the message names the problem."""


class IllegalDecision(ThousandError):
    """A player or a replayed trace made a move the rules do not allow."""


USER_ERRORS: tuple[type[BaseException], ...] = (ThousandError, CardError, RulesError)

__all__ = ["ThousandError", "IllegalDecision", "CardError", "RulesError", "USER_ERRORS"]
