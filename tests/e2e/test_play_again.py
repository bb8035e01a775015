"""The end of a game on every page at the table (the result panel), and Play again:
every page goes on to the next game's table, which says who asked for it and is
begun by the next seat along."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, Request, expect

from games.models import Game
from tests.e2e.conftest import more_options, play_turns_over_http, score_first_option, screenshot
from tests.servers import Server

FIRST_TURN = re.compile(r"Your turn, Bob\.|Bob's turn\.")  # Alice began the last game


def requests_of(page: Page) -> list[str]:
    """The addresses ``page`` loads as a page from now on, in order (not the table's
    own htmx requests, such as the resync a page makes when it is shown again)."""
    asked: list[str] = []

    def note(request: Request) -> None:
        if request.is_navigation_request():
            asked.append(request.url)

    page.on("request", note)
    return asked


@pytest.mark.slow
def test_every_page_loads_the_next_table_once(new_page, site: Server) -> None:
    """The presser's page followed both the answer's redirect and the pushed table's,
    the others the pushed table's once per element it brought: each page loaded the
    next table twice, the first load cut short.

    (The game's first 11 turns are sent without clicks, ``play_turns_over_http``: the
    three pages hear them as pushes all the same; the last is clicked.)"""
    alice: Page = new_page()
    alice.goto(site.url + "/")
    alice.get_by_label("Your name").fill("Alice")
    more_options(alice)
    alice.get_by_label("Friends to invite").fill("1")
    alice.get_by_label("Upper section only").check()
    alice.get_by_role("button", name="Create game").click()
    bob: Page = new_page()
    bob.goto(alice.get_by_label("Invite link").input_value())
    bob.get_by_label("Your name").fill("Bob")
    bob.get_by_role("button", name="Join").click()
    expect(alice.get_by_text("Bob", exact=True)).to_be_visible()
    alice.get_by_role("button", name="Start game").click()
    expect(bob.get_by_role("status").first).to_contain_text("Alice's turn.")
    watcher: Page = new_page()
    watcher.goto(alice.url)

    # the first 11 turns as the tables' buttons send them, unclicked; the last clicked
    code = re.search(r"/g/([^/]+)/", alice.url).group(1)
    version = play_turns_over_http(site, {0: alice, 1: bob}, code, 11)
    expect(bob.locator(f"#table[data-version='{version}']")).to_be_attached()
    expect(bob.get_by_role("status").first).to_contain_text("Your turn, Bob.")
    bob.get_by_role("button", name="Roll").click()
    score_first_option(bob)
    pages = {"Alice": alice, "Bob": bob, "the spectator": watcher}
    for who, page in pages.items():
        expect(page.get_by_role("status").first).to_contain_text("Game over")
        panel = page.get_by_role("region", name="Final ranking")
        expect(panel).to_be_visible()
        expect(panel.get_by_role("listitem")).to_have_count(2)
        # the first place is a winner's, whoever won (both, on a tie)
        expect(panel.get_by_role("listitem").first).to_contain_text("Winner")
        expect(panel.get_by_role("link", name="Review the game")).to_be_visible()
        again = panel.get_by_role("button", name="Play again")
        expect(again).to_have_count(0 if who == "the spectator" else 1)
        expect(
            page.locator(".sound-toggle[data-sound=turn]")
        ).to_be_hidden()  # the chime goes with the game
        # the panel comes before the scorecard, its buttons in view without scrolling
        box = panel.get_by_role("link", name="Review the game").bounding_box()
        assert box is not None and box["y"] + box["height"] <= page.viewport_size["height"]
    screenshot(alice, "end-panel-1280")
    asked = {who: requests_of(page) for who, page in pages.items()}

    finished = alice.url
    alice.get_by_role("button", name="Play again").click()

    expect(alice).not_to_have_url(finished)
    following = Game.objects.get(next_game__isnull=False).next_game
    table_url = f"{site.url}/g/{following.code}/"
    for page in pages.values():
        expect(page).to_have_url(table_url)
        expect(page.get_by_role("status").first).to_contain_text(FIRST_TURN)
        expect(page.get_by_text("Alice started this rematch.")).to_be_visible()
    loads = {who: [url for url in urls if url == table_url] for who, urls in asked.items()}
    assert loads == {who: [table_url] for who in pages}
