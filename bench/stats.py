"""Percentiles of latency samples, in milliseconds; the servers' CPU per action over a run."""

from __future__ import annotations


def percentile(sorted_values: list[float], fraction: float) -> float:
    if not sorted_values:
        return float("nan")
    index = min(len(sorted_values) - 1, max(0, round(fraction * (len(sorted_values) - 1))))
    return sorted_values[index]


def summary_ms(seconds: list[float]) -> dict[str, float]:
    values = sorted(1000 * s for s in seconds)
    return {
        "count": len(values),
        "p50": round(percentile(values, 0.50), 3),
        "p95": round(percentile(values, 0.95), 3),
        "p99": round(percentile(values, 0.99), 3),
        "max": round(values[-1], 3) if values else float("nan"),
    }


Sample = tuple[float, int, float]  # seconds since the play began, actions, CPU seconds


def cpu_ms_per_action(earlier: Sample, later: Sample) -> float:
    """The servers' CPU per action (ms) between two samples that ``later`` has more
    actions than."""
    return 1000 * (later[2] - earlier[2]) / (later[1] - earlier[1])


def cpu_ms_per_action_by_window(samples: list[Sample], window: float = 5.0) -> list[float]:
    """The servers' CPU per action (ms) in each ``window`` seconds of a run, from samples
    taken since its start. A window ends at the first sample ``window`` seconds after it
    began; what is left at the end counts if it holds an action."""
    figures = []
    start: Sample = (0.0, 0, 0.0)
    for sample in samples:
        if sample[0] - start[0] >= window or sample is samples[-1]:
            if sample[1] > start[1]:
                figures.append(round(cpu_ms_per_action(start, sample), 3))
            start = sample
    return figures
