"""What a move costs the whole server process, in machine instructions.

``bench.load``'s figures move by 20-30 % from one run to the next on a shared machine,
and ``bench.movecost`` sees only the part of a move that runs in Django. This runs
the real server (daphne, the embedded default) under valgrind's callgrind, seats one
table of browsers over real HTTP and WebSockets, and counts the instructions the
server executes while the table plays: the HTTP parsing, the request, the database,
the renderings, the fan-out and every socket's frames, the event loop's own work. The
same count for the bare stack (``bench/bare.py``) makes the ratio of the two. The
stock stack (``bench/stock.py``, ``--stack all``) is the bare stack's move behind
Django's own ASGI handler and the site's middleware: the least a move through Django
costs, before the site does any work of its own. The count is the same to ~1 % from
run to run whatever else the machine does; what it cannot see is time the kernel
spends (system calls, waking threads).

    .venv/bin/python -m bench.servercost               # ~5 minutes; needs valgrind
    .venv/bin/python -m bench.servercost --stack all   # the stock stack as well
    .venv/bin/python -m bench.servercost --stack project --moves 45
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import sys
from pathlib import Path

from bench import callgrind, scenarios
from bench.clients import Counters
from bench.servers import Server

STARTUP_TIMEOUT = 600  # seconds: daphne starts ~50 times slower under valgrind


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=90, help="moves counted, per stack")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument(
        "--stack", choices=("both", "all", "project", "stock", "bare"), default="both"
    )
    return parser.parse_args(argv)


async def count(stack: str, moves: int, seats: int, var_dir: str) -> dict:
    wrapper, out = callgrind.wrapper()
    env = {"LOG_LEVEL": "WARNING", "PYTHONHASHSEED": "0"}
    if stack == "project":
        server = Server({**env, "YATZY_VAR_DIR": var_dir}, wrapper=wrapper)
    else:
        settings = {"DJANGO_SETTINGS_MODULE": f"bench.{stack}_settings"}
        server = Server({**env, **settings}, app=f"bench.{stack}:application", wrapper=wrapper)
    server.start(timeout=STARTUP_TIMEOUT)
    try:
        code, browsers, version, categories = await scenarios.seat_table(
            stack, [server], 0, seats, "yatzy", False
        )
        plan = scenarios.moves(seats, categories)
        # warm up (the first move of a table reads what later ones find cached), uncounted
        warm_up = itertools.islice(plan, 3)
        version = await scenarios.play(stack, code, browsers, version, warm_up, Counters())
        counters = Counters()
        callgrind.switch(True, server.pid)
        await scenarios.play(
            stack, code, browsers, version, itertools.islice(plan, moves), counters
        )
        callgrind.switch(False, server.pid)
        await asyncio.gather(*(b.close() for b in browsers))
    finally:
        log = server.log_tail()
        server.stop(timeout=STARTUP_TIMEOUT)
    counted = callgrind.total(out)
    if counted is None or counters.actions != moves:
        raise SystemExit(f"{stack}: the counted run failed:\n{log}")
    return {"moves": moves, "instructions_per_move_m": round(counted / moves / 1e6, 2)}


async def main(argv: list[str] | None = None) -> dict:
    args = parse_args(argv)
    if not callgrind.available():
        raise SystemExit("bench.servercost needs valgrind (apt-get install valgrind)")
    stacks = {"both": ("project", "bare"), "all": ("project", "stock", "bare")}.get(
        args.stack, (args.stack,)
    )
    figures: dict = {}
    with scenarios.fresh_site("yatzy-servercost-") as var_dir:
        for stack in stacks:
            print(f"counting {stack} ({args.moves} moves under callgrind)...", file=sys.stderr)
            figures[stack] = await count(stack, args.moves, args.seats, var_dir)
            print(f"{stack}: {figures[stack]['instructions_per_move_m']} M instructions a move")
    if "bare" in figures:
        bare = figures["bare"]["instructions_per_move_m"]
        for stack, key in (("project", "ratio"), ("stock", "stock_ratio")):
            if stack in figures:
                figures[key] = round(figures[stack]["instructions_per_move_m"] / bare, 2)
                print(f"{stack}/bare: {figures[key]}")
    return figures


if __name__ == "__main__":
    os.chdir(Path(__file__).resolve().parents[1])
    asyncio.run(main())
