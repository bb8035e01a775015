"""Percentiles of latency samples, in milliseconds."""

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
