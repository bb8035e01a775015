"""/metrics as an operator reads it: there for the addresses and the token the
settings name, and for nobody else; the moves, refusals, failures and requests counted
as they happen, read from its text as Prometheus reads it."""

from __future__ import annotations

from ipaddress import ip_network

import pytest
from asgiref.sync import sync_to_async
from django.http import HttpRequest, HttpResponse
from django.test import AsyncClient, Client
from django.urls import include, path
from prometheus_client.parser import text_string_to_metric_families

from games.models import Game
from tests.conftest import create_game, version
from tests.metrics import Samples, figures, value

HTMX = {"HTTP_HX_REQUEST": "true"}
TOKEN = "a-token-for-the-scraper-0123456789"


def fails(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug in a view")


# The site with one view more, which fails (``failing_site``).
urlpatterns = [
    path("fails/", fails, name="fails"),
    path("", include("yatzy_site.urls")),
]


@pytest.fixture
def game(alice: Client, dice: object) -> Game:
    return create_game(alice, players="Bob")


def requests(samples: Samples, view: str, method: str, status: str) -> float:
    """How many requests the latency histogram holds for these labels."""
    labels = {"view": view, "method": method, "status": status}
    return value(samples, "yatzy_http_request_duration_seconds_count", **labels)


def roll(client: Client, game: Game, at: str | None = None):
    data = {"version": at if at is not None else version(game)}
    return client.post(f"/g/{game.code}/roll/", data, **HTMX)


@pytest.mark.django_db
def test_nobody_reads_the_metrics_by_default() -> None:
    browser = Client()

    response = browser.get("/metrics")

    assert response.status_code == 404
    # answered as any address the site does not have: nothing tells that it is there
    nowhere = browser.get("/nothing-here")
    assert response.templates[0].name == nowhere.templates[0].name
    assert b"yatzy_" not in response.content


@pytest.mark.django_db
def test_an_address_the_settings_do_not_list_gets_a_404(settings) -> None:
    settings.YATZY_METRICS_ALLOW = [ip_network("10.0.0.0/8")]
    browser = Client()

    assert browser.get("/metrics", REMOTE_ADDR="192.0.2.7").status_code == 404
    assert browser.get("/metrics", REMOTE_ADDR="not an address").status_code == 404
    assert browser.get("/metrics", REMOTE_ADDR="10.1.2.3").status_code == 200
    assert browser.get("/metrics", REMOTE_ADDR="::ffff:10.1.2.3").status_code == 200


@pytest.mark.django_db
def test_a_listed_address_reads_them_in_prometheus_text_format(operator: Client) -> None:
    response = operator.get("/metrics")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=")
    body = response.content.decode()
    kinds = {family.name: family.type for family in text_string_to_metric_families(body)}
    assert {name: kind for name, kind in kinds.items() if name.startswith("yatzy_")} == {
        "yatzy_moves": "counter",
        "yatzy_pushes": "counter",
        "yatzy_open_sockets": "gauge",
        "yatzy_socket_closes": "counter",
        "yatzy_http_request_duration_seconds": "histogram",
        "yatzy_http_errors": "counter",
    }
    samples = figures(operator)
    assert ("yatzy_moves_total", frozenset({("kind", "score")})) in samples  # before any score


@pytest.mark.django_db
def test_the_token_opens_them_from_any_address(settings) -> None:
    settings.YATZY_METRICS_TOKEN = TOKEN
    scraper = Client(REMOTE_ADDR="192.0.2.7")

    assert scraper.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}").status_code == 200
    assert scraper.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}x").status_code == 404
    assert scraper.get("/metrics", HTTP_AUTHORIZATION=f"Basic {TOKEN}").status_code == 404
    assert scraper.get("/metrics").status_code == 404


@pytest.mark.django_db(transaction=True)  # a move is counted once it commits
def test_a_roll_counts_one_roll_and_one_timed_request(
    operator: Client, alice: Client, game: Game
) -> None:
    before = figures(operator)

    assert roll(alice, game).status_code == 200

    after = figures(operator)
    assert value(after, "yatzy_moves_total", kind="roll") == (
        value(before, "yatzy_moves_total", kind="roll") + 1
    )
    assert value(after, "yatzy_moves_total", kind="score") == (
        value(before, "yatzy_moves_total", kind="score")
    )
    assert requests(after, "roll", "POST", "2xx") == requests(before, "roll", "POST", "2xx") + 1
    seconds = "yatzy_http_request_duration_seconds_sum"
    labels = {"view": "roll", "method": "POST", "status": "2xx"}
    assert value(after, seconds, **labels) > value(before, seconds, **labels)


def test_a_stale_move_is_counted_as_refused_not_as_a_move(
    operator: Client, alice: Client, game: Game
) -> None:
    old = version(game)
    roll(alice, game)
    before = figures(operator)

    assert roll(alice, game, at=old).status_code == 409

    after = figures(operator)
    refused = {"view": "roll", "method": "POST", "status": "409"}
    assert value(after, "yatzy_http_errors_total", **refused) == (
        value(before, "yatzy_http_errors_total", **refused) + 1
    )
    assert requests(after, "roll", "POST", "4xx") == requests(before, "roll", "POST", "4xx") + 1
    assert value(after, "yatzy_moves_total", kind="roll") == (
        value(before, "yatzy_moves_total", kind="roll")
    )


@pytest.mark.django_db
def test_an_address_the_site_does_not_have_is_counted_under_one_label(operator: Client) -> None:
    before = figures(operator)

    assert operator.get("/no/such/page/").status_code == 404

    after = figures(operator)
    missing = {"view": "unmatched", "method": "GET", "status": "404"}
    assert value(after, "yatzy_http_errors_total", **missing) == (
        value(before, "yatzy_http_errors_total", **missing) + 1
    )


@pytest.mark.django_db
@pytest.mark.urls("tests.web.test_metrics")
def test_a_view_that_fails_is_counted_as_a_5xx(operator: Client) -> None:
    before = figures(operator)
    browser = Client(raise_request_exception=False)

    assert browser.get("/fails/").status_code == 500

    after = figures(operator)
    failed = {"view": "fails", "method": "GET", "status": "500"}
    assert value(after, "yatzy_http_errors_total", **failed) == (
        value(before, "yatzy_http_errors_total", **failed) + 1
    )
    assert requests(after, "fails", "GET", "5xx") == requests(before, "fails", "GET", "5xx") + 1


@pytest.mark.django_db
@pytest.mark.asyncio
async def test_a_request_through_an_async_chain_is_timed_too(operator: Client, settings) -> None:
    # the site's chain is synchronous (WhiteNoise's middleware is); alone, the
    # middleware is async under ASGI, and must count the same
    settings.MIDDLEWARE = ["yatzy_site.monitoring.timed"]
    before = await sync_to_async(figures)(operator)

    assert (await AsyncClient().get("/no/such/page/")).status_code == 404

    after = await sync_to_async(figures)(operator)
    assert requests(after, "unmatched", "GET", "4xx") == (
        requests(before, "unmatched", "GET", "4xx") + 1
    )
