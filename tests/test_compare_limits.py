"""``thousand compare`` at the edges: absurd sizes, memory that must not grow with the
size, few units (Student t), interrupted and killed runs, and how the output reads."""
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

import thousand.analysis.compare as C
import thousand.analysis.stats as S
from helpers.processes import gone, loky_workers, orphans_after_sigkill
from helpers.compare_toys import toy_compare, toy_simulator
from thousand.cli import main
from thousand.rules import parse_rules_spec

REPO = Path(__file__).resolve().parents[1]


def one_line_error(capsys, argv, needle):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err
    assert err.startswith("thousand compare: error:") and needle in err, err


# ----------------------------------------------------------------------------- sizes
@pytest.mark.parametrize("size, needle", [
    (["--deals", "100000000000"], "number of deals must be at most 10,000,000,000 per rule set"),
    (["--deals", "10000000001"], "number of deals must be at most 10,000,000,000"),
    (["--games", "100000000000"], "number of games must be at most 1,000,000,000 per rule set"),
    (["--games", "1000000001"], "number of games must be at most 1,000,000,000"),
    (["--games", "100", "--precision", "0.1", "--max-games", "100000000000"], "cap must be at most 1,000,000,000"),
])
def test_absurd_sizes_are_refused_at_once(capsys, size, needle):
    started = time.perf_counter()
    one_line_error(capsys, ["compare", "--rules", "classic", "--rules", "russian", "--no-progress", *size], needle)
    assert time.perf_counter() - started < 10          # refused before anything is simulated


def test_default_precision_cap_stays_within_the_limit():
    # 32 x the first round would pass the limit: the default cap is the limit itself.
    with pytest.raises(C.ThousandError, match="--max-games 999,999,999 is below --games 1,000,000,000"):
        C.compare_rules(["classic", "russian"], n_games=C.MAX_UNITS["games"], precision=0.1,
                        max_units=C.MAX_UNITS["games"] - 1, simulator=toy_simulator)


def test_units_are_folded_in_batches_not_held(monkeypatch):
    # The simulator must be asked for a few chunks at a time (their unit tables then
    # dropped), never for the whole run at once; the result does not depend on it.
    calls = []

    def recording(rules, mode, first_chunk, n_chunks, *args, **kw):
        calls.append(n_chunks)
        return toy_simulator(rules, mode, first_chunk, n_chunks, *args, **kw)

    whole = C.compare_rules(["classic", "classic:bolts=off"], n_games=2000, chunk_size=100, seed=5, jobs=1,
                            simulator=recording)
    assert calls == [20, 20]
    calls.clear()
    monkeypatch.setattr(C, "BATCH_UNITS", 300)
    batched = C.compare_rules(["classic", "classic:bolts=off"], n_games=2000, chunk_size=100, seed=5, jobs=1,
                              simulator=recording)
    assert max(calls) == 3 and sum(calls) == 2 * 20
    assert [r.as_dict() for r in batched.rows] == [r.as_dict() for r in whole.rows]
    assert batched.n == 2000 and batched.deals_hist == whole.deals_hist


def test_summaries_added_in_pieces_equal_the_whole():
    specs = ["classic", "classic:bolts=off", "classic:target=500,barrel_at=none"]
    rules = [parse_rules_spec(s) for s in specs]
    metrics = C.select_metrics(rules, "games")
    kinds = {m.kind for m in metrics}
    assert {"proportion", "mean", "median", "quantile", "ratio", "ratio_proportion"} <= kinds
    tables = [C.unit_table(*toy_simulator(r, "games", 0, 3, 200, 5, None, 1), metrics, 3) for r in rules]
    whole = C.compare_units(specs, tables, metrics, seed=5)
    stats = C.UnitStats(metrics, len(tables))
    aligned = C._aligned(tables)
    for start, stop in [(0, 1), (1, 250), (250, 600)]:
        stats.add([t.slice(start, stop - start) for t in aligned])
    pieces = C.compare_stats(specs, stats, seed=5)
    for a, b in zip(whole, pieces):
        for key, value in a.as_dict().items():
            other = b.as_dict()[key]
            if isinstance(value, float):
                assert other == pytest.approx(value, rel=1e-9, abs=1e-12), (a.metric, a.rules, key)
            else:
                assert other == value, (a.metric, a.rules, key)


def test_moments_merge_like_stacked_rows():
    rng = np.random.default_rng(3)
    x = rng.normal(1e6, 3.0, size=(1000, 3))        # a large mean: the centred update must hold up
    merged = C.Moments.of(x[:10]).merge(C.Moments.of(x[10:700])).merge(C.Moments.of(x[700:]))
    assert merged.n == 1000
    np.testing.assert_allclose(merged.mean, x.mean(axis=0), rtol=1e-14)
    np.testing.assert_allclose(merged.m2 / 999, np.cov(x.T), rtol=1e-9, atol=1e-9 * 9)


# ----------------------------------------------------------------------------- few units
def test_three_games_use_student_t_throughout(capsys):
    argv = ["compare", "--rules", "classic", "--rules", "classic:target=500,barrel_at=400", "--games", "3",
            "--set", "max_deals=80", "--jobs", "1", "--no-progress",
            "--metric", "deals_mean,score_spread,redeals,contract_mean,declarer_score,points_declarer"]
    assert main([*argv, "--json"]) == 0
    rows = [o for o in json.loads(capsys.readouterr().out) if o["rules_index"] == 1]
    t2 = S.t_quantile(0.95, 2)
    assert t2 == pytest.approx(4.302653, abs=1e-6)
    checked = 0
    for o in rows:
        half = (o["diff_ci_high"] - o["diff_ci_low"]) / 2
        if half > 0:
            # The interval and the p-value come from the same t with 2 degrees of freedom
            # (a z interval with a t p-value, or the reverse, fails this).
            se = half / t2
            assert o["p_value"] == pytest.approx(S.t_two_sided_p(o["diff"] / se, 2), rel=1e-9), o["metric"]
            assert o["p_value"] != pytest.approx(S.two_sided_p(o["diff"] / se), rel=1e-3)
            checked += 1
    assert checked >= 2
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Only 3 games per rule set: intervals and tests use Student t with 2 degrees of freedom" in out
    # a [x, x] interval on so few is read for what it is (try-out 6)
    assert "an interval of zero width means every value seen was the same, not that the mean is known" in out


# ----------------------------------------------------------------------------- output
def test_labels_are_specs_that_rebuild_the_rule_sets():
    res = toy_compare(["classic", "classic:bolts=off"], overrides=["last_trick_bonus=10", "max_deals=120"])
    assert res.labels == ["classic:last_trick_bonus=10,max_deals=120",
                          "classic:bolts=off,last_trick_bonus=10,max_deals=120"]
    assert [parse_rules_spec(lab) for lab in res.labels] == res.rules


def test_table_shows_p_and_holm_p():
    res = toy_compare(["classic", "classic:bolts=off", "classic:target=500,barrel_at=none"],
                      metrics=["bolt_penalties", "deals_mean"])
    table = C.result_table(res)
    lines = table.splitlines()
    top = next(i for i, ln in enumerate(lines) if ln.startswith("metric"))   # below the summary
    header = lines[top].split()
    assert header[header.index("p"):header.index("p") + 3] == ["p", "p", "(Holm)"]
    row = res.row("deals_mean", 2)
    line = next(ln for ln in lines[top:] if ln.split()[:1] == ["classic:target=500,barrel_at=none"]
                and "pp" not in ln and "same" not in ln and ln.strip())
    assert C._fmt_p(row.p_value) in line and C._fmt_p(row.p_holm) in line
    assert "| p | p (Holm) |" in C.result_markdown(res)


@pytest.mark.parametrize("values, signed, text", [
    ((0.0, 0.0, 1.0), True, "+0.00 [+0.00, +1.00]"),
    ((-100.0, -120.4, -79.6), True, "-100.0 [-120.4, -79.6]"),
    ((0.5, 0.004, 0.9), False, "0.500 [0.004, 0.900]"),
    ((0.25, 0.2, 0.3), False, "25.00% [20.00%, 30.00%]"),
])
def test_value_and_interval_share_one_precision(values, signed, text):
    unit = "share" if text.endswith("%]") else "points"
    assert C._fmt_interval(*values, unit, signed=signed) == text


# ----------------------------------------------------------------------------- workers
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.filterwarnings("ignore:.*tasks which were still being processed")
def test_interrupted_compare_leaves_no_workers():
    rules = parse_rules_spec("classic:max_deals=40")
    seen = set()

    def interrupt(_):
        seen.update(loky_workers(os.getpid()))
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        C.play_paired(rules, "deals", 0, 40, 2000, 1, "greedy", 2,
                      reduce=lambda g, d: (C.pl.DataFrame({"unit": [0]}), np.zeros(0, np.int64)),
                      on_chunk=interrupt)
    assert seen and gone(seen), seen


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_killed_compare_takes_its_workers_along():
    # SIGKILL (what the OOM killer sends) gives the process no chance to stop its
    # workers; they must not go on computing, orphaned.
    script = textwrap.dedent("""
        import sys
        from thousand.analysis.compare import compare_rules
        compare_rules(["classic", "russian"], n_deals=10_000_000, jobs=2, strategies="greedy",
                      progress=False)
    """)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO / "src"), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.Popen([sys.executable, "-c", script], env=env, cwd=REPO)
    assert orphans_after_sigkill(proc, settle=3.0) == set()


def test_an_interval_and_a_test_that_disagree_at_the_edge_are_named():
    # report: "-8.00pp [-15.53pp, -0.34pp]" next to p 0.0559 with nothing said (try-out 8)
    from thousand.analysis.compare import MetricRow, _interval_test_disagreements

    def row(lo, hi, p, index=1):
        return MetricRow("win_seat1", "russian", index, "proportion", "share", "", 0.3, 0.2, 0.4, 200,
                         diff=(lo + hi) / 2, diff_ci_low=lo, diff_ci_high=hi, p_value=p)
    rows = [row(-0.155, -0.003, 0.0559), row(-0.1, 0.02, 0.2), row(-0.1, -0.02, 0.01), row(-0.1, 0.02, 0.03),
            row(-0.1, -0.01, 0.9, index=0)]
    assert _interval_test_disagreements(rows) == ["win_seat1 (russian)", "win_seat1 (russian)"]
    assert _interval_test_disagreements(rows[1:3]) == []
    # --json and the CSV say it too: it was in the text only (try-out 30)
    assert [r.as_dict()["interval_test_split"] for r in rows] == [True, False, False, True, None]


def test_a_count_seen_only_a_few_times_gets_a_note_on_its_interval():
    # russian's 555 resets at 100 games (about 7): 9% of the 95% intervals missed (try-out 30)
    from thousand.analysis.compare import FEW_EVENTS, MetricRow, _build_metrics, _rare_count_notes, _rare_counts

    chosen = _build_metrics(3)

    def row(metric, value, n, index=1):
        return MetricRow(metric, "russian", index, "mean", "per game", "", value, value - 0.05, value + 0.05, n)
    rows = [row("resets_555", 0.07, 100), row("resets_555", 0.07, 4000), row("cut_penalties", 0.0, 100),
            row("redeals", 0.07, 100), row("resets_555", 0.01, 100, index=0), row("declarer_success", 0.07, 100)]
    notes = _rare_count_notes(_rare_counts(rows, chosen))
    assert [(i, m) for i, m, _ in notes] == [(1, "resets_555"), (1, "redeals"), (0, "resets_555")]
    assert notes[0][2] == ("russian: resets_555 happened only 7 times in 100 games: the intervals of so rare a "
                           "count cover less than 95% (measured: about 91% at 7 events, 94% at 21); play more games")
    assert "only 1 time in 100 games" in notes[2][2]
    assert not _rare_counts([row("resets_555", FEW_EVENTS / 1000, 1000)], chosen)   # 20 events: enough
