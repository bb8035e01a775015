"""The review's turn-by-turn list and its stepper: the step chosen in the list is shown
where the reader is looking, and the list marks it (QA finding: on a phone the stepper
was thousands of pixels above the list, and nothing seemed to happen)."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor

from django.db import connections
from django.test import Client
from playwright.sync_api import Page, expect

from games import analysis
from games.models import Game
from games.replay import replay
from tests.conftest import create_game, play_to_the_end
from tests.e2e.conftest import screenshot
from tests.e2e.test_review_chart import reviewed_game  # noqa: F401 (a fixture)
from tests.servers import Server


def in_view(page: Page, selector: str) -> bool:
    return page.evaluate(
        """selector => {
            const box = document.querySelector(selector).getBoundingClientRect();
            return box.top >= -1 && box.top < window.innerHeight;
        }""",
        selector,
    )


def choose_a_late_step(page: Page, site: Server, game: Game) -> tuple[int, str]:
    page.goto(f"{site.url}/g/{game.code}/review/?step=0")
    links = page.locator(".turns a")
    number = links.count() - 5
    link = links.nth(number - 1)
    text = link.inner_text()
    link.scroll_into_view_if_needed()
    assert not in_view(page, "#stepper") or page.viewport_size["width"] > 900
    link.click()
    expect(page.locator("#stepper .step-text")).to_have_text(text)
    return number, text


def test_a_step_chosen_in_the_list_is_shown_in_view_on_a_phone(
    new_page,
    site: Server,
    reviewed_game: Game,  # noqa: F811 (the fixture imported)
) -> None:
    page: Page = new_page(375, 740)
    number, text = choose_a_late_step(page, site, reviewed_game)

    # (the stepper was far above: its top was below 200 before it came into view too)
    page.wait_for_function(
        "() => Math.abs(document.getElementById('stepper').getBoundingClientRect().top) < 200"
    )
    assert in_view(page, "#stepper")
    chosen = page.locator(f'.turns a[href="?step={number}"]')
    expect(chosen).to_have_attribute("aria-current", "step")
    expect(page.locator(".turns a[aria-current]")).to_have_count(1)
    # a screen reader hears the step itself, not only its number
    expect(page.locator("#stepper [role=status]")).to_contain_text(text)
    screenshot(page, "review-step-chosen-phone")

    page.locator("#step-previous").click()  # the mark follows the stepper
    expect(page.locator(f'.turns a[href="?step={number - 1}"]')).to_have_attribute(
        "aria-current", "step"
    )
    expect(page.locator(".turns a[aria-current]")).to_have_count(1)


def test_on_a_desktop_the_stepper_stays_beside_the_list(
    new_page,
    site: Server,
    reviewed_game: Game,  # noqa: F811 (the fixture imported)
) -> None:
    page: Page = new_page(1280, 800)
    number, _text = choose_a_late_step(page, site, reviewed_game)

    assert in_view(page, "#stepper") and in_view(page, f'.turns a[href="?step={number}"]')
    stepper = page.locator("#stepper").bounding_box()
    chosen = page.locator(f'.turns a[href="?step={number}"]').bounding_box()
    assert stepper["x"] + stepper["width"] <= chosen["x"]  # beside it, not above
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    screenshot(page, "review-step-chosen-desktop")


def test_next_and_previous_mistake_jump_from_mistake_to_mistake(
    new_page,
    site: Server,
    reviewed_game: Game,  # noqa: F811 (the fixture imported)
) -> None:
    """Issue 46: 177 steps to go through one by one to find the mistakes."""
    mistakes = analysis.analyse(reviewed_game).mistakes
    steps = len(replay(reviewed_game))
    page: Page = new_page(375, 740)
    page.goto(f"{site.url}/g/{reviewed_game.code}/review/?step=0")
    status = page.locator("#stepper [role=status]")
    previous = page.get_by_role("link", name="Previous mistake")
    expect(previous).to_have_attribute("aria-disabled", "true")  # none before the start

    page.get_by_role("link", name="Next mistake").click()
    expect(status).to_contain_text(f"Step {mistakes[0]} of {steps}")
    expect(page.locator("#stepper .verdict.loss")).to_be_visible()  # what it cost
    page.get_by_role("link", name="Next mistake").click()
    expect(status).to_contain_text(f"Step {mistakes[1]} of {steps}")
    expect(page).to_have_url(re.compile(rf"\?step={mistakes[1]}$"))
    page.get_by_role("link", name="Previous mistake").click()
    expect(status).to_contain_text(f"Step {mistakes[0]} of {steps}")
    expect(page.get_by_role("link", name="Previous mistake")).to_have_attribute(
        "aria-disabled", "true"
    )
    # the keyboard's focus stays on the control pressed, for the next jump
    expect(page.locator("#mistake-previous")).to_be_focused()


def test_the_review_shows_each_steps_dice_as_the_tables_faces(
    new_page,
    site: Server,
    reviewed_game: Game,  # noqa: F811 (the fixture imported)
) -> None:
    page: Page = new_page(375, 740)
    page.goto(f"{site.url}/g/{reviewed_game.code}/review/?step=1")  # the first roll

    dice = page.locator("#stepper").get_by_role("img", name=re.compile(r"^Die showing [1-6]$"))
    expect(dice).to_have_count(5)
    for die in dice.all():
        face = int(die.get_attribute("aria-label").removeprefix("Die showing "))
        expect(die.locator("circle")).to_have_count(face)  # its pips
        box = die.bounding_box()
        assert box["width"] >= 40 and box["height"] >= 40, box  # big enough to read
    expect(page.locator("#stepper .dice")).to_have_text("")  # faces, no digits


def test_the_costliest_decisions_lead_to_their_steps(
    new_page,
    site: Server,
    reviewed_game: Game,  # noqa: F811 (the fixture imported)
) -> None:
    costliest = analysis.analyse(reviewed_game).costliest()
    page: Page = new_page(375, 740)
    page.goto(f"{site.url}/g/{reviewed_game.code}/review/?step=0")
    listed = page.get_by_role("region", name="The costliest decisions").get_by_role("listitem")
    expect(listed).to_have_count(3)
    expect(listed.first).to_contain_text(f"Cost: {costliest[0].loss:.1f} points.")
    screenshot(page, "review-costliest-375")

    listed.nth(1).get_by_role("link").click()
    expect(page.locator("#stepper [role=status]")).to_contain_text(f"Step {costliest[1].step} of")
    page.wait_for_function(  # brought into view, far below on a phone
        "() => Math.abs(document.getElementById('stepper').getBoundingClientRect().top) < 200"
    )
    expect(page.locator("#stepper .verdict.loss")).to_be_visible()
    screenshot(page, "review-costly-step-375")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{site.url}/g/{reviewed_game.code}/review/?step={costliest[0].step}")
    expect(page.locator("#stepper .verdict.loss")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    screenshot(page, "review-costly-step-1280")


def test_the_mistakes_are_reached_without_javascript(
    browser,
    site: Server,
    reviewed_game: Game,  # noqa: F811 (the fixture imported)
) -> None:
    mistakes = analysis.analyse(reviewed_game).mistakes
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"{site.url}/g/{reviewed_game.code}/review/?step=0")
        page.get_by_role("link", name="Next mistake").click()
        expect(page).to_have_url(re.compile(rf"\?step={mistakes[0]}$"))
        expect(page.locator("#stepper [role=status]")).to_contain_text(f"Step {mistakes[0]} of")
    finally:
        context.close()


def test_five_players_review_on_a_phone_has_column_heads_told_apart(
    new_page, site: Server, transactional_db: None, dice: object
) -> None:
    """Issue 46: the table's short heads, on the review's scorecard too."""

    def play() -> Game:
        alice = Client()
        try:
            players = "Computer 1\nComputer 2\nComputer 3\nComputer 4"
            game = create_game(alice, name="Dave", players=players, upper_only="on")
            return play_to_the_end(alice, game)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:  # the moves' broadcasts away from Playwright's loop
        game = pool.submit(play).result()
    page: Page = new_page(375, 740)
    page.goto(f"{site.url}/g/{game.code}/review/?step=1")

    shorts = page.locator("#stepper .scorecard thead .player-short")
    expect(shorts).to_have_text(["Dav", "Com1", "Com2", "Com3", "Com4"])
    for short in shorts.all():  # each whole, none cut short
        expect(short).to_be_visible()
        assert short.evaluate("e => e.scrollWidth <= e.clientWidth"), short.text_content()
    expect(page.locator("#stepper").get_by_role("columnheader", name="Computer 3")).to_have_count(1)
