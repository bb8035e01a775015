"""Value tables on disk: built once per variant, memory-mapped by every process."""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

import numpy as np

from games.strategy.solver import Solver, Variant

_LOADED: dict[Variant, Solver] = {}


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
    solver = Solver(variant, np.load(path, mmap_mode="r"))
    _LOADED[variant] = solver
    return solver


def build(variant: Variant, progress: bool = True, workers: int | None = None) -> Solver:
    """Solve ``variant`` and store its tables (written whole, then moved into place)."""
    solver = Solver(variant)
    started = time.perf_counter()
    solver.build(_progress_bar(variant.name, started) if progress else None, workers)
    path = path_of(variant)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp.npy")
    np.save(partial, solver.values)
    partial.replace(path)
    if progress:
        print(
            f"\n{variant.name}: expected score {solver.expected_score:.4f}, "
            f"built in {time.perf_counter() - started:.1f} s -> {path}",
            file=sys.stderr,
        )
    _LOADED[variant] = solver
    return solver


def load_or_build_small(variant: Variant) -> Solver | None:
    """The tables of ``variant``, solved on the spot if it is small (forced order or
    upper section only: a fraction of a second), else only if already built."""
    solver = load(variant)
    if solver is None and (variant.forced_order or variant.upper_only):
        solver = build(variant, progress=False, workers=1)
    return solver


def load_or_build(variant: Variant, progress: bool = True) -> Solver:
    return load(variant) or build(variant, progress)


def _progress_bar(name: str, started: float):
    """A bar redrawn in place on a terminal; a line per tenth in a log."""
    terminal = sys.stderr.isatty()
    start, end = ("\r", "") if terminal else ("", "\n")
    tenths = [-1]

    def show(done: int, total: int) -> None:
        filled = int(30 * done / total)
        if not terminal:
            if (tenth := 10 * done // total) == tenths[0]:
                return
            tenths[0] = tenth
        elapsed = time.perf_counter() - started
        bar = "#" * filled + "-" * (30 - filled)
        print(
            f"{start}{name:>14} [{bar}] {done}/{total} positions {elapsed:5.1f} s",
            end=end,
            file=sys.stderr,
            flush=True,
        )

    return show
