"""The parity checks reach the game rules' rare situations, so the kernel is bound on them.

A rule changed in both engines at once passes parity; the hand-built cases of
``test_reference_boundaries.py`` and ``test_reference_options.py`` pin the rules in the
reference engine.  A rule changed (or broken) in the kernel alone is caught by parity only
if some replayed game goes through it: these kernel games, replayed through the reference
engine (every game row and score identical), are chosen to go through every game-level
situation of ``docs/rules.md`` ("A game"), and the test asserts that they do.
"""
from __future__ import annotations

from collections import Counter

from thousand.reference import GameResult, GameState, settle_deal
from thousand.rules import Rules, parse_rules_spec

from helpers.parity import check_games

# (rules, strategy, games): short games where the barrel, bolts, resignations, 555, golden
# kon and the cut come round often; a few seconds in all
RUNS = [
    ("classic:target=300,barrel_at=200,barrel_deals=1,barrel_third_reset=on,samozval_555=on,"
     "resign=sixty_two_free,max_deals=80", "random", 12),
    ("classic:target=300,barrel_at=200,barrel_third_reset=on,golden_kon=on,cut_nine_penalty=on,max_deals=60",
     "standard", 60),
    ("classic:target=250,barrel_at=none,blind=on,max_deals=60", "aggressive", 100),
    ("classic:target=300,barrel_at=200,barrel_takes_talon=on,barrel_target=121,barrel_third_reset=on,max_deals=80",
     "standard", 30),
]

SITUATIONS = {
    "gets onto the barrel", "comes off the barrel", "a sitter's gain does not count", "runs out of barrel deals",
    "third barrel failure resets", "goes under the barrel", "knocked off the barrel", "two reach the barrel at once",
    "bolt penalty", "555 reset", "golden kon reset", "cut-nine fine", "free resignation", "paid resignation",
    "max_deals stops the game", "won exactly at the target", "several over the target",
    "a sitter's failed attempt costs nothing",
}


def situations(rules: Rules, games: list[GameResult]) -> Counter:
    """What happened in the games, deal by deal, told from the states before and after."""
    seen: Counter = Counter()
    for g in games:
        st = GameState.fresh(rules.players)
        st.golden = rules.golden_kon
        for res in g.deals:
            before = st
            st, notes = settle_deal(rules, before, res)
            seen["cut-nine fine"] += any(res.cut_fines)
            if res.is_redeal:
                continue
            seen["gets onto the barrel"] += notes.barrel_entered >= 0
            seen["comes off the barrel"] += notes.barrel_off >= 0
            seen["two reach the barrel at once"] += bool(notes.barrel_clash)
            sitter = before.barrel_sitter
            seen["a sitter's gain does not count"] += (sitter >= 0 and res.scores[sitter] > 0
                                                       and notes.barrel_off != sitter)
            seen["a sitter's failed attempt costs nothing"] += (sitter >= 0 and res.declarer == sitter
                                                                and res.scores[sitter] < 0
                                                                and rules.barrel_takes_talon)
            for s, why in zip(notes.barrel_falls, notes.barrel_fall_why):
                if "without coming off" in why:
                    seen["runs out of barrel deals"] += 1
                    seen["third barrel failure resets"] += rules.barrel_third_reset and st.barrel_sits[s] == 3
                elif notes.barrel_entered >= 0 and notes.barrel_entered != s:
                    seen["knocked off the barrel"] += 1
                else:
                    seen["goes under the barrel"] += 1
            seen["bolt penalty"] += any(notes.bolt_penalties)
            seen["555 reset"] += bool(notes.reset_555)
            seen["golden kon reset"] += notes.golden_reset
            if res.resigned and rules.resign == "sixty_two_free" and not res.blind:
                seen["free resignation" if res.scores[res.declarer] == 0 else "paid resignation"] += 1
            if notes.winner >= 0:
                seen["won exactly at the target"] += notes.scores[notes.winner] == rules.target
                seen["several over the target"] += sum(x >= rules.target for x in notes.scores) > 1
        seen["max_deals stops the game"] += g.winner < 0 and g.counters["deals"] == rules.max_deals
    return seen


def test_parity_games_go_through_every_game_situation():
    seen: Counter = Counter()
    for spec, strategy, n in RUNS:
        rules = parse_rules_spec(spec)
        seen += situations(rules, check_games(rules, strategy, n, seed=[1, 7]))
    missing = sorted(SITUATIONS - {s for s, k in seen.items() if k})
    assert not missing, f"no replayed kernel game has: {missing} (seen: {dict(seen)})"
