"""The flood benchmark runs and prints its figures (a short run: no timing is asserted,
the figures are for people to read; docs/performance.md)."""

from __future__ import annotations

import asyncio
import re

import pytest

from bench.flood import Flood
from bench.servers import Server
from tests.bench.test_load_bench import run_bench, without_services

pytestmark = pytest.mark.slow


def test_the_flood_benchmark_prints_each_phase_and_the_ratio() -> None:
    # short games (a phase of 36 moves, not 90): what is checked is what it prints
    out = run_bench(
        "bench.flood", "--rate", "15", "--clients", "2", "--upper-only", env=without_services()
    )

    for phase in ("quiet", "flood", "quiet again"):
        assert re.search(rf"^  {phase} +36 moves, refused 0, lost 0: p50 [\d.]+ ms", out, re.M)
    assert re.search(r"before the flood met its limit: [\d.]+ s \(302: \d+, 429: \d+\)", out)
    assert re.search(r"the flood while measured: [\d.]+ requests/s \(.*429: \d+", out)
    assert re.search(r"(ok  |MISS) another table's moves, p95 flooded / quiet .*: [\d.]+x", out)


def test_a_flood_whose_process_ends_says_so_instead_of_waiting_for_ever() -> None:
    """A flood that cannot reach its server (its clients fail at once) was waited for
    until someone pressed Ctrl-C."""
    nowhere = Server({})  # never started: nothing listens at its address
    flood = Flood([nowhere], 1)
    flood.start()

    with pytest.raises(RuntimeError, match=r"the flood's process ended \(exit code 1\)"):
        asyncio.run(asyncio.wait_for(flood.wait_limited(), 120))
    with pytest.raises(RuntimeError, match="the flood's process ended"):
        asyncio.run(asyncio.wait_for(flood.finish(), 120))
