"""``thousand solve``: typed positions solved as the reference twin solves them, the JSON
fields, seed mode, and one-line errors for bad positions."""
import json

import pytest

from thousand import cli
from thousand.cards import parse_card, parse_hand
from thousand.reference import solver as ref
from thousand.reference.play import Position
from thousand.rules import CLASSIC, highest_contract


def solve_json(capsys, *args: str) -> dict:
    assert cli.main(["solve", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def by_hand(rules, hands: list[str], leader: int, trump: int, trick: str, taken: list[int]) -> Position:
    """The position built by hand from the play rules (the command's parsing not involved):
    the trick's cards start in their players' hands and are played."""
    n = len(hands)
    masks = [parse_hand(h) for h in hands] + [0] * (rules.players - n)
    cards = [parse_card(t) for t in trick.split()]
    for i, c in enumerate(cards):
        masks[(leader + i) % n] |= 1 << c
    left = len(hands[(leader + len(cards)) % n].split())
    p = Position.start(rules, masks, tuple(range(n)), leader)
    p = p._evolve(trump=trump, trick_index=(10 if n == 2 else 8) - left,
                  points=tuple(taken) + (0,) * (rules.players - n))
    for c in cards:
        p = p.play(c)
    return p


def moves_of(out: dict) -> dict:
    return {(parse_card(m["card"]), True) if m["declare"] else parse_card(m["card"]): m["value"] for m in out["cards"]}


def test_a_typed_mid_trick_endgame_agrees_with_the_reference_solver(capsys):
    # three tricks left, hearts trump, seat 1 has led the J♠ and the declarer (seat 2) follows
    hands = ["A♠ Q♦ 9♥", "10♠ J♥", "K♠ 10♥ A♥"]
    out = solve_json(capsys, "--hands", " | ".join(hands), "--declarer", "2", "--lead", "1", "--trick", "JS",
                     "--trump", "H", "--taken", "20,31,156")
    p = by_hand(CLASSIC, hands, leader=1, trump=3, trick="J♠", taken=[20, 31, 156])
    assert out["value"] == ref.minimax(p, 2) == ref.solve(p, 2)
    assert moves_of(out) == ref.card_values(p, 2)
    assert out["to_play"] == 2 and out["trick"] == ["JS"] and out["tricks_left"] == 3
    assert out["taken"] == {"0": 20, "1": 31, "2": 156}


def test_a_lead_that_may_declare_is_listed_twice_with_the_reference_values(capsys):
    out = solve_json(capsys, "--hands", "QH KH 9C | AH 9S JC | TH JS AC")
    p = by_hand(CLASSIC, ["QH KH 9C", "AH 9S JC", "TH JS AC"], leader=0, trump=-1, trick="", taken=[0, 0, 0])
    values = moves_of(out)
    assert (parse_card("QH"), True) in values and (parse_card("KH"), True) in values
    assert values == ref.card_values(p, 0)
    assert out["value"] == ref.minimax(p, 0) == max(values.values())


@pytest.mark.parametrize("players, hands", [(4, ["AH 9S QC", "TH KS JC", "KH QS AC"]),
                                            (2, ["AH 9S QC KD", "TH KS JC 9D"])])
def test_other_table_sizes_agree_with_the_reference_solver(capsys, players, hands):
    rules = CLASSIC.with_overrides(f"players={players}")
    out = solve_json(capsys, "--hands", " | ".join(hands), "--set", f"players={players}", "--declarer", "1")
    p = by_hand(rules, hands, leader=1, trump=-1, trick="", taken=[0] * len(hands))
    assert out["value"] == ref.minimax(p, 1)
    assert moves_of(out) == ref.card_values(p, 1)


def test_json_reachable_and_best_follow_the_value(capsys):
    out = solve_json(capsys, "--hands", "AH TH KH | QS 9S KS | JH JS JC", "--trump", "H", "--taken", "142,22,18")
    levels = list(range(100, highest_contract(CLASSIC) + 1, CLASSIC.bid_step))
    assert [int(t) for t in out["reachable"]] == levels
    assert all(ok == (out["value"] >= int(t)) for t, ok in out["reachable"].items())
    assert any(out["reachable"].values()) and not all(out["reachable"].values())   # the example straddles
    best = max(m["value"] for m in out["cards"])               # the declarer is to play: highest is best
    assert best == out["value"]
    assert [m["value"] for m in out["cards"]] == sorted((m["value"] for m in out["cards"]), reverse=True)
    assert all(m["best"] == (m["value"] == best) for m in out["cards"])


def test_a_defender_to_play_lists_the_lowest_first(capsys):
    out = solve_json(capsys, "--hands", "TH 9C | KH 9S JD | QH JS AD", "--trick", "AH")
    values = [m["value"] for m in out["cards"]]
    assert out["to_play"] == 1 and values == sorted(values) and values[0] == out["value"]


def test_text_output_names_the_value_contracts_and_best_card(capsys):
    assert cli.main(["solve", "--hands", "AH TH | KH 9S | QH JS"]) == 0
    text = capsys.readouterr().out
    p = by_hand(CLASSIC, ["AH TH", "KH 9S", "QH JS"], leader=0, trump=-1, trick="", taken=[0, 0, 0])
    assert f"value: {ref.solve(p, 0)}" in text
    assert "contracts: not 100..400" in text and "* A♥" in text


def test_seed_mode_is_deterministic_and_is_the_explained_deal(capsys):
    first = solve_json(capsys, "--seed", "7")
    assert solve_json(capsys, "--seed", "7") == first
    held = [parse_hand(h) for h in first["hands"].values()]
    assert [bin(h).count("1") for h in held] == [8, 8, 8] and sum(held) == (1 << 24) - 1
    # the explained deal (the same stream): its dealt hands and talon are the solved deal's cards
    assert cli.main(["explain", "--seed", "7", "--json"]) == 0
    trace = json.loads(capsys.readouterr().out)
    declarer = first["declarer"]
    dealt = parse_hand(trace["hands"][declarer]) | parse_hand(trace["talons"][0])
    assert bin(dealt & held[list(first["hands"]).index(str(declarer))]).count("1") == 8
    assert solve_json(capsys, "--seed", "8")["hands"] != first["hands"]


@pytest.mark.parametrize("spec", ["classic:players=4", "russian:players=4"])
@pytest.mark.parametrize("deal", [7, 11])
def test_a_four_player_deal_numbers_its_seats_as_hands_does(capsys, tmp_path, spec, deal):
    # --seed (and --trace) show the three seats that play as 0, 1, 2 in play order, as
    # --hands numbers them, and name the table seats: the deal typed back is the same position
    out = solve_json(capsys, "--seed", str(deal), "--rules", spec)
    assert sorted(out["hands"]) == ["0", "1", "2"] and sorted(out["taken"]) == ["0", "1", "2"]
    assert cli.main(["explain", "--seed", str(deal), "--rules", spec, "--json"]) == 0
    trace = json.loads(capsys.readouterr().out)
    dealer = trace["dealer"]
    assert out["sits_out"] == dealer
    assert out["table_seats"] == {str(i): (dealer + 1 + i) % 4 for i in range(3)}   # from the forehand on
    typed = solve_json(capsys, "--hands", " | ".join(out["hands"][str(i)] for i in range(3)),
                       "--declarer", str(out["declarer"]), "--trump", out["trump"], "--rules", spec)
    assert typed["value"] == out["value"] and typed["cards"] == out["cards"]
    assert {k: typed[k] for k in ("hands", "declarer", "leader", "to_play")} == \
        {k: out[k] for k in ("hands", "declarer", "leader", "to_play")}
    assert typed["sits_out"] == 3 and typed["table_seats"] == {"0": 0, "1": 1, "2": 2}
    # the text says which table seat sits out and which is which
    assert cli.main(["solve", "--seed", str(deal), "--rules", spec]) == 0
    text = capsys.readouterr().out
    assert f"4 players: table seat {dealer}, the dealer, sits out" in text
    assert f"0 = table seat {(dealer + 1) % 4}," in text and f"seat {out['declarer']} (declarer" in text
    # a trace of the deal is numbered the same way
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(trace), encoding="utf-8")
    assert solve_json(capsys, "--trace", str(path)) == out


@pytest.mark.parametrize("args, message", [
    (["--hands", "AH TH | AH 9S | QH JS"], "card AH is given twice"),
    (["--hands", "AH TH | KH 9S | QH JS", "--trick", "TH"], "card 10H is given twice"),
    (["--hands", "AH TH | KH 9S | QH"], "seat 2 holds 1 card(s), not 2"),
    (["--hands", "AH TH | KH 9S"], "players=3, so give 3 hands"),
    (["--hands", "AH TH | KH 9S | QH JS", "--set", "players=2"], "players=2, so give 2 hands"),
    (["--hands", "AH TH | KH 9S | QH JS", "--trump", "X"], "unknown suit 'X'"),
    (["--hands", "AH TH KH | QS 9S KS | QH JS JC", "--trump", "H"], "no marriage of that suit can have been declared"),
    (["--hands", "AH TH | KH 9S | QH XS"], "bad card 'XS'"),
    (["--hands", "TH | KH | QH JS", "--trick", "AH 9S"], "seat 1 may not play 9S there"),
    (["--hands", "AH TH | KH 9S | QH JS", "--declarer", "3"], "--declarer: must be a seat 0..2"),
    (["--hands", "AH TH | KH 9S | QH JS", "--taken", "1,2"], "--taken: give 3 whole numbers"),
    (["--hands", "A♥ 10♥ K♥ Q♥ A♠ 10♠ K♠ Q♠ J♠ | 9♥ | 9♠"], "1..8"),
    (["--hands", "AH TH | KH 9S | QH JS", "--taken", "99999999999999999999,0,0"], "--taken: give 3 whole numbers 0..10000"),
    (["--hands", "AH TH | KH 9S | QH JS", "--taken", "3000000000,0,0"], "--taken: give 3 whole numbers 0..10000"),
    (["--hands", "AH TH | KH 9S | QH JS", "--taken=-3,0,0"], "--taken: give 3 whole numbers 0..10000"),
    (["--hands", "AH TH | KH 9S | QH JS", "--taken", "-3,0,0"], "--taken: give 3 whole numbers 0..10000"),
    (["--hands", "♥10 9H | KH 9S | QH JS"], "bad card '♥10': write the rank first, then the suit, e.g. '10♥'"),
    (["--seed", "7", "--trump", "H"], "drop --trump"),
    # both of the marriage in completed tricks: its partner fell after the declaring lead, a
    # trick that two completed tricks (the first one's lead declares nothing) cannot hold
    (["--hands", "AS TS 9S JS AC TC | 9C JC AD TD KD QD | JD 9D AH TH KH QH", "--trump", "S", "--taken", "56,0,0"],
     "no marriage of that suit can have been declared"),
    (["--hands", "AS TS 9S JS AC TC 9H | 9C JC AD TD KD QD QC | JD 9D AH TH KH QH KC", "--trump", "S",
      "--set", "marriage_first_trick=on", "--taken", "49,0,0"], "no marriage of that suit can have been declared"),
])
def test_bad_positions_are_one_line_errors(capsys, args, message):
    assert cli.main(["solve", *args]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and message in err, err


FULL_3 = "KH 9D 9C 9H JH JC JD QS | QH KS AS TS QC KC AC TC | QD KD AD TD AH TH 9S JS"   # 8 cards each


@pytest.mark.parametrize("args, message", [
    # nothing played yet: the declarer leads the first trick
    (["--hands", FULL_3, "--lead", "1"], "seat 1 leads the first trick, but the declarer (seat 0) leads it"),
    (["--hands", "KH 9D 9C 9H JH JC JD QS AD TD | QH KS AS TS QC KC AC TC QD KD", "--set", "players=2",
      "--lead", "1"], "seat 1 leads the first trick, but the declarer (seat 0) leads it"),
    (["--hands", "KH 9D 9C 9H JH JC JD QS | KS AS TS QC KC AC TC | QD KD AD TD AH TH 9S JS", "--lead", "1",
      "--trick", "QH", "--declarer", "2"], "seat 1 leads the first trick, but the declarer (seat 2) leads it"),
    # a trump nobody can have declared: both of its queen and king in the trick in progress ...
    (["--hands", "9C | JC | 9S JS", "--trick", "QH KH", "--trump", "H"], "trump H: no marriage of that suit"),
    # ... led on the first trick (no marriage there without marriage_first_trick) ...
    (["--hands", "KH 9D 9C 9H JH JC JD | KS AS TS QC KC AC TC QS | QD KD AD TD AH TH 9S JS", "--trick", "QH",
      "--trump", "H"], "no lead so far could declare one"),
    # ... or played in the only completed trick, the first
    (["--hands", "KH 9D 9C 9H JH JC JD | KS AS TS QC KC AC TC | QD KD AD TD AH TH 9S", "--trump", "H",
      "--taken", "0,0,0"], "no lead so far could declare one"),
    # points taken that the completed tricks and the marriages cannot add up to
    (["--hands", FULL_3, "--taken", "500,0,0"], "the seats have taken 500 in all, but the completed tricks hold 0"),
    (["--hands", "AH TH | KH 9S | QH JS", "--taken", "0,0,0"], "the completed tricks hold 90 card points"),
    (["--hands", "AH TH KH | QS 9S KS | JH JS JC", "--trump", "H", "--taken", "140,22,18"],
     "the seats have taken 180 in all, but the completed tricks hold 82 card points"),
    (["--hands", "AH TH KH | QS 9S KS | JH JS JC", "--trump", "H", "--taken", "82,0,0"],   # no trump marriage
     "(the trump's among them)"),
    # the trump set by the lead in progress: its 100 is the leader's, not a defender's (try-out 7)
    (["--hands", "KH AS | 9H 9S 9C | JH JS JC", "--trick", "QH", "--trump", "H", "--taken", "0,196,0"],
     "trump H was set by this trick's lead (Q♥) declaring the 100 marriage, so seat 0 has taken at least 100, "
     "not 0"),
])
def test_positions_no_play_can_reach_are_one_line_errors(capsys, args, message):
    assert cli.main(["solve", *args]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "bad position" in err and message in err, err


@pytest.mark.parametrize("args", [
    # the first trick's lead may declare with marriage_first_trick: Q♥ led keeping K♥
    ["--hands", "KH 9D 9C 9H JH JC JD | KS AS TS QC KC AC TC QS | QD KD AD TD AH TH 9S JS", "--trick", "QH",
     "--trump", "H", "--set", "marriage_first_trick=on", "--taken", "100,0,0"],
    # after one completed trick the lead of the second may declare (Q♥ led now, K♥ kept)
    ["--hands", "KH 9D 9C 9H JH JC | KS AS TS QC KC AC TC | QD KD AD TD AH 9S JS", "--trick", "QH",
     "--trump", "H", "--taken", "100,0,15"],   # the first trick's J♦ Q♠ 10♥ to seat 2, 100 to seat 0
    # the ace marriage sets the trump: an ace played, the suit's queen and king both held
    ["--hands", "AS AC 9C 9H | QH KH TC TD | KD QD JD TH", "--trump", "D",
     "--set", "ace_marriage=200", "--taken", f"{120 - 68 + 200},0,0"],
    # points that add up: 90 card points, or 82 with the trump's 100 and the 80 of the played K♦
    ["--hands", "AH TH | KH 9S | QH JS", "--taken", "60,30,0"],
    ["--hands", "AH TH KH | QS 9S KS | JH JS JC", "--trump", "H", "--taken", "200,62,0"],
])
def test_positions_a_play_can_reach_are_solved(capsys, args):
    assert cli.main(["solve", *args]) == 0, capsys.readouterr().err


def test_help_teaches_with_an_example(capsys):
    with pytest.raises(SystemExit):
        cli.main(["solve", "--help"])
    text = capsys.readouterr().out
    assert "examples:" in text and "thousand solve --hands" in text


def write_trace(capsys, tmp_path, seed: int) -> tuple[str, dict]:
    assert cli.main(["explain", "--seed", str(seed), "--json"]) == 0
    text = capsys.readouterr().out
    path = tmp_path / "deal.json"
    path.write_text(text, encoding="utf-8")
    return str(path), json.loads(text)


def test_a_trace_at_its_first_lead_is_the_seed_position(capsys, tmp_path):
    path, _ = write_trace(capsys, tmp_path, 7)
    assert solve_json(capsys, "--trace", path) == solve_json(capsys, "--seed", "7")


def test_a_trace_before_its_last_card_is_worth_what_the_deal_made(capsys, tmp_path):
    # one card left to play: no choice, so the value is the declarer's points at the end,
    # which the replayed deal counts on its own
    from thousand.reference import replay_deal
    from thousand.trace import DealTrace, EventKind

    path, data = write_trace(capsys, tmp_path, 7)
    deal = replay_deal(CLASSIC, DealTrace.from_dict(data))
    last = max(i for i, e in enumerate(deal.trace.events) if e.kind == EventKind.PLAY)
    out = solve_json(capsys, "--trace", path, "--at", str(last))
    assert len(out["cards"]) == 1 and out["tricks_left"] == 1
    assert out["value"] == deal.deal_points[deal.declarer]
    # and the value along the actual line never rises after the declarer's card nor falls after a defender's
    values = [solve_json(capsys, "--trace", path, "--at", str(i))["value"]
              for i, e in enumerate(deal.trace.events) if e.kind == EventKind.PLAY]
    movers = [e.seat for e in deal.trace.events if e.kind == EventKind.PLAY]
    for before, after, seat in zip(values, values[1:], movers):
        assert (after <= before) if seat == deal.declarer else (after >= before)


@pytest.mark.parametrize("args, message", [
    (["--at", "3", "--seed", "7"], "--at picks an event of a --trace"),
    (["--at", "3"], "the play is events"),
    (["--at", "99"], "the play is events"),
    (["--trump", "H"], "--trace takes the position from the deal; drop --trump"),
    (["--set", "players=4"], "the trace was played under classic"),
])
def test_bad_trace_requests_are_one_line_errors(capsys, tmp_path, args, message):
    path, _ = write_trace(capsys, tmp_path, 7)
    extra = [] if "--seed" in args else ["--trace", path]
    assert cli.main(["solve", *extra, *args]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and message in err, err


def test_a_file_that_is_no_deal_trace_is_a_one_line_error(capsys, tmp_path):
    path = tmp_path / "x.json"
    path.write_text('{"first_dealer": 0, "deals": []}', encoding="utf-8")
    assert cli.main(["solve", "--trace", str(path)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "is not a deal trace" in err


def test_the_docs_console_examples_are_the_real_output(capsys, tmp_path, monkeypatch):
    # every ```console block of docs/solve.md: each `$ thousand ...` is run, and the lines
    # shown after it are its real output's, in order: consecutive lines consecutive, "..."
    # skipping some
    import re
    import shlex
    from pathlib import Path

    monkeypatch.chdir(tmp_path)
    doc = (Path(__file__).parent.parent / "docs" / "solve.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```console\n(.*?)```", doc, re.S)
    checked = 0
    for block in blocks:
        for command in re.split(r"^\$ ", block, flags=re.M)[1:]:
            first, *shown = command.splitlines()
            words = shlex.split(first)
            target = None
            if ">" in words:
                words, target = words[:words.index(">")], words[words.index(">") + 1]
            assert words[0] == "thousand" and cli.main(words[1:]) == 0, first
            out = capsys.readouterr().out
            if target:
                Path(target).write_text(out, encoding="utf-8")
                continue
            real = out.splitlines()
            at = 0
            for run in "\n".join(shown).split("\n...\n"):     # lines between two "..." follow each other
                run = [x for x in run.splitlines() if x != "..."]
                starts = [i for i in range(at, len(real) - len(run) + 1) if real[i:i + len(run)] == run]
                assert starts, f"{first}: these lines are not the real output's (in order):\n" + "\n".join(run)
                at = starts[0] + len(run)
                checked += len(run)
    assert checked > 20


HAND_OFF_3 = "AH TH KH QH AD 9S JC KS 9D JH | AS TS QS JS AC KC 9H | TC QC 9C TD KD QD JD"   # 10, 7, 7


def test_typed_hands_before_the_hand_off_solve_every_hand_off(capsys):
    """10 cards for the declarer and 7 for each defender: every hand-off, best first, each
    worth the value of the play start it gives; the value is the best one's."""
    from thousand import solver

    out = solve_json(capsys, "--hands", HAND_OFF_3, "--declarer", "0")
    hands = [parse_hand(h) for h in HAND_OFF_3.split("|")]
    entries = out["hand_offs"]
    assert out["before_hand_off"] and len(entries) == 90
    assert out["value"] == entries[0]["value"] == max(e["value"] for e in entries)
    assert [e["value"] for e in entries] == sorted((e["value"] for e in entries), reverse=True)
    assert all(e["best"] == (e["value"] == out["value"]) for e in entries)
    assert out["reachable"]["100"] and out["reachable"][str(out["value"] // 5 * 5)]
    assert not out["reachable"].get(str(out["value"] // 5 * 5 + 5), False)
    for e in entries[:3] + entries[-3:]:
        a, b = parse_card(e["give"]["1"]), parse_card(e["give"]["2"])
        h = list(hands)
        h[0] &= ~((1 << a) | (1 << b))
        h[1] |= 1 << a
        h[2] |= 1 << b
        assert e["value"] == solver.value(Position.start(CLASSIC, h, (0, 1, 2), 0), 0)
    assert solver.best_hand_off(CLASSIC, hands, (0, 1, 2), 0)[1] == out["value"]
    text = cli.main(["solve", "--hands", HAND_OFF_3]) == 0 and capsys.readouterr().out
    assert f"value: {out['value']} -- the declarer's deal points with the best hand-off" in text
    assert "10 of 90" in text and "80 more" in text


def test_two_players_lay_away_with_the_cards_points_counted(capsys):
    from thousand import solver
    from thousand.cards import card_points

    rules = CLASSIC.with_overrides({"players": 2})
    typed = "AH TH KH QH AD 9S JC KS 9D JH AC KC | AS TS QS JS TC QC 9H 9C TD KD"
    out = solve_json(capsys, "--hands", typed, "--set", "players=2")
    hands = [parse_hand(h) for h in typed.split("|")]
    assert len(out["hand_offs"]) == 66
    # the two cards typed in neither hand are the talon set aside, for the last trick's winner
    aside = card_points(((1 << 24) - 1) & ~hands[0] & ~hands[1])
    assert out["set_aside_points"] == aside > 0
    for e in out["hand_offs"][:2] + out["hand_offs"][-2:]:
        laid = sum(1 << parse_card(c) for c in e["lay_away"])
        p = Position.start(rules, [hands[0] & ~laid, hands[1]], (0, 1), 0)._evolve(set_aside_points=aside)
        assert e["value"] == solver.value(p, 0, card_points(laid))


def test_a_seed_deals_hand_off_marks_the_one_made_and_it_is_the_played_start(capsys):
    """--seed S --hand-off: the hand-off the deal's declarer made is worth what
    `solve --seed S` (the play's start after it) says."""
    before = solve_json(capsys, "--seed", "7", "--hand-off")
    after = solve_json(capsys, "--seed", "7")
    made = before["made"]
    assert made["value"] == after["value"] <= before["value"]
    assert made in before["hand_offs"]
    d = str(before["declarer"])
    given = {parse_card(c) for c in made["give"].values()}
    assert parse_hand(before["hands"][d]) & ~sum(1 << c for c in given) == parse_hand(after["hands"][d])
    for s, c in made["give"].items():
        assert parse_hand(after["hands"][s]) == parse_hand(before["hands"][s]) | 1 << parse_card(c)
    assert cli.main(["solve", "--seed", "7", "--hand-off"]) == 0
    assert "the declarer's own hand-off:" in capsys.readouterr().out


def test_a_traces_hand_off_is_the_seeds(capsys, tmp_path):
    assert cli.main(["explain", "--seed", "7", "--json"]) == 0
    path = tmp_path / "deal.json"
    path.write_text(capsys.readouterr().out, encoding="utf-8")
    assert solve_json(capsys, "--trace", str(path), "--hand-off") == solve_json(capsys, "--seed", "7", "--hand-off")
    assert cli.main(["solve", "--trace", str(path), "--hand-off", "--at", "30"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "--hand-off solves the position before the hand-off" in err


@pytest.mark.parametrize("args, message", [
    (["--hands", HAND_OFF_3, "--trump", "H"], "before the hand-off (he leads, no trump, nothing taken); drop --trump"),
    (["--hands", HAND_OFF_3, "--lead", "1"], "drop --lead"),
    (["--hands", HAND_OFF_3, "--hand-off"], "--hand-off solves a --seed or --trace deal's hand-off"),
    (["--hands", HAND_OFF_3[:-3]], "the declarer holds 10 cards, as before the hand-off, when each defender holds 7; "
                                   "seat 2 holds 6"),
    # seat 1 holds the ten: "seat 1 holds 10 card(s), not 7" left the user to guess (try-out 33)
    (["--hands", "AS TS QS JS AC KC 9H | AH TH KH QH AD 9S JC KS 9D JH | TC QC 9C TD KD QD JD"],
     "seat 1 holds 10 cards and the others 7: the play's start before the hand-off with seat 1 declaring; "
     "add --declarer 1"),
])
def test_bad_hand_off_requests_are_one_line_errors(capsys, args, message):
    assert cli.main(["solve", *args]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and message in err, err


def test_two_player_values_say_what_they_count(capsys):
    typed = "Q♠ 10♠ Q♣ 10♣ 9♦ J♦ 10♦ 9♥ Q♥ K♥ | 9♠ K♠ A♠ A♣ Q♦ K♦ A♦ 10♥ A♥ J♥"
    assert cli.main(["solve", "--set", "players=2", "--hands", typed, "--declarer", "1"]) == 0
    assert "typed hands: the cards laid away and the talon set aside are not known and count 0" in \
        capsys.readouterr().out
    deal = solve_json(capsys, "--seed", "5", "--set", "players=2")
    assert deal["laid_away_points"] > 0 and "set_aside_points" in deal
    # the seed's deal typed back: the same cards, less what the deal laid away and set aside
    hands = " | ".join(deal["hands"][s] for s in ("0", "1"))
    typed_back = solve_json(capsys, "--set", "players=2", "--hands", hands, "--declarer", str(deal["declarer"]))
    assert typed_back["laid_away_points"] is None and typed_back["set_aside_points"] is None   # (was 0: try-out 28)
    assert typed_back["value"] <= deal["value"] <= typed_back["value"] + deal["laid_away_points"] \
        + deal["set_aside_points"]


def test_options_that_restate_the_start_before_the_hand_off_are_taken(capsys):
    # "--trump none" and "--taken 0,0,0" were refused as if they changed the start (try-out 5)
    plain = solve_json(capsys, "--hands", HAND_OFF_3)
    assert solve_json(capsys, "--hands", HAND_OFF_3, "--trump", "none", "--taken", "0,0,0", "--lead", "0") == plain


def test_a_trump_whose_marriage_fell_whole_needs_a_trick_after_its_lead(capsys):
    # two completed tricks held K♠ and Q♠ and "trump S" was taken (try-out 11); with three,
    # one can have declared at trick 2 and the other fallen at trick 3
    three = "AS TS 9S JS AC | 9C JC AD TD KD | JD 9D AH TH KH"
    assert solve_json(capsys, "--hands", three, "--trump", "S", "--taken", "72,0,0")["trump"] == "S"
    # the ace marriage: the led ace, then the holder's other aces one trick each
    aces = "--set", "ace_marriage=200,marriage_first_trick=on"
    # (K♥ Q♥ kept: only the ace marriage can have made hearts trump)
    four = "KH QH TS JS | 9C JC QC KC | 9D JD QD KD"    # 4 tricks done: the four aces among them
    assert solve_json(capsys, "--hands", four, "--trump", "H", *aces)["trump"] == "H"
    assert cli.main(["solve", "--hands", "KS QS TS KH QH | 9C JC QC KC TC | 9D JD QD KD TD", "--trump", "H",
                     *aces]) == 2     # 3 tricks: too few for the four aces
    assert "no marriage of that suit can have been declared" in capsys.readouterr().err


@pytest.mark.parametrize("spec", ["classic", "classic:marriage_first_trick=on",
                                  "classic:ace_marriage=200,marriage_first_trick=on",
                                  "classic:ace_marriage=100,ace_marriage_sets_trump=off", "classic:players=2",
                                  "classic:players=4,ace_marriage=200"])
def test_every_position_of_played_deals_passes_the_history_checks(spec):
    # the checks are necessary conditions: a position real play reached must never be refused
    from thousand.lines import line_of_deal
    from thousand.reference.game import play_game
    from thousand.reference.players import RandomPlayer
    from thousand.reference.rng import Stream
    from thousand.rules import parse_rules_spec
    from thousand.solver import check_history
    rules = parse_rules_spec(spec + ("," if ":" in spec else ":") + "max_deals=30")
    checked = declared = 0
    for seed in range(3):
        deals = []
        play_game(rules, [RandomPlayer(Stream(100 + s)) for s in range(rules.players)], Stream(seed),
                  on_deal=lambda res, notes: deals.append(res))
        for res in deals:
            line = line_of_deal(res)
            if line is None:
                continue
            declared += any(d for _, _, d in line.moves)
            for p in line.positions()[:-1]:
                check_history(p, line.declarer, points=True)
                checked += 1
    assert checked > 1000 and declared >= 5


def test_the_value_line_says_whether_points_taken_are_counted(capsys):
    # a typed position after some play without --taken said "(points taken so far included)"
    # while nothing was: a declaring lead's 100 missing from the value read as counted (try-out 11)
    assert cli.main(["solve", "--hands", "TH 9C | KH 9S JD | QH JS AD", "--trick", "AH"]) == 0
    assert "(nothing counted as taken so far: --taken gives what the seats took)" in capsys.readouterr().out
    assert cli.main(["solve", "--hands", "AH TH KH | QS 9S KS | JH JS JC", "--trump", "H", "--taken", "142,22,18"]) == 0
    assert "from here (points taken so far included)" in capsys.readouterr().out
    assert cli.main(["solve", "--seed", "7"]) == 0     # the first lead: nothing was taken yet
    assert "from here (points taken so far included)" in capsys.readouterr().out
    # --taken given, all zeros (a first trick of three nines): counted, not "nothing counted" (try-out 18)
    assert cli.main(["solve", "--hands", "AH TH KH QH JH AS TS | KS QS JS AC TC KC QC | JC AD TD KD QD JD 9H",
                     "--taken", "0,0,0"]) == 0
    assert "from here (points taken so far included)" in capsys.readouterr().out


def test_a_resigned_deals_json_names_the_rules_first_and_a_lay_away_is_said_once(capsys):
    assert cli.main(["solve", "--seed", "19", "--json"]) == 0     # a resigned deal (try-out 18)
    out = json.loads(capsys.readouterr().out)
    assert list(out)[:2] == ["rules", "resigned"] and out["resigned"]["contract"] > 0
    assert cli.main(["solve", "--rules", "classic:players=2", "--seed", "4", "--hand-off"]) == 0
    own = [x for x in capsys.readouterr().out.splitlines() if x.startswith("the declarer's own")]
    assert own and own[0].startswith("the declarer's own lay-away: ") and "lay away" not in own[0]


def test_the_solvers_python_entries_refuse_what_they_would_misread():
    # hostile try-out 14: a float row cut to int32 unchecked ("no trump" -1 + 0.5 became
    # spades), declarers ignored for rows, laid-away points at 3 players, any flags
    import numpy as np
    import pytest
    from thousand import solver as SV
    from thousand.cards import parse_hand
    from thousand.reference.play import Position
    from thousand.rules import CLASSIC
    hands = (parse_hand("AH TH"), parse_hand("KH 9S"), parse_hand("QH JS"))
    p = Position.start(CLASSIC, hands, active=(0, 1, 2), leader=0)._evolve(trick_index=6)
    row = SV.position_row(p, 0)[None]
    assert SV.solve_many(CLASSIC, row, 0)[0] == SV.value(p, 0)
    for call, needle in ((lambda: SV.solve_many(CLASSIC, row.astype(float) + 0.5, 0), "must be whole numbers"),
                         (lambda: SV.solve_many(CLASSIC, row, 2), "the rows' own declarers"),
                         (lambda: SV.solve_many(CLASSIC, row, None, laid_away_points=50), "in the rows already"),
                         (lambda: SV.value(p, 0, laid_away_points=20), "with 3 there are none"),
                         (lambda: SV.card_values(p, 0, laid_away_points=5), "with 3 there are none"),
                         (lambda: SV.value(p, 0, flags=1.5), "FLAG_"), (lambda: SV.value(p, 0, flags=999), "FLAG_"),
                         (lambda: SV.card_values(p, 0, flags=-1), "FLAG_")):
        with pytest.raises(ValueError, match=needle):
            call()
    assert SV.value(p, 0, flags=SV.FLAG_NO_TABLE | SV.FLAG_MTD) == SV.value(p, 0)
    # rows that are no position: they answered -30000, 45, 24 (try-out 18)
    for field, bad in ((slice(4, 7), [0, 0, 0]), (0, parse_hand("AH KH")), (7, 3), (8, 5), (slice(4, 7), [0, 1, 3]),
                       (slice(9, 11), [1, 0])):
        broken = row.copy()
        broken[0, field] = bad
        with pytest.raises(ValueError, match="position 0 cannot be solved"):
            SV.solve_many(CLASSIC, broken, None)
    # positions badly formed: one ValueError naming the problem, not a Python internal error
    for change, needle in ((dict(trick=((0, -1),)), "seats and cards"), (dict(trick=((0, 1.0),)), "seats and cards"),
                           (dict(trick=((0,),)), "seats and cards"), (dict(trick_index=1.5), "trick_index"),
                           (dict(trick_index="6"), "trick_index"), (dict(points=None), "one number a seat"),
                           (dict(points=(5, 0)), "one number a seat"), (dict(points=(0,) * 5), "one number a seat"),
                           (dict(leader=0.0), "leader")):
        with pytest.raises(ValueError, match=needle):
            SV.value(p._evolve(**change), 0)
