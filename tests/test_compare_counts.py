"""``compare`` runs exactly the games (deals) asked for and never passes a --max-games cap."""
import thousand.analysis.compare as C
from helpers.compare_toys import toy_simulator

SPECS = ["classic", "classic:bolts=off"]


def recorded(**kw):
    calls = []

    def recording(rules, mode, first_chunk, n_chunks, chunk_size, *args, **more):
        calls.append((first_chunk, n_chunks, chunk_size))
        return toy_simulator(rules, mode, first_chunk, n_chunks, chunk_size, *args, **more)

    res = C.compare_rules(SPECS, seed=5, jobs=1, simulator=recording, **kw)
    return res, calls


def test_an_odd_count_is_run_exactly_with_a_shorter_last_chunk():
    # 401 games in chunks of at most 250: 201 + 200, not 2 x 201 = 402.
    res, calls = recorded(n_games=401, metrics=["bolt_penalties"])
    assert res.n == 401
    assert sorted(set(calls)) == [(0, 1, 201), (1, 1, 200)]


def test_precision_rounds_never_pass_the_cap():
    # First round 150 games (one chunk of 150), then whole chunks, the last cut at the cap.
    res, calls = recorded(n_games=150, precision=1e-6, max_units=400, metrics=["bolt_penalties"])
    assert res.precision_met is False and res.n == 400
    assert sum(k * size for _, k, size in calls) == 400 * len(SPECS)
    chunks = sorted({(first, size) for first, _, size in calls})
    assert chunks[-1][1] < 150      # the last chunk was cut short


def test_a_short_last_chunk_does_not_depend_on_the_workers():
    kw = dict(n_games=7, chunk_size=3, strategies="greedy", overrides=["max_deals=60"],
              metrics=["deals_mean", "declarer_success"], seed=3)
    one = C.compare_rules(SPECS, jobs=1, backend="threads", **kw)
    two = C.compare_rules(SPECS, jobs=2, backend="threads", **kw)
    assert one.n == 7
    assert [r.as_dict() for r in one.rows] == [r.as_dict() for r in two.rows]


def test_precision_summary_names_the_widest_metric_and_the_share_unit():
    from thousand.analysis.compare import result_table
    res, _ = recorded(n_games=150, precision=1e-6, max_units=300, metrics=["win_seat0"])
    line = next(x for x in result_table(res).splitlines() if x.startswith("Precision target"))
    width = res.worst_width()
    assert f"(win_seat0, a share: {100 * width:.4g} percentage points)" in line
    assert "1e-06 = 0.0001 percentage points" in line


def test_labels_show_the_rules_as_finally_applied():
    res, _ = recorded(n_games=20, metrics=["bolt_penalties"], labels=None,
                      overrides=["barrel_at=none"])
    assert res.labels == ["classic:barrel_at=none", "classic:bolts=off,barrel_at=none"]
    spec = ["classic:bolts=off,barrel_at=900", "classic"]
    res = C.compare_rules(spec, n_games=20, seed=5, jobs=1, simulator=toy_simulator,
                          metrics=["bolt_penalties"], overrides=["barrel_at=none"])
    assert res.labels == ["classic:bolts=off,barrel_at=none", "classic:barrel_at=none"]
    # The same rule set twice (allowed as a check of the method) still gets two labels.
    res = C.compare_rules(["classic:barrel_at=900", "classic"], n_games=20, seed=5, jobs=1,
                          simulator=toy_simulator, metrics=["win_seat0"], overrides=["barrel_at=880"],
                          allow_duplicates=True)
    assert res.labels == ["classic:barrel_at=880", "classic:barrel_at=880 #2"]
