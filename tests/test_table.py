"""The table (``thousand play``): a person's answers drive the reference engine exactly as a
player's would, a game saved after every answer continues to the same game, undo takes an
answer back, and the terminal front end turns typed lines into those answers."""
import io
import json
import re

import pytest

from thousand.cards import ACE, card_name, format_hand, iter_cards, parse_card
from thousand.cli import main
from thousand.errors import ThousandError
from thousand.players import make_player
from thousand.reference.game import play_game
from thousand.reference.legal import can_declare, dealer_talon_score
from thousand.reference.players import PassivePlayer, RandomPlayer
from thousand.reference.rng import Stream
from thousand.rules import parse_rules_spec
from thousand.table import Quit, TableGame, TextTable, Undo, load, play, save
from thousand.table.session import answer_of, recorded, takebacks_line
from thousand.table.text import _marriage_value

SHORT = "classic:max_deals=3"
BLIND = "russian:max_deals=3,blind=on"


def _answer_as(player):
    """A front end's answers taken from a reference player (as the table saves them)."""
    return lambda d: recorded(d.kind, answer_of(player, d))


class Scripted:
    """A front end that answers by ``policy`` and records what it is asked and shown."""

    def __init__(self, policy, stop_after=None):
        self.policy, self.stop_after = policy, stop_after
        self.muted = False
        self.asked, self.deals, self.lines = [], 0, []

    def news(self, view):
        assert not self.muted

    def ask(self, d):
        if self.stop_after is not None and len(self.asked) == self.stop_after:
            raise Quit("quit")
        self.asked.append(d.kind)
        return self.policy(d)

    def deal_over(self, res, notes):
        if not self.muted:
            self.deals += 1

    def game_over(self, game):
        self.lines.append("over")

    def told(self, text):
        self.lines.append(text)

    def restart(self):
        self.restarts = getattr(self, "restarts", 0) + 1


def _reference_game(spec, seed, person, opponents=("standard", "standard")):
    rules = parse_rules_spec(spec)
    stream = Stream(seed)
    players = [person] + [make_player(o, rules, s, stream) for s, o in enumerate(opponents, start=1)]
    return play_game(rules, players, stream)


def _table_game(spec, seed, opponents=("standard", "standard")):
    rules = parse_rules_spec(spec)
    return TableGame(seed, rules, 0, ["person", *opponents])


@pytest.mark.parametrize("spec, game_seed, person", [
    (SHORT, 5, lambda: PassivePlayer()),
    (SHORT, 6, lambda: RandomPlayer(Stream(99))),
    (BLIND, 7, lambda: RandomPlayer(Stream(98))),
    ("classic:players=2,max_deals=3", 8, lambda: RandomPlayer(Stream(97))),
])
def test_the_persons_answers_play_the_game_a_player_would(spec, game_seed, person):
    opponents = ("standard",) * (parse_rules_spec(spec).players - 1)
    want = _reference_game(spec, game_seed, person(), opponents)
    front = Scripted(_answer_as(person()))
    got = play(_table_game(spec, game_seed, opponents), front)
    assert got.trace.to_dict() == want.trace.to_dict()
    assert front.deals == len(want.deals) and front.lines == ["over"]
    assert len(front.asked) > 10


def test_a_game_stopped_anywhere_continues_from_its_file_to_the_same_game(tmp_path):
    want = _reference_game(SHORT, 6, RandomPlayer(Stream(99)))
    path = tmp_path / "game.json"
    game = _table_game(SHORT, 6)
    person = RandomPlayer(Stream(99))
    with pytest.raises(Quit):
        play(game, Scripted(_answer_as(person), stop_after=7), path)
    saved = json.loads(path.read_text())
    assert len(saved["answers"]) == 7 and not saved["finished"]
    again = load(path)
    assert again.answers == game.answers and again.rules == game.rules and again.seed == 6
    front = Scripted(_answer_as(person))        # the same player goes on where it stopped
    got = play(again, front, path)
    assert got.trace.to_dict() == want.trace.to_dict()
    assert front.asked and len(json.loads(path.read_text())["answers"]) == 7 + len(front.asked)
    assert json.loads(path.read_text())["finished"]


def test_undo_takes_the_last_answer_back_and_the_game_is_the_one_answered_last():
    want = _reference_game(SHORT, 5, PassivePlayer())
    passive = _answer_as(PassivePlayer())
    state = {"plays": 0, "undone": False}

    def policy(d):
        if d.kind == "play" and not state["undone"]:
            state["plays"] += 1
            if state["plays"] == 2:                 # the first card was answered otherwise: take it back
                state["undone"] = True
                raise Undo()
            if state["plays"] == 1:                 # the highest legal card, not passive's lowest
                card = max(iter_cards(d.legal))
                return ["play", card_name(card, symbols=False), False]
        return passive(d)
    front = Scripted(policy)
    game = _table_game(SHORT, 5)
    got = play(game, front)
    assert state["undone"] and "taken back" in front.lines[0]
    assert got.trace.to_dict() == want.trace.to_dict()


def test_undo_of_the_first_answer_does_not_show_the_game_so_far_again():
    # 4 players, the person deals first and sits out: deal 1 was shown a second time after
    # the first answer was taken back (try-out 6)
    four = ["person", "standard", "standard", "standard"]
    spec = "classic:players=4,max_deals=3"
    want = _reference_game(spec, 3, PassivePlayer(), ("standard",) * 3)
    front = _passive_undoing_at(2)
    got = play(TableGame(3, parse_rules_spec(spec), 0, four), front)
    assert got.trace.to_dict() == want.trace.to_dict() and "taken back" in front.lines[0]
    assert front.deals == len(want.deals)       # each deal shown once


def _passive_undoing_at(n):
    """A passive person who says undo at the ``n``-th question (once)."""
    calls = []

    def policy(d):
        calls.append(d.kind)
        if len(calls) == n:
            raise Undo()
        return _answer_as(PassivePlayer())(d)
    return Scripted(policy)


def test_undo_before_any_answer_says_so_and_goes_on():
    front = _passive_undoing_at(1)
    play(_table_game(SHORT, 5), front)
    assert front.lines[0] == "nothing to undo yet"


def test_undo_with_nothing_to_undo_asks_again_without_showing_the_deal_again():
    # the game was played again from its start, shown again up to the question (try-out 17)
    out = io.StringIO()
    typist = Typist(PassivePlayer(), ["undo"], seat=0, players=["person", "standard", "standard"], out=out)
    want = _reference_game("classic:max_deals=1", 5, PassivePlayer())
    got = play(_table_game("classic:max_deals=1", 5), typist)
    assert got.trace.to_dict() == want.trace.to_dict()
    text = out.getvalue()
    assert "(nothing to undo yet)" in text and text.count("=== deal 1:") == 1 and text.count("you open 100") == 1


def test_undo_goes_past_a_forced_pass_to_the_persons_last_choice():
    # a forced pass is saved as an answer; undo took back only it, and replaying it brought
    # the person straight back to the same decision (try-out 6)
    passive = _answer_as(PassivePlayer())

    def bidder(d):      # bids on while it may (so an opponent's raise leaves it a forced pass)
        if d.kind == "bid" and d.lowest <= d.highest:
            return ["bid", d.lowest]
        return passive(d)

    def run(undo_after_forced):
        asked, state = [], {"forced": None, "undone": False}

        def policy(d):
            asked.append((d.kind, d.lowest, d.highest, d.view.hand))
            if d.kind == "bid" and d.lowest > d.highest and state["forced"] is None:
                state["forced"] = len(asked) - 1
            elif undo_after_forced and state["forced"] is not None and not state["undone"]:
                state["undone"] = True
                raise Undo()
            return bidder(d)
        front = Scripted(policy)
        return play(_table_game(SHORT, 7), front), asked, state["forced"], front
    want, _, _, _ = run(False)
    got, asked, f, front = run(True)
    assert f is not None and f >= 1 and "taken back" in front.lines[0]
    assert asked[f - 1][0] == "bid" and asked[f - 1][1] <= asked[f - 1][2]
    assert asked[f + 2] == asked[f - 1]       # f + 1 said undo; then the choice before the forced pass
    assert asked[f + 3] == asked[f]           # and the forced pass again after it
    assert got.trace.to_dict() == want.trace.to_dict()


@pytest.mark.parametrize("edit, said", [
    (lambda d: d["answers"].__setitem__(0, ["play", "AS", False]), "does not fit"),
    (lambda d: d["answers"].__setitem__(0, ["bid", 107]), "does not fit"),
    # numbered as the file's answers, not by the deal's events (try-out 6)
    (lambda d: d["answers"].__setitem__(1, ["contract", 107]), "edited file): answer 2: seat 0 "),
    (lambda d: d.__setitem__("format", "other"), 'no "format": "thousand-table"'),
    (lambda d: d.__setitem__("seat", 1), 'seat must be the one seat whose player is "person"'),
    (lambda d: d["rules"].__setitem__("bolts", "sometimes"), "its rules: bolts"),
    (lambda d: d["answers"].append(["dance", 1]), "answers must be a list of [kind, ...]"),
    (lambda d: d.__setitem__("finished", "no"), "finished must be true or false, not 'no'"),
])
def test_a_damaged_saved_game_is_one_line(tmp_path, capsys, edit, said):
    path = tmp_path / "game.json"
    game = _table_game(SHORT, 5)
    with pytest.raises(Quit):
        play(game, Scripted(_answer_as(PassivePlayer()), stop_after=3), path)
    data = json.loads(path.read_text())
    edit(data)
    path.write_text(json.dumps(data))
    assert main(["play", "--resume", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err and "Traceback" not in err


# --------------------------------------------------------------------------- the terminal
class Typist(TextTable):
    """Types what ``player`` would answer, as a person would write it."""

    def __init__(self, player, lines, **kw):
        self.player, self.extra = player, list(lines)
        super().__init__(read=self._type, **kw)

    def ask(self, d):
        self.decision = d
        return super().ask(d)

    def _type(self, prompt):
        if self.extra:
            return self.extra.pop(0)
        d, v, p = self.decision, self.decision.view, self.player
        if d.kind in ("blind", "redeal"):
            return "y" if (p.go_blind(v) if d.kind == "blind" else p.demand_redeal(v, d.redeal)) else "n"
        if d.kind == "bid":
            b = p.bid(v, d.lowest, d.highest)
            return "pass" if b == 0 else str(b)
        if d.kind == "hand_off":
            return " ".join(card_name(c) for c in p.hand_off(v))
        if d.kind == "contract":
            c = p.raise_or_resign(v, d.lowest, d.highest, d.may_resign)
            return "resign" if c == -1 else "" if c == d.lowest else str(c)
        if prompt.startswith("declare the marriage"):   # the card was typed plainly: not declaring
            return "n"
        card, declare = p.play(v, d.legal)
        return card_name(card, symbols=False) + ("!" if declare else "")


@pytest.mark.parametrize("spec, game_seed", [(SHORT, 6), (BLIND, 7)])
def test_typed_answers_play_the_same_game_and_the_table_shows_it(spec, game_seed):
    want = _reference_game(spec, game_seed, RandomPlayer(Stream(99)))
    out = io.StringIO()
    typist = Typist(RandomPlayer(Stream(99)), [], seat=0, players=["person", "standard", "standard"], out=out)
    got = play(_table_game(spec, game_seed), typist)
    assert got.trace.to_dict() == want.trace.to_dict()
    text = out.getvalue()
    assert "=== deal 1:" in text and "your hand:" in text and "trick 1:" in text and "GAME OVER" in text
    assert text.count("score changes:") == sum(not r.is_redeal for r in want.deals)


def test_bad_typing_is_asked_again_with_the_reason():
    out = io.StringIO()
    lines = ["maybe", "107", "lots", "1_10", "１１０", "+110", "hand", "help"]
    typist = Typist(PassivePlayer(), lines, seat=0, players=["person", "standard", "standard"], out=out)
    game = _table_game("classic:max_deals=1", 11)
    play(game, typist)
    text = out.getvalue()
    assert "your bid (105-160, steps of 5) or pass" not in text   # a prompt goes to the reader, not out
    assert "type a bid (105-160) or pass, not 'maybe'" in text
    assert "a bid here is 105 to 160 in steps of 5, or pass" in text
    assert "type a bid (105-160) or pass, not 'lots'" in text
    for odd in ("1_10", "１１０", "+110"):  # int() reads them all as 110: never a bid
        assert f"type a bid (105-160) or pass, not {odd!r}" in text
    assert "deal 1; scores you 0, seat 1 0, seat 2 0" in text      # "hand" shows the table again
    assert "Cards are written rank then suit" in text               # "help"
    assert "you pass" in text                                       # then the typist's own answer


def test_a_card_not_in_hand_or_not_allowed_is_refused_and_the_marriage_question_is_asked():
    rules = parse_rules_spec(SHORT)
    # find a play decision with a declarable card, and one with a card not allowed
    seen = {}

    class Probe(Scripted):
        def ask(self, d):
            v = d.view
            if d.kind == "play":
                if "declare" not in seen:
                    for c in iter_cards(d.legal):
                        if can_declare(rules, v.hand, c, v.trick_index, not v.trick):
                            seen["declare"] = d
                if "illegal" not in seen and d.legal != v.hand:
                    seen["illegal"] = d
                if "absent" not in seen:
                    seen["absent"] = d
                if "following" not in seen and v.trick and any(
                        can_declare(rules, v.hand, c, v.trick_index, True) for c in iter_cards(d.legal)):
                    seen["following"] = d     # a marriage's card he may play, but not lead
            return super().ask(d)
    wanted = {"declare", "illegal", "absent", "following"}
    for seed in range(1, 30):   # games until the person may declare a marriage
        play(_table_game("classic:max_deals=8", seed), Probe(_answer_as(RandomPlayer(Stream(seed)))))
        if wanted <= set(seen):
            break
    assert wanted <= set(seen)

    def typed(d, lines):
        out = io.StringIO()
        table = TextTable(0, ["person", "standard", "standard"], read=lambda p: lines.pop(0) if lines else None,
                          out=out)
        return table.ask(d), out.getvalue()
    d = seen["illegal"]
    wrong = min(c for c in iter_cards(d.view.hand & ~d.legal))
    right = min(iter_cards(d.legal))
    answer, text = typed(d, [card_name(wrong), card_name(right, symbols=False)])
    assert "is not allowed here; you may play" in text and answer[:2] == ["play", card_name(right, symbols=False)]
    d = seen["absent"]
    missing = min(c for c in range(24) if not d.view.hand >> c & 1)
    _, text = typed(d, [card_name(missing, symbols=False), card_name(min(iter_cards(d.legal)))])
    assert "is not in your hand" in text
    d = seen["declare"]
    c = next(c for c in iter_cards(d.legal) if can_declare(rules, d.view.hand, c, d.view.trick_index, True))
    assert typed(d, [card_name(c), "n"])[0] == ["play", card_name(c, symbols=False), False]
    assert typed(d, [card_name(c), ""])[0] == ["play", card_name(c, symbols=False), True]
    with pytest.raises(Undo):
        typed(d, ["undo"])
    with pytest.raises(Quit):
        typed(d, [])                      # the end of input stops the game as quit does
    # "!" on a card that declares nothing was played plainly, breaking the marriage
    # without a word (try-out 6): refused with the reason, the card asked again
    d = seen["following"]                 # not leading: nobody declares here
    plain = next(c for c in iter_cards(d.legal) if can_declare(rules, d.view.hand, c, d.view.trick_index, True))
    answer, text = typed(d, [card_name(plain, symbols=False) + "!", card_name(plain, symbols=False)])
    assert "declares nothing here: only the leader of a trick declares" in text
    assert answer == ["play", card_name(plain, symbols=False), False]


def test_cli_plays_saves_and_refuses_what_does_not_fit(tmp_path, capsys, monkeypatch):
    path = tmp_path / "g.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("pass\npass\nquit\n"))
    assert main(["play", "--seed", "3", "--save", str(path)]) == 0
    out = capsys.readouterr().out
    assert "thousand play: seed 3, rules classic; you are seat 0" in out
    assert f"thousand play --resume {path} continues it; the game's seed was 3" in out
    assert load(path).seed == 3
    for argv, said in [
        (["play", "--resume", str(path), "--seed", "4"], "--resume takes the seed, rules and seats from the saved "
                                                         "game; drop --seed"),
        (["play", "--seat", "3"], "--seat must be a seat 0..2, got 3"),
        (["play", "--opponent", "nosuch"], "unknown player 'nosuch'"),
        (["play", "--opponent", "standard", "--opponent", "greedy", "--opponent", "random"],
         "--opponent: give it once, or once for each of the 2 other seats"),
        (["play", "--set", "players=2", "--opponent", "standard", "--opponent", "greedy"],
         "--opponent: 2 players have one opponent: give it once, not 2 times"),
        (["play", "--save", str(tmp_path / "no" / "g.json")], "cannot save the game to"),
        (["play", "--resume", str(tmp_path / "none.json")], "none.json"),
    ]:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and said in err, (argv, err)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "--resume", str(path)]) == 0     # end of input at once: kept as it was
    assert "end of input: the game" in capsys.readouterr().out


def test_hint_says_what_the_bots_would_answer_in_the_seat_and_changes_nothing():
    out = io.StringIO()
    plain = _reference_game(SHORT, 6, RandomPlayer(Stream(99)))

    class Asker(Typist):
        def _type(self, prompt):
            d = self.decision
            if d.kind == "play" and not getattr(self, "hinted", False):
                self.hinted = True
                self.expected = [recorded("play", answer_of(make_player(spec, d.view.rules, 0, Stream(0)), d))
                                 for spec in ("standard", "pimc")]
                return "hint"
            return super()._type(prompt)
    typist = Asker(RandomPlayer(Stream(99)), [], seat=0, players=["person", "standard", "standard"], out=out)
    got = play(_table_game(SHORT, 6), typist)
    assert got.trace.to_dict() == plain.trace.to_dict()      # a hint draws nothing from the game's stream
    (std, _), (srch, _) = [(e[1], e[2]) for e in typist.expected]
    lines = out.getvalue().splitlines()
    at = next(i for i, x in enumerate(lines) if x.startswith("  standard:"))
    assert lines[at].startswith(f"  standard: {card_name(parse_card(std))}")
    assert f"pimc: {card_name(parse_card(srch))}" in lines[at]
    # why: the layouts pimc solved, its own card first with how often the contract is made
    why = re.fullmatch(r"  pimc solved (?:all )?([\d,]+) (?:of the ([\d,]+) )?layouts of the hidden cards open-handed: "
                       r"after (\S+)(?: declaring)? (?:you|seat \d) makes? (\d+) in (\d+) of them \((\d+)%\), with \d+ points "
                       r"on average(?:; after \S+(?: declaring)? in \d+ \(\d+%\), with \d+)*(?:; \.\.\.)?", lines[at + 1])
    assert why, lines[at + 1]
    worlds, made = int(why[1].replace(",", "")), int(why[5])
    assert why[3] == card_name(parse_card(srch)) and 0 <= made <= worlds and round(100 * made / worlds) == int(why[6])


def test_save_never_replaces_a_file_and_resume_refuses_any_given_setting(tmp_path, capsys, monkeypatch):
    kept = tmp_path / "kept.json"
    kept.write_text('{"important": 1}')
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "--seed", "5", "--save", str(kept)]) == 2
    assert "already exists: it is not a game saved by thousand play; choose another --save" in \
        capsys.readouterr().err
    assert kept.read_text() == '{"important": 1}'
    assert main(["play", "--seed", "5", "--save", str(tmp_path)]) == 2
    assert f"{str(tmp_path)!r} is a directory: give --save a file name" in capsys.readouterr().err
    game = tmp_path / "g.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("pass\nquit\n"))
    assert main(["play", "--seed", "5", "--save", str(game)]) == 0
    before = game.read_text()
    assert main(["play", "--seed", "6", "--save", str(game)]) == 2
    assert f"already exists: continue the game in it with --resume {game}" in capsys.readouterr().err
    for extra in (["--rules", "classic"], ["--seat", "0"], ["--save", str(kept)]):
        assert main(["play", "--resume", str(game), *extra]) == 2
        err = capsys.readouterr().err
        assert ("drop " + extra[0]) in err or "already exists" in err, err
    assert game.read_text() == before and kept.read_text() == '{"important": 1}'


def test_save_on_a_finished_game_says_it_is_over_not_to_resume_it(tmp_path, capsys):
    # "continue the game in it with --resume FILE", which then refused it (try-out 17)
    path = tmp_path / "done.json"
    save(TableGame(5, parse_rules_spec("classic"), 0, ["person", "standard", "standard"], finished=True), path)
    assert main(["play", "--save", str(path)]) == 2
    err = capsys.readouterr().err
    assert "already exists: it holds a finished game, which cannot be resumed; choose another --save" in err
    assert "--resume" not in err


def _first_decision(spec, seed, want, opponents=("standard", "standard"), person=None):
    """The first decision the person meets (answering as ``person``, passive by default)
    for which ``want(d)``, or None."""
    found = []

    class Find(Scripted):
        def ask(self, d):
            if want(d):
                found.append(d)
                raise Quit("found")
            return super().ask(d)
    try:
        play(TableGame(seed, parse_rules_spec(spec), 0, ["person", *opponents]),
             Find(_answer_as(person or PassivePlayer())))
    except Quit:
        return found[0]
    return None


def _marriages(d):
    v = d.view
    return [] if d.kind != "play" or v.trick else [
        c for c in iter_cards(d.legal) if can_declare(v.rules, v.hand, c, v.trick_index, True)]


def test_the_contract_hint_sums_up_the_points_pimc_weighed():
    d = next(d for d in (_first_decision("classic:max_deals=8", seed, lambda d: d.kind == "contract",
                                         opponents=("passive", "passive")) for seed in range(4, 12)) if d)
    out = io.StringIO()
    lines = ["hint"]
    table = TextTable(0, ["person", "passive", "passive"], read=lambda p: lines.pop(0) if lines else "quit", out=out)
    with pytest.raises(Quit):
        table.ask(d)
    said = [x for x in out.getvalue().splitlines() if x.startswith("  pimc solved")]
    pimc = make_player("pimc", d.view.rules, 0, Stream(0))
    worlds, layouts, points = pimc.raise_tally(d.view, d.lowest, d.highest, d.may_resign)
    answer = answer_of(make_player("pimc", d.view.rules, 0, Stream(0)), d)
    made = [f"{c} made in {sum(p >= c for p in points)} ({round(100 * sum(p >= c for p in points) / worlds)}%)"
            for c in dict.fromkeys([d.lowest] + ([answer] if answer != -1 else []))]
    assert said == [f"  pimc solved {worlds:,} of the {layouts:,} layouts of the hidden cards open-handed: your points "
                    f"{min(points)} to {max(points)}, {round(sum(points) / worlds)} on average; " + "; ".join(made)]
    assert worlds == 8 and len(set(points)) > 1


def test_every_prompt_takes_the_commands_and_long_or_odd_typing_gets_a_short_reason():
    def typed(d, lines):
        out = io.StringIO()
        table = TextTable(0, ["person", "standard", "standard"], read=lambda p: lines.pop(0) if lines else None,
                          out=out)
        return table.ask(d), out.getvalue()
    d = next(d for d in (_first_decision("classic:max_deals=8", seed, _marriages) for seed in range(1, 60)) if d)
    c = card_name(_marriages(d)[0])   # a lead that may declare a marriage
    with pytest.raises(Quit):
        typed(d, [c, "quit"])                    # quit at the marriage question stops, declares nothing
    low = card_name(min(iter_cards(d.legal)))
    answer, text = typed(d, [c, "undo", low])    # undo there takes back the card being played
    assert "the card is taken back" in text and answer[1] == card_name(min(iter_cards(d.legal)), symbols=False)
    answer, text = typed(d, [c, "maybe", "n"])
    assert "answer y or n" in text and answer[2] is False
    answer, text = typed(d, [c, "hint", ""])
    hint = next(x for x in text.splitlines() if x.startswith("  standard:"))
    assert ("declare" in hint or "without declaring" in hint or "would play" in hint) and "pimc:" in hint
    assert answer[2] is True and f"you declare {_marriage_value(d.view.rules, _marriages(d)[0])} in" in text
    answer, text = typed(d, ["x" * 5000, "10H 9H", c + "!"])
    assert "that is 5,000 characters" in text and "xxxxxxxxxx" not in text
    assert "type one card, not 2" in text and answer[2] is True
    answer, text = typed(d, ["b\udcffx", c + "!"])   # bytes that are not UTF-8 (surrogate escapes): not echoed
    assert "that is not UTF-8 text" in text and "\\udcff" not in text and "\udcff" not in text and answer[2] is True
    bid = _first_decision("classic", 3, lambda d: d.kind == "bid" and d.lowest <= d.highest)
    _, text = typed(bid, ["", "9" * 50, "y", "pass"])
    assert "type a bid (" in text and "far out of range" in text and text.count("\n") == 3


def test_a_deal_the_person_only_watches_is_shown_whole_and_undo_restarts_the_count():
    out = io.StringIO()
    four = ["standard", "standard", "person", "standard"]
    typist = Typist(RandomPlayer(Stream(5)), [], seat=2, players=four, out=out)
    play(TableGame(7, parse_rules_spec("classic:players=4,max_deals=2"), 2, four), typist)
    text = out.getvalue()
    watched = text[text.index("=== deal 1"):text.index("=== deal 2")]
    assert "(you sit this one out)" in watched and "opens 100" in watched and "contract:" in watched
    assert watched.index("contract:") < watched.index("trick 1:")

    out = io.StringIO()
    state = {"undone": False}

    class UndoAtDealTwo(Typist):
        def _type(self, prompt):
            if self.deals == 1 and not state["undone"]:
                state["undone"] = True
                return "undo"
            return super()._type(prompt)
    typist = UndoAtDealTwo(PassivePlayer(), [], seat=0, players=["person", "standard", "standard"], out=out)
    play(_table_game(SHORT, 5), typist)
    after = out.getvalue().split("taken back")[1]
    assert state["undone"] and "=== deal 1:" in after and "your hand as dealt:" in after
    # shown from its start, in order, the person's own hand-off included (hostile try-out 3)
    order = ["your hand as dealt: Q♠ 10♠ 9♦ 10♦ 9♥ Q♥ K♥", "you open 100", "you win the auction", "talon:",
             "you give Q♠ to seat 1 and 10♠ to seat 2", "contract: 100 by you", "trick 1:", "trick 7:"]
    assert [after.index(x) for x in order] == sorted(after.index(x) for x in order), after


def test_a_redeal_shows_the_auction_before_it_and_the_deal_it_ends():
    # a talon redeal right after the person's pass hid the pass and who won (hostile try-out 3)
    def shown(spec, seed):
        out = io.StringIO()
        typist = Typist(PassivePlayer(), [], seat=0, players=["person", "standard", "standard"], out=out)
        play(_table_game(spec, seed), typist)
        return out.getvalue()
    text = shown("classic:max_deals=2", 3)
    before = text[:text.index("REDEAL (talon) demanded by seat 1")].split("=== deal")[-1]
    assert before.index("you pass") < before.index("seat 1 wins the auction on obligation")
    # a bot's hand redeal before the person is asked anything: under the deal's own header
    text = shown("classic:max_deals=3", 16)
    blocks = text.split("\n\n")
    redeals = [b for b in blocks if "REDEAL (hand)" in b]
    assert len(redeals) == 3 and all(b.startswith("=== deal 3: dealer you") for b in redeals), redeals


def test_a_resumed_game_shows_the_deal_its_saved_answers_finished_from_its_start(tmp_path, capsys, monkeypatch):
    # the saved answers end the deal while they are given back: its end is shown with the
    # person's hand and the card he received, which the replay did not show (hostile try-out 3)
    path = tmp_path / "game.json"
    rules = parse_rules_spec(SHORT)
    game = _table_game(SHORT, 6)
    with pytest.raises(Quit):
        play(game, Scripted(_answer_as(make_player("standard", rules, 0, Stream(1))), stop_after=9), path)
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "--resume", str(path)]) == 0
    deal = capsys.readouterr().out.split("=== deal 1:")[1].split("=== deal 2:")[0]
    order = ["your hand as dealt: J♣ K♣ J♦ Q♦ K♦ 10♦ 9♥", "you pass", "seat 2 wins the auction", "you receive 9♣ from seat 2",
             "contract: 100 by seat 2", "trick 1:", "trick 8:"]
    assert [deal.index(x) for x in order] == sorted(deal.index(x) for x in order), deal


@pytest.mark.parametrize("spec, seeds, aces", [
    ("classic", range(6), 0), ("classic:ace_marriage=100", range(6), 0),
    ("classic:marriage_first_trick=on,players=4", range(6), 0), ("classic:players=2", range(6), 0),
    # games where the ace marriage (of the spades marriage's value, trump unchanged) is declared
    ("classic:ace_marriage=40,ace_marriage_sets_trump=off", (11, 29, 30), 4),
    ("classic:ace_marriage=100", (11, 29, 30), 4),
])
def test_each_declaration_is_placed_before_the_trick_it_led(spec, seeds, aces):
    # the table shows caught-up tricks with their declarations; the trace says where each was
    from thousand.table.text import _led_tricks
    from thousand.trace import EventKind
    rules = parse_rules_spec(spec + ("," if ":" in spec else ":") + "max_deals=200")
    checked = ace_checked = 0
    for seed in seeds:
        deals = []
        play_game(rules, [RandomPlayer(Stream(100 + s)) for s in range(rules.players)], Stream(seed),
                  on_deal=lambda res, notes: deals.append(res))
        for res in deals:
            plays = [e for e in res.trace.events if e.kind == EventKind.PLAY]
            truth = [i // len(res.active) for i, e in enumerate(plays) if e.b]
            assert _led_tricks(rules, res.declared, res.trick_log, 0) == truth
            checked += len(truth)
            ace_checked += sum(1 for e in plays if e.b and e.a % 6 == ACE)
    assert checked >= 20 and ace_checked >= aces


def test_an_ace_marriage_is_placed_at_an_ace_lead_not_at_another_card_of_its_suit():
    # seat 0 leads the Q♠ plainly, then declares the four aces with the A♠ (trump unchanged)
    from thousand.reference.players import TrickRecord
    from thousand.table.text import _led_tricks
    rules = parse_rules_spec("classic:ace_marriage=200,ace_marriage_sets_trump=off")
    c = parse_card
    tricks = [TrickRecord(0, ((0, c("QS")), (1, c("9S")), (2, c("JS"))), 0, 5, -1),
              TrickRecord(0, ((0, c("AS")), (1, c("TS")), (2, c("KS"))), 0, 25, -1),
              TrickRecord(0, ((0, c("AH")), (1, c("9H")), (2, c("JH"))), 0, 13, -1)]
    assert _led_tricks(rules, [(0, 0, 200)], tricks, 0) == [1]
    # a plain marriage of that suit still goes to the queen's lead, where the trump changed
    tricks[0] = TrickRecord(0, ((0, c("QS")), (1, c("9S")), (2, c("JS"))), 0, 5, 0)
    assert _led_tricks(parse_rules_spec("classic"), [(0, 0, 40)], tricks, 0) == [0]


def test_bolts_cut_fines_and_a_sitting_dealers_talon_are_shown_as_they_happen():
    # the table never said a bolt (only the third one's -120) nor a cut fine: the score
    # just dropped (try-out 6)
    counts = {"bolts": 0, "cuts": 0, "talon": 0}
    for spec, seeds in (("classic:max_deals=12,cut_nine_penalty=on", (1, 2, 17)),
                        ("classic:max_deals=6,players=4", range(1, 3))):
        for game_seed in seeds:
            opponents = ("random",) * (parse_rules_spec(spec).players - 1)
            want = _reference_game(spec, game_seed, RandomPlayer(Stream(5)), opponents)
            out = io.StringIO()
            typist = Typist(RandomPlayer(Stream(5)), [], seat=0, players=["person", *opponents], out=out)
            play(_table_game(spec, game_seed, opponents), typist)
            text = out.getvalue()
            bolted = sum(1 for r in want.deals if not r.is_redeal and any(r.bolts))
            fined = sum(1 for r in want.deals if any(r.cut_fines))
            talons = sum(1 for r in want.deals if not r.is_redeal and len(r.scores) == 4 and r.dealer_talon)
            assert text.count("bolts (no trick taken): ") == bolted      # classic: bolt_when=no_tricks
            assert text.count("cut fines (nines at the bottom of the cut): ") == fined
            assert text.count("dealt and sat out: the talon ") == talons
            for r in want.deals:     # turned up to be counted (it may have been face down: try-out 10)
                if not r.is_redeal and len(r.scores) == 4 and r.dealer_talon:
                    assert (f"dealt and sat out: the talon {format_hand(r.trace.talons[0])} scores {r.dealer_talon}"
                            in text)
            counts["bolts"] += bolted
            counts["cuts"] += fined
            counts["talon"] += talons
    assert all(counts.values()), counts     # each line was seen at least once


def _standard_typed_game(spec, seed):
    """The game ``standard`` plays at every seat, the person's answers typed: the
    reference game's result and the table's text (the same game, checked)."""
    rules = parse_rules_spec(spec)
    opponents = ("standard",) * (rules.players - 1)
    want = _reference_game(spec, seed, make_player("standard", rules, 0, Stream(1)), opponents)
    out = io.StringIO()
    typist = Typist(make_player("standard", rules, 0, Stream(1)), [], seat=0, players=["person", *opponents],
                    out=out)
    got = play(_table_game(spec, seed, opponents), typist)
    assert got.trace.to_dict() == want.trace.to_dict()
    return want, out.getvalue()


def _random_typed_game(spec, seed, opponents=("random", "random")):
    """The game a random player plays at seat 0 (its answers typed) against ``opponents``:
    the reference game's result and the table's text (the same game, checked)."""
    want = _reference_game(spec, seed, RandomPlayer(Stream(101)), opponents)
    out = io.StringIO()
    got = play(_table_game(spec, seed, opponents),
               Typist(RandomPlayer(Stream(101)), [], seat=0, players=["person", *opponents], out=out))
    assert got.trace.to_dict() == want.trace.to_dict()
    return want, out.getvalue()


def test_the_barrels_sitter_taking_the_talon_is_not_called_winning_an_auction():
    # barrel_takes_talon: the table said "seat 1 wins the auction at 120" where nobody bid
    want, text = _standard_typed_game("classic:barrel_takes_talon=on", 5)
    no_auction = [r for r in want.deals if r.declarer >= 0 and not r.bid_log]
    assert no_auction and text.count("the talon without an auction: contract ") == len(no_auction)
    won = sum(1 for r in want.deals if r.declarer >= 0 and r.bid_log)
    assert text.count(" the auction ") == won
    assert "falls off the barrel (" in text or "comes off the barrel" in text


def test_hand_before_the_play_does_not_call_the_winning_bid_a_contract():
    # 'hand' at the contract prompt said "contract 105 by you; trump none; trick 1 of 8"
    found = []

    class Find(Scripted):
        def ask(self, d):
            if d.kind in ("hand_off", "contract"):
                found.append(d)
            if d.kind == "contract":
                raise Quit("found")
            if d.kind == "bid" and d.lowest <= d.highest:
                return ["bid", d.lowest]
            return super().ask(d)
    with pytest.raises(Quit):
        play(_table_game("classic:max_deals=8", 1), Find(_answer_as(PassivePlayer())))
    for d in found:
        out = io.StringIO()
        lines = ["hand", "" if d.kind == "contract" else "quit"]
        table = TextTable(0, ["person", "standard", "standard"], read=lambda p: lines.pop(0), out=out)
        try:
            table.ask(d)
        except Quit:
            pass
        text = out.getvalue()
        assert f"the declarer: you, at {d.view.contract} so far" in text and "contract " not in text
        assert "trick 1 of" not in text
    assert [d.kind for d in found] == ["hand_off", "contract"]


def test_two_players_see_the_laid_away_cards_and_the_talon_set_aside_at_the_deal_end():
    # their points were in "points: ..." with no trick showing them (try-out 6)
    from thousand.cards import card_points, format_hand
    want, text = _standard_typed_game("classic:players=2,max_deals=6", 8)
    played = [r for r in want.deals if not r.is_redeal and r.declarer >= 0 and not r.resigned]
    assert len(played) >= 3 and text.count("laid away by ") == text.count("the talon set aside: ") == len(played)
    assert {r.talon_taken for r in played} == {0, 1}
    for r in played:
        who = lambda s: "you" if s == 0 else f"seat {s}"
        laid = (1 << r.handoff_next) | (1 << r.handoff_other)
        # the dealt talon the declarer did not take (the table showed the taken one again
        # whenever he took the second: try-out 9)
        aside = r.trace.talons[1 - r.talon_taken]
        assert aside & r.trace.talons[r.talon_taken] == 0
        assert f"laid away by {who(r.declarer)}: {format_hand(laid)} ({card_points(laid)} points" in text
        assert (f"the talon set aside: {format_hand(aside)} ({card_points(aside)} points) to "
                f"{who(r.trick_log[-1].winner)}, the last trick's winner") in text


def test_golden_kon_and_the_ace_marriage_are_named_as_what_they_are():
    # a golden-kon deal read like an ordinary 120, an ace marriage like a club marriage
    for spec, seed, needle, count in (
            ("classic:golden_kon=on,max_deals=4", 71, "\ngolden kon: ",
             lambda w: sum(1 for r in w.deals if r.golden and not r.is_redeal)),
            ("classic:ace_marriage=200,marriage_first_trick=on,max_deals=12", 28, " the ace marriage (200); trump",
             lambda w: sum(1 for r in w.deals for d in r.declared if d[2] == 200))):
        want = _reference_game(spec, seed, RandomPlayer(Stream(5)), ("random", "random"))
        out = io.StringIO()
        typist = Typist(RandomPlayer(Stream(5)), [], seat=0, players=["person", "random", "random"], out=out)
        play(_table_game(spec, seed, ("random", "random")), typist)
        text = out.getvalue()
        assert count(want) >= 1 and text.count(needle) == count(want), (spec, text.count(needle), count(want))
    assert "in ♣" not in text.split(" the ace marriage (200); trump")[0][-40:]


def test_the_forced_pass_the_hand_off_hint_and_its_errors_say_what_holds():
    passive = _answer_as(PassivePlayer())
    found = {}

    class Find(Scripted):
        def ask(self, d):
            if d.kind == "bid" and d.lowest > d.highest:
                found.setdefault("forced", d)
            if d.kind == "hand_off":
                found.setdefault("hand_off", d)
            if len(found) == 2:
                raise Quit("found")
            if d.kind == "bid" and d.lowest <= d.highest:
                return ["bid", d.lowest]
            return passive(d)
    for seed in range(1, 40):
        try:
            play(_table_game("classic:max_deals=8", seed), Find(passive))
        except Quit:
            break
    assert len(found) == 2

    def typed(d, lines):
        out = io.StringIO()
        table = TextTable(0, ["person", "standard", "standard"], read=lambda p: lines.pop(0), out=out)
        try:
            return table.ask(d), out.getvalue()
        except Quit:
            return None, out.getvalue()
    d = found["forced"]
    _, text = typed(d, [])
    # the reason is the person's limit (120 and his marriages), not a ceiling on every bid
    assert (f"you must pass: the bidding is at {d.view.high_bid} and you may bid at most {d.highest} ("
            in text) and d.view.high_bid >= d.highest
    d = found["hand_off"]
    c = card_name(min(iter_cards(d.view.hand)))
    _, text = typed(d, ["hint", "pass", c, f"{c} {c}", "quit"])
    nxt, other = _next_two(d.view)
    assert f" to seat {nxt}, " in text and f" to seat {other}" in text            # which card goes where
    assert "the declarer gives two cards here" in text
    assert "give two cards, not 1" in text and f"duplicate card '{c}'" in text


def _next_two(view):
    i = view.active.index(view.seat)
    return view.active[(i + 1) % 3], view.active[(i + 2) % 3]


def test_a_barrel_sitters_gain_that_does_not_count_is_said():
    # "MADE, score changes: you +100" and the score stayed at 200 without a word (try-out 7)
    want, text = _standard_typed_game("classic:target=300,barrel_at=200,max_deals=30", 244)
    void = [n for n in want.notes if n.barrel_void]
    lines = [line for line in text.splitlines() if " on the barrel: the +" in line]
    assert len(void) >= 2 and len(lines) == len(void)
    # the person (seat 0) is "you", with the verb to match (was "seat 0 (you) is")
    assert {n.barrel_void_seat for n in void} >= {0, 2}
    for n, line in zip(void, lines):
        who = "you are" if n.barrel_void_seat == 0 else f"seat {n.barrel_void_seat} is"
        assert line.startswith(f"{who} on the barrel:") and f"the {n.barrel_void:+d} does not count (a made " \
            "contract of 120 or more with 120 points takes the sitter off)" in line


def test_free_resignations_are_counted_where_they_are_made():
    # polish: "you resign at 100 ... you +0" with nothing saying it was free, nor how many are left
    class Resigner(PassivePlayer):
        def bid(self, view, lowest, highest):
            return lowest if lowest <= highest else 0

        def raise_or_resign(self, view, lowest, highest, may_resign):
            return -1 if may_resign else lowest
    spec = "polish:max_deals=12"
    want = _reference_game(spec, 5, Resigner())
    out = io.StringIO()
    play(_table_game(spec, 5), Typist(Resigner(), [], seat=0, players=["person", "standard", "standard"], out=out))
    text = out.getvalue()
    mine = [r for r in want.deals if r.resigned and r.declarer == 0]
    assert len(mine) >= 3
    said = [line for line in text.splitlines() if line.startswith("you resign at ")]
    assert len(said) == len(mine)
    assert said[0].endswith("(free: resignation 1 of the 2 free ones)")
    assert said[1].endswith("(free: resignation 2 of the 2 free ones)")
    assert said[2].endswith("(resignation 3: the 2 free ones are used, this costs 120)")
    assert [r.scores[0] for r in mine[:3]] == [0, 0, -120]


def test_hand_during_the_auction_shows_where_it_stands():
    d = next(d for d in (_first_decision("classic:max_deals=4", seed,
                                         lambda d: d.kind == "bid" and any(v == 0 for _, v in d.view.bids))
                         for seed in range(1, 40)) if d)
    out = io.StringIO()
    lines = ["hand", "pass"]
    TextTable(0, ["person", "standard", "standard"], read=lambda p: lines.pop(0), out=out).ask(d)
    high = [s for s, v in d.view.bids if v == d.view.high_bid][-1]
    passed = ", ".join(f"seat {s}" for s, v in d.view.bids if v == 0)
    assert (f"the auction: {d.view.high_bid} by seat {high}; passed: {passed}; your limit {d.highest}"
            in out.getvalue())


def test_the_header_counts_the_barrel_sitters_deals():
    # "seat 1 on the barrel" said nothing of how many of his barrel deals were left (try-out 8)
    want, text = _standard_typed_game("classic:target=300,barrel_at=200,max_deals=30", 244)
    headers = [line for line in text.splitlines() if line.startswith("=== deal ")]
    assert len(headers) == len(want.deals)
    sat = 0
    for res, line in zip(want.deals, headers):
        st = res.state
        if st.barrel_sitter < 0:
            assert "on the barrel" not in line
            continue
        sat += 1
        who = "you" if st.barrel_sitter == 0 else f"seat {st.barrel_sitter}"
        assert f"; {who} on the barrel (deal {st.barrel_count + 1} of 3 there)" in line
    assert sat >= 3 and any(r.state.barrel_count > 0 for r in want.deals if r.state.barrel_sitter >= 0)


def test_the_settling_notes_name_the_person_you():
    # the table printed "seat 0 (you) falls off the barrel (knocked off by seat 1 ...)"
    from thousand.reference.game import SettleNotes
    from thousand.reference.playthrough import format_notes
    notes = SettleNotes(bolt_penalties=[1, 0, 0], bolt_penalty=120, barrel_entered=0, barrel_falls=[2],
                        barrel_fall_why=["knocked off by seat 0: -120"], reset_555=[0], winner=0, scores=[0, 5, 760])
    table = TextTable(0, ["person", "standard", "standard"], out=io.StringIO())
    assert format_notes(notes, table.who) == [
        "you pay a bolt penalty (the third bolt): -120", "seat 2 falls off the barrel (knocked off by you: -120)",
        "you get onto the barrel", "you hit 555: back to 0", "game scores: [0, 5, 760]", "WINNER: you"]
    notes = SettleNotes(bolt_penalties=[0, 0, 0], barrel_off=0, barrel_entered=1, scores=[1000, 880, 0], winner=0)
    assert format_notes(notes, table.who) == [
        "you come off the barrel", "seat 1 gets onto the barrel", "game scores: [1000, 880, 0]", "WINNER: you"]
    # the playthrough (explain) keeps the seat numbers
    assert format_notes(notes)[0] == "seat 0 comes off the barrel"
    notes = SettleNotes(bolt_penalties=[0, 0, 0], barrel_falls=[0], barrel_fall_why=["the score went under 880"],
                        scores=[760, 0, 0])
    assert format_notes(notes, table.who)[0] == "you fall off the barrel (the score went under 880)"


def test_blind_openings_doubled_points_and_the_last_tricks_bonus_are_shown_as_they_count():
    # try-out 9: a bot's blind opening read "seat 0 opens 120"; a blind deal's points line
    # gave single card points next to doubled score changes; "points:" left out the
    # last trick's bonus that "MADE with N" and the score counted
    import re

    from thousand.reference.legal import round_defender
    want, text = _random_typed_game("classic:blind=on,last_trick_bonus=10,max_deals=10", 1)
    opened_blind = [r for r in want.deals if r.went_blind and r.bid_log]
    assert {r.bid_log[0][0] == 0 for r in opened_blind} == {True, False}     # the person's and a bot's
    assert text.count(" blind at 120 (a bid breaks the blind; unbroken, it is ±240 for the declarer") \
        == len(opened_blind)
    who = lambda s: "you" if s == 0 else f"seat {s}"
    played = [r for r in want.deals if not r.is_redeal and r.declarer >= 0 and not r.resigned]
    lines = [x for x in text.splitlines() if x.startswith("points: ")]
    assert len(lines) == len(played)
    doubled = bonus = 0
    for r, line in zip(played, lines):
        shown = dict(re.fullmatch(r"(you|seat \d) (.+)", part).groups() for part in line[len("points: "):].split("; "))
        for s in r.active:
            value = shown[who(s)]
            total = int(value.rsplit("= ", 1)[1]) if "=" in value else sum(
                int(x) for x in re.findall(r"\d+", value.replace(" last trick", "")))
            if r.blind and s != r.declarer:
                assert total == 2 * r.points[s] + r.marriages[s] + r.bonus[s]
                assert r.scores[s] == round_defender(total)
                doubled += r.points[s] > 0 and " x 2" in value
            else:
                assert total == r.deal_points[s]
            if r.bonus[s]:
                bonus += 1
                assert f"+ {r.bonus[s]} last trick" in value
        assert f"with {r.declarer_points}" in text
    assert doubled >= 2 and bonus >= 3


@pytest.mark.parametrize("spec, aces", [
    ("classic:max_deals=8", False),
    ("classic:ace_marriage=200,ace_marriage_sets_trump=off,marriage_first_trick=on,max_deals=40", True)])
def test_the_persons_own_declaration_says_the_trump_it_leaves(spec, aces):
    # "you declare 100 in ♥" where a bot's read "...; trump ♥" (try-out 9); an ace marriage
    # that does not set the trump leaves the one before
    from thousand.cards import SUIT_SYMBOLS, suit_of

    def wanted(d):
        return [c for c in _marriages(d) if (c % 6 == 5) == aces]
    d = next(d for d in (_first_decision(spec, seed, wanted) for seed in range(1, 200)) if d)
    c = wanted(d)[0]
    out = io.StringIO()
    lines = [card_name(c) + "!"]
    TextTable(0, ["person", "standard", "standard"], read=lambda p: lines.pop(0) if lines else None, out=out).ask(d)
    said = next(x for x in out.getvalue().splitlines() if x.startswith("you declare"))
    trump = d.view.trump if aces else suit_of(c)
    assert said.endswith(f"; trump {SUIT_SYMBOLS[trump] if trump >= 0 else 'none'}")


def test_hand_in_the_auction_says_the_opening_is_blind_until_broken():
    # 'hand' read "the auction: 120 by seat 0" while seat 0's blind stood (try-out 9)
    def blind_standing(d):
        v = d.view
        return (d.kind == "bid" and d.lowest <= d.highest and v.went_blind and v.high_bid == v.bids[0][1]
                and v.bids[0][0] != 0)
    d = next(d for d in (_first_decision("classic:blind=on,max_deals=20", seed, blind_standing, ("random", "random"))
                         for seed in range(1, 300)) if d)
    out = io.StringIO()
    lines = ["hand", "pass"]
    TextTable(0, ["person", "standard", "standard"], read=lambda p: lines.pop(0) if lines else None, out=out).ask(d)
    assert f"the auction: 120 blind by seat {d.view.bids[0][0]}" in out.getvalue()


def test_a_resumed_game_shows_the_declarers_own_talon_also_face_down(tmp_path, capsys, monkeypatch):
    # a replayed finished deal left out the talon the person took on obligation (face down
    # to the others): the cards he then gave and played came from nowhere (try-out 10)
    spec = "classic:max_deals=8"
    rules = parse_rules_spec(spec)
    checked = 0
    for seed in range(1, 40):
        deals = []
        path = tmp_path / f"game{seed}.json"
        with pytest.raises(Quit):
            play(_table_game(spec, seed), Scripted(_answer_as(make_player("standard", rules, 0, Stream(1))),
                                                   stop_after=30), path)
        want = _reference_game(spec, seed, make_player("standard", rules, 0, Stream(1)))
        monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
        assert main(["play", "--resume", str(path)]) == 0
        shown = capsys.readouterr().out.split("=== deal ")[1:-1]      # the deals replayed whole
        played = [r for r in want.deals if not r.is_redeal]
        for text in shown:
            r = played[int(text.split(":", 1)[0]) - 1]      # "=== deal N:", N counting played deals
            if r.declarer == 0 and "REDEAL" not in text:
                assert f"talon: {format_hand(r.talon)}" in text, text
                checked += not r.talon_shown
        if checked >= 2:
            break
    assert checked >= 2


@pytest.mark.parametrize("spec, want_kind", [
    ("classic:max_deals=10", "defender"), ("classic:max_deals=10", "declarer"),
    ("classic:players=2,max_deals=10", "declarer"), ("classic:blind=on,max_deals=20", "blind")])
def test_hand_in_the_play_gives_back_points_marriages_the_hand_off_and_the_talon(spec, want_kind):
    from thousand.cards import card_points
    # 'hand' said "card points taken: ... seat 1 63" with 60 declared (123 against 105), no
    # marriage, nothing of the hand-off or the talon, nor that the deal was blind (try-out 10)
    def wanted(d):
        v = d.view
        if d.kind != "play":
            return False
        if want_kind == "defender":
            return bool(v.declared) and v.received >= 0 and any(v.marriage_points)
        if want_kind == "declarer":
            return v.declarer == 0 and bool(v.given) and v.trick_index >= 1
        return v.blind and v.trick_index >= 1
    opponents = ("random", "random") if want_kind == "blind" else ("standard",) * (parse_rules_spec(spec).players - 1)
    d = next(d for d in (_first_decision(spec, seed, wanted, opponents) for seed in range(1, 300)) if d)
    v = d.view
    out = io.StringIO()
    lines = ["hand", card_name(min(iter_cards(d.legal)))]
    TextTable(0, ["person", *opponents], read=lambda p: lines.pop(0) if lines else None, out=out).ask(d)
    text = out.getvalue()
    who = lambda s: "you" if s == 0 else f"seat {s}"
    points = next(x for x in text.splitlines() if x.startswith("points so far: "))
    for s in v.active:
        laid = card_points(sum(1 << c for c in v.given)) if v.rules.players == 2 and s == v.declarer == 0 else 0
        total = v.points[s] + v.marriage_points[s] + laid
        assert f"{who(s)} {v.points[s]}" in points and (f"= {total}" in points if total != v.points[s] else True)
    for s, suit, value in v.declared:
        assert f"{who(s)} {value} in " in text or f"{who(s)} the ace marriage ({value})" in text
    if want_kind == "defender":
        assert f"you received {card_name(v.received)} from {who(v.declarer)}" in text
    if want_kind == "declarer":
        assert f"the talon: {format_hand(v.talon)}" in text
        a, b = v.given
        assert (f"you laid away {card_name(a)} and {card_name(b)}" if v.rules.players == 2
                else f"you gave {card_name(a)} to seat 1 and {card_name(b)} to seat 2") in text
    if want_kind == "blind":
        assert f"contract {v.contract} blind (±240; the others' card points count double) by" in text


def test_the_header_keeps_the_bolt_counts_and_a_blind_deal_reads_blind():
    # bolts were said one deal at a time and the third's penalty came unannounced; in a blind
    # deal the contract line and prompt read like any 120, "120-120" (try-out 10)
    want, text = _random_typed_game("classic:blind=on,max_deals=12", 2)
    headers = [x for x in text.splitlines() if x.startswith("=== deal ")]
    who = lambda s: "you" if s == 0 else f"seat {s}"
    counted = 0
    for res, line in zip(want.deals, headers):
        bolts = res.state.bolts
        if any(bolts):
            counted += 1
            assert line.endswith("; bolts: " + ", ".join(f"{who(s)} {k}" for s, k in enumerate(bolts) if k)
                                 + " (the third costs 120)")
        else:
            assert "bolts" not in line
    assert counted >= 2
    blind = [r for r in want.deals if r.blind and not r.is_redeal and not r.resigned]
    assert blind and text.count("contract: 120 blind by ") == len(blind)


def test_a_blind_openers_hand_comes_after_his_blind_opening_and_the_blind_contract_prompt_says_so():
    # "your hand: ..." was shown before "you open blind at 120"; the contract prompt read
    # "(120-120, Enter keeps 120, or resign)" without the blind resignation's cost (try-out 10)
    opponents = ("random", "random")
    want, text = _random_typed_game("classic:blind=on,max_deals=12", 1, opponents)
    sections = text.split("=== deal ")[1:]
    mine = 0
    for res, text in zip(want.deals, sections):
        if res.went_blind and res.bid_log and res.bid_log[0][0] == 0:
            mine += 1
            assert text.index("you open blind at 120") < text.index("your hand")
    assert mine >= 2

    def blind_contract(d):      # the person plays golden kon's blind 120
        return d.kind == "contract" and d.view.blind
    d = next(d for d in (_first_decision("classic:golden_kon=on,max_deals=4", s, blind_contract, opponents)
                         for s in range(1, 200)) if d)
    prompt, _ = TextTable(0, ["person", *opponents], out=io.StringIO())._question(d)
    resign = ", or resign: -240, +120 to each defender" if d.may_resign else ""
    assert prompt == f"your contract (blind 120: Enter keeps it{resign}): "


def test_a_four_nines_redeal_is_named_in_words():
    # "REDEAL (four_nines) demanded by seat 2": the internal name (try-out 10)
    from thousand.schema import REDEAL_NAMES
    want, text = _random_typed_game("polish:max_deals=12", 3)
    n = sum(1 for r in want.deals if r.is_redeal and REDEAL_NAMES[r.redeal] == "four_nines")
    assert n >= 1 and text.count("REDEAL (four nines) demanded by ") == n and "four_nines" not in text


def test_a_drawn_seed_is_said_only_at_the_end(capsys, monkeypatch):
    # the seed on the first line let 'thousand explain --seed S' show every hidden card (try-out 10)
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play"]) == 0
    out = capsys.readouterr().out
    first, last = out.splitlines()[0], out.strip().splitlines()[-1]
    assert first.startswith("thousand play: a new seed (said at the end), rules classic")
    seed = int(last.split("the game's seed was ")[1].split()[0])
    assert f"seed {seed}" not in out.split("the game's seed was")[0]


def test_the_contract_hint_counts_what_a_barrel_sitter_needs():
    # russian: a sitter at 120 needs 121 points; the hint counted 120 as made (hostile review, try-out 15)
    def sitter_at_120(d):
        return d.kind == "contract" and d.view.barrel_sitter == 0 and d.lowest >= 120
    d = _first_decision("russian", 9, sitter_at_120,
                        person=make_player("standard", parse_rules_spec("russian"), 0, Stream(12345)))
    assert d is not None
    out = io.StringIO()
    lines = ["hint"]
    table = TextTable(0, ["person", "standard", "standard"], read=lambda p: lines.pop(0) if lines else "quit", out=out)
    with pytest.raises(Quit):
        table.ask(d)
    said = next(x for x in out.getvalue().splitlines() if x.startswith("  pimc solved"))
    worlds, _, points = make_player("pimc", d.view.rules, 0, Stream(0)).raise_tally(d.view, d.lowest, d.highest,
                                                                                    d.may_resign)
    made = sum(p >= 121 for p in points)
    assert f"{d.lowest} made in {made} ({round(100 * made / worlds)}%), 121 points needed" in said


def test_a_four_nines_redeal_after_the_hand_off_shows_the_talon_and_the_card_received():
    # the redeal's line came straight after "seat 2 wins the auction": the talon shown face
    # up and the card handed to the person were never said (try-out 17)
    from thousand.schema import REDEAL_NAMES
    want, text = _random_typed_game("polish:max_deals=12", 37)
    late = [r for r in want.deals if r.is_redeal and REDEAL_NAMES[r.redeal] == "four_nines"]
    blocks = [b for b in text.split("\n\n") if "REDEAL (four nines)" in b]
    assert late and len(blocks) == len(late) and all(r.declarer != 0 and r.talon_shown for r in late)
    for r, block in zip(late, blocks):
        first = r.active[(r.active.index(r.declarer) + 1) % 3]
        got = r.handoff_next if first == 0 else r.handoff_other
        redeal = f"REDEAL (four nines) demanded by {'you' if r.redeal_by == 0 else f'seat {r.redeal_by}'}"
        said = [f"seat {r.declarer} wins the auction", f"talon: {format_hand(r.talon)}",
                f"you receive {card_name(got)} from seat {r.declarer}", redeal]
        assert all(x in block for x in said), block
        assert [block.index(x) for x in said] == sorted(block.index(x) for x in said), block
        assert "contract:" not in block       # no contract is set before the redeal


def _typed_at(d, lines):
    """The answer ``lines`` typed at decision ``d`` give, and what the table said."""
    out = io.StringIO()
    table = TextTable(0, ["person", "standard", "standard"], read=lambda p: lines.pop(0) if lines else None, out=out)
    return table.ask(d), out.getvalue()


def test_cards_are_read_alike_at_every_prompt_a_trailing_comma_too():
    # "10C," was a bad card at the card prompt ("unknown suit ','") but read at the
    # hand-off: two parsers (try-out 17)
    d = _first_decision(SHORT, 5, lambda d: d.kind == "play")
    c = card_name(min(iter_cards(d.legal)), symbols=False)
    assert _typed_at(d, [c + ",", "n"])[0] == ["play", c, False]
    assert _typed_at(d, [c[:-1] + " " + c[-1], "n"])[0] == ["play", c, False]   # "10 H": one card
    hand_off = _first_decision(SHORT, 5, lambda d: d.kind == "hand_off")
    a, b = (card_name(x, symbols=False) for x in list(iter_cards(hand_off.view.hand))[:2])
    assert _typed_at(hand_off, [f"{a}, {b},"])[0] == ["hand_off", a, b]


def test_a_card_that_never_declares_says_so_before_the_tricks_reason():
    # "9♣ declares nothing here: nobody declares on the first trick": a nine never
    # declares (try-out 17)
    from thousand.cards import NINE, rank_of

    def first_lead(d):
        return d.kind == "play" and d.view.trick_index == 0 and not d.view.trick
    d = _first_decision(SHORT, 5, first_lead)
    nine = card_name(next(c for c in iter_cards(d.legal) if rank_of(c) == NINE), symbols=False)
    answer, text = _typed_at(d, [nine + "!", nine])
    assert "declares nothing here: only the queen or king of a marriage in your hand declares" in text, text
    assert answer == ["play", nine, False]


class _LowBidder(PassivePlayer):
    """Bids the lowest bid allowed while there is one (so the bidding reaches its top)."""

    def bid(self, view, lowest, highest):
        return lowest if lowest <= highest else 0


def test_a_single_bid_allowed_is_asked_as_one_value_not_a_range():
    # "your bid (120-120, steps of 5) or pass" (try-out 17)
    d = _first_decision("classic", 1, lambda d: d.kind == "bid" and d.lowest == d.highest, person=_LowBidder())
    assert d is not None
    prompt, _ = TextTable(0, ["person", "standard", "standard"], out=io.StringIO())._question(d)
    assert prompt == f"your bid ({d.lowest}, no higher bid allowed) or pass: "
    answer, text = _typed_at(d, [str(d.lowest + 5), "", str(d.lowest)])
    assert f"the only bid here is {d.lowest}, or pass" in text and f"type a bid ({d.lowest}) or pass" in text
    assert answer == ["bid", d.lowest]


def test_the_shortcuts_that_take_a_decision_are_in_the_help():
    # "0" passed and "r" resigned without a word about them anywhere (try-out 17)
    from thousand.table.text import HELP
    assert "pass (also p or 0)" in HELP and "resign (also r)" in HELP
    bid = _first_decision("classic", 3, lambda d: d.kind == "bid" and d.lowest <= d.highest)
    assert _typed_at(bid, ["0"])[0] == _typed_at(bid, ["p"])[0] == ["bid", 0]
    contract = _first_decision("classic", 5, lambda d: d.kind == "contract" and d.may_resign)
    assert _typed_at(contract, ["r"])[0] == ["contract", -1]


def test_options_that_change_nothing_are_noted_at_the_start_as_thousand_rules_notes_them(capsys, monkeypatch):
    # players=2 with blind=on was taken without a word; thousand rules notes it (try-out 17)
    from thousand.rules import rule_notes
    notes = rule_notes(parse_rules_spec("classic:players=2,blind=on"))
    assert notes
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "--seed", "3", "--set", "players=2", "--set", "blind=on"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1:1 + len(notes)] == [f"note: {n}" for n in notes]
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "--seed", "3"]) == 0
    assert "note:" not in capsys.readouterr().out


def test_a_redeals_cut_fine_shows_what_followed_from_it_and_the_scores():
    # the fine landed the person on 555: the game reset it, the table said nothing (try-out 24)
    from thousand.reference.deal import GameState, play_deal
    from thousand.reference.game import settle_deal

    class Redealer(PassivePlayer):
        def demand_redeal(self, view, kind):
            return True
    rules = parse_rules_spec("classic:cut_nine_penalty=on,samozval_555=on")
    before = GameState.fresh(3)
    before.scores = [675, 200, -435]
    res = next(r for seed in range(3000)   # seat 0 cuts (dealer 1), pays a third nine, the deal is redealt
               for r in [play_deal(rules, [Redealer()] * 3, Stream(seed), 1, before.copy())]
               if r.cut_fines[0] and r.is_redeal)
    _, notes = settle_deal(rules, before, res)
    out = io.StringIO()
    TextTable(0, ["you", "standard", "standard"], read=lambda p: None, out=out).deal_over(res, notes)
    text = out.getvalue()
    assert "cut fines (nines at the bottom of the cut): you -120" in text
    assert "you hit 555: back to 0" in text and "scores: you 0, seat 1 200, seat 2 -435" in text


def test_a_dealer_on_the_barrel_is_told_his_talon_does_not_score():
    # 4 players: the sitting-out dealer scored +0 without a word when he sat on the barrel
    spec, game_seed = "classic:players=4", 1
    rules = parse_rules_spec(spec)
    opponents = ("random",) * 3
    want = _reference_game(spec, game_seed, RandomPlayer(Stream(5)), opponents)
    out = io.StringIO()
    typist = Typist(RandomPlayer(Stream(5)), [], seat=0, players=["person", *opponents], out=out)
    play(_table_game(spec, game_seed, opponents), typist)
    text = out.getvalue()
    sat = [r for r in want.deals if not r.is_redeal and r.state.barrel_sitter == r.dealer]
    assert sat and text.count("dealt and sat out on the barrel: the talon ") == len(sat)
    for r in sat:
        talon = r.trace.talons[0]
        assert r.scores[r.dealer] == 0
        assert (f"dealt and sat out on the barrel: the talon {format_hand(talon)} does not score "
                f"({dealer_talon_score(rules, talon)} off the barrel)") in text


def test_a_drawn_seed_is_not_said_at_a_stop_the_game_can_go_on_from(tmp_path, capsys, monkeypatch):
    # stopped with --save, the game can be resumed: the seed said then let 'thousand
    # explain --seed S' show the hands still to be played (try-out 34)
    path = tmp_path / "g.json"
    for stdin in ("quit\n", ""):                       # quit, and the end of the input
        path.unlink(missing_ok=True)
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        assert main(["play", "--save", str(path)]) == 0
        out = capsys.readouterr().out
        assert "thousand play --resume" in out and "seed was" not in out and str(load(path).seed) not in out
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        assert main(["play", "--resume", str(path)]) == 0
        assert "seed was" not in capsys.readouterr().out


def test_undo_counts_a_take_back_keeps_it_in_the_file_and_says_it_at_the_end(tmp_path, capsys, monkeypatch):
    # an undo after the talon was shown let the person bid again knowing it (try-out 34):
    # the game is marked as played with take-backs
    path = tmp_path / "g.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("110\nundo\npass\nquit\n"))
    assert main(["play", "--seed", "7", "--save", str(path)]) == 0
    out = capsys.readouterr().out
    assert "what you saw after it stays seen, so the game counts 1 take-back" in out
    game = load(path)
    assert game.takebacks == 1 and game.answers == [["bid", 0]]
    # the count goes on in a resumed game and is said when the game ends
    front = Scripted(_answer_as(PassivePlayer()))
    front_game = load(path)
    play(front_game, front, path)
    assert load(path).takebacks == 1 and load(path).finished
    assert takebacks_line(load(path)) == "played with 1 take-back (undo)"
    damaged = json.loads(path.read_text())
    for value, said in ((-1, "takebacks must be a whole number >= 0, not -1"),
                        (True, "takebacks must be a whole number >= 0, not True")):
        damaged["takebacks"] = value
        with pytest.raises(ThousandError, match=re.escape(said)):
            TableGame.from_dict(damaged)


def test_a_saved_game_names_every_rule_option_and_says_which_is_not_text(tmp_path):
    # a file without "bolts" was resumed under classic's bolts without a word, and a
    # number as a value was "rules must be an object of rule options as text" (try-out 34)
    data = TableGame(5, parse_rules_spec("russian"), 0, ["person", "standard", "standard"]).to_dict()
    assert TableGame.from_dict(data).rules == parse_rules_spec("russian")
    lacking = json.loads(json.dumps(data))
    del lacking["rules"]["bolts"]
    with pytest.raises(ThousandError, match="rules lacks bolts: a saved game names every option"):
        TableGame.from_dict(lacking)
    number = json.loads(json.dumps(data))
    number["rules"]["target"] = 500
    with pytest.raises(ThousandError, match='rules.target must be text such as "1000", not 500'):
        TableGame.from_dict(number)


def test_a_save_that_fails_is_told_once_and_the_game_goes_on(tmp_path):
    # the --save folder removed mid-game ended the game, and the answer given with it
    # (try-out 34): now it is said once, the game goes on and is saved when it can be
    import shutil

    folder = tmp_path / "saves"
    folder.mkdir()
    path = folder / "g.json"
    passive = _answer_as(PassivePlayer())
    count = {"n": 0}

    def policy(d):
        count["n"] += 1
        if count["n"] == 3:
            shutil.rmtree(folder)
        if count["n"] == 6:
            folder.mkdir()
        return passive(d)
    front = Scripted(policy)
    got = play(_table_game(SHORT, 5), front, path)
    failed = [line for line in front.lines if "cannot save the game to" in line]
    assert len(failed) == 1 and failed[0].endswith("the game goes on and is saved at your next answer if it can be")
    assert f"saved again to {path}" in front.lines and front.lines[-1] == "over"
    kept = load(path)
    assert kept.finished and len(kept.answers) == count["n"]
    assert got.trace.to_dict() == _reference_game(SHORT, 5, PassivePlayer()).trace.to_dict()


def test_a_stop_says_the_game_is_not_kept_when_it_cannot_be_saved(tmp_path, capsys, monkeypatch):
    import thousand.table as table
    from thousand.table import session

    real = session.save
    calls = {"n": 0}

    def failing(game, path):
        calls["n"] += 1
        if calls["n"] > 1:     # the first save, before the first deal, works
            raise ThousandError(f"cannot save the game to {str(path)!r}: No space left on device")
        real(game, path)
    monkeypatch.setattr(session, "save", failing)
    monkeypatch.setattr(table, "save", failing)
    monkeypatch.setattr("sys.stdin", io.StringIO("pass\nquit\n"))
    assert main(["play", "--seed", "3", "--save", str(tmp_path / "g.json")]) == 0
    out = capsys.readouterr().out
    assert out.count("No space left on device; the game goes on") == 1
    assert "stopped: the game is not kept: cannot save the game to" in out and "--resume" not in out


def test_the_header_counts_a_four_player_sitters_attempts():
    # barrel_takes_talon counts attempts: a deal the sitter sits out as the dealer is none,
    # and the header said "deal 2 of 3" on it and on the next (try-out 36)
    for seed in range(1, 40):
        want, text = _standard_typed_game("russian:players=4,target=300,barrel_at=200,max_deals=40", seed)
        if any(r.state.barrel_sitter >= 0 and r.state.barrel_sitter == r.dealer for r in want.deals):
            break
    headers = [line for line in text.splitlines() if line.startswith("=== deal ")]
    assert len(headers) == len(want.deals)
    sat_out = played = 0
    for res, line in zip(want.deals, headers):
        st = res.state
        if st.barrel_sitter < 0:
            continue
        who = "you" if st.barrel_sitter == 0 else f"seat {st.barrel_sitter}"
        if st.barrel_sitter == res.dealer:
            sat_out += 1
            assert f"; {who} on the barrel, sitting this deal out ({st.barrel_count} of 3 attempts used)" in line
        else:
            played += 1
            assert f"; {who} on the barrel (attempt {st.barrel_count + 1} of 3 there)" in line
    assert sat_out >= 1 and played >= 1, (seed, sat_out, played)


def test_a_finished_game_that_cannot_be_saved_is_shown_to_its_end_then_one_error(tmp_path, monkeypatch):
    from thousand.table import session

    real = session.save

    def failing(game, path):
        if game.finished:
            raise ThousandError(f"cannot save the game to {str(path)!r}: No space left on device")
        real(game, path)
    monkeypatch.setattr(session, "save", failing)
    front = Scripted(_answer_as(PassivePlayer()))
    with pytest.raises(ThousandError, match="No space left on device: the finished game is not kept"):
        play(_table_game(SHORT, 5), front, tmp_path / "g.json")
    assert front.lines[-1] == "over" and not load(tmp_path / "g.json").finished
