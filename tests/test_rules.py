"""Rule sets: presets, the spec language, TOML round trips, errors that name the option, the hash."""
from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from thousand.rules import (CLASSIC, POLISH, PRESETS, RUSSIAN, Rules, RulesError, RuleField, format_value,
                            load_rules_toml, parse_overrides, parse_rules_spec, rules_hash)


def test_presets_follow_rules_md():
    assert CLASSIC == Rules()
    assert (CLASSIC.players, CLASSIC.target, CLASSIC.bid_step, CLASSIC.bid_cap, CLASSIC.barrel_at) == (3, 1000, 5, "marriages", 880)
    assert (CLASSIC.redeal_hand_points_max, CLASSIC.redeal_hand_nines, CLASSIC.redeal_talon_points_max) == (13, 3, 5)
    assert (CLASSIC.resign, CLASSIC.bolts, CLASSIC.bolt_when, CLASSIC.bolt_penalty) == ("half_bid", "always", "no_tricks", 120)
    assert RUSSIAN.diff(CLASSIC) == {
        "round_defenders": False, "barrel_takes_talon": True, "barrel_target": 121, "resign": "sixty",
        "redeal_talon_points_max": 4, "redeal_talon_by": "obligation", "samozval_555": True,
        "bolt_when": "zero_points"}
    assert POLISH.resign == "sixty_two_free" and POLISH.redeal_four_nines_after_exchange
    assert all(getattr(POLISH, k) is None for k in ("redeal_hand_points_max", "redeal_hand_nines", "redeal_hand_jacks",
                                                    "redeal_talon_points_max", "redeal_talon_nines", "redeal_talon_jacks"))
    assert set(PRESETS) == {"classic", "russian", "polish"}


README = Path(__file__).resolve().parents[1] / "README.md"


def readme_presets() -> dict[str, dict[str, str]]:
    """The options table of README.md: option -> {preset: value as printed}."""
    lines = README.read_text(encoding="utf-8").splitlines()
    start = lines.index("| option | classic | russian | polish | meaning |")
    table = {}
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        table[cells[0].strip("`")] = dict(zip(("classic", "russian", "polish"), cells[1:4]))
    return table


@pytest.mark.parametrize("preset", ["classic", "russian", "polish"])
def test_every_preset_option_is_the_readme_tables(preset):
    """Each preset, option by option, is what README.md's table (RULES.md's presets) says."""
    table = readme_presets()
    rules = PRESETS[preset]
    assert set(table) == {f.name for f in dataclasses.fields(Rules)}, "an option missing from, or extra in, README"
    wrong = {name: (format_value(getattr(rules, name)), row[preset]) for name, row in table.items()
             if format_value(getattr(rules, name)) != row[preset]}
    assert not wrong, f"{preset}: (preset, README) differ for {wrong}"


def test_polish_differs_from_classic_as_rules_md_says():
    assert POLISH.diff(CLASSIC) == {
        "resign": "sixty_two_free", "redeal_four_nines_after_exchange": True, "bolt_when": "zero_points",
        "redeal_hand_points_max": None, "redeal_hand_nines": None, "redeal_hand_jacks": None,
        "redeal_talon_points_max": None, "redeal_talon_nines": None, "redeal_talon_jacks": None}


def test_specs_and_overrides():
    r = parse_rules_spec("classic:bolts=off,barrel_at=900", ["blind=on", "ace_marriage=200"])
    assert (r.bolts, r.barrel_at, r.blind, r.ace_marriage) == ("off", 900, True, 200)
    assert parse_rules_spec("RUSSIAN") == RUSSIAN and parse_rules_spec(None) == CLASSIC
    assert parse_rules_spec("classic:barrel_at=none").barrel_at is None
    assert parse_rules_spec("classic:must_beat=true").must_beat is True
    assert parse_overrides("bolts=off, barrel_at=900") == {"bolts": "off", "barrel_at": "900"}
    assert CLASSIC.with_overrides({"players": 4}).players == 4
    assert parse_rules_spec(RUSSIAN) is RUSSIAN
    assert parse_rules_spec("classic:blind=on").describe() == "classic:blind=on"
    # a space before the colon, as " classic" already was (hostile try-out 4)
    assert parse_rules_spec("classic :bolts=off") == parse_rules_spec("classic:bolts=off")
    assert parse_rules_spec(" Russian : bolts = off ") == parse_rules_spec("russian:bolts=off")


@pytest.mark.parametrize("spec,message", [
    ("clasic", "unknown rule set 'clasic'"),
    ("classic:bolt=off", "unknown rule option 'bolt' (did you mean bolts?)"),
    ("classic:bolts=sometimes", "bolts: must be one of off, always, not_on_barrel; got 'sometimes'"),
    ("classic:blind=maybe", "blind: must be on or off, got 'maybe'"),
    ("classic:target=abc", "target: must be a whole number, got 'abc'"),
    ("classic:target=none", "target: must be a whole number, got 'none'"),
    ("classic:players=5", "players: must be 2, 3 or 4"),
    ("classic:redeal_hand_nines=2", "redeal_hand_nines: must be 3, 4 or none, got 2"),
    ("classic:target=1003", "target: must be a multiple of 5"),
    ("classic:barrel_at=1000", "barrel_at: must be below target (1000), got 1000"),
    ("classic:barrel_at=800", "barrel_target: a sitter at barrel_at=800 making 120 cannot reach target=1000"),
    ("classic:bid_step=7", "bid_step: must be 1, 2 or a multiple of 5, got 7"),
    # the sitter's contract is barrel_target rounded down to the step: 100, and 880 + 100 < 1000
    ("classic:bid_step=50", "bid_step: with bid_step=50 a barrel sitter comes off at contract 100 (barrel_target=120 "
                            "rounded down to a multiple of 50), and 880 + 100 does not reach target=1000"),
    ("russian:bid_step=35", "bid_step: with bid_step=35 a barrel sitter comes off at contract 105"),
    ("classic:bid_step=10,barrel_bid_min=125", "barrel_bid_min: must be a multiple of bid_step (10), got 125"),
    # the forehand sitter opens at it: 150 without a marriage is over his cap (hostile try-out 14)
    ("classic:barrel_bid_min=150", "barrel_bid_min: at most 120 with bid_cap=marriages"),
    ("classic:bolts", "bad rule override 'bolts': write name=value"),
    ("classic:target=1500", "barrel_target: a sitter at barrel_at=880 making 120 cannot reach target=1500"),
    # digits as typed: int() alone would read these as 1000, 1000 and 900
    ("classic:target=１０００", "target: must be a whole number, got '１０００'"),
    ("classic:target=1_000", "target: must be a whole number, got '1_000'"),
    ("classic:target=+900", "target: must be a whole number, got '+900'"),
])
def test_errors_name_the_option(spec, message):
    with pytest.raises(RulesError) as e:
        parse_rules_spec(spec)
    assert message in str(e.value)


def test_toml_round_trip(tmp_path):
    for rules in (CLASSIC, RUSSIAN, POLISH, CLASSIC.with_overrides("players=4,ace_marriage=200,barrel_at=none")):
        path = tmp_path / f"{rules.hash}.toml"
        path.write_text(rules.to_toml("test"), encoding="utf-8")
        assert load_rules_toml(path) == rules
        assert parse_rules_spec(f"{path}:blind=on") == rules.with_overrides("blind=on")
    (tmp_path / "table.toml").write_text('[rules]\npreset = "russian"\nbolts = "off"\n', encoding="utf-8")
    assert load_rules_toml(tmp_path / "table.toml") == RUSSIAN.with_overrides("bolts=off")
    (tmp_path / "bad.toml").write_text("bolts = [", encoding="utf-8")
    with pytest.raises(RulesError, match="is not valid TOML"):
        load_rules_toml(tmp_path / "bad.toml")
    with pytest.raises(RulesError, match="not found"):
        load_rules_toml(tmp_path / "missing.toml")
    (tmp_path / "wrong.toml").write_text('preset = "swiss"\n', encoding="utf-8")
    with pytest.raises(RulesError, match="preset: must be one of classic, russian, polish; got 'swiss'"):
        load_rules_toml(tmp_path / "wrong.toml")


def test_hash_is_stable_and_distinguishes_rule_sets():
    assert CLASSIC.hash == rules_hash(Rules()) == rules_hash(dataclasses.replace(CLASSIC))
    assert len(CLASSIC.hash) == 10 and int(CLASSIC.hash, 16) >= 0
    hashes = {r.hash for r in (CLASSIC, RUSSIAN, POLISH, CLASSIC.with_overrides("bolts=off"))}
    assert len(hashes) == 4
    # the same in a fresh interpreter with another string-hash seed
    code = "from thousand.rules import RUSSIAN; print(RUSSIAN.hash)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"PYTHONHASHSEED": "12345", "PATH": ""}, check=True)
    assert out.stdout.strip() == RUSSIAN.hash


def test_rules_are_frozen_and_flatten_for_the_kernel():
    with pytest.raises(dataclasses.FrozenInstanceError):
        CLASSIC.players = 4
    k = RUSSIAN.with_overrides("ace_marriage=200").to_kernel()
    assert k[RuleField.PLAYERS] == 3 and k[RuleField.BARREL_TARGET] == 121 and k[RuleField.ACE_MARRIAGE] == 200
    assert k[RuleField.RESIGN] == 2 and k[RuleField.BARREL_BID_MIN] == -1 and k[RuleField.ROUND_DEFENDERS] == 0
    assert len(k) == len(dataclasses.fields(Rules))


def test_two_player_table_accepts_the_classic_talon_conditions():
    # A 3-jack talon condition cannot trigger on a 2-card talon; it is not an error.
    rules = parse_rules_spec("classic:players=2")
    assert rules.players == 2 and rules.redeal_talon_jacks == 3


def test_a_toml_file_is_read_whole_and_with_its_types(tmp_path):
    def load(text):
        (tmp_path / "r.toml").write_text(text, encoding="utf-8")
        return load_rules_toml(tmp_path / "r.toml")

    # with a [rules] table, a key or table outside it would be dropped without a word
    for text, stray in (('target = 900\n[rules]\nbolts = "off"\n', "'target'"),
                        ('[rules]\nbolts = "off"\n[rulez]\ntarget = 900\n', "'rulez'")):
        with pytest.raises(RulesError, match=f"{stray} is outside its \\[rules\\] table"):
            load(text)
    # a number written as text, a switch as a number
    with pytest.raises(RulesError, match="target: must be a whole number written without quotes, got '900'"):
        load('target = "900"\n')
    with pytest.raises(RulesError, match=r"barrel_at: must be a whole number written without quotes \(or "):
        load('barrel_at = "880"\n')
    with pytest.raises(RulesError, match="must_trump: must be true or false, got 0"):
        load("must_trump = 0\n")
    # what --toml writes, and on/off for a switch, still read
    assert load('barrel_at = "none"\nmust_trump = "off"\nblind = true\ntarget = 900\n') == \
        CLASSIC.with_overrides("barrel_at=none,must_trump=off,blind=on,target=900")


def test_a_rules_file_whose_path_holds_a_colon(tmp_path):
    folder = tmp_path / "a:b"
    folder.mkdir()
    path = folder / "x.toml"
    path.write_text(RUSSIAN.to_toml(), encoding="utf-8")
    assert parse_rules_spec(str(path)) == RUSSIAN
    assert parse_rules_spec(f"{path}:bolts=off") == RUSSIAN.with_overrides("bolts=off")
    with pytest.raises(RulesError, match=f"rules file '{folder}/y.toml' not found"):
        parse_rules_spec(str(folder / "y.toml"))


def test_numpy_numbers_are_taken_as_pythons():
    # a sweep over np.arange(880, 960, 20) was refused: "must be a whole number, got np.int64(900)"
    import numpy as np
    swept = CLASSIC.with_overrides({"barrel_at": np.int64(900), "must_trump": np.bool_(False)})
    assert swept == CLASSIC.with_overrides("barrel_at=900,must_trump=off")
    assert type(swept.barrel_at) is int and type(swept.must_trump) is bool and swept.hash == swept.hash
    assert Rules(target=np.int32(1000)).hash == CLASSIC.hash
    with pytest.raises(RulesError, match="must be a whole number"):
        Rules(target=np.float64(1000.0))


def test_a_barrel_option_without_a_barrel_is_only_noted():
    # barrel_bid_min=150 is refused with a barrel (the sitter's forced opening) and moot without one
    from thousand.rules import rule_notes
    rules = parse_rules_spec("classic:barrel_at=none,barrel_bid_min=150")
    assert "barrel_bid_min has no effect with barrel_at=none" in " ".join(rule_notes(rules))


def test_an_empty_rules_file_is_refused_and_a_short_one_says_where_the_rest_come_from(tmp_path, capsys):
    # an empty file (what a failed `thousand rules ... --toml > FILE` leaves) was read as
    # classic without a word, and a cut-short copy of russian as classic plus its first lines
    for i, text in enumerate(("", "# a comment only\n", "[rules]\n")):
        (tmp_path / f"e{i}.toml").write_text(text)
        with pytest.raises(RulesError, match="sets no option"):
            load_rules_toml(tmp_path / f"e{i}.toml")
    full = RUSSIAN.to_toml()
    (tmp_path / "cut.toml").write_text("\n".join(full.splitlines()[:40]) + "\n")
    cut = load_rules_toml(tmp_path / "cut.toml")
    n_fields = len(dataclasses.fields(RUSSIAN))
    given = sum(1 for ln in full.splitlines()[:40] if ln and not ln.startswith("#"))
    err = capsys.readouterr().err
    assert err == (f"note: rules file {str(tmp_path / 'cut.toml')!r} sets {given} of {n_fields} options; the other "
                   f'{n_fields - given} are classic\'s (a preset = "russian" key starts from another preset)\n')
    assert cut != RUSSIAN
    load_rules_toml(tmp_path / "cut.toml")
    assert capsys.readouterr().err == ""          # once a file
    # a whole file, or a short one that names its preset: nothing to say
    (tmp_path / "full.toml").write_text(full)
    (tmp_path / "house.toml").write_text('preset = "russian"\nblind = true\n')
    assert load_rules_toml(tmp_path / "full.toml") == RUSSIAN
    assert load_rules_toml(tmp_path / "house.toml") == RUSSIAN.with_overrides("blind=on")
    assert capsys.readouterr().err == ""


# a value away from classic's for each option a run of single deals never uses
_GAME_ONLY_VALUES = {"target": "1500", "max_deals": "20", "barrel_at": "none", "barrel_deals": "5",
                     "barrel_target": "121", "barrel_penalty": "200", "barrel_bid_min": "120",
                     "barrel_takes_talon": "on", "barrel_third_reset": "on", "bolt_penalty": "200",
                     "samozval_555": "on", "golden_kon": "on"}


@pytest.mark.parametrize("strategy", ["random", "standard"])
def test_the_game_only_options_change_no_deal_of_a_deal_run(strategy):
    import numpy as np

    from thousand import kernel
    from thousand.rules import GAME_ONLY_OPTIONS

    assert set(_GAME_ONLY_VALUES) == set(GAME_ONLY_OPTIONS)
    base_rules = CLASSIC.with_overrides("barrel_at=none")      # (target=1500 needs it)
    for rules in (CLASSIC, base_rules):
        base = kernel.play_deals(np.random.PCG64(3), rules, strategy, n_deals=1500)
        for option, value in _GAME_ONLY_VALUES.items():
            if option == "target" and rules is CLASSIC or option.startswith("barrel_") and rules is base_rules:
                continue
            other = kernel.play_deals(np.random.PCG64(3), rules.with_overrides(f"{option}={value}"), strategy,
                                      n_deals=1500)
            assert all(np.array_equal(base[k], other[k]) for k in base), option
    # and one that does change the deals is not in the list
    other = kernel.play_deals(np.random.PCG64(3), CLASSIC.with_overrides("cut_nine_penalty=on"), "random",
                              n_deals=1500)
    assert "cut_nine_penalty" not in GAME_ONLY_OPTIONS and not all(
        np.array_equal(v, other[k]) for k, v in kernel.play_deals(np.random.PCG64(3), CLASSIC, "random",
                                                                   n_deals=1500).items())


def test_simulate_says_which_options_a_deal_run_never_uses(capsys):
    # golden_kon=on was recorded in the metadata of deals it could not change (try-out 27)
    from thousand.cli import main
    from thousand.rules import deal_run_notes
    assert main(["simulate", "--deals", "200", "--set", "golden_kon=on", "--rules", "russian:bolt_penalty=200",
                 "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert err == ("note: bolt_penalty=200, golden_kon=on have no effect in a run of single deals (each starts "
                   "from 0-0, outside a game): use thousand games\n")
    assert deal_run_notes(RUSSIAN) == [] and deal_run_notes(CLASSIC.with_overrides("bolts=off")) == []


def test_barrel_bid_min_that_can_never_act_is_noted():
    from thousand.rules import rule_notes
    # under barrel_takes_talon the sitter never bids; at 100 it is every bid's floor (try-out 31)
    from thousand.rules import deal_run_notes
    assert rule_notes(RUSSIAN.with_overrides("barrel_bid_min=120")) == [
        "barrel_bid_min has no effect with barrel_takes_talon (the sitter takes the talon without an auction: "
        "he never bids)"]
    assert rule_notes(CLASSIC.with_overrides("barrel_bid_min=100")) == [
        "barrel_bid_min=100 is no limit: every bid is 100 or more"]
    assert rule_notes(CLASSIC.with_overrides("barrel_bid_min=120")) == []
    assert deal_run_notes(CLASSIC.with_overrides("bolts=not_on_barrel")) == [
        "bolts=not_on_barrel is bolts=always in a run of single deals (nobody sits on the barrel)"]
