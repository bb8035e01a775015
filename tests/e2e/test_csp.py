"""The Content-Security-Policy in a real browser: with nothing inline allowed, the table
still works (htmx's moves, the WebSocket's pushes), and the browser reports no
violation of the policy on any page a player goes through."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.e2e.conftest import more_options
from tests.servers import Server

DIE = re.compile(r"^Die \d: \d$")
# Playwright's init scripts run whatever the page's policy says: this one only listens
LISTEN = """window.violations = [];
document.addEventListener("securitypolicyviolation", event => window.violations.push(
    `${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`));"""


def watched(page: Page) -> list[str]:
    """The CSP violations the console reports on ``page`` from now on."""
    errors: list[str] = []
    page.add_init_script(LISTEN)
    page.on(
        "console",
        lambda message: (
            errors.append(message.text)
            if "Content Security Policy" in message.text
            or "Content-Security-Policy" in message.text
            else None
        ),
    )
    return errors


def violations(page: Page) -> list[str]:
    return page.evaluate("window.violations")


def test_the_table_plays_and_pushes_under_the_policy(new_page, site: Server) -> None:
    alice: Page = new_page()
    alice_errors = watched(alice)
    with alice.expect_response(lambda r: r.url.rstrip("/") == site.url) as home:
        alice.goto(site.url + "/")
    policy = home.value.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    alice.get_by_label("Your name").fill("Alice")
    alice.get_by_label("More players at this screen").fill("Bob")
    more_options(alice)
    alice.get_by_role("button", name="Create game").click()
    expect(alice.get_by_role("status")).to_contain_text("Your turn, Alice.")

    watcher: Page = new_page()
    watcher_errors = watched(watcher)
    watcher.goto(alice.url)
    expect(watcher.get_by_role("status")).to_contain_text("Alice's turn.")

    before = alice.locator("#table").get_attribute("data-version")
    alice.get_by_role("button", name="Roll").click()  # htmx's POST, swapped in
    expect(alice.locator("#table")).not_to_have_attribute("data-version", before)
    rolled = alice.locator("#table").get_attribute("data-version")
    # the spectator's table comes over its socket
    expect(watcher.locator("#table")).to_have_attribute("data-version", rolled)
    expect(watcher.get_by_role("button", name=DIE).first).to_be_visible()

    alice.goto(site.url + "/history/")
    expect(alice.get_by_role("heading", level=1)).to_be_visible()

    assert alice_errors == watcher_errors == []
    assert violations(alice) == violations(watcher) == []
