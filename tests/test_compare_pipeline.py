"""The comparison pipeline on small hand-made frames and a toy simulator.

The toy simulator (``helpers.compare_toys``) draws, for every chunk, from
``chunk_seed(seed, k)`` exactly as the runner does, so rule sets given the same seed
share their "shuffles"; its rules effects are simple and known, which lets the tests
check the plumbing (pairing, rounds, outputs) apart from the engine.  The real engine is exercised in ``test_compare_engine.py``.
"""
import json
import math

import polars as pl
import pytest

from thousand import schema
from thousand.analysis.compare import (
    ComparisonResult, compare_units, result_markdown, result_table, select_metrics,
    unit_table, write_outputs,
)
from thousand.errors import ThousandError
from thousand.rules import parse_rules_spec

from helpers.compare_toys import toy_compare

CLASSIC = parse_rules_spec("classic")


def games_frame(rows: list[dict], players: int = 3) -> pl.DataFrame:
    cols = schema.empty_columns(schema.game_columns(players), len(rows))
    for i, r in enumerate(rows):
        for k, v in r.items():
            cols[k][i] = v
    return pl.DataFrame(cols)


def deals_frame(rows: list[dict], players: int = 3) -> pl.DataFrame:
    cols = schema.empty_columns(schema.deal_columns(players), len(rows))
    cols["declarer"][:] = -1
    for i, r in enumerate(rows):
        cols["deal_id"][i] = i
        for k, v in r.items():
            cols[k][i] = v
    return pl.DataFrame(cols)


# ----------------------------------------------------------------------------- unit tables
def test_unit_table_game_and_deal_metrics_by_hand():
    games = games_frame([
        dict(game_id=0, first_dealer=2, winner=0, deals=3, final0=1000, final1=400, final2=-120,
             barrel_entries1=1, bolt_penalties0=1, bolt_penalties2=2),
        dict(game_id=1, first_dealer=0, winner=-1, deals=2, final0=10, final1=20, final2=30),
    ])
    deals = deals_frame([
        # game 0: a redeal, then three played deals
        dict(game_id=0, dealer=2, redeal=1, declarer=-1),
        dict(game_id=0, dealer=2, declarer=0, contract=120, made=True, score0=120, score1=35, score2=10,
             points0=90, marriages0=40, points1=20, points2=10, declarer_points=130),
        dict(game_id=0, dealer=0, declarer=1, contract=100, made=False, score0=40, score1=-100, score2=60,
             points0=40, points1=30, marriages2=60, points2=50, declarer_points=30),
        dict(game_id=0, dealer=1, declarer=2, contract=110, resigned=True, score0=55, score1=55, score2=-110),
        # game 1: two played deals
        dict(game_id=1, dealer=0, declarer=1, contract=100, made=True, score0=5, score1=100, score2=15,
             points0=5, points1=100, points2=15),
        dict(game_id=1, dealer=1, declarer=1, contract=100, made=True, obligation=True, score0=0, score1=100,
             score2=20, points1=100, points2=20),
    ])
    metrics = select_metrics([CLASSIC], "games", [
        "deals_mean", "win_seat0", "win_first_forehand", "no_winner", "barrel_entries", "bolt_penalties",
        "score_spread", "declarer_success", "redeal_rate", "obligation_rate", "resign_rate",
        "contract_mean", "declarer_score", "points_declarer", "points_defender", "score_forehand",
        "score_dealer"])
    t = unit_table(games, deals, metrics, 3)
    row0, row1 = t.row(0, named=True), t.row(1, named=True)
    assert t["unit"].to_list() == [0, 1]
    assert (row0["deals_mean.num"], row0["win_seat0.num"], row1["no_winner.num"]) == (3, 1, 1)
    # first dealer 2 -> first forehand seat 0, the winner.
    assert (row0["win_first_forehand.num"], row1["win_first_forehand.num"]) == (1, 0)
    assert (row0["barrel_entries.num"], row0["bolt_penalties.num"]) == (1, 3)
    assert (row0["score_spread.num"], row1["score_spread.num"]) == (1120, 20)
    assert (row0["declarer_success.num"], row0["declarer_success.den"]) == (1, 3)
    assert (row0["redeal_rate.num"], row0["redeal_rate.den"]) == (1, 4)
    assert (row1["obligation_rate.num"], row0["resign_rate.num"]) == (1, 1)
    assert (row0["contract_mean.num"], row0["contract_mean.den"]) == (330, 3)
    assert row0["declarer_score.num"] == 120 - 100 - 110
    # Played out (not resigned): declarer points 130 + 30; defenders (20+10)/2 + (40+110)/2.
    assert (row0["points_declarer.num"], row0["points_declarer.den"]) == (160, 2)
    assert row0["points_defender.num"] == 15 + 75
    # Forehand = the seat after the dealer: dealer 2 -> seat 0 (+120), dealer 0 -> seat 1
    # (-100), dealer 1 -> seat 2 (-110).
    assert row0["score_forehand.num"] == 120 - 100 - 110
    assert row0["score_dealer.num"] == 10 + 40 + 55
    assert (row1["score_forehand.num"], row1["score_dealer.num"]) == (100 + 20, 5 + 100)


def test_deal_slots_pair_played_deals_across_redeals():
    # Rule set A redeals twice; B never does.  Slots pair the i-th played deal of each.
    a = deals_frame([dict(redeal=1), dict(declarer=0, made=True), dict(declarer=1, made=False),
                     dict(redeal=2, declarer=2), dict(redeal=1), dict(declarer=2, made=True)])
    b = deals_frame([dict(declarer=0, made=True), dict(declarer=1, made=True), dict(declarer=2, made=True)])
    metrics = select_metrics([CLASSIC], "deals", ["declarer_success", "redeal_rate"])
    ta, tb = unit_table(None, a, metrics, 3), unit_table(None, b, metrics, 3)
    assert ta["unit"].to_list() == tb["unit"].to_list() == [0, 1, 2]
    assert ta["redeal_rate.num"].to_list() == [1, 0, 2]
    assert ta["redeal_rate.den"].to_list() == [2, 1, 3]
    assert ta["declarer_success.num"].to_list() == [1, 0, 1]
    rows = compare_units(["a", "b"], [ta, tb], metrics)
    d = next(r for r in rows if r.metric == "declarer_success" and r.rules == "b")
    assert d.diff == pytest.approx(1 / 3)


def test_game_metrics_refused_for_deal_runs_and_unknown_names():
    with pytest.raises(ThousandError, match="needs whole games"):
        select_metrics([CLASSIC], "deals", ["deals_mean"])
    with pytest.raises(ThousandError, match="unknown metric 'deal_mean'.*did you mean deals_mean"):
        select_metrics([CLASSIC], "games", ["deal_mean"])


def test_metrics_follow_enabled_options():
    names = {m.name for m in select_metrics([CLASSIC], "games")}
    assert {"barrel_entries", "bolt_penalties", "resignations"} <= names
    assert not {"blind_deals", "golden_reset", "resets_555", "cut_penalties"} & names
    blind = parse_rules_spec("classic:blind=on,golden_kon=on")
    names = {m.name for m in select_metrics([CLASSIC, blind], "games")}
    assert {"blind_deals", "blind_made", "golden_reset"} <= names
    off = parse_rules_spec("classic:bolts=off,barrel_at=none")
    names = {m.name for m in select_metrics([off, off], "games")}
    assert not {"bolt_penalties", "barrel_entries", "bolts_per_deal"} & names


# ----------------------------------------------------------------------------- on the toy simulator
def test_identical_rule_sets_give_exact_zero_differences():
    res = toy_compare(["classic", "classic"], allow_duplicates=True)
    variant = [r for r in res.rows if r.rules_index == 1]
    assert variant and all(r.diff == 0.0 for r in variant)
    assert all(r.identical_pairs for r in variant)
    assert all(r.p_value in (None, 1.0) for r in variant)
    assert all(r.diff_ci_low <= 0.0 <= r.diff_ci_high for r in variant)
    assert res.labels == ["classic", "classic #2"]


def test_toy_directions_and_pairing():
    res = toy_compare(["classic", "classic:bolts=off", "classic:target=500,barrel_at=none"])
    bolts = res.row("bolt_penalties", "classic:bolts=off")
    assert bolts.diff < 0 and bolts.diff_ci_high < 0 and bolts.p_holm < 1e-6
    assert res.row("bolt_penalties", 2).identical_pairs
    short = res.row("deals_mean", 2)
    assert short.diff == pytest.approx(-res.row("deals_mean", 0).value / 2, rel=0.02)
    # Game length shares the "shuffle" u: pairing must narrow the interval a lot.
    assert short.pairing_gain > 2
    assert res.row("barrel_entries", 2).value == 0.0


def test_precision_rounds_continue_the_seed_sequence():
    first = toy_compare(["classic", "classic:bolts=off"], metrics=["win_seat0", "bolt_penalties"])
    more = toy_compare(["classic", "classic:bolts=off"], metrics=["win_seat0", "bolt_penalties"],
                       precision=0.03, max_units=20_000)
    assert more.rounds > 1 and more.precision_met
    assert more.worst_width() < 0.03 and more.n > first.n and more.n % 200 == 0
    # The first round's games are kept: a plain run of the final size gives the same numbers.
    plain = toy_compare(["classic", "classic:bolts=off"], metrics=["win_seat0", "bolt_penalties"],
                        n_games=more.n)
    assert [r.as_dict() for r in plain.rows] == [r.as_dict() for r in more.rows]


def test_precision_cap_reported():
    res = toy_compare(["classic", "classic:bolts=off"], metrics=["bolt_penalties"], precision=1e-4,
                      max_units=1000)
    assert res.precision_met is False and res.n == 1000
    assert "NOT met" in result_table(res)


def test_bad_input_is_one_line_error():
    with pytest.raises(ThousandError, match="at least two rule sets"):
        toy_compare(["classic"])
    with pytest.raises(ThousandError, match="precision must be a positive"):
        toy_compare(["classic", "russian"], precision=0)
    with pytest.raises(ThousandError, match="precision must be a positive"):
        toy_compare(["classic", "russian"], precision=-1.0)
    with pytest.raises(ThousandError, match="unknown metric"):
        toy_compare(["classic", "russian"], metrics=["nope"])
    with pytest.raises(ThousandError, match="either a number of games or a number of deals"):
        toy_compare(["classic", "russian"], n_deals=10)
    with pytest.raises(ThousandError, match="watches no selected metric"):
        toy_compare(["classic", "russian"], metrics=["deals_median"], precision=1.0)
    # which rule set has which size, named (try-out 12)
    with pytest.raises(ThousandError, match=r"same number of players \(classic: 3, classic:players=4: 4\)"):
        toy_compare(["classic", "classic:players=4"])


def test_json_rows_and_outputs(tmp_path):
    res = toy_compare(["classic", "classic:bolts=off"], overrides=["target=800,barrel_at=700"])
    assert res.rules[0].target == 800 and res.rules[1].bolts == "off"
    data = json.loads(json.dumps(res.to_json()))
    keys = {"rules", "metric", "value", "ci_low", "ci_high", "diff", "diff_ci_low", "diff_ci_high",
            "p_value", "p_holm"}
    assert all(keys <= set(o) for o in data)
    assert len(data) == 2 * len(res.metrics)
    base = [o for o in data if o["rules_index"] == 0]
    assert all(o["diff"] is None and o["p_holm"] is None for o in base)
    md = write_outputs(res, tmp_path / "cmp")
    for name in ("compare.md", "compare.csv", "compare.json", "compare_forest.png"):
        assert (tmp_path / "cmp" / name).stat().st_size > 0
    assert md == (tmp_path / "cmp" / "compare.md").read_text()
    assert "| `bolt_penalties` |" in md and "compare_forest.png" in md and "Holm" in md
    csv = pl.read_csv(tmp_path / "cmp" / "compare.csv")
    assert {"metric", "rules", "value", "diff", "p_holm", "pairing_gain"} <= set(csv.columns)
    assert csv.height == len(res.rows)
    png = (tmp_path / "cmp" / "compare_forest.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_markdown_section_level_for_the_report():
    res = toy_compare(["classic", "classic:bolts=off"], metrics=["deals_mean", "deals_median"])
    md = result_markdown(res, level=3)
    assert md.startswith("### House-rule comparison")
    assert "#### Deals per game" in md and "#### Methods" in md


# ----------------------------------------------------------------------------- the runner adapter
def test_simulate_chunks_through_the_runner():
    """The deal-mode source drives the real runner; later chunks continue the seed sequence."""
    from thousand.analysis.compare import simulate_chunks

    rules = parse_rules_spec("classic:max_deals=20")
    games, deals = simulate_chunks(rules, "games", 2, 2, 5, 7, "greedy", 1)
    assert games["game_id"].to_list() == list(range(10, 20))
    assert set(deals["game_id"].unique().to_list()) == set(range(10, 20))
    assert sorted(games["chunk"].unique().to_list()) == [2, 3]
    # Chunk 2 is the same whether it is asked alone or after chunks 0 and 1.
    alone, _ = simulate_chunks(rules, "games", 2, 1, 5, 7, "greedy", 1)
    assert alone.equals(games.filter(pl.col("chunk") == 2))
    _, only_deals = simulate_chunks(rules, "deals", 1, 1, 40, 7, "greedy", 1)
    assert only_deals["chunk"].unique().to_list() == [1]
    assert (only_deals["redeal"] == 0).sum() == 40


def test_outputs_can_go_to_report_folders(tmp_path):
    res = toy_compare(["classic", "classic:bolts=off"], metrics=["bolt_penalties"])
    md = write_outputs(res, tmp_path, level=3, tables_dir=tmp_path / "tables", figures_dir=tmp_path / "charts")
    assert (tmp_path / "tables" / "compare.csv").exists() and (tmp_path / "charts" / "compare_forest.png").exists()
    assert "(charts/compare_forest.png)" in md and md.startswith("### ")
