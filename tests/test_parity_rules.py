"""Parity over rule sets drawn at random (hypothesis): any valid combination of options,
a few hundred deals and two short games replayed through the reference engine."""
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import hypothesis_budget
from helpers.parity import check_deals, check_games
from helpers.rule_sets import rule_sets


@settings(max_examples=hypothesis_budget(25))
@given(rules=rule_sets(short_games=True), seed=st.integers(0, 2**32 - 1))
def test_random_rule_sets(rules, seed):
    check_deals(rules, "random", 200, seed=seed)
    check_deals(rules, "standard", 100, seed=seed + 1)
    check_games(rules, "random", 2, seed=seed + 2)
    check_games(rules, "standard", 1, seed=seed + 3)
