"""Where one search's time goes: milliseconds per stage, in the order the stages ran. The benchmarks report their
medians beside the latency (`bench_search`), so a curve over index sizes shows which stage grows."""
import time


class Stopwatch:
    def __init__(self) -> None:
        self.ms: dict[str, float] = {}
        self._last = time.perf_counter()

    def lap(self, stage: str) -> None:
        """The time since the last lap (or the start) goes to `stage`."""
        now = time.perf_counter()
        self.ms[stage] = self.ms.get(stage, 0.0) + (now - self._last) * 1000
        self._last = now
