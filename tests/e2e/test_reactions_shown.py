"""Quick reactions in real browsers: a player's shows for a moment on the other
players' and the spectators' pages; a spectator has no buttons to send one."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import more_options, screenshot
from tests.servers import Server


@pytest.mark.slow
def test_a_reaction_shows_for_a_moment_on_every_page(new_page, site: Server) -> None:
    alice: Page = new_page()
    alice.goto(site.url + "/")
    alice.get_by_label("Your name").fill("Alice")
    more_options(alice)
    alice.get_by_label("Friends to invite").fill("1")
    alice.get_by_role("button", name="Create game").click()
    bob: Page = new_page(375, 740)
    bob.goto(alice.get_by_label("Invite link").input_value())
    bob.get_by_label("Your name").fill("Bob")
    bob.get_by_role("button", name="Join").click()
    expect(alice.get_by_text("Bob", exact=True)).to_be_visible()
    alice.get_by_role("button", name="Start game").click()
    expect(bob.get_by_role("status").first).to_contain_text("Alice's turn.")
    watcher: Page = new_page()
    watcher.goto(alice.url)
    # its table is in (a spectator reads what Alice is doing where a player's Roll is)
    expect(watcher.locator(".dice-area .turn-line")).to_be_visible()
    expect(watcher.get_by_role("form", name="Quick reactions")).to_have_count(0)

    bob.get_by_role("form", name="Quick reactions").get_by_role(
        "button", name="Nice throw!"
    ).click()

    for page in (alice, bob, watcher):
        expect(page.locator("#reactions")).to_contain_text("Bob: Nice throw!")
    screenshot(bob, "reaction-375")
    for page in (alice, bob, watcher):  # for a moment
        expect(page.locator("#reactions .reaction")).to_have_count(0, timeout=10_000)
