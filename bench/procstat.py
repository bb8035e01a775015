"""CPU time and resident memory of server processes, and what the machine's CPUs did,
read from /proc."""

from __future__ import annotations

import os
import time
from pathlib import Path

_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICKS  # utime + stime


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def tcp_kernel_bytes() -> int:
    """What the machine's kernel holds in TCP buffers (all sockets, /proc/net/sockstat):
    data sent and not yet taken by its reader sits there before a process's own buffer."""
    for line in Path("/proc/net/sockstat").read_text().splitlines():
        if line.startswith("TCP:"):
            fields = line.split()
            return int(fields[fields.index("mem") + 1]) * os.sysconf("SC_PAGE_SIZE")
    return 0


def machine_ticks() -> tuple[int, int]:
    """(stolen, all): the clock ticks of every CPU of the machine so far, and of those
    the ticks the hypervisor gave to other guests ("steal", 0 where it is not told)."""
    fields = [int(f) for f in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    steal = fields[7] if len(fields) > 7 else 0
    # guest times are already counted in user and nice
    return steal, sum(fields[:8])


def steal_percent(before: tuple[int, int], after: tuple[int, int]) -> float:
    """The share of the machine's CPU time stolen between two ``machine_ticks``."""
    stolen, total = after[0] - before[0], after[1] - before[1]
    return round(100 * stolen / total, 2) if total > 0 else 0.0


def python_speed_ms(rounds: int = 5) -> float:
    """The fastest of ``rounds`` runs of a fixed piece of pure-Python work (dicts, strings,
    calls: what a request is made of), in ms: this machine's speed at this moment, to
    read the other figures of a run against. Lower is faster."""

    def work() -> int:
        seen: dict[str, int] = {}
        for i in range(60_000):
            key = f"k{i % 500}"
            seen[key] = seen.get(key, 0) + len(key)
        return sum(seen.values())

    best = float("inf")
    for _ in range(rounds):
        started = time.process_time()
        work()
        best = min(best, time.process_time() - started)
    return round(1000 * best, 2)
