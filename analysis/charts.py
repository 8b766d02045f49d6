"""Charts of the report (matplotlib figures on the Agg canvas, PNG; no pyplot state).

Each function takes the collected table its pipeline returns and a path, draws one figure
with a title, labelled axes and units, and every estimate's 95% interval, and returns
the path.  Nothing here computes statistics.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import matplotlib.ticker
import numpy as np
import polars as pl
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle

from thousand.files import written_whole
from thousand.rules import Rules

__all__ = [
    "redeal_frequency_chart", "redeal_calls_chart", "marriage_frequency_chart", "marriage_value_chart",
    "marriage_points_chart", "play_quality_chart", "save", "save_figure",
]

DPI = 110
SUIT_COLOURS = {"spades": "#2b2b2b", "clubs": "#3a7d44", "diamonds": "#d9822b", "hearts": "#c0392b",
                "aces": "#6c5b7b", "any": "#7f8c8d"}
ROLE_COLOURS = {"all": "#95a5a6", "declarer": "#2e86c1", "defender": "#cb4335"}


def _figure(**kw) -> Figure:
    """A figure drawn by the Agg canvas directly: no pyplot, no global backend switch."""
    fig = Figure(**kw)
    FigureCanvasAgg(fig)
    return fig


def save(fig: Figure, path: str | os.PathLike) -> Path:
    """A report chart: ``path``'s folder made if needed, the file written whole or not at all."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    return save_figure(fig, path, dpi=DPI, bbox_inches="tight")


def save_figure(fig: Figure, path: str | os.PathLike, **savefig: Any) -> Path:
    """``fig.savefig(path, **savefig)``, but whole or not at all: drawn to a hidden temporary
    name beside ``path`` and renamed, so a full disk or an interruption leaves no 0-byte or
    cut image (nor an earlier chart half replaced).  The format is ``path``'s suffix."""
    path = Path(path)
    savefig.setdefault("format", path.suffix.lstrip(".").lower() or "png")
    with written_whole(path) as tmp:
        fig.savefig(tmp, **savefig)
    return path


def _err(lo: np.ndarray, mid: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Asymmetric error bars from interval bounds (NaN-safe)."""
    return np.vstack([np.nan_to_num(mid - lo), np.nan_to_num(hi - mid)])


def _pct_decimals(v: float) -> int:
    """Decimals that show a percentage ``v`` with three significant digits (1 to 4), as the
    report's tables do: 19.1, 2.31, 0.768."""
    if not np.isfinite(v) or v == 0 or abs(v) >= 10:
        return 1
    return int(max(1, min(4, 2 - np.floor(np.log10(abs(v))))))


def redeal_frequency_chart(freq: pl.DataFrame, path: str | os.PathLike) -> Path:
    """Observed frequency of each redeal condition (bar, 95% Wilson interval) and its exact
    probability (black tick), one panel per rule set, on a log scale in percent."""
    labels = list(dict.fromkeys(freq["rules"].to_list())) or ["(none)"]
    heights = [max(1, freq.filter(pl.col("rules") == r).height) for r in labels]
    fig = _figure(figsize=(9, 1.2 + 0.36 * sum(heights) + 0.5 * len(labels)))
    axes = fig.subplots(len(labels), 1,
                        gridspec_kw={"height_ratios": heights}, squeeze=False)
    # One x range for every panel, so that bars of different rule sets compare by eye.
    pos = [v for c in ("observed", "ci_low", "exact") for v in freq[c].drop_nulls().to_list() if v and v > 0] \
        if freq.height else []
    xlim = (10 ** np.floor(np.log10(min(pos) * 100)), max(pos) * 100 * 2.2) if pos else None
    scope_colour = {"hand": "#2e86c1", "deal": "#884ea0", "talon": "#d68910",
                    "hand after exchange": "#17a589", "deal after exchange": "#117864"}
    for ax, label in zip(axes[:, 0], labels):
        t = freq.filter(pl.col("rules") == label)
        if t.height == 0 or not (t["observed"].fill_null(0) > 0).any():
            msg = "no redeal condition enabled" if t.height == 0 else "no condition observed"
            ax.text(0.5, 0.5, msg, ha="center", va="center", transform=ax.transAxes)
            ax.set_axis_off()
            ax.set_title(label)
            continue
        y = np.arange(t.height)[::-1]
        obs = t["observed"].fill_null(np.nan).to_numpy() * 100
        lo = t["ci_low"].fill_null(np.nan).to_numpy() * 100
        hi = t["ci_high"].fill_null(np.nan).to_numpy() * 100
        colours = [scope_colour.get(s, "#7f8c8d") for s in t["scope"]]
        ax.barh(y, np.where(obs > 0, obs, np.nan), color=colours, alpha=0.75, height=0.7)
        ax.errorbar(obs, y, xerr=_err(lo, obs, hi), fmt="none", ecolor="black", elinewidth=1, capsize=3)
        exact = t["exact"].fill_null(np.nan).to_numpy() * 100
        ax.scatter(exact, y, marker="|", s=260, color="black", zorder=5, label="exact probability")
        ax.set_yticks(y, [f"{c}  [{s}]" for c, s in zip(t["condition"], t["scope"])], fontsize=8)
        ax.set_xscale("log")
        if xlim:
            ax.set_xlim(*xlim)
        ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}%"))
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.set_xlabel("frequency (% of hands / deals / talons, log scale)")
        ax.set_title(f"{label}", fontsize=10, loc="left")
        ax.grid(axis="x", which="both", alpha=0.3)
        for yy, o, h, e in zip(y, obs, hi, exact):
            if np.isfinite(o) and o > 0:
                # right of the bar's interval and its exact tick, level with the bar
                right = np.nanmax([o, h, e])
                ax.annotate(f"{o:.{_pct_decimals(o)}f}%", (right, yy), xytext=(6, 0), textcoords="offset points",
                            fontsize=7, va="center")
    handles = [Rectangle((0, 0), 1, 1, color=c, alpha=0.75) for c in scope_colour.values()]
    handles.append(Line2D([], [], color="black", marker="|", linestyle="none", markersize=12))
    fig.suptitle("How often redeal conditions occur (observed with 95% interval, exact tick)", fontsize=11)
    legend_h = 0.75 / fig.get_figheight()  # about 0.75 inch for three rows of legend
    fig.tight_layout(rect=(0, legend_h, 1, 0.97))
    fig.legend(handles, [f"per {s}" for s in scope_colour] + ["exact probability"], loc="lower center",
               ncol=3, fontsize=8, bbox_to_anchor=(0.5, 0.0))
    return save(fig, path)


def redeal_calls_chart(calls: pl.DataFrame, path: str | os.PathLike) -> Path:
    """Per rule set and redeal kind: share of deals where a redeal could be called and
    where it was, in percent, with 95% intervals."""
    fig = _figure(figsize=(8, 1.3 + 0.45 * max(1, calls.height)))
    ax = fig.subplots()
    if calls.height == 0:
        ax.text(0.5, 0.5, "no redeal conditions enabled", ha="center", va="center", transform=ax.transAxes)
        ax.set_axis_off()
    else:
        y = np.arange(calls.height)[::-1]
        deals = calls["deals"].to_numpy().astype(float)
        elig = calls["eligible"].to_numpy() / deals * 100
        called = calls["per_deal"].to_numpy() * 100
        lo = calls["per_deal_ci_low"].to_numpy() * 100
        hi = calls["per_deal_ci_high"].to_numpy() * 100
        ax.barh(y + 0.18, elig, height=0.36, color="#aab7b8", label="a condition held (could be called)")
        ax.barh(y - 0.18, called, height=0.36, color="#2e86c1", label="redeal called")
        ax.errorbar(called, y - 0.18, xerr=_err(lo, called, hi), fmt="none", ecolor="black", capsize=3)
        for yy, e, c, w in zip(y, elig, called, calls["when_eligible"].fill_null(np.nan).to_numpy()):
            txt = f"{c:.{_pct_decimals(c)}f}% called" + (f" ({w * 100:.1f}% of chances)" if np.isfinite(w) else "")
            ax.annotate(txt, (max(e, c), yy), xytext=(4, -3), textcoords="offset points", fontsize=7)
        ax.set_yticks(y, [f"{r}: {k}" for r, k in zip(calls["rules"], calls["kind"])], fontsize=8)
        ax.set_xlabel("share of dealt deals (%)")
        # the legend in a band of its own under the bars, and room right of the longest bar
        # for its words (long rule names narrowed the axes: the legend sat on a bar's words
        # and the words ran off: try-out 10)
        ax.set_ylim(-1.6, calls.height - 0.4)
        ax.set_xlim(0, max(1.0, float(np.nanmax(elig))) * 1.45)
        ax.legend(fontsize=8, loc="lower center", ncol=2)
        ax.grid(axis="x", alpha=0.3)
    # over the figure, not the axes: long rule names push the axes right, and a title centred
    # over them ran off the figure
    fig.suptitle("Redeals: chances and calls by the strategies (95% intervals)", fontsize=11)
    fig.tight_layout()
    if calls.height:
        _fit_annotations(fig, ax)
        fig.tight_layout()
    return save(fig, path)


def _fit_annotations(fig: Any, ax: Any) -> None:
    """Widen the x range until every annotation of ``ax`` ends inside the axes (a few
    rounds: each widening shrinks the text's share of the range)."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    for _ in range(6):
        right = max((t.get_window_extent(renderer).x1 for t in ax.texts), default=0.0)
        box = ax.get_window_extent(renderer)
        if right <= box.x1 - 2:
            return
        lo, hi = ax.get_xlim()
        # the text's width in data units grows with the range: scale by the overshoot
        ax.set_xlim(lo, hi * (right - box.x0 + 8) / (box.x1 - box.x0))
        fig.canvas.draw()


def marriage_frequency_chart(table: pl.DataFrame, path: str | os.PathLike, rules: Rules | None = None) -> Path:
    """Left: how often each marriage is held (dealt hand by role; declarer with talon).
    Right: what becomes of held marriages, by role (declared / lost and why).  The legend
    names the hand sizes of ``rules`` (default: the 3-player table)."""
    from thousand.analysis.redeals import table_shape

    hand, _, talon = table_shape(rules) if rules is not None else (7, 3, 3)
    suits = [s for s in dict.fromkeys(table["suit"].to_list()) if s != "any"]
    fig = _figure(figsize=(13, 4.8))
    ax1, ax2 = fig.subplots(1, 2)
    series = [("all", "held in dealt hand", f"any seat, dealt {hand} cards"),
              ("declarer", "held in dealt hand", f"declarer, dealt {hand} cards"),
              ("declarer", "held with talon", f"declarer, with talon ({hand + talon} cards)"),
              ("defender", "held in dealt hand", f"defender, dealt {hand} cards")]
    width = 0.8 / len(series)
    x = np.arange(len(suits))
    colours = ["#95a5a6", "#85c1e9", "#2e86c1", "#cb4335"]
    for i, (role, measure, lab) in enumerate(series):
        vals, lo, hi = [], [], []
        for s in suits:
            r = table.filter((pl.col("suit") == s) & (pl.col("role") == role) & (pl.col("measure") == measure))
            rate = r["rate"][0] if r.height and r["rate"][0] is not None else np.nan
            vals.append(rate * 100)
            lo.append((r["ci_low"][0] if r.height and r["ci_low"][0] is not None else np.nan) * 100)
            hi.append((r["ci_high"][0] if r.height and r["ci_high"][0] is not None else np.nan) * 100)
        v = np.array(vals)
        ax1.bar(x + (i - (len(series) - 1) / 2) * width, v, width, color=colours[i], label=lab,
                yerr=_err(np.array(lo), v, np.array(hi)), capsize=2)
    exact = table.filter((pl.col("role") == "all") & (pl.col("measure") == "held in dealt hand")
                         & pl.col("suit").is_in(suits) & pl.col("exact").is_not_null())
    if exact.height == len(suits):
        ax1.hlines(exact["exact"].to_numpy() * 100, x - 0.45, x + 0.45, colors="black", linestyles=":",
                   label=f"exact, random {hand}-card hand")
    ax1.set_xticks(x, [f"{s}\n({v})" for s, v in zip(suits, _values(table, suits))])
    ax1.set_ylabel("hands holding the marriage (%)")
    ax1.set_xlabel("marriage (value in points)")
    ax1.set_title("How often each marriage is held", fontsize=11)
    ax1.legend(fontsize=7)
    ax1.grid(axis="y", alpha=0.3)

    fates = [("declared", "#27ae60"), ("lost: not declared in play", "#e67e22"),
             ("lost: handed off", "#8e44ad"), ("lost: resigned", "#7f8c8d")]
    roles = ["declarer", "defender"]
    labels, bottoms = [], None
    positions = []
    for j, s in enumerate(suits):
        for k, role in enumerate(roles):
            positions.append(j * 2.6 + k * 1.1)
            r = table.filter((pl.col("suit") == s) & (pl.col("role") == role) & (pl.col("measure") == "declared"))
            # the number of held marriages under its bar's label: over the bars, neighbours' counts collide
            n = f"\nn={r['n'][0]:,}" if r.height else ""
            labels.append(f"{s}\n{role}{n}")
    positions = np.array(positions)
    bottoms = np.zeros(len(positions))
    for measure, colour in fates:
        vals = []
        for s in suits:
            for role in roles:
                r = table.filter((pl.col("suit") == s) & (pl.col("role") == role) & (pl.col("measure") == measure))
                vals.append((r["rate"][0] or 0.0) * 100 if r.height and r["rate"][0] is not None else 0.0)
        v = np.array(vals)
        ax2.bar(positions, v, 0.9, bottom=bottoms, color=colour, label=measure)
        bottoms += v
    ax2.set_xticks(positions, labels, fontsize=7)
    ax2.set_ylim(0, 102)
    ax2.set_ylabel("share of held marriages (%)\n(declarer: with talon; defender: after the hand-off)", fontsize=9)
    ax2.set_xlabel("marriage and role")
    ax2.set_title("What becomes of a held marriage", fontsize=11)
    ax2.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=4)
    fig.suptitle("Marriages by suit and role (95% Wilson intervals)", fontsize=12)
    fig.tight_layout()
    return save(fig, path)


def _values(table: pl.DataFrame, suits: list[str]) -> list:
    out = []
    for s in suits:
        v = table.filter(pl.col("suit") == s)["value"]
        out.append(v[0] if len(v) else "")
    return out


def marriage_value_chart(value: pl.DataFrame, path: str | os.PathLike) -> Path:
    """What holding a marriage adds, against holding none: deal points (declarer and
    defender) and the declarer's chance of making the contract, with 95% intervals."""
    suits = list(dict.fromkeys(value["suit"].to_list()))
    fig = _figure(figsize=(12, 4.2))
    ax1, ax2 = fig.subplots(1, 2)
    y = np.arange(len(suits))[::-1]
    series = [("declarer", "deal points", "#2e86c1", "o", 0.27, "declarer"),
              ("declarer", "deal points, same card points", "#2e86c1", "s", 0.09, "declarer, same card points"),
              ("defender", "deal points", "#cb4335", "o", -0.09, "defender"),
              ("defender", "deal points, same card points", "#cb4335", "s", -0.27, "defender, same card points")]
    for role, metric, colour, marker, offset, lab in series:
        t = value.filter((pl.col("role") == role) & (pl.col("metric") == metric))
        if t.height == 0:
            continue
        d, lo, hi = [], [], []
        for s in suits:
            r = t.filter(pl.col("suit") == s)
            ok = r.height and r["diff"][0] is not None
            d.append(r["diff"][0] if ok else np.nan)
            lo.append(r["diff_ci_low"][0] if ok and r["diff_ci_low"][0] is not None else np.nan)
            hi.append(r["diff_ci_high"][0] if ok and r["diff_ci_high"][0] is not None else np.nan)
        d = np.array(d, dtype=float)
        ax1.errorbar(d, y + offset, xerr=_err(np.array(lo, dtype=float), d, np.array(hi, dtype=float)),
                     fmt=marker, color=colour, mfc=colour if marker == "o" else "white", capsize=3, label=lab)
    vals = _values(value, suits)
    ax1.scatter(vals, y, marker="x", color="black", label="face value of the marriage")
    ax1.axvline(0, color="grey", lw=0.8)
    ax1.set_yticks(y, suits)
    ax1.set_xlabel("deal points with the marriage minus without any (points)")
    ax1.set_title("Points a held marriage adds", fontsize=11)
    ax1.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=3)
    ax1.grid(axis="x", alpha=0.3)

    t = value.filter((pl.col("role") == "declarer") & (pl.col("metric") == "made"))
    d, lo, hi = [], [], []
    for s in suits:
        r = t.filter(pl.col("suit") == s)
        ok = r.height and r["diff"][0] is not None
        d.append(r["diff"][0] * 100 if ok else np.nan)
        lo.append(r["diff_ci_low"][0] * 100 if ok else np.nan)
        hi.append(r["diff_ci_high"][0] * 100 if ok else np.nan)
    d = np.array(d, dtype=float)
    ax2.errorbar(d, y, xerr=_err(np.array(lo, dtype=float), d, np.array(hi, dtype=float)), fmt="o",
                 color="#2e86c1", capsize=3)
    ax2.axvline(0, color="grey", lw=0.8)
    ax2.set_yticks(y, suits)
    ax2.set_xlabel("P(made) with the marriage minus without any (percentage points)")
    ax2.set_title("Declarer's making probability", fontsize=11)
    ax2.grid(axis="x", alpha=0.3)
    fig.suptitle("What a marriage is worth (holders vs players with no marriage; 95% intervals)", fontsize=12)
    fig.tight_layout()
    return save(fig, path)


def held_values_drawn(held: pl.DataFrame) -> pl.DataFrame:
    """The marriage values the held-value panel draws: those some hand of the sample held,
    and those it never met that can happen (exact > 0), an empty bar under the exact mark
    showing what the sample missed.

    >>> held_values_drawn(pl.DataFrame({"points": [0, 100, 200, 240], "hands": [5, 0, 0, 1],
    ...                                 "exact": [0.7, 0.07, 0.0, None]}))["points"].to_list()
    [0, 100, 240]
    """
    return held.filter((pl.col("hands") > 0) | (pl.col("exact").fill_null(0) > 0)) if held.height else held


def marriage_points_chart(points: pl.DataFrame, held: pl.DataFrame, path: str | os.PathLike,
                          players: int = 3) -> Path:
    """Left: declared marriage points per played-out deal (all seats, declarer, defenders:
    one with 2 ``players``).  Right: marriage value held in a dealt hand, observed (95%
    interval) against exact, also the values the sample never met."""
    fig = _figure(figsize=(13, 4.2))
    ax1, ax2 = fig.subplots(1, 2)
    if points.height:
        x = np.arange(points.height)
        w = 0.27
        for k, (who, colour) in enumerate((("all", "#566573"), ("declarer", "#2e86c1"), ("defenders", "#cb4335"))):
            ax1.bar(x + (k - 1) * w, points[f"share_{who}"].to_numpy() * 100, w, color=colour,
                    label={"all": "all players", "declarer": "declarer",
                           "defenders": "the defender" if players == 2 else "both defenders"}[who])
        ax1.set_xticks(x, [str(p) for p in points["points"]], fontsize=8)
        ax1.set_yscale("log")
        ax1.legend(fontsize=8)
    ax1.set_xlabel("marriage points declared in the deal")
    ax1.set_ylabel("share of played-out deals (%, log scale)")
    ax1.set_title("Declared marriage points per deal", fontsize=11)
    ax1.grid(axis="y", alpha=0.3)

    h = held_values_drawn(held)
    if h.height:
        x = np.arange(h.height)
        obs = h["observed"].to_numpy() * 100
        ax2.bar(x, obs, 0.6, color="#85c1e9", label="observed",
                yerr=_err(h["ci_low"].to_numpy() * 100, obs, h["ci_high"].to_numpy() * 100), capsize=2)
        if h["exact"].is_not_null().any():
            ax2.scatter(x, h["exact"].fill_null(np.nan).to_numpy() * 100, marker="_", s=300, color="black",
                        zorder=5, label="exact")
        ax2.set_xticks(x, [str(p) for p in h["points"]], fontsize=8)
        ax2.set_yscale("log")
        ax2.legend(fontsize=8)
    ax2.set_xlabel("marriage value held in the dealt hand (points)")
    ax2.set_ylabel("share of dealt hands (%, log scale)")
    ax2.set_title("Marriage value in a dealt hand", fontsize=11)
    ax2.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    return save(fig, path)


def _known_errorbars(ax: Any, x: np.ndarray, mid: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> None:
    """Error bars where the interval is known; where it is not (NaN: too few deals, no
    spread, no deal at all) a small "no CI" over the bar instead of a zero-width bar."""
    known = np.isfinite(lo) & np.isfinite(hi)
    if known.any():
        ax.errorbar(x[known], mid[known], yerr=_err(lo[known], mid[known], hi[known]), fmt="none", ecolor="black",
                    capsize=3)
    for xi, yi in zip(x[~known], mid[~known]):
        ax.annotate("no CI", (xi, yi), xytext=(0, 2), textcoords="offset points", ha="center", va="bottom",
                    fontsize=6, color="dimgrey")


def play_quality_chart(table: pl.DataFrame, path: str | os.PathLike) -> Path:
    """How well the bots play, by contract band: the points the declarer's hand-off, his
    cards and the defenders' cards gave away against open-hand play (mean per deal), and
    the shares of failed contracts that were makeable and of made ones the defence could
    have beaten (at the first lead; 95% intervals).  One strategy (the table's first) per
    chart."""
    strategy = table["strategy"][0] if table.height else ""
    t = table.filter(pl.col("strategy") == strategy)
    bands = t["band"].to_list()
    fig = _figure(figsize=(12, 4.2))
    ax1, ax2 = fig.subplots(1, 2)
    x = np.arange(len(bands))
    declarer, defender = ROLE_COLOURS["declarer"], ROLE_COLOURS["defender"]
    for col, offset, lab, style in (
            ("hand_off_loss", -0.27, "declarer's hand-off", {"color": "white", "edgecolor": declarer, "hatch": "//"}),
            ("declarer_loss", 0.0, "declarer's cards", {"color": declarer}),
            ("defence_loss", 0.27, "defenders' cards", {"color": defender})):
        m = t[f"mean_{col}"].to_numpy().astype(float)
        lo = t[f"mean_{col}_ci_low"].fill_null(np.nan).to_numpy().astype(float)
        hi = t[f"mean_{col}_ci_high"].fill_null(np.nan).to_numpy().astype(float)
        ax1.bar(x + offset, m, width=0.27, label=lab, **style)
        _known_errorbars(ax1, x + offset, m, lo, hi)
    ax1.set_xticks(x, [f"{b}\n({n:,})" for b, n in zip(bands, t["deals"].to_list())], fontsize=8)
    ax1.set_xlabel("contract (deals)")
    ax1.set_ylabel("points given away per deal")
    ax1.set_title("Points lost against open-hand play", fontsize=11)
    ax1.legend(fontsize=8)
    ax1.grid(axis="y", alpha=0.3)
    for key, colour, offset, lab in (("failed_makeable_start", ROLE_COLOURS["declarer"], -0.2,
                                      "failed contracts that were makeable"),
                                     ("made_beatable_start", ROLE_COLOURS["defender"], 0.2,
                                      "made contracts the defence could beat")):
        p = t[f"{key}_share"].fill_null(np.nan).to_numpy().astype(float) * 100
        lo = t[f"{key}_ci_low"].fill_null(np.nan).to_numpy().astype(float) * 100
        hi = t[f"{key}_ci_high"].fill_null(np.nan).to_numpy().astype(float) * 100
        ax2.bar(x + offset, np.nan_to_num(p), width=0.4, color=colour, label=lab)
        _known_errorbars(ax2, x + offset, np.nan_to_num(p), lo, hi)
    ax2.set_xticks(x, bands, fontsize=8)
    ax2.set_xlabel("contract")
    ax2.set_ylabel("share (%), at the first lead")
    ax2.set_ylim(0, 105)     # a 100% bar keeps its interval's cap in view
    ax2.set_yticks(range(0, 101, 20))
    ax2.set_title("Contracts decided by a mistake", fontsize=11)
    ax2.legend(fontsize=8)
    ax2.grid(axis="y", alpha=0.3)
    fig.suptitle(f"How well the bots play ({strategy}; open-hand solver as the yardstick; 95% intervals)",
                 fontsize=12)
    fig.tight_layout()
    return save(fig, path)
