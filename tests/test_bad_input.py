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
