"""What keeps a move cheap on its way to every browser, and right: one read of the game
per notice and process, the tables of one version shared by the browsers that see the
same, updates in order, no table sent twice or older than the one a browser has, and a
notice the channel layer refuses logged, never raised."""

from __future__ import annotations

import asyncio
import logging

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import HttpCommunicator
from django.test import Client

from games import broadcast
from games.broadcast import presence_notice
from games.models import Game
from games.snapshots import SNAPSHOTS, Snapshots
from tests.conftest import create_game
from tests.sockets import Socket
from tests.ws.test_consumer import ORIGIN, joined, next_version, settled, socket
from yatzy_site.asgi import application


class FailingLayer:
    async def group_send(self, group: str, message: dict) -> None:
        raise RuntimeError("layer down")


class StalledLayer:
    async def group_send(self, group: str, message: dict) -> None:
        await asyncio.Event().wait()


@pytest.mark.asyncio
async def test_a_notice_the_layer_refuses_is_logged_not_raised(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(broadcast, "get_channel_layer", FailingLayer)

    with caplog.at_level(logging.ERROR, logger="games.broadcast"):
        await sync_to_async(broadcast.game_changed)("abc", 2)

    assert "update 2 of game abc not sent" in caplog.text


@pytest.mark.asyncio
async def test_a_stalled_layer_holds_a_move_up_for_a_bounded_time_and_is_logged(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(broadcast, "get_channel_layer", StalledLayer)
    monkeypatch.setattr(broadcast, "SEND_TIMEOUT", 0.1)

    with caplog.at_level(logging.WARNING, logger="games.broadcast"):
        await asyncio.wait_for(sync_to_async(broadcast.game_changed)("abc", 3), 5)

    assert "stalled: update 3 of game abc not sent" in caplog.text


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_browser_is_sent_the_moves_in_order_ending_with_the_last(
    alice: Client, dice: object
) -> None:
    game = await sync_to_async(create_game)(alice, players="Bob")
    watcher = await joined(game.code)
    await settled(watcher)

    moves = [("roll", {}), ("hold", {"die": "0"}), ("hold", {"die": "1"})]
    for version, (move, fields) in enumerate(moves, start=game.version):
        answer = await sync_to_async(alice.post)(
            f"/g/{game.code}/{move}/", {"version": version, **fields}, HTTP_HX_REQUEST="true"
        )
        assert answer.status_code == 200
    last = game.version + 3
    seen = [(await next_version(watcher))[0]]
    while seen[-1] < last:
        seen.append((await next_version(watcher))[0])

    assert seen == sorted(set(seen)) and seen[-1] == last
    assert await watcher.receive_nothing(timeout=0.3)
    await watcher.disconnect()


@pytest.mark.django_db
def test_browsers_in_one_process_share_one_read_per_notice(
    alice: Client, dice: object, django_assert_num_queries
) -> None:
    game = create_game(alice, players="Bob")
    snapshots = Snapshots()

    with django_assert_num_queries(2):  # the game and its seats, once for four browsers
        read = [snapshots.get(game.id, game.code, "v3") for _ in range(4)]
    with django_assert_num_queries(2):  # the next notice reads again
        snapshots.get(game.id, game.code, "v4")
    with django_assert_num_queries(2):  # same id, another game (a rolled-back test database)
        snapshots.get(game.id, "another-code", "v3")
    with django_assert_num_queries(4):  # a read for one browser only is never shared
        snapshots.get(game.id, game.code, None)
        snapshots.get(game.id, game.code, None)

    assert all(r is read[0] for r in read)
    assert [s.name for s in read[0].seats.all()] == ["Alice", "Bob"]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_presence_notice_that_changes_nothing_is_not_sent(
    alice: Client, dice: object
) -> None:
    game = await sync_to_async(create_game)(alice, players="Bob")
    watcher = await joined(game.code)  # a spectator: no seat, so its arrival notifies nobody

    await get_channel_layer().group_send(broadcast.group_name(game.code), presence_notice())

    assert await watcher.receive_nothing(timeout=0.3)
    await watcher.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_browser_is_never_sent_a_table_older_than_its_own(
    alice: Client, dice: object
) -> None:
    game = await sync_to_async(create_game)(alice, players="Bob")
    # This process reads the game for a presence notice, then the roll is made.
    before = await sync_to_async(SNAPSHOTS.get)(game.id, game.code, "early")
    await sync_to_async(alice.post)(
        f"/g/{game.code}/roll/", {"version": before.version}, HTTP_HX_REQUEST="true"
    )
    watcher = socket(game.code)
    await watcher.connect()
    shown, _ = await next_version(watcher)
    assert shown == before.version + 1

    await get_channel_layer().group_send(
        broadcast.group_name(game.code), {"type": "game.changed", "stamp": "early"}
    )

    assert await watcher.receive_nothing(timeout=0.3)
    await watcher.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_asgi_site_applies_its_middleware() -> None:
    host = [(b"host", b"testserver")]
    page = HttpCommunicator(application, "GET", "/", headers=host)
    answer = await page.get_response()
    headers = dict(answer["headers"])
    assert answer["status"] == 200
    assert headers[b"X-Frame-Options"] == b"DENY"
    assert b"csrftoken" in b";".join(v for k, v in answer["headers"] if k == b"Set-Cookie")

    forged = HttpCommunicator(
        application, "POST", "/games/new/", body=b"ruleset=yatzy", headers=host
    )
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
    # the table goes where the move's form said (the announcement, by its id, as pushed)
    assert f'data-version="{got}"' in body and '<section id="table" hx-swap-oob' not in body
    assert pushed.startswith(
        body.replace('<section id="table"', '<section id="table" hx-swap-oob="true"', 1)
    )
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
    assert pushed[1][1] == pushed[2][1]
    assert 'class="score-option' in pushed[0][1] and 'class="score-option' not in pushed[1][1]
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
