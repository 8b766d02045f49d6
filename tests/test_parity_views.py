"""What a strategy sees: the kernel's View at every decision equals the reference engine's
View (converted by ``thousand.strategies.kernel_view``) at the same decision.

The kernel logs every decision's View; the reference engine, dealing from the same seed,
asks ``KernelPlayer``s that record the view they hand to the kernel.  Field by field, the
two must agree, so any strategy reading the View decides alike in both engines.  A
difference names the decision and writes the reference engine's deal (or game) holding
it, with the ``thousand explain --replay`` command that prints it.
"""
import numpy as np
import pytest

from thousand import _fastdeal, kernel
from thousand.reference import Stream, play_deal, play_game
from thousand.rules import parse_rules_spec
from thousand.strategies import KernelPlayer, resolve_strategies

from helpers.artifacts import failure

COMMON = ["players", "seat", "dealer", "forehand", "hand", "step", "high", "high_seat",
          "declarer", "contract", "blind", "obligation", "talon", "played", "trick_index", "trump",
          "sitter", "golden", "received", "given", "n_tricks", "ace_marriage"]
PER_SEAT = ["bids", "passed", "points", "score", "marriage_points", "bolts", "resignations", "voids"]
BY_KIND = {
    _fastdeal.DECISION_KINDS["blind"]: [],
    _fastdeal.DECISION_KINDS["redeal"]: ["redeal_kind"],
    _fastdeal.DECISION_KINDS["bid"]: ["min_bid", "max_bid"],
    _fastdeal.DECISION_KINDS["hand_off"]: [],
    _fastdeal.DECISION_KINDS["raise"]: ["min_bid", "max_bid", "can_resign", "resign_cost", "resign_gift"],
    _fastdeal.DECISION_KINDS["play"]: ["legal", "declarable"],
}


class Recorder(KernelPlayer):
    def __init__(self, log, *a, **k):
        super().__init__(*a, **k)
        self.log = log

    def _view(self, view, kind, **extra):
        d = super()._view(view, kind, **extra)
        self.log.append((_fastdeal.DECISION_KINDS[kind], d))
        return d


def kernel_side(rules, strategy, seed, n, games):
    codes, params = resolve_strategies(strategy, rules.players)
    eng = _fastdeal.Engine(np.random.PCG64(seed), rules.to_kernel(), codes, params)
    buf = np.zeros(200_000, dtype=kernel.VIEW_DTYPE)
    eng.log_views(buf.view(np.uint8))
    if games:
        g = np.zeros(n, dtype=kernel.GAME_ROW_DTYPE)
        eng.run_games(n, g.view(np.uint8), 0, None, 0, 0, None, 0)
    else:
        cols = kernel._deal_buffer(n * 3, rules.players)
        eng.run_deals(n, cols, n * 3, None, 0, 0)
    assert eng.n_views < len(buf)
    return buf[:eng.n_views]


class ReferenceSide:
    """The reference engine dealing from the same seed with recording ``KernelPlayer``s:
    ``log`` holds every decision's view, ``where[i]`` the deal (or game) decision ``i``
    belongs to, ``traces`` those deals' (or games') traces."""

    def __init__(self, rules, strategy, seed, n, games):
        self.rules, self.games = rules, games
        self.log, self.where, self.traces = [], [], []
        bitgen = np.random.PCG64(seed)
        stream = Stream(bitgen)
        players = [Recorder(self.log, strategy, bitgen=bitgen) for _ in range(rules.players)]
        if games:
            for _ in range(n):
                self.traces.append(self._recorded(lambda: play_game(rules, players, stream)))
        else:
            dealer = played = 0
            while played < n:
                res = self._recorded(lambda: play_deal(rules, players, stream, dealer))
                self.traces.append(res.trace)
                if not res.is_redeal:
                    played += 1
                    dealer = (dealer + 1) % rules.players

    def _recorded(self, play):
        before = len(self.log)
        res = play()
        self.where += [len(self.traces)] * (len(self.log) - before)
        return res.trace if self.games else res

    def failure(self, i, message):
        """``message`` with the deal or game of decision ``i`` written out."""
        k = self.where[i] if i < len(self.where) else len(self.traces) - 1
        what = "game" if self.games else "deal"
        return failure(f"{message} (in {what} {k} of the reference engine's run)", self.rules, self.traces[k],
                       f"{what}{k}")


def compare(kv, ref, players):
    log = ref.log
    for i, (rec, (kind, d)) in enumerate(zip(kv, log)):
        if rec["kind"] != kind:
            raise AssertionError(ref.failure(i, f"decision {i}: the kernel asks decision kind {rec['kind']}, "
                                                f"the reference engine {kind}"))
        got, want = {}, {}
        for f in COMMON + BY_KIND[kind]:
            got[f] = rec[f].tolist()[:2] if f == "given" else int(rec[f])
            want[f] = d.get(f, -1 if f == "received" else 0) if f != "given" else list(d[f])[:2]
        for f in PER_SEAT:
            got[f] = rec[f].tolist()[:players]
            want[f] = list(d[f])[:players] + [0] * (players - len(d[f][:players]))
        got["active"] = rec["active"].tolist()[:rec["n_active"]]
        want["active"] = list(d["active"])
        if kind == _fastdeal.DECISION_KINDS["play"]:
            got["trick"] = list(zip(rec["trick_seats"].tolist(), rec["trick_cards"].tolist()))[:rec["trick_n"]]
            want["trick"] = list(zip(d["trick_seats"], d["trick_cards"]))
        if got != want:
            diff = [(f, got[f], want[f]) for f in got if got[f] != want[f]]
            raise AssertionError(ref.failure(i, f"decision {i}: the views differ (field, kernel, reference): {diff}"))
    if len(kv) != len(log):
        i = min(len(kv), len(log))
        raise AssertionError(ref.failure(i, f"the kernel logged {len(kv)} decisions, the reference engine "
                                            f"{len(log)}: one of them asks more (decision {i})"))


@pytest.mark.parametrize("spec", ["classic", "russian", "polish", "classic:players=2,redeal_talon_jacks=none",
                                  "classic:players=4,blind=on,cut_nine_penalty=on"])
@pytest.mark.parametrize("strategy", ["random", "standard"])
def test_views_in_deals(spec, strategy, seed):
    rules = parse_rules_spec(spec)
    compare(kernel_side(rules, strategy, [seed, 41], 120, False), ReferenceSide(rules, strategy, [seed, 41], 120, False),
            rules.players)


@pytest.mark.parametrize("spec", ["classic:golden_kon=on,blind=on,target=500,barrel_at=380,max_deals=60",
                                  "russian:target=400,barrel_at=300,max_deals=60"])
def test_views_in_games(spec, seed):
    rules = parse_rules_spec(spec)
    compare(kernel_side(rules, "standard", [seed, 43], 2, True), ReferenceSide(rules, "standard", [seed, 43], 2, True),
            rules.players)


def test_a_differing_view_writes_the_deal_holding_it(tmp_path, monkeypatch, capsys):
    from thousand import cli

    from helpers.artifacts import ARTIFACTS_ENV

    monkeypatch.setenv(ARTIFACTS_ENV, str(tmp_path))
    rules = parse_rules_spec("classic")
    kv, ref = kernel_side(rules, "standard", 7, 4, False), ReferenceSide(rules, "standard", 7, 4, False)
    compare(kv, ref, 3)                                       # as played: equal
    i = len(kv) - 1                                           # the last decision: in the last deal
    kv = kv.copy()
    kv["score"][i][1] += 5
    with pytest.raises(AssertionError) as e:
        compare(kv, ref, 3)
    message = str(e.value)
    k = len(ref.traces) - 1
    assert message.startswith(f"decision {i}: the views differ (field, kernel, reference): [('score', "), message
    assert f"(in deal {k} of the reference engine's run)" in message
    path = message.rsplit("show it: thousand explain --replay ", 1)[1].strip()
    assert path.endswith(f"-deal{k}.json")
    assert cli.main(["explain", "--replay", path]) == 0 and "score changes:" in capsys.readouterr().out
