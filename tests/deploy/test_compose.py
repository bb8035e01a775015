"""The Compose deployment keeps the solver's tables where every web process finds them.

There is no Docker daemon where the suite runs, so the files are read, not run: what
is checked is that the image, the one-off step and the web processes agree on one
place for the tables, and that the one-off step builds them before any web process
starts. Without that, each container built its own tables on first use (a minute of
every core, beside live tables), and lost them with every new deployment."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
DOCKERFILE = (ROOT / "Dockerfile").read_text()
WEB = ["web1", "web2"]


def image_env(name: str) -> str:
    found = re.search(rf"\b{name}=(\S+)", DOCKERFILE)
    assert found, f"the Dockerfile sets no {name}"
    return found.group(1)


def mounted_at(service: str, path: str) -> str | None:
    """The named volume ``service`` mounts at ``path``, if any."""
    for volume in COMPOSE["services"][service].get("volumes", []):
        source, _, target = volume.partition(":")
        if target.split(":")[0] == path:
            return source
    return None


def test_the_web_processes_and_the_one_off_step_share_one_volume_for_the_tables() -> None:
    cache = image_env("YATZY_SOLVER_CACHE")
    volumes = {service: mounted_at(service, cache) for service in [*WEB, "migrate"]}
    assert len(set(volumes.values())) == 1, volumes
    (volume,) = set(volumes.values())
    assert volume in COMPOSE["volumes"], f"{volume} is not a named volume"
    # a new named volume takes the image's directory, owner included: the site's user
    # must own it to write the tables
    assert re.search(rf"mkdir -p {re.escape(cache)}\b.*chown -R yatzy", DOCKERFILE)


def test_the_tables_are_built_before_any_web_process_starts() -> None:
    command = " ".join(COMPOSE["services"]["migrate"]["command"])
    assert "manage.py migrate" in command
    assert re.search(r"manage\.py solve --if-missing(?! --background)", command)
    for service in WEB:
        depends = COMPOSE["services"][service]["depends_on"]
        assert depends["migrate"]["condition"] == "service_completed_successfully"
