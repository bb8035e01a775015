"""The load benchmark runs and reports well-formed figures (on a tiny load: no timing
is asserted here, the figures are for people to read)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def without_services() -> dict[str, str]:
    """This environment on the embedded default (what the benchmarks measure)."""
    leaves = {"DATABASE_URL", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    return {k: v for k, v in os.environ.items() if k not in leaves}


def run_bench(*args: str, env: dict[str, str], timeout: int = 300) -> str:
    """Run ``python -m bench...`` to its end; its output, once it has succeeded."""
    result = subprocess.run(
        [sys.executable, "-m", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


def tiny_load(out: Path, idle: int, env: dict[str, str]) -> dict:
    """Two 2-seat tables through short games, and ``idle`` sockets held then stormed;
    the report, once it has been checked for well-formed figures."""
    stdout = run_bench(
        "bench.load",
        "--rates",
        "20",
        "--seats",
        "2",
        "--upper-only",
        "--idle",
        str(idle),
        "--reconnect",
        str(idle // 2),
        "--json",
        str(out),
        env=env,
    )
    report = json.loads(out.read_text())
    load = report["loads"][0]
    for stack in ("project", "bare"):
        figures = load[stack]
        assert figures["actions"] == 2 * 6 * 2 * 3  # tables x rounds x seats x moves
        assert figures["refused"] == 0
        assert figures["lost_updates"] == 0 and figures["duplicated_updates"] == 0
        assert set(figures["update_to_others_ms"]) == {"count", "p50", "p95", "p99", "max"}
        assert figures["server_cpu_ms_per_action"] > 0
        assert figures["server_cpu_ms_per_action_by_5s"]  # a play of seconds: one window
        assert all(ms > 0 for ms in figures["server_cpu_ms_per_action_by_5s"])
    assert set(load["ratio"]) >= {
        "actions_per_s",
        "server_cpu_percent",
        "server_cpu_ms_per_action",
        "server_rss_mb",
        "response_ms_p95",
        "update_to_others_ms_max",
    }
    machine = report["machine"]
    assert machine["cpus"] == os.cpu_count() and 0 <= machine["steal_percent"] <= 100
    assert machine["python_speed_ms"] > 0
    assert "== machine:" in stdout and "== targets" in stdout
    assert re.search(r"cpu ms/action by 5 s of play: min [\d.]+, median [\d.]+, max [\d.]+", stdout)
    return report


@pytest.mark.slow
def test_the_benchmark_runs_a_tiny_load_and_writes_its_results(tmp_path: Path) -> None:
    # more sockets than a browser may open (20): the bench's, from one address and
    # without a session, are all counted as one browser's unless the bench lifts the cap
    report = tiny_load(tmp_path / "results.json", idle=40, env=without_services())

    assert report["loads"][0]["project"]["processes"] == 1
    connections = report["connections"]
    assert connections["idle_sockets"] == 40
    assert connections["reconnects_failed"] == 0 and connections["consumers_killed"] == 0
    assert len(connections["reconnect_resynced_p50_p90_s"]) == 2
    assert {check["target"] for check in report["targets"]} >= {"idle socket memory KB"}


def _figures(p50: float, p99: float, ms_per_action: float) -> dict:
    latencies = {"count": 10, "p50": p50, "p95": p99, "p99": p99, "max": p99}
    return {
        "lost_updates": 0,
        "duplicated_updates": 0,
        "update_to_others_ms": latencies,
        "response_ms": latencies,
        "server_cpu_ms_per_action": ms_per_action,
    }


def test_latencies_are_set_against_the_bare_stack_and_only_losses_are_judged(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A run prints each rate's p99 latencies beside the bare stack's of the same run,
    with their ratio, and judges what does not depend on the machine's speed: a slow
    hour's latencies miss nothing, a lost update does."""
    from bench import load

    report = {
        "loads": [
            {"rate": 100, "project": _figures(4.0, 9.0, 2.9), "bare": _figures(2.0, 3.0, 1.3)},
            {"rate": 250, "project": _figures(20.0, 900.0, 8.4), "bare": _figures(3.5, 100, 3.3)},
        ],
        "machine": {"cpus": 2, "steal_percent": 0.0, "python_speed_ms": 38.0},
    }
    report["loads"][1]["project"]["lost_updates"] = 1
    report["targets"] = load.targets(report)
    checks = {check["target"]: check for check in report["targets"]}

    assert checks["100/s lost+duplicated updates"]["ok"] is True
    assert checks["250/s lost+duplicated updates"]["ok"] is False
    assert not any("p99" in name or "p50" in name for name in checks)

    load.print_report(report)
    out = capsys.readouterr().out
    assert "100/s update to the others p99: site 9.0 ms, bare stack 3.0 ms (3.0x)" in out
    assert "250/s acting browser's response p99: site 900.0 ms, bare stack 100.0 ms (9.0x)" in out
    assert "MISS 250/s lost+duplicated updates: 1 (limit 0)" in out
    assert (
        "at 250/s one process has 4.00 ms of a core an action; "
        "the bare stack used 3.30 (82 %), the site 8.40"
    ) in out


def test_the_move_cost_benchmark_plays_real_moves_and_prints_its_figures() -> None:
    stdout = run_bench(
        "bench.movecost",
        "--games",
        "1",
        "--rounds",
        "2",
        "--moves",
        "9",
        env=without_services(),
        timeout=120,
    )

    assert re.fullmatch(
        r"9 moves a round, 2 rounds: CPU per move min [\d.]+ ms, median [\d.]+ ms\n", stdout
    )


def test_the_presence_cost_benchmark_counts_sockets_and_prints_its_figures() -> None:
    stdout = run_bench(
        "bench.presencecost", "--rounds", "1", "--sockets", "3", env=without_services(), timeout=120
    )

    assert re.fullmatch(
        r"sqlite: a player's socket arriving and leaving, median of 1 rounds of 3: unnamed"
        r" process [\d.]+ ms, named \(booked\) [\d.]+ ms\n",
        stdout,
    )


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_the_move_cost_benchmark_counts_instructions_under_callgrind() -> None:
    stdout = run_bench(
        "bench.movecost", "--instructions", "--moves", "3", env=without_services(), timeout=300
    )

    count = re.fullmatch(r"3 moves: ([\d.]+) M instructions a move\n", stdout)
    assert count and float(count.group(1)) > 1  # a move is millions, not nothing


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_the_server_cost_benchmark_counts_a_real_servers_instructions() -> None:
    stdout = run_bench(
        "bench.servercost",
        "--stack",
        "all",
        "--moves",
        "3",
        "--seats",
        "2",
        env=without_services(),
        timeout=900,
    )

    project, stock, bare, ratio, stock_ratio = re.fullmatch(
        r"project: ([\d.]+) M instructions a move\n"
        r"stock: ([\d.]+) M instructions a move\n"
        r"bare: ([\d.]+) M instructions a move\n"
        r"project/bare: ([\d.]+)\n"
        r"stock/bare: ([\d.]+)\n",
        stdout,
    ).groups()
    # a move is work on every stack: Django's on the stock one, the site's own on top
    assert float(project) > float(stock) > float(bare) > 0.1
    assert float(ratio) == pytest.approx(float(project) / float(bare), abs=0.01)
    assert float(stock_ratio) == pytest.approx(float(stock) / float(bare), abs=0.01)


def test_the_machine_figures_read_proc_stat_and_time_fixed_work() -> None:
    from bench import procstat

    stolen, total = procstat.machine_ticks()
    assert 0 <= stolen <= total
    assert procstat.steal_percent((10, 1000), (15, 1100)) == 5.0
    assert procstat.steal_percent((10, 1000), (10, 1000)) == 0.0  # no time passed
    assert procstat.python_speed_ms(rounds=1) > 0


def test_a_server_started_through_serve_refuses_another_app_or_a_wrapper() -> None:
    # serve execs daphne on the site itself: either would be silently left out.
    from bench.servers import Server

    with pytest.raises(ValueError):
        Server({}, wrapper=["valgrind"], through_serve=True)
    with pytest.raises(ValueError):
        Server({}, app="bench.bare:application", through_serve=True)
    assert Server({}, through_serve=True).through_serve
