"""The growth curve: `bench_search --json` reports at several sizes, one power law fitted per latency, and what they
predict for a larger index, searched whole on one machine or as shards searched side by side (docs/scaling.md).

A power law, t = a·Nᵇ, is a straight line in log–log: its exponent says how much of a query's time grows with the
index (0 for none, 1 for all of it). Four sizes fit it with two parameters, so the prediction comes with the range of
the fits that leave one size out: how much the extrapolation leans on any single point.
"""
from __future__ import annotations

import numpy as np

LATENCIES = ("p50_ms", "p95_ms")
SHOWN = ("formulas", "p50_ms", "p95_ms", "overlap_at_10", "candidates_mean", "index_bytes_per_formula",
         "all_bytes_per_formula", "codebook_centroids", "index_formulas_per_s", "load_average")


def growth_report(reports: list[dict], predict: int, shard: int) -> dict:
    """The sizes' figures side by side, the fitted exponents, and the predicted latencies at `predict` formulas on
    one machine and at `shard` formulas (each of predict / shard shards, searched in parallel, answers as one of
    that size does; merging their top lists is not counted)."""
    if len({report["formulas"] for report in reports}) < 3:
        raise ValueError("a curve needs reports at three sizes or more")
    points = sorted(reports, key=lambda report: report["formulas"])
    sizes = np.array([point["formulas"] for point in points], dtype=float)
    fits = {name: _power_law(sizes, np.array([point[name] for point in points], dtype=float), [predict, shard])
            for name in LATENCIES}
    bytes_per_formula = max(point["all_bytes_per_formula"] for point in points)
    return {
        "sizes": [{name: point[name] for name in SHOWN if name in point} | _stages(point) for point in points],
        "fits": {name: {"a": fit["a"], "exponent": fit["exponent"]} for name, fit in fits.items()},
        "predicted": {
            "formulas": predict, "shard_formulas": shard, "shards": -(-predict // shard),
            **{f"one_machine_{name}": fit["at"][0] for name, fit in fits.items()},
            **{f"one_machine_{name}_range": fit["range"][0] for name, fit in fits.items()},
            **{f"per_shard_{name}": fit["at"][1] for name, fit in fits.items()},
            **{f"per_shard_{name}_range": fit["range"][1] for name, fit in fits.items()},
            "disk_gb": round(bytes_per_formula * predict / 1e9, 1),
        },
    }


def _power_law(sizes: np.ndarray, values: np.ndarray, at: list[int]) -> dict:
    """a·Nᵇ by least squares in log–log, its values `at` those sizes, and for each the lowest and highest value of
    the fits that leave one point out."""
    exponent, log_a = np.polyfit(np.log(sizes), np.log(values), 1)
    leave_one_out = [np.polyfit(np.log(np.delete(sizes, i)), np.log(np.delete(values, i)), 1)
                     for i in range(len(sizes))]
    predicted = [float(np.exp(log_a) * size ** exponent) for size in at]
    ranges = [[float(np.exp(b) * size ** e) for e, b in leave_one_out] for size in at]
    return {"a": float(np.exp(log_a)), "exponent": round(float(exponent), 3),
            "at": [round(value, 1) for value in predicted],
            "range": [[round(min(values), 1), round(max(values), 1)] for values in ranges]}


def _stages(point: dict) -> dict:
    """The median milliseconds of each stage of a query, when the report has them."""
    return {"stage_p50_ms": point["stage_p50_ms"]} if "stage_p50_ms" in point else {}
