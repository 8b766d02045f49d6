"""The full report: simulate what it needs, run every pipeline, write HTML, Markdown, PNG,
CSV and the Parquet data it used.

Layout of ``DIR`` after :func:`build_report`::

    report.html            one self-contained page (charts embedded as base64)
    report.md              the same content in Markdown (charts linked from charts/)
    charts/*.png           every chart
    tables/*.csv           every table, full precision
    data/<label>/          the deal datasets (Parquet chunks + metadata.json), one per rule set
    data/forced_hands.parquet   the forced-declarer completions behind the bid thresholds
    data/_compare-<i>/     the comparison's unit tables, one store a rule set (several --rules only)
    compare.md             the house-rule comparison section alone (several --rules only)

Sections and where they come from: redeal frequencies and marriages (this package:
:mod:`.redeals`, :mod:`.marriages`); bidding thresholds (:mod:`.thresholds`); house-rule
comparison (:mod:`.compare`).  A section whose module or kernel is not available is
replaced by a line saying so, never by made-up numbers.
"""
from __future__ import annotations

import errno
import hashlib
import json
import math
import numbers
import os
import re
import shlex
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

import polars as pl

from thousand import __version__
from thousand.analysis import charts
from thousand.analysis.deals import random_deals
from thousand.analysis.marriages import held_in_play, marriage_tables
from thousand.analysis.play_quality import DEFAULT_DEFENCE_DEALS, DEFAULT_PLAY_DEALS
from thousand.analysis.redeals import redeal_calls, redeal_frequencies, uniform_deals
from thousand.analysis.stats import level_percent
from thousand.errors import ThousandError, check_jobs, check_name, check_seed
from thousand.files import read_json, written_whole
from thousand.rules import PRESETS, Rules

__all__ = ["ReportConfig", "ReportResult", "build_report", "markdown_to_html", "overview", "DEFAULT_DEALS",
           "DEFAULT_PLAY_DEALS"]

DEFAULT_DEALS = 1_000_000
DEFAULT_GAMES = 2_000   # per rule set; the default report compares the three presets
DEFAULT_HANDS = 2_000
DEFAULT_SAMPLES = 100
PLAY_DATA = "play_quality.parquet"   # in DIR/data: the per-deal results of "How well the bots play"
DEFENCE_DATA = "play_defence.parquet"  # in DIR/data: the same deals played against a search player's defence
# Beside each: what it was computed with, so that a later report with the same settings
# reuses it (minutes of solving) instead of computing it again.
PLAY_KEY = "play_quality.json"
DEFENCE_KEY = "play_defence.json"
PLAY_RECORDS = {PLAY_DATA: PLAY_KEY, DEFENCE_DATA: DEFENCE_KEY}
#: The search player the report's defence comparison plays against (issue 14's ``pimc``).
SEARCH_DEFENDER = "pimc"


# The bidding thresholds play every hand at each seat ``samples`` times and keep every
# completion in memory: measured peak about 220 bytes per completion (simulation, the
# tables with their bootstrap, the rule of thumb).  The cap keeps that near 11 GB.
FORCED_ROLES = ("forehand", "middle", "rear")
BYTES_PER_COMPLETION = 220
MAX_FORCED_COMPLETIONS = 50_000_000


@dataclass
class ReportConfig:
    """What the report runs.  ``rules[0]`` is the main rule set (marriages, thresholds)."""

    out: Path
    rules: list[Rules] = field(default_factory=lambda: [PRESETS["classic"]])
    labels: list[str] | None = None
    deals: int = DEFAULT_DEALS
    games: int = DEFAULT_GAMES
    hands: int = DEFAULT_HANDS
    samples: int = DEFAULT_SAMPLES
    play_deals: int | None = None  # deals solved for "How well the bots play" (None: DEFAULT_PLAY_DEALS)
    defence_deals: int | None = None  # of those, replayed against pimc's defence (None: DEFAULT_DEFENCE_DEALS)
    seed: int = 1
    jobs: int = -1
    strategies: Sequence[str] | None = None
    presets: bool = True          # also simulate every preset for the redeal section
    progress: bool | None = None  # progress bars (default: when stderr is a terminal)
    log: Callable[[str], None] | None = None

    def __post_init__(self) -> None:
        check_name(self.out, "--out", "the directory to write to")
        try:
            # polars takes paths as UTF-8 text: refused now, not once folders are made
            os.fspath(self.out).encode("utf-8")
        except UnicodeEncodeError:
            raise ThousandError(f"--out {os.fspath(self.out)!r} is not a UTF-8 name; choose another") from None
        self.out = Path(self.out)
        # Every limit a section would hit later is checked here, before any work, so that a
        # bad value is one error line instead of a report with a section missing.
        from thousand import simulate as runner

        def whole(name: str, value: Any, least: int, why: str = "") -> None:
            if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < least:
                raise ThousandError(f"--{name} must be at least {least}{why}, got {value!r}")
        whole("deals", self.deals, 1)
        if self.deals > runner.MAX_ITEMS["deals"]:
            raise ThousandError(f"--deals must be at most {runner.MAX_ITEMS['deals']:,}, got {self.deals:,}")
        whole("games", self.games, 2, " (the comparison's intervals need two)")
        whole("hands", self.hands, 2, " (the rule of thumb is scored on held-out hands)")
        whole("samples", self.samples, 2)
        if self.play_deals is None:
            self.play_deals = DEFAULT_PLAY_DEALS
        whole("play-deals", self.play_deals, 0)
        from thousand.schema import DEFAULT_CHUNK_DEALS
        if self.play_deals > DEFAULT_CHUNK_DEALS:   # they are the first deals of the run's first chunk
            raise ThousandError(f"--play-deals must be at most {DEFAULT_CHUNK_DEALS:,}, got {self.play_deals:,}")
        if self.defence_deals is None:
            self.defence_deals = DEFAULT_DEFENCE_DEALS
        whole("defence-deals", self.defence_deals, 0)   # (at most --play-deals are replayed)
        from thousand.analysis.compare import MAX_UNITS as COMPARE_MAX_UNITS
        if self.games > COMPARE_MAX_UNITS["games"]:
            raise ThousandError(f"--games must be at most {COMPARE_MAX_UNITS['games']:,} (the house-rule "
                                f"comparison's limit), got {self.games:,}")
        completions = self.hands * len(FORCED_ROLES) * self.samples
        if completions > MAX_FORCED_COMPLETIONS:
            raise ThousandError(
                f"--hands x --samples must be at most {MAX_FORCED_COMPLETIONS // len(FORCED_ROLES):,} (the "
                f"bidding thresholds hold every completion in memory, about {BYTES_PER_COMPLETION} bytes each), "
                f"got {self.hands:,} x {self.samples:,}")
        check_jobs(self.jobs, "--jobs")
        check_seed(self.seed, "--seed")
        if not self.rules:
            raise ThousandError("the report needs at least one rule set")
        if len({r.players for r in self.rules}) > 1:
            raise ThousandError("all rule sets of a report must have the same number of players "
                                "(the comparison plays them on the same deals)")
        for r in self.rules:  # an unknown strategy, or the wrong number of them
            runner.normalize_strategies(self.strategies, r.players)
        if self.labels is None:
            self.labels = [r.describe() for r in self.rules]
        if len(self.labels) != len(self.rules):
            raise ThousandError("one label per rule set")


@dataclass
class ReportResult:
    out: Path
    html: Path
    markdown: Path
    tables: dict[str, Path]
    charts: dict[str, Path]
    data: dict[str, Path]
    notes: list[str]
    seconds: float
    # Sections that failed (an error, not "does not apply"): "<section> (<error>)" each.
    failed: list[str] = field(default_factory=list)


class Failure(str):
    """A note that says a section failed (the report then exits non-zero): the note's text,
    with the section and the error kept apart."""

    section: str
    error: str

    def __new__(cls, section: str, error: BaseException) -> Failure:
        note = super().__new__(cls, f"{section} failed: {error}")
        note.section, note.error = section, str(error)
        return note


# --------------------------------------------------------------------------- blocks
# The report is a list of blocks rendered twice, to Markdown and to HTML.
@dataclass
class Block:
    kind: str                 # h, p, table, img, md, list
    text: str = ""
    level: int = 2
    frame: pl.DataFrame | None = None
    path: Path | None = None
    items: list[str] = field(default_factory=list)


# Number formats, the same in every table and sentence of the report: counts with thousands
# separators (1,235,200); shares as percentages with three significant digits and at least
# one decimal (19.1%, 2.31%, 0.768%), a value and its interval with the same decimals;
# points with one decimal (138.6); differences of shares in percentage points (pp).
def _pct_decimals(x: float | None) -> int:
    """Decimals that show a share as a percentage with three significant digits (1 to 6:
    one deal in 194,852 is 0.000513%).

    >>> [_pct_decimals(x) for x in (0.191, 0.0231, 0.00768, 0.00000513, 0.0, 1.0)]
    [1, 2, 3, 6, 1, 1]
    """
    v = abs(x) * 100 if x is not None and x == x else 0.0
    if v == 0 or v >= 10:
        return 1
    return max(1, min(6, 2 - math.floor(math.log10(v))))


def _fmt_pct(x: float | None, decimals: int | None = None) -> str:
    """A share as a percentage: ``0.02307`` -> ``"2.31%"``; missing -> ``"–"``."""
    if x is None or x != x:
        return "–"
    return f"{x * 100:.{_pct_decimals(x) if decimals is None else decimals}f}%"


def _fmt_num(x: Any, digits: int = 1) -> str:
    if x is None or (isinstance(x, float) and x != x):
        return "–"
    if isinstance(x, float):
        return f"{x:,.{digits}f}"
    if isinstance(x, int):
        return f"{x:,}"
    return str(x)


def _ci(lo: float | None, hi: float | None, pct: bool = True, digits: int = 1, like: float | None = None) -> str:
    """``[lo, hi]``: percentages with the decimals of ``like`` (the value they bracket), or
    numbers with ``digits`` decimals."""
    if lo is None or hi is None or lo != lo or hi != hi:
        return "–"
    if pct:
        d = _pct_decimals(like if like is not None else max(abs(lo), abs(hi)))
        return f"[{_fmt_pct(lo, d)}, {_fmt_pct(hi, d)}]"
    return f"[{lo:,.{digits}f}, {hi:,.{digits}f}]"


def _mean_loss_ci(r: dict, m: str) -> str:
    """``mean [lo, hi]`` of a loss column ``m`` of a ``quality_table`` row ``r``; where the
    interval is not known (fewer than 2 deals, or every deal lost the same) it says so
    instead of a zero-width ``[x, x]``: ``"10.0 [no interval: 1 deal]"``."""
    lo, hi = r[f"{m}_ci_low"], r[f"{m}_ci_high"]
    if lo is None or hi is None or lo != lo or hi != hi:
        why = "1 deal" if r["deals"] < 2 else f"all {r['deals']:,} deals alike"
        return f"{_fmt_num(r[m])} [no interval: {why}]"
    return f"{_fmt_num(r[m])} {_ci(lo, hi, pct=False, like=r[m])}"


def _ratio_ci(est: Any) -> str:
    """A ratio of losses with its interval (:func:`thousand.analysis.play_quality.defence_ratio`),
    saying so where there is none (a zero-width interval from too few deals) or where its
    lower end was cut at 0 (a ratio of losses is never negative)."""
    v = _fmt_num(est.value, 2)
    if not (math.isfinite(est.low) and math.isfinite(est.high)) or est.high - est.low <= 1e-6 * max(1.0, abs(est.value)):
        return f"{v} [no interval: {_count(est.n, 'deal')}, too few]"
    cut = " (its lower end cut at 0: a ratio of losses is never negative)" if est.low == 0 < est.value else ""
    return f"{v} {_ci(est.low, est.high, pct=False, digits=2, like=est.value)}{cut}"


def _pct_ci(v: float | None, lo: float | None, hi: float | None) -> str:
    """``v [lo, hi]`` as percentages with the same decimals: ``"0.768% [0.760%, 0.777%]"``."""
    if v is None or v != v:
        return "–"
    return f"{_fmt_pct(v)} {_ci(lo, hi, like=v)}"


def _pct_with_ci(share: str, low: str, high: str, title: str) -> pl.Expr:
    """Column ``share`` as a percentage followed by its interval [low, high], named ``title``."""
    return pl.struct(share, low, high).map_elements(
        lambda r: _pct_ci(r[share], r[low], r[high]), return_dtype=pl.String).alias(title)


def _counts(col: str, title: str | None = None) -> pl.Expr:
    """Column ``col`` of counts with thousands separators."""
    return pl.col(col).map_elements(lambda v: f"{v:,}", return_dtype=pl.String).alias(title or col)


def _md_table(df: pl.DataFrame) -> str:
    cols = df.columns
    lines = ["| " + " | ".join(c.replace("|", "\\|") for c in cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for row in df.iter_rows():
        # a missing value (a group with no rows: map_elements skips nulls) reads as "–"
        lines.append("| " + " | ".join(("–" if v is None else str(v)).replace("|", "\\|") for v in row) + " |")
    return "\n".join(lines)


def markdown_to_html(md: str, base: Path | None = None) -> str:
    """Markdown (CommonMark with tables) to HTML, images under ``base`` embedded
    (:func:`thousand.analysis.page.markdown_to_html`)."""
    from thousand.analysis.page import markdown_to_html as render
    return render(md, base)


PAGE_TITLE = "Thousand: simulation report"


def _render(blocks: list[Block], out: Path) -> tuple[str, str]:
    """The report as Markdown (``report.md``) and as one self-contained HTML page
    (``report.html``, that Markdown rendered into ``templates/report.html.j2``)."""
    from thousand.analysis.page import render_page

    md: list[str] = []
    for b in blocks:
        if b.kind == "h":
            md.append("#" * b.level + " " + b.text)
        elif b.kind == "p":
            md.append(b.text)
        elif b.kind == "note":
            md.append(f"> {b.text}")
        elif b.kind == "list":
            md.append("\n".join(f"- {x}" for x in b.items))
        elif b.kind == "table" and b.frame is not None:
            md.append(_md_table(b.frame))
        elif b.kind == "img" and b.path is not None:
            md.append(f"![{b.text}]({Path(os.path.relpath(b.path, out)).as_posix()})")
        elif b.kind == "md":
            base = b.path or out
            # Links in the included Markdown are relative to its own directory.
            md.append(re.sub(r"!\[([^\]]*)\]\(([^)/][^)]*)\)",
                             lambda m: f"![{m.group(1)}]({Path(os.path.relpath(base / m.group(2), out)).as_posix()})",
                             b.text))
    text = "\n\n".join(md) + "\n"
    return text, render_page(text, out, PAGE_TITLE)


# --------------------------------------------------------------------------- data
class _Log:
    def __init__(self, sink: Callable[[str], None] | None) -> None:
        self.t0 = time.perf_counter()
        self.sink = sink or (lambda s: print(s, file=sys.stderr, flush=True))

    def __call__(self, msg: str) -> None:
        self.sink(f"[report {time.perf_counter() - self.t0:6.1f}s] {msg}")


_KERNEL_PROBLEM: list[str] = []


def _kernel_available() -> bool:
    """The compiled kernel imports; otherwise the reason is kept for the report's notes."""
    try:
        import importlib
        importlib.import_module("thousand.kernel")
        return True
    except ImportError as e:
        _KERNEL_PROBLEM[:] = [str(e)]
        return False


#: How an interrupted report continues: ``report`` has no ``--resume``, as it always reuses
#: the data a previous run with the same settings left in ``DIR/data`` (see build_report).
RESUME_HINT = "run the same `thousand report` command again to continue from them"


def _slug(label: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", label).strip("_") or "rules"


def _dataset_folders(labels: list[str]) -> list[str]:
    """The folder of ``data/`` that holds each rule set's deals: its label made safe for a
    file name (:func:`_slug`).  Where two labels give one name (``a/r.toml`` and
    ``a_r.toml``), or a label gives a name the report keeps its own data under
    (``forced_hands.json``), the label's hash is added: one rule set's deals are never
    read as another's."""
    slugs = [_slug(label) for label in labels]
    own = {FORCED_DATA, FORCED_KEY, FORCED_PARTS, PLAY_DATA, PLAY_KEY, DEFENCE_DATA, DEFENCE_KEY, DATASETS_FILE}
    return [s if slugs.count(s) == 1 and s not in own and set(s) != {"."}
            else f"{s}-{hashlib.sha256(label.encode()).hexdigest()[:8]}"
            for s, label in zip(slugs, labels)]


def _reusable_run(path: Path, rules: Rules, cfg: ReportConfig) -> dict[str, Any] | None:
    """The metadata of the runner's dataset in ``path`` if it was made with exactly this
    report's settings (so it can be continued or reused), else ``None``."""
    from thousand import simulate as runner

    try:
        strategies = runner.normalize_strategies(cfg.strategies, rules.players)
    except ThousandError:
        return None
    # What the runner itself would write for this run; it compares the same keys on --resume.
    want = runner.run_metadata("deals", int(cfg.deals), runner.DEFAULT_CHUNK_DEALS, int(cfg.seed), rules, strategies)
    return runner.reusable_run(path, want)


def _write_whole(path: Path, text: str, encoding: str = "utf-8") -> None:
    """``path.write_text(text)``, but whole or not at all (see :func:`thousand.files.written_whole`)."""
    with written_whole(path) as tmp:
        tmp.write_text(text, encoding=encoding)


def _write_table(frame: pl.DataFrame, path: Path) -> None:
    """A table as CSV, whole or not at all (see :func:`_write_whole`)."""
    _write_whole(path, frame.write_csv())


NO_KERNEL_DATA = "deals.parquet"   # a rule set's dealt cards when the kernel is not available


def _own_dataset_files(path: Path) -> set[str]:
    """The names in a report's dataset folder that the report can prove it wrote: the
    runner's store (its metadata, the chunks it numbers, its own temporary files), or the
    dealt-cards file of a report made without the kernel."""
    from thousand.runner.store import own_files, read_metadata

    try:
        meta = read_metadata(path)
    except ThousandError:
        meta = None
    own = {f.name for f in own_files(path, meta)} if meta is not None else set()
    if meta is None and (path / NO_KERNEL_DATA).is_file():
        own.add(NO_KERNEL_DATA)
    return own


def _foreign_files(path: Path) -> list[str]:
    """What a dataset folder holds that the report did not write (hidden files aside)."""
    if not path.is_dir():
        return []
    own = _own_dataset_files(path)
    return sorted(p.name for p in path.iterdir() if p.name not in own and not p.name.startswith("."))


def _remove_dataset(path: Path) -> list[str]:
    """Delete a report's dataset: only the files it can prove it wrote, then the folder if
    nothing is left.  Returns the names left in it."""
    from thousand.runner.store import remove_files

    return remove_files(path, _own_dataset_files(path)) if path.is_dir() else []


def _simulate_deals(rules: Rules, label: str, folder: str, cfg: ReportConfig,
                    log: _Log) -> tuple[pl.LazyFrame, bool, Path]:
    """Deal rows for one rule set: the simulator's, or (no kernel) dealt cards only.

    A dataset a previous report left in ``path`` with the same settings (rules, seed,
    strategies, deals, chunk size, kernel) is reused, and an interrupted one is finished
    (only its missing chunks are computed): the chunks are the same either way, so the
    tables are too.  Any other content of ``path`` is replaced.
    """
    path = cfg.out / "data" / folder
    if _kernel_available():
        from thousand.runner.store import written_chunks
        from thousand.simulate import run

        old = _reusable_run(path, rules, cfg) if path.exists() else None
        if old is None:
            _remove_dataset(path)   # _claim_outputs made sure that is all there is
            log(f"simulating {_count(cfg.deals, 'deal')} under {label} ...")
        else:
            written = len(written_chunks(path, old))
            if written == old["n_chunks"]:
                log(f"reusing {path} ({cfg.deals:,} deals)")
            else:
                log(f"continuing {path}: {written:,} of {old['n_chunks']:,} chunks written, "
                    f"simulating the rest of {cfg.deals:,} deals under {label} ...")
        lf = run("deals", cfg.deals, rules, strategies=cfg.strategies, seed=cfg.seed, jobs=cfg.jobs, out=path,
                 resume=old is not None, progress=cfg.progress, resume_hint=RESUME_HINT).frame()
        return lf, True, path
    _remove_dataset(path)
    why = f" ({_KERNEL_PROBLEM[0]})" if _KERNEL_PROBLEM else ""
    log(f"kernel not available{why}: dealing {cfg.deals:,} random deals under {label} (cards only, no play)")
    path.mkdir(parents=True, exist_ok=True)
    random_deals(cfg.deals, seed=cfg.seed, players=rules.players).write_parquet(path / NO_KERNEL_DATA)
    return pl.scan_parquet(path / NO_KERNEL_DATA), False, path


# --------------------------------------------------------------------------- sections
def overview(deals: pl.LazyFrame | pl.DataFrame, label: str) -> pl.LazyFrame:
    """Headline figures of a deal dataset: rows, redeals, contracts made, mean contract and
    declarer points (deals played out), each share with its 95% Wilson interval."""
    deals = deals.lazy()     # a DataFrame too (a hand-made frame: deals.frame_of)
    from thousand.analysis.stats import wilson_exprs

    played = (pl.col("redeal") == 0) & (pl.col("declarer") >= 0)
    lo_r, hi_r = wilson_exprs("redeals", "rows")
    lo_m, hi_m = wilson_exprs("made", "played")
    lo_s, hi_s = wilson_exprs("resigned", "played")
    return (
        deals.select(
            pl.len().cast(pl.Int64).alias("rows"),
            (pl.col("redeal") != 0).cast(pl.Int64).sum().alias("redeals"),
            played.cast(pl.Int64).sum().alias("played"),
            (played & pl.col("made")).cast(pl.Int64).sum().alias("made"),
            (played & pl.col("resigned")).cast(pl.Int64).sum().alias("resigned"),
            (played & pl.col("obligation")).cast(pl.Int64).sum().alias("obligation"),
            pl.col("contract").filter(played).cast(pl.Float64).mean().alias("mean_contract"),
            pl.col("declarer_points").filter(played & ~pl.col("resigned")).cast(pl.Float64).mean()
            .alias("mean_declarer_points"),
        )
        .with_columns(
            pl.lit(label).alias("rules"),
            (pl.col("redeals") / pl.col("rows")).alias("redeal_share"), lo_r.alias("redeal_ci_low"),
            hi_r.alias("redeal_ci_high"),
            (pl.col("made") / pl.col("played")).alias("made_share"), lo_m.alias("made_ci_low"),
            hi_m.alias("made_ci_high"),
            (pl.col("resigned") / pl.col("played")).alias("resigned_share"), lo_s.alias("resigned_ci_low"),
            hi_s.alias("resigned_ci_high"),
        )
        .select("rules", pl.exclude("rules"))
    )


def _overview_blocks(ov: pl.DataFrame) -> list[Block]:
    show = ov.select(
        "rules",
        pl.col("played").map_elements(lambda v: f"{v:,}", return_dtype=pl.String).alias("deals played"),
        _pct_with_ci("redeal_share", "redeal_ci_low", "redeal_ci_high", "dealt deals redealt"),
        _pct_with_ci("made_share", "made_ci_low", "made_ci_high", "contracts made"),
        _pct_with_ci("resigned_share", "resigned_ci_low", "resigned_ci_high", "resigned"),
        pl.col("mean_contract").map_elements(lambda v: _fmt_num(v), return_dtype=pl.String).alias("mean contract"),
        pl.col("mean_declarer_points").map_elements(lambda v: _fmt_num(v), return_dtype=pl.String)
        .alias("mean declarer points"),
    )
    return [Block("h", "Overview"),
            Block("p", "The simulated deals of each rule set (deals outside games, every seat playing the chosen "
                       "strategies). Shares with 95% Wilson intervals; declarer points over deals played out. "
                       "Outside a game every deal starts fresh (scores 0, nobody on the barrel, no bolts or "
                       "resignations counted), so under `resign = sixty_two_free` every resignation is one of "
                       "the two free ones."),
            Block("table", frame=show)]


def _unplayed_rule_notes(rule_sets: list[tuple[str, Rules]], frames: dict[str, pl.LazyFrame],
                         compared: bool) -> list[Block]:
    """Blind and golden-kon deals come only in games (a forehand trailing by the
    strategy's ``blind_gap``; the first three deals): a rule set with them whose deal run
    has no blind deal looks here as if it had not the rule (try-out 20)."""
    named = []
    for label, rules in rule_sets:
        options = [o for o, on in (("blind", rules.blind), ("golden_kon", rules.golden_kon)) if on]
        if options and not frames[label].select(pl.col("blind").any()).collect().item():
            named.append(f"`{label}` ({', '.join(f'{o}=on' for o in options)})")
    if not named:
        return []
    return [Block("note", (
        f"{'; '.join(named)}: no deal of these runs was blind. Outside a game every deal starts at 0, so nobody "
        "trails by a strategy's `blind_gap` and no deal is one of a game's first three (the golden kon): here "
        "and in the redeal and marriage sections these rule sets play as without the rule. "
        + ("The house-rule comparison below plays whole games, where it can come into play (its notes say "
           "whether it did: with the default strategies nobody goes blind)." if compared else
           "`thousand compare --games` plays whole games, where it can come into play.")))]


def _not_uniform(labels: list[str]) -> str:
    """What the exact values of the rule sets ``labels`` (under ``cut_nine_penalty``) are."""
    return (f"Under `cut_nine_penalty` ({', '.join(labels)}) every deal is cut again while its bottom card "
            "(`deck[20]`, the last card dealt to a hand) is a nine, so that card never is one: the hand it "
            "goes to leans away from nines, and the other hands and the talon, sharing the four nines among "
            "fewer cards, lean towards them. The exact values of uniform deals do not apply there. "
            "Those shown are counted with the cut (the bottom card one of the 20 others, the other 23 cards "
            "uniform); with 2 players, where the bottom card opens the first talon, the rows of the talon "
            "have none.")


def _redeal_blocks(freq: pl.DataFrame, calls: pl.DataFrame, played: bool, chart: Path,
                   calls_chart: Path | None, cut: list[str] | None = None) -> list[Block]:
    blocks = [Block("h", "Redeal frequencies")]
    exact = freq.filter(pl.col("exact").is_not_null())
    inside = int(exact["within_ci"].sum()) if exact.height else 0
    blocks.append(Block("p", (
        "How often each redeal condition of each rule set occurs: per dealt hand (`hand`), per deal "
        "(any of the active hands, `deal`) and per talon (`talon`), counted on every dealt deal (redealt "
        "ones included, so the cards are a uniform sample"
        + ("; where the deal is cut again, a sample whose exact values are counted too: see below" if cut else "")
        + "). `exact` is the probability computed by counting "
        "card combinations (`thousand.analysis.combinatorics`); the interval is a 95% Wilson interval. "
        + (f"{inside} of {exact.height} exact values lie inside their interval (each has a 95% chance to; the "
           "rule sets count the same deals, so rows of the same condition miss together and the count is not "
           "a binomial one); those outside are marked *(outside)*. " if exact.height else "")
        + "The four-nines condition is checked on the hands after the hand-off, which depend on the "
        "declarer's choices: it has no exact value." + (" " + _not_uniform(cut) if cut else ""))))
    show = freq.select(
        pl.col("rules"), pl.col("condition"), pl.col("scope").alias("per"),
        pl.struct("observed").map_elements(lambda r: _fmt_pct(r["observed"]), return_dtype=pl.String).alias("observed"),
        pl.struct("observed", "ci_low", "ci_high").map_elements(lambda r: _ci(r["ci_low"], r["ci_high"], like=r["observed"]),
                                                                return_dtype=pl.String)
        .alias("95% CI"),
        # one decimal more than the observed share: the exact value is known that well
        pl.struct("exact", "within_ci").map_elements(
            # an exact 0 cannot happen at all: said so, not as a share to more decimals than observed
            lambda r: ("0 (cannot happen)" if r["exact"] == 0 else _fmt_pct(r["exact"], _pct_decimals(r["exact"]) + 1))
            + (" *(outside)*" if r["within_ci"] is False else ""), return_dtype=pl.String).alias("exact"),
        pl.col("n").map_elements(lambda v: f"{v:,}", return_dtype=pl.String).alias("n"),
    )
    blocks += [Block("table", frame=show), Block("img", "Redeal condition frequencies", path=chart)]
    blocks.append(Block("h", "Redeals called by the strategies", level=3))
    if not played:
        blocks.append(Block("note", "No play was simulated (the kernel is not available), so no redeal was "
                                    "called: the numbers of redeals called are not shown."))
        return blocks
    blocks.append(Block("p", (
        "`could` counts deals in which a player meeting an enabled condition was allowed to ask "
        "(hand: not a blind forehand, not a golden-kon deal; talon: the deal reached the talon, was not "
        "blind, and `redeal_talon_by` let the declarer ask); "
        "`called` counts deals the strategies actually redealt. Shares with 95% Wilson intervals.")))
    show = calls.select(
        "rules", "kind",
        pl.col("deals").map_elements(lambda v: f"{v:,}", return_dtype=pl.String).alias("deals"),
        pl.col("eligible").map_elements(lambda v: f"{v:,}", return_dtype=pl.String).alias("could"),
        pl.col("called").map_elements(lambda v: f"{v:,}", return_dtype=pl.String).alias("called"),
        _pct_with_ci("per_deal", "per_deal_ci_low", "per_deal_ci_high", "called per deal"),
        _pct_with_ci("when_eligible", "when_eligible_ci_low", "when_eligible_ci_high", "called when it could be"),
    )
    blocks.append(Block("table", frame=show))
    if calls_chart is not None:
        blocks.append(Block("img", "Redeals: chances and calls", path=calls_chart))
    return blocks


def _marriage_blocks(tables: dict[str, pl.DataFrame], label: str, paths: dict[str, Path],
                     cut: bool = False, players: int = 3) -> list[Block]:
    m = tables["marriages"]
    blocks = [Block("h", f"Marriages ({label})")]
    blocks.append(Block("p", (
        "Per marriage and role: how often it is held in the dealt hand, held by the declarer once he "
        "has the talon, completed from the talon, declared, and lost (held but never declared), with "
        "95% Wilson intervals. `all` is every seat of every dealt deal, where the exact probability "
        "applies; declarer and defender rows use the played deals. Rates of `declared` and `lost` are "
        "shares of the held marriages: the declarer's with the talon, a defender's after the hand-off (a "
        "card handed to him can complete one, so they outnumber the marriages in his dealt hand). The declared marriages are recovered from each player's declared "
        "marriage points and the marriages in his hand after the hand-off."
        + (" " + _not_uniform([label]) if cut else ""))))

    def cell(suit: str, role: str, measure: str) -> str:
        r = m.filter((pl.col("suit") == suit) & (pl.col("role") == role) & (pl.col("measure") == measure))
        if not r.height or r["rate"][0] is None:
            return "–"
        return _pct_ci(r["rate"][0], r["ci_low"][0], r["ci_high"][0])

    rows = []
    suits = [s for s in dict.fromkeys(m["suit"].to_list()) if s != "any"]
    for suit in suits:
        ex = m.filter((pl.col("suit") == suit) & (pl.col("role") == "all") & (pl.col("measure") == "held in dealt hand"))
        rows.append({
            "marriage": f"{suit} ({ex['value'][0] if ex.height else ''})",
            "held, any hand": cell(suit, "all", "held in dealt hand"),
            "exact": (_fmt_pct(ex["exact"][0], _pct_decimals(ex["exact"][0]) + 1)
                      if ex.height and ex["exact"][0] is not None else "–"),
            "held, declarer (with talon)": cell(suit, "declarer", "held with talon"),
            "completed from talon, declarer": cell(suit, "declarer", "completed from talon"),
            "declared of held, declarer": cell(suit, "declarer", "declared"),
            "held in dealt hand, defender": cell(suit, "defender", "held in dealt hand"),
            "declared of held after the hand-off, defender": cell(suit, "defender", "declared"),
        })
    blocks.append(Block("table", frame=pl.DataFrame(rows)))
    blocks.append(Block("img", "Marriages by suit and role", path=paths["marriage_frequencies"]))

    v = tables["marriage_value"]
    blocks.append(Block("h", "What a marriage is worth", level=3))
    blocks.append(Block("p", (
        "Players holding the marriage (declarer: in hand + talon; defender: after the hand-off) against "
        "players of the same role holding no marriage at all. `deal points` = card points of the tricks "
        "won + declared marriages, over deals played out (Welch 95% interval of the difference); `deal points, "
        "same card points` compares holders and non-holders holding the same card points (5-point strata, "
        "weighted as the holders), which isolates the marriage from the high cards that come with it; `made` = "
        "share of contracts made, a resignation counting as failed (Newcombe interval); `contract` is the mean "
        "final contract: holders also bid higher, so `made` compares contracts of different sizes.")))
    show = v.select(
        "suit", "role", "metric",
        pl.col("n_with").map_elements(lambda x: f"{x:,}", return_dtype=pl.String).alias("n with"),
        pl.struct("metric", "with_marriage").map_elements(
            lambda r: _fmt_pct(r["with_marriage"]) if r["metric"] == "made" else _fmt_num(r["with_marriage"]),
            return_dtype=pl.String).alias("with"),
        pl.struct("metric", "without_marriage").map_elements(
            lambda r: _fmt_pct(r["without_marriage"]) if r["metric"] == "made" else _fmt_num(r["without_marriage"]),
            return_dtype=pl.String).alias("without any"),
        pl.struct("metric", "diff", "diff_ci_low", "diff_ci_high").map_elements(
            lambda r: (f"{_fmt_num(None if r['diff'] is None else r['diff'] * 100)} pp "
                       f"{_ci(*(None if x is None else x * 100 for x in (r['diff_ci_low'], r['diff_ci_high'])), pct=False)}"
                       if r["metric"] == "made" else
                       f"{_fmt_num(r['diff'])} {_ci(r['diff_ci_low'], r['diff_ci_high'], pct=False)}"),
            return_dtype=pl.String).alias("difference [95% CI]"),
    )
    blocks += [Block("table", frame=show), Block("img", "What a marriage is worth", path=paths["marriage_value"])]

    blocks.append(Block("h", "Marriage points per deal", level=3))
    pts = tables["marriage_points"]
    total = int(pts["deals_all"].sum()) if pts.height else 0
    none_share = pts.filter(pl.col("points") == 0)["share_all"]
    mean_all = float((pts["points"] * pts["share_all"]).sum()) if pts.height else float("nan")
    blocks.append(Block("p", (
        f"Declared marriage points per played-out deal ({total:,} deals): in "
        f"{_fmt_pct(none_share[0] if len(none_share) else None)} of deals nobody declares one; the mean is "
        f"{mean_all:.1f} points per deal. Right: the marriage value held in a dealt hand against its exact "
        "distribution" + (" (counted with the cut, see above)." if cut else "."))))
    show = pts.select(
        "points", _counts("deals_all", "deals"),
        pl.col("share_all").map_elements(_fmt_pct, return_dtype=pl.String).alias("all players"),
        pl.col("share_declarer").map_elements(_fmt_pct, return_dtype=pl.String).alias("declarer"),
        pl.col("share_defenders").map_elements(_fmt_pct, return_dtype=pl.String)
        .alias("the defender" if players == 2 else "defenders"))
    blocks += [Block("table", frame=show), Block("img", "Marriage points", path=paths["marriage_points"])]
    chk = tables["marriage_checks"].row(0, named=True)
    blocks.append(Block("p", (
        f"Checks: {chk['seat_rows']:,} seat rows; {chk['ambiguous']:,} with an ambiguous declared set "
        f"(three or more marriages held, resolved to the fewest marriages); {chk['unexplained']:,} whose "
        "declared points no held marriages explain.")))
    return blocks


def _weak_marriage_blocks(hands: pl.DataFrame, rules: Rules, grid: pl.DataFrame) -> list[Block]:
    """Why a weak hand with a marriage so often scores nothing, with this run's figures
    (``grid``: the heatmap's classes, to say whether one of its cells shows it)."""
    from thousand.analysis import thresholds as th

    weak = (th.add_hand_features(hands).filter((pl.col("marriage_value") != "none") & (pl.col("hand_points") < 30))
            .select("hand_id", "points").collect())
    if weak["hand_id"].n_unique() < th.MIN_HANDS:
        return []
    zero = float((weak["points"] == 0).mean())
    shown = grid.filter((pl.col("marriage_value").cast(pl.String) != "none")
                        & pl.col("points_band").cast(pl.String).is_in(["<20", "20-29"])
                        & pl.col("bid_80").is_null()).height > 0
    median = float(weak["points"].median())
    when = ("on the first trick, the one he leads, a marriage may not be declared "
            "(`marriage_first_trick = off`), so" if not rules.marriage_first_trick else "so")
    return [Block("p", (
        f"Why a weak hand with a marriage often scores nothing: of the deals of hands with a marriage and "
        f"fewer than 30 card points here, {_fmt_pct(zero)} end with 0 points, though their median is "
        f"{median:.0f}. A marriage counts only when declared, by leading its king or queen, and only the "
        f"winner of the last trick leads; {when} a hand that loses its first lead and never wins a trick again "
        "declares nothing and takes no card points: 0 points, a lost contract and a bolt. Such hands reach "
        "either about their marriage plus a few tricks or nothing, two humps with little between, so a low "
        "quantile of their points (what \"made with 80%\" is) falls into the lower hump: "
        + ("such a cell says `pass` while its median is high. The share of deals that make 100 (the colour) "
           "shows how far from bidding they are." if shown else
           "a cell of them would say `pass` while its median is high; this run's heatmap has no such cell "
           "(too few of these hands in one class), more hands (`--hands`) give one.")))
    ]


def _feature_words(name: str, value: float) -> str:
    """A rule-of-thumb feature of a hand in words: "38 card points", "1 ace", "no marriage"."""
    v = int(value)
    if name == "marriage value":
        return f"marriages worth {v}" if v else "no marriage"
    if name == "aces":
        return _count(v, "ace")
    if name == "aces with their ten":
        return f"{v} of them with its ten" if v != 1 else "1 with its ten"
    return f"{v:g} {name}"


def _rule_examples(rule: Any, hands: pl.DataFrame, rules: Rules, samples: int) -> list[Block]:
    """A worked example of the rule of thumb: one hand with a marriage that the rule bids and
    one without that it passes (the first of each in the run, so the choice is not ours),
    each worked out term by term next to what its simulated deals say."""
    from thousand.analysis import thresholds as th
    from thousand.cards import format_hand

    rows = th.hand_outcomes(hands, rules, probabilities=(rule.probability,)).filter(
        pl.col("role") == "forehand").sort("hand_id")
    tag = f"{round(rule.probability * 100):02d}"
    picked = []
    for want_bid, marriage in ((True, True), (False, False)):
        for row in rows.filter((pl.col("marriage_points") > 0) == marriage).iter_rows(named=True):
            w = rule.worked(row, rules)
            if (w["bid"] is not None) == want_bid:
                picked.append((row, w))
                break
    if not picked:
        return []
    items = []
    for row, w in picked:
        terms = " + ".join(f"{c:g} x {v:g}" for c, _, v in w["terms"] if c != 0)
        sign = "+" if w["intercept"] >= 0 else "-"
        said = "pass (below 100)" if w["bid"] is None else f"bid {w['bid']}"
        sim = row[f"bid_{tag}"]
        named = ", ".join(_feature_words(name, v) for _, name, v in w["terms"])
        items.append(
            f"`{format_hand(int(row['hand']), symbols=False)}` ({named}): {terms} {sign} {abs(w['intercept']):g} = "
            f"{w['level']:.1f}, so **{said}**. Its {samples} simulated deals as forehand: at least "
            f"{row[f'level_{tag}']} points in {level_percent(rule.probability)} of them, so "
            f"{'pass' if sim is None else f'bid {sim}'}.")
    return [Block("p", "Worked example (the first hand of the run with a marriage that the rule bids, and the "
                       "first without one that it passes):"), Block("list", items=items)]


def _rule_set_lines(cfg: ReportConfig, rule_sets: list[tuple[str, Rules]]) -> list[str]:
    """The header's account of every rule set the page covers, and where each appears."""
    presets = {r.hash: name for name, r in PRESETS.items()}

    def named(pairs: list[tuple[str, Rules]]) -> str:
        # a rule set that is a preset under another name (a TOML file of it) says which one:
        # the presets "also covered" leave it out as covered already
        return ", ".join(f"`{label}`" + (f" (= {presets[rules.hash]})" if presets.get(rules.hash, label) != label
                                          else "") + f" (hash {rules.hash})" for label, rules in pairs)
    alone = ("marriages and bidding thresholds for it alone" if cfg.rules[0].players == 3 else
             f"marriages for it alone; the bidding thresholds cover the 3-player game, not its "
             f"{cfg.rules[0].players} players")
    lines = [f"main rule set: {named([(cfg.labels[0], cfg.rules[0])])}: every section ({alone})"]
    given = list(zip(cfg.labels, cfg.rules))[1:]
    if given:
        lines.append(f"compared with it: {named(given)}: overview, redeal frequencies and the house-rule "
                     f"comparison ({cfg.games:,} games each)")
    added = [(label, rules) for label, rules in rule_sets if label not in cfg.labels]
    if added:
        lines.append(f"also covered, as every preset is: {named(added)}: overview and redeal frequencies")
    return lines


def _count(n: int, noun: str) -> str:
    """``n`` with its noun, plural unless one: "1 hand", "1,400 hands"."""
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


# The threshold table's class columns as the report names them.
CLASS_HEADERS = {"points_band": "card points", "marriage_value": "marriage", "aces": "aces",
                 "aces_with_ten": "aces with their ten"}


def _threshold_display(table: pl.DataFrame) -> pl.DataFrame:
    """The thresholds table for reading: each ``bid_q`` with its interval, null as "pass"."""
    keys = [c for c in ("points_band", "marriage_value", "aces", "aces_with_ten") if c in table.columns]
    cols = [pl.col(k).cast(pl.String).alias(CLASS_HEADERS[k]) for k in keys]
    if "hands" in table.columns:
        cols.append(_counts("hands"))
    if "mean_points" in table.columns:
        cols.append(pl.col("mean_points").map_elements(_fmt_num, return_dtype=pl.String).alias("mean points"))
    for tag in ("50", "70", "80", "90"):
        b, lo, hi = f"bid_{tag}", f"bid_{tag}_low", f"bid_{tag}_high"
        if b not in table.columns:
            continue
        title = f"bid made with {int(tag)}%"
        if lo in table.columns and hi in table.columns:
            cols.append(pl.struct(b, lo, hi).map_elements(
                lambda r, b=b, lo=lo, hi=hi: ("pass" if r[b] is None else str(r[b]))
                + ("" if r[lo] is None and r[hi] is None else
                   f" [{'pass' if r[lo] is None else r[lo]}, {'pass' if r[hi] is None else r[hi]}]"),
                return_dtype=pl.String).alias(title))
        else:
            cols.append(pl.col(b).cast(pl.String).fill_null("pass").alias(title))
    return table.select(cols)


def _rule_of_thumb_display(acc: pl.DataFrame) -> pl.DataFrame:
    """The rule-of-thumb accuracy for reading: errors in points (one decimal), R² with two,
    shares of (hand, seat) rows as percentages; words instead of ``nan`` (a rule that never
    bids has no P(make) at its bids; R² needs targets that vary)."""
    def show(row: dict[str, Any], col: str) -> str:
        v = row[col]
        if v is None or v != v:
            return "never bids" if col == "p_make_at_rule_bid" and row.get("share_bidding") == 0 else "–"
        if col in ("mae_points", "rmse_points"):
            return f"{v:.1f}"
        if col == "r2":
            return f"{v:.2f}"
        return _fmt_pct(v)
    floats = [c for c, t in acc.schema.items() if t.is_float()]
    return acc.select(pl.col(c) if c not in floats else
                      pl.struct(acc.columns).map_elements(lambda r, c=c: show(r, c), return_dtype=pl.String)
                      .alias(RULE_OF_THUMB_HEADERS.get(c, c))
                      for c in acc.columns)


RULE_OF_THUMB_HEADERS = {
    "mae_points": "mean error (points)", "rmse_points": "RMS error (points)", "r2": "R²",
    "bid_exact": "exact bid", "bid_within_5": "bid within 5", "bid_within_10": "bid within 10",
    "overbid": "overbids", "underbid": "underbids", "p_make_at_rule_bid": "P(make) at its bids",
    "share_bidding": "share bidding",
}


FORCED_DATA = "forced_hands.parquet"
FORCED_KEY = "forced_hands.json"
FORCED_PARTS = "forced_hands.parts"  # chunks of an unfinished forced-declarer run
# Hands per chunk of a forced-declarer run before the runner's store (thresholds' default):
# how an interrupted report of that version numbered its chunks.
FORCED_CHUNK_HANDS = 50


def _forced_key(cfg: ReportConfig) -> dict[str, Any]:
    """Everything that determines the forced-declarer data (the runner's metadata of its
    chunks); stored next to it so that a later report with the same settings reuses it
    instead of playing it again."""
    from thousand.analysis import thresholds as th

    return th.forced_hands_metadata(cfg.rules[0], cfg.hands, cfg.samples, cfg.seed, cfg.strategies)


def _file_digest(path: Path) -> str:
    """SHA-256 of a file, read in blocks: the forced-declarer data's fingerprint in its
    record, so that a damaged or swapped file is played again rather than reused."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _same_forced_key(found: Any, cfg: ReportConfig) -> bool:
    """Whether ``found`` (a stored key or chunk metadata) describes this report's forced-declarer data."""
    return _same_key(found, _forced_resume_key(cfg))


def _forced_resume_key(cfg: ReportConfig) -> dict[str, Any]:
    """The part of :func:`_forced_key` that must match for the data to be reused."""
    from thousand.analysis import thresholds as th

    want = _forced_key(cfg)
    return {k: want.get(k) for k in th.FORCED_RESUME_KEYS}


def _same_key(found: Any, want: dict[str, Any]) -> bool:
    return isinstance(found, dict) and all(found.get(k) == v for k, v in want.items())


def _code_versions() -> dict[str, Any]:
    """The versions a computed file depends on besides its settings."""
    try:
        from thousand import kernel
        kernel_version = kernel.KERNEL_VERSION
    except ImportError:
        kernel_version = None
    return {"version": __version__, "kernel_version": kernel_version}


def _keep_current(data: Path, key: Path, want: dict[str, Any] | None, log: Callable[[str], None]) -> bool:
    """Whether ``data`` is the complete file a run with the settings ``want`` wrote: its
    record ``key`` (written after it, :func:`_record_data`) matches ``want`` and holds the
    file's digest.  Otherwise both are removed, to be computed again (``want`` None: this
    report does not compute it)."""
    kept = False
    if want is not None and data.is_file():
        try:
            record = read_json(key, "report record", MAX_RECORD_BYTES)
        except ThousandError:
            record = None
        kept = _same_key(record, want)
        if kept and record.get("sha256") != _file_digest(data):
            # not the file the record describes: cut short, edited, another report's
            log(f"{data} is not the file this report wrote (damaged or replaced): computing it again")
            kept = False
    if not kept:
        data.unlink(missing_ok=True)
        key.unlink(missing_ok=True)
    return kept


def _record_data(data: Path, key: Path, settings: dict[str, Any]) -> None:
    """Write the record of a complete ``data`` file: its settings and digest.  The data
    first, then its record: a record on disk always describes a complete file."""
    _write_whole(key, json.dumps({**settings, "status": "complete", "sha256": _file_digest(data)}, indent=1) + "\n")


def _defence_plan(cfg: ReportConfig) -> tuple[int, str | None, str | None]:
    """The defence comparison's deals, its strategy, and why it is not computed (None: it is)."""
    n = min(cfg.defence_deals, cfg.play_deals, cfg.deals)
    specs = set(cfg.strategies or ["standard"])
    if n == 0:
        return n, None, "`--defence-deals 0`"
    if len(specs) > 1:
        return n, None, ("the run has different strategies at its seats (the comparison replays one strategy "
                         "declaring against a search player's defence)")
    base = specs.pop()
    name = base.split(":")[0].strip().lower()
    if name == SEARCH_DEFENDER:
        return n, None, f"the run's strategy is {SEARCH_DEFENDER} already"
    if name != "standard":
        # the deals are compared only if the defender leaves the auction and the talon play
        # as they were, and pimc bids as standard (with standard's parameters)
        return n, None, (f"{SEARCH_DEFENDER} bids as standard, so its defence can be compared only on a standard "
                         f"declarer's deals (the same auction and talon play), and the run's strategy is {base}")
    return n, base, None


def _defender(base: str) -> str:
    """The search defender for ``base`` (standard, maybe with parameters): pimc with the
    same standard parameters, so that it bids exactly as ``base`` does."""
    params = base.partition(":")[2].strip()
    return f"{SEARCH_DEFENDER}:{params}" if params else SEARCH_DEFENDER


def _play_keys(cfg: ReportConfig) -> dict[str, dict[str, Any] | None]:
    """What determines each data file of "How well the bots play" (None: not computed)."""
    common = {"seed": int(cfg.seed), "rules_hash": cfg.rules[0].hash, **_code_versions()}
    n = min(cfg.play_deals, cfg.deals)
    strategies = None if cfg.strategies is None else list(cfg.strategies)
    n_def, base, why_not = _defence_plan(cfg)
    return {PLAY_DATA: {"kind": "play_quality", "n": int(n), "strategies": strategies, **common} if n else None,
            DEFENCE_DATA: ({"kind": "play_defence", "n": int(n_def), "base": base,
                            "defender": _defender(base) if base else None,
                            **common} if n and why_not is None else None)}


# The rule of thumb is fitted on 70% of the hands and scored on the rest: below this many
# hands its coefficients and accuracy say nothing (QA: "fitted on 1 hand").
RULE_OF_THUMB_MIN_HANDS = 100
# below this many fitted hands the rule's coefficients are said to be rough
RULE_OF_THUMB_STEADY_HANDS = 1000


def _rough_rule(rule: Any) -> str:
    """Why the rule of thumb should not be trusted yet, or "": few hands, a held-out fit
    well below the training fit, or more card points bidding lower."""
    why = []
    if rule.hands_train < RULE_OF_THUMB_STEADY_HANDS:
        why.append(f"it is fitted on {_count(rule.hands_train, 'hand')} only")
    r2_train, r2_test = rule.train.get("r2"), rule.test.get("r2")
    if r2_train is not None and r2_test is not None and r2_test == r2_test and r2_test < r2_train - 0.2:
        why.append(f"it explains much less of the held-out hands (R² {r2_test:.2f}) than of those it was fitted "
                   f"on ({r2_train:.2f})")
    if rule.rounded.get("points", 0) < 0:
        why.append("more card points lower its bid")
    if not why:
        return ""
    return ("A rough rule: " + "; ".join(why) + ". Its numbers will move in another run; run more hands "
            f"(`--hands`, at least {RULE_OF_THUMB_STEADY_HANDS:,}) for one to use at the table.")


class ReportStopped(ThousandError):
    """A section stopped in a way that must end the whole report (not "not shown")."""


def _stop_if_fatal(section: str, e: BaseException) -> None:
    """Raise what must end the whole report instead of leaving one section out: Ctrl-C
    (which also kills the worker processes, so it may surface as their death), a worker
    process that died, or memory running out.  The data written so far stays on disk and
    the same command continues from it."""
    from thousand.runner.pool import exception_chain, killed_by_interrupt, worker_death

    if killed_by_interrupt(e):  # also when the workers got the Ctrl-C first and died of it
        raise KeyboardInterrupt from e
    death = worker_death(e)
    if death is not None:
        raise ReportStopped(f"{section} stopped: {death}; the data computed so far is kept, {RESUME_HINT}") from None
    for c in exception_chain(e):
        if isinstance(c, MemoryError):
            raise ReportStopped(f"{section} stopped: out of memory ({' '.join(str(c).split()) or 'MemoryError'}); "
                                "use smaller settings") from None


def _threshold_section(cfg: ReportConfig, log: _Log, tables_dir: Path, charts_dir: Path,
                       notes: list[str]) -> tuple[list[Block], dict[str, Path], dict[str, Path]]:
    """Bidding thresholds through :mod:`thousand.analysis.thresholds` (its public API)."""
    blocks = [Block("h", "Bidding thresholds")]
    tables: dict[str, Path] = {}
    figs: dict[str, Path] = {}
    try:
        from thousand.analysis import thresholds as th
    except ImportError as e:
        notes.append(f"bidding thresholds: module not available ({e})")
        blocks.append(Block("note", "The bidding-threshold analysis is not available in this build."))
        return blocks, tables, figs
    if not _kernel_available():
        notes.append("bidding thresholds: the kernel is not available")
        blocks.append(Block("note", "Not computed: it plays forced-declarer deals, and the kernel is not available."))
        return blocks, tables, figs
    rules = cfg.rules[0]
    if rules.players != 3:  # not a bad input: the rest of the report applies, this section does not
        why = f"they cover the 3-player game, and {cfg.labels[0]} has {rules.players} players"
        notes.append(f"bidding thresholds: {why}")
        blocks.append(Block("note", f"Not computed: {why}."))
        return blocks, tables, figs
    try:
        log(f"bidding thresholds: {cfg.hands:,} hands x 3 seats x {cfg.samples} completions ...")
        data = cfg.out / "data" / FORCED_DATA
        if data.is_file():  # build_report removed it unless it was made with these settings
            log(f"reusing {data} ({cfg.hands:,} hands x {cfg.samples} completions)")
            hands = pl.read_parquet(data)
        else:
            # The chunks go to FORCED_PARTS (a store of the runner) as they finish, so that
            # an interrupted run keeps them; build_report removed any made with other settings.
            parts = cfg.out / "data" / FORCED_PARTS
            kept = len(list(parts.glob("chunk-*.parquet"))) if parts.is_dir() else 0
            if kept:
                log(f"continuing {parts}: {kept} chunks of hands already played")
            hands = th.simulate_forced_hands(rules, n_hands=cfg.hands, samples_per_hand=cfg.samples,
                                             seed=cfg.seed, strategies=cfg.strategies, jobs=cfg.jobs,
                                             chunk_dir=parts)
            with written_whole(data) as tmp:   # a full disk leaves no cut file behind
                hands.write_parquet(tmp)
            _record_data(data, cfg.out / "data" / FORCED_KEY, _forced_key(cfg))
            _remove_parts(parts)
        table = th.threshold_table(hands, rules)
        _write_table(table, tables_dir / "bid_thresholds.csv")
        tables["bid_thresholds"] = tables_dir / "bid_thresholds.csv"
        grid = th.threshold_table(hands, rules, by=("points_band", "marriage_value"), n_boot=0)
        blocks.append(Block("p", (
            f"Forced-declarer runs under {cfg.labels[0]}: {cfg.hands:,} random hands, each made declarer at every "
            f"seat (forehand, middle, rear) and played {cfg.samples} times against random completions of the "
            "unseen cards. For each hand class, the highest bid made with probability 50%, 70%, 80% and 90%, "
            "with a bootstrap 95% interval over hands (`thousand.analysis.thresholds`); `pass` means even 100 "
            "is made less often than that. Hand classes: card points, the marriage held (its value; `none`; "
            f"or `{th.TWO_OR_MORE_MARRIAGES}` for two or more, whatever they add up to), aces (3 = three or "
            f"four) and aces held with their ten (2 = two or more). `hands` counts distinct hands (each played "
            f"at all three seats); classes of fewer than {th.MIN_HANDS} hands are left out."
            + (" Full table: `tables/bid_thresholds.csv`." if table.height else ""))))
        # A class of the heatmap's grid holds the classes of the full table that refine it,
        # so when the grid has none large enough, the table has none either.
        if not grid.height:
            blocks.append(Block("note", (
                f"Too few hands: in {cfg.hands:,} hands no class of card points and marriage has the "
                f"{th.MIN_HANDS} hands a threshold needs, so there is no table and no heatmap; run more "
                "hands (`--hands`).")))
        else:
            if table.height:
                blocks.append(Block("table", frame=_threshold_display(table)))
            else:
                blocks.append(Block("note", (
                    f"Too few hands for the full table: in {cfg.hands:,} hands no class of card points, "
                    f"marriage, aces and aces with their ten has the {th.MIN_HANDS} hands a threshold needs; "
                    "the heatmap below pools the aces. Run more hands (`--hands`) for the table.")))
            heat = charts_dir / "bid_threshold_heatmap.png"
            th.plot_threshold_heatmap(grid, heat)
            figs["bid_threshold_heatmap"] = heat
            blocks.append(Block("p", (
                "The heatmap pools the aces: each cell is a class of card points and marriage, with the bid "
                "made with 80% (or `pass`), how often the class makes 100 (the lowest bid; also the colour, "
                "which turns from red to blue at 80%: blue classes bid), the median of the points it reaches "
                f"and its number of distinct hands; a hatched cell has fewer than {th.THIN_HANDS} hands, so "
                "its bid may move by a step or more in another run of hands.")))
            blocks.append(Block("img", "Bid made with probability 80% by card points and marriage", path=heat))
            blocks += _weak_marriage_blocks(hands, rules, grid)
        n_hands = hands["hand_id"].n_unique()
        if n_hands < RULE_OF_THUMB_MIN_HANDS:
            blocks.append(Block("h", "Rule of thumb", level=3))
            blocks.append(Block("note", (
                f"Too few hands for a rule of thumb: it is fitted on 70% of the hands and scored on the "
                f"rest, which needs at least {RULE_OF_THUMB_MIN_HANDS} hands (here {n_hands:,}); "
                "run more hands (`--hands`).")))
        else:
            try:
                rule = th.fit_rule_of_thumb(hands, rules)
                acc = th.rule_of_thumb_table(rule)
                _write_table(acc, tables_dir / "rule_of_thumb.csv")
                tables["rule_of_thumb"] = tables_dir / "rule_of_thumb.csv"
                blocks.append(Block("h", "Rule of thumb", level=3))
                blocks.append(Block("p", f"`{rule.formula()}`, fitted on {_count(rule.hands_train, 'hand')} "
                                         f"({rule.n_train:,} (hand, seat) rows) and scored on "
                                         f"{_count(rule.hands_test, 'held-out hand')} ({rule.n_test:,} rows):"))
                blocks.append(Block("table", frame=_rule_of_thumb_display(acc)))
                t, b = rule.test, rule.baseline
                # Most (hand, seat) rows should pass at this confidence, so the share of exact
                # bids flatters "always pass"; the points error is where the rule earns its keep.
                blocks.append(Block("p", (
                    f"How to read it: most random hands should not bid at all, so a rule that always passes "
                    f"(the median) already names the exact bid for {b['bid_exact']:.1%} of held-out rows, against "
                    f"{t['bid_exact']:.1%} for the rule. The rule's value is in how close it gets to the points a hand "
                    f"really reaches: mean error {t['mae_points']:.1f} points against {b['mae_points']:.1f} for the "
                    f"median (R² {t['r2']:.2f}).")))
                rough = _rough_rule(rule)
                if rough:
                    blocks.append(Block("note", rough))
                blocks += _rule_examples(rule, hands, rules, cfg.samples)
            except Exception as e:  # the thresholds table stands on its own
                _stop_if_fatal("the rule of thumb", e)
                notes.append(Failure("rule of thumb", e))
                blocks.append(Block("note", f"The rule of thumb could not be fitted: {e}"))
    except ReportStopped:
        raise
    except ThousandError as e:  # the analysis does not cover these rules: say so, no traceback
        _stop_if_fatal("bidding thresholds", e)
        notes.append(f"bidding thresholds: {e}")
        log(f"bidding thresholds not computed: {e}")
        blocks.append(Block("note", f"Not computed: {e}."))
    except Exception as e:
        _stop_if_fatal("bidding thresholds", e)
        notes.append(Failure("bidding thresholds", e))
        log(f"bidding thresholds failed: {e}")
        traceback.print_exc(file=sys.stderr)
        blocks.append(Block("note", f"The bidding-threshold analysis failed and is not shown ({e})."))
    return blocks, tables, figs


def _play_quality_section(cfg: ReportConfig, log: _Log, tables_dir: Path, charts_dir: Path,
                          notes: list[str]) -> tuple[list[Block], dict[str, Path], dict[str, Path]]:
    """How well the bots play, through :mod:`thousand.analysis.play_quality`: the first
    ``cfg.play_deals`` deals of the main rule set's run, solved open-handed card by card."""
    from thousand.analysis import play_quality as pq

    blocks = [Block("h", f"How well the bots play ({cfg.labels[0]})")]
    tables: dict[str, Path] = {}
    figs: dict[str, Path] = {}
    n = min(cfg.play_deals, cfg.deals)
    if n == 0:
        notes.append("how well the bots play: --play-deals 0")
        blocks.append(Block("note", "Not computed: `--play-deals 0`."))
        return blocks, tables, figs
    try:
        data = cfg.out / "data" / PLAY_DATA
        if data.is_file():  # build_report removed it unless it was made with these settings
            log(f"reusing {data} ({n:,} deals solved)")
            per_deal = pl.read_parquet(data)
        else:
            log(f"how well the bots play: solving the {n:,} first deals open-handed, card by card ...")
            per_deal = pq.bot_play_quality(cfg.rules[0], cfg.strategies, n, seed=cfg.seed, jobs=cfg.jobs,
                                           progress=cfg.progress)
            with written_whole(data) as tmp:   # a full disk leaves no cut file behind
                per_deal.write_parquet(tmp)
            _record_data(data, cfg.out / "data" / PLAY_KEY, _play_keys(cfg)[PLAY_DATA])
        table = pq.quality_table(per_deal, seed=cfg.seed)
        _write_table(table, tables_dir / "play_quality.csv")
        tables["play_quality"] = tables_dir / "play_quality.csv"
        figs["play_quality"] = charts.play_quality_chart(table, charts_dir / "play_quality.png")
        blocks += _play_quality_blocks(table, per_deal, n, figs["play_quality"],
                                       _capped("--play-deals", cfg.play_deals, n, "the run's deals"),
                                       cfg.rules[0].players, list(cfg.strategies or []))
    except Exception as e:
        _stop_if_fatal("how well the bots play", e)
        notes.append(Failure("how well the bots play", e))
        log(f"how well the bots play failed: {e}")
        traceback.print_exc(file=sys.stderr)
        blocks.append(Block("note", f"The play-quality analysis failed and is not shown ({e})."))
        return blocks, tables, figs
    blocks += _defence_part(cfg, log, tables_dir, tables, notes)
    return blocks, tables, figs


def _defence_part(cfg: ReportConfig, log: _Log, tables_dir: Path, tables: dict[str, Path],
                  notes: list[str]) -> list[Block]:
    """The same deals, the run's strategy declaring against the search player's defence
    (:func:`thousand.analysis.play_quality.defence_quality`): the defenders' loss of both."""
    from thousand.analysis import play_quality as pq

    title = Block("h", f"Against a search player's defence ({SEARCH_DEFENDER})", level=3)
    n, base, why_not = _defence_plan(cfg)
    if why_not is not None or base is None:
        return [title, Block("note", f"Not computed: {why_not}.")]
    try:
        data = cfg.out / "data" / DEFENCE_DATA
        if data.is_file():  # build_report removed it unless it was made with these settings
            log(f"reusing {data} ({_count(n, 'deal')} played twice)")
            per_deal = pl.read_parquet(data)
        else:
            log(f"how well the bots play: {_count(n, 'deal')} played twice, {base} defending and {SEARCH_DEFENDER} "
                "defending ...")
            per_deal = pq.defence_quality(cfg.rules[0], base, _defender(base), n, seed=cfg.seed, jobs=cfg.jobs,
                                          progress=cfg.progress)
            with written_whole(data) as tmp:
                per_deal.write_parquet(tmp)
            _record_data(data, cfg.out / "data" / DEFENCE_KEY, _play_keys(cfg)[DEFENCE_DATA])
        table = pq.quality_table(per_deal, seed=cfg.seed)
        _write_table(table, tables_dir / "play_defence.csv")
        tables["play_defence"] = tables_dir / "play_defence.csv"
        label = f"{base} v {_defender(base)}"
        ratio = pq.defence_ratio(per_deal, base, label)
    except Exception as e:
        _stop_if_fatal("the defence comparison", e)
        notes.append(Failure("the defence comparison", e))
        log(f"the defence comparison failed: {e}")
        traceback.print_exc(file=sys.stderr)
        return [title, Block("note", f"The defence comparison failed and is not shown ({e}).")]
    show = table.filter(pl.col("band") == "all").sort(pl.col("strategy") != base).select(
        pl.when(pl.col("strategy") == base).then(pl.lit(f"{base}")).otherwise(pl.lit(SEARCH_DEFENDER))
        .alias("defenders"), _counts("deals"),
        pl.col("mean_taken").map_elements(_fmt_num, return_dtype=pl.String).alias("declarer took"),
        pl.struct("mean_defence_loss", "mean_defence_loss_ci_low", "mean_defence_loss_ci_high", "deals").map_elements(
            lambda r: _mean_loss_ci(r, "mean_defence_loss"), return_dtype=pl.String).alias("defence's loss"),
        pl.struct("made_beatable_start_share", "made_beatable_start_ci_low", "made_beatable_start_ci_high", "made").map_elements(
            lambda r: (f"{_pct_ci(r['made_beatable_start_share'], r['made_beatable_start_ci_low'], r['made_beatable_start_ci_high'])}"
                       f" of {r['made']:,}" if r["made"] else "–"), return_dtype=pl.String)
        .alias("made, beatable at the first lead"),
    )
    return [
        title,
        Block("p", (
            f"{n:,} deals{_capped('--defence-deals', cfg.defence_deals, n, 'as many as the table above solved')} "
            f"played twice on the same cards: {base} at every seat, and {base} declaring (the "
            f"same auction, talon and hand-off: {SEARCH_DEFENDER} bids as standard) against {SEARCH_DEFENDER} "
            "defending, the search player of `docs/strategies.md` (sampled deals of the hidden cards, each "
            "solved open-handed) at its default budget. The strategies draw on a stream of their own, so the "
            "cards do not depend on who plays: they are other deals than the table above. The defence's loss "
            "against open-hand play, "
            f"{SEARCH_DEFENDER}'s over {base}'s on the deals both played out: **{_ratio_ci(ratio)}** (ratio of "
            "the sums, 95% delta-method interval, paired by deal). Per-deal data: "
            f"`data/{DEFENCE_DATA}`; by contract band: `tables/play_defence.csv`.")),
        Block("table", frame=show),
    ]


def _capped(option: str, asked: int, used: int, within: str) -> str:
    """Words saying that fewer deals were used than ``option`` asked for, as no more than
    ``within`` are (none when all were)."""
    return f" (`{option} {asked:,}` asks for more: at most {within} are used)" if asked > used else ""


def _play_quality_blocks(table: pl.DataFrame, per_deal: pl.DataFrame, n: int, chart: Path,
                         capped: str = "", players: int = 3, strategies: list[str] | None = None) -> list[Block]:
    def mean_ci(m: str) -> pl.Expr:
        return pl.struct(m, f"{m}_ci_low", f"{m}_ci_high", "deals").map_elements(
            lambda r: _mean_loss_ci(r, m), return_dtype=pl.String)

    def share(k: str, n_col: str, title: str) -> pl.Expr:
        return pl.struct(f"{k}_share", f"{k}_ci_low", f"{k}_ci_high", k, n_col).map_elements(
            lambda r: (f"{_pct_ci(r[f'{k}_share'], r[f'{k}_ci_low'], r[f'{k}_ci_high'])} of {r[n_col]:,}"
                       if r[n_col] else "–"), return_dtype=pl.String).alias(title)

    show = table.select(
        pl.col("band").alias("contract"), _counts("deals"),
        pl.col("mean_start_value").map_elements(_fmt_num, return_dtype=pl.String).alias("open-hand value"),
        pl.col("mean_taken").map_elements(_fmt_num, return_dtype=pl.String).alias("taken"),
        mean_ci("mean_hand_off_loss").alias("hand-off's loss"),
        mean_ci("mean_declarer_loss").alias("declarer's loss"),
        mean_ci("mean_defence_loss").alias("defence's loss"),
        share("failed_makeable_hand_off", "failed", "failed, makeable with the best hand-off"),
        share("failed_makeable_start", "failed", "failed, makeable at the first lead"),
        share("failed_makeable_any", "failed", "failed, makeable at some card"),
        share("made_beatable_start", "made", "made, beatable at the first lead"),
        share("made_beatable_any", "made", "made, beatable at some card"),
    )
    rows = per_deal.height
    return [
        Block("p", (
            f"The first {_count(n, 'deal')} of the run{capped}, every card traced: the {rows:,} played out (not redealt or "
            "resigned) are solved open-handed before every card (`thousand.solver`; every hand open, the "
            "declarer playing for the most deal points and "
            + ("the defender" if players == 2 else "the defenders together")
            + " for the least, points already taken included). The value at the first lead (after the "
            + ("lay-away" if players == 2 else "hand-off") + " as played) against "
            "what the declarer took, split along the actual line: the declarer's loss sums what his cards "
            "dropped the value, the defence's loss what theirs raised it, so taken = value - declarer's "
            "loss + defence's loss, deal by deal. Before that, the hand-off's loss: the value of the best "
            + ("two cards to lay away (with 2 players; every pair tried, open-handed) less the value after the "
               "two laid away." if players == 2 else
               "hand-off (every one tried, open-handed) less the value after the one made.")
            + (f" The seats play different strategies ({', '.join(strategies)}): each row mixes the deals "
               "their declarers and defenders played, whoever they were (`data/" + PLAY_DATA + "` has the "
               "declarer's seat of each deal)." if strategies and len(set(strategies)) > 1 else "")
            + " Means per deal "
            "with 95% BCa bootstrap intervals (a loss is never negative and most deals lose nothing, so the interval keeps within the losses "
            "seen; none where a band has 1 deal or all its deals lost the same); shares with 95% "
            "Wilson intervals. The open-hand value is a yardstick (nobody sees the other hands), so a loss "
            "is points given away against perfect play, not always an avoidable mistake. Per-deal data: "
            f"`data/{PLAY_DATA}`; full table: `tables/play_quality.csv` (docs/analysis.md).")),
        Block("table", frame=show),
        Block("img", "Points lost against open-hand play, and contracts decided by a mistake", path=chart),
    ]


def _compare_section(cfg: ReportConfig, log: _Log, tables_dir: Path, charts_dir: Path,
                     notes: list[str]) -> tuple[list[Block], dict[str, Path], dict[str, Path]]:
    """House-rule comparison through :mod:`thousand.analysis.compare` (its public API);
    its Markdown section brings its own heading."""
    title = Block("h", "House-rule comparison")
    tables: dict[str, Path] = {}
    figs: dict[str, Path] = {}
    try:
        from thousand.analysis import compare as cmp
    except ImportError as e:
        notes.append(f"house-rule comparison: module not available ({e})")
        return [title, Block("note", "The house-rule comparison is not available in this build.")], tables, figs
    if not _kernel_available():
        notes.append("house-rule comparison: the kernel is not available")
        return [title, Block("note", "Not computed: the comparison plays whole games, and the kernel is not "
                                     "available.")], tables, figs
    try:
        log(f"comparing {len(cfg.rules)} rule sets over {cfg.games:,} games each ...")
        # Kept chunk by chunk in data/, so a rerun reuses what an earlier one (finished or
        # interrupted) computed with the same settings, and plays only the rest.
        result = cmp.compare_rules(cfg.rules, n_games=cfg.games, seed=cfg.seed, strategies=cfg.strategies,
                                   jobs=cfg.jobs, labels=cfg.labels, progress=cfg.progress,
                                   units=[cfg.out / "data" / name for name in _compare_folders(cfg)],
                                   resume=True, replace_stale=True, resume_hint=RESUME_HINT)
        if result.kept_chunks:
            log(f"comparison: {result.kept_chunks:,} of {result.chunks:,} chunks reused from "
                f"{cfg.out / 'data'}/_compare-*" + ("" if result.kept_chunks == result.chunks else
                                                    ", the rest played"))
        md = cmp.write_outputs(result, cfg.out, level=2, tables_dir=tables_dir, figures_dir=charts_dir)
        for name in ("compare.csv", "compare.json"):
            if (tables_dir / name).exists():
                tables[name.replace(".", "_")] = tables_dir / name
        if (charts_dir / "compare_forest.png").exists():
            figs["compare_forest"] = charts_dir / "compare_forest.png"
        return [Block("md", md, path=cfg.out)], tables, figs
    except ThousandError as e:
        _stop_if_fatal("house-rule comparison", e)
        notes.append(f"house-rule comparison: {e}")
        log(f"house-rule comparison not computed: {e}")
        return [title, Block("note", f"Not computed: {e}.")], tables, figs
    except Exception as e:
        _stop_if_fatal("house-rule comparison", e)
        notes.append(Failure("house-rule comparison", e))
        log(f"house-rule comparison failed: {e}")
        traceback.print_exc(file=sys.stderr)
        return [title, Block("note", f"The house-rule comparison failed and is not shown ({e}).")], tables, figs


# --------------------------------------------------------------------------- the report
def _redeal_rule_sets(cfg: ReportConfig) -> list[tuple[str, Rules]]:
    """The user's rule sets, then every preset not among them."""
    out = list(zip(cfg.labels, cfg.rules))
    if cfg.presets:
        seen = {r.hash for _, r in out}
        for name, r in PRESETS.items():
            if r.hash not in seen:
                out.append((name, r))
                seen.add(r.hash)
    return out


def _compare_folders(cfg: ReportConfig) -> list[str]:
    """The folders of ``data/`` that keep the house-rule comparison's unit tables, one a rule
    set (none with one rule set).  A label's folder (:func:`_slug`) never starts with "_"."""
    return [f"_compare-{i}" for i in range(len(cfg.rules))] if len(cfg.rules) > 1 else []


DATASETS_FILE = "datasets.json"  # in DIR/data: the dataset folders the report made there
# The report's own records (report.json, datasets.json, forced_hands.json) are a few KB;
# one that cannot be read within this (a device, a pipe, a huge file) is not the report's.
MAX_RECORD_BYTES = 16 << 20


def _report_dataset(path: Path) -> bool:
    """A folder holding what the report writes for a rule set (a runner dataset, or dealt cards)."""
    from thousand.simulate import METADATA_FILE

    return path.is_dir() and ((path / METADATA_FILE).is_file() or (path / "deals.parquet").is_file())


# Every table and chart this version of the report can write (compare's come from
# analysis/compare.py's write_outputs): only these names, and those an earlier report
# recorded in its report.json, are ever removed from tables/ and charts/.
OWN_TABLES = ("redeal_frequencies.csv", "redeal_calls.csv", "overview.csv", "marriages.csv", "play_quality.csv",
              "play_defence.csv",
              "marriage_value.csv", "marriage_points.csv", "marriage_points_held.csv", "marriage_checks.csv",
              "bid_thresholds.csv", "rule_of_thumb.csv", "compare.csv", "compare.json")
OWN_CHARTS = ("redeal_frequencies.png", "redeal_calls.png", "marriage_frequencies.png", "marriage_value.png",
              "marriage_points.png", "play_quality.png", "bid_threshold_heatmap.png", "compare_forest.png")


REPORT_PAGES = ("report.md", "report.html")


COMPARE_FILES = ("tables/compare.csv", "tables/compare.json", "charts/compare_forest.png", "compare.md")


def _report_files(compares: bool = True) -> list[str]:
    """The files (relative to --out) a report writes besides its data; the comparison's
    only when it ``compares`` several rule sets."""
    names = ([f"tables/{n}" for n in OWN_TABLES] + [f"charts/{n}" for n in OWN_CHARTS] + ["compare.md", *REPORT_PAGES]
             + [f"data/{n}" for n in (PLAY_DATA, PLAY_KEY, DEFENCE_DATA, DEFENCE_KEY)])
    return [n for n in names if compares or n not in COMPARE_FILES]


def _claimed(earlier: dict[str, Any]) -> set[str]:
    """The files (relative to --out) an earlier report in the same place wrote or claimed:
    those its report.json lists, and while it was running, every name it might write."""
    claimed = {f"tables/{n}" for n in _recorded(earlier, "tables", "tables")}
    claimed |= {f"charts/{n}" for n in _recorded(earlier, "charts", "charts")}
    # a data file with its record (reports older than the records wrote none)
    claimed |= {f"data/{f}" for n in _recorded(earlier, "data", "data") if n in PLAY_RECORDS
                for f in (n, PLAY_RECORDS[n])}
    listed = earlier.get("claimed")
    claimed |= {str(p) for p in listed if str(p) in _report_files()} if isinstance(listed, list) else set()
    if "tables/compare.csv" in claimed:   # compare.md comes with the comparison's tables
        claimed.add("compare.md")
    if earlier:
        claimed.update(REPORT_PAGES)
    return claimed


def _earlier_report(out: Path) -> dict[str, Any]:
    """The report.json an earlier report left in ``out`` (empty when there is none, or when
    the file there is not a report's record)."""
    try:
        meta = read_json(out / "report.json", "report record", MAX_RECORD_BYTES)
    except ThousandError:
        return {}
    return meta if isinstance(meta, dict) and ("claimed" in meta or "tables" in meta) else {}


def _recorded(meta: dict[str, Any], key: str, folder: str) -> set[str]:
    """Names of the plain children of ``folder`` that report.json lists under ``key``."""
    names: set[str] = set()
    entries = meta.get(key)
    for rel in (entries.values() if isinstance(entries, dict) else ()):
        parts = Path(str(rel)).parts
        if len(parts) == 2 and parts[0] == folder and parts[1] not in ("", ".", ".."):
            names.add(parts[1])
    return names


def _earlier_datasets(out: Path) -> set[str]:
    """The dataset folders an earlier report made in ``out/data`` (DATASETS_FILE, or, for
    reports older than it, report.json)."""
    earlier = _recorded(_earlier_report(out), "data", "data")
    try:
        listed = read_json(out / "data" / DATASETS_FILE, "report record", MAX_RECORD_BYTES)["datasets"]
        earlier.update(str(n) for n in listed if Path(str(n)).name == str(n) and str(n) not in ("", ".", ".."))
    except (ThousandError, KeyError, TypeError):
        pass
    return earlier


def _parts_files(parts: Path) -> set[str]:
    """The names in ``parts`` that a forced-declarer run can prove it wrote: its store's
    (:func:`thousand.runner.store.own_files`), or, for a report from before the runner's
    store, its key and the chunks the key numbers."""
    from thousand.runner.store import chunk_file, own_files, read_metadata

    try:
        return {f.name for f in own_files(parts, read_metadata(parts))}
    except ThousandError:
        pass
    try:
        hands = read_json(parts / FORCED_KEY, "report record", MAX_RECORD_BYTES)["hands"]
        chunks = range(math.ceil(int(hands) / FORCED_CHUNK_HANDS))
    except (ThousandError, ValueError, KeyError, TypeError):
        return set()
    return {FORCED_KEY, *(chunk_file(k) for k in chunks)}


def _own_parts(parts: Path) -> bool:
    """``parts`` holds only what an unfinished forced-declarer run writes there."""
    own = _parts_files(parts)
    return parts.is_dir() and all(p.is_file() and p.name in own for p in parts.iterdir())


def _remove_parts(parts: Path) -> None:
    """Delete the chunks of a forced-declarer run: its own files only, then the folder if empty."""
    from thousand.runner.store import remove_files

    if parts.is_dir():
        remove_files(parts, _parts_files(parts))


def _claim_outputs(cfg: ReportConfig, names: list[str]) -> None:
    """Refuse, before any work, when something the report would have to replace in
    ``cfg.out`` is not provably its own: a dataset folder it did not make (not listed by an
    earlier report, or no longer a report dataset), or forced-declarer files of unknown
    origin.  The report only ever deletes what passes this check."""
    out = cfg.out
    if out.exists() and not out.is_dir():
        raise ThousandError(f"--out {os.fspath(out)!r} is {'a file' if out.is_file() else 'a device'}, "
                            "not a directory")

    def refuse(path: Path, what: str) -> None:
        raise ThousandError(f"{os.fspath(path)!r} is in the way: {what}; move it or give another --out")
    record = out / "report.json"
    if record.exists() and not _earlier_report(out):
        refuse(record, "it is not the record a report keeps there")
    claimed = _claimed(_earlier_report(out))
    for rel in _report_files(compares=len(cfg.rules) > 1):
        path = out / rel
        if (path.exists() or path.is_symlink()) and rel not in claimed:
            refuse(path, "the report writes a file of that name, and no earlier report made this one")
    data = out / "data"
    if not data.is_dir():
        return
    earlier = _earlier_datasets(out)
    for name in names:
        path = data / name
        if not path.exists() and not path.is_symlink():
            continue
        if path.is_symlink() or not path.is_dir():
            refuse(path, "the report keeps a dataset folder there")
        if not any(path.iterdir()):
            continue  # an empty folder: nothing to lose, the dataset is written into it
        if name not in earlier or not _report_dataset(path):
            refuse(path, "it is not a dataset an earlier report made there")
        foreign = _foreign_files(path)
        if foreign:
            refuse(path, f"it holds files the report did not write ({', '.join(foreign[:3])}"
                         f"{', ...' if len(foreign) > 3 else ''})")
    forced, key, parts = data / FORCED_DATA, data / FORCED_KEY, data / FORCED_PARTS
    if key.exists() and not key.is_file():
        refuse(key, "the report keeps the key of its forced-declarer data there")
    made_forced = key.is_file() or FORCED_DATA in _recorded(_earlier_report(out), "data", "data")
    if forced.exists() and not (forced.is_file() and made_forced):
        refuse(forced, "it is not forced-declarer data an earlier report made")
    if parts.exists() and not _own_parts(parts):
        refuse(parts, "it holds files an unfinished forced-declarer run does not write")


def _remove_stale_datasets(out: Path, names: list[str], log: Callable[[str], None]) -> None:
    """Make ``out/data`` hold the datasets of this report only: delete the folders an earlier
    report made there (listed in DATASETS_FILE, or, for reports older than it, in report.json)
    that this one does not use, then list this report's folders, before any is written (so
    an interrupted run is cleaned up too).  Nothing else in ``data/`` is touched."""
    data = out / "data"
    earlier = _earlier_datasets(out)
    for name in sorted(earlier - set(names)):
        path = data / str(name)
        # Only a plain child of data/ that still looks like a report dataset.
        if Path(str(name)).name == name and name not in ("", ".", "..") and _report_dataset(path):
            log(f"removing {path}: a dataset of an earlier report that this one does not use")
            left = _remove_dataset(path)
            if left:
                log(f"kept {path}: it holds files the report did not write ({', '.join(left[:3])})")
    _write_whole(data / DATASETS_FILE, json.dumps({"datasets": names}, indent=1) + "\n")


def reproduce_command(cfg: ReportConfig) -> str:
    """The command line that makes this report again, quoted for a shell (a rules file
    named ``it's.toml``: shlex, not hand-made quotes)."""
    cmd = ["thousand", "report"]
    for option, value in (("--deals", cfg.deals), ("--games", cfg.games), ("--hands", cfg.hands),
                          ("--samples", cfg.samples), ("--play-deals", cfg.play_deals),
                          ("--defence-deals", cfg.defence_deals), ("--seed", cfg.seed)):
        cmd += [option, str(value)]
    cmd += [x for label in cfg.labels for x in ("--rules", label)]
    cmd += [x for st in (cfg.strategies or []) for x in ("--strategy", st)]
    if not cfg.presets:
        cmd.append("--no-presets")
    return shlex.join(cmd)


def build_report(cfg: ReportConfig) -> ReportResult:
    """Simulate, analyse and write the report under ``cfg.out``; see the module docstring."""
    log = _Log(cfg.log)
    t0 = time.perf_counter()
    out = cfg.out
    rule_sets = _redeal_rule_sets(cfg)
    folders = _dataset_folders([label for label, _ in rule_sets])
    _claim_outputs(cfg, [*folders, *_compare_folders(cfg)])
    earlier = _earlier_report(out)
    for folder in (out, out / "tables", out / "charts", out / "data"):
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            # the folder that failed, not --out: "rw/tables" when that is a file of the user's
            why = "a file is in the way" if e.errno == errno.EEXIST else e.strerror
            raise ThousandError(f"cannot create output directory {os.fspath(folder)!r}: {why}") from None
    from thousand.runner.store import claim_dir
    # One report at a time in a folder: two would mix their data (a page labelled with one
    # seed showing the other's thresholds).
    with claim_dir(out, "--out"):
        return _write_report(cfg, log, t0, rule_sets, folders, earlier)


def _write_report(cfg: ReportConfig, log: _Log, t0: float, rule_sets: list[tuple[str, Rules]],
                  folders: list[str], earlier: dict[str, Any]) -> ReportResult:
    """:func:`build_report` once its outputs are checked and its folder claimed
    (``folders``: each rule set's data folder, :func:`_dataset_folders`)."""
    out = cfg.out
    # Claim every name this report may write before writing any (a record an interrupted
    # run leaves behind, so that the rerun recognises its files); the finished report
    # replaces it with the list of what it wrote.
    _write_whole(out / "report.json", json.dumps({
        **earlier, "status": "running", "claimed": sorted(set(_report_files()) | _claimed(earlier)),
    }, indent=1) + "\n", encoding="utf-8")
    tables_dir, charts_dir = out / "tables", out / "charts"
    # A previous report in the same place must not leave tables or charts this run did not
    # make (_claim_outputs has checked that every such name there is a report's); anything
    # else in these folders is the user's and stays.
    # Only files an earlier report wrote or claimed go: a file of the user's that carries
    # one of the report's names and that this run does not write stays.
    for rel in _claimed(earlier) - set(REPORT_PAGES):
        path = out / rel
        if Path(rel).parent.name in ("tables", "charts", "") and path.is_file() and not path.is_symlink():
            path.unlink()
    # Computed data is kept only when it was made with this run's settings.
    for name, want in _play_keys(cfg).items():
        _keep_current(out / "data" / name, out / "data" / PLAY_RECORDS[name], want, log)
    try:
        forced_want = _forced_resume_key(cfg)
    except ImportError:  # a build without the thresholds module has no forced-declarer data to keep
        forced_want = None
    kept = _keep_current(out / "data" / FORCED_DATA, out / "data" / FORCED_KEY, forced_want, log)
    # The chunks of an interrupted forced-declarer run are continued only with the same key
    # (and are not needed once the whole file is there).
    parts = out / "data" / FORCED_PARTS
    from thousand.simulate import METADATA_FILE
    try:
        parts_kept = not kept and _same_forced_key(read_json(parts / METADATA_FILE, "report record",
                                                             MAX_RECORD_BYTES), cfg)
    except ThousandError:
        parts_kept = False
    if parts.exists() and not parts_kept:
        _remove_parts(parts)
    _remove_stale_datasets(out, [*folders, *_compare_folders(cfg)], log)
    tables: dict[str, Path] = {}
    figs: dict[str, Path] = {}
    data: dict[str, Path] = {}
    notes: list[str] = []

    # 1. Deal data for every rule set of the redeal section (the main one first).
    frames: dict[str, pl.LazyFrame] = {}
    played = True
    for (label, rules), folder in zip(rule_sets, folders):
        lf, was_played, path = _simulate_deals(rules, label, folder, cfg, log)
        frames[label] = lf
        played = played and was_played
        data[label] = path
    if not played:
        why = f" ({_KERNEL_PROBLEM[0]})" if _KERNEL_PROBLEM else ""
        notes.append(f"the kernel is not available{why}: dealt cards only, no play")

    # 2. Redeal frequencies and calls.
    log("redeal frequencies ...")
    # One pass over each dataset for its frequencies, redeal calls and overview.
    per_set = [pl.collect_all([redeal_frequencies(frames[label], rules, label)]
                              + ([redeal_calls(frames[label], rules, label), overview(frames[label], label)]
                                 if played else []))
               for label, rules in rule_sets]
    # A condition nobody could be checked for (four nines without any hand-off) has no row.
    freq = pl.concat([p[0] for p in per_set]).filter(pl.col("n") > 0)
    _write_table(freq, tables_dir / "redeal_frequencies.csv")
    tables["redeal_frequencies"] = tables_dir / "redeal_frequencies.csv"
    figs["redeal_frequencies"] = charts.redeal_frequency_chart(freq, charts_dir / "redeal_frequencies.png")
    calls_chart = None
    calls = pl.DataFrame()
    if played:
        calls = pl.concat([p[1] for p in per_set])
        _write_table(calls, tables_dir / "redeal_calls.csv")
        tables["redeal_calls"] = tables_dir / "redeal_calls.csv"
        calls_chart = figs["redeal_calls"] = charts.redeal_calls_chart(calls, charts_dir / "redeal_calls.png")

    blocks: list[Block] = [Block("h", "Thousand: simulation report", level=1)]
    main_label, main_rules = cfg.labels[0], cfg.rules[0]
    summary = [
        *_rule_set_lines(cfg, rule_sets),
        f"deals simulated per rule set: {cfg.deals:,}; seed {cfg.seed}; strategies: "
        f"{', '.join(cfg.strategies) if cfg.strategies else 'standard (every seat)'}",
        f"thousand {__version__}; data in `data/`, tables in `tables/`, charts in `charts/`",
    ]
    blocks += [Block("list", items=summary)]
    if not played:
        blocks.append(Block("note", "The compiled kernel was not available when this report ran: only the "
                                    "dealt cards were generated (uniform random deals), so every section that "
                                    "needs play is left out."))
    if played:
        ov = pl.concat([p[2] for p in per_set])
        _write_table(ov, tables_dir / "overview.csv")
        tables["overview"] = tables_dir / "overview.csv"
        blocks += _overview_blocks(ov)
        blocks += _unplayed_rule_notes(rule_sets, frames, bool(cfg.games and len(cfg.rules) > 1))
    blocks += _redeal_blocks(freq, calls, played, figs["redeal_frequencies"], calls_chart,
                             [label for label, rules in rule_sets if not uniform_deals(rules)])

    # 3. Marriages (needs play).
    if played:
        log(f"marriage statistics ({main_label}) ...")
        mt = marriage_tables(frames[main_label], main_rules)
        for name, frame in mt.items():
            _write_table(frame, tables_dir / f"{name}.csv")
            tables[name] = tables_dir / f"{name}.csv"
        played_deals, held = held_in_play(mt["marriages"])
        if held == 0:  # every role row and chart would be empty (n = 0): say why instead
            blocks += [Block("h", f"Marriages ({main_label})"), Block("note", (
                f"Too few deals: no player of the {_count(played_deals, 'played deal')} "
                "held a marriage, so there is nothing to show; run more deals (`--deals`). The marriage "
                "tables are still written (`tables/marriages.csv` and the other `tables/marriage_*.csv`)."))]
        else:
            figs["marriage_frequencies"] = charts.marriage_frequency_chart(
                mt["marriages"], charts_dir / "marriage_frequencies.png", main_rules)
            figs["marriage_value"] = charts.marriage_value_chart(mt["marriage_value"], charts_dir / "marriage_value.png")
            figs["marriage_points"] = charts.marriage_points_chart(mt["marriage_points"], mt["marriage_points_held"],
                                                                   charts_dir / "marriage_points.png",
                                                                   main_rules.players)
            blocks += _marriage_blocks(mt, main_label, figs, not uniform_deals(main_rules), main_rules.players)
    else:
        blocks += [Block("h", "Marriages"), Block("note", "Not computed: marriages are declared in play, and no play was simulated.")]

    # 4. How well the bots play (needs play).
    if played:
        b, t, f = _play_quality_section(cfg, log, tables_dir, charts_dir, notes)
        blocks += b
        tables.update(t)
        figs.update(f)
        if (out / "data" / PLAY_DATA).exists():
            data["play_quality"] = out / "data" / PLAY_DATA
        if (out / "data" / DEFENCE_DATA).exists():
            data["play_defence"] = out / "data" / DEFENCE_DATA

    # 5. Bidding thresholds.
    b, t, f = _threshold_section(cfg, log, tables_dir, charts_dir, notes)
    blocks += b
    tables.update(t)
    figs.update(f)
    if (out / "data" / "forced_hands.parquet").exists():
        data["forced_hands"] = out / "data" / "forced_hands.parquet"

    # 6. House-rule comparison.
    if len(cfg.rules) > 1:
        b, t, f = _compare_section(cfg, log, tables_dir, charts_dir, notes)
        blocks += b
        tables.update(t)
        figs.update(f)

    seconds = time.perf_counter() - t0
    blocks.append(Block("h", "How this report was made"))
    blocks.append(Block("p", f"Reproduce with `{reproduce_command(cfg)}` (any `--jobs`); it took {seconds:.0f} s. "
                             "Methods: see `docs/analysis.md`."))
    if notes:
        blocks.append(Block("list", items=[f"not shown: {n}" for n in notes]))
    text, page = _render(blocks, out)
    _write_whole(out / "report.md", text, encoding="utf-8")
    _write_whole(out / "report.html", page, encoding="utf-8")
    _write_whole(out / "report.json", json.dumps({
        "rules": cfg.labels, "deals": cfg.deals, "games": cfg.games, "seed": cfg.seed, "seconds": round(seconds, 1),
        "tables": {k: os.path.relpath(v, out) for k, v in tables.items()},
        "charts": {k: os.path.relpath(v, out) for k, v in figs.items()},
        "data": {k: os.path.relpath(v, out) for k, v in data.items()}, "notes": notes,
    }, indent=1) + "\n", encoding="utf-8")
    log(f"wrote {out / 'report.html'} ({len(tables)} tables, {len(figs)} charts) in {seconds:.0f} s")
    failed = [f"{n.section} ({n.error})" for n in notes if isinstance(n, Failure)]
    return ReportResult(out, out / "report.html", out / "report.md", tables, figs, data, notes, seconds, failed)
