"""The turn timer in real browsers: its countdown on every page at the table, and the
server's skip when it runs out, pushed to them all (no page asks for it).

The skip is seen at a table of 10-second turns, a timer the test servers offer beside
the real ones (``YATZY_TEST_TURN_TIMER_S``, tests/e2e/conftest.py): the same countdown,
deadline and skip as a real timer's 30 s, without half a minute's wait."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import SHORT_TURN_S, more_options, screenshot
from tests.servers import Server

COUNTDOWN = re.compile(r"Time left for this turn: 0:[0-3]\d")


def timed_turns(page: Page, site: Server, seconds: int = 30) -> None:
    """Alice and Bob at this screen, ``seconds`` a turn."""
    page.goto(site.url + "/")
    page.get_by_label("Your name").fill("Alice")
    more_options(page)
    page.get_by_label("Turn timer").select_option(str(seconds))
    page.get_by_label("More players at this screen").fill("Bob")
    page.get_by_role("button", name="Pass and play").click()


@pytest.mark.slow
def test_every_page_counts_down_and_the_turn_is_skipped_at_zero(new_page, site: Server) -> None:
    alice: Page = new_page(375, 740)
    timed_turns(alice, site, SHORT_TURN_S)
    expect(alice.get_by_role("status").first).to_contain_text("Your turn, Alice.")
    watcher: Page = new_page()
    watcher.goto(alice.url)

    for page in (alice, watcher):
        expect(page.get_by_role("timer")).to_have_text(COUNTDOWN)
    screenshot(alice, "turn-timer-375")
    first = alice.get_by_role("timer").text_content()
    expect(alice.get_by_role("timer")).not_to_have_text(first or "")  # it counts

    for page in (alice, watcher):  # the whole turn's time, and the push
        expect(page.locator(".last-move")).to_contain_text(
            "Alice's turn was skipped: 0 in", timeout=60_000
        )
    expect(alice.get_by_role("status").first).to_contain_text("Your turn, Bob.")
    expect(watcher.get_by_role("timer")).to_have_text(COUNTDOWN)  # Bob's own time


@pytest.mark.parametrize("minutes", [10, -10], ids=["browser-ahead", "browser-behind"])
def test_the_countdown_goes_by_the_servers_clock_not_the_browsers(
    new_page, site: Server, minutes: int
) -> None:
    """A phone whose clock is off by minutes still shows the turn's own time left."""
    page: Page = new_page()
    page.clock.set_system_time(datetime.now() + timedelta(minutes=minutes))
    timed_turns(page, site)

    # 0:00 (ahead: the time looks gone) or 10:2x (behind) where the browser's clock counts
    expect(page.get_by_role("timer")).to_have_text(
        re.compile(r"Time left for this turn: 0:(1\d|2\d|30)")
    )
