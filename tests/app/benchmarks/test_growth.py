import pytest

from searchapp.benchmarks.growth import growth_report


def report(formulas: int, p50: float, p95: float, **more) -> dict:
    return {"formulas": formulas, "p50_ms": p50, "p95_ms": p95, "overlap_at_10": 0.98, "candidates_mean": 700.0,
            "index_bytes_per_formula": 2600, "all_bytes_per_formula": 2900, **more}


def test_a_power_law_is_found_again_with_its_exponent_and_prediction():
    sizes = [100_000, 300_000, 1_000_000, 3_000_000]
    found = growth_report([report(n, 2.0 * n ** 0.25, 3.0 * n ** 0.5) for n in sizes], 30_000_000, 2_000_000)
    assert found["fits"]["p50_ms"]["exponent"] == pytest.approx(0.25, abs=1e-3)
    assert found["fits"]["p95_ms"]["exponent"] == pytest.approx(0.5, abs=1e-3)
    predicted = found["predicted"]
    assert predicted["one_machine_p95_ms"] == pytest.approx(3.0 * 30_000_000 ** 0.5, rel=1e-3)
    assert predicted["per_shard_p50_ms"] == pytest.approx(2.0 * 2_000_000 ** 0.25, rel=1e-3)
    assert predicted["one_machine_p95_ms_range"] == [pytest.approx(predicted["one_machine_p95_ms"], rel=1e-3)] * 2
    assert predicted["shards"] == 15 and predicted["disk_gb"] == 87.0


def test_the_range_shows_how_much_the_prediction_leans_on_one_point():
    sizes = [100_000, 300_000, 1_000_000, 3_000_000]
    found = growth_report([report(n, 50.0, 100.0 if n < 3_000_000 else 200.0) for n in sizes], 30_000_000, 2_000_000)
    low, high = found["predicted"]["one_machine_p95_ms_range"]
    assert low == pytest.approx(100.0) and high > found["predicted"]["one_machine_p95_ms"] > low


def test_sizes_are_listed_smallest_first_with_their_stage_times():
    found = growth_report([report(1_000_000, 80, 110, stage_p50_ms={"first": 20.0}), report(100_000, 60, 90),
                           report(300_000, 70, 100)], 30_000_000, 2_000_000)
    assert [size["formulas"] for size in found["sizes"]] == [100_000, 300_000, 1_000_000]
    assert found["sizes"][2]["stage_p50_ms"] == {"first": 20.0} and "stage_p50_ms" not in found["sizes"][0]


def test_two_sizes_are_not_a_curve():
    with pytest.raises(ValueError, match="three sizes"):
        growth_report([report(100_000, 60, 90), report(100_000, 61, 91), report(300_000, 70, 100)], 30_000_000,
                      2_000_000)
