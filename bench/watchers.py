"""The live lists under a crowd (docs/architecture.md, "Watch" and "Open tables": a list
is pushed at most every half second, rendered once per language, the same bytes to
every page).

The Watch page (``--list watch``): 500 pages hold its socket open while a table anyone
may watch plays; after each round, how long until every page has the list that shows it.
The Open tables page (``--list tables``): 500 pages hold its socket open while, each
round, a host opens a room to anyone from its lobby and a stranger takes its one seat:
how long until every page shows the room, and until it has gone from every page.

One server (the embedded default), or, with DATABASE_URL and REDIS_URL set, two named
processes on PostgreSQL and Redis, the pages spread over both and the table's moves
made on the first. The limits are off: every page comes from one address.

    .venv/bin/python -m bench.watchers                 # 500 Watch pages, 10 rounds
    .venv/bin/python -m bench.watchers --list tables   # 500 Open tables pages, 10 rooms
    .venv/bin/python -m bench.watchers --pages 50 --rounds 3
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import time

import websockets

from bench import procstat, scenarios
from bench.clients import Browser
from bench.quickplay import site_servers
from bench.stats import summary_ms

WITHIN_S = 1.0  # every list has a change within this (issue 48)
# each list's socket, and the key of its message
LISTS = {"watch": ("/ws/watch/", "games"), "tables": ("/ws/tables/", "tables")}
CATEGORIES = [
    *("ones", "twos", "threes", "fours", "fives", "sixes", "one_pair", "two_pairs"),
    *("three_of_a_kind", "four_of_a_kind", "small_straight", "large_straight", "full_house"),
    *("chance", "yatzy"),
]
VERSION = re.compile(r'data-version="(\d+)"')


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="The live lists under a crowd.")
    parser.add_argument("--list", choices=sorted(LISTS), default="watch", help="which list")
    parser.add_argument("--pages", type=int, default=500, help="Watch pages open")
    parser.add_argument(
        "--rounds", type=int, default=10, help="rounds the table plays (14 at most), or rooms"
    )
    return parser.parse_args(argv)


class Page:
    """A list page's socket: the last list it was sent, and when."""

    def __init__(self, key: str) -> None:
        self.key = key
        self.games = ""
        self.changed = asyncio.Event()
        self.lists = 0

    async def hold(self, url: str, origin: str, ready: asyncio.Event) -> None:
        async with websockets.connect(
            url, additional_headers={"Origin": origin}, open_timeout=120, max_size=None
        ) as socket:
            async for message in socket:
                self.games = json.loads(message)[self.key]
                self.lists += 1
                self.changed.set()
                if self.lists == 1:
                    ready.set()


async def all_show(pages: list[Page], text: str, timeout: float, shown: bool = True) -> float:
    """Until every page's list shows ``text`` (or, not ``shown``, no longer does): when
    the last one did."""
    deadline = time.monotonic() + timeout
    for page in pages:
        while (text in page.games) != shown:
            page.changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"a page never {'showed' if shown else 'lost'} {text!r}")
            await asyncio.wait_for(page.changed.wait(), left)
    return time.monotonic()


async def new_game(host: Browser, **fields: str) -> str:
    """A game made by ``host`` through the New game form: its code."""
    await host.get("/")
    new = {"name": "Ann", "ruleset": "yatzy", "players": "", "invites": "0"}
    new |= {"teams": "0", "upper_bonus": "50", **fields}
    created = await host.http.post(
        "/games/new/",
        {**new, "csrfmiddlewaretoken": host.http.cookies["csrftoken"]},
        {"Origin": host.base_url, "Referer": host.base_url + "/"},
    )
    return created.headers["location"].split("/")[2]


async def play_rounds(args: argparse.Namespace, host: Browser, pages: list[Page]) -> dict:
    """A table anyone may watch plays ``args.rounds`` rounds: after each, how long until
    every page's list says the next."""
    code = await new_game(host, players="Ben", watchable="on")
    await all_show(pages, "Round 1 of 15", 30)
    version = int(VERSION.search((await host.get(f"/g/{code}/")).text).group(1))
    took = []
    for turn in range(2 * args.rounds):
        category = CATEGORIES[turn // 2]
        answer = await host.post(f"/g/{code}/roll/", {"version": str(version)})
        version = int(VERSION.search(answer.text).group(1))
        data = {"version": str(version), "category": category, "confirm": "1"}
        answer = await host.post(f"/g/{code}/score/", data)
        version = int(VERSION.search(answer.text).group(1))
        if turn % 2 == 1:  # a round done: the list says the next
            answered = time.monotonic()
            shown = await all_show(pages, f"Round {turn // 2 + 2} of 15", 60)
            took.append(shown - answered)
            print(f"\r[watchers] round {turn // 2 + 1}", end="", file=sys.stderr)
    return {"every_page_ms": summary_ms(took)}


async def fill_rooms(args: argparse.Namespace, host: Browser, pages: list[Page]) -> dict:
    """``args.rounds`` times: a room with one invitation, opened to anyone from its lobby,
    and its seat taken by a stranger from the Open tables page: how long until every
    page shows it, and until it has gone from every page."""
    came, went = [], []
    for room in range(args.rounds):
        code = await new_game(host, invites="1")
        lobby = await host.get(f"/g/{code}/lobby/")
        version = re.search(r'name="version" value="(\d+)"', lobby.text).group(1)
        await host.post(f"/g/{code}/open/", {"version": version, "open": "1"})
        opened = time.monotonic()
        came.append(await all_show(pages, code, 60) - opened)
        stranger = Browser(host.base_url, host.ws_url)
        await stranger.get("/tables/")
        await stranger.post("/tables/join/", {"name": f"Ben {room}", "code": code})
        joined = time.monotonic()
        went.append(await all_show(pages, code, 60, shown=False) - joined)
        await stranger.close()
        print(f"\r[watchers] room {room + 1}", end="", file=sys.stderr)
    return {"every_page_ms": summary_ms(came + went), "came_ms": summary_ms(came)} | {
        "went_ms": summary_ms(went)
    }


async def run(args: argparse.Namespace, var_dir: str) -> dict:
    servers = [server.start() for server in site_servers(var_dir)]
    path, key = LISTS[args.list]
    pages = [Page(key) for _ in range(args.pages)]
    tasks: list[asyncio.Task] = []
    try:
        for number, page in enumerate(pages):
            server = servers[number % len(servers)]
            ready = asyncio.Event()
            tasks.append(asyncio.create_task(page.hold(server.ws_url + path, server.url, ready)))
            await asyncio.wait_for(ready.wait(), 120)
            if number % 50 == 0:
                print(f"\r[watchers] {number} pages open", end="", file=sys.stderr)
        print(file=sys.stderr)
        host = Browser(servers[0].url, servers[0].ws_url)
        cpu_before = sum(procstat.cpu_seconds(server.pid) for server in servers)
        measure = play_rounds if args.list == "watch" else fill_rooms
        figures = await measure(args, host, pages)
        print(file=sys.stderr)
        cpu = sum(procstat.cpu_seconds(server.pid) for server in servers) - cpu_before
        await host.close()
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for server in servers:
            server.stop()
    return {
        "list": args.list,
        "pages": args.pages,
        "processes": len(servers),
        "rounds": args.rounds,
        **figures,
        "lists_per_page": round(sum(page.lists for page in pages) / len(pages), 1),
        "server_cpu_s": round(cpu, 2),
    }


def print_report(figures: dict) -> None:
    shown = figures["every_page_ms"]
    if figures["list"] == "watch":
        print(
            f"{figures['pages']} Watch pages, {figures['processes']} server process(es),"
            f" {figures['rounds']} rounds played"
        )
        print(
            f"  a round's end on every page's list: p50 {shown['p50']} ms,"
            f" max {shown['max']} ms ({figures['lists_per_page']} lists a page in all)"
        )
    else:
        came, went = figures["came_ms"], figures["went_ms"]
        print(
            f"{figures['pages']} Open tables pages, {figures['processes']} server process(es),"
            f" {figures['rounds']} rooms opened and filled"
        )
        print(f"  a room opened on every page: p50 {came['p50']} ms, max {came['max']} ms")
        print(
            f"  a room filled gone from every page: p50 {went['p50']} ms, max {went['max']} ms"
            f" ({figures['lists_per_page']} lists a page in all)"
        )
    print(f"  the server's CPU over the rounds: {figures['server_cpu_s']} s")
    ok = shown["max"] <= 1000 * WITHIN_S
    print(f"{'ok  ' if ok else 'MISS'} every list has a change within {WITHIN_S:g} s")


async def main(argv: list[str] | None = None) -> dict:
    args = parse_args(argv)
    with scenarios.fresh_site("yatzy-watchers-") as var_dir:
        figures = await run(args, var_dir)
    print_report(figures)
    return figures


if __name__ == "__main__":
    asyncio.run(main())
