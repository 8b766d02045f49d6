"""Traces: every decision of a deal in order, the common language of both engines.

A trace is what the kernel's trace mode returns and what the reference engine replays
(the file format, for a person: docs/traces.md).
The integer codes of :class:`EventKind` equal the kernel's constants (a test checks).
Each event is ``(kind, seat, a, b)``:

========= ====================================================================
CUT       chance: seat = cutter, a = nines seen at the bottom, b = penalties paid
BLIND     seat = forehand, a = 1 went blind, 0 did not
REDEAL    seat, a = 1 demanded, 0 declined; b = 1 hand, 2 talon, 3 four_nines
BID       seat, a = bid value, 0 = pass
TALON     chance (2 players): seat = declarer, a = index of the talon taken (0, 1)
HAND_OFF  seat = declarer, a = card to the next seat (2 players: first card laid
          away), b = card to the other opponent (2 players: second card laid away)
CONTRACT  seat = declarer, a = final contract, -1 = resign
PLAY      seat, a = card, b = 1 if a marriage (or the ace marriage) is declared
========= ====================================================================

A :class:`DealTrace` is one dealt deal: the dealer, the cards as dealt and the events.
A deal that ends in a redeal is its own ``DealTrace`` ending with its ``REDEAL`` event
(``a = 1``); the next attempt (same dealer) is the next ``DealTrace``.  A
:class:`GameTrace` holds the rules, the first dealer and every deal trace in order.
Scores, the barrel and bolt counts are not stored: the game engine rebuilds them.

Events that are not decisions and not chance (the forced opening bid, the forced
contract of a golden kon) are not written.  A CUT event is written at the start of
every deal when ``cut_nine_penalty`` is on, and only then.

>>> t = DealTrace(dealer=0, hands=(1, 2, 4), talons=(8,), events=[Event(EventKind.BID, 2, 0, 0)])
>>> DealTrace.from_json(t.to_json()) == t
True
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, NamedTuple

from thousand.cards import CardError, card_name, format_hand, parse_hand

__all__ = ["EventKind", "Event", "DealTrace", "GameTrace", "RESIGN", "PASS", "REDEAL_KINDS",
           "format_event", "format_events"]


class EventKind(IntEnum):
    CUT = 0
    BLIND = 1
    REDEAL = 2
    BID = 3
    TALON = 4
    HAND_OFF = 5
    CONTRACT = 6
    PLAY = 7


RESIGN = -1
PASS = 0
# REDEAL event b codes (equal to schema.REDEAL_HAND, ...).
REDEAL_KINDS = {"hand": 1, "talon": 2, "four_nines": 3}
_REDEAL_NAMES = {v: k for k, v in REDEAL_KINDS.items()}


class Event(NamedTuple):
    """One decision or chance event: ``(kind, seat, a, b)``; see the module table."""

    kind: EventKind
    seat: int
    a: int = 0
    b: int = 0

    def to_list(self) -> list:
        return [self.kind.name, self.seat, self.a, self.b]

    @classmethod
    def from_any(cls, item: Any) -> "Event":
        """An event from ``[kind, seat, a, b]`` (kind as a name or a code) or an Event."""
        if isinstance(item, Event):
            return item
        try:
            kind, seat, a, b = item
        except (TypeError, ValueError):
            raise ValueError(f"bad trace event {item!r}: expected [kind, seat, a, b]") from None
        if isinstance(kind, str):
            try:
                kind = EventKind[kind.upper()]
            except KeyError:
                raise ValueError(f"bad trace event {item!r}: unknown kind {kind!r}") from None
        else:
            kind = EventKind(int(kind))
        return cls(kind, int(seat), int(a), int(b))


def _hand_text(mask: int) -> str:
    return format_hand(mask, symbols=False)


def _json_text(value: Any) -> str:
    """``value`` as the JSON file spells it (``null``, ``true``, ``17.5``...)."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def _whole(value: Any, field: str) -> int:
    """A whole number of a trace file; ``true``, ``17.5`` and ``"17"`` are not (no quiet
    conversion: a card must not be read from a number that merely rounds to it)."""
    if type(value) is not int:
        raise ValueError(f"field {field} must be a whole number, not {_json_text(value)}")
    return value


def _list(value: Any, field: str, what: str) -> list:
    if not isinstance(value, list):
        raise ValueError(f"field {field} must be a list of {what}, not {_json_text(value)}")
    return value


def _hand_from(value: Any, field: str = "hand") -> int:
    if type(value) is int:
        return value
    if not isinstance(value, str):
        raise ValueError(f"field {field} must be cards as text (\"AH 10H ...\") or a card mask, "
                         f"not {_json_text(value)}")
    return parse_hand(value) if value.strip() else 0


def _event_from(item: Any, field: str) -> "Event":
    """An event of a trace file: ``[kind, seat, a, b]``, kind a name or code, the rest
    whole numbers (checked here, as :meth:`Event.from_any` converts what it is given)."""
    if not isinstance(item, list) or len(item) != 4:
        raise ValueError(f"field {field} must be [kind, seat, a, b], not {_json_text(item)}")
    kind = item[0]
    if not isinstance(kind, str):
        _whole(kind, f"{field}[0] (the kind)")
    for j, name in ((1, "seat"), (2, "a"), (3, "b")):
        _whole(item[j], f"{field}[{j}] ({name})")
    event = Event.from_any(item)
    # a card field outside the deck is a broken file, not a card "not in his hand"
    cards = {EventKind.PLAY: ((2, "a"),), EventKind.HAND_OFF: ((2, "a"), (3, "b"))}.get(event.kind, ())
    for j, name in cards:
        if not 0 <= item[j] < 24:
            raise ValueError(f"field {field}[{j}] ({name}) must be a card number 0..23, not {item[j]}")
    return event


@dataclass
class DealTrace:
    """One dealt deal: dealer, cards as dealt (per seat masks, 0 for a sitting-out
    dealer), the talon(s) as dealt, and the events in order."""

    dealer: int
    hands: tuple[int, ...]
    talons: tuple[int, ...]
    events: list[Event] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.hands = tuple(int(h) for h in self.hands)
        self.talons = tuple(int(t) for t in self.talons)
        self.events = [Event.from_any(e) for e in self.events]

    @property
    def redealt(self) -> bool:
        """True when this attempt ended in a redeal."""
        return bool(self.events) and self.events[-1].kind == EventKind.REDEAL and self.events[-1].a == 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "dealer": self.dealer,
            "hands": [_hand_text(h) for h in self.hands],
            "talons": [_hand_text(t) for t in self.talons],
            "events": [e.to_list() for e in self.events],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "DealTrace":
        """A deal trace from its JSON object; a ``ValueError`` names the first field of
        the wrong type or a missing key."""
        if not isinstance(d, dict):
            raise ValueError(f"a deal trace must be a JSON object, not {_json_text(d)}")
        try:
            hands = _list(d["hands"], "hands", "hands (cards as text)")
            talons = _list(d["talons"], "talons", "talons (cards as text)")
            events = _list(d.get("events", []), "events", "events [kind, seat, a, b]")
            return cls(dealer=_whole(d["dealer"], "dealer"),
                       hands=tuple(_hand_from(h, f"hands[{i}]") for i, h in enumerate(hands)),
                       talons=tuple(_hand_from(t, f"talons[{i}]") for i, t in enumerate(talons)),
                       events=[_event_from(e, f"events[{i}]") for i, e in enumerate(events)])
        except KeyError as e:
            raise ValueError(f"deal trace lacks the key {e.args[0]!r}") from None
        except CardError as e:
            raise ValueError(f"deal trace has bad cards: {e}") from None

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> "DealTrace":
        return cls.from_dict(json.loads(text))


@dataclass
class GameTrace:
    """A whole game: the rules, the first dealer, and every deal trace (redeals included)."""

    rules: Any  # thousand.rules.Rules (Any to keep this module free of import cycles)
    first_dealer: int
    deals: list[DealTrace] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        from thousand.rules import format_value
        return {
            "rules": {k: format_value(v) for k, v in self.rules.as_dict().items()},
            "first_dealer": self.first_dealer,
            "deals": [d.to_dict() for d in self.deals],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "GameTrace":
        from thousand.rules import CLASSIC, options_left_out
        if not isinstance(d, dict):
            raise ValueError(f"a game trace must be a JSON object, not {_json_text(d)}")
        for key in ("rules", "first_dealer", "deals"):
            if key not in d:
                raise ValueError(f"game trace lacks the key {key!r}")
        options = d["rules"]
        if not isinstance(options, dict):
            raise ValueError(f"field rules must be an object of rule options ({{\"players\": \"3\", ...}}), "
                             f"not {_json_text(options)}")
        for k, v in options.items():
            if isinstance(v, (list, dict)):      # a value is text, a number, true/false or null
                raise ValueError(f"field rules.{k} must be a value as text or a number, not {_json_text(v)}")
        # a trace names every option (--json writes them all): one left out would be read as
        # classic's, which can score the same decisions otherwise (a russian round_defenders)
        missing = options_left_out(options)
        if missing:
            raise ValueError(f"field rules lacks {missing}: a trace names every option (thousand explain --json "
                             "writes them all), and one left out would be read as classic's")
        # JSON's true stays "true" (not Python's "True") in what an error quotes back
        rules = CLASSIC.with_overrides({k: v if isinstance(v, str) else "none" if v is None else json.dumps(v)
                                        for k, v in options.items()})
        return cls(rules=rules, first_dealer=_whole(d["first_dealer"], "first_dealer"),
                   deals=[DealTrace.from_dict(x) for x in _list(d["deals"], "deals", "deal traces")])

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> "GameTrace":
        return cls.from_dict(json.loads(text))


def format_event(e: Event) -> str:
    """A one-line reading of an event, e.g. ``'seat 2 plays Q♥ and declares'``."""
    k, s, a, b = e
    if k == EventKind.CUT:
        return f"seat {s} cuts: {a} nine(s) at the bottom, {b} penalty(ies)"
    if k == EventKind.BLIND:
        return f"seat {s} {'goes blind' if a else 'looks at his cards'}"
    if k == EventKind.REDEAL:
        what = _REDEAL_NAMES.get(b, str(b))
        return f"seat {s} {'demands' if a else 'declines'} a {what} redeal"
    if k == EventKind.BID:
        return f"seat {s} {'passes' if a == PASS else f'bids {a}'}"
    if k == EventKind.TALON:
        return f"seat {s} gets talon {a}"
    if k == EventKind.HAND_OFF:
        return f"seat {s} hands off {card_name(a)} and {card_name(b)}"
    if k == EventKind.CONTRACT:
        return f"seat {s} {'resigns' if a == RESIGN else f'plays for {a}'}"
    if k == EventKind.PLAY:
        return f"seat {s} plays {card_name(a)}{' and declares' if b else ''}"
    return repr(e)


def format_events(events: list[Event]) -> str:
    return "\n".join(f"{i:3d}  {format_event(e)}" for i, e in enumerate(events))
