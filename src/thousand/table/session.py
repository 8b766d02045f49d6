"""A game at the table: a person in one seat, players of the registry in the others.

A game is decided by its seed, its rules, who sits where, and the person's answers so
far: the reference engine deals from one seeded stream, and every other player answers
deterministically from it.  So that is all a game keeps (:class:`TableGame`), saved
after every answer (whole or not at all).  A saved game is continued by playing it again
from the start with the answers given back, silently, until they run out; "undo" is the
same with the last answer dropped.  The rules are the reference engine's, asked through
the six methods of :class:`~thousand.reference.players.Player`, so a person's answer is
checked exactly as any player's.

The front end (:class:`Frontend`: the terminal's is :class:`thousand.table.text.TextTable`)
shows what happens and asks for the answers; it never decides what is legal.
"""
from __future__ import annotations

import json
import os
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from thousand.cards import CardError, card_name, parse_card
from thousand.errors import IllegalDecision, ThousandError
from thousand.files import read_json, written_whole
from thousand.reference.deal import DealResult
from thousand.reference.game import GameResult, SettleNotes, play_game
from thousand.reference.players import View
from thousand.reference.rng import Stream
from thousand.rules import CLASSIC, Rules, format_value, options_left_out

__all__ = ["TableGame", "Decision", "Frontend", "PersonPlayer", "Undo", "Quit", "play", "save", "load", "PERSON",
           "KINDS", "answer_of", "recorded"]

FORMAT = "thousand-table"
VERSION = 1
#: The person's seat in :attr:`TableGame.players`.
PERSON = "person"
#: A saved game is a few KB (a game of 30 deals: about 400 answers).
MAX_SAVED_BYTES = 16 << 20
#: The decisions a person answers, as a saved answer names them.
KINDS = ("blind", "redeal", "bid", "hand_off", "contract", "play")


class Undo(Exception):
    """Raised by a front end: take the person's last answer back."""


class Quit(Exception):
    """Raised by a front end: stop the game here (it is saved after every answer)."""


@dataclass(frozen=True)
class Decision:
    """What the person is asked: the decision's kind, his view, and its bounds."""

    kind: str                       # one of KINDS
    view: View
    lowest: int = 0                 # bid / contract: the range
    highest: int = 0
    may_resign: bool = False        # contract: -1 (resign) is allowed
    redeal: str = ""                # redeal: "hand", "talon" or "four_nines"
    legal: int = 0                  # play: the legal cards (mask)


class Frontend(Protocol):
    """How a game is shown and answered.  ``muted``: a saved game being played again."""

    muted: bool

    def news(self, view: View) -> None:
        """Show what happened since the person was last shown the game (before a question)."""

    def ask(self, decision: Decision) -> list[Any]:
        """The person's answer, as it is saved (:func:`_answer_value`); may raise Undo or Quit."""

    def deal_over(self, result: DealResult, notes: SettleNotes) -> None:
        """Show a deal's end (also a redeal), once it is settled."""

    def game_over(self, game: GameResult) -> None:
        """Show the game's end."""

    def told(self, text: str) -> None:
        """Show one line from the table itself (nothing to undo, resumed, ...)."""

    def restart(self) -> None:
        """The game is about to be played from its start (new, resumed or after an undo)."""


@dataclass
class TableGame:
    """Everything that decides a game at the table (what is saved)."""

    seed: int
    rules: Rules
    seat: int                               # the person's seat
    players: list[str]                      # a player spec a seat, PERSON at the person's
    answers: list[list[Any]] = field(default_factory=list)
    finished: bool = False
    # answers taken back with undo: the person had seen what followed them (the talon, the
    # bots' cards of a trick), so the game is marked as one played with take-backs
    takebacks: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "seed": self.seed,
                "rules": {k: format_value(v) for k, v in self.rules.as_dict().items()},
                "seat": self.seat, "players": self.players, "answers": self.answers, "finished": self.finished,
                "takebacks": self.takebacks}

    @classmethod
    def from_dict(cls, data: Any, source: str = "the saved game") -> TableGame:
        """A game from its saved form; a one-line :class:`ThousandError` naming what is wrong."""
        def bad(what: str) -> ThousandError:
            return ThousandError(f"{source} is not a saved thousand game: {what}")
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise bad(f'no "format": "{FORMAT}"')
        if data.get("version") != VERSION:
            raise bad(f"version {data.get('version')!r}, this thousand reads version {VERSION}")
        seed = data.get("seed")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise bad(f"seed must be a whole number >= 0, not {seed!r}")
        options = data.get("rules")
        if not isinstance(options, dict):
            raise bad("rules must be an object of rule options as text")
        for k, v in options.items():
            if not isinstance(v, str):   # as the game saves them: "1000", "on", "none"
                example = f' such as "{format_value(getattr(CLASSIC, k))}"' if k in CLASSIC.as_dict() else ""
                raise bad(f"rules.{k} must be text{example}, not {json.dumps(v)}")
        # a saved game names every option: one left out would be read as classic's and could
        # change the game silently (a file of an older version, or edited by hand)
        missing = options_left_out(options)
        if missing:
            raise bad(f"rules lacks {missing}: a saved game names every option, and one left out would be read "
                      "as classic's")
        try:
            rules = CLASSIC.with_overrides(dict(options))
        except (ThousandError, ValueError) as e:   # RulesError is a ValueError
            raise bad(f"its rules: {e}") from None
        players, seat = data.get("players"), data.get("seat")
        if not isinstance(players, list) or len(players) != rules.players or \
                not all(isinstance(p, str) for p in players):
            raise bad(f"players must be a list of {rules.players} player specs")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < rules.players \
                or players[seat] != PERSON or players.count(PERSON) != 1:
            raise bad(f'seat must be the one seat whose player is "{PERSON}"')
        from thousand.players import names, parse_spec
        unknown = [p for p in players if p != PERSON and parse_spec(p)[0].lower() not in names()]
        if unknown:
            raise bad(f"unknown player {unknown[0]!r} (players: {', '.join(names())})")
        answers = data.get("answers")
        if not isinstance(answers, list) or not all(
                isinstance(a, list) and a and a[0] in KINDS for a in answers):
            raise bad(f"answers must be a list of [kind, ...] with kind one of {', '.join(KINDS)}")
        finished = data.get("finished", False)
        if not isinstance(finished, bool):   # bool("no") is True
            raise bad(f"finished must be true or false, not {finished!r}")
        takebacks = data.get("takebacks", 0)
        if isinstance(takebacks, bool) or not isinstance(takebacks, int) or takebacks < 0:
            raise bad(f"takebacks must be a whole number >= 0, not {takebacks!r}")
        return cls(seed, rules, seat, list(players), [list(a) for a in answers], finished, takebacks)


def save(game: TableGame, path: str | os.PathLike) -> None:
    """Write the game to ``path``, whole or not at all."""
    try:
        with written_whole(path) as tmp:
            tmp.write_text(json.dumps(game.to_dict(), indent=1) + "\n", encoding="utf-8")
    except OSError as e:
        raise ThousandError(f"cannot save the game to {os.fspath(path)!r}: {e.strerror}") from None


def load(path: str | os.PathLike) -> TableGame:
    """A game saved by :func:`save`; one line naming the problem otherwise."""
    return TableGame.from_dict(read_json(path, "saved game", MAX_SAVED_BYTES), repr(os.fspath(path)))


# --------------------------------------------------------------------------- the person's seat
def _card(text: Any) -> int:
    if not isinstance(text, str):
        raise ValueError(f"a card is written as text, not {text!r}")
    return parse_card(text)


def _answer_value(kind: str, answer: list[Any]) -> Any:
    """A saved answer (``[kind, ...]``, cards as names) as the Player method returns it."""
    values = answer[1:]
    if kind in ("blind", "redeal"):
        if len(values) != 1 or not isinstance(values[0], bool):
            raise ValueError("a yes/no answer is [kind, true|false]")
        return values[0]
    if kind in ("bid", "contract"):
        if len(values) != 1 or isinstance(values[0], bool) or not isinstance(values[0], int):
            raise ValueError("a bid or contract is [kind, number]")
        return values[0]
    if kind == "hand_off":
        if len(values) != 2:
            raise ValueError('a hand-off is ["hand_off", card, card]')
        return _card(values[0]), _card(values[1])
    if len(values) != 2 or not isinstance(values[1], bool):
        raise ValueError('a card played is ["play", card, true|false]')
    return _card(values[0]), values[1]


def recorded(kind: str, value: Any) -> list[Any]:
    """The answer ``value`` (as a Player method returns it) as it is saved."""
    if kind == "hand_off":
        return [kind, card_name(value[0], symbols=False), card_name(value[1], symbols=False)]
    if kind == "play":
        return [kind, card_name(value[0], symbols=False), bool(value[1])]
    return [kind, value]


def answer_of(player: Any, d: Decision) -> Any:
    """What ``player`` (any :class:`~thousand.reference.players.Player`) answers to ``d``."""
    v = d.view
    if d.kind == "blind":
        return player.go_blind(v)
    if d.kind == "redeal":
        return player.demand_redeal(v, d.redeal)
    if d.kind == "bid":
        return player.bid(v, d.lowest, d.highest)
    if d.kind == "hand_off":
        return player.hand_off(v)
    if d.kind == "contract":
        return player.raise_or_resign(v, d.lowest, d.highest, d.may_resign)
    return player.play(v, d.legal)


class _Replayed(Exception):
    """A saved answer the game cannot take (another version, an edited file)."""


class PersonPlayer:
    """The person's seat: answers given back first (a saved game, an undo), then the front end's."""

    def __init__(self, frontend: Frontend, given: Sequence[list[Any]], record: Callable[[list[Any]], None]) -> None:
        self.frontend = frontend
        self.given = deque(given)
        self.record = record
        self.replayed = 0
        self.from_saved = False     # the last answer given was a saved one
        self.answered = 0
        self.forced: set[int] = set()   # the answers (by number) that were a forced pass

    def _number(self, decision: Decision) -> None:
        """Count the answer asked for, noting it when it is a forced pass."""
        if decision.kind == "bid" and decision.lowest > decision.highest:
            self.forced.add(self.answered)
        self.answered += 1

    def _answer(self, decision: Decision) -> Any:
        self._number(decision)
        if self.given:
            answer = self.given.popleft()
            self.replayed += 1
            self.from_saved = True
            if not self.given:      # the saved game is caught up: what follows is shown
                self.frontend.muted = False
            if answer[0] != decision.kind:
                raise _Replayed(f"answer {self.replayed} is a {answer[0]}, but the game asks for a {decision.kind}")
            try:
                return _answer_value(decision.kind, answer)
            except (ValueError, CardError) as e:
                raise _Replayed(f"answer {self.replayed}: {e}") from None
        self.from_saved = False
        self.frontend.muted = False
        self.frontend.news(decision.view)
        answer = self._asked(decision)
        value = _answer_value(decision.kind, answer)
        self.record(answer)
        return value

    def _asked(self, decision: Decision) -> list[Any]:
        """The front end's answer.  An undo with no choice before it to take back (none, or
        only forced passes) is said and the question asked again: the game has not changed,
        so it is not played again (and shown again) from its start."""
        while True:
            try:
                return self.frontend.ask(decision)
            except Undo:
                # (``answered`` counts this question too: the answers before it are the others)
                if any(i not in self.forced for i in range(self.answered - 1)):
                    raise
                self.frontend.told("nothing to undo yet")

    def go_blind(self, view: View) -> bool:
        return self._answer(Decision("blind", view))

    def demand_redeal(self, view: View, kind: str) -> bool:
        return self._answer(Decision("redeal", view, redeal=kind))

    def bid(self, view: View, lowest: int, highest: int) -> int:
        return self._answer(Decision("bid", view, lowest, highest))

    def hand_off(self, view: View) -> tuple[int, int]:
        return self._answer(Decision("hand_off", view))

    def raise_or_resign(self, view: View, lowest: int, highest: int, may_resign: bool) -> int:
        return self._answer(Decision("contract", view, lowest, highest, may_resign))

    def play(self, view: View, legal: int) -> tuple[int, bool]:
        return self._answer(Decision("play", view, legal=legal))


def play(game: TableGame, frontend: Frontend, save_to: str | os.PathLike | None = None) -> GameResult:
    """Play ``game`` to its end with the person answering through ``frontend``.

    The answers ``game`` holds are given back first (silently: ``frontend.muted``), so a
    saved game continues where it stopped.  Every new answer is appended to
    ``game.answers`` and, with ``save_to``, saved at once (a save that fails is told once
    and tried again at every answer: the game goes on; the finished game's is an error).  :class:`Undo` from the front
    end takes the last answer back (the game is played again up to the decision before
    it); :class:`Quit` (and Ctrl-C) leave this function with everything answered kept.
    A saved answer the game cannot take is a one-line :class:`ThousandError`.
    """
    from thousand.players import make_player

    failed = ""   # why the last save failed: the game goes on, and tries again at every answer

    def record(answer: list[Any]) -> None:
        nonlocal failed
        game.answers.append(answer)
        if save_to is None:
            return
        try:
            save(game, save_to)
        except ThousandError as e:   # (a removed folder, a full disk: the answer is not lost)
            if not failed:
                frontend.told(f"{e}; the game goes on and is saved at your next answer if it can be")
            failed = str(e)
        else:
            if failed:
                frontend.told(f"saved again to {os.fspath(save_to)}")
            failed = ""

    undone = False
    while True:
        frontend.restart()
        # replayed silently up to the person's next question (after an undo of the first
        # answer too: the game so far is not shown again)
        frontend.muted = bool(game.answers) or undone
        person = PersonPlayer(frontend, list(game.answers), record)
        stream = Stream(game.seed)
        players = [person if s == game.seat else make_player(spec, game.rules, s, stream)
                   for s, spec in enumerate(game.players)]
        try:
            result = play_game(game.rules, players, stream, on_deal=frontend.deal_over)
        except Undo:   # (PersonPlayer lets it through only with a choice to take back)
            # a forced pass is saved as an answer but was no choice: undo goes past it, else
            # replaying would stop at it and bring the person straight back (try-out 6)
            while len(game.answers) - 1 in person.forced:
                game.answers.pop()
            game.answers.pop()
            game.takebacks += 1
            if save_to is not None:
                save(game, save_to)
            frontend.told("taken back: the game is played again up to your last decision before it; what you "
                          f"saw after it stays seen, so the game counts {_takebacks(game.takebacks)}")
            undone = True
            continue
        except _Replayed as e:
            raise ThousandError(f"the saved game does not fit this thousand (another version, or an edited "
                                f"file): {e}") from None
        except IllegalDecision as e:
            if person.from_saved:   # a saved answer the engine refuses: numbered as the file's answers
                said = str(e).split(": ", 1)[1] if str(e).startswith("event ") else str(e)
                raise ThousandError(f"the saved game does not fit this thousand (another version, or an "
                                    f"edited file): answer {person.replayed}: {said}") from None
            raise
        if person.given:
            left = len(person.given)
            raise ThousandError(f"the saved game does not fit this thousand: the game ended with {left} saved "
                                f"answer{'s' if left != 1 else ''} left over")
        game.finished = True
        frontend.muted = False
        frontend.game_over(result)
        if save_to is not None:   # after the game's end is shown: a failure is said in one line
            try:
                save(game, save_to)
            except ThousandError as e:
                raise ThousandError(f"{e}: the finished game is not kept") from None
        return result


def _takebacks(n: int) -> str:
    return f"{n} take-back{'s' if n != 1 else ''}"


def takebacks_line(game: TableGame) -> str:
    """How a game's take-backs are said at its end ("" for none)."""
    return f"played with {_takebacks(game.takebacks)} (undo)" if game.takebacks else ""


def seat_players(rules: Rules, seat: int, opponents: Sequence[str] | None) -> list[str]:
    """The player spec of every seat: PERSON at ``seat``, ``opponents`` (one for all, or
    one a seat in seat order) at the others; each name checked against the registry."""
    from thousand.players import names, parse_spec

    n = rules.players
    if not 0 <= seat < n:
        raise ThousandError(f"--seat must be a seat 0..{n - 1}, got {seat}")
    specs = list(opponents or ["standard"])
    if len(specs) not in (1, n - 1):
        if n == 2:
            raise ThousandError(f"--opponent: 2 players have one opponent: give it once, not {len(specs)} times")
        raise ThousandError(f"--opponent: give it once, or once for each of the {n - 1} other seats, "
                            f"not {len(specs)} times")
    for spec in specs:
        name = parse_spec(spec)[0].lower()
        if name not in names():
            raise ThousandError(f"unknown player {name!r}: use {', '.join(names())}")
    others = iter(specs * (n - 1) if len(specs) == 1 else specs)
    return [PERSON if s == seat else next(others) for s in range(n)]


def check_players(game: TableGame) -> None:
    """Build every seat's player once, so a bad spec is one line before the game starts."""
    from thousand.players import make_player

    for s, spec in enumerate(game.players):
        if s != game.seat:
            make_player(spec, game.rules, s, Stream(0))


def new_seed() -> int:
    """A fresh seed for a game the person did not seed (printed, so it can be played again)."""
    import secrets

    return secrets.randbelow(10**9)
