"""A press made as the table's page is still loading is not lost.

htmx takes the page's forms over once every deferred script has come; a player who
taps Roll while the last of them is still on its way (a slow phone, a busy server) was
answered with nothing: the press was dropped, and the table waited for a second tap.
(The first roll of a hot-seat game failed so, now and then, in CI.)"""

from __future__ import annotations

import re
import time

from playwright.sync_api import Page, Route, expect

from tests.servers import Server

HELD_SCRIPT = re.compile(r"/js/reactions[^/]*\.js")


def test_a_roll_pressed_before_the_page_is_ready_is_rolled_once(new_page, site: Server) -> None:
    page: Page = new_page()
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    page.route(HELD_SCRIPT, hold)  # the table page's last script waits
    page.goto(site.url + "/")
    page.locator("#id_name").fill("Alice")
    page.locator("#id_players").fill("Bob")
    page.locator("button[name=way][value=together]").click()  # Pass and play
    # the table is on the page and table.js has run; htmx has not taken the page over
    page.wait_for_function(
        "() => document.getElementById('roll-button') !== null && window.yatzyTurnSignals === 0"
    )
    deadline = time.monotonic() + 30
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(50)  # for the held request to reach the test
    assert held, "the table page never asked for its last script"

    page.locator("#roll-button").click()
    held[0].continue_()

    expect(page.get_by_role("button", name=re.compile("^Die 1:"))).to_be_visible()
    expect(page.locator("#roll-button")).to_contain_text("2 rolls left")
    expect(page.locator("#notice")).to_have_count(0)  # sent once, taken, not refused
