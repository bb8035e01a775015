"""The site on a phone's home screen: its manifest, its service worker, and the offline
page that worker shows in place of any page, a table's included, while the network is
gone. Screenshots of the offline page (YATZY_SCREENSHOTS=1): var/screenshots/offline-*.png."""

from __future__ import annotations

import re

import pytest
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import Page, expect

from tests.e2e.conftest import more_options, screenshot
from tests.e2e.test_languages import MISFITS
from tests.servers import Server

OFFLINE = "You are offline; your game continues when you are back."

MANIFEST = """async () => {
    const response = await fetch(document.querySelector("link[rel=manifest]").href);
    return {type: response.headers.get("Content-Type"), manifest: await response.json()};
}"""


def wait_for_worker(page: Page) -> None:
    """Until the page is in the hands of the site's service worker, active.
    (``navigator.serviceWorker.ready`` resolves while the worker may still be activating,
    and never where none is registered: this wait is bounded, an evaluated promise not.)"""
    page.wait_for_function(
        """() => {
            const worker = navigator.serviceWorker.controller;
            return worker?.state === "activated" && worker.scriptURL.endsWith("/sw.js");
        }"""
    )


# The script of the worker the page's registration has active, and of a second one
# installing or waiting to take over, if any
WORKERS = """async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    return {active: registration.active?.scriptURL,
            next: (registration.installing || registration.waiting)?.scriptURL ?? null};
}"""


def header_colour(page: Page) -> str:
    return page.evaluate("getComputedStyle(document.querySelector('.site-header')).backgroundColor")


def test_the_offline_page_stands_in_for_any_page_and_never_a_kept_table(
    new_page, site: Server
) -> None:
    page: Page = new_page(375, 740, service_worker=True)
    page.goto(site.url + "/")
    linked = page.evaluate(MANIFEST)
    assert linked["type"] == "application/manifest+json"
    assert linked["manifest"]["name"] == "Yatzy with friends"
    assert linked["manifest"]["start_url"] == "/"
    wait_for_worker(page)
    # what Chromium makes of it: nothing in the manifest it refused, and nothing missing
    # for an install but a profile of one's own (Playwright's are like incognito windows)
    chromium = page.context.new_cdp_session(page)
    assert chromium.send("Page.getAppManifest")["errors"] == []
    refusals = chromium.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert [refusal["errorId"] for refusal in refusals] in ([], ["in-incognito"])

    # a table, loaded while the worker runs: a worker that kept pages would keep this one
    page.get_by_label("Your name").fill("Alice")
    page.get_by_label("More players at this screen").fill("Bob")
    more_options(page)
    page.get_by_role("button", name="Create game").click()
    expect(page.get_by_role("status")).to_contain_text("Your turn, Alice.")
    table = page.url
    assert re.search(r"/g/[^/]+/$", table)

    page.context.set_offline(True)
    page.goto(site.url + "/")
    expect(page.get_by_role("heading", name="No connection")).to_be_visible()
    expect(page.get_by_text(OFFLINE)).to_be_visible()
    assert header_colour(page) == "rgb(31, 111, 80)"  # the site's CSS, kept with the page
    screenshot(page, "offline-en-375")

    page.goto(table)
    expect(page.get_by_text(OFFLINE)).to_be_visible()
    expect(page.get_by_role("button", name="Roll")).to_have_count(0)
    assert page.url == table

    page.context.set_offline(False)
    page.get_by_role("link", name="Try again").click()
    expect(page.get_by_role("status")).to_contain_text("Your turn, Alice.")
    assert page.url == table
    # a move, a POST sent by htmx, goes past the worker to the table
    page.get_by_role("button", name="Roll").click()
    expect(page.get_by_role("button", name="Roll")).to_contain_text("2 rolls left")


@pytest.mark.slow
def test_the_offline_page_speaks_the_language_the_player_last_chose(new_page, site: Server) -> None:
    """One worker for every language: a change of language brings no new one (whose
    taking over, while the next page loaded, left that load hanging now and then)."""
    page: Page = new_page(375, 740, service_worker=True)
    for language in ["fi", "sv", "de", "it"]:
        with translation.override(language):
            name, offline = gettext("Yatzy with friends"), gettext(OFFLINE)
        assert offline != OFFLINE
        page.context.set_offline(False)
        page.goto(f"{site.url}/?lang={language}")
        assert page.evaluate(MANIFEST)["manifest"]["name"] == name
        wait_for_worker(page)
        workers = page.evaluate(WORKERS)
        assert workers["active"].endswith("/sw.js") and workers["next"] is None, workers

        page.context.set_offline(True)
        page.goto(site.url + "/history/")
        expect(page.get_by_text(offline)).to_be_visible()
        expect(page.locator("html")).to_have_attribute("lang", language)
        screenshot(page, f"offline-{language}-375")
        assert page.evaluate(MISFITS, 375) == []
