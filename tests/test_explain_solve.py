"""``thousand explain --solve``: the open-hand value along a played deal.

What must hold whatever the deal: the values chain (after card i is before card i+1),
the last is what the deal counted, the declarer's value never rises after his own card
nor falls after a defender's, each cost is that step, the losses add up to the
difference, the trick answers are the solver's ``reaches``, and the late values are the
plain-Python reference solver's."""
import json

import pytest

from thousand import cli, solver
from thousand.cards import parse_card
from thousand.lines import line_of_deal
from thousand.players import make_player
from thousand.reference import Stream, play_deal, solver as ref
from thousand.rules import CLASSIC, parse_rules_spec


def explain_json(capsys, *args: str) -> dict:
    assert cli.main(["explain", *args, "--solve", "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def played_deal(rules, seed: int):
    """The deal ``thousand explain --seed`` plays (standard players, redeals dealt again)."""
    stream = Stream(seed)
    players = [make_player("standard", rules, s, stream) for s in range(rules.players)]
    dealer = stream.draw_bounded(rules.players)
    while True:
        res = play_deal(rules, players, stream, dealer)
        if not res.is_redeal:
            return res


def check_chain(out: dict) -> None:
    s = out["solve"]
    cards = s["cards"]
    assert cards[0]["before"] == s["start_value"]
    for a, b in zip(cards, cards[1:]):
        assert a["after"] == b["before"]
    assert cards[-1]["after"] == s["taken"]
    for c in cards:
        step = c["after"] - c["before"]
        if c["side"] == "declarer":
            assert step <= 0 and c["cost"] == -step
        else:
            assert step >= 0 and c["cost"] == step
        assert ("best" in c) == (c["cost"] > 0)
    assert s["declarer_loss"] == sum(c["cost"] for c in cards if c["side"] == "declarer")
    assert s["defence_loss"] == sum(c["cost"] for c in cards if c["side"] == "defence")
    assert s["taken"] == s["start_value"] - s["declarer_loss"] + s["defence_loss"]
    for t in s["tricks"]:
        assert t["declarer_can_make"] == (t["value"] >= s["contract"]) != t["defence_can_beat"]


@pytest.mark.parametrize("spec, deal_seed", [("classic", 2), ("classic", 3), ("russian", 5),
                                        ("classic:players=4", 3), ("classic:players=2", 3)])
def test_values_chain_and_end_at_the_points_the_deal_counted(capsys, spec, deal_seed):
    out = explain_json(capsys, "--seed", str(deal_seed), "--rules", spec)
    check_chain(out)
    res = played_deal(parse_rules_spec(spec), deal_seed)
    assert out["solve"]["taken"] == res.declarer_points
    assert out["solve"]["contract"] == res.contract and out["solve"]["declarer"] == res.declarer
    n_cards = (10 if res.rules.players == 2 else 8) * (2 if res.rules.players == 2 else 3)
    assert len(out["solve"]["cards"]) == n_cards and len(out["solve"]["tricks"]) == n_cards // len(res.active)


def test_a_deal_with_mistakes_names_the_best_cards_with_their_values(capsys):
    out = explain_json(capsys, "--seed", "2")
    check_chain(out)
    res = played_deal(CLASSIC, 2)
    line = line_of_deal(res)
    positions = line.positions()
    costly = [(k, c) for k, c in enumerate(out["solve"]["cards"]) if c["cost"]]
    assert costly
    for k, c in costly:
        values = solver.card_values(positions[k], line.declarer)
        best = max(values.values()) if c["side"] == "declarer" else min(values.values())
        assert c["best_value"] == best == c["before"]
        played = (parse_card(c["card"]), True) if c["declare"] else parse_card(c["card"])
        assert values[played] == c["after"]


def test_the_last_two_tricks_agree_with_the_reference_solver(capsys):
    out = explain_json(capsys, "--seed", "3")
    res = played_deal(CLASSIC, 3)
    line = line_of_deal(res)
    positions = line.positions()
    for k in range(18, 24):
        assert out["solve"]["cards"][k]["before"] == ref.minimax(positions[k], line.declarer)


def test_the_trick_answers_are_the_solvers_reaches(capsys):
    out = explain_json(capsys, "--seed", "5", "--rules", "russian")
    res = played_deal(parse_rules_spec("russian"), 5)
    line = line_of_deal(res)
    positions = line.positions()
    starts = [p for p in positions[:-1] if not p.trick]
    assert len(starts) == len(out["solve"]["tricks"])
    for p, t in zip(starts, out["solve"]["tricks"]):
        assert t["declarer_can_make"] == solver.reaches(p, line.declarer, line.contract)
        assert t["value"] == solver.value(p, line.declarer)


@pytest.mark.parametrize("spec, deal_seed, step", [("classic", 2, 5), ("classic:players=4", 3, 5),
                                                   ("classic:players=2", 5, 1)])
def test_the_event_numbers_are_thousand_solve_traces(capsys, tmp_path, spec, deal_seed, step):
    # with 2 players solve refused traces and seeds, and typed hands leave out the cards
    # laid away and the talon set aside: explain's values could not be had (try-out 5)
    out = explain_json(capsys, "--seed", str(deal_seed), "--rules", spec)
    trace = tmp_path / "deal.json"
    trace.write_text(json.dumps(out))   # the trace with its "solve" object still replays
    for c in out["solve"]["cards"][::step]:
        assert cli.main(["solve", "--trace", str(trace), "--at", str(c["event"]), "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["value"] == c["before"]
    assert cli.main(["solve", "--seed", str(deal_seed), "--rules", spec, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["value"] == out["solve"]["start_value"]
    replayed = explain_json(capsys, "--replay", str(trace), "--rules", spec)
    assert replayed["solve"] == out["solve"]


def test_text_output_marks_costly_cards_and_sums_the_losses(capsys):
    from thousand.cards import card_name

    s = explain_json(capsys, "--seed", "2")["solve"]
    assert cli.main(["explain", "--seed", "2", "--solve"]) == 0
    text = capsys.readouterr().out
    c = s["contract"]
    for t in s["tricks"]:
        assert (f"trick {t['trick']}: value {t['value']} -- can the declarer still make {c}? "
                f"{'yes' if t['declarer_can_make'] else 'no'}") in text
    for e in s["cards"]:
        if e["cost"]:
            who = "the declarer" if e["side"] == "declarer" else "the defence"
            # the best value first: after the cards it read as one more of them (try-out 5)
            assert f"{e['before']:>4} -> {e['after']:<4}  costs {who} {e['cost']} (best: {e['best_value']} with " \
                in text
            assert card_name(parse_card(e["best"][0].partition("+")[0])) in text
    assert (f"{s['start_value']} - {s['declarer_loss']} + {s['defence_loss']} = {s['taken']}") in text


def test_what_cannot_be_solved_is_a_one_line_error(capsys):
    assert cli.main(["explain", "--seed", "1", "--game", "--solve"]) == 2
    err = capsys.readouterr().err.strip()
    assert "--solve annotates one deal; drop --game" in err and len(err.splitlines()) == 1


def test_a_resigned_deal_is_solved_from_the_hand_off_he_made(capsys):
    """No card was played, but "could he have made it?" has an answer: the open-hand value
    of the play he declined, from the hands the trace shows after his hand-off."""
    from thousand.reference.play import Position
    from thousand.trace import EventKind

    seed = next(s for s in range(1, 500) if played_deal(CLASSIC, s).resigned)
    res = played_deal(CLASSIC, seed)
    s = explain_json(capsys, "--seed", str(seed))["solve"]
    assert s["resigned"] is True and s["cards"] == [] and s["tricks"] == [] and s["taken"] is None
    assert s["makeable"] == (s["start_value"] >= s["contract"] == res.contract)
    # the position built here from the deal's cards and its HAND_OFF event
    row = res.to_row()
    d, dealer = int(row["declarer"]), int(row["dealer"])
    hands = [int(row[f"hand{k}"]) for k in range(3)]
    hands[d] |= int(row["talon"])
    give = next(e for e in res.trace.events if e.kind == EventKind.HAND_OFF)
    active = tuple((dealer + 1 + k) % 3 for k in range(3))
    nxt, other = active[(active.index(d) + 1) % 3], active[(active.index(d) + 2) % 3]
    hands[d] &= ~((1 << give.a) | (1 << give.b))
    hands[nxt] |= 1 << give.a
    hands[other] |= 1 << give.b
    v = solver.value(Position.start(CLASSIC, hands, active, d), d)
    assert s["start_value"] == s["hand_off"]["value"] == v
    assert s["hand_off"]["cost"] == s["hand_off"]["best_value"] - v >= 0
    assert cli.main(["explain", "--seed", str(seed), "--solve"]) == 0
    text = capsys.readouterr().out
    assert (f"resigned: open-handed, the play he declined was worth {v} -- could he have made "
            f"{res.contract}? {'yes' if v >= res.contract else 'no'}") in text
    # thousand solve answers the same for the seed, and says the deal was resigned
    assert cli.main(["solve", "--seed", str(seed), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["value"] == v and out["resigned"] == {"contract": res.contract}
    assert cli.main(["solve", "--seed", str(seed)]) == 0
    assert capsys.readouterr().out.startswith(f"the declarer resigned his contract of {res.contract} in this deal")


def test_a_resigned_deals_no_says_when_the_best_hand_off_would_have_made_it(capsys):
    # "could he have made 100? no" stood under "best: 101 with Q♠ Q♥" (try-out 18)
    assert cli.main(["explain", "--rules", "classic:players=2", "--seed", "7", "--solve", "--json"]) == 0
    s = json.loads(capsys.readouterr().out)["solve"]
    assert s["resigned"] and not s["makeable"] and s["hand_off"]["best_value"] >= s["contract"]
    assert cli.main(["explain", "--rules", "classic:players=2", "--seed", "7", "--solve"]) == 0
    assert (f"could he have made {s['contract']}? no (after this lay-away; yes with the best one)"
            in capsys.readouterr().out)


def test_a_game_trace_is_refused_with_solve(capsys, tmp_path):
    assert cli.main(["explain", "--seed", "1", "--game", "--json", "--set", "max_deals=2"]) == 0
    path = tmp_path / "game.json"
    path.write_text(capsys.readouterr().out)
    assert cli.main(["explain", "--replay", str(path), "--solve"]) == 2
    err = capsys.readouterr().err.strip()
    assert "is a game trace" in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("spec, deal_seed", [("classic", 2), ("classic:players=4", 5), ("classic:players=2", 5)])
def test_the_hand_off_made_is_set_against_the_best_one(capsys, spec, deal_seed):
    """The hand-off (2 players: the lay-away) the declarer made: worth the value at the
    first lead; every best one is worth best_value, which no hand-off beats (each solved
    here from the hands before it, independently of thousand.lines)."""
    from thousand.cards import card_points
    from thousand.reference.play import Position

    rules = parse_rules_spec(spec)
    out = explain_json(capsys, "--seed", str(deal_seed), "--rules", spec)
    s = out["solve"]
    h = s["hand_off"]
    assert h["value"] == s["start_value"] and h["cost"] == h["best_value"] - h["value"] >= 0
    line = line_of_deal(played_deal(rules, deal_seed))
    d = line.declarer
    hands = list(line.start.hands)
    for seat, card in (h["give"].items() if "give" in h else []):
        hands[int(seat)] &= ~(1 << parse_card(card))
    gone = sum(1 << parse_card(c) for c in (h["give"].values() if "give" in h else h["lay_away"]))
    hands[d] |= gone

    def value_of(entry: dict) -> int:
        cards = list(entry["give"].items()) if "give" in entry else []
        given = sum(1 << parse_card(c) for c in (entry["give"].values() if "give" in entry else entry["lay_away"]))
        hs = list(hands)
        hs[d] &= ~given
        for seat, c in cards:
            hs[int(seat)] |= 1 << parse_card(c)
        p = Position.start(rules, hs, line.start.active, d, line.start.set_aside_points)
        return solver.value(p, d, card_points(given) if "lay_away" in entry else 0)

    assert value_of(h) == h["value"]
    assert all(value_of(b) == h["best_value"] for b in h["best"])
    assert h["best_value"] == solver.best_hand_off(rules, hands, line.start.active, d,
                                                   line.start.set_aside_points)[1]


def test_solve_of_a_seed_whose_every_attempt_is_redealt_is_one_line(capsys):
    # explain --seed --solve printed 1,000 redeals and no solve at all, exit 0 (try-out 33)
    from thousand.cli import main

    argv = ["explain", "--seed", "1", "--rules", "classic:redeal_talon_points_max=120", "--strategy", "greedy"]
    assert main(argv + ["--solve"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--solve: seed 1: no deal was played in 1,000 attempts (every one redealt)" in err
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert "REDEAL" in captured.out and "no deal was played in 1,000 attempts" in captured.err
