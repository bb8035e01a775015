"""What the benchmark does to a server: play tables, hold idle sockets, storm reconnects."""

from __future__ import annotations

import asyncio
import contextlib
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from typing import TypeVar

from bench import procstat
from bench.clients import Browser, Counters, RateLimiter, timed_action
from bench.servers import Server
from bench.stats import Sample, cpu_ms_per_action

T = TypeVar("T")

Progress = Callable[[str], None]


@contextlib.contextmanager
def fresh_site(prefix: str) -> Iterator[str]:
    """A temporary directory for the servers' database, the site set up on it in this
    process (``prepare_site``); removed when done."""
    with tempfile.TemporaryDirectory(prefix=prefix) as var_dir:
        prepare_site(var_dir)
        yield var_dir


def prepare_site(var_dir: str) -> None:
    """Set up Django in this process on the servers' database, migrated."""
    os.environ["YATZY_VAR_DIR"] = var_dir
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yatzy_site.settings")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # setup calls only, never under load
    import django
    from django.core.management import call_command
    from django.db import OperationalError

    django.setup()
    try:
        call_command("migrate", verbosity=0)
    except OperationalError as error:
        reason = str(error).strip().splitlines()[-1]
        raise SystemExit(
            f"The benchmark cannot use its database ({reason}). With DATABASE_URL set it"
            " runs on that database, which must exist (createdb) and be reachable."
        ) from None


async def in_thread(function: Callable[..., T], *args: object) -> T:
    """``function(*args)`` in a thread of asyncio's, with the thread's database
    connection handed back after: on PostgreSQL, a pooled connection held by an idle
    thread stays taken, and ten tables set up at once emptied the pool."""

    def run() -> T:
        from django.db import connections

        try:
            return function(*args)
        finally:
            connections.close_all()

    return await asyncio.to_thread(run)


def new_table(seats: int, ruleset: str, upper_only: bool, invited: bool) -> str:
    """A table made by the services (no HTTP): its code. ``invited`` seats are remote."""
    from games import services
    from games.models import Seat
    from games.rules import TableOptions
    from games.viewer import Viewer

    kind = Seat.Kind.REMOTE if invited else Seat.Kind.LOCAL
    game = services.create_game(
        Viewer("bench-host"),
        ruleset=ruleset,
        options=TableOptions(upper_only=upper_only),
        seats=[services.SeatSpec(kind, f"Seat {n + 1}") for n in range(seats)],
        public=False,
    )
    return game.code


def _start(code: str) -> tuple[int, list[str]]:
    from games import services
    from games.models import Game
    from games.viewer import Viewer

    game = services.start(code, Viewer("bench-host"), Game.objects.get(code=code).version)
    return game.version, list(game.engine_state().category_keys)


async def play_tables(
    stack: str,
    servers: list[Server],
    tables: int,
    seats: int,
    rate: float,
    ruleset: str,
    upper_only: bool,
    progress: Progress,
) -> Counters:
    counters = Counters()
    limiter = RateLimiter(rate)
    setups = [
        seat_table(stack, servers, table, seats, ruleset, upper_only) for table in range(tables)
    ]
    seated = await asyncio.gather(*setups)
    planned = sum(len(categories) * seats * 3 for _code, _browsers, _v, categories in seated)
    done = asyncio.Event()

    def server_cpu() -> float:
        return sum(procstat.cpu_seconds(server.pid) for server in servers)

    async def report() -> None:
        # The servers' CPU a second, and per action: a run that misses shows whether
        # each action cost more from some moment on (the machine slowed) or the cost
        # stayed and the queue grew.
        started, cpu_before = time.perf_counter(), server_cpu()
        last: Sample = (0.0, 0, 0.0)
        while not done.is_set():
            sample = (time.perf_counter() - started, counters.actions, server_cpu() - cpu_before)
            line = f"[{stack} {rate:g}/s] {counters.actions}/{planned} actions"
            line += f", lost {counters.lost}"
            if sample[1] > last[1]:
                counters.samples.append(sample)
                cpu = (sample[2] - last[2]) / (sample[0] - last[0])
                line += f", server cpu {100 * cpu:.0f}%"
                line += f" ({cpu_ms_per_action(last, sample):.2f} ms/action)"
                last = sample
            progress(line)
            await asyncio.sleep(1)

    reporter = asyncio.create_task(report())
    try:
        await asyncio.gather(
            *(
                play(
                    stack,
                    code,
                    browsers,
                    version,
                    moves(len(browsers), categories),
                    counters,
                    limiter,
                )
                for code, browsers, version, categories in seated
            )
        )
    finally:
        done.set()
        await reporter
        for _code, browsers, _v, _c in seated:
            counters.duplicated += sum(b.duplicates for b in browsers)
            await asyncio.gather(*(b.close() for b in browsers))
    return counters


async def seat_table(
    stack: str, servers: list[Server], table: int, seats: int, ruleset: str, upper_only: bool
) -> tuple[str, list[Browser], int, list[str]]:
    # Seat n of every table uses server n % len(servers), as a balancer would spread them.
    browsers = [
        Browser(servers[n % len(servers)].url, servers[n % len(servers)].ws_url)
        for n in range(seats)
    ]
    if stack in ("bare", "stock"):
        code = f"t{table}"
        if stack == "stock":  # Django's CSRF check wants the cookie a page sets
            await asyncio.gather(*(b.get("/healthz") for b in browsers))
        await asyncio.gather(*(b.connect(f"/ws/{code}/") for b in browsers))
        await asyncio.gather(*(b.connected.wait() for b in browsers))
        from games.rules import get_ruleset

        rules = get_ruleset(ruleset)
        keys = [c.key for c in (rules.upper_categories if upper_only else rules.categories)]
        return code, browsers, 0, keys
    code = await in_thread(new_table, seats, ruleset, upper_only, True)
    for n, browser in enumerate(browsers):
        await browser.get(f"/g/{code}/join/")
        response = await browser.post(f"/g/{code}/join/", {"name": f"Player {n + 1}"})
        if response.status_code >= 400:
            raise RuntimeError(f"join refused: {response.status_code} {response.text[:300]}")
    version, categories = await in_thread(_start, code)
    await asyncio.gather(*(b.connect(b.table_socket(code)) for b in browsers))
    await asyncio.gather(*(b.connected.wait() for b in browsers))
    return code, browsers, version, categories


async def play(
    stack: str,
    code: str,
    browsers: list[Browser],
    version: int,
    plan: Iterator[tuple[int, str, dict[str, str]]],
    counters: Counters,
    limiter: RateLimiter | None = None,
) -> int:
    """Play ``plan``'s moves (see ``moves``) at ``limiter``'s rate, each timed until
    every other browser has its update; the version the table is at afterwards."""
    for seat, move, fields in plan:
        actor = browsers[seat]
        others = [b for b in browsers if b is not actor]
        if limiter is not None:
            await limiter.slot()
        path, data = action(stack, code, move, fields, version)
        version += 1
        ok = await timed_action(
            actor, others, lambda a=actor, p=path, d=data: a.post(p, d), version, counters
        )
        if not ok:
            break
    return version


def moves(seats: int, categories: list[str]) -> Iterator[tuple[int, str, dict[str, str]]]:
    """A whole game's moves as (seat, move, form fields): each seat in turn rolls, rolls
    again and scores its next open category."""
    open_categories = [list(categories) for _ in range(seats)]
    for turn in range(len(categories) * seats):
        seat = turn % seats
        yield seat, "roll", {}
        yield seat, "roll", {}
        yield seat, "score", {"category": open_categories[seat].pop(0), "confirm": "1"}


def action(
    stack: str, code: str, move: str, fields: dict[str, str], version: int
) -> tuple[str, dict[str, str]]:
    """The path and form of ``move`` on a table at ``version`` (the bare stack's move
    only names the version it makes)."""
    if stack in ("bare", "stock"):
        return f"/act/{code}/{version + 1}", {}
    return f"/g/{code}/{move}/", {"version": str(version), **fields}


async def idle_and_reconnect(
    server: Server, idle: int, reconnect: int, progress: Progress
) -> dict[str, float]:
    """Hold ``idle`` spectator sockets on one table; then ``reconnect`` of them drop and
    come back at once. Memory per socket is the server's growth divided by the sockets."""
    from bench import procstat

    code = await in_thread(new_table, 1, "yatzy", False, False)
    await asyncio.sleep(1)
    rss_before = procstat.rss_bytes(server.pid)
    watchers = [Browser(server.url, server.ws_url, http=False) for _ in range(idle)]
    started = time.perf_counter()
    for batch in range(0, idle, 200):
        group = watchers[batch : batch + 200]
        await asyncio.gather(*(w.connect(w.table_socket(code)) for w in group))
        progress(f"[connections] {batch + len(group)}/{idle} idle sockets open")
    # a socket the server closes before its table (a cap, a limit) is never connected
    await asyncio.wait_for(asyncio.gather(*(w.connected.wait() for w in watchers)), 120)
    connect_seconds = time.perf_counter() - started
    await asyncio.sleep(2)
    rss_after = procstat.rss_bytes(server.pid)

    stormers = watchers[:reconnect]
    await asyncio.gather(*(w.drop() for w in stormers))
    started = time.perf_counter()
    outcomes = await asyncio.gather(
        *(w.connect(w.table_socket(code)) for w in stormers), return_exceptions=True
    )
    back = [w for w, outcome in zip(stormers, outcomes, strict=True) if outcome is None]
    await asyncio.wait_for(asyncio.gather(*(w.connected.wait() for w in back)), 120)
    resync_seconds = time.perf_counter() - started
    waits = sorted(w.connected_at - started for w in back)
    progress(f"[connections] {reconnect} sockets reconnected in {resync_seconds:.2f} s")
    await asyncio.gather(*(w.close() for w in watchers), return_exceptions=True)
    return {
        "handshake_retries": sum(w.retries for w in watchers),
        "idle_sockets": idle,
        "connects_per_s": round(idle / connect_seconds, 1),
        "kb_per_idle_socket": round((rss_after - rss_before) / idle / 1024, 2),
        "reconnecting_sockets": reconnect,
        "reconnects_failed": reconnect - len(back),
        "reconnect_all_resynced_s": round(resync_seconds, 3),
        "reconnect_resynced_p50_p90_s": [
            round(waits[int(q * (len(waits) - 1))], 3) if waits else None for q in (0.5, 0.9)
        ],
        "reconnects_per_s": round(reconnect / resync_seconds, 1),
    }
