"""The lock agrees with pyproject.toml, and every install goes through it.

requirements/site.txt (the image) and requirements/dev.txt (`make run`, `make test`)
pin every package with its hashes; `make lock` writes them from pyproject.toml. These
tests read the files, offline: a requirement added to pyproject, or a range moved, or
one dropped, without `make lock` fails here instead of installing whatever the day's
releases are, or not installing what the site now imports.
"""

from __future__ import annotations

import re
import runpy
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
LOCK_SCRIPT = runpy.run_path(str(ROOT / "requirements" / "lock.py"))
# the Pythons a lock must serve: those of these that requires-python accepts
PYTHONS = [
    version
    for version in ("3.11", "3.12", "3.13", "3.14")
    if SpecifierSet(PYPROJECT["project"]["requires-python"]).contains(f"{version}.0")
]
LOCKS = ["site.txt", "dev.txt"]
FROM_PYPROJECT = "yatzy-site (pyproject.toml)"
RELOCK = "pyproject.toml and the lock disagree: run `make lock` and commit requirements/"


@dataclass
class Pin:
    requirement: Requirement
    via: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return canonicalize_name(self.requirement.name)

    @property
    def version(self) -> str:
        (specifier,) = self.requirement.specifier
        return specifier.version

    def applies_on(self, python: str) -> bool:
        marker = self.requirement.marker
        return marker is None or marker.evaluate(environment(python))


def environment(python: str) -> dict[str, str]:
    return {"python_version": python, "python_full_version": f"{python}.0"}


def read_lock(name: str) -> list[Pin]:
    """The pins of a lock file, each with what uv says it is there for."""
    pins: list[Pin] = []
    for line in (ROOT / "requirements" / name).read_text().splitlines():
        text = line.strip().removesuffix("\\").strip()
        if not text or line.startswith("#") or text.startswith("--hash="):
            continue
        if not line[0].isspace():
            pins.append(Pin(Requirement(text)))
        elif reason := re.sub(r"^#\s*(via\b)?\s*", "", text):
            pins[-1].via.append(reason)
    return pins


def locked_from(lock: str) -> list[Requirement]:
    """What pyproject.toml asks of ``lock``: the site, the tests, the build backend."""
    lists = LOCK_SCRIPT["requirement_lists"](PYPROJECT)
    names = ["dependencies", "build"] + (["dev"] if lock == "dev.txt" else [])
    return [Requirement(line) for name in names for line in lists[name]]


@pytest.mark.parametrize("lock", LOCKS)
def test_the_lock_was_written_from_the_requirements_pyproject_has_now(lock: str) -> None:
    text = (ROOT / "requirements" / lock).read_text()
    recorded = re.search(rf"^{re.escape(LOCK_SCRIPT['DIGEST_LINE'])}(\w+)$", text, re.M)
    assert recorded, f"requirements/{lock} records no digest of pyproject's requirements"
    assert recorded.group(1) == LOCK_SCRIPT["requirements_digest"](PYPROJECT), RELOCK


@pytest.mark.parametrize("lock", LOCKS)
def test_every_requirement_of_pyproject_is_pinned_within_its_range(lock: str) -> None:
    for python in PYTHONS:
        pins = [pin for pin in read_lock(lock) if pin.applies_on(python)]
        for requirement in locked_from(lock):
            if requirement.marker and not requirement.marker.evaluate(environment(python)):
                continue
            name = canonicalize_name(requirement.name)
            versions = [pin.version for pin in pins if pin.name == name]
            assert versions, (
                f"{requirement} is not in requirements/{lock} on Python {python}. {RELOCK}"
            )
            assert len(versions) == 1, f"{name} is pinned twice on Python {python}: {versions}"
            assert requirement.specifier.contains(versions[0], prereleases=True), (
                f"requirements/{lock} pins {name}=={versions[0]} on Python {python}, "
                f"outside {requirement}. {RELOCK}"
            )


@pytest.mark.parametrize("lock", LOCKS)
def test_the_lock_pins_nothing_at_top_level_that_pyproject_no_longer_asks_for(lock: str) -> None:
    asked = {canonicalize_name(requirement.name) for requirement in locked_from(lock)}
    build = {
        canonicalize_name(Requirement(line).name) for line in PYPROJECT["build-system"]["requires"]
    }
    for pin in read_lock(lock):
        # uv names the package that needs each pin; the build backend comes in unnamed
        needed_by = [reason for reason in pin.via if not reason.startswith("-c ")]
        if FROM_PYPROJECT in needed_by:
            assert pin.name in asked, f"pyproject.toml no longer asks for {pin.name}. {RELOCK}"
        elif not needed_by:
            assert pin.name in build, f"nothing needs {pin.name}. {RELOCK}"


def test_the_tests_run_on_the_pins_the_site_is_deployed_with() -> None:
    dev = {(pin.name, pin.version, str(pin.requirement.marker)) for pin in read_lock("dev.txt")}
    for pin in read_lock("site.txt"):
        assert (pin.name, pin.version, str(pin.requirement.marker)) in dev, (
            f"requirements/dev.txt does not pin {pin.requirement} as site.txt does. {RELOCK}"
        )


def test_every_install_takes_the_locked_files_and_nothing_else() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert re.findall(r"pip install [^\n]*", dockerfile) == [
        "pip install --require-hashes -r requirements/site.txt",
        "pip install --no-deps --no-build-isolation .",
    ]
    makefile = (ROOT / "Makefile").read_text()
    assert "$(PY) -m pip install --quiet --require-hashes -r requirements/dev.txt" in makefile
    assert "$(PY) -m pip install --quiet --no-deps --no-build-isolation -e ." in makefile
    assert re.search(r"^\$\(LOCKED\): requirements/dev\.txt$", makefile, re.M)
