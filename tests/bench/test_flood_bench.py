"""The flood benchmark runs and prints its figures (a short run: no timing is asserted,
the figures are for people to read; docs/performance.md)."""

from __future__ import annotations

import re

import pytest

from tests.bench.test_load_bench import run_bench, without_services

pytestmark = pytest.mark.slow


def test_the_flood_benchmark_prints_each_phase_and_the_ratio() -> None:
    out = run_bench("bench.flood", "--rate", "60", "--clients", "2", env=without_services())

    for phase in ("quiet", "flood", "quiet again"):
        assert re.search(rf"^  {phase} +90 moves, refused 0, lost 0: p50 [\d.]+ ms", out, re.M)
    assert re.search(r"before the flood met its limit: [\d.]+ s \(302: \d+, 429: \d+\)", out)
    assert re.search(r"the flood while measured: [\d.]+ requests/s \(.*429: \d+", out)
    assert re.search(r"(ok  |MISS) another table's moves, p95 flooded / quiet .*: [\d.]+x", out)
