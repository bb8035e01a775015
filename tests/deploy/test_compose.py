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


PROMETHEUS = yaml.safe_load((ROOT / "deploy" / "prometheus.yml").read_text())
NGINX = (ROOT / "deploy" / "nginx.conf").read_text()


def test_prometheus_scrapes_every_web_process_on_its_own_with_the_token() -> None:
    (job,) = PROMETHEUS["scrape_configs"]
    targets = {target for group in job["static_configs"] for target in group["targets"]}
    services = COMPOSE["services"]
    named = {s for s, spec in services.items() if "YATZY_PROCESS" in spec.get("environment", {})}

    # each process counts for itself: the proxy would answer from any one of them
    assert targets == {f"{service}:8000" for service in named} == {"web1:8000", "web2:8000"}
    assert job["metrics_path"] == "/metrics"
    assert job["authorization"]["credentials_file"] == "/run/secrets/metrics_token"
    for service in named:
        environment = services[service]["environment"]
        # Prometheus asks for the service's name as the host, which Django must serve
        assert service in environment["ALLOWED_HOSTS"].split(",")
        assert environment["YATZY_METRICS_TOKEN"] == "${YATZY_METRICS_TOKEN:-}"


def test_the_proxy_passes_on_the_address_that_connected_not_the_one_a_client_claims() -> None:
    # daphne takes the first address of X-Forwarded-For: one a client sent, appended
    # to, would let it claim an address allowed to read /metrics
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in NGINX
    assert "$proxy_add_x_forwarded_for" not in NGINX
    assert "--proxy-headers" in DOCKERFILE


def test_tidy_runs_as_a_service_of_its_own_on_the_sites_database_and_the_web_does_not() -> None:
    services = COMPOSE["services"]
    tidy = services["tidy"]
    command = " ".join(tidy["command"])

    assert re.fullmatch(r"python manage\.py tidy --every \$\{YATZY_TIDY_EVERY_S:-3600\}", command)
    assert tidy["image"] == services["web1"]["image"]
    assert tidy["environment"]["DATABASE_URL"] == services["web1"]["environment"]["DATABASE_URL"]
    assert tidy["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    for service in WEB:  # production: YATZY_TIDY_EVERY_S is 0 unless set
        assert services[service]["environment"]["YATZY_PRODUCTION"] == "1"
        assert "YATZY_TIDY_EVERY_S" not in services[service]["environment"]


def test_the_proxy_limits_requests_and_connections_per_address_with_a_429() -> None:
    assert re.search(r"limit_req_zone \$binary_remote_addr zone=(\w+):\S+ rate=\d+r/s;", NGINX)
    assert re.search(r"limit_req zone=\w+ burst=\d+ nodelay;", NGINX)
    assert re.search(r"limit_conn_zone \$binary_remote_addr zone=\w+:\S+;", NGINX)
    assert "limit_req_status 429;" in NGINX and "limit_conn_status 429;" in NGINX
