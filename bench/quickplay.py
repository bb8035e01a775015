"""Quick play under a crowd: people press "Play someone now" at random moments over a
minute; each who waits keeps the waiting page's socket open until it is sent to a
table. Prints who was seated, whether anyone was seated twice, how long a waiter took
to hear of its table once its stranger pressed, and what the queue costs the server
(its CPU seconds over the run, a pairing's share).

One server (the embedded default: SQLite, the in-memory channel layer), or, with
DATABASE_URL and REDIS_URL set, two named processes on PostgreSQL and Redis, the
people spread over both. The limits are off: every person comes from one address.

    .venv/bin/python -m bench.quickplay                  # 200 people over 60 s
    .venv/bin/python -m bench.quickplay --people 20 --over 5
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

import websockets

from bench import procstat, scenarios
from bench.clients import Browser
from bench.servers import Server
from bench.stats import summary_ms

TOLD_WITHIN_S = 1.0  # a waiter hears of its table within this, once its stranger pressed


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Quick play's queue under a crowd.")
    parser.add_argument("--people", type=int, default=200, help="people who press")
    parser.add_argument("--over", type=float, default=60, help="seconds their presses span")
    parser.add_argument("--seed", type=int, default=1)
    return parser.parse_args(argv)


def site_servers(var_dir: str) -> list[Server]:
    env = {
        "YATZY_VAR_DIR": var_dir,
        "LOG_LEVEL": "WARNING",
        "YATZY_TIDY_EVERY_S": "0",
        "YATZY_LIMITS": "0",
    }
    if not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")):
        return [Server(env)]
    return [Server({**env, "YATZY_PROCESS": f"web{n}"}, through_serve=True) for n in (1, 2)]


@dataclass
class Person:
    number: int
    browser: Browser
    pressed_at: float = 0.0
    table: str = ""
    seated_at: float = 0.0
    waited: bool = False
    notes: list[str] = field(default_factory=list)
    steps: dict[str, float] = field(default_factory=dict)  # when each step of it ended


async def wait_on_page(person: Person) -> str:
    """The waiting page's socket, until it is sent on; then the waiting page, which
    is the table."""
    browser = person.browser
    cookies = "; ".join(f"{k}={v}" for k, v in browser.http.cookies.items())
    async with websockets.connect(
        f"{browser.ws_url}/ws/quick/yatzy/",
        additional_headers={"Origin": browser.base_url, "Cookie": cookies},
        open_timeout=60,
    ) as socket:
        person.steps["socket open"] = time.monotonic()
        while True:
            message = json.loads(await socket.recv())
            if "go" in message:
                break
    person.steps["told"] = time.monotonic()
    answer = await browser.http.get(message["go"])
    if message["go"].startswith("/g/"):
        return message["go"]
    return answer.headers.get("location", "")


async def press(person: Person, at: float, started: float) -> None:
    await asyncio.sleep(max(0.0, started + at - time.monotonic()))
    browser = person.browser
    await browser.get("/")
    person.pressed_at = time.monotonic()
    answer = await browser.post("/quick/play/", {"name": f"P{person.number}", "ruleset": "yatzy"})
    where = answer.headers.get("location", "")
    person.steps["answered"] = time.monotonic()
    if where == "/quick/":
        person.waited = True
        where = await wait_on_page(person)
    person.seated_at = time.monotonic()
    person.table = where if where.startswith("/g/") else ""
    if not person.table:
        person.notes.append(f"answered {answer.status_code} {where!r}")


async def run(args: argparse.Namespace, var_dir: str) -> dict:
    servers = [server.start() for server in site_servers(var_dir)]
    rng = random.Random(args.seed)
    people = [
        Person(n, Browser(servers[n % len(servers)].url, servers[n % len(servers)].ws_url))
        for n in range(args.people)
    ]
    moments = sorted(rng.uniform(0, args.over) for _ in people)
    try:
        cpu_before = sum(procstat.cpu_seconds(server.pid) for server in servers)
        started = time.monotonic()
        # the last presser of an odd crowd waits for ever: the run ends without it
        tasks = [
            asyncio.create_task(press(person, at, started))
            for person, at in zip(people, moments, strict=True)
        ]
        deadline = started + args.over + 60
        while time.monotonic() < deadline:
            seated = sum(bool(person.table) for person in people)
            if seated >= args.people - args.people % 2:
                break
            print(f"\r[quickplay] {seated}/{args.people} seated", end="", file=sys.stderr)
            await asyncio.sleep(0.5)
        print(file=sys.stderr)
        elapsed = time.monotonic() - started
        cpu = sum(procstat.cpu_seconds(server.pid) for server in servers) - cpu_before
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.gather(*(person.browser.close() for person in people))
    finally:
        for server in servers:
            server.stop()
    return report(args, people, cpu, elapsed, len(servers))


def report(args, people: list[Person], cpu: float, elapsed: float, processes: int) -> dict:
    tables: dict[str, list[Person]] = {}
    for person in people:
        if person.table:
            tables.setdefault(person.table, []).append(person)
    sizes = Counter(len(members) for members in tables.values())
    # a waiter heard of its table this long after its stranger pressed
    told = [
        waiter.seated_at - presser.pressed_at
        for members in tables.values()
        if len(members) == 2
        for waiter, presser in [sorted(members, key=lambda p: p.pressed_at)]
        if waiter.waited
    ]
    # the slowest waiters' steps, from their stranger's press: where the time went
    slow = sorted(
        (
            (waiter.seated_at - presser.pressed_at, waiter, presser)
            for members in tables.values()
            if len(members) == 2
            for waiter, presser in [sorted(members, key=lambda p: p.pressed_at)]
            if waiter.waited
        ),
        key=lambda item: -item[0],
    )[:3]
    steps = [
        f"P{waiter.number} told {1000 * took:.0f} ms after P{presser.number}'s press: "
        + ", ".join(
            f"{name} {1000 * (at - presser.pressed_at):+.0f} ms"
            for name, at in [
                ("its own press", waiter.pressed_at),
                *waiter.steps.items(),
                ("the stranger answered", presser.steps.get("answered", 0.0)),
            ]
        )
        for took, waiter, presser in slow
        if took > TOLD_WITHIN_S
    ]
    figures = {
        "people": args.people,
        "over_s": args.over,
        "processes": processes,
        "seated": sum(len(members) for members in tables.values()),
        "tables": len(tables),
        "tables_not_of_two": sum(n for size, n in sizes.items() if size != 2),
        "not_seated": [p.number for p in people if not p.table],
        "told_ms": summary_ms(told),
        "server_cpu_s": round(cpu, 2),
        "cpu_ms_per_pairing": round(1000 * cpu / max(1, len(tables)), 1),
        "elapsed_s": round(elapsed, 1),
        "notes": [note for p in people for note in p.notes] + steps,
    }
    return figures


def print_report(figures: dict) -> None:
    told = figures["told_ms"]
    print(
        f"{figures['people']} people pressing over {figures['over_s']:g} s,"
        f" {figures['processes']} server process(es)"
    )
    print(
        f"  seated {figures['seated']} at {figures['tables']} tables;"
        f" tables not of two: {figures['tables_not_of_two']};"
        f" not seated: {len(figures['not_seated'])}"
    )
    print(
        f"  a waiter told of its table after its stranger's press: p50 {told['p50']} ms,"
        f" p99 {told['p99']} ms, max {told['max']} ms ({told['count']} waiters)"
    )
    print(
        f"  the server's CPU over the run: {figures['server_cpu_s']} s,"
        f" {figures['cpu_ms_per_pairing']} ms a pairing (its pages and sockets included)"
    )
    everyone = figures["seated"] >= figures["people"] - figures["people"] % 2
    fair = figures["tables_not_of_two"] == 0
    fast = told["count"] == 0 or told["max"] <= 1000 * TOLD_WITHIN_S
    for ok, what in (
        (everyone and fair, "everyone seated, in twos, nobody twice"),
        (fast, f"every waiter told within {TOLD_WITHIN_S:g} s"),
    ):
        print(f"{'ok  ' if ok else 'MISS'} {what}")
    for note in figures["notes"][:10]:
        print(f"  note: {note}")


async def main(argv: list[str] | None = None) -> dict:
    args = parse_args(argv)
    with scenarios.fresh_site("yatzy-quickplay-") as var_dir:
        figures = await run(args, var_dir)
    print_report(figures)
    return figures


if __name__ == "__main__":
    asyncio.run(main())
