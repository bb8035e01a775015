"""A flood of new games against one table's moves: do the limits hold the line?

Starts the site as ``make run`` serves it (one daphne, the embedded default; with
DATABASE_URL and REDIS_URL, two named processes on PostgreSQL and Redis), seats two
browsers at each of three tables by the invite link, and plays one table's moves at a
steady rate three times: alone, while ``--clients`` clients create games as fast as
the server answers them (each dropping its session cookie after every answer, as a
client dodging the per-browser limit would; all from this machine's one address, in
a process of their own),
and alone again. The flooded phase starts once the flood has met its limit (its first
429): the games the limit allows before that are a burst that honest traffic could
also make; how long it took is printed beside the figures. Prints each phase's move
latencies and the ratio of the flooded p95 to the quiet one (both quiet phases' moves
together, the machine's drift during the run evened out; the target: 2x at most),
and what the flood got: games made, 429s. ``--limits off`` runs the same with the
site's limits lifted, for the figure the limits are there to prevent.

    .venv/bin/python -m bench.flood            # --help for the knobs
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import queue
import sys
import time

from bench import scenarios
from bench.clients import BROWSER_HEADERS, Counters, RateLimiter
from bench.http import HttpSession
from bench.servers import Server
from bench.stats import summary_ms

TARGET_RATIO = 2.0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="A flood of new games against a table.")
    parser.add_argument("--clients", type=int, default=4, help="clients creating games")
    parser.add_argument("--rate", type=float, default=10, help="the table's moves a second")
    parser.add_argument("--limits", choices=("on", "off"), default="on")
    parser.add_argument("--upper-only", action="store_true", help="short games (6 rounds)")
    return parser.parse_args(argv)


def site_servers(var_dir: str, limits: str) -> list[Server]:
    env = {"YATZY_VAR_DIR": var_dir, "LOG_LEVEL": "WARNING", "YATZY_TIDY_EVERY_S": "0"}
    env["YATZY_LIMITS"] = "1" if limits == "on" else "0"
    if not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")):
        return [Server(env)]
    return [Server({**env, "YATZY_PROCESS": f"web{n}"}, through_serve=True) for n in (1, 2)]


class Flood:
    """``clients`` clients posting the New game form back to back until stopped, in a
    process of their own: in the process that plays and times the table, a flood
    answered faster kept that process's own loop busier, and the table's moves were
    timed slower for the client's work, not the server's."""

    def __init__(self, servers: list[Server], clients: int) -> None:
        self.urls = [servers[n % len(servers)].url for n in range(clients)]
        context = multiprocessing.get_context("spawn")
        self.stop = context.Event()
        self.limited = context.Event()  # set at the first 429: the flood meets its limit
        self.results = context.Queue()
        self.process = context.Process(
            target=flood_process, args=(self.urls, self.stop, self.limited, self.results)
        )

    def start(self) -> None:
        self.process.start()

    async def wait_limited(self) -> None:
        """Until the flood meets its limit; an error if its process ends first (say a
        server it cannot reach: the traceback is on stderr), instead of waiting for
        ever."""
        while not await asyncio.to_thread(self.limited.wait, 1.0):
            self.check_alive()

    async def finish(self) -> tuple[dict[int, int], dict[int, int]]:
        """The answers the flood got: before its first 429, and in all."""
        self.stop.set()
        while True:
            try:
                burst, statuses = await asyncio.to_thread(self.results.get, True, 1.0)
            except queue.Empty:
                if not self.process.is_alive() and self.results.empty():
                    self.check_alive()
                continue
            break
        await asyncio.to_thread(self.process.join)
        return burst, statuses

    def check_alive(self) -> None:
        if not self.process.is_alive():
            raise RuntimeError(
                f"the flood's process ended (exit code {self.process.exitcode}) before its"
                " answers came: its traceback is above"
            )


def flood_process(urls: list[str], stop, limited, results) -> None:
    statuses: dict[int, int] = {}
    burst: dict[int, int] = {}

    async def client(session: HttpSession) -> None:
        await session.get("/")  # the CSRF cookie, as a page's form has it
        token = session.cookies["csrftoken"]
        form = {"name": "Flood", "ruleset": "yatzy", "players": "", "invites": "1"}
        form |= {"teams": "0", "upper_bonus": "50", "csrfmiddlewaretoken": token}
        headers = {"Origin": session.base_url, "Referer": session.base_url + "/"}
        while not stop.is_set():
            answer = await session.post("/games/new/", form, {**headers, **BROWSER_HEADERS})
            statuses[answer.status_code] = statuses.get(answer.status_code, 0) + 1
            if answer.status_code == 429 and not limited.is_set():
                burst.update(statuses)
                limited.set()
            session.cookies = {"csrftoken": token}  # a new browser every time

    async def flood() -> None:
        sessions = [HttpSession(url) for url in urls]
        await asyncio.gather(*(client(session) for session in sessions))
        await asyncio.gather(*(session.aclose() for session in sessions))

    asyncio.run(flood())
    results.put((burst, statuses))


async def play_phase(table: tuple, rate: float) -> Counters:
    code, browsers, version, categories = table
    counters = Counters()
    await scenarios.play(
        "project",
        code,
        browsers,
        version,
        scenarios.moves(len(browsers), categories),
        counters,
        RateLimiter(rate),
    )
    closed = sorted({b.closed_by_server for b in browsers if b.closed_by_server is not None})
    if closed:
        raise RuntimeError(
            f"the server closed a table's socket (code {closed}) at {rate:g} moves/s: 4408"
            " is a page that reads too slowly (games/readers.py), which a page answering"
            " twice a second is at this rate; play the table slower (--rate)"
        )
    return counters


async def run(args: argparse.Namespace, var_dir: str) -> dict:
    servers = site_servers(var_dir, args.limits)
    for server in servers:
        server.start()
    try:
        tables = [
            await scenarios.seat_table("project", servers, n, 2, "yatzy", args.upper_only)
            for n in range(4)
        ]
        print("[warm-up] a table played, not measured", file=sys.stderr)
        await play_phase(tables.pop(), args.rate * 2)
        phases: dict[str, dict] = {}
        responses: dict[str, list[float]] = {}
        burst: dict = {"seconds": 0.0, "answers": {}}
        statuses: dict[int, int] = {}
        flood = Flood(servers, args.clients)
        for phase, table in zip(("quiet", "flood", "quiet again"), tables, strict=True):
            print(f"[{phase}] playing a table at {args.rate:g} moves/s", file=sys.stderr)
            if phase == "flood":
                flood.start()
                if args.limits == "on":  # measured once the flood meets its limit
                    burst_started = time.perf_counter()
                    await flood.wait_limited()
                    burst["seconds"] = round(time.perf_counter() - burst_started, 1)
            started = time.perf_counter()
            counters = await play_phase(table, args.rate)
            seconds = time.perf_counter() - started
            if phase == "flood":
                burst["answers"], statuses = await flood.finish()
            responses[phase] = counters.response
            phases[phase] = {
                "moves": counters.actions,
                "refused": counters.refused,
                "lost": counters.lost,
                "response_ms": summary_ms(counters.response),
                "seconds": round(seconds, 1),
            }
        for _code, browsers, _version, _categories in tables:
            await asyncio.gather(*(browser.close() for browser in browsers))
    finally:
        for server in servers:
            server.stop()
    quiet = summary_ms(responses["quiet"] + responses["quiet again"])["p95"]
    flooded = phases["flood"]["response_ms"]["p95"]
    during = {status: n - burst["answers"].get(status, 0) for status, n in sorted(statuses.items())}
    return {
        "limits": args.limits,
        "clients": args.clients,
        "processes": len(servers),
        "phases": phases,
        # what the limits let through before the flood met them (not measured)
        "allowed_burst": burst,
        "flood_answers": during,  # while the table's moves were measured
        "flood_per_s": round(sum(during.values()) / phases["flood"]["seconds"], 1),
        "quiet_p95_ms": quiet,
        "ratio_p95": round(flooded / quiet, 2),
    }


def print_report(report: dict) -> None:
    print(
        f"== flood of new games: {report['clients']} clients, limits {report['limits']},"
        f" {report['processes']} server process(es)"
    )
    for phase, figures in report["phases"].items():
        ms = figures["response_ms"]
        print(
            f"  {phase:12s} {figures['moves']} moves, refused {figures['refused']},"
            f" lost {figures['lost']}: p50 {ms['p50']:.1f} ms, p95 {ms['p95']:.1f} ms,"
            f" p99 {ms['p99']:.1f} ms"
        )
    burst = report["allowed_burst"]
    if burst["answers"]:
        allowed = ", ".join(f"{status}: {n}" for status, n in burst["answers"].items())
        print(f"  before the flood met its limit: {burst['seconds']} s ({allowed}), not measured")
    answers = ", ".join(f"{status}: {n}" for status, n in report["flood_answers"].items())
    print(f"  the flood while measured: {report['flood_per_s']} requests/s ({answers})")
    mark = "ok  " if report["ratio_p95"] <= TARGET_RATIO else "MISS"
    print(
        f"  {mark} another table's moves, p95 flooded / quiet ({report['quiet_p95_ms']:.1f} ms):"
        f" {report['ratio_p95']}x"
        f" (target {TARGET_RATIO:g}x)"
    )


async def main(argv: list[str] | None = None) -> dict:
    args = parse_args(argv)
    with scenarios.fresh_site("yatzy-flood-") as var_dir:
        report = await run(args, var_dir)
    print_report(report)
    return report


if __name__ == "__main__":
    asyncio.run(main())
