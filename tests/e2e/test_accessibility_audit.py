"""An accessibility audit as a checker sees it: axe-core (bundled by
axe-playwright-python) run in Chromium over every kind of page, in English and
Finnish, at a phone's and a desktop's width. No violation of impact "serious" or
"critical" may be found.

Each page is loaded once a language, at the phone's width, and audited there; then the
window is widened to the desktop's and the page audited again (as in
test_languages.py)."""

from __future__ import annotations

import itertools
from concurrent.futures import ThreadPoolExecutor

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from django.db import connections
from django.test import Client
from playwright.sync_api import Page, expect

from tests.conftest import create_game, play_to_the_end, version
from tests.e2e.conftest import screenshot
from tests.e2e.test_languages import next_frame
from tests.servers import Server

LANGUAGES = ["en", "fi"]
WIDTHS = [375, 1280]
BLOCKING = {"serious", "critical"}
HTMX = {"HTTP_HX_REQUEST": "true"}

AXE = Axe()


class Pages:
    """Alice's and Bob's sessions and the pages each of them is audited on."""

    def __init__(self, sessions: dict[str, str], paths: dict[str, dict[str, str]]) -> None:
        self.sessions = sessions
        self.paths = paths


@pytest.fixture
def pages(transactional_db: None, dice: object) -> Pages:
    """A room waiting for a friend; a table of Alice and Bob at Alice's turn, after a
    roll, with a die held (Alice's turn as she sees it, another's as Bob does); a
    finished game (its table with the result panel), the history and the review.

    Made in a thread of its own: the moves' broadcasts must not meet the event loop
    Playwright runs in the test's thread."""

    def make() -> Pages:
        alice, bob = Client(), Client()
        try:
            room = create_game(alice, invites="1")
            table = create_game(alice, invites="1")
            bob.post(f"/g/{table.code}/join/", {"name": "Bob"})
            alice.post(f"/g/{table.code}/start/", {"version": version(table)})
            alice.post(f"/g/{table.code}/roll/", {"version": version(table)}, **HTMX)
            alice.post(f"/g/{table.code}/hold/", {"version": version(table), "die": "1"}, **HTMX)
            done = play_to_the_end(alice, create_game(alice, players="Bob", upper_only="on"))
            password = "dice-tumble-42"
            data = {"username": "alice", "password1": password, "password2": password}
            alice.post("/accounts/signup/", data)  # her games are her account's
            paths = {
                "alice": {
                    "home": "/",
                    "how-to-play": "/how-to-play/",
                    "lobby": f"/g/{room.code}/lobby/",
                    "my-turn": f"/g/{table.code}/",
                    "end": f"/g/{done.code}/",
                    "history": "/history/",
                    "review": f"/g/{done.code}/review/",
                    "profile": "/players/alice/",
                    "delete-account": "/accounts/delete/",
                },
                "bob": {"their-turn": f"/g/{table.code}/", "sign-up": "/accounts/signup/"},
            }
            sessions = {
                "alice": alice.cookies["sessionid"].value,
                "bob": bob.cookies["sessionid"].value,
            }
            return Pages(sessions, paths)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(make).result()


def blocking_violations(page: Page) -> list[str]:
    """What axe-core finds of impact serious or critical on ``page``, one line each."""
    results = AXE.run(page)
    return [
        f"{violation['id']} ({violation['impact']}): "
        + ", ".join(" ".join(node["target"]) for node in violation["nodes"])
        for violation in results.response["violations"]
        if violation["impact"] in BLOCKING
    ]


@pytest.mark.slow
def test_no_page_has_a_serious_accessibility_violation(
    new_page, site: Server, pages: Pages
) -> None:
    """(One test for both languages, which were a test each: the pages are made once.)"""
    found = []
    for whose in ("alice", "bob"):
        page: Page = new_page(WIDTHS[0], 800)
        session = {"name": "sessionid", "value": pages.sessions[whose], "url": site.url}
        page.context.add_cookies([session])
        for language, (name, path) in itertools.product(LANGUAGES, pages.paths[whose].items()):
            cookie = {"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": site.url}
            page.context.add_cookies([cookie])
            page.set_viewport_size({"width": WIDTHS[0], "height": 800})
            page.goto(site.url + path)
            expect(page.locator(f'html[lang="{language}"]')).to_be_attached()
            if name.endswith("turn"):
                expect(page.locator(".die.held")).to_have_count(1)
            if name == "end":
                expect(page.locator(".result-panel")).to_be_visible()
            for width in WIDTHS:
                if width != WIDTHS[0]:
                    page.set_viewport_size({"width": width, "height": 800})
                    next_frame(page)
                screenshot(page, f"audit-{language}-{width}-{name}")
                found += [f"{language} {width} px {name}: {v}" for v in blocking_violations(page)]
    assert not found, "\n".join(found)
