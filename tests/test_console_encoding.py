"""A console that is not UTF-8 (a Windows console in cp1252, a Latin-1 locale, ASCII)
gets letters for suit symbols and the names in the help, never a UnicodeEncodeError."""
import os
import subprocess
import sys

import pytest

from thousand import cli
from thousand.console import to_letters

ENCODINGS = ("cp1252", "latin-1", "ascii")

# Every command's help, and each command's ordinary output and error lines, in one
# process per encoding (the real stdout and stderr, as PYTHONIOENCODING sets them).
SCRIPT = r"""
import sys
from thousand.cli import main

def run(*args):
    try:
        code = main(list(args))
    except SystemExit as e:   # --help and usage errors exit through argparse
        code = e.code
    sys.stdout.flush(); sys.stderr.flush()
    print(f"@@exit {code}", flush=True)

run("--help")
for name in sys.argv[1].split(","):
    run(name, "--help")
run("rules")
run("rules", "classic")
run("explain", "--seed", "7")
run("explain", "--seed", "1", "--game", "--set", "max_deals=2")
run("bid", "A♠ 10♠ K♣ Q♣ A♦ 9♦ J♥", "--samples", "500")
run("bid", "AH TH KH QH AD 9S XX")
run("bid", "AH TH KH QH AD 9S J♣", "--samples", "1")
run("compare", "--rules", "classic", "--rules", "classic:bolts=off", "--games", "20", "--jobs", "1", "--no-progress")
run("nosuchcommand")
"""


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_every_command_degrades_to_letters(encoding, tmp_path):
    names = ",".join(m.NAME for m in cli._load_commands())
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    proc = subprocess.run([sys.executable, "-c", SCRIPT, names], capture_output=True, timeout=600, env=env,
                          cwd=tmp_path)
    # Every byte is in the stream's encoding, and nothing crashed.
    out, err = proc.stdout.decode(encoding), proc.stderr.decode(encoding)
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "UnicodeEncodeError" not in out + err, err
    codes = [line.split()[1] for line in out.splitlines() if line.startswith("@@exit")]
    n_help = 1 + len(names.split(","))
    # the help pages, rules x2, explain x2, the bid, then the bad card, the bad size, compare, unknown command
    assert codes == ["0"] * n_help + ["0", "0", "0", "0", "0", "2", "2", "0", "2"], (codes, err)
    assert "Tysiac" in out and "Tysyacha" in out          # the names of the game, in letters
    assert "10S AS QC KC 9D AD JH" in out                  # bid's hand: suit letters for the symbols
    assert "seat 0: KS AS QC 10C AC 10D QH" in out         # explain's hands likewise
    assert "bad card 'XX'" in err and "--samples must be at least 2" in err
    # what the encoding can show stays as it is (cp1252 and Latin-1 have ±, ASCII spells it +-)
    assert ("±" in out) == (encoding != "ascii")


def test_an_error_line_degrades_too(tmp_path):
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    proc = subprocess.run([sys.executable, "-m", "thousand", "bid", "AH TH KH QH AD 9S J♣ 9♥"],
                          capture_output=True, timeout=120, env=env, cwd=tmp_path)
    assert proc.returncode == 2
    err = proc.stderr.decode("ascii")
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "\\u" not in err                                # not Python's backslash escapes either
    assert "a hand needs 7 cards, got 8: 'AH TH KH QH AD 9S JC 9H'" in err   # the symbols typed, as letters


@pytest.mark.parametrize("encoding, said", [
    ("latin-1", "unknown suit 'X' (use S C D H)\n"),                 # not "S C D H or S C D H"
    ("utf-8", "unknown suit 'X' (use S C D H or ♠ ♣ ♦ ♥)\n"),
])
def test_the_suit_spellings_in_an_error_are_the_ones_the_console_shows(tmp_path, encoding, said):
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    proc = subprocess.run([sys.executable, "-m", "thousand", "bid", "AH TH KH QH AD 9S 9X"],
                          capture_output=True, timeout=120, env=env, cwd=tmp_path)
    assert proc.returncode == 2 and proc.stderr.decode(encoding).endswith(said)


def test_a_utf8_console_keeps_the_symbols(tmp_path):
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    proc = subprocess.run([sys.executable, "-m", "thousand", "explain", "--seed", "7"], capture_output=True,
                          timeout=120, env=env, cwd=tmp_path)
    assert proc.returncode == 0 and "seat 0: K♠ A♠ Q♣ 10♣ A♣ 10♦ Q♥" in proc.stdout.decode("utf-8")


def test_a_suit_symbol_typed_under_the_c_locale_is_read(tmp_path):
    # LC_ALL=C without UTF-8 mode: argv arrives as escaped bytes, stdout is ASCII.
    env = {**os.environ, "LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}
    env.pop("PYTHONIOENCODING", None)
    proc = subprocess.run([sys.executable, "-m", "thousand", "bid", "A♠ 10♠ K♣ Q♣ A♦ 9♦ J♥", "--samples", "200"],
                          capture_output=True, timeout=120, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "\nhand 10S AS QC KC 9D AD JH " in proc.stdout.decode("ascii")


@pytest.mark.parametrize("text, letters", [
    ("9♠ J♣ A♦ Q♥", "9S JC AD QH"), ("♥\ufe0f", "H"), ("Tysiąc, Тысяча", "Tysiac, Tysyacha"),
    ("±0.5, R², ≥ 80%", "+-0.5, R2, >= 80%"), ("Łódź", "Lodz"), ("漢", "?"),
])
def test_to_letters(text, letters):
    assert to_letters(text) == letters
