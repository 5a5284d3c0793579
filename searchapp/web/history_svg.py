"""A small server-rendered line chart of a corpus ranker's trainings: a metric before and after each one."""
from __future__ import annotations

from html import escape

from django.utils.safestring import SafeString, mark_safe

WIDTH, HEIGHT, MARGIN = 420, 160, 28
SERIES = (("dense fusion", ("before", "dense"), "#8c959f"), ("shipped ranker", ("before", "shipped"), "#bf8700"),
          ("corpus ranker (cross-validated)", ("after",), "#0969da"))


def history_chart(history: list[dict], metric: str, label: str) -> SafeString:
    """`metric` of each training's "before" and "after" scores, oldest first, on a 0–1 scale."""
    if not history:
        return mark_safe("")
    step = (WIDTH - 2 * MARGIN) / max(len(history) - 1, 1)
    parts = [f'<svg class="history-chart" role="img" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}">'
             f"<title>{escape(label)} per training</title>",
             f'<line x1="{MARGIN}" y1="{_y(0)}" x2="{WIDTH - MARGIN}" y2="{_y(0)}" stroke="#d0d7de"/>',
             f'<line x1="{MARGIN}" y1="{_y(1)}" x2="{WIDTH - MARGIN}" y2="{_y(1)}" stroke="#d0d7de" stroke-dasharray="3"/>',
             f'<text x="2" y="{_y(1) + 4}" font-size="10">1</text><text x="2" y="{_y(0) + 4}" font-size="10">0</text>']
    for row, (name, path, colour) in enumerate(SERIES):
        points = [(MARGIN + i * step, value) for i, entry in enumerate(history)
                  if (value := _lookup(entry, path, metric)) is not None]
        if not points:
            continue
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="'
                     + " ".join(f"{x:.1f},{_y(v):.1f}" for x, v in points) + '"/>')
        parts += [f'<circle cx="{x:.1f}" cy="{_y(v):.1f}" r="3" fill="{colour}"><title>{escape(name)}: {v:.3f}</title>'
                  "</circle>" for x, v in points]
        parts.append(f'<text x="{MARGIN + 4}" y="{14 + 12 * row}" font-size="10" fill="{colour}">{escape(name)}</text>')
    return mark_safe("".join(parts) + "</svg>")  # every text above is escaped


def _y(value: float) -> float:
    return HEIGHT - MARGIN - value * (HEIGHT - 2 * MARGIN)


def _lookup(entry: dict, path: tuple[str, ...], metric: str) -> float | None:
    for key in path:
        entry = entry.get(key) if isinstance(entry, dict) else None
    value = entry.get(metric) if isinstance(entry, dict) else None
    return float(value) if isinstance(value, int | float) else None
