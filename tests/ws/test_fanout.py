"""What keeps a move cheap on its way to every browser, and right: the table rendered
once per language in the request that made the move, the same bytes for every browser
at the table in that language, updates in order, no table sent twice or older than the
one a browser has, and a message the channel layer refuses logged, never raised."""

from __future__ import annotations

import asyncio
import html
import logging

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.test import Client

from games import broadcast
from games.models import Game, read_game
from tests.conftest import create_game, version
from tests.sockets import Http, Socket
from tests.ws.test_consumer import ORIGIN, joined, next_version, post, settled, socket
from yatzy_site.asgi import application


class FailingLayer:
    async def group_send(self, group: str, message: dict) -> None:
        raise RuntimeError("layer down")


class StalledLayer:
    async def group_send(self, group: str, message: dict) -> None:
        await asyncio.Event().wait()


def watched_game(alice: Client) -> Game:
    """A game whose table a page in English watches (its socket added the language)."""
    game = create_game(alice, players="Bob")
    Game.objects.filter(id=game.id).update(languages="en")
    return read_game(id=game.id)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_table_the_layer_refuses_is_logged_not_raised(
    alice: Client, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    game = await sync_to_async(watched_game)(alice)
    monkeypatch.setattr(broadcast, "get_channel_layer", FailingLayer)

    with caplog.at_level(logging.ERROR, logger="games.broadcast"):
        await sync_to_async(broadcast.game_changed)(game.code, game.version, game)

    assert f"update {game.version} of game {game.code} not sent" in caplog.text


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_stalled_layer_holds_a_move_up_for_a_bounded_time_and_is_logged(
    alice: Client, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    game = await sync_to_async(watched_game)(alice)
    monkeypatch.setattr(broadcast, "get_channel_layer", StalledLayer)
    monkeypatch.setattr(broadcast, "SEND_TIMEOUT", 0.1)

    with caplog.at_level(logging.WARNING, logger="games.broadcast"):
        await asyncio.wait_for(
            sync_to_async(broadcast.game_changed)(game.code, game.version, game), 5
        )

    assert f"stalled: update {game.version} of game {game.code} not sent" in caplog.text


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_browser_is_sent_the_moves_in_order_ending_with_the_last(
    alice: Client, dice: object
) -> None:
    game = await sync_to_async(create_game)(alice, players="Bob")
    watcher = await joined(game.code)
    await settled(watcher)

    moves = [("roll", {}), ("hold", {"die": "0"}), ("hold", {"die": "1"})]
    for at, (move, fields) in enumerate(moves, start=game.version):
        answer = await sync_to_async(alice.post)(
            f"/g/{game.code}/{move}/", {"version": at, **fields}, HTTP_HX_REQUEST="true"
        )
        assert answer.status_code == 200
    last = game.version + 3
    seen = [(await next_version(watcher))[0]]
    while seen[-1] < last:
        seen.append((await next_version(watcher))[0])

    assert seen == sorted(set(seen)) and seen[-1] == last
    assert await watcher.receive_nothing(timeout=0.3)
    await watcher.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_every_browser_is_sent_the_movers_answer_in_its_own_language(
    alice: Client, bob: Client, spectator: Client, dice: object
) -> None:
    """One rendering per language at the table: the mover's answer is the bytes every
    page in its language is pushed, a page in Finnish is pushed the Finnish table, and
    a spectator's holds no seat's personal link (nor any seat's token)."""
    game = await sync_to_async(create_game)(alice, invites="1")
    await sync_to_async(bob.get)(f"/g/{game.code}/join/")
    await post(bob, f"/g/{game.code}/join/", name="Bob")
    await post(alice, f"/g/{game.code}/start/", version=await sync_to_async(version)(game))
    cookie = f"sessionid={bob.cookies['sessionid'].value}; django_language=fi"
    bobs = Socket(
        application,
        f"/ws/g/{game.code}/{broadcast.new_page_id()}/",
        headers=[ORIGIN, (b"cookie", cookie.encode())],
    )
    watchers = [socket(game.code, spectator) for _ in range(2)]
    for ws in (bobs, *watchers):
        await ws.connect()
        await next_version(ws)
    await settled(bobs, *watchers)

    answer = await post(alice, f"/g/{game.code}/roll/", version=await sync_to_async(version)(game))

    english = answer.content.decode()
    pushed = [(await next_version(ws))[1] for ws in watchers]
    finnish = (await next_version(bobs))[1]
    assert pushed == [english, english]
    # as the browser reads it: a table is sent in ASCII, "ä" as a character reference
    shown = html.unescape(finnish)
    assert "Heitä" in shown and "Heitä" not in html.unescape(english) and "Roll" in english
    seats = await sync_to_async(list)(
        (await sync_to_async(read_game)(id=game.id)).seats.values_list("token", "handed_from")
    )
    for token, handed_from in seats:
        assert token not in english and (not handed_from or handed_from not in english)
        assert "/seat/" not in english
    for ws in (bobs, *watchers):
        await ws.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_presence_notice_that_changes_nothing_is_not_sent(
    alice: Client, dice: object
) -> None:
    game = await sync_to_async(create_game)(alice, players="Bob")
    watcher = await joined(game.code)  # a spectator: no seat, so its arrival notifies nobody
    await sync_to_async(broadcast.publish_presence)(game.code)  # it counts now, maybe
    await settled(watcher)

    await sync_to_async(broadcast.publish_presence)(game.code)  # nothing changed since

    assert await watcher.receive_nothing(timeout=0.3)
    await watcher.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_browser_is_never_sent_a_table_older_than_its_own(
    alice: Client, dice: object
) -> None:
    game = await sync_to_async(create_game)(alice, players="Bob")
    old = await sync_to_async(read_game)(id=game.id)
    await sync_to_async(alice.post)(
        f"/g/{game.code}/roll/", {"version": old.version}, HTTP_HX_REQUEST="true"
    )
    watcher = socket(game.code)
    await watcher.connect()
    shown, _ = await next_version(watcher)
    assert shown == old.version + 1

    # a table read before the roll, published late (a slow thread, another process)
    table = await sync_to_async(broadcast.published)(old, ["en"])
    await get_channel_layer().group_send(
        broadcast.group_name(game.code),
        {
            "type": "table.update",
            "version": table.version,
            "read": table.read,
            "tables": table.tables,
            "to_table": "",
        },
    )

    assert await watcher.receive_nothing(timeout=0.3)
    await watcher.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_asgi_site_applies_its_middleware() -> None:
    host = [(b"host", b"testserver")]
    page = Http(application, "GET", "/", headers=host)
    answer = await page.get_response()
    headers = [(name.lower(), value) for name, value in answer["headers"]]  # any case
    assert answer["status"] == 200
    assert dict(headers)[b"x-frame-options"] == b"DENY"
    assert b"csrftoken" in b";".join(v for k, v in headers if k == b"set-cookie")

    forged = Http(application, "POST", "/games/new/", body=b"ruleset=yatzy", headers=host)
    refused = await forged.get_response()
    assert refused["status"] == 403  # no CSRF token


@pytest.mark.django_db
def test_a_game_parses_its_state_once_per_value(alice: Client, dice: object) -> None:
    game = create_game(alice)
    first = game.engine_state()

    assert game.engine_state() is first
    game.refresh_from_db()
    assert game.engine_state() is not first
    assert game.engine_state() == first
    assert isinstance(Game.objects.get(pk=game.pk).engine_state(), type(first))


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_answer_to_a_move_and_the_movers_push_carry_the_same_table(
    alice: Client, dice: object
) -> None:
    game = await sync_to_async(create_game)(alice)
    mover = await joined(game.code, alice)

    answer = await sync_to_async(alice.post)(
        f"/g/{game.code}/roll/", {"version": game.version}, HTTP_HX_REQUEST="true"
    )
    got, pushed = await next_version(mover)

    body = answer.content.decode()
    assert got == game.version + 1
    assert f'data-version="{got}"' in body and '<section id="table" hx-swap-oob' in body
    assert pushed == body  # the bytes of the one rendering
    await mover.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_move_reaches_every_page_and_the_watchers_see_the_same_table(
    alice: Client, bob: Client, dice: object
) -> None:
    game = await sync_to_async(create_game)(alice, players="Bob")
    mover, watchers = socket(game.code, alice), [socket(game.code), socket(game.code)]
    for ws in [mover, *watchers]:
        await ws.connect()
        await next_version(ws)
    await settled(mover, *watchers)  # the watchers change the spectator count alice sees

    await sync_to_async(alice.post)(
        f"/g/{game.code}/roll/", {"version": game.version}, HTTP_HX_REQUEST="true"
    )
    pushed = [await next_version(ws) for ws in [mover, *watchers]]

    assert [got for got, _html in pushed] == [game.version + 1] * 3
    assert pushed[0][1] == pushed[1][1] == pushed[2][1]  # each page shows its viewer's part
    for ws in [mover, *watchers]:
        await ws.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("header", "total"),
    [
        ((b"cookie", b"django_language=fi"), "Summa"),
        ((b"accept-language", b"fi-FI,fi;q=0.9,en;q=0.5"), "Summa"),
        ((b"accept-language", b"de-DE"), "Endsumme"),
        ((b"accept-language", b"pt-BR"), "Total"),  # not spoken here: English
    ],
)
async def test_a_browser_is_pushed_tables_in_its_own_language(
    alice: Client, bob: Client, dice: object, header: tuple[bytes, bytes], total: str
) -> None:
    game = await sync_to_async(create_game)(alice, players="Bob")
    other = socket(game.code)  # an English browser renders first, and is cached first
    watcher = Socket(
        application, f"/ws/g/{game.code}/{broadcast.new_page_id()}/", headers=[ORIGIN, header]
    )
    for ws in (other, watcher):
        await ws.connect()
        await next_version(ws)

    await sync_to_async(alice.post)(
        f"/g/{game.code}/roll/", {"version": game.version}, HTTP_HX_REQUEST="true"
    )
    _, english = await next_version(other)
    _, html = await next_version(watcher)

    assert f">{total}<" in html
    assert ">Total<" in english
    for ws in (other, watcher):
        await ws.disconnect()
