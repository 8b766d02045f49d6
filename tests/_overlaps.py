"""Find text that overlaps other text, or leaves the figure, in a matplotlib figure."""
from __future__ import annotations

from itertools import combinations


def _texts(fig):
    """Every visible, non-empty text artist of ``fig`` with a name for messages."""
    out, seen = [], set()

    def add(t, where):
        if t is not None and id(t) not in seen and t.get_visible() and t.get_text().strip():
            seen.add(id(t))
            out.append((f"{where}: {t.get_text()!r}", t))
    if fig._suptitle is not None:
        add(fig._suptitle, "suptitle")
    for t in fig.texts:
        add(t, "figure text")
    for leg in fig.legends:
        for t in leg.get_texts():
            add(t, "figure legend")
    for k, ax in enumerate(fig.axes):
        if not ax.get_visible():
            continue
        for t in (ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label):
            add(t, f"axes {k}")
        for t in ax.texts:
            add(t, f"axes {k} text")
        for axis in (ax.xaxis, ax.yaxis):   # only the ticks drawn: those inside the view limits
            for tick in axis._update_ticks():
                for t in (tick.label1, tick.label2):
                    add(t, f"axes {k} tick")
        leg = ax.get_legend()
        if leg is not None:
            for t in leg.get_texts():
                add(t, f"axes {k} legend")
    return out


def overlapping_texts(fig, tolerance: float = 1.0) -> list[str]:
    """Pairs of texts whose boxes overlap by more than ``tolerance`` pixels each way, and
    texts that stick out of the figure; empty when the figure is clean."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    boxes = [(name, t.get_window_extent(renderer)) for name, t in _texts(fig)]
    fb = fig.bbox
    problems = []
    for name, b in boxes:
        if b.x0 < fb.x0 - tolerance or b.y0 < fb.y0 - tolerance or b.x1 > fb.x1 + tolerance or b.y1 > fb.y1 + tolerance:
            problems.append(f"outside the figure: {name}")
    for (n1, b1), (n2, b2) in combinations(boxes, 2):
        w = min(b1.x1, b2.x1) - max(b1.x0, b2.x0)
        h = min(b1.y1, b2.y1) - max(b1.y0, b2.y0)
        if w > tolerance and h > tolerance:
            problems.append(f"overlap: {n1} / {n2}")
    return problems
