"""Sockets that stop reading, against the server's memory and the other tables' speed.

One server (the embedded default; on PostgreSQL and Redis with DATABASE_URL and
REDIS_URL set). A table where a player makes moves, watched by stalled sockets:
raw TCP connections, each from a browser of its own (a session the site made), that
complete the WebSocket handshake and then never read again, with a small receive
buffer so that what the server sends them piles up on the server rather than in the
kernel. Another table plays at a steady rate meanwhile, its moves timed. The run
plays twice in the same server, first without the stalled sockets and then with
them, and prints the server's resident memory (from /proc) and the other table's
latencies, with the ratio of the second run to the first.

    .venv/bin/python -m bench.stalled              # 200 stalled sockets, 400 moves
    .venv/bin/python -m bench.stalled --stalled 100 --moves 200 --json out.json
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import re
import socket
import sys
import time

from bench import procstat, scenarios
from bench.clients import Browser, Counters, RateLimiter, timed_action
from bench.http import HttpSession
from bench.servers import Server
from bench.stats import summary_ms

MEMORY_LIMIT_MB = 60  # what the stalled sockets may grow the server by (issue 34)
SLOWER_AT_MOST = 2.0  # how much slower the other table's moves may be meanwhile
RECEIVE_BUFFER = 4096  # the stalled sockets' kernel buffer: what they leave on the server


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Stalled sockets against memory and speed.")
    parser.add_argument("--stalled", type=int, default=200, help="sockets that stop reading")
    parser.add_argument("--moves", type=int, default=400, help="moves at the watched table")
    parser.add_argument("--rate", type=float, default=20, help="its moves a second")
    parser.add_argument("--other-rate", type=float, default=5, help="the other table's")
    parser.add_argument("--json", default="", help="also write the figures here")
    return parser.parse_args(argv)


def progress(text: str) -> None:
    print(f"\r{text:<100}", end="", file=sys.stderr, flush=True)


class Table:
    """A seated table of two players over HTTP, and its moves: the player to move
    rolls once, then holds and lets go of a die, a move each (and an update to every
    socket at the table), as long as asked."""

    def __init__(self, code: str, browsers: list[Browser], version: int) -> None:
        self.code = code
        self.browsers = browsers
        self.version = version
        self.mover: Browser | None = None

    async def first_roll(self) -> None:
        for browser in self.browsers:  # whoever's turn it is
            response = await browser.post(f"/g/{self.code}/roll/", {"version": str(self.version)})
            if response.status_code == 200:
                self.mover = browser
                self.version += 1
                return
        raise RuntimeError(f"nobody at table {self.code} could roll")

    def hold(self) -> tuple[Browser, list[Browser], str, dict[str, str]]:
        assert self.mover is not None
        others = [b for b in self.browsers if b is not self.mover]
        data = {"version": str(self.version), "die": "0"}
        self.version += 1
        return self.mover, others, f"/g/{self.code}/hold/", data


async def seated(server: Server, table: int) -> Table:
    code, browsers, version, _categories = await scenarios.seat_table(
        "project", [server], table, 2, "yatzy", False
    )
    seated_table = Table(code, browsers, version)
    await seated_table.first_roll()
    return seated_table


async def play(table: Table, moves: int, rate: float, counters: Counters) -> None:
    limiter = RateLimiter(rate)
    for _ in range(moves):
        await limiter.slot()
        actor, others, path, data = table.hold()
        if not await timed_action(
            actor, others, lambda a=actor, p=path, d=data: a.post(p, d), table.version, counters
        ):
            raise RuntimeError(f"a move at table {table.code} was refused")


async def play_beside(
    watched: Table, other: Table, args: argparse.Namespace
) -> tuple[Counters, list[float]]:
    """The watched table's moves at their rate; the other table's at theirs meanwhile,
    timed, until the watched table is done: their times, and when each was sent."""
    watched_counters, counters = Counters(), Counters()
    moves = asyncio.create_task(play(watched, args.moves, args.rate, watched_counters))
    limiter = RateLimiter(args.other_rate)
    sent: list[float] = []
    while not moves.done():
        await limiter.slot()
        actor, others, path, data = other.hold()
        sent.append(time.perf_counter())
        await timed_action(
            actor, others, lambda a=actor, p=path, d=data: a.post(p, d), other.version, counters
        )
    await moves
    return counters, sent


async def all_closed(server: Server, count: int) -> float:
    """When the server has closed ``count`` sockets as slow readers."""
    while await metric(server, 'yatzy_socket_closes_total{reason="slow_reader"}') < count:
        await asyncio.sleep(0.2)
    return time.perf_counter()


def stalled_socket(server: Server, code: str, session: str) -> socket.socket:
    """A table socket of the browser of ``session`` that reads its handshake's answer and
    nothing after it."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECEIVE_BUFFER)  # before connect
    sock.settimeout(30)
    sock.connect(("127.0.0.1", server.port))
    key = base64.b64encode(os.urandom(16)).decode()
    page = base64.urlsafe_b64encode(os.urandom(16)).decode().rstrip("=")
    request = (
        f"GET /ws/g/{code}/{page}/ HTTP/1.1\r\n"
        f"Host: 127.0.0.1:{server.port}\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        f"Origin: {server.url}\r\nCookie: sessionid={session}\r\n\r\n"
    )
    sock.sendall(request.encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = sock.recv(1)  # the handshake's answer only, not a byte of what follows
        if not chunk:
            raise RuntimeError("the server closed a stalled socket's handshake")
        answer += chunk
    if not answer.startswith(b"HTTP/1.1 101"):
        raise RuntimeError(f"handshake refused: {answer[:80]!r}")
    return sock


async def sessions(server: Server, code: str, count: int) -> list[str]:
    """The session cookies of ``count`` browsers that each loaded the table's page."""

    async def one() -> str:
        http = HttpSession(server.url)
        try:
            await http.get(f"/g/{code}/", follow_redirects=True)
            return http.cookies["sessionid"]
        finally:
            await http.aclose()

    made: list[str] = []
    for batch in range(0, count, 50):
        made += await asyncio.gather(*(one() for _ in range(min(50, count - batch))))
    return made


async def metric(server: Server, name: str) -> float:
    """A figure of the server's /metrics (the benchmark's address may read them)."""
    http = HttpSession(server.url)
    try:
        text = (await http.get("/metrics")).text
    finally:
        await http.aclose()
    match = re.search(rf"^{re.escape(name)} (\S+)$", text, re.MULTILINE)
    return float(match.group(1)) if match else 0.0


class PeakMemory:
    """The server's resident memory, sampled every 0.1 s while it runs: the most."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak = procstat.rss_bytes(pid)
        self.kernel_before = self.kernel_peak = procstat.tcp_kernel_bytes()
        self._task: asyncio.Task[None] | None = None

    async def _sample(self) -> None:
        while True:
            self.peak = max(self.peak, procstat.rss_bytes(self.pid))
            self.kernel_peak = max(self.kernel_peak, procstat.tcp_kernel_bytes())
            await asyncio.sleep(0.1)

    def __enter__(self) -> PeakMemory:
        self._task = asyncio.get_running_loop().create_task(self._sample())
        return self

    def __exit__(self, *_exc: object) -> None:
        assert self._task is not None
        self._task.cancel()
        self.peak = max(self.peak, procstat.rss_bytes(self.pid))


def mb(size: int) -> float:
    return round(size / 2**20, 1)


async def run(args: argparse.Namespace, var_dir: str) -> dict:
    server = Server(
        {"YATZY_VAR_DIR": var_dir, "LOG_LEVEL": "ERROR", "YATZY_METRICS_ALLOW": "127.0.0.1"}
    ).start()
    try:
        watched, other = await seated(server, 0), await seated(server, 1)
        progress("[stalled] without stalled sockets")
        before = procstat.rss_bytes(server.pid)
        with PeakMemory(server.pid) as memory:
            calm, _sent = await play_beside(watched, other, args)
        calm_rss = {"before_mb": mb(before), "peak_mb": mb(memory.peak)}

        progress(f"[stalled] {args.stalled} browsers load the table")
        cookies = await sessions(server, watched.code, args.stalled)
        before = procstat.rss_bytes(server.pid)
        with PeakMemory(server.pid) as memory:
            progress(f"[stalled] {args.stalled} sockets connect and stop reading")
            stalled = [
                await asyncio.to_thread(stalled_socket, server, watched.code, cookie)
                for cookie in cookies
            ]
            opened = await metric(server, 'yatzy_open_sockets{page="table"}')
            progress(f"[stalled] {args.moves} moves beside {len(stalled)} stalled sockets")
            closing = asyncio.create_task(all_closed(server, len(stalled)))
            crowded, sent = await play_beside(watched, other, args)
            await asyncio.sleep(2)  # a closed socket's last writes are dropped after 1 s
        after = procstat.rss_bytes(server.pid)
        closed_at = closing.result() if closing.done() else float("inf")
        closing.cancel()
        closed = await metric(server, 'yatzy_socket_closes_total{reason="slow_reader"}')
        still_open = await metric(server, 'yatzy_open_sockets{page="table"}')
        for sock in stalled:
            sock.close()
        for table in (watched, other):
            await asyncio.gather(*(b.close() for b in table.browsers))
    finally:
        server.stop()
    progress("")
    calm_ms, crowded_ms = summary_ms(calm.response), summary_ms(crowded.response)
    timed = list(zip(sent, crowded.response, strict=True))
    while_open = summary_ms([took for at, took in timed if at < closed_at])
    once_closed = summary_ms([took for at, took in timed if at >= closed_at])
    return {
        "stalled_sockets": args.stalled,
        "moves": args.moves,
        "rate": args.rate,
        "other_rate": args.other_rate,
        "without_stalled": {**calm_rss, "other_table_response_ms": calm_ms},
        "with_stalled": {
            "before_mb": mb(before),
            "peak_mb": mb(memory.peak),
            "after_mb": mb(after),
            "growth_mb": mb(memory.peak - before),
            "kernel_tcp_growth_mb": mb(memory.kernel_peak - memory.kernel_before),
            "table_sockets_open_with_them": int(opened),
            "closed_as_slow_readers": int(closed),
            "table_sockets_open_at_the_end": int(still_open),
            "other_table_response_ms": crowded_ms,
            "other_table_response_ms_while_open": while_open,
            "other_table_response_ms_once_closed": once_closed,
            "all_closed_after_s": round(closed_at - sent[0], 1) if sent else None,
            "other_table_updates_lost": crowded.lost,
        },
        "other_table_p50_ratio": round(crowded_ms["p50"] / calm_ms["p50"], 2),
        "other_table_p95_ratio": round(crowded_ms["p95"] / calm_ms["p95"], 2),
    }


def verdicts(report: dict) -> list[tuple[str, bool]]:
    crowded = report["with_stalled"]
    return [
        (
            f"server grew {crowded['growth_mb']} MB with {report['stalled_sockets']} stalled"
            f" sockets (limit {MEMORY_LIMIT_MB} MB)",
            crowded["growth_mb"] < MEMORY_LIMIT_MB,
        ),
        (
            f"other table's p95 {report['other_table_p95_ratio']}x of the run without them"
            f" (limit {SLOWER_AT_MOST}x)",
            report["other_table_p95_ratio"] <= SLOWER_AT_MOST,
        ),
    ]


def print_report(report: dict) -> None:
    calm, crowded = report["without_stalled"], report["with_stalled"]
    print(
        f"{report['moves']} moves at {report['rate']:g}/s at one table; another table's"
        f" moves at {report['other_rate']:g}/s, timed"
    )
    print(
        f"  without stalled sockets: server {calm['before_mb']} -> {calm['peak_mb']} MB;"
        f" other table p50/p95/p99 {_ms(calm['other_table_response_ms'])}"
    )
    print(
        f"  with {report['stalled_sockets']} stalled sockets"
        f" ({crowded['table_sockets_open_with_them']} table sockets open with them):"
        f" server {crowded['before_mb']} -> peak {crowded['peak_mb']} MB"
        f" (+{crowded['growth_mb']}), {crowded['after_mb']} MB after; the kernel's TCP"
        f" buffers +{crowded['kernel_tcp_growth_mb']} MB at most;"
        f" {crowded['closed_as_slow_readers']} closed as slow readers,"
        f" {crowded['table_sockets_open_at_the_end']} table sockets open at the end"
    )
    print(
        f"    other table p50/p95/p99 {_ms(crowded['other_table_response_ms'])},"
        f" {crowded['other_table_updates_lost']} updates lost;"
        f" ratio p50 {report['other_table_p50_ratio']}x, p95 {report['other_table_p95_ratio']}x"
    )
    print(
        f"    all stalled sockets closed {crowded['all_closed_after_s']} s into the moves;"
        f" other table before that {_ms(crowded['other_table_response_ms_while_open'])}"
        f" ({crowded['other_table_response_ms_while_open']['count']} moves),"
        f" after {_ms(crowded['other_table_response_ms_once_closed'])}"
    )
    for text, ok in verdicts(report):
        print(f"  {'ok  ' if ok else 'MISS'} {text}")


def _ms(summary: dict) -> str:
    return "/".join(f"{summary[q]:.1f}" for q in ("p50", "p95", "p99")) + " ms"


async def main(argv: list[str] | None = None) -> dict:
    args = parse_args(argv)
    with scenarios.fresh_site("yatzy-stalled-") as var_dir:
        report = await run(args, var_dir)
    print_report(report)
    if args.json:
        with open(args.json, "w") as out:
            json.dump(report, out, indent=2)
    return report


if __name__ == "__main__":
    started = time.perf_counter()
    asyncio.run(main())
    print(f"({time.perf_counter() - started:.0f} s)", file=sys.stderr)
