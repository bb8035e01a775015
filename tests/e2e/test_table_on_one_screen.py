"""The whole game on one screen (issue 46): on a laptop the dice, Roll and every row of
the scorecard, its total too, in the window at once after a roll, the dice beside the
card; on a phone every category's row above the dice's bar at once, and the bar saying
whose turn it is: to hand the device on at a screen of several players, what a friend
or a computer player is doing in place of a Roll that cannot be pressed, and the turn's
time left."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.e2e.conftest import more_options, score_first_option, screenshot, serve_site
from tests.e2e.test_languages import next_frame
from tests.e2e.test_layout import sit_at_a_table
from tests.e2e.test_remote import alice_and_bob_at_the_table
from tests.e2e.test_turn_timer_skip import timed_turns
from tests.servers import Server


def box_of(locator: Locator) -> dict[str, float]:
    box = locator.bounding_box()
    assert box is not None, locator
    return box


def in_window(page: Page, locator: Locator) -> bool:
    box = box_of(locator)
    size = page.viewport_size
    assert size is not None
    return (
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= size["width"] + 0.5
        and box["y"] + box["height"] <= size["height"] + 0.5
    )


# (each table is sat at once and seen in each of its windows in turn, the window
# resized: the 1280x800 and 1366x768 windows of a table were a test each)
@pytest.mark.parametrize(
    ("ruleset", "players", "windows"),
    [
        ("yatzy", 4, [(1280, 800), (1366, 768)]),
        ("yahtzee", 4, [(1280, 800), (1366, 768)]),
        ("yatzy", 2, [(1366, 768)]),
        ("maxi_yatzy", 4, [(1280, 800)]),  # twenty rows and six dice: a denser card
    ],
)
def test_after_a_roll_the_dice_roll_and_every_row_of_the_card_are_in_the_window(
    new_page, site: Server, ruleset: str, players: int, windows: list[tuple[int, int]]
) -> None:
    page: Page = new_page(*windows[0])
    sit_at_a_table(page, site, players, ruleset)  # rolled once
    for width, height in windows:
        page.set_viewport_size({"width": width, "height": height})
        next_frame(page)
        card_and_dice_in_the_window(page, ruleset, players, width, height)


def card_and_dice_in_the_window(
    page: Page, ruleset: str, players: int, width: int, height: int
) -> None:
    assert page.evaluate("window.scrollY") == 0  # nothing scrolled to get there

    rows = page.locator(".scorecard tr")
    assert rows.count() >= 17
    for row in rows.all():
        assert in_window(page, row), row.inner_text()
    expect(page.get_by_role("rowheader", name="Total", exact=True)).to_be_in_viewport(ratio=1)
    for die in page.locator("#table .die").all():
        assert in_window(page, die), die
    assert in_window(page, page.locator("#roll-button"))
    expect(page.get_by_role("button", name="Roll")).to_be_enabled()
    for option in page.locator(".score-option").all():  # WCAG 2.2's 2.5.8: 24 px at least
        box = box_of(option)
        assert box["width"] >= 24 and box["height"] >= 24, box
    # beside the card, not above it
    dice = box_of(page.locator(".dice-area"))
    card = box_of(page.locator(".scorecard"))
    assert dice["x"] + dice["width"] <= card["x"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    # the window, as the player sees it
    screenshot(page, f"one-screen-{ruleset}-{players}-{width}x{height}", full_page=False)


@pytest.mark.parametrize("ruleset", ["yatzy", "yahtzee"])
def test_every_category_row_fits_above_the_dice_bar_of_a_phone(
    new_page, site: Server, ruleset: str
) -> None:
    """In English, then in Finnish (the longest words), at one table (the two languages
    were a test each, each at a table of its own)."""
    page: Page = new_page(375, 667)
    sit_at_a_table(page, site, 2, ruleset)  # rolled once
    every_category_row_above_the_dice_bar(page, ruleset)
    page.set_extra_http_headers({"Accept-Language": "fi"})
    page.reload()
    expect(page.locator("html[lang=fi]")).to_be_attached()
    expect(page.locator(".score-option").first).to_be_visible()
    every_category_row_above_the_dice_bar(page, ruleset)


def every_category_row_above_the_dice_bar(page: Page, ruleset: str) -> None:
    # the card scrolled to its head, as a player scrolls to it
    page.locator(".scorecard thead").evaluate(
        "head => window.scrollBy(0, head.getBoundingClientRect().top)"
    )
    bar = box_of(page.locator(".dice-area"))
    assert bar["y"] + bar["height"] == pytest.approx(667, abs=1)  # at the window's foot
    categories = page.locator(".scorecard tr.row-category")
    assert categories.count() == (15 if ruleset == "yatzy" else 13)
    for row in categories.all():
        box = box_of(row)
        assert box["y"] >= 0 and box["y"] + box["height"] <= bar["y"] + 0.5, row.inner_text()
    for option in page.locator(".score-option").all():  # WCAG 2.2's 2.5.8: 24 px at least
        box = box_of(option)
        assert box["width"] >= 24 and box["height"] >= 24, box
    assert page.evaluate("document.documentElement.scrollWidth") <= 375


def bar_says(page: Page) -> Locator:
    return page.locator(".dice-area .turn-line")


def test_the_bar_says_to_hand_the_device_to_the_player_whose_turn_it_is(
    new_page, site: Server
) -> None:
    page: Page = new_page(375, 667)
    page.goto(site.url + "/")
    page.locator("#id_name").fill("Alice")
    page.locator("#id_players").fill("Bob")
    page.locator("button[name=way][value=together]").click()  # Pass and play
    expect(bar_says(page)).to_have_text(
        "Alice's turn: hand the device to Alice.", use_inner_text=True
    )
    page.get_by_role("button", name="Roll").click()
    expect(bar_says(page)).to_have_text("Your turn, Alice.", use_inner_text=True)
    score_first_option(page)
    expect(bar_says(page)).to_have_text("Bob's turn: hand the device to Bob.", use_inner_text=True)
    expect(page.get_by_role("button", name="Roll")).to_be_in_viewport()


def test_a_player_alone_at_a_screen_is_not_told_to_hand_it_on(new_page, site: Server) -> None:
    alice, bob = alice_and_bob_at_the_table(new_page, site)
    alice.set_viewport_size({"width": 375, "height": 667})
    expect(bar_says(alice)).to_have_text("Your turn, Alice.", use_inner_text=True)
    # Bob reads what Alice is doing where his Roll would be
    bob.set_viewport_size({"width": 375, "height": 667})
    expect(bar_says(bob)).to_have_text("Alice is rolling…", use_inner_text=True)
    expect(bar_says(bob)).to_be_in_viewport(ratio=1)
    expect(bob.locator("#roll-button")).to_be_hidden()
    alice.get_by_role("button", name="Roll").click()
    score_first_option(alice)
    expect(bar_says(bob)).to_have_text("Your turn, Bob.", use_inner_text=True)
    expect(bob.get_by_role("button", name="Roll")).to_be_visible()
    expect(bar_says(alice)).to_have_text("Bob is rolling…", use_inner_text=True)
    expect(alice.locator("#roll-button")).to_be_hidden()
    bob.close()  # his phone gone: not rolling, and the bar says so as the presence list does
    expect(bar_says(alice)).to_have_text("Bob is away…", use_inner_text=True)


@pytest.fixture(scope="module")
def slow_computer_site(django_db_blocker: object, site: Server) -> Iterator[Server]:
    """The site where a computer player takes 2 s a step, to be seen thinking."""
    server = serve_site(django_db_blocker, YATZY_BOT_DELAY_MS="2000")
    yield server
    server.stop()


@pytest.mark.slow
@pytest.mark.parametrize("width", [375, 1280])
def test_the_bar_says_the_computer_is_thinking_at_its_turn(
    new_page, slow_computer_site: Server, width: int
) -> None:
    page: Page = new_page(width, 800)
    page.goto(slow_computer_site.url + "/")
    page.get_by_label("Your name").fill("Alice")
    more_options(page)
    page.get_by_label("Computer players").fill("1")
    page.get_by_role("button", name="Create game").click()
    page.get_by_role("button", name="Roll").click()
    score_first_option(page)
    expect(bar_says(page)).to_have_text("Computer 1 (Good) is thinking…", use_inner_text=True)
    expect(bar_says(page)).to_be_in_viewport(ratio=1)
    expect(page.locator("#roll-button")).to_be_hidden()  # no dead Roll
    # (the turn banner beside the bar says it on a laptop)
    expect(page.get_by_role("status")).to_contain_text("Your turn, Alice.", timeout=60_000)
    expect(page.get_by_role("button", name="Roll")).to_be_visible()


def test_the_bar_shows_the_turns_time_left(new_page, site: Server) -> None:
    page: Page = new_page(375, 667)
    timed_turns(page, site)
    timer = page.locator(".dice-area").get_by_role("timer")
    expect(timer).to_contain_text("Time left for this turn: 0:")
    expect(timer).to_be_in_viewport(ratio=1)
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    expect(timer).to_be_in_viewport(ratio=1)  # the bar stays, and its time with it
