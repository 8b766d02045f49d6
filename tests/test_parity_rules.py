"""Parity over rule sets drawn at random (hypothesis): any valid combination of options,
a few hundred deals and two short games replayed through the reference engine."""
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rule_strategies import rule_sets
from test_parity import check_deals, check_games


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rule_sets(short_games=True), seed=st.integers(0, 2**32 - 1))
def test_random_rule_sets(rules, seed):
    check_deals(rules, "random", 200, seed=seed)
    check_deals(rules, "standard", 100, seed=seed + 1)
    check_games(rules, "random", 2, seed=seed + 2)
    check_games(rules, "standard", 1, seed=seed + 3)
