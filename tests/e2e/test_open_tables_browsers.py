"""Open tables in three browsers: a host opens a room to anyone, a page already on
/tables/ sees it come (and go and come again as the host closes and opens it from her
lobby), a stranger joins it there in one click (on a phone), and the
room leaves every list as it fills; the host starts, and both are at the table."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import more_options, screenshot
from tests.e2e.test_accessibility_audit import blocking_violations
from tests.servers import Server


@pytest.mark.slow
def test_a_stranger_joins_an_open_room_from_the_list_which_follows_it_live(
    new_page, site: Server
) -> None:
    cy: Page = new_page()
    cy.goto(site.url + "/tables/")
    listed = cy.locator("#open-tables")
    expect(listed).to_contain_text("No open table just now")

    ann: Page = new_page()
    ann.goto(site.url + "/")
    ann.get_by_label("Your name").fill("Ann")
    more_options(ann)
    ann.get_by_label("Open to anyone").check()
    ann.get_by_role("button", name="Play with friends").click()
    expect(ann.get_by_text("Listed on the Open tables page")).to_be_visible()
    screenshot(ann, "open-room-lobby")

    # Cy's list has it now, without a reload
    expect(listed).to_contain_text("Host: Ann")
    expect(listed).to_contain_text("1 of 2 seats free")
    screenshot(cy, "open-tables-desktop")
    found = blocking_violations(cy)  # axe-core's audit of the page with a room listed
    assert not found, "\n".join(found)

    # the host closes the room to strangers from her lobby, and opens it again: Cy's
    # list follows each, and so does her lobby's button
    ann.get_by_role("button", name="Close to strangers").click()
    expect(ann.get_by_text("Only friends with the invite link can take a seat.")).to_be_visible()
    expect(listed).to_contain_text("No open table just now")
    ann.get_by_role("button", name="Open to anyone").click()
    expect(ann.get_by_text("Listed on the Open tables page")).to_be_visible()
    expect(listed).to_contain_text("Host: Ann")

    ben: Page = new_page(375, 667)
    ben.goto(site.url + "/tables/")
    ben.get_by_label("Your name").fill("Ben")
    screenshot(ben, "open-tables-phone")
    assert ben.evaluate("document.documentElement.scrollWidth") <= 375
    # (the name in the button's label is isolated from the words around it: games.bidi)
    join = re.compile("Join .?Ann.?'s game of Scandinavian Yatzy")
    ben.get_by_role("button", name=join).click()
    expect(ben.get_by_role("button", name="Leave this table")).to_be_visible()
    expect(ben.get_by_text("This room is open to anyone")).to_be_visible()

    # full: gone from Cy's list, and Ann's lobby shows Ben
    expect(listed).to_contain_text("No open table just now")
    expect(ann.locator("#lobby")).to_contain_text("Ben")
    ann.get_by_role("button", name="Start game").click()
    expect(ann.get_by_role("status").first).to_contain_text("Your turn, Ann.")
    expect(ben.get_by_role("status").first).to_contain_text("Ann's turn.")
