"""The table's screenshots: a hot-seat game of Alice and Bob at Alice's second turn, a
die held, at 375x667 (a phone), 1280x800 (a laptop) and 1920x1080, in English and
Finnish, as the window shows it (not the whole page), saved to var/screenshots/ with
YATZY_SCREENSHOTS=1 (tests/e2e/conftest.py); with YATZY_DOCS_SCREENSHOTS=1 to
docs/screenshots/, the README's:

    YATZY_DOCS_SCREENSHOTS=1 .venv/bin/python -m pytest tests/e2e/test_table_screenshots.py

They are to be looked at: a layout bug hides from assertions."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import SHOTS, TAKE_SCREENSHOTS
from tests.servers import Server

SIZES = ((375, 667), (1280, 800), (1920, 1080))
DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def score_in_any_language(page: Page) -> None:
    """Score the first option offered, confirming a zero, in whatever language."""
    expect(page.locator(".htmx-request")).to_have_count(0)
    version = page.locator("#table").get_attribute("data-version")
    scored = page.locator(f"#table:not([data-version='{version}'])")
    page.locator(".score-option").first.click()
    confirm = page.locator("form.confirm button.danger")
    expect(confirm.or_(scored)).to_be_attached()
    if confirm.count():
        confirm.click()
    expect(scored).to_be_attached()


@pytest.mark.parametrize("language", ["en", "fi"])
def test_the_table_in_a_window_of_each_size(new_page, site: Server, language: str) -> None:
    page: Page = new_page(1280, 800)
    page.set_extra_http_headers({"Accept-Language": language})
    page.goto(site.url + "/")
    page.locator("#id_name").fill("Alice")
    page.locator("#id_players").fill("Bob")
    page.locator("button[name=way][value=together]").click()  # Pass and play
    for _turn in range(2):  # Alice's and Bob's first turns
        page.locator("#roll-button").click()
        score_in_any_language(page)
    page.locator("#roll-button").click()
    expect(page.locator(".score-option").first).to_be_visible()
    page.locator("#die-0").click()
    expect(page.locator("#die-0")).to_have_attribute("aria-pressed", "true")

    places = ([SHOTS] if TAKE_SCREENSHOTS else []) + (
        [DOCS] if os.environ.get("YATZY_DOCS_SCREENSHOTS") else []
    )
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("window.scrollTo(0, 0)")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        for place in places:
            place.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(place / f"table-{width}x{height}-{language}.png"))
