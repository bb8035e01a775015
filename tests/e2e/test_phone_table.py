"""The table on a phone: the dice and Roll stay on screen while the page scrolls, the
page never scrolls sideways, the players' columns share the width, a long name is cut
short but stays whole for a reader, and the sums' notations are explained."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import screenshot
from tests.servers import Server

IN_VIEW = """element => {
    const box = element.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight
        && box.left >= 0 && box.right <= window.innerWidth;
}"""
LONG_NAME = "Bartholomew the Magnificent"


def sit_at_three(page: Page, site: Server, language: str = "en") -> None:
    page.set_extra_http_headers({"Accept-Language": language})
    page.goto(site.url + "/")
    page.locator("#id_name").fill("Alice")
    page.locator("#id_players").fill(f"{LONG_NAME}\nCarol")
    page.locator("button[name=way][value=together]").click()  # Pass and play
    page.locator("#roll-button").click()
    expect(page.locator(".score-option").first).to_be_visible()


@pytest.mark.parametrize("language", ["en", "fi"])
def test_the_dice_and_roll_stay_in_view_as_the_page_scrolls_on_a_phone(
    new_page, site: Server, language: str
) -> None:
    page: Page = new_page(375, 667)
    sit_at_three(page, site, language)
    bottom = page.evaluate("document.documentElement.scrollHeight - innerHeight")
    assert bottom > 300  # the page is taller than the phone
    for at in (0, bottom // 3, 2 * bottom // 3, bottom):
        page.evaluate(f"window.scrollTo(0, {at})")
        assert page.locator(".dice-area").evaluate(IN_VIEW), at
        assert page.locator("#roll-button").evaluate(IN_VIEW), at
        assert page.locator("#die-0").evaluate(IN_VIEW), at
    assert page.evaluate("document.documentElement.scrollWidth") <= 375  # nothing sideways
    page.evaluate("window.scrollTo(0, 300)")
    screenshot(page, f"phone-bar-{language}")

    page.locator("#die-0").click()  # the bar works where it is
    expect(page.locator("#die-0")).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375


@pytest.mark.parametrize("width", [375, 1280])
def test_the_players_share_the_scorecards_width_and_a_long_name_stays_whole(
    new_page, site: Server, width: int
) -> None:
    page: Page = new_page(width, 800)
    sit_at_three(page, site)
    heads = page.locator(".scorecard thead th")
    widths = [box["width"] for box in (th.bounding_box() for th in heads.all()[1:])]
    assert max(widths) - min(widths) < 1, widths
    scroll = page.locator(".scorecard-scroll")
    assert scroll.evaluate("e => e.scrollWidth <= e.clientWidth")  # three fit a phone

    long = page.get_by_role("columnheader", name=LONG_NAME)  # whole, for a screen reader
    expect(long).to_have_attribute("title", f"\u2068{LONG_NAME}\u2069")  # and under the pointer
    if width == 375:  # cut short for the eye
        name = long.locator(".player-name")
        assert name.evaluate("e => e.scrollWidth > e.clientWidth")
        assert name.evaluate("e => getComputedStyle(e).textOverflow") == "ellipsis"


def test_the_scorecards_notations_are_explained(new_page, site: Server) -> None:
    page: Page = new_page(375, 667)
    sit_at_three(page, site)
    expect(page.locator(".row-subtotal td").first).to_have_text("0 (±0)")
    expect(page.locator(".row-bonus td").first).to_have_text("63 to go")
    legend = page.locator(".scorecard-legend")
    expect(legend).to_contain_text("Ones to Sixes added up")
    expect(legend).to_contain_text("ahead of (+) or behind (-) three of each number")
    expect(legend).to_contain_text(
        "50 points once Ones to Sixes reach 63 together; until then, the points still to go."
    )
    expect(legend).not_to_contain_text("(-14)")  # no example that reads as the player's own
    legend.scroll_into_view_if_needed()
    screenshot(page, "scorecard-key-375")


def test_five_players_on_a_phone_have_column_heads_told_apart(new_page, site: Server) -> None:
    """Issue 46: with five players the phone's heads read "Co..." four times."""
    page: Page = new_page(375, 667)
    page.goto(site.url + "/")
    page.locator("#id_name").fill("Dave")
    page.locator("#id_players").fill("Computer 1\nComputer 2\nComputer 3\nComputer 4")
    page.locator("button[name=way][value=together]").click()  # Pass and play
    expect(page.locator("#roll-button")).to_be_visible()

    shorts = page.locator(".scorecard thead .player-short")
    expect(shorts).to_have_text(["Dav", "Com1", "Com2", "Com3", "Com4"])
    for short in shorts.all():  # each whole, none cut short
        expect(short).to_be_visible()
        assert short.evaluate("e => e.scrollWidth <= e.clientWidth"), short.text_content()
    # the whole name stays the head's, for a screen reader
    expect(page.get_by_role("columnheader", name="Computer 3")).to_have_count(1)
    page.locator(".scorecard").scroll_into_view_if_needed()
    screenshot(page, "five-heads-375")


def test_three_players_on_a_phone_keep_their_whole_names_as_heads(new_page, site: Server) -> None:
    page: Page = new_page(375, 667)
    sit_at_three(page, site)

    expect(page.locator(".scorecard thead .player-name", has_text="Carol")).to_be_visible()
    expect(page.locator(".scorecard thead .player-short").first).to_be_hidden()
