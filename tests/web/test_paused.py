"""Redis out of reach where a request needed it: a page that says live updates are
paused, with 503 and when to try again, in the page's language; never a bare 500."""

from __future__ import annotations

import pytest
from django.test import Client
from redis.exceptions import ConnectionError as RedisConnectionError

from games import services
from tests.conftest import NEW_GAME


def redis_is_down(*args: object, **kwargs: object) -> None:
    raise RedisConnectionError("Error 111 connecting to redis:6379. Connection refused.")


@pytest.fixture
def browser(db: None) -> Client:
    return Client(raise_request_exception=False)  # answered as a browser would be


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "Live updates are paused for a moment"), ("fi", "päivitykset ovat hetken tauolla")],
)
def test_a_request_that_needed_redis_while_it_is_down_is_told_live_updates_are_paused(
    browser: Client, monkeypatch: pytest.MonkeyPatch, language: str, words: str
) -> None:
    monkeypatch.setattr(services, "create_game", redis_is_down)

    response = browser.post("/games/new/", NEW_GAME, HTTP_ACCEPT_LANGUAGE=language)

    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert words in response.content.decode()


def test_any_other_error_is_still_the_sites_own_500_page(
    browser: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(services, "create_game", lambda *a, **k: 1 / 0)

    response = browser.post("/games/new/", NEW_GAME)

    assert response.status_code == 500
    assert "Something went wrong on our side" in response.content.decode()
