"""A small server-rendered line chart of a corpus ranker's trainings: a metric before and after each one.

The title and the legend sit above the plot, so no point hides under them (scores of 1.0 are common with few
judged queries), and each training is numbered on the x axis as in the table's rows, oldest first.
"""
from __future__ import annotations

from html import escape

from django.utils.safestring import SafeString, mark_safe

WIDTH, HEIGHT = 420, 200
LEFT, RIGHT, TOP, BOTTOM = 34, 16, 50, 26
"""The plot's margins: the title and legend above it, the y ticks left of it, the training numbers below it."""
Y_TICKS = (0.0, 0.5, 1.0)
SERIES = (("dense fusion", ("before", "dense"), "#8c959f", 5), ("shipped ranker", ("before", "shipped"), "#bf8700", 4),
          ("corpus ranker (cross-validated)", ("after",), "#0969da", 3))
"""Name, where its score is in a training's entry, colour, and the radius of its points: each series is drawn
narrower than the one before, so equal scores (common) show as nested marks instead of hiding each other."""
LEGEND_X = (LEFT, LEFT + 90, LEFT + 190)
"""Where each series' legend entry starts."""


def history_chart(history: list[dict], metric: str, label: str) -> SafeString:
    """`metric` of each training's "before" and "after" scores, oldest first, on a 0–1 scale."""
    if not history:
        return mark_safe("")
    xs = _xs(len(history))
    parts = [f'<svg class="history-chart" role="img" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}">'
             f"<title>{escape(label)} per training</title>",
             f'<text x="{LEFT}" y="14" font-size="12" font-weight="bold">{escape(label)} per training</text>']
    for tick in Y_TICKS:
        dash = "" if tick == 0 else ' stroke-dasharray="3"'
        parts.append(f'<line x1="{LEFT}" y1="{_y(tick):.1f}" x2="{WIDTH - RIGHT}" y2="{_y(tick):.1f}" '
                     f'stroke="#d0d7de"{dash}/>'
                     f'<text x="{LEFT - 6}" y="{_y(tick) + 4:.1f}" font-size="10" text-anchor="end">{tick:g}</text>')
    parts += [f'<text x="{x:.1f}" y="{HEIGHT - 8}" font-size="10" text-anchor="middle">{number}</text>'
              for number, x in enumerate(xs, start=1)]
    for (name, path, colour, radius), legend_x in zip(SERIES, LEGEND_X):
        points = [(x, value) for x, entry in zip(xs, history) if (value := _lookup(entry, path, metric)) is not None]
        if not points:
            continue
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="{radius - 1}" points="'
                     + " ".join(f"{x:.1f},{_y(v):.1f}" for x, v in points) + '"/>')
        parts += [f'<circle cx="{x:.1f}" cy="{_y(v):.1f}" r="{radius}" fill="{colour}"><title>{escape(name)}: {v:.3f}</title>'
                  "</circle>" for x, v in points]
        parts.append(f'<circle cx="{legend_x + 4}" cy="31" r="3" fill="{colour}"/>'
                     f'<text x="{legend_x + 11}" y="34" font-size="10" fill="{colour}">{escape(name)}</text>')
    return mark_safe("".join(parts) + "</svg>")  # every text above is escaped


def _xs(count: int) -> list[float]:
    """Each training's x, spread over the plot's width; a lone training in its middle."""
    if count == 1:
        return [(LEFT + WIDTH - RIGHT) / 2]
    step = (WIDTH - LEFT - RIGHT - 20) / (count - 1)
    return [LEFT + 10 + i * step for i in range(count)]


def _y(value: float) -> float:
    return HEIGHT - BOTTOM - value * (HEIGHT - TOP - BOTTOM)


def _lookup(entry: dict, path: tuple[str, ...], metric: str) -> float | None:
    found: object = entry
    for key in path:
        found = found.get(key) if isinstance(found, dict) else None
    value = found.get(metric) if isinstance(found, dict) else None
    return float(value) if isinstance(value, int | float) else None
