from searchapp.search import stages
from searchapp.search.stages import Stopwatch


def test_each_lap_goes_to_its_stage_and_a_stage_run_twice_adds_up(monkeypatch):
    clock = iter([10.0, 10.5, 10.75, 11.0])
    monkeypatch.setattr(stages.time, "perf_counter", lambda: next(clock))
    watch = Stopwatch()
    watch.lap("first")
    watch.lap("second")
    watch.lap("first")
    assert watch.ms == {"first": 750.0, "second": 250.0}
