"""The benchmark's arithmetic: percentiles, and the servers' CPU per action by window."""

from __future__ import annotations

from bench.stats import cpu_ms_per_action_by_window, summary_ms


def test_the_summary_gives_percentiles_in_milliseconds() -> None:
    summary = summary_ms([i / 1000 for i in range(1, 101)])  # 1..100 ms

    assert summary == {"count": 100, "p50": 51.0, "p95": 95.0, "p99": 99.0, "max": 100.0}


def test_cpu_per_action_is_worked_out_per_window_of_the_run() -> None:
    # a sample a second: 100 actions a second, at 0.3 s of CPU a second for five
    # seconds, then at 0.4 s (the machine slowed): 3 then 4 ms an action
    samples = [(t, 100 * t, 0.3 * t) for t in range(1, 6)]
    samples += [(t, 100 * t, 1.5 + 0.4 * (t - 5)) for t in range(6, 11)]

    assert cpu_ms_per_action_by_window(samples) == [3.0, 4.0]


def test_the_last_window_counts_when_it_is_short_but_a_window_without_actions_does_not() -> None:
    samples = [(1.0, 10, 0.02), (2.0, 20, 0.04), (3.0, 20, 0.05)]

    assert cpu_ms_per_action_by_window(samples, window=2.0) == [2.0]
    assert cpu_ms_per_action_by_window([(1.0, 10, 0.05)]) == [5.0]
    assert cpu_ms_per_action_by_window([]) == []
