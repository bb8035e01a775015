"""Input PostgreSQL refuses in a query (a NUL: its text holds none), in each place a
request can carry it, answered as the same input is on SQLite: never a 500.

The property-based test of every address (tests/web/test_any_input.py) runs on
PostgreSQL too, in the suite's run against it; these are its cases that once failed
there, each on its own."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from games import broadcast
from games.models import Game
from tests.conftest import create_game, play_to_the_end
from tests.sockets import Socket
from yatzy_site.asgi import application

pytestmark = [pytest.mark.services, pytest.mark.django_db]
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def _on_postgres(postgres: None) -> None:
    """Only against PostgreSQL: SQLite holds a NUL, and has its own tests."""


@pytest.fixture
def lobby(alice: Client, dice: object) -> Game:
    return create_game(alice, invites="1")


@pytest.mark.parametrize("path", ["", "lobby/", "join/", "review/", "dice.json", "qr.svg"])
def test_a_game_code_holding_a_nul_is_no_game(alice: Client, path: str) -> None:
    response = alice.get(f"/g/a%00b/{path}")

    assert response.status_code == 404
    if path != "dice.json":
        assert "There is no game at this address." in response.content.decode()


@pytest.mark.parametrize("path", ["roll/", "hold/", "score/", "start/", "join/", "takeback/"])
def test_a_move_at_a_game_code_holding_a_nul_is_refused_as_no_game(
    alice: Client, path: str
) -> None:
    response = alice.post(f"/g/a%00b/{path}", {"version": "1", "name": "Bob"}, **HTMX)

    assert response.status_code == 404
    assert "There is no game at this address." in response.content.decode()


def test_a_rejoin_token_holding_a_nul_is_for_no_seat(lobby: Game) -> None:
    response = Client().get(f"/g/{lobby.code}/seat/a%00b/")

    assert response.status_code == 404
    assert "This personal link is for no seat at this table" in response.content.decode()


def test_a_player_search_holding_a_nul_searches_without_it(alice: Client, dice: object) -> None:
    play_to_the_end(alice, create_game(alice, name="Aino", upper_only="on"))

    response = Client().get("/history/?tab=public&player=A%00ino")

    assert response.status_code == 200
    assert "Aino" in response.content.decode()


@pytest.mark.parametrize(
    "cookie", ['sessionid="\\000abcdefghijklmnop"', "sessionid=abcdefgh\x00ijklmnop"]
)
def test_a_session_cookie_holding_a_nul_is_no_session(alice: Client, cookie: str) -> None:
    """A quoted cookie's octal escape is read as a NUL: the browser gets a new
    session, as for any key that is none of the site's."""
    response = Client().get("/", HTTP_COOKIE=cookie)

    assert response.status_code == 200
    assert "\x00" not in response.cookies["sessionid"].value


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_socket_whose_session_cookie_holds_a_nul_is_sent_the_table(
    alice: Client, dice: object
) -> None:
    game = await sync_to_async(create_game)(alice)
    headers = [(b"origin", b"http://127.0.0.1"), (b"cookie", b'sessionid="\\000abcdefghijk"')]
    ws = Socket(application, f"/ws/g/{game.code}/{broadcast.new_page_id()}/", headers=headers)

    connected, _ = await ws.connect()

    assert connected
    assert 'id="table"' in await ws.receive_from()
    await ws.disconnect()
