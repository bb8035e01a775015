"""Counting a process's machine instructions with valgrind's callgrind: run it under
``wrapper(out)``, switch the count on and off around the part to count, read the total.
The same program on the same input gives the same count to a fraction of a per cent,
whatever else the machine is doing; CPU time here moves by 10-30 % between runs."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile


def available() -> bool:
    return shutil.which("valgrind") is not None and shutil.which("callgrind_control") is not None


def wrapper() -> tuple[list[str], str]:
    """The command to run a program under (counting switched off until ``switch``), and
    the file its counts are written to when it exits."""
    out = os.path.join(tempfile.mkdtemp(prefix="yatzy-callgrind-"), "callgrind.out")
    command = ["valgrind", "--tool=callgrind", "--instr-atstart=no"]
    return [*command, f"--callgrind-out-file={out}"], out


def switch(on: bool, pid: int) -> None:
    """Count the instructions of process ``pid`` from now on, or stop counting."""
    subprocess.run(
        ["callgrind_control", f"--instr={'on' if on else 'off'}", str(pid)],
        check=True,
        capture_output=True,
    )


def total(out: str) -> int | None:
    """The instructions counted, once the process has exited (None if it wrote none)."""
    try:
        with open(out) as counts:
            found = re.search(r"^totals: (\d+)", counts.read(), re.MULTILINE)
    except FileNotFoundError:
        return None
    return int(found.group(1)) if found else None
