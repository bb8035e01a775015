"""Every page in every language at a phone's and a desktop's width: nothing wider than
the window, no button or cell whose words are cut. With YATZY_SCREENSHOTS=1 screenshots
go to var/screenshots/ (``lang-<language>-<width>-<page>.png``) to be looked at:
overlaps hide from checks.

Each page is loaded once a language, at the phone's width, and measured there; then the
window is widened to the desktop's and the page measured again, as a phone turned on
its side or a window made wider lays it out (the pages' layout is their CSS's, and the
scorecard's scroll hints follow a resize: static/js/table.js)."""

from __future__ import annotations

import itertools
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings
from django.db import connections
from django.test import Client
from playwright.sync_api import Page, expect

from tests.conftest import create_game, play_to_the_end, version
from tests.e2e.conftest import screenshot
from tests.servers import Server
from tests.web.test_daily import enter as enter_daily

LANGUAGES = [code for code, _name in settings.LANGUAGES]
WIDTHS = [375, 1280]

# What does not fit: an element out of the window at either side (but inside a box that
# scrolls sideways, as a wide scorecard does), or a control or cell whose own content
# is wider than it (its words cut or spilling over what is next to it). A text field's
# value scrolls inside it by design (the invite link), so fields are not judged.
MISFITS = """width => {
    const misfits = [];
    const classes = e => typeof e.className === "string" && e.className.trim()
        ? "." + e.className.trim().split(/\\s+/).join(".") : "";
    const name = e => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + classes(e)
        + " '" + (e.innerText || e.value || "").trim().slice(0, 40) + "'";
    const scrolls = e => {
        for (let p = e.parentElement; p; p = p.parentElement) {
            const x = getComputedStyle(p).overflowX;
            if (x === "auto" || x === "scroll") return true;
        }
        return false;
    };
    const hidden = e => {
        const s = getComputedStyle(e);
        return s.visibility === "hidden" || s.clipPath !== "none" || s.clip !== "auto";
    };
    for (const e of document.querySelectorAll("body *")) {
        const box = e.getBoundingClientRect();
        if (box.width <= 1 || box.height <= 1 || hidden(e)) continue;
        // (wholly to the left is how a label only screen readers read is put away)
        const out = (box.left < -1 && box.right > 0) || box.right > width + 1;
        if (out && !scrolls(e)) misfits.push("out: " + name(e));
        if (e.matches("button, select, th, td, h1, h2, h3, .verdict, summary")
            && e.scrollWidth > e.clientWidth + 1) misfits.push("cut: " + name(e));
    }
    if (document.documentElement.scrollWidth > width) misfits.push("page wider than the window");
    return misfits;
}"""


@pytest.fixture
def tables(transactional_db: None) -> tuple[str, dict[str, str], dict[str, str]]:
    """Alice's session and her pages: a room waiting for a friend, a coached table at
    her turn after a roll, a table where she declares her target, a Maxi Yatzy table
    of five (anyone may watch it), a finished game and its review, and a finished daily
    challenge, its review and the day's table; a room open to anyone, and quick play's
    waiting page. A stranger's: the invite, the Watch and Open tables pages.

    Made in a thread of its own: the moves' broadcasts must not meet the event loop
    Playwright runs in the test's thread."""

    def make() -> tuple[str, dict[str, str], dict[str, str]]:
        alice = Client()
        try:
            room = create_game(alice, invites="1")
            htmx = {"HTTP_HX_REQUEST": "true"}
            coached = create_game(alice, players="Bob", coach="on")
            alice.post(f"/g/{coached.code}/roll/", {"version": version(coached)}, **htmx)
            declaring = create_game(alice, players="Bob", declared_target="on")
            alice.post(f"/g/{declaring.code}/roll/", {"version": version(declaring)}, **htmx)
            five = "\n".join(["Bob", "Christina", "Dominique", "Evangeline"])
            maxi = create_game(
                alice, ruleset="maxi_yatzy", players=five, forced_order="on", watchable="on"
            )
            alice.post(f"/g/{maxi.code}/roll/", {"version": version(maxi)}, **htmx)
            done = play_to_the_end(alice, create_game(alice, players="Bob", upper_only="on"))
            daily = play_to_the_end(alice, enter_daily(alice))
            password = "dice-tumble-42"
            data = {"username": "alice", "password1": password, "password2": password}
            alice.post("/accounts/signup/", data)  # her games are her account's
            # a room open to anyone, its host's lobby page open: listed on /tables/
            opened = create_game(alice, invites="2", open_to_anyone="on", forced_order="on")
            opened.seats.filter(position=0).update(connections=1)
            alice.post("/quick/play/", {"name": "Alice", "ruleset": "maxi_yatzy"})
            pages = {
                "home": "/",
                "room": f"/g/{room.code}/lobby/",
                "table": f"/g/{coached.code}/",
                "hint": f"/g/{coached.code}/hint/",
                "target": f"/g/{declaring.code}/",
                "maxi": f"/g/{maxi.code}/",
                "finished": f"/g/{done.code}/",
                "history": "/history/",
                "review": f"/g/{done.code}/review/",
                "daily-finished": f"/g/{daily.code}/",
                "daily-review": f"/g/{daily.code}/review/",
                "daily-table": f"/daily/yatzy/{daily.daily.challenge.day.isoformat()}/",
                "unknown": "/g/NOSUCHGAME/",
                "profile": "/players/alice/",
                "rating": "/rating/",
                "delete-account": "/accounts/delete/",
                "change-password": "/accounts/password_change/",
                "quick-waiting": "/quick/",
            }
            # what a friend with the invite link sees, and a spectator of a game
            friends = {
                "invite": f"/g/{room.code}/join/",
                "watching": f"/g/{maxi.code}/",
                "sign-up": "/accounts/signup/",
                "log-in": "/accounts/login/",
                "password-reset": "/accounts/password_reset/",
                "watch": "/watch/",
                "open-tables": "/tables/",
            }
            return alice.cookies["sessionid"].value, pages, friends
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(make).result()


def next_frame(page: Page) -> None:
    """Until the page has been laid out and drawn again, and its resize handlers run."""
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => setTimeout(done)))")


@pytest.mark.slow
def test_every_page_fits_a_phone_and_a_desktop_in_each_language(
    new_page, site: Server, tables: tuple[str, dict[str, str], dict[str, str]]
) -> None:
    """(One test for the five languages, which were a test each: the pages are made
    once, not five times.)"""
    session, alices, friends = tables
    misfits = []
    for whose in ("alice", "friend"):
        page: Page = new_page(WIDTHS[0], 900)
        if whose == "alice":
            page.context.add_cookies([{"name": "sessionid", "value": session, "url": site.url}])
            # a tab of hers keeps her waiting for quick play: the page in each language
            # then says so, not that she no longer waits (her last waiting tab gone)
            waiting: Page = new_page()
            waiting.context.add_cookies(page.context.cookies())
            waiting.goto(site.url + "/quick/")
            expect(waiting.get_by_text("you are one of them")).to_be_visible()
        for language, (name, path) in itertools.product(
            LANGUAGES, (alices if whose == "alice" else friends).items()
        ):
            cookie = {"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": site.url}
            page.context.add_cookies([cookie])
            page.set_viewport_size({"width": WIDTHS[0], "height": 900})
            page.goto(site.url + path)
            expect(page.locator(f'html[lang="{language}"]')).to_be_attached()
            expect(page.locator("main")).to_be_visible()
            for width in WIDTHS:
                if width != WIDTHS[0]:
                    page.set_viewport_size({"width": width, "height": 900})
                    next_frame(page)
                screenshot(page, f"lang-{language}-{width}-{name}")
                misfits += [
                    f"{language} {width} px {name}: {m}" for m in page.evaluate(MISFITS, width)
                ]
    assert not misfits, "\n".join(misfits)
