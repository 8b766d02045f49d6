"""``thousand play``: a person at the table against the bots, in the terminal."""
from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

from thousand.commands.common import add_rules_arguments, rules_from_args, seed_value, whole
from thousand.errors import ThousandError, check_name
from thousand.rules import rule_notes

if TYPE_CHECKING:
    from thousand.table import TableGame

NAME = "play"
HELP = "sit at the table: play a game of Thousand against the bots in the terminal"
DESCRIPTION = """Play a whole game at the table: you in one seat (--seat, default 0), the bots in
the others (--opponent: a kernel strategy such as standard, cautious or pimc, the
search player; once for every other seat or once each).  You are shown what your seat
may know (your hand, the bids, the talon when it is shown, the card you receive, every
trick) and asked each decision in turn: blind, a redeal your cards allow, your bid, the
hand-off, your contract, every card (and whether to declare a marriage with it).  The
rules are the engine's: an answer they do not allow is asked again with the reason.

At any prompt: help, hand (show the table again), hint (what the standard and pimc
bots would answer from your seat), undo (take your last answer back), quit.  Cards are
typed rank then suit: AH, 10S or TS, QD, 9C, K♥.

--save FILE keeps the game in FILE after every answer (the seed, the rules, the seats
and your answers: everything else follows from them), so a game stopped anywhere (quit,
Ctrl-C, a closed terminal) loses nothing; --resume FILE continues it where it stopped.
Without --seed a new seed is drawn and said when the game ends, or when it stops
without --save (said while the game can go on, it would let `thousand explain --seed S`
show every hand): --seed S deals the same cards again (with the same answers, the same
game).  An undo lets you answer again after seeing what followed (the talon, the bots'
cards): the game counts its take-backs, says them at its end and keeps them in the file.

examples:
  thousand play --save game.json
  thousand play --resume game.json
  thousand play --rules russian --opponent pimc --save game.json
  thousand play --seed 7 --seat 1 --opponent cautious --opponent aggressive
  thousand play --set players=2 --opponent standard
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_rules_arguments(p)
    p.set_defaults(rules=None)   # None: not given (--resume refuses any given one, the default too)
    p.add_argument("--seat", type=whole, default=None, metavar="N", help="your seat (default 0)")
    p.add_argument("--opponent", action="append", default=None, metavar="NAME[:k=v,...]",
                   help="the bots: once for every other seat, or once for each in seat order (default standard)")
    p.add_argument("--seed", type=seed_value, default=None, metavar="S",
                   help="the game's seed (default: a new one, printed)")
    p.add_argument("--save", default=None, metavar="FILE",
                   help="keep the game in FILE after every answer (JSON); --resume FILE continues it")
    p.add_argument("--resume", default=None, metavar="FILE", help="continue a game saved with --save")


def run(args: argparse.Namespace) -> int:
    from thousand.table import Quit, TableGame, TextTable, load, play, save
    from thousand.table.session import check_players, new_seed, seat_players

    check_name(args.save, "--save", "the file to keep the game in")
    if args.resume is not None:
        check_name(args.resume, "--resume", "the file a game was saved in")
        given = [flag for flag, on in (("--seed", args.seed is not None), ("--opponent", args.opponent),
                                       ("--seat", args.seat is not None), ("--rules", args.rules is not None),
                                       ("--set", bool(args.overrides))) if on]
        if given:
            raise ThousandError(f"--resume takes the seed, rules and seats from the saved game; drop {', '.join(given)}")
        game = load(args.resume)
        if game.finished:
            raise ThousandError(f"the game in {args.resume!r} is over; start a new one with thousand play")
        try:
            check_players(game)
        except ThousandError as e:
            raise ThousandError(f"the saved game {args.resume!r}: {e}") from None
        save_to = args.save if args.save is not None else args.resume
    else:
        rules = rules_from_args(args)
        seed = args.seed if args.seed is not None else new_seed()
        seat = args.seat if args.seat is not None else 0
        game = TableGame(seed, rules, seat, seat_players(rules, seat, args.opponent))
        check_players(game)
        save_to = args.save
    if args.save is not None and not (
            args.resume is not None and os.path.realpath(args.save) == os.path.realpath(args.resume)):
        _claim(args.save)
    if save_to is not None:
        save(game, save_to)   # now: a file that cannot be written is one line before the first deal
    # a seed the person did not choose is said at the end: `thousand explain --seed S` would
    # show every hand (a game resumed from a file: the file holds it)
    seed_said = f"seed {game.seed}" if args.seed is not None else "a new seed (said at the end)"
    if args.resume is not None:
        seed_said = "the seed of the file"
    print(f"thousand play: {seed_said}, rules {game.rules.describe()}; you are seat {game.seat}; "
          + ", ".join(f"seat {s}: {spec}" for s, spec in enumerate(game.players) if s != game.seat)
          + ("; type help for the commands" if args.resume is None else
             f"; resuming after {len(game.answers)} answer{'s' if len(game.answers) != 1 else ''}"))
    for note in rule_notes(game.rules):   # options given that change nothing, as thousand rules says
        print(f"note: {note}")
    table = TextTable(game.seat, game.players)
    try:
        play(game, table, save_to)
    except ThousandError:
        if game.finished:   # its end was shown, but the file could not be written: the seed first
            _said_at_the_end(game)
        raise
    except Quit as stop:
        table.muted = False
        reason = "end of input" if str(stop) == "end of input" else "stopped"
        print(f"\n{reason}: {_kept(game, save_to)}{_stopped_seed(game.seed, save_to, args.seed is not None)}")
        return 0
    except KeyboardInterrupt:
        print(f"\n{_kept(game, save_to)}{_stopped_seed(game.seed, save_to, args.seed is not None)}",
              file=sys.stderr)
        raise
    _said_at_the_end(game)
    if save_to is not None:
        print(f"the game is kept in {save_to}")
    return 0


def _said_at_the_end(game: TableGame) -> None:
    from thousand.table.session import takebacks_line

    if game.takebacks:
        print(takebacks_line(game))
    print(_replay(game.seed))


def _replay(seed: int) -> str:
    return f"the game's seed was {seed} (thousand play --seed {seed} deals it again)"


def _stopped_seed(seed: int, save_to: str | None, chosen: bool) -> str:
    """The seed at a stop: not while a seed the person did not choose can still be played
    on (``thousand explain --seed S`` would show every hand: try-out 34), only when the
    stopped game is gone and the seed is the way to deal it again."""
    return f"; {_replay(seed)}" if save_to is None or chosen else ""


def _claim(path: str) -> None:
    """Create ``path`` for this game, refusing one that exists: never over a game kept there
    (a user who forgot --resume) or any other file, nor over one a second game just made."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
    except FileExistsError:
        if os.path.isdir(path):
            raise ThousandError(f"{path!r} is a directory: give --save a file name, "
                                f"such as {os.path.join(path, 'game.json')!r}") from None
        from thousand.table import load
        try:
            kept = load(path)
        except ThousandError:
            hint = "it is not a game saved by thousand play; choose another --save"
        else:
            hint = ("it holds a finished game, which cannot be resumed; choose another --save for a new game"
                    if kept.finished else f"continue the game in it with --resume {path}, or choose another --save")
        raise ThousandError(f"{path!r} already exists: {hint}") from None
    except OSError as e:
        raise ThousandError(f"cannot save the game to {path!r}: {e.strerror}") from None


def _kept(game: TableGame, save_to: str | None) -> str:
    """Where the stopped game is kept, saved once more first: an answer whose save failed
    (the game went on) is kept now if it can be, and said not to be if not."""
    from thousand.table import save

    if save_to is None:
        return "the game is not kept (give --save FILE to keep a game)"
    try:
        save(game, save_to)
    except ThousandError as e:
        return f"the game is not kept: {e}"
    answers = len(game.answers)
    return (f"the game ({answers} answer{'s' if answers != 1 else ''}) is kept in {save_to}: "
            f"thousand play --resume {save_to} continues it")
