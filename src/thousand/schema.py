"""Columns of the data the simulator writes: one row per dealt deal, one row per game.

This is the contract between the kernel (which fills numpy columns), the runner (which
writes them to Parquet) and the analysis pipelines (which read them).  Per-seat columns
exist for seats ``0 .. players-1``: ``hand0, hand1, hand2`` at a 3-player table.

Card sets are 24-bit masks in the layout of :mod:`thousand.cards`; a single card is its
number ``0..23`` (``-1`` for none).
"""
from __future__ import annotations

import numpy as np

# Deals (games) per chunk and per file.  Part of what fixes a run's data: chunk k always
# draws from the same seed, so a run is reproduced only with the same chunk size.
DEFAULT_CHUNK_DEALS = 250_000
DEFAULT_CHUNK_GAMES = 10_000

# Redeal codes of the ``redeal`` column (also the trace's redeal kinds).
REDEAL_NONE, REDEAL_HAND, REDEAL_TALON, REDEAL_FOUR_NINES = 0, 1, 2, 3
REDEAL_NAMES = ("none", "hand", "talon", "four_nines")

# name -> (dtype, meaning).  Per-seat names end in "{s}".
DEAL_COLUMNS: dict[str, tuple[type, str]] = {
    "deal_id": (np.int64, "index of the dealt deal (redeals get their own id): within its chunk in the files, across the run through thousand.simulate.load"),
    "chunk": (np.int32, "chunk the row was simulated in"),
    "game_id": (np.int64, "game the deal belongs to (-1 in a deal-only run)"),
    "deal_no": (np.int16, "played deals before this one in its game (0 in a deal-only run)"),
    "dealer": (np.int8, "dealer seat"),
    "hand{s}": (np.uint32, "cards dealt to seat s (7; 10 with 2 players; 0 for a sitting-out dealer)"),
    "talon": (np.uint32, "the talon as dealt (2 players: the declarer's talon, or the first if none)"),
    "talon2": (np.uint32, "2 players: the other talon; 0 otherwise"),
    "redeal": (np.int8, "redeal called on this deal: 0 none, 1 hand, 2 talon, 3 four_nines"),
    "redeal_by": (np.int8, "seat that called the redeal, -1 for none"),
    "blind": (np.bool_, "the deal was played blind (blind or golden kon)"),
    "bid{s}": (np.int16, "highest bid of seat s in the auction (forced openings count; 0 if it never bid)"),
    "n_bids": (np.int16, "number of bids and passes spoken in the auction"),
    "declarer": (np.int8, "declarer seat (-1 on a redeal before the talon)"),
    "obligation": (np.bool_, "the declarer plays the forced 100 (nobody bid)"),
    "winning_bid": (np.int16, "contract at the end of the auction"),
    "contract": (np.int16, "final contract, after any raise"),
    "resigned": (np.bool_, "the declarer resigned (wrote the hand)"),
    "handoff_next": (np.int8, "card the declarer gave the next active seat; 2 players: the first card he laid away (-1 if none)"),
    "handoff_other": (np.int8, "card the declarer gave the other opponent; 2 players: the second card he laid away (-1 if none)"),
    "points{s}": (np.int16, "card points of the tricks seat s won (2 players: talon points included)"),
    "marriages{s}": (np.int16, "marriage points seat s declared"),
    "tricks{s}": (np.int8, "tricks seat s won"),
    "declarer_points": (np.int16, "declarer's deal points (cards + marriages + bonus)"),
    "made": (np.bool_, "the declarer made the contract (false when he resigned)"),
    "score{s}": (np.int16, "change of seat s's game score from this deal's play (before bolt/barrel penalties)"),
    "bolt{s}": (np.bool_, "seat s got a bolt in this deal"),
}

GAME_COLUMNS: dict[str, tuple[type, str]] = {
    "game_id": (np.int64, "index of the game within the run"),
    "chunk": (np.int32, "chunk the row was simulated in"),
    "first_dealer": (np.int8, "dealer of the first deal"),
    "winner": (np.int8, "winning seat, -1 when max_deals stopped the game"),
    "deals": (np.int16, "played deals"),
    "redeals": (np.int16, "redeals called"),
    "final{s}": (np.int32, "final score of seat s"),
    "declarer_deals{s}": (np.int16, "deals seat s played as declarer"),
    "made{s}": (np.int16, "contracts seat s made"),
    "barrel_entries{s}": (np.int16, "times seat s got onto the barrel"),
    "barrel_falls{s}": (np.int16, "times seat s fell or was knocked off the barrel"),
    "bolt_penalties{s}": (np.int16, "bolt penalties seat s paid"),
    "resignations{s}": (np.int16, "times seat s resigned"),
    "resets_555": (np.int16, "555 resets in the game"),
    "blind_deals": (np.int16, "blind deals (blind or golden kon)"),
    "blind_made": (np.int16, "blind deals whose declarer made 120"),
    "golden_reset": (np.bool_, "golden kon failed and scores returned to 0"),
    "cut_penalties": (np.int16, "cut-nine penalties paid"),
    "barrel_clashes": (np.int16, "deals in which several players reached the barrel together (each paid "
                                 "barrel_penalty, nobody sat)"),
}


def expand(columns: dict[str, tuple[type, str]], players: int) -> dict[str, tuple[type, str]]:
    """Per-seat names spelled out for a table of ``players`` seats."""
    out: dict[str, tuple[type, str]] = {}
    for name, (dtype, doc) in columns.items():
        if "{s}" in name:
            for s in range(players):
                out[name.format(s=s)] = (dtype, doc.replace("seat s", f"seat {s}"))
        else:
            out[name] = (dtype, doc)
    return out


# The deal rows of a games run (``thousand games --deals-out``) carry these after the
# deal columns; a deal-only run leaves them out (they would repeat score{s} and dealer).
GAME_DEAL_EXTRAS: dict[str, tuple[type, str]] = {
    "total{s}": (np.int32, "game score of seat s after the deal (the game's last played deal: its final score)"),
    "forehand": (np.int8, "forehand seat of the deal"),
}


def deal_columns(players: int = 3, in_games: bool = False) -> dict[str, tuple[type, str]]:
    """The deal rows' columns; ``in_games``: those of a games run's deal rows (with GAME_DEAL_EXTRAS)."""
    return expand({**DEAL_COLUMNS, **GAME_DEAL_EXTRAS} if in_games else DEAL_COLUMNS, players)


def game_columns(players: int = 3) -> dict[str, tuple[type, str]]:
    return expand(GAME_COLUMNS, players)


def empty_columns(columns: dict[str, tuple[type, str]], n: int) -> dict[str, np.ndarray]:
    """Zeroed numpy columns for ``n`` rows (what the kernel fills)."""
    return {name: np.zeros(n, dtype=dtype) for name, (dtype, _) in columns.items()}


def schema_markdown(players: int = 3) -> str:
    """The schema as a Markdown table, for the README."""
    lines = ["| column | type | meaning |", "|---|---|---|"]
    for title, cols in (("deal", DEAL_COLUMNS), ("game", GAME_COLUMNS)):
        lines.append(f"| **{title} rows** | | |")
        for name, (dtype, doc) in cols.items():
            lines.append(f"| `{name}` | {np.dtype(dtype).name} | {doc} |")
    return "\n".join(lines)
