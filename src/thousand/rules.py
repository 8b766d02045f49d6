"""House rules as data: one frozen dataclass, three presets, and the ways users name them.

A rule set is named wherever the tool takes one as a *spec*:

* a preset: ``classic``, ``russian``, ``polish``;
* a preset with overrides: ``classic:bolts=off,barrel_at=900``;
* a TOML file: ``myrules.toml`` (optionally ``myrules.toml:blind=on``).

>>> r = parse_rules_spec("classic:bolts=off,barrel_at=900")
>>> r.bolts, r.barrel_at, r.target
('off', 900, 1000)

"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import numbers
import os
import re
import sys
import tomllib
from dataclasses import dataclass, field, fields
from enum import IntEnum
from collections.abc import Mapping
from typing import Any

import numpy as np

from thousand.files import parse_problem, read_text

__all__ = [
    "Rules", "RulesError", "CLASSIC", "RUSSIAN", "POLISH", "PRESETS", "parse_rules_spec",
    "parse_overrides", "load_rules_toml", "RuleField", "CHOICES", "rules_hash", "rule_notes", "deal_run_notes",
    "GAME_ONLY_OPTIONS", "options_left_out",
]


class RulesError(ValueError):
    """A rule set that cannot be built; the message names the option and what is allowed."""


# Text values of the enumerated options, in the order of their kernel codes.
CHOICES: dict[str, tuple[str, ...]] = {
    "bid_cap": ("none", "marriages"),
    "redeal_talon_by": ("declarer", "obligation"),
    "resign": ("none", "half_bid", "sixty", "sixty_two_free"),
    "bolts": ("off", "always", "not_on_barrel"),
    "bolt_when": ("no_tricks", "zero_points"),
    "dealer_scores": ("talon_points", "aces_40"),
}


def _opt(default: Any, doc: str, **meta: Any) -> Any:
    return field(default=default, metadata={"doc": doc, **meta})


@dataclass(frozen=True, kw_only=True)
class Rules:
    """Every house rule of Thousand the project knows; see ``docs/rules.md`` for details.

    Optional numbers use ``None`` for "off" (written ``none``).  Construct variants with
    :func:`dataclasses.replace` or :meth:`with_overrides`.
    """

    players: int = _opt(3, "table size: 3, or 2 (10 cards, two talons) or 4 (dealer sits out)", lo=2, hi=4)
    target: int = _opt(1000, "score that wins the game", lo=100, hi=100000)
    # At most 32,767: a deal row counts the game's played deals in 16 bits (deal_no).
    max_deals: int = _opt(1000, "safety cap on deals per simulated game (then no winner)", lo=1, hi=32767)
    bid_step: int = _opt(5, "auction and raise step", lo=1, hi=50)
    bid_cap: str = _opt("marriages", "marriages: no bid over 120 without a marriage, nor over 120 + marriages held; none: no cap")
    talon_face_down_on_obligation: bool = _opt(True, "the talon of the forced-100 player is not shown to the others")
    redeal_hand_points_max: int | None = _opt(13, "a hand worth this many points or less may demand a redeal", lo=0, hi=120)
    redeal_hand_nines: int | None = _opt(3, "a hand with this many nines or more may demand a redeal (3 or 4)", lo=3, hi=4)
    redeal_hand_jacks: int | None = _opt(4, "a hand with this many jacks or more may demand a redeal", lo=1, hi=4)
    redeal_talon_points_max: int | None = _opt(5, "a talon worth this many points or less allows a redeal", lo=0, hi=120)
    redeal_talon_nines: int | None = _opt(2, "a talon with this many nines or more allows a redeal", lo=1, hi=3)
    redeal_talon_jacks: int | None = _opt(3, "a talon with this many jacks or more allows a redeal", lo=1, hi=3)
    redeal_talon_by: str = _opt("declarer", "who may demand a talon redeal: declarer, or obligation (only the forced-100 player)")
    redeal_four_nines_after_exchange: bool = _opt(False, "after the hand-off a player holding four nines may demand a redeal")
    resign: str = _opt("half_bid", "resigning: half_bid (opponents +half, rounded up to 5), sixty (+60 each), sixty_two_free, none")
    must_trump: bool = _opt(True, "a player void in the led suit must trump if he can")
    must_beat: bool = _opt(False, "a player following suit must beat the best card so far if he can")
    marriage_first_trick: bool = _opt(False, "a marriage may be declared on the first trick of the deal")
    ace_marriage: int | None = _opt(None, "value of the four-ace marriage (e.g. 200), none for no ace marriage", lo=1, hi=1000)
    ace_marriage_sets_trump: bool = _opt(True, "the ace marriage makes the led ace's suit trump")
    last_trick_bonus: int = _opt(0, "points for the winner of the last trick", lo=0, hi=100)
    round_defenders: bool = _opt(True, "defenders' points are rounded to the nearest 5")
    bolts: str = _opt("always", "bolts counted: always, off, not_on_barrel")
    bolt_when: str = _opt("no_tricks", "a bolt is a deal with no_tricks, or with zero_points")
    bolt_penalty: int = _opt(120, "cost of every third bolt", lo=0, hi=10000)
    barrel_at: int | None = _opt(880, "score that puts a player on the barrel (880, 900), none for no barrel", lo=1, hi=100000)
    barrel_deals: int = _opt(3, "deals a player may sit on the barrel", lo=1, hi=100)
    barrel_target: int = _opt(120, "points the sitter must make as declarer to come off the barrel (120; 121)", lo=100, hi=1000)
    barrel_penalty: int = _opt(120, "cost of falling off the barrel (and of being knocked off)", lo=0, hi=10000)
    barrel_bid_min: int | None = _opt(None, "the sitter may bid only from this value (120), none for no limit", lo=100, hi=1000)
    barrel_takes_talon: bool = _opt(False, "the sitter takes the talon without an auction")
    barrel_third_reset: bool = _opt(False, "failing a third barrel resets the score to 0 instead of the penalty")
    samozval_555: bool = _opt(False, "a total of exactly +555 or -555 after a deal (or a redeal's cut-nine fine) becomes 0")
    blind: bool = _opt(False, "the forehand may play blind: contract 120 scored +-240, others' card points doubled")
    golden_kon: bool = _opt(False, "the first three deals are forced blind 120s, one per player in turn")
    cut_nine_penalty: bool = _opt(False, "a nine at the bottom forces a re-cut; the third in a row costs the cutter 120")
    dealer_scores: str = _opt("talon_points", "with 4 players, what the sitting-out dealer scores: talon_points or aces_40")

    # ----------------------------------------------------------------- validation
    def __post_init__(self) -> None:
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, np.bool_) or (isinstance(v, numbers.Integral) and type(v) not in (int, bool)):
                # numpy's integers (a sweep over np.arange) as Python's, so the hash and TOML can write them
                object.__setattr__(self, f.name, bool(v) if isinstance(v, np.bool_) else int(v))
            _check_field(f, getattr(self, f.name))
        if self.players not in (2, 3, 4):
            raise RulesError(f"players: must be 2, 3 or 4, got {self.players}")
        if self.target % 5:
            raise RulesError(f"target: must be a multiple of 5, got {self.target}")
        if self.barrel_at is not None:
            if self.barrel_at >= self.target:
                raise RulesError(f"barrel_at: must be below target ({self.target}), got {self.barrel_at}; with a "
                                 f"lower target set barrel_at too (below {self.target}, or barrel_at=none)")
            if self.barrel_at + self.barrel_target < self.target:
                raise RulesError(
                    f"barrel_target: a sitter at barrel_at={self.barrel_at} making {self.barrel_target} "
                    f"cannot reach target={self.target}; raise barrel_at or barrel_target")
        if self.bid_step % 5 and self.bid_step not in (1, 2):
            raise RulesError(f"bid_step: must be 1, 2 or a multiple of 5, got {self.bid_step}")
        if self.barrel_at is not None and self.barrel_at + self.barrel_contract < self.target:
            # a sitter comes off with his score + the contract, which must reach the target
            raise RulesError(
                f"bid_step: with bid_step={self.bid_step} a barrel sitter comes off at contract "
                f"{self.barrel_contract} (barrel_target={self.barrel_target} rounded down to a multiple of "
                f"{self.bid_step}), and {self.barrel_at} + {self.barrel_contract} does not reach "
                f"target={self.target}; use a bid_step that divides {self.barrel_target - self.barrel_target % 5}, "
                f"raise barrel_at, or barrel_at=none")
        if self.barrel_bid_min is not None and self.barrel_bid_min % self.bid_step:
            raise RulesError(f"barrel_bid_min: must be a multiple of bid_step ({self.bid_step}), got {self.barrel_bid_min}")
        if (self.barrel_at is not None and self.barrel_bid_min is not None and self.barrel_bid_min > 120
                and self.bid_cap == "marriages"):
            # a forehand sitter opens at barrel_bid_min: without a marriage that is over his cap
            raise RulesError(f"barrel_bid_min: at most 120 with bid_cap=marriages (a sitter who is forehand opens "
                             f"at it, and without a marriage may not bid over 120), got {self.barrel_bid_min}")
        # With 2 players a talon holds 2 cards, so a 3-card talon condition (3 jacks) simply
        # never triggers; that is the classic rule at a 2-player table, not an error.

    @property
    def barrel_contract(self) -> int:
        """The smallest contract that takes a barrel sitter off: ``barrel_target`` rounded
        down to a multiple of ``bid_step`` (docs/rules.md, the barrel).

        >>> RUSSIAN.barrel_target, RUSSIAN.barrel_contract
        (121, 120)
        """
        return self.barrel_target // self.bid_step * self.bid_step

    # ----------------------------------------------------------------- variants
    def with_overrides(self, overrides: dict[str, Any] | str) -> "Rules":
        """A copy with options changed; values may be text as typed on the command line."""
        if isinstance(overrides, str):
            overrides = parse_overrides(overrides)
        return dataclasses.replace(self, **{k: coerce_option(k, v) for k, v in overrides.items()})

    def as_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def diff(self, other: "Rules") -> dict[str, Any]:
        """Options of ``self`` that differ from ``other``."""
        return {k: v for k, v in self.as_dict().items() if getattr(other, k) != v}

    @property
    def hash(self) -> str:
        return rules_hash(self)

    def describe(self) -> str:
        """A compact label: the nearest preset and the differences, e.g. ``classic:bolts=off``."""
        best = min(PRESETS, key=lambda n: len(self.diff(PRESETS[n])))
        d = self.diff(PRESETS[best])
        return best if not d else best + ":" + ",".join(f"{k}={format_value(v)}" for k, v in d.items())

    def to_toml(self, header: str | None = None) -> str:
        """TOML text that :func:`load_rules_toml` reads back to an equal rule set."""
        lines = [f"# {header}"] if header else []
        for f in fields(self):
            lines.append(f"# {f.metadata['doc']}")
            lines.append(f"{f.name} = {_toml_value(getattr(self, f.name))}")
        return "\n".join(lines) + "\n"

    def to_kernel(self) -> np.ndarray:
        """The rules flattened to ``int32`` for the kernel, indexed by :class:`RuleField`."""
        out = np.full(len(RuleField), -1, dtype=np.int32)
        for rf in RuleField:
            v = getattr(self, rf.name.lower())
            if v is None:
                continue
            if isinstance(v, str):
                v = CHOICES[rf.name.lower()].index(v)
            out[rf] = int(v)
        return out


# Order of the kernel's rules array; the kernel's constants mirror these (a test checks).
RuleField = IntEnum("RuleField", [f.name.upper() for f in fields(Rules)], start=0)


def _shown(v: Any) -> str:
    """A value as a rules file or trace wrote it: ``true``, a date as written, an array or
    table as JSON, text in quotes (never Python's ``True`` or ``datetime.date(...)``)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if hasattr(v, "isoformat"):   # a TOML date, time or date-time
        return v.isoformat()
    if isinstance(v, (list, dict)):
        return json.dumps(v, default=str)
    return repr(v)


def _check_field(f: dataclasses.Field, v: Any) -> None:
    name = f.name
    if name in CHOICES:
        if v not in CHOICES[name]:
            raise RulesError(f"{name}: must be one of {', '.join(CHOICES[name])}; got {_shown(v)}")
        return
    if f.type == "bool":
        if not isinstance(v, bool):
            raise RulesError(f"{name}: must be on or off, got {_shown(v)}")
        return
    optional = "None" in str(f.type)
    if v is None:
        if not optional:
            raise RulesError(f"{name}: must be a whole number, not none")
        return
    if isinstance(v, bool) or not isinstance(v, int):
        raise RulesError(f"{name}: must be a whole number{' or none' if optional else ''}, got {_shown(v)}")
    lo, hi = f.metadata.get("lo"), f.metadata.get("hi")
    if lo is not None and not lo <= v <= hi:
        if hi - lo < 3:  # a short list reads better than a range: "2, 3 or 4"
            values = [str(x) for x in range(lo, hi + 1)] + (["none"] if optional else [])
            allowed = ", ".join(values[:-1]) + " or " + values[-1]
        else:
            allowed = f"between {lo} and {hi}" + (" or none" if optional else "")
        raise RulesError(f"{name}: must be {allowed}, got {v}")


_FIELDS = {f.name: f for f in fields(Rules)}
_TRUE = {"on", "true", "yes", "1"}
_FALSE = {"off", "false", "no", "0"}


def coerce_option(name: str, value: Any) -> Any:
    """Convert a typed value (``'on'``, ``'none'``, ``'900'``...) to the option's type."""
    if name not in _FIELDS:
        import difflib
        near = difflib.get_close_matches(name, _FIELDS, n=1)
        hint = f" (did you mean {near[0]}?)" if near else " (see `thousand rules classic`)"
        raise RulesError(f"unknown rule option {name!r}{hint}")
    f = _FIELDS[name]
    if not isinstance(value, str):
        if f.type == "bool" and value in (0, 1) and not isinstance(value, bool):
            return bool(value)
        return value
    text = value.strip().lower()
    if name in CHOICES:
        if text not in CHOICES[name]:
            raise RulesError(f"{name}: must be one of {', '.join(CHOICES[name])}; got {value!r}")
        return text
    if f.type == "bool":
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise RulesError(f"{name}: must be on or off, got {value!r}")
    optional = "None" in str(f.type)
    if text in ("none", "off") and optional:
        return None
    # digits as written on a keyboard: int() would also take "1_000", "+900" and other
    # scripts' digits (full-width ones), which no rules text means
    if not re.fullmatch(r"-?[0-9]+", text):
        raise RulesError(f"{name}: must be a whole number{' or none' if optional else ''}, got {value!r}")
    return int(text)


def format_value(v: Any) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "on" if v else "off"
    return str(v)


def options_left_out(options: Mapping[str, Any]) -> str:
    """The options a file that must name every one (a trace, a saved game) leaves out, as
    a message shows them ("bolts, resign and 3 more"); "" when none is."""
    missing = [k for k in CLASSIC.as_dict() if k not in options]
    return ", ".join(missing[:4]) + (f" and {len(missing) - 4} more" if len(missing) > 4 else "")


def _toml_value(v: Any) -> str:
    if v is None:
        return '"none"'
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    return json.dumps(v)


def parse_overrides(text: str) -> dict[str, str]:
    """``'bolts=off,barrel_at=900'`` -> ``{'bolts': 'off', 'barrel_at': '900'}``."""
    out: dict[str, str] = {}
    if not text.replace(",", "").strip():
        raise RulesError(f"empty rule override {text!r}: write name=value, e.g. bolts=off")
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if "=" not in part:
            raise RulesError(f"bad rule override {part!r}: write name=value, e.g. bolts=off")
        k, v = part.split("=", 1)
        k = k.strip().lower()  # option names are lower case; presets are read in any case too
        value = coerce_option(k, v)  # validates the name and the value early
        if k in out and coerce_option(k, out[k]) != value:
            raise RulesError(f"rule option {k} is given twice, as {out[k]} and as {v.strip()}: give it once")
        out[k] = v.strip()
    return out


CLASSIC = Rules()
RUSSIAN = dataclasses.replace(
    CLASSIC, round_defenders=False, barrel_takes_talon=True, barrel_target=121, resign="sixty",
    redeal_talon_points_max=4, redeal_talon_by="obligation", samozval_555=True,
    bolt_when="zero_points", last_trick_bonus=0)
POLISH = dataclasses.replace(
    CLASSIC, resign="sixty_two_free", redeal_four_nines_after_exchange=True,
    redeal_hand_points_max=None, redeal_hand_nines=None, redeal_hand_jacks=None,
    redeal_talon_points_max=None, redeal_talon_nines=None, redeal_talon_jacks=None,
    bolt_when="zero_points")
PRESETS: dict[str, Rules] = {"classic": CLASSIC, "russian": RUSSIAN, "polish": POLISH}
# What each preset is and where it comes from, for `thousand rules` (the sources are the
# three rules texts RULES.md was consolidated from, described here in words).
PRESET_NOTES = {
    "classic": "the rules of an English-language online card-games site: barrel at 880, bolts, "
               "half-bid resign, hand and talon redeals",
    "russian": "Russian house rules, from a set of Russian articles on three-handed play: the barrel "
               "takes the talon and needs 121, exact defenders' points, the 555 reset",
    "polish": "Polish rules (Tysiąc), from an English rules page: two free resignations, a four-nines "
              "redeal after the hand-off, no other redeals",
}


#: A rule set in TOML is about 2 KB; anything this large is not one (a device, a wrong file).
MAX_RULES_FILE_BYTES = 1 << 20


def load_rules_toml(path: str | os.PathLike) -> Rules:
    """Read a rule set from TOML: flat ``name = value`` keys, or a ``[rules]`` table.

    A ``preset = "russian"`` key starts from that preset instead of ``classic``.
    """
    name = os.fspath(path)
    text = read_text(path, "rules file", MAX_RULES_FILE_BYTES, error=RulesError)
    try:
        data = tomllib.loads(text)
    except ValueError as e:  # TOMLDecodeError, or an integer past Python's digit cap
        raise RulesError(f"rules file {name!r} is not valid TOML: {parse_problem(e)}") from None
    except RecursionError:
        raise RulesError(f"rules file {name!r} is not valid TOML: nested too deeply") from None
    if "rules" in data and isinstance(data["rules"], dict):
        stray = [k for k in data if k != "rules"]
        if stray:
            # read from the table alone, they would be dropped without a word
            raise RulesError(f"rules file {name!r}: {stray[0]!r} is outside its [rules] table: "
                             f"put every option inside it")
        data = data["rules"]
    if not data:
        # an empty file (a failed `thousand rules ... --toml > FILE` leaves one) would be
        # classic without a word
        raise RulesError(f"rules file {name!r} sets no option: write `name = value` lines or a preset = "
                         f'"russian" key (`thousand rules classic --toml` writes every option)')
    named_preset = "preset" in data
    base_name = data.pop("preset", "classic")
    if not isinstance(base_name, str) or base_name not in PRESETS:
        raise RulesError(f"preset: must be one of {', '.join(PRESETS)}; got {base_name!r}")
    values = {}
    for k, v in data.items():
        values[k] = coerce_option(k, _toml_option(k, v))
    rules = dataclasses.replace(PRESETS[base_name], **values)
    if not named_preset and len(values) < len(_FIELDS) and name not in _NOTED_FILES:
        # a short file of house rules is fine, but a cut-short copy of another preset is
        # not: say where the options it leaves out come from (once a file, on stderr)
        _NOTED_FILES.add(name)
        left = len(_FIELDS) - len(values)
        print(f"note: rules file {name!r} sets {len(values)} of {len(_FIELDS)} options; the other {left} are "
              f'classic\'s (a preset = "russian" key starts from another preset)', file=sys.stderr)
    return rules


_NOTED_FILES: set[str] = set()   # the rules files a note was printed for (once each)


def _toml_option(name: str, v: Any) -> Any:
    """A TOML value with the option's own TOML type: a number for a number, true or false
    for a switch ("on" and "off" too), text for a choice and for "none".  A number written
    as text ("900") or a switch as a number (0) is refused: TOML has types, and a file
    that mixes them up is more likely a mistake than a wish (the command line's k=v has
    only text, so it reads text)."""
    f = _FIELDS.get(name)
    if f is None or name in CHOICES:
        return v
    if f.type == "bool":
        if isinstance(v, bool) or (isinstance(v, str) and v.strip().lower() in ("on", "off", "true", "false")):
            return v
        raise RulesError(f"{name}: must be true or false, got {_shown(v)}")
    optional = "None" in str(f.type)
    if isinstance(v, str) and not (optional and v.strip().lower() in ("none", "off")):
        also = ' (or "none")' if optional else ""
        raise RulesError(f"{name}: must be a whole number written without quotes{also}, got {_shown(v)}")
    return v


def parse_rules_spec(spec: str | Rules | None, overrides: list[str] | str | None = None) -> Rules:
    """Build a rule set from a spec (preset, ``preset:k=v,...``, or TOML path) and ``--set``
    items (a list, or one item as a string)."""
    if isinstance(overrides, str):
        overrides = [overrides]
    extra = ""
    if isinstance(spec, Rules):
        rules = spec
    elif spec is not None and not isinstance(spec, str):
        raise RulesError(f"rules: expected a rule set or a spec such as 'classic', got {type(spec).__name__}")
    else:
        spec = "classic" if spec is None else spec.strip()
        if not spec:
            raise RulesError("empty rule set: name a preset (classic, russian, polish), preset:k=v,... "
                             "or a .toml file")
        base, _, extra = spec.partition(":")
        if base.strip().lower() in PRESETS:   # "classic :bolts=off" as well
            base = base.strip()
        if base.lower() not in PRESETS and not os.path.isfile(base):
            # a rules file whose path holds a colon: the longest file the spec starts with
            for i in [len(spec)] + [j for j in range(len(spec) - 1, 0, -1) if spec[j] == ":"]:
                if os.path.isfile(spec[:i]):
                    base, extra = spec[:i], spec[i + 1:]
                    break
            else:
                if spec.lower().endswith(".toml"):   # a missing file is named whole
                    base, extra = spec, ""
        if base.lower() in PRESETS:
            rules = PRESETS[base.lower()]
        elif base.endswith(".toml") or os.path.sep in base or os.path.exists(base):
            rules = load_rules_toml(base)
        else:
            raise RulesError(f"unknown rule set {base!r}: use classic, russian, polish or a .toml file")
    # All overrides are applied at once and checked once, so their order never matters
    # (target=100 then barrel_at=none is as valid as the other way round).
    # A --set overrides the spec's own value of an option, but two --set of one option
    # that disagree are a mistake, not an order to pick the last.
    merged: dict[str, str] = parse_overrides(extra) if extra else {}
    given: dict[str, str] = {}
    for item in overrides or []:
        for k, v in parse_overrides(item).items():
            if k in given and coerce_option(k, given[k]) != coerce_option(k, v):
                raise RulesError(f"--set {k} is given twice, as {given[k]} and as {v}: give it once")
            given[k] = v
    merged.update(given)
    return rules.with_overrides(merged) if merged else rules


# Options another setting makes moot: (that setting, the options, its name in the note).
# Only options set away from their default are named; at the default they are no choice.
_MOOT: tuple[tuple[Any, tuple[str, ...], str], ...] = (
    (lambda r: r.barrel_at is None,
     ("barrel_deals", "barrel_target", "barrel_penalty", "barrel_bid_min", "barrel_takes_talon",
      "barrel_third_reset"), "with barrel_at=none"),
    (lambda r: r.players != 4, ("dealer_scores",),
     "at {players} players (only the sitting-out dealer of a 4-player table scores the talon)"),
    (lambda r: r.players == 2, ("blind",), "at 2 players (blind play is for 3 and 4 players)"),
    (lambda r: r.barrel_at is not None and r.barrel_takes_talon, ("barrel_bid_min",),
     "with barrel_takes_talon (the sitter takes the talon without an auction: he never bids)"),
    (lambda r: r.bolts == "off", ("bolt_when", "bolt_penalty"), "with bolts=off"),
    (lambda r: r.ace_marriage is None, ("ace_marriage_sets_trump",), "with ace_marriage=none"),
    (lambda r: r.redeal_talon_points_max is None and r.redeal_talon_nines is None
     and r.redeal_talon_jacks is None, ("redeal_talon_by",), "with every talon redeal condition none"),
)
_DEFAULTS = {f.name: f.default for f in fields(Rules)}


def highest_contract(rules: Rules) -> int:
    """The highest contract any deal can reach: 120 + every marriage under ``bid_cap =
    marriages`` (a hand holds at most all four), plus the ace marriage and the last-trick
    bonus without a cap (RULES.md steps 3 and 6), down to a legal bid.

    >>> highest_contract(CLASSIC), highest_contract(CLASSIC.with_overrides("bid_cap=none,ace_marriage=200"))
    (400, 600)
    """
    from thousand.cards import MARRIAGE_VALUES
    cap = 120 + sum(MARRIAGE_VALUES)
    if rules.bid_cap == "none":
        cap += (rules.ace_marriage or 0) + rules.last_trick_bonus
    return 100 + (cap - 100) // rules.bid_step * rules.bid_step


#: Options that act only between the deals of a game (its scores, the barrel, penalties,
#: its first deals, its end): a run of single deals, each from 0-0 outside a game, plays
#: the same deals whatever they say (tests/test_rules.py plays each both ways).
GAME_ONLY_OPTIONS = ("target", "max_deals", "barrel_at", "barrel_deals", "barrel_target", "barrel_penalty",
                     "barrel_bid_min", "barrel_takes_talon", "barrel_third_reset", "bolt_penalty", "samozval_555",
                     "golden_kon")


def deal_run_notes(rules: Rules, instead: str = "thousand games") -> list[str]:
    """The options set apart from ``rules``' preset that a run of single deals never uses
    (``thousand simulate``, ``thousand explain`` without ``--game``; ``instead`` plays them).

    >>> deal_run_notes(CLASSIC.with_overrides("golden_kon=on,bolts=off"))
    ['golden_kon=on has no effect in a run of single deals (each starts from 0-0, outside a game): use thousand games']
    """
    base = rules.describe().partition(":")[0]
    changed = [o for o in GAME_ONLY_OPTIONS if o in rules.diff(PRESETS[base])]
    notes = []
    if changed:
        named = ", ".join(f"{o}={format_value(getattr(rules, o))}" for o in changed)
        verb = "has" if len(changed) == 1 else "have"
        notes.append(f"{named} {verb} no effect in a run of single deals (each starts from 0-0, outside a "
                     f"game): use {instead}")
    if rules.bolts == "not_on_barrel" and "bolts" in rules.diff(PRESETS[base]):
        notes.append("bolts=not_on_barrel is bolts=always in a run of single deals (nobody sits on the barrel)")
    return notes


def rule_notes(rules: Rules) -> list[str]:
    """One line per option of ``rules`` that can never matter, or that makes part of the
    game impossible: legal combinations, but a comparison of them shows nothing.

    >>> rule_notes(CLASSIC.with_overrides("barrel_at=none,barrel_takes_talon=on"))
    ['barrel_takes_talon has no effect with barrel_at=none']
    >>> rule_notes(CLASSIC)
    []
    """
    notes = []
    for moot, options, where in _MOOT:
        if moot(rules):
            changed = [o for o in options if getattr(rules, o) != _DEFAULTS[o]]
            if changed:
                verb = "has" if len(changed) == 1 else "have"
                notes.append(f"{', '.join(changed)} {verb} no effect {where.format(players=rules.players)}")
    if rules.barrel_at is None and rules.bolts == "not_on_barrel":
        notes.append("bolts=not_on_barrel is bolts=always with barrel_at=none")
    if (rules.barrel_at is not None and not rules.barrel_takes_talon and rules.barrel_bid_min is not None
            and rules.barrel_bid_min <= 100):
        notes.append(f"barrel_bid_min={rules.barrel_bid_min} is no limit: every bid is 100 or more")
    if rules.players == 2:
        for option in ("redeal_talon_nines", "redeal_talon_jacks"):
            value = getattr(rules, option)
            if value is not None and value >= 3 and value != _DEFAULTS[option]:
                notes.append(f"{option}={value} can never be met at 2 players (a talon holds 2 cards)")
        points = rules.redeal_hand_points_max
        if points is not None and points < 14 and points != _DEFAULTS["redeal_hand_points_max"]:
            # the poorest 10 cards: four nines, four jacks and two queens, 14 points
            notes.append(f"redeal_hand_points_max={points} can never be met at 2 players (10 cards hold at least "
                         "14 points)")
    if rules.golden_kon and rules.players == 2:
        notes.append("golden_kon at 2 players: the three golden deals go to the forehand in turn, so one "
                     "player plays two of them (docs/rules.md, golden kon)")
    if rules.barrel_at is not None:
        top = highest_contract(rules)
        for option in ("barrel_target", "barrel_bid_min"):
            value = getattr(rules, option)
            if value is not None and value > top:
                notes.append(f"{option}={value} is above the highest possible contract ({top}): "
                             "a player on the barrel can never come off it")
    return notes


def rules_hash(rules: Rules) -> str:
    """A short stable label of a rule set: the first 10 hex digits of a SHA-256."""
    return options_hash(rules.as_dict())


def options_hash(options: dict[str, Any]) -> str:
    """:func:`rules_hash` of a rule set written as its options (``Rules.as_dict()``, as a
    dataset's metadata keeps it): a hand-edited option no longer matches the hash kept
    beside it."""
    payload = json.dumps(options, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(payload.encode()).hexdigest()[:10]
