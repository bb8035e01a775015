"""Quick play in two browsers: the first waits on a live page that counts who waits,
the second's press seats both at one table, each with their own seat; a waiter may
take the computer instead, or leave."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from playwright.sync_api import Page, expect

from tests.e2e.conftest import play_turns_over_http, screenshot
from tests.e2e.test_accessibility_audit import blocking_violations
from tests.servers import Server


def press(page: Page, site: Server, name: str, rules: str = "Scandinavian Yatzy") -> None:
    page.goto(site.url + "/")
    page.get_by_label("Your name").fill(name)
    page.get_by_label("Rules").select_option(label=rules)
    page.get_by_role("button", name="Play someone now").click()


def seated_strangers(new_page, site: Server) -> tuple[Page, Page]:
    """Ann waits, Ben presses: both at one table, at Ann's turn."""
    ann: Page = new_page()
    press(ann, site, "Ann")
    expect(ann.get_by_role("heading", name="Looking for a player")).to_be_visible()
    ben: Page = new_page()
    press(ben, site, "Ben")
    expect(ann.get_by_role("status").first).to_contain_text("Your turn, Ann.")
    return ann, ben


@pytest.mark.slow
def test_two_strangers_who_press_play_someone_now_sit_at_one_table(new_page, site: Server) -> None:
    ann: Page = new_page()
    press(ann, site, "Ann", "American Yahtzee")
    expect(ann.get_by_role("heading", name="Looking for a player")).to_be_visible()
    expect(ann.get_by_role("status").first).to_contain_text(
        "Waiting for someone to play American Yahtzee with you, Ann."
    )
    counts = ann.locator("#quick-counts li")
    expect(counts.filter(has_text="American Yahtzee")).to_contain_text("1 player")
    expect(ann.get_by_role("button", name="Play the computer instead")).to_be_visible()

    # a third browser waits for other rules: Ann's page counts it, live
    cy: Page = new_page(375, 667)
    press(cy, site, "Cy", "Maxi Yatzy")
    expect(counts.filter(has_text="Maxi Yatzy")).to_contain_text("1 player")
    expect(ann.get_by_role("button", name="Play Maxi Yatzy with them")).to_be_visible()
    screenshot(ann, "quick-waiting-desktop")
    screenshot(cy, "quick-waiting-phone")
    assert cy.evaluate("document.documentElement.scrollWidth") <= 375

    ben: Page = new_page()
    press(ben, site, "Ben", "American Yahtzee")
    # both at the one table: Ann waited longer and plays first; Ben waits his turn
    expect(ben.get_by_role("status").first).to_contain_text("Ann's turn.")
    expect(ann.get_by_role("status").first).to_contain_text("Your turn, Ann.")
    assert ann.url == ben.url and "/g/" in ann.url
    expect(ann.get_by_role("button", name="Roll")).to_be_enabled()
    expect(ben.get_by_role("button", name="Roll")).to_be_hidden()

    # Cy's page counts Maxi Yatzy only now: Ann has a table
    expect(cy.locator("#quick-counts li").filter(has_text="American Yahtzee")).to_contain_text(
        "0 players"
    )
    cy.get_by_role("button", name="Play the computer instead").first.click()
    expect(cy.get_by_role("status").first).to_contain_text("Your turn, Cy.")


def test_a_waiter_who_leaves_the_page_is_not_paired(new_page, site: Server) -> None:
    ann: Page = new_page()
    press(ann, site, "Ann")
    expect(ann.get_by_role("heading", name="Looking for a player")).to_be_visible()
    ann.get_by_role("button", name="Stop waiting").click()
    expect(ann.get_by_role("button", name="Play someone now")).to_be_visible()

    ben: Page = new_page()
    press(ben, site, "Ben")
    expect(ben.get_by_role("heading", name="Looking for a player")).to_be_visible()
    ben_counts = ben.locator("#quick-counts li").filter(has_text="Scandinavian Yatzy")
    expect(ben_counts).to_contain_text("1 player")  # Ben alone: Ann left
    ben.close()  # Ben closes the page: he waits no more

    cy: Page = new_page()
    press(cy, site, "Cy")
    expect(cy.locator("#quick-counts li").filter(has_text="Scandinavian Yatzy")).to_contain_text(
        "1 player"
    )
    expect(cy.get_by_role("heading", name="Looking for a player")).to_be_visible()


def test_a_player_mutes_a_strangers_reactions(new_page, site: Server) -> None:
    ann, ben = seated_strangers(new_page, site)

    mute = ann.get_by_role("button", name="Mute Ben's reactions")
    mute.click()
    expect(mute).to_have_attribute("aria-pressed", "true")
    reactions = ann.locator("#reactions")
    ben.get_by_role("button", name="Nice throw!").click()
    expect(ben.locator("#reactions")).to_contain_text("Ben: Nice throw!")
    # Ann's own reaction comes after Ben's on her socket: once it shows, Ben's was
    # handled, and not shown
    ann.get_by_role("button", name="Wow!").click()
    expect(reactions).to_contain_text("Ann: Wow!")
    expect(reactions).not_to_contain_text("Ben:")

    ann.reload()  # remembered by the browser, for this table
    expect(ann.get_by_role("button", name="Mute Ben's reactions")).to_have_attribute(
        "aria-pressed", "true"
    )
    ann.get_by_role("button", name="Mute Ben's reactions").click()  # unmuted
    expect(ann.get_by_role("button", name="Mute Ben's reactions")).to_have_attribute(
        "aria-pressed", "false"
    )
    ben.get_by_role("button", name="Nice throw!").click()
    expect(reactions).to_contain_text("Ben: Nice throw!")


@pytest.mark.parametrize("language", ["en", "fi"])
def test_the_waiting_page_has_no_serious_accessibility_violation(
    new_page, site: Server, language: str
) -> None:
    """As tests/e2e/test_accessibility_audit.py audits the other pages: axe-core, at a
    phone's and a desktop's width, the waiting page with someone waiting for other rules."""
    cy: Page = new_page()
    press(cy, site, "Cy", "Maxi Yatzy")
    ann: Page = new_page()
    ann.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": site.url}]
    )
    ann.goto(site.url + "/")
    ann.locator("#id_name").fill("Ann")
    ann.locator("button[formaction='/quick/play/']").click()
    expect(ann.locator("#quick-counts li.mine")).to_be_visible()
    expect(ann.locator("#quick-counts button")).to_have_count(1)  # with Cy, at Maxi
    found = []
    for width in (375, 1280):
        ann.set_viewport_size({"width": width, "height": 800})
        found += [f"{width} px: {v}" for v in blocking_violations(ann)]
    assert not found, "\n".join(found)


def test_a_watcher_sees_a_quick_game_listed_live_and_watches_it(new_page, site: Server) -> None:
    watcher: Page = new_page()
    watcher.goto(site.url + "/watch/")
    expect(watcher.get_by_text("No game to watch just now")).to_be_visible()

    ann, ben = seated_strangers(new_page, site)

    game = watcher.locator(".watch-list li")
    expect(game).to_contain_text("Scandinavian Yatzy")  # listed as it started, unasked
    expect(game).to_contain_text("Round 1 of 15")
    # a round played (its moves sent as the buttons send them: the clicking of whole
    # games is tested in test_hot_seat.py and test_remote.py)
    code = ann.url.rstrip("/").split("/")[-1]
    play_turns_over_http(site, {0: ann, 1: ben}, code, 2)
    expect(game).to_contain_text("Round 2 of 15")  # live, as they play
    watcher.get_by_role("link", name=re.compile("^Watch Scandinavian Yatzy")).click()
    expect(watcher.get_by_role("status").first).to_contain_text("Ann's turn.")
    expect(watcher.get_by_role("button", name="Roll")).to_be_hidden()  # watching only
