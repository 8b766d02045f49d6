"""A table where a person plays the bots: ``thousand play``.

:mod:`.session` holds a game (seed, rules, seats, the person's answers) and plays it
through the reference engine, saved after every answer, continued and undone by playing
it again; :mod:`.text` is the terminal front end.  Another front end (a web page) plugs
into the same :class:`~.session.Frontend` protocol.
"""
from .session import PERSON, Decision, Frontend, PersonPlayer, Quit, TableGame, Undo, load, play, save
from .text import TextTable

__all__ = ["PERSON", "Decision", "Frontend", "PersonPlayer", "Quit", "TableGame", "Undo", "load", "play", "save",
           "TextTable"]
