"""House-rule comparisons on the real kernel: identity, no-effect rules, known directions.

Games are capped at ``max_deals=300`` and played by ``greedy`` seats so that a few
hundred games per rule set take about a second; the directions tested hold whatever the
strategies.
"""
import pytest

from thousand.analysis.compare import compare_rules

FAST = ["max_deals=300"]


def run(specs, n=300, **kw):
    kw.setdefault("seed", 3)
    kw.setdefault("strategies", "greedy")
    kw.setdefault("jobs", 2)
    kw.setdefault("overrides", FAST)
    return compare_rules(specs, n_games=n, **kw)


def test_a_rule_set_against_itself_differs_by_exactly_zero():
    res = run(["classic", "classic"], n=150, allow_duplicates=True)
    variant = [r for r in res.rows if r.rules_index == 1]
    assert len(variant) == len(res.metrics) > 20
    for r in variant:
        assert r.diff == 0.0, r.metric
        assert r.identical_pairs, r.metric
        assert r.p_value in (None, 1.0) and r.p_holm in (None, 1.0)
        assert r.diff_ci_low <= 0.0 <= r.diff_ci_high


def test_rules_without_effect_give_intervals_around_zero():
    # dealer_scores only matters at a 4-player table; greedy players never declare the
    # ace marriage.  Under these strategies both change nothing.
    res = run(["classic", "classic:dealer_scores=aces_40", "classic:ace_marriage=200"], n=150)
    for r in res.rows:
        if r.rules_index:
            assert r.diff_ci_low <= 0.0 <= r.diff_ci_high, (r.rules, r.metric)
            assert r.diff == 0.0


def test_known_directions():
    res = run(["classic", "classic:barrel_at=none", "classic:bolts=off", "classic:target=500,barrel_at=400"], n=300)
    no_barrel, no_bolts, short = res.labels[1:]
    entries = res.row("barrel_entries", no_barrel)
    assert res.row("barrel_entries", 0).value > 0
    assert entries.value == 0 and entries.diff_ci_high < 0 and entries.p_holm < 0.001
    assert res.row("barrel_falls", no_barrel).value == 0
    bolts = res.row("bolt_penalties", no_bolts)
    assert bolts.value == 0 and bolts.diff_ci_high < 0 and bolts.p_holm < 0.001
    assert res.row("bolts_per_deal", no_bolts).value == 0
    # A lower target ends games sooner.
    deals = res.row("deals_mean", short)
    assert deals.diff_ci_high < 0 and deals.p_holm < 0.001
    assert res.row("deals_median", short).diff < 0


def test_no_resigning_removes_resignations():
    # Greedy players never resign; random ones do.
    res = run(["classic", "classic:resign=none"], n=60, strategies="random", overrides=["max_deals=40"],
              metrics=["resignations", "resign_rate", "declarer_success"])
    assert res.row("resignations", 0).value > 0
    assert res.row("resignations", 1).value == 0 and res.row("resign_rate", 1).value == 0
    assert res.row("resignations", 1).diff_ci_high < 0


def test_pairing_narrows_intervals_on_real_games():
    # A rare rule (four jacks no longer allow a redeal): most games play out alike, so the
    # paired intervals must be much narrower than unpaired ones.
    res = run(["classic", "classic:redeal_hand_jacks=none"], n=300,
              metrics=["deals_mean", "declarer_success", "declarer_score", "redeal_rate"])
    for r in res.rows:
        if r.rules_index:
            assert r.pairing_gain > 1.3, (r.metric, r.pairing_gain)
            assert r.variance_reduction > 0.4, (r.metric, r.variance_reduction)
    assert res.row("redeal_rate", 1).diff < 0


def test_same_seed_same_result_whatever_the_workers():
    a = run(["classic", "classic:bolts=off"], n=100, jobs=1, metrics=["deals_mean", "win_seat1", "contract_mean"])
    b = run(["classic", "classic:bolts=off"], n=100, jobs=2, metrics=["deals_mean", "win_seat1", "contract_mean"])
    assert [r.as_dict() for r in a.rows] == [r.as_dict() for r in b.rows]
    c = run(["classic", "classic:bolts=off"], n=100, seed=4, metrics=["deals_mean", "win_seat1", "contract_mean"])
    assert [r.as_dict() for r in a.rows] != [r.as_dict() for r in c.rows]


def test_precision_on_real_games():
    res = run(["classic", "classic:last_trick_bonus=10"], n=100, metrics=["declarer_success"],
              precision=0.004, max_units=3200)
    assert res.precision_met and res.worst_width() < 0.004
    assert res.rounds >= 2 and 100 < res.n <= 3200


def test_deal_only_comparison():
    same = compare_rules(["classic", "classic"], n_deals=20_000, seed=5, strategies="greedy", jobs=1,
                         allow_duplicates=True)
    assert all(r.diff == 0.0 and r.identical_pairs for r in same.rows if r.rules_index)
    assert {r.metric for r in same.rows} == set(same.metrics)
    assert not any(m.startswith(("win_", "deals_")) for m in same.metrics)
    res = compare_rules(["classic", "classic:last_trick_bonus=10"], n_deals=20_000, seed=5,
                        strategies="greedy", jobs=1, metrics=["declarer_success", "points_declarer"])
    # Ten more points for the last trick's winner can only help a declarer who takes it.
    assert res.row("points_declarer", 1).diff > 0
    assert res.row("declarer_success", 1).diff_ci_high > 0
    assert res.row("declarer_success", 1).pairing_gain > 1.5
