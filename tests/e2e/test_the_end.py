"""The end of a game on a phone: the results come into view for the player who made
the last move, wherever on the page they made it."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.e2e.conftest import more_options, play_turns_over_http, score_first_option, screenshot
from tests.servers import Server


def test_the_last_score_brings_the_results_into_view_on_a_phone(new_page, site: Server) -> None:
    """The last score tapped low in the scorecard left the page scrolled there: the
    ranking, Play again and Review the game were above the screen."""
    page: Page = new_page(375, 667)
    page.goto(site.url + "/")
    page.get_by_label("Your name").fill("Alice")
    more_options(page)
    page.get_by_label("Upper section only").check()
    page.get_by_role("button", name="Create game").click()

    # the first five turns as the table's buttons send them, unclicked
    code = re.search(r"/g/([^/]+)/", page.url).group(1)
    version = play_turns_over_http(site, {0: page}, code, 5)
    expect(page.locator(f"#table[data-version='{version}']")).to_be_attached()
    page.get_by_role("button", name="Roll").click()
    expect(page.get_by_role("button", name=re.compile(r"^Die 1: "))).to_be_enabled()
    # the last one, from the foot of the page
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    expect(page.locator("#turn")).not_to_be_in_viewport()  # the banner: above
    score_first_option(page)

    expect(page.get_by_role("status")).to_contain_text("Game over")
    expect(page.get_by_role("heading", name="Final ranking")).to_be_in_viewport()
    expect(page.get_by_role("status")).to_be_in_viewport()
    screenshot(page, "the-end-phone")
