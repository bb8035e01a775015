"""What the table's page says and does when the server closes its socket with one of
its own codes for the site's limits and its degraded mode (games/consumers.py): over
the limit of sockets connecting (4429) it says so and stays closed; while the live
updates are paused (4503, Redis down) it says so and tries again until they are back."""

from __future__ import annotations

from playwright.sync_api import WebSocketRoute, expect

from tests.e2e.test_crowded_browser import WS, hot_seat_table
from tests.servers import Server


def test_a_page_connecting_too_often_says_so_and_does_not_try_again(new_page, site: Server) -> None:
    page = new_page(clock=True)
    table = hot_seat_table(page, site)
    page.goto("about:blank")  # the table's own socket, slow on a busy machine, not counted
    opened: list[WebSocketRoute] = []

    def over_the_limit(ws: WebSocketRoute) -> None:
        opened.append(ws)
        ws.close(code=4429, reason="too many connections")

    page.route_web_socket(WS, over_the_limit)
    page.goto(table)

    expect(page.locator("#connection")).to_contain_text(
        "Too many connections from your browser or your network just now"
    )
    page.clock.run_for(60_000)  # past any retry, however slow
    expect(page.locator("#connection")).to_contain_text("Too many connections")
    assert len(opened) == 1


def test_a_page_whose_live_updates_are_paused_says_so_and_comes_back_by_itself(
    new_page, site: Server
) -> None:
    page = new_page(clock=True)
    table = hot_seat_table(page, site)
    page.goto("about:blank")
    opened: list[WebSocketRoute] = []

    def paused_twice(ws: WebSocketRoute) -> None:
        """The page's first two sockets find Redis down; the third, back."""
        opened.append(ws)
        if len(opened) <= 2:
            ws.close(code=4503, reason="try again later")
        else:
            server = ws.connect_to_server()
            ws.on_message(server.send)

    page.route_web_socket(WS, paused_twice)
    page.goto(table)

    expect(page.locator("#connection")).to_have_text(
        "Live updates are paused for a moment. Your moves still count;"
        " the table catches up by itself."
    )
    page.clock.run_for(10_000)  # two tries, the second later than the first
    expect(page.locator("#connection")).to_have_text("Connected again. The table is up to date.")
    assert len(opened) == 3
