"""Compare channels-redis' core and pub/sub layers on the table's traffic pattern.

Each table is a group of K browsers; an action is one group_send that every
member must receive. Prints, per layer, the fan-out latency until the last member
has the message (p50, p99, max) and the sustained messages per second.

    REDIS_URL=redis://127.0.0.1:6379/0 .venv/bin/python bench/channel_layers.py
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time

from channels_redis.core import RedisChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer


async def measure(layer, tables: int, seats: int, rounds: int) -> dict[str, float]:
    groups = []
    for table in range(tables):
        members = [await layer.new_channel() for _ in range(seats)]
        for channel in members:
            await layer.group_add(f"bench.{table}", channel)
        groups.append(members)

    latencies: list[float] = []
    started = time.perf_counter()
    for round_number in range(rounds):
        for table, members in enumerate(groups):
            sent = time.perf_counter()
            await layer.group_send(
                f"bench.{table}", {"type": "game.changed", "version": round_number}
            )
            await asyncio.gather(*(layer.receive(channel) for channel in members))
            latencies.append(time.perf_counter() - sent)
    elapsed = time.perf_counter() - started

    for table, members in enumerate(groups):
        for channel in members:
            await layer.group_discard(f"bench.{table}", channel)
    latencies.sort()
    return {
        "p50_ms": 1000 * statistics.median(latencies),
        "p99_ms": 1000 * latencies[int(0.99 * (len(latencies) - 1))],
        "max_ms": 1000 * latencies[-1],
        "actions_per_s": len(latencies) / elapsed,
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")

    for name, layer in [
        ("core", RedisChannelLayer(hosts=[url])),
        ("pubsub", RedisPubSubChannelLayer(hosts=[url])),
    ]:
        figures = await measure(layer, args.tables, args.seats, args.rounds)
        print(
            f"{name:7s} p50 {figures['p50_ms']:6.2f} ms  p99 {figures['p99_ms']:6.2f} ms  "
            f"max {figures['max_ms']:6.2f} ms  {figures['actions_per_s']:7.0f} actions/s "
            f"({args.tables} tables x {args.seats} seats, {args.rounds} rounds)"
        )
        await layer.flush()


if __name__ == "__main__":
    asyncio.run(main())
