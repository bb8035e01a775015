"""What the page does when the server closes its socket on account of the bounds of
games/readers.py: a page that did not say what it read connects again and is up to
date; a page past its browser's number of sockets says so and stays closed."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from games.readers import CLOSE_SLOW_READER
from tests.e2e.conftest import TIMEOUT_MS, more_options, serve_site
from tests.e2e.test_remote import DIE
from tests.servers import Server

WS = re.compile(r"/ws/g/")


@pytest.fixture(scope="module")
def strict_site(django_db_blocker: object, site: Server) -> Iterator[Server]:
    """The site where a page must say within 1 s what it read, and a browser may keep
    one socket open."""
    server = serve_site(
        django_db_blocker, YATZY_SOCKET_READ_TIMEOUT_S="1", YATZY_SOCKETS_PER_BROWSER="1"
    )
    yield server
    server.stop()


def hot_seat_table(page: Page, site: Server) -> str:
    """Alice's table for her and Bob at one screen; its address."""
    page.goto(site.url + "/")
    page.get_by_label("Your name").fill("Alice")
    page.get_by_label("More players at this screen").fill("Bob")
    more_options(page)
    page.get_by_role("button", name="Create game").click()
    expect(page.get_by_role("status")).to_contain_text("Your turn, Alice.")
    return page.url


def test_a_page_whose_socket_was_closed_as_a_slow_reader_comes_back_up_to_date(
    new_page, strict_site: Server
) -> None:
    alice = new_page()
    table = hot_seat_table(alice, strict_site)
    watcher = new_page()
    sockets: list[WebSocketRoute] = []
    closed_by_the_server: list[int | None] = []  # their codes

    def first_one_says_nothing(ws: WebSocketRoute) -> None:
        """The page's first socket: its answers ("ack N") never reach the server."""
        sockets.append(ws)
        server = ws.connect_to_server()

        def closed(code: int | None, reason: str | None) -> None:
            closed_by_the_server.append(code)
            ws.close(code=code, reason=reason)

        server.on_close(closed)
        if len(sockets) == 1:
            ws.on_message(lambda message: None)
        else:
            ws.on_message(server.send)

    watcher.route_web_socket(WS, first_one_says_nothing)
    watcher.goto(table)

    expect(watcher.locator("#connection")).to_have_text("Connected again. The table is up to date.")
    alice.get_by_role("button", name="Roll").click()
    expect(watcher.get_by_role("button", name=DIE)).to_have_count(5)
    # connected again, each time after the server closed it as a slow reader (the first
    # always; on a busy machine an answer of the next socket's may take longer than the
    # server's 1 s too, and it is closed and opened again in turn)
    again = len(sockets) - 1
    assert again >= 1
    assert closed_by_the_server[:again] == [CLOSE_SLOW_READER] * again


def test_a_page_past_its_browsers_sockets_says_so_and_does_not_try_again(
    browser, strict_site: Server, transactional_db: None
) -> None:
    context = browser.new_context()
    context.set_default_timeout(TIMEOUT_MS)
    context.clock.install()  # time is the test's: the retries a page would make are run
    try:
        first = context.new_page()
        table = hot_seat_table(first, strict_site)
        second = context.new_page()
        opened: list[object] = []
        second.on("websocket", lambda ws: opened.append(ws))

        second.goto(table)

        expect(second.locator("#connection")).to_have_text(
            "This browser has too many pages of the site open to follow them all."
            " Close some, then reload this one."
        )
        # Told so, the page does not try again. (It may have tried before: a socket
        # lost on the way, as on a busy machine, is tried again, and then refused.)
        told = len(opened)
        second.clock.run_for(60_000)  # past any retry, however slow
        expect(second.locator("#connection")).to_contain_text("too many pages")
        assert len(opened) == told
        expect(first.locator("#connection")).to_be_empty()
    finally:
        context.close()
