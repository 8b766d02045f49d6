"""``thousand rules``: list the presets, print a rule set, or write it as TOML."""
from __future__ import annotations

import argparse
import sys
import textwrap
from dataclasses import fields

from thousand.commands.common import add_rules_arguments, rules_from_args
from thousand.rules import PRESET_NOTES, PRESETS, Rules, format_value, rule_notes

NAME = "rules"
HELP = "list the rule presets, show every option of one, or print it as TOML"
DESCRIPTION = """Show house rules.

Without an argument, lists the presets (with only --set or --toml: classic's).  With a
rule set (a preset, a preset with overrides, or a TOML file) prints every option, its
value and what it means, then a `note:` line for each option set to something that can
have no effect with the others (e.g. barrel_takes_talon with barrel_at=none); with --toml
the notes go to stderr, so the TOML on stdout still loads back.

examples:
  thousand rules                                   the presets
  thousand rules classic                           every option of classic
  thousand rules classic:bolts=off --set blind=on  a variant
  thousand rules russian --toml > mine.toml        edit it, then --rules mine.toml
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("spec", nargs="?", metavar="SPEC", help="preset, preset:k=v,... or FILE.toml")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", dest="overrides",
                   help="override one option (repeatable)")
    p.add_argument("--toml", action="store_true", help="print the rule set as a TOML file that loads back unchanged")


def run(args: argparse.Namespace) -> int:
    if args.spec is None and not args.overrides and not args.toml:
        print("presets (use one with --rules NAME, or `thousand rules NAME` for its options):")
        for name, rules in PRESETS.items():
            # wrapped under the name, so that a narrow terminal does not break the columns
            text = textwrap.wrap(PRESET_NOTES[name], width=88 - 23, break_on_hyphens=False)
            print(f"  {name:<8} {rules.hash}  {text[0]}")
            for more in text[1:]:
                print(" " * 23 + more)
        return 0
    rules = rules_from_args(args, "classic" if args.spec is None else args.spec)
    # Legal combinations that can never matter: said, not refused (stderr under --toml,
    # so the TOML stays loadable).
    notes = [f"note: {n}" for n in rule_notes(rules)]
    if args.toml:
        print(rules.to_toml(f"thousand rules: {rules.describe()} (hash {rules.hash})"), end="")
        for line in notes:
            print(line, file=sys.stderr)
        return 0
    print(f"rule set {rules.describe()}  (hash {rules.hash})")
    width = max(len(f.name) for f in fields(Rules))
    for f in fields(Rules):
        print(f"  {f.name:<{width}}  {format_value(getattr(rules, f.name)):<12}  {f.metadata['doc']}")
    for line in notes:
        print(line)
    return 0
