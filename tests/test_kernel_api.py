"""The batch entry points: shapes, seeding, validation, buffer growth, forced declarer."""
import math

import numpy as np
import pytest

from thousand import kernel
from thousand.cards import card_points, parse_hand, popcount
from thousand.errors import ThousandError
from thousand.reference import Stream
from thousand.rules import CLASSIC, RUSSIAN


def test_same_seed_same_output():
    a = kernel.play_deals(np.random.PCG64(11), CLASSIC, "random", n_deals=2000)
    b = kernel.play_deals(np.random.PCG64(11), CLASSIC, "random", n_deals=2000)
    for k in a:
        np.testing.assert_array_equal(a[k], b[k])
    c = kernel.play_deals(np.random.PCG64(12), CLASSIC, "random", n_deals=2000)
    assert not np.array_equal(a["hand0"][:100], c["hand0"][:100])


def test_deal_rows_count_played_deals_and_redeals():
    cols = kernel.play_deals(np.random.PCG64(1), CLASSIC, "greedy", n_deals=5000)
    assert int((cols["redeal"] == 0).sum()) == 5000
    assert len(cols["deal_id"]) > 5000            # greedy demands every redeal it may
    np.testing.assert_array_equal(cols["deal_id"], np.arange(len(cols["deal_id"])))
    assert (cols["game_id"] == -1).all() and (cols["deal_no"] == 0).all()
    played = cols["redeal"] == 0
    # the dealer rotates per played deal from seat 0
    k = np.cumsum(played) - played
    np.testing.assert_array_equal(cols["dealer"], k % 3)
    # every played deal's card points sum to 120
    total = cols["points0"].astype(int) + cols["points1"] + cols["points2"]
    assert (total[played & ~cols["resigned"]] == 120).all()


def test_dealt_cards_are_the_reference_stream():
    """Same seed, same deck as thousand.reference.rng (the first deal, no cut)."""
    bitgen = np.random.PCG64(99)
    stream = Stream(np.random.PCG64(99))
    cols = kernel.play_deals(bitgen, CLASSIC, "greedy", n_deals=1)
    deck = stream.shuffle()
    # play_deals' first dealer is seat 0: forehand seat 1 gets deck[0:7]
    assert cols["hand1"][0] == sum(1 << c for c in deck[0:7])
    assert cols["hand2"][0] == sum(1 << c for c in deck[7:14])
    assert cols["hand0"][0] == sum(1 << c for c in deck[14:21])
    assert cols["talon"][0] == sum(1 << c for c in deck[21:24])


def test_generator_accepted_and_counts_are_keywords():
    cols = kernel.play_deals(np.random.Generator(np.random.PCG64(1)), CLASSIC.to_kernel(), ["standard"], n_deals=50)
    assert int((cols["redeal"] == 0).sum()) == 50
    # One meaning per argument: a count in the parameters' place is refused, not guessed.
    for call in (lambda: kernel.play_deals(np.random.PCG64(1), CLASSIC, "standard", 50),
                 lambda: kernel.play_games(np.random.PCG64(1), CLASSIC, "standard", 5),
                 lambda: kernel.play_forced_declarer(np.random.PCG64(1), CLASSIC, None, None, 0x7F, "rear", 10)):
        with pytest.raises(TypeError):
            call()


def test_bad_inputs_are_user_errors():
    with pytest.raises(ThousandError):
        kernel.play_deals(np.random.PCG64(1), CLASSIC, "nonsense", n_deals=5)
    with pytest.raises(ThousandError):
        kernel.play_deals(np.random.PCG64(1), CLASSIC, "greedy", n_deals=-1)
    with pytest.raises(ThousandError):
        kernel.play_deals(np.random.PCG64(1), CLASSIC, ["greedy", "random"], n_deals=5)
    with pytest.raises(ThousandError):
        kernel.play_deals(12345, CLASSIC, "greedy", n_deals=5)
    with pytest.raises(ThousandError, match="n_deals: at most 2,147,483,647 in one call"):
        kernel.play_deals(np.random.PCG64(1), CLASSIC, "greedy", n_deals=2**63)   # numpy's own error before
    with pytest.raises(ThousandError, match="params: every number must be finite"):
        kernel.play_deals(np.random.PCG64(1), CLASSIC, "standard", n_deals=5, params=np.full((3, 8), np.nan))
    with pytest.raises(ThousandError, match="rules: expected Rules, a spec such as 'classic'"):
        kernel.play_deals(np.random.PCG64(1), object(), "greedy", n_deals=5)
    # a spec is read as simulate() reads it
    a = kernel.play_deals(np.random.PCG64(1), "russian", "greedy", n_deals=20)
    b = kernel.play_deals(np.random.PCG64(1), RUSSIAN, "greedy", n_deals=20)
    assert all(np.array_equal(a[k], b[k]) for k in b)
    with pytest.raises(ThousandError):
        kernel.play_forced_declarer(np.random.PCG64(1), CLASSIC, hand=0x7F, role="dealer", n_samples=10)
    with pytest.raises(ThousandError):
        kernel.play_forced_declarer(np.random.PCG64(1), CLASSIC, hand=0xFF, role="forehand", n_samples=10)


def test_buffers_grow_for_long_traces():
    # random bidding without a cap makes long auctions: the event buffer must grow
    rules = RUSSIAN.with_overrides("bid_cap=none,bid_step=1")
    cols, ev = kernel.play_deals(np.random.PCG64(2), rules, "random", n_deals=300, trace=True)
    assert int((cols["redeal"] == 0).sum()) == 300
    assert ev[:, 0].max() == len(cols["deal_id"]) - 1
    assert (np.diff(ev[:, 0]) >= 0).all()


def test_games_rows_and_seeding():
    g1, d1 = kernel.play_games(np.random.PCG64(4), CLASSIC, "greedy", n_games=20, deal_rows=True)
    g2, d2 = kernel.play_games(np.random.PCG64(4), CLASSIC, "greedy", n_games=20)
    assert d2 is None
    for k in g1:
        np.testing.assert_array_equal(g1[k], g2[k])
    np.testing.assert_array_equal(g1["game_id"], np.arange(20))
    over = (g1["final0"] >= 1000) | (g1["final1"] >= 1000) | (g1["final2"] >= 1000)
    np.testing.assert_array_equal(g1["winner"] >= 0, over)
    assert ((g1["winner"] >= 0) | (g1["deals"] == CLASSIC.max_deals)).all()
    for k in range(20):
        m = d1["game_id"] == k
        assert int((d1["redeal"][m] == 0).sum()) == g1["deals"][k]
        assert int((d1["redeal"][m] != 0).sum()) == g1["redeals"][k]


def test_forced_declarer_sampled():
    hand = parse_hand("AH TH KH QH AS TS AD")
    res = kernel.play_forced_declarer(np.random.PCG64(5), CLASSIC, "greedy", hand=hand, role="forehand", n_samples=2000)
    assert res.declarer == 1 and len(res.talon) == 2000
    assert all(popcount(int(t)) == 3 and not int(t) & hand for t in res.talon[:200])
    # card points of the three seats sum to 120 (marriages on top)
    cards = res.points.astype(int).sum(1) - res.marriages.astype(int).sum(1)
    assert (cards == 120).all()
    assert (res.declarer_points == res.points[:, 1]).all()       # no last-trick bonus in classic
    assert (res.declarer_points >= 100).mean() > 0.5              # a strong hand
    # the talon is uniform over the 680 possible talons: each unseen card in ~3/17 of them
    unseen = [c for c in range(24) if not hand >> c & 1]
    freq = np.array([np.mean((res.talon >> c) & 1) for c in unseen])
    se = math.sqrt(3 / 17 * 14 / 17 / 2000)
    assert np.abs(freq - 3 / 17).max() < 5 * se


def test_forced_declarer_exact_counts_every_completion():
    hand = parse_hand("9S JS 9C JC 9D JD 9H")
    res = kernel.play_forced_declarer(np.random.PCG64(5), CLASSIC, "greedy", hand=hand, role="rear", n_samples=0,
                                      exact=True)
    assert len(res.talon) == math.comb(17, 3) * math.comb(14, 7)
    talons, counts = np.unique(res.talon, return_counts=True)
    assert len(talons) == math.comb(17, 3) and (counts == math.comb(14, 7)).all()
    assert (res.declarer_points >= 0).all()


def test_endless_redeals_are_an_error_not_a_hang():
    rules = CLASSIC.with_overrides("redeal_hand_points_max=120")    # every hand qualifies
    with pytest.raises(ThousandError, match="^10,000 redeals in a row"):
        kernel.play_deals(np.random.PCG64(1), rules, "greedy", n_deals=5)
    with pytest.raises(ThousandError, match="redeals in a row"):
        kernel.play_games(np.random.PCG64(1), rules, "greedy", n_games=1)


def test_trace_chosen_deals_and_games():
    from thousand.reference import replay_deal, replay_game
    cols, ev_all = kernel.play_deals(np.random.PCG64(9), CLASSIC, "random", n_deals=300, trace=True)
    cols2, ev = kernel.play_deals(np.random.PCG64(9), CLASSIC, "random", n_deals=300, trace=[5, 250, 7])
    np.testing.assert_array_equal(cols["hand0"], cols2["hand0"])    # tracing changes nothing
    played = np.flatnonzero(cols2["redeal"] == 0)
    rows = kernel.traced_rows(ev)
    assert set(played[[5, 7, 250]]) <= set(rows.tolist())
    assert all(cols2["redeal"][r] != 0 or r in played[[5, 7, 250]] for r in rows)
    full = {int(r): t for r, t in zip(kernel.traced_rows(ev_all), kernel.deal_traces(cols, ev_all, 3))}
    for r, t in zip(rows, kernel.deal_traces(cols2, ev, 3)):
        assert t == full[int(r)]
        replay_deal(CLASSIC, t)
    games, deals, ev = kernel.play_games(np.random.PCG64(3), CLASSIC, "greedy", n_games=4, trace=[2])
    gt = kernel.game_traces(CLASSIC, games, deals, ev)
    assert list(gt) == [2]
    assert replay_game(CLASSIC, gt[2]).to_row(game_id=2)["final0"] == games["final0"][2]
    with pytest.raises(ThousandError):
        kernel.play_deals(np.random.PCG64(9), CLASSIC, "random", n_deals=10, trace=[10])


def test_doctests_of_the_python_layer():
    import doctest

    from thousand import strategies
    for module in (kernel, strategies):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted > 0, module.__name__


def test_the_kernel_runs_without_the_gil():
    """While a thread plays deals, this thread keeps running Python code."""
    import threading
    import time as _time

    done = threading.Event()

    from thousand import _fastdeal
    from thousand.strategies import resolve_strategies
    codes, params = resolve_strategies("greedy", 3)
    eng = _fastdeal.Engine(np.random.PCG64(1), CLASSIC.to_kernel(), codes, params)
    cols = kernel._deal_buffer(600_000)

    def work():
        eng.run_deals(400_000, cols, 600_000, None, 0, 0)     # one call: all in nogil
        done.set()

    t = threading.Thread(target=work)
    t.start()
    _time.sleep(0.02)
    ticks = 0
    while not done.is_set():
        ticks += 1
    t.join()
    assert ticks > 1000


def test_row_buffers_grow_when_redeals_are_many():
    rules = CLASSIC.with_overrides("redeal_hand_points_max=30")    # most deals are redealt
    for players in (3, 4):
        r = rules.with_overrides(f"players={players}")
        cols = kernel.play_deals(np.random.PCG64(6), r, "greedy", n_deals=500)
        assert len(cols["deal_id"]) > 2 * 500
        assert int((cols["redeal"] == 0).sum()) == 500
        np.testing.assert_array_equal(cols["deal_id"], np.arange(len(cols["deal_id"])))
        assert (cols[f"hand{players - 1}"] | cols["hand0"]).all()
        games, deals = kernel.play_games(np.random.PCG64(6), r.with_overrides("max_deals=200"), "greedy",
                                         n_games=2, deal_rows=True)
        assert len(deals["deal_id"]) == int(games["deals"].sum() + games["redeals"].sum())


def test_game_counters_never_wrap_in_their_columns():
    # QA: 40,000-deal games were written as deals=-25536; the kernel's counters are 32-bit
    import numpy as np

    from thousand import kernel
    from thousand.errors import ThousandError
    from thousand.rules import parse_rules_spec
    with pytest.raises(ValueError, match="max_deals: must be between 1 and 32767"):  # RulesError
        parse_rules_spec("classic:max_deals=40000")
    fits = kernel._narrowed("deals", np.array([1, 32_767], dtype=np.int32), np.int16)
    assert fits.dtype == np.int16 and fits.tolist() == [1, 32_767]
    with pytest.raises(ThousandError, match=r"a game's redeals \(40,000\) does not fit the int16 column"):
        kernel._narrowed("redeals", np.array([3, 40_000], dtype=np.int32), np.int16)
    # the largest game the rules allow fits: a 4-seat random game that never ends
    games, deals = kernel.play_games(np.random.PCG64(3), parse_rules_spec("classic:players=4,max_deals=32767"),
                                     ["random"] * 4, n_games=1, deal_rows=True)
    assert games["deals"].tolist() == [32_767] or games["winner"][0] >= 0
    assert deals["deal_no"].min() >= 0 and deals["deal_no"].max() == games["deals"][0] - 1


@pytest.mark.parametrize("mode", ["forced exact", "forced sampled", "pass"])
def test_a_long_forced_run_stops_on_ctrl_c(mode):
    """thousand bid's kernel runs (one call, GIL released: an exact enumeration takes
    seconds, pimc's samples minutes) honour Ctrl-C within the call, not after it, and the
    engine's next run is unchanged by the interrupted one."""
    import _thread
    import threading
    import time

    hand = parse_hand("AH TH KH QH AD 9S JC", n=7)

    def run():
        if mode == "forced exact":
            return kernel.play_forced_declarer(np.random.PCG64(1), CLASSIC, hand=hand, role="forehand", exact=True)
        if mode == "forced sampled":
            return kernel.play_forced_declarer(np.random.PCG64(1), CLASSIC, hand=hand, role="forehand",
                                               n_samples=5_000_000)
        return kernel.play_forced_pass(np.random.PCG64(1), CLASSIC, hand=hand, role="forehand",
                                       n_samples=5_000_000)

    # each run takes a second or more in full (2.3 M completions at about 2 M a second on
    # the fastest host; 5 M samples twice that); the interrupt comes after 0.1 s
    timer = threading.Timer(0.1, _thread.interrupt_main)
    t0 = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        run()
        time.sleep(5)   # (not reached when the call stops: a missed interrupt still lands here)
    took = time.perf_counter() - t0
    timer.join()
    assert took < 0.6, f"the interrupt was honoured only after {took:.2f} s"
    # nothing of the stopped run stays in a later one
    a = kernel.play_forced_declarer(np.random.PCG64(5), CLASSIC, hand=hand, role="middle", n_samples=2000)
    b = kernel.play_forced_declarer(np.random.PCG64(5), CLASSIC, hand=hand, role="middle", n_samples=2000)
    np.testing.assert_array_equal(a.declarer_points, b.declarer_points)
