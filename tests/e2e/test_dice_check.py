"""The review's "Check the dice": the browser recomputes the fingerprint and every roll
from the revealed seed (WebCrypto), and names the first roll that does not match."""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connections
from django.test import Client
from playwright.sync_api import Page, Route, expect

from games.models import Game, GameEvent
from tests.conftest import create_game, play_to_the_end
from tests.e2e.conftest import screenshot
from tests.servers import Server


@pytest.fixture
def finished_game(transactional_db: None) -> Game:
    """Alice and Bob's upper-section game, played to the end with its committed dice.

    Played in a thread of its own: the moves' broadcasts must not meet the event loop
    Playwright runs in the test's thread."""

    def play() -> Game:
        alice = Client()
        try:
            return play_to_the_end(alice, create_game(alice, players="Bob", upper_only="on"))
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:
        game = pool.submit(play).result()
    assert game.dice_seed
    return game


def open_review(page: Page, site: Server, game: Game) -> None:
    page.goto(f"{site.url}/g/{game.code}/review/")
    expect(page.get_by_role("heading", name="Check the dice")).to_be_visible()


def test_the_browser_finds_that_every_roll_matches_the_seed(
    new_page, site: Server, finished_game: Game
) -> None:
    rolls = GameEvent.objects.filter(game=finished_game, kind=GameEvent.Kind.ROLL).count()
    page = new_page(375, 800)
    open_review(page, site, finished_game)
    expect(page.locator("[data-seed]")).to_have_text(finished_game.dice_seed)

    page.get_by_role("button", name="Check the dice").click()

    result = page.get_by_role("status").filter(has_text="dice")
    expect(result).to_have_text(
        f"The dice check out: all {rolls} rolls match the seed, and the seed matches the"
        " fingerprint."
    )
    assert rolls == 12  # two players, six turns, one roll each
    result.scroll_into_view_if_needed()
    screenshot(page, "review-dice-check-375")


def test_the_browser_names_the_first_roll_that_was_changed(
    new_page, site: Server, finished_game: Game
) -> None:
    page = new_page(375, 800)
    logged = GameEvent.objects.filter(game=finished_game, kind=GameEvent.Kind.ROLL)[2]
    shown = logged.data["dice"][1] % 6 + 1  # another face for the third roll's second die

    def tampered(route: Route) -> None:
        exported = route.fetch().json()
        exported["rolls"][2]["dice"][1] = shown
        route.fulfill(json=exported)

    page.route(re.compile(r"/dice\.json$"), tampered)
    open_review(page, site, finished_game)

    page.get_by_role("button", name="Check the dice").click()

    result = page.get_by_role("status").filter(has_text="Roll 3")
    expect(result).to_have_text(
        re.compile(
            rf"^Roll 3 does not match \(turn 3, roll 1\): die 2 shows {shown},"
            r" the seed gives [1-6]\.$"
        )
    )


def test_the_browser_refuses_a_seed_that_does_not_give_the_fingerprint(
    new_page, site: Server, finished_game: Game
) -> None:
    page = new_page()

    def other_seed(route: Route) -> None:
        exported = route.fetch().json()
        exported["seed"] = "0" * 64
        route.fulfill(body=json.dumps(exported), content_type="application/json")

    page.route(re.compile(r"/dice\.json$"), other_seed)
    open_review(page, site, finished_game)

    page.get_by_role("button", name="Check the dice").click()

    expect(page.get_by_role("status").filter(has_text="fingerprint")).to_have_text(
        "The dice do not match: the seed does not give the fingerprint."
    )
