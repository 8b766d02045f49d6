"""Bad input found by exercising the CLI as a user: each is one line and exit 2, never a traceback."""
import subprocess
import sys

import polars as pl
import pytest

from thousand.simulate import simulate


def run_cli(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "thousand", *args], capture_output=True, text=True,
                          timeout=300, cwd=cwd)


def assert_one_line_error(out: subprocess.CompletedProcess, needle: str) -> None:
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert needle in lines[0], lines[0]


def test_rules_file_that_is_a_directory(tmp_path):
    assert_one_line_error(run_cli("rules", str(tmp_path)), "is a directory")


def test_rules_file_that_is_not_text(tmp_path):
    bad = tmp_path / "bin.toml"
    bad.write_bytes(b"\xff\xfe bolts = 1")
    assert_one_line_error(run_cli("rules", str(bad)), "not UTF-8")


def test_rules_file_with_a_list_for_preset(tmp_path):
    bad = tmp_path / "p.toml"
    bad.write_text('preset = ["a"]\n')
    assert_one_line_error(run_cli("rules", str(bad)), "preset")


@pytest.mark.parametrize("args, needle", [
    (("explain", "--seed", "-1"), "--seed"),
    (("explain", "--seed", "abc"), "--seed"),
    (("explain", "--strategy", "standard:margin=abc"), "margin"),
    (("explain", "--strategy", "standard:margin"), "margin"),
    (("simulate", "--deals", "x"), "--deals"),
    (("nosuchcommand",), "nosuchcommand"),
])
def test_usage_errors_are_one_line(args, needle):
    assert_one_line_error(run_cli(*args), needle)


def test_resume_recomputes_damaged_chunks(tmp_path):
    kw = dict(rules="classic", seed=9, jobs=1, chunk_size=2000, progress=False)
    ref = simulate(8000, out=tmp_path / "ref", **kw).collect()
    out = tmp_path / "run"
    simulate(8000, out=out, **kw)
    (out / "chunk-000001.parquet").write_bytes(b"PAR1 not really")
    (out / "chunk-000002.parquet").write_bytes(b"")
    got = simulate(8000, out=out, resume=True, **kw).collect()
    assert got.equals(ref)


def test_resume_refuses_a_directory_in_place_of_a_chunk(tmp_path):
    out = tmp_path / "run"
    args = ("simulate", "--deals", "4000", "--chunk-size", "2000", "--jobs", "1", "--out", str(out))
    assert run_cli(*args).returncode == 0
    (out / "chunk-000000.parquet").unlink()
    (out / "chunk-000000.parquet").mkdir()
    assert_one_line_error(run_cli(*args, "--resume"), "not a chunk file")


@pytest.mark.parametrize("args, needle", [
    (("simulate", "--deals", "1000000000000000000000"), "at most"),
    (("simulate", "--deals", "1000", "--chunk-size", "100000000"), "chunk size"),
    (("simulate", "--deals", "1000", "--strategy", "standard:margin=nan"), "finite"),
    (("simulate", "--deals", "1000", "--strategy", "standard:margin=1,margin=2"), "twice"),
    (("bid", "AH TH KH QH AD 9S JC", "--samples", "1000000000000"), "--samples"),
])
def test_absurd_sizes_and_parameters_are_refused_at_once(args, needle):
    assert_one_line_error(run_cli(*args), needle)


def test_overrides_are_checked_together_whatever_their_order():
    from thousand.rules import parse_rules_spec
    a = parse_rules_spec("classic", ["target=100", "barrel_at=none"])
    b = parse_rules_spec("classic", ["barrel_at=none", "target=100"])
    c = parse_rules_spec("classic:target=5000", ["barrel_at=4880"])
    assert a == b and a.target == 100 and a.barrel_at is None
    assert c.target == 5000 and c.barrel_at == 4880


def test_many_jobs_on_one_chunk_start_one_worker(tmp_path):
    import time
    t = time.perf_counter()
    lf = simulate(500, seed=3, jobs=64, chunk_size=1000, out=tmp_path / "r", progress=False)
    assert lf.collect().height >= 500
    assert time.perf_counter() - t < 60


def test_a_run_that_wrote_no_chunk_does_not_block_a_new_one(tmp_path):
    import json
    out = tmp_path / "r"
    out.mkdir()
    (out / "metadata.json").write_text(json.dumps({"kind": "deals", "seed": 99}))
    assert simulate(500, seed=3, jobs=1, out=out, progress=False).collect().height >= 500
