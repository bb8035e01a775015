"""The load benchmark: real tables on the real site, against the bare stack.

Starts the site with daphne (the embedded default; with DATABASE_URL and REDIS_URL
set, two processes on PostgreSQL and Redis), seats K browsers at each of N tables by
the invite link (real HTTP, sessions, CSRF), connects their WebSockets and plays whole
games at the chosen action rate. Then it does the same fan-out on the bare stack
(bench/bare.py), holds idle sockets open and storms reconnects. Prints the figures, each
latency with its ratio to the bare stack's, and the targets of docs/performance.md, and
writes them as JSON.

    make bench                      # or: .venv/bin/python -m bench.load --help
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import sys
import time
from pathlib import Path

from bench import procstat, scenarios
from bench.servers import ROOT, Server
from bench.stats import cpu_ms_per_action_by_window, summary_ms


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Load benchmark of real Yatzy tables.")
    parser.add_argument("--rates", default="100,250", help="actions/s to run, comma-separated")
    parser.add_argument("--tables-per-10", type=int, default=1, help="tables per 10 actions/s")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--ruleset", default="yatzy")
    parser.add_argument("--upper-only", action="store_true", help="short games (6 rounds)")
    parser.add_argument("--idle", type=int, default=4000, help="idle sockets to hold open")
    parser.add_argument("--reconnect", type=int, default=2000, help="sockets that reconnect")
    parser.add_argument("--json", default=str(ROOT / "var" / "bench-results.json"))
    return parser.parse_args(argv)


def site_servers(var_dir: str) -> list[Server]:
    # every table's browsers come from this one address, at rates no household makes:
    # no limits (bench.flood measures them); and its sockets, which have no session, are
    # counted by that address against the cap of sockets per browser: no cap either
    env = {
        "YATZY_VAR_DIR": var_dir,
        "LOG_LEVEL": "WARNING",
        "YATZY_LIMITS": "0",
        "YATZY_SOCKETS_PER_BROWSER": str(10**9),
    }
    scale_out = bool(os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL"))
    if not scale_out:
        return [Server(env)]
    # as Compose runs them: named, each booking the sockets it counts under its name
    return [Server({**env, "YATZY_PROCESS": f"web{n}"}, through_serve=True) for n in (1, 2)]


def progress(text: str) -> None:
    print(f"\r{text:<100}", end="", file=sys.stderr, flush=True)


async def run_load(args: argparse.Namespace, rate: float, var_dir: str) -> dict:
    tables = max(1, math.ceil(rate / 10) * args.tables_per_10)
    results: dict = {"rate": rate, "tables": tables, "seats": args.seats}
    for stack in ("project", "bare"):
        servers = (
            site_servers(var_dir)
            if stack == "project"
            else [Server({"LOG_LEVEL": "WARNING"}, app="bench.bare:application")]
        )
        for server in servers:
            server.start()
        try:
            cpu_before = [procstat.cpu_seconds(s.pid) for s in servers]
            started = time.perf_counter()
            counters = await scenarios.play_tables(
                stack, servers, tables, args.seats, rate, args.ruleset, args.upper_only, progress
            )
            elapsed = time.perf_counter() - started
            cpu = sum(
                procstat.cpu_seconds(s.pid) - b for s, b in zip(servers, cpu_before, strict=True)
            )
            results[stack] = {
                "processes": len(servers),
                "actions": counters.actions,
                # over the play itself: seating the tables (joins, sockets) is not play
                "actions_per_s": round(counters.actions / (counters.playing_seconds or elapsed), 1),
                "refused": counters.refused,
                "response_ms": summary_ms(counters.response),
                "update_to_others_ms": summary_ms(counters.others),
                "lost_updates": counters.lost,
                "duplicated_updates": counters.duplicated,
                "server_cpu_percent": round(100 * cpu / elapsed, 1),
                # what one action cost the server: the machine's speed shows in it
                "server_cpu_ms_per_action": round(1000 * cpu / max(1, counters.actions), 3),
                # the same in each 5 s of the play: did the machine slow down during it?
                "server_cpu_ms_per_action_by_5s": cpu_ms_per_action_by_window(counters.samples),
                "server_rss_mb": round(sum(procstat.rss_bytes(s.pid) for s in servers) / 2**20, 1),
            }
        finally:
            for server in servers:
                server.stop()
    results["ratio"] = _ratios(results["project"], results["bare"])
    return results


def _ratios(project: dict, bare: dict) -> dict[str, float]:
    """Every figure of the site as a multiple of the bare stack's (where the bare one is
    not zero): throughput, CPU and memory, and each latency percentile."""
    ratios = {}
    for metric in (
        "actions_per_s",
        "server_cpu_percent",
        "server_cpu_ms_per_action",
        "server_rss_mb",
    ):
        if bare[metric]:
            ratios[metric] = round(project[metric] / bare[metric], 2)
    for metric in ("response_ms", "update_to_others_ms"):
        for p in ("p50", "p95", "p99", "max"):
            if bare[metric][p]:
                ratios[f"{metric}_{p}"] = round(project[metric][p] / bare[metric][p], 2)
    return ratios


async def run_connections(args: argparse.Namespace, var_dir: str) -> dict:
    server = site_servers(var_dir)[0].start()  # one process, as the site starts it
    try:
        results = await scenarios.idle_and_reconnect(server, args.idle, args.reconnect, progress)
        # daphne cancels a socket's consumer still busy 10 s after the browser left
        # (its presence would then not be counted down)
        log = server.log_tail(size=10**8)
        results["consumers_killed"] = log.count("took too long to shut down")
        return results
    finally:
        server.stop()


def targets(report: dict) -> list[dict]:
    """What a run must show whatever the machine's speed: no update lost or duplicated
    at any rate, idle sockets small, a reconnect storm resynced in time. Latencies are
    not judged here: they swing with the machine from hour to hour, and are printed with
    their ratio to the bare stack of the same run (``latencies``)."""
    checks = []

    def check(name: str, value: float, limit: float) -> None:
        checks.append({"target": name, "value": value, "limit": limit, "ok": value <= limit})

    for load in report["loads"]:
        project = load["project"]
        check(
            f"{load['rate']:g}/s lost+duplicated updates",
            project["lost_updates"] + project["duplicated_updates"],
            0,
        )
    connections = report.get("connections")
    if connections:
        check("idle socket memory KB", connections["kb_per_idle_socket"], 40)
        check("reconnect storm resynced s", connections["reconnect_all_resynced_s"], 10)
        check("reconnects that failed", connections["reconnects_failed"], 0)
    return checks


# (what, figure): the latencies set against the bare stack at each rate
LATENCIES = (
    ("update to the others", "update_to_others_ms"),
    ("acting browser's response", "response_ms"),
)


def latencies(load: dict) -> list[str]:
    """Each p99 latency of a run at one rate, the site's beside the bare stack's, with
    their ratio: what the site adds to the stack it stands on, on this machine now."""
    lines = []
    for what, figure in LATENCIES:
        site, bare = load["project"][figure]["p99"], load["bare"][figure]["p99"]
        ratio = f"{site / bare:.1f}x" if bare else "n/a"
        lines.append(
            f"{load['rate']:g}/s {what} p99: site {site:.1f} ms, bare stack {bare:.1f} ms ({ratio})"
        )
    return lines


def print_load(load: dict) -> None:
    print(file=sys.stderr)
    print(f"== {load['rate']:g} actions/s, {load['tables']} tables x {load['seats']} seats")
    for stack in ("project", "bare"):
        r = load[stack]
        print(
            f"  {stack:8s} {r['actions_per_s']:7.1f} actions/s  "
            f"response p50/p95/p99/max {_ms(r['response_ms'])}  "
            f"others {_ms(r['update_to_others_ms'])}  "
            f"lost {r['lost_updates']} dup {r['duplicated_updates']} refused {r['refused']}  "
            f"cpu {r['server_cpu_percent']}% ({r['server_cpu_ms_per_action']:.2f} ms/action)  "
            f"rss {r['server_rss_mb']} MB"
        )
        if windows := sorted(r["server_cpu_ms_per_action_by_5s"]):
            print(
                f"  {'':8s} cpu ms/action by 5 s of play: min {windows[0]:.2f}, "
                f"median {windows[len(windows) // 2]:.2f}, max {windows[-1]:.2f}"
            )
    print(f"  project/bare: {load['ratio']}", flush=True)


def print_report(report: dict) -> None:
    print(file=sys.stderr)
    machine = report["machine"]
    print(
        f"== machine: {machine['cpus']} CPUs, {machine['steal_percent']}% of their time "
        f"stolen by other guests; python speed {machine['python_speed_ms']} ms "
        f"(a fixed piece of work, lower is faster; its range and what it means: "
        f"docs/performance.md)"
    )
    print("== latencies (p99, the site against the bare stack of the same run)")
    for load in report["loads"]:
        for line in latencies(load):
            print(f"  {line}")
    print("== targets")
    for check in report["targets"]:
        mark = "ok  " if check["ok"] else "MISS"
        print(f"  {mark} {check['target']}: {check['value']} (limit {check['limit']})")
    for load in report["loads"]:
        budget, bare = 1000 / load["rate"], load["bare"]["server_cpu_ms_per_action"]
        print(
            f"== at {load['rate']:g}/s one process has {budget:.2f} ms of a core an action; "
            f"the bare stack used {bare:.2f} ({100 * bare / budget:.0f} %), the site "
            f"{load['project']['server_cpu_ms_per_action']:.2f}"
        )


def _ms(summary: dict) -> str:
    return "/".join(f"{summary[p]:.1f}" for p in ("p50", "p95", "p99", "max")) + " ms"


async def main(argv: list[str] | None = None) -> dict:
    args = parse_args(argv)
    with scenarios.fresh_site("yatzy-bench-") as var_dir:
        report: dict = {"loads": []}
        speed = procstat.python_speed_ms()
        ticks = procstat.machine_ticks()
        for rate in [float(r) for r in args.rates.split(",") if r]:
            report["loads"].append(await run_load(args, rate, var_dir))
            print_load(report["loads"][-1])
        if args.idle:
            report["connections"] = await run_connections(args, var_dir)
            print(f"== connections: {report['connections']}", flush=True)
        report["machine"] = {
            "cpus": os.cpu_count(),
            "steal_percent": procstat.steal_percent(ticks, procstat.machine_ticks()),
            # before and after the run: the slower of the two
            "python_speed_ms": max(speed, procstat.python_speed_ms()),
        }
    report["targets"] = targets(report)
    print_report(report)
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    Path(args.json).write_text(json.dumps(report, indent=2))
    print(f"results written to {args.json}")
    return report


if __name__ == "__main__":
    asyncio.run(main())
