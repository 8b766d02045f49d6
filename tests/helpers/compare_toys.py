"""A toy simulator for the comparison pipeline's tests.

It draws, for every chunk, from ``chunk_seed(seed, k)`` exactly as the runner does, so
rule sets given the same seed share their "shuffles"; its rules' effects are simple and
known, which lets the tests check the plumbing (pairing, rounds, outputs) apart from the
engine.
"""
from __future__ import annotations

import numpy as np
import polars as pl

from thousand import schema
from thousand.analysis.compare import compare_rules
from thousand.simulate import chunk_seed


def toy_simulator(rules, mode, first_chunk, n_chunks, chunk_size, seed, strategies, jobs, backend="loky",
                  reduce=lambda games, deals: (games, deals)):
    """Games whose length scales with the target and whose events follow the options."""
    P = rules.players
    games_parts, deal_parts = [], []
    for k in range(first_chunk, first_chunk + n_chunks):
        g = np.random.Generator(np.random.PCG64(chunk_seed(seed, k)))
        u = g.random(chunk_size)            # what every rule set shares: "the shuffle"
        noise = g.random(chunk_size)
        n_deals = np.maximum(1, np.round(rules.target / 40 * (0.6 + 0.8 * u))).astype(np.int16)
        cols = schema.empty_columns(schema.game_columns(P), chunk_size)
        cols["game_id"][:] = np.arange(k * chunk_size, (k + 1) * chunk_size)
        cols["chunk"][:] = k
        cols["first_dealer"][:] = g.integers(0, P, chunk_size)
        cols["winner"][:] = (cols["first_dealer"] + (u * 3).astype(int) + (noise < 0.1)) % P
        cols["deals"][:] = n_deals
        cols["barrel_entries0"][:] = (u > 0.5) if rules.barrel_at else 0
        cols["bolt_penalties1"][:] = (noise > 0.7) if rules.bolts != "off" else 0
        cols["final0"][:] = (1000 * u).astype(np.int16)
        games_parts.append(pl.DataFrame(cols))
        gid = np.repeat(cols["game_id"], n_deals)
        d = schema.empty_columns(schema.deal_columns(P), len(gid))
        d["game_id"][:] = gid
        d["chunk"][:] = k
        d["declarer"][:] = g.integers(0, P, len(gid))
        d["contract"][:] = 100 + 5 * g.integers(0, 5, len(gid))
        d["made"][:] = g.random(len(gid)) < 0.7
        deal_parts.append(pl.DataFrame(d))
    deals = pl.concat(deal_parts).with_columns(pl.int_range(pl.len()).alias("deal_id"))
    return reduce((pl.concat(games_parts) if mode == "games" else None), deals)


def toy_compare(specs, **kw):
    kw.setdefault("n_games", 600)
    kw.setdefault("seed", 5)
    kw.setdefault("chunk_size", 200)
    return compare_rules(specs, simulator=toy_simulator, **kw)
