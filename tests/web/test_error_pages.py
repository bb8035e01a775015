"""What the site says when a request is refused before any game is looked at: a wrong
method, an address with nothing at it, an expired form, a request it cannot read. Each
a page of the site's own, in the browser's language, never Django's bare text."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game
from tests.conftest import create_game, fresh

HTMX = {"HTTP_HX_REQUEST": "true"}
FINNISH = {"HTTP_ACCEPT_LANGUAGE": "fi"}


@pytest.fixture
def game(alice: Client, dice: object) -> Game:
    return create_game(alice, players="Bob")


@pytest.mark.parametrize(
    ("method", "path"),
    [("get", "roll/"), ("get", "score/"), ("get", "again/"), ("post", "hint/"), ("post", "")],
)
def test_a_wrong_method_is_told_so(alice: Client, game: Game, method: str, path: str) -> None:
    response = getattr(alice, method)(f"/g/{game.code}/{path}", **HTMX)

    assert response.status_code == 405
    assert "does not take that kind of request" in response.content.decode()
    assert response["Allow"] in ("POST", "GET, HEAD")
    assert response["HX-Retarget"] == "body"


def test_an_address_with_nothing_at_it_says_so_in_the_browsers_language(
    alice: Client, game: Game
) -> None:
    english = alice.get(f"/g/{game.code}/no-such-page/")
    finnish = Client().get("/no/such/page/", **FINNISH)

    assert english.status_code == finnish.status_code == 404
    assert "There is nothing at this address" in english.content.decode()
    assert "Tässä osoitteessa ei ole mitään" in finnish.content.decode()


def test_a_form_from_an_expired_page_is_told_to_reload(game: Game) -> None:
    stranger = Client(enforce_csrf_checks=True)

    response = stranger.post(f"/g/{game.code}/roll/", {"version": "1"}, **HTMX)

    assert response.status_code == 403
    assert "This page has expired" in response.content.decode()
    assert fresh(game).version == game.version


def test_a_request_the_site_cannot_read_is_told_so(alice: Client, game: Game) -> None:
    too_many = "&".join(["die=0"] * 2000)  # over Django's limit of fields

    response = alice.post(
        f"/g/{game.code}/hold/",
        too_many,
        content_type="application/x-www-form-urlencoded",
        **FINNISH,
        **HTMX,
    )

    assert response.status_code == 400
    assert "Selaimesi lähetti jotain" in response.content.decode()
    assert response["HX-Retarget"] == "body"  # the table's script swaps 4xx answers in
    assert fresh(game).state == game.state


@pytest.mark.parametrize("headers", [{}, HTMX, FINNISH])
def test_a_request_for_a_host_the_site_does_not_serve_is_refused_on_its_page(
    headers: dict[str, str],
) -> None:
    """Django refuses a Host not in ALLOWED_HOSTS before the site's middleware has read
    the request (htmx, the language): the refusal is still the site's page."""
    response = Client().get("/", HTTP_HOST="elsewhere.example", **headers)

    assert response.status_code == 400
    page = response.content.decode()
    if headers is FINNISH:
        assert "Selaimesi lähetti jotain" in page
    else:
        assert "Your browser sent something this site cannot read." in page
    if headers is HTMX:
        assert response["HX-Retarget"] == "body"


def test_a_server_error_has_a_page_of_the_sites_own(rf) -> None:
    from django.utils import translation
    from django.views.defaults import server_error

    with translation.override("en"):
        response = server_error(rf.get("/"))

    assert response.status_code == 500
    assert "Something went wrong on our side" in response.content.decode()
