"""The sensible players (cautious, standard, aggressive) score the ace marriage.

With ``ace_marriage`` set, leading an ace while holding all four may be declared, but not
on trick 0 (unless ``marriage_first_trick``).  A declarer with four aces therefore keeps
them on trick 0, wins it with another sure winner (a ten: with its ace in his hand it is
the top card of its suit and there is no trump yet) and declares on the next lead.
"""
import numpy as np
import pytest

from thousand import _fastdeal, kernel
from thousand.kernel import decide
from thousand.cards import parse_card, parse_hand
from thousand.rules import parse_rules_spec
from thousand.strategies import resolve_strategies

ACES = parse_hand("AS AC AD AH")
EV_PLAY = 7
SENSIBLE = ["cautious", "standard", "aggressive"]


def _params(name):
    codes, params = resolve_strategies(name, 3)
    return int(codes[0]), [float(x) for x in np.asarray(params)[0]]


def _lead_view(hand, trick_index, declarable, ace_marriage):
    return {"players": 3, "seat": 0, "dealer": 2, "forehand": 0, "active": [0, 1, 2],
            "hand": hand, "declarer": 0, "contract": 120, "played": 0,
            "trick_index": trick_index, "legal": hand, "declarable": declarable,
            "ace_marriage": ace_marriage}


@pytest.mark.parametrize("name", SENSIBLE)
def test_four_aces_on_trick_zero_lead_the_ten_then_declare(name):
    code, params = _params(name)
    hand = parse_hand("AS AC AD AH 10C 9S JD QH")
    # trick 0, no marriage_first_trick: nothing is declarable, the ten keeps the aces
    card, declare = decide("play", code, params, _lead_view(hand, 0, 0, 200))
    assert card == parse_card("10C") and not declare
    # without the ace marriage rule the old play stands: an ace is cashed first
    card, declare = decide("play", code, params, _lead_view(hand, 0, 0, 0))
    assert card % 6 == 5 and not declare
    # next lead (the ten won trick 0): the engine allows it, the player declares
    rest = hand & ~parse_hand("10C")
    view = _lead_view(rest, 1, ACES, 200)
    view["played"] = parse_hand("10C 9C JC")
    card, declare = decide("play", code, params, view)
    assert card % 6 == 5 and declare


def _ace_marriage_rate(name, n_deals, seed):
    rules = parse_rules_spec("classic:ace_marriage=200")
    cols, events = kernel.play_deals(np.random.PCG64(seed), rules, name, n_deals=n_deals, trace=True)
    played = (cols["declarer"] >= 0) & (cols["resigned"] == 0) & (cols["redeal"] == 0)
    four = []
    for i in np.flatnonzero(played):
        s = int(cols["declarer"][i])
        h = int(cols[f"hand{s}"][i]) | int(cols["talon"][i])
        h &= ~((1 << int(cols["handoff_next"][i])) | (1 << int(cols["handoff_other"][i])))
        if h & ACES == ACES:
            four.append(int(i))
    decl_aces = events[(events[:, 1] == EV_PLAY) & (events[:, 4] == 1) & (events[:, 3] % 6 == 5)]
    declared = set(decl_aces[:, 0].tolist())
    hits = sum(1 for i in four if i in declared)
    return len(four), hits


@pytest.mark.parametrize("name", SENSIBLE)
def test_four_ace_declarers_mostly_declare_the_ace_marriage(name):
    # Measured on 20,000 deals: 0% before the fix, about 77% after (the rest hold no ten,
    # so they cannot keep the lead on trick 0 without an ace).
    n, hits = _ace_marriage_rate(name, 6000, 11)
    assert n >= 100
    rate = hits / n
    se = (rate * (1 - rate) / n) ** 0.5
    assert rate - 3 * se > 0.6, (n, hits)
