"""The home page's ways in: each one press away, in view without scrolling on a phone
and a desktop, and More options showing the options of the rule set chosen."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import screenshot
from tests.servers import Server

# the buttons' words in each language tested (Finnish: the longest words)
STARTS = {
    "en": ("Play with friends", "Play the computer", "Pass and play", "Play someone now"),
    "fi": (
        "Pelaa kavereiden kanssa",
        "Pelaa tietokonetta vastaan",
        "Pelaa samalla laitteella",
        "Pelaa jonkun kanssa nyt",
    ),
}
DAILY = {"en": re.compile(r"^Play today's "), "fi": re.compile(r"^Pelaa päivän ")}


@pytest.mark.parametrize("language", ["en", "fi"])
@pytest.mark.parametrize(("width", "height"), [(375, 667), (1280, 800)])
def test_the_ways_in_are_in_view_without_scrolling(
    new_page, site: Server, width: int, height: int, language: str
) -> None:
    page: Page = new_page(width, height)
    page.set_extra_http_headers({"Accept-Language": language})
    page.goto(site.url + "/")

    buttons = [page.get_by_role("button", name=name) for name in STARTS[language]]
    buttons += page.get_by_role("button", name=DAILY[language]).all()
    assert len(buttons) == 6
    for button in buttons:
        expect(button).to_be_visible()
        box = button.bounding_box()
        assert box is not None
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, (button, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (button, box)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(page, f"home-{width}-{language}", full_page=False)
    screenshot(page, f"home-{width}-{language}-whole")


def test_more_options_show_the_chosen_rule_sets_options(new_page, site: Server) -> None:
    page: Page = new_page()
    page.goto(site.url + "/")
    upper_bonus = page.get_by_label("Upper bonus (Scandinavian Yatzy)")
    yahtzee_bonus = page.get_by_label(re.compile(r"^Yahtzee bonus of 100"))
    coach = page.get_by_label("Coach")
    expect(page.get_by_label("Rules")).to_be_visible()  # beside the name, not under More options
    expect(upper_bonus).to_be_hidden()

    page.get_by_text("More options").click()

    expect(upper_bonus).to_be_visible()
    expect(yahtzee_bonus).to_be_hidden()
    page.get_by_label("Rules").select_option("yahtzee")
    expect(upper_bonus).to_be_hidden()
    expect(yahtzee_bonus).to_be_visible()
    expect(coach).to_be_visible()
    page.get_by_label("Rules").select_option("maxi_yatzy")
    expect(upper_bonus).to_be_hidden()
    expect(yahtzee_bonus).to_be_hidden()
    expect(coach).to_be_visible()  # Maxi Yatzy's coach too, by its solved tables


def test_one_press_plays_the_computer_at_the_level_chosen(new_page, site: Server) -> None:
    page: Page = new_page(375, 667)
    page.goto(site.url + "/")
    page.get_by_label("Your name").fill("Alice")
    page.get_by_label("Computer strength").select_option("beginner")

    page.get_by_role("button", name="Play the computer").click()

    expect(page.get_by_role("status").first).to_contain_text("Your turn, Alice.")
    expect(page.locator(".presence")).to_contain_text("computer player")
    page.goto(site.url + "/")  # and the name is remembered
    expect(page.get_by_label("Your name")).to_have_value("Alice")
