"""What counting one player's socket costs the database thread: ``presence.arrive`` as it
opens and ``presence.leave`` as it closes, for a process without a name (the embedded
default) and for a named one (``YATZY_PROCESS``, the scale-out: the socket is also
booked under the process's name, in the same transaction). Wall time, since on
PostgreSQL it is mostly round trips; the two are interleaved, round by round, so that
the machine's drift falls on both.

    .venv/bin/python -m bench.presencecost                  # SQLite, a fresh file
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/yatzy .venv/bin/python -m bench.presencecost
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time

from bench.scenarios import new_table, prepare_site


def cycles(code: str, process: str, count: int) -> float:
    """Milliseconds a socket's arrival and departure take, the median of ``count``."""
    from django.conf import settings

    from games import presence
    from games.models import Game, Seat
    from games.viewer import Viewer

    settings.YATZY_PROCESS = process
    seat = Seat.objects.filter(game__code=code).first()
    viewer = Viewer(seat.browser_id, frozenset({seat.token}))
    took = []
    for _ in range(count):
        game = Game.objects.prefetch_related("seats").get(code=code)  # as the consumer reads
        started = time.perf_counter()
        seats = presence.arrive(game, viewer)
        presence.leave(seats)
        took.append(time.perf_counter() - started)
    return 1000 * statistics.median(took)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sockets", type=int, default=300, help="arrivals per round")
    args = parser.parse_args(argv)
    prepare_site(tempfile.mkdtemp(prefix="yatzy-presencecost-"))
    from django.db import connection

    code = new_table(2, "yatzy", False, invited=False)
    cycles(code, "", 50)  # warm up: connection open, statements seen
    unnamed, named = [], []
    for _ in range(args.rounds):
        unnamed.append(cycles(code, "", args.sockets))
        named.append(cycles(code, "bench", args.sockets))
    figures = {
        "database": connection.vendor,
        "unnamed_ms": round(statistics.median(unnamed), 3),
        "named_ms": round(statistics.median(named), 3),
    }
    print(
        f"{connection.vendor}: a player's socket arriving and leaving, median of "
        f"{args.rounds} rounds of {args.sockets}: unnamed process {figures['unnamed_ms']} ms, "
        f"named (booked) {figures['named_ms']} ms"
    )
    return figures


if __name__ == "__main__":
    main()
