"""Limits on what one browser and one address may do (games/limits.py): over one, a
429 page that says when to try again, in the page's language; nothing done. Asked as
the server asks (``AtTheDoor``): the limits are checked in front of Django's handler."""

from __future__ import annotations

import time

import pytest
from django.test import Client
from django.utils import translation
from django.utils.translation import ngettext

from games.models import Game
from tests.conftest import NEW_GAME, LimitsClock, create_game, fresh, version
from tests.site_client import Answer, AtTheDoor

# the door's requests are served in a thread of their own, on a connection of its own
pytestmark = pytest.mark.django_db(transaction=True)
HTMX = {"HTTP_HX_REQUEST": "true"}
WAIT_WORDS = "Too many requests from your browser or your network just now"


def new_game(client: Client, **extra: str) -> Answer:
    return AtTheDoor(client).post("/games/new/", {**NEW_GAME, "players": "Bob"}, **extra)


def been_here(*clients: Client) -> None:
    """Each browser has its session (its first game): a browser is counted by its session
    cookie, which a browser's first request has yet to get."""
    for client in clients:
        assert new_game(client).status_code == 302


def test_a_browser_over_its_limit_of_new_games_is_told_to_wait_until_the_window_ends(
    alice: Client, settings, limits_on: LimitsClock
) -> None:
    been_here(alice)
    settings.YATZY_RATES["create"]["browser"] = (2, 60)
    assert new_game(alice).status_code == 302
    assert new_game(alice).status_code == 302
    limits_on.advance(45)

    refused = new_game(alice)

    assert refused.status_code == 429
    assert refused["Retry-After"] == "15"
    assert f"{WAIT_WORDS}: try again in 15 seconds." in refused.content.decode()
    assert Game.objects.count() == 3

    limits_on.advance(15)  # the next window

    assert new_game(alice).status_code == 302
    assert Game.objects.count() == 4


def test_a_long_wait_is_said_in_minutes(alice: Client, settings, limits_on: LimitsClock) -> None:
    been_here(alice)
    settings.YATZY_RATES["create"]["browser"] = (1, 600)
    new_game(alice)
    limits_on.advance(10)

    refused = new_game(alice)

    assert refused["Retry-After"] == "590"
    assert f"{WAIT_WORDS}: try again in 10 minutes." in refused.content.decode()


@pytest.mark.parametrize("language", ["fi", "sv", "de", "it"])
def test_the_429_page_is_in_the_pages_language(
    alice: Client, settings, limits_on: LimitsClock, language: str
) -> None:
    been_here(alice)
    settings.YATZY_RATES["create"]["browser"] = (1, 30)
    new_game(alice)

    refused = new_game(alice, HTTP_ACCEPT_LANGUAGE=language)

    with translation.override(language):
        words = ngettext(
            "Too many requests from your browser or your network just now:"
            " try again in %(count)s second.",
            "Too many requests from your browser or your network just now:"
            " try again in %(count)s seconds.",
            30,
        ) % {"count": 30}
    assert refused.status_code == 429
    assert WAIT_WORDS not in words  # translated
    assert words in refused.content.decode()


def test_the_address_is_counted_across_browsers_and_without_cookies(
    alice: Client, bob: Client, settings, limits_on: LimitsClock
) -> None:
    been_here(alice, bob)
    settings.YATZY_RATES["create"]["browser"] = (2, 60)
    settings.YATZY_RATES["create"]["address"] = (3, 60)
    assert [new_game(alice).status_code for _ in range(3)] == [302, 302, 429]  # its browser's
    # bob's own count is at 1 of 2, but his address (alice's too) is at 4 of 3
    assert new_game(bob).status_code == 429
    assert new_game(Client()).status_code == 429  # no cookie: the address still counts
    elsewhere = Client(REMOTE_ADDR="10.0.0.7")

    assert new_game(elsewhere).status_code == 302


def test_a_browser_is_counted_whatever_its_address(
    alice: Client, settings, limits_on: LimitsClock
) -> None:
    been_here(alice)
    settings.YATZY_RATES["create"]["browser"] = (2, 60)
    new_game(alice, REMOTE_ADDR="10.0.0.1")
    new_game(alice, REMOTE_ADDR="10.0.0.2")

    assert new_game(alice, REMOTE_ADDR="10.0.0.3").status_code == 429
    assert new_game(Client(REMOTE_ADDR="10.0.0.3")).status_code == 302  # another browser


def test_an_ipv6_address_is_counted_by_its_64(settings, limits_on: LimitsClock) -> None:
    settings.YATZY_RATES["create"]["address"] = (2, 60)
    new_game(Client(REMOTE_ADDR="2001:db8:1:2::1"))
    new_game(Client(REMOTE_ADDR="2001:db8:1:2:ffff::9"))

    assert new_game(Client(REMOTE_ADDR="2001:db8:1:2::abcd")).status_code == 429
    assert new_game(Client(REMOTE_ADDR="2001:db8:1:3::1")).status_code == 302


def test_moves_over_the_limit_are_refused_and_the_table_stays_as_it_was(
    alice: Client, settings, limits_on: LimitsClock, dice: object
) -> None:
    game = create_game(alice, players="Bob")
    settings.YATZY_RATES["move"]["browser"] = (3, 60)
    rolled = AtTheDoor(alice).post(f"/g/{game.code}/roll/", {"version": version(game)}, **HTMX)
    assert rolled.status_code == 200
    for die in ("0", "1"):
        held = AtTheDoor(alice).post(
            f"/g/{game.code}/hold/", {"version": version(game), "die": die}, **HTMX
        )
        assert held.status_code == 200
    before = fresh(game).version

    refused = AtTheDoor(alice).post(f"/g/{game.code}/roll/", {"version": str(before)}, **HTMX)

    assert refused.status_code == 429
    # htmx puts it in place of the page, which links back to the table
    assert refused["HX-Retarget"] == "body"
    assert f'href="/g/{game.code}/"' in refused.content.decode()
    assert fresh(game).version == before


def test_joining_counts_the_seats_taken_not_the_page_looked_at(
    alice: Client, bob: Client, settings, limits_on: LimitsClock
) -> None:
    game = create_game(alice, invites="2")
    been_here(bob)
    settings.YATZY_RATES["join"]["browser"] = (1, 60)
    for _ in range(3):
        assert AtTheDoor(bob).get(f"/g/{game.code}/join/").status_code == 200
    other = create_game(alice, invites="1")
    assert AtTheDoor(bob).post(f"/g/{game.code}/join/", {"name": "Bob"}).status_code == 302

    refused = AtTheDoor(bob).post(f"/g/{other.code}/join/", {"name": "Bob"})

    assert refused.status_code == 429
    assert not other.seats.filter(name="Bob").exists()


def test_a_seat_at_an_open_table_counts_as_joining_and_its_list_does_not(
    alice: Client, bob: Client, settings, limits_on: LimitsClock
) -> None:
    first = create_game(alice, invites="1", open_to_anyone="on")
    second = create_game(alice, invites="1", open_to_anyone="on")
    been_here(bob)
    settings.YATZY_RATES["join"]["browser"] = (1, 60)
    for _ in range(3):
        assert AtTheDoor(bob).get("/tables/").status_code == 200
    taken = AtTheDoor(bob).post("/tables/join/", {"name": "Bob", "code": first.code})
    assert taken.status_code == 302

    refused = AtTheDoor(bob).post("/tables/join/", {"name": "Bob", "code": second.code})

    assert refused.status_code == 429
    assert WAIT_WORDS in refused.content.decode()
    assert not second.seats.filter(name="Bob").exists()


def test_a_personal_link_counts_as_joining(
    alice: Client, bob: Client, settings, limits_on: LimitsClock
) -> None:
    game = create_game(alice, invites="1")
    token = game.seats.get(kind="remote").token
    been_here(bob)
    settings.YATZY_RATES["join"]["browser"] = (1, 60)
    assert AtTheDoor(bob).post(f"/g/{game.code}/seat/{token}/").status_code == 302

    assert AtTheDoor(bob).get(f"/g/{game.code}/seat/{token}/").status_code == 429


def test_a_request_the_view_does_not_take_is_refused_without_being_counted(
    alice: Client, settings, limits_on: LimitsClock
) -> None:
    been_here(alice)
    settings.YATZY_RATES["create"]["browser"] = (1, 60)
    assert AtTheDoor(alice).get("/games/new/").status_code == 405

    assert new_game(alice).status_code == 302


def test_with_the_limits_off_nothing_is_counted(alice: Client, settings) -> None:
    settings.YATZY_LIMITS = False
    settings.YATZY_RATES = {"create": {"browser": (1, 60), "address": (1, 60)}}

    assert [new_game(alice).status_code for _ in range(3)] == [302, 302, 302]


def test_a_store_that_fails_limits_nothing(alice: Client, settings, limits_on: LimitsClock) -> None:
    been_here(alice)
    settings.CACHES = {
        **settings.CACHES,
        "limits": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        },
    }
    settings.YATZY_RATES["create"]["browser"] = (1, 60)

    assert [new_game(alice).status_code for _ in range(2)] == [302, 302]


def test_a_refusal_is_answered_after_a_pause_and_an_allowed_request_is_not(
    alice: Client, settings, limits_on: LimitsClock
) -> None:
    """A client that asks again as soon as it is answered (a flood) is held to a
    request per pause and connection (yatzy_site/door.py). The pause is long enough
    that an allowed request, even on a busy machine, is answered well within it."""
    been_here(alice)
    settings.YATZY_RATES["create"]["browser"] = (1, 60)
    settings.YATZY_REFUSAL_DELAY_MS = 2000
    asked = time.monotonic()
    assert new_game(alice).status_code == 302
    assert time.monotonic() - asked < 2

    asked = time.monotonic()
    assert new_game(alice).status_code == 429
    assert time.monotonic() - asked >= 2


def test_the_test_client_goes_past_the_door(
    alice: Client, settings, limits_on: LimitsClock
) -> None:
    """What the tests above go through the ASGI application for: the limits are not a
    middleware of Django's chain (a refusal there cost the tables two trips to the
    sync thread), and Django's test Client does not meet them."""
    been_here(alice)
    settings.YATZY_RATES["create"]["browser"] = (1, 60)
    assert new_game(alice).status_code == 302
    assert new_game(alice).status_code == 429

    assert alice.post("/games/new/", {**NEW_GAME, "players": "Bob"}).status_code == 302


def test_the_429_carries_the_security_headers_every_answer_does(
    alice: Client, settings, limits_on: LimitsClock
) -> None:
    been_here(alice)
    settings.YATZY_RATES["create"]["browser"] = (1, 60)
    new_game(alice)
    page = AtTheDoor(alice).get("/")

    refused = new_game(alice)

    assert refused.status_code == 429
    for header in ("X-Frame-Options", "X-Content-Type-Options", "Referrer-Policy"):
        assert refused[header] == page[header]
    if "content-security-policy" in page.headers:  # Django 6
        assert refused["Content-Security-Policy"] == page["Content-Security-Policy"]


def test_quick_play_counts_as_making_a_game(
    alice: Client, settings, limits_on: LimitsClock
) -> None:
    """A press of Play someone now may make a table, and so may the computer instead:
    both count as making a game; the waiting page, only looked at, does not."""
    been_here(alice)
    settings.YATZY_RATES["create"]["browser"] = (1, 60)
    door = AtTheDoor(alice)
    assert door.post("/quick/play/", {"name": "Ann", "ruleset": "yatzy"}).status_code == 302
    for _ in range(3):
        assert door.get("/quick/").status_code == 200

    refused = door.post("/quick/computer/", {"ruleset": "yatzy"})
    assert refused.status_code == 429
    assert WAIT_WORDS in refused.content.decode()
    assert door.get("/quick/").status_code == 200  # still waiting: nothing was done
    assert Game.objects.count() == 1
