"""No handshake breaks the socket's server: any path (odd Unicode, NUL, bytes that are
no UTF-8, a code no game could have), any Origin and Host, a forged session cookie,
a message sent to it. Each is accepted and sent its table, or closed with its
reason; none raises in the application (which the server answers with a bare 500,
or a socket dropped without a word)."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import create_game
from tests.odd_input import BAD_HOSTS, encoded, odd_bytes
from tests.sockets import Socket
from yatzy_site.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)


def segment(real: str) -> st.SearchStrategy[str]:
    """``real``, or (less often, as hypothesis draws its booleans) an odd one."""
    return st.booleans().flatmap(lambda odd: odd_bytes.map(encoded) if odd else st.just(real))


async def handshake(path: str, headers: list[tuple[bytes, bytes]], message: str | None) -> None:
    ws = Socket(application, path, headers=headers)
    connected, _ = await ws.connect()
    if not connected:
        return
    first = await ws.receive_output()  # the table, or the close of an unknown game
    if first["type"] == "websocket.send" and message is not None:
        await ws.send_to(text_data=message)
        assert (await ws.receive_output())["type"] == "websocket.close"
    await ws.disconnect()


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_no_handshake_raises(alice: Client, dice: object, data: st.DataObject) -> None:
    game = create_game(alice)
    code = data.draw(segment(game.code), "code")
    page = data.draw(st.one_of(st.none(), segment("a" * 22)), "page")
    path = f"/ws/g/{code}/" if page is None else f"/ws/g/{code}/{page}/"
    site = st.just(("127.0.0.1", b"http://127.0.0.1"))
    elsewhere = st.tuples(st.sampled_from(["127.0.0.1", *BAD_HOSTS]), odd_bytes)
    host, origin = data.draw(st.one_of(site, elsewhere), "host and origin")
    session = alice.cookies["sessionid"].value.encode()
    cookie = data.draw(st.one_of(st.just(session), odd_bytes), "session cookie")
    headers = [
        (b"host", host.encode("utf-8", "surrogatepass")),
        (b"origin", origin),
        (b"cookie", b"sessionid=" + cookie),
    ]
    message = data.draw(st.one_of(st.none(), st.text(min_size=1, max_size=20)), "message")
    async_to_sync(handshake)(path, headers, message)
