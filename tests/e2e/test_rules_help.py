"""The rules where a player needs them: a category's name on the table opens its rule by
key and by tap, without leaving the table; the home page's rule set, chosen without More
options, is the one its buttons name and start; and no Perfect computer nor coach is
offered where perfect play is not worked out."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import TIMEOUT_MS, more_options, screenshot, serve_site, watch_page
from tests.servers import Server

TWO_PAIRS = "Two pairs of different numbers: the sum of those four dice. The highest pairs count."


def pass_and_play(page: Page, site: Server, ruleset: str = "yatzy") -> None:
    page.goto(site.url + "/")
    page.get_by_label("Your name").fill("Alice")
    page.get_by_label("More players at this screen").fill("Bob")
    page.get_by_label("Rules").select_option(ruleset)
    page.locator("button[name=way][value=together]").click()
    expect(page.get_by_role("status").first).to_contain_text("Your turn, Alice.")


def test_a_categorys_name_tells_its_rule_by_keyboard(new_page, site: Server) -> None:
    page: Page = new_page()
    pass_and_play(page, site)
    name = page.get_by_role("button", name="Two pairs", exact=True)
    tip = page.locator("#rule-two_pairs")
    expect(name).to_have_accessible_description(TWO_PAIRS)
    expect(tip).to_be_hidden()

    page.get_by_role("button", name="One pair", exact=True).focus()
    page.keyboard.press("Tab")  # the names are in the keyboard's order
    expect(name).to_be_focused()
    page.keyboard.press("Enter")

    expect(tip).to_be_visible()
    expect(tip).to_contain_text(TWO_PAIRS)
    screenshot(page, "category-rule-1280")
    page.keyboard.press("Escape")
    expect(tip).to_be_hidden()
    expect(page.locator("#table")).to_be_visible()  # still at the table
    page.keyboard.press("Enter")
    expect(tip).to_be_visible()
    page.keyboard.press("Enter")  # the button closes it again
    expect(tip).to_be_hidden()


@pytest.fixture
def phone(browser: object, site: Server, transactional_db: None) -> Iterator[Page]:
    """A phone's page: a touch screen, 375 px wide."""
    context = browser.new_context(  # type: ignore[attr-defined]
        viewport={"width": 375, "height": 667}, has_touch=True, is_mobile=True
    )
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    watch_page(page)
    yield page
    context.close()


def test_a_categorys_name_tells_its_rule_by_tap(phone: Page, site: Server) -> None:
    pass_and_play(phone, site, "maxi_yatzy")
    name = phone.get_by_role("button", name="Tower", exact=True)
    tip = phone.locator("#rule-tower")
    name.scroll_into_view_if_needed()

    name.tap()

    expect(tip).to_be_visible()
    expect(tip).to_contain_text("Four dice of one number and two of another: the sum of the dice.")
    box = tip.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375, box
    # the screen as the player sees it: after a whole page's screenshot, Chromium's
    # emulated touch no longer reached the page (the tap below closed nothing)
    screenshot(phone, "category-rule-375", full_page=False)
    phone.touchscreen.tap(5, 5)  # elsewhere: it closes
    expect(tip).to_be_hidden()


@pytest.mark.parametrize(
    ("ruleset", "title", "row"),
    [
        ("yahtzee", "American Yahtzee", "Yahtzee"),
        ("maxi_yatzy", "Maxi Yatzy", "Full straight"),
    ],
)
def test_the_rule_set_chosen_beside_the_name_is_the_one_started(
    new_page, site: Server, ruleset: str, title: str, row: str
) -> None:
    page: Page = new_page(375, 667)
    page.goto(site.url + "/")
    computer = page.get_by_role("button", name="Play the computer")
    expect(computer).to_contain_text("Scandinavian Yatzy")
    expect(page.locator("details.more-options")).not_to_have_attribute("open", "")
    page.get_by_label("Your name").fill("Alice")

    page.get_by_label("Rules").select_option(ruleset)

    for way in ("friends", "computer", "together"):
        button = page.locator(f"button[name=way][value={way}]")
        expect(button.locator(".way-rules:visible")).to_have_text(title)
    computer.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(title)
    expect(page.get_by_role("button", name=row, exact=True)).to_be_visible()


@pytest.fixture
def tableless_site(django_db_blocker: object, site: Server, tmp_path: Path) -> Iterator[Server]:
    """The site with no tables built, which builds none by itself."""
    server = serve_site(django_db_blocker, YATZY_SOLVER_CACHE=str(tmp_path), YATZY_BUILD_TABLES="0")
    yield server
    server.stop()


def test_no_perfect_computer_nor_coach_without_perfect_play(
    new_page, tableless_site: Server
) -> None:
    page: Page = new_page()
    page.goto(tableless_site.url + "/")
    page.get_by_label("Your name").fill("Alice")
    more_options(page)
    strength = page.get_by_label("Computer strength")
    perfect = strength.locator("option[value=perfect]")
    coach = page.get_by_label("Coach")
    note = page.locator(".more-options .unsolved-note")

    page.get_by_label("Rules").select_option("maxi_yatzy")

    expect(perfect).to_be_disabled()
    expect(perfect).to_have_text("Perfect: not for these rules")
    expect(coach).to_be_disabled()
    expect(note).to_be_visible()
    expect(note).to_contain_text("this site has not worked out perfect play")
    page.get_by_label("Upper section only").check()  # solved on the spot: offered again
    expect(perfect).to_be_enabled()
    expect(perfect).to_have_text("Perfect")
    expect(coach).to_be_enabled()
    expect(note).to_be_hidden()
    strength.select_option("perfect")
    page.get_by_label("Upper section only").uncheck()  # a whole game again: Good instead
    expect(strength).to_have_value("good")
    expect(coach).not_to_be_checked()

    page.get_by_role("button", name="Play the computer").click()
    expect(page.get_by_role("columnheader", name="Computer 1 (Good)")).to_be_visible()
