"""Write the lock files from pyproject.toml; `make lock` runs this (`make lock UPGRADE=1`
takes the newest releases the ranges allow instead of keeping the pins that still fit).

requirements/site.txt pins what the site runs on, the build backend included: the
Dockerfile installs it. requirements/dev.txt holds the same pins plus what the tests
need: `make run` and `make test` install it. Each file is one resolution for every
Python that pyproject.toml accepts (uv's universal mode writes the markers, such as
Django 5.2 below 3.12) and lists the sha256 of every wheel and sdist of each pin, so
that `pip install --require-hashes` installs the same bytes on every machine; plain pip
installs them, uv is needed only here.

The header records a digest of pyproject's requirement lists, which
tests/deploy/test_lock.py compares, so that a change to them without a new lock fails
the suite. Stdlib only: it runs before the lock's own packages are installed.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = ROOT / "pyproject.toml"
SITE = "requirements/site.txt"
DEV = "requirements/dev.txt"
DIGEST_LINE = "# pyproject.toml requirements sha256: "


def requirement_lists(pyproject: dict) -> dict[str, list[str]]:
    """What each lock is made from: the site's dependencies, the dev extra, and the
    build backend (the project is installed without build isolation, from the lock)."""
    return {
        "dependencies": pyproject["project"]["dependencies"],
        "dev": pyproject["project"]["optional-dependencies"]["dev"],
        "build": pyproject["build-system"]["requires"],
        "requires-python": [pyproject["project"]["requires-python"]],
    }


def requirements_digest(pyproject: dict) -> str:
    """A digest that changes with any requirement (order and spacing aside)."""
    lists = {
        name: sorted(" ".join(line.split()) for line in lines)
        for name, lines in requirement_lists(pyproject).items()
    }
    return hashlib.sha256(json.dumps(lists, sort_keys=True).encode()).hexdigest()


def oldest_python(requires_python: str) -> str:
    """The lower bound of requires-python: universal resolution starts there."""
    found = re.fullmatch(r"\s*>=\s*(\d+\.\d+)\s*", requires_python)
    if not found:
        raise SystemExit(f"requires-python must read '>=X.Y' to be locked, not {requires_python!r}")
    return found.group(1)


def compile_lock(output: str, pyproject: dict, *options: str) -> None:
    """Resolve pyproject.toml plus the build backend (given on stdin) into ``output``,
    keeping its pins that still fit, with the requirements digest under uv's header.
    An unchanged lock is not written: its date would rebuild every virtualenv."""
    path = ROOT / output
    with tempfile.TemporaryDirectory() as scratch:
        draft = Path(scratch) / path.name
        if path.exists():
            shutil.copyfile(path, draft)  # uv keeps the pins it finds there
        command = [
            *(sys.executable, "-m", "uv", "pip", "compile", "pyproject.toml", "-"),
            *("--output-file", str(draft)),
            "--universal",
            *("--python-version", oldest_python(pyproject["project"]["requires-python"])),
            "--generate-hashes",
            "--no-config",
            *("--custom-compile-command", "make lock"),
            "--quiet",
            *options,
        ]
        build = "\n".join(pyproject["build-system"]["requires"]) + "\n"
        subprocess.run(command, input=build, text=True, cwd=ROOT, check=True)
        header, _, pins = draft.read_text().partition("\n#    make lock\n")
    if not pins:
        raise SystemExit(f"uv wrote no 'make lock' header to {output}")
    digest = DIGEST_LINE + requirements_digest(pyproject)
    text = f"{header}\n#    make lock\n{digest}\n{pins}"
    if not path.exists() or path.read_text() != text:
        path.write_text(text)
        print(f"wrote {output}")


def main(argv: list[str]) -> None:
    upgrade = ["--upgrade"] if "--upgrade" in argv else []
    pyproject = tomllib.loads(PYPROJECT.read_text())
    compile_lock(SITE, pyproject, *upgrade)
    # the tests run on the site's pins: dev.txt only adds to them
    compile_lock(DEV, pyproject, "--extra", "dev", "--constraint", SITE, *upgrade)


if __name__ == "__main__":
    main(sys.argv[1:])
