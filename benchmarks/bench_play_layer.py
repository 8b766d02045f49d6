"""Speed of the play layer's make/unmake (src/_play.pxi), one core.

Counts every line of the next ``--depth`` cards (perft: play_card, recurse, undo_card;
a declaration is a line of its own) from the first lead of random 3-player classic deals,
through the test helper ``_fastdeal._PlayLayerForTests``, and prints the cards played
and taken back per second (each includes that node's legal_cards and declarable_cards).

    .venv/bin/python benchmarks/bench_play_layer.py [--deals 20] [--depth 9]
"""
from __future__ import annotations

import argparse
import random
import time

from thousand import _fastdeal
from thousand.rules import CLASSIC


def deal(rng: random.Random) -> tuple[list[int], tuple[int, int, int], int]:
    cards = list(range(24))
    rng.shuffle(cards)
    hands = [sum(1 << c for c in cards[8 * s:8 * s + 8]) for s in range(3)] + [0]
    return hands, (0, 1, 2), rng.randrange(3)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--depth", type=int, default=9)
    a = ap.parse_args()
    rng = random.Random(1)
    plays = 0
    elapsed = 0.0
    for _ in range(a.deals):
        hands, active, leader = deal(rng)
        k = _fastdeal._PlayLayerForTests(CLASSIC.to_kernel(), hands, active, leader)
        # perft(depth) plays (and takes back) one card per node of its tree: as many as
        # there are lines of 1, 2, ..., depth cards
        plays += sum(k.perft(d) for d in range(1, a.depth))
        t = time.process_time()
        plays += k.perft(a.depth)
        elapsed += time.process_time() - t
    print(f"{plays:,} cards played and taken back in {elapsed:.2f} s (CPU): "
          f"{plays / elapsed / 1e6:.1f} M make/unmake pairs a second")


if __name__ == "__main__":
    main()
