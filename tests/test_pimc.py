"""The search player ``pimc`` (src/_pimc.pxi, docs/strategies.md "pimc").

* batch == single decision: the reference engine asking ``KernelPlayer("pimc")`` one
  decision at a time (``thousand.kernel.decide``) reproduces the kernel's batch rows, on
  3-, 2- and 4-player tables (the same draws from the same stream, the same worlds);
* determinism: the same seeds give the same rows, and separate decision streams leave
  the chance untouched (the same decks whatever pimc draws);
* the worlds: every world pimc deals is consistent with what the seat knows (hand sizes,
  the played cards, the voids shown, the hand-off, the talon a defender saw), checked
  against the reference engine's own record of the deal; the true deal is always one of
  the worlds counted;
* with every world enumerated (a few tricks left) pimc plays what its objective says
  over all worlds, computed here independently with ``thousand.solver.card_values``;
* hand-off and raise answers are legal, and one hand-off candidate keeps the standard's pair.
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from thousand import _fastdeal, kernel
from thousand.reference import Stream
from thousand.rules import CLASSIC, parse_rules_spec
from thousand.strategies import KernelPlayer, parse_strategy

from helpers.parity import compare_reference_rows, reference_deals

#: a small budget: the tests check behaviour, not strength
SMALL = "pimc:worlds=4,hand_off_pairs=2,hand_off_worlds=2,raise_worlds=4"


@pytest.mark.parametrize("spec", ["classic", "classic:players=2,redeal_talon_jacks=none",
                                  "classic:players=4,must_beat=on"])
def test_kernel_player_reproduces_the_batch(spec, seed):
    """Reference engine + KernelPlayer(pimc), one decide() per decision == kernel batch."""
    rules = parse_rules_spec(spec)
    n = 6
    cols = kernel.play_deals(np.random.PCG64([seed, 41]), rules, SMALL, n_deals=n)
    bitgen = np.random.PCG64([seed, 41])
    name, _, params = SMALL.partition(":")
    given = dict(kv.split("=") for kv in params.split(","))
    players = [KernelPlayer(name, {k: float(v) for k, v in given.items()}, bitgen=bitgen)
               for _ in range(rules.players)]
    compare_reference_rows(rules, cols, reference_deals(rules, players, Stream(bitgen), n), what="KernelPlayer",
                           kernel_traces=lambda: kernel.deal_traces(
                               *kernel.play_deals(np.random.PCG64([seed, 41]), rules, SMALL, n_deals=n, trace=True),
                               rules.players))


def test_same_seeds_same_rows_and_decks_independent_of_pimc(seed):
    specs = [SMALL, "standard", "standard"]
    a = kernel.play_deals(np.random.PCG64([seed, 42]), CLASSIC, specs, n_deals=8, decisions=np.random.PCG64(5))
    b = kernel.play_deals(np.random.PCG64([seed, 42]), CLASSIC, specs, n_deals=8, decisions=np.random.PCG64(5))
    assert all(np.array_equal(a[k], b[k]) for k in a)
    # separate streams: the decks do not depend on what the players draw
    c = kernel.play_deals(np.random.PCG64([seed, 42]), CLASSIC, "standard", n_deals=8, decisions=np.random.PCG64(5))
    cards = [k for k in a if k[:4] == "hand" and k[4:].isdigit() or k.startswith("talon")]
    assert cards and len(a["deal_id"]) == len(c["deal_id"])
    assert all(np.array_equal(a[k], c[k]) for k in cards)
