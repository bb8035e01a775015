"""No input gets a 5xx at the door either (yatzy_site/door.py): every limited address,
over its limit, asked with odd paths, methods, query strings, Hosts, cookies and
languages, is answered 429 or passed on, never an error. The door reads only the
request's head and the limits' store: no database, no view (a request it passes on
meets a stand-in here; tests/web/test_any_input.py drives the site behind it)."""

from __future__ import annotations

from urllib.parse import unquote

import pytest
from asgiref.sync import async_to_sync
from hypothesis import HealthCheck, given
from hypothesis import settings as examples
from hypothesis import strategies as st

from games.views.limiting import LIMITED
from tests import odd_input
from tests.conftest import LimitsClock
from tests.odd_input import Route
from yatzy_site.door import at_the_door

LIMITED_ROUTES = [route for route in odd_input.every_route() if route.name in LIMITED]
PASSED_ON = 204


async def stand_in(scope: dict, receive, send) -> None:
    await send({"type": "http.response.start", "status": PASSED_ON, "headers": []})
    await send({"type": "http.response.body", "body": b""})


door = at_the_door(stand_in)


async def ask(scope: dict) -> int:
    sent: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.request", "body": b""}

    async def send(message: dict) -> None:
        sent.append(message)

    await door(scope, receive, send)
    return sent[0]["status"]


def latin1(strategy: st.SearchStrategy[bytes]) -> st.SearchStrategy[bytes]:
    return strategy.map(lambda value: value.decode("latin-1").encode("latin-1"))


head = st.fixed_dictionaries(
    {},
    optional={
        b"host": st.sampled_from(odd_input.BAD_HOSTS).map(lambda host: host.encode("utf-8")),
        b"cookie": latin1(odd_input.odd_bytes).map(lambda value: b"sessionid=" + value),
        b"accept-language": latin1(odd_input.odd_bytes),
        b"hx-request": latin1(odd_input.odd_bytes),
        b"x-forwarded-for": latin1(odd_input.odd_bytes),
    },
)


@pytest.mark.parametrize("route", LIMITED_ROUTES, ids=[route.name for route in LIMITED_ROUTES])
@examples(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_no_request_at_the_door_gets_a_server_error(
    route: Route, data: st.DataObject, limits_on: LimitsClock, settings
) -> None:
    for kind in settings.YATZY_RATES:
        settings.YATZY_RATES[kind] = {"browser": None, "address": (1, 3600)}
    values = {part: data.draw(odd_input.odd_bytes, part) for part in route.parts[1::2]}
    path = unquote(odd_input.path_of(route, values))  # as the server hands it on: decoded
    scope = {
        "type": "http",
        "method": data.draw(st.sampled_from(["GET", "POST", *odd_input.METHODS])),
        "path": path,
        "raw_path": path.encode("utf-8", "surrogateescape"),
        "query_string": odd_input.form(data.draw(odd_input.form_pairs, "query")).encode(),
        "root_path": "",
        "headers": list(data.draw(head, "headers").items()),
        "client": (data.draw(st.sampled_from(["127.0.0.1", "::1", "", "unix"])), 0),
    }
    for _ in range(2):  # the address's first passes, the next is over its limit
        assert async_to_sync(ask)(scope) in (PASSED_ON, 429)
