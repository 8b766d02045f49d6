"""``thousand compare`` on the command line: errors are one line, outputs are complete."""
import json

import pytest

from thousand.cli import main

SMALL = ["--games", "60", "--strategy", "greedy", "--set", "max_deals=120", "--jobs", "1", "--no-progress"]


def one_line_error(capsys, argv, needle):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err
    assert err.startswith("thousand compare: error:") and needle in err
    return err


@pytest.mark.parametrize("argv, needle", [
    (["compare", "--rules", "classic"], "at least two rule sets"),
    (["compare"], "at least two rule sets"),
    (["compare", "--rules", "classic", "--rules", "russian", "--precision", "0"], "--precision must be a positive"),
    (["compare", "--rules", "classic", "--rules", "russian", "--precision", "-0.5"], "--precision must be a positive"),
    (["compare", "--rules", "classic", "--rules", "russian", "--precision", "nan"], "--precision must be a positive"),
    (["compare", "--rules", "classic", "--rules", "russian", "--metric", "deal_mean"], "unknown metric 'deal_mean'"),
    (["compare", "--rules", "classic", "--rules", "russian", "--deals", "100", "--metric", "deals_mean"],
     "needs whole games"),
    (["compare", "--rules", "classic", "--rules", "classic:bolts=sometimes"], "bolts: must be one of"),
    (["compare", "--rules", "classic", "--rules", "nosuch"], "unknown rule set 'nosuch'"),
    (["compare", "--rules", "classic", "--rules", "russian", "--games", "0"], "at least 2"),
    (["compare", "--rules", "classic", "--rules", "russian", "--max-games", "100"], "give --precision too"),
    (["compare", "--rules", "classic", "--rules", "russian", "--strategy", "nobody"], "nobody"),
    (["compare", "--rules", "classic", "--rules", "russian", "--out", ""], "--out is an empty name"),
    (["compare", "--rules", "classic", "--rules", "russian", "--out", "  "], "--out is an empty name"),
])
def test_bad_input_is_one_line(capsys, argv, needle):
    one_line_error(capsys, argv, needle)


def test_games_and_deals_are_exclusive(capsys):
    with pytest.raises(SystemExit) as e:
        main(["compare", "--rules", "classic", "--rules", "russian", "--games", "10", "--deals", "10"])
    assert e.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_json_output(capsys):
    assert main(["compare", "--rules", "classic", "--rules", "classic:bolts=off", *SMALL, "--json",
                 "--metric", "bolt_penalties,deals_mean", "--metric", "declarer_success"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(o["metric"], o["rules"]) for o in data] == [
        (m, r) for m in ("bolt_penalties", "deals_mean", "declarer_success")
        for r in ("classic:max_deals=120", "classic:bolts=off,max_deals=120")]
    for o in data:
        for key in ("value", "ci_low", "ci_high", "diff", "diff_ci_low", "diff_ci_high", "p_value", "p_holm"):
            assert key in o
        assert o["ci_low"] <= o["value"] <= o["ci_high"]
    variant = data[1]
    assert variant["value"] == 0 and variant["diff"] < 0 and variant["p_holm"] < 0.05


def test_table_and_out_dir(capsys, tmp_path):
    out = tmp_path / "cmp"
    assert main(["compare", "--rules", "classic", "--rules", "classic:target=500,barrel_at=400", *SMALL,
                 "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "deals_mean" in text and "p (Holm)" in text and "pairing" in text.lower()
    assert "Methods:" in text and "Wilson" in text
    for name in ("compare.md", "compare.csv", "compare.json", "compare_forest.png"):
        assert (out / name).stat().st_size > 0
    assert "| `deals_mean` |" in (out / "compare.md").read_text()


def test_list_metrics(capsys):
    assert main(["compare", "--list-metrics"]) == 0
    out = capsys.readouterr().out
    assert "declarer_success" in out and "barrel_entries" in out
    # the seat metrics follow the table size of --rules (always 3 players' before: try-out 12)
    names = {}
    for players in (2, 3, 4):
        assert main(["compare", "--list-metrics", "--rules", f"classic:players={players}"]) == 0
        names[players] = {line.split()[0] for line in capsys.readouterr().out.splitlines()[1:] if line.startswith("  ")}
    assert "score_rear" in names[4] and "win_seat3" in names[4] and "score_rear" not in names[3]
    assert "score_middle" not in names[2] and "win_seat2" not in names[2] and "score_middle" in names[3]
    assert main(["compare", "--rules", "classic:players=2", "--rules", "classic:players=2,bolts=off", "--deals",
                 "200", "--metric", "score_middle"]) == 2
    assert "metric 'score_middle' does not apply with 2 players" in capsys.readouterr().err
    # --json lists them as JSON, the same names (it printed the text table: try-out 22)
    assert main(["compare", "--list-metrics", "--json", "--rules", "classic:players=4"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert {m["name"] for m in listed} == names[4] and {m["level"] for m in listed} == {"game", "deal"}


def _can_drop_root_write() -> bool:
    import os
    import shutil
    return os.geteuid() != 0 or shutil.which("setpriv") is not None


@pytest.mark.skipif(not _can_drop_root_write(), reason="needs setpriv to make a folder read-only to root")
def test_compare_out_into_a_read_only_folder_fails_before_computing(tmp_path):
    # QA: the whole comparison ran before the first write failed.  The games asked for
    # would take hours: the refusal has to come first.
    import os
    import subprocess
    import sys
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    cmd = [sys.executable, "-m", "thousand", "compare", "--rules", "classic", "--rules", "classic:bolts=off",
           "--games", "100000000", "--out", str(ro)]
    if os.geteuid() == 0:  # root writes anywhere: run without the capability that lets it
        cmd = ["setpriv", "--bounding-set=-dac_override,-dac_read_search",
               "--inh-caps=-dac_override,-dac_read_search", *cmd]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    finally:
        ro.chmod(0o755)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == f"thousand compare: error: output directory {str(ro)!r} is not writable"
    assert list(ro.iterdir()) == []
