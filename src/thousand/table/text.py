"""The table in a terminal: what happens, a line at a time, and a prompt for each decision.

Everything the person is shown is what his seat may know (:class:`~thousand.reference.
players.View`): his hand, the bids, the talon when it is shown to him, the card he
receives, the tricks.  A typed answer is checked here only to ask again with a helpful
line instead of failing (the engine checks it once more, as any player's).  At any
prompt: ``help``, ``hand`` (show the table again), ``undo`` (take the last answer back),
``quit`` (stop; a saved game continues later).
"""
from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TextIO

from thousand.cards import (ACE, JACK, KING, MARRIAGE_VALUES, NINE, QUEEN, SUIT_SYMBOLS, CardError, card_name,
                            card_points, count_rank, format_hand, parse_card, parse_cards, rank_of, suit_of)
from thousand.reference.deal import BLIND_SCORE, FREE_RESIGNATIONS, LATE_RESIGNATION_COST, DealResult
from thousand.reference.game import GameResult, SettleNotes
from thousand.reference.legal import can_declare, dealer_talon_score, points_to_make
from thousand.reference.play import declarable_cards, trump_after_declaring
from thousand.reference.players import View
from thousand.reference.playthrough import format_notes, outcome
from thousand.schema import REDEAL_NAMES
from thousand.trace import RESIGN

from .session import Decision, Quit, Undo, recorded

__all__ = ["TextTable", "HELP"]

HELP = """At any prompt:
  help   this text            hand   show the table again
  hint   what the bots would answer in your seat (standard, and pimc, the search player,
         with the figures behind its card)
  undo   take your last answer back (the game is played again up to the decision before it;
         the game counts it as a take-back)
  quit   stop here (with --save the game is kept: thousand play --resume FILE continues it)
Cards are written rank then suit: AH, 10S (or TS), QD, 9C, K♥; two cards are separated by a
space or a comma.  A bid is a number, or pass (also p or 0).  At the contract, Enter keeps
the bid, a number raises it, and resign (also r) resigns where the rules allow it."""

#: The longest line taken as an answer (a longer one is refused without being echoed).
MAX_ANSWER = 80
#: The players whose answers ``hint`` shows.
HINT_PLAYERS = ("standard", "pimc")
_YES, _NO = {"y", "yes", "j", "ja", "d", "da", "t", "tak"}, {"n", "no", "nein", "net", "nie"}


class TextTable:
    """The terminal front end (:class:`~thousand.table.session.Frontend`).

    ``read`` returns one typed line, ``None`` at the end of input (which stops the game as
    ``quit`` does); ``out`` receives everything shown.
    """

    def __init__(self, seat: int, players: list[str], read: Callable[[str], str | None] | None = None,
                 out: TextIO | None = None) -> None:
        self.seat = seat
        self.players = players
        self.read = read or _read_line
        self.out = out or sys.stdout
        self.restart()

    def restart(self) -> None:
        """The game is played (again) from its start: a new game, a resumed one, an undo."""
        self.muted = False
        self.deals = 0
        self._new_deal()

    # ------------------------------------------------------------------ showing
    def _new_deal(self) -> None:
        self.shown: dict[str, Any] = {"header": False, "hand": False, "bids": 0, "declarer": False, "talon": False,
                                      "received": False, "given": False, "contract": False, "tricks": 0, "trick": 0,
                                      "declared": 0, "said": set()}

    def say(self, text: str = "") -> None:
        if not self.muted:
            print(text, file=self.out, flush=True)

    def who(self, s: int) -> str:
        return "you" if s == self.seat else f"seat {s}"

    def does(self, s: int, what: str) -> str:
        """``what`` (a verb first, as the person says it) done by seat ``s``: "you pass", "seat 1 passes"."""
        if s == self.seat:
            return f"you {what}"
        verb, _, rest = what.partition(" ")
        verb = verb + ("es" if verb.endswith(("s", "sh", "ch")) else "s")
        return f"seat {s} {verb}" + (f" {rest}" if rest else "")

    def told(self, text: str) -> None:
        self.say(f"({text})")

    def _scores(self, scores: Any) -> str:
        return ", ".join(f"{self.who(s)} {v}" for s, v in enumerate(scores))

    def news(self, view: View) -> None:
        """Everything public since the last question of this deal (a resumed game: all of it)."""
        if self.muted:
            return
        sh = self.shown
        if not sh["header"]:
            self._header(view.rules, view.dealer, view.scores, view.barrel_sitter, view.barrel_count, view.bolts)
        if view.went_blind and view.bids and view.bids[0][0] == self.seat:
            # he opened blind without looking: the bids come first, then the hand he sees
            self._bids(view.bids, view.went_blind)
        if view.hand and not sh["hand"]:   # not before a blind decision: the hand is not seen yet
            sh["hand"] = True
            dealt = _dealt_hand(view)
            # the hand as dealt, before the auction; the hand now comes with the question
            self.say(f"your hand{'' if dealt == view.hand else ' as dealt'}: {self._hand(dealt)}")
        self._bids(view.bids, view.went_blind)
        if view.declarer >= 0 and not sh["declarer"] and view.phase != "auction":
            sh["declarer"] = True
            self._auction_won(view.declarer, view.obligation, view.blind, view.high_bid, bool(view.bids), view.golden)
        if view.talon and not sh["talon"]:
            sh["talon"] = True
            self.say(f"talon: {format_hand(view.talon)}")
        if view.given and not sh["given"]:   # a game resumed (or undone) after the person's hand-off
            self._gave(view, view.given)
        if view.received >= 0 and not sh["received"]:
            sh["received"] = True
            self.say(f"you receive {card_name(view.received)} from {self.who(view.declarer)}")
        if view.phase == "play" and not sh["contract"]:
            sh["contract"] = True
            self.say(f"contract: {view.contract}{' blind' if view.blind else ''} by {self.who(view.declarer)}")
        if len(view.tricks) > sh["tricks"]:
            self._tricks(view.rules, view.tricks, view.declared)
            sh["trick"] = 0
        # the person is asked once a trick, so a declaration not shown yet led the trick in progress
        self._declarations(view.declared, view.trump, view.trick[0][1] if view.trick else -1)
        for s, c in view.trick[sh["trick"]:]:
            self.say("  " + self.does(s, f"play {card_name(c)}"))
        sh["trick"] = len(view.trick)

    def _header(self, rules: Any, dealer: int, scores: Any, barrel_sitter: int, barrel_count: int,
                bolts: Any = ()) -> None:
        self.shown["header"] = True
        line = f"\n=== deal {self.deals + 1}: dealer {self.who(dealer)}"
        if dealer == self.seat and len(self.players) == 4:
            line += " (you sit this one out)"
        line += f"; scores {self._scores(scores)}"
        if barrel_sitter >= 0:
            # this deal is the sitter's (count + 1)-th on it; after the last he falls.  With
            # barrel_takes_talon the count is of attempts: a deal he sits out as the 4-player
            # dealer is none (docs/rules.md)
            if rules.barrel_takes_talon and len(self.players) == 4 and barrel_sitter == dealer:
                line += (f"; {self.who(barrel_sitter)} on the barrel, sitting this deal out "
                         f"({barrel_count} of {rules.barrel_deals} attempts used)")
            else:
                used = "attempt" if rules.barrel_takes_talon else "deal"
                line += (f"; {self.who(barrel_sitter)} on the barrel "
                         f"({used} {barrel_count + 1} of {rules.barrel_deals} there)")
        if any(bolts):   # counted towards the third, which costs bolt_penalty (as a score sheet keeps them)
            line += ("; bolts: " + ", ".join(f"{self.who(s)} {k}" for s, k in enumerate(bolts) if k)
                     + f" (the third costs {rules.bolt_penalty})")
        self.say(line)

    def _declarations(self, declared: Any, trump: int, lead: int) -> None:
        """The declarations not shown yet (they led the trick in progress, led by ``lead``)."""
        for d in declared[self.shown["declared"]:]:
            self._declared(d, trump, lead)
        self.shown["declared"] = len(declared)

    def _declared(self, declaration: Any, trump: int, lead: int) -> None:
        s, suit, value = declaration
        if (s, suit) not in self.shown["said"]:   # the person's own: said when he answered
            self.say(self.does(s, _declaring(suit, value, lead)) + f"; trump {_suit(trump)}")

    def _tricks(self, rules: Any, tricks: Any, declared: Any) -> None:
        """The tricks not shown yet, each after the declaration that led it (a resumed game,
        a watched deal, a deal's end: several at once)."""
        sh = self.shown
        pending = declared[sh["declared"]:]
        led = _led_tricks(rules, pending, tricks, sh["tricks"])
        k = 0
        for i in range(sh["tricks"], len(tricks)):
            t = tricks[i]
            while k < len(pending) and led[k] == i:
                self._declared(pending[k], t.trump, t.plays[0][1])
                k += 1
            self._trick_line(i, t.plays, t.winner, t.points)
        sh["declared"] += k
        sh["tricks"] = len(tricks)

    def _trick_line(self, i: int, plays: Any, winner: int, points: int) -> None:
        cards = ", ".join(f"{self.who(s)} {card_name(c)}" for s, c in plays)
        self.say(f"trick {i + 1}: {cards} -> {self.who(winner)} (+{points})")

    def _hand(self, hand: int, legal: int = 0) -> str:
        text = format_hand(hand)
        return text if not legal or legal == hand else f"{text}   (you may play {format_hand(legal)})"

    def deal_over(self, res: DealResult, notes: SettleNotes) -> None:
        sh = self.shown
        if not sh["header"]:   # a deal the person was not asked about (he deals, or a redeal came first)
            state = res.state
            self._header(res.rules, res.dealer, state.scores if state is not None else [0] * len(self.players),
                         state.barrel_sitter if state is not None else -1,
                         state.barrel_count if state is not None else 0,
                         state.bolts if state is not None else ())
        if not sh["hand"] and self.seat in res.active and res.hands[self.seat]:
            # not asked in this deal, or its answers given back (a resumed game)
            sh["hand"] = True
            # past the auction the hand changed (the talon, the hand-off, the play): as a live deal says
            self.say(f"your hand{' as dealt' if res.declarer >= 0 else ''}: {format_hand(res.hands[self.seat])}")
        if res.is_redeal:
            talon_redeal = REDEAL_NAMES[res.redeal] == "talon"
            if talon_redeal:
                sh["talon"] = True      # said in the redeal's line: demanding it shows the talon to all
            # a redeal after the auction: the deal up to it first (the bids since the person's
            # last answer, who won, the talon and the hand-off his seat saw: four nines are
            # counted after the hand-off), as a played deal shows it
            self._auction(res)
            shown = f" (the talon: {format_hand(res.talon)})" if talon_redeal else ""
            self.say(f"REDEAL ({REDEAL_NAMES[res.redeal].replace('_', ' ')}) demanded by {self.who(res.redeal_by)}{shown}: "
                     "the same dealer deals again")
        else:
            self._auction(res)   # what he was not shown of it since his last decision
            self._tricks(res.rules, res.trick_log, res.declared)
            d = res.declarer
            if res.resigned:
                self.say(self.does(d, f"resign at {res.contract}") + self._resign_cost(res))
            else:
                if res.rules.players == 2:
                    self._two_player_talons(res)
                # in seat order, as the scores
                self.say("points: " + "; ".join(f"{self.who(s)} {_points_taken(res, s)}" for s in sorted(res.active)))
                self.say(f"{self.who(d)} played for {res.contract}: {outcome(res)} with {res.declarer_points}")
            if len(res.scores) == 4 and res.dealer_talon:
                # turned up to be counted, face down or not
                self.say(f"{self.who(res.dealer)} dealt and sat out: the talon {format_hand(res.trace.talons[0])} "
                         f"scores {res.dealer_talon}")
            elif len(res.scores) == 4 and res.state is not None and res.state.barrel_sitter == res.dealer:
                self.say(f"{self.who(res.dealer)} dealt and sat out on the barrel: the talon "
                         f"{format_hand(res.trace.talons[0])} does not score "
                         f"({dealer_talon_score(res.rules, res.trace.talons[0])} off the barrel)")
            self.say("score changes: " + ", ".join(f"{self.who(s)} {v:+d}" for s, v in enumerate(res.scores)))
            # as explain shows them: a bolt costs nothing until the third, so say each one
            bolted = [s for s in range(len(res.scores)) if res.bolts[s]]
            if bolted:
                what = "no trick taken" if res.rules.bolt_when == "no_tricks" else "no points taken"
                self.say(f"bolts ({what}): " + ", ".join(self.who(s) for s in bolted)
                         + (" (each counts double)" if res.bolt_weight == 2 else ""))
        if any(res.cut_fines):
            self.say("cut fines (nines at the bottom of the cut): "
                     + ", ".join(f"{self.who(s)} -{f}" for s, f in enumerate(res.cut_fines) if f))
        # a redeal changes no score, but its cut fine does: what followed from it (a fall off
        # the barrel, a 555 reset) and the scores now, as explain shows them
        if not res.is_redeal or any(res.cut_fines):
            for line in format_notes(notes, self.who):
                if not line.startswith("game scores"):
                    self.say(line)
            self.say(f"scores: {self._scores(notes.scores)}")
        if not res.is_redeal:
            self.deals += 1
        self._new_deal()

    def _resign_cost(self, res: DealResult) -> str:
        """sixty_two_free: which resignation of the declarer's this was, free or not."""
        if res.rules.resign != "sixty_two_free" or res.blind or res.state is None:
            return ""
        k = res.state.resignations[res.declarer] + 1      # this one, counted from the game's start
        if k <= FREE_RESIGNATIONS:
            return f" (free: resignation {k} of the {FREE_RESIGNATIONS} free ones)"
        return (f" (resignation {k}: the {FREE_RESIGNATIONS} free ones are used, this costs "
                f"{LATE_RESIGNATION_COST})")

    def _two_player_talons(self, res: DealResult) -> None:
        """The points no trick shows with 2 players: the laid-away cards (the declarer's) and
        the talon set aside (the last trick's winner's), turned up at the end of the deal."""
        laid = (1 << res.handoff_next) | (1 << res.handoff_other)
        self.say(f"laid away by {self.who(res.declarer)}: {format_hand(laid)} ({card_points(laid)} points, "
                 f"{'yours' if res.declarer == self.seat else 'his'})")
        if res.talon_taken >= 0:
            aside = res.talon2      # (res.talon is the one taken, whichever it was)
            last = res.trick_log[-1].winner
            self.say(f"the talon set aside: {format_hand(aside)} ({card_points(aside)} points) to "
                     f"{self.who(last)}, the last trick's winner")

    def _bids(self, bids: Any, went_blind: bool) -> None:
        """The bids ``(seat, value)`` not shown yet, the forced opening first (the forehand's
        blind 120 when he ``went_blind``: what a bid over it breaks)."""
        for i, (s, v) in enumerate(bids[self.shown["bids"]:], start=self.shown["bids"]):
            if i == 0 and went_blind:
                self.say(self.does(s, f"open blind at {v}") + f" (a bid breaks the blind; unbroken, it is "
                         f"±{BLIND_SCORE} for the declarer and the others' card points count double)")
            else:
                self.say(self.does(s, f"open {v}" if i == 0 else "pass" if v == 0 else f"bid {v}"))
        self.shown["bids"] = len(bids)

    def _auction_won(self, declarer: int, obligation: bool, blind: bool, bid: int, auction: bool,
                     golden: bool) -> None:
        if golden:          # the first deals of a golden-kon game: the forehand plays blind, no auction
            self.say(f"golden kon: {self.does(declarer, f'play a blind {bid} without an auction')} (±{BLIND_SCORE} "
                     "for the declarer; the others' card points count double)")
            return
        if not auction:     # the barrel's sitter (barrel_takes_talon)
            self.say(self.does(declarer, f"take the talon without an auction: contract {bid}"))
            return
        how = "on obligation" if obligation else "blind" if blind else f"at {bid}"
        self.say(self.does(declarer, f"win the auction {how}")
                 + (f" (±{BLIND_SCORE} for the declarer; the others' card points count double)" if blind else ""))

    def _auction(self, res: DealResult) -> None:
        """What was public before the play and not shown yet: bids, the declarer, the talon
        shown, the hand-off, the contract (all of it for a deal the person only watched; up
        to the redeal for a deal redealt)."""
        sh = self.shown
        self._bids(res.bid_log, res.went_blind)
        if res.declarer < 0:
            return
        if not sh["declarer"]:
            self._auction_won(res.declarer, res.obligation, res.blind, res.winning_bid, bool(res.bid_log), res.golden)
        if (res.talon_shown or res.declarer == self.seat) and not sh["talon"]:   # the declarer saw it, face down or not
            self.say(f"talon: {format_hand(res.talon)}")
        if res.declarer == self.seat:
            if res.handoff_next >= 0 and not sh["given"]:
                self._gave(res, (res.handoff_next, res.handoff_other))
        elif res.handoff_next >= 0 and self.seat in res.active and len(res.active) == 3 and not sh["received"]:
            got = res.handoff_next if _receivers(res.active, res.declarer)[0] == self.seat else res.handoff_other
            self.say(f"you receive {card_name(got)} from {self.who(res.declarer)}")
        sh["given"] = sh["received"] = True
        if not (res.resigned or res.is_redeal) and not sh["contract"]:
            self.say(f"contract: {res.contract}{' blind' if res.blind else ''} by {self.who(res.declarer)}")
        sh["declarer"] = sh["talon"] = sh["contract"] = True

    def game_over(self, game: GameResult) -> None:
        self.say("")
        if game.winner >= 0:
            self.say(f"GAME OVER: {'you win' if game.winner == self.seat else f'seat {game.winner} wins'}; "
                     f"final scores {self._scores(game.final)}")
        else:
            self.say(f"GAME OVER after {_count(len(game.history), 'deal')} (max_deals): no winner; "
                     f"final scores {self._scores(game.final)}")

    # ------------------------------------------------------------------ asking
    def ask(self, d: Decision) -> list[Any]:
        view = d.view
        if d.kind == "bid" and d.lowest > d.highest:
            why = (f"120 and your marriages ({d.highest - 120})" if d.highest > 120 else "no marriage in your hand") \
                if view.rules.bid_cap == "marriages" else "the highest bid"
            self.say(f"you must pass: the bidding is at {view.high_bid} and you may bid at most {d.highest} ({why})")
            return ["bid", 0]
        prompt, parse = self._question(d)
        while True:
            text = self._typed(prompt, d)
            try:
                answer = parse(text)
            except (ValueError, CardError) as e:
                self.say(f"  {e}")
                continue
            except _Retake:
                self.say("  (the card is taken back: choose again)")
                continue
            self._said(d, answer)
            return answer

    def _said(self, d: Decision, answer: list[Any]) -> None:
        """Confirm what cannot be seen later: the cards handed off, a marriage declared."""
        view = d.view
        if d.kind == "hand_off":
            self._gave(view, (parse_card(answer[1]), parse_card(answer[2])))
        elif d.kind == "play" and answer[2]:
            c = parse_card(answer[1])
            self.shown["said"].add((self.seat, suit_of(c)))
            trump = trump_after_declaring(view.rules, c, view.trump)
            self.say("you " + _declaring(suit_of(c), _marriage_value(view.rules, c), c) + f"; trump {_suit(trump)}")

    def _gave(self, at: View | DealResult, cards: Any) -> None:
        """The person's hand-off: the card to the defender after him first (2 players: laid
        away); ``at`` a view or the deal, for the seats."""
        self.shown["given"] = True
        self.say(self._hand_off_words(at, cards, ("lay", "give")))

    def _hand_off_words(self, at: View | DealResult, cards: Any, verbs: tuple[str, str]) -> str:
        """"you give A to seat 1 and B to seat 2" (``verbs``: the 2-player one, the other's)."""
        a, b = cards
        if at.rules.players == 2:
            return f"you {verbs[0]} away {card_name(a)} and {card_name(b)}"
        nxt, other = _receivers(at.active, self.seat)
        return f"you {verbs[1]} {card_name(a)} to {self.who(nxt)} and {card_name(b)} to {self.who(other)}"

    def _typed(self, prompt: str, d: Decision, hint: Callable[[], None] | None = None,
               retake: bool = False) -> str:
        """The next typed answer to ``prompt``; the commands (help, hand, hint, undo, quit)
        are carried out here, at every prompt, and an answer too long to be one is refused.
        ``hint`` replaces the decision's hint; with ``retake``, undo takes back the answer
        being given (the card whose marriage is asked about), not the one before."""
        while True:
            line = self.read(prompt)
            if line is None:
                raise Quit("end of input")
            text = line.strip()
            command = text.lower()
            if command in ("help", "?", "h"):
                self.say(HELP)
            elif command in ("undo", "u"):
                raise _Retake() if retake else Undo()
            elif command in ("quit", "exit", "q"):
                raise Quit("quit")
            elif command in ("hand", "show", "table"):
                self._show_table(d)
            elif command in ("hint", "advice"):
                (hint or (lambda: self._hint(d)))()
            elif any("\udc80" <= ch <= "\udcff" for ch in text):   # bytes that are not UTF-8, kept as escapes
                self.say("  that is not UTF-8 text; an answer is a card, a number, y or n, or a command (help)")
            elif len(text) > MAX_ANSWER:
                self.say(f"  that is {len(text):,} characters; an answer is a card, a number, y or n, or a command "
                         "(help)")
            else:
                return text

    def _declare(self, d: Decision, c: int) -> bool:
        """Asked when ``c`` may complete a marriage: declare it?  (Enter: yes.)"""
        prompt = f"declare the marriage ({_marriage_value(d.view.rules, c)}) with {card_name(c)}? [Y/n] "

        def hint() -> None:   # what the bots would do about this card
            said = []
            for spec, (card, declare) in self._bot_answers(d):
                said.append(f"{spec}: " + (("declare" if declare else "play it without declaring") if card == c
                                           else f"would play {card_name(card)} instead"))
            self.say("  " + "; ".join(said))
        while True:
            text = self._typed(prompt, d, hint, retake=True)
            if not text:
                return True
            try:
                return _yes_no(text)
            except ValueError as e:
                self.say(f"  {e}")

    def _hint(self, d: Decision) -> None:
        """What the bots would answer in your seat, from what your seat knows (no peeking):
        the rule-based ``standard`` and the search player ``pimc``."""
        answers = self._bot_answers(d)
        self.say("  " + "; ".join(f"{spec}: {self._spoken(d, value)}" for spec, value in answers))
        why = (self._pimc_reason(d, dict(answers)["pimc"]) if d.kind == "play"
               else self._pimc_contract_reason(d, dict(answers)["pimc"]) if d.kind == "contract" else None)
        if why:
            self.say("  " + why)

    @staticmethod
    def _hint_player(spec: str, d: Decision) -> Any:
        from thousand.players import make_player
        from thousand.reference.rng import Stream

        # each on a stream of its own: asking for a hint never changes the game
        return make_player(spec, d.view.rules, d.view.seat, Stream(0))

    def _bot_answers(self, d: Decision) -> list[tuple[str, Any]]:
        from .session import answer_of

        return [(spec, answer_of(self._hint_player(spec, d), d)) for spec in HINT_PLAYERS]

    def _pimc_reason(self, d: Decision, answer: tuple[int, bool]) -> str | None:
        """Why pimc plays ``answer``: the layouts of the hidden cards it solved, and for its
        card and the next best ones how often the contract is made and the declarer's points
        (its objective: the contract made in the most layouts, then the most points, the
        defenders the fewest).  None for a forced card."""
        got = self._hint_player("pimc", d).play_tally(d.view, d.legal)
        if got is None:
            return None
        worlds, layouts, rows = got
        maximising = d.view.declarer == d.view.seat
        # the kernel's order (rows come in card order; its first best is kept on a tie)
        rows = sorted(rows, key=lambda r: (-r[2], -r[3]) if maximising else (r[2], r[3]))
        rows.sort(key=lambda r: (r[0], r[1]) != answer)

        need = points_to_make(d.view.rules, d.view.contract, d.view.declarer == d.view.barrel_sitter)
        goal = f"make {d.view.contract}" + (f" ({need} points)" if need > d.view.contract else "")

        def said(row: tuple[int, bool, int, int], first: bool) -> str:
            card, declare, made, points = row
            name = card_name(card) + (" declaring" if declare else "")
            return (f"after {name} {self.does(d.view.declarer, goal)} in {made} of them "
                    f"({100 * made / worlds:.0f}%), with {points / worlds:.0f} points on average" if first
                    else f"after {name} in {made} ({100 * made / worlds:.0f}%), with {points / worlds:.0f}")
        return (f"pimc solved {_layouts(worlds, layouts)} open-handed: "
                + "; ".join(said(r, i == 0) for i, r in enumerate(rows[:3])) + ("; ..." if len(rows) > 3 else ""))

    def _pimc_contract_reason(self, d: Decision, answer: int) -> str | None:
        """What pimc's contract answer rests on: the declarer's points with open-hand play
        in the layouts it solved, and how often they reach the contract kept and the one
        it plays for (its choice weighs those: the best expected score, or a resignation
        when that costs less)."""
        got = self._hint_player("pimc", d).raise_tally(d.view, d.lowest, d.highest, d.may_resign)
        if got is None:
            return None
        worlds, layouts, points = got
        shown = [d.lowest] + ([answer] if answer != RESIGN and answer != d.lowest else [])
        sitter = d.view.barrel_sitter == d.view.seat

        def made(c: int) -> str:     # (a sitter at 120 needs 121 points under russian rules)
            need = points_to_make(d.view.rules, c, sitter)
            k = sum(p >= need for p in points)
            return f"{c} made in {k} ({100 * k / worlds:.0f}%)" + (f", {need} points needed" if need > c else "")
        return (f"pimc solved {_layouts(worlds, layouts)} open-handed: your points {min(points)} to {max(points)}, "
                f"{sum(points) / worlds:.0f} on average; " + "; ".join(made(c) for c in shown))

    def _spoken(self, d: Decision, value: Any) -> str:
        if d.kind in ("blind", "redeal"):
            return "yes" if value else "no"
        if d.kind == "bid":
            return "pass" if value == 0 else f"bid {value}"
        if d.kind == "hand_off":
            if d.view.rules.players == 2:
                return f"lay away {card_name(value[0])} and {card_name(value[1])}"
            nxt, other = _receivers(d.view.active, d.view.seat)
            return f"{card_name(value[0])} to {self.who(nxt)}, {card_name(value[1])} to {self.who(other)}"
        if d.kind == "contract":
            return "resign" if value == RESIGN else f"play for {value}"
        card, declare = value
        return card_name(card) + (" declaring the marriage" if declare else "")

    def _show_table(self, d: Decision, whole: bool = True) -> None:
        """The table now: the deal and scores (``whole``), the contract, the trick, the hand."""
        view = d.view
        if whole:
            self.say(f"deal {self.deals + 1}; scores {self._scores(view.scores)}")
        if view.phase == "auction" and view.bids:
            high = [s for s, v in view.bids if v == view.high_bid][-1]
            passed = [self.who(s) for s, v in view.bids if v == 0]
            blind = view.went_blind and view.high_bid == view.bids[0][1]   # nobody has broken it yet
            self.say(f"the auction: {view.high_bid}{' blind' if blind else ''} by {self.who(high)}"
                     + (f"; passed: {', '.join(passed)}" if passed else "")
                     + (f"; your limit {d.highest}" if d.kind == "bid" else ""))
        if view.contract and view.phase != "play":    # the contract is not set until the play starts
            self.say(f"the declarer: {self.who(view.declarer)}, at {view.contract} so far")
        elif view.contract:
            blind = f" blind (±{BLIND_SCORE}; the others' card points count double)" if view.blind else ""
            self.say(f"contract {view.contract}{blind} by {self.who(view.declarer)}; trump {_suit(view.trump)}; "
                     f"trick {view.trick_index + 1} of {view.n_tricks}")
            self.say("points so far: " + "; ".join(f"{self.who(s)} {self._points_so_far(view, s)}"
                                                    for s in sorted(view.active)))
            if view.declared:
                self.say("declared: " + ", ".join(f"{self.who(s)} {_declared_name(view.rules, suit, v)}"
                                                  for s, suit, v in view.declared))
        if view.contract:
            # what the seat learnt before the play and may have lost track of
            if view.talon:
                self.say(f"the talon: {format_hand(view.talon)}")
            if view.declarer == self.seat and view.given:
                self.say(self._hand_off_words(view, view.given, ("laid", "gave")))
            elif view.received >= 0:
                self.say(f"you received {card_name(view.received)} from {self.who(view.declarer)}")
        if view.trick:
            self.say("on the table: " + ", ".join(f"{self.who(s)} {card_name(c)}" for s, c in view.trick))
        if view.hand:
            self.say(f"your hand: {self._hand(view.hand, d.legal)}")

    def _points_so_far(self, view: View, seat: int) -> str:
        """A seat's points in the play so far, as ``hand`` shows them: its cards, its
        marriages, and with 2 players the declarer's laid-away cards where this seat laid
        them away (the others do not see them)."""
        cards, marr = view.points[seat], view.marriage_points[seat]
        laid = 0
        if view.rules.players == 2 and seat == view.declarer == self.seat and view.given:
            laid = card_points(sum(1 << c for c in view.given))
        parts = [str(cards)] + ([f"{marr} marriages"] if marr else []) + ([f"{laid} laid away"] if laid else [])
        return " + ".join(parts) + (f" = {cards + marr + laid}" if len(parts) > 1 else "")

    def _question(self, d: Decision) -> tuple[str, Callable[[str], list[Any]]]:
        view, rules = d.view, d.view.rules
        if d.kind == "blind":
            return "play blind (120, before you look at your cards)? [y/N] ", lambda t: ["blind", _yes_no(t)]
        if d.kind == "redeal":
            cards = view.talon if d.redeal == "talon" else view.hand
            if d.redeal == "four_nines":
                self.say("your four nines allow a redeal")
            else:
                what = "your hand" if d.redeal == "hand" else f"the talon ({format_hand(view.talon)})"
                self.say(f"{what} allows a redeal: {card_points(cards)} points, "
                         f"{_count(count_rank(cards, NINE), 'nine')}, {_count(count_rank(cards, JACK), 'jack')}")
            return "demand a redeal? [y/N] ", lambda t: ["redeal", _yes_no(t)]
        if d.kind == "bid":
            step = rules.bid_step
            # a single bid allowed is said as one value, as the contract prompt says it
            only = d.lowest == d.highest
            bids = f"{d.lowest}" if only else f"{d.lowest}-{d.highest}"

            def bid(t: str) -> list[Any]:
                if t.lower() in ("pass", "p", "0"):
                    return ["bid", 0]
                if not t:
                    raise ValueError(f"type a bid ({bids}) or pass")
                value = _number(t, f"a bid ({bids}) or pass")
                if not d.lowest <= value <= d.highest or (value - d.lowest) % step:
                    raise ValueError(f"the only bid here is {d.lowest}, or pass" if only else
                                     f"a bid here is {d.lowest} to {d.highest} in steps of {step}, or pass")
                return ["bid", value]
            if only:
                return f"your bid ({d.lowest}, no higher bid allowed) or pass: ", bid
            return f"your bid ({bids}, steps of {step}) or pass: ", bid
        if d.kind == "hand_off":
            self.say(f"your hand: {format_hand(view.hand)}")
            if rules.players == 2:
                return "lay away two cards (e.g. 9C JD): ", lambda t: _two_cards(t, view.hand)
            nxt, other = _receivers(view.active, view.seat)
            return (f"give two cards: the first to {self.who(nxt)}, the second to {self.who(other)} (e.g. 9C JD): ",
                    lambda t: _two_cards(t, view.hand))
        if d.kind == "contract":
            step = rules.bid_step

            def contract(t: str) -> list[Any]:
                if not t:
                    return ["contract", d.lowest]
                if t.lower() in ("resign", "r"):
                    if not d.may_resign:
                        raise ValueError("you may not resign here")
                    return ["contract", RESIGN]
                value = _number(t, "a contract")
                if not d.lowest <= value <= d.highest or (value - d.lowest) % step:
                    raise ValueError(f"the contract is {d.lowest} to {d.highest} in steps of {step}")
                return ["contract", value]
            self.say(f"your hand: {format_hand(view.hand)}")
            if view.barrel_sitter == view.seat:
                self.say(f"you are on the barrel: only a contract of {rules.barrel_contract} or more, made with "
                         f"{rules.barrel_target} points, takes you off (a smaller one's gain does not count)")
            resign = ", or resign" if d.may_resign else ""
            if d.may_resign and rules.resign == "sixty_two_free" and not view.blind:
                used = view.resignations[view.seat]
                resign = (f", or resign: free, {FREE_RESIGNATIONS - used} of {FREE_RESIGNATIONS} free left"
                          if used < FREE_RESIGNATIONS
                          else f", or resign: -{LATE_RESIGNATION_COST}, the {FREE_RESIGNATIONS} free ones are used")
            if d.may_resign and view.blind:
                resign = f", or resign: -{BLIND_SCORE}, +{BLIND_SCORE // 2} to each defender"
            if d.lowest == d.highest:   # nothing to raise (a blind or golden-kon 120, a bid at the cap)
                what = f"blind {d.lowest}" if view.blind else f"{d.lowest}, no raise allowed"
                return f"your contract ({what}: Enter keeps it{resign}): ", contract
            return f"your contract ({d.lowest}-{d.highest}, Enter keeps {d.lowest}{resign}): ", contract
        # a card
        self._show_table(d, whole=False)

        def card(t: str) -> list[Any]:
            if not t:
                raise ValueError(f"type a card: you may play {format_hand(d.legal)}")
            cards = _typed_cards(t.rstrip("!"))
            if not cards:   # "!" alone, or a comma
                raise ValueError(f"type a card: you may play {format_hand(d.legal)}")
            if len(cards) != 1:
                raise ValueError(f"type one card, not {len(cards)}")
            c = cards[0]
            if not d.legal >> c & 1:
                if not view.hand >> c & 1:
                    raise ValueError(f"{card_name(c)} is not in your hand")
                raise ValueError(f"{card_name(c)} is not allowed here; you may play {format_hand(d.legal)}")
            declare = False
            if can_declare(rules, view.hand, c, view.trick_index, not view.trick):
                declare = t.endswith("!") or self._declare(d, c)
            elif t.endswith("!"):
                # a declaration asked for that cannot be made: say why, play nothing (the
                # card played plainly could break the marriage for good)
                raise ValueError(f"{card_name(c)} declares nothing here: " + _why_no_declaration(
                    rules, view.hand, c, not view.trick) + f"; type {card_name(c)} to play it plainly")
            return ["play", card_name(c, symbols=False), declare]
        return "your card: ", card


class _Retake(Exception):
    """Undo at the marriage question: the card is chosen again (nothing was answered yet)."""


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _layouts(worlds: int, layouts: int) -> str:
    """How many layouts of the hidden cards pimc solved, of how many."""
    return (f"all {worlds:,} layouts of the hidden cards" if worlds >= layouts
            else f"{worlds:,} of the {layouts:,} layouts of the hidden cards")


def _receivers(active: Any, declarer: int) -> tuple[int, int]:
    """Who gets the declarer's hand-off: the first card the next seat in play order, the
    second the other (3 seats play)."""
    i = active.index(declarer)
    return active[(i + 1) % 3], active[(i + 2) % 3]


def _suit(suit: int) -> str:
    return SUIT_SYMBOLS[suit] if suit >= 0 else "none"


def _why_no_declaration(rules: Any, hand: int, c: int, leading: bool) -> str:
    """Why ``c``, which may not declare here (:func:`can_declare`), declares nothing: the
    card's own reason first (a nine never declares, wherever it is played), then the
    trick's (not the leader; else the first trick)."""
    # trick 1: no rule keeps declarations out of it, so only the card and the hand count
    if not declarable_cards(rules, hand, 1) >> c & 1:
        if rank_of(c) == ACE:
            return "an ace declares only while you hold all four and the ace marriage is played"
        return "only the queen or king of a marriage in your hand declares"
    if not leading:
        return "only the leader of a trick declares"
    return "nobody declares on the first trick (marriage_first_trick is off)"


def _declaring(suit: int, value: int, lead: int) -> str:
    """'declare 60 in ♦', or for an ace led (all four aces held) 'declare the ace marriage (200)'."""
    if lead >= 0 and rank_of(lead) == ACE:
        return f"declare the ace marriage ({value})"
    return f"declare {value} in {SUIT_SYMBOLS[suit]}"


def _declared_name(rules: Any, suit: int, value: int) -> str:
    """A declaration (suit, value) as ``hand`` lists it: "60 in ♣", "the ace marriage (200)"."""
    if rules.ace_marriage is not None and value == rules.ace_marriage and value != MARRIAGE_VALUES[suit]:
        return f"the ace marriage ({value})"
    return f"{value} in {SUIT_SYMBOLS[suit]}"


def _points_taken(res: DealResult, seat: int) -> str:
    """A seat's points of a played deal as they count: cards and marriages, then what the
    rules add (the last trick's bonus) or double (the defenders' cards in a blind deal)."""
    cards, bonus = res.points[seat], res.bonus[seat]
    doubled = res.blind and seat != res.declarer and cards > 0
    if not doubled:
        return f"{cards + res.marriages[seat]}" + (f" + {bonus} last trick" if bonus else "")
    text = f"{cards} x 2" + (f" + {res.marriages[seat]} marriages" if res.marriages[seat] else "")
    return text + (f" + {bonus} last trick" if bonus else "") + f" = {2 * cards + res.marriages[seat] + bonus}"


def _marriage_value(rules: Any, c: int) -> int:
    return rules.ace_marriage if c % 6 == 5 else MARRIAGE_VALUES[suit_of(c)]


def _led_tricks(rules: Any, declared: Any, tricks: Any, first: int) -> list[int]:
    """The trick each of ``declared`` (in order, none led a trick before ``first``) led:
    the first one after the one before led by the declaring seat with a card of the
    marriage's suit that declares it (a queen or king, an ace for the ace marriage: once
    such a card is led without declaring, the seat can no longer declare that way) and,
    when the declaration makes its suit trump, played with that trump (an ace marriage
    of a marriage's value is told from a plain ace lead so); ``len(tricks)`` for the
    trick in progress."""
    led, i = [], first
    for s, suit, value in declared:
        plain, ace = value == MARRIAGE_VALUES[suit], value == rules.ace_marriage
        ranks = ({QUEEN, KING} if plain else set()) | ({ACE} if ace else set())
        sets_trump = not ace or rules.ace_marriage_sets_trump
        while i < len(tricks) and not (tricks[i].leader == s and suit_of(tricks[i].plays[0][1]) == suit
                                       and (not sets_trump or tricks[i].trump == suit)
                                       and (rank_of(tricks[i].plays[0][1]) in ranks - {ACE}
                                            or ACE in ranks and rank_of(tricks[i].plays[0][1]) == ACE
                                            and _held_four_aces(tricks, i, s))):
            i += 1
        led.append(i)
        i += 1
    return led


def _held_four_aces(tricks: Any, i: int, seat: int) -> bool:
    """Could ``seat`` hold all four aces when leading trick ``i``: no ace played before it,
    none by another seat in it or after it?"""
    return not any(rank_of(c) == ACE and (j < i or s != seat)
                   for j, t in enumerate(tricks) for s, c in t.plays)


def _dealt_hand(view: View) -> int:
    """The seat's cards as dealt: those it holds, has played and has handed off, less the
    talon it took and the card it received."""
    cards = view.hand
    for t in view.tricks:
        cards |= sum(1 << c for s, c in t.plays if s == view.seat)
    cards |= sum(1 << c for s, c in view.trick if s == view.seat)
    cards |= sum(1 << c for c in view.given)
    if view.declarer == view.seat and cards & view.talon:   # the talon was taken
        cards &= ~view.talon
    if view.received >= 0:
        cards &= ~(1 << view.received)
    return cards


def _yes_no(text: str) -> bool:
    t = text.lower()
    if not t or t in _NO:
        return False
    if t in _YES:
        return True
    raise ValueError("answer y or n")


def _number(text: str, what: str) -> int:
    """A typed whole number (at most 6 digits: every bid and contract has 3 or 4)."""
    # ASCII digits only: int() also reads "1_10", "+110" and other scripts' digits, and a
    # typo read as a number is a binding bid
    if not (text.isascii() and text.isdigit()):
        raise ValueError(f"type {what}, not {text!r}")
    if len(text) > 6:
        raise ValueError(f"{text[:8]}... is far out of range: type {what}")
    return int(text)


def _typed_cards(text: str) -> list[int]:
    """The cards of a typed answer, the same at every prompt: separated by spaces or commas
    as everywhere (:func:`~thousand.cards.parse_cards`), and a rank and suit typed apart
    ("10 H") read as the one card they make."""
    try:
        return parse_cards(text)
    except CardError as error:
        try:
            return [parse_card("".join(text.split()))]
        except CardError:
            raise error from None


def _two_cards(text: str, hand: int) -> list[Any]:
    if text.strip().lower() in ("pass", "p", "resign", "r"):
        raise ValueError("the declarer gives two cards here (resigning comes after, at the contract): e.g. 9C JD")
    cards = _typed_cards(text)
    if len(cards) != 2:     # (parse_cards refuses a card twice)
        raise ValueError(f"give two cards, not {len(cards)}, e.g. 9C JD")
    for c in cards:
        if not hand >> c & 1:
            raise ValueError(f"{card_name(c)} is not in your hand")
    return recorded("hand_off", cards)


def _read_line(prompt: str) -> str | None:
    try:
        return input(prompt)
    except EOFError:
        return None
