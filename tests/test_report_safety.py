"""`thousand report --out DIR` never deletes what it did not write, refuses bad --out
names and limits before any work, and stops (keeping its data) when interrupted or when a
worker process dies instead of leaving a section out."""
import json
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import polars as pl
import pytest

from thousand.analysis import charts, report as report_mod, thresholds
from thousand.analysis.marriages import marriage_tables
from thousand.analysis.report import ReportConfig, build_report
from thousand.cli import main
from thousand.errors import ThousandError
from thousand.rules import parse_rules_spec


def _cli(out, *extra: str) -> list[str]:
    return ["report", "--deals", "1500", "--hands", "4", "--samples", "3", "--seed", "3", "--jobs", "1",
            "--no-presets", "--no-progress", "--out", str(out), *extra]


def _user_files(out: Path) -> dict[str, str]:
    files = {"data/classic/notes.txt": "mine", "tables/my_budget.csv": "a,b\n1,2\n",
             "charts/holiday.png": "not a chart", "compare.md": "my comparison notes"}
    for rel, text in files.items():
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_text(text)
    return files


def test_a_folder_of_the_users_where_a_dataset_goes_is_refused_before_any_work(tmp_path, capsys):
    out = tmp_path / "u"
    files = _user_files(out)
    assert main(_cli(out)) == 2
    err = capsys.readouterr().err
    assert "data/classic' is in the way: it is not a dataset an earlier report made there" in err
    assert len(err.strip().splitlines()) == 1
    assert {rel: (out / rel).read_text() for rel in files} == files
    assert not (out / "report.json").exists() and not (out / "data" / "datasets.json").exists()


def test_the_users_tables_charts_and_compare_md_survive_while_stale_outputs_go(tmp_path):
    out = tmp_path / "u"
    files = _user_files(out)
    (out / "data" / "classic" / "notes.txt").unlink()
    (out / "data" / "classic").rmdir()
    del files["data/classic/notes.txt"]
    two = dict(deals=600, games=4, hands=4, samples=3, seed=2, jobs=1, presets=False, progress=False,
               log=lambda s: None)
    # A report with a comparison would write compare.md: the user's is in the way, refused
    # before any work; moved away, an earlier report with a comparison, and a table of an
    # older report version that this one no longer writes.
    compare_rules = dict(rules=[parse_rules_spec("classic"), parse_rules_spec("classic:bolts=off")],
                         labels=["classic", "classic:bolts=off"])
    with pytest.raises(ThousandError, match="compare.md' is in the way"):
        build_report(ReportConfig(out=out, **compare_rules, **two))
    assert (out / "compare.md").read_text() == files["compare.md"] and not (out / "report.json").exists()
    (out / "compare.md").unlink()
    build_report(ReportConfig(out=out, **compare_rules, **two))
    (out / "tables" / "old_table.csv").write_text("x\n")
    meta = json.loads((out / "report.json").read_text())
    meta["tables"]["old_table"] = "tables/old_table.csv"
    (out / "report.json").write_text(json.dumps(meta))
    del files["compare.md"]
    build_report(ReportConfig(out=out, **two))
    assert {rel: (out / rel).read_text() for rel in files} == files
    for stale in ("tables/compare.csv", "tables/compare.json", "charts/compare_forest.png", "compare.md",
                  "tables/old_table.csv", "data/classic_bolts=off"):
        assert not (out / stale).exists(), stale


def test_a_compare_md_without_an_earlier_comparison_is_kept(tmp_path):
    (tmp_path / "compare.md").write_text("mine\n")
    build_report(ReportConfig(out=tmp_path, deals=600, hands=4, samples=3, seed=2, jobs=1, presets=False,
                              progress=False, log=lambda s: None))
    assert (tmp_path / "compare.md").read_text() == "mine\n"


@pytest.mark.parametrize("what", ["forced_hands.parquet", "forced_hands.parts/mine.txt", "classic/data.parquet",
                                  "play_quality.parquet", "play_quality.json", "play_defence.json"])
def test_forced_declarer_files_or_datasets_of_unknown_origin_are_refused(tmp_path, capsys, what):
    path = tmp_path / "data" / what
    path.parent.mkdir(parents=True)
    path.write_text("mine\n")
    if what.startswith("classic/"):  # looks like a runner dataset, but no report listed it
        (path.parent / "metadata.json").write_text("{}\n")
    assert main(_cli(tmp_path)) == 2
    assert "is in the way" in capsys.readouterr().err
    assert path.read_text() == "mine\n"


def test_an_empty_dataset_folder_is_used(tmp_path):
    (tmp_path / "data" / "classic").mkdir(parents=True)
    assert main(_cli(tmp_path)) == 0
    assert (tmp_path / "data" / "classic" / "metadata.json").is_file()


def test_an_empty_out_is_refused(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(_cli("")) == 2
    err = capsys.readouterr().err
    assert err.strip() == "thousand report: error: --out is an empty name: give the directory to write to"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("extra,msg", [
    (["--rules", "classic", "--rules", "russian", "--games", "2000000000"],
     "--games must be at most 1,000,000,000 (the house-rule comparison's limit)"),
    (["--samples", "100000000000"], "--hands x --samples must be at most"),
    (["--hands", "20000", "--samples", "1000"], "got 20,000 x 1,000"),
    # the same rules written two ways: the comparison would have been dropped whole (hostile try-out 4)
    (["--rules", "classic", "--rules", "russian", "--rules", "classic:bolts=always"],
     "rule sets 1 and 3 are the same rules (classic:bolts=always): give each once"),
])
def test_limits_are_checked_before_any_work(tmp_path, capsys, monkeypatch, extra, msg):
    def no_work(*a, **k):
        raise AssertionError("the report started simulating")
    monkeypatch.setattr(report_mod, "_simulate_deals", no_work)
    assert main(_cli(tmp_path / "x", *extra)) == 2
    err = capsys.readouterr().err
    assert msg in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "x").exists()


def test_the_limits_match_the_sections():
    from thousand.analysis.compare import MAX_UNITS

    assert report_mod.FORCED_ROLES == thresholds.ROLES
    ReportConfig(out="x", hands=2, samples=report_mod.MAX_FORCED_COMPLETIONS // 6)  # at the limit: fine
    ReportConfig(out="x", games=MAX_UNITS["games"])


def _dead_workers(*a, **k):
    raise BrokenProcessPool("A worker process managed by the executor was unexpectedly terminated.\n\n"
                            "The exit codes of the workers are {SIGKILL(-9)}")


def _ctrl_c_in_workers(*a, **k):
    from joblib.externals.loky.process_executor import TerminatedWorkerError
    raise TerminatedWorkerError("A worker process managed by the executor was unexpectedly terminated.\n\n"
                                "The exit codes of the workers are {SIGINT(-2)}")


def _wrapped_ctrl_c(*a, **k):
    try:
        raise KeyboardInterrupt
    except KeyboardInterrupt as e:
        raise RuntimeError("a task failed") from e


def _ctrl_c(*a, **k):
    raise KeyboardInterrupt


@pytest.mark.parametrize("fail,rc,says", [
    (_ctrl_c, 130, "interrupted"),
    (_wrapped_ctrl_c, 130, "interrupted"),
    (_ctrl_c_in_workers, 130, "interrupted"),
    (_dead_workers, 2, "error: bidding thresholds stopped: a worker process died (exit codes {SIGKILL(-9)}: killed, "
                       "as the system kills a process when memory runs out)"),
    (lambda *a, **k: (_ for _ in ()).throw(MemoryError("Unable to allocate 373. GiB")), 2,
     "error: bidding thresholds stopped: out of memory"),
])
def test_a_dead_or_interrupted_thresholds_step_stops_the_report(tmp_path, capsys, monkeypatch, fail, rc, says):
    from thousand.analysis import compare

    def no_compare(*a, **k):
        raise AssertionError("the report went on after the thresholds stopped")
    monkeypatch.setattr(compare, "compare_rules", no_compare)
    out = tmp_path / "r"
    with monkeypatch.context() as m:
        m.setattr(thresholds, "simulate_forced_hands", fail)
        assert main(_cli(out, "--rules", "classic", "--rules", "classic:bolts=off", "--games", "4")) == rc
    captured = capsys.readouterr()
    assert says in captured.err and "Traceback" not in captured.err and "not shown" not in captured.out
    # One line of its own besides the progress log.
    assert len(captured.err.strip().splitlines()) == 1 + captured.err.count("[report")
    # no finished report: only the record of a running one, which lets the rerun continue
    assert json.loads((out / "report.json").read_text())["status"] == "running"
    assert not (out / "report.html").exists()
    assert (out / "data" / "classic" / "metadata.json").is_file()  # kept for the next run


def test_a_dead_worker_in_the_comparison_stops_the_report(tmp_path, capsys, monkeypatch):
    from thousand.analysis import compare

    monkeypatch.setattr(compare, "compare_rules", _dead_workers)
    assert main(_cli(tmp_path, "--rules", "classic", "--rules", "classic:bolts=off", "--games", "4")) == 2
    assert "error: house-rule comparison stopped: a worker process died" in capsys.readouterr().err
    assert (tmp_path / "data" / "forced_hands.parquet").is_file()  # kept for the next run


def test_an_interrupted_report_continues_from_its_data(tmp_path, capsys, monkeypatch):
    with monkeypatch.context() as m:
        m.setattr(thresholds, "simulate_forced_hands", _ctrl_c_in_workers)
        assert main(_cli(tmp_path)) == 130
    capsys.readouterr()
    assert main(_cli(tmp_path)) == 0
    assert f"reusing {tmp_path / 'data' / 'classic'}" in capsys.readouterr().err


def test_a_two_player_marriage_chart_names_two_player_hand_sizes(tmp_path, monkeypatch):
    from thousand.simulate import run

    rules = parse_rules_spec("classic:players=2")
    deals = run("deals", 800, rules, seed=1, jobs=1, out=tmp_path / "d", progress=False).frame()
    table = marriage_tables(deals, rules)["marriages"]
    figures = []
    monkeypatch.setattr(charts, "save", lambda fig, path: figures.append(fig) or Path(path))
    charts.marriage_frequency_chart(table, tmp_path / "m.png", rules)
    charts.marriage_frequency_chart(table, tmp_path / "m3.png", parse_rules_spec("classic"))
    two, three = ([t.get_text() for t in f.axes[0].get_legend().get_texts()] for f in figures)
    assert "declarer, dealt 10 cards" in two and "declarer, with talon (12 cards)" in two
    assert "exact, random 10-card hand" in two and not any("7" in t for t in two)
    assert "declarer, with talon (10 cards)" in three and "exact, random 7-card hand" in three


def test_a_report_never_replaces_or_deletes_a_file_of_the_users_with_one_of_its_names(tmp_path):
    # QA: a single-rules report in a fresh folder deleted tables/compare.csv and
    # charts/compare_forest.png it had never written; a report with a comparison replaced
    # a compare.md written by `thousand compare --out`.
    out = tmp_path / "o"
    (out / "tables").mkdir(parents=True)
    (out / "charts").mkdir()
    mine = {"tables/compare.csv": "mine\n", "charts/compare_forest.png": "mine\n", "compare.md": "mine\n"}
    for rel, text in mine.items():
        (out / rel).write_text(text)
    small = dict(deals=600, games=4, hands=4, samples=3, seed=2, jobs=1, presets=False, progress=False,
                 log=lambda s: None)
    build_report(ReportConfig(out=out, **small))            # no comparison: it writes none of these names
    assert {rel: (out / rel).read_text() for rel in mine} == mine
    with pytest.raises(ThousandError, match="is in the way: the report writes a file of that name"):
        build_report(ReportConfig(out=out, rules=[parse_rules_spec("classic"), parse_rules_spec("classic:bolts=off")],
                                  labels=["classic", "classic:bolts=off"], **small))
    assert {rel: (out / rel).read_text() for rel in mine} == mine
    build_report(ReportConfig(out=out, **small))            # a rerun over its own files works
    assert {rel: (out / rel).read_text() for rel in mine} == mine


# ----------------------------------------------------------------------------- issue 15
def test_a_file_of_the_users_in_a_report_dataset_survives_a_rerun_with_other_settings(tmp_path, capsys):
    out = tmp_path / "r"
    assert main(_cli(out)) == 0
    notes = out / "data" / "classic" / "notes.txt"
    notes.write_text("mine\n")
    capsys.readouterr()
    assert main(_cli(out, "--seed", "4")) == 2   # other settings: the dataset there would be replaced
    err = capsys.readouterr().err.strip()
    assert "data/classic' is in the way: it holds files the report did not write (notes.txt)" in err
    assert len(err.splitlines()) == 1
    assert notes.read_text() == "mine\n" and (out / "data" / "classic" / "metadata.json").is_file()


def test_removing_an_unused_dataset_leaves_the_users_files_in_it(tmp_path):
    out = tmp_path / "r"
    two = ["--rules", "classic", "--rules", "classic:bolts=off", "--games", "4"]
    assert main(_cli(out, *two)) == 0
    folder = out / "data" / "classic_bolts=off"
    (folder / "notes.txt").write_text("mine\n")
    assert main(_cli(out)) == 0
    assert (folder / "notes.txt").read_text() == "mine\n"
    assert not (folder / "metadata.json").exists() and not list(folder.glob("chunk-*"))


def test_a_failed_section_makes_the_report_exit_non_zero_and_name_it(tmp_path, capsys, monkeypatch):
    def broken(*a, **k):
        raise RuntimeError("the table broke")
    monkeypatch.setattr(thresholds, "threshold_table", broken)
    out = tmp_path / "r"
    assert main(_cli(out)) == 1
    err = capsys.readouterr().err
    assert "thousand report: error: a section failed: bidding thresholds (the table broke)" in err
    assert (out / "report.html").is_file()   # the rest of the report is written, and says what is missing
    assert "bidding thresholds failed" in (out / "report.md").read_text()


def test_a_second_report_into_the_same_folder_is_refused_while_the_first_runs(tmp_path):
    import subprocess
    import sys
    import time

    out = tmp_path / "r"
    args = [sys.executable, "-m", "thousand", "report", "--deals", "30000000", "--hands", "4", "--samples", "3",
            "--jobs", "1", "--no-presets", "--no-progress", "--out", str(out)]
    first = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not list((out / "data" / "classic").glob("chunk-*.parquet")):
            assert first.poll() is None and time.monotonic() < deadline, first.communicate()
            time.sleep(0.05)
        second = subprocess.run([*args[:-1], str(out), "--seed", "9"], capture_output=True, text=True, timeout=120)
        assert second.returncode == 2, second.stderr
        assert second.stderr.strip() == (f"thousand report: error: {str(out)!r} is being written by another "
                                         "thousand process; wait for it to finish or choose another --out")
    finally:
        first.send_signal(2)
        first.communicate(timeout=60)
    assert first.returncode == 130
    assert json.loads((out / "report.json").read_text())["status"] == "running"


def test_each_rule_set_has_a_data_folder_of_its_own():
    # a/r.toml and a_r.toml both gave data/a_r.toml, so one rule set was reported with the
    # other's deals; a rules file named forced_hands.json took the forced hands' record
    from analysis.report import _dataset_folders

    labels = ["a/r.toml", "a_r.toml", "forced_hands.json", "classic", "..", "datasets.json", "russian:bolts=off"]
    folders = _dataset_folders(labels)
    assert len(set(folders)) == len(labels)
    assert folders[3] == "classic" and folders[6] == "russian_bolts=off"   # the usual names are kept
    assert not set(folders) & {"a_r.toml", "forced_hands.json", "datasets.json", ".."}
    assert _dataset_folders(labels) == folders                              # the same folders next time


def test_the_reproduce_line_is_one_a_shell_reads_back():
    # a rules file named it's.toml was printed as --rules 'it's.toml' (hostile try-out 4)
    import shlex
    cfg = ReportConfig(out="x", rules=[parse_rules_spec("classic")] * 2, labels=["it's.toml", "classic:bolts=off"],
                       strategies=["standard:margin=5", "cautious", "greedy"], presets=False)
    words = shlex.split(report_mod.reproduce_command(cfg))
    assert words[:4] == ["thousand", "report", "--deals", str(cfg.deals)]
    assert words[words.index("--rules") + 1] == "it's.toml" and words.count("--rules") == 2
    assert words[words.index("--strategy") + 1] == "standard:margin=5" and words[-1] == "--no-presets"


def test_the_header_does_not_promise_thresholds_for_a_table_of_four():
    four = parse_rules_spec("classic:players=4")
    line = report_mod._rule_set_lines(ReportConfig(out="x", rules=[four], labels=["classic:players=4"]),
                                      [("classic:players=4", four)])[0]
    assert "bidding thresholds cover the 3-player game, not its 4 players" in line
    three = report_mod._rule_set_lines(ReportConfig(out="x"), [("classic", parse_rules_spec("classic"))])[0]
    assert "marriages and bidding thresholds for it alone" in three


def test_a_preset_given_as_a_file_is_named_as_that_preset(tmp_path):
    # report --rules mine.toml (russian's TOML): "also covered, as every preset is: classic,
    # polish" dropped russian without a word (try-out 8)
    from thousand.rules import PRESETS
    path = tmp_path / "mine.toml"
    path.write_text(PRESETS["russian"].to_toml(), encoding="utf-8")
    mine = parse_rules_spec(str(path))
    cfg = ReportConfig(out="x", rules=[mine], labels=["mine.toml"])
    lines = report_mod._rule_set_lines(cfg, report_mod._redeal_rule_sets(cfg))
    assert lines[0].startswith("main rule set: `mine.toml` (= russian) (hash ")
    assert "`classic`" in lines[-1] and "`polish`" in lines[-1] and "russian" not in lines[-1]
