"""The rankers page's chart: readable with few judged queries, where equal scores and scores of 1.0 are common."""
import re

from searchapp.web.history_svg import HEIGHT, LEFT, RIGHT, TOP, WIDTH, history_chart


def entry(dense: float, shipped: float | None, after: float) -> dict:
    before = {"dense": {"map_prime": dense}} | ({"shipped": {"map_prime": shipped}} if shipped is not None else {})
    return {"before": before, "after": {"map_prime": after}}


def points(svg: str) -> list[tuple[float, float, float]]:
    """(x, y, radius) of every plotted point (the legend's marks carry no <title>)."""
    return [tuple(map(float, found)) for found in
            re.findall(r'<circle cx="([\d.]+)" cy="([\d.]+)" r="(\d+)" fill="[^"]+"><title>', svg)]


def test_the_title_and_legend_sit_above_the_plot_so_a_perfect_score_is_not_hidden():
    svg = history_chart([entry(1.0, 1.0, 1.0), entry(0.5, 0.6, 0.7)], "map_prime", "MAP′")
    assert ">MAP′ per training</text>" in svg
    legend_baselines = [float(y) for y in re.findall(r'<text x="[\d.]+" y="([\d.]+)" font-size="10" fill=', svg)]
    assert len(legend_baselines) == 3 and max(legend_baselines) < TOP
    assert min(y for _, y, _ in points(svg)) == TOP  # a score of 1.0 is drawn at the plot's top, below the legend


def test_equal_scores_show_as_nested_marks_each_series_narrower():
    plotted = points(history_chart([entry(0.8, 0.8, 0.8)], "map_prime", "MAP′"))
    assert len({(x, y) for x, y, _ in plotted}) == 1 and sorted(r for _, _, r in plotted) == [3, 4, 5]


def test_trainings_are_numbered_oldest_first_and_a_lone_one_is_centred():
    lone = history_chart([entry(0.5, None, 0.6)], "map_prime", "MAP′")
    assert {x for x, _, _ in points(lone)} == {(LEFT + WIDTH - RIGHT) / 2}
    assert "shipped ranker" not in lone  # no shipped ranker was measured: no series, no legend entry
    three = history_chart([entry(0.5, None, 0.6)] * 3, "map_prime", "MAP′")
    numbers = re.findall(rf'y="{HEIGHT - 8}" font-size="10" text-anchor="middle">(\d+)</text>', three)
    assert numbers == ["1", "2", "3"]


def test_labels_are_escaped_and_no_history_draws_nothing():
    assert "<b>" not in history_chart([entry(0.5, 0.5, 0.5)], "map_prime", "<b>MAP</b>")
    assert history_chart([], "map_prime", "MAP′") == ""
