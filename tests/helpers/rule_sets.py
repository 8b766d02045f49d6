"""Hypothesis strategy shared by the tests that draw whole rule sets: any valid
combination of the options of RULES.md."""
from __future__ import annotations

from hypothesis import strategies as st

from thousand.rules import CLASSIC, Rules, RulesError

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
def rule_sets(draw, short_games: bool = False) -> Rules:
    """A valid rule set.  ``short_games`` also draws lower targets (300, 500) and caps a
    game at 80 deals, so whole games stay quick; else the target is 1000."""
    values = {k: draw(v) for k, v in OPTIONS.items()}
    values["target"] = draw(st.sampled_from([1000, 500, 300])) if short_games else 1000
    values["barrel_at"] = draw(st.sampled_from([None, values["target"] - 120, values["target"] - 100]))
    if short_games:
        values["max_deals"] = 80
    try:
        return Rules(**{**CLASSIC.as_dict(), **values})
    except RulesError:
        # e.g. a barrel whose target cannot reach the game's, or talon conditions that
        # clash: drop the options that can make a combination impossible
        return Rules(**{**CLASSIC.as_dict(), **values, "barrel_at": None, "barrel_bid_min": None,
                        "redeal_talon_nines": None, "redeal_talon_jacks": None})
