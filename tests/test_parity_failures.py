"""A failing parity check explains itself: it names the deal and what differs, writes the
trace to the artifacts folder and prints the ``thousand explain --replay FILE`` command,
and that command shows the deal.  Forced here with doctored kernel outputs."""
from __future__ import annotations

import json
import re
import subprocess
import sys

import numpy as np
import pytest

from thousand import cli, kernel
from thousand.reference import RandomPlayer, Stream
from thousand.rules import CLASSIC, parse_rules_spec
from thousand.trace import DealTrace, EventKind, GameTrace

from helpers.artifacts import ARTIFACTS_ENV
from helpers.parity import compare_deal_rows, compare_game_rows, compare_reference_rows, reference_deals

COMMAND = re.compile(r"show it: thousand explain --replay (\S+)")


@pytest.fixture
def artifacts(tmp_path, monkeypatch):
    folder = tmp_path / "artifacts"
    monkeypatch.setenv(ARTIFACTS_ENV, str(folder))
    return folder


def kernel_deals(rules=CLASSIC, n=12, seed=3):
    cols, ev = kernel.play_deals(np.random.PCG64(seed), rules, "random", n_deals=n, trace=True)
    return cols, kernel.deal_traces(cols, ev, rules.players)


def replayed_files(message: str, folder) -> list[str]:
    """The files the failure message points at: each exists, in the artifacts folder."""
    paths = COMMAND.findall(message)
    assert paths, message
    for p in paths:
        assert p.startswith(str(folder)) and open(p, encoding="utf-8"), p
    return paths


def explain(capsys, path):
    code = cli.main(["explain", "--replay", path])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_differing_column_writes_the_deal_and_its_command_shows_it(artifacts, capsys):
    cols, traces = kernel_deals()
    i = next(k for k, t in enumerate(traces) if not t.redealt)
    doctored = {c: v.copy() for c, v in cols.items()}
    doctored["score0"][i] += 5
    with pytest.raises(AssertionError) as e:
        compare_deal_rows(CLASSIC, doctored, traces)
    message = str(e.value)
    want = int(cols["score0"][i])
    assert message.startswith(f"kernel deal row {i}: columns differ (column, kernel, reference): "
                              f"[('score0', {want + 5}, {want})]"), message
    [path] = replayed_files(message, artifacts)
    assert path.endswith(f"-deal{i}.json") and "test_a_differing_column" in path
    saved = json.loads(open(path, encoding="utf-8").read())
    assert DealTrace.from_dict(saved) == traces[i] and saved["rules"]["target"] == "1000"
    code, out, err = explain(capsys, path)
    assert code == 0 and err == ""
    assert out.splitlines()[0] == f"--- replayed deal {path} (rules classic)"
    assert "score changes:" in out


def test_an_illegal_decision_names_the_event_and_the_replay_shows_the_same_error(artifacts, capsys):
    cols, traces = kernel_deals()
    i = next(k for k, t in enumerate(traces) if any(e.kind == EventKind.PLAY for e in t.events))
    t = traces[i]
    j = next(k for k, e in enumerate(t.events) if e.kind == EventKind.PLAY)
    first = t.events[j]
    foreign = next(c for c in range(24) if not t.hands[first.seat] >> c & 1 and not (t.talons[0] >> c & 1))
    events = list(t.events)
    events[j] = first._replace(a=foreign)                 # a card the leader never held
    doctored = list(traces)
    doctored[i] = DealTrace(dealer=t.dealer, hands=t.hands, talons=t.talons, events=events)
    with pytest.raises(AssertionError) as e:
        compare_deal_rows(CLASSIC, cols, doctored)
    message = str(e.value)
    assert message.startswith(f"kernel deal row {i}: the reference engine refuses the kernel's trace: event {j}: "
                              f"seat {first.seat} played"), message
    [path] = replayed_files(message, artifacts)
    code, out, err = explain(capsys, path)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert f"event {j}: seat {first.seat} played" in err


def test_a_differing_game_writes_the_game(artifacts, capsys):
    rules = CLASSIC.with_overrides("max_deals=5")
    games, deals, ev = kernel.play_games(np.random.PCG64(4), rules, "random", n_games=2, trace=True)
    traces = kernel.game_traces(rules, games, deals, ev)
    assert len(compare_game_rows(rules, games, deals, traces)) == 2      # as played: equal
    doctored = {c: v.copy() for c, v in games.items()}
    doctored["final1"][1] -= 120
    with pytest.raises(AssertionError) as e:
        compare_game_rows(rules, doctored, deals, traces)
    message = str(e.value)
    assert message.startswith("kernel game 1: game columns differ (column, kernel, reference): [('final1', "), message
    [path] = replayed_files(message, artifacts)
    assert GameTrace.from_json(open(path, encoding="utf-8").read()).to_dict() == traces[1].to_dict()
    code, out, _ = explain(capsys, path)
    assert code == 0 and "final scores" in out
    # the scores after a deal differ: the game is named with the first deal that differs
    late = {c: v.copy() for c, v in deals.items()}
    rows = np.flatnonzero((late["game_id"] == 0) & (late["redeal"] == 0))
    late["total2"][rows[3]] += 10
    with pytest.raises(AssertionError, match=r"^kernel game 0: the scores after played deal 3 differ: kernel \["):
        compare_game_rows(rules, games, late, traces)


def test_reference_play_against_the_kernel_writes_both_deals(artifacts, capsys):
    rules = parse_rules_spec("russian")
    cols = kernel.play_deals(np.random.PCG64(8), rules, "random", n_deals=10)
    stream = Stream(np.random.PCG64(8))
    results = reference_deals(rules, [RandomPlayer(stream)] * 3, stream, 10)
    compare_reference_rows(rules, cols, results)                        # as played: equal
    doctored = {c: v.copy() for c, v in cols.items()}
    doctored["declarer_points"][4] += 1
    with pytest.raises(AssertionError) as e:
        compare_reference_rows(rules, doctored, results, what="RandomPlayer",
                               kernel_traces=lambda: kernel_deals(rules, 10, 8)[1])
    message = str(e.value)
    assert message.startswith("deal row 4: RandomPlayer and the kernel differ (column, kernel, reference): "
                              "[('declarer_points', "), message
    reference, kernel_file = replayed_files(message, artifacts)
    assert reference.endswith("-deal4-reference.json") and kernel_file.endswith("-deal4-kernel.json")
    # the same deal, played alike by both engines: both files print the same playthrough
    shown = [explain(capsys, p) for p in (reference, kernel_file)]
    assert all(code == 0 for code, _, _ in shown)
    assert shown[0][1].splitlines()[1:] == shown[1][1].splitlines()[1:]
    assert "(rules russian)" in shown[0][1].splitlines()[0]


def test_the_printed_command_runs_as_a_command(artifacts):
    cols, traces = kernel_deals(n=3)
    doctored = {c: v.copy() for c, v in cols.items()}
    doctored["contract"][0] += 5
    with pytest.raises(AssertionError) as e:
        compare_deal_rows(CLASSIC, doctored, traces)
    [path] = replayed_files(str(e.value), artifacts)
    run = subprocess.run([sys.executable, "-m", "thousand", "explain", "--replay", path],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.startswith("--- replayed deal"), run.stderr
