"""Hostile files where the tool reads one: a device that never ends, a named pipe nobody
writes to, a directory, binary data, a huge file, JSON or TOML nested too deeply.  Each is
one error line naming the file, in the same words (thousand.files), within seconds."""
import json
import os
import subprocess
import sys

import pytest

from thousand.errors import ThousandError
from thousand.files import read_json

# A child that hangs on a pipe or fills memory on /dev/zero is stopped here and fails.
TIMEOUT = 60


def run_cli(*args, cwd):
    return subprocess.run([sys.executable, "-m", "thousand", *args], capture_output=True, text=True,
                          timeout=TIMEOUT, cwd=cwd)


def one_line(out, needle):
    assert out.returncode == 2, (out.returncode, out.stdout, out.stderr)
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in out.stderr, out.stderr
    assert needle in lines[0], lines[0]
    return lines[0]


def hostile(kind, path):
    """Make ``path`` a hostile file of ``kind``; return the words its error must contain."""
    path = os.fspath(path)
    if kind == "fifo":
        os.mkfifo(path)
        return "is not a regular file (a device, a pipe or a socket)"
    if kind == "directory":
        os.mkdir(path)
        return "is a directory, not a file"
    if kind == "binary":
        with open(path, "wb") as fh:
            fh.write(bytes(range(128, 256)) * 8)
        return "is not UTF-8 text"
    if kind == "huge":
        with open(path, "wb") as fh:   # sparse: no disk used, but 200 MB to a reader
            fh.truncate(200 << 20)
        return "is too large"
    if kind == "deep-json":
        with open(path, "w") as fh:
            fh.write("[" * 100_000 + "]" * 100_000)
        return "is not valid JSON: nested too deeply"
    raise ValueError(kind)


KINDS = ("fifo", "directory", "binary", "huge", "deep-json")


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null", "/dev/urandom"])
def test_rules_file_that_is_a_device(device, tmp_path):
    if not os.path.exists(device):
        pytest.skip(f"no {device} on this system")
    one_line(run_cli("rules", device, cwd=tmp_path), f"rules file '{device}' is not a regular file")


@pytest.mark.parametrize("kind", ["fifo", "binary", "huge"])
def test_rules_file_hostile(kind, tmp_path):
    needle = hostile(kind, tmp_path / "r.toml")
    one_line(run_cli("rules", "r.toml", cwd=tmp_path), f"rules file 'r.toml' {needle}")
    # the same file named by --rules in any command
    one_line(run_cli("bid", "AH TH KH QH AD 9S JC", "--rules", "r.toml", cwd=tmp_path), "rules file 'r.toml'")


def test_rules_file_nested_too_deeply(tmp_path):
    (tmp_path / "r.toml").write_text("bolts = " + "[" * 50_000 + "]" * 50_000 + "\n")
    one_line(run_cli("rules", "r.toml", cwd=tmp_path), "rules file 'r.toml' is not valid TOML: nested too deeply")


@pytest.mark.parametrize("kind", KINDS)
def test_replayed_trace_hostile(kind, tmp_path):
    needle = hostile(kind, tmp_path / "t.json")
    one_line(run_cli("explain", "--replay", "t.json", cwd=tmp_path), f"trace 't.json' {needle}")


@pytest.mark.parametrize("kind", KINDS)
def test_dataset_metadata_hostile(kind, tmp_path):
    args = ("simulate", "--deals", "400", "--chunk-size", "200", "--jobs", "1", "--no-progress", "--out", "run")
    assert run_cli(*args, cwd=tmp_path).returncode == 0
    meta = tmp_path / "run" / "metadata.json"
    meta.unlink()
    needle = hostile(kind, meta)
    one_line(run_cli(*args, "--resume", cwd=tmp_path), f"dataset metadata 'run/metadata.json' {needle}")


def test_read_json_is_bounded(tmp_path):
    # the reader itself: the same words whatever the error class the caller wants
    p = tmp_path / "x.json"
    p.write_text(json.dumps({"a": 1}))
    assert read_json(p, "record", 100) == {"a": 1}
    with pytest.raises(ThousandError, match=r"record '.*x.json' is too large \(8 bytes; at most 7\)"):
        read_json(p, "record", 7)
    with pytest.raises(KeyError, match="not found"):
        read_json(tmp_path / "none.json", "record", 100, error=KeyError)


def test_report_and_compare_records_that_are_pipes_are_in_the_way(tmp_path):
    # The records the report and compare --out keep: a pipe there is not theirs, refused
    # before any work instead of waiting for a writer.
    os.mkdir(tmp_path / "rep")
    os.mkfifo(tmp_path / "rep" / "report.json")
    one_line(run_cli("report", "--deals", "100", "--hands", "2", "--samples", "2", "--out", "rep",
                     "--no-progress", cwd=tmp_path), "report.json' is in the way")
    os.mkdir(tmp_path / "cmp")
    os.mkfifo(tmp_path / "cmp" / "compare_files.json")
    one_line(run_cli("compare", "--rules", "classic", "--rules", "russian", "--games", "10", "--out", "cmp",
                     cwd=tmp_path), "compare_files.json' is in the way")


def test_an_unreadable_file_is_named_in_the_same_words(tmp_path, monkeypatch):
    # As root, chmod 000 still reads: the refusal is made by the system call itself.
    import thousand.files as files

    def refuse(path, flags, *a):
        raise PermissionError(13, "Permission denied", path)
    monkeypatch.setattr(files.os, "open", refuse)
    with pytest.raises(ThousandError, match=r"^dataset metadata '.*metadata.json' cannot be read: Permission denied$"):
        read_json(tmp_path / "metadata.json", "dataset metadata", 100)


def _play_event(data):
    return next(i for i, e in enumerate(data["events"]) if e[0] == "PLAY")


def _with_event_field(data, j, value):
    events = [list(e) for e in data["events"]]
    events[_play_event(data)][j] = value
    return dict(data, events=events)


# a deal trace with one field of the wrong JSON type, and the words naming it
WRONG_TYPES = [
    (lambda d: dict(d, hands=None), "field hands must be a list of hands (cards as text), not null"),
    (lambda d: dict(d, hands=[[0, 1]]), "field hands[0] must be cards as text"),
    (lambda d: dict(d, talons=[None]), "field talons[0] must be cards as text"),
    (lambda d: dict(d, events=None), "field events must be a list of events"),
    (lambda d: dict(d, events=[7]), "field events[0] must be [kind, seat, a, b], not 7"),
    (lambda d: dict(d, dealer="0"), 'field dealer must be a whole number, not "0"'),
    (lambda d: dict(d, rules="bogus"), 'field rules must be an object of rule options'),
    (lambda d: dict(d, rules=dict(d["rules"], players=[3])), "field rules.players must be a value"),
    # a card that is not a whole number is refused, not rounded or parsed into one
    (lambda d: _with_event_field(d, 2, 17.5), "(a) must be a whole number, not 17.5"),
    (lambda d: _with_event_field(d, 2, "17"), '(a) must be a whole number, not "17"'),
    (lambda d: _with_event_field(d, 2, True), "(a) must be a whole number, not true"),
    (lambda d: _with_event_field(d, 1, 1.0), "(seat) must be a whole number, not 1.0"),
    # a card number outside the deck: a broken file, not "played 99, which is not in his hand"
    (lambda d: _with_event_field(d, 2, 99), "(a) must be a card number 0..23, not 99"),
    (lambda d: _with_event_field(d, 2, -1), "(a) must be a card number 0..23, not -1"),
]


@pytest.mark.parametrize("command", [["solve", "--trace"], ["explain", "--replay"]])
@pytest.mark.parametrize("spoil, needle", WRONG_TYPES)
def test_a_trace_field_of_the_wrong_type_is_named(command, spoil, needle, tmp_path, capsys):
    from thousand import cli

    assert cli.main(["explain", "--seed", "7", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    path = tmp_path / "t.json"
    path.write_text(json.dumps(spoil(data)), encoding="utf-8")
    assert cli.main([*command, str(path)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and f"trace '{path}' is malformed: field " in err and needle in err, err


def test_a_game_trace_field_of_the_wrong_type_is_named(tmp_path, capsys):
    from thousand import cli

    assert cli.main(["explain", "--seed", "7", "--game", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    path = tmp_path / "g.json"
    for spoiled, needle in ((dict(data, first_dealer=0.5), "field first_dealer must be a whole number, not 0.5"),
                            (dict(data, deals={}), "field deals must be a list of deal traces, not {}"),
                            (dict(data, deals=[None]), "a deal trace must be a JSON object, not null")):
        path.write_text(json.dumps(spoiled), encoding="utf-8")
        assert cli.main(["explain", "--replay", str(path)]) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and needle in err, err


def test_an_out_folder_that_is_a_dangling_link_is_named(tmp_path, capsys):
    # it said "cannot create output directory 'ln': File exists" (hostile try-out 5)
    from thousand.cli import main
    link = tmp_path / "ln"
    link.symlink_to(tmp_path / "nowhere")
    assert main(["simulate", "--deals", "100", "--out", str(link)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"thousand simulate: error: --out {str(link)!r} is a symbolic link to {str(tmp_path / 'nowhere')!r}, "
        "which does not exist: create that folder or give another path")


def test_an_out_folder_that_is_a_link_loop_is_named(tmp_path, capsys):
    # it said "a symbolic link to 'b', which does not exist" while b existed (try-out 27)
    from thousand.cli import main
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    assert main(["simulate", "--deals", "100", "--out", str(tmp_path / "a")]) == 2
    assert capsys.readouterr().err.strip() == (
        f"thousand simulate: error: --out {str(tmp_path / 'a')!r} is a symbolic link in a loop (it leads back to "
        "itself): give a real folder")
