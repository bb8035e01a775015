"""No input gets a 5xx: every address of the site (its URLconf, walked) driven with
malformed fields, odd Unicode, NUL bytes, bytes that are no UTF-8, numbers too long for
anything, bad methods, Hosts the site does not serve and forged cookies, by a browser
with seats and by a stranger. Each request runs in a transaction rolled back after
it, so that every example meets the same tables.

The run's size and its seed are hypothesis' profile's (tests/conftest.py): a few
dozen examples an address, the same ones on every run; HYPOTHESIS_PROFILE=explore
tries many more, new ones each time. Like the whole suite, it runs again on
PostgreSQL and Redis (DATABASE_URL, REDIS_URL: .ci/run), where a NUL that reached a
query would be refused by the database; tests/postgres_redis/test_postgres_input.py
names those cases one by one.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Game, Seat
from tests.conftest import create_game, fresh, play_to_the_end
from tests.odd_input import (
    BAD_HOSTS,
    METHODS,
    RAW,
    TRICKY,
    Route,
    every_route,
    form,
    form_pairs,
    odd_bytes,
    path_of,
)

ROUTES = every_route()
NEEDS_A_FINISHED_GAME = {"review", "dice_export", "history", "play_again"}


@dataclass(frozen=True)
class Tables:
    """The games the requests are about, and the cookie of the browser that has seats."""

    codes: list[str]
    tokens: list[str]
    cookie: str


@pytest.fixture
def tables(request: pytest.FixtureRequest, alice: Client, bob: Client, dice: object) -> Tables:
    lobby = create_game(alice, invites="2")
    bob.post(f"/g/{lobby.code}/join/", {"name": "Bob"})
    playing = create_game(alice, players="Carol")
    games = [lobby, playing]
    route = request.node.callspec.params.get("route")
    if route is not None and route.name in NEEDS_A_FINISHED_GAME:
        games.append(play_to_the_end(alice, create_game(alice, upper_only="on")))
    cookie = f"sessionid={alice.cookies['sessionid'].value}"
    tokens = list(Seat.objects.filter(game__in=games).values_list("token", flat=True))
    return Tables([game.code for game in games], tokens, cookie)


def real_or_odd(values: list[str]) -> st.SearchStrategy[bytes]:
    return st.one_of(st.sampled_from(values).map(str.encode), odd_bytes)


def latin1(strategy: st.SearchStrategy[bytes]) -> st.SearchStrategy[str]:
    """A header's value as the server hands it to Django: its bytes, one a character."""
    return strategy.map(lambda value: value.decode("latin-1"))


def cookies(tables: Tables) -> st.SearchStrategy[str]:
    session = st.one_of(
        st.just(tables.cookie),
        latin1(odd_bytes).map(lambda value: f"sessionid={value}"),
        # a quoted cookie's octal escape: Python's cookie reader makes it a NUL
        st.just('sessionid="\\000abcdefghijklmnop"'),
    )
    extra = st.sampled_from(["", "; csrftoken=\x00", "; django_language=\u00e4\x00", "; a=%ff"])
    return st.one_of(st.just(""), st.tuples(session, extra).map("".join))


def headers(tables: Tables) -> st.SearchStrategy[dict[str, str]]:
    return st.fixed_dictionaries(
        {},
        optional={
            "HTTP_HOST": st.sampled_from(BAD_HOSTS),
            "HTTP_COOKIE": cookies(tables),
            "HTTP_HX_REQUEST": st.one_of(st.just("true"), latin1(odd_bytes)),
            "HTTP_HX_TARGET": latin1(odd_bytes),
            "HTTP_X_YATZY_PAGE": latin1(odd_bytes),
            "HTTP_ACCEPT_LANGUAGE": st.one_of(st.just("fi"), latin1(odd_bytes)),
            "HTTP_AUTHORIZATION": latin1(odd_bytes).map(lambda value: f"Bearer {value}"),
            "HTTP_X_FORWARDED_FOR": latin1(odd_bytes),
        },
    )


def send(route: Route, tables: Tables, data: st.DataObject) -> int:
    """One request of ``data``'s drawing to ``route``; its status."""
    values = {
        "code": real_or_odd(tables.codes),
        "token": real_or_odd(tables.tokens),
        "position": real_or_odd(["0", "1", "2"]),
        "language": real_or_odd(["fi", "en"]),
        "ruleset": real_or_odd(["yatzy", "yahtzee", "maxi_yatzy"]),
        "day": real_or_odd(["2026-06-01", "2026-02-30", "1999-12-31", "9999-12-31"]),
        # accounts: a profile's, a password reset link's (a user's id in base 64)
        "username": real_or_odd(["alice", "bob"]),
        "uidb64": real_or_odd(["MQ", "Mg", "set-password"]),
    }
    path = path_of(route, {part: data.draw(values[part], part) for part in route.parts[1::2]})
    method = data.draw(st.one_of(st.sampled_from(["GET", "POST"]), st.sampled_from(METHODS)))
    query = data.draw(form_pairs, "query")
    body = data.draw(form_pairs, "body")
    code = path.split("/")[2] if path.startswith("/g/") else ""
    if data.draw(st.booleans(), "with the table's version"):
        game = Game.objects.filter(code=code).first() if code.isalnum() else None
        body.append(("version", str(fresh(game).version if game else 0).encode()))
    extra = data.draw(headers(tables), "headers")
    extra.setdefault("HTTP_COOKIE", tables.cookie)
    client = Client(enforce_csrf_checks=data.draw(st.booleans(), "CSRF checked"))
    with transaction.atomic():
        response = client.generic(
            method,
            f"{path}?{form(query)}",
            form(body),
            content_type="application/x-www-form-urlencoded",
            **extra,
        )
        transaction.set_rollback(True)  # the next example meets the same tables
    return response.status_code


@pytest.mark.django_db
@pytest.mark.parametrize("route", ROUTES, ids=[route.name for route in ROUTES])
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_no_request_gets_a_server_error(route: Route, tables: Tables, data: st.DataObject) -> None:
    assert send(route, tables, data) < 500


# Each odd value in each header and cookie the site reads, whatever hypothesis draws
HEADER_VALUES = [value.encode().decode("latin-1") for value in TRICKY] + [
    value.decode("latin-1") for value in RAW
]
HEADERS = [
    "HTTP_HOST",
    "HTTP_HX_REQUEST",
    "HTTP_HX_CURRENT_URL",
    "HTTP_X_YATZY_PAGE",
    "HTTP_ACCEPT_LANGUAGE",
    "HTTP_AUTHORIZATION",
    "HTTP_X_FORWARDED_FOR",
    "HTTP_COOKIE=sessionid",
    "HTTP_COOKIE=csrftoken",
    "HTTP_COOKIE=django_language",
]


@pytest.mark.django_db
@pytest.mark.parametrize("header", HEADERS)
def test_no_header_gets_a_server_error(alice: Client, tables: Tables, header: str) -> None:
    code = tables.codes[1]
    version = str(fresh(Game.objects.get(code=code)).version)
    for value in HEADER_VALUES:
        name, _, cookie = header.partition("=")
        extra = {name: f"{tables.cookie}; {cookie}={value}" if cookie else value}
        with transaction.atomic():
            table = Client().get(f"/g/{code}/", **extra)
            roll = Client().post(f"/g/{code}/roll/", {"version": version}, **extra)
            transaction.set_rollback(True)
        assert (table.status_code, roll.status_code) < (500, 500), value


def test_every_address_is_driven() -> None:
    """The URLconf walked gives the site's addresses, each with the parameters the
    requests know how to fill."""
    names = {route.name for route in ROUTES}
    assert {"healthz", "metrics", "set_language", "home", "take_back", "rejoin"} <= names
    assert {"signup", "login", "profile", "delete_account", "password_reset_confirm"} <= names
    for route in ROUTES:
        assert set(route.parts[1::2]) <= {
            "code",
            "token",
            "position",
            "language",
            "ruleset",
            "day",
            "username",
            "uidb64",
        }, route
