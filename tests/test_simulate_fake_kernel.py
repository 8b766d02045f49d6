"""A stand-in for ``thousand.kernel`` until the compiled kernel lands (no tests here).

Fills the schema's columns with random values drawn from the given bit generator, with
a random number of extra redeal rows, so the runner's chunking, seeding and files can be
tested.  Imported by name in worker processes (tests/ is on their sys.path).
"""
import numpy as np

from thousand import schema

KERNEL_VERSION = -1


def _deal_cols(gen, rules, n):
    players = int(rules[0])
    redeals = int(gen.integers(0, max(n // 10, 1) + 1))
    rows = n + redeals
    cols = schema.empty_columns(schema.deal_columns(players), rows)
    for name, arr in cols.items():
        if arr.dtype == np.bool_:
            arr[:] = gen.integers(0, 2, rows).astype(bool)
        else:
            arr[:] = gen.integers(0, 100, rows).astype(arr.dtype)
    cols["deal_id"] = np.arange(rows, dtype=np.int64)
    cols["game_id"][:] = -1
    return cols


def play_deals(bitgen, rules, strategies, n_deals, trace=False):
    return _deal_cols(np.random.Generator(bitgen), rules, n_deals)


def play_games(bitgen, rules, strategies, n_games, deal_rows=False, trace=False):
    gen = np.random.Generator(bitgen)
    players = int(rules[0])
    games = schema.empty_columns(schema.game_columns(players), n_games)
    for name, arr in games.items():
        arr[:] = gen.integers(0, 2 if arr.dtype == np.bool_ else 100, n_games).astype(arr.dtype)
    games["game_id"] = np.arange(n_games, dtype=np.int64)
    deals = None
    if deal_rows:
        deals = _deal_cols(gen, rules, n_games * 3)
        deals["game_id"] = np.repeat(np.arange(n_games), 3)[: len(deals["deal_id"])].astype(np.int64)
        deals["game_id"] = np.resize(deals["game_id"], len(deals["deal_id"]))
    return games, deals
