"""The table WebSocket: per-viewer updates after every kind of action, and refusals."""

from __future__ import annotations

import asyncio
import re
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone

from games import broadcast, consumers, presence, seating
from games.models import Game, Seat
from tests.conftest import create_game, fresh, version
from tests.seen import seen_by
from tests.sockets import Socket
from tests.waits import WAIT_S
from tests.web.test_room import bobs_turn
from yatzy_site.asgi import application

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]
ORIGIN = (b"origin", b"http://127.0.0.1")


def socket(
    code: str,
    client: Client | None = None,
    origin=ORIGIN,
    lobby_page: bool = False,
    page: str | None = None,
) -> Socket:
    """The socket of a table page of ``client``'s (a new page, or the page ``page`` as
    it connects again), or of its lobby page."""
    headers = [origin]
    if client is not None and "sessionid" in client.cookies:
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    page = page or broadcast.new_page_id()
    path = f"/ws/g/{code}/" if lobby_page else f"/ws/g/{code}/{page}/"
    return Socket(application, path, headers=headers)


async def next_version(ws: WebsocketCommunicator) -> tuple[int, str]:
    html = await ws.receive_from()
    return int(re.search(r'data-version="(\d+)"', html).group(1)), html


async def joined(
    code: str, client: Client | None = None, lobby_page: bool = False, page: str | None = None
) -> Socket:
    """A socket at the table, past the table it is sent on arrival."""
    ws = socket(code, client, lobby_page=lobby_page, page=page)
    await ws.connect()
    await next_version(ws)
    return ws


async def settled(*sockets: WebsocketCommunicator) -> None:
    """Until the presence notices of the sockets' arrivals are handled (through Redis,
    one may come after the next move, and push its table for its own reasons)."""
    for ws in sockets:
        while not await ws.receive_nothing(timeout=0.3):
            await ws.receive_from()


async def post(client: Client, path: str, **data: str):
    return await sync_to_async(client.post)(path, data, HTTP_HX_REQUEST="true")


@pytest.fixture
def lobby(alice: Client, bob: Client, dice: object) -> Game:
    game = create_game(alice, invites="1")
    bob.get(f"/g/{game.code}/join/")
    return game


async def test_a_browser_gets_the_table_on_connect(alice: Client, dice: object) -> None:
    game = await sync_to_async(create_game)(alice, players="Bob")
    ws = socket(game.code, alice)
    connected, _ = await ws.connect()

    got, html = await next_version(ws)

    assert connected
    assert got == game.version
    assert 'id="table"' in html and 'hx-swap-oob="true"' in html
    await ws.disconnect()


async def test_every_kind_of_action_reaches_every_browser(
    alice: Client, bob: Client, lobby: Game
) -> None:
    code = lobby.code
    host = socket(code, alice)
    await host.connect()
    seen, _ = await next_version(host)
    # the notice of her own arrival may come back with the lobby again (once in a full
    # run, at the version she has: the page keeps what did not change)
    await settled(host)

    await post(bob, f"/g/{code}/join/", name="Bob")
    assert (await next_version(host))[0] > seen
    await settled(host)  # presence notices of Bob's arrival, if any

    await post(alice, f"/g/{code}/start/", version=await sync_to_async(version)(lobby))
    guest = await joined(code, bob)
    await settled(host, guest)

    for path, data in [
        ("roll", {}),
        ("hold", {"die": "0"}),
        ("roll", {}),
        ("score", {"category": "chance", "confirm": "1"}),
    ]:
        before = int(await sync_to_async(version)(lobby))
        response = await post(alice, f"/g/{code}/{path}/", version=str(before), **data)
        assert response.status_code == 200, response.content.decode()[:500]
        for ws in (host, guest):
            got, _ = await next_version(ws)
            assert got == before + 1, path
    await host.disconnect()
    await guest.disconnect()


async def test_only_the_seat_to_move_gets_live_buttons(
    alice: Client, bob: Client, lobby: Game
) -> None:
    await post(bob, f"/g/{lobby.code}/join/", name="Bob")
    await post(alice, f"/g/{lobby.code}/start/", version=await sync_to_async(version)(lobby))
    await post(alice, f"/g/{lobby.code}/roll/", version=await sync_to_async(version)(lobby))
    host, guest = socket(lobby.code, alice), socket(lobby.code, bob)
    await host.connect()
    await guest.connect()

    _, to_alice = await next_version(host)
    _, to_bob = await next_version(guest)

    alice_sees = await sync_to_async(seen_by)(to_alice, alice, lobby)
    bob_sees = await sync_to_async(seen_by)(to_bob, bob, lobby)
    assert "Score " in alice_sees and "Your turn" in alice_sees
    assert "Score " not in bob_sees and "Your turn" not in bob_sees
    await host.disconnect()
    await guest.disconnect()


async def test_a_stranger_sees_the_table_but_cannot_act(
    alice: Client, spectator: Client, dice: object
) -> None:
    game = await sync_to_async(create_game)(alice)
    await sync_to_async(spectator.get)("/")
    ws = socket(game.code, spectator)
    await ws.connect()
    _, html = await next_version(ws)

    response = await post(spectator, f"/g/{game.code}/roll/", version=str(game.version))

    assert "Your turn" not in await sync_to_async(seen_by)(html, spectator, game)
    assert response.status_code == 403
    assert (await sync_to_async(fresh)(game)).engine_state().roll_number == 0
    await ws.disconnect()


async def test_an_unknown_game_is_closed_with_a_clear_code() -> None:
    ws = socket("no-such-game")
    await ws.connect()

    closed = await ws.receive_output(WAIT_S)

    assert closed["type"] == "websocket.close"
    assert closed["code"] == 4404


@pytest.mark.parametrize(
    "path",
    ["/ws/g/%C3%A4/", "/ws/g/a%20b/", "/ws/g/%00/", f"/ws/g/{'x' * 95}/", "/ws/g/a/b/c/", "/ws/"],
)
async def test_an_address_no_table_could_have_is_closed_as_an_unknown_game(path: str) -> None:
    # Channels would refuse the group's name, or find no route, and raise.
    ws = Socket(application, path, headers=[ORIGIN])
    await ws.connect()

    closed = await ws.receive_output(WAIT_S)

    assert (closed["type"], closed["code"]) == ("websocket.close", 4404)


async def test_a_foreign_origin_is_refused(alice: Client, dice: object) -> None:
    game = await sync_to_async(create_game)(alice)
    ws = socket(game.code, alice, origin=(b"origin", b"https://evil.example"))

    connected, _ = await ws.connect()

    assert not connected


async def test_the_socket_accepts_no_moves(alice: Client, dice: object) -> None:
    game = await sync_to_async(create_game)(alice)
    ws = await joined(game.code, alice)

    await ws.send_to(text_data='{"action": "roll"}')
    closed = await ws.receive_output(WAIT_S)

    assert closed["code"] == 4400
    assert (await sync_to_async(fresh)(game)).engine_state().roll_number == 0


async def test_a_browser_that_missed_updates_is_resynchronised_on_reconnect(
    alice: Client, dice: object
) -> None:
    game = await sync_to_async(create_game)(alice)
    ws = socket(game.code, alice)
    await ws.connect()
    seen, _ = await next_version(ws)
    await ws.disconnect()

    for _ in range(2):
        await post(alice, f"/g/{game.code}/roll/", version=await sync_to_async(version)(game))
    ws = socket(game.code, alice)
    await ws.connect()
    got, html = await next_version(ws)

    assert got == seen + 2
    state = (await sync_to_async(fresh)(game)).engine_state()
    assert f'aria-label="Die 1: {state.dice[0]}"' in html
    await ws.disconnect()


async def test_play_again_moves_every_browser_at_the_table(
    alice: Client, spectator: Client, dice: object
) -> None:
    game = await sync_to_async(create_game)(alice, upper_only="on")
    while (await sync_to_async(fresh)(game)).status != Game.Status.FINISHED:
        await post(alice, f"/g/{game.code}/roll/", version=await sync_to_async(version)(game))
        state = (await sync_to_async(fresh)(game)).engine_state()
        await post(
            alice,
            f"/g/{game.code}/score/",
            version=await sync_to_async(version)(game),
            category=state.open_categories()[0],
            confirm="1",
        )
    await sync_to_async(spectator.get)("/")
    ws = await joined(game.code, spectator)

    await sync_to_async(alice.post)(f"/g/{game.code}/again/")
    _, html = await next_version(ws)

    following = (await sync_to_async(fresh)(game)).next_game_id
    code = await sync_to_async(lambda: Game.objects.get(pk=following).code)()
    assert f'data-redirect="/g/{code}/"' in html
    await ws.disconnect()


async def at_bobs_turn_soon_away(alice: Client, bob: Client, monkeypatch) -> Game:
    """A table at Bob's turn, where a player is away after half a second."""
    monkeypatch.setattr(seating, "AWAY_BEFORE_SKIP", timedelta(seconds=0.5))
    lobby = await sync_to_async(create_game)(alice, invites="1")
    return await sync_to_async(bobs_turn)(alice, bob, lobby)


async def offered_to_skip_bob_later(host: WebsocketCommunicator) -> None:
    """The host's next table says Bob is away, the one after that offers his skip: no
    one acts at the table, only the clock has it changed."""
    _, html = await next_version(host)
    assert "<bdi>Bob</bdi>: away" in html and "Skip <bdi>Bob" not in html
    _, html = await next_version(host)

    assert "Skip <bdi>Bob</bdi>" in html
    await host.disconnect()


async def test_the_host_is_offered_the_skip_once_the_player_to_move_has_been_away_long_enough(
    alice: Client, bob: Client, dice: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await at_bobs_turn_soon_away(alice, bob, monkeypatch)
    host = await joined(game.code, alice)
    guest = await joined(game.code, bob)
    await settled(host, guest)

    await guest.disconnect()

    await offered_to_skip_bob_later(host)


def bobs_turn_with_carol_and_both_gone(alice: Client, bob: Client, carol: Client) -> Game:
    """Bob's turn at Alice's table with him and Carol; Bob and Alice, whose browser runs
    no JavaScript, have asked for nothing for a minute."""
    game = create_game(alice, invites="2")
    for client, name in ((bob, "Bob"), (carol, "Carol")):
        client.post(f"/g/{game.code}/join/", {"name": name})
    bobs_turn(alice, bob, game)
    gone = timezone.now() - timedelta(minutes=1)
    Seat.objects.filter(game=game, name__in=["Alice", "Bob"]).update(away_since=gone)
    return game


async def test_a_host_without_a_socket_who_loads_the_table_is_at_it_till_she_is_gone_again(
    alice: Client, bob: Client, dice: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Carol's table offers her Bob's skip while Alice is away too; Alice loads the table
    (her browser has no socket to say she is back): Carol's offer goes, and comes back
    once Alice has asked for nothing for the away time again."""
    monkeypatch.setattr(seating, "AWAY_BEFORE_SKIP", timedelta(seconds=0.5))
    carol = Client()
    game = await sync_to_async(bobs_turn_with_carol_and_both_gone)(alice, bob, carol)
    carols = socket(game.code, carol)
    await carols.connect()
    _, first = await next_version(carols)
    assert "Skip <bdi>Bob</bdi>" in await sync_to_async(seen_by)(first, carol, game)
    await settled(carols)

    await sync_to_async(alice.get)(f"/g/{game.code}/")

    _, back = await next_version(carols)
    assert "Skip <bdi>Bob" not in await sync_to_async(seen_by)(back, carol, game)
    _, gone_again = await next_version(carols)
    assert "Skip <bdi>Bob</bdi>" in await sync_to_async(seen_by)(gone_again, carol, game)
    await carols.disconnect()


async def test_a_player_without_a_socket_who_moves_is_offered_to_skip_once_gone_again(
    alice: Client, bob: Client, dice: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob's browser runs no JavaScript: his roll counts him at the table, and once he
    has asked for nothing for the away time, Alice's table offers his skip without
    anyone acting (nothing else would tell her page that the clock has passed)."""
    game = await at_bobs_turn_soon_away(alice, bob, monkeypatch)
    host = await joined(game.code, alice)
    await settled(host)

    await post(bob, f"/g/{game.code}/roll/", version=str(await sync_to_async(version)(game)))

    _, rolled = await next_version(host)
    assert "<bdi>Bob</bdi> rolled" in rolled and "Skip <bdi>Bob" not in rolled
    _, gone = await next_version(host)
    assert "Skip <bdi>Bob</bdi>" in gone
    await host.disconnect()


async def test_each_page_is_pushed_only_what_it_has_a_place_for(
    alice: Client, dice: object
) -> None:
    # The lobby page follows the game to its table by a part the table page has no
    # place for, and has no place for the table: htmx logged every push of either
    # as an error on the other page.
    game = await sync_to_async(create_game)(alice)
    on_table = socket(game.code, alice)
    await on_table.connect()
    on_lobby = socket(game.code, alice, lobby_page=True)
    await on_lobby.connect()
    _, first = await next_version(on_table)
    arrival = await on_lobby.receive_from()
    await settled(on_table, on_lobby)

    await post(alice, f"/g/{game.code}/roll/", version=await sync_to_async(version)(game))
    _, pushed = await next_version(on_table)

    assert 'id="lobby"' not in first and 'id="lobby"' not in pushed
    assert arrival == f'<div id="lobby" hx-swap-oob="true" data-redirect="/g/{game.code}/"></div>'
    assert await on_lobby.receive_nothing(timeout=0.3)  # nothing new for it
    await on_table.disconnect()
    await on_lobby.disconnect()


async def test_sockets_that_ask_for_the_same_notice_at_once_get_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sent = []
    monkeypatch.setattr(broadcast, "publish_presence", lambda code: sent.append(f"game.{code}"))

    loop = asyncio.get_running_loop()
    while not 0.1 < loop.time() % 1 < 0.3:  # the notices are due at whole seconds
        await asyncio.sleep(0.05)
    asked = loop.time()
    for seconds in (0.0, 0.01, 0.3):  # in one second, as a table's sockets close
        consumers.tell_when_away("abc", seconds)
    consumers.tell_when_away("xyz", 0.0)  # another table is told too
    consumers.tell_when_away("abc", 1.0)  # and this one a second later again

    # All are due within 3 s. The loop runs timers in the order they are due, so once
    # this sleep ends every notice due before it has been sent, however busy the machine.
    await asyncio.sleep(asked + 3.5 - loop.time())
    assert sorted(sent) == ["game.abc", "game.abc", "game.xyz"]


async def test_the_host_is_offered_the_skip_of_a_player_gone_before_her_socket_came(
    alice: Client, bob: Client, dice: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Bob's socket closed in a server that stopped (or he left before Alice opened the
    # page): no departure here will say when he has been away long enough.
    game = await at_bobs_turn_soon_away(alice, bob, monkeypatch)
    await sync_to_async(presence.forget_all_sockets)()  # as a server does as it starts

    host = socket(game.code, alice)
    await host.connect()

    await offered_to_skip_bob_later(host)
