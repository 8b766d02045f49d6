"""How well the bots play (``thousand.analysis.play_quality``): the sample is the run's
deals, the losses are sums of per-card value changes computed here independently, the
table's counts, shares and intervals are those of the per-deal rows, and the report
shows the section."""
import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from thousand import solver
from thousand.analysis import play_quality as pq
from thousand.analysis.stats import bootstrap_mean_interval, mean_interval, wilson_interval
from thousand.reference import solver as ref
from thousand.rules import CLASSIC, parse_rules_spec


@pytest.fixture(scope="module")
def sample():
    return pq.play_sample(CLASSIC, None, 60, seed=3)


@pytest.fixture(scope="module")
def per_deal(sample):
    return pq.line_quality(sample, jobs=1, progress=False)


def test_the_sample_is_the_first_deals_of_the_run(tmp_path):
    from thousand.simulate import run

    n = 50
    sample = pq.play_sample(CLASSIC, None, n, seed=7)
    rows = run("deals", 2_000, CLASSIC, seed=7, jobs=1, out=tmp_path / "d", progress=False).frame().collect()
    played = sample.columns["deal_id"].shape[0]
    for col in ("hand0", "hand1", "hand2", "talon", "declarer", "contract", "declarer_points", "handoff_next"):
        assert np.array_equal(rows[col].to_numpy()[:played], sample.columns[col]), col


def test_losses_are_the_sums_of_per_card_changes_solved_one_position_at_a_time(sample, per_deal):
    # independently of thousand.lines: the positions are the play rules applied to the
    # traced events, each solved alone with solver.value; the costs are added up here

    assert per_deal.height == len(sample.lines) > 30
    for k in (0, 7, 19):
        line = sample.lines[k]
        row = per_deal.row(k, named=True)
        p, values, mover = line.start, [], []
        for seat, card, declare in line.moves:
            values.append(solver.value(p, line.declarer))
            mover.append(seat)
            p = p.play(card, declare)
        values.append(p.deal_points(line.declarer))
        drops = [values[i] - values[i + 1] for i in range(len(mover)) if mover[i] == line.declarer]
        rises = [values[i + 1] - values[i] for i in range(len(mover)) if mover[i] != line.declarer]
        assert all(d >= 0 for d in drops) and all(r >= 0 for r in rises)
        assert row["declarer_loss"] == sum(drops) and row["defence_loss"] == sum(rises)
        assert row["start_value"] == values[0] and row["taken"] == values[-1]
        assert row["makeable_start"] == (values[0] >= line.contract)
        assert row["makeable_any"] == any(v >= line.contract for v in values[:-1])
        assert row["beatable_any"] == any(v < line.contract for v in values[:-1])
        assert row["declarer_errors"] == sum(d > 0 for d in drops)
        assert row["contract"] == sample.columns["contract"][sample.rows[k]]


def test_the_hand_off_loss_is_the_best_hand_off_against_the_one_made(sample, per_deal):
    # independently of play_quality: the hands before the hand-off from the kernel's
    # columns, every hand-off solved, the best against the value after the one made
    assert (per_deal["hand_off_loss"] >= 0).all()
    assert (per_deal["hand_off_loss"] == per_deal["hand_off_value"] - per_deal["start_value"]).all()
    assert (per_deal["hand_off_loss"] > 0).any()
    assert (per_deal["makeable_hand_off"] == (per_deal["hand_off_value"] >= per_deal["contract"])).all()
    # the hand-off made is one of the hand-offs: makeable after it is makeable with the best
    assert (per_deal["makeable_hand_off"] | ~per_deal["makeable_start"]).all()
    for k in (0, 7):
        i = int(sample.rows[k])
        pos, d = solver.play_start(CLASSIC, sample.columns, i, hand_off=False)
        every = solver.hand_off_values(CLASSIC, pos.hands, pos.active, d)
        row = per_deal.row(k, named=True)
        assert row["hand_off_value"] == max(every.values())
        made = (int(sample.columns["handoff_next"][i]), int(sample.columns["handoff_other"][i]))
        assert row["start_value"] == every[made]


def test_the_last_tricks_agree_with_the_reference_solver(sample):
    line = sample.lines[4]
    positions = line.positions()
    from thousand.lines import solve_line
    lv = solve_line(line)
    for k in range(15, 24):
        assert lv.values[k] == ref.solve(positions[k], line.declarer)


def test_the_per_deal_rows_add_up_and_the_workers_do_not_change_them(sample, per_deal):
    assert (per_deal["taken"] == per_deal["start_value"] - per_deal["declarer_loss"]
            + per_deal["defence_loss"]).all()
    assert (per_deal["made"] == (per_deal["taken"] >= per_deal["contract"])).all()
    assert (per_deal["made"] == pl.Series(sample.columns["made"][sample.rows])).all()
    # a failed contract makeable at the first lead was lost by the declarer's cards
    lost = per_deal.filter(~pl.col("made") & pl.col("makeable_start"))
    assert (lost["declarer_loss"] > 0).all()
    assert_frame_equal(pq.line_quality(sample, jobs=2, backend="threads", progress=False), per_deal)


def test_every_table_size_and_another_strategy():
    for spec in ("classic:players=4", "classic:players=2", "russian"):
        frame = pq.bot_play_quality(parse_rules_spec(spec), None, 8, seed=2)
        assert frame.height > 0
        assert (frame["taken"] == frame["start_value"] - frame["declarer_loss"] + frame["defence_loss"]).all()
    greedy = pq.bot_play_quality(CLASSIC, "greedy", 8, seed=2)
    assert set(greedy["strategy"]) == {"greedy"}


def test_the_table_counts_shares_and_intervals_come_from_the_rows():
    rows = pl.DataFrame({
        "strategy": ["s"] * 6,
        "contract": [100, 100, 110, 130, 160, 200],
        "made": [True, False, False, True, True, False],
        "start_value": [120, 90, 115, 130, 150, 210],
        "taken": [110, 80, 100, 140, 170, 190],
        "hand_off_value": [125, 90, 115, 134, 150, 215],
        "hand_off_loss": [5, 0, 0, 4, 0, 5],
        "declarer_loss": [10, 10, 15, 0, 0, 20],
        "defence_loss": [0, 0, 0, 10, 20, 0],
        "makeable_hand_off": [True, True, True, True, True, True],
        "makeable_start": [True, False, True, True, False, True],
        "makeable_any": [True, False, True, True, True, True],
        "beatable_start": [False, True, False, False, True, False],
        "beatable_any": [False, True, False, False, True, True],
    })
    t = pq.quality_table(rows)
    assert t["band"].to_list() == ["100", "105-120", "125-150", "155+", "all"]
    assert t["deals"].to_list() == [2, 1, 1, 2, 6]
    everything = t.row(4, named=True)
    assert everything["failed"] == 3 and everything["failed_makeable_start"] == 2
    assert everything["failed_makeable_hand_off"] == 3 and everything["failed_makeable_hand_off_share"] == 1.0
    assert everything["made"] == 3 and everything["made_beatable_start"] == 1 and everything["made_beatable_any"] == 1
    lo, hi = wilson_interval(2, 3)
    assert everything["failed_makeable_start_share"] == pytest.approx(2 / 3)
    assert (everything["failed_makeable_start_ci_low"], everything["failed_makeable_start_ci_high"]) == \
        pytest.approx((float(lo), float(hi)))
    losses = np.array([10, 10, 15, 0, 0, 20], dtype=float)
    assert everything["mean_declarer_loss"] == pytest.approx(losses.mean())
    assert everything["mean_hand_off_loss"] == pytest.approx(14 / 6) and everything["mean_hand_off_value"] == \
        pytest.approx(829 / 6)
    assert (everything["mean_hand_off_loss_ci_low"], everything["mean_hand_off_loss_ci_high"]) == \
        bootstrap_mean_interval(np.array([5, 0, 0, 4, 0, 5], dtype=float))
    # the losses' means: the BCa bootstrap of the rows (in any order), within their support
    assert (everything["mean_declarer_loss_ci_low"], everything["mean_declarer_loss_ci_high"]) == \
        bootstrap_mean_interval(losses[::-1]) == pq.quality_table(rows.reverse())["mean_declarer_loss_ci_low",
                                                                                   "mean_declarer_loss_ci_high"].row(4)
    assert 0 <= everything["mean_declarer_loss_ci_low"] < losses.mean() < everything["mean_declarer_loss_ci_high"] <= 20
    # two deals losing 0 and 20: Student t would reach far below 0; the bootstrap stays in [0, 20]
    top = t.row(3, named=True)
    assert mean_interval(10.0, np.std([0, 20], ddof=1), 2)[0] < 0
    assert 0 <= top["mean_defence_loss_ci_low"] < 10 < top["mean_defence_loss_ci_high"] <= 20
    # two deals with the same loss (10, 10): no interval is known, not a zero-width [10, 10]
    low = t.row(0, named=True)
    assert low["mean_declarer_loss"] == 10 and low["mean_declarer_loss_ci_low"] is None \
        and low["mean_declarer_loss_ci_high"] is None and low["sd_declarer_loss"] == 0
    one = t.row(1, named=True)   # one deal: no interval for the mean, a failed contract makeable
    assert one["mean_declarer_loss_ci_low"] is None and one["failed_makeable_start_share"] == 1.0
    # no made contract in the band: no share (0/0) and no interval
    assert np.isnan(one["made_beatable_start_share"]) and one["made_beatable_start_ci_low"] is None


def test_the_report_shows_the_section_and_writes_its_data(tmp_path):
    from thousand.analysis.report import ReportConfig, build_report

    r = build_report(ReportConfig(out=tmp_path, deals=400, hands=2, samples=2, games=2, seed=3, jobs=1,
                                  presets=False, play_deals=30, progress=False, log=lambda s: None))
    md = r.markdown.read_text()
    assert "## How well the bots play (classic)" in md and "charts/play_quality.png" in md
    data = pl.read_parquet(tmp_path / "data" / "play_quality.parquet")
    assert_frame_equal(data, pq.bot_play_quality(CLASSIC, None, 30, seed=3))
    table = pl.read_csv(r.tables["play_quality"])
    assert table.filter(pl.col("band") == "all")["deals"].item() == data.height
    assert r.charts["play_quality"].stat().st_size > 0
    assert "--play-deals 30" in md


def test_play_deals_zero_leaves_the_section_out(tmp_path):
    from thousand.analysis.report import ReportConfig, build_report

    r = build_report(ReportConfig(out=tmp_path, deals=200, hands=2, samples=2, games=2, seed=3, jobs=1,
                                  presets=False, play_deals=0, progress=False, log=lambda s: None))
    assert "Not computed: `--play-deals 0`." in r.markdown.read_text()
    assert "play_quality" not in r.tables and not (tmp_path / "data" / "play_quality.parquet").exists()


def test_same_decks_deal_the_same_cards_to_any_strategies():
    a = pq.play_sample(CLASSIC, "standard", 20, seed=4, same_decks=True)
    b = pq.play_sample(CLASSIC, "random", 20, seed=4, same_decks=True)
    first = a.columns["hand0"][0], a.columns["hand1"][0], a.columns["talon"][0]
    assert first == (b.columns["hand0"][0], b.columns["hand1"][0], b.columns["talon"][0])
    # each played deal's first attempt is dealt alike (a redeal's next attempt too, but
    # the strategies may redeal different deals): the row after a played deal starts the next
    def first_attempts(s):
        redeal = s.columns["redeal"] != 0
        first = np.flatnonzero(np.concatenate([[True], ~redeal[:-1]]))
        return [tuple(int(s.columns[c][i]) for c in ("hand0", "hand1", "hand2", "talon", "dealer")) for i in first]
    assert first_attempts(a)[:20] == first_attempts(b)[:20]
    # without it, a strategy's draws move the one stream: the later decks differ
    one = [pq.play_sample(CLASSIC, spec, 20, seed=4) for spec in ("standard", "random")]
    assert first_attempts(one[0])[1:20] != first_attempts(one[1])[1:20]


@pytest.fixture(scope="module")
def defended():
    return pq.defence_quality(CLASSIC, "standard", "pimc", 24, seed=5, jobs=1, progress=False)


def test_the_defence_comparison_replays_the_same_deals_with_only_the_defence_changed(defended):
    base = defended.filter(pl.col("strategy") == "standard")
    other = defended.filter(pl.col("strategy") == "standard v pimc")
    # the base part is the base strategy's own sample on the same decks
    assert_frame_equal(base, pq.bot_play_quality(CLASSIC, "standard", 24, seed=5, same_decks=True))
    # every deal both played out: the same declarer, contract and position at the first
    # lead (the auction, talon and hand-off are the declaring strategy's), so the same
    # open-hand value; only the play after it differs
    pairs = base.join(other, on="row", suffix="_pimc")
    assert pairs.height == base.height == other.height > 0
    for col in ("declarer", "contract", "start_value"):
        assert pairs[col].to_list() == pairs[f"{col}_pimc"].to_list(), col
    # and the defence did change something: pimc's defenders do not play standard's cards
    assert pairs["defence_loss"].to_list() != pairs["defence_loss_pimc"].to_list()
    # the ratio is that of the two sums over the pairs
    r = pq.defence_ratio(defended, "standard", "standard v pimc")
    assert r.value == pytest.approx(pairs["defence_loss_pimc"].sum() / pairs["defence_loss"].sum())
    assert r.low < r.value < r.high and r.n == pairs.height


def test_the_defended_deals_are_the_deals_the_base_declares_in_each_pass():
    # seat d plays standard against pimc at the other seats; the deal belongs to the pass
    # where its declarer is the standard seat: check it against a pass played here
    frame = pq.defence_quality(CLASSIC, "standard", "pimc", 12, seed=8, jobs=1, progress=False)
    other = frame.filter(pl.col("strategy") == "standard v pimc")
    for d in range(3):
        specs = ["standard" if s == d else "pimc" for s in range(3)]
        alone = pq.bot_play_quality(CLASSIC, specs, 12, seed=8, same_decks=True).filter(pl.col("declarer") == d)
        mine = other.filter(pl.col("declarer") == d).drop("strategy")
        assert_frame_equal(mine, alone.drop("strategy"))


def test_a_defender_that_changes_the_auction_is_refused():
    from thousand.errors import ThousandError

    # greedy bids otherwise than standard: the deals would not be the same deals
    with pytest.raises(ThousandError, match="'greedy' defending changes the deals' "):
        pq.defence_quality(CLASSIC, "standard", "greedy", 30, seed=5, jobs=1, progress=False)


def test_the_report_shows_the_defence_comparison(tmp_path):
    from thousand.analysis.report import ReportConfig, build_report

    r = build_report(ReportConfig(out=tmp_path, deals=400, hands=2, samples=2, games=2, seed=3, jobs=1,
                                  presets=False, play_deals=30, defence_deals=10, progress=False,
                                  log=lambda s: None))
    md = r.markdown.read_text()
    assert "### Against a search player's defence (pimc)" in md and "--defence-deals 10" in md
    data = pl.read_parquet(tmp_path / "data" / "play_defence.parquet")
    assert_frame_equal(data, pq.defence_quality(CLASSIC, "standard", "pimc", 10, seed=3, jobs=1, progress=False))
    ratio = pq.defence_ratio(data, "standard", "standard v pimc")
    assert f"**{ratio.value:.2f} " in md
    table = pl.read_csv(r.tables["play_defence"])
    assert sorted(table.filter(pl.col("band") == "all")["strategy"]) == ["standard", "standard v pimc"]


@pytest.mark.parametrize("settings, says", [
    (dict(defence_deals=0), "Not computed: `--defence-deals 0`."),
    (dict(strategies=["standard", "greedy", "standard"]), "Not computed: the run has different strategies"),
    (dict(strategies=["pimc"]), "Not computed: the run's strategy is pimc already."),
])
def test_the_defence_comparison_says_why_it_is_left_out(tmp_path, settings, says):
    from thousand.analysis.report import ReportConfig, build_report

    cfg = dict(out=tmp_path, deals=60, hands=2, samples=2, games=2, seed=3, jobs=1, presets=False, play_deals=4,
               progress=False, log=lambda s: None)
    r = build_report(ReportConfig(**{**cfg, **settings}))
    assert says in r.markdown.read_text()
    assert "play_defence" not in r.tables and not (tmp_path / "data" / "play_defence.parquet").exists()


def test_the_chart_draws_no_zero_width_bar_for_an_unknown_interval():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from thousand.analysis.charts import _known_errorbars

    fig, ax = plt.subplots()
    try:
        _known_errorbars(ax, np.arange(3.0), np.array([10.0, 2.0, 0.0]), np.array([np.nan, 1.0, np.nan]),
                         np.array([np.nan, 3.5, np.nan]))
        (bars,) = ax.containers            # one error bar: the known interval's
        segments = bars.lines[2][0].get_segments()
        assert len(segments) == 1 and np.allclose(segments[0], [[1.0, 1.0], [1.0, 3.5]])
        assert [t.get_text() for t in ax.texts] == ["no CI", "no CI"]
    finally:
        plt.close(fig)


def test_the_report_says_when_a_loss_interval_is_not_known():
    from thousand.analysis.report import _mean_loss_ci

    t = pq.quality_table(pl.DataFrame({
        "strategy": ["s"] * 5, "contract": [100, 100, 110, 160, 170], "made": [True] * 5,
        "start_value": [120] * 5, "hand_off_value": [120] * 5, "hand_off_loss": [0] * 5, "taken": [120] * 5,
        "makeable_hand_off": [True] * 5,
        "declarer_loss": [10, 10, 4, 0, 30],
        "defence_loss": [0, 0, 0, 0, 0], "makeable_start": [True] * 5, "makeable_any": [True] * 5,
        "beatable_start": [False] * 5, "beatable_any": [False] * 5}))
    texts = [_mean_loss_ci(r, "mean_declarer_loss") for r in t.iter_rows(named=True)]
    assert texts[:2] == ["10.0 [no interval: all 2 deals alike]", "4.0 [no interval: 1 deal]"]
    assert texts[2].startswith("15.0 [0.0, ") and texts[2].endswith("30.0]")    # within the two losses
    assert t["band"].to_list() == ["100", "105-120", "155+", "all"]
    assert _mean_loss_ci(t.row(3, named=True), "mean_defence_loss") == "0.0 [no interval: all 5 deals alike]"


def test_the_defence_ratio_says_when_it_has_no_interval_or_a_cut_one():
    # 2 deals (losses 0 and 18 against 0 and 15) read "0.83 [0.83, 0.83]"; 10 deals'
    # "[0.00, 0.76]" did not say the lower end was cut (try-out 10)
    from thousand.analysis.report import _ratio_ci

    def frame(base, defended):
        n = len(base)
        return pl.DataFrame({"strategy": ["s"] * n + ["s v p"] * n, "row": list(range(n)) * 2,
                             "defence_loss": base + defended})
    two = pq.defence_ratio(frame([0, 18], [0, 15]), "s", "s v p")
    assert _ratio_ci(two) == "0.83 [no interval: 2 deals, too few]"
    cut = pq.defence_ratio(frame([20, 1, 0, 30, 2], [0, 3, 5, 1, 0]), "s", "s v p")
    assert cut.low == 0 < cut.value and _ratio_ci(cut).endswith("(its lower end cut at 0: a ratio of losses is never negative)")
    wide = pq.defence_ratio(frame([20, 10, 12, 30, 22, 15], [10, 6, 5, 12, 14, 9]), "s", "s v p")
    assert wide.low > 0 and _ratio_ci(wide) == f"{wide.value:.2f} [{wide.low:.2f}, {wide.high:.2f}]"
