"""What keeps a move cheap on its way to every browser: one read of the game per notice
and process, a notice handed to the event loop without holding up the move, no table
sent twice or older than the one a browser has, and one thread hop per HTTP request."""

from __future__ import annotations

import asyncio
import inspect
import logging
import re
import threading
import time

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import HttpCommunicator, WebsocketCommunicator
from django.test import Client

from games import broadcast, rendering, services
from games.broadcast import presence_notice
from games.consumers import TableConsumer
from games.models import Game
from games.snapshots import SNAPSHOTS, Snapshots
from tests.conftest import create_game, fresh
from tests.web.test_bots import bot_table
from tests.ws.test_consumer import ORIGIN, joined, next_version, settled, socket
from tests.ws.test_inline import browser_request
from yatzy_site import inline
from yatzy_site.asgi import application, django_asgi_app
from yatzy_site.handlers import OneHopASGIHandler
from yatzy_site.layers import ThrottledInMemoryChannelLayer


class SlowLayer:
    """Odd versions take longer to send, so sends that are not queued overtake."""

    def __init__(self, fail: bool = False) -> None:
        self.sent: list[int] = []
        self.fail = fail

    async def group_send(self, group: str, message: dict) -> None:
        await asyncio.sleep(0.02 if message["version"] % 2 else 0)
        if self.fail:
            raise RuntimeError("layer down")
        self.sent.append(message["version"])


def count_renderings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The tables (``"table"``: the inside of a table's section, rendered once for all
    who see the same) and the other templates rendered from now on, in order; the parts
    put around a table for each answer or push (its section's tag, the spectators'
    line) and its scorecard are parts of it, not counted."""
    renders: list[str] = []
    real_render = rendering.render_to_string

    def counted(template: str, context: dict | None = None, *args, **kwargs) -> str:
        if template == "games/table.html#table-content":
            renders.append("table")
        elif not template.startswith("games/table.html#"):
            renders.append(template)
        return real_render(template, context, *args, **kwargs)

    monkeypatch.setattr(rendering, "render_to_string", counted)
    return renders


async def wait_until(condition, timeout: float = 2.0) -> None:
    for _ in range(int(timeout / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)


async def on_the_sync_thread(func):
    return await sync_to_async(func)()


async def on_the_loop(func):
    return inline.call(func)


@pytest.mark.asyncio
@pytest.mark.parametrize("run", [on_the_sync_thread, on_the_loop])
async def test_a_move_does_not_wait_for_its_notice_and_notices_keep_their_order(
    run, monkeypatch: pytest.MonkeyPatch
) -> None:
    layer = SlowLayer()
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)

    def five_moves() -> list[int]:
        for version in range(1, 6):
            broadcast.game_changed("abc", version)
        return list(layer.sent)  # what was sent when the move went on

    sent_before_the_move_went_on = await run(five_moves)
    await wait_until(lambda: len(layer.sent) == 5 and not broadcast._pending)

    assert sent_before_the_move_went_on == []
    assert layer.sent == [1, 2, 3, 4, 5]
    assert broadcast._pending == {}


@pytest.mark.asyncio
async def test_a_move_on_the_loop_has_its_notice_in_the_sockets_queues_as_it_returns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    layer = ThrottledInMemoryChannelLayer()
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)
    socket = await layer.new_channel()
    await layer.group_add(broadcast.group_name("abc"), socket)

    inline.call(broadcast.game_changed, "abc", 7)

    assert layer.channels[socket].qsize() == 1  # no turn of the loop needed
    assert await layer.receive(socket) == {"type": "game.changed", "version": 7}
    await broadcast.delivered()
    assert broadcast._pending == {}


class LoopBoundLayer(SlowLayer):
    """As channels_redis's layer proxy: any attribute it lacks is looked up on the
    layer of the running loop, and with no running loop that raises."""

    def __getattr__(self, name: str):
        asyncio.get_running_loop()
        raise AttributeError(name)


@pytest.mark.asyncio
async def test_a_move_on_the_loop_queues_its_notice_on_a_layer_bound_to_the_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # On the loop's thread the running loop is hidden while the move runs: the
    # notice must not ask a layer like Redis's for anything it would look it up for.
    layer = LoopBoundLayer()
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)

    inline.call(broadcast.game_changed, "abc", 7)
    await broadcast.delivered()

    assert layer.sent == [7]


@pytest.mark.asyncio
async def test_a_notice_the_layer_refuses_is_logged_not_raised(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: SlowLayer(fail=True))

    with caplog.at_level(logging.ERROR, logger="games.broadcast"):
        await sync_to_async(broadcast.game_changed)("abc", 2)
        await wait_until(lambda: caplog.records)

    assert "update 2 of game abc not sent" in caplog.text


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


@pytest.mark.django_db
def test_the_read_of_notices_is_bounded(alice: Client, dice: object) -> None:
    game = create_game(alice)
    snapshots = Snapshots(size=3)

    for version in range(10):
        snapshots.get(game.id, game.code, f"v{version}")

    assert len(snapshots._games) == 3


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
    before = await sync_to_async(fresh)(game)
    await sync_to_async(alice.post)(
        f"/g/{game.code}/roll/", {"version": before.version}, HTTP_HX_REQUEST="true"
    )
    watcher = socket(game.code)
    await watcher.connect()
    shown, _ = await next_version(watcher)
    assert shown == before.version + 1
    # This process read the game for a presence notice before the roll was made.
    SNAPSHOTS._games[(game.id, game.code, "early")] = before

    await get_channel_layer().group_send(
        broadcast.group_name(game.code), {"type": "game.changed", "stamp": "early"}
    )

    assert await watcher.receive_nothing(timeout=0.3)
    await watcher.disconnect()


def test_http_requests_run_the_synchronous_middleware_chain_in_one_hop() -> None:
    assert not inspect.iscoroutinefunction(django_asgi_app._middleware_chain)


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
async def test_the_answer_to_a_move_and_the_movers_push_are_one_rendering(
    alice: Client, dice: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await sync_to_async(create_game)(alice)
    mover = await joined(game.code, alice)
    renders = count_renderings(monkeypatch)

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
    assert renders == ["table"]
    await mover.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_move_hands_its_game_to_the_browsers_of_its_process(
    alice: Client, bob: Client, dice: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await sync_to_async(create_game)(alice, players="Bob")
    mover, watchers = socket(game.code, alice), [socket(game.code), socket(game.code)]
    for ws in [mover, *watchers]:
        await ws.connect()
        await next_version(ws)
    await settled(mover, *watchers)  # the watchers change the spectator count alice sees
    reads: list[str | None] = []
    renders = count_renderings(monkeypatch)
    real_get = SNAPSHOTS.get

    def counted_get(game_id: int, code: str, stamp: str | None):
        if SNAPSHOTS.peek(game_id, code, stamp) is None:
            reads.append(stamp)
        return real_get(game_id, code, stamp)

    monkeypatch.setattr(SNAPSHOTS, "get", counted_get)

    await sync_to_async(alice.post)(
        f"/g/{game.code}/roll/", {"version": game.version}, HTTP_HX_REQUEST="true"
    )
    moved = SNAPSHOTS.peek(game.id, game.code, f"v{game.version + 1}")
    pushed = [await next_version(ws) for ws in [mover, *watchers]]

    assert moved is not None and moved.version == game.version + 1
    assert [got for got, _html in pushed] == [game.version + 1] * 3
    assert reads == []  # nobody read the game: the move left it here
    # One rendering for the mover (the answer and its push), one for the watchers.
    assert len(renders) == 2
    assert pushed[1][1] == pushed[2][1]
    for ws in [mover, *watchers]:
        await ws.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("header", "total"),
    [
        ((b"cookie", b"django_language=fi"), "Summa"),
        ((b"accept-language", b"fi-FI,fi;q=0.9,en;q=0.5"), "Summa"),
        ((b"accept-language", b"de-DE"), "Total"),
    ],
)
async def test_a_browser_is_pushed_tables_in_its_own_language(
    alice: Client, bob: Client, dice: object, header: tuple[bytes, bytes], total: str
) -> None:
    game = await sync_to_async(create_game)(alice, players="Bob")
    other = socket(game.code)  # an English browser renders first, and is cached first
    watcher = WebsocketCommunicator(
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


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_table_ready_on_the_event_loop_is_pushed_while_the_sync_thread_is_busy(
    alice: Client, dice: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Channels' consumers hop to the sync thread before every message; a push that
    # needs no database must not wait for that thread's queue of requests.
    game = await sync_to_async(create_game)(alice)
    watcher = await joined(game.code)
    with monkeypatch.context() as quiet:  # the move leaves its table ready, unannounced
        quiet.setattr(broadcast, "get_channel_layer", lambda: None)
        await sync_to_async(alice.post)(
            f"/g/{game.code}/roll/", {"version": game.version}, HTTP_HX_REQUEST="true"
        )
    thread_free = threading.Event()
    busy = asyncio.ensure_future(sync_to_async(thread_free.wait)(5))
    try:
        await get_channel_layer().group_send(
            broadcast.group_name(game.code), {"type": "game.changed", "version": game.version + 1}
        )
        got, _html = await next_version(watcher)
        assert not thread_free.is_set() and got == game.version + 1
    finally:
        thread_free.set()
        await busy
    await watcher.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_move_made_on_another_thread_reaches_the_sockets_at_once(dice: object) -> None:
    # A computer player moves from its own timer thread, which is neither the event
    # loop's nor the sync thread: its notice must wake the loop, not wait for
    # something else to.
    game = await sync_to_async(bot_table)("yatzy", ["good"])
    watcher = await joined(game.code)
    moved_at: list[float] = []

    def move_elsewhere() -> None:
        services.bot_move(game.code, game.version)
        moved_at.append(time.monotonic())

    mover = threading.Thread(target=move_elsewhere)
    mover.start()
    html = await watcher.receive_from(timeout=2)
    received_at = time.monotonic()
    await asyncio.to_thread(mover.join)  # the push may arrive before the move returns

    got = int(re.search(r'data-version="(\d+)"', html).group(1))
    assert got == game.version + 1
    assert received_at - moved_at[0] < 0.05  # another wake-up came within 0.1 s
    await watcher.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_request_waits_until_the_moves_before_it_have_reached_their_browsers(
    alice: Client, dice: object, monkeypatch: pytest.MonkeyPatch, settings
) -> None:
    # On the loop a request holds it for its whole synchronous part: begun before the
    # previous move's pushes went out, it would make them wait for it. With Redis the
    # wait ends once the notice is handed to Redis: its way back to this process's
    # sockets is a round trip the request does not wait for.
    settings.YATZY_SYNC_ON_LOOP = True
    in_memory = isinstance(get_channel_layer(), ThrottledInMemoryChannelLayer)
    game = await sync_to_async(create_game)(alice)
    watcher = await joined(game.code)
    steps: list[str] = []
    real_respond, real_changed = OneHopASGIHandler._respond, TableConsumer.game_changed
    real_send = broadcast._send

    async def send(*args) -> None:
        await real_send(*args)
        steps.append("handed over")

    def respond(handler, scope, body_file):
        steps.append(f"request {scope['path']}")
        return real_respond(handler, scope, body_file)

    async def changed(consumer, event):
        await real_changed(consumer, event)
        steps.append("pushed")

    monkeypatch.setattr(OneHopASGIHandler, "_respond", respond)
    monkeypatch.setattr(TableConsumer, "game_changed", changed)
    monkeypatch.setattr(broadcast, "_send", send)
    roll = await browser_request(alice, "POST", f"/g/{game.code}/roll/", f"version={game.version}")
    later = await browser_request(alice, "GET", "/healthz")

    answers = await asyncio.gather(roll.get_response(), later.get_response())

    assert [answer["status"] for answer in answers] == [200, 200]
    assert (await next_version(watcher))[0] == game.version + 1
    waited_for = "pushed" if in_memory else "handed over"
    before = steps[: steps.index("request /healthz")]
    assert before[0] == f"request /g/{game.code}/roll/", steps
    assert waited_for in before, steps
    await watcher.disconnect()
