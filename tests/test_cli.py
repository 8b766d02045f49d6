"""The command line as a user meets it: help that teaches, one-line errors, exit codes."""
import subprocess
import sys

import pytest

from thousand import cli


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "thousand", *args], capture_output=True, text=True, timeout=300)


def test_top_level_help_lists_commands_and_examples():
    out = run_cli("--help")
    assert out.returncode == 0
    for mod in cli._load_commands():
        assert mod.NAME in out.stdout
    assert "examples:" in out.stdout


def test_a_missing_command_module_is_a_loud_error(monkeypatch, capsys):
    # A broken install must not quietly drop a command from --help (and from the tool).
    monkeypatch.setattr(cli, "COMMAND_MODULES", [*cli.COMMAND_MODULES, "nowhere_cmd"])
    with pytest.raises(cli.MissingCommand, match="thousand.commands.nowhere_cmd is missing"):
        cli._load_commands()
    assert cli.main(["--help"]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "nowhere_cmd" in err and err.startswith("thousand: error:")


@pytest.mark.parametrize("mod", cli._load_commands(), ids=lambda m: m.NAME)
def test_every_command_has_teaching_help(mod):
    assert "example" in mod.DESCRIPTION.lower(), f"{mod.NAME} --help shows no example"
    parser = cli.build_parser()
    with pytest.raises(SystemExit) as e:
        parser.parse_args([mod.NAME, "--help"])
    assert e.value.code == 0


def test_rules_lists_presets_and_prints_options():
    out = run_cli("rules")
    assert out.returncode == 0 and "classic" in out.stdout and "russian" in out.stdout
    out = run_cli("rules", "classic:bolts=off", "--set", "barrel_at=900")
    assert out.returncode == 0
    assert any(line.split()[:2] == ["bolts", "off"] for line in out.stdout.splitlines())
    assert any(line.split()[:2] == ["barrel_at", "900"] for line in out.stdout.splitlines())


def test_rules_toml_loads_back(tmp_path):
    from thousand.rules import load_rules_toml, parse_rules_spec
    out = run_cli("rules", "russian:blind=on", "--toml")
    path = tmp_path / "r.toml"
    path.write_text(out.stdout)
    assert load_rules_toml(path) == parse_rules_spec("russian:blind=on")
    out = run_cli("rules", str(path))
    assert out.returncode == 0


@pytest.mark.parametrize("args, needle", [
    (("rules", "classic:bolts=sometimes"), "bolts"),
    (("rules", "classic:bolt=off"), "bolt"),
    (("rules", "nosuchpreset"), "nosuchpreset"),
    (("rules", "classic", "--set", "barrel_at=1200"), "barrel_at"),
    (("rules", "classic", "--set", "players"), "players"),
    # one rule set a command: a second --rules was kept without a word (hostile try-out 4)
    (("explain", "--rules", "classic", "--rules", "russian"), "--rules: given twice ('classic' and 'russian')"),
    (("simulate", "--deals", "10", "--rules", "classic", "--rules", "polish"), "takes one rule set"),
])
def test_bad_rules_give_one_line_error(args, needle):
    out = run_cli(*args)
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert needle in lines[0] and "Traceback" not in out.stderr


def test_broken_toml_is_one_line_error(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("bolts = = off\n")
    out = run_cli("rules", str(bad))
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1
    assert "bad.toml" in out.stderr


def test_report_command_defaults_match_the_pipeline():
    from thousand.analysis import report as pipeline
    from thousand.commands import report as command
    from thousand.analysis import play_quality
    for name in ("DEFAULT_DEALS", "DEFAULT_GAMES", "DEFAULT_HANDS", "DEFAULT_SAMPLES"):
        assert getattr(command, name) == getattr(pipeline, name)
    # (the report module's is lowered for the tests by conftest: the section's own is the default)
    assert command.DEFAULT_PLAY_DEALS == play_quality.DEFAULT_PLAY_DEALS
    assert command.DEFAULT_DEFENCE_DEALS == play_quality.DEFAULT_DEFENCE_DEALS


def test_building_the_cli_does_not_import_the_analysis_stack():
    code = "import sys, thousand.cli as c; c.build_parser(); print('matplotlib' in sys.modules, 'polars' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.split() == ["False", "False"], out.stdout + out.stderr


def test_presets_describe_their_sources_in_words():
    # The rules texts are named by what they are, not by the project's file names (000_*).
    import re
    out = run_cli("rules")
    assert out.returncode == 0
    listing = out.stdout
    assert not re.search(r"\d{3}_", listing), listing
    for words in ("online card-games site", "Russian articles", "English rules page"):
        assert words in " ".join(listing.split()), listing
    assert max(len(line) for line in listing.splitlines()) <= 88


@pytest.mark.parametrize("interrupted", [False, True])
def test_a_broken_pipe_is_success_only_when_nothing_was_interrupted(monkeypatch, capsys, interrupted):
    """`thousand ... | head` ends quietly with 0; a pipe that broke while a SIGHUP was being
    handled (a killed worker's) is the interruption, never a success."""
    from thousand.commands import rules_cmd
    from thousand.runner.pool import Interrupted
    import signal

    def run(args):
        if not interrupted:
            raise BrokenPipeError(32, "Broken pipe")
        try:
            raise Interrupted(signal.SIGHUP)
        except KeyboardInterrupt:
            raise BrokenPipeError(32, "Broken pipe")   # raised while handling it: chained
    monkeypatch.setattr(rules_cmd, "run", run)
    rc = cli.main(["rules"])
    err = capsys.readouterr().err
    if interrupted:
        assert rc == 128 + signal.SIGHUP and "interrupted" in err
    else:
        assert rc == 0 and err == ""


def exit_code(argv: list[str]) -> int:
    """The exit code of ``thousand ARGV`` run in this process (argparse's errors exit)."""
    try:
        return cli.main(argv)
    except SystemExit as e:
        return e.code


@pytest.mark.parametrize("args, needle", [
    (["solve", "--hands", "AH TH | KH 9S | QH JS", "--declarer", "0_1"], "--declarer: must be a whole number"),
    (["solve", "--hands", "AH TH | KH 9S | QH JS", "--taken", "1_0,0,0"], "--taken: give 3 whole numbers"),
    (["solve", "--hands", "AH TH | KH 9S | QH JS", "--taken", "\u0663,0,0"], "--taken: give 3 whole numbers"),
    (["simulate", "--deals", "1_000", "--out", "x"], "--deals/-n: must be a whole number"),
    (["bid", "AH TH KH QH AD 9S JC", "--samples", "+100"], "--samples: must be a whole number"),
    (["match", "--strategy", "greedy", "--strategy", "standard", "--deals", "\uff11\uff10"], "--deals/-n: must be a whole number"),
    (["explain", "--seed", "1_0"], "--seed: must be a whole number >= 0"),
])
def test_numbers_are_ascii_digits_only(capsys, args, needle):
    # int() reads "1_0", "+100", full-width and Arabic-Indic digits: a typo must not become a number
    assert exit_code(args) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and needle in err, err


@pytest.mark.parametrize("command, flag, value, needle", [
    # a list of numbers beginning with a negative one: argparse took it for an option
    (["solve", "--hands", "AH TH | KH 9S | QH JS"], "--taken", "-5,0,0", "--taken: give 3 whole numbers 0..10000"),
    # negative numbers in exponent form, likewise
    (["compare", "--rules", "classic", "--rules", "classic:bolts=off"], "--precision", "-1e-3",
     "--precision must be a positive number"),
    (["match", "--strategy", "greedy", "--strategy", "standard"], "--precision", "-2e1",
     "--precision must be a positive number"),
    (["bid", "AH TH KH QH AD 9S JC"], "--confidence", "-1e-1", "--confidence must be in (0, 1]"),
    # plain negative numbers argparse already read as values: the same error either way
    (["solve"], "--seed", "-3", "--seed: must be a whole number >= 0"),
])
def test_a_value_starting_like_a_negative_number_reaches_its_own_check(capsys, command, flag, value, needle):
    # `--flag VALUE` and `--flag=VALUE` are the same request: the same one-line error, exit 2
    errors = []
    for spelling in ([flag, value], [f"{flag}={value}"]):
        errors.append((exit_code([*command, *spelling]), capsys.readouterr().err))
    assert errors[0] == errors[1], errors
    code, err = errors[0]
    assert code == 2 and len(err.strip().splitlines()) == 1 and needle in err, err


def test_an_option_after_an_option_that_wants_a_value_is_still_an_option(capsys):
    assert exit_code(["solve", "--hands", "AH TH | KH 9S | QH JS", "--taken", "--json"]) == 2
    assert "argument --taken: expected one argument" in capsys.readouterr().err


@pytest.mark.parametrize("args, line", [
    # argparse checks the required options first: a misspelt one read "--deals is required"
    # without naming what was typed (try-out 27)
    (("simulate", "--deal", "5"), "thousand simulate: error: unrecognized arguments: --deal (did you mean --deals?); "
                                  "the following arguments are required: --deals/-n (see thousand simulate --help)"),
    (("games", "--game=5"), "thousand games: error: unrecognized arguments: --game (did you mean --games?); the "
                            "following arguments are required: --games/-g/-n (see thousand games --help)"),
    (("solve", "--sed", "3"), "thousand solve: error: unrecognized arguments: --sed (did you mean --seed?); one of "
                              "the arguments --hands --seed --trace is required (see thousand solve --help)"),
    # nothing misspelt: as before
    (("simulate", "--chunk-size", "-3"), "thousand simulate: error: the following arguments are required: --deals/-n "
                                   "(see thousand simulate --help)"),
])
def test_a_misspelt_required_option_is_named(args, line):
    out = run_cli(*args)
    assert out.returncode == 2 and out.stderr.strip() == line
