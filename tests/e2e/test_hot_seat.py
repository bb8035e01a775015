"""A whole hot-seat game of two players in a real browser, then its history and review."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.models import Game
from games.strategy.solver import Variant
from tests.conftest import solved_tables
from tests.e2e.conftest import more_options, score_first_option, screenshot
from tests.servers import Server


def row_head(page: Page, row: str):
    """The head of the scorecard's row ``row``: a sum's, or a category's name (its
    button; the cell holds its rule too)."""
    return page.locator(f"th:text-is('{row}'), th > .category-rule:text-is('{row}')")


def cell_numbers(page: Page, row: str) -> list[int]:
    cells = page.locator("table.scorecard tr", has=row_head(page, row))
    return [int(re.match(r"-?\d+", text).group()) for text in cells.locator("td").all_inner_texts()]


@pytest.mark.slow
def test_two_players_play_a_whole_game_at_one_screen(new_page, site: Server) -> None:
    solved_tables(Variant("yatzy"))  # the review's skill and luck, whatever ran before
    page: Page = new_page()
    missing: list[str] = []  # anything a page asks for that is not there (the icon was)
    page.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)
    page.goto(site.url + "/")
    expect(page.locator("link[rel=icon]")).to_have_count(1)
    page.get_by_label("Your name").fill("Alice")
    page.get_by_label("More players at this screen").fill("Bob")
    more_options(page)
    page.get_by_role("button", name="Create game").click()
    expect(page.get_by_role("status")).to_contain_text("Your turn, Alice.")
    expect(page.get_by_role("columnheader", name="Alice")).to_be_visible()
    expect(page.get_by_role("columnheader", name="Bob")).to_be_visible()

    for turn in range(30):
        player = "Alice" if turn % 2 == 0 else "Bob"
        expect(page.get_by_role("status")).to_contain_text(f"Your turn, {player}.")
        if turn == 1:  # Alice scored by keyboard: the next player's roll has the focus
            expect(page.get_by_role("button", name="Roll")).to_be_focused()
        page.get_by_role("button", name="Roll").click()
        if turn == 0:
            first = page.get_by_role("button", name=re.compile(r"^Die 1: \d$"))
            first.click()
            expect(first).to_have_attribute("aria-pressed", "true")
            page.get_by_role("button", name="Roll").click()
            expect(page.get_by_role("button", name="Roll")).to_contain_text("1 roll left")
            screenshot(page, "hot-seat-desktop")
            expect(page.locator(".htmx-request")).to_have_count(0)
            page.locator(".score-option:not(.zero)").first.focus()  # Chance scores always
            page.keyboard.press("Enter")
            continue
        score_first_option(page)

    expect(page.get_by_role("status")).to_contain_text("Game over")
    expect(page.get_by_role("heading", name="Final ranking")).to_be_visible()
    screenshot(page, "hot-seat-finished")
    game = Game.objects.get()
    state = game.engine_state()
    totals = cell_numbers(page, "Total")
    assert totals == [state.totals(0).total, state.totals(1).total]
    upper = [sum(cell_numbers(page, row)[c] for row in _UPPER) for c in range(2)]
    lower = [sum(cell_numbers(page, row)[c] for row in _LOWER) for c in range(2)]
    bonus = [0 if "to go" in t else int(t) for t in _row_texts(page, "Bonus")]
    assert totals == [upper[c] + bonus[c] + lower[c] for c in range(2)]

    page.get_by_role("link", name="History").click()
    expect(page.get_by_role("link", name="Review")).to_be_visible()
    page.get_by_role("link", name="Review").click()
    expect(page.get_by_role("heading", name=re.compile("^Review"))).to_be_visible()
    page.get_by_role("link", name="Start").click()
    expect(page.get_by_text("Step 0 of")).to_be_visible()
    expect(page.locator(".htmx-request")).to_have_count(0)  # Start's stepper is in
    step_next = page.get_by_role("link", name="Next", exact=True)  # not Next mistake
    step_next.focus()
    page.keyboard.press("Enter")
    expect(page.locator(".step-text")).to_contain_text("Alice rolls")
    expect(step_next).to_be_focused()  # to step on by keyboard
    expect(page).to_have_url(re.compile(r"/review/\?step=1$"))  # a step has its address
    page.keyboard.press("Enter")
    expect(page.get_by_text("Step 2 of")).to_be_visible()
    page.go_back()
    expect(page.get_by_text("Step 1 of")).to_be_visible()
    expect(page.locator(".htmx-request")).to_have_count(0)
    step_previous = page.get_by_role("link", name="Previous", exact=True)
    step_previous.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_text("Step 0 of")).to_be_visible()
    # at the start Previous stays, unavailable, and keeps the focus (it went to the page)
    expect(step_previous).to_have_attribute("aria-disabled", "true")
    expect(step_previous).to_be_focused()
    screenshot(page, "review")

    # On a phone, no page of it scrolls sideways: a wide table scrolls in its place.
    review = page.url
    page.set_viewport_size({"width": 375, "height": 740})
    for name, url in (("home", "/"), ("history", "/history/"), ("review", review)):
        page.goto(site.url + url if url.startswith("/") else url)
        assert page.evaluate("document.documentElement.scrollWidth") <= 375, name
        screenshot(page, f"phone-{name}")
    caption = page.locator(".skill-table caption").bounding_box()
    assert caption["x"] >= 0 and caption["x"] + caption["width"] <= 375  # read whole
    assert missing == []


_UPPER = ["Ones", "Twos", "Threes", "Fours", "Fives", "Sixes"]
_LOWER = [
    "One pair",
    "Two pairs",
    "Three of a kind",
    "Four of a kind",
    "Small straight",
    "Large straight",
    "Full house",
    "Chance",
    "Yatzy",
]


def _row_texts(page: Page, row: str) -> list[str]:
    cells = page.locator("table.scorecard tr", has=row_head(page, row))
    return cells.locator("td").all_inner_texts()


def test_the_table_fits_a_phone(new_page, site: Server) -> None:
    page: Page = new_page(360, 740)
    page.goto(site.url + "/")
    page.get_by_label("Your name").fill("Alice")
    page.get_by_label("More players at this screen").fill("Bob")
    more_options(page)
    page.get_by_role("button", name="Create game").click()
    page.get_by_role("button", name="Roll").click()
    expect(page.get_by_role("button", name=re.compile(r"^Die 5: "))).to_be_visible()

    screenshot(page, "table-phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_a_zero_to_confirm_comes_into_view_with_the_focus_on_its_answer(
    new_page, site: Server
) -> None:
    """The question is asked at the table's top; the zero was tapped at the foot of the
    scorecard, on a phone. The question must not stay out of sight (the tap seemed to
    do nothing), and the keyboard must not have to go back past the dice to answer it."""
    page: Page = new_page(360, 740)
    page.goto(site.url + "/")
    page.get_by_label("Your name").fill("Alice")
    more_options(page)
    page.get_by_role("button", name="Create game").click()
    page.get_by_role("button", name="Roll").click()
    expect(page.locator(".htmx-request")).to_have_count(0)
    zero = page.get_by_role("button", name=re.compile(r"^Score 0 in ")).last  # Yatzy, nearly always
    zero.focus()
    assert page.evaluate("window.scrollY") > 0  # the foot of the scorecard, not the top
    page.keyboard.press("Enter")

    yes = page.get_by_role("button", name=re.compile(r"^Yes, score 0 in "))
    expect(yes).to_be_focused()
    expect(yes).to_be_in_viewport()
    expect(page.get_by_role("alert")).to_be_in_viewport()
    screenshot(page, "zero-to-confirm-phone")
    page.keyboard.press("Enter")  # answered where the focus is
    expect(yes).to_have_count(0)
    expect(page.get_by_role("button", name="Roll")).to_contain_text("3 rolls left")  # next turn


OLDER_PUSH = """older => htmx.swap(document.body,
    '<section id="table" data-version="' + older + '" hx-swap-oob="true">stale</section>',
    {swapStyle: 'none'})"""


def test_a_late_push_of_an_older_table_does_not_replace_a_newer_one(new_page, site: Server) -> None:
    """The answer to a move and the push of the version before it can cross on the wire;
    the page keeps the newer table whichever comes last."""
    page: Page = new_page()
    page.goto(site.url + "/")
    page.get_by_label("Your name").fill("Alice")
    more_options(page)
    page.get_by_role("button", name="Create game").click()
    page.get_by_role("button", name="Roll").click()
    expect(page.get_by_role("button", name="Roll")).to_contain_text("2 rolls left")
    table = page.locator("#table")
    shown = int(table.get_attribute("data-version"))

    page.evaluate(OLDER_PUSH, shown - 1)
    expect(page.get_by_role("button", name="Roll")).to_contain_text("2 rolls left")
    assert table.get_attribute("data-version") == str(shown)

    page.evaluate(OLDER_PUSH, shown + 1)  # a newer table is swapped in as usual
    expect(table).to_have_text("stale")


# Kept by the page from its first load: the Roll button then, and the pushes since.
TRACK_ROLL_BUTTON = """
window.yatzyPushes = 0;
document.addEventListener('htmx:wsAfterMessage', () => { window.yatzyPushes += 1; });
document.addEventListener('DOMContentLoaded', () => {
  window.yatzyRollAtLoad = document.getElementById('roll-button');
});
"""


def test_the_push_of_the_table_on_screen_leaves_its_buttons_in_place(
    new_page, site: Server
) -> None:
    """The page's socket arrives with the table the page already shows. Swapping it in
    would replace the Roll button, and a click pressed before the push and released
    after it would be lost (as it once was in this file's tests): the button stays."""
    page: Page = new_page()
    page.add_init_script(TRACK_ROLL_BUTTON)
    page.goto(site.url + "/")
    page.get_by_label("Your name").fill("Alice")
    more_options(page)
    page.get_by_role("button", name="Create game").click()
    page.wait_for_function("() => window.yatzyPushes >= 1")  # a function: CSP forbids eval

    assert page.evaluate("window.yatzyRollAtLoad === document.getElementById('roll-button')")
    page.get_by_role("button", name="Roll").click()
    expect(page.get_by_role("button", name="Roll")).to_contain_text("2 rolls left")


def test_keyboard_focus_stays_on_its_control_when_the_table_is_replaced(
    new_page, site: Server
) -> None:
    """A keyboard player keeps their place: after their own move (answer and push) and
    after a table pushed by a move from another tab, the same control has focus."""
    page: Page = new_page()
    page.goto(site.url + "/")
    page.get_by_label("Your name").fill("Alice")
    more_options(page)
    page.get_by_role("button", name="Create game").click()
    roll = page.get_by_role("button", name="Roll")

    roll.focus()
    with page.expect_response(lambda response: "/roll/" in response.url):
        page.keyboard.press("Enter")
    expect(roll).to_contain_text("2 rolls left")
    expect(roll).to_be_focused()

    other_tab = page.context.new_page()  # the same player, in a second tab
    other_tab.goto(page.url)
    die = page.get_by_role("button", name=re.compile(r"^Die 3: \d$"))
    die.focus()
    shown = page.locator("#table").get_attribute("data-version")
    other_tab.get_by_role("button", name=re.compile(r"^Die 5: \d$")).click()
    expect(page.locator("#table")).not_to_have_attribute("data-version", shown)  # pushed
    expect(page.get_by_role("button", name=re.compile(r"^Die 5: \d$"))).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(die).to_be_focused()

    page.keyboard.press("Space")  # and the keyboard still acts on it
    expect(die).to_have_attribute("aria-pressed", "true")
    expect(die).to_be_focused()


def test_a_refusal_with_no_place_on_the_table_is_shown_in_place_of_the_page(
    new_page, site: Server
) -> None:
    """A refusal answered with a page of its own (here: playing again before the end,
    as an old or forged page might ask) replaces the page, not the table inside it."""
    page: Page = new_page()
    page.goto(site.url + "/")
    page.get_by_label("Your name").fill("Alice")
    more_options(page)
    page.get_by_role("button", name="Create game").click()
    expect(page.get_by_role("button", name="Roll")).to_be_visible()
    expect(page).to_have_title("▶ Scandinavian Yatzy · Yatzy")  # the tab says whose turn

    page.evaluate(
        "htmx.ajax('POST', location.pathname + 'again/', {target: '#table', swap: 'outerHTML'})"
    )

    expect(page.get_by_role("heading", name="Sorry")).to_be_visible()
    expect(page).to_have_title("Sorry · Yatzy")  # the tab says so too
    expect(page.get_by_role("alert")).to_have_text("The game is not over yet.")
    expect(page.locator("header.site-header")).to_have_count(1)  # not a page in a page
    expect(page.locator("main main")).to_have_count(0)
    assert page.locator("#table").count() == 0
