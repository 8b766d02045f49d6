"""``compare --out`` keeps every chunk's unit tables; ``--resume`` continues an interrupted
comparison to exactly the result of one never interrupted."""
import pytest

from thousand.analysis import compare as c
from thousand.cli import main
from thousand.errors import ThousandError
from thousand.runner import chunks

RULES = ["classic", "classic:bolts=off"]
KW = dict(seed=5, progress=False, jobs=1, backend="threads")


def _stop_after(monkeypatch, calls):
    """Play chunks as usual, recording each (rule set's) call; the call numbered
    ``calls[0]`` raises KeyboardInterrupt, as a Ctrl-C mid-run would."""
    real = chunks.unit_chunk_columns
    played = []

    def play(*args, **kwargs):
        played.append(args[4])
        if calls and len(played) == calls[0]:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(chunks, "unit_chunk_columns", play)
    return played


# Rule set 0's chunks are played first, then rule set 1's: stop at rule set 1's third chunk.
@pytest.mark.parametrize("size, stop, left", [(dict(n_games=40, chunk_size=10), 7, [2, 3]),
                                              (dict(n_deals=900, chunk_size=300), 6, [2])])
def test_an_interrupted_comparison_resumes_to_the_same_result(tmp_path, monkeypatch, capsys, size, stop, left):
    whole = c.compare_rules(RULES, **size, **KW)
    calls = [stop]
    played = _stop_after(monkeypatch, calls)
    units = tmp_path / "units"
    with pytest.raises(KeyboardInterrupt):
        c.compare_rules(RULES, **size, units=units, **KW)
    n_chunks = len(played) - 1
    assert sorted(p.name for p in (units / "rules-1").glob("chunk-*")) == ["chunk-000000.parquet",
                                                                           "chunk-000001.parquet"]
    each = f"{RULES[0]}: {n_chunks - 2}, {RULES[1]}: 2"     # counted by rule set: the second stopped at its third
    assert f"interrupted: {n_chunks} chunk tables are kept in {units} ({each}); run the same command " \
           "with --resume" in capsys.readouterr().err

    with pytest.raises(ThousandError, match="already holds a run; use --resume"):
        c.compare_rules(RULES, **size, units=units, **KW)
    with pytest.raises(ThousandError, match='cannot resume .*rules-1.*other rules: bolts="off", not "not_on_barrel"'):
        c.compare_rules(["classic", "classic:bolts=not_on_barrel"], **size, units=units, resume=True, **KW)
    played.clear()
    calls.clear()
    resumed = c.compare_rules(RULES, **size, units=units, resume=True, **KW)
    assert played == left   # what was kept is read back, not played
    assert resumed.to_json() == whole.to_json()
    assert resumed.deals_hist == whole.deals_hist and resumed.n == whole.n


def test_a_finished_comparison_is_summarised_again_for_other_metrics_without_playing(tmp_path, monkeypatch):
    units = tmp_path / "units"
    c.compare_rules(RULES, n_games=30, chunk_size=10, units=units, **KW)
    played = _stop_after(monkeypatch, [])
    again = c.compare_rules(RULES, n_games=30, chunk_size=10, units=units, resume=True,
                            metrics=["deals_mean,declarer_success"], **KW)
    assert played == []
    monkeypatch.undo()
    fresh = c.compare_rules(RULES, n_games=30, chunk_size=10, metrics=["deals_mean,declarer_success"], **KW)
    assert again.to_json() == fresh.to_json() and again.metrics == ["deals_mean", "declarer_success"]


def test_a_precision_run_keeps_its_rounds_and_resumes_them(tmp_path, monkeypatch):
    kw = dict(n_games=20, chunk_size=10, precision=1.0, max_units=80, metrics=["deals_mean"], **KW)
    whole = c.compare_rules(RULES, **kw)
    assert whole.rounds >= 2 and whole.n > 20   # the test needs a second round
    calls = [6]   # in the second round
    played = _stop_after(monkeypatch, calls)
    units = tmp_path / "units"
    with pytest.raises(KeyboardInterrupt):
        c.compare_rules(RULES, units=units, **kw)
    kept = len(played) - 1
    played.clear()
    calls.clear()
    resumed = c.compare_rules(RULES, units=units, resume=True, **kw)
    assert len(played) == 2 * whole.n // 10 - kept
    assert resumed.to_json() == whole.to_json() and resumed.rounds == whole.rounds
    with pytest.raises(ThousandError, match="cannot resume .*max_games=80, not 160"):
        c.compare_rules(RULES, units=units, resume=True, **{**kw, "max_units": 160})


def test_a_comparison_beyond_the_chunks_a_store_holds_is_refused_before_any_work(tmp_path, monkeypatch):
    played = _stop_after(monkeypatch, [])
    with pytest.raises(ThousandError, match="--out keeps at most 100,000 chunks a rule set"):
        c.compare_rules(RULES, n_games=300_000, chunk_size=2, units=tmp_path / "u", **KW)
    assert played == [] and not (tmp_path / "u").exists()


def test_cli_out_twice_needs_resume_and_resume_needs_out(tmp_path, capsys):
    out = str(tmp_path / "cmp")
    argv = ["compare", "--rules", "classic", "--rules", "classic:bolts=off", "--games", "20", "--jobs", "1",
            "--no-progress", "--json"]
    assert main([*argv, "--out", out]) == 0
    first = capsys.readouterr().out
    assert main([*argv, "--out", out]) == 2
    assert "already holds a run; use --resume" in capsys.readouterr().err
    assert main([*argv, "--out", out, "--resume"]) == 0
    assert capsys.readouterr().out == first
    assert main([*argv, "--resume"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--resume continues a comparison kept in --out" in err


def test_a_chunk_file_swapped_for_another_chunk_of_the_same_size_is_played_again(tmp_path, monkeypatch, capsys):
    kw = dict(n_games=40, chunk_size=10, **KW)
    units = tmp_path / "units"
    whole = c.compare_rules(RULES, units=units, **kw)
    store = units / "rules-0"
    (store / "chunk-000003.parquet").write_bytes((store / "chunk-000001.parquet").read_bytes())
    sizes = {p.stat().st_size for p in (store / "chunk-000001.parquet", store / "chunk-000003.parquet")}
    assert len(sizes) == 1   # the size check alone cannot tell them apart
    import json
    meta = json.loads((store / "metadata.json").read_text())
    meta["chunk_bytes"]["3"], meta["chunk_rows"]["3"] = meta["chunk_bytes"]["1"], meta["chunk_rows"]["1"]
    (store / "metadata.json").write_text(json.dumps(meta))
    played = _stop_after(monkeypatch, [])
    again = c.compare_rules(RULES, units=units, resume=True, **kw)
    assert played == [3] and "chunk 3" in capsys.readouterr().err
    assert again.to_json() == whole.to_json()


def test_cli_a_refused_comparison_leaves_no_empty_folder_and_a_broken_metadata_says_what_to_do(tmp_path, capsys):
    out = tmp_path / "big"
    assert main(["compare", "--rules", "classic", "--rules", "classic:bolts=off", "--games", "25000001",
                 "--out", str(out), "--no-progress"]) == 2
    assert "--out keeps at most 100,000 chunks" in capsys.readouterr().err and not out.exists()
    assert main(["compare", "--rules", "classic", "--rules", "nosuch", "--games", "20", "--out", str(out),
                 "--no-progress"]) == 2
    assert "unknown rule set 'nosuch'" in capsys.readouterr().err and not out.exists()
    out = tmp_path / "cmp"
    argv = ["compare", "--rules", "classic", "--rules", "classic:bolts=off", "--games", "20", "--jobs", "1",
            "--no-progress", "--json", "--out", str(out)]
    assert main(argv) == 0
    capsys.readouterr()
    assert main([*argv, "--resume", "--precision", "0.5", "--metric", "deals_mean"]) == 2
    assert "it was run with no --precision, not --precision 0.5" in capsys.readouterr().err
    (out / "units" / "rules-0" / "metadata.json").write_text("{")
    assert main([*argv, "--resume"]) == 2
    err = capsys.readouterr().err
    assert "is not valid JSON" in err and "cannot be continued: move it away or choose another --out" in err


def test_a_byte_changed_inside_a_kept_chunk_is_caught_by_its_checksum_and_played_again(tmp_path, monkeypatch,
                                                                                       capsys):
    kw = dict(n_games=40, chunk_size=10, **KW)
    units = tmp_path / "units"
    whole = c.compare_rules(RULES, units=units, **kw)
    chunk = units / "rules-1" / "chunk-000002.parquet"
    data = bytearray(chunk.read_bytes())
    data[200] ^= 0xFF                       # the size stays, a value inside changes
    chunk.write_bytes(bytes(data))
    played = _stop_after(monkeypatch, [])
    again = c.compare_rules(RULES, units=units, resume=True, **kw)
    assert played == [2] and "its SHA-256 differs" in capsys.readouterr().err
    assert again.to_json() == whole.to_json()
