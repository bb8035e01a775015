"""The review's chart as it is drawn: its words readable on a phone as on a desktop,
none of them cut off or over another, and the chart named for a screen reader."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connections
from django.test import Client
from playwright.sync_api import Page, expect

from games.models import Game
from games.strategy.solver import Variant
from tests.conftest import create_game, play_to_the_end, solved_tables
from tests.e2e.conftest import screenshot
from tests.servers import Server

# Each word of the chart the eye can see, with its size as drawn: its font's size
# times the scale the drawing is shown at (the whole drawing was scaled down to a
# phone's width), and its box on the screen.
CHART_WORDS = """svg => [...svg.querySelectorAll('text')]
    .filter(text => getComputedStyle(text).display !== 'none')
    .map(text => {
        const { left, right, top, bottom } = text.getBoundingClientRect();
        const scale = text.getScreenCTM().d;
        const size = parseFloat(getComputedStyle(text).fontSize) * scale;
        return { word: text.textContent, size, left, right, top, bottom };
    })"""

NAMES = {
    "en": ("Expected final score after each turn", "One line per player"),
    "fi": ("Odotetut loppupisteet jokaisen vuoron jälkeen", "Yksi viiva pelaajaa kohden"),
}


@pytest.fixture
def reviewed_game(transactional_db: None, dice: object) -> Game:
    """A whole Yatzy game of Alice and Bob (15 turns each: the chart's longest
    axis of turns), its solver's tables ready for the review.

    Played in a thread of its own: the moves' broadcasts must not meet the event loop
    Playwright runs in the test's thread."""
    solved_tables(Variant("yatzy"))

    def play() -> Game:
        alice = Client()
        try:
            return play_to_the_end(alice, create_game(alice, players="Bob"))
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(play).result()


@pytest.mark.parametrize("language", ["en", "fi"])
@pytest.mark.parametrize("width", [320, 375, 1280])
def test_the_charts_words_are_readable_and_in_view(
    new_page, site: Server, reviewed_game: Game, width: int, language: str
) -> None:
    """On a phone the chart was its desktop drawing scaled down whole: its numbers
    were ~5 px high."""
    page: Page = new_page(width, 800)
    page.set_extra_http_headers({"Accept-Language": language})
    page.goto(f"{site.url}/g/{reviewed_game.code}/review/")
    name, description = NAMES[language]
    chart = page.get_by_role("img", name=name)
    expect(chart).to_be_visible()
    figure = page.locator("figure.chart")
    figure.scroll_into_view_if_needed()
    screenshot(figure, f"review-chart-{width}-{language}")

    drawn = chart.bounding_box()
    words = chart.evaluate(CHART_WORDS)
    assert "0" in [word["word"] for word in words]  # the turns' axis is there
    for word in words:
        assert 11.5 <= word["size"] <= 16, word
        assert drawn["x"] <= word["left"] and word["right"] <= drawn["x"] + drawn["width"], word
        assert drawn["y"] <= word["top"] and word["bottom"] <= drawn["y"] + drawn["height"], word
    for one in words:  # none over another
        for other in words:
            if one is not other:
                assert (
                    one["right"] <= other["left"]
                    or other["right"] <= one["left"]
                    or one["bottom"] <= other["top"]
                    or other["bottom"] <= one["top"]
                ), (one, other)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    if width > 375:  # a desktop's chart takes its column, as it did
        assert drawn["width"] >= 600
    # named by its title alone, described by its description (the two were one name)
    expect(chart).to_have_accessible_description(re.compile(re.escape(description)))


@pytest.mark.parametrize("width", [375, 1280])
def test_the_charts_numbers_open_under_it_as_a_table(
    new_page, site: Server, reviewed_game: Game, width: int
) -> None:
    """A screen reader had the chart's title and description, and none of its values."""
    page: Page = new_page(width, 800)
    page.goto(f"{site.url}/g/{reviewed_game.code}/review/")
    table = page.get_by_role("table", name="Expected final score after each turn")
    expect(table).to_be_hidden()

    page.get_by_text("Show the chart's numbers").click()

    expect(table).to_be_visible()
    headers = table.get_by_role("columnheader")
    expect(headers).to_have_text(["Turn", "Alice", "Bob"])
    expect(table.get_by_role("rowheader")).to_have_text(["Start", *map(str, range(1, 16))])
    state = reviewed_game.engine_state()
    finals = [f"{state.totals(i).total}.0" for i in range(2)]  # nothing left to expect
    expect(table.get_by_role("row").last.get_by_role("cell")).to_have_text(finals)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    figure = page.locator("section.skill")
    screenshot(figure, f"review-chart-numbers-{width}")


FADED = "e => getComputedStyle(e).maskImage !== 'none'"
# the right edge of the caption's words, left of the last 2.5rem (40 px) of the scroller
CAPTION_CLEAR_OF_THE_FADE = """e => {
    const words = document.createRange();
    words.selectNodeContents(e.querySelector('caption'));
    return words.getBoundingClientRect().right <= e.getBoundingClientRect().right - 40 + 0.5;
}"""


@pytest.mark.parametrize("width", [375, 1280])
def test_the_skill_table_fades_at_its_edge_while_more_of_it_is_out_of_sight(
    new_page, site: Server, reviewed_game: Game, width: int
) -> None:
    """On a phone the table of skill and luck (eight columns) was cut off at the
    screen's edge with no sign that it scrolls: phones show no scroll bar."""
    page: Page = new_page(width, 800)
    page.goto(f"{site.url}/g/{reviewed_game.code}/review/")
    scroller = page.get_by_role("region", name=re.compile("^Points lost by each player"))
    expect(scroller.get_by_role("columnheader", name="Luck")).to_be_attached()
    if width == 1280:  # it fits: nothing fades
        assert scroller.evaluate("e => e.scrollWidth <= e.clientWidth")
        assert not scroller.evaluate(FADED)
        return
    page.wait_for_function(f"() => ({FADED})(document.querySelector('.skill .scorecard-scroll'))")
    scroller.scroll_into_view_if_needed()  # down to it, as a reader scrolls
    screenshot(scroller, "review-skill-faded-375")
    # its caption, which stays in view, keeps clear of the fade (its last words faded)
    assert scroller.evaluate(CAPTION_CLEAR_OF_THE_FADE)

    scroller.evaluate("e => { e.scrollLeft = e.scrollWidth; }")  # read to its end
    page.wait_for_function(f"() => !({FADED})(document.querySelector('.skill .scorecard-scroll'))")
    expect(scroller.get_by_role("columnheader", name="Luck")).to_be_in_viewport()
