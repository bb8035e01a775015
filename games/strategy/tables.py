"""Value tables on disk: built once per variant, memory-mapped by every process."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Protocol

import numpy as np

from games.strategy.declared import DeclaredSolver
from games.strategy.solver import Solver, Variant

_LOADED: dict[Variant, Solver] = {}


class Output(Protocol):
    """Where a build says what it costs: a text stream, or a command's stdout."""

    def write(self, text: str, /) -> object: ...

    def flush(self) -> object: ...


def solver_of(variant: Variant, values: np.ndarray | None = None) -> Solver:
    """A solver of ``variant``'s tables (``values``: solved already), of the class that
    solves its turn: a declared target's is ``DeclaredSolver``."""
    return (DeclaredSolver if variant.declared_target else Solver)(variant, values)


def cache_dir() -> Path:
    default = Path(__file__).resolve().parents[2] / "var" / "solver"
    return Path(os.environ.get("YATZY_SOLVER_CACHE", default))


def path_of(variant: Variant) -> Path:
    return cache_dir() / f"{variant.name}.npy"


def load(variant: Variant) -> Solver | None:
    """The solved tables of ``variant``, memory-mapped, or None if not built yet."""
    if variant in _LOADED:
        return _LOADED[variant]
    path = path_of(variant)
    if not path.exists():
        return None
    solver = solver_of(variant, np.load(path, mmap_mode="r"))
    _LOADED[variant] = solver
    return solver


def ready(variant: Variant) -> bool:
    """Whether the tables of ``variant`` are built, without loading them."""
    return variant in _LOADED or path_of(variant).exists()


def build(
    variant: Variant, progress: bool = True, workers: int | None = None, out: Output | None = None
) -> Solver:
    """Solve ``variant`` and store its tables (written whole, then moved into place);
    with ``progress``, a bar on stderr and, at the end, what it cost on ``out``
    (stdout by default): wall time, and CPU time of every process that worked on it."""
    solver = solver_of(variant)
    started, cpu_started = time.perf_counter(), _cpu_seconds()
    solver.build(_progress_bar(variant.name, started) if progress else None, workers)
    path = path_of(variant)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp.npy")
    np.save(partial, solver.values)
    partial.replace(path)
    if progress:
        print(file=sys.stderr)
        (out or sys.stdout).write(
            f"{variant.name}: expected score {solver.expected_score:.4f}, "
            f"{_size(path.stat().st_size)} -> {path}\n"
            f"{variant.name}: built in {time.perf_counter() - started:.1f} s wall time, "
            f"{_cpu_seconds() - cpu_started:.1f} s CPU time (user + system, all processes)\n"
        )
    _LOADED.pop(variant, None)
    return load(variant) or solver  # memory-mapped, as every other process sees it


# Workers on every core cost this much more CPU a position than one process alone (they
# share the CPU's caches): Yatzy 4.3-4.4 CPU-s on two against 3.7 in one, Maxi Yatzy 684
# on two against ~540 sampled in one (docs/strategy.md).
WORKERS_SHARING = 1.25


def estimate(variant: Variant, workers: int | None = None) -> str:
    """How long building ``variant``'s tables will take, measured on a sample."""
    solver = solver_of(variant)
    workers = workers or os.cpu_count() or 1
    positions, solved = solver.count_positions(), solver.count_positions(solved=True)
    seconds = solver.sample_seconds() * solved
    if workers > 1:
        seconds *= WORKERS_SHARING  # measured in this process alone
    return (
        f"{variant.name}: {positions:,} positions ({solved:,} to solve), "
        f"{_size(solver.values.nbytes)}; about "
        f"{_duration(seconds / workers)} on {workers} cores ({_duration(seconds)} of CPU time)"
    )


def _size(size: int) -> str:
    if size < 2**20:
        return f"{size / 2**10:.1f} KiB"
    return f"{size / 2**20:.1f} MiB"


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    return f"{seconds / 60:.0f} min"


def _cpu_seconds() -> float:
    """User + system CPU time of this process and of its finished children."""
    own, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def load_or_build_small(variant: Variant) -> Solver | None:
    """The tables of ``variant``, solved on the spot if it is small (forced order or
    upper section only: a fraction of a second), else only if already built; a whole
    game's tables that are missing are then built in the background (``build_later``),
    for the next time they are asked for."""
    solver = load(variant)
    if solver is None:
        if variant.small:
            return build(variant, progress=False, workers=1)
        build_later(variant)
    return solver


# Per variant, when this process last started a build of it (monotonic seconds).
_STARTED: dict[Variant, float] = {}
_BUILD_AGAIN_AFTER = 600.0  # seconds: a build that died is tried again, not at once


def builds_by_itself(variant: Variant) -> bool:
    """Whether this server builds ``variant``'s tables unasked when a table first needs
    them (``build_later``): not where it builds no tables (``builds_missing``), nor
    whole Maxi Yatzy games, plain or declared, whose build takes 6 to 30 minutes of
    both cores, as fast as the machine is (``manage.py solve --variant maxi_yatzy``
    builds them). Where it does not, the pages name the
    command that builds them."""
    return builds_missing() and (variant.ruleset != "maxi_yatzy" or variant.small)


def builds_missing() -> bool:
    """Whether this server builds missing tables by itself (``build_later``): not with
    ``YATZY_BUILD_TABLES=0``, where only ``manage.py solve`` builds them."""
    return os.environ.get("YATZY_BUILD_TABLES", "1") != "0"


def build_later(variant: Variant) -> bool:
    """Start building ``variant``'s tables in a process of its own, unless they are not
    built unasked, or this process started one lately; True if one was started.

    ``make run`` builds the two default tables; the others (an upper bonus of 25, no
    Yahtzee bonus) are built the first time a table of theirs asks its coach, its
    review or its Perfect computer player: ~20-40 s on two cores, in the meantime
    those say the strategy is still being worked out (or play at Good). A process of
    its own, not a thread: the build forks a worker per core, and a fork from a
    server's threads could leave a lock held in the child. ``YATZY_BUILD_TABLES=0``
    turns it off (the tests do, to build only what they ask for)."""
    if not builds_by_itself(variant):
        return False
    now = time.monotonic()
    started = _STARTED.get(variant)
    if started is not None and now - started < _BUILD_AGAIN_AFTER:
        return False
    _STARTED[variant] = now
    builder = subprocess.Popen(
        [sys.executable, "-m", "games.strategy.build", "--if-missing", f"--variant={variant.name}"],
        cwd=Path(__file__).resolve().parents[2],
        start_new_session=True,  # not stopped with the server's process group
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    # reaped when it ends, or it stays a zombie for as long as the server runs
    threading.Thread(target=builder.wait, name="tables-build", daemon=True).start()
    return True


def _progress_bar(name: str, started: float):
    """A bar redrawn in place on a terminal, a line per tenth in a log, with the time
    left at the pace so far."""
    terminal = sys.stderr.isatty()
    start, end = ("\r", "") if terminal else ("", "\n")
    tenths = [-1]

    def show(done: int, total: int, share: float) -> None:
        filled = int(30 * share)
        if not terminal:
            if (tenth := int(10 * share)) == tenths[0]:
                return
            tenths[0] = tenth
        elapsed = time.perf_counter() - started
        left = elapsed * (1 - share) / share if share else 0.0
        bar = "#" * filled + "-" * (30 - filled)
        print(
            f"{start}{name:>14} [{bar}] {done:,}/{total:,} positions"
            f" {_duration(elapsed):>6}, {_duration(left):>6} left",
            end=end,
            file=sys.stderr,
            flush=True,
        )

    return show
