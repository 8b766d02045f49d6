"""Parity over rule sets drawn at random (hypothesis): any valid combination of options,
a few hundred deals and two short games replayed through the reference engine."""
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from thousand.rules import CLASSIC, Rules, RulesError

from test_parity import check_deals, check_games

OPTIONS = {
    "players": st.sampled_from([2, 3, 3, 4]),
    "bid_step": st.sampled_from([5, 5, 10, 1]),
    "bid_cap": st.sampled_from(["marriages", "none"]),
    "talon_face_down_on_obligation": st.booleans(),
    "redeal_hand_points_max": st.sampled_from([None, 13, 20]),
    "redeal_hand_nines": st.sampled_from([None, 3, 4]),
    "redeal_hand_jacks": st.sampled_from([None, 4]),
    "redeal_talon_points_max": st.sampled_from([None, 5, 4]),
    "redeal_talon_nines": st.sampled_from([None, 2]),
    "redeal_talon_jacks": st.sampled_from([None, 2]),
    "redeal_talon_by": st.sampled_from(["declarer", "obligation"]),
    "redeal_four_nines_after_exchange": st.booleans(),
    "resign": st.sampled_from(["none", "half_bid", "sixty", "sixty_two_free"]),
    "must_trump": st.booleans(),
    "must_beat": st.booleans(),
    "marriage_first_trick": st.booleans(),
    "ace_marriage": st.sampled_from([None, 200]),
    "ace_marriage_sets_trump": st.booleans(),
    "last_trick_bonus": st.sampled_from([0, 10]),
    "round_defenders": st.booleans(),
    "bolts": st.sampled_from(["off", "always", "not_on_barrel"]),
    "bolt_when": st.sampled_from(["no_tricks", "zero_points"]),
    "target": st.sampled_from([1000, 500, 300]),
    "barrel_deals": st.sampled_from([1, 3]),
    "barrel_target": st.sampled_from([120, 121]),
    "barrel_bid_min": st.sampled_from([None, 120]),
    "barrel_takes_talon": st.booleans(),
    "barrel_third_reset": st.booleans(),
    "samozval_555": st.booleans(),
    "blind": st.booleans(),
    "golden_kon": st.booleans(),
    "cut_nine_penalty": st.booleans(),
    "dealer_scores": st.sampled_from(["talon_points", "aces_40"]),
}


@st.composite
def rule_sets(draw):
    values = {k: draw(v) for k, v in OPTIONS.items()}
    values["barrel_at"] = draw(st.sampled_from([None, values["target"] - 120, values["target"] - 100]))
    values["max_deals"] = 80
    try:
        return Rules(**{**CLASSIC.as_dict(), **values})
    except RulesError:
        return Rules(**{**CLASSIC.as_dict(), **values, "barrel_at": None, "barrel_bid_min": None,
                        "redeal_talon_nines": None, "redeal_talon_jacks": None})


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rule_sets(), seed=st.integers(0, 2**32 - 1))
def test_random_rule_sets(rules, seed):
    check_deals(rules, "random", 200, seed=seed)
    check_deals(rules, "standard", 100, seed=seed + 1)
    check_games(rules, "random", 2, seed=seed + 2)
    check_games(rules, "standard", 1, seed=seed + 3)
