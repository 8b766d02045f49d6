"""A comparison says why it shows nothing: rules never exercised, options that cannot
matter, metrics that apply to no rule set; duplicates are refused; --out never replaces a
file it did not write; explain lists every player (QA session 5: F4, F11-F14)."""
import json

import numpy as np
import pytest

import thousand.analysis.compare as C
from helpers.compare_toys import toy_compare
from thousand.cli import main
from thousand.errors import ThousandError
from thousand.rules import CLASSIC, load_rules_toml, parse_rules_spec, rule_notes

FAST = ["max_deals=120"]


def one_line_error(capsys, argv) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err
    return err


# ----------------------------------------------------------------------------- F4
def test_blind_never_played_is_said_and_a_blind_strategy_clears_it():
    res = C.compare_rules(["classic", "classic:blind=on"], n_games=30, seed=2, jobs=1,
                          metrics=["deals_mean"], overrides=FAST)
    notes = [n for n in res.notes if "blind=on never came into play" in n]
    assert len(notes) == 1 and "no blind deals in 30 games" in notes[0] and "blind_gap" in notes[0]
    assert notes[0] in res.row("deals_mean", 1).notes and not res.row("deals_mean", 0).notes
    assert any(line.startswith("note: ") and "blind_gap" in line for line in C.result_table(res).splitlines())
    assert "blind_gap" in C.result_markdown(res)
    assert "blind_gap" in res.frame()["notes"][1]
    # A strategy that does go blind: the rule came into play, no note.
    played = C.compare_rules(["classic", "classic:blind=on"], n_games=30, seed=2, jobs=1,
                             metrics=["deals_mean"], overrides=FAST, strategies="standard:blind_gap=200")
    assert not any("blind" in n for n in played.notes)
    # Too few deals for a blind-going strategy: no advice to change the strategy.
    short = C.compare_rules(["classic", "classic:blind=on"], n_games=3, seed=2, jobs=1, metrics=["deals_mean"],
                            overrides=["max_deals=2"], strategies="aggressive")
    assert any("no blind deals in 3 games" in n and "play more games" in n and "try --strategy" not in n
               for n in short.notes)


def test_a_deals_run_cannot_show_game_rules():
    res = C.compare_rules(["classic", "classic:golden_kon=on,blind=on"], n_deals=200, seed=2, jobs=1,
                          metrics=["declarer_success"])
    assert any("golden_kon=on cannot come into play in a --deals run" in n and "use --games" in n
               for n in res.notes)


def test_blind_in_a_deals_run_is_counted_not_ruled_out():
    # every deal of a --deals run starts at 0-0: a player who decides at random goes blind
    # there, so blind came into play; the note said it could not (try-out 27)
    res = C.compare_rules(["classic", "classic:blind=on"], n_deals=300, seed=2, jobs=1, strategies="random",
                          metrics=["declarer_success"])
    assert not [n for n in res.notes if "blind" in n]
    # standard never goes blind at 0-0: said so, with what to do
    res = C.compare_rules(["classic", "classic:blind=on"], n_deals=300, seed=2, jobs=1,
                          metrics=["declarer_success"])
    assert [n for n in res.notes if "blind" in n] == [
        "classic:blind=on: blind=on never came into play: no blind deals in 300 deal slots; a --deals run plays "
        "every deal from 0-0, where nobody trails the leader by a strategy's blind_gap (only a strategy that "
        "decides at random goes blind there): use --games"]
    # with golden kon too, a --deals run's blind deals (all at deal_no 0) are voluntary ones
    rules = [parse_rules_spec(s) for s in ("classic", "classic:blind=on,golden_kon=on")]
    zero = {name: 0.0 for name in C._EVENT_COUNTERS}
    early = {**zero, "blind_early": 2.0}
    assert not [n for _, n in C._exercise_notes(["a", "b"], rules, [zero, early], "deals", 10) if "blind=on" in n]
    assert [n for _, n in C._exercise_notes(["a", "b"], rules, [zero, early], "games", 10) if "blind=on" in n]


def test_a_barrel_nobody_reaches_is_said_for_the_rule_set_that_has_it():
    # Three deals cannot reach 880: the barrel rule is never exercised.
    res = C.compare_rules(["classic", "classic:barrel_at=none"], n_games=4, seed=1, jobs=1,
                          metrics=["win_seat0"], overrides=["max_deals=3"])
    assert [n for n in res.notes if "barrel" in n] == [
        "classic:max_deals=3: barrel_at=880 never came into play: no barrel entries in 4 games; "
        "nobody reached barrel_at: play more (or longer) games"]
    assert not toy_compare(["classic:barrel_at=none", "classic"], metrics=["win_seat0"]).notes


def test_exercise_notes_name_only_what_sets_the_rule_set_apart():
    rules = [parse_rules_spec(s) for s in ("classic", "classic:barrel_at=none", "classic:blind=on")]
    zero = {name: 0.0 for name in C._EVENT_COUNTERS}
    some = {**zero, "barrel_entries": 3.0}
    notes = C._exercise_notes(["a", "b", "c"], rules, [zero, zero, some], "games", 10)
    # The baseline's barrel (set apart from b) and c's blind; not c's barrel (same as a's).
    assert [i for i, _ in notes] == [0, 2]
    assert "barrel_at=880 never came into play: no barrel entries in 10 games" in notes[0][1]
    assert "blind=on" in notes[1][1]


def test_barrel_options_that_act_only_on_a_fall_are_noted_when_nobody_fell():
    # barrel entries happened, but no fall (barrel_penalty) or no third fall (barrel_third_reset):
    # all rows 'same' and no note read as "the rule changes nothing" (try-out 22)
    rules = [parse_rules_spec(s) for s in ("classic", "classic:barrel_third_reset=on", "classic:barrel_penalty=200")]
    zero = {name: 0.0 for name in C._EVENT_COUNTERS}
    entered = {**zero, "barrel_entries": 5.0}
    notes = dict(C._exercise_notes(["a", "b", "c"], rules, [entered, entered, entered], "games", 40))
    assert "barrel_third_reset=on never came into play: no players on the barrel a third time" in notes[1]
    assert "barrel_penalty=200 never came into play: no barrel falls or clashes in 40 games" in notes[2]
    fell = {**entered, "barrel_falls": 4.0}
    notes = dict(C._exercise_notes(["a", "b", "c"], rules, [fell, fell, fell], "games", 40))
    assert 2 not in notes and "barrel_third_reset" in notes[1]
    third = {**fell, "barrel_third_sits": 1.0}
    assert 1 not in dict(C._exercise_notes(["a", "b", "c"], rules, [third, third, third], "games", 40))
    # two reaching the barrel together both pay barrel_penalty, and nobody sits (nor falls)
    clash = {**zero, "barrel_clashes": 1.0}
    notes = dict(C._exercise_notes(["a", "b", "c"], rules, [clash, clash, clash], "games", 40))
    assert 2 not in notes and "no barrel entries" not in notes.get(1, "")
    # nobody on the barrel: one note an option, the first event it waits for
    notes = C._exercise_notes(["a", "b", "c"], rules, [zero, zero, zero], "games", 40)
    assert [(i, "no barrel entries" in n) for i, n in notes] == [(0, True), (1, True), (2, True)]


def test_the_unit_ids_of_a_short_last_chunk_follow_the_full_chunks(tmp_path):
    # 5 games in chunks of 2: the last chunk's games were numbered 2*1+g, repeating chunk 1's (try-out 22)
    import polars as pl
    C.compare_rules(["classic", "classic:bolts=off"], n_games=5, seed=3, jobs=1, chunk_size=2,
                    metrics=["deals_mean"], overrides=["max_deals=20"], units=tmp_path / "u")
    for store in ("rules-0", "rules-1"):
        units = pl.concat([pl.read_parquet(f) for f in sorted((tmp_path / "u" / store).glob("chunk-*.parquet"))])
        assert sorted(units["unit"].to_list()) == [0, 1, 2, 3, 4]


# ----------------------------------------------------------------------------- F11
def test_an_asked_metric_that_applies_to_no_rule_set_is_noted():
    note = ("metric resets_555 applies to none of these rule sets (it needs samozval_555=on): "
            "it is 0 or '-' everywhere")
    res = toy_compare(["classic", "classic:bolts=off"], metrics=["resets_555", "win_seat0"])
    assert [n for n in res.notes if n.startswith("metric")] == [note]
    assert note in res.row("resets_555", 1).notes and note not in res.row("win_seat0", 1).notes
    # The default list leaves such metrics out, so it has nothing to say.
    assert not any(n.startswith("metric") for n in toy_compare(["classic", "classic:bolts=off"]).notes)


def test_duplicate_rule_sets_are_refused_naming_them(capsys):
    with pytest.raises(ThousandError, match=r"rule sets 2 and 3 are the same rules \(classic:bolts=off\)"):
        toy_compare(["classic", "classic:bolts=off", "classic:bolts=off"])
    with pytest.raises(ThousandError, match="rule sets 1 and 2 are the same rules"):
        toy_compare(["classic", CLASSIC])
    err = one_line_error(capsys, ["compare", "--rules", "classic", "--rules", "classic:bolts=off",
                                  "--set", "bolts=off", "--games", "20"])
    assert ("--set bolts=off makes rule sets 1 and 2 (classic and classic:bolts=off) the same rules "
            "(classic:bolts=off)") in err


# ----------------------------------------------------------------------------- F12
def test_deals_summary_and_deals_quantile_metrics_agree():
    res = toy_compare(["classic", "classic:target=500,barrel_at=none"], n_games=77,
                      metrics=["deals_p10", "deals_median", "deals_p90"])
    for i, hist in enumerate(res.deals_hist):
        q = C._deals_quantiles(hist)
        assert q["p10"] == res.row("deals_p10", i).value
        assert q["median"] == res.row("deals_median", i).value
        assert q["p90"] == res.row("deals_p90", i).value
        sample = np.repeat(np.arange(len(hist)), hist)
        assert q["p25"] == np.quantile(sample, 0.25) and q["max"] == sample.max()
    # From the counts alone: two trillion games are no per-game array.
    huge = C._deals_quantiles([0, 10**12, 10**12])
    assert (huge["p10"], huge["median"], huge["p90"], huge["max"]) == (1.0, 1.5, 2.0, 2.0)


# ----------------------------------------------------------------------------- F13
@pytest.mark.parametrize("spec, needle", [
    ("classic:barrel_target=500", "barrel_target=500 is above the highest possible contract (400)"),
    ("classic:bid_cap=none,barrel_target=700", "barrel_target=700 is above the highest possible contract (400)"),
    ("classic:bid_cap=none,barrel_bid_min=450", "barrel_bid_min=450 is above the highest possible contract (400)"),
    ("classic:dealer_scores=aces_40", "dealer_scores has no effect at 3 players"),
    ("classic:barrel_at=none,barrel_bid_min=120", "barrel_bid_min has no effect with barrel_at=none"),
    ("classic:barrel_at=none,barrel_takes_talon=on,barrel_deals=2",
     "barrel_deals, barrel_takes_talon have no effect with barrel_at=none"),
    ("classic:bolts=off,bolt_penalty=60", "bolt_penalty has no effect with bolts=off"),
    ("classic:ace_marriage_sets_trump=off", "ace_marriage_sets_trump has no effect with ace_marriage=none"),
    ("classic:barrel_at=none,bolts=not_on_barrel", "bolts=not_on_barrel is bolts=always with barrel_at=none"),
])
def test_rule_notes(spec, needle):
    assert any(needle in n for n in rule_notes(parse_rules_spec(spec)))


@pytest.mark.parametrize("spec", ["classic", "russian", "polish", "classic:players=4,dealer_scores=aces_40",
                                  "classic:bid_cap=none,ace_marriage=200,barrel_target=500",
                                  "classic:barrel_at=none"])
def test_no_rule_notes_where_every_option_can_matter(spec):
    assert rule_notes(parse_rules_spec(spec)) == []


def test_rules_command_prints_the_note_and_keeps_toml_loadable(capsys, tmp_path):
    assert main(["rules", "classic:dealer_scores=aces_40"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == ("note: dealer_scores has no effect at 3 players (only the sitting-out "
                                    "dealer of a 4-player table scores the talon)")
    assert main(["rules", "classic:dealer_scores=aces_40", "--toml"]) == 0
    captured = capsys.readouterr()
    assert "note: dealer_scores" in captured.err and "note" not in captured.out
    (tmp_path / "r.toml").write_text(captured.out)
    assert load_rules_toml(tmp_path / "r.toml").dealer_scores == "aces_40"


def test_compare_carries_the_rule_notes():
    res = toy_compare(["classic", "classic:barrel_at=none,barrel_takes_talon=on"], metrics=["win_seat0"])
    assert res.notes == ["classic:barrel_at=none,barrel_takes_talon=on: barrel_takes_talon has no effect "
                         "with barrel_at=none"]
    assert res.row("win_seat0", 1).notes == res.notes and not res.row("win_seat0", 0).notes
    both = toy_compare(["classic", "classic:bolts=off"], metrics=["win_seat0"], overrides=["dealer_scores=aces_40"])
    assert [n for n in both.notes if "dealer_scores has" in n] == [
        "every rule set: dealer_scores has no effect at 3 players (only the sitting-out dealer of a 4-player "
        "table scores the talon)"]


# ----------------------------------------------------------------------------- F14
def test_explain_lists_every_player(capsys):
    err = one_line_error(capsys, ["explain", "--strategy", "nope"])
    assert "unknown strategy 'nope'" in err
    for name in ("random", "greedy", "standard", "cautious", "aggressive", "passive"):
        assert name in err


def test_compare_out_never_replaces_a_file_it_did_not_write(capsys, tmp_path):
    argv = ["compare", "--rules", "classic", "--rules", "classic:bolts=off", "--games", "20",
            "--strategy", "greedy", "--set", "max_deals=60", "--jobs", "1", "--no-progress",
            "--metric", "deals_mean", "--out", str(tmp_path)]
    (tmp_path / "compare.md").write_text("my notes\n")
    err = one_line_error(capsys, argv)
    assert "compare.md' is in the way" in err
    assert (tmp_path / "compare.md").read_text() == "my notes\n"
    (tmp_path / "compare.md").unlink()
    assert main(argv) == 0                  # a fresh folder
    record = json.loads((tmp_path / C.WRITTEN_FILE).read_text())
    assert sorted(record["files"]) == sorted(C.OUTPUT_FILES)
    # its own, unchanged outputs are replaced (the kept units are reused only with --resume)
    assert main([*argv, "--resume"]) == 0
    capsys.readouterr()
    with open(tmp_path / "compare.csv", "a") as fh:
        fh.write("my row\n")                # changed since: the user's now
    assert "compare.csv' is in the way" in one_line_error(capsys, argv)
    (tmp_path / "compare.csv").unlink()
    (tmp_path / C.WRITTEN_FILE).write_text("not a record")
    assert "compare_files.json' is in the way" in one_line_error(capsys, argv)


def test_compare_out_recovers_from_an_interrupted_write_and_checks_its_folder_first(tmp_path, monkeypatch):
    # QA: Ctrl-C while the files were written left a truncated PNG that every rerun refused
    # as "not written by thousand compare"; a folder that cannot be made failed only after
    # the whole simulation.
    from thousand.analysis import compare as cmp
    from thousand.errors import ThousandError

    (tmp_path / "afile").write_text("x")
    with pytest.raises(ThousandError, match="cannot create output directory"):
        cmp.claim_out_dir(tmp_path / "afile" / "sub")
    out = tmp_path / "o"
    result = cmp.compare_rules(["classic", "classic:bolts=off"], n_games=6, seed=1, jobs=1, progress=False)
    cmp.write_outputs(result, out, claim=True)
    real_replace, calls = cmp.os.replace, []

    def interrupted_replace(src, dst):
        calls.append(dst)
        if len(calls) == 3:   # the record and one output renamed: stop as Ctrl-C would
            raise KeyboardInterrupt
        real_replace(src, dst)
    monkeypatch.setattr(cmp.os, "replace", interrupted_replace)
    with pytest.raises(KeyboardInterrupt):
        cmp.write_outputs(result, out, claim=True)
    monkeypatch.setattr(cmp.os, "replace", real_replace)
    cmp.claim_out_dir(out)                       # every file there is still recognised as its own
    cmp.write_outputs(result, out, claim=True)
    assert sorted(json.loads((out / cmp.WRITTEN_FILE).read_text())["files"]) == sorted(cmp.OUTPUT_FILES)


def test_a_precision_target_no_watched_metric_can_measure_is_not_called_met():
    # QA: --metric blind_made --precision 0.05 without blind: "met ... widest interval 0"
    from thousand.analysis import compare as cmp
    res = cmp.compare_rules(["classic", "classic:bolts=off"], n_games=20, seed=1, jobs=1, progress=False,
                            metrics=["blind_made"], precision=0.05)
    assert res.precision_met is False and res.rounds == 1 and res.worst_width() is None
    assert "Precision target 0.05 cannot be judged" in cmp.result_table(res)


def test_every_json_object_says_what_was_run_and_whether_a_precision_target_was_met():
    # compare --json could not be told from a plain run when --precision was not met (try-out 22)
    res = C.compare_rules(["classic", "classic:bolts=off"], n_games=4, seed=5, jobs=1, metrics=["deals_mean"],
                          overrides=["max_deals=20"])
    objs = res.to_json()
    assert [o["rules_hash"] for o in objs] == [parse_rules_spec(s).with_overrides("max_deals=20").hash
                                                for s in ("classic", "classic:bolts=off")]
    assert all(o["mode"] == "games" and o["seed"] == 5 and o["strategies"] == ["standard"] * 3
               and "precision" not in o for o in objs)
    capped = C.compare_rules(["classic", "classic:bolts=off"], n_games=4, seed=5, jobs=1, metrics=["deals_mean"],
                             overrides=["max_deals=20"], precision=0.01, max_units=8, chunk_size=4)
    assert all(o["precision"] == 0.01 and o["precision_met"] is False for o in capped.to_json())


def test_two_player_rules_that_can_never_be_met_are_noted_and_not_blamed_on_the_strategy():
    # redeal_hand_points_max <= 13 at 2 players: the poorest 10 cards hold 14 points;
    # blind at 2 players drew "never came into play ... try --strategy aggressive" (try-out 26)
    notes = rule_notes(parse_rules_spec("classic:players=2,redeal_hand_points_max=10"))
    assert "redeal_hand_points_max=10 can never be met at 2 players (10 cards hold at least 14 points)" in notes
    assert not any("redeal_hand_points_max" in n for n in rule_notes(parse_rules_spec("classic:players=2")))
    rules = [parse_rules_spec("classic:players=2"), parse_rules_spec("classic:players=2,blind=on")]
    zero = {name: 0.0 for name in C._EVENT_COUNTERS}
    assert not [n for _, n in C._exercise_notes(["a", "b"], rules, [zero, zero], "games", 50) if "blind" in n]


def test_try_out_31_notes():
    # barrel_takes_talon: the score metrics are the deals' own (a sitter's free failed
    # attempts are in them at -120), said once, on declarer_score's row
    res = C.compare_rules(["russian", "russian:barrel_takes_talon=off"], n_games=20, seed=1, jobs=1,
                          metrics=["declarer_score", "score_dealer", "win_seat0"])
    said = [n for n in res.notes if "deals' own scores" in n]
    assert said == ["russian: declarer_score, score_dealer are the deals' own scores: a barrel sitter's failed "
                    "attempts are in them at -contract, which barrel_takes_talon does not charge him in the game; "
                    "the win shares and the games' final scores show its effect"]
    assert said[0] in res.row("declarer_score", "russian").notes
    # an option set to none or off is no rule: not "barrel_bid_min=none never came into play"
    rules = [parse_rules_spec(s) for s in ("classic:barrel_at=995", "classic:barrel_at=995,barrel_bid_min=120")]
    zero = {name: 0.0 for name in C._EVENT_COUNTERS}
    notes = C._exercise_notes(["a", "b"], rules, [zero, zero], "games", 3)
    assert [i for i, n in notes if "barrel_bid_min" in n] == [1]
    # bolts=not_on_barrel acts only while someone sits: not in a --deals run
    rules = [parse_rules_spec(s) for s in ("classic", "classic:bolts=not_on_barrel")]
    bolts = {**zero, "bolts": 500.0}
    notes = dict(C._exercise_notes(["a", "b"], rules, [bolts, bolts], "deals", 2000))
    assert notes[1] == ("b: bolts=not_on_barrel cannot come into play in a --deals run (there are no barrel "
                        "entries outside whole games): use --games")


def test_the_csv_has_every_json_field():
    # compare.csv lacked rules_hash, mode, seed and strategies (try-out 31)
    res = C.compare_rules(["classic", "classic:bolts=off"], n_deals=400, seed=2, jobs=1, metrics=["declarer_success"])
    frame, objects = res.frame(), res.to_json()
    assert set(frame.columns) == set(objects[0])
    assert frame["strategies"][0] == " ".join(objects[0]["strategies"]) and frame["seed"][0] == 2
    assert frame["rules_hash"].to_list() == [o["rules_hash"] for o in objects]
