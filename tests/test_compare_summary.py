"""The summary ``thousand compare`` leads with: the differences significant after Holm, in words."""
from __future__ import annotations

import json

from thousand import cli
from thousand.analysis import compare as C
from thousand.rules import CLASSIC, parse_rules_spec


def _row(metric, index, diff=None, lo=None, hi=None, p_holm=None, unit="deals per game", kind="mean",
         description=None):
    m = {x.name: x for x in C.METRICS}.get(metric)
    return C.MetricRow(metric=metric, rules=["classic", "classic:bolts=off"][index], rules_index=index,
                       kind=m.kind if m else kind, unit=m.unit if m else unit,
                       description=description or (m.description if m else metric), value=0.0, ci_low=0.0,
                       ci_high=0.0, n=100, diff=diff, diff_ci_low=lo, diff_ci_high=hi, p_value=p_holm, p_holm=p_holm)


def _result(rows):
    return C.ComparisonResult(labels=["classic", "classic:bolts=off"],
                              rules=[CLASSIC, parse_rules_spec("classic:bolts=off")], mode="games", n=100,
                              seed=1, strategies=[], rows=rows, metrics=[r.metric for r in rows if not r.rules_index])


def test_differences_in_words_read_as_magnitudes():
    assert C.difference_in_words(_row("deals_mean", 1, -4.1, -4.6, -3.6, 1e-6)) == \
        "games are 4.10 deals shorter [3.60, 4.60]"
    assert C.difference_in_words(_row("declarer_success", 1, 0.0405, 0.0377, 0.0433, 1e-6)) == \
        "declarers make their contract 4.05 pp more often [3.77, 4.33]"
    assert C.difference_in_words(_row("win_first_dealer", 1, -0.029, -0.055, -0.003, 0.03)) == \
        "the first dealer wins 2.90 pp less often [0.30, 5.50]"
    # a metric without words of its own: its description and the signed difference
    assert C.difference_in_words(_row("event.x", 1, 2.5, 1.0, 4.0, 0.01, description="things")) == \
        "things: +2.50 [1.00, 4.00]"
    # ... also when it is negative: its interval keeps its sign (the median read
    # "-3.00 [1.00, 4.00]", the estimate outside its own interval: try-out 10)
    assert C.difference_in_words(_row("deals_median", 1, -3.0, -4.0, -1.0, 0.01)) == \
        "played deals per game (median): -3.00 [-4.00, -1.00]"
    assert C.difference_in_words(_row("deals_p10", 1, -1.0, -2.0, 0.0, 0.2)) == \
        "played deals per game, 10th percentile (short games): -1.00 [-2.00, 0.00]"
    assert C.difference_in_words(_row("deals_mean", 1, -0.5, -1.0, -0.0001, 0.04)) == "games are 0.50 deals shorter [0.00, 1.00]"
    assert C.difference_in_words(_row("deals_mean", 0)) is None


def test_summary_names_only_what_is_significant_after_holm():
    rows = [
        _row("deals_mean", 0), _row("deals_mean", 1, -4.1, -4.6, -3.6, 1e-6),
        _row("win_seat0", 0), _row("win_seat0", 1, 0.01, -0.01, 0.03, 0.9),
        _row("bolt_penalties", 0), _row("bolt_penalties", 1, -6.3, -6.4, -6.1, 1e-6),
        _row("redeals", 0), _row("redeals", 1, 0.2, 0.01, 0.39, 0.08),        # p < 0.05 unadjusted, not after Holm
        _row("deals_p90", 0), _row("deals_p90", 1, -7.0, -8.0, -6.0, None),   # a quantile: no test
    ]
    (line,) = C.summary_lines(_result(rows))
    assert line == ("classic:bolts=off against classic: games are 4.10 deals shorter [3.60, 4.60]; "
                    "6.30 fewer bolt penalties a game [6.10, 6.40]; no significant change in who wins.")
    rows[3] = _row("win_seat0", 1, 0.05, 0.02, 0.08, 0.001)
    (line,) = C.summary_lines(_result(rows))
    assert line.endswith("who wins changes: seat 0 wins 5.00 pp more often [2.00, 8.00].")
    (line,) = C.summary_lines(_result([_row("deals_mean", 0), _row("deals_mean", 1, 0.1, -0.2, 0.4, 0.5)]))
    assert line == "classic:bolts=off against classic: no difference is significant after Holm's correction."


def test_summary_is_capped_at_the_strongest():
    names = [m.name for m in C.METRICS if m.kind == "mean"][:C.SUMMARY_MAX + 2]
    rows = []
    for k, name in enumerate(names):
        rows += [_row(name, 0), _row(name, 1, 1.0 + k, 0.5 + k, 1.5 + k, 1e-5)]   # later ones stronger
    (line,) = C.summary_lines(_result(rows))
    assert line.endswith("2 more in the table.")
    assert C.difference_in_words(rows[1]) not in line and C.difference_in_words(rows[-1]) in line


def test_the_command_leads_with_the_summary(capsys, tmp_path):
    args = ["compare", "--rules", "classic", "--rules", "classic:bolts=off", "--games", "300", "--seed", "3",
            "--jobs", "1", "--no-progress"]
    assert cli.main([*args, "--out", str(tmp_path / "cmp")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Significant after Holm")
    assert lines[1].startswith("  classic:bolts=off against classic: games are ") and "deals shorter" in lines[1]
    assert "no significant change in who wins" in lines[1] and lines[3].startswith("metric")
    md = (tmp_path / "cmp" / "compare.md").read_text(encoding="utf-8")
    assert md.index("- classic:bolts=off against classic: games are") < md.index("| metric |")
    # --json keeps one object per metric and rule set, with two fields added
    assert cli.main([*args, "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    deals = [r for r in rows if r["metric"] == "deals_mean"]
    assert deals[0]["significant"] is None and deals[0]["in_words"] is None
    assert deals[1]["significant"] is True and deals[1]["in_words"].startswith("games are ")
    assert {"metric", "rules", "diff", "p_holm"} <= set(rows[0])
