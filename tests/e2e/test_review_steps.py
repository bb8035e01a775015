"""The review's turn-by-turn list and its stepper: the step chosen in the list is shown
where the reader is looking, and the list marks it (QA finding: on a phone the stepper
was thousands of pixels above the list, and nothing seemed to happen)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from games.models import Game
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
