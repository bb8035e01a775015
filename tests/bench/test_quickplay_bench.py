"""The quick play and live list benchmarks run and print their figures (a short run: no timing is
asserted, the figures are for people to read; docs/performance.md)."""

from __future__ import annotations

import re

import pytest

from tests.bench.test_load_bench import run_bench, without_services

pytestmark = pytest.mark.slow


def test_the_quick_play_benchmark_seats_a_small_crowd_and_prints_its_figures() -> None:
    out = run_bench("bench.quickplay", "--people", "8", "--over", "2", env=without_services())

    assert "8 people pressing over 2 s, 1 server process(es)" in out
    assert "seated 8 at 4 tables; tables not of two: 0; not seated: 0" in out
    assert re.search(r"told of its table .*: p50 [\d.]+ ms, p99 [\d.]+ ms", out)
    assert re.search(r"CPU over the run: [\d.]+ s, [\d.]+ ms a pairing", out)
    assert "ok   everyone seated, in twos, nobody twice" in out


def test_the_watchers_benchmark_counts_lists_on_every_page_and_prints_its_figures() -> None:
    out = run_bench("bench.watchers", "--pages", "6", "--rounds", "2", env=without_services())

    assert "6 Watch pages, 1 server process(es), 2 rounds played" in out
    assert re.search(r"a round's end on every page's list: p50 [\d.]+ ms, max [\d.]+ ms", out)
    assert re.search(r"^(ok  |MISS) every list has a change within 1 s", out, re.M)


def test_the_watchers_benchmark_opens_and_fills_rooms_on_the_open_tables_list() -> None:
    out = run_bench(
        "bench.watchers",
        "--list",
        "tables",
        "--pages",
        "6",
        "--rounds",
        "2",
        env=without_services(),
    )

    assert "6 Open tables pages, 1 server process(es), 2 rooms opened and filled" in out
    assert re.search(r"a room opened on every page: p50 [\d.]+ ms, max [\d.]+ ms", out)
    assert re.search(r"a room filled gone from every page: p50 [\d.]+ ms, max [\d.]+ ms", out)
    assert re.search(r"^(ok  |MISS) every list has a change within 1 s", out, re.M)
