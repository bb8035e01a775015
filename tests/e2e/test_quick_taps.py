"""Taps quicker than the server's answer: two dice, or a die and then Roll, tapped
before the first tap's table is back. Each tap counts, in order; a double click on
one button is one tap. (The second tap was lost: htmx queued it on the table its
answer replaced, or sent it with that table's version, refused as out of date.)

Each test holds the first answer back until the taps after it are made, as a slow
network would."""

from __future__ import annotations

import re
import time

from playwright.sync_api import Page, Route, expect

from tests.e2e.test_keys import roll_shown
from tests.e2e.test_layout import sit_at_a_table
from tests.servers import Server


class FirstMoveHeld:
    """Holds the page's first POST of a move back until ``release``; lets the rest
    through, and counts them all by their path's last part ("hold", "roll")."""

    def __init__(self, page: Page) -> None:
        self.held: list[Route] = []
        self.moves: list[str] = []
        page.route(re.compile(r"/g/[^/]+/(hold|roll|score)/$"), self.route)

    def route(self, route: Route) -> None:
        self.moves.append(route.request.url.rstrip("/").rsplit("/", 1)[-1])
        if len(self.moves) == 1:
            self.held.append(route)
        else:
            route.continue_()

    def wait_held(self, page: Page) -> None:
        deadline = time.monotonic() + 30
        while not self.held and time.monotonic() < deadline:
            page.wait_for_timeout(20)  # for the request to reach the test
        assert self.held, "the first move was never sent"

    def release(self) -> None:
        self.held.pop().continue_()


def held_dice(page: Page) -> list[str]:
    return page.locator("#table .die.held").evaluate_all("dice => dice.map(die => die.id)")


def tapped_quickly(page: Page, site: Server, first: str, second: str) -> FirstMoveHeld:
    """At a table where Alice has rolled once: ``first`` tapped, then ``second`` while
    the first's answer is held back, which then comes."""
    sit_at_a_table(page, site, 2)
    moves = FirstMoveHeld(page)
    page.locator(first).click()
    moves.wait_held(page)
    page.locator(second).click()
    moves.release()
    return moves


def test_two_dice_tapped_quickly_are_both_held(new_page, site: Server) -> None:
    page: Page = new_page()
    moves = tapped_quickly(page, site, "#die-1", "#die-3")

    expect(page.locator("#die-3")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#die-1")).to_have_attribute("aria-pressed", "true")
    assert held_dice(page) == ["die-1", "die-3"]
    assert moves.moves == ["hold", "hold"]
    expect(page.locator("#notice")).to_have_count(0)


def test_a_die_double_clicked_is_held_once(new_page, site: Server) -> None:
    page: Page = new_page()
    moves = tapped_quickly(page, site, "#die-1", "#die-1")
    expect(page.locator("#die-1")).to_have_attribute("aria-pressed", "true")

    page.locator("#die-3").click()  # a move after: a second tap held back would come first
    expect(page.locator("#die-3")).to_have_attribute("aria-pressed", "true")

    assert held_dice(page) == ["die-1", "die-3"]
    assert moves.moves == ["hold", "hold"]


def test_a_die_and_then_roll_tapped_quickly_hold_and_roll(new_page, site: Server) -> None:
    page: Page = new_page()
    moves = tapped_quickly(page, site, "#die-1", "#roll-button")

    roll_shown(page, 2)
    assert held_dice(page) == ["die-1"]  # held as it rolled
    assert moves.moves == ["hold", "roll"]
    expect(page.locator("#notice")).to_have_count(0)  # not refused as out of date
