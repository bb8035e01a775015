"""The daily challenge in a real browser: yesterday's games checked against the seed
revealed today, the day's table with its par and its share text copied, and a
finished daily game. Screenshots at a phone's and a desktop's width go to
var/screenshots/ (``daily-*.png``) with YATZY_SCREENSHOTS=1."""

from __future__ import annotations

import datetime as dt
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connections
from django.test import Client
from playwright.sync_api import Page, expect

from games.models import DailyChallenge, Game, GameEvent
from games.strategy.solver import Variant
from tests.conftest import play_to_the_end, solved_tables
from tests.e2e.conftest import screenshot
from tests.servers import Server
from tests.web.test_daily import enter, play_perfectly


def played(settings, days_ago: int) -> tuple[str, Game, Game]:
    """Alice's session, her daily game of ``days_ago`` days ago played perfectly, and
    Bob's of the same day played by the first open category; in a thread of its own
    (the moves' broadcasts must not meet Playwright's event loop)."""
    solved_tables(Variant("yatzy"))

    def play() -> tuple[str, Game, Game]:
        alice, bob = Client(), Client()
        try:
            settings.YATZY_CLOCK_SHIFT = dt.timedelta(days=-days_ago)
            alices = play_perfectly(alice, enter(alice))
            bobs = play_to_the_end(bob, enter(bob, name="Bob"))
            return alice.cookies["sessionid"].value, alices, bobs
        finally:
            settings.YATZY_CLOCK_SHIFT = dt.timedelta()
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(play).result()


@pytest.fixture
def yesterday(settings, transactional_db: None) -> tuple[str, Game, Game]:
    return played(settings, 1)


@pytest.fixture
def today(settings, transactional_db: None) -> tuple[str, Game, Game]:
    return played(settings, 0)


def as_alice(page: Page, site: Server, session: str) -> None:
    page.context.add_cookies([{"name": "sessionid", "value": session, "url": site.url}])


def test_yesterdays_game_checks_out_against_the_seed_revealed_today(
    new_page, site: Server, yesterday: tuple[str, Game, Game]
) -> None:
    _session, _alices, bobs = yesterday
    rolls = GameEvent.objects.filter(game=bobs, kind=GameEvent.Kind.ROLL).count()
    page = new_page(375, 800)  # anyone's browser: the day is over

    page.goto(f"{site.url}/g/{bobs.code}/review/")
    expect(page.locator("[data-seed]")).to_have_text(bobs.dice_seed)
    page.get_by_role("button", name="Check the dice").click()

    expect(page.get_by_role("status").filter(has_text="dice")).to_have_text(
        f"The dice check out: all {rolls} rolls match the seed, and the seed matches the"
        " fingerprint."
    )
    expect(page.get_by_text("Bob scored")).to_contain_text("against a par of")


def test_the_days_table_shows_the_par_and_copies_the_result_to_share(
    new_page, site: Server, today: tuple[str, Game, Game]
) -> None:
    session, alices, _bobs = today
    challenge = DailyChallenge.objects.get()
    total = alices.started_state().totals(0).total
    for width in (375, 1280):
        page = new_page(width, 900)
        page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site.url)
        as_alice(page, site, session)
        page.goto(f"{site.url}/daily/yatzy/{challenge.day.isoformat()}/")

        expect(page.locator(".par")).to_have_text(
            f"Par: {total}, what the Perfect computer player scores on this day's dice."
        )
        expect(page.get_by_role("table").first).to_contain_text("Alice (you)")
        assert challenge.seed not in page.content()
        page.get_by_role("button", name="Copy").click()
        expect(page.get_by_role("status").filter(has_text="Copied")).to_be_visible()
        copied = page.evaluate("navigator.clipboard.readText()")
        assert copied.startswith("Daily Scandinavian Yatzy challenge")
        assert f"{total} points, par {total}." in copied
        assert copied.endswith(f"/daily/yatzy/{challenge.day.isoformat()}/")
        screenshot(page, f"daily-table-{width}")


def test_a_finished_daily_game_leads_to_the_days_table_and_its_review(
    new_page, site: Server, today: tuple[str, Game, Game]
) -> None:
    session, alices, _bobs = today
    for width in (375, 1280):
        page = new_page(width, 900)
        as_alice(page, site, session)
        page.goto(f"{site.url}/g/{alices.code}/")

        expect(page.get_by_text("Daily challenge of")).to_be_visible()
        expect(page.get_by_role("link", name="The day's table and par")).to_be_visible()
        expect(page.get_by_role("button", name="Play again")).to_have_count(0)
        screenshot(page, f"daily-finished-{width}")
        page.get_by_role("link", name="Review the game").click()
        expect(page.get_by_text("Alice scored")).to_contain_text("against a par of")
        expect(page.get_by_role("button", name="Check the dice")).to_have_count(0)
        screenshot(page, f"daily-review-{width}")
