"""The page's link to the table: a socket lost and found again, a move that cannot
reach the server. Each is said on the page; nothing is dropped without a word."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, Route, WebSocketRoute, expect

from games.models import Seat
from tests.e2e.conftest import score_first_option, screenshot, serve_site
from tests.e2e.test_remote import DIE, alice_and_bob_at_the_table, dice_of, see_the_same_dice
from tests.servers import Server


@pytest.fixture
def own_site(django_db_blocker: object, site: Server) -> Iterator[Server]:
    """A server of this test's own, to stop and start again."""
    server = serve_site(django_db_blocker)
    yield server
    server.stop()


def connection(page: Page):
    return page.locator("#connection")


# Every text the page's connection line shows, in order, kept in ``window.yatzySaid``:
# the all-clear goes away after 4 s, and on a busy machine it may be gone from one page
# before the test has looked at the other.
KEEP_WHAT_IS_SAID = """() => {
    window.yatzySaid = [];
    new MutationObserver(() => {
        const text = document.getElementById("connection").textContent;
        if (window.yatzySaid[window.yatzySaid.length - 1] !== text) window.yatzySaid.push(text);
    }).observe(document.body, {childList: true, characterData: true, subtree: true});
}"""


def has_said(page: Page, text: str) -> None:
    """Wait until ``page``'s connection line has shown ``text`` (it may be gone again)."""
    page.wait_for_function("text => window.yatzySaid.includes(text)", arg=text)


@pytest.mark.slow
@pytest.mark.parametrize("ending", ["stop", "kill"])
def test_a_table_says_it_lost_the_server_and_plays_on_once_it_is_back(
    new_page, own_site: Server, ending: str
) -> None:
    alice, bob = alice_and_bob_at_the_table(new_page, own_site)
    expect(connection(alice)).to_be_empty()
    for page in (alice, bob):
        page.evaluate(KEEP_WHAT_IS_SAID)
    pushed = {page: page.evaluate("() => window.yatzyPushes") for page in (alice, bob)}

    getattr(own_site, ending)()  # restarted by its operator, or crashed
    expect(connection(alice)).to_have_text("Connection lost. Reconnecting…")
    expect(connection(bob)).to_have_text("Connection lost. Reconnecting…")
    alice.set_viewport_size({"width": 360, "height": 740})
    screenshot(alice, f"connection-lost-{ending}")
    # a move while the server is away is not lost without a word
    alice.get_by_role("button", name="Roll").click()
    expect(connection(alice)).to_have_text(
        "No connection: that may not have reached the table. Try again once you are back online."
    )
    expect(alice.get_by_role("button", name="Roll")).to_contain_text("3 rolls left")

    own_site.start()
    # both pages come back by themselves, sooner than htmx's own backoff would
    for page in (alice, bob):
        has_said(page, "Connected again. The table is up to date.")
        # the table the new socket brings is in (a move clicked before it may be
        # answered by that table instead: alice_and_bob_at_the_table)
        page.wait_for_function("n => window.yatzyPushes > n", arg=pushed[page])
    alice.get_by_role("button", name="Roll").click()
    expect(alice.get_by_role("button", name="Roll")).to_contain_text("2 rolls left")
    expect(bob.get_by_role("button", name=DIE)).to_have_count(5)  # pushed to Bob again
    expect(connection(alice)).to_be_empty()  # the all-clear goes away


def test_a_move_the_server_cannot_answer_is_said_so(new_page, site: Server) -> None:
    alice, _bob = alice_and_bob_at_the_table(new_page, site)

    def unavailable(route: Route) -> None:
        route.fulfill(status=503, body="Service Unavailable")

    alice.route("**/roll/", unavailable)  # a proxy in front of a server starting up
    alice.get_by_role("button", name="Roll").click()
    expect(connection(alice)).to_have_text(
        "The server could not answer that just now. Try again in a moment."
    )
    expect(alice.get_by_role("button", name="Roll")).to_contain_text("3 rolls left")

    alice.unroute("**/roll/")
    alice.get_by_role("button", name="Roll").click()  # the next answer clears it
    expect(alice.get_by_role("button", name="Roll")).to_contain_text("2 rolls left")
    expect(connection(alice)).to_be_empty()


def test_a_lost_socket_is_tried_again_within_seconds_however_long_it_was_away(
    new_page, site: Server
) -> None:
    alice, _bob = alice_and_bob_at_the_table(new_page, site)
    # htmx's own backoff doubles up to 64 s: a phone back from a minute offline waited
    # up to 18 s for its table
    longest = alice.evaluate(
        """() => Math.max(...Array.from({length: 200}, (_, i) =>
            htmx.config.wsReconnectDelay(i % 20)))"""
    )
    assert 0 < longest <= 5000


COUNT_PLANNED_RECONNECTS = """() => {
    const delay = htmx.config.wsReconnectDelay;
    window.plannedReconnects = 0;
    htmx.config.wsReconnectDelay = tries => {
        window.plannedReconnects += 1;
        return delay(tries);
    };
}"""


def test_a_socket_the_server_closed_on_purpose_asks_for_a_reload(new_page, site: Server) -> None:
    alice, _bob = alice_and_bob_at_the_table(new_page, site)
    sockets: list[WebSocketRoute] = []

    def through(socket: WebSocketRoute) -> None:
        socket.connect_to_server()
        sockets.append(socket)

    watcher: Page = new_page()
    watcher.route_web_socket("**/ws/**", through)
    watcher.goto(alice.url)
    expect(watcher.get_by_role("status").first).to_contain_text("Alice's turn.")
    watcher.evaluate(COUNT_PLANNED_RECONNECTS)

    sockets[0].close(code=4404, reason="unknown game")  # as the server closes it
    expect(connection(watcher)).to_have_text(
        "This page no longer gets updates from the table. Reload it to go on."
    )
    # not tried again: it would be refused again (htmx plans a reconnect, or not, as
    # the socket closes, before the page is told it closed)
    assert watcher.evaluate("window.plannedReconnects") == 0
    assert len(sockets) == 1


@pytest.mark.slow
def test_a_page_back_after_its_seat_was_handed_over_is_offered_it_at_once(
    new_page, impatient_site: Server
) -> None:
    """Bob's phone loses the table at his turn; the host lets the computer play for him.
    When his page is back, it offers him his seat, without a reload."""
    alice, bob = alice_and_bob_at_the_table(new_page, impatient_site)
    alice.get_by_role("button", name="Roll").click()
    score_first_option(alice)
    sockets: list[tuple[WebSocketRoute, WebSocketRoute]] = []  # the page's and the server's
    cut = [False]

    def through(socket: WebSocketRoute) -> None:
        if cut[0]:
            socket.close(code=1011)  # still no network: tried again later
            return
        sockets.append((socket, socket.connect_to_server()))

    bob.route_web_socket("**/ws/**", through)
    bob.reload()  # his page's socket now goes through ``through``
    expect(bob.get_by_role("status").first).to_contain_text("Your turn, Bob.")
    cut[0] = True
    page_side, server_side = sockets[-1]
    server_side.close()  # the network goes: the server's end of it closes
    page_side.close(code=1011)
    expect(connection(bob)).to_have_text("Connection lost. Reconnecting…")

    expect(alice.get_by_text("Bob: away")).to_be_visible()
    alice.get_by_role("button", name="Let the computer play for Bob").click()
    cut[0] = False

    offer = bob.get_by_role("button", name="Take Bob's seat back")
    expect(offer).to_be_visible()
    expect(bob.get_by_text("While you were away, the host let a computer player")).to_be_visible()
    expect(bob.locator("li.watching")).to_have_count(0)  # his page is a player's, not watching
    screenshot(bob, "seat-offered-back")
    with bob.expect_navigation():
        offer.click()  # a form pushed over the socket: htmx sends its CSRF header
    expect(offer).to_have_count(0)
    assert Seat.objects.get(name="Bob").kind == Seat.Kind.REMOTE
    expect(bob.get_by_text("This page has expired")).to_have_count(0)


def test_a_page_shown_again_from_the_back_forward_cache_still_says_when_it_loses_the_server(
    new_page, own_site: Server
) -> None:
    """A page left for another (pagehide) no longer reports its socket's close: that is
    the page going, not the server. Kept by the browser and shown again (back, forward:
    pageshow), it must report the next loss. Chromium keeps no page with a socket open
    (checked: going back loads the table anew), other browsers do; the two events are
    what such a browser fires, so they are fired here."""
    alice, _bob = alice_and_bob_at_the_table(new_page, own_site)
    alice.evaluate(
        """() => {
            window.dispatchEvent(new PageTransitionEvent("pagehide", {persisted: true}));
            window.dispatchEvent(new PageTransitionEvent("pageshow", {persisted: true}));
        }"""
    )
    own_site.stop()
    expect(connection(alice)).to_have_text("Connection lost. Reconnecting…")


@pytest.mark.slow
def test_a_phone_that_goes_offline_says_so_at_once_and_all_clear_once_back(
    new_page, site: Server
) -> None:
    """A phone off the network kept showing the table as it was, without a word, until
    it tried to act: the browser says it is offline long before its socket is known
    lost (Chromium keeps the socket open)."""
    alice, bob = alice_and_bob_at_the_table(new_page, site)
    bob.set_viewport_size({"width": 375, "height": 740})

    bob.context.set_offline(True)
    expect(connection(bob)).to_have_text("Connection lost. Reconnecting…")
    expect(connection(bob)).to_have_attribute("aria-live", "polite")
    screenshot(bob, "connection-offline-phone")
    alice.get_by_role("button", name="Roll").click()
    expect(alice.get_by_role("button", name="Roll")).to_contain_text("2 rolls left")
    rolled = dice_of(alice)

    bob.context.set_offline(False)
    expect(connection(bob)).to_have_text("Connected again. The table is up to date.")
    see_the_same_dice(bob, rolled, "Bob back online")
    expect(connection(bob)).to_be_empty()  # the all-clear goes away
    expect(connection(alice)).to_be_empty()
