"""Choosing the page's language: the menu goes there as a language is chosen (its
Change button is for pages without JavaScript, where it still works), a closed menu
stepped through by keys waits for Enter, and ``?lang=`` switches and is remembered."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import TIMEOUT_MS
from tests.servers import Server


def in_language(page: Page, language: str) -> None:
    expect(page.locator(f'html[lang="{language}"]')).to_be_attached()


def test_the_menu_goes_to_the_language_chosen(new_page, site: Server) -> None:
    page: Page = new_page()
    page.goto(site.url + "/history/")
    in_language(page, "en")
    expect(page.get_by_role("button", name="Change")).to_be_hidden()
    page.get_by_label("Language").select_option("fi")
    in_language(page, "fi")
    expect(page).to_have_url(site.url + "/history/")  # the same page
    expect(page.get_by_role("heading", name="Historia")).to_be_visible()
    page.goto(site.url + "/")
    in_language(page, "fi")  # remembered


def test_a_menu_stepped_through_by_keys_goes_on_enter(new_page, site: Server) -> None:
    page: Page = new_page()
    page.goto(site.url + "/")
    menu = page.get_by_label("Language")
    page.evaluate("window.stayed = true")  # gone with the page, were it left
    menu.focus()
    options = menu.locator("option").evaluate_all("options => options.map(o => o.value)")
    page.keyboard.press("ArrowDown")  # a step: the page stays while the reader looks on
    expect(menu).to_have_value(options[1])
    page.keyboard.press("ArrowDown")
    expect(menu).to_have_value(options[2])
    assert page.evaluate("window.stayed") is True
    in_language(page, "en")
    page.keyboard.press("Enter")
    in_language(page, options[2])


@pytest.fixture
def page_without_javascript(
    browser: object, site: Server, transactional_db: None
) -> Iterator[Page]:
    context = browser.new_context(java_script_enabled=False)  # type: ignore[attr-defined]
    context.set_default_timeout(TIMEOUT_MS)
    yield context.new_page()
    context.close()


def test_the_menu_works_without_javascript(page_without_javascript: Page, site: Server) -> None:
    page = page_without_javascript
    page.goto(site.url + "/history/")
    page.get_by_label("Language").select_option("sv")
    in_language(page, "en")  # nothing happens until Change
    page.get_by_role("button", name="Change").click()
    in_language(page, "sv")
    expect(page).to_have_url(site.url + "/history/")


def test_lang_in_the_address_switches_and_is_remembered(new_page, site: Server) -> None:
    page: Page = new_page()
    page.set_extra_http_headers({"Accept-Language": "de"})
    page.goto(site.url + "/?lang=fi")
    in_language(page, "fi")
    expect(page.get_by_label("Kieli")).to_have_value("fi")
    page.goto(site.url + "/history/")
    in_language(page, "fi")
