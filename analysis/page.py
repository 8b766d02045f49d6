"""The report's HTML page: its Markdown rendered by markdown-it-py into a Jinja2 template.

The report is written once, as Markdown (``report.md``); this module turns that text
into one self-contained HTML page (``report.html``): every chart embedded as a
``data:`` URI, the style sheet inline, nothing fetched from elsewhere, so the page reads
the same offline and mailed as one file.

* **Markdown** (CommonMark with tables) is parsed by `markdown-it-py
  <https://markdown-it-py.readthedocs.io>`_; raw HTML in it is not passed through.  An
  image ``![alt](charts/x.png)`` is read from disk (relative to the report's folder)
  and embedded; a missing file shows as ``[figure charts/x.png]``.
* **The page** is ``templates/report.html.j2`` (with ``report.css``), a `Jinja2
  <https://jinja.palletsprojects.com>`_ template with autoescaping.  It gets the title,
  what comes before the first ``##`` heading (the header), and one :class:`Section`
  per ``##`` heading: the navigation bar links to each by its ``id``.

A new section of the report needs nothing here: it adds its blocks (a ``##`` heading
first) to the report's Markdown, and the page picks it up (``docs/analysis.md``, "Adding
a section").
"""
from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from markdown_it import MarkdownIt
from markupsafe import Markup, escape

__all__ = ["Section", "markdown_to_html", "render_page", "slug"]

TEMPLATES = Path(__file__).with_name("templates")
_MIME = {".png": "image/png", ".svg": "image/svg+xml", ".jpg": "image/jpeg", ".jpeg": "image/jpeg"}


@dataclass(frozen=True)
class Section:
    """One ``##`` section of the page: its anchor, its title (plain text) and its HTML."""

    id: str
    title: str
    html: Markup


def slug(text: str) -> str:
    """An anchor for a heading: lower case, runs of other characters as ``-``.

    >>> slug("Marriages (classic)")
    'marriages-classic'
    """
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"


def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False}).enable("table")

    def image(renderer: Any, tokens: list[Any], idx: int, options: Any, env: dict[str, Any]) -> str:
        token = tokens[idx]
        src = token.attrGet("src") or ""
        alt = md.renderer.renderInlineAsText(token.children or [], options, env)
        base = env.get("base")
        path = (Path(base) / src) if base is not None and not re.match(r"^[a-z]+:", src) else None
        esc = escape
        if path is None or not path.is_file():
            return f"[figure {esc(src)}]"
        data = base64.b64encode(path.read_bytes()).decode("ascii")
        mime = _MIME.get(path.suffix.lower(), "application/octet-stream")
        return f'<img class="chart" alt="{esc(alt)}" src="data:{mime};base64,{data}"/>'

    md.add_render_rule("image", image)
    return md


def _sections(md: MarkdownIt, text: str, base: Path | None) -> tuple[Markup, list[Section]]:
    """The HTML before the first ``##`` heading, and one :class:`Section` per ``##`` heading."""
    env: dict[str, Any] = {"base": base}
    tokens = md.parse(text, env)
    starts = [i for i, t in enumerate(tokens) if t.type == "heading_open" and t.tag == "h2" and t.level == 0]
    head = Markup(md.renderer.render(tokens[:starts[0]] if starts else tokens, md.options, env))
    sections: list[Section] = []
    seen: dict[str, int] = {}
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(tokens)
        inline = tokens[start + 1]
        title = md.renderer.renderInlineAsText(inline.children or [], md.options, env)
        anchor = slug(title)
        seen[anchor] = seen.get(anchor, 0) + 1
        if seen[anchor] > 1:   # two sections of the same title still get their own anchors
            anchor = f"{anchor}-{seen[anchor]}"
        html = md.renderer.render(tokens[start:end], md.options, env)
        sections.append(Section(anchor, title, Markup(html)))
    return head, sections


def markdown_to_html(text: str, base: Path | str | None = None) -> str:
    """``text`` (CommonMark with tables) as an HTML fragment; images under ``base`` embedded.

    >>> print(markdown_to_html("Some `code` and **bold**.\\n\\n| a | b |\\n|---|---|\\n| 1 | 2 |"))
    <p>Some <code>code</code> and <strong>bold</strong>.</p>
    <table>
    <thead>
    <tr>
    <th>a</th>
    <th>b</th>
    </tr>
    </thead>
    <tbody>
    <tr>
    <td>1</td>
    <td>2</td>
    </tr>
    </tbody>
    </table>
    <BLANKLINE>
    """
    md = _parser()
    return md.render(text, {"base": None if base is None else Path(base)})


def _environment() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                              undefined=jinja2.StrictUndefined, keep_trailing_newline=True)


def render_page(text: str, base: Path | str, title: str, template: str = "report.html.j2") -> str:
    """The whole page for the report Markdown ``text`` (charts read relative to ``base``)."""
    head, sections = _sections(_parser(), text, Path(base))
    return _environment().get_template(template).render(title=title, head=head, sections=sections)
